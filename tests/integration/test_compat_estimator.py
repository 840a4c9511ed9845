"""``tf.estimator`` under the compat runner: the TF 1.15 API resolves, and an Estimator run is faithful.

* every ``tensorflow.estimator`` name and class member of TF 1.15's API lists
  resolves, with its listed argument names accepted, both through
  ``compat.tf1.namespace.tf1_namespace()`` and under ``python -m compat run``;
* ``estimator_faithful.py`` (a TF 1.x script) trains a ``model_fn`` with
  ``Estimator.train`` and the same graph by hand in a ``MonitoredTrainingSession``;
  here the weights are compared, the 5 SGD steps are redone in NumPy from
  ``model.ckpt-0``, the evaluation metrics and predictions are recomputed in
  NumPy from the checkpoint, the resumed run is checked to start at the saved
  step, and the exported SavedModel's answers are recomputed from ``model.ckpt-8``;
* ``tf.contrib.tpu``, ``tf.contrib.estimator`` and ``tf.contrib.learn`` answers
  that need no training (refusals, ``CrossShardOptimizer`` on one replica).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
# TF 1.15's API lists: TF115_API_DIR, or the copy in tests/data/tf115_api (as test_compat_tf115_api.py).
API = Path(os.environ.get("TF115_API_DIR") or Path(__file__).resolve().parents[2] / "tests" / "data" / "tf115_api")
SYMBOLS, MEMBERS = API / "tf115_symbols.tsv", API / "tf115_class_members.tsv"
TIMEOUT = 240
ENV = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1", TF_USE_LEGACY_KERAS="1")

needs_api_lists = pytest.mark.skipif(not SYMBOLS.exists(), reason="TF 1.15 API lists not found (set TF115_API_DIR)")


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=cwd, env=ENV, capture_output=True, text=True,
                          timeout=TIMEOUT)


def last_json(result: subprocess.CompletedProcess) -> dict[str, Any]:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stderr[-4000:]}"
    return json.loads(result.stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------------
# The TF 1.15 API
# --------------------------------------------------------------------------

@needs_api_lists
@pytest.mark.timeout(TIMEOUT + 30)
@pytest.mark.parametrize("how", ["namespace", "runner"])
def test_every_tf115_estimator_name_resolves(how: str, tmp_path: Path) -> None:
    walk = str(HERE / "estimator_api_walk.py")
    args = [walk, str(SYMBOLS), str(MEMBERS), "--namespace"] if how == "namespace" else \
        ["-m", "compat", "run", walk, str(SYMBOLS), str(MEMBERS)]
    report = last_json(run(args, tmp_path))
    assert report["checked"] == {"symbols": 91, "members": 592}
    assert report["missing"] == []
    assert report["bad_args"] == []


# --------------------------------------------------------------------------
# Faithfulness
# --------------------------------------------------------------------------

def data() -> tuple[np.ndarray, np.ndarray]:
    """The script's data, rebuilt: 32 rows of 3 uniform features, a linear target."""
    rng = np.random.RandomState(0)
    x = rng.uniform(-1.0, 1.0, size=(32, 3)).astype(np.float32)
    y = (x @ np.array([[1.5], [-2.0], [0.5]], np.float32) + 0.3).astype(np.float32)
    return x, y


def checkpoint(prefix: Path) -> dict[str, np.ndarray]:
    import tensorflow as tf
    reader = tf.train.load_checkpoint(str(prefix))
    return {name: reader.get_tensor(name) for name in reader.get_variable_to_shape_map()}


