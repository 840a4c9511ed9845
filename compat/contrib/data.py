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
    "Transformation",
    "batch_and_drop_remainder",
    "map_and_batch",
    "padded_batch_and_drop_remainder",
    "parallel_interleave",
    "shuffle_and_repeat",
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


FUNCTIONS: dict[str, Callable[..., Transformation]] = {
    "unbatch": unbatch,
    "map_and_batch": map_and_batch,
    "shuffle_and_repeat": shuffle_and_repeat,
    "parallel_interleave": parallel_interleave,
    "batch_and_drop_remainder": batch_and_drop_remainder,
    "padded_batch_and_drop_remainder": padded_batch_and_drop_remainder,
}
