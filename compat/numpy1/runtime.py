"""What the script's own NumPy calls reach through ``__compat__.numpy``: NumPy 1 behaviour, NumPy untouched.

:class:`Numpy1Names` is the object :mod:`compat.numpy1.rewrite` points the
script's code at. It gives

* every removed name of :data:`compat.numpy1.removed.REMOVED` (made on first use, then cached);
* ``lib.pad`` (NumPy 1 kept ``numpy.lib.pad`` as an alias of ``numpy.pad``);
* :meth:`Numpy1Names.array` / :meth:`Numpy1Names.asarray`: NumPy 2's functions,
  except that ragged input (lists of different lengths) gives an object array with
  a ``VisibleDeprecationWarning``, as NumPy 1.19-1.23 did, and that ``copy=False``
  means "copy only if needed" as in NumPy 1;
* :meth:`Numpy1Names.save`, :meth:`Numpy1Names.savez`, :meth:`Numpy1Names.savez_compressed`:
  a ragged list given as an array is saved as the object array NumPy 1 made of it
  (TensorLayer 1.x's ``tl.files.save_npz`` saves its list of weights of different
  shapes so);
* :meth:`Numpy1Names.load`: ``numpy.load`` with NumPy's safe default
  (``allow_pickle=False``) unless the runner was started with ``--allow-pickle``;
  the refusal of an object array says how to allow it;
* the ``ndarray`` methods NumPy 2 removed (``ptp``, ``itemset``, ``newbyteorder``).

Only code that the runner rewrote calls these; TensorFlow and every other
library keep calling NumPy itself. The names are plain attributes after first
use, so the cost is one attribute lookup.
"""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from compat.numpy1 import removed

__all__ = ["PICKLE_FLAG", "Numpy1Names", "PickleRefusedError", "failure_hint", "histogram_normed", "itemset",
           "newbyteorder", "ptp"]

#: The runner's option that restores the old ``np.load`` default for the script's own calls.
PICKLE_FLAG = "--allow-pickle"

#: Words of NumPy's refusal to unpickle an object array (``np.load``, ``NpzFile[key]``).
_PICKLE_REFUSAL = "allow_pickle=False"


class PickleRefusedError(ValueError):
    """``np.load`` refused an object array; the message says how to allow it for a trusted file."""


def _pickle_advice(source: object) -> str:
    where = f" {source!r}" if isinstance(source, str) else ""
    return (f"NumPy 1.16.3 and later refuse to unpickle object arrays by default, and the compat runner keeps "
            f"that safe default; if you trust the file{where}, run the script with "
            f"`python -m compat run {PICKLE_FLAG} SCRIPT ...`, which makes the script's own np.load calls "
            "default to allow_pickle=True as before")


def failure_hint(exc: BaseException) -> str | None:
    """The runner's ``compat:`` advice for a NumPy failure it recognises, or None."""
    if isinstance(exc, PickleRefusedError):
        return str(exc)
    if isinstance(exc, ValueError) and _PICKLE_REFUSAL in str(exc) and "pickle" in str(exc).lower():
        return f"object array refused: {_pickle_advice(None)}"
    owner = getattr(exc, "obj", None) if isinstance(exc, AttributeError) else None
    name = getattr(exc, "name", None) or ""
    if owner is np and name in removed.REMOVED:
        return (f"numpy.{name} was removed from NumPy; the runner serves it only where the script writes "
                f"np.{name} or imports it by name; use {removed.REMOVED[name].replacement}")
    return None


def _is_ragged_failure(exc: ValueError) -> bool:
    text = str(exc)
    return "inhomogeneous" in text or "setting an array element with a sequence" in text


def _old_array(value: Any, stacklevel: int) -> Any:
    """``value`` as NumPy 1 converted it on saving: a list or tuple that is ragged becomes an object array.

    ``stacklevel`` of the warning, counted from the caller of this function (1: that
    caller; 2: its caller, the script's line that called ``save``).
    """
    if not isinstance(value, (list, tuple)):
        return value  # arrays, scalars and NumPy's own conversions are left to NumPy
    try:
        return np.asanyarray(value)
    except ValueError as exc:
        if not _is_ragged_failure(exc):
            raise
    _warn_ragged(stacklevel + 2)
    return np.array(value, object)


