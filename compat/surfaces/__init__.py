"""One shape for a legacy surface, and the list every part of compat walks.

A *legacy surface* is one body of old behaviour the runner gives back to a
script: SciPy's removed names, Keras 1's arguments, TF 1.x's semantics, a
TF1-era library, ... Whatever it needs is declared in one :class:`Surface`,
kept in its own sub-package as ``compat/<package>/surface.py`` with a module
attribute ``SURFACE``. :func:`all_surfaces` finds them by file name, so adding
a surface is a new sub-package (or a ``surface.py`` in an existing one) plus its
test; ``python -m compat run`` (:mod:`compat.runner.run`), ``compat check``
(:mod:`compat.checker.check`) and ``%load_ext compat`` (:mod:`compat.notebook.extension`,
which installs through the runner) all walk the same list.

What a surface may declare (every field but ``name`` and ``summary`` optional):

* ``patches``: a factory of a :class:`~compat.surfaces.table_patches.TablePatches`:
  names a third-party library removed, put back on its real modules when they
  load, whole removed modules served, all undone when the script ends;
* ``finders``: import finders the surface puts on ``sys.meta_path`` for the
  script (modules it serves or refuses); each may have an ``undo()``;
* ``before_tensorflow`` / ``after_tensorflow``: changes made to the process
  before TensorFlow is imported (environment variables) or once it runs in
  graph mode (TF 1.x semantics); each returns its undo, or None;
* ``uses``: what ``compat check`` reports for a module's syntax tree (each a
  :class:`Use`);
* ``hint``: the one ``compat:`` line for a failure of the script it recognises.

Importing this package imports the standard library only and changes nothing;
:func:`all_surfaces` imports each ``surface.py`` (none of which may import
TensorFlow, NumPy or SciPy at module level).
"""
from __future__ import annotations

import ast
import functools
import importlib
import importlib.abc
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # only for the annotations: the runner's types, never imported at run time here
    from compat.surfaces.table_patches import TablePatches

__all__ = ["Context", "Surface", "Undo", "Use", "all_surfaces", "as_use", "by_name", "chain", "finders_of",
           "surface_modules"]

#: Puts back what a hook changed.
Undo = Callable[[], None]


class Use(NamedTuple):
    """One construct ``compat check`` reports: where, what, what the runner does, and its status.

    ``status`` is one of :data:`compat.checker.check.STATUSES` (``bridged`` when the
    runner provides the old behaviour, ``rewritten`` when the source is rewritten,
    ``unsupported`` when it cannot).
    """

    node: ast.AST
    construct: str
    action: str
    status: str = "bridged"


@dataclass
class Context:
    """What the runner hands a surface's hooks when it installs them for one script or notebook.

    ``scope``: which files are the script's own (a :class:`compat.runner.rewrite.LocalScope`);
    ``helpers``: the ``__compat__`` helpers of the source rewrite; ``python2``: True
    when every local module is Python 2 (``--py2``), None when recognised per module;
    ``options``: the run's options by name (``allow_pickle``, ``legacy_packages``, ...), as
    a child process must get them again; ``owns_module(module)``: True for a module of the
    script's own code (a notebook's cells included), whose functions TF1 semantics apply to.
    """

    scope: Any
    helpers: Any
    python2: bool | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    owns_module: Callable[[types.ModuleType], bool] = field(default=lambda module: False)


@dataclass(frozen=True)
class Surface:
    """Everything one legacy surface gives a script, for the runner, the checker and the notebook."""

    name: str
    summary: str
    patches: Callable[[], TablePatches] | None = None
    finders: Callable[[Context], Sequence[importlib.abc.MetaPathFinder]] | None = None
    before_tensorflow: Callable[[Context], Undo | None] | None = None
    after_tensorflow: Callable[[Context], Undo | None] | None = None
    uses: Callable[[ast.Module], Iterable[Use | tuple[ast.AST, str, str]]] | None = None
    hint: Callable[[BaseException], str | None] | None = None
    #: Installed in ascending order (ties by name); a finder of a lower order is asked first.
    order: int = 100


_COMPAT_DIR = Path(__file__).resolve().parent.parent


def surface_modules() -> list[str]:
    """The names of the modules that declare a surface: ``compat.<package>.surface``, found by file name."""
    return sorted(f"compat.{path.parent.name}.surface" for path in _COMPAT_DIR.glob("*/surface.py"))


@functools.cache
def all_surfaces() -> tuple[Surface, ...]:
    """Every declared surface, in installation order (``order``, then name)."""
    found: list[Surface] = []
    for name in surface_modules():
        module = importlib.import_module(name)
        declared = module.__dict__.get("SURFACE")
        if not isinstance(declared, Surface):
            raise TypeError(f"{name} must define SURFACE, a compat.surfaces.Surface (found {declared!r})")
        found.append(declared)
    return tuple(sorted(found, key=lambda s: (s.order, s.name)))


def finders_of(*factories: Callable[[], importlib.abc.MetaPathFinder]
               ) -> Callable[[Context], Sequence[importlib.abc.MetaPathFinder]]:
    """A ``finders`` hook that makes one finder from each factory (for finders that need no context)."""
    return lambda context: [make() for make in factories]


def chain(*undos: Undo | None) -> Undo:
    """One undo for several (the Nones skipped), run last first."""
    kept = [undo for undo in undos if undo is not None]

    def undo() -> None:
        while kept:
            kept.pop()()
    return undo


def as_use(found: Use | tuple[Any, ...]) -> Use:
    """A :class:`Use` from a hook's result (a plain ``(node, construct, action)`` is ``bridged``)."""
    return found if isinstance(found, Use) else Use(*found)


def by_name(name: str, surfaces: Iterable[Surface] | None = None) -> Surface:
    """The surface called ``name`` (KeyError naming the known ones otherwise)."""
    known = {s.name: s for s in (all_surfaces() if surfaces is None else surfaces)}
    if name not in known:
        raise KeyError(f"no legacy surface {name!r}; known: {', '.join(sorted(known))}")
    return known[name]
