"""``tf.contrib.recurrent``: the functional RNN loops, which compute what ``dynamic_rnn`` computes.

``functional_rnn`` / ``bidirectional_functional_rnn`` unrolled the cell with a
``Recurrent`` function op for TPUs; the outputs and final states are those of
``tf.compat.v1.nn.dynamic_rnn`` / ``bidirectional_dynamic_rnn`` over the same
cell, which these call (``use_tpu`` and ``fast_reverse`` only chose the op).
"""
from __future__ import annotations

from typing import Any

import tensorflow as tf

from compat.contrib import refusing_getattr

__all__ = ["bidirectional_functional_rnn", "functional_rnn"]

REFUSED: dict[str, str] = {
    "Recurrent": "tf.compat.v1.nn.dynamic_rnn, or tf.keras.layers.RNN (the Recurrent function op was internal)",
}

__getattr__ = refusing_getattr("recurrent", REFUSED)


def functional_rnn(cell: Any, inputs: Any, sequence_length: Any = None, initial_state: Any = None,
                   dtype: Any = None, time_major: bool = False, scope: Any = None,
                   use_tpu: bool = False) -> tuple[Any, Any]:
    """``(outputs, final_state)`` of ``cell`` over ``inputs`` ``[B, T, D]`` (``[T, B, D]`` if ``time_major``)."""
    del use_tpu  # only chose the loop implementation
    return tf.compat.v1.nn.dynamic_rnn(cell, inputs, sequence_length=sequence_length, initial_state=initial_state,
                                       dtype=dtype, time_major=time_major, scope=scope)


def bidirectional_functional_rnn(cell_fw: Any, cell_bw: Any, inputs: Any, initial_state_fw: Any = None,
                                 initial_state_bw: Any = None, dtype: Any = None, sequence_length: Any = None,
                                 time_major: bool = False, use_tpu: bool = False, fast_reverse: bool = False,
                                 scope: Any = None) -> tuple[Any, Any]:
    """``((outputs_fw, outputs_bw), (state_fw, state_bw))`` as ``bidirectional_dynamic_rnn``."""
    del use_tpu, fast_reverse  # only chose the loop implementation
    return tf.compat.v1.nn.bidirectional_dynamic_rnn(
        cell_fw, cell_bw, inputs, sequence_length=sequence_length, initial_state_fw=initial_state_fw,
        initial_state_bw=initial_state_bw, dtype=dtype, time_major=time_major, scope=scope)
