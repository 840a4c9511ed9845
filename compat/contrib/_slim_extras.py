"""TF 1.15 names of the ``tf_slim`` facades that ``tf_slim`` itself lacks, served from elsewhere.

:mod:`compat.contrib.slim` serves ``tf.contrib.slim``, ``layers``, ``framework``
and ``training`` from the ``tf_slim`` package. TF 1.x's modules held more: the
nest functions, checkpoint readers and small tensor utilities that live on in
TensorFlow (under ``tf.nest``, ``tf.train``, ``tensorflow.python.*``), the
old feature-column API (adapted in :mod:`compat.contrib._feature_columns`), and a
few layers written here in a few lines (``embed_sequence``, ``bow_encoder``, ...).

:data:`EXTRAS` maps facade -> {TF1 name: provider}; a provider is resolved when
the name is first used (:func:`lookup`), so importing this module imports
nothing heavy. Names no provider serves stay refused by the facade
(:data:`compat.rules.SLIM_MOVED`).
"""
from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from typing import Any

__all__ = [
    "EXTRAS",
    "assert_scalar_int",
    "bow_encoder",
    "embed_sequence",
    "embedding_lookup_unique",
    "get_placeholders",
    "load_linear_multiclass_bias_initializer",
    "lookup",
    "names",
    "reduce_sum_n",
    "remove_squeezable_dimensions",
    "sparse_feature_cross",
    "with_same_shape",
    "with_shape",
    "zero_initializer",
]

Provider = Callable[[], Any]


def _attr(module: str, name: str | None = None) -> Provider:
    """A provider of ``module.name`` (of the module itself when ``name`` is None)."""
    def provide() -> Any:
        found = importlib.import_module(module)
        return found if name is None else getattr(found, name)
    return provide


def _own(name: str) -> Provider:
    """A provider of a function of this module."""
    return lambda: globals()[name]


def _facade(name: str) -> Provider:
    """A provider of another ``tf_slim`` facade (``tf.contrib.framework``)."""
    def provide() -> Any:
        from compat.contrib import slim
        return slim.contrib_facade(name)
    return provide


# --------------------------------------------------------------------------
# framework: small tensor utilities of TF 1.x, written here
# --------------------------------------------------------------------------

def _tf() -> Any:
    import tensorflow as tf
    return tf


def with_shape(expected_shape: Any, tensor: Any) -> Any:
    """``tensor``, checked to have shape ``expected_shape`` (a list or 1-D int tensor).

    Checked when the graph is built if both shapes are known, else at run time.
    Raises ValueError for a known mismatch.
    """
    tf = _tf()
    tensor = tf.convert_to_tensor(tensor)
    if isinstance(expected_shape, (list, tuple)) and tensor.shape.rank is not None:
        expected = tf.TensorShape(expected_shape)
        if not expected.is_compatible_with(tensor.shape):
            raise ValueError(f"with_shape: tensor {tensor.name} has shape {tensor.shape}, expected {expected}")
        if tensor.shape.is_fully_defined():
            return tensor
    expected_tensor = tf.cast(tf.convert_to_tensor(expected_shape), tf.int32)
    check = tf.debugging.assert_equal(tf.shape(tensor), expected_tensor,
                                      message=f"with_shape: wrong shape for {tensor.name}")
    with tf.control_dependencies([check]):
        return tf.identity(tensor)


def with_same_shape(expected_tensor: Any, tensor: Any) -> Any:
    """``tensor``, checked to have the shape of ``expected_tensor``."""
    tf = _tf()
    expected_tensor = tf.convert_to_tensor(expected_tensor)
    if expected_tensor.shape.is_fully_defined():
        return with_shape(expected_tensor.shape.as_list(), tensor)
    return with_shape(tf.shape(expected_tensor), tensor)


def assert_scalar_int(tensor: Any, name: str | None = None) -> Any:
    """``tensor``, checked (when the graph is built) to be an integer scalar. Raises ValueError."""
    tf = _tf()
    with tf.name_scope(name or "assert_scalar_int"):
        tensor = tf.convert_to_tensor(tensor)
        if not tensor.dtype.is_integer:
            raise ValueError(f"assert_scalar_int: {tensor.name} has dtype {tensor.dtype.name}, expected an "
                             "integer type")
        if tensor.shape.rank != 0:
            raise ValueError(f"assert_scalar_int: {tensor.name} has shape {tensor.shape}, expected a scalar")
        return tensor


