"""Seed 004's TF1 graph under the seed's names: :func:`parse_example_proto`, the
image preprocessing after Inception's ``image_processing.py`` (``decode_jpeg``,
``distort_image``, ``distort_color``, ``eval_image``, ``rescale``), the Inception
:class:`Dataset` (where the shards of a subset are; :class:`PinnedDataset` keeps
to the files it was given) and :func:`batch_inputs` (filename queue, readers,
example queue and parallel preprocessing branches into ``batch_join``)."""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import tensorflow as tf

from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.inputs import queue as queue_inputs
from tf1_pipelines.inputs.seeds import sub_key
from tf1_pipelines.options import check_positive_int
from tf1_pipelines.records.reader import iterate_records
from tf1_pipelines.records.writer import PARTIAL_SUFFIX
from tf1_pipelines.runtime.quiet_tf1 import quiet_tf1

from .records import LABEL_PREFIX, SUBSETS, check_semantic_level_settings

tf1 = tf.compat.v1


# ---------------------------------------------------------------------------- parsing
def parse_example_proto(example_serialized: tf.Tensor,
                        semantic_level_settings: Sequence[tuple[str, int]],
                        strict: bool = False) -> tuple[tf.Tensor, list[tf.Tensor], tf.Tensor]:
    """The seed's parse of one serialized Example.

    Returns ``(image_buffer string, [int32 [n] one-hot per level], filename string)``.
    As in the seed, a missing key falls back to a default (``''``, or ``-1`` in
    every label position); with ``strict=True`` there are no defaults, so a
    missing key fails the read naming the key.
    """
    def fixed(shape: list[int], dtype: tf.DType, default: Any) -> Any:
        return tf1.FixedLenFeature(shape, dtype=dtype, default_value=None if strict else default)

    feature_map = {
        "image/encoded": fixed([], tf.string, ""),
        "image/filename": fixed([], tf.string, ""),
    }
    for level, num in semantic_level_settings:
        feature_map.update({LABEL_PREFIX + level: fixed([num], tf.int64, [-1] * num)})
    features = tf1.parse_single_example(example_serialized, feature_map)
    labels = [tf.cast(features[LABEL_PREFIX + level], dtype=tf.int32)
              for level, _ in semantic_level_settings]
    return features["image/encoded"], labels, features["image/filename"]


# ---------------------------------------------------------------------- preprocessing
#: TF1 ``ResizeMethod`` numbers, in the order ``thread_id % 4`` picks them.
RESIZE_METHODS = ("bilinear", "nearest_neighbor", "bicubic", "area")
#: Colour distortion order for ``thread_id % 2``.
COLOR_ORDERINGS = (("brightness", "saturation", "hue", "contrast"),
                   ("brightness", "contrast", "saturation", "hue"))


def _op_seed(seed: int | None, thread_id: int, index: int) -> int | None:
    """A distinct op-level seed per preprocessing thread and random op."""
    return None if seed is None else seed * 1009 + thread_id * 31 + index


def decode_jpeg(image_buffer: tf.Tensor, scope: str | None = None) -> tf.Tensor:
    """JPEG bytes -> float32 [h, w, 3] RGB in [0, 1] (``convert_image_dtype``: x / 255)."""
    with tf1.name_scope(scope, "decode_jpeg", [image_buffer]):
        image = tf.image.decode_jpeg(image_buffer, channels=3)
        return tf.image.convert_image_dtype(image, dtype=tf.float32)


def resize_method_for_thread(thread_id: int) -> int:
    """The TF1 ``ResizeMethod`` number a preprocessing thread uses: ``thread_id % 4``
    (0 bilinear, 1 nearest neighbour, 2 bicubic, 3 area)."""
    return thread_id % 4


def color_ordering_for_thread(thread_id: int) -> tuple[str, ...]:
    """The order of the colour distortions of a preprocessing thread (``thread_id % 2``)."""
    return COLOR_ORDERINGS[thread_id % 2]


def _stateless_color_ops(key: tf.Tensor) -> dict[str, Any]:
    """The colour distortions drawn statelessly from ``key`` (int64 [2]), one sub-key
    per distortion: the same ranges as the stateful ones."""
    return {
        "brightness": lambda x, _: tf.image.stateless_random_brightness(
            x, 32. / 255., sub_key(key, 10)),
        "saturation": lambda x, _: tf.image.stateless_random_saturation(
            x, 0.5, 1.5, sub_key(key, 11)),
        "hue": lambda x, _: tf.image.stateless_random_hue(x, 0.2, sub_key(key, 12)),
        "contrast": lambda x, _: tf.image.stateless_random_contrast(
            x, 0.5, 1.5, sub_key(key, 13)),
    }


