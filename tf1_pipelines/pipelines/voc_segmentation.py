"""Seed 003: PASCAL-VOC-style image/mask pairs in TFRecords, read by queue runners.

Legacy face (the seed's names and numbers):

* ``_bytes_feature`` / ``_int64_feature`` and :func:`write_records` - the seed's
  writer: one Example per pair with ``height``, ``width`` (int64), ``image_raw``
  (the raw bytes of a uint8 [H, W, 3] RGB array, row-major) and ``mask_raw`` (the
  raw bytes of a uint8 [H, W] array of class ids, e.g. the indices of a VOC
  palette PNG read with PIL);
* :func:`read_records` and :func:`round_trip_check` - the seed's verification:
  read every record back with a record iterator and compare each pair with
  ``np.allclose`` (the seed prints ``True`` six times for three pairs);
* :func:`read_and_decode` ``(filename_queue)`` - ``TFRecordReader``, parse,
  ``decode_raw``, reshape to [height, width, 3] / [height, width, 1],
  ``resize_image_with_crop_or_pad`` to ``IMAGE_HEIGHT`` x ``IMAGE_WIDTH`` (384 x
  384: larger images are centre-cropped, smaller ones centre-padded with zeros)
  and ``tf.train.shuffle_batch(batch_size=2, capacity=30, num_threads=2,
  min_after_dequeue=10)``, fed by ``string_input_producer([...], num_epochs=10)``.

Uniform face: :class:`VocSegmentationPipeline` (``load_pipeline("voc_segmentation",
...)``), backends ``"queue"`` (the seed's graph) and ``"dataset"`` (tf.data with
the same parsing, the same multiset of examples per epoch).

Embedded default data: six photographs bundled with scikit-image (astronaut,
coffee, chelsea, rocket, immunohistochemistry, motorcycle_left) stored as JPEGs
in ``JPEGImages/<name>.jpg``, each with a mask in ``SegmentationClass/<name>.png``
as VOC lays them out. A mask is derived from its own (decoded) JPEG: the class id
of a pixel is its ITU-R 601 luma ``Y = 0.299 R + 0.587 G + 0.114 B`` quantised to
four bands, ``min(floor(Y / 64), 3)`` (0 darkest .. 3 brightest; computed in
integers); it is saved as a palette PNG with the VOC colour map, so PIL reads
back the class ids, exactly as the seed reads VOC's ``SegmentationClass`` files.
The photographs are 300 to 512 pixels high, so the 384 x 384 crop-or-pad both
crops and pads.
"""
from __future__ import annotations

import glob
import hashlib
import os
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np
import tensorflow as tf
from PIL import Image, UnidentifiedImageError

from tf1_pipelines import sample_data
from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.inputs import queue as queue_inputs
from tf1_pipelines.inputs.dataset import initializable
from tf1_pipelines.records.features import bytes_feature, example, int64_feature
from tf1_pipelines.records.reader import find_corrupt_file, iterate_records
from tf1_pipelines.records.writer import AtomicRecordWriters
from tf1_pipelines.session import FieldSpec, Pipeline, check_positive_int

__all__ = ["IMAGE_HEIGHT", "IMAGE_WIDTH", "Batch", "VocSegmentationPipeline", "read_pair",
           "pair_to_example", "write_records", "write_sharded_records", "read_records",
           "decode_record", "iterate_pairs", "round_trip_check", "verify_records", "find_pairs",
           "decode_example", "read_and_decode", "check_batch_fits", "mask_from_luma",
           "voc_colormap", "write_default_pairs", "default_pairs_dir"]

tf1 = tf.compat.v1

IMAGE_HEIGHT = 384
IMAGE_WIDTH = 384
TFRECORDS_FILENAME = "pascal_voc_segmentation.tfrecords"
BACKENDS = ("queue", "dataset")
DEFAULT_PHOTOGRAPHS: tuple[str, ...] = ("astronaut", "coffee", "chelsea", "rocket",
                                        "immunohistochemistry", "motorcycle_left")
