"""``tf.contrib.data``: the transformations TF 1.4-1.12 input pipelines applied, on today's tf.data.

Each function returns a ``Dataset -> Dataset`` function for ``dataset.apply(...)``,
as ``tf.contrib.data`` did. Names ``tf.contrib.data`` forwarded to core
(``Dataset``, ``TFRecordDataset``, ``Iterator``, ...) and those ``tf.data.experimental``
still has are looked up by :mod:`compat.tf1.namespace`. Importing this module
imports nothing heavy.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = [
    "FUNCTIONS",
    "LMDBDataset",
    "Transformation",
    "assert_element_shape",
    "batch_and_drop_remainder",
    "map_and_batch",
    "padded_batch_and_drop_remainder",
    "parallel_interleave",
    "shuffle_and_repeat",
    "read_batch_features",
    "reduce_dataset",
    "sliding_window_batch",
    "sloppy_interleave",
    "unbatch",
]

#: A ``Dataset -> Dataset`` function, what ``dataset.apply`` takes.
Transformation = Callable[[Any], Any]


def unbatch() -> Transformation:
    """``tf.contrib.data.unbatch()``: split each element's first dimension into elements."""
    def _apply(dataset: Any) -> Any:
        return dataset.unbatch()
    return _apply


def map_and_batch(map_func: Callable[..., Any], batch_size: Any,
                  num_parallel_batches: Any = None, drop_remainder: Any = False,
                  num_parallel_calls: Any = None) -> Transformation:
    """``tf.contrib.data.map_and_batch``: ``map`` then ``batch``, in order.

    As in TensorFlow 1, ``batch_size * num_parallel_batches`` elements are mapped
    in parallel unless ``num_parallel_calls`` is given, and giving both is an error.

    Raises:
        ValueError: both ``num_parallel_batches`` and ``num_parallel_calls`` are given.
    """
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("map_and_batch: give num_parallel_batches or num_parallel_calls, "
                         f"not both (got {num_parallel_batches!r} and {num_parallel_calls!r})")
    if num_parallel_calls is None:
        num_parallel_calls = batch_size * (1 if num_parallel_batches is None else num_parallel_batches)

    def _apply(dataset: Any) -> Any:
        mapped = dataset.map(map_func, num_parallel_calls=num_parallel_calls, deterministic=True)
        return mapped.batch(batch_size, drop_remainder=drop_remainder)
    return _apply


def shuffle_and_repeat(buffer_size: Any, count: Any = None, seed: Any = None) -> Transformation:
    """``tf.contrib.data.shuffle_and_repeat``: reshuffled every epoch, repeated ``count`` times."""
    def _apply(dataset: Any) -> Any:
        return dataset.shuffle(buffer_size, seed=seed, reshuffle_each_iteration=True).repeat(count)
    return _apply


def parallel_interleave(map_func: Callable[..., Any], cycle_length: Any, block_length: Any = 1,
                        sloppy: bool | None = False, buffer_output_elements: Any = None,
                        prefetch_input_elements: Any = None) -> Transformation:
    """``tf.contrib.data.parallel_interleave``: ``interleave`` run on ``cycle_length`` threads.

    ``sloppy=False`` keeps the deterministic order; the two buffering arguments
    were tuning knobs and are accepted and ignored (tf.data autotunes buffering).
    """
    del buffer_output_elements, prefetch_input_elements  # tuning only; autotuned today
    deterministic = None if sloppy is None else not sloppy

    def _apply(dataset: Any) -> Any:
        return dataset.interleave(map_func, cycle_length=cycle_length, block_length=block_length,
                                  num_parallel_calls=cycle_length, deterministic=deterministic)
    return _apply


def batch_and_drop_remainder(batch_size: Any) -> Transformation:
    """``tf.contrib.data.batch_and_drop_remainder``: full batches only."""
    def _apply(dataset: Any) -> Any:
        return dataset.batch(batch_size, drop_remainder=True)
    return _apply


