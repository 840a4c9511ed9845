"""Seed 004's records: the seed's feature helpers and ``_convert_to_example``, the
check of ``semantic_level_settings``, the converter (:func:`build_shards` shards a
folder of labelled images in the order of Inception's ``build_image_data.py``),
and the checks of the records in numpy (:func:`check_record`,
:func:`verify_shards`, the ``semantic_level_settings`` the records hold)."""
from __future__ import annotations

import contextlib
import csv
import glob
import io
import os
import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import tensorflow as tf

from tf1_pipelines.errors import ConfigError, ConfigTypeError, DataError
from tf1_pipelines.image.folders import IMAGE_EXTENSIONS, image_files, is_image_name
from tf1_pipelines.image.open_image import image_problem, open_image
from tf1_pipelines.inputs import queue as queue_inputs
from tf1_pipelines.options import check_positive_int, show
from tf1_pipelines.records.export import ExportScheme, FolderExport
from tf1_pipelines.records.features import (
    bytes_feature,
    example,
    float_feature,
    int64_feature,
)
from tf1_pipelines.records.reader import iterate_records
from tf1_pipelines.records.serialize import serialize
from tf1_pipelines.records.verify import FeatureSpec, RecordSpec

LABEL_PREFIX = "image/label/"
SUBSETS = ("train", "validation")


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


def check_level_settings(name: str, settings: Any) -> list[tuple[str, int]]:
    """:func:`check_semantic_level_settings` as an option check (``name`` unused: the
    option has one name)."""
    return check_semantic_level_settings(settings)


def check_semantic_level_settings(settings: Any) -> list[tuple[str, int]]:
    """``[(level name, class count), ...]`` checked: non-empty, unique names, counts >= 1."""
    if isinstance(settings, (str, bytes)) or not isinstance(settings, Iterable):
        raise ConfigTypeError("semantic_level_settings must be a list of (level name, number "
                              f"of classes) pairs, got {show(settings)}")
    try:
        pairs = [(level, num) for level, num in settings]
    except (TypeError, ValueError) as exc:
        raise ConfigError("semantic_level_settings must be a list of (level name, number of "
                          f"classes) pairs, got {show(settings)}") from exc
    if not pairs:
        raise ConfigError("semantic_level_settings is empty; give at least one (level, n)")
    names = [level for level, _ in pairs]
    for level, num in pairs:
        if not isinstance(level, str) or not level:
            raise ConfigError("semantic_level_settings: a level name must be a non-empty "
                              f"string, got {show(level)}")
        check_positive_int(f"semantic_level_settings: the number of classes of level {level!r}",
                           num)
    if len(set(names)) != len(names):
        raise ConfigError(f"semantic_level_settings: semantic level names repeat: {names}")
    return [(level, int(num)) for level, num in pairs]


# -------------------------------------------------------------------------- converter
IMAGE_SUFFIXES = IMAGE_EXTENSIONS  # the one rule of tf1_pipelines.image.folders


