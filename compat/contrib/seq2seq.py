"""``tf.contrib.seq2seq`` on TensorFlow 2 (graph mode): decoders, helpers, attention and beam search of TF 1.x.

Written here from the documented behaviour (``tensorflow_addons.seq2seq``, its
TF2 successor, is no longer maintained and does not import on today's
TensorFlow). Variables as TF 1.x made them: ``dynamic_decode`` opens the
``decoder`` scope, so a cell is ``decoder/<cell>/...``, an output layer
``decoder/dense/kernel``, an attention wrapper ``decoder/attention_wrapper/...``.

Shapes: batch-major unless ``time_major``/``output_time_major``; decoder outputs
``[batch, time, ...]``; beam search works on ``[batch, beam_width, ...]`` and
expects its initial state already tiled with :func:`tile_batch` to
``[batch * beam_width, ...]``.
"""
from __future__ import annotations

import abc
import collections
from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf

from compat.contrib import refusing_getattr
from compat.contrib._seq2seq_attention import (
    AttentionMechanism,
    AttentionWrapper,
    AttentionWrapperState,
    BahdanauAttention,
    BahdanauMonotonicAttention,
    LuongAttention,
    LuongMonotonicAttention,
    hardmax,
    monotonic_attention,
    monotonic_probability_fn,
    safe_cumprod,
)

v1 = tf.compat.v1

__all__ = [
    "AttentionMechanism", "AttentionWrapper", "AttentionWrapperState", "BahdanauAttention",
    "BahdanauMonotonicAttention", "BasicDecoder", "BasicDecoderOutput", "BeamSearchDecoder",
    "BeamSearchDecoderOutput", "BeamSearchDecoderState", "CustomHelper", "Decoder", "FinalBeamSearchDecoderOutput",
    "GreedyEmbeddingHelper", "Helper", "InferenceHelper", "LuongAttention", "LuongMonotonicAttention",
    "SampleEmbeddingHelper", "ScheduledEmbeddingTrainingHelper", "ScheduledOutputTrainingHelper", "TrainingHelper",
    "dynamic_decode", "gather_tree", "hardmax", "monotonic_attention", "monotonic_probability_fn", "safe_cumprod",
    "sequence_loss", "tile_batch",
]

REFUSED: dict[str, str] = {}

# TF 1.x's source paths below this module (``tensorflow.contrib.seq2seq.python.ops...``) are served
# this module's names by the runner (compat.surfaces.modules.source_path_module).
__getattr__ = refusing_getattr("seq2seq", REFUSED)


# ------------------------------------------------------------------ small functions
def sequence_loss(logits: tf.Tensor, targets: tf.Tensor, weights: tf.Tensor, average_across_timesteps: bool = True,
                  average_across_batch: bool = True, sum_over_timesteps: bool = False, sum_over_batch: bool = False,
                  softmax_loss_function: Callable[..., tf.Tensor] | None = None,
                  name: str | None = None) -> tf.Tensor:
    """Weighted cross-entropy of ``logits`` ``[B, T, V]`` against ``targets`` ``[B, T]``, weights ``[B, T]``.

    ``average_across_*`` divides the sum over that axis by the sum of the weights (+1e-12); ``sum_over_*``
    divides it by the number of non-zero weights (+1e-12). The result has rank 0, 1 or 2.
    """
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot both be True")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot both be True")
    logits = tf.convert_to_tensor(logits)
    if logits.shape.rank is not None and logits.shape.rank != 3:
        raise ValueError(f"logits must be [batch, time, classes], got shape {logits.shape}")
    with tf.name_scope(name or "sequence_loss"):
        classes = tf.shape(logits)[2]
        flat_logits = tf.reshape(logits, [-1, classes])
        flat_targets = tf.reshape(targets, [-1])
        if softmax_loss_function is None:
            crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=flat_targets, logits=flat_logits)
        else:
            crossent = softmax_loss_function(labels=flat_targets, logits=flat_logits)
        weights = tf.cast(weights, crossent.dtype)
        crossent = crossent * tf.reshape(weights, [-1])
        nonzero = tf.cast(tf.math.count_nonzero(weights, axis=None), crossent.dtype)
        if (average_across_timesteps or sum_over_timesteps) and (average_across_batch or sum_over_batch):
            denominator = tf.reduce_sum(weights) if average_across_timesteps else nonzero
            return tf.reduce_sum(crossent) / (denominator + 1e-12)
        crossent = tf.reshape(crossent, tf.shape(logits)[0:2])
        for axis, average, summed in ((1, average_across_timesteps, sum_over_timesteps),
                                      (0, average_across_batch, sum_over_batch)):
            if average or summed:
                denominator = (tf.reduce_sum(weights, axis=axis) if average
                               else tf.cast(tf.math.count_nonzero(weights, axis=axis), crossent.dtype))
                return tf.reduce_sum(crossent, axis=axis) / (denominator + 1e-12)
        return crossent