def reduce_sum_n(tensors: Sequence[Any], name: str | None = None) -> Any:
    """The sum of all elements of all ``tensors`` (a scalar of their common dtype)."""
    tf = _tf()
    if not tensors:
        raise ValueError("reduce_sum_n: no tensors to sum")
    with tf.name_scope(name or "reduce_sum_n"):
        totals = [tf.reduce_sum(t) for t in tensors]
        return totals[0] if len(totals) == 1 else tf.add_n(totals)


def remove_squeezable_dimensions(predictions: Any, labels: Any, name: str | None = None) -> tuple[Any, Any]:
    """(predictions, labels), the one of rank one higher squeezed on its last axis (size 1)."""
    from tensorflow.python.ops import confusion_matrix
    labels, predictions = confusion_matrix.remove_squeezable_dimensions(labels, predictions, name=name)
    return predictions, labels


def get_placeholders(graph: Any) -> list[Any]:
    """The output tensors of the ``Placeholder`` ops of ``graph``, in creation order."""
    return [op.outputs[0] for op in graph.get_operations() if op.type == "Placeholder"]


def zero_initializer(ref: Any, use_locking: bool = True, name: str = "zero_initializer") -> Any:
    """An op setting variable ``ref`` to zeros (its dtype and shape)."""
    tf = _tf()
    with tf.name_scope(name):
        return tf.compat.v1.assign(ref, tf.zeros_like(ref), use_locking=use_locking)


def load_linear_multiclass_bias_initializer(ckpt_path: str, bias_tensor_name: str, new_class_vocab_size: int,
                                            old_class_vocab_file: str, new_class_vocab_file: str,
                                            num_class_oov_buckets: int = 0, initializer: Any = None,
                                            max_rows_in_memory: int = -1) -> Any:
    """An initializer of a class-bias vector ``[new_class_vocab_size + oov]`` remapped from a checkpoint.

    The bias is a one-column matrix whose rows follow the class vocabulary.
    """
    from tensorflow.python.training import checkpoint_ops
    return checkpoint_ops._load_and_remap_matrix_initializer(
        ckpt_path=ckpt_path, old_tensor_name=bias_tensor_name, new_row_vocab_size=new_class_vocab_size,
        new_col_vocab_size=1, old_row_vocab_file=old_class_vocab_file, new_row_vocab_file=new_class_vocab_file,
        num_row_oov_buckets=num_class_oov_buckets, num_col_oov_buckets=0,
        initializer=initializer if initializer is not None else _tf().compat.v1.zeros_initializer(),
        max_rows_in_memory=max_rows_in_memory)


# --------------------------------------------------------------------------
# layers: embedding helpers of TF 1.x, written here
# --------------------------------------------------------------------------

def embedding_lookup_unique(params: Any, ids: Any, partition_strategy: str = "mod", name: str | None = None) -> Any:
    """``params`` rows of ``ids`` (any shape), each distinct id looked up once.

    Returns ``ids.shape + params.shape[1:]`` of ``params``' dtype.
    """
    tf = _tf()
    with tf.name_scope(name or "EmbeddingLookupUnique"):
        ids = tf.convert_to_tensor(ids)
        flat = tf.reshape(ids, [-1])
        unique, position = tf.unique(flat)
        rows = tf.compat.v1.nn.embedding_lookup(params, unique, partition_strategy=partition_strategy)
        gathered = tf.gather(rows, position)
        return tf.reshape(gathered, tf.concat([tf.shape(ids), tf.shape(gathered)[1:]], 0))


def _embeddings(vocab_size: int | None, embed_dim: int | None, initializer: Any, regularizer: Any,
                trainable: bool, function: str) -> Any:
    """The ``embeddings`` variable ``[vocab_size, embed_dim]`` of the current scope (a model variable)."""
    if not vocab_size or not embed_dim:
        raise ValueError(f"{function}: vocab_size and embed_dim must be positive integers, got "
                         f"vocab_size={vocab_size!r}, embed_dim={embed_dim!r}")
    tf = _tf()
    keys = tf.compat.v1.GraphKeys
    # a model variable, as TF 1.x's model_variable made it (tf_slim.model_variable does the same)
    return tf.compat.v1.get_variable("embeddings", shape=[vocab_size, embed_dim], initializer=initializer,
                                     regularizer=regularizer, trainable=trainable,
                                     collections=[keys.GLOBAL_VARIABLES, keys.MODEL_VARIABLES])


