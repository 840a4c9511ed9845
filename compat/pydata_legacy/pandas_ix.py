"""``DataFrame.ix`` / ``Series.ix`` (removed in pandas 1.0) with the documented old rule.

pandas <= 0.25 documented ``.ix`` as "primarily label based, but will fall back
to integer positional access unless the corresponding axis is of integer type":
on an axis whose index holds numbers (integers or floats) every key is a label
(``.loc``); on any other axis an integer, a list of integers or a slice with
integer bounds is a position (``.iloc``) and anything else is a label. Each
axis's key is turned into positions (a label slice keeps its end point) and the
selection is made with ``.iloc``, for reading and for assignment.

Left out: old ``.ix`` reindexed a list naming missing labels (NaN rows, with a
warning since 0.21); here a missing label raises ``KeyError`` as ``.loc`` does.
Setting a label that does not exist (enlargement) is refused the same way.
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Ix", "ix_property"]


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _labels_only(index: Any) -> bool:
    """True if ``index`` holds numbers, so that every ``.ix`` key on it is a label."""
    return bool(index.inferred_type in ("integer", "mixed-integer", "floating", "mixed-integer-float")
                or getattr(index.dtype, "kind", "O") in "iuf")


def _positional(key: Any) -> bool:
    """True if ``key`` is positional on an axis whose index does not hold numbers."""
    if _is_int(key):
        return True
    if isinstance(key, slice):
        return all(bound is None or _is_int(bound) for bound in (key.start, key.stop))
    if isinstance(key, (list, np.ndarray)) and len(key) > 0:
        return all(_is_int(item) for item in key)
    return False


def _positions(index: Any, key: Any) -> Any:
    """``key`` on ``index`` as an ``.iloc`` key, following the old ``.ix`` rule."""
    if isinstance(key, slice) and key == slice(None):
        return key
    if not _labels_only(index) and _positional(key):
        return key
    if isinstance(key, slice):
        return index.slice_indexer(key.start, key.stop, key.step)
    if not isinstance(key, (list, np.ndarray)) and not (hasattr(key, "__array__") and not np.isscalar(key)):
        return index.get_loc(key)
    if hasattr(key, "reindex") and getattr(getattr(key, "dtype", None), "kind", "") == "b":
        key = key.reindex(index)  # a boolean Series is aligned on the index, as with .loc
    array = np.asarray(key)
    if array.dtype == bool:
        return array
    indexer = index.get_indexer_for(list(key))
    if (indexer < 0).any():
        missing = [item for item, position in zip(key, indexer, strict=True) if position < 0]
        raise KeyError(f".ix: labels {missing!r} are not in the index (old .ix filled them with NaN; "
                       f"today: .reindex(labels) or .loc)")
    return indexer


class Ix:
    """The ``.ix`` indexer of one DataFrame or Series (``frame.ix[rows, columns]``, ``series.ix[key]``)."""

    def __init__(self, obj: Any) -> None:
        self._obj = obj

    def _iloc_key(self, key: Any) -> Any:
        axes = self._obj.axes
        if isinstance(key, tuple) and len(axes) > 1:
            if len(key) > len(axes):
                raise IndexError(f".ix: too many indexers ({len(key)}) for {len(axes)} axes")
            return tuple(_positions(axis, part) for axis, part in zip(axes, key, strict=False))
        return _positions(axes[0], key)

    def __getitem__(self, key: Any) -> Any:
        return self._obj.iloc[self._iloc_key(key)]

    def __setitem__(self, key: Any, value: Any) -> None:
        self._obj.iloc[self._iloc_key(key)] = value


def _ix(self: Any) -> Ix:
    """``.ix``: label-based first; integer keys are positions on an axis that does not hold numbers
    (today: ``.loc`` for labels, ``.iloc`` for positions)."""
    return Ix(self)


#: The property the runner puts on ``DataFrame`` and ``Series``.
ix_property = property(_ix)
