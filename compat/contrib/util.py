"""``tf.contrib.util``: tensor and graph utilities, which moved to core TensorFlow."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "constant_value": "tensorflow.get_static_value",
    "make_ndarray": "tensorflow.make_ndarray",
    "make_tensor_proto": "tensorflow.make_tensor_proto",
    "ops_used_by_graph_def": "tensorflow.python.framework.meta_graph.ops_used_by_graph_def",
    "stripped_op_list_for_graph": "tensorflow.python.framework.meta_graph.stripped_op_list_for_graph",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {

}

__getattr__ = forwarding_getattr("util", FORWARDS, REFUSED)
