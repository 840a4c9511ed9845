"""Replacements for the NumPy byte-string helpers that NumPy 2 removed.

TensorFlow 1 era pipelines serialise arrays into ``tf.train.Example`` bytes
features with ``arr.tostring()`` and read them back with
``np.fromstring(raw, dtype=np.uint8)``. NumPy 2 dropped ``ndarray.tostring``
and raises for ``np.fromstring`` in binary mode (``sep=''``). These two
functions return exactly what the old calls returned:

* :func:`tostring` - the raw bytes of the array (what ``tobytes`` returns).
* :func:`fromstring` - for ``sep=''``, a new, writable 1-D array decoded from
  the bytes (old ``fromstring`` copied; ``np.frombuffer`` does not, and its
  result is read-only when the bytes are); for any other ``sep``, NumPy's
  still-supported text mode.

Rewrite ``arr.tostring()`` as ``tostring(arr)`` and ``np.fromstring(...)`` as
``fromstring(...)``; the arguments stay the same.
"""
from __future__ import annotations

from typing import Literal, cast

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

__all__ = ["fromstring", "tostring"]

#: What the old binary ``fromstring`` accepted: bytes-like data, or a str
#: (which it encoded as UTF-8).
ByteSource = bytes | bytearray | memoryview | str

_Order = Literal["C", "F", "A"]
_ORDERS: tuple[_Order, ...] = ("C", "F", "A")


def tostring(arr: ArrayLike, order: str = "C") -> bytes:
    """Raw bytes of ``arr``, as the removed ``ndarray.tostring()`` returned.

    ``order`` is 'C' (row-major, the default), 'F' (column-major) or 'A'
    ('F' if the array is Fortran-contiguous, else 'C'). Bytes are in the
    array's own byte order; no header, shape or dtype is stored.

    Returns:
        ``bytes`` of length ``arr.size * arr.itemsize``.

    Raises:
        ValueError: ``order`` is not 'C', 'F' or 'A'.
    """
    if order not in _ORDERS:
        raise ValueError(f"tostring: order={order!r} is not valid; use one of {list(_ORDERS)}")
    return np.asarray(arr).tobytes(order=cast(_Order, order))  # one of _ORDERS, checked above


def _as_buffer(string: ByteSource) -> memoryview:
    """A byte view of the input; a str is UTF-8 encoded as old NumPy did."""
    if isinstance(string, str):
        string = string.encode("utf-8")
    try:
        return memoryview(string).cast("B")
    except TypeError as exc:
        raise TypeError(
            f"fromstring: expected bytes, bytearray, memoryview or str, got "
            f"{type(string).__name__} ({exc})") from exc


def _item_count(nbytes: int, dtype: np.dtype, count: int) -> int:
    """How many items to decode; raise if the bytes do not fit the request."""
    itemsize = dtype.itemsize
    if count < 0:
        if nbytes % itemsize:
            raise ValueError(
                f"fromstring: {nbytes} bytes is not a multiple of the "
                f"{itemsize}-byte item size of dtype {dtype} ({nbytes % itemsize} "
                "bytes left over); check the dtype, or pass count= to read "
                "only the leading items")
        return nbytes // itemsize
    if count * itemsize > nbytes:
        raise ValueError(
            f"fromstring: count={count} items of dtype {dtype} need "
            f"{count * itemsize} bytes, but only {nbytes} were given")
    return count


def _binary_dtype(dtype: DTypeLike) -> np.dtype:
    dt = np.dtype(dtype)
    if dt.hasobject:
        raise ValueError(
            f"fromstring: cannot decode raw bytes as dtype {dt}, which holds "
            "Python objects")
    if dt.itemsize == 0:
        raise ValueError(f"fromstring: dtype {dt} has item size 0; give a sized dtype")
    return dt


def fromstring(string: ByteSource, dtype: DTypeLike = float, count: int = -1,
               sep: str = "") -> NDArray:
    """Decode an array from a byte string, as the old ``np.fromstring`` did.

    With ``sep=''`` (binary mode) the bytes are read as packed items of
    ``dtype`` in the dtype's byte order; ``count`` items, or all of them when
    ``count`` is negative. The result is a copy: writable and independent of
    ``string``, like the old function's and unlike ``np.frombuffer``'s.

    With any other ``sep`` the string holds numbers in text separated by
    ``sep`` and the call is handed to ``np.fromstring`` unchanged.

    Returns:
        A new 1-D array of ``dtype`` with ``count`` items (binary mode: all
        ``len(string) // itemsize`` items when ``count < 0``).

    Raises:
        ValueError: in binary mode, a byte length that is not a multiple of
            the item size (with ``count < 0``), fewer bytes than ``count``
            items need, or an object/zero-size dtype; in text mode, whatever
            ``np.fromstring`` raises for unparseable text.
        TypeError: ``string`` is not bytes-like or str.
    """
    if sep != "":
        # NumPy reads any bytes-like text here; its stubs name only str and bytes.
        return np.fromstring(cast("str | bytes", string), dtype=np.dtype(dtype), count=count, sep=sep)
    dt = _binary_dtype(dtype)
    buffer = _as_buffer(string)
    n = _item_count(buffer.nbytes, dt, int(count))
    return np.frombuffer(buffer, dtype=dt, count=n).copy()