MASK_CLASSES = 4
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff")


class Batch(NamedTuple):
    """One batch of seed 003.

    image: uint8 [B, H, W, 3] (NHWC), RGB 0..255; H x W = image_height x
        image_width (384 x 384 by default), centre-cropped or zero-padded.
    mask: uint8 [B, H, W, 1] (NHWC), class ids (VOC: 0..20, 255 = border; the
        embedded data: 0..3), cropped or zero-padded exactly like ``image``.
    """

    image: Any
    mask: Any


# ------------------------------------------------------------------ the seed's features
def _bytes_feature(value: bytes) -> tf.train.Feature:
    """The seed's bytes feature: one bytes value."""
    return bytes_feature(value)


def _int64_feature(value: int) -> tf.train.Feature:
    """The seed's int64 feature: one int value."""
    return int64_feature(int(value))


# --------------------------------------------------------------------------- numpy side
def _open_rgb(path: str) -> np.ndarray:
    """``np.array(Image.open(path))`` as uint8 [H, W, 3] RGB; DataError if unreadable."""
    try:
        with Image.open(path) as im:
            return np.array(im if im.mode == "RGB" else im.convert("RGB"))
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise DataError(f"cannot decode image ({exc})", path=path) from exc


def read_pair(img_path: str, annotation_path: str) -> tuple[np.ndarray, np.ndarray]:
    """An image and its mask as the seed reads them with PIL.

    Returns ``(img uint8 [H, W, 3] RGB, annotation uint8 [H, W] class ids)``. A
    palette PNG mask gives its indices (not colours), as VOC needs. Grayscale,
    palette or RGBA images become RGB (the seed would write records its own reader cannot
    reshape); a mask that is not one 8-bit channel, or whose size differs from
    the image's, raises DataError naming both files and sizes.
    """
    img = _open_rgb(img_path)
    try:
        with Image.open(annotation_path) as im:
            if im.mode not in ("P", "L"):
                raise DataError(f"mask must be one 8-bit channel (a palette or grayscale PNG), "
                                f"got PIL mode {im.mode!r}", path=annotation_path)
            annotation = np.array(im)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        if isinstance(exc, DataError):
            raise
        raise DataError(f"cannot decode mask ({exc})", path=annotation_path) from exc
    if annotation.shape != img.shape[:2]:
        raise DataError(f"mask is {annotation.shape[0]}x{annotation.shape[1]} but its image "
                        f"{img_path!r} is {img.shape[0]}x{img.shape[1]} (height x width)",
                        path=annotation_path)
    return np.ascontiguousarray(img, np.uint8), np.ascontiguousarray(annotation, np.uint8)


def pair_to_example(img: np.ndarray, annotation: np.ndarray) -> tf.train.Example:
    """The seed's Example: ``height``, ``width``, ``image_raw``, ``mask_raw``."""
    height, width = img.shape[0], img.shape[1]
    return example({
        "height": _int64_feature(height),
        "width": _int64_feature(width),
        "image_raw": _bytes_feature(img.tobytes()),
        "mask_raw": _bytes_feature(annotation.tobytes())})


def write_records(filename_pairs: Sequence[tuple[str, str]],
                  tfrecords_filename: str = TFRECORDS_FILENAME
                  ) -> list[tuple[np.ndarray, np.ndarray]]:
    """The seed's writer: every ``(image path, mask path)`` pair into one file.

    Returns the original ``(img, annotation)`` arrays for :func:`round_trip_check`.
    The file appears only when complete (written as ``<name>.partial`` first).
    """
    original_images = []
    with AtomicRecordWriters([tfrecords_filename]) as writers:
        for img_path, annotation_path in filename_pairs:
            img, annotation = read_pair(img_path, annotation_path)
            original_images.append((img, annotation))
            writers.write(0, pair_to_example(img, annotation).SerializeToString())
    return original_images