def embed_sequence(ids: Any, vocab_size: int | None = None, embed_dim: int | None = None, unique: bool = False,
                   initializer: Any = None, regularizer: Any = None, trainable: bool = True,
                   scope: str | None = None, reuse: bool | None = None) -> Any:
    """Embeddings of integer ``ids`` ``[batch, length]``: float32 ``[batch, length, embed_dim]``.

    Creates ``<scope or EmbedSequence>/embeddings`` as TF 1.x did.
    """
    tf = _tf()
    with tf.compat.v1.variable_scope(scope, "EmbedSequence", [ids], reuse=reuse):
        embeddings = _embeddings(vocab_size, embed_dim, initializer, regularizer, trainable, "embed_sequence")
        if unique:
            return embedding_lookup_unique(embeddings, ids)
        return tf.nn.embedding_lookup(embeddings, ids)


def bow_encoder(ids: Any, vocab_size: int, embed_dim: int, sparse_lookup: bool = True, initializer: Any = None,
                regularizer: Any = None, trainable: bool = True, scope: str | None = None,
                reuse: bool | None = None) -> Any:
    """The mean embedding of each row of ``ids`` (dense ``[batch, length]`` or a SparseTensor): ``[batch, embed_dim]``.

    Creates ``<scope or bow_encoder>/embeddings`` as TF 1.x did.
    """
    tf = _tf()
    with tf.compat.v1.variable_scope(scope, "bow_encoder", [ids], reuse=reuse):
        embeddings = _embeddings(vocab_size, embed_dim, initializer, regularizer, trainable, "bow_encoder")
        if isinstance(ids, tf.SparseTensor):
            return tf.nn.embedding_lookup_sparse(embeddings, ids, None, combiner="mean")
        # sparse_lookup chose TF 1.x's kernel only; the mean over the row is the same.
        return tf.reduce_mean(tf.nn.embedding_lookup(embeddings, ids), axis=-2)


def sparse_feature_cross(inputs: Sequence[Any], hashed_output: bool = False, num_buckets: int = 0,
                         name: str | None = None, hash_key: int | None = None) -> Any:
    """The per-row cross of ``inputs`` (SparseTensors or dense ``[batch, n]`` tensors), a SparseTensor.

    Unhashed, a crossed value is the values joined by ``"_X_"`` (string), as in
    TF 1.x; hashed (``hashed_output=True``), an int64 id in ``[0, num_buckets)``
    (any id when ``num_buckets`` is 0) from today's cross op, whose hash
    differs from TF 1.x's, so hashed ids differ from TF 1.x's.
    """
    tf = _tf()
    if hashed_output:
        return tf.sparse.cross_hashed(list(inputs), num_buckets=num_buckets, hash_key=hash_key, name=name)
    return tf.sparse.cross(list(inputs), name=name, separator="_X_")


# --------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------

_NEST = "tensorflow.python.util.nest"
_FC = "compat.contrib._feature_columns"

_NEST_NAMES = (
    "assert_same_structure", "assert_shallow_structure", "flatten", "flatten_dict_items", "flatten_up_to",
    "flatten_with_joined_string_paths", "flatten_with_tuple_paths", "flatten_with_tuple_paths_up_to",
    "get_traverse_shallow_structure", "is_nested", "is_sequence_or_composite", "map_structure",
    "map_structure_up_to", "map_structure_with_paths", "map_structure_with_tuple_paths",
    "map_structure_with_tuple_paths_up_to", "pack_sequence_as", "yield_flat_paths",
)

_FEATURE_COLUMN_NAMES = (
    "SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY", "bucketized_column", "check_feature_columns",
    "create_feature_spec_for_parsing", "crossed_column", "embedding_column", "infer_real_valued_columns",
    "input_from_feature_columns", "joint_weighted_sum_from_feature_columns",
    "make_place_holder_tensors_for_base_features", "one_hot_column", "parse_feature_columns_from_examples",
    "real_valued_column", "shared_embedding_columns", "sparse_column_with_hash_bucket",
    "sparse_column_with_integerized_feature", "sparse_column_with_keys", "sparse_column_with_vocabulary_file",
    "transform_features", "weighted_sparse_column", "weighted_sum_from_feature_columns",
)

