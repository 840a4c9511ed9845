"""TensorFlow's behaviour changes under surviving names, in fresh processes.

* an official/-style Estimator program under ``python -m compat run``: the same
  model with ``OneDeviceStrategy``, TF 1.x contrib's ``MirroredStrategy(num_gpus=0)``
  and ``tf.distribute.MirroredStrategy()`` ends at the weights, metrics,
  checkpoint and export of the run without a strategy, which equal 6 gradient
  steps redone in NumPy; a multi-worker ``TF_CONFIG`` is refused with its
  message; the script's ``tf.__version__`` branch takes the TF 1.x side;
* with TensorFlow's oneDNN kernels off (``TF_ENABLE_ONEDNN_OPTS=0``, as on CPUs
  without them and in TF 1.x's CPU wheels), NCHW convolutions, their gradients
  and pools fail, and after the surface's ``after_tensorflow`` hook they equal the
  NHWC computation; in the same process a text-mode ``GFile`` read of a JPEG
  returns its bytes and a summary after ``name_scope('Loss')`` is tagged ``loss``.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.helpers.scripts import compat_run, quiet_env, write

ESTIMATOR_SCRIPT = '''
import json
import os
import tempfile

import numpy as np
import tensorflow as tf

if tf.__version__.startswith("1.") and int(tf.__version__.split(".")[1]) >= 13:
    branch = "tf1"
else:
    branch = "tf2"


def model_fn(features, labels, mode):
    w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    pred = tf.matmul(features["x"], w) + b
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": pred},
                                          export_outputs={"y": tf.estimator.export.PredictOutput({"y": pred})})
    loss = tf.losses.mean_squared_error(labels, pred)
    train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      eval_metric_ops={"mae": tf.metrics.mean_absolute_error(labels, pred)})


X = (np.arange(48, dtype=np.float32).reshape(16, 3) % 7) / 7.0
Y = X @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.25


def input_fn():
    return tf.data.Dataset.from_tensor_slices(({"x": X}, Y)).batch(4).repeat()


def serving_input_fn():
    x = tf.placeholder(tf.float32, [None, 3])
    return tf.estimator.export.ServingInputReceiver({"x": x}, {"x": x})


STRATEGIES = {
    "none": lambda: None,
    "contrib_one_device": lambda: tf.contrib.distribute.OneDeviceStrategy("device:CPU:0"),
    "contrib_mirrored_num_gpus_0": lambda: tf.contrib.distribute.MirroredStrategy(num_gpus=0),
    "mirrored_local": lambda: tf.distribute.MirroredStrategy(),
    "experimental_distribute": lambda: tf.contrib.distribute.DistributeConfig(
        train_distribute=tf.contrib.distribute.OneDeviceStrategy("device:CPU:0")),
}
results = {"branch": branch}
for name, make in STRATEGIES.items():
    strategy = make()
    model_dir = tempfile.mkdtemp()
    if name == "experimental_distribute":
        config = tf.estimator.RunConfig(experimental_distribute=strategy, tf_random_seed=7)
        results["taken"] = config.train_distribute is strategy.train_distribute
    else:
        config = tf.estimator.RunConfig(train_distribute=strategy, eval_distribute=strategy, tf_random_seed=7)
    estimator = tf.estimator.Estimator(model_fn, model_dir=model_dir, config=config)
    estimator.train(input_fn, steps=6)
    metrics = estimator.evaluate(input_fn, steps=2)
    export = estimator.export_savedmodel(os.path.join(model_dir, "export"), serving_input_fn)
    export = export.decode() if isinstance(export, bytes) else export
    results[name] = {"w": estimator.get_variable_value("w").ravel().tolist(),
                     "b": estimator.get_variable_value("b").ravel().tolist(),
                     "loss": float(metrics["loss"]), "mae": float(metrics["mae"]),
                     "step": int(metrics["global_step"]),
                     "checkpoint": os.path.basename(tf.train.latest_checkpoint(model_dir)),
                     "export": os.path.exists(os.path.join(export, "saved_model.pb"))}
try:
    tf.estimator.RunConfig(experimental_distribute=tf.contrib.distribute.DistributeConfig(
        train_distribute=tf.contrib.distribute.OneDeviceStrategy("device:CPU:0"),
        remote_cluster={"worker": ["localhost:1"]}))
    results["remote_cluster"] = "accepted"
except Exception as error:
    results["remote_cluster"] = type(error).__name__
os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["localhost:1", "localhost:2"]},
                                      "task": {"type": "worker", "index": 0}})
try:
    tf.estimator.RunConfig(train_distribute=tf.contrib.distribute.OneDeviceStrategy("device:CPU:0"))
    results["multi_worker"] = "accepted"
except Exception as error:
    results["multi_worker"] = type(error).__name__ + ": " + str(error)
print("RESULTS " + json.dumps(results))
'''


def numpy_steps(steps: int, lr: float) -> tuple[np.ndarray, float]:
    """``steps`` gradient-descent steps of the script's linear model on batches 0..3, 0..3, ... (float64)."""
    x = (np.arange(48, dtype=np.float32).reshape(16, 3) % 7) / 7.0
    y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.25
    w, b = np.zeros((3, 1)), 0.0
    for step in range(steps):
        xb, yb = x[4 * (step % 4): 4 * (step % 4) + 4], y[4 * (step % 4): 4 * (step % 4) + 4]
        err = xb @ w + b - yb
        w, b = w - lr * 2 * xb.T @ err / len(xb), b - lr * 2 * float(err.mean())
    return w.ravel(), b


