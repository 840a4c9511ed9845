"""Builders for ``tf.train.Feature`` values, as every TF1 writer defined them."""
from __future__ import annotations

from collections.abc import Iterable

import tensorflow as tf


def bytes_feature(value: bytes) -> tf.train.Feature:
    """One bytes value."""
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))


def int64_feature(value: int | Iterable[int]) -> tf.train.Feature:
    """One int64 value or a list of them."""
    values = [value] if isinstance(value, int) else list(value)
    return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


def float_feature(value: float | Iterable[float]) -> tf.train.Feature:
    """One float value or a list of them."""
    values = [value] if isinstance(value, (int, float)) else list(value)
    return tf.train.Feature(float_list=tf.train.FloatList(value=values))


def example(features: dict[str, tf.train.Feature]) -> tf.train.Example:
    """A ``tf.train.Example`` from a dict of features."""
    return tf.train.Example(features=tf.train.Features(feature=features))
