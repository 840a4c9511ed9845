"""Every NumPy name that old code used and today's NumPy removed, with the value the script gets.

One table, :data:`REMOVED`: name -> :class:`Removed` (what replaced it, and a
factory that makes the value on first use). It covers

* the whole list of ruff's ``NPY201`` rule (the names NumPy 2.0 removed from the
  main namespace), each with the replacement ruff names;
* the aliases of Python types removed in NumPy 1.20-1.24 (``np.float``,
  ``np.int``, ``np.object``, ``np.str``, ``np.unicode``, ``np.complex``): the
  Python type, as NumPy 1 had them (``np.bool`` and ``np.long`` exist again in NumPy 2);
* older removals that 2016-2019 code still used (``np.asscalar``, ``np.msort``,
  ``np.rank``, ``np.loads``, the ``int0``/``bool8``/... aliases, ``np.typeDict``).

:mod:`compat.numpy1.rewrite` rewrites ``np.NAME`` and ``from numpy import NAME``
in the script's own modules to ``__compat__.numpy.NAME``, and
:class:`compat.numpy1.runtime.Numpy1Names` serves the value from here. NumPy
itself is never modified. Importing this module imports nothing heavy.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import os
import pickle
import sys
import types
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["REMOVED", "RENAMED_KEYWORDS", "Removed", "replacements", "value_of"]


@dataclass(frozen=True)
class Removed:
    """One removed NumPy name.

    Attributes:
        replacement: what replaced it (shown by ``compat check``).
        make: returns the value the script's ``np.NAME`` gets (called once, on first use).
    """

    replacement: str
    make: Callable[[], Any]


def _np() -> Any:
    return importlib.import_module("numpy")


def _attr(dotted: str) -> Callable[[], Any]:
    """A factory for ``module.attr`` (e.g. ``numpy.exceptions.AxisError``), imported on use."""
    module, _, name = dotted.rpartition(".")
    return lambda: getattr(importlib.import_module(module), name)


def _const(value: Any) -> Callable[[], Any]:
    return lambda: value


# --------------------------------------------------------------------------
# Functions NumPy 2 dropped without a drop-in replacement, written again
# --------------------------------------------------------------------------

def asscalar(a: Any) -> Any:
    """``np.asscalar(a)``: the Python scalar of a size-1 array (``a.item()``)."""
    return _np().asarray(a).item()


def in1d(ar1: Any, ar2: Any, assume_unique: bool = False, invert: bool = False, **kwargs: Any) -> Any:
    """``np.in1d``: a flat bool array, True where an element of ``ar1`` is in ``ar2``."""
    np = _np()
    return np.isin(np.ravel(ar1), ar2, assume_unique=assume_unique, invert=invert, **kwargs)


def msort(a: Any) -> Any:
    """``np.msort(a)``: ``a`` sorted along its first axis (a copy)."""
    return _np().sort(a, axis=0)


def rank(a: Any) -> int:
    """``np.rank(a)`` (removed in NumPy 1.18): the number of dimensions, ``np.ndim(a)``."""
    return int(_np().ndim(a))


def loads(data: bytes, **kwargs: Any) -> Any:
    """``np.loads`` (removed in NumPy 1.17): ``pickle.loads``."""
    return pickle.loads(data, **kwargs)  # noqa: S301 - the script's own call, as NumPy 1 had it


def asfarray(a: Any, dtype: Any = None) -> Any:
    """``np.asfarray``: ``a`` as a floating array; non-float ``dtype`` falls back to float64."""
    np = _np()
    dtype = np.float64 if dtype is None else dtype
    if not np.issubdtype(dtype, np.inexact):
        dtype = np.float64
    return np.asarray(a, dtype=dtype)


class _Cast(Mapping[Any, Callable[[Any], Any]]):
    """``np.cast[dtype](x)``: ``x`` as an array of ``dtype``."""

    def __getitem__(self, dtype: Any) -> Callable[[Any], Any]:
        np = _np()
        target = np.dtype(dtype)
        return lambda x: np.asarray(x).astype(target)

    def __iter__(self) -> Any:
        return iter(_np().sctypeDict.values())

    def __len__(self) -> int:
        return len(_np().sctypeDict)


class _NBytes(Mapping[Any, int]):
    """``np.nbytes[dtype]``: the item size in bytes (``np.dtype(dtype).itemsize``)."""

    def __getitem__(self, dtype: Any) -> int:
        return int(_np().dtype(dtype).itemsize)

    def __iter__(self) -> Any:
        return iter(_np().sctypeDict.values())

    def __len__(self) -> int:
        return len(_np().sctypeDict)


def _compat_module() -> types.ModuleType:
    """``numpy.compat``: the Python 2/3 helpers NumPy 1 kept (removed in NumPy 2.0)."""
    module = types.ModuleType("numpy.compat", "numpy.compat as NumPy 1 had it (served by the compat runner).")

    def asbytes(s: Any) -> bytes:
        return s if isinstance(s, bytes) else str(s).encode("latin1")

    def asstr(s: Any) -> str:
        return s.decode("latin1") if isinstance(s, bytes) else str(s)

    module.__dict__.update(
        long=int, unicode=str, basestring=str, integer_types=(int,), bytes=bytes, pickle=pickle,
        asbytes=asbytes, asstr=asstr, asunicode=asstr, asbytes_nested=asbytes, os_fspath=os.fspath,
        is_pathlib_path=lambda obj: isinstance(obj, os.PathLike), getexception=lambda: sys.exc_info()[1])
    return module


def deprecate(*args: Any, **kwargs: Any) -> Any:
    """``np.deprecate``: a decorator (or, given a function, the wrapped function) that warns on each call."""
    message = kwargs.pop("message", None)

    def wrap(func: Callable[..., Any]) -> Callable[..., Any]:
        name = kwargs.get("old_name") or getattr(func, "__name__", "function")
        text = f"`{name}` is deprecated" + (f": {message}" if message else "")

        def deprecated(*a: Any, **k: Any) -> Any:
            warnings.warn(text, DeprecationWarning, stacklevel=2)
            return func(*a, **k)
        deprecated.__name__ = getattr(func, "__name__", "deprecated")
        deprecated.__doc__ = func.__doc__
        return deprecated

    if args and callable(args[0]):
        return wrap(args[0])
    return wrap


def deprecate_with_doc(msg: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``np.deprecate_with_doc(msg)``: :func:`deprecate` with ``msg`` as the message."""
    return deprecate(message=msg)


