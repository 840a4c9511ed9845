"""``tf.contrib.cudnn_rnn`` on a CPU: the CuDNN-compatible cells and CuDNN LSTM/GRU layers built from them.

A TF 1.x CuDNN layer saved its weights in the canonical form the compatible
cells read (``cudnn_lstm/rnn/multi_rnn_cell/cell_0/cudnn_compatible_lstm_cell/kernel``,
``.../bias``; bidirectional: ``cudnn_lstm/stack_bidirectional_rnn/cell_0/bidirectional_rnn/fw/...``),
so the layers here create exactly those variables and such a checkpoint restores.

* ``CudnnCompatibleLSTMCell``: LSTM, gates i, j, f, o, ``forget_bias`` 0 (CuDNN has none),
  variables ``cudnn_compatible_lstm_cell/kernel`` ``[d + n, 4n]`` and ``bias`` ``[4n]``.
* ``CudnnCompatibleGRUCell``: ``r, u = sigmoid([x, h] @ gates/kernel + gates/bias)``;
  ``c = tanh(x @ W_x + b_x + r * (h @ W_h + b_h))`` with ``candidate/input_projection/{kernel,bias}``
  and ``candidate/hidden_projection/{kernel,bias}``; ``h' = u * h + (1 - u) * c``.

Imported only when a script touches ``tf.contrib.cudnn_rnn``.
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf
from tf_keras.src.layers.rnn import legacy_cell_wrappers, legacy_cells

from compat.contrib import refusing_getattr
from compat.contrib._rnn_cells import LSTMBlockCell, UnitsSized, _depth, interpolate

v1 = tf.compat.v1

__all__ = ["CudnnCompatibleGRUCell", "CudnnCompatibleLSTMCell", "CudnnGRU", "CudnnLSTM"]

_OPAQUE = ("the opaque CuDNN parameter buffer exists only on a GPU; a checkpoint saved by a TF 1.x CuDNN "
           "layer restores into tf.contrib.cudnn_rnn.CudnnLSTM / CudnnGRU here (canonical variable names)")

REFUSED: dict[str, str] = {
    "CudnnLSTMSaveable": _OPAQUE,
    "CudnnGRUSaveable": _OPAQUE,
    "CudnnRNNTanhSaveable": _OPAQUE,
    "CudnnRNNReluSaveable": _OPAQUE,
    "CudnnParamsFormatConverterLSTM": _OPAQUE,
    "CudnnParamsFormatConverterGRU": _OPAQUE,
    "CudnnParamsFormatConverterTanh": _OPAQUE,
    "CudnnParamsFormatConverterRelu": _OPAQUE,
    "CudnnRNNTanh": "tf.contrib.rnn.MultiRNNCell of BasicRNNCell with tf.nn.dynamic_rnn (the plain-RNN CuDNN "
                    "layers are not provided)",
    "CudnnRNNRelu": "tf.contrib.rnn.MultiRNNCell of BasicRNNCell(activation=tf.nn.relu) with tf.nn.dynamic_rnn "
                    "(the plain-RNN CuDNN layers are not provided)",
}

# TF 1.x's source paths below this module (``tensorflow.contrib.cudnn_rnn.python.ops...``) are served
# this module's names by the runner (compat.surfaces.modules.source_path_module).
__getattr__ = refusing_getattr("cudnn_rnn", REFUSED)


class CudnnCompatibleLSTMCell(LSTMBlockCell):
    """The LSTM a CuDNN LSTM's weights run in on a CPU (``cudnn_compatible_lstm_cell/kernel``, ``bias``)."""

    default_name = "cudnn_compatible_lstm_cell"

    def __init__(self, num_units: int, reuse: Any = None, name: str = "cudnn_compatible_lstm_cell") -> None:
        super().__init__(num_units, forget_bias=0.0, cell_clip=None, use_peephole=False, reuse=reuse, name=name)


