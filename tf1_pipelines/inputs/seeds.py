"""Randomness a given ``seed=`` makes repeatable, in a run and across a resume.

A stateful random op (``tf.random.uniform``, ``random_flip_left_right`` ...)
inside a parallel ``map`` hands out its draws in the order the threads call it,
so the same seed can put different draws on different elements; and its state is
not part of a saved iterator, so a resumed run draws anew. With a seed, the
``dataset`` backends therefore draw statelessly, keyed by the pipeline seed and
the position of the element in the stream (``Dataset.enumerate``, a counter that
is saved with the iterator): the element at position ``i`` gets the same draws
in every process, in every thread, before and after a resume.
"""
from __future__ import annotations

import tensorflow as tf


def element_key(seed: int, index: tf.Tensor) -> tf.Tensor:
    """The stateless seed of the element at position ``index``: int64 [2],
    ``[seed, index]``."""
    return tf.stack([tf.constant(seed, tf.int64), tf.cast(index, tf.int64)])


def sub_key(key: tf.Tensor, salt: int) -> tf.Tensor:
    """An independent stateless seed (int64 [2]) for the ``salt``-th random op
    drawing for one element."""
    return tf.random.experimental.stateless_fold_in(key, salt)


def deterministic_options() -> tf.data.Options:
    """``deterministic = True``: parallel maps and interleaves hand out elements in
    input order whatever the thread timing (today's default, made explicit so that
    a global ``tf.data`` option cannot turn it off)."""
    options = tf.data.Options()
    options.deterministic = True
    # The prefetch today's tf.data injects at the end of a graph-mode pipeline does
    # not come back from a saved iterator the way it went in (measured: a restored
    # constant pipeline repeated its first batch's successors wrongly).
    options.experimental_optimization.inject_prefetch = False
    return options


def seeded(dataset: tf.data.Dataset, seed: int | None) -> tf.data.Dataset:
    """``dataset`` with :func:`deterministic_options` when a seed is given."""
    return dataset if seed is None else dataset.with_options(deterministic_options())
