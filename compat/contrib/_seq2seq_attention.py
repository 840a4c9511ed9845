"""The attention mechanisms and ``AttentionWrapper`` of TF 1.x's ``tf.contrib.seq2seq``, written from their equations.

Shapes: ``memory`` ``[batch, max_time, depth]``; ``memory_sequence_length`` int
``[batch]``; a query is the cell output ``[batch, query_depth]``; alignments are
``[batch, max_time]``. Variables as TF 1.x created them: ``memory_layer/kernel``
where the mechanism is constructed; ``<wrapper>/bahdanau_attention/query_layer/kernel``,
``.../attention_v`` (``attention_g``, ``attention_b`` when normalized),
``.../luong_attention/attention_g`` when scaled, ``attention_score_bias`` for
the monotonic forms, ``<wrapper>/attention_layer/kernel``.

Imported only when a script touches ``tf.contrib.seq2seq``.
"""
from __future__ import annotations

import collections
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import tensorflow as tf
from tf_keras.src.layers.rnn import legacy_cells
from tf_keras.src.legacy_tf_layers import core as legacy_core

v1 = tf.compat.v1

__all__ = [
    "AttentionMechanism", "AttentionWrapper", "AttentionWrapperState", "BahdanauAttention",
    "BahdanauMonotonicAttention", "LuongAttention", "LuongMonotonicAttention", "hardmax", "monotonic_attention",
    "monotonic_probability_fn", "safe_cumprod",
]


class AttentionWrapperState(collections.namedtuple(
        "AttentionWrapperState",
        ("cell_state", "attention", "time", "alignments", "alignment_history", "attention_state"))):
    """The state of :class:`AttentionWrapper`: the wrapped cell's state, the last attention ``[batch, size]``,
    the step (int32 scalar), the alignments, their history (TensorArrays or ``()``) and the mechanisms' states."""

    def clone(self, **kwargs: Any) -> AttentionWrapperState:
        """A copy with the given fields replaced (``state.clone(cell_state=encoder_state)``)."""
        return self._replace(**kwargs)


def hardmax(logits: tf.Tensor, name: str | None = None) -> tf.Tensor:
    """One-hot of the argmax over the last axis of ``logits``, in ``logits``' dtype."""
    with tf.name_scope(name or "Hardmax"):
        logits = tf.convert_to_tensor(logits, name="logits")
        depth = tf.compat.dimension_value(logits.shape[-1]) or tf.shape(logits)[-1]
        return tf.one_hot(tf.argmax(logits, -1), depth, dtype=logits.dtype)


def safe_cumprod(x: tf.Tensor, *args: Any, **kwargs: Any) -> tf.Tensor:
    """``cumprod(x)`` computed as ``exp(cumsum(log(clip(x, tiny, 1))))`` so that small factors do not underflow."""
    with tf.name_scope("SafeCumprod"):
        x = tf.convert_to_tensor(x, name="x")
        tiny = np.finfo(x.dtype.as_numpy_dtype).tiny
        return tf.exp(tf.cumsum(tf.math.log(tf.clip_by_value(x, tiny, 1)), *args, **kwargs))


def monotonic_attention(p_choose_i: tf.Tensor, previous_attention: tf.Tensor, mode: str) -> tf.Tensor:
    """Expected monotonic alignment (Raffel et al. 2017) from choose probabilities ``[batch, T]``.

    ``alpha_j = p_j * sum_{k<=j} alpha'_k * prod_{k<=l<j} (1 - p_l)``; ``mode`` is ``"recursive"`` (a scan),
    ``"parallel"`` (cumulative products, clipped at 1e-10) or ``"hard"`` (0/1 choices, one-hot attention).
    """
    p_choose_i = tf.convert_to_tensor(p_choose_i, name="p_choose_i")
    previous_attention = tf.convert_to_tensor(previous_attention, name="previous_attention")
    if mode == "recursive":
        # q_j = (1 - p_{j-1}) q_{j-1} + alpha'_j, scanned over the memory axis.
        shifted = tf.concat([tf.ones_like(p_choose_i[:, :1]), 1 - p_choose_i[:, :-1]], 1)
        q = tf.scan(lambda acc, elems: elems[0] * acc + elems[1],
                    (tf.transpose(shifted), tf.transpose(previous_attention)),
                    initializer=tf.zeros_like(p_choose_i[:, 0]))
        return p_choose_i * tf.transpose(q)
    if mode == "parallel":
        cumprod_1mp = safe_cumprod(1 - p_choose_i, axis=1, exclusive=True)
        return p_choose_i * cumprod_1mp * tf.cumsum(previous_attention / tf.clip_by_value(cumprod_1mp, 1e-10, 1.),
                                                    axis=1)
    if mode == "hard":
        p_choose_i = p_choose_i * tf.cumsum(previous_attention, axis=1)  # nothing before the last chosen index
        return p_choose_i * tf.math.cumprod(1 - p_choose_i, axis=1, exclusive=True)
    raise ValueError(f"monotonic_attention mode must be 'recursive', 'parallel' or 'hard', got {mode!r}")


