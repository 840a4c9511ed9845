"""tf.contrib.crf against brute-force enumeration of every tag sequence (NumPy)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
import tensorflow as tf

from compat.contrib import crf

B, T, N = 3, 4, 3
LENGTHS = np.array([4, 2, 1], np.int32)


def _data(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    inputs = rng.normal(size=(B, T, N)).astype(np.float32)
    tags = rng.integers(0, N, (B, T)).astype(np.int32)
    transitions = rng.normal(size=(N, N)).astype(np.float32)
    return inputs, tags, transitions


def _score(inputs: np.ndarray, transitions: np.ndarray, seq: tuple[int, ...]) -> float:
    unary = sum(float(inputs[t, tag]) for t, tag in enumerate(seq))
    binary = sum(float(transitions[a, b]) for a, b in itertools.pairwise(seq))
    return unary + binary


def _brute(inputs: np.ndarray, transitions: np.ndarray, length: int) -> tuple[float, tuple[int, ...], float]:
    """(log-norm, best sequence, best score) over all N**length sequences."""
    sequences = list(itertools.product(range(N), repeat=length))
    scores = np.array([_score(inputs, transitions, s) for s in sequences])
    best = int(np.argmax(scores))
    return float(np.log(np.sum(np.exp(scores)))), sequences[best], float(scores[best])


def _run(fetches: object) -> object:
    with tf.compat.v1.Session() as session:
        session.run(tf.compat.v1.global_variables_initializer())
        return session.run(fetches)


def test_log_likelihood_and_scores_match_enumeration() -> None:
    inputs, tags, transitions = _data()
    with tf.Graph().as_default():
        ll, _ = crf.crf_log_likelihood(inputs, tags, LENGTHS, transitions)
        fetched = _run([ll, crf.crf_sequence_score(inputs, tags, LENGTHS, transitions),
                        crf.crf_log_norm(inputs, LENGTHS, transitions),
                        crf.crf_unary_score(tags, LENGTHS, inputs),
                        crf.crf_binary_score(tags, LENGTHS, transitions)])
    log_likelihood, score, log_norm, unary, binary = fetched
    for b in range(B):
        length = int(LENGTHS[b])
        expected_norm, _, _ = _brute(inputs[b], transitions, length)
        expected_score = _score(inputs[b], transitions, tuple(tags[b, :length]))
        assert log_norm[b] == pytest.approx(expected_norm, rel=1e-5)
        assert score[b] == pytest.approx(expected_score, rel=1e-5, abs=1e-5)
        assert unary[b] + binary[b] == pytest.approx(expected_score, rel=1e-5, abs=1e-5)
        assert log_likelihood[b] == pytest.approx(expected_score - expected_norm, rel=1e-5, abs=1e-5)


def test_decode_matches_enumeration_and_viterbi_decode() -> None:
    inputs, _, transitions = _data(1)
    with tf.Graph().as_default():
        tags, best = _run(crf.crf_decode(inputs, transitions, LENGTHS))
    for b in range(B):
        length = int(LENGTHS[b])
        _, expected_path, expected_best = _brute(inputs[b], transitions, length)
        assert tuple(tags[b, :length]) == expected_path
        assert not tags[b, length:].any()  # padding decodes to tag 0
        assert best[b] == pytest.approx(expected_best, rel=1e-5)
        path, path_score = crf.viterbi_decode(inputs[b, :length], transitions)
        assert tuple(path) == expected_path
        assert float(path_score) == pytest.approx(expected_best, rel=1e-5)


def test_decode_of_one_step_sequences_with_unknown_length() -> None:
    inputs, _, transitions = _data(2)
    with tf.Graph().as_default():
        placeholder = tf.compat.v1.placeholder(tf.float32, [None, None, N])
        tags, _ = crf.crf_decode(placeholder, transitions, tf.constant([1, 1, 1]))
        with tf.compat.v1.Session() as session:
            decoded = session.run(tags, {placeholder: inputs[:, :1]})
    np.testing.assert_array_equal(decoded[:, 0], np.argmax(inputs[:, 0], axis=1))


def test_log_likelihood_creates_the_transitions_variable_under_the_scope() -> None:
    inputs, tags, _ = _data()
    with tf.Graph().as_default():
        with tf.compat.v1.variable_scope("crf_layer"):
            _, transitions = crf.crf_log_likelihood(tf.constant(inputs), tags, LENGTHS)
        assert transitions.op.name == "crf_layer/transitions"
        assert transitions.shape.as_list() == [N, N]


def test_multitag_score_sums_the_allowed_sequences() -> None:
    inputs, _, transitions = _data(3)
    bitmap = np.zeros((B, T, N), bool)
    bitmap[:, :, :2] = True  # tags 0 and 1 allowed everywhere
    with tf.Graph().as_default():
        value = _run(crf.crf_multitag_sequence_score(inputs, bitmap, LENGTHS, transitions))
    for b in range(B):
        length = int(LENGTHS[b])
        scores = [_score(inputs[b], transitions, s) for s in itertools.product(range(2), repeat=length)]
        assert value[b] == pytest.approx(float(np.log(np.sum(np.exp(scores)))), rel=1e-5)


def test_forward_cell_is_one_step_of_the_forward_algorithm() -> None:
    inputs, _, transitions = _data(4)
    state = inputs[:, 0]
    with tf.Graph().as_default():
        output, _ = _run(crf.CrfForwardRnnCell(transitions)(tf.constant(inputs[:, 1]), tf.constant(state)))
    expected = inputs[:, 1] + np.log(np.exp(state[:, :, None] + transitions[None]).sum(axis=1))
    np.testing.assert_allclose(output, expected, rtol=1e-5)


def test_unknown_name_is_refused_with_a_message() -> None:
    from compat.errors import LegacyAPIError

    with pytest.raises(LegacyAPIError, match="tf.contrib.crf"):
        _ = crf.crf_nonexistent
