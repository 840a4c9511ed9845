"""TF 1.15 ``tf.estimator`` classes that ``tensorflow-estimator`` 2.15.0 no longer has.

The boosted-trees estimators were removed from the package before its last
release. Their names still resolve, as subclasses of ``tf.estimator.Estimator``
with TF 1.15's constructor arguments (a script that only imports them, or
builds them behind a flag it does not set, runs); building one, or calling its
``experimental_feature_importances`` / ``experimental_predict_with_explanations``,
raises :class:`compat.errors.LegacyAPIError` naming the replacement.
"""
from __future__ import annotations

import functools
from typing import Any

from compat.errors import LegacyAPIError
from compat.estimator._forward import api_module

__all__ = ["BOOSTED_TREES", "BOOSTED_TREES_REPLACEMENT", "boosted_trees_class"]

BOOSTED_TREES_REPLACEMENT = ("the boosted-trees estimators were removed from tensorflow-estimator before its last "
                             "release (2.15.0) and are not provided by the compat runner; use TensorFlow Decision "
                             "Forests or scikit-learn's HistGradientBoostingClassifier / Regressor")


def _refuse(name: str) -> Any:
    raise LegacyAPIError(f"tf.estimator.{name}: {BOOSTED_TREES_REPLACEMENT}")


def _classifier_init(self: Any, feature_columns: Any, n_batches_per_layer: int, model_dir: str | None = None,
             n_classes: int = 2, weight_column: Any = None, label_vocabulary: Any = None, n_trees: int = 100,
             max_depth: int = 6, learning_rate: float = 0.1, l1_regularization: float = 0.0,
             l2_regularization: float = 0.0, tree_complexity: float = 0.0, min_node_weight: float = 0.0,
             config: Any = None, center_bias: bool = False, pruning_mode: str = "none",
             quantile_sketch_epsilon: float = 0.01, train_in_memory: bool = False) -> None:
    _refuse("BoostedTreesClassifier")


def _regressor_init(self: Any, feature_columns: Any, n_batches_per_layer: int, model_dir: str | None = None,
             label_dimension: int = 1, weight_column: Any = None, n_trees: int = 100, max_depth: int = 6,
             learning_rate: float = 0.1, l1_regularization: float = 0.0, l2_regularization: float = 0.0,
             tree_complexity: float = 0.0, min_node_weight: float = 0.0, config: Any = None,
             center_bias: bool = False, pruning_mode: str = "none", quantile_sketch_epsilon: float = 0.01,
             train_in_memory: bool = False) -> None:
    _refuse("BoostedTreesRegressor")


def _estimator_init(self: Any, feature_columns: Any, n_batches_per_layer: int, head: Any, model_dir: str | None = None,
             weight_column: Any = None, n_trees: int = 100, max_depth: int = 6, learning_rate: float = 0.1,
             l1_regularization: float = 0.0, l2_regularization: float = 0.0, tree_complexity: float = 0.0,
             min_node_weight: float = 0.0, config: Any = None, center_bias: bool = False,
             pruning_mode: str = "none", quantile_sketch_epsilon: float = 0.01) -> None:
    _refuse("BoostedTreesEstimator")


def _refusing_method(class_name: str, method: str) -> Any:
    def refused(self: Any, *args: Any, **kwargs: Any) -> Any:
        _refuse(f"{class_name}.{method}")
    refused.__name__ = method
    return refused


_INITS = {"BoostedTreesClassifier": _classifier_init, "BoostedTreesRegressor": _regressor_init,
          "BoostedTreesEstimator": _estimator_init}

#: The refused class names.
BOOSTED_TREES = frozenset(_INITS)


@functools.cache
def boosted_trees_class(name: str) -> type:
    """The stand-in class ``tf.estimator.<name>`` (built on first use, on the package's ``Estimator``).

    Raises:
        KeyError: ``name`` is not one of :data:`BOOSTED_TREES`.
    """
    init = _INITS[name]
    namespace = {"__init__": init, "__doc__": f"Refused: {BOOSTED_TREES_REPLACEMENT}.", "__module__": __name__}
    for method in ("experimental_feature_importances", "experimental_predict_with_explanations"):
        namespace[method] = _refusing_method(name, method)
    return type(name, (api_module().Estimator,), namespace)
