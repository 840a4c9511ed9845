"""TF 1.x's ``tf.contrib.layers`` feature-column API, adapted to ``tf.compat.v1.feature_column``.

Old scripts built columns with ``real_valued_column``, ``sparse_column_with_*``,
``embedding_column``, ... and turned them into tensors with
``input_from_feature_columns`` / ``weighted_sum_from_feature_columns``. Each
function here takes the old arguments (old names and defaults) and returns the
``tf.compat.v1.feature_column`` column that computes the same thing; the two
layer functions call ``input_layer`` / ``linear_model``.

Differences from TF 1.x, by design of the newer API:

* the **variables are named differently** (``input_layer/<col>_embedding/embedding_weights``
  instead of ``input_from_feature_columns/<col>_embedding/weights``, ...), so
  checkpoints of TF 1.x models that used these columns do not restore;
* ``input_from_feature_columns`` concatenates the columns in the order of their
  names (as ``input_layer`` does);
* ``sparse_column_with_integerized_feature`` rejects ids outside ``[0, bucket_size)``
  at run time instead of taking them modulo ``bucket_size``;
* ``crossed_column`` hashes with the newer cross op, so bucket ids differ;
* the sparse-column ``combiner`` reaches ``weighted_sum_from_feature_columns`` only
  when all sparse columns of one call agree on it;
* ``parse_feature_columns_from_examples`` returns the parsed features by feature
  name (not transformed, and not keyed by column object).

TensorFlow is imported on the first call, not at import.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY",
    "bucketized_column",
    "check_feature_columns",
    "create_feature_spec_for_parsing",
    "crossed_column",
    "embedding_column",
    "infer_real_valued_columns",
    "input_from_feature_columns",
    "joint_weighted_sum_from_feature_columns",
    "make_place_holder_tensors_for_base_features",
    "one_hot_column",
    "parse_feature_columns_from_examples",
    "real_valued_column",
    "shared_embedding_columns",
    "sparse_column_with_hash_bucket",
    "sparse_column_with_integerized_feature",
    "sparse_column_with_keys",
    "sparse_column_with_vocabulary_file",
    "transform_features",
    "weighted_sparse_column",
    "weighted_sum_from_feature_columns",
]

#: The hash key TF 1.x's sparse feature cross used by default (a documented constant).
SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY = 0xDECAFCAFFE

_COMBINERS = ("sum", "mean", "sqrtn")

#: The combiner each sparse column was created with (columns are immutable tuples).
_SPARSE_COMBINERS: dict[Any, str] = {}


def _fc() -> Any:
    import tensorflow as tf
    return tf.compat.v1.feature_column


def _tf() -> Any:
    import tensorflow as tf
    return tf


def _check_combiner(function: str, combiner: str) -> None:
    if combiner not in _COMBINERS:
        raise ValueError(f"{function}: combiner must be one of {_COMBINERS}, got {combiner!r}")


def _sparse(column: Any, combiner: str) -> Any:
    _SPARSE_COMBINERS[column] = combiner
    return column


def _refuse_arguments(function: str, **given: Any) -> None:
    """ValueError for old arguments the newer API has no counterpart for, when they are set."""
    for name, value in given.items():
        if value is not None:
            raise ValueError(f"{function}: {name}={value!r} has no counterpart in tf.compat.v1.feature_column "
                             f"(the compat adapter supports only {name}=None)")


# --------------------------------------------------------------------------
# Columns
# --------------------------------------------------------------------------

def real_valued_column(column_name: str, dimension: int | None = 1, default_value: Any = None,
                       dtype: Any = None, normalizer: Any = None) -> Any:
    """A dense float column of ``dimension`` values per example (``numeric_column(key, shape=(dimension,))``).

    ``dimension=None`` (TF 1.x's variable-length real column) has no counterpart.
    """
    if dimension is None:
        raise ValueError(f"real_valued_column({column_name!r}): dimension=None (variable length) has no "
                         "counterpart; give a fixed dimension or use "
                         "tf.compat.v1.feature_column.sequence_numeric_column")
    if isinstance(default_value, (int, float)) and dimension > 1:
        default_value = (default_value,) * dimension  # TF 1.x broadcast a scalar default
    return _fc().numeric_column(column_name, shape=(dimension,), default_value=default_value,
                                dtype=dtype if dtype is not None else _tf().float32, normalizer_fn=normalizer)


def sparse_column_with_keys(column_name: str, keys: Iterable[Any], default_value: int = -1, combiner: str = "sum",
                            dtype: Any = None) -> Any:
    """Ids of ``keys`` (index in the list); other values get ``default_value`` (-1: dropped)."""
    _check_combiner("sparse_column_with_keys", combiner)
    column = _fc().categorical_column_with_vocabulary_list(
        column_name, vocabulary_list=tuple(keys), dtype=dtype if dtype is not None else _tf().string,
        default_value=default_value)
    return _sparse(column, combiner)


def sparse_column_with_hash_bucket(column_name: str, hash_bucket_size: int, combiner: str = "sum",
                                   dtype: Any = None, hash_keys: Any = None) -> Any:
    """Ids by hashing the values into ``hash_bucket_size`` buckets (``categorical_column_with_hash_bucket``)."""
    _check_combiner("sparse_column_with_hash_bucket", combiner)
    _refuse_arguments("sparse_column_with_hash_bucket", hash_keys=hash_keys)
    column = _fc().categorical_column_with_hash_bucket(
        column_name, hash_bucket_size, dtype=dtype if dtype is not None else _tf().string)
    return _sparse(column, combiner)


def sparse_column_with_integerized_feature(column_name: str, bucket_size: int, combiner: str = "sum",
                                           dtype: Any = None) -> Any:
    """Integer values used as ids in ``[0, bucket_size)`` (``categorical_column_with_identity``)."""
    _check_combiner("sparse_column_with_integerized_feature", combiner)
    tf = _tf()
    if dtype is not None and not tf.as_dtype(dtype).is_integer:
        raise ValueError(f"sparse_column_with_integerized_feature({column_name!r}): dtype must be an integer "
                         f"type, got {dtype!r}")
    return _sparse(_fc().categorical_column_with_identity(column_name, num_buckets=bucket_size), combiner)


def sparse_column_with_vocabulary_file(column_name: str, vocabulary_file: str, num_oov_buckets: int = 0,
                                       vocab_size: int | None = None, default_value: int = -1,
                                       combiner: str = "sum", dtype: Any = None) -> Any:
    """Ids by line number in ``vocabulary_file`` (``categorical_column_with_vocabulary_file``)."""
    _check_combiner("sparse_column_with_vocabulary_file", combiner)
    column = _fc().categorical_column_with_vocabulary_file(
        column_name, vocabulary_file, vocabulary_size=vocab_size, num_oov_buckets=num_oov_buckets,
        # the newer API forbids a default together with OOV buckets; -1 is its own default
        default_value=None if num_oov_buckets or default_value == -1 else default_value,
        dtype=dtype if dtype is not None else _tf().string)
    return _sparse(column, combiner)


def weighted_sparse_column(sparse_id_column: Any, weight_column_name: str, dtype: Any = None) -> Any:
    """``sparse_id_column`` with a per-id weight read from feature ``weight_column_name``."""
    column = _fc().weighted_categorical_column(sparse_id_column, weight_column_name,
                                               dtype=dtype if dtype is not None else _tf().float32)
    return _sparse(column, _SPARSE_COMBINERS.get(sparse_id_column, "sum"))


def one_hot_column(sparse_id_column: Any) -> Any:
    """A multi-hot dense encoding of ``sparse_id_column`` (``indicator_column``)."""
    return _fc().indicator_column(sparse_id_column)


def embedding_column(sparse_id_column: Any, dimension: int, combiner: str = "mean", initializer: Any = None,
                     ckpt_to_load_from: str | None = None, tensor_name_in_ckpt: str | None = None,
                     max_norm: float | None = None, trainable: bool = True) -> Any:
    """A ``dimension``-wide embedding of ``sparse_id_column``, ids combined by ``combiner``."""
    _check_combiner("embedding_column", combiner)
    return _fc().embedding_column(sparse_id_column, dimension, combiner=combiner, initializer=initializer,
                                  ckpt_to_load_from=ckpt_to_load_from, tensor_name_in_ckpt=tensor_name_in_ckpt,
                                  max_norm=max_norm, trainable=trainable)


def shared_embedding_columns(sparse_id_columns: Iterable[Any], dimension: int, combiner: str = "mean",
                             shared_embedding_name: str | None = None, initializer: Any = None,
                             ckpt_to_load_from: str | None = None, tensor_name_in_ckpt: str | None = None,
                             max_norm: float | None = None, trainable: bool = True) -> list[Any]:
    """Embedding columns of ``sparse_id_columns`` that share one embedding table."""
    _check_combiner("shared_embedding_columns", combiner)
    return list(_fc().shared_embedding_columns(
        list(sparse_id_columns), dimension, combiner=combiner, initializer=initializer,
        shared_embedding_collection_name=shared_embedding_name, ckpt_to_load_from=ckpt_to_load_from,
        tensor_name_in_ckpt=tensor_name_in_ckpt, max_norm=max_norm, trainable=trainable))


def bucketized_column(source_column: Any, boundaries: Iterable[float]) -> Any:
    """Ids of the ``boundaries`` interval each value of ``source_column`` (a real-valued column) falls in."""
    return _fc().bucketized_column(source_column, boundaries=list(boundaries))


def crossed_column(columns: Iterable[Any], hash_bucket_size: int, combiner: str = "sum",
                   ckpt_to_load_from: str | None = None, tensor_name_in_ckpt: str | None = None,
                   hash_key: int | None = None) -> Any:
    """The hashed cross of ``columns`` (sparse, bucketized or crossed columns).

    A hashed sparse column enters the cross by its feature name, as the newer
    API requires.
    """
    _check_combiner("crossed_column", combiner)
    _refuse_arguments("crossed_column", ckpt_to_load_from=ckpt_to_load_from,
                      tensor_name_in_ckpt=tensor_name_in_ckpt)
    keys = [column.key if type(column).__name__ == "HashedCategoricalColumn" else column for column in columns]
    return _sparse(_fc().crossed_column(keys, hash_bucket_size, hash_key=hash_key), combiner)


# --------------------------------------------------------------------------
# Columns to tensors
# --------------------------------------------------------------------------

def _column_list(feature_columns: Any) -> list[Any]:
    """The columns of a list, set or dict (its values), as TF 1.x accepted them."""
    if isinstance(feature_columns, Mapping):
        return list(feature_columns.values())
    return list(feature_columns)


def _features_by_name(columns_to_tensors: Mapping[Any, Any]) -> dict[str, Any]:
    """TF 1.x accepted a column as a key; the newer API wants the feature name."""
    features = {}
    for key, value in columns_to_tensors.items():
        features[key if isinstance(key, str) else getattr(key, "key", None) or key.name] = value
    return features


def input_from_feature_columns(columns_to_tensors: Mapping[Any, Any], feature_columns: Iterable[Any],
                               weight_collections: list[str] | None = None, trainable: bool = True,
                               scope: str | None = None, cols_to_outs: dict[Any, Any] | None = None) -> Any:
    """The dense input layer: float32 ``[batch, sum of column widths]``, columns in name order."""
    tf = _tf()
    with tf.compat.v1.variable_scope(scope, default_name="input_from_feature_columns"):
        return _fc().input_layer(_features_by_name(columns_to_tensors), _column_list(feature_columns),
                                 weight_collections=weight_collections, trainable=trainable,
                                 cols_to_output_tensors=cols_to_outs)


def _linear(columns_to_tensors: Mapping[Any, Any], feature_columns: Iterable[Any], num_outputs: int,
            weight_collections: list[str] | None, trainable: bool, scope: str | None,
            default_name: str) -> tuple[Any, dict[Any, list[Any]]]:
    tf = _tf()
    columns = _column_list(feature_columns)
    combiners = {_SPARSE_COMBINERS[column] for column in columns if column in _SPARSE_COMBINERS}
    if len(combiners) > 1:
        raise ValueError(f"{default_name}: the sparse columns use different combiners {sorted(combiners)}; "
                         "tf.compat.v1.feature_column.linear_model takes one sparse_combiner for all")
    cols_to_vars: dict[Any, list[Any]] = {}
    with tf.compat.v1.variable_scope(scope, default_name=default_name):
        predictions = _fc().linear_model(_features_by_name(columns_to_tensors), columns, units=num_outputs,
                                         sparse_combiner=combiners.pop() if combiners else "sum",
                                         weight_collections=weight_collections, trainable=trainable,
                                         cols_to_vars=cols_to_vars)
    return predictions, cols_to_vars


def weighted_sum_from_feature_columns(columns_to_tensors: Mapping[Any, Any], feature_columns: Iterable[Any],
                                      num_outputs: int, weight_collections: list[str] | None = None,
                                      trainable: bool = True, scope: str | None = None
                                      ) -> tuple[Any, dict[Any, list[Any]], Any]:
    """A linear model: (predictions ``[batch, num_outputs]``, {column: [weight variables]}, bias variable)."""
    predictions, cols_to_vars = _linear(columns_to_tensors, feature_columns, num_outputs, weight_collections,
                                        trainable, scope, "weighted_sum_from_feature_columns")
    bias = cols_to_vars.pop("bias")
    return predictions, cols_to_vars, bias[0]


def joint_weighted_sum_from_feature_columns(columns_to_tensors: Mapping[Any, Any], feature_columns: Iterable[Any],
                                            num_outputs: int, weight_collections: list[str] | None = None,
                                            trainable: bool = True, scope: str | None = None
                                            ) -> tuple[Any, list[Any], Any]:
    """As :func:`weighted_sum_from_feature_columns`, with the weights as a flat list.

    TF 1.x kept the weights of all sparse columns in one variable; here each
    column has its own (the predictions are the same linear function).
    """
    predictions, cols_to_vars = _linear(columns_to_tensors, feature_columns, num_outputs, weight_collections,
                                        trainable, scope, "joint_weighted_sum_from_feature_columns")
    bias = cols_to_vars.pop("bias")
    return predictions, [v for variables in cols_to_vars.values() for v in variables], bias[0]


def transform_features(features: Mapping[Any, Any], feature_columns: Any) -> dict[Any, Any]:
    """{column: its transformed tensor} for ``feature_columns`` over raw ``features``.

    Sparse columns give their SparseTensor of ids, real-valued ones their
    (normalized) float tensor, embedding and one-hot columns the ids of their
    sparse column, as in TF 1.x.
    """
    from tensorflow.python.feature_column import feature_column_v2
    cache = feature_column_v2.FeatureTransformationCache(_features_by_name(features))
    return {column: cache.get(column, None) for column in _column_list(feature_columns)}


def create_feature_spec_for_parsing(feature_columns: Any) -> dict[str, Any]:
    """The ``tf.io.parse_example`` spec of ``feature_columns`` (a list, set or dict of columns)."""
    return dict(_fc().make_parse_example_spec(_column_list(feature_columns)))


def parse_feature_columns_from_examples(serialized: Any, feature_columns: Any, name: str | None = None,
                                        example_names: Any = None) -> dict[str, Any]:
    """``serialized`` tf.Example protos parsed for ``feature_columns``, by feature name."""
    spec = create_feature_spec_for_parsing(feature_columns)
    return dict(_tf().compat.v1.io.parse_example(serialized, spec, name=name, example_names=example_names))


def make_place_holder_tensors_for_base_features(feature_columns: Any) -> dict[str, Any]:
    """A placeholder per raw feature: dense ``[None, *shape]`` for fixed-length, sparse for var-length ones."""
    tf = _tf()
    placeholders = {}
    for key, feature in create_feature_spec_for_parsing(feature_columns).items():
        if isinstance(feature, tf.io.FixedLenFeature):
            placeholders[key] = tf.compat.v1.placeholder(feature.dtype, [None, *feature.shape], name=key)
        else:
            placeholders[key] = tf.compat.v1.sparse_placeholder(feature.dtype, name=key)
    return placeholders


def infer_real_valued_columns(features: Any) -> list[Any]:
    """Real-valued columns for a dict of dense tensors (or one tensor, named ``""``), one per feature.

    The dimension is the product of a feature's static shape past the batch axis.
    """
    tf = _tf()
    items = features.items() if isinstance(features, Mapping) else [("", features)]
    columns = []
    for key, value in sorted(items, key=lambda item: item[0]):
        tensor = tf.convert_to_tensor(value)
        if not (tensor.dtype.is_floating or tensor.dtype.is_integer):
            raise ValueError(f"infer_real_valued_columns: feature {key!r} has dtype {tensor.dtype.name}; only "
                             "numeric features give real-valued columns")
        # as_list(): plain ints, also where TF1 graph mode gives the shape as Dimension objects
        dims = tf.TensorShape(tensor.shape).as_list()[1:]
        if any(size is None for size in dims):
            raise ValueError(f"infer_real_valued_columns: feature {key!r} has shape {tensor.shape}; the "
                             "dimensions past the batch axis must be known")
        dimension = 1
        for size in dims:
            dimension *= size
        columns.append(real_valued_column(key, dimension=dimension, dtype=tf.float32))
    return columns


def check_feature_columns(feature_columns: Iterable[Any]) -> None:
    """ValueError if two of ``feature_columns`` have the same name (TF 1.x's check)."""
    seen: dict[str, Any] = {}
    for column in feature_columns:
        name = column.name
        if name in seen:
            raise ValueError(f"Duplicate feature column name found for columns: {seen[name]} and {column}. "
                             "Each feature column must have a unique name.")
        seen[name] = column
