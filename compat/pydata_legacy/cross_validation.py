"""``sklearn.cross_validation`` as scikit-learn 0.17–0.19 had it (removed in 0.20), built on ``model_selection``.

The old iterators took the data's size (``KFold(n, n_folds)``) or labels
(``StratifiedKFold(y, n_folds)``) when made, and were iterated directly for
``(train, test)`` index arrays; ``len()`` was the number of splits. Here:

* ``KFold``: the old class shuffled ``arange(n)`` once, when made, with
  ``check_random_state(random_state)``; the folds are ``model_selection.KFold``'s
  unshuffled folds of that order (each sorted, as before), so an integer seed gives the splits
  ``model_selection.KFold(n_folds, shuffle=True, random_state=seed)`` gives, and
  every iteration gives the same splits even with ``random_state=None``, as before.
* ``StratifiedKFold``: the 0.17–0.21 algorithm (one ``KFold`` per class, test
  folds assigned class by class). ``model_selection.StratifiedKFold`` allocates
  differently since 0.22, so its folds are not the old ones.
* ``ShuffleSplit``, ``StratifiedShuffleSplit``: ``model_selection``'s, with the old
  defaults (``test_size=0.1``, also when ``train_size`` is given). For
  ``ShuffleSplit`` the draws are the old ones; ``StratifiedShuffleSplit`` uses
  today's per-class rounding (0.17's could put a sample or two elsewhere).
* ``LeaveOneOut(n)``; ``train_test_split``, ``cross_val_score`` (old default: 3
  folds, stratified with the old algorithm for a classifier), ``cross_val_predict``,
  ``check_cv``.

Importing this module imports NumPy only; scikit-learn is imported when used.
"""
from __future__ import annotations

import importlib
import types
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from compat.errors import LegacyAPIError

__all__ = ["KFold", "LeaveOneOut", "ShuffleSplit", "StratifiedKFold", "StratifiedShuffleSplit",
           "check_cv", "cross_val_predict", "cross_val_score", "make_module", "train_test_split"]

#: Old classes not provided -> the model_selection replacement named in the refusal.
NOT_PROVIDED: dict[str, str] = {
    "LabelKFold": "sklearn.model_selection.GroupKFold (groups= passed to split)",
    "LeaveOneLabelOut": "sklearn.model_selection.LeaveOneGroupOut",
    "LeavePLabelOut": "sklearn.model_selection.LeavePGroupsOut",
    "LabelShuffleSplit": "sklearn.model_selection.GroupShuffleSplit",
    "LeavePOut": "sklearn.model_selection.LeavePOut(p).split(X)",
    "PredefinedSplit": "sklearn.model_selection.PredefinedSplit(test_fold).split()",
    "permutation_test_score": "sklearn.model_selection.permutation_test_score",
}

Split = tuple[np.ndarray, np.ndarray]


def _model_selection() -> types.ModuleType:
    return importlib.import_module("sklearn.model_selection")


def _random_state(seed: Any) -> np.random.RandomState:
    return importlib.import_module("sklearn.utils").check_random_state(seed)


class _OldSplitter:
    """What the old iterators shared: iteration, ``len()``, ``n``."""

    n: int

    def _splits(self) -> Iterator[Split]:
        raise NotImplementedError

    def __iter__(self) -> Iterator[Split]:
        yield from self._splits()

    def __len__(self) -> int:
        return sum(1 for _ in self._splits())


class KFold(_OldSplitter):
    """``cross_validation.KFold(n, n_folds=3, shuffle=False, random_state=None)``: ``n_folds`` consecutive
    test folds of ``arange(n)`` (shuffled once when made, if ``shuffle``), the first ``n % n_folds`` one
    longer; today ``model_selection.KFold(n_splits).split(X)``."""

    def __init__(self, n: int, n_folds: int = 3, shuffle: bool = False, random_state: Any = None) -> None:
        if abs(n - int(n)) >= np.finfo("f").eps:
            raise ValueError("n must be an integer")
        self.n = int(n)
        if n_folds < 2 or n_folds > self.n:
            raise ValueError(f"k-fold cross validation requires at least one train / test split by setting "
                             f"n_folds=2 or more, and n_folds={n_folds} cannot exceed n={self.n}")
        self.n_folds = int(n_folds)
        self.shuffle = shuffle
        self.random_state = random_state
        self.idxs = np.arange(self.n)
        if shuffle:  # once, here: as 0.17-0.19 did, every iteration gives the same folds
            _random_state(random_state).shuffle(self.idxs)

    def _splits(self) -> Iterator[Split]:
        folds = _model_selection().KFold(self.n_folds).split(np.zeros(self.n))
        for train, test in folds:
            # Sorted, as the old iterators (and model_selection's) turned each test fold into a mask.
            yield np.sort(self.idxs[train]), np.sort(self.idxs[test])

    def __len__(self) -> int:
        return self.n_folds

    def __repr__(self) -> str:
        return (f"sklearn.cross_validation.KFold(n={self.n}, n_folds={self.n_folds}, "
                f"shuffle={self.shuffle}, random_state={self.random_state})")