def tile_batch(t: Any, multiplier: int, name: str | None = None) -> Any:
    """Repeat every batch entry ``multiplier`` times in place: ``[B, ...]`` -> ``[B * multiplier, ...]``
    (entry ``b`` becomes rows ``b*m .. b*m + m-1``), over a nested structure."""
    def tile_one(x: Any) -> tf.Tensor:
        x = tf.convert_to_tensor(x)
        if x.shape.rank == 0:
            raise ValueError(f"tile_batch needs tensors of rank >= 1, got a scalar ({x})")
        tiled = tf.repeat(x, multiplier, axis=0)
        batch = tf.compat.dimension_value(x.shape[0])
        if batch is not None:
            tiled.set_shape(tf.TensorShape([batch * multiplier]).concatenate(x.shape[1:]))
        return tiled
    with tf.name_scope(name or "tile_batch"):
        return tf.nest.map_structure(tile_one, t)


def gather_tree(step_ids: tf.Tensor, parent_ids: tf.Tensor, max_sequence_lengths: tf.Tensor,
                end_token: Any, name: str | None = None) -> tf.Tensor:
    """Follow beam-search back-pointers: ``[max_time, batch, beam]`` ids of each final beam's full sequence.

    From ``t = max_sequence_lengths[b] - 1`` down to 0, beam ``k``'s id is ``step_ids[t, b, k']`` where ``k'``
    follows ``parent_ids``; steps at or past the length, and every step after a beam's first ``end_token``,
    are ``end_token``.
    """
    with tf.name_scope(name or "gather_tree"):
        step_ids = tf.convert_to_tensor(step_ids)
        parent_ids = tf.cast(parent_ids, step_ids.dtype)
        end = tf.cast(end_token, step_ids.dtype)
        max_time = tf.shape(step_ids)[0]
        lengths = tf.cast(max_sequence_lengths, tf.int32)
        identity = tf.broadcast_to(tf.range(tf.shape(step_ids)[2], dtype=step_ids.dtype), tf.shape(step_ids)[1:])

        def back(beams: tf.Tensor, t: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
            valid = tf.expand_dims(t < lengths, 1)
            ids = tf.gather(step_ids[t], beams, batch_dims=1)
            parents = tf.gather(parent_ids[t], beams, batch_dims=1)
            return tf.where(valid, parents, beams), tf.where(valid, ids, tf.fill(tf.shape(ids), end))

        times = tf.range(max_time - 1, -1, -1)
        _, reversed_ids = tf.scan(lambda acc, t: back(acc[0], t), times, initializer=(identity, identity))
        ids = tf.reverse(reversed_ids, [0])
        after_end = tf.cumsum(tf.cast(tf.equal(ids, end), tf.int32), axis=0, exclusive=True) > 0
        return tf.where(after_end, tf.fill(tf.shape(ids), end), ids)


def _transpose_batch_time(x: tf.Tensor) -> tf.Tensor:
    rank = x.shape.rank
    if rank is not None and rank < 2:
        return x
    return tf.transpose(x, [1, 0, *range(2, rank)]) if rank is not None else x


def _zeros(batch: Any, size: Any, dtype: Any) -> tf.Tensor:
    """Zeros ``[batch, *size]`` (one step's output of a finished entry)."""
    return tf.zeros(tf.concat([tf.reshape(batch, [1]), tf.TensorShape(size).as_list()], 0), dtype=dtype)


def _keep_shape(new: Any, old: Any) -> Any:
    """``new`` with the static shape of ``old`` merged in (TensorArrays pass through)."""
    if isinstance(new, tf.Tensor) and isinstance(old, tf.Tensor):
        new.set_shape(new.shape.merge_with(old.shape))
    return new


def _where_batch(condition: tf.Tensor, x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
    """``where`` with ``condition`` ``[batch]`` (or ``[batch, beam]``) broadcast over the trailing axes of x."""
    cond = condition
    extra = (x.shape.rank or 0) - (condition.shape.rank or 0)
    for _ in range(max(extra, 0)):
        cond = tf.expand_dims(cond, -1)
    return tf.where(cond, x, y)


# ------------------------------------------------------------------ decoders
class Decoder(abc.ABC):
    """A decoder for :func:`dynamic_decode`: ``initialize() -> (finished, inputs, state)`` and
    ``step(time, inputs, state) -> (outputs, next_state, next_inputs, finished)``."""

    @property
    @abc.abstractmethod
    def batch_size(self) -> Any: ...

    @property
    @abc.abstractmethod
    def output_size(self) -> Any: ...

    @property
    @abc.abstractmethod
    def output_dtype(self) -> Any: ...

    @abc.abstractmethod
    def initialize(self, name: str | None = None) -> tuple[Any, Any, Any]: ...

    @abc.abstractmethod
    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> tuple[Any, Any, Any, Any]: ...

    def finalize(self, outputs: Any, final_state: Any, sequence_lengths: Any) -> tuple[Any, Any]:
        raise NotImplementedError

    @property
    def tracks_own_finished(self) -> bool:
        return False


def dynamic_decode(decoder: Decoder, output_time_major: bool = False, impute_finished: bool = False,
                   maximum_iterations: Any = None, parallel_iterations: int = 32, swap_memory: bool = False,
                   scope: Any = None) -> tuple[Any, Any, tf.Tensor]:
    """Run ``decoder`` step by step (a ``tf.while_loop``) until every entry is finished or ``maximum_iterations``.

    Returns (outputs stacked over time, final state, int32 sequence lengths ``[batch]``). With ``impute_finished``
    the outputs of finished entries are zeros and their state is carried through unchanged.
    """
    if not isinstance(decoder, Decoder):
        raise TypeError(f"dynamic_decode needs a tf.contrib.seq2seq.Decoder, got {type(decoder).__name__}")
    with v1.variable_scope(scope or "decoder"):
        if maximum_iterations is not None:
            maximum_iterations = tf.convert_to_tensor(maximum_iterations, dtype=tf.int32, name="maximum_iterations")
            if maximum_iterations.shape.rank not in (None, 0):
                raise ValueError(f"maximum_iterations must be a scalar, got shape {maximum_iterations.shape}")
        finished, inputs, state = decoder.initialize()
        batch = decoder.batch_size
        zero_outputs = tf.nest.map_structure(lambda size, dtype: _zeros(batch, size, dtype),
                                             decoder.output_size, decoder.output_dtype)
        if maximum_iterations is not None:
            finished = tf.logical_or(finished, 0 >= maximum_iterations)
        lengths = tf.zeros_like(finished, dtype=tf.int32)
        arrays = tf.nest.map_structure(lambda dtype: tf.TensorArray(dtype, size=0, dynamic_size=True),
                                       decoder.output_dtype)

        def condition(time: Any, arrays: Any, state: Any, inputs: Any, finished: Any, lengths: Any) -> Any:
            return tf.logical_not(tf.reduce_all(finished))

        def body(time: Any, arrays: Any, state: Any, inputs: Any, finished: Any, lengths: Any) -> tuple:
            outputs, next_state, next_inputs, step_finished = decoder.step(time, inputs, state)
            # Keep the loop variables' static shapes (a step may lose a batch size known before the loop).
            next_state = tf.nest.map_structure(_keep_shape, next_state, state)
            next_inputs = tf.nest.map_structure(_keep_shape, next_inputs, inputs)
            step_finished = _keep_shape(step_finished, finished)
            next_finished = step_finished if decoder.tracks_own_finished else tf.logical_or(step_finished, finished)
            next_lengths = tf.where(tf.logical_not(finished), tf.fill(tf.shape(lengths), time + 1), lengths)
            if maximum_iterations is not None:
                next_finished = tf.logical_or(next_finished, time + 1 >= maximum_iterations)
            if impute_finished:
                outputs = tf.nest.map_structure(lambda out, zero: _where_batch(finished, zero, out),
                                                outputs, zero_outputs)
                next_state = tf.nest.map_structure(
                    lambda new, cur: new if isinstance(cur, tf.TensorArray) or new.shape.rank == 0
                    else _where_batch(finished, cur, new), next_state, state)
            arrays = tf.nest.map_structure(lambda ta, out: ta.write(time, out), arrays, outputs)
            return time + 1, arrays, next_state, next_inputs, next_finished, next_lengths

        result = tf.while_loop(condition, body, (tf.constant(0, tf.int32), arrays, state, inputs, finished, lengths),
                               parallel_iterations=parallel_iterations, maximum_iterations=maximum_iterations,
                               swap_memory=swap_memory)
        final_outputs = tf.nest.map_structure(lambda ta: ta.stack(), result[1])
        final_state, final_lengths = result[2], result[5]
        try:
            final_outputs, final_state = decoder.finalize(final_outputs, final_state, final_lengths)
        except NotImplementedError:
            pass
        if not output_time_major:
            final_outputs = tf.nest.map_structure(_transpose_batch_time, final_outputs)
    return final_outputs, final_state, final_lengths


class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput", ("rnn_output", "sample_id"))):
    """One step of :class:`BasicDecoder`: the (projected) cell output and the sampled ids."""


def _output_depth(cell: Any, output_layer: Any) -> Any:
    if output_layer is None:
        return cell.output_size
    shape = output_layer.compute_output_shape(tf.TensorShape([None, cell.output_size]))
    return tf.TensorShape(shape)[1:]


class BasicDecoder(Decoder):
    """``cell`` (optionally followed by ``output_layer``, e.g. ``tf.layers.Dense(vocab)``) driven by ``helper``."""

    def __init__(self, cell: Any, helper: Helper, initial_state: Any, output_layer: Any = None) -> None:
        if not isinstance(helper, Helper):
            raise TypeError(f"helper must be a tf.contrib.seq2seq.Helper, got {type(helper).__name__}")
        self._cell = cell
        self._helper = helper
        self._initial_state = initial_state
        self._output_layer = output_layer

    @property
    def batch_size(self) -> Any:
        return self._helper.batch_size

    @property
    def output_size(self) -> BasicDecoderOutput:
        return BasicDecoderOutput(rnn_output=_output_depth(self._cell, self._output_layer),
                                  sample_id=self._helper.sample_ids_shape)

    @property
    def output_dtype(self) -> BasicDecoderOutput:
        dtype = tf.nest.flatten(self._initial_state)[0].dtype
        return BasicDecoderOutput(rnn_output=dtype, sample_id=self._helper.sample_ids_dtype)

    def initialize(self, name: str | None = None) -> tuple[Any, Any, Any]:
        return (*self._helper.initialize(), self._initial_state)

    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> tuple[Any, Any, Any, Any]:
        cell_outputs, cell_state = self._cell(inputs, state)
        if self._output_layer is not None:
            cell_outputs = self._output_layer(cell_outputs)
        sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
        finished, next_inputs, next_state = self._helper.next_inputs(time=time, outputs=cell_outputs,
                                                                     state=cell_state, sample_ids=sample_ids)
        return BasicDecoderOutput(cell_outputs, sample_ids), next_state, next_inputs, finished


# ------------------------------------------------------------------ helpers
class Helper(abc.ABC):
    """Decides each step's sample ids and next inputs for :class:`BasicDecoder`."""

    @property
    @abc.abstractmethod
    def batch_size(self) -> Any: ...

    #: What :attr:`sample_ids_shape` and :attr:`sample_ids_dtype` give (a helper given other ids sets its own).
    _sample_ids_shape: tf.TensorShape = tf.TensorShape([])
    _sample_ids_dtype: Any = tf.int32

    @property
    def sample_ids_shape(self) -> tf.TensorShape:
        return self._sample_ids_shape

    @property
    def sample_ids_dtype(self) -> Any:
        return self._sample_ids_dtype

    @abc.abstractmethod
    def initialize(self, name: str | None = None) -> tuple[Any, Any]: ...

    @abc.abstractmethod
    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any: ...

    @abc.abstractmethod
    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]: ...


class _FromStartInputs:
    """A helper whose decoding starts from ``_start_inputs`` ``[batch, ...]`` with nothing finished."""

    _batch_size: Any
    _start_inputs: Any

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    def initialize(self, name: str | None = None) -> tuple[Any, Any]:
        return tf.fill(tf.reshape(self._batch_size, [1]), False), self._start_inputs


class CustomHelper(Helper):
    """A helper from three functions: ``initialize_fn() -> (finished, inputs)``, ``sample_fn(time, outputs,
    state) -> ids`` and ``next_inputs_fn(time, outputs, state, sample_ids) -> (finished, inputs, state)``."""

    def __init__(self, initialize_fn: Callable[[], tuple[Any, Any]], sample_fn: Callable[..., Any],
                 next_inputs_fn: Callable[..., tuple[Any, Any, Any]], sample_ids_shape: Any = None,
                 sample_ids_dtype: Any = None) -> None:
        self._initialize_fn = initialize_fn
        self._sample_fn = sample_fn
        self._next_inputs_fn = next_inputs_fn
        self._batch_size: Any = None
        self._sample_ids_shape = tf.TensorShape(sample_ids_shape or [])
        self._sample_ids_dtype = sample_ids_dtype or tf.int32

    @property
    def batch_size(self) -> Any:
        if self._batch_size is None:
            raise ValueError("CustomHelper.batch_size is known only after initialize() was called")
        return self._batch_size

    def initialize(self, name: str | None = None) -> tuple[Any, Any]:
        finished, inputs = self._initialize_fn()
        if self._batch_size is None:
            self._batch_size = tf.size(finished)
        return finished, inputs

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        return self._sample_fn(time=time, outputs=outputs, state=state)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        return self._next_inputs_fn(time=time, outputs=outputs, state=state, sample_ids=sample_ids)


class TrainingHelper(Helper):
    """Teacher forcing: step ``t`` reads ``inputs[:, t]``; entry ``b`` finishes after ``sequence_length[b]`` steps."""

    def __init__(self, inputs: Any, sequence_length: Any, time_major: bool = False, name: str | None = None) -> None:
        with tf.name_scope(name or "TrainingHelper"):
            inputs = tf.nest.map_structure(tf.convert_to_tensor, inputs)
            if not time_major:
                inputs = tf.nest.map_structure(_transpose_batch_time, inputs)
            self._inputs = inputs
            self._sequence_length = tf.convert_to_tensor(sequence_length, name="sequence_length")
            if self._sequence_length.shape.rank not in (None, 1):
                raise ValueError(f"sequence_length must be a vector [batch], got shape "
                                 f"{self._sequence_length.shape}")
            self._zero_inputs = tf.nest.map_structure(lambda x: tf.zeros_like(x[0]), inputs)
            self._batch_size = tf.size(self._sequence_length)

    @property
    def inputs(self) -> Any:
        return self._inputs

    @property
    def sequence_length(self) -> tf.Tensor:
        return self._sequence_length

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    def _read(self, time: Any, finished: tf.Tensor) -> Any:
        """The inputs of step ``time`` (zeros once every entry is finished, so the read stays in range)."""
        return tf.cond(tf.reduce_all(finished), lambda: self._zero_inputs,
                       lambda: tf.nest.map_structure(lambda x: tf.gather(x, time), self._inputs))

    def initialize(self, name: str | None = None) -> tuple[Any, Any]:
        finished = tf.equal(0, self._sequence_length)
        return finished, self._read(0, finished)

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        return tf.cast(tf.argmax(outputs, axis=-1), tf.int32)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        next_time = time + 1
        finished = next_time >= self._sequence_length
        return finished, self._read(next_time, finished), state


def _embedding_fn(embedding: Any) -> Callable[[tf.Tensor], tf.Tensor]:
    if callable(embedding):
        return embedding
    params = tf.convert_to_tensor(embedding, name="embedding")
    return lambda ids: tf.nn.embedding_lookup(params, ids)


class GreedyEmbeddingHelper(_FromStartInputs, Helper):
    """Inference: feed back the embedding of the argmax id; an entry finishes when it emits ``end_token``."""

    def __init__(self, embedding: Any, start_tokens: Any, end_token: Any) -> None:
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32, name="start_tokens")
        self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
        if self._start_tokens.shape.rank not in (None, 1):
            raise ValueError(f"start_tokens must be a vector [batch], got shape {self._start_tokens.shape}")
        if self._end_token.shape.rank not in (None, 0):
            raise ValueError(f"end_token must be a scalar, got shape {self._end_token.shape}")
        self._batch_size = tf.size(self._start_tokens)
        self._start_inputs = self._embedding_fn(self._start_tokens)

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        if not isinstance(outputs, tf.Tensor):
            raise TypeError(f"GreedyEmbeddingHelper needs tensor outputs (logits), got {type(outputs).__name__}")
        return tf.cast(tf.argmax(outputs, axis=-1), tf.int32)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        finished = tf.equal(sample_ids, self._end_token)
        next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._start_inputs,
                              lambda: self._embedding_fn(sample_ids))
        return finished, next_inputs, state


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
    """Like :class:`GreedyEmbeddingHelper`, but samples the id from ``softmax(logits / softmax_temperature)``."""

    def __init__(self, embedding: Any, start_tokens: Any, end_token: Any, softmax_temperature: Any = None,
                 seed: int | None = None) -> None:
        super().__init__(embedding, start_tokens, end_token)
        self._temperature = softmax_temperature
        self._seed = seed

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        logits = outputs if self._temperature is None else outputs / self._temperature
        return tf.cast(tf.random.categorical(logits, 1, seed=self._seed)[:, 0], tf.int32)