def write_sharded_records(filename_pairs: Sequence[tuple[str, str]], output_dir: str,
                          num_shards: int = 1,
                          basename: str = "pascal_voc_segmentation") -> list[str]:
    """The seed's records spread round-robin over ``num_shards`` files
    ``<basename>-00000-of-0000N.tfrecords`` (one file ``<basename>.tfrecords``
    when ``num_shards`` is 1). Returns the paths; all appear together when complete."""
    num_shards = check_positive_int("num_shards", num_shards)
    os.makedirs(output_dir, exist_ok=True)
    if num_shards == 1:
        paths = [os.path.join(output_dir, f"{basename}.tfrecords")]
    else:
        paths = [os.path.join(output_dir, f"{basename}-{i:05d}-of-{num_shards:05d}.tfrecords")
                 for i in range(num_shards)]
    with AtomicRecordWriters(paths) as writers:
        for index, (img_path, annotation_path) in enumerate(filename_pairs):
            img, annotation = read_pair(img_path, annotation_path)
            writers.write(index % num_shards, pair_to_example(img, annotation).SerializeToString())
    return paths


def _single_value(feature_map: Any, key: str, kind: str, path: str, index: int) -> Any:
    if key not in feature_map:
        raise DataError("missing feature", path=path, record=index, field=key)
    values = getattr(feature_map[key], kind).value
    if len(values) != 1:
        other = feature_map[key].WhichOneof("kind")
        got = f"{len(values)} values" if other == kind else f"a {other}"
        raise DataError(f"holds {got}, expected one {kind} value", path=path, record=index,
                        field=key)
    return values[0]


