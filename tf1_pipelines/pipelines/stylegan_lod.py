"""Seed 001: StyleGAN2 multi-resolution TFRecords (``dataset_tool.py`` and ``training/dataset.py``).

Legacy face, with the original names, arguments and defaults:

* writer: :func:`create_from_images`, :class:`TFRecordExporter` (``add_image``,
  ``add_labels``, ``choose_shuffled_order``, ``close``, context manager) and a
  command line ``python -m tf1_pipelines.pipelines.stylegan_lod create_from_images
  TFRECORD_DIR IMAGE_DIR --shuffle 1``;
* reader: :class:`TFRecordDataset` (per-LOD datasets behind one reinitializable
  iterator, ``configure``, ``get_minibatch_tf/np``, ``get_random_labels_tf/np``,
  ``parse_tfrecord_tf/np``) and :func:`load_dataset`.

Uniform face: :class:`StyleganLodPipeline` (``load_pipeline("stylegan_lod", ...)``).

Files (byte-identical to the original tool): one per level of detail (LOD),
``<tfrecord_dir>/<basename of tfrecord_dir>-rXX.tfrecords`` with XX = log2 of
that LOD's resolution, from the full resolution (LOD 0) down to 4x4. Each
record is an Example with ``shape`` (int64 [3], CHW) and ``data`` (the raw
uint8 bytes of the CHW image). LOD k+1 is LOD k halved by a 2x2 box average in
float32, then ``np.rint``, clipped to 0..255, uint8. Optional labels:
``<basename>-rxx.labels``, an ``np.save`` of a float32 [N, L] array.

Where this differs from the original (exceptions instead of ``exit``/``assert``,
publishing files only when the export completes, ...) is listed in
``docs/divergences.md``.
"""
from __future__ import annotations

import argparse
import glob
import importlib
import os
import sys
import warnings
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, NamedTuple, NoReturn

import numpy as np
import PIL.Image
import tensorflow as tf
from google.protobuf.message import DecodeError

from tf1_pipelines import sample_data
from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.records.features import bytes_feature, example, int64_feature
from tf1_pipelines.records.reader import iterate_records
from tf1_pipelines.records.writer import PARTIAL_SUFFIX, AtomicRecordWriters
from tf1_pipelines.session import Pipeline, check_positive_int

__all__ = ["TFRecordExporter", "create_from_images", "TFRecordDataset", "load_dataset",
           "StyleganLodPipeline", "Batch", "DatasetToolError", "BufferMemoryWarning",
           "DatasetLayout", "inspect_tfrecord_dir", "create_var_with_large_initial_value",
           "run", "get_obj_by_name", "find_bad_record", "parse_tfrecord_batch",
           "sample_tfrecord_dir", "main"]

tf1 = tf.compat.v1
LABELS_SUFFIX = "-rxx.labels"
MIN_RESOLUTION_LOG2 = 2  # the smallest LOD written is 4x4
READ_BUFFER_CAP_MB = 4  # buffer_mb above this reads the same records, only slower


class DatasetToolError(DataError):
    """An input the original ``dataset_tool.py`` rejected with ``error(msg)`` (which
    printed ``Error: msg`` and exited); the message starts with the original text."""


class BufferMemoryWarning(UserWarning):
    """``shuffle_mb`` / ``prefetch_mb`` could take more than half of the available memory."""


def error(msg: str, path: str | None = None) -> NoReturn:
    """The original's ``error(msg)``, as an exception instead of ``exit(1)``."""
    raise DatasetToolError(msg, path=path)


# =============================================================================== writer
def lod_file_name(tfr_prefix: str, resolution_log2: int, lod: int) -> str:
    """``<prefix>-rXX.tfrecords`` for ``lod`` of a data set of resolution 2**resolution_log2."""
    return tfr_prefix + "-r%02d.tfrecords" % (resolution_log2 - lod)


def lod_images(img: np.ndarray, num_lods: int) -> Iterator[np.ndarray]:
    """The uint8 CHW image of every LOD, full resolution first, as the original computes
    them: each step a 2x2 box average in float32, every LOD ``np.rint``, clip, uint8."""
    for lod in range(num_lods):
        if lod:
            img = img.astype(np.float32)
            img = (img[:, 0::2, 0::2] + img[:, 0::2, 1::2] + img[:, 1::2, 0::2]
                   + img[:, 1::2, 1::2]) * 0.25
        yield np.rint(img).clip(0, 255).astype(np.uint8)


def serialize_image(quant: np.ndarray) -> bytes:
    """One record: an Example with ``shape`` (int64 [3]) and ``data`` (raw uint8 bytes)."""
    return example({"shape": int64_feature([int(n) for n in quant.shape]),
                    "data": bytes_feature(quant.tobytes())}).SerializeToString()


def check_first_image_shape(shape: tuple[int, ...], path: str | None = None) -> int:
    """The log2 resolution of a CHW shape that can start a data set, else DatasetToolError."""
    if len(shape) != 3:
        error(f"Input images must be stored as RGB or grayscale (got an array of shape {shape}; "
              "add_image takes CHW)", path)
    channels, height, width = shape
    if height != width:
        error(f"Input images must have the same width and height (got {width}x{height})", path)
    resolution_log2 = int(np.log2(height)) if height > 0 else 0
    if height != 2 ** resolution_log2:
        error(f"Input image resolution must be a power-of-two (got {height})", path)
    if resolution_log2 < MIN_RESOLUTION_LOG2:
        error(f"Input image resolution must be at least 4 to make any LOD (got {height})", path)
    if channels not in (1, 3):
        error(f"Input images must be stored as RGB or grayscale (got {channels} channels)", path)
    return resolution_log2


