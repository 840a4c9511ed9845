"""What the runner changes in its own process for a script, built from the declared legacy surfaces.

:func:`install` walks :func:`compat.surfaces.all_surfaces` once and puts on
``sys.meta_path``, first:

* the :class:`compat.runner.rewrite.LegacyFinder`: the script's own modules (files below
  its folder, a ``PYTHONPATH`` folder or a folder its code adds to ``sys.path``, see
  :func:`compat.runner.rewrite.script_scope`; never installed packages) are compiled
  through :func:`compat.runner.rewrite.compile_legacy`;
* every surface's own finders, in the surfaces' order (``scipy.misc``, the tutorial
  modules, ``tf.estimator``, ``tf.contrib``, ...; the TF1 surface, which refuses removed
  TensorFlow modules, is asked last);
* one :class:`PatchesFinder` for every surface's ``patches``: third-party modules get the
  names they lost when they load (``scipy.ndimage.imread``, ``sklearn.cross_validation``, ...).

:func:`prepare_tensorflow` then runs each surface's ``before_tensorflow`` hook, imports
TensorFlow and switches it to graph mode, and runs each ``after_tensorflow`` hook.
:meth:`Installation.uninstall` undoes all of it, last first, except the graph-mode switch
(which the notebook undoes itself). Nothing here names a surface: adding one needs no edit.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import pkgutil
import sys
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compat.runner import rewrite
from compat.surfaces import Context, Surface, Undo, all_surfaces
from compat.surfaces.modules import ModuleObjectLoader, forget_module
from compat.surfaces.table_patches import TablePatches
from compat.tf1 import namespace as tf1

__all__ = ["Installation", "PatchesFinder", "disable_v2_behavior_quietly", "install", "prepare_tensorflow"]


class _AddedAttributesLoader(importlib.abc.Loader):
    """Runs a module's own loader, then adds attributes the module lost (``scipy.ndimage.imread``)."""

    def __init__(self, loader: importlib.abc.Loader, add: Callable[[types.ModuleType], None]) -> None:
        self._loader = loader
        self._add = add

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        """What the module's own loader creates."""
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        """Run the module's own code, then add the attributes."""
        self._loader.exec_module(module)
        self._add(module)

    def __getattr__(self, name: str) -> Any:
        # get_source, get_filename, resource readers ...: the module's own loader answers.
        return getattr(self._loader, name)


class PatchesFinder(importlib.abc.MetaPathFinder):
    """Applies the surfaces' :class:`TablePatches` to third-party modules as they load, serves the whole
    removed modules they declare (``sklearn.cross_validation``), and :meth:`undo`\\ es both."""

    def __init__(self, patches: Sequence[TablePatches]) -> None:
        self._patches = list(patches)
        #: Module name -> every patcher with names for it (two surfaces may patch one module).
        self._patched_modules: dict[str, list[TablePatches]] = {}
        for one in self._patches:
            for name in one.modules:
                self._patched_modules.setdefault(name, []).append(one)
        # Whole removed modules some patches serve: name -> factory.
        self._module_factories = {name: make for one in self._patches for name, make in one.served_modules.items()}
        #: The module objects served from those factories, made on first import.
        self._served: dict[str, types.ModuleType] = {}
        for name in sorted(self._patched_modules):
            module = sys.modules.get(name)
            if module is not None:  # already imported before the script started
                self._apply(module)

    def _apply(self, module: types.ModuleType) -> None:
        for one in self._patched_modules.get(module.__name__, ()):
            one.apply(module)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The module's own spec with a loader that adds its lost names; a served module's spec; else None."""
        if fullname in self._patched_modules:
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
            if spec is not None and spec.loader is not None:
                spec.loader = _AddedAttributesLoader(spec.loader, self._apply)
            return spec
        if fullname in self._module_factories:
            if fullname not in self._served:
                self._served[fullname] = self._module_factories[fullname]()  # a factory may refuse
            served = self._served[fullname]
            return importlib.util.spec_from_loader(fullname, ModuleObjectLoader(served),
                                                   is_package=hasattr(served, "__path__"))
        return None

    def undo(self) -> None:
        """Take away the names added and the modules served."""
        for one in self._patches:
            one.undo()
        for name, module in self._served.items():
            forget_module(name, module)
        self._served.clear()


@dataclass
class Installation:
    """What :func:`install` changed, so that :meth:`uninstall` can put it back."""

    context: Context
    surfaces: tuple[Surface, ...]
    finders: list[importlib.abc.MetaPathFinder] = field(default_factory=list)
    saved_modules: dict[str, types.ModuleType | None] = field(default_factory=dict)
    undo: list[Undo] = field(default_factory=list)

    @property
    def scope(self) -> rewrite.LocalScope:
        """Which files are the script's own."""
        scope: rewrite.LocalScope = self.context.scope
        return scope

    @property
    def helpers(self) -> rewrite.LegacyHelpers:
        """The ``__compat__`` helpers of the source rewrite."""
        helpers: rewrite.LegacyHelpers = self.context.helpers
        return helpers

    def uninstall(self) -> None:
        """Undo the hooks, remove the finders (each undone), restore the ``sys.modules`` entries."""
        while self.undo:
            self.undo.pop()()
        for finder in reversed(self.finders):
            if finder in sys.meta_path:
                sys.meta_path.remove(finder)
            undo = getattr(finder, "undo", None)
            if callable(undo):
                undo()
        self.finders.clear()
        for name, previous in self.saved_modules.items():
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous
        self.saved_modules.clear()

    def __enter__(self) -> Installation:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.uninstall()


