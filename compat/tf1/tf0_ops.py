"""TensorFlow 0.x ops whose arguments or semantics changed in TensorFlow 1.0, on today's ``tf.compat.v1``.

Each function here takes the pre-1.0 arguments and computes what the pre-1.0 op
computed, by calling today's op with the 1.0 arguments. Where an old name was
kept in 1.0 with a new argument order (``tf.concat``, ``tf.split``, the
cross-entropy losses), the function accepts both forms and tells them apart by
something the two forms cannot share (a Python integer axis where 1.0 takes a
tensor list; positional arguments where 1.x required keywords), so scripts
written for TensorFlow 1.x keep their meaning.

The old summary ops keep their tags exactly as given: TensorFlow 1.0's
``tf.summary.*`` prefixes the enclosing name scope and replaces characters
such as spaces, which the old ``tf.*_summary`` ops did not do (this is why
``tf.contrib.deprecated`` kept them in TensorFlow 1.x).

:mod:`compat.tf1.renames` lists which old name goes where. TensorFlow is imported
only when one of these functions is called.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = [
    "audio_summary",
    "batch_matmul",
    "batch_svd",
    "concat",
    "flipped_sigmoid_cross_entropy_with_logits",
    "flipped_softmax_cross_entropy_with_logits",
    "flipped_sparse_softmax_cross_entropy_with_logits",
    "histogram_summary",
    "image_summary",
    "merge_all_summaries",
    "merge_summary",
    "nce_loss",
    "SparseTensor",
    "SparseTensorValue",
    "ones_initializer",
    "per_image_whitening",
    "resize_images",
    "reverse",
    "sampled_softmax_loss",
    "scalar_summary",
    "sigmoid_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits",
    "sparse_softmax_cross_entropy_with_logits",
    "sparse_concat",
    "sparse_split",
    "split",
    "zeros_initializer",
]


def _v1() -> Any:
    import tensorflow as tf
    return tf.compat.v1


class _DenseShapeKeyword(type):
    """A stand-in for today's class of the same name in ``tf.compat.v1`` that also takes TF <= 0.12's
    keyword ``shape=`` (``dense_shape`` since 1.0). Calling it makes today's object; ``isinstance``,
    ``issubclass`` and class attributes (``SparseTensor.from_value``) answer as today's class does."""

    def _target(cls) -> Any:
        return getattr(_v1(), cls.__name__)

    def __call__(cls, *args: Any, shape: Any = None, **kwargs: Any) -> Any:
        if shape is not None:
            if "dense_shape" in kwargs:
                raise TypeError(f"tf.{cls.__name__}() got both 'shape' (its name before TensorFlow 1.0) and "
                                "'dense_shape'; pass only 'dense_shape'")
            kwargs["dense_shape"] = shape
        return cls._target()(*args, **kwargs)

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, cls._target())

    def __subclasscheck__(cls, subclass: type) -> bool:
        return issubclass(subclass, cls._target())

    def __getattr__(cls, name: str) -> Any:
        return getattr(cls._target(), name)


class SparseTensor(metaclass=_DenseShapeKeyword):
    """``tf.SparseTensor(indices, values, dense_shape)``, also with TF <= 0.12's ``shape=`` keyword."""


class SparseTensorValue(metaclass=_DenseShapeKeyword):
    """``tf.SparseTensorValue(indices, values, dense_shape)``, also with TF <= 0.12's ``shape=`` keyword."""


def _is_axis(value: Any) -> bool:
    """True for what can only be a dimension index: a Python/NumPy integer or a 0-d integer tensor.

    A 1.0-style call never has one in the first position (it takes the tensor
    or tensor list there), so such a first argument marks the pre-1.0 order.
    """
    import numpy as np
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (int, np.integer)):
        return True
    dtype = getattr(value, "dtype", None)
    shape = getattr(value, "shape", None)
    if dtype is None or shape is None:
        return False
    try:
        rank = len(shape)
    except TypeError:  # a tensor of unknown rank
        return False
    is_integer = bool(getattr(dtype, "is_integer", False)) or (
        isinstance(dtype, np.dtype) and np.issubdtype(dtype, np.integer))
    return rank == 0 and is_integer