def disp(mesg: Any, device: Any = None, linefeed: bool = True) -> None:
    """``np.disp``: write ``mesg`` to ``device`` (stdout), with a newline unless ``linefeed=False``."""
    out = sys.stdout if device is None else device
    out.write(f"{mesg}\n" if linefeed else f"{mesg}")
    out.flush()


def fast_copy_and_transpose(a: Any) -> Any:
    """``np.fastCopyAndTranspose(a)``: ``a.T`` as a new array."""
    return _np().asarray(a).T.copy()


_KINDS = "buifc"


def find_common_type(array_types: Any, scalar_types: Any) -> Any:
    """``np.find_common_type``: the array types' result type, raised to the scalars' kind when that is higher."""
    np = _np()
    arrays = [np.dtype(t) for t in array_types]
    scalars = [np.dtype(t) for t in scalar_types]
    max_array = np.result_type(*arrays) if arrays else None
    max_scalar = np.result_type(*scalars) if scalars else None
    if max_array is None or max_scalar is None:
        return max_array if max_scalar is None else max_scalar
    if max_array.kind in _KINDS and max_scalar.kind in _KINDS and (
            _KINDS.index(max_scalar.kind) > _KINDS.index(max_array.kind)):
        return np.promote_types(max_array, max_scalar)
    return max_array


def get_array_wrap(*args: Any) -> Any:
    """``np.get_array_wrap``: the ``__array_wrap__`` of the argument with the highest ``__array_priority__``."""
    found = [(getattr(x, "__array_priority__", 0), -i, x.__array_wrap__)
             for i, x in enumerate(args) if hasattr(x, "__array_wrap__")]
    return max(found, key=lambda item: item[:2])[2] if found else None


