"""tf.contrib.opt (and mixed_precision) update rules against NumPy, two steps each."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import tensorflow as tf

from compat.contrib import mixed_precision, opt

V1 = tf.compat.v1
W0 = np.array([1.0, -2.0], np.float32)
SCALE = np.array([1.0, 3.0], np.float32)


def _grad(w: np.ndarray) -> np.ndarray:
    """Gradient of sum(SCALE * w**2)."""
    return 2.0 * SCALE * w


def _two_steps(make: Callable[[], object]) -> np.ndarray:
    with tf.Graph().as_default():
        w = V1.get_variable("w", initializer=W0)
        train = make().minimize(tf.reduce_sum(SCALE * w * w))
        with V1.Session() as session:
            session.run(V1.global_variables_initializer())
            session.run(train)
            session.run(train)
            return session.run(w)


def _adam_like(rule: str, lr: float = 0.01, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8,
               decay: float = 0.0) -> np.ndarray:
    w, m, v = W0.astype(np.float64), np.zeros(2), np.zeros(2)
    for t in (1, 2):
        g = _grad(w)
        w = w - decay * w
        m = b1 * m + (1 - b1) * g
        if rule == "adamax":
            v = np.maximum(b2 * v, np.abs(g))
            w = w - lr / (1 - b1 ** t) * m / (v + eps)
            continue
        v = b2 * v + (1 - b2) * g * g
        lr_t = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        step_m = b1 * m + (1 - b1) * g if rule == "nadam" else m
        w = w - lr_t * step_m / (np.sqrt(v) + eps)
    return w


@pytest.mark.parametrize(("name", "make", "expected"), [
    ("adamw", lambda: opt.AdamWOptimizer(0.1, learning_rate=0.01), lambda: _adam_like("adam", decay=0.1)),
    ("extended", lambda: opt.extend_with_decoupled_weight_decay(V1.train.AdamOptimizer)(0.1, learning_rate=0.01),
     lambda: _adam_like("adam", decay=0.1)),
    ("lazyadam_dense", lambda: opt.LazyAdamOptimizer(0.01), lambda: _adam_like("adam")),
    ("adamax", lambda: opt.AdaMaxOptimizer(0.01), lambda: _adam_like("adamax")),
    ("nadam", lambda: opt.NadamOptimizer(0.01), lambda: _adam_like("nadam")),
])
def test_adam_family(name: str, make: Callable[[], object], expected: Callable[[], np.ndarray]) -> None:
    np.testing.assert_allclose(_two_steps(make), expected(), rtol=1e-5, err_msg=name)


def test_momentum_w() -> None:
    w, acc = W0.astype(np.float64), np.zeros(2)
    for _ in range(2):
        g = _grad(w)
        w = w - 0.1 * w
        acc = 0.9 * acc + g
        w = w - 0.01 * acc
    np.testing.assert_allclose(_two_steps(lambda: opt.MomentumWOptimizer(0.1, 0.01, 0.9)), w, rtol=1e-5)


@pytest.mark.parametrize("kind", ["addsign", "powersign"])
def test_sign_optimizers(kind: str) -> None:
    w, m = W0.astype(np.float64), np.zeros(2)
    for _ in range(2):
        g = _grad(w)
        m = 0.9 * m + 0.1 * g
        agree = np.sign(g) * np.sign(m)
        w = w - 0.01 * ((1.0 + agree) if kind == "addsign" else np.exp(agree)) * g
    make = opt.AddSignOptimizer if kind == "addsign" else opt.PowerSignOptimizer
    np.testing.assert_allclose(_two_steps(lambda: make(0.01)), w, rtol=1e-5)


def test_lars() -> None:
    w, acc = W0.astype(np.float64), np.zeros(2)
    for _ in range(2):
        g = _grad(w)
        trust = 0.001 * np.linalg.norm(w) / (np.linalg.norm(g) + 1e-4 * np.linalg.norm(w))
        acc = 0.9 * acc + 0.1 * trust * (g + 1e-4 * w)
        w = w - acc
    np.testing.assert_allclose(_two_steps(lambda: opt.LARSOptimizer(0.1)), w, rtol=1e-5)


def test_lazy_adam_touches_only_the_gathered_rows() -> None:
    table0 = np.arange(8, dtype=np.float32).reshape(4, 2)
    with tf.Graph().as_default():
        table = V1.get_variable("table", initializer=table0)
        loss = tf.reduce_sum(tf.square(tf.gather(table, [1, 3])))
        train = opt.LazyAdamOptimizer(0.1).minimize(loss)
        with V1.Session() as session:
            session.run(V1.global_variables_initializer())
            session.run(train)
            after = session.run(table)
    np.testing.assert_array_equal(after[[0, 2]], table0[[0, 2]])
    # First Adam step: m/sqrt(v) = sign(g) with bias correction, so each touched entry moves by lr.
    np.testing.assert_allclose(after[[1, 3]], table0[[1, 3]] - 0.1 * np.sign(table0[[1, 3]]), rtol=1e-5)


def test_wrappers_and_loss_scaling_keep_gradient_descent() -> None:
    w = W0.astype(np.float64)
    for _ in range(2):
        w = w - 0.1 * _grad(w)
    sgd = V1.train.GradientDescentOptimizer
    manager = mixed_precision.FixedLossScaleManager(128.0)
    for make in (lambda: opt.MultitaskOptimizerWrapper(sgd(0.1)), lambda: opt.MovingAverageOptimizer(sgd(0.1)),
                 lambda: mixed_precision.LossScaleOptimizer(sgd(0.1), manager)):
        np.testing.assert_allclose(_two_steps(make), w, rtol=1e-5)


def test_exponential_loss_scale_skips_non_finite_steps() -> None:
    with tf.Graph().as_default():
        w = V1.get_variable("w", initializer=np.float32(1.0))
        factor = V1.placeholder(tf.float32, [])
        loss = factor * w * w  # an infinite factor gives an infinite gradient
        manager = mixed_precision.ExponentialUpdateLossScaleManager(8.0, incr_every_n_steps=2,
                                                                   decr_every_n_nan_or_inf=1, decr_ratio=0.5)
        train = mixed_precision.LossScaleOptimizer(V1.train.GradientDescentOptimizer(0.25), manager).minimize(loss)
        with V1.Session() as session:
            session.run(V1.global_variables_initializer())
            session.run(train, {factor: np.inf})
            assert session.run([w, manager.get_loss_scale()]) == [1.0, 4.0]
            session.run(train, {factor: 1.0})
            session.run(train, {factor: 1.0})
            value, scale = session.run([w, manager.get_loss_scale()])
    assert value == pytest.approx(0.25)  # 1 -> 0.5 -> 0.25
    assert scale == 8.0


def test_scipy_interface_and_clipping() -> None:
    with tf.Graph().as_default():
        w = V1.get_variable("w", initializer=W0)
        loss = tf.reduce_sum(tf.square(w - 3.0))
        interface = opt.ScipyOptimizerInterface(loss, var_to_bounds={w: (-1.0, 2.0)})
        clipped = opt.clip_gradients_by_global_norm([(tf.constant([3.0, 4.0]), w)], clip_norm=1.0)
        with V1.Session() as session:
            session.run(V1.global_variables_initializer())
            interface.minimize(session)
            np.testing.assert_allclose(session.run(w), [2.0, 2.0], atol=1e-5)
            np.testing.assert_allclose(session.run(clipped[0][0]), [0.6, 0.8], rtol=1e-6)


def test_refused_names_name_the_replacement() -> None:
    from compat.errors import LegacyAPIError

    with pytest.raises(LegacyAPIError, match="tf.distribute"):
        _ = opt.ElasticAverageOptimizer


def test_adam_gs_takes_its_step_from_the_global_step() -> None:
    w, m, v = W0.astype(np.float64), np.zeros(2), np.zeros(2)
    for _ in range(2):
        g = _grad(w)
        m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
        w = w - 0.01 * np.sqrt(1 - 0.999 ** 5) / (1 - 0.9 ** 5) * m / (np.sqrt(v) + 1e-8)
    np.testing.assert_allclose(_two_steps(lambda: opt.AdamGSOptimizer(global_step=4, learning_rate=0.01)), w,
                               rtol=1e-5)


def test_reg_adagrad_can_leave_the_accumulator_alone() -> None:
    with tf.Graph().as_default():
        w = V1.get_variable("w", initializer=W0)
        loss = tf.reduce_sum(SCALE * w * w)
        optimizer = opt.RegAdagradOptimizer(0.1)
        train = optimizer.minimize(loss)
        with optimizer.avoid_updating_slots():
            regularize = optimizer.minimize(loss)
        with V1.Session() as session:
            session.run(V1.global_variables_initializer())
            session.run(train)
            session.run(regularize)
            got, accumulator = session.run([w, optimizer.get_slot(w, "accumulator")])
    g1 = _grad(W0.astype(np.float64))
    acc = 0.1 + g1 * g1
    w1 = W0 - 0.1 * g1 / np.sqrt(acc)
    w2 = w1 - 0.1 * _grad(w1) / np.sqrt(acc)
    np.testing.assert_allclose(accumulator, acc, rtol=1e-5)
    np.testing.assert_allclose(got, w2, rtol=1e-5)
