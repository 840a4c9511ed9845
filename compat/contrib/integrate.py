"""``tf.contrib.integrate``: ordinary differential equations ``dy/dt = func(y, t)``.

``odeint_fixed`` steps a fixed grid in the graph (Euler, midpoint or classical
Runge-Kutta 4, differentiable); ``odeint`` integrates adaptively with SciPy's
``odeint`` (LSODA) through ``tf.numpy_function`` in place of TF 1.x's Dormand-Prince
graph loop: same values to the tolerances, no gradient.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = ["odeint", "odeint_fixed"]

REFUSED: dict[str, str] = {}

__getattr__ = refusing_getattr("integrate", REFUSED)

_METHODS = ("euler", "midpoint", "rk4")


def _step(func: Callable[[Any, Any], Any], y: Any, t: Any, dt: Any, method: str) -> Any:
    """One step of ``method`` from ``(y, t)`` over ``dt``."""
    if method == "euler":
        return y + dt * func(y, t)
    if method == "midpoint":
        return y + dt * func(y + 0.5 * dt * func(y, t), t + 0.5 * dt)
    k1 = func(y, t)
    k2 = func(y + 0.5 * dt * k1, t + 0.5 * dt)
    k3 = func(y + 0.5 * dt * k2, t + 0.5 * dt)
    k4 = func(y + dt * k3, t + dt)
    return y + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)


def odeint_fixed(func: Callable[[Any, Any], Any], y0: Any, t: Any, dt: Any = None, method: str = "rk4",
                 name: Any = None) -> Any:
    """``[len(t), *y0.shape]``: ``y`` at the times ``t``, stepping each interval of ``t`` (in steps of ``dt``).

    Raises:
        ValueError: ``method`` is not euler, midpoint or rk4.
    """
    if method not in _METHODS:
        raise ValueError(f"odeint_fixed: method must be one of {_METHODS}; got {method!r}")
    with tf.name_scope(name or "odeint_fixed"):
        y0 = tf.convert_to_tensor(y0)
        t = tf.cast(t, y0.dtype)

        def interval(y: Any, bounds: Any) -> Any:
            start, end = bounds[0], bounds[1]
            steps = 1 if dt is None else tf.maximum(1, tf.cast(tf.math.ceil((end - start) / dt), tf.int32))
            width = (end - start) / tf.cast(steps, y0.dtype)

            def body(i: Any, value: Any) -> tuple[Any, Any]:
                return i + 1, _step(func, value, start + tf.cast(i, y0.dtype) * width, width, method)
            return tf.while_loop(lambda i, _: i < steps, body, (tf.constant(0), y))[1]
        pairs = tf.stack([t[:-1], t[1:]], axis=1)
        rest = tf.scan(interval, pairs, initializer=y0)
        return tf.concat([y0[None], rest], axis=0)


def odeint(func: Callable[[Any, Any], Any], y0: Any, t: Any, rtol: float = 1e-6, atol: float = 1e-12,
           method: Any = None, options: Any = None, full_output: bool = False, name: Any = None) -> Any:
    """``[len(t), *y0.shape]``: ``y`` at the times ``t``, integrated adaptively to ``rtol`` / ``atol``.

    ``func`` is evaluated in a graph built once; ``method`` and ``options``
    (TF 1.x's Dormand-Prince settings) are accepted and not used.

    Raises:
        ValueError: ``full_output`` is requested (the solver's diagnostics differ).
    """
    del method, options  # SciPy chooses its own steps.
    if full_output:
        raise ValueError("odeint: full_output=True is not provided (the diagnostics of TF 1.x's Dormand-Prince "
                         "solver have no equivalent here); call with full_output=False")
    from scipy import integrate

    with tf.name_scope(name or "odeint"):
        y0 = tf.convert_to_tensor(y0)
        shape, dtype = y0.shape, y0.dtype.as_numpy_dtype
        graph = tf.Graph()
        with graph.as_default():
            y_in = tf.compat.v1.placeholder(y0.dtype, shape)
            t_in = tf.compat.v1.placeholder(y0.dtype, [])
            dy = func(y_in, t_in)
        session = tf.compat.v1.Session(graph=graph)

        def solve(initial: np.ndarray, times: np.ndarray) -> np.ndarray:
            def rhs(flat: np.ndarray, time: float) -> np.ndarray:
                value = session.run(dy, {y_in: flat.reshape(initial.shape).astype(dtype), t_in: time})
                return np.asarray(value, np.float64).reshape(-1)
            out = integrate.odeint(rhs, initial.reshape(-1).astype(np.float64), times.astype(np.float64),
                                   rtol=rtol, atol=atol)
            return out.reshape((len(times), *initial.shape)).astype(dtype)
        result = tf.numpy_function(solve, [y0, tf.cast(t, y0.dtype)], y0.dtype)
        return tf.reshape(result, tf.concat([[-1], tf.shape(y0)], axis=0))
