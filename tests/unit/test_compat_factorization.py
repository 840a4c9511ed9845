"""``tf.contrib.factorization``: graph-mode k-means, checked against k-means steps computed with NumPy."""
from __future__ import annotations

import numpy as np
import pytest

from compat.contrib import factorization
from compat.errors import LegacyAPIError

POINTS = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [10.0, 10.0], [11.0, 10.0], [10.0, 12.0]], np.float32)
START = np.array([[0.0, 0.5], [10.0, 9.0]], np.float32)


def numpy_assign(points: np.ndarray, centers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nearest center (squared Euclidean) and its squared distance, per point."""
    d2 = ((points[:, None, :] - centers[None, :, :]) ** 2).sum(-1)
    return d2.argmin(1), d2.min(1)


def run_kmeans(steps: int, **kwargs: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cluster_idx, scores, centers) after ``steps`` training steps on POINTS."""
    import tensorflow as tf
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 2])
        kmeans = factorization.KMeans(inputs=x, **kwargs)
        (_, cluster_idx, scores, _, init_op, train_op) = kmeans.training_graph()
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer(), {x: POINTS})
            sess.run(init_op, {x: POINTS})
            for _ in range(steps):
                sess.run(train_op, {x: POINTS})
            idx, score = sess.run([cluster_idx[0], scores[0]], {x: POINTS})
            # The centers variable is named "clusters" in TF 1.x checkpoints.
            clusters = [v for v in tf.compat.v1.global_variables() if v.op.name == "clusters"]
            centers = sess.run(clusters[0])
    return idx, score, centers


def test_full_batch_step_moves_centers_to_the_means() -> None:
    idx, score, centers = run_kmeans(1, num_clusters=2, initial_clusters=START, use_mini_batch=False)
    labels, _ = numpy_assign(POINTS, START)
    expected = np.stack([POINTS[labels == k].mean(0) for k in range(2)])
    np.testing.assert_allclose(centers, expected, rtol=1e-6)
    # After the step, assignment and scores are against the new centers.
    want_idx, want_score = numpy_assign(POINTS, expected)
    np.testing.assert_array_equal(idx, want_idx)
    np.testing.assert_allclose(score, want_score, rtol=1e-5, atol=1e-5)


def test_random_init_takes_centers_from_the_inputs_and_cosine_scores_are_one_minus_cos() -> None:
    idx, score, centers = run_kmeans(0, num_clusters=2, distance_metric=factorization.COSINE_DISTANCE,
                                     use_mini_batch=True)
    unit = POINTS[1:] / np.linalg.norm(POINTS[1:], axis=1, keepdims=True)
    for center in centers:  # each chosen center is one of the (normalised) input rows
        assert np.isclose(np.abs(unit @ center - 1).min(), 0, atol=1e-5) or np.allclose(center, 0)
    nonzero = np.linalg.norm(POINTS, axis=1) > 0
    normed = centers / np.maximum(np.linalg.norm(centers, axis=1, keepdims=True), 1e-12)
    cos = unit @ normed.T
    np.testing.assert_allclose(score[nonzero], 1 - cos.max(1), atol=1e-5)
    np.testing.assert_array_equal(idx[nonzero], cos.argmax(1))


def test_option_names_and_refusals() -> None:
    assert (factorization.RANDOM_INIT, factorization.KMEANS_PLUS_PLUS_INIT) == ("random", "kmeans_plus_plus")
    assert factorization.SQUARED_EUCLIDEAN_DISTANCE == "squared_euclidean"
    with pytest.raises(LegacyAPIError, match="WALSModel.*implicit"):
        _ = factorization.WALSModel


def test_seven_names_get_tf_1_4_to_1_12s_training_graph_with_the_centers_variable() -> None:
    import tensorflow as tf
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None, 2])
        kmeans = factorization.KMeans(inputs=x, num_clusters=2, initial_clusters=START, use_mini_batch=False)
        (all_scores, cluster_idx, scores, initialized, centers_var, init_op,
         train_op) = kmeans.training_graph()  # the TensorFlow-Examples (2017) unpacking
        kept = kmeans.training_graph()  # not unpacked: TF 1.15's six values
        assert len(kept) == 6 and isinstance(centers_var, tf.Variable) and centers_var.op.name == "clusters"
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer(), {x: POINTS})
            sess.run(init_op, {x: POINTS})
            np.testing.assert_allclose(sess.run(centers_var), START)
            sess.run(train_op, {x: POINTS})
            moved = sess.run(centers_var)
    assign, _ = numpy_assign(POINTS, START)
    np.testing.assert_allclose(moved, [POINTS[assign == k].mean(0) for k in range(2)], rtol=1e-5, atol=1e-5)