def image_to_jpeg(path: str) -> tuple[bytes, int, int]:
    """``(JPEG bytes of an RGB image, height, width)`` for one image file.

    An RGB JPEG is stored as is; anything else (PNG, grayscale, CMYK...) is
    converted to RGB and encoded as JPEG at quality 100, as Inception's
    ``build_image_data.py`` did for PNGs. DataError names an unreadable file.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise DataError(f"cannot read image ({exc})", path=path) from exc
    with open_image(data, path=path) as im:  # a bomb, a truncated file: DataError naming it
        im.load()
        if im.format == "JPEG" and im.mode == "RGB":
            return data, im.height, im.width
        buffer = io.BytesIO()
        im.convert("RGB").save(buffer, format="JPEG", quality=100)
        return buffer.getvalue(), im.height, im.width


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
    return [f"{subset}-{shard:05d}-of-{num_shards:05d}" for shard in range(num_shards)]


def shard_scheme(subset: str) -> ExportScheme:
    """The names :func:`build_shards` writes for ``subset``; the reader takes every
    ``<subset>-*`` file of the folder."""
    return ExportScheme(f"{subset}-%05d-of-%05d", re.escape(subset) + r"-[0-9]{5}-of-[0-9]{5}",
                        (glob.escape(subset) + "-*",))


def build_shards(image_dir: str, output_dir: str,
                 semantic_level_settings: Sequence[tuple[str, int]], subset: str = "train",
                 num_shards: int = 4,
                 labels: str | Mapping[str, Mapping[str, int]] | None = None,
                 force: bool = False) -> list[str]:
    """Shard a folder of labelled images into ``<output_dir>/<subset>-XXXXX-of-YYYYY``.

    ``labels``: a CSV path, a mapping ``{filename: {level: class index}}``, or
    None for ``<image_dir>/labels.csv``. Every image file of the folder must
    have labels and every labelled file must exist (DataError naming it). File
    order is shuffled with ``random.seed(12345)`` and cut into contiguous runs,
    one per shard, as Inception's converter did. All shards appear together
    when complete; shards of this subset from an earlier export with another
    shard count are removed then. Any other ``<subset>-*`` file in the folder
    (the reader takes them all) stops the export with a DataError naming it; it
    is never removed. A ``<subset>-NNNNN-of-NNNNN`` file in the folder that this
    project did not write (the folder's manifest) stops it before anything is
    written, unless ``force`` (Inception's converter overwrote it). Returns the
    shard paths.
    """
    semantic_level_settings = check_semantic_level_settings(semantic_level_settings)
    num_shards = check_positive_int("num_shards", num_shards)
    queue_inputs.check_choice("subset", subset, SUBSETS)
    if not os.path.isdir(image_dir):
        raise DataError("image directory does not exist", path=image_dir)
    if labels is None or isinstance(labels, (str, os.PathLike)):
        labels_file = os.path.join(image_dir, "labels.csv") if labels is None else os.fspath(labels)
        labels = read_labels_csv(labels_file, semantic_level_settings)
    # One rule for image folders (tf1_pipelines.image.folders): extensions in any
    # case, a dangling link a DataError, 8-bit images only.
    images = [os.path.basename(path) for path in image_files(image_dir)]
    unlabelled = sorted(set(images) - set(labels))
    if unlabelled:
        raise DataError("image has no labels", path=os.path.join(image_dir, unlabelled[0]))
    if not labels:
        raise DataError("no labelled images in this directory", path=image_dir)
    filenames = sorted(labels)
    for name in filenames:
        if not is_image_name(name):
            raise DataError(f"labelled file is not an image of the folder rule "
                            f"({', '.join(IMAGE_EXTENSIONS)}, any case)",
                            path=os.path.join(image_dir, name))
        if not os.path.isfile(os.path.join(image_dir, name)):
            raise DataError("labelled image does not exist", path=os.path.join(image_dir, name))
    order = list(range(len(filenames)))
    random.Random(12345).shuffle(order)
    filenames = [filenames[i] for i in order]
    spacing = np.linspace(0, len(filenames), num_shards + 1).astype(int)

    with FolderExport(output_dir, shard_scheme(subset), shard_names(subset, num_shards),
                      force=force) as writers:
        for shard in range(num_shards):
            for name in filenames[spacing[shard]:spacing[shard + 1]]:
                path = os.path.join(image_dir, name)
                image_buffer, height, width = image_to_jpeg(path)
                one_hots = [(level, one_hot(labels[name][level], num))
                            for level, num in semantic_level_settings]
                record = _convert_to_example(path, image_buffer, one_hots, height, width)
                writers.write(shard, serialize(record))
    return list(writers.paths)


# ----------------------------------------------------------------------- numpy checks
def _record_features(record: bytes) -> Any:
    return tf.train.Example.FromString(record).features.feature


def _require_int64(feature: tf.train.Feature, path: str, index: int, key: str) -> None:
    """DataError naming file, record and field unless a label holds int64 values."""
    kind = feature.WhichOneof("kind")
    if kind != "int64_list":
        got = "no values" if kind is None else f"{kind.removesuffix('_list')} values"
        raise DataError(f"holds {got}, expected int64 (one-hot)", path=path, record=index,
                        field=key)


def check_record(record: bytes, semantic_level_settings: Sequence[tuple[str, int]],
                 path: str = "<memory>", index: int = 0, decode_image: bool = True,
                 decoder: Callable[[bytes], str | None] | None = None) -> None:
    """DataError naming file, record and field if the record lacks a key, holds the
    wrong kind or number of values, or (``decode_image``) its JPEG does not decode
    (by PIL, or by ``decoder``, which says why bytes do not decode, or None)."""
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
        _require_int64(feature_map[key], path, index, key)
        got = len(feature_map[key].int64_list.value)
        if got != num:
            raise DataError(f"holds {got} int64 values, but semantic_level_settings gives "
                            f"{level!r} {num} classes", path=path, record=index, field=key)
    if decode_image:
        encoded = feature_map["image/encoded"].bytes_list.value[0]
        reason = decoder(encoded) if decoder is not None else None
        if decoder is None:
            reason = image_problem(encoded)  # the one rule: a bomb in a record too
        if reason is not None:
            raise DataError(f"does not decode as an image ({reason})", path=path, record=index,
                            field="image/encoded")


@contextlib.contextmanager
def tf_jpeg_decoder() -> Iterator[Callable[[bytes], str | None]]:
    """A decoder for :func:`check_record` that runs TensorFlow's ``decode_jpeg``
    (channels 3), as the graph does (PIL opens PNGs and JPEGs the graph refuses);
    it returns the first line of TF's message, or None. Valid inside the block."""
    with tf.Graph().as_default() as graph:
        data = tf.compat.v1.placeholder(tf.string, [])
        decoded = tf.image.decode_jpeg(data, channels=3)

    def problem(encoded: bytes) -> str | None:
        try:
            session.run(decoded, {data: encoded})
        except tf.errors.OpError as exc:
            return str(exc.message).splitlines()[0]
        return None

    with tf.compat.v1.Session(graph=graph) as session:
        yield problem


def verify_shards(files: Sequence[str], semantic_level_settings: Sequence[tuple[str, int]],
                  decode_images: bool = True) -> int:
    """Check every record of ``files`` (CRC, keys, label lengths, JPEG by the graph's
    decoder); DataError on the first bad one. Returns the record count."""
    count = 0
    with tf_jpeg_decoder() as decoder:
        for path in files:
            for index, record in enumerate(iterate_records(path)):
                check_record(record, semantic_level_settings, path, index, decode_images,
                             decoder)
                count += 1
    return count


def infer_semantic_level_settings(files: Sequence[str]) -> list[tuple[str, int]]:
    """``[(level, n), ...]`` from the ``image/label/<level>`` keys of the first record
    (levels sorted by name). DataError if the files hold no record or no label."""
    for path in files:
        for index, record in enumerate(iterate_records(path)):
            feature_map = _record_features(record)
            for key in feature_map:
                if key.startswith(LABEL_PREFIX):
                    _require_int64(feature_map[key], path, index, key)
            levels = sorted((key[len(LABEL_PREFIX):], len(feature_map[key].int64_list.value))
                            for key in feature_map if key.startswith(LABEL_PREFIX))
            if not levels:
                raise DataError(f"no {LABEL_PREFIX}<level> features", path=path, record=index)
            return levels
    raise DataError(f"no records in any of the {len(files)} files", path=os.path.dirname(files[0]))


def record_spec(semantic_level_settings: Sequence[tuple[str, int]],
                decode_image: bool = True) -> RecordSpec:
    """What each record holds: one bytes ``image/encoded`` (a JPEG that decodes,
    when ``decode_image``) and ``image/filename``, and per level ``(name, n)`` an
    int64 ``image/label/<name>`` of n values (one-hot)."""
    spec = {"image/encoded": FeatureSpec("bytes", image=decode_image),
            "image/filename": FeatureSpec("bytes")}
    for level, num in semantic_level_settings:
        spec[LABEL_PREFIX + level] = FeatureSpec("int64", num)
    return spec
