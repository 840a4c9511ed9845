"""h5py 2 names and behaviour that h5py 3.0 removed or changed, with their old semantics.

Facts from h5py's "What's new in 3.0" and the 2.10 sources (``h5py/_hl/files.py``, ``docs/strings.rst``):

* ``Dataset.value`` was removed (today ``ds[()]``).
* Variable-length UTF-8 strings in datasets are read as ``bytes`` since 3.0; h5py 2
  gave ``str`` on Python 3 (variable-length ASCII strings were ``bytes`` in both).
  For the script's own reads, a UTF-8 string dataset gives ``str`` again (today
  ``ds.asstr()[...]``). Attributes are unchanged: both read strings as ``str``.
* ``File(name)`` without a mode opened read/write in h5py 2 (with a warning in 2.10):
  ``r+``, else ``r`` if the file is read-only, else a new file (``w-``). h5py 3
  opens ``r``. The script's own calls get the old rule; other libraries' calls keep 3's.
* ``h5py.new_vlen``, ``get_vlen``, ``new_enum``, ``get_enum`` were removed (today
  ``vlen_dtype``, ``check_vlen_dtype``, ``enum_dtype``, ``check_enum_dtype``).

Importing this module imports the standard library only; h5py is imported when a row is used.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from compat.library_legacy.callers import called_from_script
from compat.surfaces.table_patches import Removed, Replaced, const, wrapper

__all__ = ["OLD_MODES", "REMOVED", "REPLACED", "is_utf8_string", "read_all"]

#: The modes h5py 2 tried in turn for ``File(name)`` without a mode.
OLD_MODES = ("r+", "r", "w-")


def is_utf8_string(dtype: Any) -> bool:
    """True for a variable-length UTF-8 string dtype (the strings h5py 2 read as ``str``)."""
    import h5py
    info = h5py.check_string_dtype(dtype)
    return info is not None and info.length is None and info.encoding == "utf-8"


def read_all(dataset: Any) -> Any:
    """``Dataset.value``: the whole dataset (``ds[()]``), UTF-8 strings as ``str`` as h5py 2 read them."""
    if is_utf8_string(dataset.dtype):
        return dataset.asstr()[()]
    return dataset[()]


def _old_getitem(current: Callable[..., Any]) -> Callable[..., Any]:
    """``Dataset.__getitem__`` reading UTF-8 strings as ``str`` for the script's own reads."""
    def __getitem__(self: Any, args: Any, *rest: Any, **kwargs: Any) -> Any:  # noqa: N807 - the method it wraps
        if is_utf8_string(self.dtype) and called_from_script():
            return self.asstr().__getitem__(args)
        return current(self, args, *rest, **kwargs)
    return wrapper(current, __getitem__)


def _old_file_init(current: Callable[..., Any]) -> Callable[..., Any]:
    """``File.__init__`` giving a mode-less ``File(name)`` of the script h5py 2's read/write rule."""
    def __init__(self: Any, name: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N807 - the method it wraps
        if args or kwargs.get("mode") is not None or not isinstance(name, (str, bytes, os.PathLike)) \
                or not called_from_script():
            current(self, name, *args, **kwargs)
            return
        kwargs.pop("mode", None)
        for mode in OLD_MODES[:-1]:
            try:
                current(self, name, mode, **kwargs)
                return
            except OSError:
                continue
        current(self, name, OLD_MODES[-1], **kwargs)
    return wrapper(current, __init__)


def _attr(name: str) -> Callable[[], Any]:
    def make() -> Any:
        import h5py
        return getattr(h5py, name)
    return make


def new_vlen(basetype: Any) -> Any:
    """``h5py.new_vlen``: a variable-length dtype of ``basetype``; today ``h5py.vlen_dtype``."""
    import h5py
    return h5py.vlen_dtype(basetype)


def new_enum(dt: Any, values_dict: dict[str, int]) -> Any:
    """``h5py.new_enum(dt, values)``: an enum dtype; today ``h5py.enum_dtype(values, basetype=dt)``."""
    import h5py
    return h5py.enum_dtype(values_dict, basetype=dt)


#: owner (``module`` or ``module:Class``) -> removed name -> what it was.
REMOVED: dict[str, dict[str, Removed]] = {
    "h5py:Dataset": {"value": Removed("dataset[()]", const(property(read_all)))},
    "h5py": {
        "new_vlen": Removed("h5py.vlen_dtype", const(new_vlen)),
        "get_vlen": Removed("h5py.check_vlen_dtype", _attr("check_vlen_dtype")),
        "new_enum": Removed("h5py.enum_dtype(values, basetype=)", const(new_enum)),
        "get_enum": Removed("h5py.check_enum_dtype", _attr("check_enum_dtype")),
    },
}


def _has_asstr(current: Any) -> bool:
    import h5py
    return hasattr(h5py.Dataset, "asstr")


#: owner -> name -> when h5py's own value has the new behaviour, and the wrapper that gives the old one.
REPLACED: dict[str, dict[str, Replaced]] = {
    "h5py:Dataset": {"__getitem__": Replaced("dataset.asstr()[...] for str", _has_asstr, _old_getitem)},
    "h5py:File": {"__init__": Replaced("h5py.File(name, 'a') (h5py 3 opens 'r' without a mode)", _has_asstr,
                                       _old_file_init)},
}
