"""``tf.contrib.learn.datasets`` of TensorFlow 1.0-1.15: CSV loaders, iris, boston and DBpedia, without downloads.

TF 1.x's ``datasets.base`` read the small data sets of its own examples from
CSV files: ``load_csv_with_header`` (a header row ``n_samples,n_features,...``,
then one row per sample, the target in ``target_column``) and
``load_csv_without_header``; ``load_iris`` / ``load_boston`` read
``iris.csv`` / ``boston_house_prices.csv`` shipped inside TensorFlow's wheel.
Here:

* the CSV loaders behave as TF 1.x's (same dtypes, same ``Dataset(data, target)``);
* ``load_iris()`` reads scikit-learn's bundled ``iris.csv`` (the same file
  format) and restores the two samples scikit-learn 0.20 corrected after
  Fisher's paper (index 34: petal width 0.1, not 0.2; index 37: sepal width
  3.1 and petal length 1.5, not 3.6 and 1.4), so the values equal TensorFlow 1's
  file (the UCI version; every other value and the order are the same);
* ``load_boston()`` reads a local ``boston_house_prices.csv`` (``data_path``, or
  that name in the working folder); scikit-learn 1.2 removed its copy, so
  without one it raises ``FileNotFoundError`` naming where the file comes from;
* ``load_dataset('dbpedia')`` reads ``dbpedia_csv/train.csv`` and ``test.csv`` under
  ``$TF_EXP_BASE_DIR/dbpedia_data`` (``size='small'`` keeps every 1000th row, as
  TF 1.x did, writing ``train_small.csv`` next to it); nothing is downloaded.

Only NumPy is imported; no TensorFlow.
"""
from __future__ import annotations

import csv
import os
import types
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["Dataset", "Datasets", "load_boston", "load_csv_with_header", "load_csv_without_header", "load_dataset",
           "load_dbpedia", "load_iris", "maybe_download", "shrink_csv", "split_into_train_and_test"]

#: ``base.Dataset`` / ``base.Datasets`` (the MNIST reader's tuples are these same classes).
from compat.tutorials.mnist_input_data import Dataset, Datasets  # noqa: E402

#: scikit-learn 0.20's corrections of iris, undone: (row, column) -> TensorFlow 1's value.
_TF1_IRIS_VALUES = {(34, 3): 0.1, (37, 1): 3.1, (37, 2): 1.5}

BOSTON_FILE = "boston_house_prices.csv"
DBPEDIA_FOLDER = "dbpedia_data"


def load_csv_with_header(filename: str, target_dtype: Any, features_dtype: Any, target_column: int = -1) -> Any:
    """``Dataset(data, target)`` from a CSV whose first row is ``n_samples,n_features,...``.

    ``data`` is ``[n_samples, n_features]`` of ``features_dtype``, ``target``
    ``[n_samples]`` of ``target_dtype``; rows past ``n_samples`` are an error.

    Raises:
        ValueError: the header is not two integers, or a row has the wrong number of fields
            (file and row named).
    """
    with open(filename, newline="") as handle:
        rows = csv.reader(handle)
        header = next(rows)
        try:
            n_samples, n_features = int(header[0]), int(header[1])
        except (IndexError, ValueError):
            raise ValueError(f"{filename}: the header row {header!r} must start with n_samples,n_features") from None
        data = np.zeros((n_samples, n_features), dtype=features_dtype)
        target = np.zeros((n_samples,), dtype=target_dtype)
        for i, row in enumerate(rows):
            if i >= n_samples or len(row) != n_features + 1:
                raise ValueError(f"{filename}: row {i + 2} has {len(row)} fields and the header says "
                                 f"{n_samples} samples of {n_features} features + 1 target")
            target[i] = np.asarray(row.pop(target_column), dtype=target_dtype)
            data[i] = np.asarray(row, dtype=features_dtype)
    return Dataset(data=data, target=target)


def load_csv_without_header(filename: str, target_dtype: Any, features_dtype: Any, target_column: int = -1) -> Any:
    """``Dataset(data, target)`` from a CSV of rows only; ``data`` is ``np.array`` of the rows."""
    data, target = [], []
    with open(filename, newline="") as handle:
        for row in csv.reader(handle):
            target.append(row.pop(target_column))
            data.append(np.asarray(row, dtype=features_dtype))
    return Dataset(data=np.array(data), target=np.array(target, dtype=target_dtype))


def shrink_csv(filename: str, ratio: int) -> None:
    """Write every ``ratio``-th row of ``filename`` to the same name with ``_small`` before its first dot."""
    small = filename.replace(".", "_small.")
    with open(filename, newline="") as source, open(small, "w", newline="") as target:
        writer = csv.writer(target)
        for i, row in enumerate(csv.reader(source)):
            if i % ratio == 0:
                writer.writerow(row)


def _sklearn_iris_csv() -> str:
    import importlib.resources
    return str(importlib.resources.files("sklearn.datasets") / "data" / "iris.csv")


def load_iris(data_path: str | None = None) -> Any:
    """Iris as TF 1.x loaded it: ``data`` float64 ``[150, 4]``, ``target`` int64 ``[150]`` in 0..2."""
    if data_path is not None:
        return load_csv_with_header(data_path, target_dtype=np.int64, features_dtype=np.float64)
    iris = load_csv_with_header(_sklearn_iris_csv(), target_dtype=np.int64, features_dtype=np.float64)
    for (row, column), value in _TF1_IRIS_VALUES.items():
        iris.data[row, column] = value
    return iris


