"""``tf.contrib.checkpoint``: object-based checkpointing, which became ``tf.train.Checkpoint`` and its
trackable types.
"""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "CheckpointManager": "tensorflow.train.CheckpointManager",
    "Checkpointable": "tensorflow.python.trackable.autotrackable.AutoTrackable",
    "CheckpointableBase": "tensorflow.python.trackable.base.Trackable",
    "CheckpointableObjectGraph": "tensorflow.core.protobuf.trackable_object_graph_pb2.TrackableObjectGraph",
    "List": "tensorflow.python.trackable.data_structures.List",
    "Mapping": "tensorflow.python.trackable.data_structures.Mapping",
    "NoDependency": "tensorflow.python.trackable.data_structures.NoDependency",
    "NumpyState": "tensorflow.python.trackable.python_state.PythonState",
    "PythonStateWrapper": "tensorflow.python.trackable.python_state.PythonState",
    "list_objects": "tensorflow.python.checkpoint.util.list_objects",
    "object_metadata": "tensorflow.python.checkpoint.checkpoint.object_metadata",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {
    "UniqueNameTracker": "attributes of a tf.Module / tf.train.Checkpoint (unique names come from attribute names)",
    "capture_dependencies": "tf.Module attributes (dependencies are tracked by assignment)",
    "split_dependency": "tf.train.Checkpoint with separate objects",
    "dot_graph_from_checkpoint": "tf.train.list_variables(checkpoint) to inspect a checkpoint",
}

__getattr__ = forwarding_getattr("checkpoint", FORWARDS, REFUSED)
