"""Seed 003 behind the uniform API: :class:`VocSegmentationPipeline` and its
:class:`Batch`."""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, NamedTuple

import tensorflow as tf

from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.fields import FieldSpec
from tf1_pipelines.inputs import queue as queue_inputs
from tf1_pipelines.inputs.dataset import initializable
from tf1_pipelines.inputs.parallel_reads import read_in_parallel
from tf1_pipelines.inputs.seeds import seeded
from tf1_pipelines.options import (
    check_bool,
    check_non_negative_int,
    check_path,
    check_paths,
    check_positive_int,
    check_seed,
    checked_options,
    choice_of,
    optional,
)
from tf1_pipelines.pipeline import Pipeline
from tf1_pipelines.records.verify import require_records

from .graph import (
    IMAGE_HEIGHT,
    IMAGE_WIDTH,
    decode_example,
    read_and_decode,
)
from .records import (
    cached_shards,
    find_pairs,
    verify_records,
)
from .sample import default_pairs_dir

tf1 = tf.compat.v1

BACKENDS = ("queue", "dataset")


class Batch(NamedTuple):
    """One batch of seed 003.

    image: uint8 [B, H, W, 3] (NHWC), RGB 0..255; H x W = image_height x
        image_width (384 x 384 by default), centre-cropped or zero-padded.
    mask: uint8 [B, H, W, 1] (NHWC), class ids (VOC: 0..20, 255 = border; the
        embedded data: 0..3), cropped or zero-padded exactly like ``image``.
    """

    image: Any
    mask: Any


def unordered(dataset: tf.data.Dataset) -> tf.data.Dataset:
    """``dataset`` whose parallel map hands out each example as soon as it is decoded
    (``deterministic = False``), not in input order: without a seed nothing promises
    the order, and the shuffle that follows randomises it anyway (measured on the
    embedded records: about 10 % more examples/s, a slow record no longer holding
    back the ones decoded after it)."""
    options = tf.data.Options()
    options.deterministic = False
    return dataset.with_options(options)


