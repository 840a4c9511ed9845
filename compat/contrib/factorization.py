"""``tf.contrib.factorization`` of TensorFlow 1.15: k-means clustering.

The graph-mode ``KMeans`` of TF 1.15 (``training_graph()`` giving
``(all_scores, cluster_idx, scores, cluster_centers_initialized, init_op,
training_op)``, or TF 1.4-1.12's seven values with ``cluster_centers_var`` before
``init_op`` where the caller unpacks seven names; with random / k-means++ / k-MC2 initialisation, squared
Euclidean or cosine distance, full-batch or mini-batch updates) moved into
TensorFlow's own ops in TF 1.13 and is still shipped there
(``tensorflow.python.ops.clustering_ops``): this bridge forwards to it, on
first use. ``KMeansClustering`` (the Estimator) is the one of
``tensorflow-estimator`` (:mod:`compat.estimator`). The matrix factorisation
and Gaussian-mixture names are refused (:data:`REFUSED`).
"""
from __future__ import annotations

import dis
import functools
import sys
import types
from typing import Any

from compat.contrib._forward import forwarding_getattr

# KMeans (FORWARDS) and KMeansClustering are served by __getattr__.
__all__ = ["COSINE_DISTANCE", "FORWARDS", "KMC2_INIT", "KMEANS_PLUS_PLUS_INIT", "RANDOM_INIT", "REFUSED",
           "SQUARED_EUCLIDEAN_DISTANCE"]

# The option strings of TF 1.15 (plain strings, so a script may compare or pass them before TF loads).
SQUARED_EUCLIDEAN_DISTANCE = "squared_euclidean"
COSINE_DISTANCE = "cosine"
RANDOM_INIT = "random"
KMEANS_PLUS_PLUS_INIT = "kmeans_plus_plus"
KMC2_INIT = "kmc2"

REFUSED: dict[str, str] = {
    "WALSModel": "tf.keras embeddings trained on the ratings (weighted ALS has no TensorFlow 2 op), "
                 "or the implicit package",
    "WALSMatrixFactorization": "tf.keras embeddings trained on the ratings, or the implicit package",
    "GMM": "sklearn.mixture.GaussianMixture, or tensorflow_probability mixtures",
    "GmmAlgorithm": "sklearn.mixture.GaussianMixture, or tensorflow_probability mixtures",
    "gmm": "sklearn.mixture.GaussianMixture, or tensorflow_probability mixtures",
}

#: TF 1.15 name -> where it lives today (TensorFlow is imported on first use). ``KMeans`` is
#: :func:`kmeans_class`, today's class with TF 1.4-1.12's seven-value ``training_graph``.
FORWARDS: dict[str, str] = {}

_forward = forwarding_getattr("factorization", FORWARDS, REFUSED)

#: The names TF 1.4-1.12's ``KMeans.training_graph()`` returned, in order (TF 1.13's move into
#: TensorFlow's own ops dropped ``cluster_centers_var``, leaving six).
SEVEN = ("all_scores", "cluster_idx", "scores", "cluster_centers_initialized", "cluster_centers_var",
         "init_op", "training_op")


def _unpacked_into(frame: types.FrameType | None) -> int | None:
    """How many names the caller's statement unpacks the call's result into (``a, b = f()``), or None."""
    if frame is None:
        return None
    following = [i for i in dis.get_instructions(frame.f_code) if i.offset > frame.f_lasti]
    if following and following[0].opname == "UNPACK_SEQUENCE":
        return int(following[0].arg or 0)
    return None


@functools.cache
def kmeans_class() -> type:
    """``tf.contrib.factorization.KMeans``: today's class, whose ``training_graph()`` gives TF 1.13-1.15's six
    values, or TF 1.4-1.12's seven (:data:`SEVEN`, with the cluster centres' variable) when the caller
    unpacks it into seven names, as 2017-2018 code (TensorFlow-Examples' k-means) does."""
    from tensorflow.python.ops import clustering_ops

    class KMeans(clustering_ops.KMeans):
        __doc__ = clustering_ops.KMeans.__doc__

        def _create_variables(self, num_clusters: Any) -> Any:
            created = super()._create_variables(num_clusters)
            self._compat_centers_var = created[0]  # the first is cluster_centers_var
            return created

        def training_graph(self) -> tuple[Any, ...]:
            six = super().training_graph()
            if _unpacked_into(sys._getframe(1)) != len(SEVEN):
                return six
            all_scores, cluster_idx, scores, initialized, init_op, training_op = six
            return all_scores, cluster_idx, scores, initialized, self._compat_centers_var, init_op, training_op

    KMeans.__module__ = __name__
    return KMeans


def __getattr__(name: str) -> Any:
    if name == "KMeans":
        return kmeans_class()
    if name == "KMeansClustering":  # the Estimator needs compat.estimator's supplied gaps first
        from compat.estimator._forward import api_module
        return api_module("experimental").KMeans
    return _forward(name)