#: The order and codes of NumPy 1's error object (``geterrobj``): 3 bits per category.
_ERR_CATEGORIES = ("divide", "over", "under", "invalid")
_ERR_MODES = ("ignore", "warn", "raise", "call", "print", "log")


def geterrobj() -> list[Any]:
    """``np.geterrobj()``: ``[bufsize, error mask, callback]`` as NumPy 1 encoded ``np.geterr()``."""
    np = _np()
    settings = np.geterr()
    mask = 0
    for shift, category in enumerate(_ERR_CATEGORIES):
        mask |= _ERR_MODES.index(settings[category]) << (3 * shift)
    return [np.getbufsize(), mask, np.geterrcall()]


def seterrobj(errobj: Any) -> None:
    """``np.seterrobj([bufsize, mask, callback])``: the inverse of :func:`geterrobj`."""
    np = _np()
    bufsize, mask, callback = errobj
    modes = {category: _ERR_MODES[(int(mask) >> (3 * shift)) & 7] for shift, category in enumerate(_ERR_CATEGORIES)}
    np.setbufsize(int(bufsize))
    np.seterr(**modes)
    np.seterrcall(callback)


def obj2sctype(rep: Any, default: Any = None) -> Any:
    """``np.obj2sctype``: the NumPy scalar type of a type, dtype, array or type code; ``default`` if none."""
    np = _np()
    if isinstance(rep, type) and issubclass(rep, np.generic):
        return rep
    if isinstance(rep, np.ndarray):
        return rep.dtype.type
    try:
        return np.dtype(rep).type
    except (TypeError, ValueError):
        return default


def issctype(rep: Any) -> bool:
    """``np.issctype``: True for a NumPy scalar type or dtype other than ``object_``."""
    np = _np()
    if not isinstance(rep, (type, np.dtype)):
        return False
    found = obj2sctype(rep)
    return found is not None and found is not np.object_


def issubclass_(arg1: Any, arg2: Any) -> bool:
    """``np.issubclass_``: ``issubclass`` that is False instead of raising for a non-class."""
    try:
        return issubclass(arg1, arg2)
    except TypeError:
        return False


def issubsctype(arg1: Any, arg2: Any) -> bool:
    """``np.issubsctype``: True if the scalar type of ``arg1`` derives from that of ``arg2``."""
    return issubclass(obj2sctype(arg1), obj2sctype(arg2))


def maximum_sctype(t: Any) -> Any:
    """``np.maximum_sctype``: the widest scalar type of the same kind as ``t``."""
    np = _np()
    found = obj2sctype(t)
    if found is None:
        raise ValueError(f"maximum_sctype: unknown type {t!r}")
    widest = {"i": np.int64, "u": np.uint64, "f": np.longdouble, "c": np.clongdouble}
    return widest.get(np.dtype(found).kind, found)


def sctype2char(sctype: Any) -> str:
    """``np.sctype2char``: the one-letter type code of a scalar type."""
    found = obj2sctype(sctype)
    if found is None:
        raise ValueError(f"sctype2char: unrecognized type {sctype!r}")
    return str(_np().dtype(found).char)


def _sctypes() -> dict[str, list[Any]]:
    """``np.sctypes``: NumPy's scalar types by kind, as NumPy 1 listed them."""
    np = _np()
    return {"int": [np.int8, np.int16, np.int32, np.int64],
            "uint": [np.uint8, np.uint16, np.uint32, np.uint64],
            "float": [np.float16, np.float32, np.float64, np.longdouble],
            "complex": [np.complex64, np.complex128, np.clongdouble],
            "others": [bool, object, bytes, str, np.void]}


def lookfor(what: str, module: Any = None, import_modules: bool = True, regenerate: bool = False,
            output: Any = None) -> None:
    """``np.lookfor``: print the NumPy names whose docstring mentions every word of ``what``."""
    np = _np()
    words = what.lower().split()
    out = sys.stdout if output is None else output
    for name in sorted(n for n in dir(np) if not n.startswith("_")):
        doc = (getattr(getattr(np, name, None), "__doc__", None) or "").lower()
        if words and all(word in doc for word in words):
            out.write(f"numpy.{name}\n")


