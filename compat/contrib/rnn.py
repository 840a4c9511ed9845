"""``tf.contrib.rnn`` on TensorFlow 2: the TF1 cells with TF 1.x's variable names, so old checkpoints restore.

* The core cells (``BasicLSTMCell``, ``LSTMCell``, ``GRUCell``, ``MultiRNNCell``,
  ``DropoutWrapper``, ...) are the legacy cells of the ``tf_keras`` package, the
  very classes ``tf.compat.v1.nn.rnn_cell`` serves under ``TF_USE_LEGACY_KERAS=1``
  (taken from ``tf_keras`` directly, so they work whichever Keras TensorFlow
  picked at import).
* ``static_rnn``, ``static_bidirectional_rnn`` and ``static_state_saving_rnn`` are
  ``tf.compat.v1.nn``'s.
* The contrib-only cells are written in :mod:`compat.contrib._rnn_cells` from
  their documented equations; the stacked bidirectional RNNs and the fused-RNN
  adaptors are below.

Names this module cannot provide are in :data:`REFUSED` with what to use instead.
This module imports TensorFlow: it is imported only when a script touches ``tf.contrib.rnn``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tensorflow as tf
from tf_keras.src.layers.rnn import legacy_cell_wrappers, legacy_cells

from compat.contrib import _rnn_cells, refusing_getattr
from compat.contrib._rnn_cells import (
    AttentionCellWrapper,
    CompiledWrapper,
    Conv1DLSTMCell,
    Conv2DLSTMCell,
    Conv3DLSTMCell,
    ConvLSTMCell,
    CoupledInputForgetGateLSTMCell,
    EmbeddingWrapper,
    GRUBlockCell,
    GRUBlockCellV2,
    HighwayWrapper,
    IndRNNCell,
    IndyGRUCell,
    IndyLSTMCell,
    InputProjectionWrapper,
    IntersectionRNNCell,
    LayerNormBasicLSTMCell,
    LSTMBlockCell,
    NASCell,
    OutputProjectionWrapper,
    SRUCell,
    UGRNNCell,
)

v1 = tf.compat.v1

RNNCell = legacy_cells.RNNCell
LayerRNNCell = legacy_cells.LayerRNNCell
BasicRNNCell = legacy_cells.BasicRNNCell
BasicLSTMCell = legacy_cells.BasicLSTMCell
LSTMCell = legacy_cells.LSTMCell
GRUCell = legacy_cells.GRUCell
MultiRNNCell = legacy_cells.MultiRNNCell
LSTMStateTuple = legacy_cells.LSTMStateTuple
DropoutWrapper = legacy_cell_wrappers.DropoutWrapper
ResidualWrapper = legacy_cell_wrappers.ResidualWrapper
DeviceWrapper = legacy_cell_wrappers.DeviceWrapper

#: TF 1.x's private ``_linear`` helper, which 2017 custom cells imported from
#: ``tensorflow.contrib.rnn.python.ops.core_rnn_cell_impl`` (served by this module).
_linear = _rnn_cells.linear

static_rnn = v1.nn.static_rnn
static_bidirectional_rnn = v1.nn.static_bidirectional_rnn
static_state_saving_rnn = v1.nn.static_state_saving_rnn

__all__ = [
    "AttentionCellWrapper", "BasicLSTMCell", "BasicRNNCell", "CompiledWrapper", "Conv1DLSTMCell", "Conv2DLSTMCell",
    "Conv3DLSTMCell", "ConvLSTMCell", "CoupledInputForgetGateLSTMCell", "DeviceWrapper", "DropoutWrapper",
    "EmbeddingWrapper", "FusedRNNCell", "FusedRNNCellAdaptor", "GRUBlockCell", "GRUBlockCellV2", "GRUCell",
    "HighwayWrapper", "IndRNNCell", "IndyGRUCell", "IndyLSTMCell", "InputProjectionWrapper", "IntersectionRNNCell",
    "LSTMBlockCell", "LSTMBlockFusedCell", "LSTMBlockWrapper", "LSTMCell", "LSTMStateTuple",
    "LayerNormBasicLSTMCell", "LayerRNNCell", "MultiRNNCell", "NASCell", "OutputProjectionWrapper",
    "RNNCell", "ResidualWrapper", "SRUCell", "TimeReversedFusedRNN", "UGRNNCell", "best_effort_input_batch_size",
    "stack_bidirectional_dynamic_rnn", "stack_bidirectional_rnn", "static_bidirectional_rnn", "static_rnn",
    "static_state_saving_rnn", "transpose_batch_time",
]

#: TF 1.15 names of ``tf.contrib.rnn`` the runner does not provide, and what to use instead.
REFUSED: dict[str, str] = {
    "GLSTMCell": "tf.contrib.rnn.LSTMCell (the group-LSTM factorisation is not provided)",
    "GridLSTMCell": "tf.contrib.rnn.LSTMCell along each dimension (grid LSTMs are not provided)",
    "BidirectionalGridLSTMCell": "tf.contrib.rnn.static_bidirectional_rnn over LSTMCell (grid LSTMs are not provided)",
    "TimeFreqLSTMCell": "tf.contrib.rnn.LSTMCell (time-frequency LSTMs are not provided)",
    "PhasedLSTMCell": "tf.contrib.rnn.LSTMCell (phased LSTMs are not provided)",
}

# TF 1.x's source paths below this module (``tensorflow.contrib.rnn.python.ops...``) are served
# this module's names by the runner (compat.surfaces.modules.source_path_module).
__getattr__ = refusing_getattr("rnn", REFUSED)


def transpose_batch_time(x: tf.Tensor) -> tf.Tensor:
    """Swap the first two axes of ``x`` (``[batch, time, ...]`` <-> ``[time, batch, ...]``); rank must be >= 2."""
    rank = x.shape.rank
    if rank is not None and rank < 2:
        raise ValueError(f"transpose_batch_time needs a tensor of rank >= 2, got rank {rank} ({x})")
    if rank is not None:
        return tf.transpose(x, [1, 0, *range(2, rank)])
    perm = tf.concat([[1, 0], tf.range(2, tf.rank(x))], 0)
    return tf.transpose(x, perm)


def best_effort_input_batch_size(flat_input: Sequence[tf.Tensor]) -> Any:
    """The batch size (axis 1 of time-major inputs): static if any input knows it, else dynamic."""
    for value in flat_input:
        batch = tf.compat.dimension_value(value.shape[1]) if (value.shape.rank or 0) >= 2 else None
        if batch is not None:
            return int(batch)
    return tf.shape(flat_input[0])[1]


def _layer_states(states: Any, index: int) -> Any:
    return None if not states else states[index]


def stack_bidirectional_rnn(cells_fw: Sequence[Any], cells_bw: Sequence[Any], inputs: Sequence[tf.Tensor],
                            initial_states_fw: Sequence[Any] | None = None,
                            initial_states_bw: Sequence[Any] | None = None, dtype: Any = None,
                            sequence_length: Any = None, scope: Any = None) -> tuple[list[tf.Tensor], tuple, tuple]:
    """Layers of ``static_bidirectional_rnn``, each fed the previous layer's concatenated outputs.

    ``inputs`` is a list of ``[batch, depth]`` tensors; returns (outputs ``[batch, 2 * units]`` per step,
    forward final states, backward final states). Variables:
    ``stack_bidirectional_rnn/cell_<i>/bidirectional_rnn/{fw,bw}/<cell>/...``.
    """
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw = [], []
    layer = list(inputs)
    with v1.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw, strict=True)):
            with v1.variable_scope(f"cell_{i}"):
                layer, state_fw, state_bw = static_bidirectional_rnn(
                    cell_fw, cell_bw, layer, initial_state_fw=_layer_states(initial_states_fw, i),
                    initial_state_bw=_layer_states(initial_states_bw, i), dtype=dtype,
                    sequence_length=sequence_length)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return layer, tuple(states_fw), tuple(states_bw)


def stack_bidirectional_dynamic_rnn(cells_fw: Sequence[Any], cells_bw: Sequence[Any], inputs: tf.Tensor,
                                    initial_states_fw: Sequence[Any] | None = None,
                                    initial_states_bw: Sequence[Any] | None = None, dtype: Any = None,
                                    sequence_length: Any = None, parallel_iterations: int | None = None,
                                    time_major: bool = False, scope: Any = None,
                                    swap_memory: bool = False) -> tuple[tf.Tensor, tuple, tuple]:
    """Layers of ``bidirectional_dynamic_rnn`` over ``inputs`` ``[batch, time, depth]`` (or time-major).

    Returns (outputs ``[batch, time, 2 * units]``, forward final states, backward final states).
    Variables: ``stack_bidirectional_rnn/cell_<i>/bidirectional_rnn/{fw,bw}/<cell>/...``.
    """
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw = [], []
    layer = inputs
    with v1.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw, strict=True)):
            with v1.variable_scope(f"cell_{i}"):
                outputs, (state_fw, state_bw) = v1.nn.bidirectional_dynamic_rnn(
                    cell_fw, cell_bw, layer, sequence_length=sequence_length,
                    initial_state_fw=_layer_states(initial_states_fw, i),
                    initial_state_bw=_layer_states(initial_states_bw, i), dtype=dtype,
                    parallel_iterations=parallel_iterations, swap_memory=swap_memory, time_major=time_major)
                layer = tf.concat(outputs, 2)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return layer, tuple(states_fw), tuple(states_bw)


def _check_stack(cells_fw: Sequence[Any], cells_bw: Sequence[Any], initial_fw: Sequence[Any] | None,
                 initial_bw: Sequence[Any] | None) -> None:
    """Raise ValueError unless the forward and backward lists are non-empty and of equal lengths."""
    if not cells_fw or not cells_bw:
        raise ValueError(f"cells_fw and cells_bw must be non-empty lists of cells, got {cells_fw!r}, {cells_bw!r}")
    if len(cells_fw) != len(cells_bw):
        raise ValueError(f"cells_fw and cells_bw must have the same length, got {len(cells_fw)} and {len(cells_bw)}")
    for label, states in (("initial_states_fw", initial_fw), ("initial_states_bw", initial_bw)):
        if states is not None and len(states) != len(cells_fw):
            raise ValueError(f"{label} must have one state per cell ({len(cells_fw)}), got {len(states)}")


# --------------------------------------------------------------------- fused RNNs
class FusedRNNCell:
    """Base of the fused (whole-sequence) RNNs: ``cell(inputs [time, batch, depth], initial_state=None,
    dtype=None, sequence_length=None, scope=None) -> (outputs [time, batch, units], final_state)``."""

    def __call__(self, inputs: Any, initial_state: Any = None, dtype: Any = None,
                 sequence_length: Any = None, scope: Any = None) -> tuple[Any, Any]:
        raise NotImplementedError(f"{type(self).__name__} must implement __call__")


class FusedRNNCellAdaptor(FusedRNNCell):
    """A step cell run over a whole time-major sequence (``static_rnn`` or ``dynamic_rnn``)."""

    def __init__(self, cell: Any, use_dynamic_rnn: bool = False) -> None:
        self._cell = cell
        self._use_dynamic_rnn = use_dynamic_rnn

    def __call__(self, inputs: Any, initial_state: Any = None, dtype: Any = None,
                 sequence_length: Any = None, scope: Any = None) -> tuple[Any, Any]:
        if self._use_dynamic_rnn:
            is_list = isinstance(inputs, (list, tuple))
            outputs, state = v1.nn.dynamic_rnn(self._cell, tf.stack(list(inputs)) if is_list else inputs,
                                               sequence_length=sequence_length, initial_state=initial_state,
                                               dtype=dtype, time_major=True, scope=scope)
            return (tf.unstack(outputs) if is_list else outputs), state
        steps = tf.unstack(inputs) if isinstance(inputs, tf.Tensor) else list(inputs)
        outputs, state = static_rnn(self._cell, steps, initial_state=initial_state, dtype=dtype,
                                    sequence_length=sequence_length, scope=scope)
        return (tf.stack(outputs) if isinstance(inputs, tf.Tensor) else outputs), state


class TimeReversedFusedRNN(FusedRNNCell):
    """Runs ``cell`` (fused or step cell) over the time-reversed sequence and reverses its outputs back."""

    def __init__(self, cell: Any) -> None:
        self._cell = cell if isinstance(cell, FusedRNNCell) else FusedRNNCellAdaptor(cell)

    def _reverse(self, t: Any, lengths: Any) -> Any:
        if lengths is None:
            return tf.reverse(t, [0]) if isinstance(t, tf.Tensor) else list(reversed(t))
        stacked = t if isinstance(t, tf.Tensor) else tf.stack(t)
        flipped = tf.reverse_sequence(stacked, tf.cast(lengths, tf.int64), seq_axis=0, batch_axis=1)
        return flipped if isinstance(t, tf.Tensor) else tf.unstack(flipped)

    def __call__(self, inputs: Any, initial_state: Any = None, dtype: Any = None,
                 sequence_length: Any = None, scope: Any = None) -> tuple[Any, Any]:
        outputs, state = self._cell(self._reverse(inputs, sequence_length), initial_state, dtype,
                                    sequence_length, scope)
        return self._reverse(outputs, sequence_length), state


class LSTMBlockFusedCell(FusedRNNCell):
    """The fused LSTM over a time-major sequence, with :class:`LSTMBlockCell`'s equations and variables
    (``lstm_cell/kernel``, ``lstm_cell/bias``); the state is ``LSTMStateTuple(c, h)``."""

    def __init__(self, num_units: int, forget_bias: float = 1.0, cell_clip: float | None = None,
                 use_peephole: bool = False, reuse: Any = None, dtype: Any = None, name: str = "lstm_cell") -> None:
        self._cell = LSTMBlockCell(num_units, forget_bias=forget_bias, cell_clip=cell_clip,
                                   use_peephole=use_peephole, reuse=reuse, name=name, dtype=dtype)
        self.num_units = num_units

    def __call__(self, inputs: Any, initial_state: Any = None, dtype: Any = None,
                 sequence_length: Any = None, scope: Any = None) -> tuple[Any, Any]:
        """(outputs ``[time, batch, units]``, final ``LSTMStateTuple``); variables ``[scope/]lstm_cell/kernel``,
        ``bias`` directly under the caller's scope, as the fused layer of TF 1.x made them (no ``rnn/``)."""
        if initial_state is not None and isinstance(initial_state, tuple):
            initial_state = LSTMStateTuple(*initial_state)
        is_list = isinstance(inputs, (list, tuple))
        stacked = tf.stack(list(inputs)) if is_list else inputs
        with v1.variable_scope(scope or v1.get_variable_scope()) as here:
            outputs, state = v1.nn.dynamic_rnn(self._cell, stacked, sequence_length=sequence_length,
                                               initial_state=initial_state, dtype=dtype or tf.float32,
                                               time_major=True, scope=here)
        return (tf.unstack(outputs) if is_list else outputs), state


LSTMBlockWrapper = LSTMBlockFusedCell

#: The contrib-only cell classes written here (for the tests and ``compat check``).
CONTRIB_CELLS = tuple(getattr(_rnn_cells, name) for name in _rnn_cells.__all__ if name[0].isupper())
