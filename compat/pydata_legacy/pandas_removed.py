"""pandas names and arguments that 2016–2020 code used and later releases removed, with their old semantics.

:data:`REMOVED` maps an owner (``"pandas"`` or ``"pandas:DataFrame"``) to the
names it lost and what each was; the runner adds a name only where the owner
lacks it. :data:`REPLACED` lists names pandas kept but whose old calls it
refuses (``read_csv(squeeze=True)``, ``fillna(method='ffill')``): the runner
wraps them for the script's run. Each follows the last pandas that had it
(the version is in the docstring); today's spelling is :attr:`Removed.replacement`.
Importing this module imports NumPy only; pandas is imported when a function runs.
"""
from __future__ import annotations

import importlib
import types
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from compat.errors import LegacyAPIError
from compat.pydata_legacy.pandas_ix import ix_property
from compat.surfaces.table_patches import Removed, Replaced, accepts, const, wrapper

__all__ = ["CHECKED_METHODS", "OLD_KEYWORDS", "REMOVED", "REPLACED"]


def _pd() -> types.ModuleType:
    return importlib.import_module("pandas")


# --------------------------------------------------------------------------
# DataFrame / Series methods
# --------------------------------------------------------------------------

def as_matrix(self: Any, columns: Any = None) -> np.ndarray:
    """``as_matrix(columns=None)`` (removed in 1.0): ``.values`` of the frame, or of ``frame[columns]``."""
    if columns is not None:
        return self[list(columns)].values
    return self.values


def frame_append(self: Any, other: Any, ignore_index: bool = False, verify_integrity: bool = False,
                 sort: bool = False) -> Any:
    """``DataFrame.append`` as pandas 1.4 had it (removed in 2.0): ``pd.concat([self, *other])``.

    A dict (``ignore_index=True`` required) or a Series (named, or ``ignore_index=True``)
    is one row, its keys the columns; a list of dicts or Series is made a frame first.
    """
    pd = _pd()
    if isinstance(other, (pd.Series, dict)):
        if isinstance(other, dict):
            if not ignore_index:
                raise TypeError("Can only append a dict if ignore_index=True")
            other = pd.Series(other)
        if other.name is None and not ignore_index:
            raise TypeError("Can only append a Series if ignore_index=True or if the Series has a name")
        index = pd.Index([other.name], name=self.index.name)
        other = other.to_frame().T.infer_objects().rename_axis(index.names)
    elif isinstance(other, list) and other and not isinstance(other[0], pd.DataFrame):
        other = pd.DataFrame(other)
        if self.index.name is not None and not ignore_index:
            other.index.name = self.index.name
    pieces = [self, *other] if isinstance(other, (list, tuple)) else [self, other]
    return pd.concat(pieces, ignore_index=ignore_index, verify_integrity=verify_integrity, sort=sort)


def series_append(self: Any, to_append: Any, ignore_index: bool = False, verify_integrity: bool = False) -> Any:
    """``Series.append`` (removed in 2.0): ``pd.concat([self, *to_append])``; a DataFrame is refused."""
    pd = _pd()
    pieces = [self, *to_append] if isinstance(to_append, (list, tuple)) else [self, to_append]
    if any(isinstance(piece, pd.DataFrame) for piece in pieces[1:]):
        raise TypeError("to_append should be a Series or list/tuple of Series, got DataFrame")
    return pd.concat(pieces, ignore_index=ignore_index, verify_integrity=verify_integrity)


def iteritems(self: Any) -> Any:
    """``iteritems()`` (removed in 2.0): ``items()``."""
    return self.items()


def frame_get_value(self: Any, index: Any, col: Any, takeable: bool = False) -> Any:
    """``DataFrame.get_value(index, col, takeable=False)`` (removed in 1.0): ``.at`` (``.iat`` if takeable)."""
    return self.iat[index, col] if takeable else self.at[index, col]


def frame_set_value(self: Any, index: Any, col: Any, value: Any, takeable: bool = False) -> Any:
    """``DataFrame.set_value(index, col, value)`` (removed in 1.0): set in place (a new label enlarges),
    return the frame."""
    if takeable:
        self.iat[index, col] = value
    else:
        self.at[index, col] = value
    return self


def series_get_value(self: Any, label: Any, takeable: bool = False) -> Any:
    """``Series.get_value(label, takeable=False)`` (removed in 1.0): ``.at`` (``.iat`` if takeable)."""
    return self.iat[label] if takeable else self.at[label]


