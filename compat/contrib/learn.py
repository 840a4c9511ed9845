"""``tf.contrib.learn`` of TensorFlow 1.0-1.15, on ``tf.estimator``.

* TF 1.0-1.4's high-level API: ``Estimator`` with ``fit`` / ``evaluate`` /
  ``predict``, ``SKCompat``, the DNN and linear models, ``monitors``, the queue
  readers, ``io`` (:mod:`compat.contrib._learn_served` says where each comes from);
* ``datasets`` (:mod:`compat.contrib._learn_datasets`, local files only) and
  ``preprocessing`` (:mod:`compat.contrib._learn_text`);
* 2017-2018's ``Experiment`` driven by ``learn_runner.run(experiment_fn, ...)``
  under a schedule (``train_and_evaluate`` on one machine), and ``RunConfig``,
  written here on the public API of ``tf.estimator`` (:mod:`compat.estimator`),
  single-process.

The rest (``DNNEstimator`` & co., heads, the RNN estimators, the ``train`` /
``evaluate`` loops of ``graph_actions``) is refused (:data:`REFUSED`), naming the ``tf.estimator`` successor.
"""
from __future__ import annotations

import functools
import inspect
import os
import types
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from compat.contrib import _learn_served, refusing_getattr
from compat.errors import LegacyAPIError

__all__ = ["REFUSED", "Experiment", "ExportStrategy", "ModeKeys", "learn_runner", "make_export_strategy", "run"]

_USE_CORE = "the tf.estimator class of the same name (train instead of fit; input_fn instead of x/y) or tf.keras"

REFUSED: dict[str, str] = {
    **{name: _USE_CORE for name in (
        "BaseEstimator", "DNNEstimator", "DNNLinearCombinedEstimator", "LinearEstimator")},
    "DynamicRnnEstimator": "tf.keras.layers.RNN in a tf.estimator model_fn",
    "StateSavingRnnEstimator": "tf.keras.layers.RNN in a tf.estimator model_fn",
    "LogisticRegressor": "tf.estimator.LinearClassifier",
    "SVM": "tf.estimator.LinearClassifier (hinge loss: a custom model_fn)",
    "Head": "tf.estimator.Head", "head": "tf.estimator heads (tf.estimator.RegressionHead, ...)",
    "binary_svm_head": "tf.estimator.BinaryClassHead", "multi_class_head": "tf.estimator.MultiClassHead",
    "multi_head": "tf.estimator.MultiHead", "multi_label_head": "tf.estimator.MultiLabelHead",
    "poisson_regression_head": "tf.estimator.PoissonRegressionHead",
    "regression_head": "tf.estimator.RegressionHead",
    # graph_actions' training and evaluation loops; its run_n, run_feeds and infer are served.
    "evaluate": "tf.estimator.Estimator.evaluate", "train": "tf.estimator.Estimator.train",
    "models": "tf.keras.layers", "ops": "tf.compat.v1 ops",
    "utils": "tf.estimator.export",
}

_refuse = refusing_getattr("learn", REFUSED)

#: Every ``tf.contrib.learn`` name this module serves (the others in :data:`REFUSED` raise).
PROVIDED = frozenset({"Experiment", "ExportStrategy", "learn_runner", "make_export_strategy", "RunConfig",
                      "ModeKeys", "NanLossDuringTrainingError", "TaskType", "preprocessing", "datasets",
                      *_learn_served.NAMES})


def _api(sub: str = "") -> Any:
    from compat.estimator._forward import api_module
    return api_module(sub)


# --------------------------------------------------------------------------
# RunConfig
# --------------------------------------------------------------------------

def _session_config(num_cores: int, log_device_placement: bool, gpu_memory_fraction: float) -> Any:
    """The ``ConfigProto`` contrib.learn's RunConfig built from its three session arguments."""
    import tensorflow as tf
    gpu = tf.compat.v1.GPUOptions(per_process_gpu_memory_fraction=gpu_memory_fraction)
    return tf.compat.v1.ConfigProto(log_device_placement=log_device_placement, inter_op_parallelism_threads=num_cores,
                                    intra_op_parallelism_threads=num_cores, gpu_options=gpu)


_DEFAULT: Any = object()


