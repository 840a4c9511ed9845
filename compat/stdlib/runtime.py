"""What the script's own code reaches through ``__compat__.stdlib``: removed standard-library names.

:class:`StdlibNames` answers the calls :mod:`compat.stdlib.rewrite` puts in the
script's code. Each answer prefers what the running Python has (the object's own
attribute or method), so a name that still exists behaves exactly as Python's;
only a missing one gets the value of :mod:`compat.stdlib.removed`. No real
module is modified.
"""
from __future__ import annotations

import importlib
import types
from typing import Any

from compat.py2 import text as py2_text
from compat.stdlib.generators import pre_pep479
from compat.stdlib.keywords import call_renamed
from compat.stdlib.removed import ATTRIBUTES, FALLBACK_MODULES, METHODS

__all__ = ["StdlibNames"]

_MISSING = object()


class StdlibNames:
    """The target of ``__compat__.stdlib`` (values made on first use and cached)."""

    #: Behaviour of Python before 3.7 under unchanged names: generators (PEP 479), ``async=`` arguments.
    pre_pep479 = staticmethod(pre_pep479)
    call_renamed = staticmethod(call_renamed)

    def __init__(self) -> None:
        self._values: dict[tuple[str, str], Any] = {}

    def attr(self, owner: Any, module: str, name: str) -> Any:
        """``owner.name``, or the removed ``module.name`` when ``owner`` lacks it (``owner`` None: import it).

        Raises:
            AttributeError: neither ``owner`` nor the table has ``name``.
        """
        if owner is None:
            owner = importlib.import_module(module)
        found = getattr(owner, name, _MISSING)
        if found is not _MISSING:
            return found
        key = (module, name)
        if key not in self._values:
            entry = ATTRIBUTES.get(module, {}).get(name)
            if entry is None:
                raise AttributeError(f"module {module!r} has no attribute {name!r}")
            self._values[key] = entry.make()
        return self._values[key]

    def method(self, name: str, obj: Any, *args: Any, **kwargs: Any) -> Any:
        """``obj.name(*args, **kwargs)``: the object's own method, else the call that replaced it."""
        own = getattr(obj, name, None)
        if callable(own):
            return own(*args, **kwargs)
        entry = METHODS.get(name)
        if entry is None:
            raise AttributeError(f"{type(obj).__name__!r} object has no attribute {name!r}")
        return entry.call(obj, *args, **kwargs)

    def module(self, name: str) -> types.ModuleType:
        """The module ``name``; the replacement of :data:`compat.stdlib.removed.FALLBACK_MODULES` if Python lacks it."""
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError:
            if name not in FALLBACK_MODULES:
                raise
            return importlib.import_module(FALLBACK_MODULES[name])


def failure_hint(exc: BaseException) -> str | None:
    """The runner's ``compat:`` advice for a failure of Python's changes the rewrite could not see, or None.

    An ``AttributeError`` on a removed standard-library name: the source rewrite serves the
    names the script spells out (``collections.Iterable``); this names the replacement
    when one is reached another way (``getattr(collections, name)``). PEP 479's
    ``RuntimeError`` from a generator the runner does not wrap, and bytes meeting str
    (:func:`compat.py2.text.failure_hint`).
    """
    if isinstance(exc, RuntimeError) and str(exc).endswith("raised StopIteration"):
        return ("a StopIteration inside a generator ends it with this error since Python 3.7 (PEP 479); the runner "
                "keeps the old ending for the script's own generators, but not for this one (a library's, a "
                "contextmanager or a coroutine): end the generator with return")
    return py2_text.failure_hint(exc) or _removed_name_hint(exc)


def _removed_name_hint(exc: BaseException) -> str | None:
    owner = getattr(exc, "obj", None) if isinstance(exc, AttributeError) else None
    if not isinstance(owner, types.ModuleType):
        return None
    module = owner.__name__
    name = getattr(exc, "name", None) or ""
    entry = ATTRIBUTES.get(module, {}).get(name)
    if entry is None:
        return None
    return (f"{module}.{name} was removed in Python {entry.removed_in}; the runner serves it only where the "
            f"script writes {module}.{name} or imports it by name; use {entry.replacement}")
