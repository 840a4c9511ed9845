"""The ``tf.contrib.learn`` names of TF 1.0-1.4's high-level API, looked up for :mod:`compat.contrib.learn`.

The readers come from :mod:`tf1_pipelines.inputs.learn_readers`, the Estimator
and its helpers from :mod:`compat.contrib._learn_estimators`, the canned models
from :mod:`compat.contrib._learn_canned`, ``monitors`` from
:mod:`compat.contrib._learn_monitors`; ``io`` is built here. Each is imported on
first use (importing this module imports nothing heavy).
"""
from __future__ import annotations

import types
from typing import Any

__all__ = ["CANNED", "ESTIMATOR_NAMES", "NAMES", "READERS", "NotFittedError", "PredictionKey", "served"]

#: TF 1.0-1.2's queue readers (``learn_io.graph_io``), served from :mod:`tf1_pipelines.inputs.learn_readers`.
READERS = ("read_batch_examples", "read_batch_features", "read_batch_record_features", "read_keyed_batch_examples",
           "read_keyed_batch_examples_shared_queue", "read_keyed_batch_features",
           "read_keyed_batch_features_shared_queue", "queue_parsed_features")

#: The Estimator of TF 1.0-1.4 and its helpers (:mod:`compat.contrib._learn_estimators`).
ESTIMATOR_NAMES = ("Estimator", "SKCompat", "ModelFnOps", "MetricSpec", "infer_real_valued_columns_from_input",
                   "infer_real_valued_columns_from_input_fn", "extract_pandas_data", "extract_pandas_labels",
                   "extract_pandas_matrix")

#: The canned models (:mod:`compat.contrib._learn_canned`).
CANNED = ("DNNClassifier", "DNNRegressor", "LinearClassifier", "LinearRegressor", "DNNLinearCombinedClassifier",
          "DNNLinearCombinedRegressor")

#: The names :func:`served` gives.
NAMES = frozenset({"monitors", "io", "PredictionKey", "NotFittedError", *READERS, *ESTIMATOR_NAMES, *CANNED})


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
                           HAS_PANDAS=True, HAS_DASK=False,
                           **{name: getattr(_learn_estimators, name) for name in ESTIMATOR_NAMES
                              if name.startswith("extract_pandas")})
    return module


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
    if name in ("monitors", "io"):
        if name not in _BUILT:
            _BUILT[name] = _monitors_module() if name == "monitors" else _io_module()
        return _BUILT[name]
    if name in ("PredictionKey", "NotFittedError"):
        return globals()[name]
    raise KeyError(name)
