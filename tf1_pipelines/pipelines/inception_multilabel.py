"""Seed 004: the Inception-style multi-reader, multi-label TFRecord reader.

Records (one ``tf.train.Example`` per image, as the seed's ``_convert_to_example``
writes them): ``image/encoded`` (JPEG bytes of an RGB image), ``image/filename``
(base name, bytes), ``image/height``, ``image/width``, ``image/channels`` (int64)
and, for every semantic level, ``image/label/<level>``: a one-hot int64 list of
that level's class count. Shards follow the Inception convention
``<subset>-<shard:05d>-of-<shards:05d>`` (``train-00000-of-00004``); a
:class:`Dataset` finds them with the glob ``<data_dir>/<subset>-*``.

Legacy face: ``_int64_feature``, ``_float_feature``, ``_bytes_feature``,
``_convert_to_example``, :func:`parse_example_proto`, :func:`batch_inputs`
(``dataset, batch_size, train, semantic_level_settings,
num_preprocess_threads=16``), :func:`decode_jpeg`, :func:`distort_image`,
:func:`distort_color`, :func:`eval_image` and :class:`Dataset` (``data_files()``,
``reader()``, ``height``, ``width``).

``batch_inputs`` builds the seed's graph. Training: a shuffled filename queue
(capacity 16), four ``TFRecordReader``s enqueueing into one
``RandomShuffleQueue`` (capacity ``min_queue_examples + 3 * batch_size``,
``min_after_dequeue = min_queue_examples = 1024 * 16``) through one
``QueueRunner``. Evaluation: an unshuffled filename queue (capacity 1) and one
reader read directly (the seed also builds a ``FIFOQueue`` there that nothing
uses; it is kept, and shows as an empty queue). Then ``num_preprocess_threads``
parallel branches (parse, decode, distort or eval, rescale to [-1, 1]) feed
``tf.train.batch_join`` with capacity ``2 * num_preprocess_threads * batch_size``.

Preprocessing follows the original Inception ``image_processing.py``:
``decode_jpeg`` gives float32 RGB in [0, 1]; ``distort_image`` takes a random
crop (``sample_distorted_bounding_box``: at least 10% of the box covered,
aspect ratio 0.75..1.33, 5%..100% of the area, 100 attempts, the whole image when
there is no box), resizes it to height x width with the TF1 method number
``thread_id % 4`` (0 bilinear, 1 nearest neighbour, 2 bicubic, 3 area), flips
left-right with probability 1/2 and distorts the colours in the order chosen
by ``thread_id % 2`` (0: brightness, saturation, hue, contrast; 1: brightness,
contrast, saturation, hue; brightness delta 32/255, saturation and contrast
0.5..1.5, hue delta 0.2), then clips to [0, 1]; ``eval_image`` crops the
central 87.5% and resizes bilinearly (TF1 ``resize_bilinear``,
``align_corners=False``). The original's TensorBoard image summaries are left out.

Uniform face: :class:`InceptionMultilabelPipeline` (``load_pipeline(
"inception_multilabel", ...)``), backends ``"queue"`` (the graph above) and
``"dataset"`` (tf.data with the same preprocessing).

Converter: :func:`build_shards` shards a folder of labelled images (a
``labels.csv`` with a ``filename`` column and one class-index column per
level) into such records, in the order of Inception's ``build_image_data.py``
(file order shuffled with ``random.seed(12345)``, contiguous runs per shard).

Embedded default data: nine photographs bundled with scikit-image, each scaled
so its short side is 320 pixels and cut into its four quadrants (36 JPEGs):
quadrants 0-2 form ``train`` (27 images, 4 shards), quadrant 3 ``validation``
(9 images, 2 shards). Two semantic levels with labels from the pictures:
``scene`` (5 classes: person, animal, object, vehicle, science - what the
photograph shows) and ``colour`` (3 classes: the channel, red, green or blue,
with the largest mean over the quadrant).
"""
from __future__ import annotations

import csv
import functools
import glob
import io
import os
import random
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import tensorflow as tf
from PIL import Image, UnidentifiedImageError