def monotonic_probability_fn(score: tf.Tensor, previous_alignments: tf.Tensor, sigmoid_noise: float, mode: str,
                             seed: int | None = None) -> tf.Tensor:
    """``monotonic_attention(sigmoid(score + noise), previous_alignments, mode)``; in ``"hard"`` mode the
    choice is ``score > 0`` (noise must then be 0)."""
    if sigmoid_noise > 0:
        score += sigmoid_noise * tf.random.normal(tf.shape(score), dtype=score.dtype, seed=seed)
    if mode == "hard":
        p_choose_i = tf.cast(score > 0, score.dtype)
    else:
        p_choose_i = tf.sigmoid(score)
    return monotonic_attention(p_choose_i, previous_alignments, mode)


def _mask_score(score: tf.Tensor, lengths: Any, mask_value: Any) -> tf.Tensor:
    if lengths is None:
        return score
    mask = tf.sequence_mask(lengths, maxlen=tf.shape(score)[1])
    return tf.where(mask, score, tf.ones_like(score) * mask_value)


class AttentionMechanism:
    """Base of the attention mechanisms (``alignments, next_state = mechanism(query, state)``)."""


class _BaseAttentionMechanism(AttentionMechanism):
    """Memory ``values`` (zeroed past each length), ``keys = memory_layer(values)`` and the masked probability."""

    scope_name = "attention"

    def __init__(self, query_layer: Any, memory: Any, probability_fn: Callable[..., tf.Tensor],
                 memory_sequence_length: Any = None, memory_layer: Any = None, score_mask_value: Any = None,
                 name: str | None = None) -> None:
        self._query_layer = query_layer
        self._memory_layer = memory_layer
        self.dtype = memory_layer.dtype if memory_layer is not None else None
        with tf.name_scope(name or "BaseAttentionMechanismInit"):
            memory = tf.nest.map_structure(tf.convert_to_tensor, memory)
            self._values = memory
            if memory_sequence_length is not None:
                mask = tf.sequence_mask(memory_sequence_length, maxlen=tf.shape(memory)[1], dtype=memory.dtype)
                self._values = memory * tf.expand_dims(mask, 2)
            self._keys = memory_layer(self._values) if memory_layer is not None else self._values
        batch, time = tf.compat.dimension_value(self._keys.shape[0]), tf.compat.dimension_value(self._keys.shape[1])
        self._batch_size = batch if batch is not None else tf.shape(self._keys)[0]
        self._alignments_size = time if time is not None else tf.shape(self._keys)[1]
        if score_mask_value is None:
            score_mask_value = self._values.dtype.as_numpy_dtype(-np.inf)
        self._probability_fn = lambda score, prev: probability_fn(
            _mask_score(score, memory_sequence_length, score_mask_value), prev)

    @property
    def memory_layer(self) -> Any:
        return self._memory_layer

    @property
    def query_layer(self) -> Any:
        return self._query_layer

    @property
    def values(self) -> tf.Tensor:
        return self._values

    @property
    def keys(self) -> tf.Tensor:
        return self._keys

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def alignments_size(self) -> Any:
        return self._alignments_size

    @property
    def state_size(self) -> Any:
        return self._alignments_size

    def initial_alignments(self, batch_size: Any, dtype: Any) -> tf.Tensor:
        """Zeros ``[batch_size, max_time]``."""
        return tf.zeros(tf.stack([batch_size, self._alignments_size]), dtype=dtype)

    def initial_state(self, batch_size: Any, dtype: Any) -> tf.Tensor:
        return self.initial_alignments(batch_size, dtype)

    def _score(self, query: tf.Tensor) -> tf.Tensor:
        raise NotImplementedError

    def __call__(self, query: tf.Tensor, state: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        with v1.variable_scope(None, self.scope_name, [query]):
            score = self._score(query)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def _dense(units: int, name: str, dtype: Any) -> Any:
    return legacy_core.Dense(units, name=name, use_bias=False, dtype=dtype)


class BahdanauAttention(_BaseAttentionMechanism):
    """Additive attention: ``score_j = v . tanh(keys_j + query @ W_q)``; ``normalize`` uses weight-normalised
    ``g * v / |v|`` and a bias ``b`` inside the tanh."""

    scope_name = "bahdanau_attention"

    def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None, normalize: bool = False,
                 probability_fn: Callable[..., tf.Tensor] | None = None, score_mask_value: Any = None,
                 dtype: Any = None, custom_key_value_fn: Any = None, name: str = "BahdanauAttention") -> None:
        if custom_key_value_fn is not None:
            raise ValueError("BahdanauAttention(custom_key_value_fn=...) is not provided; pass the keys as memory")
        dtype = dtype or tf.float32
        prob = probability_fn or tf.nn.softmax
        super().__init__(_dense(num_units, "query_layer", dtype), memory, lambda score, _: prob(score),
                         memory_sequence_length, _dense(num_units, "memory_layer", dtype), score_mask_value, name)
        self._num_units = num_units
        self._normalize = normalize

    def _score(self, query: tf.Tensor) -> tf.Tensor:
        processed = tf.expand_dims(self._query_layer(query), 1)
        keys = self._keys
        v = v1.get_variable("attention_v", [self._num_units], dtype=keys.dtype)
        if not self._normalize:
            return tf.reduce_sum(v * tf.tanh(keys + processed), [2])
        g = v1.get_variable("attention_g", dtype=keys.dtype, shape=(),
                            initializer=v1.constant_initializer(math.sqrt(1.0 / self._num_units)))
        b = v1.get_variable("attention_b", [self._num_units], dtype=keys.dtype, initializer=v1.zeros_initializer())
        normed_v = g * v * tf.math.rsqrt(tf.reduce_sum(tf.square(v)))
        return tf.reduce_sum(normed_v * tf.tanh(keys + processed + b), [2])