def distort_color(image: tf.Tensor, thread_id: int = 0, scope: str | None = None,
                  seed: int | None = None, key: tf.Tensor | None = None) -> tf.Tensor:
    """Random brightness, saturation, hue and contrast in the thread's order, then
    a clip to [0, 1]. ``image``: float32 [h, w, 3] in [0, 1]. With ``key`` (int64
    [2], see :mod:`tf1_pipelines.inputs.seeds`) every draw is stateless."""
    ops = _stateless_color_ops(key) if key is not None else {
        "brightness": lambda x, s: tf1.image.random_brightness(x, max_delta=32. / 255., seed=s),
        "saturation": lambda x, s: tf1.image.random_saturation(x, lower=0.5, upper=1.5, seed=s),
        "hue": lambda x, s: tf1.image.random_hue(x, max_delta=0.2, seed=s),
        "contrast": lambda x, s: tf1.image.random_contrast(x, lower=0.5, upper=1.5, seed=s),
    }
    with tf1.name_scope(scope, "distort_color", [image]):
        for index, name in enumerate(color_ordering_for_thread(thread_id)):
            image = ops[name](image, _op_seed(seed, thread_id, 10 + index))
        # The random_* ops do not necessarily clamp.
        return tf.clip_by_value(image, 0.0, 1.0)


def distort_image(image: tf.Tensor, height: int, width: int, thread_id: int = 0,
                  scope: str | None = None, bbox: tf.Tensor | None = None,
                  seed: int | None = None, key: tf.Tensor | None = None) -> tf.Tensor:
    """One training image: random crop, resize with method ``thread_id % 4``, random
    left-right flip, colour distortion in the order of ``thread_id % 2``.

    ``image``: float32 [h, w, 3] in [0, 1]; returns float32 [height, width, 3]
    in [0, 1]. The seed calls it ``distort_image(image, height, width,
    thread_id)``; ``bbox`` (float [1, boxes, 4], ymin xmin ymax xmax in 0..1)
    defaults to none, i.e. the whole image is the object, as in the original
    when a record has no boxes. ``seed`` makes every random op repeatable; ``key``
    (int64 [2]) draws every value statelessly instead (crop, flip, colours).
    """
    with tf1.name_scope(scope, "distort_image", [image, height, width]):
        if bbox is None:
            bbox = tf.zeros([1, 0, 4], dtype=tf.float32)
        box_options: dict[str, Any] = dict(
            bounding_boxes=bbox, min_object_covered=0.1, aspect_ratio_range=[0.75, 1.33],
            area_range=[0.05, 1.0], max_attempts=100, use_image_if_no_bounding_boxes=True)
        if key is None:
            bbox_begin, bbox_size, _ = tf1.image.sample_distorted_bounding_box(
                tf.shape(image), seed=_op_seed(seed, thread_id, 1), **box_options)
        else:
            bbox_begin, bbox_size, _ = tf.image.stateless_sample_distorted_bounding_box(
                tf.shape(image), seed=sub_key(key, 1), **box_options)
        distorted_image = tf.slice(image, bbox_begin, bbox_size)
        # Four TF1 resize methods, picked round robin by thread; the aspect ratio
        # is not kept.
        distorted_image = tf1.image.resize_images(distorted_image, [height, width],
                                                  method=resize_method_for_thread(thread_id))
        distorted_image.set_shape([height, width, 3])
        if key is None:
            distorted_image = tf1.image.random_flip_left_right(
                distorted_image, seed=_op_seed(seed, thread_id, 2))
        else:
            distorted_image = tf.image.stateless_random_flip_left_right(
                distorted_image, sub_key(key, 2))
        return distort_color(distorted_image, thread_id, seed=seed, key=key)


def eval_image(image: tf.Tensor, height: int, width: int, scope: str | None = None) -> tf.Tensor:
    """One evaluation image: the central 87.5% (``central_crop``), resized bilinearly
    to [height, width, 3] (TF1 ``resize_bilinear``, ``align_corners=False``)."""
    with tf1.name_scope(scope, "eval_image", [image, height, width]):
        image = tf.image.central_crop(image, central_fraction=0.875)
        image = tf.expand_dims(image, 0)
        image = tf1.image.resize_bilinear(image, [height, width], align_corners=False)
        return tf.squeeze(image, [0])


