"""The ``tf.contrib.learn`` names of TF 1.0-1.4's high-level API, looked up for :mod:`compat.contrib.learn`.

The readers come from :mod:`tf1_pipelines.inputs.learn_readers`, the Estimator
and its helpers from :mod:`compat.contrib._learn_estimators`, the canned models
from :mod:`compat.contrib._learn_canned`, ``monitors`` from
:mod:`compat.contrib._learn_monitors`; ``io`` is built here. Each is imported on
first use (importing this module imports nothing heavy).
"""
from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from compat.errors import LegacyAPIError

__all__ = ["CANNED", "ESTIMATOR_NAMES", "GRAPH_ACTIONS", "NAMES", "OWN", "READERS", "InputFnOps", "NotFittedError",
           "PredictionKey", "ProblemType", "build_parsing_serving_input_fn", "extract_dask_data",
           "extract_dask_labels", "served"]

#: TF 1.0-1.2's queue readers (``learn_io.graph_io``), served from :mod:`tf1_pipelines.inputs.learn_readers`.
READERS = ("read_batch_examples", "read_batch_features", "read_batch_record_features", "read_keyed_batch_examples",
           "read_keyed_batch_examples_shared_queue", "read_keyed_batch_features",
           "read_keyed_batch_features_shared_queue", "queue_parsed_features")

#: The Estimator of TF 1.0-1.4 and its helpers (:mod:`compat.contrib._learn_estimators`).
ESTIMATOR_NAMES = ("Estimator", "SKCompat", "ModelFnOps", "MetricSpec", "infer_real_valued_columns_from_input",
                   "infer_real_valued_columns_from_input_fn", "extract_pandas_data", "extract_pandas_labels",
                   "extract_pandas_matrix", "Trainable", "Evaluable")

#: TF 1.x's ``graph_actions`` (:mod:`compat.contrib._learn_graph_actions`).
GRAPH_ACTIONS = ("run_n", "run_feeds", "infer", "no_op_train_fn")

#: The canned models (:mod:`compat.contrib._learn_canned`).
CANNED = ("DNNClassifier", "DNNRegressor", "LinearClassifier", "LinearRegressor", "DNNLinearCombinedClassifier",
          "DNNLinearCombinedRegressor")

#: The names :func:`served` gives.
#: The names defined in this module.
OWN = ("PredictionKey", "NotFittedError", "ProblemType", "InputFnOps", "build_parsing_serving_input_fn",
       "extract_dask_data", "extract_dask_labels")

#: The names :func:`served` gives.
NAMES = frozenset({"monitors", "io", "graph_actions", "KMeansClustering", *OWN, *READERS, *ESTIMATOR_NAMES, *CANNED,
                   *GRAPH_ACTIONS})


class PredictionKey:
    """``tf.contrib.learn.PredictionKey``: the keys of the canned models' prediction dicts."""

    CLASSES = "classes"
    PROBABILITIES = "probabilities"
    LOGITS = "logits"
    LOGISTIC = "logistic"
    SCORES = "scores"
    TOP_K = "top_k"
    GENERIC = "output"


class NotFittedError(ValueError, AttributeError):
    """``tf.contrib.learn.NotFittedError``: an Estimator used before it was fitted."""


class ProblemType:
    """``tf.contrib.learn.ProblemType`` (also ``tf.contrib.slim.ProblemType``): TF 1.x's problem kinds."""

    UNSPECIFIED = 0
    CLASSIFICATION = 1
    LINEAR_REGRESSION = 2
    LOGISTIC_REGRESSION = 3


class InputFnOps(NamedTuple):
    """``tf.contrib.learn.InputFnOps``: what a serving ``input_fn`` returns.

    ``features`` and ``labels``: dicts of name -> tensor (``labels`` None at serving);
    ``default_inputs``: the placeholders the ``input_fn`` expects to be fed, by name.
    """

    features: Any
    labels: Any
    default_inputs: Any


def build_parsing_serving_input_fn(feature_spec: Mapping[str, Any],
                                   default_batch_size: int | None = None) -> Callable[[], InputFnOps]:
    """A serving ``input_fn`` parsing serialized ``tf.Example`` records fed to a string placeholder.

    The ``input_fn`` makes the placeholder ``input_example_tensor`` (tf.string,
    shape ``[default_batch_size]``; None: any batch size), parses it with
    ``tf.parse_example(feature_spec)`` and returns
    ``InputFnOps(features, None, {'examples': placeholder})``.
    """
    def input_fn() -> InputFnOps:
        import tensorflow as tf
        v1 = tf.compat.v1
        examples = v1.placeholder(tf.string, shape=[default_batch_size], name="input_example_tensor")
        features = v1.parse_example(examples, dict(feature_spec))
        return InputFnOps(features, None, {"examples": examples})
    return input_fn