from tf1_pipelines import sample_data
from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.inputs import queue as queue_inputs
from tf1_pipelines.inputs.dataset import initializable
from tf1_pipelines.records.features import bytes_feature, example, float_feature, int64_feature
from tf1_pipelines.records.reader import find_corrupt_file, iterate_records
from tf1_pipelines.records.writer import PARTIAL_SUFFIX, AtomicRecordWriters
from tf1_pipelines.session import FieldSpec, Pipeline, check_positive_int

__all__ = ["Batch", "Dataset", "PinnedDataset", "InceptionMultilabelPipeline",
           "parse_example_proto", "batch_inputs", "decode_jpeg", "distort_image",
           "distort_color", "eval_image", "rescale", "resize_method_for_thread",
           "color_ordering_for_thread", "check_preprocess_threads", "convert_to_example",
           "one_hot",
           "check_semantic_level_settings", "check_record", "verify_shards",
           "infer_semantic_level_settings", "image_to_jpeg", "read_labels_csv", "shard_names",
           "build_shards", "quadrants", "dominant_colour", "write_default_data",
           "default_data_dir", "DEFAULT_SEMANTIC_LEVEL_SETTINGS"]

tf1 = tf.compat.v1

BACKENDS = ("queue", "dataset")
SUBSETS = ("train", "validation")
EXAMPLES_PER_SHARD = 1024
TRAIN_MEMORY_FACTOR = 16
EVAL_MEMORY_FACTOR = 1
TRAIN_READERS = 4
LABEL_PREFIX = "image/label/"
#: TF1 ``ResizeMethod`` numbers, in the order ``thread_id % 4`` picks them.
RESIZE_METHODS = ("bilinear", "nearest_neighbor", "bicubic", "area")
#: Colour distortion order for ``thread_id % 2``.
COLOR_ORDERINGS = (("brightness", "saturation", "hue", "contrast"),
                   ("brightness", "contrast", "saturation", "hue"))
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff")

SCENE_CLASSES = ("person", "animal", "object", "vehicle", "science")
COLOUR_CLASSES = ("red", "green", "blue")
PHOTO_SCENES: dict[str, str] = {
    "astronaut": "person", "chelsea": "animal", "coffee": "object", "rocket": "vehicle",
    "motorcycle_left": "vehicle", "motorcycle_right": "vehicle",
    "immunohistochemistry": "science", "hubble_deep_field": "science", "retina": "science"}
DEFAULT_SEMANTIC_LEVEL_SETTINGS: tuple[tuple[str, int], ...] = (
    ("scene", len(SCENE_CLASSES)), ("colour", len(COLOUR_CLASSES)))
DEFAULT_SHARDS = {"train": 4, "validation": 2}
DEFAULT_SHORT_SIDE = 320


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


# ------------------------------------------------------------------ the seed's features
def _int64_feature(value: int | list[int]) -> tf.train.Feature:
    """Wrapper for inserting int64 features into an Example (one value or a list)."""
    if not isinstance(value, list):
        value = [value]
    return int64_feature([int(v) for v in value])


def _float_feature(value: float | list[float]) -> tf.train.Feature:
    """Wrapper for inserting float features into an Example (one value or a list)."""
    if not isinstance(value, list):
        value = [value]
    return float_feature([float(v) for v in value])


def _bytes_feature(value: bytes) -> tf.train.Feature:
    """Wrapper for inserting one bytes value into an Example."""
    return bytes_feature(value)


def _convert_to_example(filename: str, image_buffer: bytes,
                        labels: Sequence[tuple[str, Sequence[int]]], height: int, width: int,
                        channels: int = 3) -> tf.train.Example:
    """The seed's Example for one image.

    ``filename`` (only its base name is stored), ``image_buffer`` (JPEG bytes of
    an RGB image), ``labels`` as ``[(level_name, one_hot list), ...]``.
    """
    feature = {"image/height": _int64_feature(height),
               "image/width": _int64_feature(width),
               "image/channels": _int64_feature(channels),
               "image/filename": _bytes_feature(tf.compat.as_bytes(os.path.basename(filename))),
               "image/encoded": _bytes_feature(tf.compat.as_bytes(image_buffer))}
    for level_name, one_hot_list in labels:
        feature.update({LABEL_PREFIX + level_name: _int64_feature(list(one_hot_list))})
    return example(feature)


convert_to_example = _convert_to_example


