"""``tf.contrib.autograph``: AutoGraph, which moved to ``tf.autograph``."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "to_graph": "tensorflow.autograph.to_graph",
    "to_code": "tensorflow.autograph.to_code",
    "do_not_convert": "tensorflow.autograph.experimental.do_not_convert",
    "set_loop_options": "tensorflow.autograph.experimental.set_loop_options",
    "Feature": "tensorflow.autograph.experimental.Feature",
    "convert": "tensorflow.python.autograph.impl.api.convert",
    "converted_call": "tensorflow.python.autograph.impl.api.converted_call",
    "AutoGraphError": "tensorflow.python.autograph.impl.api.AutoGraphError",
    "StackTraceMapper": "tensorflow.python.autograph.impl.api.StackTraceMapper",
    "ConversionOptions": "tensorflow.python.autograph.core.converter.ConversionOptions",
    "operators": "tensorflow.python.autograph.operators",
    "utils": "tensorflow.python.autograph.utils",
    "set_element_type": "tensorflow.python.autograph.lang.directives.set_element_type",
    "stack": "tensorflow.python.autograph.lang.special_functions.stack",
    "tensor_list": "tensorflow.python.autograph.lang.special_functions.tensor_list",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {

}

__getattr__ = forwarding_getattr("autograph", FORWARDS, REFUSED)