def series_set_value(self: Any, label: Any, value: Any, takeable: bool = False) -> Any:
    """``Series.set_value(label, value)`` (removed in 1.0): set in place, return the Series."""
    if takeable:
        self.iat[label] = value
    else:
        self.at[label] = value
    return self


def frame_sort(self: Any, columns: Any = None, axis: int = 0, ascending: Any = True, inplace: bool = False,
               kind: str = "quicksort", na_position: str = "last", **kwargs: Any) -> Any:
    """``DataFrame.sort(columns=None, ...)`` (removed in 0.20): ``sort_values(by=columns)``, or
    ``sort_index()`` when no columns are given."""
    if columns is None:
        return self.sort_index(axis=axis, ascending=ascending, inplace=inplace, kind=kind,
                               na_position=na_position)
    return self.sort_values(by=columns, axis=axis, ascending=ascending, inplace=inplace, kind=kind,
                            na_position=na_position)


def series_sort(self: Any, axis: int = 0, ascending: bool = True, kind: str = "quicksort",
                na_position: str = "last", inplace: bool = True) -> Any:
    """``Series.sort()`` (removed in 0.20): sorts by value IN PLACE by default, as it did."""
    return self.sort_values(axis=axis, ascending=ascending, kind=kind, na_position=na_position, inplace=inplace)


def series_order(self: Any, na_last: Any = None, ascending: bool = True, kind: str = "quicksort",
                 na_position: str = "last", inplace: bool = False) -> Any:
    """``Series.order()`` (removed in 0.20): ``sort_values()`` (a new Series)."""
    if na_last is not None:
        na_position = "last" if na_last else "first"
    return self.sort_values(ascending=ascending, kind=kind, na_position=na_position, inplace=inplace)


def frame_from_csv(cls: Any, path: Any, header: Any = 0, sep: str = ",", index_col: Any = 0,
                   parse_dates: bool = True, encoding: str | None = None, tupleize_cols: Any = None,
                   infer_datetime_format: bool = False) -> Any:
    """``DataFrame.from_csv`` (removed in 1.0): ``read_csv`` with its old defaults: the first column is
    the index and dates in it are parsed."""
    with warnings.catch_warnings():
        # Today's parser warns when the index is not dates (an id column); old from_csv kept it silently.
        warnings.filterwarnings("ignore", message="Could not infer format", category=UserWarning)
        return _pd().read_csv(path, header=header, sep=sep, index_col=index_col, parse_dates=parse_dates,
                              encoding=encoding)


def series_from_csv(cls: Any, path: Any, sep: str = ",", parse_dates: bool = True, header: Any = None,
                    index_col: Any = 0, encoding: str | None = None, infer_datetime_format: bool = False) -> Any:
    """``Series.from_csv`` (removed in 1.0): the second column, indexed by the first, no header by default
    (then the Series and its index have no name)."""
    frame = frame_from_csv(None, path, header=header, sep=sep, index_col=index_col, parse_dates=parse_dates,
                           encoding=encoding)
    result = frame.iloc[:, 0]
    if header is None:
        result.index.name = result.name = None
    return result


def applymap(self: Any, func: Callable[[Any], Any], na_action: str | None = None, **kwargs: Any) -> Any:
    """``DataFrame.applymap`` (removed in 3.0): ``map``, elementwise."""
    return self.map(func, na_action=na_action, **kwargs)


# --------------------------------------------------------------------------
# Top-level functions: moving windows (removed in 0.23), value_counts (3.0), scatter_matrix (0.23)
# --------------------------------------------------------------------------

def _no_freq_how(name: str, freq: Any, how: Any) -> None:
    if freq is not None or how is not None:
        raise LegacyAPIError(f"pd.{name}(freq=..., how=...) is not provided by the compat runner; "
                             f"resample first: arg.resample(freq).{how or 'mean'}(), then .rolling(...)")


def _windowed(arg: Any, method: Callable[[Any], Any]) -> Any:
    """``method`` on ``arg`` (a Series or DataFrame; an array becomes one and the result an array again)."""
    pd = _pd()
    if isinstance(arg, (pd.Series, pd.DataFrame)):
        return method(arg)
    array = np.asarray(arg)
    data = pd.Series(array) if array.ndim == 1 else pd.DataFrame(array)
    return method(data).values


