"""TF1 names ``tf_slim`` lacks, served on ``tf.contrib.layers`` / ``framework`` / ``slim`` under ``compat run``.

One TF1-style script uses them as 2017 code did (``fully_connected`` variants
``relu`` / ``elu`` / ``linear``, ``embed_sequence``, the old feature columns
imported from ``tensorflow.contrib.layers``, ``tf.contrib.framework``'s nest and
checkpoint readers, ``slim.lookup``); values are checked against NumPy on the
variables the script created, and ``compat check`` must call every use bridged.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from compat.checker import check

TIMEOUT = 240

SCRIPT = """
import json
import numpy as np
import tensorflow as tf
from tensorflow.contrib.layers import real_valued_column, sparse_column_with_keys, one_hot_column
from tensorflow.contrib.layers import input_from_feature_columns

slim = tf.contrib.slim
x = tf.constant([[1.0, -2.0, 0.5], [-1.0, 3.0, 2.0]])
init = tf.random_normal_initializer(seed=1)
relu = tf.contrib.layers.relu(x, 2, weights_initializer=init, biases_initializer=init, scope="r")
elu = tf.contrib.layers.elu(x, 2, weights_initializer=init, biases_initializer=init, scope="e")
linear = slim.linear(x, 2, weights_initializer=init, biases_initializer=init, scope="l")
ids = tf.constant([[0, 3], [2, 2]])
embedded = tf.contrib.layers.embed_sequence(ids, vocab_size=4, embed_dim=2, scope="emb")
features = {"price": tf.constant([[2.0], [5.0]]), "kind": tf.SparseTensor([[0, 0], [1, 0]], ["b", "a"], [2, 1])}
layer = input_from_feature_columns(features, [real_valued_column("price"),
                                              one_hot_column(sparse_column_with_keys("kind", ["a", "b"]))])
flat = tf.contrib.framework.flatten_up_to([0, 0], [[1, 2], (3,)])
is_seq = tf.contrib.framework.is_sequence((1,))
table = slim.lookup.index_table_from_tensor(tf.constant(["x", "y"]))
looked = table.lookup(tf.constant(["y", "x", "z"]))
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    variables = {v.op.name: sess.run(v).tolist() for v in tf.global_variables()}
    out = sess.run({"relu": relu, "elu": elu, "linear": linear, "embedded": embedded, "layer": layer,
                    "looked": looked})
    path = saver.save(sess, "./model.ckpt")
listed = dict(tf.contrib.framework.list_variables(path))
print(json.dumps({"x": [[1.0, -2.0, 0.5], [-1.0, 3.0, 2.0]], "variables": variables,
                  "out": {k: v.tolist() for k, v in out.items()}, "flat": [list(f) if isinstance(f, tuple) else f
                                                                           for f in flat],
                  "is_seq": is_seq, "listed": {k: list(v) for k, v in listed.items()},
                  "metric_learning": tf.contrib.losses.metric_learning.__name__}))
"""


def _dense(x: np.ndarray, variables: dict[str, list], scope: str) -> np.ndarray:
    return x @ np.array(variables[f"{scope}/weights"]) + np.array(variables[f"{scope}/biases"])


@pytest.mark.timeout(TIMEOUT + 30)
def test_slim_extras_under_the_runner(tmp_path: Path) -> None:
    script = tmp_path / "extras.py"
    script.write_text(textwrap.dedent(SCRIPT).lstrip("\n"))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    done = subprocess.run([sys.executable, "-m", "compat", "run", script.name], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    x, variables, out = np.array(result["x"]), result["variables"], result["out"]
    np.testing.assert_allclose(out["relu"], np.maximum(_dense(x, variables, "r"), 0.0), rtol=1e-5, atol=1e-6)
    pre = _dense(x, variables, "e")
    np.testing.assert_allclose(out["elu"], np.where(pre > 0, pre, np.expm1(pre)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out["linear"], _dense(x, variables, "l"), rtol=1e-5, atol=1e-6)
    table = np.array(variables["emb/embeddings"])
    np.testing.assert_allclose(out["embedded"], table[[[0, 3], [2, 2]]])
    # input_layer orders the columns by name: kind_indicator, price
    np.testing.assert_allclose(out["layer"], [[0.0, 1.0, 2.0], [1.0, 0.0, 5.0]])
    assert result["flat"] == [[1, 2], [3]] and result["is_seq"] is True
    assert out["looked"] == [1, 0, -1]
    assert result["listed"]["emb/embeddings"] == [4, 2]
    assert result["metric_learning"] == "tf_slim.losses.metric_learning"

    report = check.check_script(script)
    assert report.unsupported == [], [(f.line, f.construct, f.action) for f in report.unsupported]