def _bind(args: Sequence[Any], kwargs: dict[str, Any], names: Sequence[str], function: str) -> dict[str, Any]:
    """The keyword arguments of a call, positional ones named by ``names`` (the old order).

    Raises:
        TypeError: an argument is given both positionally and by keyword.
    """
    bound = dict(zip(names, args))
    for key, value in kwargs.items():
        if key in bound:
            raise TypeError(f"{function}() got multiple values for argument {key!r}")
        bound[key] = value
    return bound


# --------------------------------------------------------------------------
# Reordered array ops
# --------------------------------------------------------------------------

def concat(values: Any = None, axis: Any = None, name: str = "concat", concat_dim: Any = None) -> Any:
    """``tf.concat`` in both orders: 1.0 ``(values, axis)`` and pre-1.0 ``(concat_dim, values)``.

    Returns the concatenated tensor.

    Raises:
        TypeError: no axis was given.
    """
    if concat_dim is not None:  # the pre-1.0 keyword
        if axis is not None:
            values, axis = axis, concat_dim
        else:
            axis = concat_dim
    elif _is_axis(values) and axis is not None and not _is_axis(axis):
        values, axis = axis, values
    if axis is None:
        raise TypeError("concat() missing required argument: 'axis' (or the pre-1.0 'concat_dim')")
    return _v1().concat(values, axis, name=name)


def split(*args: Any, **kwargs: Any) -> Any:
    """``tf.split`` in both orders: 1.0 ``(value, num_or_size_splits, axis=0)`` and pre-1.0
    ``(split_dim, num_split, value)``.

    The pre-1.0 form is recognised by its keywords (``split_dim``, ``num_split``)
    or by an integer first argument followed by the value (a scalar can never be
    split, so the 1.0 form never starts with one). Returns the list of pieces.
    """
    old_keywords = {"split_dim", "num_split"} & set(kwargs)
    if old_keywords or (len(args) >= 3 and _is_axis(args[0])) or (
            len(args) >= 1 and _is_axis(args[0]) and "value" in kwargs):
        names = ("split_dim", "num_split", "value", "name")
        bound = dict(zip(names, args))
        bound.update(kwargs)
        unknown = set(bound) - set(names)
        if unknown:
            raise TypeError(f"split() (pre-1.0 form split(split_dim, num_split, value, name)) got "
                            f"unexpected arguments {sorted(unknown)}")
        return _v1().split(bound["value"], bound["num_split"], axis=bound["split_dim"],
                           name=bound.get("name", "split"))
    return _v1().split(*args, **kwargs)


def sparse_split(*args: Any, **kwargs: Any) -> Any:
    """``tf.sparse_split``; positional arguments are the pre-1.0 ``(split_dim, num_split, sp_input, name)``.

    TensorFlow 1.x accepted keywords only, so positional arguments can only be
    the old order; the old keyword ``split_dim`` is today's ``axis``. Returns
    the list of sparse pieces.
    """
    bound = _bind(args, kwargs, ("split_dim", "num_split", "sp_input", "name"), "sparse_split")
    # Today's tf.compat.v1 lists split_dim but insists on axis, so the old keyword is mapped here.
    if "split_dim" in bound:
        if bound.get("axis") is not None:
            raise TypeError("sparse_split(): give axis or the pre-1.0 split_dim, not both")
        bound["axis"] = bound.pop("split_dim")
    return _v1().sparse_split(**bound)


def sparse_concat(axis: Any = None, sp_inputs: Any = None, name: str | None = None,
                  expand_nonconcat_dim: bool = False, concat_dim: Any = None,
                  expand_nonconcat_dims: bool | None = None) -> Any:
    """``tf.sparse_concat`` also with the pre-1.0 keyword ``concat_dim`` alone.

    Today's ``tf.compat.v1.sparse_concat`` still lists ``concat_dim`` but
    requires ``axis`` positionally, so ``sparse_concat(concat_dim=1,
    sp_inputs=...)`` fails there. Returns the concatenated ``SparseTensor``.

    Raises:
        TypeError: neither ``axis`` nor ``concat_dim`` is given.
    """
    if axis is None:
        axis = concat_dim
    if axis is None:
        raise TypeError("sparse_concat() missing required argument: 'axis' (or the pre-1.0 'concat_dim')")
    if expand_nonconcat_dims is not None:
        expand_nonconcat_dim = expand_nonconcat_dims
    return _v1().sparse_concat(axis, sp_inputs, name=name, expand_nonconcat_dim=expand_nonconcat_dim)