class TFRecordExporter:
    """Writes images into one TFRecord file per LOD, as the original tool does.

    Files are written under temporary names (``*.tfrecords.partial``) and renamed
    into place by :meth:`close` (or on leaving the ``with`` block normally); an
    exception in the ``with`` block, or :meth:`abort`, deletes them, so an
    interrupted export leaves no ``*.tfrecords``. Labels given to
    :meth:`add_labels` before closing are published with the images.
    """

    def __init__(self, tfrecord_dir: str, expected_images: int, print_progress: bool = True,
                 progress_interval: int = 10) -> None:
        self.tfrecord_dir = os.fspath(tfrecord_dir)
        name = os.path.basename(os.path.normpath(self.tfrecord_dir))  # "out/" is "out" too
        self.tfr_prefix = os.path.join(self.tfrecord_dir, name)
        self.expected_images = expected_images
        self.cur_images = 0
        self.shape: tuple[int, ...] | None = None
        self.resolution_log2: int | None = None
        self.print_progress = print_progress
        self.progress_interval = check_positive_int("progress_interval", progress_interval)
        self._writers: AtomicRecordWriters | None = None
        self._staged_labels: str | None = None
        self._closed = False
        if self.print_progress:
            print('Creating dataset "%s"' % tfrecord_dir)
        os.makedirs(self.tfrecord_dir, exist_ok=True)

    @property
    def labels_path(self) -> str:
        """Where :meth:`add_labels` publishes the labels."""
        return self.tfr_prefix + LABELS_SUFFIX

    def close(self) -> None:
        """Publish every LOD file (and staged labels); remove this prefix's stale LOD
        files and labels left by an earlier export. Idempotent."""
        if self._closed:
            return
        if self.print_progress:
            print("%-40s\r" % "Flushing data...", end="", flush=True)
        published = self._writers.commit() if self._writers is not None else []
        if self._staged_labels is not None:
            os.replace(self._staged_labels, self.labels_path)
            self._staged_labels = None
        if published:
            self._remove_stale(published)
        self._closed = True
        if self.print_progress:
            print("%-40s\r" % "", end="", flush=True)
            print("Added %d images." % self.cur_images)

    def abort(self) -> None:
        """Delete every temporary file; nothing is published. Idempotent."""
        if self._closed:
            return
        if self._writers is not None:
            self._writers.abort()
        if self._staged_labels is not None and os.path.exists(self._staged_labels):
            os.remove(self._staged_labels)
        self._staged_labels = None
        self._closed = True

    def _remove_stale(self, published: list[str]) -> None:
        keep = set(published)
        for path in glob.glob(glob.escape(self.tfr_prefix) + "-r[0-9][0-9].tfrecords"):
            if path not in keep:
                os.remove(path)

    def choose_shuffled_order(self) -> np.ndarray:
        """``np.arange(expected_images)`` shuffled by ``np.random.RandomState(123)``.
        Images and labels must be added in this order."""
        order = np.arange(self.expected_images)
        np.random.RandomState(123).shuffle(order)
        return order

    def add_image(self, img: np.ndarray) -> None:
        """Append one image, uint8-compatible CHW ([1 or 3, R, R], R a power of two >= 4),
        to every LOD file. Every image must have the first image's shape."""
        if self._closed:
            raise RuntimeError(f"TFRecordExporter for {self.tfrecord_dir!r} is closed")
        img = np.asarray(img)
        if self.print_progress and self.cur_images % self.progress_interval == 0:
            print("%d / %d\r" % (self.cur_images, self.expected_images), end="", flush=True)
        if self.shape is None:
            self.resolution_log2 = check_first_image_shape(img.shape)
            self.shape = img.shape
            paths = [lod_file_name(self.tfr_prefix, self.resolution_log2, lod)
                     for lod in range(self.resolution_log2 - 1)]
            self._writers = AtomicRecordWriters(paths)
        if img.shape != self.shape:
            raise DataError(f"image {self.cur_images} has shape {img.shape}, but the first image "
                            f"had {self.shape}; all images must have one shape (CHW)")
        for lod, quant in enumerate(lod_images(img, len(self._writers))):
            self._writers.write(lod, serialize_image(quant))
        self.cur_images += 1

    def add_labels(self, labels: np.ndarray) -> None:
        """Save ``labels`` (one row per image added so far) as float32 with ``np.save``
        to ``<prefix>-rxx.labels``: published by :meth:`close`, or at once if closed."""
        if self.print_progress:
            print("%-40s\r" % "Saving labels...", end="", flush=True)
        labels = np.asarray(labels)
        if labels.ndim < 1 or labels.shape[0] != self.cur_images:
            rows = labels.shape[0] if labels.ndim else "no"
            raise DataError(f"labels have {rows} rows, but {self.cur_images} images were added; "
                            "add_labels needs one row per image", path=self.labels_path)
        partial = self.labels_path + PARTIAL_SUFFIX
        with open(partial, "wb") as f:
            np.save(f, labels.astype(np.float32))
        if self._closed:
            os.replace(partial, self.labels_path)
        else:
            self._staged_labels = partial

    def __enter__(self) -> "TFRecordExporter":
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


def read_image_array(path: str) -> np.ndarray:
    """``np.asarray(PIL.Image.open(path))`` as the original reads images (no mode
    conversion), with a DataError naming the file if it cannot be decoded."""
    try:
        with PIL.Image.open(path) as im:
            return np.asarray(im)
    except (OSError, SyntaxError, ValueError) as exc:  # PIL.UnidentifiedImageError is an OSError
        raise DataError(f"cannot decode image ({exc})", path=path) from exc


def create_from_images(tfrecord_dir: str, image_dir: str, shuffle: int | bool) -> None:
    """Export every file of ``image_dir`` (sorted; all square, one power-of-two size,
    RGB or grayscale) into ``tfrecord_dir``, in ``choose_shuffled_order()`` if
    ``shuffle`` else in name order. Bad input raises DatasetToolError/DataError
    naming the file; nothing is published then."""
    print('Loading images from "%s"' % image_dir)
    image_filenames = sorted(glob.glob(os.path.join(glob.escape(os.fspath(image_dir)), "*")))
    if len(image_filenames) == 0:
        error("No input images found", os.fspath(image_dir))
    img = read_image_array(image_filenames[0])
    resolution = img.shape[0]
    channels = img.shape[2] if img.ndim == 3 else 1
    if img.shape[1] != resolution:
        error("Input images must have the same width and height", image_filenames[0])
    if resolution != 2 ** int(np.floor(np.log2(resolution))):
        error("Input image resolution must be a power-of-two", image_filenames[0])
    if channels not in [1, 3]:
        error("Input images must be stored as RGB or grayscale", image_filenames[0])
    first_shape = img.shape
    with TFRecordExporter(tfrecord_dir, len(image_filenames)) as tfr:
        order = tfr.choose_shuffled_order() if shuffle else np.arange(len(image_filenames))
        for idx in range(order.size):
            path = image_filenames[order[idx]]
            img = read_image_array(path)
            if img.shape != first_shape:
                raise DataError(f"image has shape {img.shape} (HWC), but the first image "
                                f"{image_filenames[0]!r} has {first_shape}", path=path)
            if channels == 1:
                img = img[np.newaxis, :, :]  # HW => CHW
            else:
                img = img.transpose([2, 0, 1])  # HWC => CHW
            tfr.add_image(img)


