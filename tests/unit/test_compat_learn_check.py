"""``compat check`` agrees with ``compat run`` on every TF 1.15 name of ``tf.contrib.learn``, also through
``learn = tf.contrib.learn`` (the alias TensorFlow's own examples of 2016-2017 wrote)."""
from __future__ import annotations

import csv
import importlib
from pathlib import Path

import pytest
from helpers.tf115_api import contrib_symbols

SYMBOLS = contrib_symbols()
pytestmark = pytest.mark.skipif(SYMBOLS is None, reason="TF 1.15 API tables not found (set TF115_API_DIR)")


def _learn_names() -> list[str]:
    assert SYMBOLS is not None
    with open(SYMBOLS, newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        return sorted({parts[3] for parts in (row["name"].split(".") for row in rows)
                       if len(parts) == 4 and parts[2] == "learn"})


@pytest.mark.timeout(300)
def test_check_agrees_with_the_bridge_directly_and_through_the_alias(tmp_path: Path) -> None:
    from compat.checker.check import check_script
    from compat.tf1.namespace import classify_tf_attribute

    bridge = importlib.import_module("compat.contrib.learn")
    names = _learn_names()
    assert len(names) == 70
    resolves = {}
    for name in names:
        try:
            getattr(bridge, name)
            resolves[name] = True
        except AttributeError:
            resolves[name] = False
        verdict = classify_tf_attribute(["contrib", "learn", name])
        assert verdict is not None and (verdict.status == "bridged") == resolves[name], (name, verdict)
    # Every name of the table is provided.
    for name in ("DNNClassifier", "DNNRegressor", "LinearClassifier", "LinearRegressor", "Estimator", "SKCompat",
                 "MetricSpec", "ModelFnOps", "monitors", "infer_real_valued_columns_from_input",
                 "extract_pandas_data", "read_batch_examples", "read_keyed_batch_features_shared_queue"):
        assert resolves[name], name
    script = tmp_path / "train.py"
    script.write_text("import tensorflow as tf\nlearn = tf.contrib.learn\n"
                      + "".join(f"x = learn.{name}\n" for name in names)
                      + "iris = learn.datasets.load_dataset('iris')\n"
                        "from tensorflow.contrib.learn.python.learn.datasets import base\n")
    findings = {f.construct: f.status for f in check_script(script).findings}
    for name in names:
        assert findings.get(f"learn.{name}") == ("bridged" if resolves[name] else "unsupported"), name
    assert findings["learn.datasets.load_dataset"] == "bridged"
