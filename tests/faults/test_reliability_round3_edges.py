"""Reliability, round 3: the blind spots of the suite (faults seeded into the code that
no test caught), each with a check that fails with the fault and passes without.

One script under ``python -m compat run`` (one TensorFlow start for all) prints what
the legacy surfaces give; the tests compare each value with an independent
computation (NumPy, pure Python, TF 1.x's documented formula):

* ``tf.contrib.learn.Experiment`` resumed from a checkpoint trains *up to*
  ``train_steps`` (TF 1.x ``Experiment.train`` passes ``max_steps=train_steps``);
* ``tf.contrib.image.connected_components`` joins neighbours above, below, left and
  right only (TF 1.12 docs: "squared connectivity of one"), ids in row-major order;
* ``tf.contrib.data.sliding_window_batch(n)`` slides by one element by default;
* ``tf.contrib.losses.log_loss`` is the weighted mean of the binary cross-entropy;
* ``LinearCosineDecay`` defaults to ``num_periods=0.5, alpha=0.0, beta=0.001``;
* NumPy 1's removed dtype aliases keep their widths (``np.float_`` 8 bytes, ...);
* NumPy 1's ``np.histogram(normed=True)`` divided by ``sum(counts * widths)``.

In-process: a service address with anything after ``host:port`` is refused, and a
suite that imports the project's modules through ``pytest.importorskip`` (skips,
exit 0, when a bridge stops importing) is caught.
"""
from __future__ import annotations

import argparse
import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers.scripts import compat_run, write

from tf1_pipelines.cli.service_cli import dispatcher_address
from tf1_pipelines.errors import ConfigError
from tf1_pipelines.inputs.distribute import Distribution

TESTS = Path(__file__).resolve().parents[1]

SCRIPT = '''
import json, math, sys
import numpy as np
import tensorflow as tf

out = {}

# --- Experiment: train to train_steps, resumed from the checkpoint of an earlier run
def model_fn(features, labels, mode):
    w = tf.get_variable("w", [], initializer=tf.zeros_initializer())
    loss = tf.square(w - features["x"][0])
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

def input_fn():
    return tf.data.Dataset.from_tensors(({"x": [1.0]}, [1.0])).repeat()

def experiment(train_steps, per_iteration=None):
    estimator = tf.estimator.Estimator(model_fn, model_dir=sys.argv[1])
    return tf.contrib.learn.Experiment(estimator, input_fn, input_fn, train_steps=train_steps, eval_steps=1,
                                       train_steps_per_iteration=per_iteration)

steps = []
for train_steps in (5, 8, 8):
    exp = experiment(train_steps)
    exp.train()
    steps.append(int(exp.estimator.get_variable_value("global_step")))
exp = experiment(11, per_iteration=2)
exp.continuous_train_and_evaluate()
steps.append(int(exp.estimator.get_variable_value("global_step")))
out["experiment_steps"] = steps

# --- connected_components on a fixed image (diagonal neighbours, several values, two images)
image = np.array(IMAGE, dtype=bool)
with tf.Session() as sess:
    out["components"] = sess.run(tf.contrib.image.connected_components(image)).tolist()
    out["components_batch"] = sess.run(tf.contrib.image.connected_components(np.stack([image, image[::-1]]))).tolist()

    # --- sliding_window_batch: the default shift, and an explicit one
    def windows(transformation):
        it = tf.data.Dataset.range(7).apply(transformation).make_one_shot_iterator().get_next()
        got = []
        while True:
            try:
                got.append(sess.run(it).tolist())
            except tf.errors.OutOfRangeError:
                return got
    out["windows_default"] = windows(tf.contrib.data.sliding_window_batch(3))
    out["windows_shift2"] = windows(tf.contrib.data.sliding_window_batch(3, window_shift=2))

    # --- log_loss with weights, one of them zero
    p = np.array(P, np.float32); y = np.array(Y, np.float32); w = np.array(W, np.float32)
    out["log_loss"] = float(sess.run(tf.contrib.losses.log_loss(p, y, weights=w)))
    out["log_loss_unweighted"] = float(sess.run(tf.contrib.losses.log_loss(p, y)))

    # --- LinearCosineDecay with its defaults
    decay = tf.keras.experimental.LinearCosineDecay(0.1, 100)
    out["linear_cosine"] = [float(sess.run(tf.convert_to_tensor(decay(t)))) for t in (0, 25, 60, 100)]

# --- NumPy 1's removed aliases
out["itemsize"] = ITEMSIZES  # np.float_ etc. written out: the runner serves the names the script uses
counts, edges = np.histogram(np.array(SAMPLE), bins=np.array(BINS), normed=True)
out["histogram_normed"] = counts.tolist()
out["histogram_density"] = np.histogram(np.array(SAMPLE), bins=np.array(BINS), density=True)[0].tolist()
print("RESULTS " + json.dumps(out))
'''

