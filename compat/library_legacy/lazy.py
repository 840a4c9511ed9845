"""Wrapping the functions of a lazily loaded package (``lazy_loader``: scikit-image, librosa) on access.

Such a package resolves its public names in a module-level ``__getattr__``, importing
a submodule on first use, and caches each resolved name in the package's namespace.
Asking every name at once, to wrap the ones whose old calls are refused, would import
the whole library (measured: 5 s for librosa, 2.6 s for scikit-image). Instead the
table wraps the package's ``__getattr__`` (:func:`getattr_entry`): a function it
resolves goes through ``wrap`` once and the wrapper is what gets cached, so every
later access (``librosa.stft is librosa.stft``) finds the same wrapper.
:class:`LazyTablePatches` takes the cached wrappers away again on undo, after the
table has put the package's own ``__getattr__`` back. Imports the standard library only.
"""
from __future__ import annotations

import functools
import sys
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from compat.surfaces.table_patches import WRAPPER_MARK, Replaced, TablePatches, wrapper

__all__ = ["LazyTablePatches", "PerModuleTable", "getattr_entry", "is_lazy"]

#: (package namespace, name, wrapper) of every wrapper a wrapped ``__getattr__`` cached.
_CACHED: list[tuple[dict[str, Any], str, Any]] = []


def is_lazy(module: Any) -> bool:
    """True if ``module`` resolves names in a module-level ``__getattr__`` (a lazily loaded package)."""
    return callable(getattr(module, "__dict__", {}).get("__getattr__"))


def getattr_entry(module: types.ModuleType, wrap: Callable[[str, Any], Any | None], replacement: str) -> Replaced:
    """The table entry for the lazy package ``module``'s ``__getattr__``: ``wrap(name, value)`` gives the
    wrapper of a value it changes (None: the value is returned and cached as it is)."""
    namespace = module.__dict__

    def make(current: Callable[[str], Any]) -> Callable[[str], Any]:
        def __getattr__(name: str) -> Any:  # noqa: N807 - the module hook it wraps
            value = current(name)  # resolves the name and caches it in the namespace
            if getattr(value, WRAPPER_MARK, False):
                # already wrapped where the package took it from (a patched subpackage): cached as it is,
                # taken away on undo all the same
                if namespace.get(name) is value:
                    _CACHED.append((namespace, name, value))
                return value
            replacement_value = wrap(name, value)
            if replacement_value is None:
                return value
            if namespace.get(name) is value:
                namespace[name] = replacement_value
                _CACHED.append((namespace, name, replacement_value))
            return replacement_value
        return wrapper(current, __getattr__)
    return Replaced(replacement, lambda current: callable(current), make)


class LazyTablePatches(TablePatches):
    """A :class:`TablePatches` whose undo also takes away the wrappers its wrapped ``__getattr__`` cached
    (the package resolves the name again, unwrapped, on the next access)."""

    def undo(self) -> None:
        """The table's undo, then the cached wrappers of this table's modules."""
        super().undo()
        modules = self.modules
        for namespace, name, value in reversed(list(_CACHED)):
            if namespace.get("__name__") in modules:
                if namespace.get(name) is value:
                    del namespace[name]
                _CACHED.remove((namespace, name, value))


class PerModuleTable(Mapping[str, Mapping[str, Replaced]]):
    """A ``Replaced`` table computed from each loaded module when the runner applies it, so that the
    list follows the installed library: module -> public name -> ``entry(module, name, value)`` (None:
    left alone). A lazily loaded package gets its ``__getattr__`` wrapped instead, with
    ``wrap(module, name, value)``, so that applying the table imports nothing."""

    def __init__(self, modules: Iterable[str], entry: Callable[[str, str, Any], Replaced | None],
                 wrap: Callable[[str, str, Any], Any | None], replacement: str) -> None:
        self._modules = tuple(sorted(set(modules)))
        self._entry = entry
        self._wrap = wrap
        self._replacement = replacement

    def __getitem__(self, module_name: str) -> Mapping[str, Replaced]:
        if module_name not in self._modules:
            raise KeyError(module_name)
        module = sys.modules.get(module_name)
        if module is None:
            return {}
        found: dict[str, Replaced] = {}
        if is_lazy(module):
            # Names not resolved yet are wrapped when first reached (applying imports nothing).
            found["__getattr__"] = getattr_entry(module, functools.partial(self._wrap, module_name),
                                                 self._replacement)
        for name, value in list(vars(module).items()):
            if not name.startswith("_"):
                entry = self._entry(module_name, name, value)
                if entry is not None:
                    found[name] = entry
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)