class InferenceHelper(_FromStartInputs, Helper):
    """Inference without embeddings: ``sample_fn(outputs)`` gives the ids, ``end_fn(ids)`` the finished flags,
    ``next_inputs_fn(ids)`` (default: the ids themselves) the next inputs."""

    def __init__(self, sample_fn: Callable[[Any], Any], sample_shape: Any, sample_dtype: Any, start_inputs: Any,
                 end_fn: Callable[[Any], Any], next_inputs_fn: Callable[[Any], Any] | None = None) -> None:
        self._sample_fn = sample_fn
        self._end_fn = end_fn
        self._sample_ids_shape = tf.TensorShape(sample_shape)
        self._sample_ids_dtype = sample_dtype
        self._next_inputs_fn = next_inputs_fn
        self._start_inputs = tf.convert_to_tensor(start_inputs, name="start_inputs")
        self._batch_size = tf.shape(self._start_inputs)[0]

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        return self._sample_fn(outputs)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        next_inputs = sample_ids if self._next_inputs_fn is None else self._next_inputs_fn(sample_ids)
        return self._end_fn(sample_ids), next_inputs, state


class ScheduledEmbeddingTrainingHelper(TrainingHelper):
    """Scheduled sampling: with probability ``sampling_probability`` an entry is fed the embedding of an id
    sampled from its logits instead of the true next input (sample id -1 marks "not sampled")."""

    def __init__(self, inputs: Any, sequence_length: Any, embedding: Any, sampling_probability: Any,
                 time_major: bool = False, seed: int | None = None, scheduling_seed: int | None = None,
                 name: str | None = None) -> None:
        self._embedding_fn = _embedding_fn(embedding)
        self._probability = tf.convert_to_tensor(sampling_probability, name="sampling_probability")
        if self._probability.shape.rank not in (None, 0, 1):
            raise ValueError(f"sampling_probability must be a scalar or a vector, got shape {self._probability.shape}")
        self._seed = seed
        self._scheduling_seed = scheduling_seed
        super().__init__(inputs, sequence_length, time_major, name or "ScheduledEmbeddingSamplingWrapper")

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        chosen = tf.random.uniform(tf.reshape(self.batch_size, [1]), seed=self._scheduling_seed) < self._probability
        sampled = tf.cast(tf.random.categorical(outputs, 1, seed=self._seed)[:, 0], tf.int32)
        return tf.where(chosen, sampled, -tf.ones_like(sampled))

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        finished, base_inputs, state = super().next_inputs(time, outputs, state, sample_ids)
        sampled = self._embedding_fn(tf.maximum(sample_ids, 0))
        mixed = tf.cond(tf.reduce_all(finished), lambda: base_inputs,
                        lambda: _where_batch(sample_ids > -1, sampled, base_inputs))
        return finished, mixed, state