_FRAMEWORK: dict[str, Provider] = {
    **{name: _attr(_NEST, name) for name in _NEST_NAMES},
    "is_sequence": _attr(_NEST, "is_nested"),
    "nest": _attr(_NEST),
    "list_variables": _attr("tensorflow.python.training.checkpoint_utils", "list_variables"),
    "load_checkpoint": _attr("tensorflow.python.training.checkpoint_utils", "load_checkpoint"),
    "load_variable": _attr("tensorflow.python.training.checkpoint_utils", "load_variable"),
    "init_from_checkpoint": _attr("tensorflow.python.training.checkpoint_utils", "init_from_checkpoint"),
    "load_and_remap_matrix_initializer": _attr("tensorflow.python.training.checkpoint_ops",
                                               "_load_and_remap_matrix_initializer"),
    "load_embedding_initializer": _attr("tensorflow.python.training.checkpoint_ops", "_load_embedding_initializer"),
    "load_linear_multiclass_bias_initializer": _own("load_linear_multiclass_bias_initializer"),
    "py_func": _attr("tensorflow.python.ops.script_ops", "py_func"),
    "sort": _attr("tensorflow.python.ops.sort_ops", "sort"),
    "argsort": _attr("tensorflow.python.ops.sort_ops", "argsort"),
    "is_tensor": _attr("tensorflow.python.framework.tensor_util", "is_tf_type"),
    "TensorSpec": _attr("tensorflow.python.framework.tensor_spec", "TensorSpec"),
    "BoundedTensorSpec": _attr("tensorflow.python.framework.tensor_spec", "BoundedTensorSpec"),
    "deprecated": _attr("tensorflow.python.util.deprecation", "deprecated"),
    "deprecated_args": _attr("tensorflow.python.util.deprecation", "deprecated_args"),
    "deprecated_arg_values": _attr("tensorflow.python.util.deprecation", "deprecated_arg_values"),
    "smart_cond": _attr("tensorflow.python.framework.smart_cond", "smart_cond"),
    "smart_case": _attr("tensorflow.python.framework.smart_cond", "smart_case"),
    "smart_constant_value": _attr("tensorflow.python.framework.smart_cond", "smart_constant_value"),
    "assert_scalar": _attr("tensorflow.python.ops.check_ops", "assert_scalar"),
    "assert_same_float_dtype": _attr("tensorflow.python.ops.check_ops", "assert_same_float_dtype"),
    "is_numeric_tensor": _attr("tensorflow.python.ops.check_ops", "is_numeric_tensor"),
    "is_non_decreasing": _attr("tensorflow.python.ops.check_ops", "is_non_decreasing"),
    "is_strictly_increasing": _attr("tensorflow.python.ops.check_ops", "is_strictly_increasing"),
    "convert_to_tensor_or_sparse_tensor": _attr("tensorflow.python.framework.sparse_tensor",
                                                "convert_to_tensor_or_sparse_tensor"),
    "strip_name_scope": _attr("tensorflow.python.framework.ops", "strip_name_scope"),
    "prepend_name_scope": _attr("tensorflow.python.framework.ops", "prepend_name_scope"),
    "get_name_scope": _attr("tensorflow.python.framework.ops", "get_name_scope"),
    "get_graph_from_inputs": _attr("tensorflow.python.framework.ops", "_get_graph_from_inputs"),
    "convolutional_delta_orthogonal": _attr("tensorflow.python.ops.init_ops", "ConvolutionDeltaOrthogonal"),
    "convolutional_orthogonal_1d": _attr("tensorflow.python.ops.init_ops", "ConvolutionOrthogonal1D"),
    "convolutional_orthogonal_2d": _attr("tensorflow.python.ops.init_ops", "ConvolutionOrthogonal2D"),
    "convolutional_orthogonal_3d": _attr("tensorflow.python.ops.init_ops", "ConvolutionOrthogonal3D"),
    "RecordInput": _attr("tensorflow.python.ops.data_flow_ops", "RecordInput"),
    **{name: _own(name) for name in ("with_shape", "with_same_shape", "assert_scalar_int", "reduce_sum_n",
                                     "remove_squeezable_dimensions", "get_placeholders", "zero_initializer")},
}

