"""The cells of TF 1.x's ``tf.contrib.rnn`` that TensorFlow 2 no longer ships, written from their equations.

Every cell is a legacy (TF1-style) RNN cell of the ``tf_keras`` package, so it
works with ``tf.compat.v1.nn.static_rnn`` / ``dynamic_rnn`` and creates its
variables through ``tf.compat.v1.get_variable`` under the cell's scope, with the
names and shapes TF 1.x gave them (``layer_norm_basic_lstm_cell/kernel``,
``gru_cell/w_ru``, ...), so that a TF 1.x checkpoint restores.

Shapes: ``inputs`` is ``[batch, input_depth]``; a state is ``[batch, num_units]``
(or an ``LSTMStateTuple`` of two); all float tensors share the inputs' dtype.

This module imports TensorFlow at its top: it is imported only when a script
touches ``tf.contrib.rnn`` (see :mod:`compat.contrib.rnn`).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import tensorflow as tf
from tf_keras.src.layers.rnn import legacy_cell_wrappers, legacy_cells

v1 = tf.compat.v1

RNNCell: Any = legacy_cells.RNNCell
LayerRNNCell: Any = legacy_cells.LayerRNNCell
LSTMStateTuple: Any = legacy_cells.LSTMStateTuple

__all__ = [
    "AttentionCellWrapper", "CompiledWrapper", "Conv1DLSTMCell", "Conv2DLSTMCell", "Conv3DLSTMCell", "ConvLSTMCell",
    "CoupledInputForgetGateLSTMCell", "EmbeddingWrapper", "GRUBlockCell", "GRUBlockCellV2", "HighwayWrapper",
    "IndRNNCell", "IndyGRUCell", "IndyLSTMCell", "InputProjectionWrapper", "IntersectionRNNCell", "LSTMBlockCell",
    "LSTMSized", "LayerNormBasicLSTMCell", "NASCell", "OutputProjectionWrapper", "SRUCell", "UGRNNCell", "UnitsSized",
    "interpolate", "linear", "lstm_cell_state",
]


def _depth(inputs_shape: Any) -> int:
    """The last dimension of ``inputs_shape``, which a cell needs to size its kernel."""
    depth = tf.compat.dimension_value(tf.TensorShape(inputs_shape)[-1])  # an int also where TF1 shapes give a Dimension
    if depth is None:
        raise ValueError(f"an RNN cell needs the last dimension of its inputs known, got shape {inputs_shape}")
    return int(depth)


def linear(args: Any, output_size: int, bias: bool, bias_initializer: Any = None,
           kernel_initializer: Any = None) -> tf.Tensor:
    """``concat(args, 1) @ kernel (+ bias)``, creating ``kernel`` / ``bias`` in the current variable scope.

    This is the ``_linear`` helper TF 1.x's cells shared: ``kernel`` is
    ``[sum of input depths, output_size]`` and ``bias`` ``[output_size]`` (zeros
    unless ``bias_initializer`` says otherwise).
    """
    args = list(args) if isinstance(args, (list, tuple)) else [args]
    total = sum(_depth(a.shape) for a in args)
    dtype = args[0].dtype
    kernel = v1.get_variable("kernel", [total, output_size], dtype=dtype, initializer=kernel_initializer)
    joined = args[0] if len(args) == 1 else tf.concat(args, 1)
    result = tf.matmul(joined, kernel)
    if not bias:
        return result
    init = bias_initializer if bias_initializer is not None else v1.zeros_initializer()
    bias_var = v1.get_variable("bias", [output_size], dtype=dtype, initializer=init)
    return tf.nn.bias_add(result, bias_var)


def lstm_cell_state(c: tf.Tensor, i: tf.Tensor, candidate: tf.Tensor, f: tf.Tensor,
                    forget_bias: Any) -> tf.Tensor:
    """TF 1.x's LSTM memory update: ``c * sigmoid(f + forget_bias) + sigmoid(i) * candidate``.

    ``candidate`` is the activated transform (``tanh(j)``, dropped out where the cell does); every
    tensor is ``[batch, units]`` (or a convolutional cell's feature map), float.
    """
    return c * tf.sigmoid(f + forget_bias) + tf.sigmoid(i) * candidate


def interpolate(gate: tf.Tensor, state: tf.Tensor, candidate: tf.Tensor) -> tf.Tensor:
    """A gated blend, as GRU-like cells update their state: ``gate * state + (1 - gate) * candidate``."""
    return gate * state + (1 - gate) * candidate


class UnitsSized:
    """A cell whose state and output are both ``[batch, num_units]`` (``state_size == output_size``)."""

    _num_units: int

    @property
    def state_size(self) -> int:
        return self._num_units

    @property
    def output_size(self) -> int:
        return self._num_units


class LSTMSized:
    """An LSTM cell's sizes: state ``LSTMStateTuple(c, h)``, ``c`` ``[batch, num_units]``, ``h`` (the output)
    ``[batch, num_proj]`` with a projection, else ``[batch, num_units]``."""

    _num_units: int
    _num_proj: int | None = None

    @property
    def state_size(self) -> Any:
        return LSTMStateTuple(self._num_units, self._num_proj or self._num_units)

    @property
    def output_size(self) -> int:
        return self._num_proj or self._num_units


# --------------------------------------------------------------------- LSTM family
class LayerNormBasicLSTMCell(LSTMSized, RNNCell):
    """Basic LSTM with layer normalisation of each gate and of the new cell state, and recurrent dropout.

    ``i, j, f, o = LN(split([x, h] @ kernel))``; ``c' = LN(c * sigmoid(f + forget_bias) + sigmoid(i) * drop(act(j)))``;
    ``h' = act(c') * sigmoid(o)``. LN of a gate ``g`` uses ``<gate>/gamma`` and ``<gate>/beta`` with the
    gate scopes ``input``, ``transform``, ``forget``, ``output``, ``state`` and epsilon 1e-12; without
    layer norm the kernel has a ``bias``.
    """

    def __init__(self, num_units: int, forget_bias: float = 1.0, input_size: Any = None,
                 activation: Callable[..., Any] = tf.tanh, layer_norm: bool = True, norm_gain: float = 1.0,
                 norm_shift: float = 0.0, dropout_keep_prob: Any = 1.0, dropout_prob_seed: int | None = None,
                 reuse: Any = None) -> None:
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._activation = activation
        self._layer_norm = layer_norm
        self._norm_gain = norm_gain
        self._norm_shift = norm_shift
        self._keep_prob = dropout_keep_prob
        self._seed = dropout_prob_seed

    def _norm(self, value: tf.Tensor, scope: str) -> tf.Tensor:
        """Layer normalisation over the last axis with the gain/shift variables of ``scope``."""
        depth = _depth(value.shape)
        with v1.variable_scope(scope):
            gamma = v1.get_variable("gamma", [depth], dtype=value.dtype,
                                    initializer=v1.constant_initializer(self._norm_gain))
            beta = v1.get_variable("beta", [depth], dtype=value.dtype,
                                   initializer=v1.constant_initializer(self._norm_shift))
        mean, variance = tf.nn.moments(value, [1], keepdims=True)
        return tf.nn.batch_normalization(value, mean, variance, beta, gamma, 1e-12)

    def call(self, inputs: tf.Tensor, state: Any) -> tuple[tf.Tensor, Any]:
        c, h = state
        gates = linear([inputs, h], 4 * self._num_units, bias=not self._layer_norm)
        i, j, f, o = tf.split(gates, 4, axis=1)
        if self._layer_norm:
            i, j = self._norm(i, "input"), self._norm(j, "transform")
            f, o = self._norm(f, "forget"), self._norm(o, "output")
        g = self._activation(j)
        if not (isinstance(self._keep_prob, (int, float)) and self._keep_prob == 1):
            g = tf.nn.dropout(g, rate=1 - self._keep_prob, seed=self._seed)
        new_c = lstm_cell_state(c, i, g, f, self._forget_bias)
        if self._layer_norm:
            new_c = self._norm(new_c, "state")
        new_h = self._activation(new_c) * tf.sigmoid(o)
        return new_h, LSTMStateTuple(new_c, new_h)


class CoupledInputForgetGateLSTMCell(LSTMSized, RNNCell):
    """LSTM whose input gate is ``1 - forget gate`` (CIFG), with optional peepholes, clipping and projection.

    ``j, f, o = split([x, m] @ W_0 + B)``; ``f = sigmoid(f + forget_bias (+ W_F_diag * c))``;
    ``c' = f * c + (1 - f) * act(j)`` (clipped to ``cell_clip``);
    ``o = sigmoid(o (+ W_O_diag * c'))``; ``m' = o * act(c')``, projected by ``projection/W_P``.
    State is ``LSTMStateTuple(c, m)``.
    """

    def __init__(self, num_units: int, use_peepholes: bool = True, initializer: Any = None,
                 num_proj: int | None = None, proj_clip: float | None = None, num_unit_shards: int = 1,
                 num_proj_shards: int = 1, forget_bias: float = 1.0, state_is_tuple: bool = True,
                 activation: Callable[..., Any] = tf.tanh, reuse: Any = None, layer_norm: bool = False,
                 norm_gain: float = 1.0, norm_shift: float = 0.0) -> None:
        super().__init__(_reuse=reuse)
        if num_unit_shards != 1 or num_proj_shards != 1:
            raise ValueError(f"CoupledInputForgetGateLSTMCell supports one shard only, got num_unit_shards="
                             f"{num_unit_shards}, num_proj_shards={num_proj_shards}")
        if not state_is_tuple:
            raise ValueError("CoupledInputForgetGateLSTMCell supports state_is_tuple=True only")
        if layer_norm:
            raise ValueError("CoupledInputForgetGateLSTMCell(layer_norm=True) is not provided; use layer_norm=False")
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._forget_bias = forget_bias
        self._activation = activation

    def call(self, inputs: tf.Tensor, state: Any) -> tuple[tf.Tensor, Any]:
        c_prev, m_prev = state
        dtype = inputs.dtype
        n = self._num_units
        with v1.variable_scope(v1.get_variable_scope(), initializer=self._initializer):
            depth = _depth(inputs.shape) + _depth(m_prev.shape)
            kernel = v1.get_variable("W_0", [depth, 3 * n], dtype=dtype)
            bias = v1.get_variable("B", [3 * n], dtype=dtype, initializer=v1.zeros_initializer())
            j, f, o = tf.split(tf.matmul(tf.concat([inputs, m_prev], 1), kernel) + bias, 3, axis=1)
            if self._use_peepholes:
                w_f = v1.get_variable("W_F_diag", [n], dtype=dtype)
                w_o = v1.get_variable("W_O_diag", [n], dtype=dtype)
                f_act = tf.sigmoid(f + self._forget_bias + w_f * c_prev)
            else:
                f_act = tf.sigmoid(f + self._forget_bias)
            c = interpolate(f_act, c_prev, self._activation(j))
            o_act = tf.sigmoid(o + w_o * c) if self._use_peepholes else tf.sigmoid(o)
            m = o_act * self._activation(c)
            if self._num_proj is not None:
                with v1.variable_scope("projection"):
                    w_p = v1.get_variable("W_P", [n, self._num_proj], dtype=dtype)
                m = tf.matmul(m, w_p)
                if self._proj_clip is not None:
                    m = tf.clip_by_value(m, -self._proj_clip, self._proj_clip)
        return m, LSTMStateTuple(c, m)


class LSTMBlockCell(LSTMSized, LayerRNNCell):
    """The fused-kernel LSTM of TF 1.x (``lstm_cell/kernel``, ``lstm_cell/bias``), gates in i, j, f, o order.

    ``i, j, f, o = split([x, h] @ kernel + bias)``; with peepholes ``i += w_i_diag * c``,
    ``f += w_f_diag * c``; ``c' = sigmoid(f + forget_bias) * c + sigmoid(i) * tanh(j)`` (clipped to
    ``cell_clip`` when given); ``o += w_o_diag * c'``; ``h' = sigmoid(o) * tanh(c')``.
    """

    default_name = "lstm_cell"

    def __init__(self, num_units: int, forget_bias: float = 1.0, cell_clip: float | None = None,
                 use_peephole: bool = False, dtype: Any = None, reuse: Any = None, name: str | None = None) -> None:
        super().__init__(_reuse=reuse, name=name or self.default_name, dtype=dtype)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._cell_clip = cell_clip if cell_clip is not None and cell_clip > 0 else None
        self._use_peephole = use_peephole

    def build(self, inputs_shape: Any) -> None:
        n = self._num_units
        self._kernel = self.add_weight("kernel", [_depth(inputs_shape) + n, 4 * n])
        self._bias = self.add_weight("bias", [4 * n], initializer=v1.zeros_initializer())
        if self._use_peephole:
            self._w_i, self._w_f, self._w_o = (self.add_weight(f"w_{g}_diag", [n]) for g in "ifo")
        self.built = True

    def call(self, inputs: tf.Tensor, state: Any) -> tuple[tf.Tensor, Any]:
        c_prev, h_prev = state
        gates = tf.matmul(tf.concat([inputs, h_prev], 1), self._kernel) + self._bias
        i, j, f, o = tf.split(gates, 4, axis=1)
        if self._use_peephole:
            i, f = i + self._w_i * c_prev, f + self._w_f * c_prev
        c = lstm_cell_state(c_prev, i, tf.tanh(j), f, self._forget_bias)
        if self._cell_clip is not None:
            c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peephole:
            o = o + self._w_o * c
        h = tf.sigmoid(o) * tf.tanh(c)
        return h, LSTMStateTuple(c, h)


class IndyLSTMCell(LSTMSized, LayerRNNCell):
    """LSTM with a diagonal (element-wise) recurrent weight: ``gates = x @ kernel_w + tile(h, 4) * kernel_u + bias``.

    Variables ``kernel_w`` ``[input_depth, 4n]``, ``kernel_u`` ``[1, 4n]``, ``bias`` ``[4n]``; gates i, j, f, o;
    ``c' = sigmoid(f + forget_bias) * c + sigmoid(i) * act(j)``, ``h' = act(c') * sigmoid(o)``.
    """

    def __init__(self, num_units: int, forget_bias: float = 1.0, activation: Callable[..., Any] | None = None,
                 reuse: Any = None, kernel_initializer: Any = None, bias_initializer: Any = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._activation = activation or tf.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    def build(self, inputs_shape: Any) -> None:
        n = self._num_units
        self._kernel_w = self.add_weight("kernel_w", [_depth(inputs_shape), 4 * n],
                                         initializer=self._kernel_initializer)
        self._kernel_u = self.add_weight("kernel_u", [1, 4 * n],
                                         initializer=v1.random_uniform_initializer(-1.0, 1.0))
        self._bias = self.add_weight("bias", [4 * n],
                                     initializer=self._bias_initializer or v1.zeros_initializer())
        self.built = True

    def call(self, inputs: tf.Tensor, state: Any) -> tuple[tf.Tensor, Any]:
        c, h = state
        gates = tf.matmul(inputs, self._kernel_w) + tf.tile(h, [1, 4]) * self._kernel_u + self._bias
        i, j, f, o = tf.split(gates, 4, axis=1)
        new_c = lstm_cell_state(c, i, self._activation(j), f, self._forget_bias)
        new_h = self._activation(new_c) * tf.sigmoid(o)
        return new_h, LSTMStateTuple(new_c, new_h)


# --------------------------------------------------------------------- GRU family
class GRUBlockCell(UnitsSized, LayerRNNCell):
    """The fused GRU of TF 1.x: ``gru_cell/w_ru`` ``[d+n, 2n]``, ``b_ru`` (ones), ``w_c`` ``[d+n, n]``, ``b_c``.

    ``r, u = sigmoid([x, h] @ w_ru + b_ru)``; ``c = tanh([x, r * h] @ w_c + b_c)``; ``h' = u * h + (1 - u) * c``.
    """

    default_name = "gru_cell"
    names = ("w_ru", "b_ru", "w_c", "b_c")

    def __init__(self, num_units: int | None = None, cell_size: int | None = None, reuse: Any = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(_reuse=reuse, name=name or self.default_name, dtype=dtype)
        units = num_units if num_units is not None else cell_size
        if units is None:
            raise ValueError(f"{type(self).__name__} needs num_units (or cell_size), got neither")
        self._num_units = int(units)

    def build(self, inputs_shape: Any) -> None:
        n, depth = self._num_units, _depth(inputs_shape) + self._num_units
        w_ru, b_ru, w_c, b_c = self.names
        self._w_ru = self.add_weight(w_ru, [depth, 2 * n])
        self._b_ru = self.add_weight(b_ru, [2 * n], initializer=v1.constant_initializer(1.0))
        self._w_c = self.add_weight(w_c, [depth, n])
        self._b_c = self.add_weight(b_c, [n], initializer=v1.zeros_initializer())
        self.built = True

    def call(self, inputs: tf.Tensor, state: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        r, u = tf.split(tf.sigmoid(tf.matmul(tf.concat([inputs, state], 1), self._w_ru) + self._b_ru), 2, axis=1)
        c = tf.tanh(tf.matmul(tf.concat([inputs, r * state], 1), self._w_c) + self._b_c)
        new_h = interpolate(u, state, c)
        return new_h, new_h


class GRUBlockCellV2(GRUBlockCell):
    """:class:`GRUBlockCell` with ``GRUCell``'s variable names (``gates/kernel``, ``gates/bias``,
    ``candidate/kernel``, ``candidate/bias``)."""

    names = ("gates/kernel", "gates/bias", "candidate/kernel", "candidate/bias")


class IndyGRUCell(UnitsSized, LayerRNNCell):
    """GRU with diagonal recurrent weights (``gates/input_kernel``, ``gates/recurrent_kernel``, ...).

    ``r, u = sigmoid(x @ Wg + tile(h, 2) * ug + bg)``; ``c = act(x @ Wc + r * h * uc + bc)``;
    ``h' = u * h + (1 - u) * c``. ``gates/bias`` starts at ones.
    """

    def __init__(self, num_units: int, activation: Callable[..., Any] | None = None, reuse: Any = None,
                 kernel_initializer: Any = None, bias_initializer: Any = None, name: str | None = None,
                 dtype: Any = None) -> None:
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self._num_units = num_units
        self._activation = activation or tf.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    def build(self, inputs_shape: Any) -> None:
        n, d = self._num_units, _depth(inputs_shape)
        uniform = v1.random_uniform_initializer(-1.0, 1.0)
        self._gw = self.add_weight("gates/input_kernel", [d, 2 * n], initializer=self._kernel_initializer)
        self._gu = self.add_weight("gates/recurrent_kernel", [2 * n], initializer=uniform)
        self._gb = self.add_weight("gates/bias", [2 * n],
                                   initializer=self._bias_initializer or v1.constant_initializer(1.0))
        self._cw = self.add_weight("candidate/input_kernel", [d, n], initializer=self._kernel_initializer)
        self._cu = self.add_weight("candidate/recurrent_kernel", [n], initializer=uniform)
        self._cb = self.add_weight("candidate/bias", [n],
                                   initializer=self._bias_initializer or v1.zeros_initializer())
        self.built = True

    def call(self, inputs: tf.Tensor, state: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        gates = tf.sigmoid(tf.matmul(inputs, self._gw) + tf.tile(state, [1, 2]) * self._gu + self._gb)
        r, u = tf.split(gates, 2, axis=1)
        c = self._activation(tf.matmul(inputs, self._cw) + r * state * self._cu + self._cb)
        new_h = interpolate(u, state, c)
        return new_h, new_h


# --------------------------------------------------------------------- simple RNNs
class IndRNNCell(UnitsSized, LayerRNNCell):
    """Independently recurrent cell: ``h' = act(x @ input_kernel + h * recurrent_kernel + bias)`` (default relu)."""

    def __init__(self, num_units: int, activation: Callable[..., Any] | None = None, reuse: Any = None,
                 name: str | None = None, dtype: Any = None) -> None:
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self._num_units = num_units
        self._activation = activation or tf.nn.relu

    def build(self, inputs_shape: Any) -> None:
        n = self._num_units
        self._w = self.add_weight("input_kernel", [_depth(inputs_shape), n])
        self._u = self.add_weight("recurrent_kernel", [n], initializer=v1.random_uniform_initializer(-1.0, 1.0))
        self._b = self.add_weight("bias", [n], initializer=v1.zeros_initializer())
        self.built = True

    def call(self, inputs: tf.Tensor, state: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        new_h = self._activation(tf.matmul(inputs, self._w) + state * self._u + self._b)
        return new_h, new_h


class UGRNNCell(UnitsSized, RNNCell):
    """Update-gate RNN: ``g, c = split([x, h] @ kernel + bias)``; ``h' = sigmoid(g + forget_bias) * h +
    (1 - sigmoid(g + forget_bias)) * act(c)``."""

    def __init__(self, num_units: int, initializer: Any = None, forget_bias: float = 1.0,
                 activation: Callable[..., Any] = tf.tanh, reuse: Any = None) -> None:
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._initializer = initializer
        self._forget_bias = forget_bias
        self._activation = activation

    def call(self, inputs: tf.Tensor, state: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        with v1.variable_scope(v1.get_variable_scope(), initializer=self._initializer):
            g_act, c_act = tf.split(linear([inputs, state], 2 * self._num_units, True), 2, axis=1)
        g = tf.sigmoid(g_act + self._forget_bias)
        new_h = interpolate(g, state, self._activation(c_act))
        return new_h, new_h


class IntersectionRNNCell(UnitsSized, RNNCell):
    """Intersection RNN: ``[gh, gy, h~, y~]`` from ``[x, h]``; ``h' = gh * h + (1-gh) * tanh(h~)``,
    ``y = gy * x + (1 - gy) * relu(y~)`` (``x`` first projected by ``in_projection`` when its depth differs)."""

    def __init__(self, num_units: int, num_in_proj: int | None = None, initializer: Any = None,
                 forget_bias: float = 1.0, y_activation: Callable[..., Any] = tf.nn.relu, reuse: Any = None) -> None:
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._num_in_proj = num_in_proj
        self._initializer = initializer
        self._forget_bias = forget_bias
        self._y_activation = y_activation

    def call(self, inputs: tf.Tensor, state: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        with v1.variable_scope(v1.get_variable_scope(), initializer=self._initializer):
            if self._num_in_proj is not None:
                with v1.variable_scope("in_projection"):
                    inputs = linear(inputs, self._num_in_proj, True)
            if _depth(inputs.shape) != self._num_units:
                raise ValueError(f"IntersectionRNNCell needs inputs of depth num_units={self._num_units} "
                                 f"(or num_in_proj), got {_depth(inputs.shape)}")
            n = self._num_units
            gh_act, h_act, gy_act, y_act = tf.split(linear([inputs, state], 4 * n, True), 4, axis=1)
        gh = tf.sigmoid(gh_act + self._forget_bias)
        gy = tf.sigmoid(gy_act + self._forget_bias)
        new_h = interpolate(gh, state, tf.tanh(h_act))
        new_y = interpolate(gy, inputs, self._y_activation(y_act))
        return new_y, new_h


class SRUCell(UnitsSized, LayerRNNCell):
    """Simple recurrent unit: ``x~, f, r = split(x @ kernel)``, ``f = sigmoid(f + bias_f)``,
    ``r = sigmoid(r + bias_r)``; ``c' = f * c + (1 - f) * x~``; ``h' = r * act(c') + (1 - r) * x``.
    Variables ``kernel`` ``[d, 3n]``, ``bias`` ``[2n]``; the input depth must equal ``num_units``."""

    def __init__(self, num_units: int, activation: Callable[..., Any] | None = None, reuse: Any = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(_reuse=reuse, name=name, **kwargs)
        self._num_units = num_units
        self._activation = activation or tf.tanh

    def build(self, inputs_shape: Any) -> None:
        depth = _depth(inputs_shape)
        if depth != self._num_units:
            raise ValueError(f"SRUCell needs inputs of depth num_units={self._num_units}, got {depth}")
        self._kernel = self.add_weight("kernel", [depth, 3 * self._num_units])
        self._bias = self.add_weight("bias", [2 * self._num_units], initializer=v1.zeros_initializer())
        self.built = True

    def call(self, inputs: tf.Tensor, state: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        x_tilde, f, r = tf.split(tf.matmul(inputs, self._kernel), 3, axis=1)
        b_f, b_r = tf.split(self._bias, 2)
        f, r = tf.sigmoid(f + b_f), tf.sigmoid(r + b_r)
        c = f * state + (1.0 - f) * x_tilde
        h = r * self._activation(c) + (1.0 - r) * inputs
        return h, c


class NASCell(LSTMSized, LayerRNNCell):
    """The cell found by neural architecture search (Zoph & Le 2017), with optional projection.

    ``x @ kernel`` and ``h @ recurrent_kernel (+ bias)`` split in 8 and combined by the searched tree of
    sigmoid / relu / tanh nodes in :meth:`call`.
    Variables ``kernel`` ``[d, 8n]``, ``recurrent_kernel`` ``[p or n, 8n]``, ``projection_weights``.
    """

    def __init__(self, num_units: int, num_proj: int | None = None, use_bias: bool = False,
                 reuse: Any = None, **kwargs: Any) -> None:
        use_bias = bool(kwargs.pop("use_biases", use_bias))  # the argument's name before TF 1.5
        super().__init__(_reuse=reuse, **kwargs)
        self._num_units = num_units
        self._num_proj = num_proj
        self._use_bias = use_bias

    def build(self, inputs_shape: Any) -> None:
        n, out = self._num_units, self._num_proj or self._num_units
        self._recurrent = self.add_weight("recurrent_kernel", [out, 8 * n])
        self._kernel = self.add_weight("kernel", [_depth(inputs_shape), 8 * n])
        if self._use_bias:
            self._bias = self.add_weight("bias", [8 * n], initializer=v1.zeros_initializer())
        if self._num_proj is not None:
            self._proj = self.add_weight("projection_weights", [n, self._num_proj])
        self.built = True

    def call(self, inputs: tf.Tensor, state: Any) -> tuple[tf.Tensor, Any]:
        c_prev, m_prev = state
        m_matrix = tf.matmul(m_prev, self._recurrent)
        if self._use_bias:
            m_matrix = m_matrix + self._bias
        m = tf.split(m_matrix, 8, axis=1)
        x = tf.split(tf.matmul(inputs, self._kernel), 8, axis=1)
        # The searched cell's first layer: seven additive nodes and one multiplicative (node 3).
        l1_0 = tf.sigmoid(x[0] + m[0])
        l1_1 = tf.nn.relu(x[1] + m[1])
        l1_2 = tf.sigmoid(x[2] + m[2])
        l1_3 = tf.nn.relu(x[3] * m[3])
        l1_4 = tf.tanh(x[4] + m[4])
        l1_5 = tf.sigmoid(x[5] + m[5])
        l1_6 = tf.tanh(x[6] + m[6])
        l1_7 = tf.sigmoid(x[7] + m[7])
        l2_0 = tf.tanh(tf.tanh(l1_0 * l1_1) + c_prev)  # the previous cell state enters here
        l2_1 = tf.tanh(l1_2 + l1_3)
        l2_2 = tf.tanh(l1_4 * l1_5)
        l2_3 = tf.sigmoid(l1_6 + l1_7)
        new_c = l2_0 * l2_1
        new_m = tf.tanh(new_c * tf.tanh(l2_2 + l2_3))
        if self._num_proj is not None:
            new_m = tf.matmul(new_m, self._proj)
        return new_m, LSTMStateTuple(new_c, new_m)


# --------------------------------------------------------------------- wrappers
class _Wrapper(RNNCell):
    """A cell around ``cell`` whose state is the inner cell's."""

    def __init__(self, cell: Any, reuse: Any = None) -> None:
        super().__init__(_reuse=reuse)
        legacy_cell_wrappers.assert_like_rnncell("cell", cell)
        self._cell = cell

    @property
    def wrapped_cell(self) -> Any:
        return self._cell

    @property
    def state_size(self) -> Any:
        return self._cell.state_size

    @property
    def output_size(self) -> Any:
        return self._cell.output_size

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        with tf.name_scope(type(self).__name__ + "ZeroState"):
            return self._cell.zero_state(batch_size, dtype)


class InputProjectionWrapper(_Wrapper):
    """Projects the inputs with ``kernel``/``bias`` (``num_proj`` units, optional activation) before ``cell``."""

    def __init__(self, cell: Any, num_proj: int, activation: Callable[..., Any] | None = None,
                 input_size: Any = None, reuse: Any = None) -> None:
        super().__init__(cell, reuse)
        self._num_proj = num_proj
        self._activation = activation

    def call(self, inputs: tf.Tensor, state: Any) -> tuple[tf.Tensor, Any]:
        projected = linear(inputs, self._num_proj, True)
        if self._activation is not None:
            projected = self._activation(projected)
        return self._cell(projected, state)


class OutputProjectionWrapper(_Wrapper):
    """Projects ``cell``'s output to ``output_size`` with ``kernel``/``bias`` (optional activation)."""

    def __init__(self, cell: Any, output_size: int, activation: Callable[..., Any] | None = None,
                 reuse: Any = None) -> None:
        super().__init__(cell, reuse)
        if output_size < 1:
            raise ValueError(f"OutputProjectionWrapper needs output_size >= 1, got {output_size}")
        self._output_size = output_size
        self._activation = activation

    @property
    def output_size(self) -> int:
        return self._output_size

    def call(self, inputs: tf.Tensor, state: Any) -> tuple[tf.Tensor, Any]:
        output, new_state = self._cell(inputs, state)
        projected = linear(output, self._output_size, True)
        if self._activation is not None:
            projected = self._activation(projected)
        return projected, new_state


class EmbeddingWrapper(_Wrapper):
    """Looks the int inputs ``[batch]`` or ``[batch, 1]`` up in ``embedding`` ``[classes, size]`` before ``cell``.

    The default initializer is the variable scope's, else uniform in ``[-sqrt(3), sqrt(3)]``.
    """

    def __init__(self, cell: Any, embedding_classes: int, embedding_size: int, initializer: Any = None,
                 reuse: Any = None) -> None:
        super().__init__(cell, reuse)
        if embedding_classes <= 0 or embedding_size <= 0:
            raise ValueError(f"EmbeddingWrapper needs positive embedding_classes and embedding_size, got "
                             f"{embedding_classes} and {embedding_size}")
        self._classes = embedding_classes
        self._size = embedding_size
        self._initializer = initializer

    def call(self, inputs: tf.Tensor, state: Any) -> tuple[tf.Tensor, Any]:
        dtype = tf.nest.flatten(state)[0].dtype
        initializer = self._initializer or v1.get_variable_scope().initializer
        if initializer is None:
            initializer = v1.random_uniform_initializer(-math.sqrt(3), math.sqrt(3))
        embedding = v1.get_variable("embedding", [self._classes, self._size], dtype=dtype, initializer=initializer)
        embedded = tf.nn.embedding_lookup(embedding, tf.reshape(inputs, [-1]))
        return self._cell(embedded, state)


class HighwayWrapper(_Wrapper):
    """Highway connection around ``cell`` (input and output depths equal):
    ``carry = sigmoid(x @ carry_w + carry_b)``, ``out = x * carry + cell_out * (1 - carry)`` under ``highway_<i>``
    (``carry_b`` starts at ``carry_bias_init``; uncoupled gates add ``transform_w``/``transform_b``)."""

    def __init__(self, cell: Any, couple_carry_transform_gates: bool = True,
                 carry_bias_init: float = 1.0) -> None:
        super().__init__(cell)
        self._couple = couple_carry_transform_gates
        self._carry_bias_init = carry_bias_init

    def _highway(self, inp: tf.Tensor, out: tf.Tensor) -> tf.Tensor:
        """``inp * carry + out * transform`` with ``carry_w``/``carry_b`` (and ``transform_w``/``transform_b``)."""
        depth = _depth(inp.shape)
        carry_w = v1.get_variable("carry_w", [depth, depth], dtype=inp.dtype)
        carry_b = v1.get_variable("carry_b", [depth], dtype=inp.dtype,
                                  initializer=v1.constant_initializer(self._carry_bias_init))
        carry = tf.sigmoid(tf.matmul(inp, carry_w) + carry_b)
        if self._couple:
            transform = 1 - carry
        else:
            transform_w = v1.get_variable("transform_w", [depth, depth], dtype=inp.dtype)
            transform_b = v1.get_variable("transform_b", [depth], dtype=inp.dtype,
                                          initializer=v1.constant_initializer(-self._carry_bias_init))
            transform = tf.sigmoid(tf.matmul(inp, transform_w) + transform_b)
        return inp * carry + out * transform

    def call(self, inputs: tf.Tensor, state: Any) -> tuple[tf.Tensor, Any]:
        output, new_state = self._cell(inputs, state)
        flat_in, flat_out = tf.nest.flatten(inputs), tf.nest.flatten(output)
        mixed = []
        for index, (inp, out) in enumerate(zip(flat_in, flat_out, strict=True)):
            with v1.variable_scope(f"highway_{index}"):
                mixed.append(self._highway(inp, out))
        return tf.nest.pack_sequence_as(output, mixed), new_state


class AttentionCellWrapper(_Wrapper):
    """Attention over the last ``attn_length`` outputs of ``cell`` (Cheng et al. 2016), as TF 1.x's wrapper.

    State (tuple): ``(cell_state, attns [B, attn_size], attn_states [B, attn_length * attn_size])``.
    ``x' = [x, attns] @ W`` (the wrapper's ``kernel``/``bias``; ``input_size`` defaults to x's depth);
    ``out, s = cell(x', s)``; attention (scope ``attention``): ``k = conv(attn_states, attn_w)``,
    ``y = [new_state] @ W + b`` (scope ``attn_v`` / linear), ``score = sum(v * tanh(k + y))``,
    ``attns = sum(softmax(score) * states)``; output ``[out, attns] @ W`` (scope ``attn_output_projection``).
    """

    def __init__(self, cell: Any, attn_length: int, attn_size: int | None = None, attn_vec_size: int | None = None,
                 input_size: int | None = None, state_is_tuple: bool = True, reuse: Any = None) -> None:
        super().__init__(cell, reuse)
        if attn_length <= 0:
            raise ValueError(f"AttentionCellWrapper needs attn_length > 0, got {attn_length}")
        if not state_is_tuple:
            raise ValueError("AttentionCellWrapper supports state_is_tuple=True only")
        self._attn_length = attn_length
        self._attn_size = attn_size or cell.output_size
        self._attn_vec_size = attn_vec_size or self._attn_size
        self._input_size = input_size

    @property
    def state_size(self) -> Any:
        return (self._cell.state_size, self._attn_size, self._attn_size * self._attn_length)

    @property
    def output_size(self) -> int:
        return self._attn_size

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        inner = self._cell.zero_state(batch_size, dtype)
        return (inner, tf.zeros([batch_size, self._attn_size], dtype),
                tf.zeros([batch_size, self._attn_size * self._attn_length], dtype))

    def call(self, inputs: tf.Tensor, state: Any) -> tuple[tf.Tensor, Any]:
        cell_state, attns, attn_states = state
        attn_states = tf.reshape(attn_states, [-1, self._attn_length, self._attn_size])
        input_size = self._input_size or _depth(inputs.shape)
        inputs = linear([inputs, attns], input_size, True)  # TF 1.x: the wrapper scope's own kernel/bias
        cell_output, new_cell_state = self._cell(inputs, cell_state)
        flat = tf.concat(tf.nest.flatten(new_cell_state), 1)
        new_attns, new_attn_states = self._attention(flat, attn_states)
        with v1.variable_scope("attn_output_projection"):
            output = linear([cell_output, new_attns], self._attn_size, True)
        new_attn_states = tf.concat([new_attn_states, tf.expand_dims(output, 1)], 1)
        new_attn_states = tf.reshape(new_attn_states, [-1, self._attn_length * self._attn_size])
        return output, (new_cell_state, new_attns, new_attn_states)

    def _attention(self, query: tf.Tensor, attn_states: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        """(attention read ``[B, attn_size]``, the states shifted by one ``[B, attn_length - 1, attn_size]``)."""
        with v1.variable_scope("attention"):
            k = v1.get_variable("attn_w", [1, 1, self._attn_size, self._attn_vec_size], dtype=query.dtype)
            v = v1.get_variable("attn_v", [self._attn_vec_size], dtype=query.dtype)
            hidden = tf.reshape(attn_states, [-1, self._attn_length, 1, self._attn_size])
            hidden_features = tf.nn.conv2d(hidden, k, [1, 1, 1, 1], "SAME")
            y = tf.reshape(linear(query, self._attn_vec_size, True), [-1, 1, 1, self._attn_vec_size])
            score = tf.reduce_sum(v * tf.tanh(hidden_features + y), [2, 3])
            weights = tf.nn.softmax(score)
            read = tf.reduce_sum(tf.reshape(weights, [-1, self._attn_length, 1, 1]) * hidden, [1, 2])
            return read, attn_states[:, 1:, :]


# --------------------------------------------------------------------- convolutional LSTM
class ConvLSTMCell(RNNCell):
    """Convolutional LSTM (Shi et al. 2015) over ``[batch, *spatial, channels]`` inputs.

    ``i, j, f, o = split(conv([x, h], kernel) + biases, 4, channel axis)`` (stride 1, SAME padding);
    ``c' = sigmoid(f + forget_bias) * c + sigmoid(i) * tanh(j)``; ``h' = tanh(c') * sigmoid(o)``
    (``skip_connection`` appends ``x`` to the output channels). Variables ``conv_lstm_cell/kernel``
    ``[*kernel_shape, in + out channels, 4 * out]`` and ``conv_lstm_cell/biases`` ``[4 * out]``.
    """

    def __init__(self, conv_ndims: int, input_shape: Any, output_channels: int, kernel_shape: Any,
                 use_bias: bool = True, skip_connection: bool = False, forget_bias: float = 1.0,
                 initializers: Any = None, name: str = "conv_lstm_cell") -> None:
        super().__init__(name=name)
        if conv_ndims not in (1, 2, 3):
            raise ValueError(f"conv_ndims must be 1, 2 or 3, got {conv_ndims}")
        if len(input_shape) != conv_ndims + 1 or len(kernel_shape) != conv_ndims:
            raise ValueError(f"input_shape must be {conv_ndims} spatial sizes + channels and kernel_shape "
                             f"{conv_ndims} sizes, got {input_shape} and {kernel_shape}")
        self._conv_ndims = conv_ndims
        self._input_shape = list(input_shape)
        self._output_channels = output_channels
        self._kernel_shape = list(kernel_shape)
        self._use_bias = use_bias
        self._skip_connection = skip_connection
        self._forget_bias = forget_bias
        self._initializer = initializers
        out = output_channels + (input_shape[-1] if skip_connection else 0)
        self._state_shape = tf.TensorShape(self._input_shape[:-1] + [output_channels])
        self._output_shape = tf.TensorShape(self._input_shape[:-1] + [out])

    @property
    def state_size(self) -> Any:
        return LSTMStateTuple(self._state_shape, self._state_shape)

    @property
    def output_size(self) -> Any:
        return self._output_shape

    def call(self, inputs: tf.Tensor, state: Any) -> tuple[tf.Tensor, Any]:
        c, h = state
        joined = tf.concat([inputs, h], axis=-1)
        depth = _depth(joined.shape)
        kernel = v1.get_variable("kernel", self._kernel_shape + [depth, 4 * self._output_channels],
                                 dtype=inputs.dtype, initializer=self._initializer)
        gates = tf.nn.convolution(joined, kernel, padding="SAME")
        if self._use_bias:
            gates += v1.get_variable("biases", [4 * self._output_channels], dtype=inputs.dtype,
                                     initializer=v1.zeros_initializer())
        i, j, f, o = tf.split(gates, 4, axis=self._conv_ndims + 1)
        new_c = lstm_cell_state(c, i, tf.tanh(j), f, self._forget_bias)
        output = tf.tanh(new_c) * tf.sigmoid(o)
        if self._skip_connection:
            output = tf.concat([output, inputs], axis=-1)
        return output, LSTMStateTuple(new_c, output)


class Conv1DLSTMCell(ConvLSTMCell):
    """:class:`ConvLSTMCell` over ``[batch, length, channels]``."""

    def __init__(self, name: str = "conv_1d_lstm_cell", **kwargs: Any) -> None:
        super().__init__(conv_ndims=1, name=name, **kwargs)


class Conv2DLSTMCell(ConvLSTMCell):
    """:class:`ConvLSTMCell` over ``[batch, height, width, channels]``."""

    def __init__(self, name: str = "conv_2d_lstm_cell", **kwargs: Any) -> None:
        super().__init__(conv_ndims=2, name=name, **kwargs)


class Conv3DLSTMCell(ConvLSTMCell):
    """:class:`ConvLSTMCell` over ``[batch, depth, height, width, channels]``."""

    def __init__(self, name: str = "conv_3d_lstm_cell", **kwargs: Any) -> None:
        super().__init__(conv_ndims=3, name=name, **kwargs)


class CompiledWrapper(_Wrapper):
    """Runs ``cell`` unchanged: TF 1.x compiled it with XLA, an optimisation that does not change results,
    and added no variable scope of its own."""

    def __init__(self, cell: Any, compile_stateful: bool = False) -> None:
        super().__init__(cell)

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Any:
        return self._cell(inputs, state, scope=scope)