@functools.cache
def _run_config_class() -> type:
    base: Any = _api().RunConfig

    class RunConfig(base):
        """``tf.contrib.learn.RunConfig``: ``tf.estimator.RunConfig`` plus its session arguments.

        ``num_cores`` (0: TensorFlow decides), ``log_device_placement`` and
        ``gpu_memory_fraction`` build the session config when ``session_config``
        is None. ``master`` / ``evaluation_master`` name a remote server: only
        the local one (``''``) is provided.
        """

        def __init__(self, master: str | None = None, num_cores: int = 0, log_device_placement: bool = False,
                     gpu_memory_fraction: float = 1.0, tf_random_seed: int | None = None,
                     save_summary_steps: int = 100, save_checkpoints_secs: Any = _DEFAULT,
                     save_checkpoints_steps: int | None = None,
                     keep_checkpoint_max: int = 5, keep_checkpoint_every_n_hours: float = 10000,
                     log_step_count_steps: int = 100, protocol: str | None = None, evaluation_master: str = "",
                     model_dir: str | None = None, session_config: Any = None) -> None:
            for label, value in (("master", master), ("evaluation_master", evaluation_master)):
                if value:
                    raise LegacyAPIError(f"tf.contrib.learn.RunConfig({label}={value!r}): only local, "
                                         "single-process runs are provided by the compat runner; leave it empty")
            if session_config is None and (num_cores or log_device_placement or gpu_memory_fraction != 1.0):
                session_config = _session_config(num_cores, log_device_placement, gpu_memory_fraction)
            # Unset: tf.estimator.RunConfig's default (600 s unless save_checkpoints_steps is given).
            kwargs = {} if save_checkpoints_secs is _DEFAULT else {"save_checkpoints_secs": save_checkpoints_secs}
            super().__init__(model_dir=model_dir, tf_random_seed=tf_random_seed,
                             save_summary_steps=save_summary_steps, save_checkpoints_steps=save_checkpoints_steps,
                             session_config=session_config, keep_checkpoint_max=keep_checkpoint_max,
                             keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
                             log_step_count_steps=log_step_count_steps, protocol=protocol, **kwargs)

    RunConfig.__module__ = __name__
    return RunConfig


# --------------------------------------------------------------------------
# Export strategies
# --------------------------------------------------------------------------

class ExportStrategy(NamedTuple):
    """``tf.contrib.learn.ExportStrategy``: a name and ``export_fn(estimator, export_dir_base, checkpoint_path)``."""

    name: str
    export_fn: Callable[..., Any]
    strip_default_attrs: bool | None = None

    def export(self, estimator: Any, export_path: str, checkpoint_path: str | None = None,
               eval_result: Any = None) -> Any:
        """Export ``estimator`` under ``export_path``; returns the SavedModel directory."""
        del eval_result  # only the best-model strategies of contrib used it
        return self.export_fn(estimator, export_path, checkpoint_path)


def make_export_strategy(serving_input_fn: Callable[[], Any], default_output_alternative_key: str | None = None,
                         assets_extra: Any = None, as_text: bool = False, exports_to_keep: int | None = 5,
                         strip_default_attrs: bool | None = None) -> ExportStrategy:
    """An :class:`ExportStrategy` writing a timestamped SavedModel and keeping the newest ``exports_to_keep``."""
    del default_output_alternative_key  # contrib heads only; core Estimators name their own signatures

    def export_fn(estimator: Any, export_dir_base: str, checkpoint_path: str | None = None) -> Any:
        path = estimator.export_saved_model(export_dir_base, serving_input_fn, assets_extra=assets_extra,
                                            as_text=as_text, checkpoint_path=checkpoint_path)
        _keep_newest(export_dir_base, exports_to_keep)
        return path

    return ExportStrategy("Servo", export_fn, strip_default_attrs)


def _keep_newest(export_dir_base: str, keep: int | None) -> None:
    """Remove all but the ``keep`` newest timestamped export folders (the names are seconds)."""
    import shutil
    if not keep:
        return
    stamps = sorted(int(n) for n in os.listdir(export_dir_base) if n.isdigit())
    for stamp in stamps[:-keep]:
        shutil.rmtree(os.path.join(export_dir_base, str(stamp)), ignore_errors=True)


# --------------------------------------------------------------------------
# Experiment
# --------------------------------------------------------------------------