class LuongAttention(_BaseAttentionMechanism):
    """Multiplicative attention: ``score_j = query . keys_j`` (times a learned scalar ``attention_g`` if ``scale``)."""

    scope_name = "luong_attention"

    def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None, scale: bool = False,
                 probability_fn: Callable[..., tf.Tensor] | None = None, score_mask_value: Any = None,
                 dtype: Any = None, custom_key_value_fn: Any = None, name: str = "LuongAttention") -> None:
        if custom_key_value_fn is not None:
            raise ValueError("LuongAttention(custom_key_value_fn=...) is not provided; pass the keys as memory")
        dtype = dtype or tf.float32
        prob = probability_fn or tf.nn.softmax
        super().__init__(None, memory, lambda score, _: prob(score), memory_sequence_length,
                         _dense(num_units, "memory_layer", dtype), score_mask_value, name)
        self._num_units = num_units
        self._scale = scale

    def _score(self, query: tf.Tensor) -> tf.Tensor:
        depth, units = tf.compat.dimension_value(query.shape[-1]), tf.compat.dimension_value(self._keys.shape[-1])
        if depth is not None and units is not None and depth != units:
            raise ValueError(f"LuongAttention needs query depth == num_units ({units}), got {depth}; "
                             "use a cell with num_units outputs")
        score = tf.squeeze(tf.matmul(tf.expand_dims(query, 1), self._keys, transpose_b=True), [1])
        if self._scale:
            g = v1.get_variable("attention_g", dtype=score.dtype, shape=(), initializer=v1.ones_initializer())
            score = g * score
        return score


class _MonotonicMixin:
    """Monotonic forms: a learned scalar ``attention_score_bias`` and one-hot-at-0 initial alignments."""

    _score_bias_init: float
    _alignments_size: Any

    def _biased(self, score: tf.Tensor) -> tf.Tensor:
        bias = v1.get_variable("attention_score_bias", dtype=score.dtype, shape=(),
                               initializer=v1.constant_initializer(self._score_bias_init))
        return score + bias

    def initial_alignments(self, batch_size: Any, dtype: Any) -> tf.Tensor:
        """One-hot ``[batch_size, max_time]`` at position 0 (attention starts at the first memory entry)."""
        return tf.one_hot(tf.zeros(tf.reshape(batch_size, [1]), dtype=tf.int32), self._alignments_size, dtype=dtype)