def recfromtxt(fname: Any, **kwargs: Any) -> Any:
    """``np.recfromtxt``: ``np.genfromtxt`` with ``dtype=None``, as a record array."""
    kwargs.setdefault("dtype", None)
    return _np().genfromtxt(fname, **kwargs).view(_np().recarray)


def recfromcsv(fname: Any, **kwargs: Any) -> Any:
    """``np.recfromcsv``: :func:`recfromtxt` of a comma-separated file with a header row (names lower-cased)."""
    kwargs.setdefault("case_sensitive", "lower")
    kwargs.setdefault("names", True)
    kwargs.setdefault("delimiter", ",")
    return recfromtxt(fname, **kwargs)


def set_string_function(f: Callable[[Any], str] | None, repr: bool = True) -> None:  # noqa: A002 - NumPy's name
    """``np.set_string_function(f)``: print arrays with ``f`` (``repr``; NumPy 2 has no hook for ``str``)."""
    if not repr:
        raise ValueError("set_string_function(f, repr=False): NumPy 2 cannot override str() of arrays; "
                         "use numpy.set_printoptions(formatter=...)")
    _np().set_printoptions(override_repr=f)


def source(obj: Any, output: Any = None) -> None:
    """``np.source``: print the source of ``obj``."""
    out = sys.stdout if output is None else output
    out.write(inspect.getsource(obj))


def who(vardict: dict[str, Any] | None = None) -> None:
    """``np.who``: list the arrays of ``vardict`` (the caller's globals): name, shape, bytes, dtype."""
    np = _np()
    if vardict is None:
        frame = inspect.currentframe()
        vardict = frame.f_back.f_globals if frame is not None and frame.f_back is not None else {}
    total = 0
    for name in sorted(vardict):
        value = vardict[name]
        if isinstance(value, np.ndarray):
            total += value.nbytes
            shape = " x ".join(str(n) for n in value.shape)
            print(f"{name:<10} {shape:<10} {value.nbytes:<8} {value.dtype}")
    print(f"Upper bound on total bytes  =       {total}")


def add_newdoc_ufunc(ufunc: Any, new_docstring: str) -> None:
    """``np.add_newdoc_ufunc``: set a ufunc's docstring (NumPy's internal helper)."""
    core = importlib.import_module("numpy._core._multiarray_umath")
    core._add_newdoc_ufunc(ufunc, new_docstring)


# --------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------

def _r(replacement: str, make: Callable[[], Any]) -> Removed:
    return Removed(replacement, make)