def main(argv: Sequence[str] | None = None) -> int:
    """The original's command line (``create_from_images`` only). Returns the exit code."""
    argv = list(sys.argv if argv is None else argv)
    prog = "python -m tf1_pipelines.pipelines.stylegan_lod"
    parser = argparse.ArgumentParser(
        prog=prog, description="Tool for creating multi-resolution TFRecords datasets.",
        epilog='Type "%s <command> -h" for more information.' % prog)
    subparsers = parser.add_subparsers(dest="command")
    subparsers.required = True
    p = subparsers.add_parser("create_from_images",
                              description="Create dataset from a directory full of images.",
                              help="Create dataset from a directory full of images.",
                              epilog=f"Example: {prog} create_from_images datasets/mydataset "
                                     "myimagedir")
    p.add_argument("tfrecord_dir", help="New dataset directory to be created")
    p.add_argument("image_dir", help="Directory containing the images")
    p.add_argument("--shuffle", help="Randomize image order (default: 1)", type=int, default=1)
    args = parser.parse_args(argv[1:] if len(argv) > 1 else ["-h"])
    try:
        create_from_images(args.tfrecord_dir, args.image_dir, args.shuffle)
    except DataError as exc:
        print("Error: " + str(exc))
        return 1
    return 0


# =========================================================================== reading
def parse_tfrecord_np(record: bytes) -> np.ndarray:
    """One record -> uint8 array of its ``shape`` (CHW). DataError naming the field
    when the record is not such an Example."""
    ex = tf.train.Example()
    try:
        ex.ParseFromString(record)
    except DecodeError as exc:
        raise DataError(f"record is not a tf.train.Example ({exc})") from exc
    feature = ex.features.feature
    for key in ("shape", "data"):
        if key not in feature:
            raise DataError("missing feature", field=key)
    shape = list(feature["shape"].int64_list.value)
    values = feature["data"].bytes_list.value
    if len(shape) != 3:
        raise DataError(f"holds {len(shape)} int64 values, expected 3 (CHW)", field="shape")
    if len(values) != 1:
        raise DataError(f"holds {len(values)} bytes values, expected 1", field="data")
    data = np.frombuffer(values[0], np.uint8)
    if data.size != int(np.prod(shape)):
        raise DataError(f"holds {data.size} bytes, but shape {shape} needs {int(np.prod(shape))}",
                        field="data")
    return data.reshape(shape).copy()


def parse_tfrecord_tf(record: tf.Tensor) -> tf.Tensor:
    """One serialized record -> uint8 tensor of rank 3 (CHW), in the graph."""
    features = tf1.parse_single_example(record, features={
        "shape": tf1.FixedLenFeature([3], tf.int64),
        "data": tf1.FixedLenFeature([], tf.string)})
    data = tf1.decode_raw(features["data"], tf.uint8)
    return tf.reshape(data, features["shape"])


def _fixed_pipeline_options() -> tf.data.Options:
    """Options that run a dataset as written: no graph rewrites, no autotuning."""
    options = tf.data.Options()
    options.experimental_optimization.apply_default_optimizations = False
    options.autotune.enabled = False
    return options


def parse_tfrecord_batch(records: tf.Tensor) -> tf.Tensor:
    """Serialized records [B] of one shape -> uint8 [B, C, H, W]: what
    ``parse_tfrecord_tf`` and ``batch`` give together, in four ops. Records whose
    data differ in length fail (InvalidArgumentError), as batching their images
    would; records of equal length are given the first record's shape."""
    features = tf1.parse_example(records, features={
        "shape": tf1.FixedLenFeature([3], tf.int64),
        "data": tf1.FixedLenFeature([], tf.string)})
    data = tf.io.decode_raw(features["data"], tf.uint8)
    return tf.reshape(data, tf.concat([[-1], features["shape"][0]], axis=0))


def _parse_at(record: bytes, path: str, index: int) -> np.ndarray:
    try:
        return parse_tfrecord_np(record)
    except DataError as exc:
        message, where = str(exc), f"field {exc.field!r}: "
        message = message[len(where):] if message.startswith(where) else message
        raise DataError(message, path=path, record=index, field=exc.field) from exc


def find_bad_record(path: str, expected_shape: Sequence[int] | None = None) -> DataError | None:
    """The DataError for the first unreadable or misshapen record of ``path``, or None."""
    try:
        for index, record in enumerate(iterate_records(path)):
            shape = _parse_at(record, path, index).shape
            if expected_shape is not None and list(shape) != list(expected_shape):
                return DataError(f"image has shape {list(shape)}, this file's LOD needs "
                                 f"{list(expected_shape)}", path=path, record=index, field="shape")
    except DataError as found:
        return found
    return None


def _first_shape(path: str) -> tuple[int, ...]:
    for record in iterate_records(path):
        return _parse_at(record, path, 0).shape
    raise DataError("holds no records (an empty export?)", path=path)


@dataclass
class DatasetLayout:
    """What a tfrecord_dir holds, found by reading the first record of each file.

    ``files``/``shapes``/``lods`` are parallel lists over the usable files (LOD >= 0),
    ``labels`` is float32 [N, L] (N = 1<<30 and L = 0 without labels), as the original.
    """

    tfrecord_dir: str
    files: list[str]
    shapes: list[tuple[int, ...]]
    lods: list[int]
    resolution: int
    resolution_log2: int
    shape: list[int]
    num_images: int
    max_images: int | None
    label_file: str | None
    labels: np.ndarray

    def file_for(self, lod: int) -> str:
        """The file of one LOD."""
        return self.files[self.lods.index(lod)]

    def shape_for(self, lod: int) -> tuple[int, ...]:
        """The CHW image shape of one LOD."""
        return self.shapes[self.lods.index(lod)]