def forward(w: dict[str, np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The two-layer network in float64: (pre-activation, hidden, output)."""
    pre = x @ w["hidden/kernel"].astype(np.float64) + w["hidden/bias"]
    hidden = np.maximum(pre, 0.0)
    return pre, hidden, hidden @ w["output/kernel"].astype(np.float64) + w["output/bias"]


def sgd_steps(w: dict[str, np.ndarray], steps: int, rate: float = 0.05, batch: int = 8) -> dict[str, np.ndarray]:
    """``steps`` steps of plain gradient descent on the mean squared error, batches in order."""
    x, y = data()
    w = {k: v.astype(np.float64) for k, v in w.items() if k.startswith(("hidden/", "output/"))}
    for step in range(steps):
        rows = slice((step % 4) * batch, (step % 4) * batch + batch)
        xb, yb = x[rows].astype(np.float64), y[rows].astype(np.float64)
        pre, hidden, out = forward(w, xb)
        d_out = 2.0 * (out - yb) / batch
        d_pre = (d_out @ w["output/kernel"].T) * (pre > 0)
        grads = {"output/kernel": hidden.T @ d_out, "output/bias": d_out.sum(0),
                 "hidden/kernel": xb.T @ d_pre, "hidden/bias": d_pre.sum(0)}
        w = {k: w[k] - rate * grads[k] for k in w}
    return w


@pytest.fixture(scope="module")
def faithful(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    root = tmp_path_factory.mktemp("estimator_faithful")
    result = run(["-m", "compat", "run", str(HERE / "estimator_faithful.py"), str(root / "model"),
                  str(root / "export")], root)
    return last_json(result), root / "model"


@pytest.mark.timeout(TIMEOUT + 30)
def test_train_equals_monitored_session_and_numpy_sgd(faithful: tuple[dict[str, Any], Path]) -> None:
    report, model_dir = faithful
    assert set(report["estimator"]) == {"hidden/kernel", "hidden/bias", "output/kernel", "output/bias"}
    for name, value in report["estimator"].items():
        np.testing.assert_array_equal(np.array(value), np.array(report["by_hand"][name]), err_msg=name)
    numpy_trained = sgd_steps(checkpoint(model_dir / "model.ckpt-0"), 5)
    for name, value in report["estimator"].items():
        np.testing.assert_allclose(np.array(value), numpy_trained[name], rtol=1e-4, atol=1e-5, err_msg=name)
    # the 5 steps moved the weights (else the comparison above proves nothing)
    initial = checkpoint(model_dir / "model.ckpt-0")
    assert np.abs(np.array(report["estimator"]["output/kernel"]) - initial["output/kernel"]).max() > 1e-3


@pytest.mark.timeout(TIMEOUT + 30)
def test_evaluate_and_predict_equal_numpy_on_checkpoint(faithful: tuple[dict[str, Any], Path]) -> None:
    report, model_dir = faithful
    x, y = data()
    _, _, out = forward(checkpoint(model_dir / "model.ckpt-5"), x)
    assert report["metrics"]["global_step"] == 5
    # four equal batches: the mean of the batch losses is the mean over all rows
    assert report["metrics"]["loss"] == pytest.approx(float(np.mean((out - y) ** 2)), rel=1e-5)
    assert report["metrics"]["mae"] == pytest.approx(float(np.mean(np.abs(out - y))), rel=1e-5)
    np.testing.assert_allclose(np.array(report["predictions"]), out, rtol=1e-5, atol=1e-6)


@pytest.mark.timeout(TIMEOUT + 30)
def test_resume_files_and_served_savedmodel(faithful: tuple[dict[str, Any], Path]) -> None:
    report, model_dir = faithful
    assert Path(report["after_train"]).name == "model.ckpt-5"
    assert Path(report["resumed"]).name == "model.ckpt-8"  # 3 more steps from the saved global step 5
    for step in (0, 5, 8):
        assert (model_dir / f"model.ckpt-{step}.index").exists()
        assert (model_dir / f"model.ckpt-{step}.meta").exists()
    assert (model_dir / "graph.pbtxt").exists()
    assert list(model_dir.glob("events.out.tfevents.*"))
    assert list((model_dir / "eval").glob("events.out.tfevents.*"))
    np.testing.assert_allclose(sgd_steps(checkpoint(model_dir / "model.ckpt-5"), 3)["output/kernel"],
                               checkpoint(model_dir / "model.ckpt-8")["output/kernel"], rtol=1e-4, atol=1e-5)
    exported = Path(report["exported"])
    assert (exported / "saved_model.pb").exists() and exported.parent.name == "export"
    x, _ = data()
    _, _, out = forward(checkpoint(model_dir / "model.ckpt-8"), x[:5])
    np.testing.assert_allclose(np.array(report["served"]), out, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.array(report["final"]["output/kernel"]),
                               checkpoint(model_dir / "model.ckpt-8")["output/kernel"])


# --------------------------------------------------------------------------
# tf.contrib.tpu / estimator / learn without training
# --------------------------------------------------------------------------

CONTRIB_SCRIPT = '''
import json
import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn.python.learn import learn_runner

out = {}
for name in ("TowerOptimizer", "DNNClassifierWithLayerAnnotations"):
    try:
        getattr(tf.contrib.estimator, name)
    except AttributeError as exc:
        out[name] = str(exc)
try:
    tf.contrib.learn.DNNEstimator
except AttributeError as exc:
    out["learn.DNNEstimator"] = str(exc)
try:
    tf.estimator.BoostedTreesClassifier(feature_columns=[], n_batches_per_layer=1)
except AttributeError as exc:
    out["BoostedTreesClassifier"] = str(exc)
with tf.Graph().as_default():
    w = tf.Variable([1.0, -2.0])
    loss = tf.reduce_sum(tf.square(w))
    opt = tf.contrib.tpu.CrossShardOptimizer(tf.train.GradientDescentOptimizer(0.25))
    step = opt.minimize(loss)
    clipped = tf.contrib.estimator.clip_gradients_by_norm(tf.train.GradientDescentOptimizer(1.0), 1.0)
    clip_step = clipped.minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step)
        out["cross_shard"] = sess.run(w).tolist()
        sess.run(clip_step)
        out["clipped"] = sess.run(w).tolist()
config = tf.contrib.learn.RunConfig(num_cores=2, tf_random_seed=3, model_dir="m")
out["run_config"] = [config.tf_random_seed, config.session_config.intra_op_parallelism_threads, config.model_dir]
out["learn_runner"] = learn_runner.run.__module__
# TF <= 1.13 kept the Estimator at tensorflow.python.estimator; 2018 code imported it by path.
from tensorflow.python.estimator import estimator as old_estimator
from tensorflow.python.estimator.model_fn import ModeKeys as OldModeKeys
out["old_path"] = [old_estimator.Estimator is tf.estimator.Estimator, OldModeKeys.PREDICT]
print(json.dumps(out))
'''


@pytest.mark.timeout(TIMEOUT + 30)
def test_contrib_tpu_estimator_learn_answers(tmp_path: Path) -> None:
    script = tmp_path / "contrib_answers.py"
    script.write_text(CONTRIB_SCRIPT)
    out = last_json(run(["-m", "compat", "run", str(script)], tmp_path))
    assert "tf.distribute.MirroredStrategy" in out["TowerOptimizer"]
    assert "tf.estimator.DNNClassifier" in out["DNNClassifierWithLayerAnnotations"]
    assert "tf.estimator class of the same name" in out["learn.DNNEstimator"]
    assert "HistGradientBoosting" in out["BoostedTreesClassifier"]
    # one replica: w - 0.25 * 2w = w / 2, exactly the wrapped optimizer's step
    assert out["cross_shard"] == [0.5, -1.0]
    # gradient 2w = [1, -2] has norm sqrt(5); clipped to norm 1 before a unit step
    np.testing.assert_allclose(out["clipped"], np.array([0.5, -1.0]) - np.array([1.0, -2.0]) / np.sqrt(5.0),
                               rtol=1e-6)
    assert out["run_config"] == [3, 2, "m"]
    assert out["learn_runner"] == "compat.contrib.learn"
    assert out["old_path"] == [True, "infer"]
