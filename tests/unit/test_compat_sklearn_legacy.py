"""``compat.pydata_legacy``'s scikit-learn part: old constructor keywords, ``Imputer``, ``sklearn.cross_validation``
and the other removed modules, with their old semantics.

The old iterators are checked against their splits written out by hand (and
against ``model_selection`` where the old and new agree); the patches against
the installed scikit-learn: applied only where the old call is refused, undone
to the very objects scikit-learn had. No long fit runs.
"""
from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Iterator

import joblib
import numpy as np
import pytest
import sklearn.base
import sklearn.manifold
import sklearn.model_selection
import sklearn.preprocessing

from compat.errors import LegacyAPIError
from compat.pydata_legacy import cross_validation as cv
from compat.pydata_legacy import sklearn_removed
from compat.pydata_legacy.patches import PydataPatches


@pytest.fixture
def patched() -> Iterator[PydataPatches]:
    patches = PydataPatches()
    for name in ("sklearn.manifold", "sklearn.preprocessing"):
        patches.apply(importlib.import_module(name))
    yield patches
    patches.undo()


def fold_tests(splits: object) -> list[list[int]]:
    return [test.tolist() for _, test in splits]  # type: ignore[attr-defined]


# --------------------------------------------------------------------------
# Constructors with renamed keywords
# --------------------------------------------------------------------------

def test_tsne_n_iter_is_max_iter_and_get_params_and_clone_see_todays_signature(patched: PydataPatches) -> None:
    # word2vec_basic.py's call, with the smallest max_iter scikit-learn allows; nothing is fitted.
    tsne = sklearn.manifold.TSNE(perplexity=30, n_components=2, init="pca", n_iter=250, method="exact")
    assert tsne.max_iter == 250 and tsne.n_iter == 250
    assert tsne.get_params()["max_iter"] == 250 and "n_iter" not in tsne.get_params()
    assert sklearn.base.clone(tsne).max_iter == 250
    assert sklearn.manifold.TSNE(n_iter_without_progress=50).n_iter_without_progress == 50
    with pytest.raises(TypeError, match="n_iter=300 is the old name of max_iter="):
        sklearn.manifold.TSNE(n_iter=300, max_iter=400)


def test_one_hot_encoder_sparse_is_sparse_output(patched: PydataPatches) -> None:
    encoder = sklearn.preprocessing.OneHotEncoder(sparse=False)
    assert encoder.get_params()["sparse_output"] is False
    np.testing.assert_array_equal(encoder.fit_transform([[1], [3], [1]]), [[1, 0], [0, 1], [1, 0]])
    with pytest.raises(LegacyAPIError, match="categorical_features.*ColumnTransformer"):
        sklearn.preprocessing.OneHotEncoder(categorical_features=[0])


@pytest.mark.filterwarnings("ignore:Skipping features without any observed values")
def test_imputer_axis0_fills_column_statistics_and_drops_empty_columns(patched: PydataPatches) -> None:
    data = np.array([[1.0, np.nan, np.nan], [3.0, 4.0, np.nan], [np.nan, 8.0, np.nan], [3.0, 4.0, np.nan]])
    mean = sklearn.preprocessing.Imputer().fit(data)
    np.testing.assert_allclose(mean.statistics_[:2], [7 / 3, 16 / 3])
    expected = data[:, :2].copy()
    expected[2, 0], expected[0, 1] = 7 / 3, 16 / 3
    np.testing.assert_allclose(mean.transform(data), expected)  # the all-NaN column is dropped
    frequent = sklearn.preprocessing.Imputer(strategy="most_frequent").fit_transform(data)
    assert frequent[2, 0] == 3.0 and frequent[0, 1] == 4.0
    zeros = sklearn.preprocessing.Imputer(missing_values=0, strategy="median").fit_transform([[0, 1], [2, 3], [4, 0]])
    np.testing.assert_allclose(zeros, [[3, 1], [2, 3], [4, 2]])
    with pytest.raises(LegacyAPIError, match="axis=1.*SimpleImputer"):
        sklearn.preprocessing.Imputer(axis=1).fit(data)


def test_undo_restores_the_installed_objects() -> None:
    tsne_init = sklearn.manifold.TSNE.__dict__["__init__"]
    encoder_init = sklearn.preprocessing.OneHotEncoder.__dict__["__init__"]
    patches = PydataPatches()
    for name in ("sklearn.manifold", "sklearn.preprocessing"):
        patches.apply(importlib.import_module(name))
        patches.apply(importlib.import_module(name))  # again: nothing wrapped twice
    assert sklearn.manifold.TSNE.__init__.__wrapped__ is tsne_init  # type: ignore[attr-defined]
    patches.undo()
    assert sklearn.manifold.TSNE.__dict__["__init__"] is tsne_init
    assert sklearn.preprocessing.OneHotEncoder.__dict__["__init__"] is encoder_init
    assert not hasattr(sklearn.preprocessing, "Imputer") and not hasattr(sklearn.manifold.TSNE, "n_iter")


def test_every_row_is_really_gone_from_the_installed_scikit_learn() -> None:
    assert not hasattr(sklearn.preprocessing, "Imputer")
    for owner, names in sklearn_removed.REPLACED.items():
        module, _, cls = owner.partition(":")
        current = getattr(importlib.import_module(module), cls).__init__
        assert all(entry.needed(current) for entry in names.values()), owner
    for name in sklearn_removed.SERVED_MODULES:
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(name)


# --------------------------------------------------------------------------
# sklearn.cross_validation
# --------------------------------------------------------------------------

