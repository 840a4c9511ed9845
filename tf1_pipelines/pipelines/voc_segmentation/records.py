"""Seed 003's records: the writer (image/mask pairs, found by stem in VOC-style
folders and read with PIL, into Examples with ``height``, ``width``, ``image_raw``
and ``mask_raw``), the seed's verification in numpy (records decoded back into
``(img, annotation)`` pairs, compared with the originals, or checked one by one),
and the cache folder of the records of a pair of folders."""
from __future__ import annotations

import glob
import hashlib
import os
import re
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import tensorflow as tf

from tf1_pipelines.data import sample_data
from tf1_pipelines.errors import DataError
from tf1_pipelines.image.folders import IMAGE_EXTENSIONS, image_files
from tf1_pipelines.image.open_image import open_image
from tf1_pipelines.options import check_positive_int
from tf1_pipelines.records.export import ExportScheme, FolderExport
from tf1_pipelines.records.features import bytes_feature, example, int64_feature
from tf1_pipelines.records.folder_lock import folder_lock
from tf1_pipelines.records.reader import iterate_records
from tf1_pipelines.records.serialize import serialize
from tf1_pipelines.records.verify import FeatureSpec, RecordSpec
from tf1_pipelines.records.writer import AtomicRecordWriters

TFRECORDS_FILENAME = "pascal_voc_segmentation.tfrecords"
IMAGE_SUFFIXES = IMAGE_EXTENSIONS  # the one rule of tf1_pipelines.image.folders


def _bytes_feature(value: bytes) -> tf.train.Feature:
    """The seed's bytes feature: one bytes value."""
    return bytes_feature(value)


def _int64_feature(value: int) -> tf.train.Feature:
    """The seed's int64 feature: one int value."""
    return int64_feature(int(value))


def _open_rgb(path: str) -> np.ndarray:
    """``np.array(Image.open(path))`` as uint8 [H, W, 3] RGB; DataError if unreadable."""
    with open_image(path) as im:  # a bomb, a truncated file: DataError naming it
        return np.array(im if im.mode == "RGB" else im.convert("RGB"))


def read_pair(img_path: str, annotation_path: str) -> tuple[np.ndarray, np.ndarray]:
    """An image and its mask as the seed reads them with PIL.

    Returns ``(img uint8 [H, W, 3] RGB, annotation uint8 [H, W] class ids)``. A
    palette PNG mask gives its indices (not colours), as VOC needs. Grayscale,
    palette or RGBA images become RGB (the seed would write records its own reader cannot
    reshape); a mask that is not one 8-bit channel, or whose size differs from
    the image's, raises DataError naming both files and sizes.
    """
    img = _open_rgb(img_path)
    with open_image(annotation_path, what="mask") as im:
        if im.mode not in ("P", "L"):
            raise DataError(f"mask must be one 8-bit channel (a palette or grayscale PNG), "
                            f"got PIL mode {im.mode!r}", path=annotation_path)
        annotation = np.array(im)
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
            writers.write(0, serialize(pair_to_example(img, annotation)))
    return original_images


def shard_scheme(basename: str = "pascal_voc_segmentation") -> ExportScheme:
    """The names :func:`write_sharded_records` writes (``<basename>.tfrecords`` and
    ``<basename>-%05d-of-%05d.tfrecords``); the reader takes every ``*.tfrecords``."""
    return ExportScheme(f"{basename}[-%05d-of-%05d].tfrecords",
                        re.escape(basename) + r"(-[0-9]{5}-of-[0-9]{5})?\.tfrecords",
                        ("*.tfrecords",))


def write_sharded_records(filename_pairs: Sequence[tuple[str, str]], output_dir: str,
                          num_shards: int = 1,
                          basename: str = "pascal_voc_segmentation") -> list[str]:
    """The seed's records spread round-robin over ``num_shards`` files
    ``<basename>-00000-of-0000N.tfrecords`` (one file ``<basename>.tfrecords``
    when ``num_shards`` is 1). Returns the paths; all appear together when complete.

    Shards of an earlier export of ``basename`` with another shard count are removed
    once the new ones are published, so a reader of the folder counts nothing
    twice; any other ``*.tfrecords`` in the folder stops the export with a
    DataError naming it (it is never removed).
    """
    num_shards = check_positive_int("num_shards", num_shards)
    if num_shards == 1:
        names = [f"{basename}.tfrecords"]
    else:
        names = [f"{basename}-{i:05d}-of-{num_shards:05d}.tfrecords" for i in range(num_shards)]
    with FolderExport(output_dir, shard_scheme(basename), names) as writers:
        for index, (img_path, annotation_path) in enumerate(filename_pairs):
            img, annotation = read_pair(img_path, annotation_path)
            writers.write(index % num_shards, serialize(pair_to_example(img, annotation)))
    return list(writers.paths)


def find_pairs(image_dir: str, mask_dir: str) -> list[tuple[str, str]]:
    """``(image path, mask path)`` pairs matched by file stem, VOC style
    (``JPEGImages/2007_000032.jpg`` with ``SegmentationClass/2007_000032.png``).

    Every image needs a mask: DataError names the folder or the image without one.
    """
    for directory in (image_dir, mask_dir):
        if not os.path.isdir(directory):
            raise DataError("image/mask directory does not exist", path=directory)
    # One rule for image folders (tf1_pipelines.image.folders): extensions in any
    # case, a dangling link a DataError, 8-bit images only.
    masks = {os.path.splitext(os.path.basename(path))[0]: path for path in image_files(mask_dir)}
    images = [os.path.basename(path) for path in image_files(image_dir)]
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


def iterate_pairs(files: Sequence[str]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Every ``(img, annotation)`` of ``files`` in file order, decoded in numpy."""
    for path in files:
        for index, record in enumerate(iterate_records(path)):
            yield decode_record(record, path, index)


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


def cached_shards(pairs: Sequence[tuple[str, str]], num_shards: int) -> str:
    """The cache folder of the records of ``pairs`` (:func:`default_record_dir`),
    written by :func:`write_sharded_records` on first use. Threads and processes
    asking for the same new folder at once build it once: the first holds the
    folder's lock while it writes, the others wait, then reuse it."""
    record_dir = default_record_dir(pairs, num_shards)
    with folder_lock(record_dir):  # files are renamed one by one: look only under the lock
        if not glob.glob(os.path.join(record_dir, "*.tfrecords")):
            write_sharded_records(pairs, record_dir, num_shards)
    return record_dir


#: What each record holds: one int64 ``height`` and ``width``, one bytes value each of
#: ``image_raw`` (uint8 [h, w, 3]) and ``mask_raw`` (uint8 [h, w]); the byte counts
#: depend on the record's own height and width and are checked by decode_record.
RECORD_SPEC: RecordSpec = {"height": FeatureSpec("int64"), "width": FeatureSpec("int64"),
                           "image_raw": FeatureSpec("bytes"), "mask_raw": FeatureSpec("bytes")}
