"""``tf.contrib.learn.monitors`` of TensorFlow 1.0-1.4, as session hooks of ``tf.estimator``.

``fit(monitors=[...])`` took monitors; here each is a ``SessionRunHook``
(:func:`as_hooks` passes plain hooks through and tells a monitor its Estimator).

* :class:`ValidationMonitor`: every ``every_n_steps`` global steps, evaluate the
  latest checkpoint (skipped when there is none or it was already evaluated, as
  in TF 1.x: set ``save_checkpoints_steps`` or ``save_checkpoints_secs`` in the
  RunConfig so that checkpoints exist) on ``x``/``y`` or ``input_fn``; with
  ``early_stopping_rounds``, stop training once ``early_stopping_metric`` has not
  improved for that many steps (TF 1.x: ``step - best_step >= early_stopping_rounds``).
  ``best_step``, ``best_value``,
  ``early_stopped`` and ``best_metrics`` say what happened.
* :class:`StopAtStep`, :class:`NanLoss`, :class:`PrintTensor`,
  :class:`CheckpointSaver`, :class:`LoggingTrainable`, :class:`SummarySaver`:
  the ``tf.estimator`` hooks of the same job, under the old names and arguments.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["BaseMonitor", "CheckpointSaver", "EveryN", "LoggingTrainable", "NanLoss", "PrintTensor",
           "StopAtStep", "SummarySaver", "ValidationMonitor", "as_hooks", "replace_monitors_with_hooks"]

_LOG = logging.getLogger("tensorflow")


def _v1() -> Any:
    import tensorflow as tf
    return tf.compat.v1


def _hook_base() -> type:
    return _v1().train.SessionRunHook


class BaseMonitor:
    """The monitor protocol of TF 1.x, carried by a ``SessionRunHook`` (see :func:`as_hooks`)."""

    def set_estimator(self, estimator: Any) -> None:
        self._estimator = estimator


class EveryN(BaseMonitor):
    """A monitor acting every ``every_n_steps`` global steps (``every_n_step_end(step, outputs)``)."""

    def __init__(self, every_n_steps: int = 100, first_n_steps: int = 1) -> None:
        if every_n_steps <= 0:
            raise ValueError(f"EveryN: every_n_steps {every_n_steps} must be positive")
        self._every_n_steps = every_n_steps
        self._first_n_steps = first_n_steps
        self._last_step: int | None = None

    def every_n_step_end(self, step: int, outputs: Any) -> bool:
        """Override: True stops training."""
        del step, outputs
        return False

    def _due(self, step: int) -> bool:
        if self._last_step is None:
            due = step <= self._first_n_steps or step >= self._every_n_steps
        else:
            due = step >= self._last_step + self._every_n_steps
        if due:
            self._last_step = step
        return due


class _MonitorHook:
    """A ``SessionRunHook`` driving an :class:`EveryN` monitor by the global step."""

    def __init__(self, monitor: EveryN) -> None:
        self.monitor = monitor

    def begin(self) -> None:
        self._global_step = _v1().train.get_global_step()

    def before_run(self, run_context: Any) -> Any:
        return _v1().train.SessionRunArgs(self._global_step)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        step = int(run_values.results)
        if self.monitor._due(step) and self.monitor.every_n_step_end(step, None):
            run_context.request_stop()


def _as_hook(monitor: EveryN) -> Any:
    base = _hook_base()
    hook_type = type("MonitorHook", (_MonitorHook, base), {})
    return hook_type(monitor)


def as_hooks(monitors: Iterable[Any] | None, estimator: Any) -> list[Any]:
    """Session hooks for ``fit(monitors=...)``: hooks as they are, monitors wrapped and given the Estimator."""
    hooks = []
    for monitor in monitors or []:
        if isinstance(monitor, BaseMonitor):
            monitor.set_estimator(estimator)
        hooks.append(_as_hook(monitor) if isinstance(monitor, EveryN) else monitor)
    return hooks


def replace_monitors_with_hooks(monitors_or_hooks: Iterable[Any] | None, estimator: Any) -> list[Any]:
    """``monitors.replace_monitors_with_hooks``: the same as :func:`as_hooks`."""
    return as_hooks(monitors_or_hooks, estimator)


class ValidationMonitor(EveryN):
    """Evaluate the latest checkpoint every ``every_n_steps`` steps; stop early when the metric stalls."""

    def __init__(self, x: Any = None, y: Any = None, input_fn: Callable[..., Any] | None = None,
                 batch_size: int | None = None, eval_steps: int | None = None, every_n_steps: int = 100,
                 metrics: Mapping[Any, Any] | None = None, hooks: Iterable[Any] | None = None,
                 early_stopping_rounds: int | None = None, early_stopping_metric: str = "loss",
                 early_stopping_metric_minimize: bool = True, name: str | None = None) -> None:
        super().__init__(every_n_steps=every_n_steps, first_n_steps=-1)
        if (x is None) == (input_fn is None):
            raise ValueError("ValidationMonitor: give either x (and y) or input_fn")
        self.x, self.y, self.input_fn, self.batch_size = x, y, input_fn, batch_size
        self.eval_steps, self.metrics, self.hooks, self.name = eval_steps, metrics, list(hooks or []), name
        self.early_stopping_rounds = early_stopping_rounds
        self.early_stopping_metric = early_stopping_metric
        self.early_stopping_metric_minimize = early_stopping_metric_minimize
        self._best_value_step: int | None = None
        self._best_value: Any = None
        self._best_metrics: dict[str, Any] | None = None
        self._early_stopped = False
        self._latest_path: str | None = None
        self._latest_path_step: int | None = None

    @property
    def early_stopped(self) -> bool:
        return self._early_stopped

    @property
    def best_step(self) -> int | None:
        return self._best_value_step

    @property
    def best_value(self) -> Any:
        return self._best_value

    @property
    def best_metrics(self) -> dict[str, Any] | None:
        return self._best_metrics

    def every_n_step_end(self, step: int, outputs: Any) -> bool:
        checkpoint = self._estimator.core.latest_checkpoint()
        if checkpoint is None or checkpoint == self._latest_path:
            return False  # TF 1.x: nothing new to evaluate
        self._latest_path, self._latest_path_step = checkpoint, step
        results = self._estimator.evaluate(x=self.x, y=self.y, input_fn=self.input_fn, batch_size=self.batch_size,
                                           steps=self.eval_steps, metrics=self.metrics, hooks=self.hooks,
                                           name=self.name)
        _LOG.info("Validation (step %d): %s", step, ", ".join(f"{k} = {v}" for k, v in results.items()))
        if self.early_stopping_rounds is None:
            return False
        if self.early_stopping_metric not in results:
            raise ValueError(f"ValidationMonitor: early_stopping_metric {self.early_stopping_metric!r} is not one "
                             f"of the evaluation results {sorted(results)}")
        value = results[self.early_stopping_metric]
        better = (self._best_value is None or (value < self._best_value if self.early_stopping_metric_minimize
                                               else value > self._best_value))
        if better:
            self._best_value, self._best_value_step, self._best_metrics = value, step, results
        stop_now = step - (self._best_value_step or 0) >= self.early_stopping_rounds  # TF 1.x's test
        if stop_now:
            _LOG.info("Stopping. Best step: %s with %s = %s.", self._best_value_step, self.early_stopping_metric,
                      self._best_value)
            self._early_stopped = True
        return stop_now


def StopAtStep(num_steps: int | None = None, last_step: int | None = None) -> Any:  # noqa: N802 (TF 1.x's name)
    """``monitors.StopAtStep``: ``tf.estimator.StopAtStepHook``."""
    return _v1().train.StopAtStepHook(num_steps=num_steps, last_step=last_step)


def NanLoss(loss_tensor: Any = None, every_n_steps: int = 100, fail_on_nan_loss: bool = True) -> Any:  # noqa: N802
    """``monitors.NanLoss``: ``tf.estimator.NanTensorHook`` on the loss (the graph's LOSSES when not given)."""
    del every_n_steps  # the hook checks every step
    if loss_tensor is None:
        losses = _v1().get_collection(_v1().GraphKeys.LOSSES)
        loss_tensor = _v1().add_n(losses) if losses else None
    return _v1().train.NanTensorHook(loss_tensor, fail_on_nan_loss=fail_on_nan_loss)


def PrintTensor(tensor_names: Any, every_n: int = 100, first_n: int = 1) -> Any:  # noqa: N802
    """``monitors.PrintTensor``: ``tf.estimator.LoggingTensorHook`` every ``every_n`` steps."""
    del first_n
    return _v1().train.LoggingTensorHook(tensor_names, every_n_iter=every_n)


def LoggingTrainable(scope: str | None = None, every_n: int = 100, first_n: int = 1) -> Any:  # noqa: N802
    """``monitors.LoggingTrainable``: log the trainable variables (of ``scope``) every ``every_n`` steps."""
    del first_n

    class _Hook(_hook_base()):  # type: ignore[misc]
        def begin(self) -> None:
            names = {v.op.name: v for v in _v1().trainable_variables(scope)}
            self._hook = _v1().train.LoggingTensorHook(names, every_n_iter=every_n)
            self._hook.begin()

        def before_run(self, run_context: Any) -> Any:
            return self._hook.before_run(run_context)

        def after_run(self, run_context: Any, run_values: Any) -> None:
            self._hook.after_run(run_context, run_values)
    return _Hook()


def CheckpointSaver(checkpoint_dir: str, save_secs: int | None = None, save_steps: int | None = None,  # noqa: N802
                    saver: Any = None, checkpoint_basename: str = "model.ckpt", scaffold: Any = None) -> Any:
    """``monitors.CheckpointSaver``: ``tf.estimator.CheckpointSaverHook``."""
    return _v1().train.CheckpointSaverHook(checkpoint_dir, save_secs=save_secs, save_steps=save_steps, saver=saver,
                                           checkpoint_basename=checkpoint_basename, scaffold=scaffold)


def SummarySaver(summary_op: Any, save_steps: int = 100, output_dir: str | None = None,  # noqa: N802
                 summary_writer: Any = None, scaffold: Any = None) -> Any:
    """``monitors.SummarySaver``: ``tf.estimator.SummarySaverHook``."""
    return _v1().train.SummarySaverHook(save_steps=save_steps, output_dir=output_dir, summary_writer=summary_writer,
                                        scaffold=scaffold, summary_op=summary_op)
