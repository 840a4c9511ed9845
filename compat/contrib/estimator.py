"""``tf.contrib.estimator`` of TensorFlow 1.15: the helpers real Estimator code used, on ``tf.estimator``.

Most names moved into ``tf.estimator`` (``add_metrics``) or
``tf.estimator.experimental`` (the early-stopping hooks, ``InMemoryEvaluatorHook``,
the logit-fn builders) before ``tensorflow-estimator``'s last release, and are
served from there (:mod:`compat.estimator`). The heads are the package's
``tf.estimator`` head classes, which take the same arguments.
:func:`forward_features`, :func:`clip_gradients_by_norm`,
:func:`export_saved_model_for_mode` and :func:`export_all_saved_models` are
written here on the public Estimator API. The rest is refused (:data:`REFUSED`).
"""
from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from compat.contrib import refusing_getattr

__all__ = ["REFUSED", "clip_gradients_by_norm", "export_all_saved_models", "export_saved_model_for_mode",
           "forward_features"]

_EXPORT = "tensorflow_estimator.python.estimator.export.export"
_CANNED = "tensorflow_estimator.python.estimator.canned"

#: name -> (compat.estimator module path relative to it, attribute) for names served from tf.estimator.
_FORWARDED: dict[str, tuple[str, str]] = {
    "add_metrics": ("", "add_metrics"),
    "InMemoryEvaluatorHook": ("experimental", "InMemoryEvaluatorHook"),
    "build_raw_supervised_input_receiver_fn": ("experimental", "build_raw_supervised_input_receiver_fn"),
    "call_logit_fn": ("experimental", "call_logit_fn"),
    "dnn_logit_fn_builder": ("experimental", "dnn_logit_fn_builder"),
    "linear_logit_fn_builder": ("experimental", "linear_logit_fn_builder"),
    "make_early_stopping_hook": ("experimental", "make_early_stopping_hook"),
    "make_stop_at_checkpoint_step_hook": ("experimental", "make_stop_at_checkpoint_step_hook"),
    "stop_if_higher_hook": ("experimental", "stop_if_higher_hook"),
    "stop_if_lower_hook": ("experimental", "stop_if_lower_hook"),
    "stop_if_no_decrease_hook": ("experimental", "stop_if_no_decrease_hook"),
    "stop_if_no_increase_hook": ("experimental", "stop_if_no_increase_hook"),
    "binary_classification_head": ("", "BinaryClassHead"),
    "logistic_regression_head": ("", "LogisticRegressionHead"),
    "multi_class_head": ("", "MultiClassHead"),
    "multi_head": ("", "MultiHead"),
    "multi_label_head": ("", "MultiLabelHead"),
    "poisson_regression_head": ("", "PoissonRegressionHead"),
    "regression_head": ("", "RegressionHead"),
}

#: name -> (module of the tensorflow-estimator package, attribute) for names it keeps outside its public API.
_FROM_PACKAGE: dict[str, tuple[str, str]] = {
    "build_supervised_input_receiver_fn_from_input_fn": (_EXPORT, "build_supervised_input_receiver_fn_from_input_fn"),
    "read_eval_metrics": ("tensorflow_estimator.python.estimator.early_stopping", "read_eval_metrics"),
    "SavedModelEstimator": (f"{_CANNED}.saved_model_estimator", "SavedModelEstimator"),
    "RNNClassifier": (f"{_CANNED}.rnn", "RNNClassifier"),
    "RNNEstimator": (f"{_CANNED}.rnn", "RNNEstimator"),
}

REFUSED: dict[str, str] = {
    "DNNClassifierWithLayerAnnotations": "tf.estimator.DNNClassifier (layer annotations were never carried over)",
    "DNNRegressorWithLayerAnnotations": "tf.estimator.DNNRegressor (layer annotations were never carried over)",
    "TowerOptimizer": "tf.distribute.MirroredStrategy (in-graph replication of model_fn is not provided)",
    "replicate_model_fn": "tf.distribute.MirroredStrategy (in-graph replication of model_fn is not provided)",
    "boosted_trees_classifier_train_in_memory": "the boosted-trees estimators are not provided; see "
                                                "tf.estimator.BoostedTreesClassifier's message",
    "boosted_trees_regressor_train_in_memory": "the boosted-trees estimators are not provided; see "
                                               "tf.estimator.BoostedTreesRegressor's message",
}

_refuse = refusing_getattr("estimator", REFUSED)


def _estimator_api(sub: str = "") -> Any:
    from compat.estimator._forward import api_module
    return api_module(sub)