def _find_label_file(tfrecord_dir: str, label_file: str | None) -> str | None:
    """The original's autodetection: the first ``*.labels`` if None; a relative name
    is looked up in ``tfrecord_dir`` when it is not a file as given."""
    if label_file is None:
        guess = sorted(glob.glob(os.path.join(glob.escape(tfrecord_dir), "*.labels")))
        return guess[0] if guess else None
    if not os.path.isfile(label_file):
        guess = os.path.join(tfrecord_dir, label_file)
        if os.path.isfile(guess):
            return guess
    return label_file


def _check_max_label_size(max_label_size: Any) -> int | str:
    if max_label_size == "full":
        return "full"
    if isinstance(max_label_size, bool) or not isinstance(max_label_size, (int, np.integer)) \
            or max_label_size < 0:
        raise ConfigError(f"max_label_size must be 'full' or a whole number >= 0, "
                          f"got {max_label_size!r}")
    return int(max_label_size)


def _load_labels(label_file: str, max_label_size: int | str, max_images: int | None,
                 num_images: int) -> np.ndarray:
    if not os.path.isfile(label_file):
        raise DataError("labels file does not exist", path=label_file)
    try:
        labels = np.load(label_file, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read labels with np.load(allow_pickle=False) ({exc})",
                        path=label_file) from exc
    if not isinstance(labels, np.ndarray) or labels.ndim != 2 or labels.dtype.kind not in "biuf":
        shape, dtype = getattr(labels, "shape", None), getattr(labels, "dtype", None)
        raise DataError(f"labels must be a 2-D numeric array [images, components], got shape "
                        f"{shape} of {dtype}", path=label_file)
    if max_label_size != "full" and labels.shape[1] > max_label_size:
        labels = labels[:, :max_label_size]
    if max_images is not None and labels.shape[0] > max_images:
        labels = labels[:max_images]
    used = num_images if max_images is None else min(num_images, max_images)
    if labels.shape[0] < used:
        raise DataError(f"labels file has {labels.shape[0]} rows, but the data set has {used} "
                        "images; it needs one row per image", path=label_file)
    return labels


def _check_lod_shapes(tfrecord_dir: str, files: list[str], shapes: list[tuple[int, ...]],
                      resolution: int, resolution_log2: int) -> list[int]:
    """The LOD of every file; DataError for the original's failed assertions."""
    channels = {shape[0] for shape in shapes}
    if len(channels) > 1:
        listing = ", ".join(f"{os.path.basename(f)} has {s[0]}" for f, s in zip(files, shapes))
        raise DataError(f"files with inconsistent channel counts: {listing}", path=tfrecord_dir)
    lods = []
    for path, shape in zip(files, shapes):
        if shape[1] != shape[2]:
            raise DataError(f"images are {shape[2]}x{shape[1]}, not square", path=path,
                            field="shape")
        lod = resolution_log2 - int(np.log2(max(shape[1], 1)))
        expected = resolution >> lod if lod >= 0 else resolution << -lod
        if shape[1] != expected:
            raise DataError(f"images are {shape[1]}x{shape[1]}, which is no level of detail of "
                            f"resolution {resolution} (sizes {resolution} / 2**lod)", path=path,
                            field="shape")
        lods.append(lod)
    usable = [lod for lod in lods if lod >= 0]
    duplicates = sorted({lod for lod in usable if usable.count(lod) > 1})
    if duplicates:
        names = [os.path.basename(f) for f, lod in zip(files, lods) if lod == duplicates[0]]
        raise DataError(f"several files hold LOD {duplicates[0]}: {names}; keep one data set per "
                        "directory", path=tfrecord_dir)
    missing = [lod for lod in range(resolution_log2 - 1) if lod not in usable]
    if missing:
        wanted = ", ".join(f"LOD {lod} ({resolution >> lod}x{resolution >> lod}, "
                           f"-r{resolution_log2 - lod:02d}.tfrecords)" for lod in missing)
        raise DataError(f"missing {wanted}; found LODs {sorted(usable)}", path=tfrecord_dir)
    return lods


def inspect_tfrecord_dir(tfrecord_dir: str, resolution: int | None = None,
                         label_file: str | None = None, max_label_size: int | str = 0,
                         max_images: int | None = None) -> DatasetLayout:
    """Check a tfrecord_dir as the original constructor does (with clear errors
    instead of assertions) and load its labels with ``allow_pickle=False``."""
    tfrecord_dir = os.fspath(tfrecord_dir)
    if not os.path.isdir(tfrecord_dir):
        raise DataError("tfrecord_dir does not exist or is not a directory", path=tfrecord_dir)
    all_files = sorted(glob.glob(os.path.join(glob.escape(tfrecord_dir), "*.tfrecords")))
    if not all_files:
        partial = glob.glob(os.path.join(glob.escape(tfrecord_dir), "*.tfrecords" + PARTIAL_SUFFIX))
        hint = " (only temporary files of an unfinished export)" if partial else ""
        raise DataError(f"no .tfrecords files in this directory{hint}", path=tfrecord_dir)
    max_label_size = _check_max_label_size(max_label_size)
    if max_images is not None:
        max_images = check_positive_int("max_images", max_images)
    all_shapes = [_first_shape(path) for path in all_files]
    max_shape = max(all_shapes, key=np.prod)
    if resolution is None:
        resolution = int(max_shape[1])
    else:
        resolution = check_positive_int("resolution", resolution)
        if resolution != 2 ** int(np.log2(resolution)):
            raise ConfigError(f"resolution must be a power of two, got {resolution}")
    resolution_log2 = int(np.log2(resolution))
    all_lods = _check_lod_shapes(tfrecord_dir, all_files, all_shapes, resolution, resolution_log2)
    usable = [i for i, lod in enumerate(all_lods) if lod >= 0]
    files = [all_files[i] for i in usable]
    shapes = [all_shapes[i] for i in usable]
    lods = [all_lods[i] for i in usable]
    smallest = files[lods.index(max(lods))]
    num_images = sum(1 for _ in iterate_records(smallest))
    label_file = _find_label_file(tfrecord_dir, label_file)
    labels = np.zeros([1 << 30, 0], dtype=np.float32)
    if label_file is not None and max_label_size != 0:
        labels = _load_labels(label_file, max_label_size, max_images, num_images)
    return DatasetLayout(tfrecord_dir=tfrecord_dir, files=files, shapes=shapes, lods=lods,
                         resolution=resolution, resolution_log2=resolution_log2,
                         shape=[int(max_shape[0]), resolution, resolution],
                         num_images=num_images, max_images=max_images, label_file=label_file,
                         labels=labels)


