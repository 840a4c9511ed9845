"""What translated Python 2 modules call at run time to keep Python 2 semantics.

:class:`compat.py2.translate.Py2Semantics` routes a Python 2 module's ``/``, ``/=``,
text-mode ``open`` and ``GFile`` through these functions (as attributes of
``__compat__``). Nothing here changes global state.

**Division.** Python 2's ``/`` called ``__div__``: Python integers floored,
NumPy integer scalars and arrays floored (NumPy's ``divide`` of integers was
``floor_divide`` under Python 2), TensorFlow tensors used ``math_ops.div``
(``tf.compat.v1.div`` today: floor for integers, true division for floats),
classes with ``__div__`` (a Python 2 class of the script, TensorFlow's
``Dimension``) ran it, and everything with a float divided truly.

**Text files.** Python 2's ``open(name, 'r')`` and ``tf.gfile.GFile(name, 'r')``
read bytes. Python 3 code written for that (``line.split(',')`` with ``str``
literals) needs ``str``, and code that reads JPEG bytes in ``'r'`` mode needs
``bytes``. A file read in text mode is therefore opened as UTF-8 text when its
whole content is valid UTF-8, and in binary mode otherwise. Either way the
bytes are kept: a ``str`` encodes back to exactly the file's bytes, as
TensorFlow encodes it. A file written in text mode accepts ``bytes`` and
``str`` (encoded as UTF-8), as Python 2's files took both ``str`` and ASCII
``unicode``; no newline is translated, as on Python 2 under Linux.
"""
from __future__ import annotations

import builtins
import codecs
import decimal
import io
import numbers
import operator
import os
import sys
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["bytes_value", "bytes_values", "decode", "div", "encode", "gfile", "idiv", "idiv_attr", "idiv_item",
           "is_utf8", "open_py2", "print_py2", "round_py2"]

_CHUNK = 1 << 20


# --------------------------------------------------------------------------
# Division
# --------------------------------------------------------------------------

def _numpy() -> Any:
    return sys.modules.get("numpy")


def _integral(value: Any, np: Any) -> bool:
    """True for Python ints and bools, NumPy integer/bool scalars and arrays."""
    if isinstance(value, int):
        return True
    if np is None:
        return False
    if isinstance(value, (np.integer, np.bool_)):
        return True
    return isinstance(value, np.ndarray) and value.dtype.kind in "iub"


def _is_numpy(value: Any, np: Any) -> bool:
    return np is not None and isinstance(value, (np.ndarray, np.generic))


def _tensorflow_div(a: Any, b: Any) -> Callable[[Any, Any], Any] | None:
    tf = sys.modules.get("tensorflow")
    if tf is not None and (tf.is_tensor(a) or tf.is_tensor(b)):
        return tf.compat.v1.div
    return None


def _classic(a: Any, b: Any) -> Any:
    """``a.__div__(b)`` or ``b.__rdiv__(a)`` where a class defines them; else NotImplemented."""
    own = getattr(type(a), "__div__", None)
    if own is not None:
        result = own(a, b)
        if result is not NotImplemented:
            return result
    reflected = getattr(type(b), "__rdiv__", None)
    if reflected is not None:
        return reflected(b, a)
    return NotImplemented


def div(a: Any, b: Any) -> Any:
    """``a / b`` as Python 2 computed it (see the module docstring); returns the quotient."""
    kinds = (type(a), type(b))
    if kinds == (int, int):
        return a // b
    if float in kinds:
        return a / b
    tf_div = _tensorflow_div(a, b)
    if tf_div is not None:
        return tf_div(a, b)
    result = _classic(a, b)
    if result is not NotImplemented:
        return result
    np = _numpy()
    if _integral(a, np) and _integral(b, np):
        if _is_numpy(a, np) or _is_numpy(b, np):
            return np.floor_divide(a, b)
        return a // b
    return a / b


def idiv(a: Any, b: Any) -> Any:
    """``a /= b`` as Python 2 computed it; returns the new value of ``a``.

    NumPy arrays are divided in place (integer arrays floored), as ``__idiv__`` did.
    """
    np = _numpy()
    if np is not None and isinstance(a, np.ndarray):
        if _integral(a, np) and _integral(b, np):
            return np.floor_divide(a, b, out=a)
        return operator.itruediv(a, b)
    own = getattr(type(a), "__idiv__", None)
    if own is not None:
        result = own(a, b)
        if result is not NotImplemented:
            return result
    return div(a, b)