class CudnnCompatibleGRUCell(UnitsSized, legacy_cells.LayerRNNCell):
    """The GRU a CuDNN GRU's weights run in on a CPU (the reset gate multiplies ``h @ W_h + b_h``)."""

    def __init__(self, num_units: int, reuse: Any = None, kernel_initializer: Any = None,
                 name: str = "cudnn_compatible_gru_cell") -> None:
        super().__init__(_reuse=reuse, name=name)
        self._num_units = num_units
        self._kernel_initializer = kernel_initializer

    def build(self, inputs_shape: Any) -> None:
        n, d = self._num_units, _depth(inputs_shape)
        init, zeros = self._kernel_initializer, v1.zeros_initializer()
        self._gate_kernel = self.add_weight("gates/kernel", [d + n, 2 * n], initializer=init)
        self._gate_bias = self.add_weight("gates/bias", [2 * n], initializer=v1.constant_initializer(1.0))
        self._in_kernel = self.add_weight("candidate/input_projection/kernel", [d, n], initializer=init)
        self._in_bias = self.add_weight("candidate/input_projection/bias", [n], initializer=zeros)
        self._h_kernel = self.add_weight("candidate/hidden_projection/kernel", [n, n], initializer=init)
        self._h_bias = self.add_weight("candidate/hidden_projection/bias", [n], initializer=zeros)
        self.built = True

    def call(self, inputs: tf.Tensor, state: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        gates = tf.sigmoid(tf.matmul(tf.concat([inputs, state], 1), self._gate_kernel) + self._gate_bias)
        r, u = tf.split(gates, 2, axis=1)
        c = tf.tanh(tf.matmul(inputs, self._in_kernel) + self._in_bias
                    + r * (tf.matmul(state, self._h_kernel) + self._h_bias))
        new_h = interpolate(u, state, c)
        return new_h, new_h


class _CudnnLayer:
    """A multi-layer (bi)directional RNN over time-major inputs ``[time, batch, depth]``, run on the CPU with the
    CuDNN-compatible cells under the canonical variable names."""

    default_name = "cudnn_rnn"
    _is_lstm = False

    def __init__(self, num_layers: int, num_units: int, input_mode: str = "linear_input",
                 direction: str = "unidirectional", dropout: float = 0., seed: int | None = None,
                 dtype: Any = tf.float32, kernel_initializer: Any = None, bias_initializer: Any = None,
                 name: str | None = None) -> None:
        if input_mode != "linear_input":
            raise ValueError(f"input_mode {input_mode!r} is not provided; only 'linear_input' (the default)")
        if direction not in ("unidirectional", "bidirectional"):
            raise ValueError(f"direction must be 'unidirectional' or 'bidirectional', got {direction!r}")
        if num_layers < 1 or num_units < 1:
            raise ValueError(f"num_layers and num_units must be >= 1, got {num_layers} and {num_units}")
        self.num_layers = num_layers
        self.num_units = num_units
        self.direction = direction
        self.dropout = dropout
        self._seed = seed
        self.dtype = dtype
        self._kernel_initializer = kernel_initializer
        self._name = name
        self._scope: Any = None

    @property
    def num_dirs(self) -> int:
        return 2 if self.direction == "bidirectional" else 1

    def _cell(self) -> Any:
        if self._is_lstm:
            return CudnnCompatibleLSTMCell(self.num_units)
        return CudnnCompatibleGRUCell(self.num_units, kernel_initializer=self._kernel_initializer)

    def _layer_state(self, initial_state: Any, index: int) -> Any:
        """The initial state of layer/direction ``index`` from the CuDNN-shaped ``[layers * dirs, B, n]`` state."""
        if initial_state is None:
            return None
        if self._is_lstm:
            h, c = initial_state
            return legacy_cells.LSTMStateTuple(c[index], h[index])
        return initial_state[0][index]

    def __call__(self, inputs: tf.Tensor, initial_state: Any = None, sequence_lengths: Any = None,
                 time_major: bool = True, training: bool = True) -> tuple[tf.Tensor, tuple]:
        """(outputs ``[time, batch, dirs * units]``, final state as CuDNN returns it: ``(h, c)`` for an LSTM,
        ``(h,)`` otherwise, each ``[layers * dirs, batch, units]``)."""
        if self._scope is None:
            with v1.variable_scope(self._name, default_name=self.default_name) as scope:
                self._scope = scope
        with v1.variable_scope(self._scope, reuse=v1.AUTO_REUSE):
            outputs, finals = self._run(inputs, initial_state, sequence_lengths, time_major, training)
        if self._is_lstm:
            return outputs, (tf.stack([s.h for s in finals]), tf.stack([s.c for s in finals]))
        return outputs, (tf.stack(finals),)

    def _run(self, inputs: tf.Tensor, initial_state: Any, lengths: Any, time_major: bool,
             training: bool) -> tuple[tf.Tensor, list]:
        keep = 1.0 - self.dropout if training else 1.0
        if self.direction == "unidirectional":
            cells = [self._cell() for _ in range(self.num_layers)]
            if keep < 1.0:  # CuDNN drops out between layers, not after the last one
                cells = [legacy_cell_wrappers.DropoutWrapper(c, output_keep_prob=keep, seed=self._seed)
                         for c in cells[:-1]] + cells[-1:]
            multi = legacy_cells.MultiRNNCell(cells)
            state = None
            if initial_state is not None:
                state = tuple(self._layer_state(initial_state, i) for i in range(self.num_layers))
            outputs, final = v1.nn.dynamic_rnn(multi, inputs, sequence_length=lengths, initial_state=state,
                                               dtype=None if state is not None else self.dtype,
                                               time_major=time_major)
            return outputs, list(final)
        from compat.contrib.rnn import stack_bidirectional_dynamic_rnn
        fw = [self._cell() for _ in range(self.num_layers)]
        bw = [self._cell() for _ in range(self.num_layers)]
        init_fw = init_bw = None
        if initial_state is not None:
            init_fw = [self._layer_state(initial_state, 2 * i) for i in range(self.num_layers)]
            init_bw = [self._layer_state(initial_state, 2 * i + 1) for i in range(self.num_layers)]
        outputs, states_fw, states_bw = stack_bidirectional_dynamic_rnn(
            fw, bw, inputs, initial_states_fw=init_fw, initial_states_bw=init_bw, dtype=self.dtype,
            sequence_length=lengths, time_major=time_major)
        finals = [s for pair in zip(states_fw, states_bw, strict=True) for s in pair]
        return outputs, finals


class CudnnLSTM(_CudnnLayer):
    """``CudnnLSTM(num_layers, num_units)``: ``outputs, (h, c) = layer(inputs [time, batch, depth])``."""

    default_name = "cudnn_lstm"
    _is_lstm = True


class CudnnGRU(_CudnnLayer):
    """``CudnnGRU(num_layers, num_units)``: ``outputs, (h,) = layer(inputs [time, batch, depth])``."""

    default_name = "cudnn_gru"
