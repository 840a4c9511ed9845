"""tf1_pipelines.inputs.sampling: the samplers' class frequencies against the formula of
TF 1.15's docstring and the numbers of its unit tests, with fixed seeds and stated
tolerances (4 standard deviations of the estimate, so a correct sampler fails about
once in 15 000 runs and a wrong formula fails every time)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import tensorflow as tf

from tf1_pipelines.inputs import sampling

tf1 = tf.compat.v1

pytestmark = pytest.mark.timeout(90)


def _draw(fetches: Any, steps: int) -> list[Any]:
    with tf1.Session() as sess:
        sess.run([tf1.global_variables_initializer(), tf1.local_variables_initializer()])
        coord = tf1.train.Coordinator()
        threads = tf1.train.start_queue_runners(sess, coord)
        try:
            return [sess.run(fetches) for _ in range(steps)]
        finally:
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)


def test_acceptance_probabilities_follow_the_docstring_formula() -> None:
    # a_i = (t_i / p_i) / max_j(t_j / p_j), 0 where p_i = 0.
    got = sampling.acceptance_probabilities([0.7, 0, 0, 0.3, 0], [0.8, 0, 0, 0.2, 0])
    ratio = np.array([0.8 / 0.7, 0, 0, 0.2 / 0.3, 0])
    np.testing.assert_allclose(got, ratio / ratio.max())
    p, a = np.array([0.7, 0.3]), got[[0, 3]]
    np.testing.assert_allclose(p * a / (p * a).sum(), [0.8, 0.2])  # accepted mix = the target


def _two_class_labels() -> tuple[tf.Tensor, list[tf.Tensor]]:
    """TF 1.15's sampling test input: label 0 or 3 with probability 1/2, data [1, 4] * label."""
    label = tf1.cond(tf.greater(0.5, tf1.random_uniform([])), lambda: tf.constant(0), lambda: tf.constant(3))
    return label, [tf.constant(np.array([1, 4])) * tf.cast(label, tf.int64)]


@pytest.mark.parametrize("init_probs", [[0.7, 0, 0, 0.3, 0], None], ids=["known", "estimated"])
def test_stratified_sample_reaches_the_target_mix(init_probs: list[float] | None) -> None:
    target, batch, steps = np.array([0.8, 0, 0, 0.2, 0]), 16, 40
    with tf.Graph().as_default():
        tf1.set_random_seed(1234)
        label, data = _two_class_labels()
        [out], labels = sampling.stratified_sample(data, label, target, batch, init_probs=init_probs)
        got = _draw((out, labels), steps)
    all_labels = np.concatenate([lbl for _, lbl in got])
    for out_data, lbl in got:
        np.testing.assert_array_equal(out_data, np.outer(lbl, [1, 4]))  # data stays with its label
    assert set(all_labels.tolist()) <= {0, 3}
    # The data is half 0s, half 3s. The sampler accepts class i with a_i computed from
    # init_probs (the estimate tends to the true 1/2, 1/2), so a kept label is 0 with
    # probability 0.5 a_0 / (0.5 a_0 + 0.5 a_3): 0.8 when init_probs is right, 0.632
    # with TF 1.15's test value (0.7, 0.3), which its loose check below lets pass.
    accept = sampling.acceptance_probabilities(init_probs or [0.5, 0, 0, 0.5, 0], target)
    want = accept[0] / (accept[0] + accept[3])
    n = batch * steps
    share = np.mean(all_labels == 0)
    assert abs(share - want) < 4 * np.sqrt(want * (1 - want) / n), (share, want)
    # TF 1.15's own check on the same set-up (20 batches there): the mean label is within
    # 3 standard deviations of the mean of 0.8 * 0 + 0.2 * 3.
    expected = 0.6
    spread = np.sqrt(np.sum(np.square(np.arange(5) - expected))) / np.sqrt(steps)
    assert abs(all_labels.mean() - expected) < 3 * spread


def test_rejection_sample_keeps_values_in_proportion_to_their_probability() -> None:
    # Accepting x ~ U(0, 1) with probability x gives the density 2x: mean 2/3, variance 1/18.
    batch, steps = 16, 20
    with tf.Graph().as_default():
        tf1.set_random_seed(5)
        x = tf1.random_uniform([])
        [out] = sampling.rejection_sample([x], lambda t: t[0], batch, runtime_checks=True)
        assert out.shape.as_list() == [batch]
        got = np.concatenate(_draw(out, steps))
    assert abs(got.mean() - 2 / 3) < 4 * np.sqrt(1 / 18 / got.size), got.mean()


def test_rejection_sample_of_batches_with_a_zero_one_rule() -> None:
    with tf.Graph().as_default():
        values = tf.constant(np.arange(10, dtype=np.int32))
        [out] = sampling.rejection_sample([values], lambda t: tf.cast(t[0] % 2, tf.float32), 5, enqueue_many=True)
        got = np.concatenate(_draw(out, 4))
    assert set(got.tolist()) <= {1, 3, 5, 7, 9} and len(got) == 20


def test_resample_at_rate_repeats_rows_poisson_times_in_order() -> None:
    rates = np.tile(np.array([0.0, 1.0, 3.0], np.float32), 1000)
    with tf.Graph().as_default():
        tf1.set_random_seed(11)
        [rows, kinds] = sampling.resample_at_rate([tf.range(3000), tf.constant(rates)], rates, seed=3)
        with tf1.Session() as sess:
            index, rate = sess.run((rows, kinds))
    assert np.all(np.diff(index) >= 0)  # rows come out in order
    np.testing.assert_array_equal(rate, rates[index])
    counts = np.bincount((index % 3), minlength=3)
    assert counts[0] == 0
    for kind, mean in ((1, 1000.0), (2, 3000.0)):  # a sum of 1000 Poisson(rate): variance = mean
        assert abs(counts[kind] - mean) < 4 * np.sqrt(mean), counts


def test_weighted_resample_rates_are_weights_over_the_debiased_mean() -> None:
    weights = np.array([1.0, 3.0, 2.0, 2.0], np.float32)
    with tf.Graph().as_default():
        tf1.set_random_seed(2)
        [rows], rates = sampling.weighted_resample([tf.range(4)], tf.constant(weights), 2.0, mean_decay=0.5, seed=1)
        with tf1.Session() as sess:
            sess.run(tf1.local_variables_initializer())
            first = sess.run((rows, rates))
            second = sess.run((rows, rates))
    # The zero-debiased moving mean of a constant batch mean (2.0) is 2.0 from the first step,
    # so each output row's rate is weight * 2.0 / 2.0.
    for index, rate in (first, second):
        np.testing.assert_allclose(rate, weights[index] * 2.0 / 2.0, rtol=1e-6)
