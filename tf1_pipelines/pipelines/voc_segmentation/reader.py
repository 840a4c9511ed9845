"""The seed's verification in numpy: records decoded back into ``(img, annotation)``
pairs, compared with the originals, or checked one by one."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import tensorflow as tf

from tf1_pipelines.errors import DataError
from tf1_pipelines.pipelines.voc_segmentation.writer import TFRECORDS_FILENAME
from tf1_pipelines.records.reader import iterate_records


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