_LAYERS: dict[str, Provider] = {
    **{name: _attr(_FC, name) for name in _FEATURE_COLUMN_NAMES},
    "feature_column": _attr(_FC),
    # TF 1.x's fully_connected with that activation; tf_slim keeps them at its top level.
    **{name: _attr("tf_slim", name) for name in ("elu", "relu", "relu6", "linear", "legacy_relu", "legacy_linear")},
    "summaries": _attr("tf_slim.layers.summaries"),
    "safe_embedding_lookup_sparse": _attr("tensorflow.python.ops.embedding_ops", "safe_embedding_lookup_sparse"),
    **{name: _own(name) for name in ("embed_sequence", "bow_encoder", "embedding_lookup_unique")},
}

_SLIM: dict[str, Provider] = {
    **{name: _attr(_FC, name) for name in _FEATURE_COLUMN_NAMES},
    # Submodules TF 1.x's slim namespace leaked, forwarded to the modules holding those names today.
    "fc": _attr(_FC),
    "collections_abc": _attr("collections.abc"),
    "contrib_framework": _facade("framework"),
    "contrib_variables": _attr("tf_slim.ops.variables"),
    # TF 1.x's slim re-exported contrib.layers, which imported contrib.learn's ProblemType.
    "ProblemType": _attr("compat.contrib._learn_served", "ProblemType"),
    "checkpoint_utils": _attr("tensorflow.python.training.checkpoint_utils"),
    "embedding_ops": _attr("tensorflow.python.ops.embedding_ops"),
    "lookup": _attr("compat.contrib.lookup"),
    "loss_ops": _attr("compat.contrib.losses"),
    "metric_ops": _attr("compat.contrib.metrics"),
    "make_all": _attr("tensorflow.python.util.all_util", "make_all"),
    "loader": _attr("tensorflow.python.framework.load_library"),  # load_op_library lives there today
    "sparse_feature_cross": _own("sparse_feature_cross"),
    # TF 1.x only spread the aggregation over parameter servers; the result is embedding_lookup_sparse's.
    "embedding_lookup_sparse_with_distributed_aggregation": _attr("tensorflow.python.ops.embedding_ops",
                                                                  "embedding_lookup_sparse"),
    "deprecated": _attr("tensorflow.python.util.deprecation", "deprecated"),
    "deprecated_arg_values": _attr("tensorflow.python.util.deprecation", "deprecated_arg_values"),
    "safe_embedding_lookup_sparse": _attr("tensorflow.python.ops.embedding_ops", "safe_embedding_lookup_sparse"),
    **{name: _own(name) for name in ("embed_sequence", "bow_encoder", "embedding_lookup_unique",
                                     "zero_initializer")},
}

#: TF 1.15's queue pipelines of ``tf.contrib.training``, built once in ``tf1_pipelines.inputs``
#: (the package's queue machinery, usable without the runner).
_TRAINING_MODULES: dict[str, tuple[str, ...]] = {
    "tf1_pipelines.inputs.bucketing": ("bucket", "bucket_by_sequence_length"),
    "tf1_pipelines.inputs.sequence_state": ("batch_sequences_with_states", "SequenceQueueingStateSaver",
                                            "NextQueuedSequenceBatch"),
    "tf1_pipelines.inputs.sampling": ("rejection_sample", "stratified_sample", "resample_at_rate",
                                      "weighted_resample"),
    "tf1_pipelines.inputs.feeding_queue": ("FeedingQueueRunner",),
}

_TRAINING: dict[str, Provider] = {
    name: _attr(module, name) for module, names in _TRAINING_MODULES.items() for name in names}

#: facade -> {TF 1.15 name: provider} for the names ``tf_slim`` lacks.
EXTRAS: dict[str, dict[str, Provider]] = {"framework": _FRAMEWORK, "layers": _LAYERS, "slim": _SLIM,
                                          "training": _TRAINING}


@functools.cache
def lookup(facade: str, name: str) -> Any:
    """The value of ``tf.contrib.<facade>.<name>`` served here.

    Raises:
        KeyError: no provider for that name (the facade refuses it).
    """
    return EXTRAS[facade][name]()


def names(facade: str) -> list[str]:
    """The names served here for ``facade`` (for ``dir()``)."""
    return sorted(EXTRAS.get(facade, {}))
