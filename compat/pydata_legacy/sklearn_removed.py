"""scikit-learn names and arguments that 2016–2020 code used and later releases removed, with their old semantics.

* :data:`REPLACED`: constructors whose old keywords are refused today
  (``TSNE(n_iter=)``, removed in 1.7; ``OneHotEncoder(sparse=)``, removed in 1.4).
  For the script's run the runner wraps ``__init__`` to pass the keyword under
  its new name; ``get_params``/``clone`` still see scikit-learn's own signature.
* :data:`REMOVED`: names to add where missing (``preprocessing.Imputer``,
  removed in 0.22; ``TSNE.n_iter``, the old parameter's attribute).
* :data:`SERVED_MODULES`: whole modules the runner serves
  (``sklearn.cross_validation``, ``sklearn.grid_search``, ``sklearn.learning_curve``,
  ``sklearn.externals.joblib``, ``sklearn.externals.six``).

Importing this module imports NumPy only; scikit-learn is imported when a row is used.
"""
from __future__ import annotations

import importlib
import types
from collections.abc import Callable
from typing import Any

from compat.errors import LegacyAPIError, LegacyImportError
from compat.pydata_legacy import cross_validation
from compat.surfaces.table_patches import Removed, Replaced, accepts, const, wrapper

__all__ = ["OLD_KEYWORDS", "REMOVED", "REPLACED", "SERVED_MODULES", "SERVED_REPLACEMENTS", "make_imputer_class"]


# --------------------------------------------------------------------------
# Renamed constructor keywords
# --------------------------------------------------------------------------

