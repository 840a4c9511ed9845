"""tf.contrib.learn's Estimators (compat.contrib._learn_estimators, _learn_canned, _learn_monitors) under the runner.

One script in the style of TensorFlow's own 1.0-1.2 examples (``learn = tf.contrib.learn``,
``fit(x, y)``, ``predict(as_iterable=...)``, ``SKCompat``, ``ValidationMonitor``) runs
under ``python -m compat run``; here its answers are checked against NumPy:

* a ``LinearRegressor`` fitted by gradient descent predicts what NumPy's least squares
  predicts, and its checkpoint holds TF 1.x's ``linear/<column>/weight`` and ``linear/bias_weight``;
* a ``DNNClassifier``'s checkpoint holds ``dnn/hiddenlayer_<i>/weights|biases`` and
  ``dnn/logits/weights|biases``; its predicted classes are the arg-max of logits
  recomputed in NumPy from those variables;
* an ``Estimator(model_fn)`` returning TF 1.0's ``(predictions, loss, train_op)`` tuple (its loss
  built from the labels in every mode, as TensorFlow's text_classification.py did),
  evaluated with a ``MetricSpec``, and ``SKCompat.predict``'s dict of arrays;
* ``ValidationMonitor(early_stopping_rounds=...)`` stops a run whose loss cannot improve;
* ``read_batch_record_features`` under a ``MonitoredSession`` gives the records written, then ends.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.helpers.scripts import compat_run, write

SCRIPT = '''
import itertools
import json
import numpy as np
import tensorflow as tf
learn = tf.contrib.learn
layers = tf.contrib.layers
out = {}
rng = np.random.RandomState(0)
x = rng.normal(size=(64, 2))
y = x.dot([1.5, -2.0]) + 0.5 + 0.01 * rng.normal(size=64)
np.save("xy.npy", np.concatenate([x, y[:, None]], axis=1))

# LinearRegressor on an array input: the inferred column "" of width 2.
columns = learn.infer_real_valued_columns_from_input(x)
regressor = learn.LinearRegressor(feature_columns=columns, model_dir="linear",
                                  optimizer=tf.train.GradientDescentOptimizer(0.3))
regressor.fit(x, y, steps=600)
out["linear_pred"] = np.asarray(list(regressor.predict(x[:5], as_iterable=True)), float).tolist()
out["linear_vars"] = sorted(regressor.get_variable_names())
out["linear_eval"] = {k: float(v) for k, v in regressor.evaluate(x, y).items()}

# LinearClassifier with named columns: one dense, one categorical.
features = {"age": np.array([[20.0], [40.0], [60.0], [30.0]], np.float32),
            "g": np.array([["a"], ["b"], ["a"], ["b"]])}
classifier = learn.LinearClassifier(feature_columns=[layers.real_valued_column("age"),
                                                     layers.sparse_column_with_keys("g", ["a", "b"])],
                                    model_dir="wide")
classifier.fit(input_fn=lambda: ({k: tf.constant(v) for k, v in features.items()},
                                 tf.constant([0, 1, 1, 0])), steps=2)
out["wide_vars"] = sorted(classifier.get_variable_names())
wide_input = lambda: {k: tf.constant(v) for k, v in features.items()}
# constants never end (as in TF 1.x): take the first four predictions
wide = list(itertools.islice(classifier.predict(input_fn=wide_input, outputs=["probabilities", "logistic",
                                                                                "classes"]), 4))
out["wide_pred"] = [[float(p["logistic"][0]), p["probabilities"].tolist(), int(p["classes"])] for p in wide]
out["wide_weights"] = {n: classifier.get_variable_value(n).ravel().tolist()
                       for n in ("linear/age/weight", "linear/g/weights", "linear/bias_weight")}

# DNNClassifier, three classes: the iris.py example's calls.
labels = (x[:, 0] > 0).astype(int) + (x[:, 1] > 0).astype(int)
dnn = learn.DNNClassifier(hidden_units=[6, 4], feature_columns=columns, n_classes=3, model_dir="dnn")
dnn.fit(x, labels, steps=20, batch_size=16)
out["dnn_classes"] = np.asarray(list(dnn.predict(x, as_iterable=True))).tolist()
out["dnn_proba"] = dnn.predict_proba(x[:3], as_iterable=False).tolist()
out["dnn_vars"] = {n: dnn.get_variable_value(n).tolist() for n in dnn.get_variable_names() if n.startswith("dnn/")
                   and "Adagrad" not in n}

# Estimator(model_fn) with TF 1.0's tuple, MetricSpec, SKCompat.
def model_fn(features, labels, mode):
    w = tf.get_variable("w", [2, 1], initializer=tf.zeros_initializer())
    pred = tf.squeeze(tf.matmul(features, w), 1)
    loss = tf.losses.mean_squared_error(labels, pred)  # TF 1.x gave predict an unfed labels placeholder
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_global_step()) \\
        if mode == learn.ModeKeys.TRAIN else None
    return {"pred": pred, "double": 2 * pred}, loss, train
est = learn.SKCompat(learn.Estimator(model_fn=model_fn, model_dir="custom"))
est.fit(x, y, batch_size=64, steps=3)
scores = est.score(x, y, metrics={"mae": learn.MetricSpec(tf.metrics.mean_absolute_error, prediction_key="pred")})
out["custom_eval"] = {k: float(v) for k, v in scores.items()}
preds = est.predict(x[:4])
out["custom_pred"] = {k: v.tolist() for k, v in preds.items()}
out["custom_w"] = est._estimator.get_variable_value("w").ravel().tolist()

# ValidationMonitor: a learning rate of 0 never improves the loss; early stopping ends the run.
monitor = learn.monitors.ValidationMonitor(x, y, every_n_steps=2, early_stopping_rounds=3)
config = learn.RunConfig(save_checkpoints_steps=1, save_checkpoints_secs=None)
stuck = learn.LinearRegressor(feature_columns=columns, model_dir="stuck", config=config,
                              optimizer=tf.train.GradientDescentOptimizer(0.0))
stuck.fit(x, y, steps=100, monitors=[monitor])
out["early"] = [monitor.early_stopped, monitor.best_step, int(stuck.get_variable_value("global_step"))]
# The TF 1.0 readers, driven by a MonitoredSession (its queue runners from the graph's collection).
with tf.python_io.TFRecordWriter("records.tfrecord") as writer:
    for i in range(7):
        example = tf.train.Example(features=tf.train.Features(feature={
            "v": tf.train.Feature(int64_list=tf.train.Int64List(value=[i * i]))}))
        writer.write(example.SerializeToString())
with tf.Graph().as_default():
    batch = learn.read_batch_record_features("records.tfrecord", 3, {"v": tf.FixedLenFeature([], tf.int64)},
                                             randomize_input=False, num_epochs=1)
    seen = []
    with tf.train.MonitoredSession() as session:
        while not session.should_stop():
            seen.append(session.run(batch["v"]).tolist())
out["reader"] = seen
print(json.dumps(out))
'''


@pytest.mark.timeout(300)
def test_contrib_learn_estimators_against_numpy(tmp_path: Path) -> None:
    result = compat_run(write(tmp_path / "learn_estimators.py", SCRIPT), timeout=280)
    assert result.returncode == 0, result.stderr[-4000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    data = np.load(tmp_path / "xy.npy")
    x, y = data[:, :2], data[:, 2]

    design = np.hstack([x, np.ones((len(x), 1))])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    np.testing.assert_allclose(out["linear_pred"], design[:5] @ coef, atol=1e-3)
    # the column "" of an array input: variable_scope(None, default_name="") inside "linear", as in TF 1.x
    assert out["linear_vars"] == ["global_step", "linear//weight", "linear/bias_weight"]
    np.testing.assert_allclose(out["linear_eval"]["loss"], np.mean((design @ coef - y) ** 2), atol=1e-4)
    assert {"linear/age/weight", "linear/g/weights", "linear/bias_weight"} <= set(out["wide_vars"])
    w = out["wide_weights"]  # logit = age * w_age + w_g[key id] + bias; keys ["a", "b"] -> ids 0, 1
    logits = np.array([20.0, 40.0, 60.0, 30.0]) * w["linear/age/weight"][0] \
        + np.array(w["linear/g/weights"])[[0, 1, 0, 1]] + w["linear/bias_weight"][0]
    sigmoid = 1 / (1 + np.exp(-logits))
    np.testing.assert_allclose([p[0] for p in out["wide_pred"]], sigmoid, rtol=1e-5)
    np.testing.assert_allclose([p[1] for p in out["wide_pred"]], np.stack([1 - sigmoid, sigmoid], 1), rtol=1e-5)
    assert [p[2] for p in out["wide_pred"]] == (logits > 0).astype(int).tolist()

    weights = out["dnn_vars"]
    assert sorted(weights) == ["dnn/hiddenlayer_0/biases", "dnn/hiddenlayer_0/weights", "dnn/hiddenlayer_1/biases",
                               "dnn/hiddenlayer_1/weights", "dnn/logits/biases", "dnn/logits/weights"]
    assert np.shape(weights["dnn/hiddenlayer_0/weights"]) == (2, 6)
    hidden = x.astype(np.float32)
    for layer in ("hiddenlayer_0", "hiddenlayer_1"):
        hidden = np.maximum(hidden @ weights[f"dnn/{layer}/weights"] + weights[f"dnn/{layer}/biases"], 0)
    logits = hidden @ weights["dnn/logits/weights"] + weights["dnn/logits/biases"]
    np.testing.assert_array_equal(out["dnn_classes"], logits.argmax(axis=1))
    softmax = np.exp(logits[:3]) / np.exp(logits[:3]).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(out["dnn_proba"], softmax, rtol=1e-4)

    w = np.asarray(out["custom_w"])
    pred = x.astype(np.float32) @ w
    np.testing.assert_allclose(out["custom_pred"]["pred"], pred[:4], rtol=1e-5)
    np.testing.assert_allclose(out["custom_pred"]["double"], 2 * pred[:4], rtol=1e-5)
    np.testing.assert_allclose(out["custom_eval"]["mae"], np.mean(np.abs(pred - y)), rtol=1e-4)
    np.testing.assert_allclose(out["custom_eval"]["loss"], np.mean((pred - y) ** 2), rtol=1e-4)
    assert out["custom_eval"]["global_step"] == 3

    # One epoch, each batch consecutive records in order, a short batch of the last record. The batches
    # themselves may arrive in either order: read_batch_record_features has no num_enqueue_threads, and its
    # default two enqueue threads let a whole batch pass another (under TF 1.x too).
    assert sorted(out["reader"]) == [[0, 1, 4], [9, 16, 25], [36]]

    # Evaluations at steps 2, 4, 6 (every_n_steps=2); the loss never improves after step 2, and
    # TF 1.x stops once step - best_step >= early_stopping_rounds (3): at step 6.
    assert out["early"] == [True, 2, 6]