#: ruff's NPY201 list: every name NumPy 2.0 removed from its main namespace.
NPY201: dict[str, Removed] = {
    "add_docstring": _r("numpy.lib.add_docstring", _attr("numpy.lib.add_docstring")),
    "add_newdoc": _r("numpy.lib.add_newdoc", _attr("numpy.lib.add_newdoc")),
    "add_newdoc_ufunc": _r("an internal function (the ufunc's __doc__)", _const(add_newdoc_ufunc)),
    "alltrue": _r("numpy.all", _attr("numpy.all")),
    "asfarray": _r("numpy.asarray(a, dtype=float)", _const(asfarray)),
    "byte_bounds": _r("numpy.lib.array_utils.byte_bounds", _attr("numpy.lib.array_utils.byte_bounds")),
    "cast": _r("numpy.asarray(a).astype(dtype)", _const(_Cast())),
    "cfloat": _r("numpy.complex128", _attr("numpy.complex128")),
    "clongfloat": _r("numpy.clongdouble", _attr("numpy.clongdouble")),
    "compat": _r("the Python 3 builtins (numpy.compat was for Python 2)", _compat_module),
    "complex_": _r("numpy.complex128", _attr("numpy.complex128")),
    "cumproduct": _r("numpy.cumprod", _attr("numpy.cumprod")),
    "DataSource": _r("numpy.lib.npyio.DataSource", _attr("numpy.lib.npyio.DataSource")),
    "deprecate": _r("warnings.warn(..., DeprecationWarning)", _const(deprecate)),
    "deprecate_with_doc": _r("warnings.warn(..., DeprecationWarning)", _const(deprecate_with_doc)),
    "disp": _r("print", _const(disp)),
    "fastCopyAndTranspose": _r("a.T.copy()", _const(fast_copy_and_transpose)),
    "find_common_type": _r("numpy.result_type / numpy.promote_types", _const(find_common_type)),
    "float_": _r("numpy.float64", _attr("numpy.float64")),
    "get_array_wrap": _r("the argument's __array_wrap__", _const(get_array_wrap)),
    "geterrobj": _r("numpy.geterr / numpy.errstate", _const(geterrobj)),
    "in1d": _r("numpy.isin(numpy.ravel(a), b)", _const(in1d)),
    "INF": _r("numpy.inf", _attr("numpy.inf")),
    "Inf": _r("numpy.inf", _attr("numpy.inf")),
    "Infinity": _r("numpy.inf", _attr("numpy.inf")),
    "infty": _r("numpy.inf", _attr("numpy.inf")),
    "issctype": _r("isinstance(t, type) and issubclass(t, numpy.generic)", _const(issctype)),
    "issubclass_": _r("issubclass", _const(issubclass_)),
    "issubsctype": _r("numpy.issubdtype", _const(issubsctype)),
    "mat": _r("numpy.asmatrix", _attr("numpy.asmatrix")),
    "maximum_sctype": _r("the widest type of the kind (numpy.int64, numpy.longdouble, ...)",
                         _const(maximum_sctype)),
    "NaN": _r("numpy.nan", _attr("numpy.nan")),
    "NAN": _r("numpy.nan", _attr("numpy.nan")),
    "nbytes": _r("numpy.dtype(t).itemsize", _const(_NBytes())),
    "NINF": _r("-numpy.inf", lambda: -_np().inf),
    "NZERO": _r("-0.0", _const(-0.0)),
    "longcomplex": _r("numpy.clongdouble", _attr("numpy.clongdouble")),
    "longfloat": _r("numpy.longdouble", _attr("numpy.longdouble")),
    "lookfor": _r("NumPy's documentation", _const(lookfor)),
    "obj2sctype": _r("numpy.dtype(t).type", _const(obj2sctype)),
    "PINF": _r("numpy.inf", _attr("numpy.inf")),
    "product": _r("numpy.prod", _attr("numpy.prod")),
    "PZERO": _r("0.0", _const(0.0)),
    "recfromcsv": _r("numpy.genfromtxt(..., delimiter=',', names=True, dtype=None)", _const(recfromcsv)),
    "recfromtxt": _r("numpy.genfromtxt(..., dtype=None)", _const(recfromtxt)),
    "round_": _r("numpy.round", _attr("numpy.round")),
    "safe_eval": _r("ast.literal_eval", _const(ast.literal_eval)),
    "sctype2char": _r("numpy.dtype(t).char", _const(sctype2char)),
    "sctypes": _r("the scalar types listed by kind", _sctypes),
    "seterrobj": _r("numpy.seterr / numpy.errstate", _const(seterrobj)),
    "set_string_function": _r("numpy.set_printoptions(override_repr=f)", _const(set_string_function)),
    "singlecomplex": _r("numpy.complex64", _attr("numpy.complex64")),
    "string_": _r("numpy.bytes_", _attr("numpy.bytes_")),
    "sometrue": _r("numpy.any", _attr("numpy.any")),
    "source": _r("inspect.getsource", _const(source)),
    "tracemalloc_domain": _r("numpy.lib.tracemalloc_domain", _attr("numpy.lib.tracemalloc_domain")),
    "trapz": _r("numpy.trapezoid", _attr("numpy.trapezoid")),
    "unicode_": _r("numpy.str_", _attr("numpy.str_")),
    "who": _r("locals() or a variable explorer", _const(who)),
    "row_stack": _r("numpy.vstack", _attr("numpy.vstack")),
    "AxisError": _r("numpy.exceptions.AxisError", _attr("numpy.exceptions.AxisError")),
    "ComplexWarning": _r("numpy.exceptions.ComplexWarning", _attr("numpy.exceptions.ComplexWarning")),
    "DTypePromotionError": _r("numpy.exceptions.DTypePromotionError",
                              _attr("numpy.exceptions.DTypePromotionError")),
    "ModuleDeprecationWarning": _r("numpy.exceptions.ModuleDeprecationWarning",
                                   _attr("numpy.exceptions.ModuleDeprecationWarning")),
    "RankWarning": _r("numpy.exceptions.RankWarning", _attr("numpy.exceptions.RankWarning")),
    "TooHardError": _r("numpy.exceptions.TooHardError", _attr("numpy.exceptions.TooHardError")),
    "VisibleDeprecationWarning": _r("numpy.exceptions.VisibleDeprecationWarning",
                                    _attr("numpy.exceptions.VisibleDeprecationWarning")),
    "compare_chararrays": _r("numpy.char.compare_chararrays", _attr("numpy.char.compare_chararrays")),
    "chararray": _r("numpy.char.chararray", _attr("numpy.char.chararray")),
    "format_parser": _r("numpy.rec.format_parser", _attr("numpy.rec.format_parser")),
}

