"""Seed 001's records (byte-identical to the original tool): the errors of the
tool, the writer (:class:`TFRecordExporter`: one TFRecord file per LOD, and what
it writes for one image), the records read back in numpy
(:func:`parse_tfrecord_np`, :func:`find_bad_record`) and the layout of an export
(:func:`inspect_tfrecord_dir`: which LOD files, shapes and labels it holds)."""
from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, NoReturn, Self

import numpy as np
import tensorflow as tf
from google.protobuf.message import DecodeError

from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.options import check_non_negative_int, check_positive_int, show
from tf1_pipelines.records import manifest
from tf1_pipelines.records.export import (
    ExportScheme,
    check_in_the_way,
    check_no_foreign_data,
    prepare_folder,
    remove_stale,
)
from tf1_pipelines.records.features import bytes_feature, example, int64_feature
from tf1_pipelines.records.reader import iterate_records
from tf1_pipelines.records.serialize import serialize
from tf1_pipelines.records.verify import FeatureSpec, RecordSpec
from tf1_pipelines.records.writer import PARTIAL_SUFFIX, AtomicRecordWriters, temporary_name


# ----------------------------------------------------------------------------- errors
class DatasetToolError(DataError):
    """An input the original ``dataset_tool.py`` rejected with ``error(msg)`` (which
    printed ``Error: msg`` and exited); the message starts with the original text."""


class BufferMemoryWarning(UserWarning):
    """``shuffle_mb`` / ``prefetch_mb`` could take more than half of the available memory."""


def error(msg: str, path: str | None = None) -> NoReturn:
    """The original's ``error(msg)``, as an exception instead of ``exit(1)``."""
    raise DatasetToolError(msg, path=path)


# ---------------------------------------------------------------------- numpy parsing
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


def _parse_at(record: bytes, path: str, index: int) -> np.ndarray:
    try:
        return parse_tfrecord_np(record)
    except DataError as exc:
        message, where = str(exc), f"field {exc.field!r}: "
        message = message.removeprefix(where)
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


# ----------------------------------------------------------------------------- writer
LABELS_SUFFIX = "-rxx.labels"
MIN_RESOLUTION_LOG2 = 2  # the smallest LOD written is 4x4


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
    return serialize(example({"shape": int64_feature([int(n) for n in quant.shape]),
                              "data": bytes_feature(quant.tobytes())}))


def export_scheme(name: str) -> ExportScheme:
    """The files an export with prefix ``name`` writes (``<name>-rNN.tfrecords`` and
    ``<name>-rxx.labels``); the reader takes every ``*.tfrecords`` and the first
    ``*.labels`` of the folder."""
    own = f"(?:{re.escape(name)}-r[0-9]{{2}}\\.tfrecords|{re.escape(name + LABELS_SUFFIX)})"
    return ExportScheme(f"{name}-rNN.tfrecords", own, ("*.tfrecords", "*.labels"))


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

    Files are written under temporary names (``.*.partial``) and renamed
    into place by :meth:`close` (or on leaving the ``with`` block normally); an
    exception in the ``with`` block, or :meth:`abort`, deletes them, so an
    interrupted export leaves no ``*.tfrecords``. Labels given to
    :meth:`add_labels` before closing are published with the images. A
    ``*.tfrecords`` or ``*.labels`` file in the folder that this export's names do
    not cover stops it at once with a DataError naming the file (the reader would
    mix it in); such a file is never removed. A file of this prefix's names
    (``<prefix>-rNN.tfrecords``, ``<prefix>-rxx.labels``) that the folder's
    manifest does not list as written by this project stops it too, before
    anything is written, unless ``force`` (the original tool overwrote it).
    """

    def __init__(self, tfrecord_dir: str, expected_images: int, print_progress: bool = True,
                 progress_interval: int = 10, force: bool = False) -> None:
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
        self._labels_published = False
        self._closed = False
        self.scheme = export_scheme(name)
        self.force = bool(force)
        if self.print_progress:
            print('Creating dataset "%s"' % tfrecord_dir)
        prepare_folder(self.tfrecord_dir)
        check_no_foreign_data(self.tfrecord_dir, self.scheme)
        check_in_the_way(self.tfrecord_dir, self.scheme, force=self.force)

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
        try:
            published = self._writers.commit() if self._writers is not None else []
            if self._staged_labels is not None:
                os.replace(self._staged_labels, self.labels_path)
                self._forget_labels_partial(self._staged_labels)
                self._staged_labels = None
                self._labels_published = True
        except BaseException:  # a full disk at the last flush: remove every temporary file
            self.abort()
            raise
        if self._labels_published:
            published_files = [*published, self.labels_path]
        else:
            published_files = list(published)
        if published_files:
            manifest.record(self.tfrecord_dir, published_files)
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
        if self._staged_labels is not None:
            self._forget_labels_partial(self._staged_labels)
        self._staged_labels = None
        self._closed = True

    def _remove_stale(self, published: list[str]) -> None:
        """Remove this prefix's LOD files (and labels, unless just published) that an
        earlier export left; nothing else."""
        keep = list(published)
        if self._labels_published:
            keep.append(self.labels_path)
        remove_stale(self.tfrecord_dir, self.scheme, keep, self.force)

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
        writers = self._writers
        if writers is None:  # opened above with the first image's shape
            raise RuntimeError("the record writers were not opened")
        for lod, quant in enumerate(lod_images(img, len(writers))):
            writers.write(lod, serialize_image(quant))
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
        partial = temporary_name(self.labels_path)  # never a user's own file
        # Listed while it exists, so the next writer of the folder removes it if we die.
        manifest.add_partials(self.tfrecord_dir, [os.path.basename(partial)], os.getpid())
        with open(partial, "wb") as f:
            np.save(f, labels.astype(np.float32))
        if self._closed:
            try:
                manifest.check_ours(self.tfrecord_dir, [os.path.basename(self.labels_path)],
                                    "overwrite", self.force)
                os.replace(partial, self.labels_path)
                manifest.record(self.tfrecord_dir, [self.labels_path])
            finally:
                self._forget_labels_partial(partial)
        else:
            self._staged_labels = partial

    def _forget_labels_partial(self, partial: str) -> None:
        """Remove the labels' temporary file if it is still there, and unlist it."""
        if os.path.exists(partial):
            os.remove(partial)
        manifest.drop_partials(self.tfrecord_dir, [os.path.basename(partial)])

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


# ----------------------------------------------------------------------------- layout
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
        in_dir = os.path.join(tfrecord_dir, label_file)
        if os.path.isfile(in_dir):
            return in_dir
    return label_file


def check_max_label_size(name: str, max_label_size: Any) -> int | str:
    """``'full'`` or a whole number >= 0 (0: no labels); ConfigError otherwise."""
    if isinstance(max_label_size, str) and max_label_size == "full":
        return "full"
    try:
        return check_non_negative_int(name, max_label_size)
    except ConfigError as exc:  # the same type, with the 'full' choice in the text
        raise type(exc)(f"{name} must be 'full' or a whole number >= 0, "
                        f"got {show(max_label_size)}") from None


def _check_max_label_size(max_label_size: Any) -> int | str:
    return check_max_label_size("max_label_size", max_label_size)


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


def record_spec(shape: Sequence[int]) -> RecordSpec:
    """What each record of a LOD file whose images are ``shape`` (CHW) holds: an
    int64 ``shape`` of 3 values and one bytes ``data`` of ``prod(shape)`` bytes."""
    return {"shape": FeatureSpec("int64", 3),
            "data": FeatureSpec("bytes", 1, int(np.prod(shape)), source=f"shape {list(shape)}")}
