"""``tf.contrib.learn``'s canned models of TensorFlow 1.0-1.4: DNN, linear and combined classifiers and regressors.

Each is a :class:`compat.contrib._learn_estimators.Estimator` whose model_fn
builds what TF 1.x's ``estimators/dnn.py``, ``linear.py`` and
``dnn_linear_combined.py`` built, under the same variable names, so that their
checkpoints restore:

* DNN: ``dnn/hiddenlayer_<i>/weights`` and ``/biases`` (Glorot-uniform and zero
  initialised, ``activation_fn`` default ReLU, ``dropout`` as the drop
  probability in training), ``dnn/logits/weights`` and ``/biases``; the dense
  input comes from the feature columns under ``dnn/input_from_feature_columns``;
  default optimizer Adagrad, learning rate 0.05;
* linear: per column in name order, ``linear/<column>/weight`` (``[width, units]``,
  dense columns) or ``linear/<column>/weights`` (``[buckets, units]``, categorical
  columns summed with the column's combiner), then ``linear/bias_weight``; all
  zero-initialised; default optimizer FTRL with learning rate
  ``min(0.2, 1 / sqrt(number of columns))``;
* combined: the sum of both logits, each part trained by its own optimizer.

Heads: a classifier with ``n_classes=2`` has one logit (sigmoid cross-entropy),
else ``n_classes`` (softmax cross-entropy); predictions ``classes``,
``probabilities``, ``logits`` (and ``logistic`` for two classes); evaluation adds ``accuracy`` (and ``auc`` for two
classes). A regressor predicts ``scores`` with the mean squared error as loss.
The training loss is the (weighted) mean over the batch, as TF 1.x's heads.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from compat.contrib._learn_estimators import Estimator

__all__ = ["DNNClassifier", "DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor", "DNNRegressor",
           "LinearClassifier", "LinearRegressor"]

_DNN_LEARNING_RATE = 0.05
_LINEAR_LEARNING_RATE = 0.2


def _tf() -> Any:
    import tensorflow as tf
    return tf


def _features(features: Any) -> dict[str, Any]:
    """An array input's single tensor is the feature named ``""`` (TF 1.x's inferred column)."""
    return dict(features) if isinstance(features, Mapping) else {"": features}


def _column_list(columns: Any) -> list[Any]:
    return list(columns.values()) if isinstance(columns, Mapping) else list(columns or [])


def _optimizer(optimizer: Any, default: str, learning_rate: float) -> Any:
    """An optimizer instance from a name (``'Adagrad'``, ``'Adam'``, ``'Ftrl'``, ``'RMSProp'``, ``'SGD'``: with
    ``learning_rate``), a class or callable (called with no arguments), or an instance; None gives ``default``."""
    train = _tf().compat.v1.train
    classes = {"Adagrad": train.AdagradOptimizer, "Adam": train.AdamOptimizer, "Ftrl": train.FtrlOptimizer,
               "RMSProp": train.RMSPropOptimizer, "SGD": train.GradientDescentOptimizer}
    optimizer = default if optimizer is None else optimizer
    if isinstance(optimizer, str):
        if optimizer not in classes:
            raise ValueError(f"optimizer {optimizer!r} is not one of {sorted(classes)}")
        return classes[optimizer](learning_rate=learning_rate)
    if isinstance(optimizer, type) or (callable(optimizer) and not hasattr(optimizer, "minimize")):
        return optimizer()  # TF 1.x called a class or factory with no arguments
    return optimizer


def _dense(net: Any, units: int, activation: Callable[[Any], Any] | None) -> Any:
    """``contrib.layers.fully_connected``'s variables: ``weights`` (Glorot uniform) and ``biases`` (zeros)."""
    v1 = _tf().compat.v1
    weights = v1.get_variable("weights", [int(net.shape[-1]), units], initializer=v1.glorot_uniform_initializer())
    biases = v1.get_variable("biases", [units], initializer=v1.zeros_initializer())
    out = v1.nn.bias_add(v1.matmul(net, weights), biases)
    return activation(out) if activation is not None else out


