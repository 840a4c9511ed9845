"""A TF 1.15-era Keras-in-a-graph script of our own, run unchanged under ``python -m compat run``.

``corpus/tf115_keras_graph.py`` uses TF 1.15 names today's ``tf.compat.v1``
lacks (``Layer.apply``, ``get_updates_for``,
``tf.keras.experimental.LinearCosineDecay``, ``tf.data.experimental.latency_stats``
and ``StatsOptions``, ``map_vectorization``, ``tf.config.experimental_list_devices``).
Its printed values are checked against gradient descent and the schedule's
formula recomputed with NumPy here; plain ``python`` must fail on it.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pytest
from test_legacy_scripts import LEGACY, run_script, succeeded

SCRIPT = LEGACY / "corpus" / "tf115_keras_graph.py"
STEPS = 20


def linear_cosine_decay(step: int, lr: float = 0.5, decay_steps: int = STEPS) -> float:
    """TF's linear cosine decay with num_periods=0.5, alpha=0, beta=0, by its formula."""
    t = min(step, decay_steps)
    linear = (decay_steps - t) / decay_steps
    cosine = 0.5 * (1 + math.cos(math.pi * 2 * 0.5 * t / decay_steps))
    return lr * linear * cosine


def numpy_descent() -> tuple[list[float], list[float], np.ndarray, float]:
    """Learning rates, losses, final kernel and bias of the script's regression, in float64."""
    angles = np.arange(8, dtype=np.float32)
    x = np.stack([np.cos(angles), np.sin(angles)], axis=1).astype(np.float64)
    y = x @ np.array([[2.0], [-1.0]]) + 0.5
    kernel, bias = np.zeros((2, 1)), 0.0
    rates, losses = [], []
    for step in range(STEPS):
        rate = linear_cosine_decay(step)
        error = x @ kernel + bias - y
        rates.append(rate)
        losses.append(float(np.mean(error ** 2)))
        kernel -= rate * 2 * x.T @ error / len(x)
        bias -= rate * 2 * float(np.mean(error))
    return rates, losses, kernel.ravel(), bias


@pytest.mark.timeout(240)
def test_tf115_keras_graph_script_trains_as_numpy_says(tmp_path) -> None:
    out = succeeded(run_script(SCRIPT, cwd=tmp_path))
    angles = np.arange(8)
    means = 0.5 * np.array([np.cos(angles).mean(), np.sin(angles).mean()])  # momentum 0.5 from zero
    printed_means = [float(v) for v in re.search(r"moving_mean: (.*)", out).group(1).split()]
    assert printed_means == pytest.approx(means, abs=1e-5)
    assert re.search(r"devices: 1", out)
    rates, losses, kernel, bias = numpy_descent()
    steps = re.findall(r"step (\d+) lr ([\d.]+) loss ([\d.]+)", out)
    assert [int(s) for s, _, _ in steps] == list(range(STEPS))
    assert [float(r) for _, r, _ in steps] == pytest.approx(rates, abs=2e-6)
    assert [float(v) for _, _, v in steps] == pytest.approx(losses, abs=2e-5)
    printed_kernel = [float(v) for v in re.search(r"kernel: (.*)", out).group(1).split()]
    assert printed_kernel == pytest.approx(kernel, abs=1e-4)
    assert float(re.search(r"bias: (\S+)", out).group(1)) == pytest.approx(bias, abs=1e-4)


@pytest.mark.timeout(240)
def test_tf115_keras_graph_script_fails_with_plain_python(tmp_path) -> None:
    result = run_script(SCRIPT, cwd=tmp_path, runner=False)
    assert result.returncode != 0
    assert "AttributeError" in result.stderr