class Experiment:
    """``tf.contrib.learn.Experiment``: an Estimator with its train and eval inputs, run on one machine.

    ``train`` trains to ``train_steps`` (None: until ``train_input_fn`` ends),
    ``evaluate`` runs ``eval_steps`` batches (None: the whole eval input), and
    ``train_and_evaluate`` does one then the other and exports with each
    export strategy; ``continuous_train_and_evaluate`` alternates
    ``train_steps_per_iteration`` training steps with an evaluation.
    ``eval_metrics`` belonged to the contrib estimators: use ``tf.estimator.add_metrics``.
    """

    def __init__(self, estimator: Any, train_input_fn: Callable[..., Any], eval_input_fn: Callable[..., Any],
                 eval_metrics: Any = None, train_steps: int | None = None, eval_steps: int | None = 100,
                 train_monitors: Sequence[Any] | None = None, eval_hooks: Sequence[Any] | None = None,
                 local_eval_frequency: int | None = None, eval_delay_secs: int = 120,
                 continuous_eval_throttle_secs: int = 60, min_eval_frequency: int | None = None,
                 delay_workers_by_global_step: bool = False, export_strategies: Any = None,
                 train_steps_per_iteration: int | None = None, checkpoint_and_export: bool = False,
                 saving_listeners: Sequence[Any] | None = None, check_interval_secs: int = 5) -> None:
        if eval_metrics is not None:
            raise LegacyAPIError("tf.contrib.learn.Experiment(eval_metrics=...) applied to the contrib estimators "
                                 "only; wrap the Estimator with tf.estimator.add_metrics(estimator, metric_fn)")
        if not isinstance(estimator, _api().Estimator):
            raise TypeError(f"Experiment: estimator must be a tf.estimator.Estimator, got {type(estimator).__name__}")
        del local_eval_frequency, eval_delay_secs, continuous_eval_throttle_secs, min_eval_frequency
        del delay_workers_by_global_step, checkpoint_and_export, check_interval_secs  # multi-process timing
        self._estimator = estimator
        self._train_input_fn = train_input_fn
        self._eval_input_fn = eval_input_fn
        self._train_steps = train_steps
        self._eval_steps = eval_steps
        self._train_hooks = list(train_monitors or [])
        self._eval_hooks = list(eval_hooks or [])
        self._saving_listeners = list(saving_listeners or [])
        self._train_steps_per_iteration = train_steps_per_iteration
        strategies = export_strategies or []
        self._export_strategies = [strategies] if isinstance(strategies, ExportStrategy) else list(strategies)

    @property
    def estimator(self) -> Any:
        return self._estimator

    @property
    def eval_metrics(self) -> None:
        return None

    @property
    def train_steps(self) -> int | None:
        return self._train_steps

    @property
    def eval_steps(self) -> int | None:
        return self._eval_steps

    def extend_train_hooks(self, additional_hooks: Sequence[Any]) -> None:
        """Add session hooks to the training runs."""
        self._train_hooks.extend(additional_hooks)

    def train(self, delay_secs: int | None = None) -> Any:
        """Train to ``train_steps`` (the global step, so a resumed run trains only what is left)."""
        del delay_secs  # the delay staggered workers of a cluster; one process starts at once
        return self._estimator.train(self._train_input_fn, max_steps=self._train_steps, hooks=self._train_hooks,
                                     saving_listeners=self._saving_listeners)

    def evaluate(self, delay_secs: int | None = None, name: str | None = None) -> dict[str, Any]:
        """Evaluate the latest checkpoint on ``eval_steps`` batches; the metrics by name."""
        del delay_secs
        return self._estimator.evaluate(self._eval_input_fn, steps=self._eval_steps, hooks=self._eval_hooks,
                                        name=name)

    def _export(self, eval_result: Any) -> list[Any]:
        checkpoint = self._estimator.latest_checkpoint()
        return [strategy.export(self._estimator, os.path.join(self._estimator.model_dir, "export", strategy.name),
                                checkpoint_path=checkpoint, eval_result=eval_result)
                for strategy in self._export_strategies]

    def train_and_evaluate(self) -> tuple[dict[str, Any], list[Any]]:
        """Train, evaluate once, export: ``(eval_result, export_results)``."""
        self.train()
        eval_result = self.evaluate()
        return eval_result, self._export(eval_result)

    def continuous_train_and_evaluate(self, continuous_eval_predicate_fn: Callable[[Any], bool] | None = None,
                                      ) -> tuple[dict[str, Any] | None, list[Any]]:
        """Alternate ``train_steps_per_iteration`` steps (default 1000) of training with an evaluation.

        Stops at ``train_steps`` or when ``continuous_eval_predicate_fn(eval_result)`` is False.
        """
        per_iteration = self._train_steps_per_iteration or 1000
        eval_result: dict[str, Any] | None = None
        exports: list[Any] = []
        while True:
            step = self._global_step()
            target = step + per_iteration
            if self._train_steps is not None:
                target = min(target, self._train_steps)
            self._estimator.train(self._train_input_fn, max_steps=target, hooks=self._train_hooks,
                                  saving_listeners=self._saving_listeners)
            eval_result = self.evaluate()
            exports = self._export(eval_result)
            done = self._train_steps is not None and self._global_step() >= self._train_steps
            if done or self._global_step() == step:  # the input ended
                break
            if continuous_eval_predicate_fn is not None and not continuous_eval_predicate_fn(eval_result):
                break
        return eval_result, exports

    def _global_step(self) -> int:
        if self._estimator.latest_checkpoint() is None:
            return 0
        return int(self._estimator.get_variable_value("global_step"))

    def local_run(self) -> tuple[dict[str, Any], list[Any]]:
        """The same as :meth:`train_and_evaluate` (what a single machine ran)."""
        return self.train_and_evaluate()

    def test(self) -> dict[str, Any]:
        """One training step and one evaluation step: a smoke test of the inputs and the model."""
        self._estimator.train(self._train_input_fn, steps=1, hooks=self._train_hooks)
        return self._estimator.evaluate(self._eval_input_fn, steps=1, hooks=self._eval_hooks)

    def run_std_server(self) -> None:
        raise LegacyAPIError("Experiment.run_std_server: parameter servers are not provided by the compat runner; "
                             "run train_and_evaluate in one process")

    def continuous_eval(self, *args: Any, **kwargs: Any) -> None:
        raise LegacyAPIError("Experiment.continuous_eval waits for another process's checkpoints; use "
                             "continuous_train_and_evaluate in one process")