def test_kfold_is_the_old_iterator() -> None:
    folds = cv.KFold(10, n_folds=3)
    assert len(folds) == 3
    assert fold_tests(folds) == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]  # the first n % n_folds folds are longer
    for train, test in folds:
        assert sorted([*train, *test]) == list(range(10))
    order = np.arange(10)
    np.random.RandomState(0).shuffle(order)  # once, when the old KFold was made
    shuffled = cv.KFold(10, n_folds=3, shuffle=True, random_state=0)
    assert fold_tests(shuffled) == [sorted(order[:4]), sorted(order[4:7]), sorted(order[7:])]
    today = sklearn.model_selection.KFold(3, shuffle=True, random_state=0).split(np.zeros(10))
    assert fold_tests(shuffled) == fold_tests(today)
    unseeded = cv.KFold(10, n_folds=3, shuffle=True)
    assert fold_tests(unseeded) == fold_tests(unseeded)  # shuffled once: every iteration gives the same folds
    with pytest.raises(ValueError, match="cannot exceed n=2"):
        cv.KFold(2, n_folds=3)


def test_stratified_kfold_keeps_the_old_assignment() -> None:
    y = [0] * 5 + [1] * 7
    # Class 0 cut like KFold(5, 3): [0, 1], [2, 3], [4]; class 1 like KFold(7, 3): [5, 6, 7], [8, 9], [10, 11].
    assert fold_tests(cv.StratifiedKFold(y, n_folds=3)) == [[0, 1, 5, 6, 7], [2, 3, 8, 9], [4, 10, 11]]
    today = sklearn.model_selection.StratifiedKFold(3).split(np.zeros(12), y)
    assert fold_tests(today) != [[0, 1, 5, 6, 7], [2, 3, 8, 9], [4, 10, 11]]  # why the old algorithm is kept
    rng = np.random.RandomState(1)
    first, second = np.arange(5), np.arange(7)
    rng.shuffle(first)
    rng.shuffle(second)  # one generator, drawn class by class
    shuffled = fold_tests(cv.StratifiedKFold(y, n_folds=3, shuffle=True, random_state=1))
    assert shuffled[0] == sorted([*first[:2].tolist(), *(second[:3] + 5).tolist()])


def test_shuffle_split_draws_as_before_with_the_old_default_test_size() -> None:
    rng = np.random.RandomState(3)
    expected = []
    for _ in range(4):
        permutation = rng.permutation(20)
        expected.append((permutation[2:].tolist(), permutation[:2].tolist()))  # ceil(0.1 * 20) = 2 test samples
    splits = cv.ShuffleSplit(20, n_iter=4, random_state=3)
    assert len(splits) == 4
    assert [(train.tolist(), test.tolist()) for train, test in splits] == expected
    train, test = next(iter(cv.ShuffleSplit(20, n_iter=1, train_size=10, random_state=0)))
    assert (len(train), len(test)) == (10, math.ceil(0.1 * 20))  # test_size stays 0.1 when train_size is given


def test_stratified_shuffle_split_and_leave_one_out() -> None:
    y = np.array([0] * 6 + [1] * 4)
    for train, test in cv.StratifiedShuffleSplit(y, n_iter=3, test_size=0.5, random_state=0):
        assert sorted(y[test].tolist()) == [0, 0, 0, 1, 1] and len(train) == 5
    assert [(train.tolist(), test.tolist()) for train, test in cv.LeaveOneOut(3)] == [
        ([1, 2], [0]), ([0, 2], [1]), ([0, 1], [2])]


def test_cross_val_score_uses_the_old_three_folds() -> None:
    from sklearn.linear_model import LogisticRegression
    X = np.arange(24, dtype=float).reshape(12, 2)  # noqa: N806
    y = np.array([0, 1] * 6)
    assert cv.cross_val_score(LogisticRegression(), X, y).shape == (3,)
    explicit = cv.cross_val_score(LogisticRegression(), X, y, cv=cv.KFold(12, n_folds=4))
    assert explicit.shape == (4,)
    train = cv.train_test_split(np.arange(8), test_size=0.25, random_state=0)[0]
    np.testing.assert_array_equal(train, sklearn.model_selection.train_test_split(
        np.arange(8), test_size=0.25, random_state=0)[0])


# --------------------------------------------------------------------------
# The served modules
# --------------------------------------------------------------------------

def test_served_modules_hold_the_old_names() -> None:
    served = PydataPatches().served_modules
    old_cv = served["sklearn.cross_validation"]()
    assert old_cv.KFold is cv.KFold and old_cv.train_test_split is cv.train_test_split
    with pytest.raises(LegacyAPIError, match="LabelKFold.*GroupKFold"):
        _ = old_cv.LabelKFold
    grid = served["sklearn.grid_search"]()
    assert grid.GridSearchCV is sklearn.model_selection.GridSearchCV
    assert grid.ParameterGrid is sklearn.model_selection.ParameterGrid
    assert served["sklearn.learning_curve"]().learning_curve is sklearn.model_selection.learning_curve
    assert served["sklearn.externals.joblib"]() is joblib


def test_the_runner_finder_serves_and_forgets_the_removed_modules() -> None:
    from compat.pydata_legacy.patches import PydataPatches
    from compat.runner.install import PatchesFinder
    finder = PatchesFinder([PydataPatches()])
    sys.meta_path.insert(0, finder)
    try:
        from sklearn.cross_validation import KFold  # type: ignore[import-not-found]
        from sklearn.externals import joblib as old_joblib  # type: ignore[attr-defined]
        assert KFold is cv.KFold and old_joblib is joblib
    finally:
        sys.meta_path.remove(finder)
        finder.undo()
    assert "sklearn.cross_validation" not in sys.modules and "sklearn.externals.joblib" not in sys.modules
    import sklearn.externals
    assert not hasattr(sklearn.externals, "joblib") and not hasattr(sklearn, "cross_validation")
