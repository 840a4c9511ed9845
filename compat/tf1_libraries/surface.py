"""Installed TF1-era libraries as a legacy surface (see :mod:`compat.surfaces`).

* import machinery: :class:`compat.tf1_libraries.finder.LegacyPackageFinder`, first on
  ``sys.meta_path``, serves the modules of the packages
  :class:`compat.tf1_libraries.recognise.LegacyPackages` recognises (with the names of
  ``--legacy-package``, ``context.options["legacy_packages"]``) through the source rewrite;
* the names TensorFlow's internals lost that these libraries import (``nest.is_sequence``,
  ...) are entries of :data:`compat.tf1.deep_modules.DEEP_ADDITIONS`, added with the others
  once TensorFlow runs in graph mode (by the TF1 surface);
* ``tensorflow.compat.v1.estimator``, which tensorflow-hub 0.15's ``hub.Module`` imports
  (:mod:`compat.tf1_libraries.estimator_path`);
* TF 1.0-1.7's ``variable_scope._VARSCOPE_KEY`` collection, through which PrettyTensor
  enters its layers' scopes (:mod:`compat.tf1_libraries.varscope`), once TensorFlow has loaded;
* Pillow's ``Image.ANTIALIAS`` & co., removed in Pillow 10, which TFLearn uses as a default
  argument (:mod:`compat.tf1_libraries.pillow`);
* ``compat check``: an import of a known library that is installed is reported as served,
  one that is missing as unsupported with what to install (:data:`compat.runner.hints.MISSING_PACKAGES`);
  the imports are followed into the served package (:mod:`compat.tf1_libraries.follow`) and what
  the runner refuses there is reported as a ``warning`` at the script's import line;
* the hint for a failure inside an installed package that was not recognised names
  ``--legacy-package``.
"""
from __future__ import annotations

import ast
import functools
import importlib.abc
import importlib.machinery
import os
import traceback
from collections.abc import Iterator, Sequence

from compat.surfaces import Context, Surface, Use
from compat.tf1_libraries import varscope
from compat.tf1_libraries.estimator_path import CompatV1EstimatorFinder
from compat.tf1_libraries.finder import LegacyPackageFinder
from compat.tf1_libraries.known import by_module
from compat.tf1_libraries.pillow import PillowPatches
from compat.tf1_libraries.recognise import NEVER_LEGACY, LegacyPackages

__all__ = ["SURFACE", "installed_failure_hint"]


def _finders(context: Context) -> Sequence[importlib.abc.MetaPathFinder]:
    named = tuple(context.options.get("legacy_packages", ()) or ())
    finder = LegacyPackageFinder(LegacyPackages(named), context.helpers)
    # A served library's modules are TF1 code as the script's own are (AutoGraph kept off their
    # functions, ...): the hooks installed after this read the widened predicate.
    owns_file = context.owns_module
    context.owns_module = lambda module: owns_file(module) or finder.owns(module)
    return [finder, CompatV1EstimatorFinder()]


@functools.cache
def _default_packages() -> LegacyPackages:
    """The decisions ``compat check`` reports (without ``--legacy-package``, which only ``run`` takes)."""
    return LegacyPackages()


def _imported_modules(tree: ast.Module) -> Iterator[tuple[ast.stmt, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node, node.module


def _installed(top: str) -> bool:
    return importlib.machinery.PathFinder.find_spec(top) is not None


def _uses(tree: ast.Module) -> Iterator[Use]:
    """``import tflearn``: served as TF1 code when installed, unsupported (with what to install) when not."""
    seen: set[str] = set()
    for node, module in _imported_modules(tree):
        top = module.split(".")[0]
        known = by_module(top)
        if top in seen or (known is None and not _default_packages().is_legacy(top)):
            continue
        seen.add(top)
        if not _installed(top):
            from compat.runner.hints import missing_package_hint
            advice = missing_package_hint(top) or f"{top} is not installed"
            yield Use(node, f"import {top}", advice, "unsupported")
            continue
        decision = _default_packages().decide(top)
        if decision.legacy:
            yield Use(node, f"import {top}", f"{decision.reason}: the runner serves its modules as TensorFlow 1 "
                                             "code (rewritten in memory; the installed files are not changed)")
            yield from _refused_inside(node, top)


def _refused_inside(node: ast.stmt, top: str) -> Iterator[Use]:
    """What the runner refuses inside the installed package ``top``, as warnings at the script's import:
    the script runs, and fails only if it reaches that part of the library."""
    from compat.tf1_libraries.follow import refused_in_package
    for found in refused_in_package(top):
        yield Use(node, f"{found.file}:{found.line}: {found.construct}",
                  f"inside {top}, which the script imports: {found.action} (fails only if the script reaches "
                  "that part of the library)", "warning")


#: Failures of TF1-era code on today's stack: TensorFlow 1 names, NumPy 1 names (np.float).
_TF1_FAILURES = ("tensorflow", "tf.", "contrib", "module 'numpy' has no attribute")


def _installed_package_of(exc: BaseException) -> str | None:
    """The installed top-level package of the innermost frame of ``exc`` outside the runner's own
    stack (NumPy or TensorFlow raising is the frame below the library that called them), or None."""
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        parts = os.path.normpath(frame.filename).split(os.sep)
        for marker in ("site-packages", "dist-packages"):
            if marker in parts and parts.index(marker) + 1 < len(parts):
                package = parts[parts.index(marker) + 1].removesuffix(".py")
                if package not in NEVER_LEGACY:
                    found = package
    return found


def installed_failure_hint(exc: BaseException) -> str | None:
    """The hint for a TF1-looking failure inside an installed package the runner did not serve as TF1 code."""
    if not isinstance(exc, (ImportError, AttributeError)):
        return None
    text = str(exc)
    if not any(marker in text for marker in _TF1_FAILURES):
        return None
    package = _installed_package_of(exc)
    if package is None or _default_packages().is_legacy(package):
        return None
    return (f"the installed package {package} failed on today's stack; if it was written for TensorFlow 1, "
            f"run with `python -m compat run --legacy-package {package} SCRIPT` to serve it as TF1 code")


SURFACE = Surface(
    name="tf1_libraries",
    summary="installed TF1-era libraries (TFLearn, TensorLayer 1.x, Sonnet 1, PrettyTensor, tensorpack 0.9) "
            "served as TensorFlow 1 code",
    patches=PillowPatches,
    finders=_finders,
    after_tensorflow=lambda context: varscope.install(),
    uses=_uses,
    hint=installed_failure_hint,
    order=0,
)
