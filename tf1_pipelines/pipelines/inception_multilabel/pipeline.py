"""Seed 004 behind the uniform API: :class:`InceptionMultilabelPipeline` and its
:class:`Batch`."""
from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from typing import Any, NamedTuple

import tensorflow as tf

from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.fields import FieldSpec
from tf1_pipelines.inputs import queue as queue_inputs
from tf1_pipelines.inputs.dataset import initializable
from tf1_pipelines.inputs.seeds import element_key, seeded
from tf1_pipelines.options import (
    check_bool,
    check_path,
    check_positive_int,
    check_seed,
    checked_options,
    choice_of,
    optional,
)
from tf1_pipelines.pipeline import Pipeline
from tf1_pipelines.records.reader import iterate_records
from tf1_pipelines.records.verify import require_records

from .graph import (
    EVAL_MEMORY_FACTOR,
    EXAMPLES_PER_SHARD,
    TRAIN_MEMORY_FACTOR,
    TRAIN_READERS,
    Dataset,
    PinnedDataset,
    batch_inputs,
    check_preprocess_threads,
    decode_jpeg,
    distort_image,
    eval_image,
    parse_example_proto,
    rescale,
)
from .records import (
    SUBSETS,
    check_level_settings,
    check_record,
    check_semantic_level_settings,
    infer_semantic_level_settings,
    verify_shards,
)
from .sample import DEFAULT_SEMANTIC_LEVEL_SETTINGS, default_data_dir

tf1 = tf.compat.v1

BACKENDS = ("queue", "dataset")
#: A data set whose shards hold at most this many bytes is kept in memory by the
#: dataset backend, which then shuffles record ids instead of records.
SMALL_DATA_BYTES = 64 << 20


def _unfused() -> tf.data.Options:
    """The parallel map stays apart from the batch (no map-and-batch fusion): the
    fused op keeps whole batches of decoded images in the making, which a saved
    state then holds (measured on the embedded data, quiet 2-core machine: state
    46.9 -> 15.2 MB, save + restore 1.0 -> 0.6 s, and 528 -> 579 examples/s)."""
    options = tf.data.Options()
    options.experimental_optimization.map_and_batch_fusion = False
    return options


class RecordTable(NamedTuple):
    """Every record of a small data set, in file order: ``records`` [N] bytes and
    ``starts`` [files + 1], file ``f``'s records being ``starts[f]..starts[f+1]-1``."""

    records: list[bytes]
    starts: list[int]


def record_table(files: Sequence[str]) -> RecordTable | None:
    """The :class:`RecordTable` of ``files`` if they hold at most
    :data:`SMALL_DATA_BYTES` in all, else None. A truncated file or a CRC
    mismatch raises DataError naming the file and record."""
    if sum(os.path.getsize(path) for path in files) > SMALL_DATA_BYTES:
        return None
    records: list[bytes] = []
    starts = [0]
    for path in files:
        records.extend(iterate_records(path))
        starts.append(len(records))
    return RecordTable(records, starts)


class Batch(NamedTuple):
    """One batch of seed 004.

    images: float32 [B, H, W, 3] (NHWC), RGB rescaled from [0, 1] to [-1, 1]
        (``(x - 0.5) * 2``); H x W = ``height`` x ``width``.
    labels: dict level name -> int32 [B, n_level], the one-hot rows of the
        records (-1 everywhere for a label missing in the legacy parse).
    filenames: object [B] of bytes, ``image/filename`` of each example.
    """

    images: Any
    labels: Any
    filenames: Any


