"""Constant input: the whole (small) data set is stored in the graph as ``tf.constant``.

Seed 004 §1: the data is fixed into the computation graph, so reading it is as
fast as it gets, but it only suits small data sets: every constant is part of
the ``GraphDef``, which protocol buffers limit to 2 GB, and the graph holds a
copy of the data. Batches are sliced from the constants in the graph (shuffled
per epoch for training, in order for evaluation) through an initializable
iterator, so the batch size is a placeholder fed when the iterator starts.

``tf.constant`` is costly in memory: measured on a 60 MB float32 array, making
the constant alone took 300 MB (the array, its TensorProto, the NodeDef, the
C++ graph's copy), and the first batch of the pipeline 725 MB (12 x the data;
a 600 MB array passed 23 GB). With ``feed_arrays=True`` the arrays instead enter
through placeholders fed only when the iterator is initialized (TF1's advice
for arrays too big to embed): the graph holds no copy, and the first batch of a
60 MB array costs about 2 x the data (the fed tensor and the dataset's slices).
The ``constant`` pipeline does this; the state it saves still holds the data
(the iterator's checkpoint serializes the dataset's input tensors).
"""
from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import tensorflow as tf

from tf1_pipelines.errors import ConfigError
from tf1_pipelines.inputs.dataset import initializable
from tf1_pipelines.inputs.feed import named_arrays
from tf1_pipelines.inputs.seeds import element_key, seeded
from tf1_pipelines.options import check_positive_int

__all__ = ["MAX_CONSTANT_BYTES", "ConstantInput", "array_placeholders", "constant_tensors",
           "constant_dataset", "constant_input"]

tf1 = tf.compat.v1

#: Above this many bytes the data does not belong in a graph (GraphDefs stop at 2 GB).
MAX_CONSTANT_BYTES = 1 << 30


def constant_tensors(arrays: Mapping[str, np.ndarray]) -> dict[str, tf.Tensor]:
    """One ``tf.constant`` per array in the default graph; ConfigError above
    :data:`MAX_CONSTANT_BYTES` in all."""
    total = sum(a.nbytes for a in arrays.values())
    if total > MAX_CONSTANT_BYTES:
        raise ConfigError(f"the arrays hold {total >> 20} MB; constants above "
                          f"{MAX_CONSTANT_BYTES >> 20} MB do not fit a GraphDef (2 GB at most) - "
                          "use the 'feeding' pipeline or a DataProvider instead")
    return {name: tf.constant(a, name=name) for name, a in arrays.items()}


def constant_dataset(tensors: Mapping[str, tf.Tensor], batch_size: int | tf.Tensor,
                     shuffle: bool = True, num_epochs: int | None = None,
                     seed: int | None = None, drop_remainder: bool = False) -> tf.data.Dataset:
    """Batches of the constants' rows: shuffle (all rows, anew each epoch) -> batch ->
    repeat, so every epoch serves each example once and ends with the remainder.

    The shuffle permutes row indices (int32, one per row) and gathers each
    batch from the arrays, so its memory is a small multiple of the data's bytes
    whatever the row count: a shuffle buffer of all rows kept one tensor per row,
    about 214 bytes each (10 million float32 scalars, 40 MB: +2.1 GB). Without a
    seed the permutations are keyed by a seed drawn at random for this dataset."""
    if shuffle:
        key = secrets.randbelow(2**31) if seed is None else seed
        keyed = _keyed_epochs(tensors, batch_size, num_epochs, key, drop_remainder)
        return seeded(keyed.with_options(_lean_options()), seed)
    dataset = tf1.data.Dataset.from_tensor_slices(tuple(tensors.values()))
    return dataset.batch(batch_size, drop_remainder=drop_remainder).repeat(num_epochs) \
        .with_options(_lean_options())


def _lean_options() -> tf.data.Options:
    """No autotuning and no graph rewrites: nothing here runs in parallel, so the
    autotuner's per-element bookkeeping and the injected prefetch only cost time
    (measured: a step of 32 rows 137 -> 116 us)."""
    options = tf.data.Options()
    options.autotune.enabled = False
    options.experimental_optimization.inject_prefetch = False
    options.experimental_optimization.apply_default_optimizations = False
    return options