def reverse(tensor: Any, axis: Any = None, name: str | None = None, dims: Any = None) -> Any:
    """``tf.reverse`` with 1.0 axis indices or the pre-1.0 boolean ``dims`` vector.

    Before 1.0, ``tf.reverse(t, [True, False, True])`` reversed the dimensions
    whose entry is True (one entry per dimension); 1.0 takes ``[0, 2]``.
    A boolean vector (Python, NumPy or a bool tensor) is converted to indices.
    Returns the reversed tensor.

    Raises:
        ValueError: a boolean vector whose length is not the rank of ``tensor``.
    """
    import numpy as np
    v1 = _v1()
    if dims is not None:
        axis = dims
    if axis is None:
        raise TypeError("reverse() missing required argument: 'axis' (or the pre-1.0 'dims')")
    dtype = getattr(axis, "dtype", None)
    if dtype is not None and not isinstance(axis, np.ndarray):  # a tensor
        if dtype == v1.bool:
            indices = v1.cast(v1.reshape(v1.where(axis), [-1]), v1.int32)
            return v1.reverse(tensor, indices, name=name)
        return v1.reverse(tensor, axis, name=name)
    flags = np.asarray(axis)
    if flags.dtype != np.bool_:
        return v1.reverse(tensor, axis, name=name)
    tensor = v1.convert_to_tensor(tensor)
    rank = tensor.shape.ndims
    if flags.ndim != 1 or (rank is not None and flags.shape[0] != rank):
        raise ValueError(f"reverse(): the pre-1.0 boolean dims {flags.tolist()} must have one entry per "
                         f"dimension of the tensor (rank {rank}); or give axis indices, e.g. "
                         f"{np.flatnonzero(flags).tolist()}")
    return v1.reverse(tensor, np.flatnonzero(flags).astype(np.int32), name=name)


def batch_matmul(x: Any, y: Any, adj_x: Any = None, adj_y: Any = None, name: str | None = None) -> Any:
    """``tf.batch_matmul(x, y, adj_x, adj_y)``: ``tf.matmul`` with ``adjoint_a``/``adjoint_b``.

    The third and fourth positional arguments are adjoint flags here, whereas
    ``tf.matmul``'s are ``transpose_a``/``transpose_b``. Returns the product.
    """
    return _v1().matmul(x, y, adjoint_a=bool(adj_x), adjoint_b=bool(adj_y), name=name)


def batch_svd(tensor: Any, compute_uv: bool = True, full_matrices: bool = False,
              name: str | None = None) -> Any:
    """``tf.batch_svd(tensor, compute_uv, full_matrices)``: ``tf.svd`` with its two flags in the old order.

    Returns ``(s, u, v)``, or ``s`` alone when ``compute_uv`` is false.
    """
    return _v1().svd(tensor, full_matrices=full_matrices, compute_uv=compute_uv, name=name)


def _is_shape(value: Any) -> bool:
    """True for a shape argument (list, tuple, TensorShape, int), False for a dtype."""
    import numpy as np
    v1 = _v1()
    if isinstance(value, (v1.DType, np.dtype, str, type)):
        return False
    return isinstance(value, (list, tuple, int, np.integer, np.ndarray, v1.TensorShape)) or hasattr(value, "shape")


def zeros_initializer(*args: Any, **kwargs: Any) -> Any:
    """``tf.zeros_initializer``: the pre-1.0 function ``(shape, dtype=float32)`` or the 1.0 class ``(dtype)``.

    Pre-1.0 code passed it uncalled (``initializer=tf.zeros_initializer``), so
    variable creation calls it with a shape and gets the zeros tensor; called
    with a dtype or nothing, it returns the 1.0 initializer object.
    """
    return _initializer_or_tensor("zeros", *args, **kwargs)


def ones_initializer(*args: Any, **kwargs: Any) -> Any:
    """``tf.ones_initializer``: the pre-1.0 function ``(shape, dtype=float32)`` or the 1.0 class ``(dtype)``."""
    return _initializer_or_tensor("ones", *args, **kwargs)


