"""NCHW convolutions and pools on a CPU: computed in NHWC between two transposes.

Code of 2017-2019 written for GPUs builds its convolutions channels-first
(``data_format='NCHW'``, ``tf.layers.conv2d(data_format='channels_first')``),
often behind a ``--use_gpu`` flag that defaults to true. TensorFlow's CPU
kernels of ``Conv2D``, its two gradients, ``MaxPool``, ``AvgPool`` and
``DepthwiseConv2dNative`` only take NHWC unless TensorFlow's oneDNN kernels
are on (``Conv2DCustomBackpropInputOp only supports NHWC``); TF 1.x's CPU
wheels failed the same way (``MaxPoolV2`` fails even with oneDNN). In a process
without a GPU, :func:`install` replaces the generated op functions of
``tensorflow.python.ops.gen_nn_ops`` whose kernels refuse NCHW (:func:`rewritten_ops`)
so that an NCHW call transposes its inputs to NHWC, runs the NHWC op and
transposes the result back: the same values, on any CPU. ``BiasAdd`` and
``FusedBatchNorm`` run NCHW on CPUs already and are left alone. Gradients
follow: the graph holds NHWC ops, whose registered gradients are NHWC too.

This goes beyond TF 1.x (it failed there); ``docs/divergences.md`` says so.
Importing this module imports nothing heavy and changes nothing.
"""
from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["NCHW_OPS", "ONEDNN_REFUSES", "install", "rewritten_ops", "to_nhwc_list"]

Undo = Callable[[], None]

#: The generated op functions rewritten -> the name of their data argument (first positional).
NCHW_OPS: tuple[str, ...] = (
    "conv2d", "conv2d_backprop_input", "conv2d_backprop_filter", "depthwise_conv2d_native",
    "max_pool", "avg_pool", "max_pool_v2",
)

#: NCHW position -> NHWC position of each dimension: NHWC = NCHW[[0, 2, 3, 1]].
_TO_NHWC = (0, 2, 3, 1)
_TO_NCHW = (0, 3, 1, 2)


def _is_nchw(data_format: Any) -> bool:
    if isinstance(data_format, bytes):
        data_format = data_format.decode("ascii", "replace")
    return isinstance(data_format, str) and data_format.upper() == "NCHW"


def to_nhwc_list(values: Sequence[Any]) -> list[Any]:
    """A 4-element per-dimension list (strides, ksize, dilations, sizes) given in NCHW order, in NHWC order."""
    return [values[i] for i in _TO_NHWC]


def _nhwc_paddings(paddings: Sequence[int]) -> list[int]:
    """``explicit_paddings`` (8 ints: before/after per NCHW dimension) in NHWC order."""
    pairs = [list(paddings[2 * i: 2 * i + 2]) for i in range(4)]
    return [p for i in _TO_NHWC for p in pairs[i]]


def _per_dimension(value: Any) -> bool:
    """True for a Python list/tuple of 4 entries (TensorFlow passes strides, ksize, dilations so)."""
    return isinstance(value, (list, tuple)) and len(value) == 4


def _sizes_to_nhwc(sizes: Any) -> Any:
    """``input_sizes`` / ``filter_sizes``-like 4-vectors in NCHW order, in NHWC order (lists or tensors)."""
    if isinstance(sizes, (list, tuple)):
        return to_nhwc_list(sizes) if len(sizes) == 4 else sizes
    import tensorflow as tf
    from tensorflow.python.framework import tensor_util
    sizes = tf.convert_to_tensor(sizes)
    if sizes.shape.rank != 1 or sizes.shape[0] != 4:
        return sizes  # TF 2's spatial-only form (2 entries) is the same in both layouts
    known = tensor_util.constant_value(sizes)
    if known is not None:  # a constant stays one, so the static output shape is known (TF 1.x's shape fn)
        return to_nhwc_list([int(v) for v in known])
    return tf.gather(sizes, list(_TO_NHWC))


def _nhwc(x: Any) -> Any:
    import tensorflow as tf
    return tf.transpose(x, _TO_NHWC)


def _nchw(x: Any, name: Any) -> Any:
    import tensorflow as tf
    return tf.transpose(x, _TO_NCHW, name=name)