class BahdanauMonotonicAttention(_MonotonicMixin, BahdanauAttention):
    """:class:`BahdanauAttention` scores (+ ``attention_score_bias``) through :func:`monotonic_probability_fn`."""

    scope_name = "bahdanau_monotonic_attention"

    def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None, normalize: bool = False,
                 score_mask_value: Any = None, sigmoid_noise: float = 0., sigmoid_noise_seed: int | None = None,
                 score_bias_init: float = 0., mode: str = "parallel", dtype: Any = None,
                 name: str = "BahdanauMonotonicAttention") -> None:
        self._score_bias_init = score_bias_init

        def prob(score: tf.Tensor, previous: tf.Tensor) -> tf.Tensor:
            return monotonic_probability_fn(score, previous, sigmoid_noise, mode, sigmoid_noise_seed)
        super().__init__(num_units, memory, memory_sequence_length, normalize, None, score_mask_value, dtype,
                         None, name)
        self._probability_fn = lambda score, prev: prob(
            _mask_score(score, memory_sequence_length, score_mask_value if score_mask_value is not None
                        else self._values.dtype.as_numpy_dtype(-np.inf)), prev)

    def _score(self, query: tf.Tensor) -> tf.Tensor:
        return self._biased(BahdanauAttention._score(self, query))


class LuongMonotonicAttention(_MonotonicMixin, LuongAttention):
    """:class:`LuongAttention` scores (+ ``attention_score_bias``) through :func:`monotonic_probability_fn`."""

    scope_name = "luong_monotonic_attention"

    def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None, scale: bool = False,
                 score_mask_value: Any = None, sigmoid_noise: float = 0., sigmoid_noise_seed: int | None = None,
                 score_bias_init: float = 0., mode: str = "parallel", dtype: Any = None,
                 name: str = "LuongMonotonicAttention") -> None:
        self._score_bias_init = score_bias_init

        def prob(score: tf.Tensor, previous: tf.Tensor) -> tf.Tensor:
            return monotonic_probability_fn(score, previous, sigmoid_noise, mode, sigmoid_noise_seed)
        super().__init__(num_units, memory, memory_sequence_length, scale, None, score_mask_value, dtype, None, name)
        self._probability_fn = lambda score, prev: prob(
            _mask_score(score, memory_sequence_length, score_mask_value if score_mask_value is not None
                        else self._values.dtype.as_numpy_dtype(-np.inf)), prev)

    def _score(self, query: tf.Tensor) -> tf.Tensor:
        return self._biased(LuongAttention._score(self, query))


def _compute_attention(mechanism: Any, cell_output: tf.Tensor, attention_state: Any,
                       attention_layer: Any) -> tuple[tf.Tensor, tf.Tensor, Any]:
    """(attention ``[B, size]``, alignments ``[B, T]``, next mechanism state) for one mechanism."""
    alignments, next_state = mechanism(cell_output, state=attention_state)
    context = tf.squeeze(tf.matmul(tf.expand_dims(alignments, 1), mechanism.values), [1])
    attention = attention_layer(tf.concat([cell_output, context], 1)) if attention_layer is not None else context
    return attention, alignments, next_state