IMAGE = [[1, 0, 0, 1, 1, 0],
         [0, 1, 0, 0, 1, 0],
         [0, 1, 1, 0, 0, 1],
         [1, 0, 0, 0, 1, 1],
         [1, 1, 0, 1, 0, 0]]
P, Y, W = [0.9, 0.2, 0.6, 0.35, 0.05], [1.0, 0.0, 1.0, 1.0, 0.0], [1.0, 2.0, 0.0, 1.0, 0.5]
ALIASES = {"float_": 8, "complex_": 16, "cfloat": 16, "singlecomplex": 8, "int0": 8, "uint0": 8,
           "float": 8, "int": 8, "complex": 16, "longfloat": np.dtype(np.longdouble).itemsize}
SAMPLE, BINS = [0.0, 0.5, 0.7, 1.5, 2.5, 9.0, 3.0], [0.0, 1.0, 2.0, 10.0]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("edges")
    data = dict(IMAGE=IMAGE, P=P, Y=Y, W=W, SAMPLE=SAMPLE, BINS=BINS)
    itemsizes = "{" + ", ".join(f"{name!r}: np.dtype(np.{name}).itemsize" for name in ALIASES) + "}"
    script = write(folder / "edges.py", "".join(f"{name} = {value!r}\n" for name, value in data.items())
                   + SCRIPT.replace("ITEMSIZES", itemsizes))
    result = compat_run(script, str(folder / "model"), timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    line = [row for row in result.stdout.splitlines() if row.startswith("RESULTS ")][-1]
    return dict(json.loads(line[len("RESULTS "):]))


@pytest.mark.timeout(300)
def test_experiment_resumed_trains_up_to_train_steps(results: dict[str, Any]) -> None:
    # 5 from scratch; 8 means "up to 8" (3 more), never 5 + 8; a second 8 trains nothing;
    # continuous_train_and_evaluate to 11 by 2 a time stops at 11 exactly.
    assert results["experiment_steps"] == [5, 8, 8, 11]


def components_4(image: list[list[int]]) -> list[list[int]]:
    """Connected components, neighbours above/below/left/right only, ids by first pixel in row-major order."""
    rows, cols = len(image), len(image[0])
    labels = [[0] * cols for _ in range(rows)]
    next_id = 0
    for r in range(rows):
        for c in range(cols):
            if not image[r][c] or labels[r][c]:
                continue
            next_id += 1
            stack = [(r, c)]
            labels[r][c] = next_id
            while stack:
                y, x = stack.pop()
                for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    ny, nx = y + dy, x + dx
                    if 0 <= ny < rows and 0 <= nx < cols and image[ny][nx] and not labels[ny][nx]:
                        labels[ny][nx] = next_id
                        stack.append((ny, nx))
    return labels


@pytest.mark.timeout(300)
def test_connected_components_are_4_connected(results: dict[str, Any]) -> None:
    expected = components_4(IMAGE)
    assert max(map(max, expected)) == 6  # 8-connectivity (diagonals) would give 2
    assert results["components"] == expected
    flipped = components_4(IMAGE[::-1])
    offset = max(map(max, expected))  # ids run on over the batch
    assert results["components_batch"] == [expected, [[v + offset if v else 0 for v in row]
                                                      for row in flipped]]


@pytest.mark.timeout(300)
def test_sliding_window_batch_shifts_by_one_by_default(results: dict[str, Any]) -> None:
    assert results["windows_default"] == [list(range(i, i + 3)) for i in range(5)]
    assert results["windows_shift2"] == [[0, 1, 2], [2, 3, 4], [4, 5, 6]]


@pytest.mark.timeout(300)
def test_log_loss_is_the_weighted_mean_cross_entropy(results: dict[str, Any]) -> None:
    p, y, w, eps = np.array(P, np.float64), np.array(Y), np.array(W), 1e-7
    losses = -y * np.log(p + eps) - (1 - y) * np.log(1 - p + eps)
    # TF 1.x: the sum of weighted losses over the number of non-zero weights
    assert results["log_loss"] == pytest.approx((losses * w).sum() / np.count_nonzero(w), rel=1e-5)
    assert results["log_loss_unweighted"] == pytest.approx(losses.mean(), rel=1e-5)


@pytest.mark.timeout(300)
def test_linear_cosine_decay_defaults(results: dict[str, Any]) -> None:
    def decayed(step: int, lr: float = 0.1, total: int = 100, periods: float = 0.5, alpha: float = 0.0,
                beta: float = 0.001) -> float:
        linear = (total - min(step, total)) / total
        cosine = 0.5 * (1 + math.cos(math.pi * 2 * periods * min(step, total) / total))
        return lr * ((alpha + linear) * cosine + beta)
    assert results["linear_cosine"] == pytest.approx([decayed(t) for t in (0, 25, 60, 100)], rel=1e-5)
    assert results["linear_cosine"][-1] == pytest.approx(0.1 * 0.001, rel=1e-5)  # only beta is left at the end


@pytest.mark.timeout(300)
def test_numpy1_aliases_keep_their_widths(results: dict[str, Any]) -> None:
    assert results["itemsize"] == ALIASES


@pytest.mark.timeout(300)
def test_histogram_normed_is_numpy1s_not_density(results: dict[str, Any]) -> None:
    counts = np.array([3, 1, 3], float)  # SAMPLE in BINS, counted by hand
    widths = np.diff(BINS)
    assert results["histogram_normed"] == pytest.approx(counts / (counts * widths).sum())
    assert results["histogram_density"] == pytest.approx(counts / (counts.sum() * widths))
    assert results["histogram_normed"] != pytest.approx(results["histogram_density"])  # unequal bins differ


@pytest.mark.parametrize("service", [
    "grpc://localhost:5050/path", "grpc://localhost:5050/", "grpc://localhost:5050?job=1",
    "grpc://localhost:5050#x", "grpc://user@localhost:5050", "http://localhost:5050", "localhost:5050"])
def test_a_service_address_is_grpc_host_port_only(service: str) -> None:
    with pytest.raises(ConfigError, match="must look like 'grpc://host:port'"):
        Distribution.checked(service=service)


@pytest.mark.parametrize("address", [
    "localhost:5050/path", "grpc://localhost:5050/path", "http://localhost:5050", "localhost:5050?x",
    "grpcs://localhost:5050"])
def test_a_dispatcher_address_is_host_port_only(address: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        dispatcher_address(address)
    assert dispatcher_address("grpc://localhost:5050") == "grpc://localhost:5050"


IMPORTORSKIP = re.compile(r"""pytest\.importorskip\(\s*["']([\w.]+)["']""")
REQUIRED = ("compat", "tf1_pipelines", "tensorflow", "tf_keras", "tf_slim", "tensorflow_probability",
            "tensorflow_estimator", "numpy", "scipy", "skimage", "PIL", "nbformat", "nbclient", "fissix")


def test_no_test_skips_when_the_project_or_a_required_package_fails_to_import() -> None:
    found = [(str(path.relative_to(TESTS)), name) for path in sorted(TESTS.rglob("*.py"))
             if path.resolve() != Path(__file__).resolve()
             for name in IMPORTORSKIP.findall(path.read_text(encoding="utf-8"))
             if name.split(".")[0] in REQUIRED]
    assert found == [], "a plain import fails the run where importorskip would skip: " + repr(found)