def _renamed_keywords(class_name: str, renames: dict[str, str], refused: dict[str, str]
                      ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A maker of ``__init__`` wrappers passing each old keyword of ``renames`` under its new name and
    refusing those of ``refused`` with the replacement in the message."""
    def make(current: Callable[..., Any]) -> Callable[..., Any]:
        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N807 - it is the __init__ it wraps
            for old, new in renames.items():
                if old not in kwargs:
                    continue
                value = kwargs.pop(old)
                if kwargs.get(new) is not None:
                    raise TypeError(f"{class_name}: {old}={value!r} is the old name of {new}= "
                                    f"(got {new}={kwargs[new]!r} too); give one")
                kwargs[new] = value
            for old, replacement in refused.items():
                if old in kwargs:
                    raise LegacyAPIError(f"{class_name}({old}=...) was removed from scikit-learn and is not "
                                         f"provided by the compat runner; use {replacement}")
            current(self, *args, **kwargs)
        return wrapper(current, __init__)
    return make


_TSNE_RENAMES = {"n_iter": "max_iter"}
_ONE_HOT_RENAMES = {"sparse": "sparse_output"}
_ONE_HOT_REFUSED = {"n_values": "categories=[range(n) for each column]",
                    "categorical_features": "sklearn.compose.ColumnTransformer([('onehot', OneHotEncoder(), "
                                            "columns)], remainder='passthrough')"}


def _tsne_n_iter(self: Any) -> Any:
    """``TSNE.n_iter``: the old parameter's value, today ``max_iter``."""
    return self.max_iter


# --------------------------------------------------------------------------
# preprocessing.Imputer (removed in 0.22)
# --------------------------------------------------------------------------

def _missing_marker(missing_values: Any) -> Any:
    """The old ``missing_values``: the string ``'NaN'`` (the default) meant ``numpy.nan``."""
    if isinstance(missing_values, str) and missing_values.lower() == "nan":
        return float("nan")
    return missing_values


def make_imputer_class() -> type:
    """``preprocessing.Imputer(missing_values='NaN', strategy='mean', axis=0, verbose=0, copy=True)``.

    With ``axis=0`` (the default) it is ``SimpleImputer``: each column's missing
    entries get the column's mean, median or most frequent value (the smallest on
    ties), columns with no observed value are dropped, ``statistics_`` holds the
    values. ``axis=1`` (impute along rows, deprecated in 0.20) is refused.
    """
    # sklearn.base only: this runs while sklearn.preprocessing is being loaded, maybe in the middle of
    # sklearn.metrics' import, which sklearn.impute needs; it is imported by fit().
    base = importlib.import_module("sklearn.base")

    class Imputer(base.TransformerMixin, base.BaseEstimator):  # type: ignore[name-defined]
        """``sklearn.preprocessing.Imputer`` as of scikit-learn 0.21 (axis=0); today ``SimpleImputer``."""

        def __init__(self, missing_values: Any = "NaN", strategy: str = "mean", axis: int = 0,
                     verbose: int = 0, copy: bool = True) -> None:
            self.missing_values = missing_values
            self.strategy = strategy
            self.axis = axis
            self.verbose = verbose
            self.copy = copy

        def fit(self, X: Any, y: Any = None) -> Imputer:  # noqa: N803 - scikit-learn's name
            """Learn each column's statistic."""
            if self.axis != 0:
                raise LegacyAPIError(f"Imputer(axis={self.axis!r}): only axis=0 is provided by the compat "
                                     f"runner; use sklearn.impute.SimpleImputer on the transposed data")
            impute = importlib.import_module("sklearn.impute")
            self.imputer_ = impute.SimpleImputer(missing_values=_missing_marker(self.missing_values),
                                                 strategy=self.strategy, copy=self.copy)
            self.imputer_.fit(X)
            self.statistics_ = self.imputer_.statistics_
            return self

        def transform(self, X: Any) -> Any:  # noqa: N803 - scikit-learn's name
            """Replace the missing entries (columns without statistic dropped)."""
            return self.imputer_.transform(X)

    Imputer.__module__ = "sklearn.preprocessing"
    return Imputer


# --------------------------------------------------------------------------
# Whole modules
# --------------------------------------------------------------------------

def _forwarding_module(name: str, target: str, names: tuple[str, ...]) -> Callable[[], types.ModuleType]:
    """A factory of a module ``name`` holding ``names`` of ``target`` (imported when the module is made)."""
    def make() -> types.ModuleType:
        source = importlib.import_module(target)
        module = types.ModuleType(name, f"{name} (removed from scikit-learn): the names of {target}, "
                                        f"served by the compat runner.")
        module.__dict__.update({attr: getattr(source, attr) for attr in names}, __all__=list(names))
        return module
    return make


def _six_module() -> types.ModuleType:
    """``sklearn.externals.six`` (removed in 0.23): the ``six`` package, if it is installed."""
    try:
        return importlib.import_module("six")
    except ModuleNotFoundError:
        raise LegacyImportError("sklearn.externals.six (removed in scikit-learn 0.23) is the 'six' package, "
                                "which is not installed; install six or use Python 3's own names") from None


#: Full name -> factory of the module object the runner serves under that name.
SERVED_MODULES: dict[str, Callable[[], types.ModuleType]] = {
    "sklearn.cross_validation": cross_validation.make_module,
    "sklearn.grid_search": _forwarding_module(
        "sklearn.grid_search", "sklearn.model_selection",
        ("GridSearchCV", "RandomizedSearchCV", "ParameterGrid", "ParameterSampler")),
    "sklearn.learning_curve": _forwarding_module(
        "sklearn.learning_curve", "sklearn.model_selection", ("learning_curve", "validation_curve")),
    "sklearn.externals.joblib": lambda: importlib.import_module("joblib"),
    "sklearn.externals.six": _six_module,
}

#: Served module -> its replacement, for messages and the documentation.
SERVED_REPLACEMENTS: dict[str, str] = {
    "sklearn.cross_validation": "sklearn.model_selection (splitters take n_splits and are called with .split(X, y))",
    "sklearn.grid_search": "sklearn.model_selection",
    "sklearn.learning_curve": "sklearn.model_selection",
    "sklearn.externals.joblib": "joblib",
    "sklearn.externals.six": "six",
}


# --------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------

#: owner (``module`` or ``module:Class``) -> removed name -> what it was.
REMOVED: dict[str, dict[str, Removed]] = {
    "sklearn.preprocessing": {
        "Imputer": Removed("sklearn.impute.SimpleImputer(missing_values=numpy.nan, strategy=...)",
                           make_imputer_class),
    },
    "sklearn.manifold:TSNE": {
        "n_iter": Removed("tsne.max_iter", const(property(_tsne_n_iter))),
    },
}

#: owner -> name -> when scikit-learn's own value refuses the old call, and the wrapper that accepts it.
REPLACED: dict[str, dict[str, Replaced]] = {
    "sklearn.manifold:TSNE": {
        "__init__": Replaced("TSNE(max_iter=...)", lambda current: not accepts(current, "n_iter"),
                             _renamed_keywords("TSNE", _TSNE_RENAMES, {})),
    },
    "sklearn.preprocessing:OneHotEncoder": {
        "__init__": Replaced("OneHotEncoder(sparse_output=...)", lambda current: not accepts(current, "sparse"),
                             _renamed_keywords("OneHotEncoder", _ONE_HOT_RENAMES, _ONE_HOT_REFUSED)),
    },
}

#: Call (the class's name) -> old keyword -> its new name, for ``compat check``.
OLD_KEYWORDS: dict[str, dict[str, str]] = {"TSNE": _TSNE_RENAMES, "OneHotEncoder": _ONE_HOT_RENAMES}