def rescale(image: tf.Tensor) -> tf.Tensor:
    """[0, 1] -> [-1, 1]: ``(image - 0.5) * 2``, as the seed's last step."""
    return tf.multiply(tf.subtract(image, 0.5), 2.0)


# ---------------------------------------------------------------------------- dataset
class Dataset:
    """Where the shards of one subset are, as the Inception ``Dataset`` class.

    ``data_files()`` globs ``<data_dir>/<subset>-*`` (sorted; never the
    ``*.partial`` files of an export in progress) and raises DataError naming
    the folder when nothing matches, where the original printed and exited.
    ``height`` and ``width`` are the output size the seed reads from it.
    """

    def __init__(self, name: str, subset: str, data_dir: str, height: int = 299,
                 width: int = 299) -> None:
        self.name = name
        self.subset = queue_inputs.check_choice("subset", subset, self.available_subsets())
        self.data_dir = os.fspath(data_dir)
        self.height = check_positive_int("height", height)
        self.width = check_positive_int("width", width)

    def available_subsets(self) -> list[str]:
        """The subsets a data set can have: ``['train', 'validation']``."""
        return list(SUBSETS)

    def data_files(self) -> list[str]:
        """Sorted shard paths of the subset; DataError if there are none."""
        pattern = os.path.join(self.data_dir, f"{self.subset}-*")
        files = sorted(p for p in tf.io.gfile.glob(pattern)
                       if not p.endswith(PARTIAL_SUFFIX) and not os.path.isdir(p))
        if not files:
            raise DataError(f"no files found for dataset {self.name}/{self.subset} "
                            f"(pattern {self.subset}-*)", path=self.data_dir)
        return files

    def reader(self) -> Any:
        """A reader for one record at a time: ``tf.compat.v1.TFRecordReader()``."""
        return tf1.TFRecordReader()

    def num_examples_per_epoch(self) -> int:
        """The number of records in the subset (reads every shard)."""
        return sum(sum(1 for _ in iterate_records(path)) for path in self.data_files())


class PinnedDataset(Dataset):
    """A :class:`Dataset` whose files are the ones found when it was pinned: a shard
    that disappears later raises DataError naming it instead of being skipped
    by a new glob (the uniform face reads exactly the files it checked)."""

    def __init__(self, dataset: Dataset, files: Sequence[str]) -> None:
        super().__init__(dataset.name, dataset.subset, dataset.data_dir, dataset.height,
                         dataset.width)
        self._files = list(files)

    def data_files(self) -> list[str]:
        return queue_inputs.existing_files(self._files)


# --------------------------------------------------------------------------- batching
EXAMPLES_PER_SHARD = 1024
TRAIN_MEMORY_FACTOR = 16
EVAL_MEMORY_FACTOR = 1
TRAIN_READERS = 4


def check_preprocess_threads(num_preprocess_threads: Any) -> int:
    """The thread count if it is a whole number >= 1 and a multiple of 4 (one
    thread per TF1 resize method); ConfigError (a ValueError) otherwise, with the
    seed's message, correctly formatted."""
    num_preprocess_threads = check_positive_int("num_preprocess_threads",
                                                num_preprocess_threads)
    if num_preprocess_threads % 4:
        raise ConfigError("Please make num_preprocess_threads a multiple of 4 "
                          f"({num_preprocess_threads} % 4 != 0).")
    return num_preprocess_threads


