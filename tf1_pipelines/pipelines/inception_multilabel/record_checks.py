"""Checking seed 004's records in numpy: :func:`check_record`, :func:`verify_shards`,
and the ``semantic_level_settings`` the records hold."""
from __future__ import annotations

import io
import os
from collections.abc import Sequence
from typing import Any

import tensorflow as tf
from PIL import Image, UnidentifiedImageError

from tf1_pipelines.errors import DataError
from tf1_pipelines.pipelines.inception_multilabel.example_proto import LABEL_PREFIX
from tf1_pipelines.records.reader import iterate_records


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
