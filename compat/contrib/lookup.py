"""``tf.contrib.lookup``: lookup tables, forwarded to TensorFlow's lookup ops.

The tables and initializers of TF 1.x live on in ``tensorflow.python.ops.lookup_ops``
(``HashTable`` with its ``init`` op, ``index_table_from_file``, ...) and
``tf.lookup.experimental``; the TF 1.0 names ``string_to_index`` /
``index_to_string`` (and their ``*_table_from_*`` forms) are written here on them.
"""
from __future__ import annotations

from typing import Any

from compat.contrib._forward import forwarding_getattr, resolve

__all__ = [
    "index_to_string", "string_to_index", "string_to_index_table_from_file",
    "string_to_index_table_from_tensor",
]

_OPS = "tensorflow.python.ops.lookup_ops"

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    **{name: f"{_OPS}.{name}" for name in (
        "FastHashSpec", "HashTable", "HasherSpec", "IdTableWithHashBuckets", "InitializableLookupTableBase",
        "KeyValueTensorInitializer", "LookupInterface", "StrongHashSpec", "TableInitializerBase",
        "TextFileIdTableInitializer", "TextFileIndex", "TextFileInitializer", "TextFileStringTableInitializer",
        "index_table_from_file", "index_table_from_tensor", "index_to_string_table_from_file",
        "index_to_string_table_from_tensor")},
    "MutableHashTable": "tensorflow.compat.v1.lookup.experimental.MutableHashTable",
    "MutableDenseHashTable": "tensorflow.compat.v1.lookup.experimental.DenseHashTable",
}

REFUSED: dict[str, str] = {}

__getattr__ = forwarding_getattr("lookup", FORWARDS, REFUSED)


def string_to_index_table_from_file(vocabulary_file: Any = None, num_oov_buckets: int = 0,
                                    vocab_size: Any = None, default_value: int = -1,
                                    hasher_spec: Any = None, name: Any = None) -> Any:
    """The TF 1.0 name of ``index_table_from_file`` (string -> int64 id, by line number)."""
    kwargs = {} if hasher_spec is None else {"hasher_spec": hasher_spec}
    return resolve(f"{_OPS}.index_table_from_file")(
        vocabulary_file=vocabulary_file, num_oov_buckets=num_oov_buckets, vocab_size=vocab_size,
        default_value=default_value, name=name, **kwargs)


def string_to_index_table_from_tensor(mapping: Any, num_oov_buckets: int = 0, default_value: int = -1,
                                      hasher_spec: Any = None, name: Any = None) -> Any:
    """The TF 1.0 name of ``index_table_from_tensor``: ``mapping`` is the 1-D vocabulary."""
    kwargs = {} if hasher_spec is None else {"hasher_spec": hasher_spec}
    return resolve(f"{_OPS}.index_table_from_tensor")(
        vocabulary_list=mapping, num_oov_buckets=num_oov_buckets, default_value=default_value,
        name=name, **kwargs)


def string_to_index(tensor: Any, mapping: Any, default_value: int = -1, name: Any = None) -> Any:
    """The int64 ids of the strings of ``tensor`` in the 1-D vocabulary ``mapping`` (``default_value`` if absent).

    The table is added to ``TABLE_INITIALIZERS``: run ``tf.tables_initializer()`` first, as in TF 1.x.
    """
    table = string_to_index_table_from_tensor(mapping=mapping, default_value=default_value, name=name)
    return table.lookup(tensor)


def index_to_string(tensor: Any, mapping: Any, default_value: str = "UNK", name: Any = None) -> Any:
    """The strings of ``mapping`` at the int64 ids of ``tensor`` (``default_value`` if out of range)."""
    table = resolve(f"{_OPS}.index_to_string_table_from_tensor")(
        vocabulary_list=mapping, default_value=default_value, name=name)
    return table.lookup(tensor)