# --------------------------------------------------------------------------
# learn_runner
# --------------------------------------------------------------------------

def run(experiment_fn: Callable[..., Experiment], output_dir: str | None = None, schedule: str | None = None,
        run_config: Any = None, hparams: Any = None) -> Any:
    """``learn_runner.run``: build the Experiment and call its ``schedule`` (default ``train_and_evaluate``).

    ``experiment_fn(output_dir)`` when ``output_dir`` is given (the 2016 form),
    else ``experiment_fn(run_config, hparams)``.

    Raises:
        ValueError: both or neither of ``output_dir`` and ``run_config``; an unknown schedule.
    """
    if (output_dir is None) == (run_config is None):
        raise ValueError("learn_runner.run: give exactly one of output_dir (experiment_fn(output_dir)) and "
                         "run_config (experiment_fn(run_config, hparams))")
    if output_dir is not None:
        experiment = experiment_fn(output_dir)
    else:
        experiment = experiment_fn(run_config, hparams)
    if not isinstance(experiment, Experiment):
        raise TypeError(f"learn_runner.run: experiment_fn returned {type(experiment).__name__}, not an Experiment")
    schedule = schedule or "train_and_evaluate"
    method = getattr(experiment, schedule, None)
    if schedule.startswith("_") or not callable(method) or inspect.isclass(method):
        valid = ("train", "evaluate", "train_and_evaluate", "continuous_train_and_evaluate", "test", "local_run")
        raise ValueError(f"learn_runner.run: schedule {schedule!r} is not a method of Experiment; valid: {valid}")
    return method()


def _tune(*args: Any, **kwargs: Any) -> None:
    raise LegacyAPIError("learn_runner.tune: hyper-parameter tuning services are not provided by the compat runner")


learn_runner = types.ModuleType("tensorflow.contrib.learn.python.learn.learn_runner",
                                "tf.contrib.learn.learn_runner: run (and tune, refused).")
learn_runner.__dict__.update(run=run, tune=_tune)


class ModeKeys:
    """``tf.contrib.learn.ModeKeys`` of TF 1.x: ``INFER``, not ``tf.estimator``'s ``PREDICT``.

    The values are TF 1.x's (``'infer'`` is also ``tf.estimator.ModeKeys.PREDICT``), so a mode
    compared with either class gives what it gave under TF 1.x. seq2seq code of 2017 (the
    ``tensorflow/nmt`` models) tested ``mode == tf.contrib.learn.ModeKeys.INFER``.
    """

    TRAIN = "train"
    EVAL = "eval"
    INFER = "infer"

    @classmethod
    def validate(cls, key: str) -> None:
        """Raise ``ValueError`` unless ``key`` is one of the three modes (as TF 1.x did)."""
        if key not in (cls.TRAIN, cls.EVAL, cls.INFER):
            raise ValueError(f"Invalid mode {key}.")


def __getattr__(name: str) -> Any:
    if name == "RunConfig":
        return _run_config_class()
    if name == "NanLossDuringTrainingError":
        return _api().NanLossDuringTrainingError
    if name == "TaskType":
        _api()  # supplies what the package needs from TensorFlow first
        import tensorflow_estimator.python.estimator.run_config as run_config_lib
        return run_config_lib.TaskType
    if name == "preprocessing":  # VocabularyProcessor and friends: plain Python, no TensorFlow needed
        from compat.contrib import _learn_text
        return _learn_text
    if name in _learn_served.NAMES:
        return _learn_served.served(name)
    if name == "datasets":
        from compat.rules import LEARN_DATASETS
        from compat.tf1.namespace import contrib_modules
        return contrib_modules()[LEARN_DATASETS]
    return _refuse(name)