class StratifiedKFold(_OldSplitter):
    """``cross_validation.StratifiedKFold(y, n_folds=3, shuffle=False, random_state=None)`` with the
    0.17–0.21 assignment: the samples of each class, in order, are cut into ``n_folds`` test folds
    as by ``KFold``; test fold k gathers fold k of every class."""

    def __init__(self, y: Any, n_folds: int = 3, shuffle: bool = False, random_state: Any = None) -> None:
        self.y = np.asarray(y)
        self.n = self.y.shape[0]
        self.n_folds = int(n_folds)
        self.shuffle = shuffle
        self.random_state = random_state
        self.test_folds = self._test_folds()

    def _test_folds(self) -> np.ndarray:
        labels, inverse = np.unique(self.y, return_inverse=True)
        counts = np.bincount(inverse.ravel())
        if np.all(self.n_folds > counts):
            raise ValueError(f"All the n_labels for individual classes are less than n_folds={self.n_folds}.")
        if self.n_folds > counts.min():
            warnings.warn(f"The least populated class in y has only {counts.min()} members, which is too few. "
                          f"The minimum number of labels for any class cannot be less than "
                          f"n_folds={self.n_folds}.", stacklevel=3)
        # One shared generator: each class's KFold draws its own shuffle from it, in class order.
        rng = _random_state(self.random_state) if self.shuffle else self.random_state
        per_class = [KFold(max(int(count), self.n_folds), self.n_folds, shuffle=self.shuffle, random_state=rng)
                     for count in counts]
        test_folds = np.zeros(self.n, dtype=int)
        for fold, class_splits in enumerate(zip(*per_class, strict=True)):
            for label, (_, test) in zip(labels, class_splits, strict=True):
                members = test_folds[self.y == label]
                # KFold(max(count, n_folds)) may name positions past the class's size: dropped, as before.
                members[test[test < len(members)]] = fold
                test_folds[self.y == label] = members
        return test_folds

    def _splits(self) -> Iterator[Split]:
        indices = np.arange(self.n)
        for fold in range(self.n_folds):
            yield indices[self.test_folds != fold], indices[self.test_folds == fold]

    def __len__(self) -> int:
        return self.n_folds


class ShuffleSplit(_OldSplitter):
    """``cross_validation.ShuffleSplit(n, n_iter=10, test_size=0.1, train_size=None, random_state=None)``:
    ``model_selection.ShuffleSplit(n_splits=n_iter, test_size=test_size, ...)`` on ``n`` samples."""

    def __init__(self, n: int, n_iter: int = 10, test_size: Any = 0.1, train_size: Any = None,
                 random_state: Any = None) -> None:
        self.n = int(n)
        self.n_iter = int(n_iter)
        self.test_size = test_size
        self.train_size = train_size
        self.random_state = random_state

    def _splits(self) -> Iterator[Split]:
        splitter = _model_selection().ShuffleSplit(n_splits=self.n_iter, test_size=self.test_size,
                                                   train_size=self.train_size, random_state=self.random_state)
        yield from splitter.split(np.zeros(self.n))

    def __len__(self) -> int:
        return self.n_iter


class StratifiedShuffleSplit(_OldSplitter):
    """``cross_validation.StratifiedShuffleSplit(y, n_iter=10, test_size=0.1, train_size=None,
    random_state=None)``: ``model_selection.StratifiedShuffleSplit`` on the labels ``y``."""

    def __init__(self, y: Any, n_iter: int = 10, test_size: Any = 0.1, train_size: Any = None,
                 random_state: Any = None) -> None:
        self.y = np.asarray(y)
        self.n = self.y.shape[0]
        self.n_iter = int(n_iter)
        self.test_size = test_size
        self.train_size = train_size
        self.random_state = random_state

    def _splits(self) -> Iterator[Split]:
        splitter = _model_selection().StratifiedShuffleSplit(
            n_splits=self.n_iter, test_size=self.test_size, train_size=self.train_size,
            random_state=self.random_state)
        yield from splitter.split(np.zeros(self.n), self.y)

    def __len__(self) -> int:
        return self.n_iter


