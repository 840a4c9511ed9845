"""Seed 001 behind the uniform API: :class:`StyleganLodPipeline` and its :class:`Batch`."""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import tensorflow as tf

from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.fields import FieldSpec
from tf1_pipelines.options import (
    check_bool,
    check_non_negative_int,
    check_number,
    check_path,
    check_positive_int,
    check_seed,
    checked_options,
    optional,
)
from tf1_pipelines.pipeline import Pipeline

from .graph import TFRecordDataset, check_reader_options, warn_if_buffers_too_big
from .records import check_max_label_size, find_bad_record, inspect_tfrecord_dir
from .sample import sample_tfrecord_dir


class Batch(NamedTuple):
    """One minibatch of seed 001.

    images: uint8 [B, C, H, W] (NCHW), 0..255; C is 1 or 3, H = W = resolution / 2**lod.
    labels: float32 [B, L], the rows of the labels file (cast to float32 if stored otherwise;
        L = 0 without labels or with max_label_size=0).
    """

    images: Any
    labels: Any


class StyleganLodPipeline(Pipeline):
    """Seed 001 behind the uniform API: ``Batch(images, labels)`` (see :class:`Batch`).

    Options: ``tfrecord_dir`` (a ``create_from_images`` export; default: the embedded
    photographs at 256x256 with one-hot labels of the 10 source photographs),
    ``batch_size``, ``lod`` (``int(np.floor(lod))`` as the original; must exist) and
    ``seed`` (None: fresh shuffles; an int: the same batches in every process) and
    every :class:`TFRecordDataset` argument with its default (``max_label_size=0``
    means no labels: ``labels`` is [B, 0]). ``configure(batch_size=, lod=)`` runs
    the chosen LOD's initializer only when something changed; that restarts the
    LOD's data (a reinitializable iterator).
    ``num_shards``/``shard_index`` split each LOD's images (record-level: one file
    per LOD); ``service=`` is refused (the labels are a session variable).
    """

    name = "stylegan_lod"
    Batch = Batch

    @checked_options(tfrecord_dir=optional(check_path), lod=check_number,
                     resolution=optional(check_positive_int), label_file=optional(check_path),
                     max_label_size=check_max_label_size, max_images=optional(check_positive_int),
                     repeat=check_bool, shuffle_mb=check_non_negative_int,
                     prefetch_mb=check_non_negative_int, buffer_mb=check_non_negative_int,
                     num_threads=check_positive_int, seed=check_seed)
    def __init__(self, tfrecord_dir: str | None = None, batch_size: int = 16, lod: float = 0,
                 resolution: int | None = None, label_file: str | None = None,
                 max_label_size: int | str = 0, max_images: int | None = None,
                 repeat: bool = True, shuffle_mb: int = 4096, prefetch_mb: int = 2048,
                 buffer_mb: int = 256, num_threads: int = 2, seed: int | None = None,
                 **pipeline_options: Any) -> None:
        super().__init__(batch_size=batch_size, **pipeline_options)
        self._distribution.refuse_service("its labels are a variable of this process's "
                                          "session (as the seed's), which service workers "
                                          "cannot read")
        check_reader_options(repeat, shuffle_mb, prefetch_mb, buffer_mb, num_threads)
        self.tfrecord_dir = sample_tfrecord_dir() if tfrecord_dir is None else tfrecord_dir
        self.layout = inspect_tfrecord_dir(self.tfrecord_dir, resolution, label_file,
                                           max_label_size, max_images)
        warn_if_buffers_too_big(self.layout, shuffle_mb, prefetch_mb)
        self._reader_options: dict[str, Any] = {"repeat": repeat, "shuffle_mb": shuffle_mb,
                                "prefetch_mb": prefetch_mb, "buffer_mb": buffer_mb,
                                "num_threads": num_threads, "seed": seed}
        self.seed = seed
        self.dataset: TFRecordDataset | None = None
        self._declare_setting("lod", self._check_lod(lod))
        channels, labels = self.layout.shape[0], self.layout.labels
        label_range = (float(labels.min()), float(labels.max())) if labels.size else None
        self.FIELDS = {"images": FieldSpec("uint8", (None, channels, None, None), "NCHW", (0, 255)),
                       "labels": FieldSpec("float32", (None, labels.shape[1]), "NL", label_range)}

    @property
    def lods(self) -> list[int]:
        """The levels of detail of this data set, 0 = full resolution."""
        return sorted(self.layout.lods)

    @property
    def lod(self) -> int:
        return self.settings["lod"]

    def _check_lod(self, lod: Any) -> int:
        try:
            value = int(np.floor(lod))
        except (TypeError, ValueError, OverflowError):
            raise ConfigError(f"lod must be a number, got {lod!r}; valid LODs: {self.lods}") \
                from None
        if value not in self.layout.lods:
            raise ConfigError(f"lod {value} does not exist in {self.tfrecord_dir!r}; valid LODs: "
                              f"{self.lods} (0 = {self.layout.resolution}x"
                              f"{self.layout.resolution})")
        return value

    def _validate_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        if "lod" in settings:
            settings["lod"] = self._check_lod(settings["lod"])
        return super()._validate_settings(settings)

    def _build(self) -> tuple[Any, ...]:  # a Batch (the class attribute shadows the type)
        minibatch_in = self._setting_placeholder("batch_size", tf.int64)
        self.dataset = TFRecordDataset.from_layout(  # one file per LOD: record-level shards
            self.layout, minibatch_in=minibatch_in, **self._reader_options,
            shard=self._distribution.record_shard(1))
        for lod in self.dataset.lods:
            self._add_iterator_initializer(self.dataset.initializer_for(lod))
        images, labels = self.dataset.get_minibatch_tf()
        images.set_shape([None, self.layout.shape[0], None, None])
        if labels.dtype != tf.float32:  # a hand-made labels file of another dtype
            labels = tf.cast(labels, tf.float32)
        return Batch(images=images, labels=labels)

    def _iterator_initializers_for(self, settings: dict[str, Any]) -> list[tf.Operation]:
        if self.dataset is None:
            return []
        return [self.dataset.initializer_for(settings["lod"])]

    def _explain_error(self, error: tf.errors.OpError) -> DataError | None:
        lod = self.settings["lod"]
        return find_bad_record(self.layout.file_for(lod), self.layout.shape_for(lod))
