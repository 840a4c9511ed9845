"""``tf.contrib.factorization`` of TensorFlow 1.15: k-means clustering.

The graph-mode ``KMeans`` of TF 1.15 (``training_graph()`` giving
``(all_scores, cluster_idx, scores, cluster_centers_initialized, init_op,
training_op)``, with random / k-means++ / k-MC2 initialisation, squared
Euclidean or cosine distance, full-batch or mini-batch updates) moved into
TensorFlow's own ops in TF 1.13 and is still shipped there
(``tensorflow.python.ops.clustering_ops``): this bridge forwards to it, on
first use. ``KMeansClustering`` (the Estimator) is the one of
``tensorflow-estimator`` (:mod:`compat.estimator`). The matrix factorisation
and Gaussian-mixture names are refused (:data:`REFUSED`).
"""
from __future__ import annotations

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

#: TF 1.15 name -> where it lives today (TensorFlow is imported on first use).
FORWARDS: dict[str, str] = {"KMeans": "tensorflow.python.ops.clustering_ops.KMeans"}

_forward = forwarding_getattr("factorization", FORWARDS, REFUSED)


def __getattr__(name: str) -> Any:
    if name == "KMeansClustering":  # the Estimator needs compat.estimator's supplied gaps first
        from compat.estimator._forward import api_module
        return api_module("experimental").KMeans
    return _forward(name)