def one_hot(index: int, num_classes: int) -> list[int]:
    """``[0, .., 1, .., 0]`` of length ``num_classes`` with the 1 at ``index``."""
    if not 0 <= index < num_classes:
        raise ConfigError(f"class index {index} is outside 0..{num_classes - 1}")
    return [1 if i == index else 0 for i in range(num_classes)]


def check_semantic_level_settings(settings: Any) -> list[tuple[str, int]]:
    """``[(level name, class count), ...]`` checked: non-empty, unique names, counts >= 1."""
    try:
        pairs = [(level, num) for level, num in settings]
    except (TypeError, ValueError) as exc:
        raise ConfigError("semantic_level_settings must be a list of (level name, number of "
                          f"classes) pairs, got {settings!r}") from exc
    if not pairs:
        raise ConfigError("semantic_level_settings is empty; give at least one (level, n)")
    names = [level for level, _ in pairs]
    for level, num in pairs:
        if not isinstance(level, str) or not level:
            raise ConfigError(f"semantic level name must be a non-empty string, got {level!r}")
        check_positive_int(f"number of classes of level {level!r}", num)
    if len(set(names)) != len(names):
        raise ConfigError(f"semantic level names repeat: {names}")
    return [(level, int(num)) for level, num in pairs]


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


# ----------------------------------------------------------------------- preprocessing
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


def distort_color(image: tf.Tensor, thread_id: int = 0, scope: str | None = None,
                  seed: int | None = None) -> tf.Tensor:
    """Random brightness, saturation, hue and contrast in the thread's order, then
    a clip to [0, 1]. ``image``: float32 [h, w, 3] in [0, 1]."""
    ops = {
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
                  seed: int | None = None) -> tf.Tensor:
    """One training image: random crop, resize with method ``thread_id % 4``, random
    left-right flip, colour distortion in the order of ``thread_id % 2``.

    ``image``: float32 [h, w, 3] in [0, 1]; returns float32 [height, width, 3]
    in [0, 1]. The seed calls it ``distort_image(image, height, width,
    thread_id)``; ``bbox`` (float [1, boxes, 4], ymin xmin ymax xmax in 0..1)
    defaults to none, i.e. the whole image is the object, as in the original
    when a record has no boxes. ``seed`` makes every random op repeatable.
    """
    with tf1.name_scope(scope, "distort_image", [image, height, width]):
        if bbox is None:
            bbox = tf.zeros([1, 0, 4], dtype=tf.float32)
        bbox_begin, bbox_size, _ = tf1.image.sample_distorted_bounding_box(
            tf.shape(image), bounding_boxes=bbox, seed=_op_seed(seed, thread_id, 1),
            min_object_covered=0.1, aspect_ratio_range=[0.75, 1.33], area_range=[0.05, 1.0],
            max_attempts=100, use_image_if_no_bounding_boxes=True)
        distorted_image = tf.slice(image, bbox_begin, bbox_size)
        # Four TF1 resize methods, picked round robin by thread; the aspect ratio
        # is not kept.
        distorted_image = tf1.image.resize_images(distorted_image, [height, width],
                                                  method=resize_method_for_thread(thread_id))
        distorted_image.set_shape([height, width, 3])
        distorted_image = tf1.image.random_flip_left_right(distorted_image,
                                                           seed=_op_seed(seed, thread_id, 2))
        return distort_color(distorted_image, thread_id, seed=seed)


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


# ------------------------------------------------------------------------------ Dataset
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


# ------------------------------------------------------------------------- batch_inputs
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


# ---------------------------------------------------------------------- record checking
def _record_features(record: bytes) -> Any:
    return tf.train.Example.FromString(record).features.feature


def check_record(record: bytes, semantic_level_settings: Sequence[tuple[str, int]],
                 path: str = "<memory>", index: int = 0, decode_image: bool = True) -> None:
    """DataError naming file, record and field if the record lacks a key, holds the
    wrong kind or number of values, or (``decode_image``) its JPEG does not decode."""
    feature_map = _record_features(record)
    for key in ("image/encoded", "image/filename"):
        if key not in feature_map:
            raise DataError("missing feature", path=path, record=index, field=key)
        if len(feature_map[key].bytes_list.value) != 1:
            raise DataError("must hold one bytes value", path=path, record=index, field=key)
    for level, num in semantic_level_settings:
        key = LABEL_PREFIX + level
        if key not in feature_map:
            raise DataError("missing feature", path=path, record=index, field=key)
        got = len(feature_map[key].int64_list.value)
        if got != num:
            raise DataError(f"holds {got} int64 values, but semantic_level_settings gives "
                            f"{level!r} {num} classes", path=path, record=index, field=key)
    if decode_image:
        try:
            with Image.open(io.BytesIO(feature_map["image/encoded"].bytes_list.value[0])) as im:
                im.load()
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
            raise DataError(f"does not decode as an image ({exc})", path=path, record=index,
                            field="image/encoded") from exc