def load_boston(data_path: str | None = None) -> Any:
    """Boston housing from a local ``boston_house_prices.csv``: ``data`` float64 ``[506, 13]``, ``target`` ``[506]``.

    Raises:
        FileNotFoundError: no such file (the message says where the file comes from).
    """
    path = data_path or BOSTON_FILE
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"tf.contrib.learn.datasets.load_boston: {os.path.abspath(path)} does not exist. TensorFlow 1 read "
            f"{BOSTON_FILE} from its own wheel and scikit-learn 1.2 removed its copy (sklearn/datasets/data/"
            f"{BOSTON_FILE} of scikit-learn <= 1.1 is the same file); put the file in the working folder or pass "
            "data_path=. The compat runner does not download")
    return load_csv_with_header(path, target_dtype=np.float64, features_dtype=np.float64)


def maybe_download(filename: str, work_directory: str, source_url: str) -> str:
    """The path of ``filename`` in ``work_directory`` if it is there.

    Raises:
        FileNotFoundError: it is not (nothing is downloaded; the message names ``source_url``).
    """
    path = os.path.join(work_directory, filename)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"tf.contrib.learn.datasets.base.maybe_download: {path} does not exist; the compat "
                                f"runner does not download: fetch {source_url} into {work_directory}")
    return path


def split_into_train_and_test(dataset: Any, test_ratio: float = 0.3, shuffle: bool = False) -> tuple[Any, Any]:
    """The first ``1 - test_ratio`` of the samples and the rest (permuted first when ``shuffle``)."""
    if not 0 <= test_ratio <= 1:
        raise ValueError(f"split_into_train_and_test: test_ratio {test_ratio} must be in [0, 1]")
    n_train = int(dataset.data.shape[0] * (1.0 - test_ratio))
    data, target = dataset.data[:], dataset.target[:]
    if shuffle:
        order = np.random.permutation(range(data.shape[0]))
        data, target = data[order], target[order]
    return Dataset(data[:n_train], target[:n_train]), Dataset(data[n_train:], target[n_train:])


def load_dbpedia(size: str = "small", test_with_fake_data: bool = False) -> Any:
    """``Datasets(train, None, test)`` of DBpedia: target int32 (column 0), data the other fields as strings.

    Raises:
        FileNotFoundError: the CSV files are not in ``$TF_EXP_BASE_DIR/dbpedia_data/dbpedia_csv``,
            or ``test_with_fake_data`` (TF 1.x's small test files were not kept).
    """
    if test_with_fake_data:
        raise FileNotFoundError("tf.contrib.learn.datasets.load_dataset('dbpedia', test_with_fake_data=True): the "
                                "fake text_train.csv / text_test.csv of TensorFlow 1's wheel are not provided; "
                                "put the real DBpedia CSVs in place and pass test_with_fake_data=False")
    folder = os.path.join(os.getenv("TF_EXP_BASE_DIR", ""), DBPEDIA_FOLDER, "dbpedia_csv")
    paths = [os.path.join(folder, name) for name in ("train.csv", "test.csv")]
    missing = [p for p in paths if not os.path.isfile(p)]
    if missing:
        raise FileNotFoundError(
            f"tf.contrib.learn.datasets.load_dataset('dbpedia'): {', '.join(missing)} missing. The compat runner "
            f"does not download: extract dbpedia_csv.tar.gz (train.csv, test.csv) into {os.path.abspath(folder)}")
    if size == "small":  # TF 1.x: a thousandth of the rows
        for path in paths:
            shrink_csv(path, 1000)
        paths = [p.replace(".csv", "_small.csv") for p in paths]
    train, test = (load_csv_without_header(p, target_dtype=np.int32, features_dtype=np.str_, target_column=0)
                   for p in paths)
    return Datasets(train=train, validation=None, test=test)


def _load_mnist(test_with_fake_data: bool = False) -> Any:
    from compat.tutorials import mnist_input_data
    if test_with_fake_data:  # an addition: TF 1.x ignored the flag for mnist and read the files
        return mnist_input_data.read_data_sets("", fake_data=True)
    return mnist_input_data.load_mnist()


#: TF 1.x's ``datasets.DATASETS``: name -> loader.
DATASETS: dict[str, Callable[..., Any]] = {"iris": load_iris, "boston": load_boston, "mnist": _load_mnist,
                                           "dbpedia": load_dbpedia}


def load_dataset(name: str, size: str = "small", test_with_fake_data: bool = False) -> Any:
    """``tf.contrib.learn.datasets.load_dataset``: iris, boston, mnist or dbpedia.

    Raises:
        ValueError: another name (the known ones listed).
    """
    if name not in DATASETS:
        raise ValueError(f"tf.contrib.learn.datasets.load_dataset: no data set {name!r}; "
                         f"known: {', '.join(sorted(DATASETS))}")
    if name == "dbpedia":
        return load_dbpedia(size, test_with_fake_data)
    if name == "mnist":
        return _load_mnist(test_with_fake_data)
    return DATASETS[name]()


#: ``datasets.text_datasets``, as a module object.
text_datasets = types.ModuleType("tensorflow.contrib.learn.python.learn.datasets.text_datasets",
                                 "tf.contrib.learn.datasets.text_datasets: load_dbpedia (local files only).")
text_datasets.__dict__.update(load_dbpedia=load_dbpedia, DBPEDIA_URL="https://github.com/le-scientifique/"
                              "torchDatasets/raw/master/dbpedia_csv.tar.gz")