def _keyed_epochs(tensors: Mapping[str, tf.Tensor], batch_size: int | tf.Tensor,
                  num_epochs: int | None, seed: int, drop_remainder: bool) -> tf.data.Dataset:
    """Seeded batches: epoch ``e`` serves the rows in the order of a stateless
    permutation keyed by ``(seed, e)``, gathered one batch at a time.

    ``shuffle(reshuffle_each_iteration=True).batch().repeat()`` draws each epoch's
    order from a seed generator that a restored iterator does not carry: a state
    saved right after an epoch's last batch resumed with the wrong next order
    (measured). Keyed by the epoch number, the order is part of the saved position."""
    values = list(tensors.values())
    rows = int(values[0].shape[0])
    count = np.iinfo(np.int64).max if num_epochs is None else num_epochs

    def one_epoch(epoch: tf.Tensor) -> tf.data.Dataset:
        order = tf.argsort(tf.random.stateless_uniform([rows], element_key(seed, epoch)))
        return tf1.data.Dataset.from_tensor_slices(order).batch(
            batch_size, drop_remainder=drop_remainder)

    return tf1.data.Dataset.range(count).flat_map(one_epoch) \
        .map(lambda index: tuple(tf.gather(v, index) for v in values))


class ConstantInput(NamedTuple):
    """A constant input in a graph.

    ``constants``: name -> the ``tf.constant`` holding the whole array (or, with
    ``feed_arrays``, the placeholder fed with it);
    ``next_element``: the tuple of batch tensors (in name order);
    ``initializer``: (re)starts the batches; feed ``batch_size`` (int64 []) and
    ``feed`` when running it.
    ``feed``: placeholder -> array for the initializer (empty without ``feed_arrays``).
    """

    constants: dict[str, tf.Tensor]
    next_element: tuple[tf.Tensor, ...]
    initializer: tf.Operation
    batch_size: tf.Tensor
    feed: dict[tf.Tensor, np.ndarray] = {}


def array_placeholders(arrays: Mapping[str, np.ndarray]) -> dict[str, tf.Tensor]:
    """One placeholder of each array's exact dtype and shape, in the default graph;
    ConfigError above :data:`MAX_CONSTANT_BYTES` in all (a saved state serializes
    the data into a GraphDef, 2 GB at most)."""
    total = sum(a.nbytes for a in arrays.values())
    if total > MAX_CONSTANT_BYTES:
        raise ConfigError(f"the arrays hold {total >> 20} MB; above {MAX_CONSTANT_BYTES >> 20} MB "
                          "a saved state's GraphDef (2 GB at most) cannot hold them - use the "
                          "'feeding' pipeline or a DataProvider instead")
    return {name: tf1.placeholder(tf.as_dtype(a.dtype), a.shape, name=name)
            for name, a in arrays.items()}


def constant_input(arrays: Mapping[str, Any] | Sequence[Any], shuffle: bool = True,
                   num_epochs: int | None = None, seed: int | None = None,
                   drop_remainder: bool = False, batch_size: tf.Tensor | None = None,
                   name: str = "constant",
                   serve: Callable[[tf.data.Dataset], tf.data.Dataset] | None = None,
                   feed_arrays: bool = False) -> ConstantInput:
    """Put ``arrays`` into the default graph as constants and batch them.

    ``batch_size``: an int64 [] tensor to batch by (default: a new placeholder).
    ``serve``: applied to the dataset of batches before the iterator is made (the
    tf.data service, :meth:`Pipeline._distribute`).
    ``feed_arrays``: placeholders fed with the arrays at initialization instead of
    constants (see the module doc: about 2 x the data instead of 12 x); the
    initializer then needs ``ConstantInput.feed``.
    """
    if num_epochs is not None:
        check_positive_int("num_epochs", num_epochs)
    named = named_arrays(arrays)
    with tf.name_scope(name):
        constants = array_placeholders(named) if feed_arrays else constant_tensors(named)
        feed = {constants[key]: named[key] for key in named} if feed_arrays else {}
        if batch_size is None:
            batch_size = tf1.placeholder(tf.int64, [], name="batch_size")
        dataset = constant_dataset(constants, batch_size, shuffle, num_epochs, seed,
                                   drop_remainder)
        next_element, initializer = initializable(dataset if serve is None else serve(dataset))
    return ConstantInput(constants, tuple(next_element), initializer, batch_size, feed)