class InceptionMultilabelPipeline(Pipeline):
    """Seed 004 behind the uniform API: ``Batch(images, labels, filenames)`` (see
    :class:`Batch`).

    Options: ``data_dir`` (shards ``<subset>-*``; default: the embedded data),
    ``subset`` ('train' or 'validation'), ``train`` (distort + shuffle + 4
    readers, or eval crop + file order + 1 reader), ``semantic_level_settings``
    ``[(level, n), ...]`` (default: the embedded data's, or read from the
    first record of ``data_dir``), ``num_preprocess_threads`` (multiple of 4),
    ``height``/``width`` (299), ``num_epochs`` (None: forever), ``seed``.
    ``examples_per_shard`` (1024) x ``input_queue_memory_factor`` (16 train, 1
    eval) is the number of examples the training RandomShuffleQueue keeps
    (``min_after_dequeue``): the seed's 16384 cycles a small data set many
    times to fill it (and holds that many JPEG strings in memory), so lower
    them for small data or quick starts.

    ``backend="queue"``: the seed's ``batch_inputs`` graph, threads started on
    the first ``get_batch``. ``backend="dataset"``: tf.data with the same
    parsing and preprocessing: files shuffled each epoch and read 4 at a time
    (training), a shuffle buffer of ``min_queue_examples``, example i
    preprocessed as thread ``i % num_preprocess_threads`` would be. Both yield
    the same multiset of examples per epoch. Shards of at most 64 MB in all
    (:data:`SMALL_DATA_BYTES`) are read into memory at load, and the shuffle
    buffer holds record ids instead of records: the same batches, a buffer of
    8 bytes per record, and a saved state without the records (the embedded data's
    16,384-record buffer: 8 bytes each instead of 10 KB of JPEG).

    The last partial batch is dropped at the end (as TF1 ``batch_join``) unless
    ``allow_smaller_final_batch=True``. ``configure(batch_size=...)``: on the
    queue backend from the next ``get_batch`` (up to the batch_join capacity;
    a plain ``sess.run`` of :attr:`tensors` keeps the batch size the graph was
    built with), on the dataset backend by restarting the epoch.

    Records must hold every key (a missing one raises DataError naming file,
    record and key; the legacy :func:`parse_example_proto` instead defaults
    it, as the seed).

    ``num_shards``/``shard_index``: by shard file, or (dataset backend) by record
    within each file when the files are fewer than the shards; ``service=`` serves
    the dataset backend (:mod:`tf1_pipelines.inputs.distribute`).
    """

    name = "inception_multilabel"
    Batch = Batch
    #: labels: one [B, n_level] one-hot array per level (strict parse: no -1 rows).
    FIELDS: dict[str, FieldSpec] = {
        "images": FieldSpec("float32", (None, 299, 299, 3), "NHWC", (-1.0, 1.0)),
        "labels": FieldSpec("int32", (None, None), "NC", (0, 1)),
        "filenames": FieldSpec("object", (None,), "N", None)}

    @checked_options(data_dir=optional(check_path), subset=choice_of(*SUBSETS), train=check_bool,
                     backend=choice_of(*BACKENDS), num_epochs=optional(check_positive_int),
                     allow_smaller_final_batch=check_bool,
                     semantic_level_settings=optional(check_level_settings),
                     num_preprocess_threads=lambda _, n: check_preprocess_threads(n),
                     height=check_positive_int, width=check_positive_int,
                     examples_per_shard=check_positive_int,
                     input_queue_memory_factor=optional(check_positive_int), seed=check_seed)
    def __init__(self, data_dir: str | None = None, subset: str = "train", train: bool = True,
                 backend: str = "queue", batch_size: int = 32, num_epochs: int | None = None,
                 allow_smaller_final_batch: bool = False,
                 semantic_level_settings: Sequence[tuple[str, int]] | None = None,
                 num_preprocess_threads: int = 16, height: int = 299, width: int = 299,
                 examples_per_shard: int = EXAMPLES_PER_SHARD,
                 input_queue_memory_factor: int | None = None, seed: int | None = None,
                 **pipeline_options: Any) -> None:
        super().__init__(batch_size=batch_size, **pipeline_options)
        self.backend = queue_inputs.check_choice("backend", backend, BACKENDS)
        self.train = bool(train)
        self.num_epochs = queue_inputs.check_num_epochs(num_epochs)
        self.allow_smaller_final_batch = bool(allow_smaller_final_batch)
        self.num_preprocess_threads = check_preprocess_threads(num_preprocess_threads)
        self.examples_per_shard = check_positive_int("examples_per_shard", examples_per_shard)
        if input_queue_memory_factor is None:
            input_queue_memory_factor = TRAIN_MEMORY_FACTOR if self.train else EVAL_MEMORY_FACTOR
        self.input_queue_memory_factor = check_positive_int("input_queue_memory_factor",
                                                            input_queue_memory_factor)
        self.min_queue_examples = self.examples_per_shard * self.input_queue_memory_factor
        queue_inputs.check_capacity(self.min_queue_examples + 3 * self.batch_size,
                                    self.min_queue_examples, "examples RandomShuffleQueue")
        self.seed = seed
        self._queue_batch_size: int | None = None  # what the queues were sized for
        found = Dataset("multilabel", subset, data_dir or default_data_dir(), height, width)
        images = FieldSpec("float32", (None, found.height, found.width, 3), "NHWC", (-1.0, 1.0))
        self.FIELDS = dict(self.FIELDS, images=images)
        self.files = found.data_files()
        require_records(self.files)
        self._check_batch_size(self.batch_size)
        if self.backend == "queue":  # shards by file; no service (see inputs.distribute)
            self._distribution.require_file_level(len(self.files), "the queue backend")
            self._distribution.refuse_service("backend='queue' runs queue runners in this "
                                              "process; use backend='dataset'")
        self.dataset = PinnedDataset(found, self._distribution.shard_files(self.files))
        self.semantic_level_settings = self._level_settings(semantic_level_settings, data_dir)
        self._table = record_table(self.files) if self.backend == "dataset" else None

    def _check_batch_size(self, batch_size: int) -> None:
        self._check_records_batch_size(batch_size, self.files, self.num_epochs,
                                       self.allow_smaller_final_batch)

    def _validate_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        settings = super()._validate_settings(settings)
        # batch_join's queue was sized for the first batch size; a bigger batch
        # than it holds could never be dequeued.
        if self.backend != "queue" or self._queue_batch_size is None:
            return settings
        limit = 2 * self.num_preprocess_threads * self._queue_batch_size
        if settings.get("batch_size", 0) > limit:
            raise ConfigError(f"batch_size {settings['batch_size']} exceeds the batch_join "
                              f"capacity {limit} (2 x num_preprocess_threads x the "
                              "batch_size the graph was built with); load a new pipeline")
        return settings

    def _level_settings(self, settings: Sequence[tuple[str, int]] | None,
                        data_dir: str | None) -> list[tuple[str, int]]:
        if settings is None:
            if data_dir is None:
                return list(DEFAULT_SEMANTIC_LEVEL_SETTINGS)
            return infer_semantic_level_settings(self.files)
        settings = check_semantic_level_settings(settings)
        for path in self.files:  # a wrong level fails here, not in a reader thread
            first = next(iterate_records(path), None)
            if first is not None:
                check_record(first, settings, path, 0, decode_image=False)
                break
        return settings

    def _build(self) -> tuple[Any, ...]:  # a Batch (the class attribute shadows the type)
        if self.backend == "queue":
            batch_size = self._setting_placeholder("batch_size", tf.int32)
            self._queue_batch_size = self.batch_size
            images, labels, filenames = batch_inputs(
                self.dataset, self.batch_size, self.train, self.semantic_level_settings,
                self.num_preprocess_threads, num_epochs=self.num_epochs,
                allow_smaller_final_batch=self.allow_smaller_final_batch,
                examples_per_shard=self.examples_per_shard,
                input_queue_memory_factor=self.input_queue_memory_factor, seed=self.seed,
                batch_size_tensor=batch_size, strict_parse=True)
        else:
            batch_size = self._setting_placeholder("batch_size", tf.int64)
            (images, labels, filenames), initializer = initializable(self._tf_dataset(batch_size))
            self._add_iterator_initializer(initializer)
            height, width = self.dataset.height, self.dataset.width
            images = tf.reshape(images, [-1, height, width, 3])
            labels = {level: tf.reshape(labels[level], [-1, num])
                      for level, num in self.semantic_level_settings}
        return Batch(images=images, labels=labels, filenames=filenames)

    def _preprocess(self, index: tf.Tensor, serialized: tf.Tensor
                    ) -> tuple[tf.Tensor, dict[str, tf.Tensor], tf.Tensor]:
        """What preprocessing thread ``index % num_preprocess_threads`` does to a record."""
        image_buffer, labels, filename = parse_example_proto(
            serialized, self.semantic_level_settings, strict=True)
        image = decode_jpeg(image_buffer)
        height, width = self.dataset.height, self.dataset.width
        if self.train:
            thread_id = tf.cast(index % self.num_preprocess_threads, tf.int32)
            # Only thread_id % 4 matters (resize method; colour order is % 2).
            key = None if self.seed is None else element_key(self.seed, index)
            branches = [functools.partial(distort_image, image, height, width, k,
                                          seed=self.seed, key=key) for k in range(4)]
            image = tf.switch_case(thread_id % 4, branches)
            image.set_shape([height, width, 3])
        else:
            image = eval_image(image, height, width)
        names = [level for level, _ in self.semantic_level_settings]
        return rescale(image), dict(zip(names, labels)), filename

    def _tf_dataset(self, batch_size: tf.Tensor) -> tf.data.Dataset:
        # Files by index: shuffling, interleaving and sharding do not look at the
        # values, so the ids of a record table come in the order its records would.
        shard = self._distribution.shard_files(list(range(len(self.files))))
        read = self._distribution.record_reader(len(self.files), self._reader())
        files = tf1.data.Dataset.from_tensor_slices(tf.constant(shard, tf.int64))
        if self.train and not self._distribution.splits_by_dispatcher:  # see divergences
            files = files.shuffle(len(shard), seed=self.seed, reshuffle_each_iteration=True)
        files = files.repeat(self.num_epochs)
        if self.train:
            records = files.interleave(read, cycle_length=TRAIN_READERS, block_length=1)
            records = records.shuffle(self.min_queue_examples, seed=self.seed)
        else:
            records = files.flat_map(read)
        if self._table is not None:
            table = tf.constant(self._table.records, tf.string)
            records = records.map(lambda record_id: tf.gather(table, record_id))
        dataset = records.enumerate().map(self._preprocess,
                                          num_parallel_calls=self.num_preprocess_threads)
        drop = not self.allow_smaller_final_batch  # served: the consumer drops (distribute)
        # No prefetch after the batch: the parallel map already works ahead of it, and
        # a prefetch buffer of decoded batches (34 MB each at 299 x 299) would be
        # written into every saved state (measured: 2 batches = 65 MB of the 109 MB a
        # one-epoch buffer saved; throughput the same within noise).
        batches = dataset.batch(batch_size, drop_remainder=drop and not self._served)
        return self._distribute(seeded(batches.with_options(_unfused()), self.seed), drop)

    def _reader(self) -> Any:
        """File index -> its records (a TFRecordDataset), or the ids of its records
        in the record table."""
        if self._table is None:
            paths = tf.constant(self.files)
            return lambda index: tf1.data.TFRecordDataset(tf.gather(paths, index))
        starts = tf.constant(self._table.starts, tf.int64)
        return lambda index: tf1.data.Dataset.range(starts[index], starts[index + 1])

    def _explain_error(self, error: tf.errors.OpError) -> DataError | None:
        """Scan the files in numpy for the first bad one (CRC, keys, sizes) and name
        it, with the original TF message."""
        return queue_inputs.explain_read_error(
            error, self.files, lambda files: verify_shards(files, self.semantic_level_settings))
