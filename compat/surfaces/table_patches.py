"""Names a third-party library removed, put back on its real modules and classes while a script runs.

SciPy, Matplotlib, scikit-learn and pandas each have a table (``compat/*_legacy/``)
of the names they removed (:class:`Removed`: added only where the owner lacks the
name) and of the names they kept but whose old calls they now refuse
(:class:`Replaced`: wrapped only when the installed value refuses). A table's
owners are modules (``"scipy.signal"``) or classes of a module
(``"pandas:DataFrame"``). :class:`TablePatches` applies one table to each module
the runner sees loaded, and :meth:`TablePatches.undo` restores every owner by
identity when the script ends, leaving a value the script rebound. Importing
this module imports the standard library only; creating a patcher changes nothing.
"""
from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["WRAPPER_MARK", "Removed", "Replaced", "TablePatches", "accepts", "const", "wrapper"]

#: Set on every wrapper of a ``Replaced`` entry, so that a wrapper is never wrapped again.
WRAPPER_MARK = "__compat_legacy_wrapper__"


@dataclass(frozen=True)
class Removed:
    """A removed name: what replaced it, and a factory for its old value (called once, when it is added).

    ``receiver``: for a method whose name alone is ambiguous, the attribute it is reached
    through (``canvas`` for ``fig.canvas.set_window_title``); ``compat check`` uses it.
    """

    replacement: str
    make: Callable[[], Any]
    receiver: str | None = None


@dataclass(frozen=True)
class Replaced:
    """A name the library still has but whose old calls it refuses.

    ``needed(current)`` says whether the installed value refuses the old call;
    ``make(current)`` returns the wrapper that accepts it and calls ``current``.
    """

    replacement: str
    needed: Callable[[Any], bool]
    make: Callable[[Any], Any]


def const(value: Any) -> Callable[[], Any]:
    """A factory returning ``value``."""
    return lambda: value


def accepts(function: Any, keyword: str) -> bool:
    """True if ``function`` names ``keyword`` as a parameter (``**kwargs`` do not count: libraries pass
    those on to other callables, which refuse the old keyword)."""
    try:
        return keyword in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return True  # no signature to read: leave the installed value alone


def wrapper(current: Callable[..., Any], replacement: Callable[..., Any]) -> Callable[..., Any]:
    """``replacement`` with ``current``'s name, docstring and ``__wrapped__`` (``inspect.signature``, which
    scikit-learn's ``get_params`` reads, still shows ``current``'s parameters), marked :data:`WRAPPER_MARK`."""
    wrapped = functools.wraps(current)(replacement)
    setattr(wrapped, WRAPPER_MARK, True)
    return wrapped


#: Marks "the owner had no such attribute of its own" in the undo log (None may be a real value).
_ABSENT = object()


class TablePatches:
    """One library's removed and replaced names, applied to its modules as they load, and undone.

    ``removed`` / ``replaced``: owner (``module`` or ``module:Class``) -> name -> entry.
    ``served_modules``: whole removed modules the runner serves (full name -> factory).
    """

    def __init__(self, removed: Mapping[str, Mapping[str, Removed]],
                 replaced: Mapping[str, Mapping[str, Replaced]] | None = None,
                 served_modules: Mapping[str, Callable[[], types.ModuleType]] | None = None) -> None:
        self._removed = removed
        self._replaced = replaced or {}
        self._served_modules = dict(served_modules or {})
        #: (owner, name, the owner's own value or _ABSENT, the value put there)
        self._done: list[tuple[Any, str, Any, Any]] = []
        #: The modules already patched (by identity: a reloaded module is patched again).
        self._applied: list[types.ModuleType] = []

    @property
    def modules(self) -> frozenset[str]:
        """The modules that get names (the modules of the owners of both tables)."""
        return frozenset(owner.partition(":")[0] for owner in (*self._removed, *self._replaced))

    @property
    def served_modules(self) -> dict[str, Callable[[], types.ModuleType]]:
        """Removed modules the runner serves whole: full name -> factory of the module object."""
        return dict(self._served_modules)

    def removed_names(self, key: str, owner: Any) -> Mapping[str, Removed]:
        """The removed names of ``owner`` (table ``key``); a subclass may compute them from ``owner``."""
        return self._removed.get(key, {})

    def apply(self, module: types.ModuleType) -> None:
        """Give the loaded ``module`` and its classes the names they lost (once; a module not in
        :attr:`modules` is left alone)."""
        if module.__name__ not in self.modules or any(done is module for done in self._applied):
            return
        self._applied.append(module)
        for key, owner in _owners(module, self._removed):
            for attr, entry in self.removed_names(key, owner).items():
                # hasattr, not __dict__: a class inherits methods, and an inherited one is not missing.
                if not hasattr(owner, attr):
                    self._put(owner, attr, entry.make())
        for key, owner in _owners(module, self._replaced):
            for attr, replaced in self._replaced[key].items():
                current = getattr(owner, attr, None)
                if current is None or getattr(current, WRAPPER_MARK, False) or not replaced.needed(current):
                    continue
                self._put(owner, attr, replaced.make(current))

    def _put(self, owner: Any, attr: str, value: Any) -> None:
        self._done.append((owner, attr, owner.__dict__.get(attr, _ABSENT), value))
        setattr(owner, attr, value)

    def undo(self) -> None:
        """Take every added name away again, and give wrapped names the library's own values back."""
        for owner, attr, had, value in reversed(self._done):
            if owner.__dict__.get(attr) is not value:
                continue  # the script rebound it: its value stays
            if had is _ABSENT:
                delattr(owner, attr)
            else:
                setattr(owner, attr, had)
        self._done.clear()
        self._applied.clear()


def _owners(module: types.ModuleType, table: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """``(key, owner)`` for each owner of ``table`` in ``module``: the module itself for ``"pandas"``,
    the class for ``"pandas:DataFrame"`` (skipped if the module lacks it)."""
    for key in table:
        module_name, _, class_name = key.partition(":")
        if module_name != module.__name__:
            continue
        owner = getattr(module, class_name, None) if class_name else module
        if owner is not None:
            yield key, owner