def idiv_attr(obj: Any, name: str, value: Any) -> None:
    """``obj.name /= value`` with Python 2 division (``obj`` evaluated once)."""
    setattr(obj, name, idiv(getattr(obj, name), value))


def idiv_item(obj: Any, key: Any, value: Any) -> None:
    """``obj[key] /= value`` with Python 2 division (``obj`` and ``key`` evaluated once)."""
    obj[key] = idiv(obj[key], value)


# --------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------

def is_utf8(stream: Any) -> bool:
    """True if the rest of the binary ``stream`` is valid UTF-8 (read in 1 MiB chunks)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        while True:
            chunk = stream.read(_CHUNK)
            if not chunk:
                decoder.decode(b"", final=True)
                return True
            decoder.decode(chunk)
    except UnicodeDecodeError:
        return False


def _text_read_mode(mode: Any) -> bool | None:
    """For a Python 2 mode: True to read text, False for universal newlines ('U'), None otherwise."""
    if not isinstance(mode, str) or "b" in mode:
        return None
    plain = mode.replace("U", "") or "r"
    if plain != "r":
        return None
    return "U" not in mode


class Py2TextWriter:
    """A file opened for writing in text mode by Python 2 code: takes ``str`` and ``bytes``.

    ``str`` is written as UTF-8. Everything else is the underlying binary file's.
    """

    def __init__(self, raw: Any) -> None:
        self._file = raw

    def write(self, data: Any) -> Any:
        """Write ``data`` (str as UTF-8, bytes as they are); returns what the file returns."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        return self._file.write(data)

    def writelines(self, lines: Iterable[Any]) -> None:
        """Write each of ``lines``."""
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)

    def __iter__(self) -> Any:
        return iter(self._file)

    def __enter__(self) -> Py2TextWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._file.close()


def open_py2(name: Any, mode: Any = "r", buffering: int = -1, *args: Any, **kwargs: Any) -> Any:
    """``open(name, mode, buffering)`` of Python 2 code; returns a file object.

    Reading in text mode gives UTF-8 text if the whole file is valid UTF-8, else
    bytes; writing in text mode takes bytes and str. Binary modes, file
    descriptors and Python 3 keyword arguments (``encoding=``, ...) are passed
    to :func:`open` unchanged.
    """
    if args or kwargs or not isinstance(name, (str, bytes, os.PathLike)) or not isinstance(mode, str):
        return builtins.open(name, mode, buffering, *args, **kwargs)
    if "b" in mode:
        return builtins.open(name, mode, buffering)
    reading = _text_read_mode(mode)
    if reading is not None:
        with builtins.open(name, "rb") as probe:
            text = is_utf8(probe)
        if not text:
            return builtins.open(name, "rb", buffering)
        # Python 2 on Linux split lines on "\n" only and translated nothing ('U': any newline).
        return builtins.open(name, buffering=buffering if buffering != 0 else -1, encoding="utf-8",
                             newline="\n" if reading else None)
    binary = mode.replace("U", "").replace("t", "") + "b"
    return Py2TextWriter(builtins.open(name, binary, buffering))


def gfile(factory: Callable[..., Any], name: Any, mode: Any = "r", *args: Any, **kwargs: Any) -> Any:
    """``tf.gfile.GFile(name, mode)`` (or ``FastGFile``, ``Open``) of Python 2 code.

    Read in text mode, the file is opened as text if its content is valid UTF-8
    and in binary mode otherwise (Python 2 read bytes); other modes are unchanged.
    Returns what ``factory`` returns.
    """
    if _text_read_mode(mode) is None:
        return factory(name, mode, *args, **kwargs)
    with factory(name, "rb") as probe:
        text = is_utf8(probe)
    return factory(name, "r" if text else "rb", *args, **kwargs)


# --------------------------------------------------------------------------
# str.decode / bytes.encode
# --------------------------------------------------------------------------