def _is_dask(value: Any) -> bool:
    """True for a dask DataFrame or Series (checked by module: dask is not imported)."""
    kind = type(value)
    return kind.__module__.startswith("dask.") and kind.__name__ in ("DataFrame", "Series")


def _refuse_dask(function: str, value: Any) -> LegacyAPIError:
    return LegacyAPIError(f"tf.contrib.learn.{function}: a dask {type(value).__name__} is not provided by the "
                          "compat runner (the contrib Estimator has no dask feeder); call .compute() for a "
                          "pandas object and pass that, or feed tf.data")


def extract_dask_data(data: Any) -> Any:
    """``data`` unchanged, as TF 1.x returned anything that is not a dask DataFrame or Series.

    Raises:
        LegacyAPIError: ``data`` is a dask DataFrame or Series.
    """
    if _is_dask(data):
        raise _refuse_dask("extract_dask_data", data)
    return data


def extract_dask_labels(labels: Any) -> Any:
    """``labels`` unchanged unless a dask DataFrame or Series (see :func:`extract_dask_data`)."""
    if _is_dask(labels):
        raise _refuse_dask("extract_dask_labels", labels)
    return labels


def _monitors_module() -> types.ModuleType:
    from compat.contrib import _learn_monitors
    module = types.ModuleType("tensorflow.contrib.learn.python.learn.monitors",
                              "tf.contrib.learn.monitors: the monitors as tf.estimator session hooks.")
    module.__dict__.update({name: getattr(_learn_monitors, name) for name in _learn_monitors.__all__})
    return module


def _io_module() -> types.ModuleType:
    from compat.contrib import _learn_estimators
    from compat.estimator._forward import api_module
    from tf1_pipelines.inputs import learn_readers
    inputs = api_module("inputs")
    module = types.ModuleType("tensorflow.contrib.learn.python.learn.learn_io",
                              "tf.contrib.learn.io: the queue readers, numpy/pandas input functions, pandas helpers.")
    module.__dict__.update({name: getattr(learn_readers, name) for name in READERS})
    module.__dict__.update(numpy_input_fn=inputs.numpy_input_fn, pandas_input_fn=inputs.pandas_input_fn,
                           HAS_PANDAS=True, HAS_DASK=False, extract_dask_data=extract_dask_data,
                           extract_dask_labels=extract_dask_labels,
                           **{name: getattr(_learn_estimators, name) for name in ESTIMATOR_NAMES
                              if name.startswith("extract_pandas")})
    return module


def _graph_actions_module() -> types.ModuleType:
    """``tf.contrib.learn.graph_actions``: its session runners; its training and evaluation loops refused."""
    from compat.contrib import _learn_graph_actions, refusing_getattr
    module = types.ModuleType("tensorflow.contrib.learn.python.learn.graph_actions",
                              "tf.contrib.learn.graph_actions: run_n, run_feeds, run_feeds_iter, infer.")
    module.__dict__.update({name: getattr(_learn_graph_actions, name)
                            for name in ("run_n", "run_feeds", "run_feeds_iter", "infer")})
    loop = "tf.estimator.Estimator.{} (or tf.compat.v1.train.MonitoredTrainingSession)"
    module.__getattr__ = refusing_getattr(  # type: ignore[method-assign]
        "learn.graph_actions", {"train": loop.format("train"), "evaluate": loop.format("evaluate")})
    return module


_BUILDERS = {"monitors": _monitors_module, "io": _io_module, "graph_actions": _graph_actions_module}
_BUILT: dict[str, types.ModuleType] = {}


def served(name: str) -> Any:
    """The object ``tf.contrib.learn.<name>`` for a name of :data:`NAMES`.

    Raises:
        KeyError: ``name`` is not one of them.
    """
    if name in READERS:
        from tf1_pipelines.inputs import learn_readers
        return getattr(learn_readers, name)
    if name in ESTIMATOR_NAMES:
        from compat.contrib import _learn_estimators
        return getattr(_learn_estimators, name)
    if name in CANNED:
        from compat.contrib import _learn_canned
        return getattr(_learn_canned, name)
    if name in _BUILDERS:
        if name not in _BUILT:
            _BUILT[name] = _BUILDERS[name]()
        return _BUILT[name]
    if name in GRAPH_ACTIONS:
        from compat.contrib import _learn_graph_actions
        return getattr(_learn_graph_actions, name)
    if name == "KMeansClustering":  # the Estimator needs compat.estimator's supplied gaps first
        from compat.estimator._forward import api_module
        return api_module("experimental").KMeans
    if name in OWN:
        return globals()[name]
    raise KeyError(name)
