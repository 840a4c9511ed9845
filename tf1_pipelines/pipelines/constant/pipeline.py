"""Seed 004 §1, constant input, behind the uniform API: :class:`ConstantPipeline`
(its Batch is ``feeding``'s for the embedded sample)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tf1_pipelines.errors import ConfigError
from tf1_pipelines.fields import fields_for_arrays
from tf1_pipelines.inputs.feed import check_arrays, named_arrays
from tf1_pipelines.options import check_bool, check_positive_int, check_seed, checked_options, optional
from tf1_pipelines.pipeline import Pipeline
from tf1_pipelines.pipelines.feeding.pipeline import Batch, batch_class_for

from .graph import constant_input
from .sample import sample_arrays

__all__ = ["Batch", "ConstantPipeline"]


class ConstantPipeline(Pipeline):
    """Numpy arrays as graph constants: ``Batch`` with one field per array.

    Options: ``arrays`` (dict name -> array, or a list: fields ``array0``, ...;
    default: the embedded sample, ``Batch(images, labels)``), ``batch_size``,
    ``train`` (True: reshuffle every epoch; False: in order), ``num_epochs``
    (default 1; None: forever), ``seed``, ``drop_remainder``. The data must stay
    under 1 GB (a saved state's GraphDef holds at most 2 GB); they enter the graph
    through placeholders fed when the iterator starts, not as ``tf.constant``
    (peak memory about 2 x the data instead of 12 x). ``configure(batch_size=...)``
    restarts the data from the first epoch (an initializable iterator).
    ``num_shards``/``shard_index`` split the rows (record-level); ``service=``
    serves the batches (:mod:`tf1_pipelines.inputs.distribute`).
    """

    name = "constant"
    CAN_STALL = False  # the batch is sliced from constants in the graph
    Batch: type = Batch  # replaced per instance by the arrays' own fields

    @checked_options(arrays=optional(check_arrays), train=check_bool, seed=check_seed,
                     num_epochs=optional(check_positive_int), drop_remainder=check_bool)
    def __init__(self, arrays: Mapping[str, Any] | Sequence[Any] | None = None,
                 batch_size: int = 32, train: bool = True, num_epochs: int | None = 1,
                 seed: int | None = None, drop_remainder: bool = False,
                 **pipeline_options: Any) -> None:
        super().__init__(batch_size=batch_size, **pipeline_options)
        if num_epochs is not None:
            check_positive_int("num_epochs", num_epochs)
        self.arrays = named_arrays(sample_arrays() if arrays is None else arrays)
        self.arrays = self._distribution.shard_rows(self.arrays)  # record-level
        self.Batch = batch_class_for(None if arrays is None else self.arrays)
        self.FIELDS = fields_for_arrays(self.arrays)
        self.train, self.num_epochs, self.seed = bool(train), num_epochs, seed
        self.drop_remainder = bool(drop_remainder)
        self._check_batch_size(self.batch_size)

    def _check_batch_size(self, batch_size: int) -> None:
        examples = len(next(iter(self.arrays.values())))
        if self.drop_remainder and batch_size > examples:
            raise ConfigError(f"batch_size {batch_size} is larger than the {examples} examples "
                              "and drop_remainder is set: no batch would ever come")

    def _initializer_feed(self) -> dict[Any, Any]:
        """The settings and the arrays: they enter the graph only when the iterator starts."""
        feed = super()._initializer_feed()
        feed.update(getattr(self, "_array_feed", {}))
        return feed

    def _build(self) -> Any:
        batch_size = self._setting_placeholder("batch_size")
        data = constant_input(self.arrays, shuffle=self.train, num_epochs=self.num_epochs,
                              seed=self.seed, drop_remainder=self.drop_remainder,
                              batch_size=batch_size, name="data",
                              serve=lambda d: self._distribute(d, self.drop_remainder),
                              feed_arrays=True)
        self._array_feed = data.feed
        self._add_iterator_initializer(data.initializer)
        return self.Batch(*data.next_element)