def _dnn_logits(features: dict[str, Any], columns: list[Any], hidden_units: Sequence[int],
                activation_fn: Callable[[Any], Any], dropout: float | None, training: bool, units: int) -> Any:
    tf = _tf()
    v1 = tf.compat.v1
    with v1.variable_scope("dnn"):
        with v1.variable_scope("input_from_feature_columns"):
            net = v1.feature_column.input_layer(features, columns)
        for index, width in enumerate(hidden_units):
            with v1.variable_scope(f"hiddenlayer_{index}"):
                net = _dense(net, width, activation_fn)
                if dropout is not None and training:
                    net = tf.nn.dropout(net, rate=dropout)
        with v1.variable_scope("logits"):
            return _dense(net, units, None)


def _linear_logits(features: dict[str, Any], columns: list[Any], units: int) -> Any:
    tf = _tf()
    v1 = tf.compat.v1
    from tensorflow.python.feature_column import feature_column as fc_v1

    from compat.contrib import _feature_columns
    builder = fc_v1._LazyBuilder(features)
    parts = []
    with v1.variable_scope("linear"):
        for column in sorted(columns, key=lambda c: c.name):
            with v1.variable_scope(None, default_name=column.name):
                if hasattr(column, "_num_buckets"):  # categorical (bucketized too, as TF 1.x's linear model)
                    pair = column._get_sparse_tensors(builder)
                    weights = v1.get_variable("weights", [column._num_buckets, units],
                                              initializer=v1.zeros_initializer())
                    combiner = _feature_columns._SPARSE_COMBINERS.get(column, "sum")
                    parts.append(v1.nn.safe_embedding_lookup_sparse(weights, pair.id_tensor, pair.weight_tensor,
                                                                    combiner=combiner))
                else:
                    dense = column._get_dense_tensor(builder)
                    width = int(column._variable_shape.num_elements())
                    weight = v1.get_variable("weight", [width, units], initializer=v1.zeros_initializer())
                    parts.append(v1.matmul(tf.reshape(tf.cast(dense, tf.float32), [-1, width]), weight))
        bias = v1.get_variable("bias_weight", [units], initializer=v1.zeros_initializer())
        return v1.nn.bias_add(tf.add_n(parts), bias)


class _Head:
    """Predictions, loss and metrics of a classifier (``n_classes``) or a regressor (``label_dimension``)."""

    def __init__(self, n_classes: int | None, label_dimension: int = 1, weight_column_name: str | None = None):
        if n_classes is not None and n_classes < 2:
            raise ValueError(f"n_classes {n_classes} must be at least 2")
        self.n_classes = n_classes
        self.label_dimension = label_dimension
        self.weight_column_name = weight_column_name

    @property
    def units(self) -> int:
        if self.n_classes is None:
            return self.label_dimension
        return 1 if self.n_classes == 2 else self.n_classes

    def predictions(self, logits: Any) -> dict[str, Any]:
        tf = _tf()
        if self.n_classes is None:
            scores = tf.squeeze(logits, axis=1) if self.label_dimension == 1 else logits
            return {"scores": scores}
        if self.n_classes == 2:  # one logit; TF 1.x's binary head also gave the sigmoid as "logistic"
            positive = tf.sigmoid(logits)
            two = tf.concat([tf.zeros_like(logits), logits], axis=1)
            return {"classes": tf.argmax(two, axis=1), "probabilities": tf.nn.softmax(two), "logits": logits,
                    "logistic": positive}
        return {"classes": tf.argmax(logits, axis=1), "probabilities": tf.nn.softmax(logits), "logits": logits}

    def _weights(self, features: dict[str, Any]) -> Any:
        tf = _tf()
        if self.weight_column_name is None:
            return None
        return tf.reshape(tf.cast(features[self.weight_column_name], tf.float32), [-1])

    def loss(self, logits: Any, labels: Any, features: dict[str, Any]) -> Any:
        """The (weighted) mean per-example loss of the batch."""
        tf = _tf()
        if self.n_classes is None:
            labels = tf.reshape(tf.cast(labels, tf.float32), [-1, self.label_dimension])
            per_example = tf.reduce_sum(tf.square(logits - labels), axis=1)
        elif self.n_classes == 2:
            labels = tf.reshape(tf.cast(labels, tf.float32), [-1, 1])
            per_example = tf.reshape(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits), [-1])
        else:
            labels = tf.reshape(tf.cast(labels, tf.int64), [-1])
            per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        weights = self._weights(features)
        if weights is None:
            return tf.reduce_mean(per_example)
        return tf.math.divide_no_nan(tf.reduce_sum(per_example * weights), tf.reduce_sum(weights))

    def metrics(self, predictions: dict[str, Any], labels: Any, features: dict[str, Any]) -> dict[str, Any]:
        tf = _tf()
        if self.n_classes is None:
            return {}
        metrics = tf.compat.v1.metrics
        flat = tf.reshape(tf.cast(labels, tf.int64), [-1])
        weights = self._weights(features)
        ops = {"accuracy": metrics.accuracy(flat, predictions["classes"], weights=weights)}
        if self.n_classes == 2:
            ops["auc"] = metrics.auc(flat, predictions["probabilities"][:, 1], weights=weights)
        return ops