class VocSegmentationPipeline(Pipeline):
    """Seed 003 behind the uniform API: ``Batch(image, mask)`` (see :class:`Batch`).

    Data (first that is given): ``tfrecords`` (a ``*.tfrecords`` file, a list of
    files, or a folder of them), ``image_dir`` + ``mask_dir`` (pairs matched by
    stem; records are built into a cache folder on first use, ``record_shards``
    files), else the embedded VOC-like photographs (module docstring).

    ``backend="queue"`` is the seed's graph: ``string_input_producer(files,
    num_epochs)`` (file order shuffled each epoch, ``seed``), one
    ``TFRecordReader``, ``shuffle_batch`` with ``capacity``, ``num_threads``,
    ``min_after_dequeue``; its threads start on the first ``get_batch`` and stop
    on ``close()``. ``backend="dataset"``: tf.data with the same parsing, files
    shuffled each epoch, a shuffle buffer of ``capacity``; it yields the same
    multiset of examples per epoch. Without a seed its ``num_threads`` parallel
    decoders hand out examples in the order they finish (:func:`unordered`).

    ``num_epochs=None`` repeats forever; with N, ``EndOfData`` follows the last
    batch. As in TF1 the last partial batch is dropped (N x records %
    batch_size examples are never delivered) unless
    ``allow_smaller_final_batch=True``, which delivers every record exactly once
    per epoch. ``configure(batch_size=...)`` takes effect at the next
    ``get_batch`` on the queue backend (a plain ``sess.run`` of
    :attr:`tensors` keeps the batch size the graph was built with) and restarts
    the epoch on the dataset backend.

    ``num_shards``/``shard_index``: by record file, or (dataset backend) by record
    within each file when the files are fewer than the shards; ``service=`` serves
    the dataset backend (:mod:`tf1_pipelines.inputs.distribute`).

    ``deterministic=True`` (queue backend, with a ``seed``): the same batches in
    every run. With ``num_threads`` threads the records reach the shuffle queue in
    the order the threads happen to finish, and each example of a batch is drawn
    from however many the queue happens to hold by then; here one thread reads
    (``num_threads`` must be 1 or left out) and the queue's capacity is
    ``min_after_dequeue + 1``, so every draw is from a full queue of the same
    records. It costs the second reader thread and the queue's slack: reader and
    consumer take turns, one example at a time.
    """

    name = "voc_segmentation"
    Batch = Batch
    FIELDS: dict[str, FieldSpec] = {
        "image": FieldSpec("uint8", (None, IMAGE_HEIGHT, IMAGE_WIDTH, 3), "NHWC", (0, 255)),
        "mask": FieldSpec("uint8", (None, IMAGE_HEIGHT, IMAGE_WIDTH, 1), "NHWC", (0, 255))}

    @checked_options(tfrecords=optional(check_paths), image_dir=optional(check_path),
                     mask_dir=optional(check_path), backend=choice_of(*BACKENDS),
                     num_epochs=optional(check_positive_int), allow_smaller_final_batch=check_bool,
                     image_height=check_positive_int, image_width=check_positive_int,
                     capacity=check_positive_int, min_after_dequeue=check_non_negative_int,
                     num_threads=optional(check_positive_int), record_shards=check_positive_int,
                     seed=check_seed, deterministic=check_bool)
    def __init__(self, tfrecords: str | Sequence[str] | None = None, image_dir: str | None = None,
                 mask_dir: str | None = None, backend: str = "queue", batch_size: int = 2,
                 num_epochs: int | None = None, allow_smaller_final_batch: bool = False,
                 image_height: int = IMAGE_HEIGHT, image_width: int = IMAGE_WIDTH,
                 capacity: int = 30, min_after_dequeue: int = 10, num_threads: int | None = None,
                 record_shards: int = 1, seed: int | None = None, deterministic: bool = False,
                 **pipeline_options: Any) -> None:
        super().__init__(batch_size=batch_size, **pipeline_options)
        self.backend = queue_inputs.check_choice("backend", backend, BACKENDS)
        self.num_epochs = queue_inputs.check_num_epochs(num_epochs)
        self.capacity, self.min_after_dequeue = queue_inputs.check_capacity(
            capacity, min_after_dequeue, "shuffle_batch")
        self.deterministic = self._check_deterministic(bool(deterministic), seed, num_threads)
        self.num_threads = 1 if self.deterministic else (2 if num_threads is None else num_threads)
        if self.deterministic:  # every draw then finds the queue full
            self.capacity = self.min_after_dequeue + 1
        self.image_height = check_positive_int("image_height", image_height)
        self.image_width = check_positive_int("image_width", image_width)
        self.allow_smaller_final_batch = bool(allow_smaller_final_batch)
        size = (None, self.image_height, self.image_width)
        self.FIELDS = {"image": FieldSpec("uint8", size + (3,), "NHWC", (0, 255)),
                       "mask": FieldSpec("uint8", size + (1,), "NHWC", (0, 255))}
        self.seed = seed
        self.files = self._record_files(tfrecords, image_dir, mask_dir, record_shards)
        if self.backend == "queue":  # shards by file; no service (see inputs.distribute)
            self._distribution.require_file_level(len(self.files), "the queue backend")
            self._distribution.refuse_service("backend='queue' runs queue runners in this "
                                              "process; use backend='dataset'")
        require_records(self.files)
        self._check_batch_size(self.batch_size)

    def _check_batch_size(self, batch_size: int) -> None:
        self._check_records_batch_size(batch_size, self.files, self.num_epochs,
                                       self.allow_smaller_final_batch)

    def _check_deterministic(self, deterministic: bool, seed: int | None,
                             num_threads: int | None) -> bool:
        """ConfigError where ``deterministic=True`` cannot keep its promise."""
        if not deterministic:
            return False
        if self.backend != "queue":
            raise ConfigError("deterministic=True is the queue backend's option; the dataset "
                              "backend gives the same batches for a seed by itself")
        if seed is None:
            raise ConfigError("deterministic=True needs a seed= (the shuffles are drawn from it)")
        if num_threads not in (None, 1):
            raise ConfigError(f"deterministic=True reads with one thread, got num_threads "
                              f"{num_threads}: several threads fill the queue in the order "
                              "they happen to finish")
        return True

    def _record_files(self, tfrecords: str | Sequence[str] | None, image_dir: str | None,
                      mask_dir: str | None, record_shards: int) -> list[str]:
        if tfrecords is not None:
            return queue_inputs.record_files(tfrecords)
        if (image_dir is None) != (mask_dir is None):
            raise ConfigError("give both image_dir and mask_dir (or tfrecords=), got only "
                              f"{'image_dir' if image_dir is not None else 'mask_dir'}")
        if image_dir is None or mask_dir is None:  # both None (checked above)
            root = default_pairs_dir()
            image_dir = os.path.join(root, "JPEGImages")
            mask_dir = os.path.join(root, "SegmentationClass")
        pairs = find_pairs(image_dir, mask_dir)
        return queue_inputs.record_files(cached_shards(pairs, record_shards))

    def _build(self) -> tuple[Any, ...]:  # a Batch (the class attribute shadows the type)
        if self.backend == "queue":
            batch_size = self._setting_placeholder("batch_size", tf.int32)
            queue = queue_inputs.filename_queue(self._distribution.shard_files(self.files),
                                                num_epochs=self.num_epochs,
                                                shuffle=True, seed=self.seed)
            images, masks = read_and_decode(
                queue, batch_size=batch_size, capacity=self.capacity,
                num_threads=self.num_threads, min_after_dequeue=self.min_after_dequeue,
                image_height=self.image_height, image_width=self.image_width,
                allow_smaller_final_batch=self.allow_smaller_final_batch, seed=self.seed)
        else:
            batch_size = self._setting_placeholder("batch_size", tf.int64)
            (images, masks), initializer = initializable(self._dataset(batch_size))
            self._add_iterator_initializer(initializer)
        return Batch(image=tf.reshape(images, [-1, self.image_height, self.image_width, 3]),
                     mask=tf.reshape(masks, [-1, self.image_height, self.image_width, 1]))

    def _dataset(self, batch_size: tf.Tensor) -> tf.data.Dataset:
        shard = self._distribution.shard_files(self.files)
        files = tf1.data.Dataset.from_tensor_slices(shard)
        if not self._distribution.splits_by_dispatcher:  # see divergences
            files = files.shuffle(len(shard), seed=self.seed, reshuffle_each_iteration=True)
        # num_threads readers, as the seed's threads each read a file of their own:
        # reading a 1 MB record (its CRC and copies) is most of the work.
        dataset = read_in_parallel(
            files.repeat(self.num_epochs),
            self._distribution.record_reader(len(self.files), tf1.data.TFRecordDataset),
            readers=self.num_threads, ordered=self.seed is not None)
        dataset = dataset.map(lambda s: decode_example(s, self.image_height, self.image_width),
                              num_parallel_calls=self.num_threads)
        dataset = dataset.shuffle(self.capacity, seed=self.seed)
        drop = not self.allow_smaller_final_batch  # served: the consumer drops (distribute)
        batches = dataset.batch(batch_size, drop_remainder=drop and not self._served).prefetch(1)
        ordered = seeded(batches, self.seed) if self.seed is not None else unordered(batches)
        return self._distribute(ordered, drop)

    def _explain_error(self, error: tf.errors.OpError) -> DataError | None:
        """Scan the files in numpy for the first bad one (CRC, keys, sizes) and name
        it, with the original TF message."""
        return queue_inputs.explain_read_error(error, self.files, verify_records)