def memory_available_bytes() -> int | None:
    """Memory available to new allocations (Linux ``MemAvailable``), or None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def buffer_items(megabytes: int, bytes_per_item: int) -> int:
    """How many items a buffer of ``megabytes`` holds, rounded up (the original's formula)."""
    return int(((megabytes << 20) - 1) // bytes_per_item + 1)


def warn_if_buffers_too_big(layout: DatasetLayout, shuffle_mb: int, prefetch_mb: int) -> None:
    """BufferMemoryWarning when the LOD-0 shuffle and prefetch buffers could take more
    than half of the available memory (each holds at most one epoch of images)."""
    available = memory_available_bytes()
    if available is None:
        return
    item = int(np.prod(layout.shape_for(0)))
    data_set = item * layout.num_images
    need = sum(min(buffer_items(mb, item) * item, data_set)
               for mb in (shuffle_mb, prefetch_mb) if mb > 0)
    if need > available // 2:
        warnings.warn(f"shuffle_mb={shuffle_mb} and prefetch_mb={prefetch_mb} could hold "
                      f"{need >> 20} MB of LOD-0 images, more than half of the "
                      f"{available >> 20} MB of memory available; lower them (0 disables)",
                      BufferMemoryWarning, stacklevel=3)


# ------------------------------------------------------------------ tflib / dnnlib parts
def _default_session_for(graph: tf.Graph | None, what: str) -> Any:
    sess = tf1.get_default_session()
    if sess is None:
        raise RuntimeError(f"No default TensorFlow session found for {what}: run it inside "
                           "`with tf.compat.v1.Session().as_default():` (the original called "
                           "dnnlib.tflib.init_tf() first)")
    if graph is not None and sess.graph is not graph:
        raise RuntimeError(f"the default session runs another graph than the one {what} was "
                           "built in; make a session on that graph the default")
    return sess


def run(*args: Any, **kwargs: Any) -> Any:
    """``tflib.run``: run the given fetches in the default session."""
    return _default_session_for(None, "tflib.run").run(*args, **kwargs)


def create_var_with_large_initial_value(initial_value: np.ndarray, *args: Any,
                                        **kwargs: Any) -> tf.Variable:
    """A ``tf.Variable`` holding ``initial_value`` without a constant of that size in the
    graph: its initializer takes the value from Python (``tf.numpy_function``), so
    any initializer run (ours, the user's, ``global_variables_initializer``) loads
    it. As ``tflib`` did, the value is set at once when a default session on this
    graph exists."""
    return _large_value_variable(initial_value, True, *args, **kwargs)


def _large_value_variable(value: np.ndarray, load_now: bool, *args: Any,
                          **kwargs: Any) -> tf.Variable:
    if not isinstance(value, np.ndarray):
        raise TypeError(f"initial_value must be a numpy array, got {type(value).__name__}")
    loaded = tf.numpy_function(lambda: value, [], tf.as_dtype(value.dtype), name="initial_value")
    loaded.set_shape(value.shape)
    var = tf1.Variable(loaded, *args, **kwargs)
    sess = tf1.get_default_session()
    if load_now and sess is not None and sess.graph is var.graph:
        sess.run(var.initializer)
    return var


def get_obj_by_name(name: str) -> Any:
    """``dnnlib.util.get_obj_by_name``: the object at a dotted ``module.attr`` path,
    importing the longest module prefix that exists."""
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:split])
        try:
            obj: Any = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and not module_name.startswith(exc.name):
                raise  # the module exists but one of its imports does not
            continue
        try:
            for attr in parts[split:]:
                obj = getattr(obj, attr)
        except AttributeError as exc:
            raise ImportError(f"{module_name!r} has no {'.'.join(parts[split:])!r}") from exc
        return obj
    raise ImportError(f"cannot find {name!r}: no importable module prefix")