def _rolling(statistic: str) -> Callable[..., Any]:
    """``pd.rolling_<statistic>(arg, window, min_periods=None, freq=None, center=False, how=None, **kw)``:
    ``arg.rolling(window, min_periods=min_periods, center=center).<statistic>(**kw)``."""
    def rolling(arg: Any, window: int, min_periods: int | None = None, freq: Any = None, center: bool = False,
                how: Any = None, **kwargs: Any) -> Any:
        _no_freq_how(f"rolling_{statistic}", freq, how)
        return _windowed(arg, lambda data: getattr(data.rolling(window, min_periods=min_periods, center=center),
                                                   statistic)(**kwargs))
    rolling.__name__ = f"rolling_{statistic}"
    return rolling


def _expanding(statistic: str) -> Callable[..., Any]:
    """``pd.expanding_<statistic>(arg, min_periods=1, freq=None, **kw)``: ``arg.expanding(min_periods).<stat>()``."""
    def expanding(arg: Any, min_periods: int = 1, freq: Any = None, **kwargs: Any) -> Any:
        _no_freq_how(f"expanding_{statistic}", freq, None)
        return _windowed(arg, lambda data: getattr(data.expanding(min_periods=min_periods), statistic)(**kwargs))
    expanding.__name__ = f"expanding_{statistic}"
    return expanding


def _ewm(statistic: str) -> Callable[..., Any]:
    """``pd.ewma`` / ``ewmstd`` / ``ewmvar`` (removed in 0.23):
    ``arg.ewm(com, span, halflife, alpha, min_periods=0, adjust=True, ignore_na=False).<statistic>()``;
    ``bias=False`` as before for the deviations."""
    def ewm(arg: Any, com: Any = None, span: Any = None, halflife: Any = None, alpha: Any = None,
            min_periods: int = 0, freq: Any = None, adjust: bool = True, how: Any = None,
            ignore_na: bool = False, **kwargs: Any) -> Any:
        _no_freq_how(f"ewm{statistic}", freq, how)
        return _windowed(arg, lambda data: getattr(
            data.ewm(com=com, span=span, halflife=halflife, alpha=alpha, min_periods=min_periods,
                     adjust=adjust, ignore_na=ignore_na), statistic)(**kwargs))
    return ewm


def value_counts(values: Any, sort: bool = True, ascending: bool = False, normalize: bool = False,
                 bins: Any = None, dropna: bool = True) -> Any:
    """``pd.value_counts(values, ...)`` (removed in 3.0): ``pd.Series(values).value_counts(...)``."""
    pd = _pd()
    series = values if isinstance(values, pd.Series) else pd.Series(np.asarray(values) if isinstance(values, list)
                                                                      else values)
    return series.value_counts(sort=sort, ascending=ascending, normalize=normalize, bins=bins, dropna=dropna)


def _plotting(name: str) -> Callable[[], Any]:
    return lambda: getattr(importlib.import_module("pandas.plotting"), name)


# --------------------------------------------------------------------------
# Wrappers of names pandas kept (REPLACED)
# --------------------------------------------------------------------------

def _old_squeeze(current: Callable[..., Any]) -> Callable[..., Any]:
    """``read_csv`` / ``read_table`` accepting ``squeeze=`` (removed in 2.0): a one-column result is a Series."""
    def read(*args: Any, squeeze: bool = False, **kwargs: Any) -> Any:
        result = current(*args, **kwargs)
        if squeeze and hasattr(result, "squeeze") and not hasattr(result, "get_chunk"):
            return result.squeeze("columns")
        return result
    return wrapper(current, read)


_FILL_METHODS = {"ffill": "ffill", "pad": "ffill", "bfill": "bfill", "backfill": "bfill"}


def _old_fillna(current: Callable[..., Any]) -> Callable[..., Any]:
    """``fillna(method='ffill'|'pad'|'bfill'|'backfill')`` (removed in 3.0): ``ffill()`` / ``bfill()``."""
    def fillna(self: Any, value: Any = None, method: str | None = None, axis: Any = None, inplace: bool = False,
               limit: int | None = None, **kwargs: Any) -> Any:
        if method is None:
            return current(self, value, axis=axis, inplace=inplace, limit=limit, **kwargs)
        if value is not None:
            raise ValueError(f"fillna: cannot specify both 'value' and 'method' (got method={method!r})")
        if method not in _FILL_METHODS:
            raise ValueError(f"fillna: invalid fill method {method!r}; expecting pad (ffill) or backfill (bfill)")
        return getattr(self, _FILL_METHODS[method])(axis=axis, inplace=inplace, limit=limit)
    return wrapper(current, fillna)