class ScheduledOutputTrainingHelper(TrainingHelper):
    """Scheduled sampling on outputs: with probability ``sampling_probability`` an entry is fed its own output
    (through ``next_inputs_fn``, joined with ``auxiliary_inputs``) instead of the true next input."""

    def __init__(self, inputs: Any, sequence_length: Any, sampling_probability: Any, time_major: bool = False,
                 seed: int | None = None, next_inputs_fn: Callable[[Any], Any] | None = None,
                 auxiliary_inputs: Any = None, name: str | None = None) -> None:
        self._probability = tf.convert_to_tensor(sampling_probability, name="sampling_probability")
        self._seed = seed
        self._next_inputs_fn = next_inputs_fn
        self._auxiliary = None
        if auxiliary_inputs is not None:
            aux = tf.convert_to_tensor(auxiliary_inputs)
            self._auxiliary = aux if time_major else _transpose_batch_time(aux)
            inputs = tf.concat([inputs, auxiliary_inputs], -1)
        super().__init__(inputs, sequence_length, time_major, name or "ScheduledOutputTrainingHelper")

    @property
    def sample_ids_dtype(self) -> Any:
        return tf.bool

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        return tf.random.uniform(tf.reshape(self.batch_size, [1]), seed=self._seed) < self._probability

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: str | None = None) -> tuple[Any, Any, Any]:
        finished, base_inputs, state = super().next_inputs(time, outputs, state, sample_ids)
        own = outputs if self._next_inputs_fn is None else self._next_inputs_fn(outputs)
        if self._auxiliary is not None:
            aux = tf.cond(tf.reduce_all(finished), lambda: tf.zeros_like(self._auxiliary[0]),
                          lambda: tf.gather(self._auxiliary, time + 1))
            own = tf.concat([own, aux], -1)
        mixed = tf.cond(tf.reduce_all(finished), lambda: base_inputs,
                        lambda: _where_batch(sample_ids, tf.cast(own, base_inputs.dtype), base_inputs))
        return finished, mixed, state