#: The aliases of Python types that NumPy 1.20 deprecated and 1.24 removed: NumPy 1 gave the Python type.
#: ``np.bool`` and ``np.long`` are not here: NumPy 2 has them again (``numpy.bool_``, the C long), which
#: old uses (``dtype=np.bool``, ``np.long(n)``) accept, and modern code means them.
PYTHON_TYPE_ALIASES: dict[str, Removed] = {
    "float": _r("float", _const(float)),
    "int": _r("int", _const(int)),
    "object": _r("object", _const(object)),
    "str": _r("str", _const(str)),
    "unicode": _r("str", _const(str)),
    "complex": _r("complex", _const(complex)),
}

#: Older removals (NumPy 1.17-1.25) still found in 2016-2019 code.
OLDER: dict[str, Removed] = {
    "asscalar": _r("ndarray.item()", _const(asscalar)),
    "msort": _r("numpy.sort(a, axis=0)", _const(msort)),
    "rank": _r("numpy.ndim", _const(rank)),
    "loads": _r("pickle.loads", _const(loads)),
    "int0": _r("numpy.intp", _attr("numpy.intp")),
    "uint0": _r("numpy.uintp", _attr("numpy.uintp")),
    "bool8": _r("numpy.bool_", _attr("numpy.bool_")),
    "object0": _r("numpy.object_", _attr("numpy.object_")),
    "str0": _r("numpy.str_", _attr("numpy.str_")),
    "bytes0": _r("numpy.bytes_", _attr("numpy.bytes_")),
    "void0": _r("numpy.void", _attr("numpy.void")),
    "typeDict": _r("numpy.sctypeDict", _attr("numpy.sctypeDict")),
}

#: Every removed name the script's own code gets back.
REMOVED: dict[str, Removed] = {**NPY201, **PYTHON_TYPE_ALIASES, **OLDER}

#: Keyword arguments NumPy renamed and then removed: function -> old keyword -> new keyword.
#: ``np.reshape(a, newshape=)`` (deprecated in 2.1, removed in 2.4; Aymeric Damien's GAN
#: examples), ``np.percentile(..., interpolation=)`` and its three siblings (1.22 / 2.4), the
#: ``normed=`` of ``histogram2d`` / ``histogramdd`` (an alias of ``density``, removed in 1.24).
#: The script's own ``np.FUNCTION(...)`` calls get the new keyword, with the same meaning.
#: ``np.histogram(normed=)`` is not a rename: it divided by ``sum(counts * widths)``, which
#: differs from ``density`` for unequal bins, so it is served by
#: :func:`compat.numpy1.runtime.histogram_normed`.
RENAMED_KEYWORDS: dict[str, dict[str, str]] = {
    "reshape": {"newshape": "shape"},
    **{name: {"interpolation": "method"} for name in ("percentile", "quantile", "nanpercentile", "nanquantile")},
    "histogram2d": {"normed": "density"},
    "histogramdd": {"normed": "density"},
}


def replacements() -> dict[str, str]:
    """Name -> what replaced it, for every entry of :data:`REMOVED`."""
    return {name: entry.replacement for name, entry in REMOVED.items()}


def value_of(name: str) -> Any:
    """The value ``np.<name>`` had in NumPy 1.

    Raises:
        KeyError: ``name`` is not a removed NumPy name.
    """
    return REMOVED[name].make()