# ------------------------------------------------------------------------- the dataset
def check_reader_options(repeat: bool, shuffle_mb: int, prefetch_mb: int, buffer_mb: int,
                         num_threads: int) -> None:
    """ConfigError for option values the original would have failed on later."""
    for name, value in (("shuffle_mb", shuffle_mb), ("prefetch_mb", prefetch_mb),
                        ("buffer_mb", buffer_mb)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ConfigError(f"{name} must be a whole number of megabytes >= 0, got {value!r}")
    check_positive_int("num_threads", num_threads)
    if not isinstance(repeat, (bool, np.bool_)):
        raise ConfigError(f"repeat must be True or False, got {repeat!r}")


class TFRecordDataset:
    """Loads a multi-resolution data set from its tfrecords files, as StyleGAN2 did.

    Each LOD gets a dataset read -> zip labels -> shuffle (``shuffle_mb`` of
    images) -> repeat -> prefetch (``prefetch_mb``) -> batch (the ``minibatch_in``
    placeholder) -> parse (``num_threads`` batches at once), which serves what the
    original's read -> parse -> zip -> ... -> batch served; one reinitializable
    iterator serves them all, switched by :meth:`configure`. Images are uint8
    [B, C, H, W] in 0..255; labels float32 [B, label_size].

    Arguments: ``resolution`` (None: autodetect; a lower power of two ignores the
    larger files), ``label_file`` (None: the first ``*.labels``; a relative name is
    looked up in ``tfrecord_dir``), ``max_label_size`` (0: no labels, 'full': all
    components, N: the first N), ``max_images`` (None: all), ``repeat``,
    ``shuffle_mb`` (0: no shuffling), ``prefetch_mb`` (0: no prefetching),
    ``buffer_mb`` (read buffer), ``num_threads`` (parallel parsing).
    """

    def __init__(self, tfrecord_dir: str, resolution: int | None = None,
                 label_file: str | None = None, max_label_size: int | str = 0,
                 max_images: int | None = None, repeat: bool = True, shuffle_mb: int = 4096,
                 prefetch_mb: int = 2048, buffer_mb: int = 256, num_threads: int = 2) -> None:
        check_reader_options(repeat, shuffle_mb, prefetch_mb, buffer_mb, num_threads)
        layout = inspect_tfrecord_dir(tfrecord_dir, resolution, label_file, max_label_size,
                                      max_images)
        warn_if_buffers_too_big(layout, shuffle_mb, prefetch_mb)
        if tf.executing_eagerly():
            raise RuntimeError("TFRecordDataset builds TF1 graph tensors: create it inside "
                               "`with tf.Graph().as_default():` (or after "
                               "tf.compat.v1.disable_eager_execution()), as StyleGAN2 did")
        self._setup(layout, repeat, shuffle_mb, prefetch_mb, buffer_mb, num_threads)

    @classmethod
    def from_layout(cls, layout: DatasetLayout,
                    repeat: bool = True, shuffle_mb: int = 4096, prefetch_mb: int = 2048,
                    buffer_mb: int = 256, num_threads: int = 2,
                    minibatch_in: tf.Tensor | None = None) -> "TFRecordDataset":
        """Build the graph side for an already inspected directory (no file reads,
        no session use); ``minibatch_in`` replaces the int64 [] batch-size placeholder."""
        check_reader_options(repeat, shuffle_mb, prefetch_mb, buffer_mb, num_threads)
        dataset = cls.__new__(cls)
        dataset._setup(layout, repeat, shuffle_mb, prefetch_mb, buffer_mb, num_threads,
                       minibatch_in, load_labels_now=False)
        return dataset

    def _setup(self, layout: DatasetLayout, repeat: bool, shuffle_mb: int, prefetch_mb: int,
               buffer_mb: int, num_threads: int, minibatch_in: tf.Tensor | None = None,
               load_labels_now: bool = True) -> None:
        self.layout = layout
        self.tfrecord_dir = layout.tfrecord_dir
        self.resolution = layout.resolution
        self.resolution_log2 = layout.resolution_log2
        self.shape = list(layout.shape)  # [channels, height, width]
        self.dtype = "uint8"
        self.dynamic_range = [0, 255]
        self.label_file = layout.label_file
        self._np_labels = layout.labels
        self.label_size = self._np_labels.shape[1]
        self.label_dtype = self._np_labels.dtype.name
        self._tf_datasets: dict[int, tf.data.Dataset] = {}
        self._tf_minibatch_np: Any = None
        self._cur_minibatch = -1
        self._cur_lod = -1
        self._graph = tf1.get_default_graph()
        self._labels_ready: weakref.WeakSet[Any] = weakref.WeakSet()
        with tf.name_scope("Dataset"), tf.device("/cpu:0"):
            self._tf_minibatch_in = minibatch_in if minibatch_in is not None else \
                tf1.placeholder(tf.int64, name="minibatch_in", shape=[])
            self._tf_labels_var = _large_value_variable(
                self._np_labels, load_now=load_labels_now, name="labels_var", trainable=False)
            if self.label_size > 0:
                self._tf_labels_dataset = tf.data.Dataset.from_tensor_slices(self._tf_labels_var)
            else:
                # The original sliced its [1<<30, 0] variable; today's TensorSliceDataset
                # spends seconds per initialisation on 2**30 rows. An endless empty row
                # zips with the images the same way.
                self._tf_labels_dataset = tf.data.Dataset.from_tensors(
                    tf.zeros([0], self._np_labels.dtype)).repeat()
            for tfr_file, tfr_shape, tfr_lod in zip(layout.files, layout.shapes, layout.lods):
                self._tf_datasets[tfr_lod] = self._lod_dataset(
                    tfr_file, tfr_shape, layout.max_images, repeat, shuffle_mb, prefetch_mb,
                    buffer_mb, num_threads)
            self._tf_iterator = tf1.data.Iterator.from_structure(
                tf1.data.get_output_types(self._tf_datasets[0]),
                tf1.data.get_output_shapes(self._tf_datasets[0]))
            self._tf_init_ops = {lod: self._tf_iterator.make_initializer(dset)
                                 for lod, dset in self._tf_datasets.items()}

    def _lod_dataset(self, tfr_file: str, tfr_shape: tuple[int, ...], max_images: int | None,
                     repeat: bool, shuffle_mb: int, prefetch_mb: int, buffer_mb: int,
                     num_threads: int) -> tf.data.Dataset:
        """The original's chain with the same data, done cheaper (docs/divergences.md):

        * the read buffer is at most ``READ_BUFFER_CAP_MB`` (4) and the file's size: it
          is allocated anew for every pass over the file, and bigger buffers (fresh
          pages every epoch) cost more than the reads gained; the records are the same;
        * records are shuffled, prefetched and batched still serialized, and each
          batch is parsed at once (``num_threads`` batches in parallel): parsing is
          deterministic, so this serves what parse -> shuffle -> batch served;
        * tf.data's graph rewrites and autotuning are off: every buffer and thread
          count is given, and rewriting the chain at every initialisation made
          configure() take tens of milliseconds;
        * the shuffle and prefetch buffers hold at most one epoch of images: a bigger
          shuffle buffer shuffles the same way, but today's ShuffleDataset allocates
          all its slots up front (2 GB of slots for 4x4 images at shuffle_mb=4096,
          seconds per configure()), and a prefetch buffer after repeat() would loop
          over the data until it held prefetch_mb of images (44 million 4x4 images).
        """
        read_buffer = min(min(buffer_mb, READ_BUFFER_CAP_MB) << 20, os.path.getsize(tfr_file))
        dset = tf1.data.TFRecordDataset(tfr_file, compression_type="", buffer_size=read_buffer)
        if max_images is not None:
            dset = dset.take(max_images)
        dset = tf1.data.Dataset.zip((dset, self._tf_labels_dataset))
        bytes_per_item = int(np.prod(tfr_shape)) * np.dtype(self.dtype).itemsize
        epoch = self.layout.num_images if max_images is None else \
            min(self.layout.num_images, max_images)
        if shuffle_mb > 0:
            dset = dset.shuffle(max(1, min(buffer_items(shuffle_mb, bytes_per_item), epoch)))
        if repeat:
            dset = dset.repeat()
        if prefetch_mb > 0:
            dset = dset.prefetch(max(1, min(buffer_items(prefetch_mb, bytes_per_item), epoch)))
        dset = dset.batch(self._tf_minibatch_in)
        dset = dset.map(lambda records, labels: (parse_tfrecord_batch(records), labels),
                        num_parallel_calls=num_threads)
        return dset.with_options(_fixed_pipeline_options())

    @property
    def lods(self) -> list[int]:
        """The levels of detail this data set can serve, 0 = full resolution."""
        return sorted(self._tf_datasets)

    def close(self) -> None:
        """Nothing to release (as the original)."""

    def check_configuration(self, minibatch_size: Any, lod: Any = 0) -> tuple[int, int]:
        """``(minibatch_size, int(np.floor(lod)))``, or ConfigError naming the valid LODs."""
        minibatch_size = check_positive_int("minibatch_size", minibatch_size)
        try:
            lod = int(np.floor(lod))
        except (TypeError, ValueError, OverflowError):
            raise ConfigError(f"lod must be a number, got {lod!r}; valid LODs: {self.lods}") \
                from None
        if lod not in self._tf_datasets:
            raise ConfigError(f"lod {lod} does not exist in {self.tfrecord_dir!r}; valid LODs: "
                              f"{self.lods} (0 = {self.resolution}x{self.resolution})")
        return minibatch_size, lod

    def configure(self, minibatch_size: int, lod: float = 0) -> None:
        """Serve minibatches of ``minibatch_size`` at LOD ``floor(lod)`` from
        :meth:`get_minibatch_tf`; re-initialises the iterator (restarting that LOD's
        data) in the default session only when either changed."""
        minibatch_size, lod = self.check_configuration(minibatch_size, lod)
        if self._cur_minibatch != minibatch_size or self._cur_lod != lod:
            sess = _default_session_for(self._graph, "TFRecordDataset.configure")
            self.ensure_labels_loaded(sess)
            sess.run(self._tf_init_ops[lod], {self._tf_minibatch_in: minibatch_size})
            self._cur_minibatch = minibatch_size
            self._cur_lod = lod

    def ensure_labels_loaded(self, sess: Any) -> None:
        """Initialise the labels variable in ``sess`` if nothing has yet."""
        if sess in self._labels_ready:
            return
        with self._graph.as_default():
            ready = sess.run(tf1.is_variable_initialized(self._tf_labels_var))
        if not ready:
            sess.run(self._tf_labels_var.initializer)
        self._labels_ready.add(sess)

    def get_minibatch_tf(self) -> tuple[tf.Tensor, tf.Tensor]:
        """``(images, labels)`` tensors: uint8 [B, C, H, W] and label_dtype [B, label_size]."""
        with self._graph.as_default():
            return self._tf_iterator.get_next()

    def get_minibatch_np(self, minibatch_size: int,
                         lod: float = 0) -> tuple[np.ndarray, np.ndarray]:
        """The next minibatch as numpy arrays, run in the default session. Raises
        OutOfRangeError at the end of a non-repeating data set, as the original."""
        self.configure(minibatch_size, lod)
        with self._graph.as_default(), tf.name_scope("Dataset"):
            if self._tf_minibatch_np is None:
                self._tf_minibatch_np = self.get_minibatch_tf()
        try:
            return run(self._tf_minibatch_np)
        except tf.errors.OutOfRangeError:
            raise
        except tf.errors.OpError as exc:
            found = self.explain_error(self._cur_lod)
            if found is not None:
                raise found from exc
            raise

    def explain_error(self, lod: int) -> DataError | None:
        """A DataError naming the bad record of ``lod``'s file, if one is bad."""
        return find_bad_record(self.layout.file_for(lod), self.layout.shape_for(lod))

    def get_random_labels_tf(self, minibatch_size: int | tf.Tensor) -> tf.Tensor:
        """Labels of random images as a tensor [minibatch_size, label_size]."""
        with self._graph.as_default(), tf.name_scope("Dataset"):
            if self.label_size > 0:
                with tf.device("/cpu:0"):
                    return tf.gather(self._tf_labels_var, tf1.random_uniform(
                        [minibatch_size], 0, self._np_labels.shape[0], dtype=tf.int32))
            return tf.zeros([minibatch_size, 0], self.label_dtype)

    def get_random_labels_np(self, minibatch_size: int) -> np.ndarray:
        """Labels of random images (numpy's global RNG) [minibatch_size, label_size]."""
        if self.label_size > 0:
            return self._np_labels[np.random.randint(self._np_labels.shape[0],
                                                     size=[minibatch_size])]
        return np.zeros([minibatch_size, 0], self.label_dtype)

    parse_tfrecord_tf = staticmethod(parse_tfrecord_tf)
    parse_tfrecord_np = staticmethod(parse_tfrecord_np)


def load_dataset(class_name: str | None = None, data_dir: str | None = None,
                 verbose: bool = False, **kwargs: Any) -> Any:
    """Construct a dataset object by class name (default: :class:`TFRecordDataset`
    when ``tfrecord_dir`` is given), joining ``data_dir`` and ``tfrecord_dir``."""
    kwargs = dict(kwargs)
    if "tfrecord_dir" in kwargs:
        if class_name is None:
            class_name = __name__ + ".TFRecordDataset"
        if data_dir is not None:
            kwargs["tfrecord_dir"] = os.path.join(data_dir, kwargs["tfrecord_dir"])
    if class_name is None:
        raise ConfigError("load_dataset needs class_name or tfrecord_dir, got neither")
    if verbose:
        print("Streaming data using %s..." % class_name)
    dataset = get_obj_by_name(class_name)(**kwargs)
    if verbose:
        print("Dataset shape =", np.int32(dataset.shape).tolist())
        print("Dynamic range =", dataset.dynamic_range)
        print("Label size    =", dataset.label_size)
    return dataset


# ====================================================================== uniform face
class Batch(NamedTuple):
    """One minibatch of seed 001.

    images: uint8 [B, C, H, W] (NCHW), 0..255; C is 1 or 3, H = W = resolution / 2**lod.
    labels: float32 [B, L], the rows of the labels file (cast to float32 if stored otherwise;
        L = 0 without labels or with max_label_size=0).
    """

    images: Any
    labels: Any


#: Photographs of the embedded data set; each gives two 256x256 images.
SAMPLE_PHOTOGRAPHS: tuple[str, ...] = tuple(sample_data.PHOTOGRAPHS)
SAMPLE_RESOLUTION = 256


def sample_images(resolution: int = SAMPLE_RESOLUTION) -> list[tuple[int, np.ndarray]]:
    """``(photograph index, uint8 [R, R, 3])`` pairs: for every bundled photograph its
    centred square resized to R (Lanczos) and its centre R x R crop at full size."""
    images = []
    for index, name in enumerate(SAMPLE_PHOTOGRAPHS):
        photo = sample_data.load_photograph(name)
        height, width = photo.shape[:2]
        side = min(height, width)
        top, left = (height - side) // 2, (width - side) // 2
        square = PIL.Image.fromarray(photo[top:top + side, left:left + side])
        images.append((index, np.asarray(square.resize((resolution, resolution),
                                                       PIL.Image.Resampling.LANCZOS))))
        top, left = (height - resolution) // 2, (width - resolution) // 2
        images.append((index, np.ascontiguousarray(
            photo[top:top + resolution, left:left + resolution])))
    return images


def write_sample_dataset(dest: str) -> str:
    """Write the embedded set into ``dest``: ``images/NNNN.png`` and the export in
    ``tfrecords/`` (shuffled order, one-hot labels of the source photograph)."""
    pairs = sample_images()
    image_dir = os.path.join(dest, "images")
    os.makedirs(image_dir, exist_ok=True)
    for number, (_, image) in enumerate(pairs):
        PIL.Image.fromarray(image).save(os.path.join(image_dir, f"{number:04d}.png"))
    onehot = np.zeros((len(pairs), len(SAMPLE_PHOTOGRAPHS)), np.float32)
    onehot[np.arange(len(pairs)), [index for index, _ in pairs]] = 1.0
    tfrecord_dir = os.path.join(dest, "tfrecords")
    with TFRecordExporter(tfrecord_dir, len(pairs), print_progress=False) as tfr:
        order = tfr.choose_shuffled_order()
        for idx in order:
            tfr.add_image(pairs[idx][1].transpose([2, 0, 1]))
        tfr.add_labels(onehot[order])
    return tfrecord_dir


def sample_tfrecord_dir() -> str:
    """The embedded data set's tfrecord_dir (built on first use under data_home())."""
    dest = os.path.join(sample_data.data_home(), "stylegan_lod", f"photographs{SAMPLE_RESOLUTION}")
    sample_data.build_folder_atomically(dest, write_sample_dataset)
    return os.path.join(dest, "tfrecords")


class StyleganLodPipeline(Pipeline):
    """Seed 001 behind the uniform API: ``Batch(images, labels)`` (see :class:`Batch`).

    Options: ``tfrecord_dir`` (a ``create_from_images`` export; default: the embedded
    photographs at 256x256 with one-hot labels of the 10 source photographs),
    ``batch_size``, ``lod`` (``int(np.floor(lod))`` as the original; must exist) and
    every :class:`TFRecordDataset` argument with its default (``max_label_size=0``
    means no labels: ``labels`` is [B, 0]). ``configure(batch_size=, lod=)`` runs
    the chosen LOD's initializer only when something changed; that restarts the
    LOD's data (a reinitializable iterator).
    """

    name = "stylegan_lod"
    Batch = Batch

    def __init__(self, tfrecord_dir: str | None = None, batch_size: int = 16, lod: float = 0,
                 resolution: int | None = None, label_file: str | None = None,
                 max_label_size: int | str = 0, max_images: int | None = None,
                 repeat: bool = True, shuffle_mb: int = 4096, prefetch_mb: int = 2048,
                 buffer_mb: int = 256, num_threads: int = 2, **pipeline_options: Any) -> None:
        super().__init__(batch_size=batch_size, **pipeline_options)
        check_reader_options(repeat, shuffle_mb, prefetch_mb, buffer_mb, num_threads)
        self.tfrecord_dir = sample_tfrecord_dir() if tfrecord_dir is None else tfrecord_dir
        self.layout = inspect_tfrecord_dir(self.tfrecord_dir, resolution, label_file,
                                           max_label_size, max_images)
        warn_if_buffers_too_big(self.layout, shuffle_mb, prefetch_mb)
        self._reader_options = dict(repeat=repeat, shuffle_mb=shuffle_mb,
                                    prefetch_mb=prefetch_mb, buffer_mb=buffer_mb,
                                    num_threads=num_threads)
        self.dataset: TFRecordDataset | None = None
        self._settings["lod"] = self._check_lod(lod)

    @property
    def lods(self) -> list[int]:
        """The levels of detail of this data set, 0 = full resolution."""
        return sorted(self.layout.lods)

    @property
    def lod(self) -> int:
        return self._settings["lod"]

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

    def _build(self) -> Batch:
        minibatch_in = self._setting_placeholder("batch_size", tf.int64)
        self.dataset = TFRecordDataset.from_layout(self.layout, minibatch_in=minibatch_in,
                                                   **self._reader_options)
        for lod in self.dataset.lods:
            self._add_iterator_initializer(self.dataset._tf_init_ops[lod])
        images, labels = self.dataset.get_minibatch_tf()
        images.set_shape([None, self.layout.shape[0], None, None])
        if labels.dtype != tf.float32:  # a hand-made labels file of another dtype
            labels = tf.cast(labels, tf.float32)
        return Batch(images=images, labels=labels)

    def _iterator_initializers_for(self, settings: dict[str, Any]) -> list[tf.Operation]:
        if self.dataset is None:
            return []
        return [self.dataset._tf_init_ops[settings["lod"]]]

    def _explain_error(self, error: tf.errors.OpError) -> DataError | None:
        lod = self._settings["lod"]
        return find_bad_record(self.layout.file_for(lod), self.layout.shape_for(lod))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