def padded_batch_and_drop_remainder(batch_size: Any, padded_shapes: Any,
                                    padding_values: Any = None) -> Transformation:
    """``tf.contrib.data.padded_batch_and_drop_remainder``: full padded batches only."""
    def _apply(dataset: Any) -> Any:
        return dataset.padded_batch(batch_size, padded_shapes, padding_values, drop_remainder=True)
    return _apply


def sliding_window_batch(window_size: int, stride: int | None = None, window_shift: int | None = None,
                         window_stride: int = 1) -> Transformation:
    """``tf.contrib.data.sliding_window_batch`` (TF 1.9-1.12): each element a stack of ``window_size``
    consecutive elements (every ``window_stride``-th), windows starting every ``window_shift``
    (``stride``, its older name; default 1) elements; a last, incomplete window is dropped.

    Raises:
        ValueError: both ``stride`` and ``window_shift`` are given.
    """
    if stride is not None and window_shift is not None:
        raise ValueError(f"sliding_window_batch: give stride ({stride}) or window_shift ({window_shift}), not both "
                         "(stride is the TF 1.9 name of window_shift)")
    shift = window_shift if window_shift is not None else (stride if stride is not None else 1)

    def _apply(dataset: Any) -> Any:
        import tensorflow as tf
        windows = dataset.window(window_size, shift=shift, stride=window_stride, drop_remainder=True)

        # A window is a structure of datasets shaped like an element: batch each and zip them back.
        def _stack(*window: Any) -> Any:
            structure = window[0] if len(window) == 1 else window
            batched = tf.nest.map_structure(lambda d: d.batch(window_size, drop_remainder=True), structure)
            return tf.data.Dataset.zip(batched)
        return windows.flat_map(_stack)
    return _apply


def assert_element_shape(expected_shapes: Any) -> Transformation:
    """``tf.contrib.data.assert_element_shape``: check at run time that every element has
    ``expected_shapes`` (a structure of shapes like the elements; None dimensions match any
    size) and give the elements those static shapes."""
    def _apply(dataset: Any) -> Any:
        import tensorflow as tf

        def _check(*element: Any) -> Any:
            structure = element[0] if len(element) == 1 else element
            return tf.nest.map_structure(lambda value, shape: tf.ensure_shape(value, shape),
                                         structure, expected_shapes)
        return dataset.map(_check)
    return _apply


def sloppy_interleave(map_func: Callable[..., Any], cycle_length: Any, block_length: Any = 1) -> Transformation:
    """``tf.contrib.data.sloppy_interleave`` (TF 1.4-1.12): :func:`parallel_interleave` with ``sloppy=True``.

    Elements come from ``cycle_length`` input elements at once, in whatever order
    they are ready (the same multiset as ``interleave``, the order not fixed).
    """
    return parallel_interleave(map_func, cycle_length, block_length, sloppy=True)


def read_batch_features(file_pattern: Any, batch_size: Any, features: Any, reader: Any = None,
                        reader_args: Any = None, randomize_input: bool = True, num_epochs: Any = None,
                        capacity: int = 10000) -> Any:
    """``tf.contrib.data.read_batch_features``: batches of parsed ``Example``s from files, as tensors.

    As in TF 1.x, the batched-features dataset of ``file_pattern`` (shuffled with a
    buffer of ``capacity`` when ``randomize_input``, ``num_epochs`` times; None
    repeats forever) read through a one-shot iterator. Returns the dict of
    ``features``' keys to batched ``Tensor`` / ``SparseTensor`` of ``get_next()``.
    """
    import tensorflow as tf
    v1 = tf.compat.v1
    dataset = v1.data.experimental.make_batched_features_dataset(
        file_pattern, batch_size, features, reader=reader or v1.data.TFRecordDataset, reader_args=reader_args,
        num_epochs=num_epochs, shuffle=randomize_input, shuffle_buffer_size=capacity)
    return v1.data.make_one_shot_iterator(dataset).get_next()