def decode(obj: Any, *args: Any, **kwargs: Any) -> Any:
    """``obj.decode(...)`` of Python 2 code; returns the decoded text.

    Python 2's ``str`` was bytes and had ``decode``; a ``str`` here (a literal,
    or text read from a UTF-8 file) stands for its UTF-8 bytes, which are
    decoded. Other objects' own ``decode`` is called.
    """
    if isinstance(obj, str):
        return obj.encode("utf-8").decode(*args, **kwargs)
    return obj.decode(*args, **kwargs)


def encode(obj: Any, *args: Any, **kwargs: Any) -> Any:
    """``obj.encode(...)`` of Python 2 code; returns the encoded bytes.

    Python 2's ``str.encode`` first decoded the bytes (as ASCII; UTF-8 here,
    which agrees on ASCII and loses nothing). Other objects' own ``encode`` is called.
    """
    if isinstance(obj, (bytes, bytearray)):
        return bytes(obj).decode("utf-8").encode(*args, **kwargs)
    return obj.encode(*args, **kwargs)


# --------------------------------------------------------------------------
# str in protobuf bytes fields
# --------------------------------------------------------------------------

def bytes_value(value: Any) -> Any:
    """One element for a protobuf bytes field (``.bytes_list.value.append(x)``) in Python 2 code.

    Python 2's ``str`` was bytes, so ``tf.train.BytesList`` took it; a ``str`` here
    stands for its UTF-8 bytes. Anything else is left for protobuf to accept or reject.
    """
    return value.encode("utf-8") if isinstance(value, str) else value


def bytes_values(values: Any) -> Any:
    """The elements for a protobuf bytes field (``BytesList(value=...)``, ``.extend(...)``) in Python 2 code.

    Each ``str`` element becomes its UTF-8 bytes. A ``str`` given as the whole
    sequence is, as in Python 2, the sequence of its one-byte strings. What is not
    iterable is returned unchanged, for protobuf's own error.
    """
    if isinstance(values, str):
        return [bytes([b]) for b in values.encode("utf-8")]
    if isinstance(values, (bytes, bytearray)) or not isinstance(values, Iterable):
        return values
    return [bytes_value(v) for v in values]


# --------------------------------------------------------------------------
# print
# --------------------------------------------------------------------------

def _as_text(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "backslashreplace")
    return value


def print_py2(*args: Any, sep: str | None = " ", end: str | None = "\n", file: Any = None,
              flush: bool = False) -> None:
    """``print`` of Python 2 code: ``bytes`` are written as their (UTF-8) text, as Python 2
    wrote a ``str``'s bytes, not as ``b'...'``; a binary file gets the text as UTF-8."""
    texts = [_as_text(a) for a in args]
    if isinstance(file, (io.BufferedIOBase, io.RawIOBase)):
        line = (" " if sep is None else sep).join(map(str, texts)) + ("\n" if end is None else end)
        file.write(line.encode("utf-8"))
        if flush:
            file.flush()
        return
    builtins.print(*texts, sep=sep, end=end, file=file, flush=flush)


# --------------------------------------------------------------------------
# round
# --------------------------------------------------------------------------

def round_py2(number: Any, ndigits: Any = None) -> Any:
    """``round(number[, ndigits])`` of Python 2: returns a float, halves rounded away from zero.

    Python 2.7 rounded the exact binary value (``round(2.675, 2) == 2.67``, as
    2.675 is stored as 2.67499...) and rounded exact halves away from zero
    (``round(2.5) == 3.0``, ``round(-0.5) == -1.0``); Python 3 rounds halves to
    even and gives an int. Numbers that are not real (or an ``ndigits`` that is
    not an int) go to the builtin ``round``.
    """
    digits = 0 if ndigits is None else ndigits
    if not isinstance(number, numbers.Real) or isinstance(number, bool) or not isinstance(digits, int):
        return builtins.round(number, ndigits) if ndigits is not None else builtins.round(number)
    value = float(number)
    if value != value or value in (float("inf"), float("-inf")):
        return value
    step = decimal.Decimal(1).scaleb(-digits)
    exact = decimal.Decimal(value)
    rounded = exact.quantize(step, rounding=decimal.ROUND_HALF_UP,
                             context=decimal.Context(prec=max(400, abs(digits) + 400)))
    return float(rounded)
