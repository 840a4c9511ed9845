"""Seed 004 §1, feeding, behind the uniform API: :class:`FeedingPipeline` and the
:class:`Batch` of the embedded sample (other arrays get their own Batch fields)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import tensorflow as tf

from tf1_pipelines.fields import fields_for_arrays
from tf1_pipelines.inputs.feed import batch_type, check_arrays, named_arrays
from tf1_pipelines.options import check_bool, check_positive_int, check_seed, checked_options, optional
from tf1_pipelines.pipeline import Pipeline

from .graph import FeedPlaceholders, make_placeholders
from .legacy import DataProvider
from .sample import sample_arrays


class Batch(NamedTuple):
    """One batch of the embedded sample (other arrays get their own Batch fields).

    images: uint8 [B, 32, 32, 3] (NHWC), RGB 0..255, tiles of the bundled photographs.
    labels: int64 [B], index of the source photograph, 0..9.
    """

    images: Any
    labels: Any


def batch_class_for(arrays: Mapping[str, np.ndarray] | None) -> type:
    """:class:`Batch` for the sample, else a Batch with one field per given array."""
    return Batch if arrays is None else batch_type(arrays)


class FeedingPipeline(Pipeline):
    """Numpy arrays fed through placeholders: ``Batch`` with one field per array.

    Options: ``arrays`` (dict name -> array, or a list: fields ``array0``, ...;
    default: :func:`sample_arrays`), ``batch_size``, ``train`` (True: reshuffle every
    epoch; False: in order), ``num_epochs`` (default 1; None: forever), ``seed``,
    ``drop_remainder`` (False: the last batch of an epoch holds the remainder).
    ``configure(batch_size=...)`` applies from the next batch on; the epoch
    continues (there is no iterator to restart).
    ``num_shards``/``shard_index`` split the rows (record-level); ``service=`` is
    refused (the batch is fed from this process).
    """

    name = "feeding"
    CAN_STALL = False  # the batch is in the feed
    Batch: type = Batch  # replaced per instance by the arrays' own fields

    @checked_options(arrays=optional(check_arrays), train=check_bool, seed=check_seed,
                     num_epochs=optional(check_positive_int), drop_remainder=check_bool)
    def __init__(self, arrays: Mapping[str, Any] | Sequence[Any] | None = None,
                 batch_size: int = 32, train: bool = True, num_epochs: int | None = 1,
                 seed: int | None = None, drop_remainder: bool = False,
                 **pipeline_options: Any) -> None:
        super().__init__(batch_size=batch_size, **pipeline_options)
        self._distribution.refuse_service("the batches are fed from this process's arrays; "
                                          "pipeline 'constant' serves arrays")
        rows = self._distribution.shard_rows(named_arrays(sample_arrays() if arrays is None
                                                          else arrays))  # record-level
        self.provider = DataProvider(rows, batch_size,
                                     shuffle=train, num_epochs=num_epochs, seed=seed,
                                     drop_remainder=drop_remainder)
        self.Batch = batch_class_for(None if arrays is None else self.provider.arrays)
        self.FIELDS = fields_for_arrays(self.provider.arrays)
        self.train = bool(train)
        self._placeholders: FeedPlaceholders | None = None

    def _validate_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        settings = super()._validate_settings(settings)
        if "batch_size" in settings:
            self.provider.check_batch_size(settings["batch_size"])
        return settings

    def _build(self) -> Any:
        self._placeholders = make_placeholders(self.provider.arrays)
        return self.Batch(*self._placeholders.arrays.values())

    @property
    def batch_size_tensor(self) -> tf.Tensor:
        """The int64 [] placeholder fed with the rows of each batch."""
        return self._built_placeholders().batch_size

    def next_feed_dict(self) -> dict[tf.Tensor, Any]:
        """The feed for the next batch (every array placeholder and the batch size),
        to run a model wired to :attr:`tensors` in your own session."""
        return self.provider.feed_dict(self._built_placeholders(), self.batch_size)

    def _built_placeholders(self) -> FeedPlaceholders:
        """The placeholders of the build (the graph is built first if needed)."""
        self.tensors  # noqa: B018 - builds the graph if needed
        if self._placeholders is None:  # set by _build
            raise RuntimeError(f"{self.name} pipeline built without its placeholders")
        return self._placeholders

    def _feed(self, run: Any) -> dict[tf.Tensor, Any]:
        feed = super()._feed(run)
        feed.update(self.next_feed_dict())
        return feed