# --------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------

_STATISTICS = ("mean", "std", "var", "sum", "min", "max", "median", "skew", "kurt", "count")

_COMMON: dict[str, Removed] = {
    "as_matrix": Removed(".values / .to_numpy()", const(as_matrix)),
    "iteritems": Removed(".items()", const(iteritems)),
    "ix": Removed(".loc (labels) / .iloc (positions)", const(ix_property)),
}

#: owner (``module`` or ``module:Class``) -> removed name -> what it was.
REMOVED: dict[str, dict[str, Removed]] = {
    "pandas": {
        **{f"rolling_{stat}": Removed(f"arg.rolling(window).{stat}()", const(_rolling(stat)))
           for stat in _STATISTICS},
        **{f"expanding_{stat}": Removed(f"arg.expanding(min_periods=1).{stat}()", const(_expanding(stat)))
           for stat in _STATISTICS},
        "ewma": Removed("arg.ewm(...).mean()", const(_ewm("mean"))),
        "ewmstd": Removed("arg.ewm(...).std()", const(_ewm("std"))),
        "ewmvar": Removed("arg.ewm(...).var()", const(_ewm("var"))),
        "scatter_matrix": Removed("pandas.plotting.scatter_matrix", _plotting("scatter_matrix")),
        "value_counts": Removed("pd.Series(values).value_counts()", const(value_counts)),
    },
    "pandas:DataFrame": {
        **_COMMON,
        "append": Removed("pd.concat([frame, other])", const(frame_append)),
        "get_value": Removed("frame.at[index, col]", const(frame_get_value)),
        "set_value": Removed("frame.at[index, col] = value", const(frame_set_value)),
        "sort": Removed("frame.sort_values(by=columns) / frame.sort_index()", const(frame_sort)),
        "from_csv": Removed("pd.read_csv(path, index_col=0, parse_dates=True)",
                            const(classmethod(frame_from_csv))),
        "applymap": Removed("frame.map(func)", const(applymap)),
    },
    "pandas:Series": {
        **_COMMON,
        "append": Removed("pd.concat([series, other])", const(series_append)),
        "get_value": Removed("series.at[label]", const(series_get_value)),
        "set_value": Removed("series.at[label] = value", const(series_set_value)),
        "sort": Removed("series.sort_values(inplace=True)", const(series_sort)),
        "order": Removed("series.sort_values()", const(series_order)),
        "from_csv": Removed("pd.read_csv(path, header=None, index_col=0, parse_dates=True).iloc[:, 0]",
                            const(classmethod(series_from_csv))),
    },
}

_SQUEEZE = Replaced("pd.read_csv(...).squeeze('columns')", lambda current: not accepts(current, "squeeze"),
                    _old_squeeze)
_FILLNA = Replaced("frame.ffill() / frame.bfill()", lambda current: not accepts(current, "method"), _old_fillna)

#: owner -> name -> when pandas' own value refuses the old call, and the wrapper that accepts it.
REPLACED: dict[str, dict[str, Replaced]] = {
    "pandas": {"read_csv": _SQUEEZE, "read_table": _SQUEEZE},
    "pandas:DataFrame": {"fillna": _FILLNA},
    "pandas:Series": {"fillna": _FILLNA},
}

# --------------------------------------------------------------------------
# What `compat check` reads
# --------------------------------------------------------------------------

#: Call (the function's or method's name) -> old keyword -> today's spelling.
OLD_KEYWORDS: dict[str, dict[str, str]] = {
    "read_csv": {"squeeze": "squeeze('columns') on the result"},
    "read_table": {"squeeze": "squeeze('columns') on the result"},
    "fillna": {"method": ".ffill() / .bfill()"},
}

#: Removed method names ``compat check`` reports on any receiver in a module that imports pandas: the
#: ones no builtin type has (``append``, ``sort``, ``iteritems`` would also match lists and dicts).
CHECKED_METHODS: frozenset[str] = frozenset({"as_matrix", "ix", "get_value", "set_value", "applymap",
                                             "from_csv"})