def forward_features(estimator: Any, keys: str | Sequence[str] | None = None,
                     sparse_default_values: Any = None) -> Any:
    """An Estimator that predicts what ``estimator`` predicts plus the input features ``keys`` (all if None).

    The features are forwarded unchanged (same dtype and shape ``[batch, ...]``)
    into the prediction dict. ``sparse_default_values`` (feature name -> default)
    densifies a ``SparseTensor`` feature as TF 1.15 did.

    Raises:
        TypeError: ``keys`` is neither a string nor a sequence of strings.
        ValueError: a key is missing from the features or clashes with a prediction key.
    """
    if keys is not None and not isinstance(keys, str | list | tuple):
        raise TypeError(f"forward_features: keys must be a string or a list of strings, got {keys!r}")
    wanted = [keys] if isinstance(keys, str) else keys
    api = _estimator_api()

    def model_fn(features: Any, labels: Any, mode: Any, config: Any) -> Any:
        spec = estimator.model_fn(features=features, labels=labels, mode=mode, config=config)
        if mode != api.ModeKeys.PREDICT:
            return spec
        return _with_forwarded(spec, features, wanted, sparse_default_values or {})

    return api.Estimator(model_fn=model_fn, model_dir=estimator.model_dir, config=estimator.config)


def _with_forwarded(spec: Any, features: Any, keys: Sequence[str] | None, defaults: Any) -> Any:
    import tensorflow as tf

    predictions = spec.predictions
    if not isinstance(predictions, dict):
        predictions = {"predictions": predictions}
    names = list(features) if keys is None else list(keys)
    added = {}
    for name in names:
        if name not in features:
            raise ValueError(f"forward_features: key {name!r} is not a feature; features: {sorted(features)}")
        if name in predictions:
            raise ValueError(f"forward_features: key {name!r} is already a prediction key")
        value = features[name]
        if isinstance(value, tf.SparseTensor):
            value = tf.sparse.to_dense(value, default_value=defaults.get(name))
        added[name] = tf.identity(value)
    return spec._replace(predictions={**predictions, **added})


def clip_gradients_by_norm(optimizer: Any, clip_norm: float) -> Any:
    """``optimizer`` with every gradient clipped to global norm ``clip_norm`` before it is applied.

    ``compute_gradients`` returns the clipped ``(gradient, variable)`` pairs
    (``tf.clip_by_global_norm`` over all of them), as TF 1.15's helper did.
    """
    import tensorflow as tf

    class _ClippedOptimizer(type(optimizer)):  # type: ignore[misc]
        def __init__(self) -> None:  # state is the wrapped optimizer's
            self.__dict__.update(optimizer.__dict__)

        def compute_gradients(self, *args: Any, **kwargs: Any) -> Any:
            pairs = optimizer.compute_gradients(*args, **kwargs)
            gradients, variables = zip(*pairs, strict=True) if pairs else ((), ())
            clipped, _ = tf.clip_by_global_norm(list(gradients), clip_norm)
            return list(zip(clipped, variables, strict=True))

    return _ClippedOptimizer()


def export_saved_model_for_mode(estimator: Any, export_dir_base: str, input_receiver_fn: Any,
                                assets_extra: Any = None, as_text: bool = False, checkpoint_path: str | None = None,
                                strip_default_attrs: bool = False, mode: Any = None) -> Any:
    """``estimator.export_saved_model`` for one mode (``tf.estimator.ModeKeys``; PREDICT if None)."""
    del strip_default_attrs  # always stripped by the package's exporter
    return estimator.export_saved_model(export_dir_base, input_receiver_fn, assets_extra=assets_extra,
                                        as_text=as_text, checkpoint_path=checkpoint_path,
                                        experimental_mode=mode or _estimator_api().ModeKeys.PREDICT)


def export_all_saved_models(estimator: Any, export_dir_base: str, input_receiver_fn_map: Any,
                            assets_extra: Any = None, as_text: bool = False, checkpoint_path: str | None = None,
                            strip_default_attrs: bool = False) -> Any:
    """``estimator.experimental_export_all_saved_models``: one SavedModel with a graph per mode of the map."""
    del strip_default_attrs
    return estimator.experimental_export_all_saved_models(export_dir_base, input_receiver_fn_map,
                                                          assets_extra=assets_extra, as_text=as_text,
                                                          checkpoint_path=checkpoint_path)


def __getattr__(name: str) -> Any:
    if name in _FORWARDED:
        sub, attribute = _FORWARDED[name]
        return getattr(_estimator_api(sub), attribute)
    if name in _FROM_PACKAGE:
        _estimator_api()  # supplies what the package needs from TensorFlow first
        module, attribute = _FROM_PACKAGE[name]
        return getattr(importlib.import_module(module), attribute)
    return _refuse(name)