# ------------------------------------------------------------------ beam search
class BeamSearchDecoderState(collections.namedtuple(
        "BeamSearchDecoderState", ("cell_state", "log_probs", "finished", "lengths", "accumulated_attention_probs"))):
    """Beam search state: the cell state ``[B, beam, ...]``, cumulative log-probs, finished flags and lengths."""


class BeamSearchDecoderOutput(collections.namedtuple("BeamSearchDecoderOutput",
                                                     ("scores", "predicted_ids", "parent_ids"))):
    """One beam-search step: each beam's score, chosen id and parent beam (all ``[B, beam]``)."""


class FinalBeamSearchDecoderOutput(collections.namedtuple("FinalBeamSearchDecoderOutput",
                                                          ("predicted_ids", "beam_search_decoder_output"))):
    """``predicted_ids`` ``[B, T, beam]`` (back-tracked by :func:`gather_tree`) and the raw step outputs."""


def _split_beams(t: Any, batch: Any, beam: int) -> Any:
    if isinstance(t, tf.TensorArray) or t.shape.rank == 0:
        return t
    return tf.reshape(t, tf.concat([[batch, beam], tf.shape(t)[1:]], 0))


def _merge_beams(t: Any, batch: Any, beam: int) -> Any:
    if isinstance(t, tf.TensorArray) or t.shape.rank is None or t.shape.rank < 2:
        return t
    merged = tf.reshape(t, tf.concat([[batch * beam], tf.shape(t)[2:]], 0))
    merged.set_shape(tf.TensorShape([None]).concatenate(t.shape[2:]))
    return merged