def _old_arrays(args: tuple[Any, ...], kwds: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """:func:`_old_array` of each positional and keyword array of ``savez``/``savez_compressed``.

    Plain loops, not comprehensions: a comprehension is a frame of its own in some Python
    versions only (PEP 709), which would move the warning's reported line.
    """
    arrays = []
    for value in args:
        arrays.append(_old_array(value, stacklevel=3))
    named = {}
    for key, value in kwds.items():
        named[key] = _old_array(value, stacklevel=3)
    return arrays, named


def _warn_ragged(stacklevel: int = 3) -> None:
    warnings.warn(np.exceptions.VisibleDeprecationWarning(
        "ragged nested sequences (items of different lengths or shapes) were made into an object array, "
        "as NumPy 1.19-1.23 did; NumPy 1.24 and later raise ValueError unless dtype=object is given"),
        stacklevel=stacklevel)


def ptp(obj: Any, *args: Any, **kwargs: Any) -> Any:
    """``x.ptp(...)``: the object's own method, else ``numpy.ptp(x, ...)`` (NumPy 2 removed the method)."""
    own = getattr(obj, "ptp", None)
    if callable(own):
        return own(*args, **kwargs)
    return np.ptp(obj, *args, **kwargs)


def itemset(obj: Any, *args: Any) -> None:
    """``a.itemset(index..., value)``: the object's own method, else the assignment NumPy 1 made."""
    own = getattr(obj, "itemset", None)
    if callable(own):
        own(*args)
        return
    if not args:
        raise TypeError("itemset() needs a value (and, for an array of more than one item, an index)")
    *index, value = args
    if not index:
        if obj.size != 1:
            raise ValueError(f"itemset(value) needs an array of one item, not of {obj.size}")
        obj.flat[0] = value
    elif len(index) == 1 and isinstance(index[0], (int, np.integer)):
        obj.flat[index[0]] = value
    else:
        position = index[0] if len(index) == 1 else tuple(index)
        obj[position] = value


def newbyteorder(obj: Any, new_order: str = "S") -> Any:
    """``a.newbyteorder(order)``: the object's own method, else a view with the byte order changed."""
    own = getattr(obj, "newbyteorder", None)
    if callable(own):
        return own(new_order)
    return obj.view(obj.dtype.newbyteorder(new_order))


def histogram_normed(a: Any, bins: Any = 10, range: Any = None,  # noqa: A002 - NumPy's argument name
                     normed: Any = None, weights: Any = None, density: Any = None) -> tuple[Any, Any]:
    """``numpy.histogram(..., normed=...)`` as NumPy 1.x computed it (the argument was removed in 1.24).

    ``density`` given wins, as in NumPy 1. A true ``normed`` divides the counts by
    ``sum(counts * bin_widths)``: the same as ``density=True`` for equal bins, not for
    unequal ones (why NumPy deprecated it). Returns ``(values, bin_edges)``.
    """
    if density is not None or not normed:
        return np.histogram(a, bins, range, weights=weights, density=density)
    counts, edges = np.histogram(a, bins, range, weights=weights)
    widths = np.diff(edges).astype(float)
    return counts / (counts * widths).sum(), edges


def _scalar_conversion(kind: type) -> Any:
    """``kind(x)`` as under NumPy 1: a size-1 array of any shape converts (NumPy 2 takes only 0-d ones)."""
    def convert(value: Any) -> Any:
        try:
            return kind(value)
        except TypeError:
            if isinstance(value, np.ndarray) and value.size == 1:
                return kind(value.reshape(())[()])
            raise
    convert.__name__ = f"to_{kind.__name__}"
    return convert


#: ``int(np.argmax(logits, axis=1))`` on a batch of one, ``float(loss_array)``: NumPy 1 gave the scalar.
to_int = _scalar_conversion(int)
to_float = _scalar_conversion(float)
to_complex = _scalar_conversion(complex)


class _Lib:
    """``numpy.lib`` as the script's code sees it: NumPy's own, plus ``pad``."""

    def __getattr__(self, name: str) -> Any:
        if name == "pad":
            return np.pad
        return getattr(np.lib, name)


class Numpy1Names:
    """The target of ``__compat__.numpy``: removed names, ``array``/``asarray``/``load`` with NumPy 1 behaviour.

    Attributes:
        allow_pickle: the default of ``allow_pickle`` for the script's own ``np.load``
            calls (False, NumPy's safe default, unless the runner got ``--allow-pickle``).
    """

    def __init__(self, allow_pickle: bool = False) -> None:
        self.allow_pickle = allow_pickle
        self.lib = _Lib()
        self.pad = np.pad
        self.ptp = ptp
        self.itemset = itemset
        self.newbyteorder = newbyteorder
        self.histogram_normed = histogram_normed
        self.to_int, self.to_float, self.to_complex = to_int, to_float, to_complex

    def __getattr__(self, name: str) -> Any:
        # Only reached the first time: the value is then cached as a plain attribute.
        try:
            value = removed.value_of(name)
        except KeyError:
            raise AttributeError(f"module 'numpy' has no attribute {name!r}") from None
        setattr(self, name, value)
        return value

    def array(self, obj: Any, dtype: Any = None, *args: Any, **kwargs: Any) -> Any:
        """``numpy.array`` as in NumPy 1.19-1.23: ragged input -> object array and a warning.

        ``copy=False`` means "only if needed" (NumPy 2 spells that ``copy=None``).
        Returns an ndarray of ``dtype`` (object for ragged input without a dtype).
        """
        if kwargs.get("copy", True) is False:
            kwargs["copy"] = None
        try:
            return np.array(obj, dtype, *args, **kwargs)
        except ValueError as exc:
            if dtype is not None or not _is_ragged_failure(exc):
                raise
        _warn_ragged()
        return np.array(obj, object, *args, **kwargs)

    def asarray(self, obj: Any, dtype: Any = None, *args: Any, **kwargs: Any) -> Any:
        """``numpy.asarray`` with NumPy 1.19-1.23's handling of ragged input (see :meth:`array`)."""
        try:
            return np.asarray(obj, dtype, *args, **kwargs)
        except ValueError as exc:
            if dtype is not None or not _is_ragged_failure(exc):
                raise
        _warn_ragged()
        return np.asarray(obj, object, *args, **kwargs)

    def save(self, file: Any, arr: Any, *args: Any, **kwargs: Any) -> None:
        """``numpy.save``; a ragged list ``arr`` is saved as NumPy 1's object array (and a warning)."""
        np.save(file, _old_array(arr, stacklevel=2), *args, **kwargs)

    def savez(self, file: Any, *args: Any, **kwds: Any) -> None:
        """``numpy.savez``; each ragged list among the arrays is saved as NumPy 1's object array."""
        arrays, named = _old_arrays(args, kwds)
        np.savez(file, *arrays, **named)

    def savez_compressed(self, file: Any, *args: Any, **kwds: Any) -> None:
        """``numpy.savez_compressed``; each ragged list is saved as NumPy 1's object array."""
        arrays, named = _old_arrays(args, kwds)
        np.savez_compressed(file, *arrays, **named)

    def load(self, file: Any, *args: Any, **kwargs: Any) -> Any:
        """``numpy.load``; ``allow_pickle`` defaults to :attr:`allow_pickle` unless the call gives it.

        Raises:
            PickleRefusedError: the file holds an object array and pickles are not allowed;
                the message names the runner's ``--allow-pickle``.
        """
        if self.allow_pickle and "allow_pickle" not in kwargs and len(args) < 2:
            kwargs["allow_pickle"] = True
        try:
            return np.load(file, *args, **kwargs)
        except ValueError as exc:
            if _PICKLE_REFUSAL not in str(exc):
                raise
            raise PickleRefusedError(f"{exc}. {_pickle_advice(file)}") from None
