"""``tf.estimator`` of TensorFlow 1.15, served from the ``tensorflow-estimator`` package (2.15.0).

TensorFlow 2.16 removed ``tf.estimator``; its last release, ``tensorflow-estimator``
2.15.0, still holds the TF1 API (``Estimator``, the canned ``DNNClassifier`` /
``LinearClassifier`` / ``DNNLinearCombinedClassifier`` / ``BaselineClassifier``
..., ``RunConfig``, ``train_and_evaluate``, ``inputs``, ``export``, the session
hooks, ``tpu.TPUEstimator``) but stops at import on TensorFlow 2.21. The first
name looked up here supplies the few TensorFlow internals it imports
(:mod:`compat.estimator._gaps`) and imports it; every name is then the
package's own. ``tf.estimator.tpu`` is :mod:`compat.estimator.tpu`, whose
``TPUEstimator`` runs on the CPU (or GPU) when a script asks for a TPU.

Importing this package changes nothing and imports neither TensorFlow nor the package.
"""
from __future__ import annotations

from typing import Any

from compat.estimator._forward import forwarding
from compat.estimator._refused import BOOSTED_TREES, boosted_trees_class

_forward_getattr, __dir__ = forwarding("tf.estimator", "", own_submodules=("tpu", "inputs", "export", "experimental"))


def __getattr__(name: str) -> Any:
    # The boosted-trees estimators left the package; their stand-ins refuse to be built.
    if name in BOOSTED_TREES:
        return boosted_trees_class(name)
    return _forward_getattr(name)