@pytest.mark.timeout(300)
def test_estimator_strategies_on_one_machine_equal_the_run_without_and_numpy(tmp_path: Path) -> None:
    script = write(tmp_path / "train_dist.py", ESTIMATOR_SCRIPT)
    done = compat_run(script, timeout=280)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("RESULTS ")), None)
    assert done.returncode == 0 and line is not None, done.stderr[-3000:]
    results = json.loads(line.removeprefix("RESULTS "))
    assert results["branch"] == "tf1"
    plain = results["none"]
    w, b = numpy_steps(6, 0.05)
    np.testing.assert_allclose(plain["w"], w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(plain["b"], [b], rtol=1e-5, atol=1e-6)
    assert (plain["step"], plain["checkpoint"], plain["export"]) == (6, "model.ckpt-6", True)
    for name in ("contrib_one_device", "contrib_mirrored_num_gpus_0", "mirrored_local", "experimental_distribute"):
        got = results[name]
        np.testing.assert_allclose(got["w"] + got["b"], plain["w"] + plain["b"], rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose([got["loss"], got["mae"]], [plain["loss"], plain["mae"]], rtol=1e-6)
        assert (got["step"], got["checkpoint"], got["export"]) == (6, "model.ckpt-6", True)
    assert results["multi_worker"].startswith("LegacyAPIError: RunConfig(train_distribute=...): multi-worker")
    assert "MultiWorkerMirroredStrategy" in results["multi_worker"]
    assert results["remote_cluster"] == "LegacyAPIError" and results["taken"] is True


HOOK_SCRIPT = '''
import json, sys
import numpy as np
import tensorflow as tf
v1 = tf.compat.v1
v1.disable_v2_behavior()
from tensorflow.core.framework import summary_pb2


def build():
    rng = np.random.RandomState(0)
    x = tf.constant(rng.standard_normal((2, 3, 8, 8)).astype(np.float32))
    w = tf.constant(rng.standard_normal((3, 3, 3, 4)).astype(np.float32))
    xh = tf.transpose(x, [0, 2, 3, 1])
    nchw = [tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME", data_format="NCHW"),
            v1.nn.max_pool(x, [1, 1, 2, 2], [1, 1, 2, 2], "VALID", data_format="NCHW"),
            v1.nn.avg_pool(x, [1, 1, 2, 2], [1, 1, 2, 2], "VALID", data_format="NCHW")]
    nchw += tf.gradients(tf.reduce_sum(tf.square(nchw[0])), [x, w])
    nhwc = [tf.nn.conv2d(xh, w, [1, 1, 1, 1], "SAME"), v1.nn.max_pool(xh, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
            v1.nn.avg_pool(xh, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")]
    nhwc += tf.gradients(tf.reduce_sum(tf.square(nhwc[0])), [x, w])
    with v1.name_scope("Loss"):
        cost = tf.reduce_mean(x)
    return nchw, nhwc, v1.summary.scalar("loss", cost)


def run_all(outcome):
    with tf.Graph().as_default(), v1.Session() as sess:
        nchw, nhwc, summary = build()
        tag = summary_pb2.Summary.FromString(sess.run(summary)).value[0].tag
        try:
            got, want = sess.run([nchw, nhwc])
        except Exception as error:
            outcome["nchw"] = type(error).__name__
        else:
            outcome["nchw"] = max(float(np.abs((g.transpose(0, 2, 3, 1) if g.ndim == 4 and i < 3 else g) - r).max())
                                  for i, (g, r) in enumerate(zip(got, want)))
    try:
        read = v1.gfile.FastGFile(sys.argv[1], "r").read()
        outcome["gfile"] = read.hex() if isinstance(read, bytes) else "str"
    except UnicodeDecodeError:
        outcome["gfile"] = "UnicodeDecodeError"
    outcome["tag"] = tag
    return outcome


before = run_all({})
from compat.surfaces import Context, by_name
undo = by_name("tf1_behaviour").after_tensorflow(Context(scope=None, helpers=None))
after = run_all({})
undo()
print("RESULTS " + json.dumps({"before": before, "after": after, "undone": run_all({})}))
'''


@pytest.mark.timeout(200)
def test_without_onednn_nchw_fails_and_the_hook_gives_nhwc_values_gfile_bytes_and_tf1_tags(tmp_path: Path) -> None:
    jpeg = tmp_path / "cat.jpg"
    jpeg.write_bytes(bytes([0xFF, 0xD8, 0xFF, 0xE0]) + bytes(range(128, 160)))
    script = write(tmp_path / "hook.py", HOOK_SCRIPT)
    env = dict(quiet_env(), TF_ENABLE_ONEDNN_OPTS="0", PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    done = subprocess.run([sys.executable, str(script), str(jpeg)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=180, check=False)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("RESULTS ")), None)
    assert done.returncode == 0 and line is not None, done.stderr[-3000:]
    results = json.loads(line.removeprefix("RESULTS "))
    failed = {"nchw": results["before"]["nchw"], "gfile": "UnicodeDecodeError", "tag": "loss_1"}
    assert results["before"]["nchw"] in {"UnimplementedError", "InvalidArgumentError"}
    assert results["before"] == failed and results["undone"] == failed
    after = results["after"]
    assert after["gfile"] == jpeg.read_bytes().hex() and after["tag"] == "loss"
    assert after["nchw"] < 1e-4


RUN_SCRIPT = '''
import json

import numpy as np
import tensorflow as tf

out = {"version": [tf.__version__, tf.VERSION, tf.version.VERSION],
       "branch": "tf1" if int(tf.__version__.split(".")[0]) < 2 else "tf2"}
raw = tf.gfile.FastGFile("cat.jpg", "r").read()
out["gfile"] = raw.hex() if isinstance(raw, bytes) else "text"
out["text"] = tf.gfile.GFile("labels.txt", "r").read()

rng = np.random.RandomState(0)
xv = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
wv = rng.standard_normal((3, 3, 3, 4)).astype(np.float32)
x = tf.placeholder(tf.float32, [None, 3, 8, 8])
y = tf.nn.conv2d(x, tf.constant(wv), [1, 1, 1, 1], "SAME", data_format="NCHW")
pool = tf.nn.max_pool(y, [1, 1, 2, 2], [1, 1, 2, 2], "VALID", data_format="NCHW")
up = tf.nn.conv2d_transpose(pool, tf.ones([3, 3, 2, 4]), output_shape=[2, 2, 8, 8], strides=[1, 1, 2, 2],
                            data_format="NCHW")
grad = tf.gradients(tf.reduce_sum(tf.square(up)), x)[0]
xh = tf.transpose(x, [0, 2, 3, 1])
yh = tf.nn.conv2d(xh, tf.constant(wv), [1, 1, 1, 1], "SAME")
poolh = tf.nn.max_pool(yh, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
uph = tf.nn.conv2d_transpose(poolh, tf.ones([3, 3, 2, 4]), output_shape=[2, 8, 8, 2], strides=[1, 2, 2, 1])
gradh = tf.gradients(tf.reduce_sum(tf.square(uph)), x)[0]
out["up_shape"] = up.get_shape().as_list()

with tf.name_scope("Loss"):
    cost = tf.reduce_mean(up)
tf.summary.scalar("loss", cost)
tf.summary.scalar("loss", cost)
tf.summary.histogram("pool", pool, family="Layers")
merged = tf.summary.merge_all()
with tf.Session() as sess:
    values = sess.run([y, up, grad, uph, gradh, merged], {x: xv})
out["tags"] = [v.tag for v in tf.Summary.FromString(values[-1]).value]
out["y"] = values[0].tolist()
out["up_vs_nhwc"] = float(np.abs(values[1] - values[3].transpose(0, 3, 1, 2)).max())
out["grad_vs_nhwc"] = float(np.abs(values[2] - values[4]).max())
print("RESULTS " + json.dumps(out))
'''


def numpy_conv_same(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """SAME cross-correlation, stride 1, of NCHW ``x`` with a 3x3 HWIO ``w`` (float64)."""
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    n, _, h, wd = x.shape
    y = np.zeros((n, w.shape[3], h, wd))
    for i in range(h):
        for j in range(wd):
            y[:, :, i, j] = np.einsum("nchw,hwco->no", padded[:, :, i:i + 3, j:j + 3], w)
    return y


@pytest.mark.timeout(200)
def test_compat_run_gives_tf1s_version_gfile_bytes_summary_tags_and_nchw_on_a_cpu(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jpeg = bytes([0xFF, 0xD8, 0xFF, 0xE0]) + bytes(range(128, 160))
    (tmp_path / "cat.jpg").write_bytes(jpeg)
    (tmp_path / "labels.txt").write_text("chat\ncäfé\n", encoding="utf-8")
    script = write(tmp_path / "tf1_script.py", RUN_SCRIPT)
    monkeypatch.setenv("TF_ENABLE_ONEDNN_OPTS", "0")  # the CPU kernels that refuse NCHW, as TF 1.x's did
    done = compat_run(script, timeout=180)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("RESULTS ")), None)
    assert done.returncode == 0 and line is not None, done.stderr[-3000:]
    out = json.loads(line.removeprefix("RESULTS "))
    assert out["version"] == ["1.15.5"] * 3 and out["branch"] == "tf1"
    assert out["gfile"] == jpeg.hex() and out["text"] == "chat\ncäfé\n"
    assert out["tags"] == ["loss", "loss_1", "Layers/Layers/pool"]
    assert out["up_shape"] == [2, 2, 8, 8]
    rng = np.random.RandomState(0)
    xv = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
    wv = rng.standard_normal((3, 3, 3, 4)).astype(np.float32)
    np.testing.assert_allclose(out["y"], numpy_conv_same(xv, wv), rtol=1e-4, atol=1e-4)
    assert out["up_vs_nhwc"] < 1e-4 and out["grad_vs_nhwc"] < 1e-3