def _initializer_or_tensor(kind: str, *args: Any, **kwargs: Any) -> Any:
    v1 = _v1()
    shape = args[0] if args else kwargs.get("shape")
    if shape is not None and _is_shape(shape):
        dtype = args[1] if len(args) > 1 else kwargs.get("dtype", v1.float32)
        return getattr(v1, kind)(shape, dtype=dtype if dtype is not None else v1.float32)
    cls = v1.zeros_initializer if kind == "zeros" else v1.ones_initializer
    return cls(*args, **kwargs)


# --------------------------------------------------------------------------
# Cross entropy: positional (logits, labels) before 1.0, keywords only in 1.x
# --------------------------------------------------------------------------

def softmax_cross_entropy_with_logits(*args: Any, **kwargs: Any) -> Any:
    """``tf.nn.softmax_cross_entropy_with_logits``; positional arguments are the pre-1.0 order.

    The pre-1.0 order is ``(logits, labels, dim, name)``.

    TensorFlow 1.x refused positional arguments, but today's ``tf.compat.v1``
    takes them as ``(labels, logits)``: an old call would silently swap the
    two. Keyword calls are passed on unchanged. Returns the per-example loss.
    """
    if not args:
        return _v1().nn.softmax_cross_entropy_with_logits(**kwargs)
    bound = _bind(args, kwargs, ("logits", "labels", "dim", "name"), "softmax_cross_entropy_with_logits")
    return _v1().nn.softmax_cross_entropy_with_logits(**bound)


def sparse_softmax_cross_entropy_with_logits(*args: Any, **kwargs: Any) -> Any:
    """``tf.nn.sparse_softmax_cross_entropy_with_logits``; positional arguments are the pre-1.0 order.

    The pre-1.0 order is ``(logits, labels, name)``; keyword calls are passed on
    unchanged. Returns the per-example loss.
    """
    if not args:
        return _v1().nn.sparse_softmax_cross_entropy_with_logits(**kwargs)
    bound = _bind(args, kwargs, ("logits", "labels", "name"), "sparse_softmax_cross_entropy_with_logits")
    return _v1().nn.sparse_softmax_cross_entropy_with_logits(**bound)


def sigmoid_cross_entropy_with_logits(*args: Any, **kwargs: Any) -> Any:
    """``tf.nn.sigmoid_cross_entropy_with_logits``; positional arguments are the pre-1.0 ``(logits, targets, name)``.

    The pre-1.0 keyword ``targets`` is today's ``labels``. Returns the elementwise loss.
    """
    bound = _bind(args, kwargs, ("logits", "targets", "name"), "sigmoid_cross_entropy_with_logits")
    if "targets" in bound:
        if "labels" in bound:
            raise TypeError("sigmoid_cross_entropy_with_logits(): give labels or the pre-1.0 targets, not both")
        bound["labels"] = bound.pop("targets")
    return _v1().nn.sigmoid_cross_entropy_with_logits(**bound)


def flipped_softmax_cross_entropy_with_logits(logits: Any, labels: Any, dim: int = -1,
                                              name: str | None = None) -> Any:
    """``tf.contrib.nn.deprecated_flipped_softmax_cross_entropy_with_logits``: the pre-1.0 argument order.

    Returns the per-example loss.
    """
    return _v1().nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, dim=dim, name=name)


def flipped_sparse_softmax_cross_entropy_with_logits(logits: Any, labels: Any, name: str | None = None) -> Any:
    """``tf.contrib.nn.deprecated_flipped_sparse_softmax_cross_entropy_with_logits``; returns the per-example loss."""
    return _v1().nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name=name)


def flipped_sigmoid_cross_entropy_with_logits(logits: Any, targets: Any, name: str | None = None) -> Any:
    """``tf.contrib.nn.deprecated_flipped_sigmoid_cross_entropy_with_logits``; returns the elementwise loss."""
    return _v1().nn.sigmoid_cross_entropy_with_logits(labels=targets, logits=logits, name=name)


def _dtype_kind(value: Any) -> str:
    """``"int"``, ``"float"`` or ``""`` (unknown) for a tensor, array or nested list."""
    import numpy as np
    dtype = getattr(value, "dtype", None)
    if dtype is not None and not isinstance(dtype, np.dtype):  # a TensorFlow dtype
        return "int" if dtype.is_integer else "float" if dtype.is_floating else ""
    try:
        dtype = np.asarray(value).dtype
    except (TypeError, ValueError):
        return ""
    return "int" if np.issubdtype(dtype, np.integer) else "float" if np.issubdtype(dtype, np.floating) else ""