class LeaveOneOut(_OldSplitter):
    """``cross_validation.LeaveOneOut(n)``: test set ``[i]`` for each i, the rest for training."""

    def __init__(self, n: int) -> None:
        self.n = int(n)

    def _splits(self) -> Iterator[Split]:
        yield from _model_selection().LeaveOneOut().split(np.zeros(self.n))

    def __len__(self) -> int:
        return self.n


def _is_classifier(estimator: Any) -> bool:
    return bool(importlib.import_module("sklearn.base").is_classifier(estimator))


def check_cv(cv: Any, X: Any = None, y: Any = None, classifier: bool = False) -> Any:  # noqa: N803 - old name
    """The old ``check_cv``: ``None`` is 3 folds; an integer is ``StratifiedKFold(y, cv)`` (the old
    algorithm) for a classifier with binary or multiclass ``y``, else ``KFold(n, cv)``; anything
    else (an old iterator, a list of splits, a ``model_selection`` splitter) is kept."""
    if cv is None:
        cv = 3
    if not isinstance(cv, (int, np.integer)):
        return cv
    n = len(y) if X is None else importlib.import_module("sklearn.utils.validation")._num_samples(X)
    if classifier and y is not None:
        kind = importlib.import_module("sklearn.utils.multiclass").type_of_target(y)
        if kind in ("binary", "multiclass"):
            return StratifiedKFold(y, int(cv))
    return KFold(n, int(cv))


def cross_val_score(estimator: Any, X: Any, y: Any = None, scoring: Any = None, cv: Any = None,  # noqa: N803
                    n_jobs: int = 1, verbose: int = 0, fit_params: dict[str, Any] | None = None,
                    pre_dispatch: str = "2*n_jobs") -> np.ndarray:
    """The old ``cross_val_score``: the old ``check_cv`` (3 folds by default), ``fit_params`` passed to
    each fit; today ``model_selection.cross_val_score(..., cv=5, params=...)``."""
    splits = list(check_cv(cv, X, y, classifier=_is_classifier(estimator)))
    return _model_selection().cross_val_score(estimator, X, y, scoring=scoring, cv=splits, n_jobs=n_jobs,
                                              verbose=verbose, params=fit_params, pre_dispatch=pre_dispatch)


def cross_val_predict(estimator: Any, X: Any, y: Any = None, cv: Any = None, n_jobs: int = 1,  # noqa: N803
                      verbose: int = 0, fit_params: dict[str, Any] | None = None,
                      pre_dispatch: str = "2*n_jobs") -> np.ndarray:
    """The old ``cross_val_predict`` (3 folds by default); today ``model_selection.cross_val_predict``."""
    splits = list(check_cv(cv, X, y, classifier=_is_classifier(estimator)))
    return _model_selection().cross_val_predict(estimator, X, y, cv=splits, n_jobs=n_jobs, verbose=verbose,
                                                params=fit_params, pre_dispatch=pre_dispatch)


def train_test_split(*arrays: Any, **options: Any) -> list[Any]:
    """``model_selection.train_test_split``: the same function since 0.18 (test_size 0.25 by default)."""
    return _model_selection().train_test_split(*arrays, **options)


def make_module() -> types.ModuleType:
    """A ``sklearn.cross_validation`` module: the names above; a name not provided raises with its replacement."""
    module = types.ModuleType("sklearn.cross_validation", "sklearn.cross_validation as of scikit-learn 0.19, "
                              "as far as the compat runner provides it (see compat.pydata_legacy.cross_validation).")
    provided = {name: globals()[name] for name in __all__ if name != "make_module"}

    def __getattr__(name: str) -> Any:
        if name in NOT_PROVIDED:
            raise LegacyAPIError(f"sklearn.cross_validation.{name} (removed in scikit-learn 0.20) is not "
                                 f"provided by the compat runner; use {NOT_PROVIDED[name]}")
        raise AttributeError(f"module 'sklearn.cross_validation' has no attribute {name!r}")

    module.__dict__.update(provided, __getattr__=__getattr__, __all__=sorted(provided))
    return module
