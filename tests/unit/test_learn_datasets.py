"""tf.contrib.learn.datasets (compat.contrib._learn_datasets): TF 1.x's CSV loaders and data sets, local files only."""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_iris as sklearn_iris

from compat.contrib import _learn_datasets as datasets


def test_csv_with_and_without_header_give_the_rows_written(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    data, target = rng.normal(size=(5, 3)).round(4), rng.integers(0, 3, size=5)
    with_header = tmp_path / "train.csv"
    with_header.write_text("5,3,a,b,c\n" + "".join(",".join(map(str, [*d, t])) + "\n" for d, t in zip(data, target)))
    loaded = datasets.load_csv_with_header(str(with_header), target_dtype=np.int32, features_dtype=np.float32)
    np.testing.assert_array_equal(loaded.data, data.astype(np.float32))
    np.testing.assert_array_equal(loaded.target, target)
    assert (loaded.data.dtype, loaded.target.dtype) == (np.float32, np.int32)
    plain = tmp_path / "plain.csv"
    plain.write_text("".join(f"{t},{d[0]},{d[1]}\n" for d, t in zip(data, target)))
    loaded = datasets.load_csv_without_header(str(plain), target_dtype=np.int64, features_dtype=np.float64,
                                              target_column=0)
    np.testing.assert_array_equal(loaded.data, data[:, :2])
    np.testing.assert_array_equal(loaded.target, target)
    with_header.write_text("2,2\n1,2,3,0\n")
    with pytest.raises(ValueError, match="train.csv: row 2 has 4 fields"):
        datasets.load_csv_with_header(str(with_header), np.int32, np.float32)
    bad = tmp_path / "bad.csv"
    bad.write_text("1,2,3\n1,2,0\n1,2,0\n")
    with pytest.raises(ValueError, match="bad.csv: row 3 has 3 fields and the header says 1 samples"):
        datasets.load_csv_with_header(str(bad), np.int32, np.float32)


def test_iris_is_tensorflow_1s_file() -> None:
    iris = datasets.load_dataset("iris")
    reference = sklearn_iris()
    assert iris.data.shape == (150, 4) and (iris.data.dtype, iris.target.dtype) == (np.float64, np.int64)
    np.testing.assert_array_equal(iris.target, reference.target)
    differs = np.argwhere(iris.data != reference.data)
    assert differs.tolist() == [[34, 3], [37, 1], [37, 2]]  # scikit-learn 0.20's two corrected samples
    # TensorFlow 1's iris.csv (the UCI values): column sums 876.5, 458.1, 563.8, 179.8.
    np.testing.assert_allclose(iris.data.sum(axis=0), [876.5, 458.1, 563.8, 179.8])


def test_boston_local_copy_or_a_clear_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match="scikit-learn 1.2 removed its copy"):
        datasets.load_dataset("boston")
    (tmp_path / "boston_house_prices.csv").write_text("2,2,A,B\n1.5,2,24.0\n3,4.25,21.6\n")
    boston = datasets.load_boston()
    np.testing.assert_array_equal(boston.data, [[1.5, 2.0], [3.0, 4.25]])
    np.testing.assert_array_equal(boston.target, [24.0, 21.6])
    with pytest.raises(ValueError, match="no data set 'circles'; known: boston, dbpedia, iris, mnist"):
        datasets.load_dataset("circles")


def test_dbpedia_from_the_local_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TF_EXP_BASE_DIR", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=r"dbpedia_data/dbpedia_csv/train\.csv.*does not download"):
        datasets.load_dataset("dbpedia")
    folder = tmp_path / "dbpedia_data" / "dbpedia_csv"
    folder.mkdir(parents=True)
    rows = [[str(i % 14 + 1), f"Title {i}", f"Text, with comma {i}"] for i in range(2500)]
    for name in ("train.csv", "test.csv"):
        with open(folder / name, "w", newline="") as handle:
            csv.writer(handle).writerows(rows)
    small = datasets.load_dataset("dbpedia")  # every 1000th row, as TF 1.x's size='small'
    assert small.validation is None
    np.testing.assert_array_equal(small.train.target, [0 % 14 + 1, 1000 % 14 + 1, 2000 % 14 + 1])
    assert small.train.data.tolist() == [["Title 0", "Text, with comma 0"], ["Title 1000", "Text, with comma 1000"],
                                         ["Title 2000", "Text, with comma 2000"]]
    full = datasets.load_dataset("dbpedia", size="large")
    assert full.test.target.dtype == np.int32 and len(full.test.target) == 2500
