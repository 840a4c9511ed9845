"""Seed 002 behind the uniform API: :class:`RandomPatchesPipeline` and its
:class:`Batch` (``FIELDS`` follow the ``patch_size`` option)."""
from __future__ import annotations

import os
from typing import Any, NamedTuple

import tensorflow as tf

from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.fields import FieldSpec
from tf1_pipelines.inputs.dataset import initializable, one_shot
from tf1_pipelines.options import (
    check_path,
    check_path_list,
    check_positive_int,
    check_seed,
    checked_options,
    choice_of,
    optional,
)
from tf1_pipelines.pipeline import Pipeline

from .graph import (
    BATCH_SIZE,
    NUM_PARALLEL_CALLS,
    NUM_PATCHES,
    PATCH_SIZE,
    PREFETCH_BATCHES,
    check_patch_options,
    patches_dataset,
)
from .records import check_image_files, list_image_files
from .sample import photographs_dir

ITERATORS = ("one_shot", "initializable")


class Batch(NamedTuple):
    """One batch of seed 002.

    patches: float32 [B, p, p, 3] (NHWC), RGB in [0, 1] (``convert_image_dtype`` of the
        decoded uint8 pixels), each an exact crop of one image; the last batch of
        the data may be smaller than B.
    """

    patches: Any


class RandomPatchesPipeline(Pipeline):
    """Seed 002 behind the uniform API: ``Batch(patches)`` (see :class:`Batch`).

    Options (the answer's defaults): ``image_dir`` (JPEG/PNG folder; default: the
    embedded photographs) or ``filenames``, ``num_patches=100``, ``patch_size=32``,
    ``batch_size=10``, ``buffer_size=50 * num_patches``, ``num_parallel_calls=4``,
    ``prefetch=1`` (batches); ``num_epochs=1`` (the answer's single pass; None:
    forever), ``seed`` (None: fresh randomness; int: deterministic), ``iterator``:
    'one_shot' (the answer's; the batch size is then fixed) or 'initializable'
    (``configure(batch_size=...)`` restarts the data).
    ``num_shards``/``shard_index``: by image file, by patch (``k, k + n, ...`` of
    each image's) when the images are fewer than the shards; ``service=`` serves it.

    Each image's crops are drawn in one op and cut from the decoded uint8 image in
    one gather, then converted to float (``graph.random_crops``): the distribution of
    the answer's loop of ``random_crop`` ops, with or without a seed.
    """

    name = "random_patches"
    Batch = Batch

    @checked_options(image_dir=optional(check_path), filenames=optional(check_path_list),
                     num_patches=check_positive_int, patch_size=check_positive_int,
                     buffer_size=optional(check_positive_int),
                     num_parallel_calls=check_positive_int, prefetch=check_positive_int,
                     num_epochs=optional(check_positive_int), seed=check_seed,
                     iterator=choice_of(*ITERATORS))
    def __init__(self, image_dir: str | None = None, filenames: list[str] | None = None,
                 num_patches: int = NUM_PATCHES, patch_size: int = PATCH_SIZE,
                 batch_size: int = BATCH_SIZE, buffer_size: int | None = None,
                 num_parallel_calls: int = NUM_PARALLEL_CALLS, prefetch: int = PREFETCH_BATCHES,
                 num_epochs: int | None = 1, seed: int | None = None,
                 iterator: str = "one_shot", **pipeline_options: Any) -> None:
        super().__init__(batch_size=batch_size, **pipeline_options)
        if iterator not in ITERATORS:
            raise ConfigError(f"iterator must be one of {ITERATORS}, got {iterator!r}")
        self.buffer_size = check_patch_options(num_patches, patch_size, batch_size, buffer_size,
                                               num_parallel_calls, prefetch, num_epochs)
        if filenames is not None and image_dir is not None:
            raise ConfigError("give image_dir or filenames, not both")
        if filenames is None:
            filenames = list_image_files(photographs_dir() if image_dir is None else image_dir)
        elif not filenames:
            raise ConfigError("filenames is empty")
        self.filenames = [os.fspath(f) for f in filenames]
        check_image_files(self.filenames, patch_size)
        self.num_patches, self.patch_size = num_patches, patch_size
        self.FIELDS = {"patches": FieldSpec("float32", (None, patch_size, patch_size, 3), "NHWC",
                                            (0.0, 1.0))}
        self.num_parallel_calls, self.prefetch = num_parallel_calls, prefetch
        self.num_epochs, self.seed, self.iterator = num_epochs, seed, iterator

    def _validate_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        settings = super()._validate_settings(settings)
        if self.iterator == "one_shot" and settings.get("batch_size", self.batch_size) \
                != self.batch_size:
            raise ConfigError(f"a one-shot iterator has a fixed batch size ({self.batch_size}); "
                              "load the pipeline with iterator='initializable' to change it")
        return settings

    def _build(self) -> tuple[Any, ...]:  # a Batch (the class attribute shadows the type)
        if self.iterator == "initializable":
            batch_size: Any = self._setting_placeholder("batch_size", tf.int64)
        else:
            batch_size = tf.constant(self.batch_size, tf.int64)
        shards = self._distribution  # file-level, else each image's patches k::n
        dataset = patches_dataset(shards.shard_files(self.filenames), self.num_patches,
                                  self.patch_size, batch_size, self.buffer_size,
                                  self.num_parallel_calls, self.prefetch, self.num_epochs,
                                  self.seed, patch_shard=shards.record_shard(len(self.filenames)),
                                  gather=True)
        dataset = self._distribute(dataset)
        if self.iterator == "initializable":
            patches, initializer = initializable(dataset)
            self._add_iterator_initializer(initializer)
        else:
            patches = one_shot(dataset)
        return Batch(patches=patches)

    def _explain_error(self, error: tf.errors.OpError) -> DataError | None:
        try:
            check_image_files(self.filenames, self.patch_size, decode=True)
        except DataError as found:
            return found
        for path in self.filenames:
            if path in error.message:
                return DataError(error.message, path=path)
        return None
