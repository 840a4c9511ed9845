"""The ``imp`` module (removed in Python 3.12), as far as old scripts used it, on :mod:`importlib`.

Served by :mod:`compat.stdlib.runtime` to the script's own ``import imp`` only
when the running Python has no ``imp``. Covers ``load_source`` (loading a
config or model file by path, the common use), ``reload``, ``new_module``,
``find_module``/``load_module`` for source modules and packages, and the
module-type constants.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from typing import IO, Any

__all__ = ["C_EXTENSION", "PKG_DIRECTORY", "PY_COMPILED", "PY_SOURCE", "find_module", "get_suffixes",
           "load_module", "load_source", "new_module", "reload"]

PY_SOURCE = 1
PY_COMPILED = 2
C_EXTENSION = 3
PKG_DIRECTORY = 5


def new_module(name: str) -> types.ModuleType:
    """An empty module called ``name`` (not put in ``sys.modules``)."""
    return types.ModuleType(name)


def reload(module: types.ModuleType) -> types.ModuleType:
    """``importlib.reload``; a module of :func:`load_source` (not on ``sys.path``) is run again from its file."""
    spec = module.__spec__  # importlib.reload replaces it, with None when it finds no spec
    try:
        return importlib.reload(module)
    except ModuleNotFoundError:
        if spec is None or spec.loader is None:
            raise
        module.__spec__ = spec
        spec.loader.exec_module(module)
        return module


def load_source(name: str, pathname: str, file: IO[Any] | None = None) -> types.ModuleType:
    """Run the Python file ``pathname`` as module ``name``, put it in ``sys.modules`` and return it.

    Raises:
        FileNotFoundError: ``pathname`` does not exist.
    """
    if not os.path.isfile(pathname):
        raise FileNotFoundError(f"load_source: no such file: {pathname!r}")
    loader = importlib.machinery.SourceFileLoader(name, pathname)
    spec = importlib.util.spec_from_loader(name, loader)
    if spec is None:
        raise ImportError(f"load_source: cannot load {pathname!r}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


def get_suffixes() -> list[tuple[str, str, int]]:
    """(suffix, mode, type) of the files Python imports, as ``imp`` listed them."""
    return ([(s, "rb", C_EXTENSION) for s in importlib.machinery.EXTENSION_SUFFIXES]
            + [(s, "r", PY_SOURCE) for s in importlib.machinery.SOURCE_SUFFIXES]
            + [(s, "rb", PY_COMPILED) for s in importlib.machinery.BYTECODE_SUFFIXES])


def find_module(name: str, path: list[str] | None = None) -> tuple[IO[Any] | None, str, tuple[str, str, int]]:
    """(open file or None, path, (suffix, mode, type)) of a source module or package ``name`` in ``path``.

    Raises:
        ImportError: ``name`` is not found as a source module or package.
    """
    for folder in (sys.path if path is None else path):
        package = os.path.join(folder or ".", name)
        if os.path.isfile(os.path.join(package, "__init__.py")):
            return None, package, ("", "", PKG_DIRECTORY)
        candidate = package + ".py"
        if os.path.isfile(candidate):
            return open(candidate), candidate, (".py", "r", PY_SOURCE)  # noqa: SIM115 - imp's contract
    raise ImportError(f"No module named {name!r}", name=name)


def load_module(name: str, file: IO[Any] | None, pathname: str,
                description: tuple[str, str, int]) -> types.ModuleType:
    """Load what :func:`find_module` found (a source module or a package) as ``name``."""
    kind = description[2]
    if kind == PKG_DIRECTORY:
        return load_source(name, os.path.join(pathname, "__init__.py"))
    if kind == PY_SOURCE:
        try:
            return load_source(name, pathname)
        finally:
            if file is not None:
                file.close()
    raise ImportError(f"load_module: only source modules and packages are served, not type {kind}", name=name)