def verify_shards(files: Sequence[str], semantic_level_settings: Sequence[tuple[str, int]],
                  decode_images: bool = True) -> int:
    """Check every record of ``files`` (CRC, keys, label lengths, JPEG); DataError on
    the first bad one. Returns the record count."""
    count = 0
    for path in files:
        for index, record in enumerate(iterate_records(path)):
            check_record(record, semantic_level_settings, path, index, decode_images)
            count += 1
    return count


def infer_semantic_level_settings(files: Sequence[str]) -> list[tuple[str, int]]:
    """``[(level, n), ...]`` from the ``image/label/<level>`` keys of the first record
    (levels sorted by name). DataError if the files hold no record or no label."""
    for path in files:
        for index, record in enumerate(iterate_records(path)):
            feature_map = _record_features(record)
            levels = sorted((key[len(LABEL_PREFIX):], len(feature_map[key].int64_list.value))
                            for key in feature_map if key.startswith(LABEL_PREFIX))
            if not levels:
                raise DataError(f"no {LABEL_PREFIX}<level> features", path=path, record=index)
            return levels
    raise DataError(f"no records in any of the {len(files)} files", path=os.path.dirname(files[0]))


# ----------------------------------------------------------------------------- converter
def image_to_jpeg(path: str) -> tuple[bytes, int, int]:
    """``(JPEG bytes of an RGB image, height, width)`` for one image file.

    An RGB JPEG is stored as is; anything else (PNG, grayscale, CMYK...) is
    converted to RGB and encoded as JPEG at quality 100, as Inception's
    ``build_image_data.py`` did for PNGs. DataError names an unreadable file.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        with Image.open(io.BytesIO(data)) as im:
            im.load()
            if im.format == "JPEG" and im.mode == "RGB":
                return data, im.height, im.width
            buffer = io.BytesIO()
            im.convert("RGB").save(buffer, format="JPEG", quality=100)
            return buffer.getvalue(), im.height, im.width
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise DataError(f"cannot decode image ({exc})", path=path) from exc


def read_labels_csv(labels_file: str, semantic_level_settings: Sequence[tuple[str, int]]
                    ) -> dict[str, dict[str, int]]:
    """``{filename: {level: class index}}`` from a CSV with a header ``filename,<level>,...``.

    DataError naming the file, the row (1 = first data row) and the level for a
    missing column, a non-integer cell or a class outside ``0..n-1``.
    """
    if not os.path.isfile(labels_file):
        raise DataError("labels file does not exist", path=labels_file)
    with open(labels_file, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
        header = rows[0].keys() if rows else []
    needed = ["filename"] + [level for level, _ in semantic_level_settings]
    missing = [column for column in needed if column not in header]
    if missing:
        raise DataError(f"labels file lacks the columns {missing} (it has {list(header)})",
                        path=labels_file)
    labels: dict[str, dict[str, int]] = {}
    for row_number, row in enumerate(rows, start=1):
        name = row["filename"].strip()
        if name in labels:
            raise DataError(f"file {name!r} is listed twice", path=labels_file, record=row_number)
        levels = {}
        for level, num in semantic_level_settings:
            cell = (row[level] or "").strip()
            try:
                index = int(cell)
            except ValueError:
                raise DataError(f"class {cell!r} is not a whole number", path=labels_file,
                                record=row_number, field=level) from None
            if not 0 <= index < num:
                raise DataError(f"class {index} is outside 0..{num - 1} ({level!r} has {num} "
                                "classes)", path=labels_file, record=row_number, field=level)
            levels[level] = index
        labels[name] = levels
    return labels


def shard_names(subset: str, num_shards: int) -> list[str]:
    """``['train-00000-of-00004', ...]``: the Inception shard names."""
    return ["%s-%.5d-of-%.5d" % (subset, shard, num_shards) for shard in range(num_shards)]


def build_shards(image_dir: str, output_dir: str,
                 semantic_level_settings: Sequence[tuple[str, int]], subset: str = "train",
                 num_shards: int = 4,
                 labels: str | Mapping[str, Mapping[str, int]] | None = None) -> list[str]:
    """Shard a folder of labelled images into ``<output_dir>/<subset>-XXXXX-of-YYYYY``.

    ``labels``: a CSV path, a mapping ``{filename: {level: class index}}``, or
    None for ``<image_dir>/labels.csv``. Every image file of the folder must
    have labels and every labelled file must exist (DataError naming it). File
    order is shuffled with ``random.seed(12345)`` and cut into contiguous runs,
    one per shard, as Inception's converter did. All shards appear together
    when complete; shards of this subset from an earlier export with another
    shard count are removed then. Returns the shard paths.
    """
    semantic_level_settings = check_semantic_level_settings(semantic_level_settings)
    num_shards = check_positive_int("num_shards", num_shards)
    queue_inputs.check_choice("subset", subset, SUBSETS)
    if not os.path.isdir(image_dir):
        raise DataError("image directory does not exist", path=image_dir)
    if labels is None or isinstance(labels, (str, os.PathLike)):
        labels_file = os.path.join(image_dir, "labels.csv") if labels is None else os.fspath(labels)
        labels = read_labels_csv(labels_file, semantic_level_settings)
    images = sorted(name for name in os.listdir(image_dir) if name.lower().endswith(IMAGE_SUFFIXES))
    unlabelled = sorted(set(images) - set(labels))
    if unlabelled:
        raise DataError("image has no labels", path=os.path.join(image_dir, unlabelled[0]))
    if not labels:
        raise DataError("no labelled images in this directory", path=image_dir)
    filenames = sorted(labels)
    for name in filenames:
        if not os.path.isfile(os.path.join(image_dir, name)):
            raise DataError("labelled image does not exist", path=os.path.join(image_dir, name))
    order = list(range(len(filenames)))
    random.Random(12345).shuffle(order)
    filenames = [filenames[i] for i in order]
    spacing = np.linspace(0, len(filenames), num_shards + 1).astype(int)

    os.makedirs(output_dir, exist_ok=True)
    paths = [os.path.join(output_dir, name) for name in shard_names(subset, num_shards)]
    with AtomicRecordWriters(paths) as writers:
        for shard in range(num_shards):
            for name in filenames[spacing[shard]:spacing[shard + 1]]:
                path = os.path.join(image_dir, name)
                image_buffer, height, width = image_to_jpeg(path)
                one_hots = [(level, one_hot(labels[name][level], num))
                            for level, num in semantic_level_settings]
                record = _convert_to_example(path, image_buffer, one_hots, height, width)
                writers.write(shard, record.SerializeToString())
    for stale in glob.glob(os.path.join(output_dir, f"{subset}-*")):
        if stale not in paths and not stale.endswith(PARTIAL_SUFFIX):
            os.remove(stale)
    return paths


# ------------------------------------------------------------------------ embedded data
def quadrants(rgb: np.ndarray) -> list[np.ndarray]:
    """The four quadrants of an image: top-left, top-right, bottom-left, bottom-right."""
    h, w = rgb.shape[0] // 2, rgb.shape[1] // 2
    return [rgb[:h, :w], rgb[:h, w:2 * w], rgb[h:2 * h, :w], rgb[h:2 * h, w:2 * w]]


def dominant_colour(rgb: np.ndarray) -> int:
    """0 red, 1 green, 2 blue: the channel with the largest mean."""
    return int(np.argmax(rgb.reshape(-1, 3).astype(np.float64).mean(axis=0)))


def write_default_data(dest: str) -> None:
    """The embedded data set (module docstring): JPEGs and ``labels.csv`` under
    ``images/<subset>/`` and the shards ``<subset>-XXXXX-of-YYYYY`` in ``dest``."""
    for subset in SUBSETS:
        os.makedirs(os.path.join(dest, "images", subset), exist_ok=True)
    rows: dict[str, list[tuple[str, int, int]]] = {subset: [] for subset in SUBSETS}
    for name, scene in PHOTO_SCENES.items():
        photo = Image.fromarray(sample_data.load_photograph(name))
        scale = DEFAULT_SHORT_SIDE / min(photo.size)
        photo = photo.resize((round(photo.width * scale), round(photo.height * scale)),
                             Image.Resampling.BICUBIC)
        for k, part in enumerate(quadrants(np.asarray(photo))):
            subset = "train" if k < 3 else "validation"
            filename = f"{name}_q{k}.jpg"
            Image.fromarray(np.ascontiguousarray(part)).save(
                os.path.join(dest, "images", subset, filename), quality=90)
            rows[subset].append((filename, SCENE_CLASSES.index(scene), dominant_colour(part)))
    for subset in SUBSETS:
        with open(os.path.join(dest, "images", subset, "labels.csv"), "w", newline="",
                  encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["filename"] + [level for level, _ in DEFAULT_SEMANTIC_LEVEL_SETTINGS])
            writer.writerows(rows[subset])
        build_shards(os.path.join(dest, "images", subset), dest, DEFAULT_SEMANTIC_LEVEL_SETTINGS,
                     subset, DEFAULT_SHARDS[subset])


def default_data_dir() -> str:
    """The embedded data folder (built on first use under ``sample_data.data_home()``)."""
    dest = os.path.join(sample_data.data_home(), "inception_multilabel")
    return sample_data.build_folder_atomically(dest, write_default_data)


# ------------------------------------------------------------------------- uniform face
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
    the same multiset of examples per epoch.

    The last partial batch is dropped at the end (as TF1 ``batch_join``) unless
    ``allow_smaller_final_batch=True``. ``configure(batch_size=...)``: on the
    queue backend from the next ``get_batch`` (up to the batch_join capacity;
    a plain ``sess.run`` of :attr:`tensors` keeps the batch size the graph was
    built with), on the dataset backend by restarting the epoch.

    Records must hold every key (a missing one raises DataError naming file,
    record and key; the legacy :func:`parse_example_proto` instead defaults
    it, as the seed).
    """

    name = "inception_multilabel"
    Batch = Batch
    #: labels: one [B, n_level] one-hot array per level (strict parse: no -1 rows).
    FIELDS = {"images": FieldSpec("float32", (None, 299, 299, 3), "NHWC", (-1.0, 1.0)),
              "labels": FieldSpec("int32", (None, None), "NC", (0, 1)),
              "filenames": FieldSpec("object", (None,), "N", None)}

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
        self.dataset = PinnedDataset(found, self.files)
        self.semantic_level_settings = self._level_settings(semantic_level_settings, data_dir)

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

    def _build(self) -> Batch:
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
            branches = [functools.partial(distort_image, image, height, width, k,
                                          seed=self.seed) for k in range(4)]
            image = tf.switch_case(thread_id % 4, branches)
            image.set_shape([height, width, 3])
        else:
            image = eval_image(image, height, width)
        names = [level for level, _ in self.semantic_level_settings]
        return rescale(image), dict(zip(names, labels)), filename

    def _tf_dataset(self, batch_size: tf.Tensor) -> tf.data.Dataset:
        files = tf1.data.Dataset.from_tensor_slices(self.files)
        if self.train:
            files = files.shuffle(len(self.files), seed=self.seed, reshuffle_each_iteration=True)
        files = files.repeat(self.num_epochs)
        if self.train:
            records = files.interleave(tf1.data.TFRecordDataset, cycle_length=TRAIN_READERS,
                                       block_length=1)
            records = records.shuffle(self.min_queue_examples, seed=self.seed)
        else:
            records = files.flat_map(tf1.data.TFRecordDataset)
        dataset = records.enumerate().map(self._preprocess,
                                          num_parallel_calls=self.num_preprocess_threads)
        return dataset.batch(batch_size, drop_remainder=not self.allow_smaller_final_batch) \
            .prefetch(2)

    def _explain_error(self, error: tf.errors.OpError) -> DataError | None:
        """Scan the files in numpy for the first bad one (CRC, keys, sizes) and name
        it, with the original TF message."""
        found = find_corrupt_file(self.files)
        if found is None:
            try:
                verify_shards(self.files, self.semantic_level_settings)
            except DataError as bad:
                found = bad
        return queue_inputs.reader_error(found, error, self.files)
