"""Python 2 pickles read by a translated Python 2 module: its ``str`` objects as Python 2 text.

Python 2's ``cPickle`` wrote a ``str`` (bytes) as a STRING / BINSTRING /
SHORT_BINSTRING opcode. Python 3 decodes those with the ``encoding`` given to
``pickle.load`` ('ASCII' by default; the runner gives the script's calls
``'latin1'``, :mod:`compat.stdlib.removed`), so UTF-8 text that Python 2 wrote
(a vocabulary of 'café') comes back as mojibake ('cafÃ©') that no longer equals
the same word read from a file or a ``tf.train.Example``.

In translated Python 2 modules, ``pickle.load`` / ``loads`` / ``Unpickler``
without an ``encoding`` read those opcodes by the rule of every other Python 2
text boundary (:mod:`compat.py2.text`): valid UTF-8 becomes ``str``, other
bytes stay ``bytes``. ``unicode`` objects (UNICODE opcodes) are text as before.
NumPy arrays and scalars and ``datetime`` objects, whose pickles hold raw
bytes in ``str`` opcodes, get their bytes back unchanged (NumPy's own
``encoding='latin1'`` convention would otherwise read decoded text as Latin-1).
The unpickler is Python's pure-Python one (the C one cannot be extended this way).
"""
from __future__ import annotations

import io
import pickle
from typing import Any, ClassVar

__all__ = ["Py2Unpickler", "Unpickler", "load", "loads"]

#: Modules whose pickles carry raw bytes in Python 2 ``str`` opcodes (array data, packed dates).
_RAW_MODULES = frozenset({"numpy", "datetime"})


def _raw_owner(obj: Any) -> bool:
    """True if ``obj`` (a callable or an instance) belongs to a module of :data:`_RAW_MODULES`."""
    owner = obj if isinstance(obj, type) or callable(obj) else type(obj)
    module = getattr(owner, "__module__", None) or getattr(type(obj), "__module__", "") or ""
    return module.split(".")[0] in _RAW_MODULES


def _raw(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """``values`` with each decoded string given back as its bytes (UTF-8 decoding is one-to-one)."""
    return tuple(v.encode("utf-8") if type(v) is str else v for v in values)


class Py2Unpickler(pickle._Unpickler):  # noqa: SLF001 - the pure-Python unpickler is the extensible one
    """An unpickler reading Python 2 ``str`` opcodes as Python 2 text (module docstring)."""

    def __init__(self, file: Any, *, fix_imports: bool = True, errors: str = "strict", buffers: Any = None) -> None:
        super().__init__(file, fix_imports=fix_imports, encoding="latin1", errors=errors, buffers=buffers)

    def _decode_string(self, value: bytes) -> Any:
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return value

    def _raw_arguments(self) -> None:
        """Give a NumPy / datetime REDUCE or BUILD (the top two of the stack) its raw bytes back."""
        stack: list[Any] = vars(self)["stack"]  # set by load(); the pure-Python unpickler's work stack
        if len(stack) >= 2 and isinstance(stack[-1], tuple) and _raw_owner(stack[-2]):
            stack[-1] = _raw(stack[-1])

    def _load_reduce(self) -> None:
        self._raw_arguments()
        pickle._Unpickler.load_reduce(self)  # type: ignore[attr-defined]  # noqa: SLF001

    def _load_build(self) -> None:
        self._raw_arguments()
        pickle._Unpickler.load_build(self)  # type: ignore[attr-defined]  # noqa: SLF001

    dispatch: ClassVar[dict[int, Any]] = dict(pickle._Unpickler.dispatch)  # noqa: SLF001
    dispatch[pickle.REDUCE[0]] = _load_reduce
    dispatch[pickle.BUILD[0]] = _load_build


#: ``pickle.Unpickler(f)`` of a Python 2 module.
Unpickler = Py2Unpickler


def load(file: Any, **kwargs: Any) -> Any:
    """``pickle.load(file)`` of a Python 2 module: the object, its Python 2 ``str`` as text where UTF-8."""
    return Py2Unpickler(file, **kwargs).load()


def loads(data: bytes, **kwargs: Any) -> Any:
    """``pickle.loads(data)`` of a Python 2 module (see :func:`load`)."""
    return Py2Unpickler(io.BytesIO(data), **kwargs).load()