def _has_own_compat(folder: Path) -> bool:
    """True if the script's folder has its own top-level ``compat`` module or package."""
    own = (folder / "compat.py", folder / "compat" / "__init__.py")
    ours = Path(__file__).resolve().parents[1]
    return any(path.is_file() and path.resolve().parent != ours for path in own)


def _release_compat_name(installation: Installation, folder: Path) -> None:
    """Let the script import its own ``compat`` from ``folder``: drop ours from ``sys.modules``.

    Only the top-level name, and our sub-packages whose names the script's own
    ``compat`` package also has, are dropped (kept alive by reference). Our other
    sub-packages stay registered, imported first if need be (their ``__init__``
    imports nothing heavy), so that what the runner imports on use later
    (``compat.contrib.rnn`` when the script touches ``tf.contrib.rnn``) is still
    found through them and never through the script's package.
    """
    ours = Path(__file__).resolve().parents[1]
    for info in pkgutil.iter_modules([str(ours)], "compat."):
        if info.ispkg:
            importlib.import_module(info.name)
    theirs = folder / "compat"
    clashing = {p.stem for p in theirs.iterdir()} if theirs.is_dir() else set()
    for name in [n for n in sys.modules if n == "compat" or n.startswith("compat.")]:
        parts = name.split(".")
        if len(parts) > 1 and parts[1] not in clashing:
            continue
        module = sys.modules[name]
        if module is not None:
            installation.saved_modules.setdefault(name, module)
            del sys.modules[name]


def _module_predicate(scope: rewrite.LocalScope) -> Callable[[types.ModuleType], bool]:
    """True for modules loaded from the script's own files (the script itself included)."""
    known: dict[str, bool] = {}

    def is_legacy(module: types.ModuleType) -> bool:
        filename = getattr(module, "__file__", None)
        if not isinstance(filename, str):
            return False
        if filename not in known:
            known[filename] = scope.contains(filename)
        return known[filename]
    return is_legacy


def install(script_dir: Path, scope: rewrite.LocalScope | None = None, python2: bool | None = None,
            options: Mapping[str, Any] | None = None) -> Installation:
    """Install the legacy import machinery for a script in ``script_dir`` (this process only).

    ``scope`` says which files are the script's own (rewritten); by default the
    files below ``script_dir``. ``python2=True`` translates every local module
    as Python 2 (``compat run --py2``); None recognises Python 2 modules
    (:mod:`compat.py2.translate`). ``options``: the run's options, handed to the surfaces.

    Returns the :class:`Installation`; its ``uninstall`` undoes everything but
    the TensorFlow graph-mode switch, which :func:`prepare_tensorflow` makes.
    """
    scope = scope or rewrite.LocalScope(script_dir)
    numpy_legacy = importlib.import_module("compat.numpy1.bytes_helpers")
    helpers = rewrite.LegacyHelpers(tf1.tf1_namespace, numpy_legacy)
    context = Context(scope=scope, helpers=helpers, python2=python2, options=options if options is not None else {},
                      owns_module=_module_predicate(scope))
    surfaces = all_surfaces()
    installation = Installation(context=context, surfaces=surfaces)
    try:
        finders: list[importlib.abc.MetaPathFinder] = [rewrite.LegacyFinder(scope, helpers, python2)]
        for surface in surfaces:
            if surface.finders is not None:
                finders.extend(surface.finders(context))
        finders.append(PatchesFinder([s.patches() for s in surfaces if s.patches is not None]))
        installation.finders = finders
        sys.meta_path[0:0] = finders
    except BaseException:
        installation.uninstall()
        raise
    if _has_own_compat(scope.root):
        _release_compat_name(installation, scope.root)
    return installation


def legacy_finder(installation: Installation) -> rewrite.LegacyFinder:
    """The finder of the script's own modules."""
    for finder in installation.finders:
        if isinstance(finder, rewrite.LegacyFinder):
            return finder
    raise LookupError("this installation has no LegacyFinder")


def _run_hooks(installation: Installation, stage: str) -> None:
    for surface in installation.surfaces:
        hook = getattr(surface, stage)
        if hook is not None:
            undo = hook(installation.context)
            if undo is not None:
                installation.undo.append(undo)


def prepare_tensorflow(installation: Installation) -> Any:
    """The surfaces' ``before_tensorflow`` hooks, TensorFlow in TF1 graph mode, then their
    ``after_tensorflow`` hooks; returns the ``tensorflow`` module."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    _run_hooks(installation, "before_tensorflow")
    import tensorflow as tf
    disable_v2_behavior_quietly(tf)
    _run_hooks(installation, "after_tensorflow")
    return tf


def disable_v2_behavior_quietly(tf: types.ModuleType) -> None:
    """``disable_v2_behavior()`` without the deprecation note it logs about itself.

    The note ("disable_resource_variables ... is deprecated") is about the runner's
    own call, not the script, so it would only mislead; the logger's level is restored.
    """
    logger = tf.get_logger()
    level = logger.level
    logger.setLevel("ERROR")
    try:
        tf.compat.v1.disable_v2_behavior()
    finally:
        logger.setLevel(level)


def surface_hint(installation_surfaces: Sequence[Surface], exc: BaseException) -> str | None:
    """The first surface's ``compat:`` line for ``exc``, or None."""
    for surface in installation_surfaces:
        if surface.hint is not None:
            hint = surface.hint(exc)
            if hint is not None:
                return hint
    return None