class BeamSearchDecoder(Decoder):
    """Beam search over ``cell`` (+ ``output_layer``) with the GNMT length penalty ``((5 + len) / 6) ** alpha``.

    Each step adds ``log_softmax(logits)`` to every live beam's log-prob (a finished beam may only extend with
    ``end_token`` at no cost), scores ``log_prob / penalty(len)``, keeps the ``beam_width`` best of the
    ``beam_width * vocab`` candidates per batch entry and reorders the cell state by parent beam.
    ``initial_state`` must be tiled: ``tile_batch(encoder_state, beam_width)``.
    """

    def __init__(self, cell: Any, embedding: Any, start_tokens: Any, end_token: Any, initial_state: Any,
                 beam_width: int, output_layer: Any = None, length_penalty_weight: float = 0.0,
                 coverage_penalty_weight: float = 0.0, reorder_tensor_arrays: bool = True) -> None:
        if coverage_penalty_weight != 0.0:
            raise ValueError("BeamSearchDecoder(coverage_penalty_weight != 0) is not provided; use 0.0")
        if beam_width < 1:
            raise ValueError(f"beam_width must be >= 1, got {beam_width}")
        self._cell = cell
        self._output_layer = output_layer
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = tf.convert_to_tensor(start_tokens, dtype=tf.int32, name="start_tokens")
        if self._start_tokens.shape.rank not in (None, 1):
            raise ValueError(f"start_tokens must be a vector [batch], got shape {self._start_tokens.shape}")
        self._end_token = tf.convert_to_tensor(end_token, dtype=tf.int32, name="end_token")
        self._beam_width = beam_width
        self._length_penalty_weight = length_penalty_weight
        self._batch_size = tf.size(self._start_tokens)
        self._initial_cell_state = tf.nest.map_structure(
            lambda t: _split_beams(t, self._batch_size, beam_width), initial_state)
        self._start_tokens_tiled = tf.tile(tf.expand_dims(self._start_tokens, 1), [1, beam_width])
        self._start_inputs = self._embedding_fn(self._start_tokens_tiled)
        self._dtype = tf.nest.flatten(initial_state)[0].dtype

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def tracks_own_finished(self) -> bool:
        return True

    @property
    def output_size(self) -> BeamSearchDecoderOutput:
        beam = tf.TensorShape([self._beam_width])
        return BeamSearchDecoderOutput(scores=beam, predicted_ids=beam, parent_ids=beam)

    @property
    def output_dtype(self) -> BeamSearchDecoderOutput:
        return BeamSearchDecoderOutput(scores=self._dtype, predicted_ids=tf.int32, parent_ids=tf.int32)

    def initialize(self, name: str | None = None) -> tuple[Any, Any, Any]:
        beam = self._beam_width
        zeros = tf.zeros(tf.reshape(self._batch_size, [1]), dtype=tf.int32)
        finished = tf.one_hot(zeros, beam, on_value=False, off_value=True, dtype=tf.bool)
        log_probs = tf.one_hot(zeros, beam, on_value=tf.constant(0, self._dtype),
                               off_value=tf.constant(-np.inf, self._dtype), dtype=self._dtype)
        state = BeamSearchDecoderState(cell_state=self._initial_cell_state, log_probs=log_probs, finished=finished,
                                       lengths=tf.zeros(tf.stack([self._batch_size, beam]), dtype=tf.int64),
                                       accumulated_attention_probs=())
        return finished, self._start_inputs, state

    def _penalty(self, lengths: tf.Tensor) -> Any:
        if self._length_penalty_weight == 0.0:
            return 1.0
        return tf.pow((5.0 + tf.cast(lengths, self._dtype)) / 6.0, self._length_penalty_weight)

    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> tuple[Any, Any, Any, Any]:
        batch, beam = self._batch_size, self._beam_width
        merged_inputs = tf.nest.map_structure(lambda t: _merge_beams(t, batch, beam), inputs)
        merged_state = tf.nest.map_structure(lambda t: _merge_beams(t, batch, beam), state.cell_state)
        cell_outputs, next_cell_state = self._cell(merged_inputs, merged_state)
        if self._output_layer is not None:
            cell_outputs = self._output_layer(cell_outputs)
        logits = _split_beams(cell_outputs, batch, beam)
        next_cell_state = tf.nest.map_structure(lambda t: _split_beams(t, batch, beam), next_cell_state)
        output, next_state = self._search_step(time, logits, next_cell_state, state)
        finished = next_state.finished
        next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._start_inputs,
                              lambda: self._embedding_fn(output.predicted_ids))
        return output, next_state, next_inputs, finished

    def _search_step(self, time: Any, logits: tf.Tensor, cell_state: Any,
                     state: BeamSearchDecoderState) -> tuple[BeamSearchDecoderOutput, BeamSearchDecoderState]:
        vocab = tf.shape(logits)[-1]
        beam = self._beam_width
        step_log_probs = tf.nn.log_softmax(logits)
        # A finished beam can only be extended by end_token, at no cost, so it keeps its score.
        finished_row = tf.one_hot(self._end_token, vocab, on_value=tf.constant(0, self._dtype),
                                  off_value=tf.constant(self._dtype.min, self._dtype), dtype=self._dtype)
        step_log_probs = tf.where(tf.expand_dims(state.finished, 2),
                                  tf.broadcast_to(finished_row, tf.shape(step_log_probs)), step_log_probs)
        total = tf.expand_dims(state.log_probs, 2) + step_log_probs
        not_end = tf.one_hot(self._end_token, vocab, on_value=tf.constant(0, tf.int64),
                             off_value=tf.constant(1, tf.int64), dtype=tf.int64)
        add = not_end * tf.expand_dims(tf.cast(tf.logical_not(state.finished), tf.int64), 2)
        new_lengths = tf.expand_dims(state.lengths, 2) + add
        scores = total / self._penalty(new_lengths)
        # At step 0 all beams are copies of the start: choose among the first beam's words only.
        flat_scores = tf.cond(time > 0, lambda: tf.reshape(scores, [self._batch_size, -1]), lambda: scores[:, 0])
        top_scores, indices = tf.math.top_k(flat_scores, k=beam)
        indices = tf.cast(indices, tf.int32)
        word_ids = indices % vocab
        parent_ids = indices // vocab
        next_log_probs = tf.gather(tf.reshape(total, [self._batch_size, -1]), indices, batch_dims=1)
        parent_finished = tf.gather(state.finished, parent_ids, batch_dims=1)
        next_finished = tf.logical_or(parent_finished, tf.equal(word_ids, self._end_token))
        next_lengths = (tf.gather(state.lengths, parent_ids, batch_dims=1)
                        + tf.cast(tf.logical_not(parent_finished), tf.int64))
        next_cell_state = tf.nest.map_structure(
            lambda t: t if isinstance(t, tf.TensorArray) or t.shape.rank is None or t.shape.rank < 2
            else tf.gather(t, parent_ids, batch_dims=1), cell_state)
        output = BeamSearchDecoderOutput(scores=top_scores, predicted_ids=word_ids, parent_ids=parent_ids)
        next_state = BeamSearchDecoderState(cell_state=next_cell_state, log_probs=next_log_probs,
                                            finished=next_finished, lengths=next_lengths,
                                            accumulated_attention_probs=())
        return output, next_state

    def finalize(self, outputs: Any, final_state: Any, sequence_lengths: Any) -> tuple[Any, Any]:
        max_lengths = tf.cast(tf.reduce_max(final_state.lengths, axis=1), tf.int32)
        predicted = gather_tree(outputs.predicted_ids, outputs.parent_ids, max_lengths, self._end_token)
        return FinalBeamSearchDecoderOutput(predicted_ids=predicted, beam_search_decoder_output=outputs), final_state