def _sampled_loss(function: str, args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
    """Call ``tf.compat.v1.nn.<function>``, swapping a pre-1.0 ``(..., inputs, labels, ...)`` pair.

    Before 1.0 the third and fourth arguments were ``inputs`` (float) and
    ``labels`` (integer class ids); 1.0 swapped them. Float then integer can
    only be the old order.
    """
    args = list(args)
    if len(args) >= 4 and _dtype_kind(args[2]) == "float" and _dtype_kind(args[3]) == "int":
        args[2], args[3] = args[3], args[2]
    return getattr(_v1().nn, function)(*args, **kwargs)


def nce_loss(*args: Any, **kwargs: Any) -> Any:
    """``tf.nn.nce_loss`` in both orders: 1.0 ``(weights, biases, labels, inputs, ...)`` and pre-1.0
    ``(weights, biases, inputs, labels, ...)``, told apart by the dtypes. Returns the per-example loss."""
    return _sampled_loss("nce_loss", args, kwargs)


def sampled_softmax_loss(*args: Any, **kwargs: Any) -> Any:
    """``tf.nn.sampled_softmax_loss`` in both orders (see :func:`nce_loss`). Returns the per-example loss."""
    return _sampled_loss("sampled_softmax_loss", args, kwargs)


# --------------------------------------------------------------------------
# Images
# --------------------------------------------------------------------------

def resize_images(*args: Any, **kwargs: Any) -> Any:
    """``tf.image.resize_images`` in both forms: 1.0 ``(images, size, method, align_corners)`` and
    0.11 ``(images, new_height, new_width, method, align_corners)``.

    An integer second argument (or the keywords ``new_height``/``new_width``)
    marks the 0.11 form, since ``size`` is a pair. Returns the resized images.
    """
    if "new_height" in kwargs or "new_width" in kwargs or (len(args) >= 3 and _is_axis(args[1])):
        bound = _bind(args, kwargs, ("images", "new_height", "new_width", "method", "align_corners"),
                      "resize_images")
        size = [bound.pop("new_height"), bound.pop("new_width")]
        return _v1().image.resize_images(bound.pop("images"), size, **bound)
    return _v1().image.resize_images(*args, **kwargs)


def per_image_whitening(image: Any) -> Any:
    """``tf.image.per_image_whitening``: ``(x - mean) / max(stddev, 1/sqrt(N))`` over one 3-D image.

    As before 1.0: the image is cast to float32 (no rescaling of integer
    images), mean and standard deviation are over all ``N`` values, and only a
    3-D ``[height, width, channels]`` image is accepted. Returns float32.

    Raises:
        ValueError: the image is not 3-D.
    """
    v1 = _v1()
    image = v1.convert_to_tensor(image, name="image")
    if image.shape.ndims is not None and image.shape.ndims != 3:
        raise ValueError(f"per_image_whitening: 'image' must be 3-D [height, width, channels], got shape "
                         f"{image.shape}; for a batch use tf.map_fn or tf.image.per_image_standardization")
    image = v1.cast(image, v1.float32)
    num_values = v1.cast(v1.reduce_prod(v1.shape(image)), v1.float32)
    mean = v1.reduce_mean(image)
    variance = v1.nn.relu(v1.reduce_mean(v1.square(image)) - v1.square(mean))
    scale = v1.maximum(v1.sqrt(variance), v1.rsqrt(num_values))
    return (image - mean) / scale


# --------------------------------------------------------------------------
# Summaries with the tags as given
# --------------------------------------------------------------------------

def _collect(value: Any, collections: Sequence[str] | None, default: Sequence[str]) -> None:
    graph = _v1().get_default_graph()
    for key in (default if collections is None else collections):
        graph.add_to_collection(key, value)


def _summary_keys() -> list[str]:
    return [_v1().GraphKeys.SUMMARIES]


def scalar_summary(tags: Any, values: Any, collections: Sequence[str] | None = None,
                   name: str | None = None) -> Any:
    """``tf.scalar_summary(tags, values)``: one scalar per tag, tags taken verbatim (any shape, equal shapes).

    Returns the serialized ``Summary`` string tensor, added to ``collections``
    (default: the summaries collection).
    """
    import tensorflow as tf
    v1 = _v1()
    with v1.name_scope(name, "ScalarSummary", [tags, values]) as scope:
        value = tf.raw_ops.ScalarSummary(tags=tags, values=values, name=scope)
    _collect(value, collections, _summary_keys())
    return value


def image_summary(tag: Any, tensor: Any, max_images: int = 3, collections: Sequence[str] | None = None,
                  name: str | None = None) -> Any:
    """``tf.image_summary(tag, tensor, max_images=3)``: tags ``tag/image`` or ``tag/image/0``, ``tag/image/1``, ...

    Returns the serialized ``Summary`` string tensor, added to ``collections``.
    """
    import tensorflow as tf
    v1 = _v1()
    with v1.name_scope(name, "ImageSummary", [tag, tensor]) as scope:
        value = tf.raw_ops.ImageSummary(tag=tag, tensor=tensor, max_images=max_images, name=scope)
    _collect(value, collections, _summary_keys())
    return value


def audio_summary(tag: Any, tensor: Any, sample_rate: Any, max_outputs: int = 3,
                  collections: Sequence[str] | None = None, name: str | None = None) -> Any:
    """``tf.audio_summary(tag, tensor, sample_rate, max_outputs=3)``: tags ``tag/audio`` or ``tag/audio/0``, ...

    Returns the serialized ``Summary`` string tensor, added to ``collections``.
    """
    import tensorflow as tf
    v1 = _v1()
    with v1.name_scope(name, "AudioSummary", [tag, tensor]) as scope:
        rate = v1.convert_to_tensor(sample_rate, dtype=v1.float32, name="sample_rate")
        value = tf.raw_ops.AudioSummaryV2(tag=tag, tensor=tensor, sample_rate=rate,
                                          max_outputs=max_outputs, name=scope)
    _collect(value, collections, _summary_keys())
    return value


def histogram_summary(tag: Any, values: Any, collections: Sequence[str] | None = None,
                      name: str | None = None) -> Any:
    """``tf.histogram_summary(tag, values)``: one histogram under ``tag``, verbatim.

    Returns the serialized ``Summary`` string tensor, added to ``collections``.
    """
    import tensorflow as tf
    v1 = _v1()
    with v1.name_scope(name, "HistogramSummary", [tag, values]) as scope:
        value = tf.raw_ops.HistogramSummary(tag=tag, values=values, name=scope)
    _collect(value, collections, _summary_keys())
    return value


def merge_summary(inputs: Sequence[Any], collections: Sequence[str] | None = None,
                  name: str | None = None) -> Any:
    """``tf.merge_summary(inputs)``: the union of the input summaries.

    Added only to the ``collections`` given (none by default), so that a later
    ``merge_all_summaries`` does not merge it a second time. Returns the string tensor.
    """
    import tensorflow as tf
    v1 = _v1()
    with v1.name_scope(name, "MergeSummary", inputs):
        value = tf.raw_ops.MergeSummary(inputs=inputs, name=name)
    _collect(value, collections, [])
    return value


def merge_all_summaries(key: str | None = None) -> Any:
    """``tf.merge_all_summaries(key='summaries')``: merge every summary in the collection ``key``.

    Returns the merged string tensor, or None when the collection is empty.
    """
    v1 = _v1()
    summaries = v1.get_collection(v1.GraphKeys.SUMMARIES if key is None else key)
    if not summaries:
        return None
    return merge_summary(summaries)


def _initializer_member(kind: str, member: str) -> Callable[..., Any]:
    """``tf.<kind>_initializer.<member>`` of TF 1.x's class, reached through the pre-1.0 function above."""
    def forward(*args: Any, **kwargs: Any) -> Any:
        return getattr(getattr(_v1(), f"{kind}_initializer"), member)(*args, **kwargs)
    forward.__name__ = member
    return forward


# TF 1.15 code calls the class's from_config/get_config on these names (Keras layer configs).
for _kind, _function in (("zeros", zeros_initializer), ("ones", ones_initializer)):
    for _member in ("from_config", "get_config"):
        setattr(_function, _member, _initializer_member(_kind, _member))