def _lmdb_pairs(path: str) -> Any:
    """``(key, value)`` bytes of the main database of the LMDB environment ``path``, in key order.

    A regular file is opened as a sub-directory-less environment, a folder as
    an environment folder; read-only and without the lock file, as TF 1.x did.

    Raises:
        ValueError: ``path`` is not an LMDB environment (named); TensorFlow re-raises it from ``get_next``.
    """
    import os

    import lmdb
    try:
        env = lmdb.open(path, subdir=not os.path.isfile(path), readonly=True, lock=False, readahead=False)
    except lmdb.Error as exc:
        raise ValueError(f"LMDBDataset: {path} is not a readable LMDB database: {exc}") from exc
    try:
        with env.begin(buffers=False) as txn:
            yield from txn.cursor()
    finally:
        env.close()


def LMDBDataset(filenames: Any) -> Any:  # noqa: N802 (TF 1.x's class name)
    """``tf.contrib.data.LMDBDataset(filenames)`` (TF 1.9-1.15): ``(key, value)`` string pairs of each LMDB
    file in turn, in the database's key order, as a ``tf.data.Dataset``.

    Read through the ``lmdb`` package in a generator (TF 1.x linked LMDB into a
    kernel); ``filenames`` is a string or a list of strings (a tensor is refused:
    the names must be known when the graph is built).

    Raises:
        TypeError: ``filenames`` is a tensor.
        LegacyAPIError: the ``lmdb`` package is not installed.
    """
    import importlib.util

    import tensorflow as tf
    if importlib.util.find_spec("lmdb") is None:
        from compat.errors import LegacyAPIError
        raise LegacyAPIError("tf.contrib.data.LMDBDataset reads through the lmdb package, which is not installed: "
                             "pip install lmdb")
    if isinstance(filenames, (tf.Tensor, tf.Variable)):
        raise TypeError("LMDBDataset: give the file names as Python strings (a tensor of names is not supported "
                        "by the compat runner)")
    given = [filenames] if isinstance(filenames, (str, bytes)) else list(filenames)
    names: list[str] = [n.decode() if isinstance(n, bytes) else str(n) for n in given]

    def pairs() -> Any:
        for name in names:
            yield from _lmdb_pairs(name)
    spec = (tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.string))
    return tf.data.Dataset.from_generator(pairs, output_signature=spec)


def reduce_dataset(dataset: Any, reducer: Any) -> Any:
    """``tf.contrib.data.reduce_dataset(dataset, reducer)`` (TF 1.6-1.15): the whole dataset reduced, as tensors.

    ``reducer`` is a ``tf.data.experimental.Reducer`` (``tf.contrib.data.Reducer``).
    As in TF 1.15, ``dataset.reduce(reducer.init_func(np.int64(0)),
    reducer.reduce_func)``: the key passed to ``init_func`` is 0, and
    ``finalize_func`` is not applied (earlier releases went through
    ``group_by_reducer``, which applied it).

    Raises:
        TypeError: ``dataset`` is not a ``tf.data.Dataset`` (named with its type).
    """
    import numpy as np
    import tensorflow as tf
    if not isinstance(dataset, tf.data.Dataset):
        raise TypeError(f"reduce_dataset: `dataset` must be a `tf.data.Dataset` object, not {type(dataset).__name__}")
    return dataset.reduce(reducer.init_func(np.int64(0)), reducer.reduce_func)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "reduce_dataset": reduce_dataset,
    "LMDBDataset": LMDBDataset,
    "sloppy_interleave": sloppy_interleave,
    "read_batch_features": read_batch_features,
    "sliding_window_batch": sliding_window_batch,
    "assert_element_shape": assert_element_shape,
    "unbatch": unbatch,
    "map_and_batch": map_and_batch,
    "shuffle_and_repeat": shuffle_and_repeat,
    "parallel_interleave": parallel_interleave,
    "batch_and_drop_remainder": batch_and_drop_remainder,
    "padded_batch_and_drop_remainder": padded_batch_and_drop_remainder,
}