def decode_record(record: bytes, path: str = "<memory>",
                  index: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """One serialized record -> ``(img uint8 [H, W, 3], annotation uint8 [H, W])``.

    DataError naming file, record and field for a missing key, a wrong kind of
    value, or byte counts that do not match ``height`` x ``width``.
    """
    feature_map = tf.train.Example.FromString(record).features.feature
    height = int(_single_value(feature_map, "height", "int64_list", path, index))
    width = int(_single_value(feature_map, "width", "int64_list", path, index))
    img_string = _single_value(feature_map, "image_raw", "bytes_list", path, index)
    annotation_string = _single_value(feature_map, "mask_raw", "bytes_list", path, index)
    if height < 1 or width < 1:
        raise DataError(f"height {height} and width {width} must both be >= 1", path=path,
                        record=index, field="height" if height < 1 else "width")
    if len(img_string) != height * width * 3:
        raise DataError(f"holds {len(img_string)} bytes, but height {height} x width {width} "
                        f"x 3 channels needs {height * width * 3}", path=path, record=index,
                        field="image_raw")
    if len(annotation_string) != height * width:
        raise DataError(f"holds {len(annotation_string)} bytes, but height {height} x width "
                        f"{width} needs {height * width}", path=path, record=index,
                        field="mask_raw")
    img = np.frombuffer(img_string, dtype=np.uint8).reshape((height, width, -1))
    annotation = np.frombuffer(annotation_string, dtype=np.uint8).reshape((height, width))
    return img, annotation


def read_records(tfrecords_filename: str = TFRECORDS_FILENAME
                 ) -> list[tuple[np.ndarray, np.ndarray]]:
    """The seed's read-back: every record of the file as ``(img, annotation)``.

    Corrupt or truncated files and bad records raise DataError naming the file,
    the record index and the field.
    """
    return [decode_record(record, tfrecords_filename, index)
            for index, record in enumerate(iterate_records(tfrecords_filename))]


def round_trip_check(original_images: Sequence[tuple[np.ndarray, np.ndarray]],
                     reconstructed_images: Sequence[tuple[np.ndarray, np.ndarray]],
                     verbose: bool = True) -> list[bool]:
    """The seed's comparison: ``np.allclose`` of every image, then its annotation.

    Prints each result when ``verbose`` (the seed's six ``True`` lines for three
    pairs). A pair whose shapes differ compares False instead of raising; a
    different number of pairs raises DataError giving both counts.
    """
    if len(original_images) != len(reconstructed_images):
        raise DataError(f"{len(original_images)} pairs were written but "
                        f"{len(reconstructed_images)} were read back")
    results = []
    for original_pair, reconstructed_pair in zip(original_images, reconstructed_images):
        for original, reconstructed in zip(original_pair, reconstructed_pair):
            same = original.shape == reconstructed.shape and bool(np.allclose(original,
                                                                              reconstructed))
            if verbose:
                print(same)
            results.append(same)
    return results


def verify_records(files: Sequence[str]) -> int:
    """Read and decode every record of ``files``; DataError on the first bad one
    (missing or corrupt file, missing key, wrong sizes). Returns the record count."""
    count = 0
    for path in files:
        for index, record in enumerate(iterate_records(path)):
            decode_record(record, path, index)
            count += 1
    return count


def find_pairs(image_dir: str, mask_dir: str) -> list[tuple[str, str]]:
    """``(image path, mask path)`` pairs matched by file stem, VOC style
    (``JPEGImages/2007_000032.jpg`` with ``SegmentationClass/2007_000032.png``).

    Every image needs a mask: DataError names the folder or the image without one.
    """
    for directory in (image_dir, mask_dir):
        if not os.path.isdir(directory):
            raise DataError("image/mask directory does not exist", path=directory)
    masks = {os.path.splitext(name)[0]: os.path.join(mask_dir, name)
             for name in sorted(os.listdir(mask_dir)) if name.lower().endswith(IMAGE_SUFFIXES)}
    images = [name for name in sorted(os.listdir(image_dir))
              if name.lower().endswith(IMAGE_SUFFIXES)]
    if not images:
        raise DataError(f"no images ({', '.join(IMAGE_SUFFIXES)}) in this directory",
                        path=image_dir)
    pairs = []
    for name in images:
        stem = os.path.splitext(name)[0]
        if stem not in masks:
            raise DataError(f"image has no mask named {stem}.* in {mask_dir!r}",
                            path=os.path.join(image_dir, name))
        pairs.append((os.path.join(image_dir, name), masks[stem]))
    return pairs


# ---------------------------------------------------------------------------- graph side
def decode_example(serialized_example: tf.Tensor, image_height: int = IMAGE_HEIGHT,
                   image_width: int = IMAGE_WIDTH) -> tuple[tf.Tensor, tf.Tensor]:
    """The seed's per-record graph: parse, ``decode_raw``, reshape, crop-or-pad.

    Returns ``(image uint8 [h, w, 3], annotation uint8 [h, w, 1])`` with
    ``h, w = image_height, image_width``.
    """
    features = tf1.parse_single_example(
        serialized_example,
        # Defaults are not specified since both keys are required.
        features={
            "height": tf1.FixedLenFeature([], tf.int64),
            "width": tf1.FixedLenFeature([], tf.int64),
            "image_raw": tf1.FixedLenFeature([], tf.string),
            "mask_raw": tf1.FixedLenFeature([], tf.string),
        })
    image = tf1.decode_raw(features["image_raw"], tf.uint8)
    annotation = tf1.decode_raw(features["mask_raw"], tf.uint8)
    height = tf.cast(features["height"], tf.int32)
    width = tf.cast(features["width"], tf.int32)
    image = tf.reshape(image, tf.stack([height, width, 3]))  # the seed's tf.pack
    annotation = tf.reshape(annotation, tf.stack([height, width, 1]))
    resized_image = tf1.image.resize_image_with_crop_or_pad(
        image=image, target_height=image_height, target_width=image_width)
    resized_annotation = tf1.image.resize_image_with_crop_or_pad(
        image=annotation, target_height=image_height, target_width=image_width)
    return resized_image, resized_annotation


def check_batch_fits(batch_size: Any, capacity: int, min_after_dequeue: int) -> int:
    """``batch_size`` if ``shuffle_batch`` can ever hand out such a batch: it waits
    until the queue holds ``min_after_dequeue + batch_size`` examples, so that sum
    must not exceed ``capacity``; ConfigError with the three values otherwise."""
    batch_size = check_positive_int("batch_size", batch_size)
    if min_after_dequeue + batch_size > capacity:
        raise ConfigError(f"batch_size {batch_size} + min_after_dequeue {min_after_dequeue} "
                          f"exceeds capacity {capacity}: shuffle_batch would wait forever; "
                          "raise capacity or lower batch_size")
    return batch_size


def read_and_decode(filename_queue: Any, batch_size: int | tf.Tensor = 2, capacity: int = 30,
                    num_threads: int = 2, min_after_dequeue: int = 10,
                    image_height: int = IMAGE_HEIGHT, image_width: int = IMAGE_WIDTH,
                    allow_smaller_final_batch: bool = False,
                    seed: int | None = None) -> tuple[tf.Tensor, tf.Tensor]:
    """The seed's reader: one ``TFRecordReader`` on ``filename_queue`` into
    ``tf.train.shuffle_batch``; returns ``(images, annotations)``, uint8
    [B, h, w, 3] and [B, h, w, 1].

    Called as the seed calls it, ``read_and_decode(filename_queue)``, it uses the
    seed's numbers (batch 2, capacity 30, 2 threads, min_after_dequeue 10, 384 x
    384). As in TF1, the last partial batch is dropped at the end of the data
    unless ``allow_smaller_final_batch``. Raises ConfigError if ``capacity <=
    min_after_dequeue`` (TF would wait forever).
    """
    capacity, min_after_dequeue = queue_inputs.check_capacity(capacity, min_after_dequeue,
                                                              "shuffle_batch")
    num_threads = check_positive_int("num_threads", num_threads)
    if not isinstance(batch_size, tf.Tensor):
        batch_size = check_batch_fits(batch_size, capacity, min_after_dequeue)
    reader = tf1.TFRecordReader()
    _, serialized_example = reader.read(filename_queue)
    resized_image, resized_annotation = decode_example(serialized_example, image_height,
                                                       image_width)
    images, annotations = tf1.train.shuffle_batch(
        [resized_image, resized_annotation], batch_size=batch_size, capacity=capacity,
        num_threads=num_threads, min_after_dequeue=min_after_dequeue, seed=seed,
        allow_smaller_final_batch=allow_smaller_final_batch)
    return images, annotations


# ------------------------------------------------------------------------ embedded data
def mask_from_luma(rgb: np.ndarray) -> np.ndarray:
    """Class ids uint8 [H, W] in 0..3 from uint8 RGB [H, W, 3]: ITU-R 601 luma
    ``0.299 R + 0.587 G + 0.114 B`` quantised to four bands of 64 grey levels,
    computed exactly in integers (``(299 R + 587 G + 114 B) // 64000``)."""
    rgb = rgb[..., :3].astype(np.int64)
    luma_1000 = 299 * rgb[..., 0] + 587 * rgb[..., 1] + 114 * rgb[..., 2]
    return np.minimum(luma_1000 // 64000, MASK_CLASSES - 1).astype(np.uint8)


def voc_colormap(n: int = 256) -> np.ndarray:
    """The PASCAL VOC palette: uint8 [n, 3], class c's colour from the bits of c."""
    colormap = np.zeros((n, 3), np.uint8)
    for index in range(n):
        c, r, g, b = index, 0, 0, 0
        for shift in range(7, -1, -1):
            r |= (c & 1) << shift
            g |= ((c >> 1) & 1) << shift
            b |= ((c >> 2) & 1) << shift
            c >>= 3
        colormap[index] = (r, g, b)
    return colormap


def write_default_pairs(dest: str, names: Sequence[str] = DEFAULT_PHOTOGRAPHS
                        ) -> list[tuple[str, str]]:
    """Write ``JPEGImages/<name>.jpg`` and ``SegmentationClass/<name>.png`` (palette
    PNG of :func:`mask_from_luma` of the decoded JPEG) for each photograph."""
    image_dir = os.path.join(dest, "JPEGImages")
    mask_dir = os.path.join(dest, "SegmentationClass")
    os.makedirs(image_dir, exist_ok=True)
    os.makedirs(mask_dir, exist_ok=True)
    palette = voc_colormap().reshape(-1).tolist()
    pairs = []
    for name in names:
        img_path = os.path.join(image_dir, f"{name}.jpg")
        Image.fromarray(sample_data.load_photograph(name)).save(img_path, quality=95)
        with Image.open(img_path) as im:
            mask = Image.fromarray(mask_from_luma(np.asarray(im.convert("RGB"))))
        mask.putpalette(palette)
        mask_path = os.path.join(mask_dir, f"{name}.png")
        mask.save(mask_path)
        pairs.append((img_path, mask_path))
    return pairs


def default_pairs_dir() -> str:
    """The embedded VOC-like folder (``JPEGImages/``, ``SegmentationClass/``), built on
    first use under :func:`tf1_pipelines.sample_data.data_home`."""
    dest = os.path.join(sample_data.data_home(), "voc_like")
    return sample_data.build_folder_atomically(dest, write_default_pairs)


def default_record_dir(pairs: Sequence[tuple[str, str]], num_shards: int) -> str:
    """A cache folder for the records of ``pairs``, keyed by the files (names, sizes,
    times) and the shard count, so edits to the folders rebuild."""
    key = hashlib.sha1()
    for img_path, mask_path in pairs:
        for path in (img_path, mask_path):
            stat = os.stat(path)
            key.update(f"{os.path.abspath(path)}|{stat.st_size}|{stat.st_mtime_ns}\n".encode())
    key.update(f"n{num_shards}".encode())
    return os.path.join(sample_data.data_home(), "voc_records", key.hexdigest()[:16])


# ------------------------------------------------------------------------- uniform face
class VocSegmentationPipeline(Pipeline):
    """Seed 003 behind the uniform API: ``Batch(image, mask)`` (see :class:`Batch`).

    Data (first that is given): ``tfrecords`` (a ``*.tfrecords`` file, a list of
    files, or a folder of them), ``image_dir`` + ``mask_dir`` (pairs matched by
    stem; records are built into a cache folder on first use, ``num_shards``
    files), else the embedded VOC-like photographs (module docstring).

    ``backend="queue"`` is the seed's graph: ``string_input_producer(files,
    num_epochs)`` (file order shuffled each epoch, ``seed``), one
    ``TFRecordReader``, ``shuffle_batch`` with ``capacity``, ``num_threads``,
    ``min_after_dequeue``; its threads start on the first ``get_batch`` and stop
    on ``close()``. ``backend="dataset"``: tf.data with the same parsing, files
    shuffled each epoch, a shuffle buffer of ``capacity``; it yields the same
    multiset of examples per epoch.

    ``num_epochs=None`` repeats forever; with N, ``EndOfData`` follows the last
    batch. As in TF1 the last partial batch is dropped (N x records %
    batch_size examples are never delivered) unless
    ``allow_smaller_final_batch=True``, which delivers every record exactly once
    per epoch. ``configure(batch_size=...)`` takes effect at the next
    ``get_batch`` on the queue backend (a plain ``sess.run`` of
    :attr:`tensors` keeps the batch size the graph was built with) and restarts
    the epoch on the dataset backend.
    """

    name = "voc_segmentation"
    Batch = Batch
    FIELDS = {"image": FieldSpec("uint8", (None, IMAGE_HEIGHT, IMAGE_WIDTH, 3), "NHWC", (0, 255)),
              "mask": FieldSpec("uint8", (None, IMAGE_HEIGHT, IMAGE_WIDTH, 1), "NHWC", (0, 255))}

    def __init__(self, tfrecords: str | Sequence[str] | None = None, image_dir: str | None = None,
                 mask_dir: str | None = None, backend: str = "queue", batch_size: int = 2,
                 num_epochs: int | None = None, allow_smaller_final_batch: bool = False,
                 image_height: int = IMAGE_HEIGHT, image_width: int = IMAGE_WIDTH,
                 capacity: int = 30, min_after_dequeue: int = 10, num_threads: int = 2,
                 num_shards: int = 1, seed: int | None = None,
                 **pipeline_options: Any) -> None:
        super().__init__(batch_size=batch_size, **pipeline_options)
        self.backend = queue_inputs.check_choice("backend", backend, BACKENDS)
        self.num_epochs = queue_inputs.check_num_epochs(num_epochs)
        self.capacity, self.min_after_dequeue = queue_inputs.check_capacity(
            capacity, min_after_dequeue, "shuffle_batch")
        self.num_threads = check_positive_int("num_threads", num_threads)
        self.image_height = check_positive_int("image_height", image_height)
        self.image_width = check_positive_int("image_width", image_width)
        self.allow_smaller_final_batch = bool(allow_smaller_final_batch)
        size = (None, self.image_height, self.image_width)
        self.FIELDS = {"image": FieldSpec("uint8", size + (3,), "NHWC", (0, 255)),
                       "mask": FieldSpec("uint8", size + (1,), "NHWC", (0, 255))}
        check_batch_fits(self.batch_size, self.capacity, self.min_after_dequeue)
        self.seed = seed
        self.files = self._record_files(tfrecords, image_dir, mask_dir, num_shards)

    def _validate_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        settings = super()._validate_settings(settings)
        if "batch_size" in settings:
            check_batch_fits(settings["batch_size"], self.capacity, self.min_after_dequeue)
        return settings

    def _record_files(self, tfrecords: str | Sequence[str] | None, image_dir: str | None,
                      mask_dir: str | None, num_shards: int) -> list[str]:
        if tfrecords is not None:
            return queue_inputs.record_files(tfrecords)
        if (image_dir is None) != (mask_dir is None):
            raise ConfigError("give both image_dir and mask_dir (or tfrecords=), got only "
                              f"{'image_dir' if image_dir is not None else 'mask_dir'}")
        if image_dir is None:
            root = default_pairs_dir()
            image_dir = os.path.join(root, "JPEGImages")
            mask_dir = os.path.join(root, "SegmentationClass")
        pairs = find_pairs(image_dir, mask_dir)
        record_dir = default_record_dir(pairs, num_shards)
        if not glob.glob(os.path.join(record_dir, "*.tfrecords")):
            write_sharded_records(pairs, record_dir, num_shards)
        return queue_inputs.record_files(record_dir)

    def _build(self) -> Batch:
        if self.backend == "queue":
            batch_size = self._setting_placeholder("batch_size", tf.int32)
            queue = queue_inputs.filename_queue(self.files, num_epochs=self.num_epochs,
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
        files = tf1.data.Dataset.from_tensor_slices(self.files)
        files = files.shuffle(len(self.files), seed=self.seed, reshuffle_each_iteration=True)
        dataset = files.repeat(self.num_epochs).flat_map(tf1.data.TFRecordDataset)
        dataset = dataset.map(lambda s: decode_example(s, self.image_height, self.image_width),
                              num_parallel_calls=self.num_threads)
        dataset = dataset.shuffle(self.capacity, seed=self.seed)
        return dataset.batch(batch_size, drop_remainder=not self.allow_smaller_final_batch) \
            .prefetch(1)

    def _explain_error(self, error: tf.errors.OpError) -> DataError | None:
        """Scan the files in numpy for the first bad one (CRC, keys, sizes) and name
        it, with the original TF message."""
        found = find_corrupt_file(self.files)
        if found is None:
            try:
                verify_records(self.files)
            except DataError as bad:
                found = bad
        return queue_inputs.reader_error(found, error, self.files)


def iterate_pairs(files: Sequence[str]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Every ``(img, annotation)`` of ``files`` in file order, decoded in numpy."""
    for path in files:
        for index, record in enumerate(iterate_records(path)):
            yield decode_record(record, path, index)
