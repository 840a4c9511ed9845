"""``tf.contrib.learn.Estimator`` of TensorFlow 1.0-1.4 (``fit`` / ``evaluate`` / ``predict``) on ``tf.estimator``.

The contrib Estimator took NumPy arrays (``x``, ``y``) or an ``input_fn``:

* ``fit(x, y, steps, batch_size, monitors, max_steps)``: ``x``/``y`` are batched
  as TF 1.x's ``data_feeder`` batched them (:func:`feeder_batches`: the rows
  permuted by ``RandomState(42)`` each epoch, repeated forever; ``batch_size=None``
  means the whole array), through a generator dataset where TF 1.x fed
  placeholders; float64 arrays enter as float32 and a 1-D ``x`` as a column
  ``[n, 1]``, as the ``data_feeder`` did; ``steps`` trains that
  many more steps, ``max_steps`` up to that global step; ``monitors`` are
  session hooks (:mod:`compat.contrib._learn_monitors`). It returns the Estimator.
* ``evaluate(x, y, ...)``: one pass in order (``steps`` batches at most), the
  metrics by name, plus ``metrics=`` of :class:`MetricSpec`\\ s or metric functions.
* ``predict(x, as_iterable=True)``: one pass; a generator of single examples, or
  with ``as_iterable=False`` the whole result as arrays (a dict of arrays for dict
  predictions).

A ``model_fn`` takes ``(features, labels[, mode][, params][, config])`` by
argument name and returns a :class:`ModelFnOps`, a ``tf.estimator.EstimatorSpec``
or TF 1.0's ``(predictions, loss, train_op)`` tuple. ``features`` is what the
input gave: the tensor of ``x`` itself, or the dict of an ``input_fn``.
The Estimator is a ``tf.estimator.Estimator`` underneath (:attr:`core`), so the
checkpoints, ``graph.pbtxt`` and summaries are that class's.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

import numpy as np

from compat.contrib._feature_columns import infer_real_valued_columns

__all__ = ["Estimator", "Evaluable", "MetricSpec", "ModelFnOps", "SKCompat", "Trainable", "extract_pandas_data",
           "extract_pandas_labels", "extract_pandas_matrix", "infer_real_valued_columns_from_input",
           "infer_real_valued_columns_from_input_fn", "numpy_input_fn"]


def _api(sub: str = "") -> Any:
    from compat.estimator._forward import api_module
    return api_module(sub)


def _v1() -> Any:
    import tensorflow as tf
    return tf.compat.v1


# --------------------------------------------------------------------------
# Arrays in
# --------------------------------------------------------------------------

def _as_array(value: Any) -> Any:
    """A NumPy array as the data feeder saw it: pandas unpacked, float64 -> float32, 1-D -> a column.

    Raises:
        ValueError: an iterator (TF 1.x's streaming feeder), which is not provided.
    """
    if hasattr(value, "__next__"):
        raise ValueError("x/y given as iterators (TF 1.x's StreamingDataFeeder) are not provided by the compat "
                         "runner; pass arrays, or an input_fn (tf.data.Dataset.from_generator)")
    value = extract_pandas_data(value)
    array = np.asarray(value)
    if array.dtype == np.float64:
        array = array.astype(np.float32)
    return array.reshape(-1, 1) if array.ndim == 1 else array


def _take(data: Any, rows: Any) -> Any:
    return {k: v[rows] for k, v in data.items()} if isinstance(data, dict) else data[rows]


def feeder_batches(x: Any, y: Any, batch_size: int, shuffle: bool, epochs: int | None) -> Iterator[Any]:
    """TF 1.x's ``DataFeeder`` batch sequence: ``(x_batch, y_batch)`` (or ``x_batch``) per step.

    The rows come in the order of ``np.random.RandomState(42).permutation`` (a new
    permutation of the same generator each epoch) when ``shuffle``, else in order;
    the last batch of an epoch is shorter; ``epochs=None`` never ends.
    """
    first = next(iter(x.values())) if isinstance(x, dict) else x
    count = len(first)
    random_state = np.random.RandomState(42)
    order = random_state.permutation(count) if shuffle else np.arange(count)
    offset, epoch = 0, 0
    while epochs is None or epoch < epochs:
        rows = order[offset:offset + batch_size]
        yield _take(x, rows) if y is None else (_take(x, rows), _take(y, rows))
        offset += batch_size
        if offset >= count:
            order = random_state.permutation(count) if shuffle else np.arange(count)
            offset, epoch = 0, epoch + 1


def _signature(value: Any) -> Any:
    import tensorflow as tf
    if isinstance(value, dict):
        return {k: _signature(v) for k, v in value.items()}
    return tf.TensorSpec([None, *value.shape[1:]], tf.as_dtype(value.dtype))


def numpy_input_fn(x: Any, y: Any = None, batch_size: int | None = None, shuffle: bool = False,
                   num_epochs: int | None = 1) -> Callable[[], Any]:
    """The input function of ``x`` (an array or a dict of arrays) and ``y``, batched as TF 1.x's ``data_feeder``.

    ``batch_size=None`` is the number of examples (the whole array per step).
    """
    features = {k: _as_array(v) for k, v in x.items()} if isinstance(x, Mapping) else _as_array(x)
    first = next(iter(features.values())) if isinstance(features, dict) else features
    labels = None if y is None else np.asarray(extract_pandas_labels(y))
    if labels is not None and labels.dtype == np.float64:
        labels = labels.astype(np.float32)
    size = int(batch_size or len(first))
    if size <= 0:
        raise ValueError(f"batch_size {batch_size} must be positive")
    if labels is not None and len(labels) != len(first):
        raise ValueError(f"x has {len(first)} examples and y has {len(labels)}; they must match")

    def input_fn() -> Any:
        import tensorflow as tf
        signature = _signature(features) if labels is None else (_signature(features), _signature(labels))
        dataset = tf.data.Dataset.from_generator(
            lambda: feeder_batches(features, labels, size, shuffle, num_epochs), output_signature=signature)
        return tf.compat.v1.data.make_one_shot_iterator(dataset).get_next()
    return input_fn


def _input(x: Any, y: Any, input_fn: Callable[..., Any] | None, batch_size: int | None, shuffle: bool,
           num_epochs: int | None, what: str) -> Callable[..., Any]:
    if (x is None) == (input_fn is None):
        raise ValueError(f"{what}: give either x (and y) or input_fn, not both or neither "
                         f"(x is {'set' if x is not None else 'None'}, input_fn is "
                         f"{'set' if input_fn is not None else 'None'})")
    if input_fn is not None:
        if batch_size is not None:
            raise ValueError(f"{what}: batch_size {batch_size} goes with x; an input_fn makes its own batches")
        return input_fn
    return numpy_input_fn(x, y, batch_size, shuffle=shuffle, num_epochs=num_epochs)


# --------------------------------------------------------------------------
# model_fn results
# --------------------------------------------------------------------------

class ModelFnOps(NamedTuple):
    """``tf.contrib.learn.ModelFnOps``: what a model_fn returned (TF 1.1-1.4); becomes an ``EstimatorSpec``."""

    mode: str
    predictions: Any = None
    loss: Any = None
    train_op: Any = None
    eval_metric_ops: Any = None
    output_alternatives: Any = None
    training_chief_hooks: Any = None
    training_hooks: Any = None
    scaffold: Any = None

    def estimator_spec(self, default_serving_output_alternative_key: str | None = None) -> Any:
        """The ``tf.estimator.EstimatorSpec`` of the same content (``output_alternatives`` dropped)."""
        del default_serving_output_alternative_key
        return _api().EstimatorSpec(mode=self.mode, predictions=self.predictions, loss=self.loss,
                                    train_op=self.train_op, eval_metric_ops=self.eval_metric_ops,
                                    training_chief_hooks=self.training_chief_hooks,
                                    training_hooks=self.training_hooks, scaffold=self.scaffold)


def _spec(result: Any, mode: str, extra_metrics: dict[str, Any] | None) -> Any:
    """An ``EstimatorSpec`` for ``result`` (ModelFnOps, EstimatorSpec or ``(predictions, loss, train_op)``)."""
    core = _api()
    if isinstance(result, ModelFnOps):
        spec = result.estimator_spec()
    elif isinstance(result, core.EstimatorSpec):
        spec = result
    elif isinstance(result, tuple) and len(result) == 3:
        predictions, loss, train_op = result
        if mode == core.ModeKeys.TRAIN and train_op is None:
            raise ValueError("model_fn returned train_op None in TRAIN mode")
        spec = core.EstimatorSpec(mode=mode, predictions=predictions, loss=loss,
                                  train_op=train_op if mode == core.ModeKeys.TRAIN else None)
    else:
        raise ValueError(f"model_fn returned {type(result).__name__}; expected ModelFnOps, EstimatorSpec or "
                         "(predictions, loss, train_op)")
    if mode == core.ModeKeys.EVAL and extra_metrics:
        spec = spec._replace(eval_metric_ops={**(spec.eval_metric_ops or {}), **extra_metrics})
    return spec


class MetricSpec:
    """``tf.contrib.learn.MetricSpec``: a metric function and which prediction/label/weight it gets.

    ``metric_fn`` is called with ``labels=``, ``predictions=`` (and ``weights=``)
    when it names them, else positionally ``(predictions, labels[, weights])``
    (the ``tf.contrib.metrics.streaming_*`` order).
    """

    def __init__(self, metric_fn: Callable[..., Any], prediction_key: str | None = None,
                 label_key: str | None = None, weight_key: str | None = None) -> None:
        self.metric_fn = metric_fn
        self.prediction_key = prediction_key
        self.label_key = label_key
        self.weight_key = weight_key

    @staticmethod
    def _pick(value: Any, key: str | None, what: str) -> Any:
        if isinstance(value, Mapping):
            if key is None:
                if len(value) != 1:
                    raise ValueError(f"MetricSpec: {what} is a dict with keys {sorted(value)}; give {what}_key")
                return next(iter(value.values()))
            return value[key]
        if key is not None:
            raise ValueError(f"MetricSpec: {what}_key {key!r} given but {what} is not a dict")
        return value

    def create_metric_ops(self, inputs: Any, labels: Any, predictions: Any) -> Any:
        """The ``(value, update_op)`` pair of this metric."""
        prediction = self._pick(predictions, self.prediction_key, "prediction")
        label = self._pick(labels, self.label_key, "label")
        weights = None
        if self.weight_key is not None:
            weights = inputs[self.weight_key]
        return _call_metric(self.metric_fn, label, prediction, weights)


def _call_metric(metric_fn: Callable[..., Any], labels: Any, predictions: Any, weights: Any) -> Any:
    try:
        names = set(inspect.signature(metric_fn).parameters)
    except (TypeError, ValueError):
        names = set()
    if {"labels", "predictions"} <= names:
        kwargs = {"labels": labels, "predictions": predictions}
        if weights is not None:
            kwargs["weights"] = weights
        return metric_fn(**kwargs)
    return metric_fn(predictions, labels) if weights is None else metric_fn(predictions, labels, weights)


def _metric_ops(metrics: Mapping[Any, Any] | None, features: Any, labels: Any, predictions: Any) -> dict[str, Any]:
    """``evaluate(metrics=...)``: name (or ``(name, prediction_key)``) -> MetricSpec or metric function."""
    ops: dict[str, Any] = {}
    for key, metric in (metrics or {}).items():
        name, prediction_key = (key if isinstance(key, tuple) else (key, None))
        spec = metric if isinstance(metric, MetricSpec) else MetricSpec(metric, prediction_key=prediction_key)
        ops[name] = spec.create_metric_ops(features, labels, predictions)
    return ops


# --------------------------------------------------------------------------
# Estimator
# --------------------------------------------------------------------------

def _model_fn_arguments(model_fn: Callable[..., Any]) -> set[str]:
    target = model_fn.func if hasattr(model_fn, "func") else model_fn
    return set(inspect.signature(target).parameters)


class Trainable:
    """``tf.contrib.learn.Trainable``: what ``Experiment`` trains (``fit``).

    TF 1.x declared it with ``__metaclass__ = abc.ABCMeta`` and ``fit`` abstract,
    which Python 3 ignores: a subclass without ``fit`` could be instantiated
    under TF 1.x on Python 3, and can here.
    """

    def fit(self, x: Any = None, y: Any = None, input_fn: Callable[..., Any] | None = None,
            steps: int | None = None, batch_size: int | None = None, monitors: Iterable[Any] | None = None,
            max_steps: int | None = None) -> Any:
        """Train on ``x``/``y`` or ``input_fn``; returns ``self``."""
        raise NotImplementedError(f"{type(self).__name__}.fit: a Trainable must define fit")


class Evaluable:
    """``tf.contrib.learn.Evaluable``: what ``Experiment`` evaluates (``evaluate`` and ``model_dir``).

    Not enforced, as :class:`Trainable`.
    """

    @property
    def model_dir(self) -> str:
        """The directory in which the evaluation looks for checkpoints."""
        raise NotImplementedError(f"{type(self).__name__}.model_dir: an Evaluable must define model_dir")

    def evaluate(self, x: Any = None, y: Any = None, input_fn: Callable[..., Any] | None = None,
                 feed_fn: Any = None, batch_size: int | None = None, steps: int | None = None,
                 metrics: Mapping[Any, Any] | None = None, name: str | None = None,
                 checkpoint_path: str | None = None, hooks: Iterable[Any] | None = None) -> dict[str, Any]:
        """The metrics by name."""
        raise NotImplementedError(f"{type(self).__name__}.evaluate: an Evaluable must define evaluate")


class Estimator(Trainable, Evaluable):
    """``tf.contrib.learn.Estimator(model_fn, model_dir, config, params, feature_engineering_fn)``.

    A :class:`Trainable` and :class:`Evaluable`, as TF 1.x's (its ``BaseEstimator`` derived from both).
    """

    def __init__(self, model_fn: Callable[..., Any] | None = None, model_dir: str | None = None, config: Any = None,
                 params: Any = None, feature_engineering_fn: Callable[..., Any] | None = None) -> None:
        if model_fn is None:
            raise ValueError("tf.contrib.learn.Estimator: model_fn must be given")
        arguments = _model_fn_arguments(model_fn)
        if params is not None and "params" not in arguments:
            raise ValueError(f"tf.contrib.learn.Estimator: params given but model_fn takes only {sorted(arguments)}")
        self._model_fn = model_fn
        self._arguments = arguments
        self._feature_engineering_fn = feature_engineering_fn
        self._extra_metrics: Mapping[Any, Any] | None = None
        self._labels_info: tuple[Any, Any] | None = None
        self.params = params
        self.core = _api().Estimator(self._core_model_fn, model_dir=model_dir, config=config, params=params)

    # The model_fn the core Estimator calls.
    def _core_model_fn(self, features: Any, labels: Any, mode: str, params: Any, config: Any) -> Any:
        labels = self._labels_for(labels, mode)
        if self._feature_engineering_fn is not None:
            features, labels = self._feature_engineering_fn(features, labels)
        kwargs: dict[str, Any] = {}
        for name, value in (("mode", mode), ("params", params), ("config", config)):
            if name in self._arguments:
                kwargs[name] = value
        result = self._model_fn(features, labels, **kwargs)
        spec = _spec(result, mode, None)
        extra = None
        if mode == _api().ModeKeys.EVAL and self._extra_metrics:
            extra = _metric_ops(self._extra_metrics, features, labels, spec.predictions)
        return _spec(spec, mode, extra)

    def _labels_for(self, labels: Any, mode: str) -> Any:
        """TF 1.x gave a model_fn in INFER mode an (unfed) placeholder shaped like the labels ``fit`` saw,
        so that label code such as ``tf.one_hot(target, n)`` still builds; training records that signature."""
        import tensorflow as tf
        if labels is not None and mode == _api().ModeKeys.TRAIN and isinstance(labels, tf.Tensor):
            self._labels_info = (labels.dtype, labels.shape)
        if labels is None and mode == _api().ModeKeys.PREDICT and self._labels_info is not None:
            dtype, shape = self._labels_info
            return tf.compat.v1.placeholder(dtype, shape, name="labels")
        return labels

    @property
    def model_dir(self) -> str:
        return str(self.core.model_dir)

    @property
    def config(self) -> Any:
        return self.core.config

    def fit(self, x: Any = None, y: Any = None, input_fn: Callable[..., Any] | None = None, steps: int | None = None,
            batch_size: int | None = None, monitors: Iterable[Any] | None = None,
            max_steps: int | None = None) -> Estimator:
        """Train on ``x``/``y`` (shuffled, repeated) or ``input_fn``; ``steps`` more, or up to ``max_steps``."""
        if steps is not None and max_steps is not None:
            raise ValueError(f"fit: give steps ({steps}) or max_steps ({max_steps}), not both")
        train_input = _input(x, y, input_fn, batch_size, shuffle=True, num_epochs=None, what="fit")
        from compat.contrib import _learn_monitors
        hooks = _learn_monitors.as_hooks(monitors, self)
        self.core.train(train_input, hooks=hooks, steps=steps, max_steps=max_steps)
        return self

    def partial_fit(self, x: Any = None, y: Any = None, input_fn: Callable[..., Any] | None = None, steps: int = 1,
                    batch_size: int | None = None, monitors: Iterable[Any] | None = None) -> Estimator:
        """``fit`` for ``steps`` steps (default 1)."""
        return self.fit(x, y, input_fn, steps=steps, batch_size=batch_size, monitors=monitors)

    def evaluate(self, x: Any = None, y: Any = None, input_fn: Callable[..., Any] | None = None,
                 feed_fn: Any = None, batch_size: int | None = None, steps: int | None = None,
                 metrics: Mapping[Any, Any] | None = None, name: str | None = None,
                 checkpoint_path: str | None = None, hooks: Iterable[Any] | None = None,
                 log_progress: bool = True) -> dict[str, Any]:
        """The metrics of one pass over ``x``/``y`` or ``input_fn`` (``steps`` batches at most)."""
        if feed_fn is not None:
            raise ValueError("evaluate: feed_fn belonged to the removed graph_actions; feed through input_fn")
        del log_progress
        eval_input = _input(x, y, input_fn, batch_size, shuffle=False, num_epochs=1, what="evaluate")
        self._extra_metrics = metrics
        try:
            return dict(self.core.evaluate(eval_input, steps=steps, hooks=list(hooks or []),
                                           checkpoint_path=checkpoint_path, name=name))
        finally:
            self._extra_metrics = None

    def _predictions(self, x: Any, input_fn: Callable[..., Any] | None, batch_size: int | None,
                     outputs: Iterable[str] | None) -> Iterator[Any]:
        predict_input = _input(x, None, input_fn, batch_size, shuffle=False, num_epochs=1, what="predict")
        keys = list(outputs) if outputs is not None else None
        return self.core.predict(predict_input, predict_keys=keys)

    def predict(self, x: Any = None, input_fn: Callable[..., Any] | None = None, batch_size: int | None = None,
                outputs: Iterable[str] | None = None, as_iterable: bool = True,
                iterate_batches: bool = False) -> Any:
        """One prediction per example: a generator, or with ``as_iterable=False`` stacked arrays."""
        del iterate_batches  # single examples are what the scripts of the time consumed
        results = self._predictions(x, input_fn, batch_size, outputs)
        return results if as_iterable else _stack(results)

    def get_variable_names(self) -> list[str]:
        return list(self.core.get_variable_names())

    def get_variable_value(self, name: str) -> Any:
        return self.core.get_variable_value(name)

    def export_savedmodel(self, export_dir_base: str, serving_input_fn: Callable[[], Any], **kwargs: Any) -> Any:
        """``tf.estimator.Estimator.export_saved_model`` (the contrib ``InputFnOps`` form is not provided)."""
        kwargs.pop("default_output_alternative_key", None)
        return self.core.export_saved_model(export_dir_base, serving_input_fn, **kwargs)


def _stack(results: Iterable[Any]) -> Any:
    """All predictions at once: a dict of arrays, or one array."""
    items = list(results)
    if items and isinstance(items[0], Mapping):
        return {key: np.stack([item[key] for item in items]) for key in items[0]}
    return np.asarray(items)


class SKCompat:
    """``tf.contrib.learn.SKCompat(estimator)``: scikit-learn style ``fit`` / ``score`` / ``predict``.

    ``predict`` returns all predictions at once (a dict of arrays for dict predictions).
    """

    def __init__(self, estimator: Any) -> None:
        self._estimator = estimator

    def fit(self, x: Any, y: Any, batch_size: int = 128, steps: int | None = None, max_steps: int | None = None,
            monitors: Iterable[Any] | None = None) -> SKCompat:
        self._estimator.fit(x=x, y=y, batch_size=batch_size, steps=steps, max_steps=max_steps, monitors=monitors)
        return self

    def score(self, x: Any, y: Any, batch_size: int = 128, steps: int | None = None,
              metrics: Mapping[Any, Any] | None = None, name: str | None = None) -> dict[str, Any]:
        return self._estimator.evaluate(x=x, y=y, batch_size=batch_size, steps=steps, metrics=metrics, name=name)

    def predict(self, x: Any, batch_size: int = 128, outputs: Iterable[str] | None = None) -> Any:
        target = getattr(self._estimator, "_raw", self._estimator)
        return _stack(target._predictions(x, None, batch_size, outputs))


# --------------------------------------------------------------------------
# Columns from data, pandas
# --------------------------------------------------------------------------

def infer_real_valued_columns_from_input_fn(input_fn: Callable[[], Any]) -> list[Any]:
    """Real-valued columns for the features ``input_fn`` gives (built in a scratch graph)."""
    import tensorflow as tf
    with tf.Graph().as_default():
        result = input_fn()
        return infer_real_valued_columns(result[0] if isinstance(result, tuple) else result)


def infer_real_valued_columns_from_input(x: Any) -> list[Any]:
    """Real-valued columns for an array ``x`` (one column named ``""`` of its row width, float32) or a dict."""
    import tensorflow as tf
    with tf.Graph().as_default():
        if isinstance(x, Mapping):
            return infer_real_valued_columns({k: tf.constant(_as_array(v)[:1]) for k, v in x.items()})
        return infer_real_valued_columns(tf.constant(_as_array(x)[:1]))


_PANDAS_DTYPES = {"int8": "int", "int16": "int", "int32": "int", "int64": "int", "uint8": "int", "uint16": "int",
                  "uint32": "int", "uint64": "int", "float16": "float", "float32": "float", "float64": "float",
                  "bool": "i"}


def _is_pandas(value: Any) -> bool:
    return type(value).__module__.startswith("pandas")


def _check_numeric(frame: Any, what: str) -> None:
    bad = [f"{col} ({dtype})" for col, dtype in frame.dtypes.items() if str(dtype) not in _PANDAS_DTYPES]
    if bad:
        raise ValueError(f"{what}: columns must be int, float or bool; these are not: {', '.join(bad)}")


def extract_pandas_data(data: Any) -> Any:
    """A DataFrame's values (int, float or bool columns only); anything else unchanged."""
    if not _is_pandas(data) or not hasattr(data, "columns"):
        return data
    _check_numeric(data, "extract_pandas_data")
    return data.values


def extract_pandas_matrix(data: Any) -> Any:
    """A DataFrame's ``.values`` (any dtypes); anything else unchanged."""
    return data.values if _is_pandas(data) and hasattr(data, "columns") else data


def extract_pandas_labels(labels: Any) -> Any:
    """A one-column DataFrame's (or a Series') numeric values; anything else unchanged.

    Raises:
        ValueError: a DataFrame with several columns, or non-numeric labels.
    """
    if not _is_pandas(labels):
        return labels
    if hasattr(labels, "columns"):
        if len(labels.columns) > 1:
            raise ValueError(f"extract_pandas_labels: only one column of labels is supported, got "
                             f"{list(labels.columns)}")
        _check_numeric(labels, "extract_pandas_labels")
    return labels.values