def _train_op(loss: Any, parts: list[tuple[Any, str, float | None]]) -> Any:
    """Minimise ``loss`` with one optimizer per variable scope; the global step advances once."""
    tf = _tf()
    v1 = tf.compat.v1
    updates = []
    for optimizer, scope, clip_norm in parts:
        variables = v1.get_collection(v1.GraphKeys.TRAINABLE_VARIABLES, scope=scope)
        grads_and_vars = [(g, v) for g, v in optimizer.compute_gradients(loss, variables) if g is not None]
        if clip_norm is not None:
            grads, variables_ = zip(*grads_and_vars)
            grads, _ = tf.clip_by_global_norm(list(grads), clip_norm)
            grads_and_vars = list(zip(grads, variables_))
        updates.append(optimizer.apply_gradients(grads_and_vars))
    with tf.control_dependencies(updates):
        return v1.assign_add(v1.train.get_global_step(), 1).op


class _Canned(Estimator):
    """A contrib.learn canned model: linear and/or DNN logits under a :class:`_Head`."""

    def __init__(self, head: _Head, model_dir: str | None, config: Any, feature_engineering_fn: Any,
                 linear: tuple[list[Any], Any] | None, dnn: tuple[list[Any], Any, Sequence[int], Any, Any] | None,
                 gradient_clip_norm: float | None) -> None:
        if linear is None and dnn is None:
            raise ValueError("give feature columns: linear_feature_columns and/or dnn_feature_columns")
        self._head = head
        self._linear = linear
        self._dnn = dnn
        self._clip = gradient_clip_norm
        super().__init__(model_fn=self._canned_model_fn, model_dir=model_dir, config=config,
                         feature_engineering_fn=feature_engineering_fn)

    def _canned_model_fn(self, features: Any, labels: Any, mode: str) -> Any:
        core = _api()
        features = _features(features)
        training = mode == core.ModeKeys.TRAIN
        logits = []
        parts = []
        if self._dnn is not None:
            columns, optimizer, hidden, activation, dropout = self._dnn
            logits.append(_dnn_logits(features, columns, hidden, activation, dropout, training, self._head.units))
            parts.append((optimizer, "dnn", self._clip))
        if self._linear is not None:
            columns, optimizer = self._linear
            logits.append(_linear_logits(features, columns, self._head.units))
            parts.append((optimizer, "linear", self._clip))
        total = logits[0] if len(logits) == 1 else _tf().add_n(logits)
        predictions = self._head.predictions(total)
        if mode == core.ModeKeys.PREDICT:
            return core.EstimatorSpec(mode, predictions=predictions)
        loss = self._head.loss(total, labels, features)
        if mode == core.ModeKeys.EVAL:
            return core.EstimatorSpec(mode, predictions=predictions, loss=loss,
                                      eval_metric_ops=self._head.metrics(predictions, labels, features))
        built = [(_optimizer(opt, default, rate), scope, clip) for (opt, scope, clip), (default, rate)
                 in zip(parts, self._defaults())]
        return core.EstimatorSpec(mode, predictions=predictions, loss=loss, train_op=_train_op(loss, built))

    def _defaults(self) -> list[tuple[str, float]]:
        defaults = []
        if self._dnn is not None:
            defaults.append(("Adagrad", _DNN_LEARNING_RATE))
        if self._linear is not None:
            defaults.append(("Ftrl", min(_LINEAR_LEARNING_RATE, 1.0 / math.sqrt(max(1, len(self._linear[0]))))))
        return defaults

    # The prediction forms of TF 1.0-1.4.
    def predict(self, x: Any = None, input_fn: Any = None, batch_size: int | None = None,
                outputs: Iterable[str] | None = None, as_iterable: bool = True, iterate_batches: bool = False) -> Any:
        """Classes (classifier) or scores (regressor) per example; with ``outputs``, dicts of those keys."""
        if outputs is not None:
            return super().predict(x, input_fn, batch_size, outputs, as_iterable)
        key = "scores" if self._head.n_classes is None else "classes"
        return self._predict_key(key, x, input_fn, batch_size, as_iterable)

    def _predict_key(self, key: str, x: Any, input_fn: Any, batch_size: int | None, as_iterable: bool) -> Any:
        import numpy as np
        values = (p[key] for p in self._predictions(x, input_fn, batch_size, [key]))
        return values if as_iterable else np.asarray(list(values))

    def predict_classes(self, x: Any = None, input_fn: Any = None, batch_size: int | None = None,
                        as_iterable: bool = True) -> Any:
        return self._predict_key("classes", x, input_fn, batch_size, as_iterable)

    def predict_proba(self, x: Any = None, input_fn: Any = None, batch_size: int | None = None,
                      as_iterable: bool = True) -> Any:
        return self._predict_key("probabilities", x, input_fn, batch_size, as_iterable)

    def predict_scores(self, x: Any = None, input_fn: Any = None, batch_size: int | None = None,
                       as_iterable: bool = True) -> Any:
        return self._predict_key("scores", x, input_fn, batch_size, as_iterable)