class AttentionWrapper(legacy_cells.RNNCell):
    """A cell reading ``attention_mechanism`` (one or a list) after each step of ``cell``.

    ``out, s = cell(cell_input_fn(x, previous attention), s)``; per mechanism ``a = softmax-score(out)``,
    ``context = a @ values``, ``attention = [out, context] @ attention_layer`` (or ``context`` without a layer
    size); the output is ``attention`` (``output_attention=True``) or ``out``.
    """

    def __init__(self, cell: Any, attention_mechanism: Any, attention_layer_size: Any = None,
                 alignment_history: bool = False, cell_input_fn: Callable[..., tf.Tensor] | None = None,
                 output_attention: bool = True, initial_cell_state: Any = None, name: str | None = None,
                 attention_layer: Any = None, attention_fn: Callable[..., Any] | None = None) -> None:
        super().__init__(name=name)
        self._is_multi = isinstance(attention_mechanism, (list, tuple))
        mechanisms = list(attention_mechanism) if self._is_multi else [attention_mechanism]
        if not mechanisms or not all(isinstance(m, AttentionMechanism) for m in mechanisms):
            raise TypeError(f"attention_mechanism must be an AttentionMechanism or a non-empty list of them, got "
                            f"{attention_mechanism!r}")
        if attention_layer_size is not None and attention_layer is not None:
            raise ValueError("give attention_layer_size or attention_layer, not both")
        self._cell = cell
        self._mechanisms = mechanisms
        self._cell_input_fn = cell_input_fn or (lambda inputs, attention: tf.concat([inputs, attention], -1))
        self._attention_fn = attention_fn or _compute_attention
        self._layers: list[Any] | None = None
        if attention_layer_size is not None:
            sizes = list(attention_layer_size) if isinstance(attention_layer_size, (list, tuple)) \
                else [attention_layer_size]
            if len(sizes) != len(mechanisms):
                raise ValueError(f"attention_layer_size must have one size per mechanism ({len(mechanisms)}), got "
                                 f"{attention_layer_size!r}")
            dtype = mechanisms[0].dtype
            self._layers = [_dense(size, "attention_layer", dtype) for size in sizes]
            self._attention_size = sum(sizes)
        elif attention_layer is not None:
            self._layers = list(attention_layer) if isinstance(attention_layer, (list, tuple)) else [attention_layer]
            self._attention_size = sum(int(layer.units) for layer in self._layers)
        else:
            self._attention_size = sum(int(tf.compat.dimension_value(m.values.shape[-1])) for m in mechanisms)
        self._alignment_history = alignment_history
        self._output_attention = output_attention
        self._initial_cell_state = initial_cell_state

    def _item_or_tuple(self, seq: Sequence[Any]) -> Any:
        return tuple(seq) if self._is_multi else seq[0]

    @property
    def output_size(self) -> Any:
        return self._attention_size if self._output_attention else self._cell.output_size

    @property
    def state_size(self) -> AttentionWrapperState:
        return AttentionWrapperState(
            cell_state=self._cell.state_size, time=tf.TensorShape([]), attention=self._attention_size,
            alignments=self._item_or_tuple([m.alignments_size for m in self._mechanisms]),
            attention_state=self._item_or_tuple([m.state_size for m in self._mechanisms]),
            alignment_history=self._item_or_tuple([m.alignments_size if self._alignment_history else ()
                                                   for m in self._mechanisms]))

    def zero_state(self, batch_size: Any, dtype: Any) -> AttentionWrapperState:
        """The starting state: the cell's zero (or ``initial_cell_state``), zero attention, initial alignments."""
        with tf.name_scope(type(self).__name__ + "ZeroState"):
            if self._initial_cell_state is not None:
                cell_state = tf.nest.map_structure(tf.identity, self._initial_cell_state)
            else:
                cell_state = self._cell.zero_state(batch_size, dtype)
            alignments = [m.initial_alignments(batch_size, dtype) for m in self._mechanisms]
            history = [v1.TensorArray(dtype, size=0, dynamic_size=True, element_shape=a.shape)
                       if self._alignment_history else () for a in alignments]
            return AttentionWrapperState(
                cell_state=cell_state, time=tf.zeros([], dtype=tf.int32),
                attention=tf.zeros(tf.stack([batch_size, self._attention_size]), dtype=dtype),
                alignments=self._item_or_tuple(alignments),
                attention_state=self._item_or_tuple([m.initial_state(batch_size, dtype) for m in self._mechanisms]),
                alignment_history=self._item_or_tuple(history))

    def call(self, inputs: tf.Tensor, state: AttentionWrapperState) -> tuple[tf.Tensor, AttentionWrapperState]:
        if not isinstance(state, AttentionWrapperState):
            raise TypeError(f"AttentionWrapper expects an AttentionWrapperState, got {type(state).__name__}; start "
                            "from wrapper.zero_state(...) (clone(cell_state=...) to set the cell state)")
        cell_output, next_cell_state = self._cell(self._cell_input_fn(inputs, state.attention), state.cell_state)
        previous_states = state.attention_state if self._is_multi else [state.attention_state]
        previous_history = state.alignment_history if self._is_multi else [state.alignment_history]
        attentions, alignments, states, histories = [], [], [], []
        for i, mechanism in enumerate(self._mechanisms):
            layer = self._layers[i] if self._layers else None
            attention, alignment, next_state = self._attention_fn(mechanism, cell_output, previous_states[i], layer)
            attentions.append(attention)
            alignments.append(alignment)
            states.append(next_state)
            histories.append(previous_history[i].write(state.time, alignment) if self._alignment_history else ())
        attention = tf.concat(attentions, 1)
        next_state = AttentionWrapperState(
            time=state.time + 1, cell_state=next_cell_state, attention=attention,
            attention_state=self._item_or_tuple(states), alignments=self._item_or_tuple(alignments),
            alignment_history=self._item_or_tuple(histories))
        return (attention if self._output_attention else cell_output), next_state
