"""``compat check`` following imports into installed TF1-era packages, as into the script's own modules.

:func:`package_sources` finds, without running anything, the modules of the
legacy packages (:class:`compat.tf1_libraries.recognise.LegacyPackages`) that
the script and its local modules import, and every module of those packages
reachable from them through their own imports; each is parsed as the runner
will read it (never translated from Python 2). :func:`refused_in_package` keeps,
of what a checker finds in them, only what the runner cannot handle: the rest
(every ``import tensorflow as tf`` of a library rewritten) is the library's
business, not the user's. Imports the standard library only; the runner's static modules
(the local-import resolution, the parser) and the checker are imported on use.
"""
from __future__ import annotations

import ast
import functools
import importlib.machinery
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from compat.tf1_libraries.recognise import LegacyPackages

if TYPE_CHECKING:  # the checker's static modules, imported on use: a surface imports no program at module level
    from compat.runner.rewrite import LocalSource

__all__ = ["RefusedInPackage", "package_sources", "refused_in_package", "refused_in_packages"]


class _Finding(Protocol):
    @property
    def handled(self) -> bool: ...


F = TypeVar("F", bound=_Finding)


def _imported_tops(tree: ast.Module) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def _package_root(top: str) -> tuple[Path, Path] | None:
    """(the folder holding ``top``, the package's folder or module file), found without importing it."""
    spec = importlib.machinery.PathFinder.find_spec(top)
    if spec is None:
        return None
    if spec.submodule_search_locations:
        folder = Path(next(iter(spec.submodule_search_locations))).resolve()
        return folder.parent, folder
    if spec.origin and spec.origin.endswith(".py"):
        file = Path(spec.origin).resolve()
        return file.parent, file
    return None


def _parse(path: Path) -> LocalSource:
    from compat.runner import rewrite
    try:
        tree, _ = rewrite.parse_legacy(rewrite.read_source(path), str(path), python2=False)
        return rewrite.LocalSource(path, tree=tree)
    except SyntaxError as err:
        return rewrite.LocalSource(path, error=err)


def package_sources(sources: Iterable[LocalSource], packages: LegacyPackages | None = None
                    ) -> Iterator[LocalSource]:
    """The modules of the legacy packages ``sources`` (the script's own modules) import, and those
    they import in turn, each parsed once.

    ``import pkg.sub`` runs ``pkg/__init__.py`` and ``pkg/sub.py``; the walk then
    follows the package's own absolute and relative imports, staying inside it.
    """
    from compat.runner import local_imports
    packages = packages or LegacyPackages()
    local = [(s.path, s.tree) for s in sources if s.tree is not None]
    roots: dict[str, tuple[Path, Path]] = {}
    for _, tree in local:
        for top in _imported_tops(tree):
            if top not in roots and packages.is_legacy(top):
                root = _package_root(top)
                if root is not None:
                    roots[top] = root
    for site, package in roots.values():
        def inside(path: Path, package: Path = package) -> bool:
            return path == package or path.is_relative_to(package)
        started = (f.resolve() for path, tree in local for f in local_imports.imported_files(tree, path, [site]))
        queue: deque[Path] = deque(dict.fromkeys(f for f in started if inside(f)))
        seen = set(queue)
        while queue:
            source = _parse(queue.popleft())
            yield source
            if source.tree is None:
                continue
            for found in local_imports.imported_files(source.tree, source.path, [site]):
                resolved = found.resolve()
                if resolved not in seen and inside(resolved):
                    seen.add(resolved)
                    queue.append(resolved)


def refused_in_packages(script: Path, scope: Any, findings_of: Callable[[str, LocalSource], Iterable[F]],
                        python2: bool | None = None) -> list[F]:
    """What the runner cannot handle in the legacy packages ``script`` (in ``scope``) imports.

    ``findings_of(path, source)`` is the checker's verdicts for one module (``path``:
    the file as the report names it, ``package/module.py``); only the findings not
    ``handled`` are kept.
    """
    from compat.runner import rewrite
    refused: list[F] = []
    for source in package_sources(list(rewrite.walk_local_modules(Path(script), scope, python2))):
        site = _site_of(source.path)
        named = str(source.path.relative_to(site)) if site is not None else str(source.path)
        refused.extend(f for f in findings_of(named, source) if not f.handled)
    return refused


def _site_of(path: Path) -> Path | None:
    for parent in path.parents:
        if parent.name in ("site-packages", "dist-packages"):
            return parent
    return None


class RefusedInPackage(NamedTuple):
    """One construct of an installed legacy package the runner cannot handle (``file`` relative to site-packages)."""

    file: str
    line: int
    construct: str
    action: str


#: The packages being checked now: checking a package's modules asks the surfaces about its own
#: ``import top`` lines again, which must not start the same walk.
_IN_PROGRESS: set[str] = set()


def refused_in_package(top: str) -> tuple[RefusedInPackage, ...]:
    """What ``compat check``'s verdicts refuse in the legacy package ``top`` (imported as a whole), once per run.

    Uses the checker's own per-module verdicts (:mod:`compat.checker.check`, imported
    here on first use), so a construct is refused in a library exactly when it would be
    in a script.
    """
    if top in _IN_PROGRESS:
        return ()
    _IN_PROGRESS.add(top)
    try:
        return _refused_in_package(top)
    finally:
        _IN_PROGRESS.discard(top)


@functools.cache
def _refused_in_package(top: str) -> tuple[RefusedInPackage, ...]:
    from compat.checker import check  # the checker is what calls this (through the surface's uses hook)
    from compat.runner.rewrite import LocalSource
    bridged = check._scipy_bridged_names()
    start = LocalSource(Path.cwd() / "<check>.py", tree=ast.parse(f"import {top}\n"))

    def findings_of(name: str, source: LocalSource) -> list[Any]:
        assert source.tree is not None  # package_sources yields parsed modules to check
        checker = check._ModuleChecker(name, source.tree, bridged, python2=False)
        checker.visit(source.tree)
        return checker.findings
    found: list[RefusedInPackage] = []
    for source in package_sources([start]):
        if source.tree is None:
            continue
        site = _site_of(source.path)
        named = str(source.path.relative_to(site)) if site is not None else str(source.path)
        found.extend(RefusedInPackage(named, f.line, f.construct, f.action)
                     for f in findings_of(named, source) if not f.handled)
    return tuple(found)