def _api(sub: str = "") -> Any:
    from compat.estimator._forward import api_module
    return api_module(sub)


def _no_label_keys(label_keys: Any, name: str) -> None:
    if label_keys is not None:
        raise ValueError(f"{name}(label_keys={label_keys!r}): string labels are not provided; map the labels to "
                         "0..n_classes-1 first (tf.estimator.DNNClassifier(label_vocabulary=...) does it)")


class DNNClassifier(_Canned):
    """``tf.contrib.learn.DNNClassifier``."""

    def __init__(self, hidden_units: Sequence[int], feature_columns: Any, model_dir: str | None = None,
                 n_classes: int = 2, weight_column_name: str | None = None, optimizer: Any = None,
                 activation_fn: Any = None, dropout: float | None = None, gradient_clip_norm: float | None = None,
                 enable_centered_bias: bool = False, config: Any = None, feature_engineering_fn: Any = None,
                 embedding_lr_multipliers: Any = None, input_layer_min_slice_size: Any = None,
                 label_keys: Any = None) -> None:
        del enable_centered_bias, embedding_lr_multipliers, input_layer_min_slice_size
        _no_label_keys(label_keys, "DNNClassifier")
        dnn = (_column_list(feature_columns), optimizer, list(hidden_units), activation_fn or _tf().nn.relu, dropout)
        super().__init__(_Head(n_classes, weight_column_name=weight_column_name), model_dir, config,
                         feature_engineering_fn, None, dnn, gradient_clip_norm)


class DNNRegressor(_Canned):
    """``tf.contrib.learn.DNNRegressor``."""

    def __init__(self, hidden_units: Sequence[int], feature_columns: Any, model_dir: str | None = None,
                 weight_column_name: str | None = None, optimizer: Any = None, activation_fn: Any = None,
                 dropout: float | None = None, gradient_clip_norm: float | None = None,
                 enable_centered_bias: bool = False, config: Any = None, feature_engineering_fn: Any = None,
                 label_dimension: int = 1, embedding_lr_multipliers: Any = None,
                 input_layer_min_slice_size: Any = None) -> None:
        del enable_centered_bias, embedding_lr_multipliers, input_layer_min_slice_size
        dnn = (_column_list(feature_columns), optimizer, list(hidden_units), activation_fn or _tf().nn.relu, dropout)
        super().__init__(_Head(None, label_dimension, weight_column_name), model_dir, config, feature_engineering_fn,
                         None, dnn, gradient_clip_norm)


class LinearClassifier(_Canned):
    """``tf.contrib.learn.LinearClassifier``."""

    def __init__(self, feature_columns: Any, model_dir: str | None = None, n_classes: int = 2,
                 weight_column_name: str | None = None, optimizer: Any = None, gradient_clip_norm: float | None = None,
                 enable_centered_bias: bool = False, _joint_weight: bool = False, config: Any = None,
                 feature_engineering_fn: Any = None, label_keys: Any = None) -> None:
        del enable_centered_bias, _joint_weight
        _no_label_keys(label_keys, "LinearClassifier")
        super().__init__(_Head(n_classes, weight_column_name=weight_column_name), model_dir, config,
                         feature_engineering_fn, (_column_list(feature_columns), optimizer), None, gradient_clip_norm)