@quiet_tf1
def batch_inputs(dataset: Dataset, batch_size: int, train: bool,
                 semantic_level_settings: Sequence[tuple[str, int]],
                 num_preprocess_threads: int = 16, *, num_epochs: int | None = None,
                 allow_smaller_final_batch: bool = False,
                 examples_per_shard: int = EXAMPLES_PER_SHARD,
                 input_queue_memory_factor: int | None = None, seed: int | None = None,
                 batch_size_tensor: tf.Tensor | None = None, strict_parse: bool = False
                 ) -> tuple[tf.Tensor, dict[str, tf.Tensor], tf.Tensor]:
    """The seed's ``batch_inputs``: ``(images, level_labels, filenames)``.

    images float32 [batch_size, height, width, 3] in [-1, 1]; level_labels
    {level: int32 [batch_size, n]}; filenames string [batch_size].

    Keyword-only additions (defaults are the seed's): ``num_epochs`` for the
    filename queue (None: forever); ``allow_smaller_final_batch`` (the batch
    dimension then becomes unknown); ``examples_per_shard`` (1024) and
    ``input_queue_memory_factor`` (16 for training, 1 for evaluation) size the
    example queue; ``seed`` fixes every random op; ``batch_size_tensor``, a
    scalar int32 tensor dequeued instead of ``batch_size`` (which still sizes
    the queues); ``strict_parse`` parses without defaults, so a record missing
    a key fails instead of giving ``''`` / ``-1`` labels. Raises ConfigError (a
    ValueError) for a thread count that is not a multiple of 4 or a queue whose
    capacity is not bigger than its min_after_dequeue.
    """
    semantic_level_settings = check_semantic_level_settings(semantic_level_settings)
    batch_size = check_positive_int("batch_size", batch_size)
    num_preprocess_threads = check_preprocess_threads(num_preprocess_threads)
    examples_per_shard = check_positive_int("examples_per_shard", examples_per_shard)
    if input_queue_memory_factor is None:
        input_queue_memory_factor = TRAIN_MEMORY_FACTOR if train else EVAL_MEMORY_FACTOR
    input_queue_memory_factor = check_positive_int("input_queue_memory_factor",
                                                   input_queue_memory_factor)
    min_queue_examples = examples_per_shard * input_queue_memory_factor
    queue_inputs.check_capacity(min_queue_examples + 3 * batch_size, min_queue_examples,
                                "examples RandomShuffleQueue")
    dequeue_size = batch_size if batch_size_tensor is None else batch_size_tensor
    out_size = -1 if allow_smaller_final_batch else dequeue_size

    # Force all input processing onto CPU in order to reserve the GPU for the
    # forward and backward passes.
    with tf.device("/cpu:0"), tf1.name_scope("batch_processing"):
        data_files = dataset.data_files()
        if data_files is None:
            raise DataError("No data files found for this dataset")
        if train:
            filename_queue = queue_inputs.filename_queue(
                data_files, num_epochs=num_epochs, shuffle=True, capacity=16, seed=seed)
        else:
            filename_queue = queue_inputs.filename_queue(
                data_files, num_epochs=num_epochs, shuffle=False, capacity=1)

        if train:
            examples_queue = tf1.RandomShuffleQueue(
                capacity=min_queue_examples + 3 * batch_size,
                min_after_dequeue=min_queue_examples, dtypes=[tf.string], seed=seed)
            # Several readers populate the queue of examples.
            enqueue_ops = []
            for _ in range(TRAIN_READERS):
                reader = dataset.reader()
                _, value = reader.read(filename_queue)
                enqueue_ops.append(examples_queue.enqueue([value]))
            tf1.train.queue_runner.add_queue_runner(
                tf1.train.queue_runner.QueueRunner(examples_queue, enqueue_ops))
            example_serialized = examples_queue.dequeue()
        else:
            # Built by the seed, never used: the one reader is read directly.
            tf1.FIFOQueue(capacity=examples_per_shard + 3 * batch_size, dtypes=[tf.string])
            reader = dataset.reader()
            _, example_serialized = reader.read(filename_queue)

        images_and_labels = []
        for thread_id in range(num_preprocess_threads):
            image_buffer, labels, filename = parse_example_proto(
                example_serialized, semantic_level_settings, strict=strict_parse)
            image = decode_jpeg(image_buffer)
            if train:
                image = distort_image(image, dataset.height, dataset.width, thread_id, seed=seed)
            else:
                image = eval_image(image, dataset.height, dataset.width)
            # Finally, rescale to [-1, 1] instead of [0, 1].
            images_and_labels.append([rescale(image), filename] + labels)

        batch_data = tf1.train.batch_join(
            images_and_labels, batch_size=dequeue_size,
            capacity=2 * num_preprocess_threads * batch_size,
            allow_smaller_final_batch=allow_smaller_final_batch)

        images = tf.cast(batch_data[0], tf.float32)
        images = tf.reshape(images, shape=[out_size, dataset.height, dataset.width, 3])
        filenames = tf.reshape(batch_data[1], [out_size])
        level_labels = {}
        for idx, (level, num) in enumerate(semantic_level_settings):
            # The seed's [batch_size, -1]; with an unknown batch size, n is given.
            shape = [-1, num] if allow_smaller_final_batch else [out_size, -1]
            level_labels[level] = tf.reshape(batch_data[2 + idx], shape)
        return images, level_labels, filenames
