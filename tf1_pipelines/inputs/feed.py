"""Feeding: numpy batches enter the graph through placeholders at every ``sess.run``.

Seed 004 §1: the data set lives in memory, a ``DataProvider`` hands out one part
of it per step, shuffled for training and in order for evaluation, and each
batch goes in through ``feed_dict``. The batch size is a placeholder too, fed
with the number of rows of the batch, so a graph can use it (for example for
``tf.zeros([batch_size, units])``) and the last, smaller batch still fits.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import tensorflow as tf

from tf1_pipelines.errors import ConfigError, ConfigTypeError, EndOfData
from tf1_pipelines.options import check_positive_int

__all__ = ["named_arrays", "check_arrays", "batch_type", "FeedPlaceholders", "make_placeholders", "DataProvider"]

tf1 = tf.compat.v1


def named_arrays(arrays: Mapping[str, Any] | Sequence[Any]) -> dict[str, np.ndarray]:
    """Arrays keyed by field name: a mapping keeps its names, a sequence gets
    ``array0``, ``array1``, ... All must share their first dimension (the examples)
    and be of a numeric or bool dtype; ConfigError otherwise."""
    if isinstance(arrays, Mapping):
        items = [(str(name), value) for name, value in arrays.items()]
    elif isinstance(arrays, (list, tuple)):
        items = [(f"array{i}", value) for i, value in enumerate(arrays)]
    else:
        raise ConfigTypeError(f"arrays must be a dict of name -> array or a list of arrays, "
                          f"got {type(arrays).__name__}")
    if not items:
        raise ConfigError("arrays is empty; give at least one array")
    named: dict[str, np.ndarray] = {}
    for name, value in items:
        if not name.isidentifier() or name.startswith("_"):
            raise ConfigError(f"array name {name!r} must be a Python identifier not starting "
                              "with '_' (it names a Batch field)")
        try:
            array = np.asarray(value)
        except (ValueError, TypeError) as exc:  # ragged lists: NumPy names no array
            raise ConfigError(f"array {name!r} is not a regular array (are its rows of "
                              f"different lengths?): {exc}") from None
        if array.ndim == 0:
            raise ConfigError(f"array {name!r} is a scalar; it needs a first dimension of examples")
        if array.dtype.kind not in "biuf":
            raise ConfigError(f"array {name!r} has dtype {array.dtype}; use bool, integer or "
                              "float arrays")
        named[name] = array
    sizes = {name: len(array) for name, array in named.items()}
    if len(set(sizes.values())) > 1:
        raise ConfigError(f"arrays differ in their number of examples: {sizes}")
    if next(iter(sizes.values())) == 0:
        raise ConfigError("arrays hold no examples (first dimension 0)")
    return named


def check_arrays(name: str, value: Any) -> dict[str, np.ndarray]:
    """The ``arrays`` option as :func:`named_arrays` reads it (the option name is
    given for the check interface; the messages name each array)."""
    return named_arrays(value)


def describe_arrays(arrays: Mapping[str, np.ndarray]) -> str:
    """One line per field: ``name: dtype [B, ...]``, values as given."""
    return "\n".join(f"{name}: {a.dtype} [B{''.join(', ' + str(d) for d in a.shape[1:])}], "
                     "values as given" for name, a in arrays.items())


def batch_type(arrays: Mapping[str, np.ndarray]) -> type:
    """A NamedTuple class ``Batch`` with one field per array, documented by shape and dtype."""
    # mypy wants literal fields; these come from the arrays at run time.
    cls = NamedTuple("Batch", [(name, Any) for name in arrays])  # type: ignore[misc]
    cls.__doc__ = "One batch of the given arrays.\n\n" + describe_arrays(arrays)
    return cls


class FeedPlaceholders(NamedTuple):
    """The placeholders a batch is fed into: one per array ([None, ...] of its dtype)
    and ``batch_size`` (int64 [], fed with the rows of the batch)."""

    arrays: dict[str, tf.Tensor]
    batch_size: tf.Tensor


def make_placeholders(arrays: Mapping[str, np.ndarray], name: str = "feed") -> FeedPlaceholders:
    """Placeholders in the default graph for batches of ``arrays``."""
    with tf.name_scope(name):
        placeholders = {key: tf1.placeholder(tf.as_dtype(a.dtype), [None, *a.shape[1:]], name=key)
                        for key, a in arrays.items()}
        batch_size = tf1.placeholder(tf.int64, [], name="batch_size")
    return FeedPlaceholders(placeholders, batch_size)


class DataProvider:
    """Minibatches of in-memory arrays for ``feed_dict``.

    ``shuffle=True`` (training) serves every epoch in a new random order
    (``np.random.RandomState(seed)``); ``shuffle=False`` (evaluation) serves the
    examples in order. Every example comes once per epoch; the last batch of an
    epoch holds the remainder unless ``drop_remainder``. After ``num_epochs``
    epochs (None: never) :meth:`next_batch` raises EndOfData.
    """

    def __init__(self, arrays: Mapping[str, Any] | Sequence[Any], batch_size: int = 32,
                 shuffle: bool = True, num_epochs: int | None = None, seed: int | None = None,
                 drop_remainder: bool = False) -> None:
        self.arrays = named_arrays(arrays)
        self.names = list(self.arrays)
        self.num_examples = len(next(iter(self.arrays.values())))
        self.shuffle = bool(shuffle)
        self.drop_remainder = bool(drop_remainder)
        self.num_epochs = None if num_epochs is None else check_positive_int("num_epochs",
                                                                            num_epochs)
        self.batch_size = self.check_batch_size(batch_size)
        self._seed = seed
        self.reset()

    def check_batch_size(self, batch_size: Any) -> int:
        """``batch_size`` as an int, or ConfigError (< 1, or no batch possible)."""
        batch_size = check_positive_int("batch_size", batch_size)
        if self.drop_remainder and batch_size > self.num_examples:
            raise ConfigError(f"batch_size {batch_size} is larger than the {self.num_examples} "
                              "examples and drop_remainder is set: no batch would ever come")
        return batch_size

    def reset(self) -> None:
        """Start again from the first epoch (the same order again for a given seed)."""
        self._rng = np.random.RandomState(self._seed)
        self._order: np.ndarray | None = None  # this epoch's permutation (shuffle only)
        self._position = 0
        self._in_epoch = False
        self.epochs_completed = 0

    def _start_epoch(self) -> None:
        if self._in_epoch:
            self.epochs_completed += 1
            self._in_epoch = False
        if self.num_epochs is not None and self.epochs_completed >= self.num_epochs:
            raise EndOfData(f"DataProvider: {self.epochs_completed} epochs of "
                            f"{self.num_examples} examples served")
        self._order = self._rng.permutation(self.num_examples) if self.shuffle else None
        self._position = 0
        self._in_epoch = True

    def _next_span(self, batch_size: int) -> tuple[int, int]:
        remaining = self.num_examples - self._position
        if not self._in_epoch or remaining <= 0 or (self.drop_remainder and remaining < batch_size):
            self._start_epoch()
        start = self._position
        self._position = min(start + batch_size, self.num_examples)
        return start, self._position

    def next_batch(self, batch_size: int | None = None) -> tuple[np.ndarray, ...]:
        """The next batch: one array per name (in :attr:`names` order), at most
        ``batch_size`` rows (default: the provider's)."""
        batch_size = self.batch_size if batch_size is None else self.check_batch_size(batch_size)
        start, stop = self._next_span(batch_size)
        if self._order is not None:  # set for every epoch when shuffling
            index = self._order[start:stop]
            return tuple(a[index] for a in self.arrays.values())
        return tuple(a[start:stop] for a in self.arrays.values())

    def feed_dict(self, placeholders: FeedPlaceholders,
                  batch_size: int | None = None) -> dict[tf.Tensor, Any]:
        """The feed for the next batch: every array placeholder and ``batch_size``."""
        batch = self.next_batch(batch_size)
        feed: dict[tf.Tensor, Any] = {placeholders.arrays[name]: value
                                      for name, value in zip(self.names, batch)}
        feed[placeholders.batch_size] = len(batch[0])
        return feed

    def __iter__(self) -> Iterator[tuple[np.ndarray, ...]]:
        """Batches until EndOfData (forever when ``num_epochs`` is None)."""
        while True:
            try:
                yield self.next_batch()
            except EndOfData:
                return