class LinearRegressor(_Canned):
    """``tf.contrib.learn.LinearRegressor``."""

    def __init__(self, feature_columns: Any, model_dir: str | None = None, weight_column_name: str | None = None,
                 optimizer: Any = None, gradient_clip_norm: float | None = None, enable_centered_bias: bool = False,
                 label_dimension: int = 1, _joint_weights: bool = False, config: Any = None,
                 feature_engineering_fn: Any = None) -> None:
        del enable_centered_bias, _joint_weights
        super().__init__(_Head(None, label_dimension, weight_column_name), model_dir, config, feature_engineering_fn,
                         (_column_list(feature_columns), optimizer), None, gradient_clip_norm)


def _combined(linear_feature_columns: Any, linear_optimizer: Any, dnn_feature_columns: Any, dnn_optimizer: Any,
              dnn_hidden_units: Any, dnn_activation_fn: Any, dnn_dropout: Any) -> tuple[Any, Any]:
    linear = (_column_list(linear_feature_columns), linear_optimizer) if linear_feature_columns else None
    dnn = None
    if dnn_feature_columns:
        if not dnn_hidden_units:
            raise ValueError("dnn_hidden_units must be given with dnn_feature_columns")
        dnn = (_column_list(dnn_feature_columns), dnn_optimizer, list(dnn_hidden_units),
               dnn_activation_fn or _tf().nn.relu, dnn_dropout)
    return linear, dnn


class DNNLinearCombinedClassifier(_Canned):
    """``tf.contrib.learn.DNNLinearCombinedClassifier`` (wide and deep)."""

    def __init__(self, model_dir: str | None = None, n_classes: int = 2, weight_column_name: str | None = None,
                 linear_feature_columns: Any = None, linear_optimizer: Any = None, _joint_linear_weights: bool = False,
                 dnn_feature_columns: Any = None, dnn_optimizer: Any = None, dnn_hidden_units: Any = None,
                 dnn_activation_fn: Any = None, dnn_dropout: float | None = None,
                 gradient_clip_norm: float | None = None, enable_centered_bias: bool = False, config: Any = None,
                 feature_engineering_fn: Any = None, embedding_lr_multipliers: Any = None,
                 input_layer_min_slice_size: Any = None, label_keys: Any = None,
                 fix_global_step_increment_bug: bool = False) -> None:
        del _joint_linear_weights, enable_centered_bias, embedding_lr_multipliers, input_layer_min_slice_size
        del fix_global_step_increment_bug  # the global step advances once per step here
        _no_label_keys(label_keys, "DNNLinearCombinedClassifier")
        linear, dnn = _combined(linear_feature_columns, linear_optimizer, dnn_feature_columns, dnn_optimizer,
                                dnn_hidden_units, dnn_activation_fn, dnn_dropout)
        super().__init__(_Head(n_classes, weight_column_name=weight_column_name), model_dir, config,
                         feature_engineering_fn, linear, dnn, gradient_clip_norm)


class DNNLinearCombinedRegressor(_Canned):
    """``tf.contrib.learn.DNNLinearCombinedRegressor``."""

    def __init__(self, model_dir: str | None = None, weight_column_name: str | None = None,
                 linear_feature_columns: Any = None, linear_optimizer: Any = None, _joint_linear_weights: bool = False,
                 dnn_feature_columns: Any = None, dnn_optimizer: Any = None, dnn_hidden_units: Any = None,
                 dnn_activation_fn: Any = None, dnn_dropout: float | None = None,
                 gradient_clip_norm: float | None = None, enable_centered_bias: bool = False,
                 label_dimension: int = 1, config: Any = None, feature_engineering_fn: Any = None,
                 embedding_lr_multipliers: Any = None, input_layer_min_slice_size: Any = None,
                 fix_global_step_increment_bug: bool = False) -> None:
        del _joint_linear_weights, enable_centered_bias, embedding_lr_multipliers, input_layer_min_slice_size
        del fix_global_step_increment_bug
        linear, dnn = _combined(linear_feature_columns, linear_optimizer, dnn_feature_columns, dnn_optimizer,
                                dnn_hidden_units, dnn_activation_fn, dnn_dropout)
        super().__init__(_Head(None, label_dimension, weight_column_name), model_dir, config, feature_engineering_fn,
                         linear, dnn, gradient_clip_norm)
