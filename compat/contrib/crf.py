"""``tf.contrib.crf``: a linear-chain conditional random field, as TF 1.x taggers used it.

Shapes: ``B`` batch, ``T`` time (padded), ``N`` tags. A tag sequence ``y`` of a
sentence of length ``L`` scores ``sum_t inputs[t, y_t] + sum_{t>0} transitions[y_{t-1}, y_t]``;
the log-likelihood is that score minus the log-sum-exp over all ``N**L`` sequences
(computed by the forward algorithm). Written from the documented equations;
sentences of length 0 score 0 and have log-norm 0, as in TF 1.15.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = [
    "CrfDecodeBackwardRnnCell", "CrfDecodeForwardRnnCell", "CrfForwardRnnCell", "crf_binary_score",
    "crf_decode", "crf_log_likelihood", "crf_log_norm", "crf_multitag_sequence_score",
    "crf_sequence_score", "crf_unary_score", "viterbi_decode",
]

REFUSED: dict[str, str] = {}

__getattr__ = refusing_getattr("crf", REFUSED)


def _mask(tag_indices: Any, sequence_lengths: Any, dtype: Any) -> Any:
    """``[B, T]`` 1.0 where ``t < length``, else 0.0."""
    return tf.sequence_mask(sequence_lengths, tf.shape(tag_indices)[1], dtype=dtype)


def crf_unary_score(tag_indices: Any, sequence_lengths: Any, inputs: Any) -> Any:
    """``[B]``: ``sum_{t < L} inputs[b, t, tag[b, t]]``. ``inputs`` ``[B, T, N]`` float, tags ``[B, T]`` int."""
    inputs = tf.convert_to_tensor(inputs)
    tag_indices = tf.cast(tag_indices, tf.int32)
    picked = tf.gather(inputs, tag_indices, batch_dims=2)  # [B, T]
    return tf.reduce_sum(picked * _mask(tag_indices, sequence_lengths, inputs.dtype), axis=1)


def crf_binary_score(tag_indices: Any, sequence_lengths: Any, transition_params: Any) -> Any:
    """``[B]``: ``sum_{0 < t < L} transition_params[tag[t-1], tag[t]]``; ``transition_params`` ``[N, N]``."""
    transition_params = tf.convert_to_tensor(transition_params)
    tag_indices = tf.cast(tag_indices, tf.int32)
    pairs = tf.stack([tag_indices[:, :-1], tag_indices[:, 1:]], axis=-1)  # [B, T-1, 2]
    scores = tf.gather_nd(transition_params, pairs)
    # A transition ends at t in 1..L-1: the mask of positions 1.. shifted left.
    mask = _mask(tag_indices, sequence_lengths, transition_params.dtype)[:, 1:]
    return tf.reduce_sum(scores * mask, axis=1)


def crf_sequence_score(inputs: Any, tag_indices: Any, sequence_lengths: Any, transition_params: Any) -> Any:
    """``[B]``: the unnormalised score of each tag sequence (unary plus binary)."""
    return (crf_unary_score(tag_indices, sequence_lengths, inputs)
            + crf_binary_score(tag_indices, sequence_lengths, transition_params))


def _forward_alphas(inputs: Any, sequence_lengths: Any, transition_params: Any, combine: Any) -> Any:
    """The final ``[B, N]`` forward vector, ``combine`` being log-sum-exp (norm) or max (best path).

    Steps past a sentence's end keep its vector unchanged, so the result is
    the vector at position ``L - 1``.
    """
    inputs = tf.convert_to_tensor(inputs)
    transition_params = tf.cast(transition_params, inputs.dtype)
    lengths = tf.cast(sequence_lengths, tf.int32)
    rest = tf.transpose(inputs[:, 1:], [1, 0, 2])  # [T-1, B, N]
    steps = tf.range(1, tf.shape(inputs)[1])

    def step(alpha: Any, elems: Any) -> Any:
        x, t = elems
        new = combine(alpha[:, :, None] + transition_params[None], axis=1) + x
        return tf.where((t < lengths)[:, None], new, alpha)
    return tf.foldl(step, (rest, steps), initializer=inputs[:, 0])


def crf_log_norm(inputs: Any, sequence_lengths: Any, transition_params: Any) -> Any:
    """``[B]``: log of the sum of ``exp(score)`` over every tag sequence (0 for empty sentences)."""
    final = _forward_alphas(inputs, sequence_lengths, transition_params, tf.reduce_logsumexp)
    log_norm = tf.reduce_logsumexp(final, axis=1)
    return tf.where(tf.cast(sequence_lengths, tf.int32) > 0, log_norm, tf.zeros_like(log_norm))


def crf_multitag_sequence_score(inputs: Any, tag_bitmap: Any, sequence_lengths: Any,
                                transition_params: Any) -> Any:
    """``[B]``: log-sum-exp of the scores of the sequences whose tag at ``t`` is allowed by ``tag_bitmap[b, t]``.

    ``tag_bitmap`` is ``[B, T, N]`` bool; a position with one allowed tag each
    gives :func:`crf_sequence_score`.
    """
    inputs = tf.convert_to_tensor(inputs)
    very_low = tf.fill(tf.shape(inputs), tf.constant(-1e30, inputs.dtype))
    return crf_log_norm(tf.where(tf.cast(tag_bitmap, tf.bool), inputs, very_low),
                        sequence_lengths, transition_params)


def crf_log_likelihood(inputs: Any, tag_indices: Any, sequence_lengths: Any,
                       transition_params: Any = None) -> tuple[Any, Any]:
    """``(log_likelihood [B], transition_params [N, N])``.

    Without ``transition_params`` a variable ``transitions`` of shape ``[N, N]``
    is created in the current variable scope (the TF 1.x name, so checkpoints restore).
    """
    inputs = tf.convert_to_tensor(inputs)
    if transition_params is None:
        num_tags = inputs.shape[2]
        if num_tags is None:
            raise ValueError(f"crf_log_likelihood: the number of tags (last dimension of inputs, shape "
                             f"{inputs.shape}) must be known to create the transitions variable")
        transition_params = tf.compat.v1.get_variable("transitions", [num_tags, num_tags], dtype=inputs.dtype)
    score = crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params)
    return score - crf_log_norm(inputs, sequence_lengths, transition_params), transition_params


def crf_decode(potentials: Any, transition_params: Any, sequence_length: Any) -> tuple[Any, Any]:
    """``(decode_tags [B, T] int32, best_score [B])``: the Viterbi path in the graph.

    Tags past a sentence's length are 0.
    """
    potentials = tf.convert_to_tensor(potentials)
    transition_params = tf.cast(transition_params, potentials.dtype)
    lengths = tf.cast(sequence_length, tf.int32)
    num_tags = tf.shape(potentials)[2]
    rest = tf.transpose(potentials[:, 1:], [1, 0, 2])
    steps = tf.range(1, tf.shape(potentials)[1])
    identity = tf.tile(tf.range(num_tags)[None], [tf.shape(potentials)[0], 1])

    def forward(carry: Any, elems: Any) -> Any:
        alpha, _ = carry
        x, t = elems
        scores = alpha[:, :, None] + transition_params[None]
        keep = (t < lengths)[:, None]
        # Past the end the path stays on its tag: an identity back-pointer.
        new_alpha = tf.where(keep, tf.reduce_max(scores, axis=1) + x, alpha)
        pointers = tf.where(keep, tf.argmax(scores, axis=1, output_type=tf.int32), identity)
        return new_alpha, pointers
    alphas, pointers = tf.scan(forward, (rest, steps), initializer=(potentials[:, 0], identity))
    # The first vector in front, so a one-step sequence (no scan steps) takes it.
    final = tf.concat([potentials[:, 0][None], alphas], axis=0)[-1]
    last = tf.argmax(final, axis=1, output_type=tf.int32)

    def backward(tag: Any, step_pointers: Any) -> Any:
        return tf.gather(step_pointers, tag, batch_dims=1)
    earlier = tf.scan(backward, pointers[::-1], initializer=last)  # tags at T-2 ... 0
    tags = tf.transpose(tf.concat([earlier[::-1], last[None]], axis=0))
    tags = tags * tf.sequence_mask(lengths, tf.shape(potentials)[1], dtype=tf.int32)
    return tags, tf.reduce_max(final, axis=1)


def viterbi_decode(score: Any, transition_params: Any) -> tuple[list[int], Any]:
    """``(viterbi, viterbi_score)`` for one sentence, in NumPy.

    Args:
        score: ``[T, N]`` unary potentials.
        transition_params: ``[N, N]``.

    Returns:
        the best tag sequence as a list of ``T`` ints, and its score.
    """
    score = np.asarray(score)
    transition_params = np.asarray(transition_params)
    if score.ndim != 2 or transition_params.shape != (score.shape[1], score.shape[1]):
        raise ValueError(f"viterbi_decode: score must be [T, N] and transition_params [N, N]; got "
                         f"{score.shape} and {transition_params.shape}")
    trellis = np.zeros_like(score)
    pointers = np.zeros(score.shape, dtype=np.int32)
    trellis[0] = score[0]
    for t in range(1, score.shape[0]):
        candidates = trellis[t - 1][:, None] + transition_params
        trellis[t] = score[t] + np.max(candidates, axis=0)
        pointers[t] = np.argmax(candidates, axis=0)
    path = [int(np.argmax(trellis[-1]))]
    for step_pointers in pointers[1:][::-1]:
        path.append(int(step_pointers[path[-1]]))
    path.reverse()
    return path, np.max(trellis[-1])


class _CrfCell:
    """The RNN-cell interface (``state_size``, ``output_size``, ``__call__``, ``zero_state``) over ``N`` tags."""

    def __init__(self, transition_params: Any) -> None:
        self._transition_params = tf.convert_to_tensor(transition_params)
        self._num_tags = int(self._transition_params.shape[0])

    @property
    def state_size(self) -> int:
        """``N``."""
        return self._num_tags

    @property
    def output_size(self) -> int:
        """``N``."""
        return self._num_tags

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        """``[batch_size, N]`` zeros."""
        return tf.zeros(tf.stack([batch_size, self._num_tags]), dtype=dtype)

    def get_initial_state(self, inputs: Any = None, batch_size: Any = None, dtype: Any = None) -> Any:
        """As :meth:`zero_state`, from ``inputs`` when given."""
        if inputs is not None:
            batch_size, dtype = tf.shape(inputs)[0], inputs.dtype
        return self.zero_state(batch_size, dtype)


class CrfForwardRnnCell(_CrfCell):
    """One step of the forward algorithm: ``state`` ``[B, N]`` log-alphas, ``inputs`` ``[B, N]`` unaries."""

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> tuple[Any, Any]:
        """``(new_alphas, new_alphas)``."""
        scores = state[:, :, None] + tf.cast(self._transition_params, state.dtype)[None]
        new = inputs + tf.reduce_logsumexp(scores, axis=1)
        return new, new


class CrfDecodeForwardRnnCell(_CrfCell):
    """One Viterbi step: output ``[B, N]`` int32 back-pointers, state ``[B, N]`` best scores."""

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> tuple[Any, Any]:
        """``(backpointers, new_state)``."""
        scores = state[:, :, None] + tf.cast(self._transition_params, state.dtype)[None]
        return (tf.argmax(scores, axis=1, output_type=tf.int32),
                inputs + tf.reduce_max(scores, axis=1))


class CrfDecodeBackwardRnnCell:
    """One back-tracking step: ``inputs`` ``[B, N]`` back-pointers, state ``[B, 1]`` the current tag."""

    def __init__(self, num_tags: int) -> None:
        self._num_tags = num_tags

    @property
    def state_size(self) -> int:
        """1."""
        return 1

    @property
    def output_size(self) -> int:
        """1."""
        return 1

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> tuple[Any, Any]:
        """``(previous_tag [B, 1], previous_tag [B, 1])``."""
        tag = tf.gather(inputs, tf.squeeze(state, axis=1), batch_dims=1)[:, None]
        return tag, tag