def _inner_name(name: Any) -> Any:
    return None if name is None else f"{name}_nhwc"


def _layout_arguments(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of an NCHW call with every per-dimension list in NHWC order."""
    out = dict(kwargs, data_format="NHWC")
    for key in ("strides", "ksize", "dilations"):
        if _per_dimension(out.get(key)):
            out[key] = to_nhwc_list(out[key])
    if out.get("explicit_paddings"):
        out["explicit_paddings"] = _nhwc_paddings(out["explicit_paddings"])
    return out




def _rewritten(op: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """``original`` (a ``gen_nn_ops`` function) that runs its NCHW calls in NHWC."""
    # Which arguments are images in the data layout, and which are 4-vectors of sizes.
    images = {"conv2d": ("input",), "depthwise_conv2d_native": ("input",), "max_pool": ("input",),
              "avg_pool": ("value",), "max_pool_v2": ("input",), "conv2d_backprop_input": ("out_backprop",),
              "conv2d_backprop_filter": ("input", "out_backprop")}[op]
    result_is_image = op != "conv2d_backprop_filter"  # its result is a filter (HWIO): no layout
    signature = inspect.signature(original)

    @functools.wraps(original)
    def run(*args: Any, **kwargs: Any) -> Any:
        call = dict(signature.bind(*args, **kwargs).arguments)
        if not _is_nchw(call.get("data_format")):
            return original(*args, **kwargs)
        name = call.pop("name", None)
        call = _layout_arguments(call)
        for key in images:
            call[key] = _nhwc(call[key])
        if op == "conv2d_backprop_input":
            call["input_sizes"] = _sizes_to_nhwc(call["input_sizes"])
        if op == "max_pool_v2":
            for key in ("ksize", "strides"):
                call[key] = _sizes_to_nhwc(call[key])
        if not result_is_image:
            return original(name=name, **call)
        return _nchw(original(name=_inner_name(name), **call), name)

    run.__compat_nchw_on_cpu__ = True  # type: ignore[attr-defined]
    return run


#: The one op whose NCHW form even TensorFlow's oneDNN CPU kernels refuse (measured on TensorFlow 2.21).
ONEDNN_REFUSES: tuple[str, ...] = ("max_pool_v2",)


def _has_gpu() -> bool:
    import tensorflow as tf
    return bool(tf.config.list_physical_devices("GPU"))


def _onednn_enabled() -> bool:
    """True when TensorFlow's oneDNN CPU kernels are on in this process (``TF_ENABLE_ONEDNN_OPTS``, CPU)."""
    from tensorflow.python.util import _pywrap_util_port
    return bool(_pywrap_util_port.IsMklEnabled())


def rewritten_ops(force: bool = False) -> tuple[str, ...]:
    """The ``gen_nn_ops`` functions :func:`install` rewrites in this process.

    None with a GPU (its kernels take NCHW, as TF 1.x's did); with oneDNN's CPU
    kernels on, only :data:`ONEDNN_REFUSES` (oneDNN runs the others in NCHW itself,
    and faster than two transposes: 154-171 against 200-216 ms a step measured);
    otherwise all of :data:`NCHW_OPS`. ``force`` rewrites all of them.
    """
    if force:
        return NCHW_OPS
    if _has_gpu():
        return ()
    return ONEDNN_REFUSES if _onednn_enabled() else NCHW_OPS


def install(force: bool = False) -> Undo | None:
    """Rewrite NCHW convolutions and pools to NHWC where this process's kernels refuse them (see
    :func:`rewritten_ops`; ``force``: all of them). Returns the undo, or None when nothing was changed."""
    ops = rewritten_ops(force)
    if not ops:
        return None
    from tensorflow.python.ops import gen_nn_ops

    originals = {op: gen_nn_ops.__dict__[op] for op in ops}
    for op, original in originals.items():
        if not getattr(original, "__compat_nchw_on_cpu__", False):
            setattr(gen_nn_ops, op, _rewritten(op, original))

    def undo() -> None:
        for op, original in originals.items():
            setattr(gen_nn_ops, op, original)
    return undo
