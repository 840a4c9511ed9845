"""Checking TFRecord files record by record, feature by feature, outside a graph.

A pipeline describes its records with a *record spec*: feature key ->
:class:`FeatureSpec` (kind, number of values, bytes per value, must decode as an
image). :func:`check_record_file` walks one file in Python, parses every
Example and checks it against the spec; it returns a :class:`FileReport` with
the counts and the first bad records (record index, field, reason) instead of
stopping at the first one, so a command line can report every file.

Each pipeline's spec sits next to its records module (``patch_record_spec``,
``RECORD_SPEC``, ``record_spec``).
"""
from __future__ import annotations

import io
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import tensorflow as tf
from google.protobuf.message import DecodeError
from PIL import Image, UnidentifiedImageError

from tf1_pipelines.errors import DataError
from tf1_pipelines.runtime.quiet_tf1 import no_deprecation_warnings

KINDS = ("bytes", "int64", "float")
_LISTS = {"bytes": "bytes_list", "int64": "int64_list", "float": "float_list"}


@dataclass(frozen=True)
class FeatureSpec:
    """What one feature of a record must hold.

    ``kind``: 'bytes', 'int64' or 'float'. ``length``: the number of values (None:
    any number, at least one). ``byte_length``: the size in bytes of each bytes
    value (None: any). ``image``: each bytes value must decode as an image (PIL).
    ``source``: where ``length`` / ``byte_length`` come from, added to a message
    about them (e.g. "patch_size 96").
    """

    kind: str
    length: int | None = 1
    byte_length: int | None = None
    image: bool = False
    source: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"FeatureSpec kind must be one of {KINDS}, got {self.kind!r}")


#: Feature key -> what it must hold. Keys not in the spec are allowed.
RecordSpec = Mapping[str, FeatureSpec]


@dataclass(frozen=True)
class BadRecord:
    """One bad record: its index in the file (0-based), the field, and why."""

    record: int
    field: str | None
    reason: str


@dataclass
class FileReport:
    """What :func:`check_record_file` found in one file.

    ``records``: records read (framing and CRC intact), good or bad.
    ``bad_records``: how many of them break the spec. ``bad``: the first
    ``keep`` of those, in file order. ``framing``: why reading stopped early
    (truncated record, CRC mismatch, missing file; its record index is
    ``records``), or None when the whole file was read.
    """

    path: str
    records: int = 0
    bad_records: int = 0
    bad: list[BadRecord] = field(default_factory=list)
    framing: str | None = None

    @property
    def ok(self) -> bool:
        """True when every record was read and matches the spec."""
        return self.bad_records == 0 and self.framing is None

    def error(self) -> DataError | None:
        """The DataError for the first problem in file order (a bad record before
        a framing error), naming file, record and field; None if the file is good."""
        if self.bad:
            first = self.bad[0]
            return DataError(first.reason, path=self.path, record=first.record,
                             field=first.field)
        if self.framing is not None:
            return DataError(self.framing, path=self.path, record=self.records)
        return None


def check_feature(feature_map: Mapping[str, tf.train.Feature], key: str,
                  spec: FeatureSpec) -> str | None:
    """Why ``feature_map[key]`` breaks ``spec``, or None if it matches."""
    if key not in feature_map:
        return "missing feature"
    feature = feature_map[key]
    kind = feature.WhichOneof("kind")
    if kind is None:
        return f"holds no values, expected {spec.kind}"
    if kind != _LISTS[spec.kind]:
        return f"holds {kind.removesuffix('_list')} values, expected {spec.kind}"
    values = getattr(feature, kind).value
    source = f" ({spec.source})" if spec.source else ""
    if spec.length is not None and len(values) != spec.length:
        return f"holds {len(values)} {spec.kind} values, expected {spec.length}{source}"
    if spec.length is None and not values:
        return f"holds no {spec.kind} values"
    for value in values if spec.kind == "bytes" else ():
        if spec.byte_length is not None and len(value) != spec.byte_length:
            return f"holds {len(value)} bytes, expected {spec.byte_length}{source}"
        if spec.image:
            reason = image_problem(value)
            if reason is not None:
                return reason
    return None


def image_problem(data: bytes) -> str | None:
    """Why ``data`` does not decode as an image, or None if it does. An image of more
    pixels than ``PIL.Image.MAX_IMAGE_PIXELS`` is refused from its header, as
    :mod:`tf1_pipelines.image.open_image` does for files (this layer may not
    import it): a decompression bomb in a record is never decoded."""
    try:
        with Image.open(io.BytesIO(data)) as im:
            limit = Image.MAX_IMAGE_PIXELS
            if limit is not None and im.width * im.height > limit:
                return (f"is a {im.width}x{im.height} image, more pixels than the limit of "
                        f"{int(limit):,} (PIL.Image.MAX_IMAGE_PIXELS; a decompression bomb)")
            im.load()
    except Image.DecompressionBombError as exc:
        return f"is a decompression bomb ({exc})"
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as exc:
        return f"does not decode as an image ({exc})"
    return None


def check_record(record: bytes, spec: RecordSpec) -> tuple[str | None, str] | None:
    """``(field, reason)`` for the first feature of one serialized record that
    breaks ``spec`` (field None: not an Example at all), or None if it matches."""
    try:
        feature_map = tf.train.Example.FromString(record).features.feature
    except DecodeError as exc:
        return None, f"not a tf.train.Example ({exc})"
    for key, feature_spec in spec.items():
        reason = check_feature(feature_map, key, feature_spec)
        if reason is not None:
            return key, reason
    return None


def check_record_file(path: str | os.PathLike[str], spec: RecordSpec,
                      keep: int = 1) -> FileReport:
    """Read every record of one TFRecord file and check it against ``spec``.

    Never raises for bad data: a missing file, a truncated record or a CRC
    mismatch ends the walk and is given in ``framing``; records that break the
    spec are counted, and the first ``keep`` are kept in ``bad``. Use
    ``report.error()`` for the DataError to raise.
    """
    report = FileReport(path=os.fspath(path))
    if not os.path.isfile(report.path):
        report.framing = "TFRecord file does not exist"
        return report
    with no_deprecation_warnings():  # works in graph mode too, unlike tf.data
        records = tf.compat.v1.io.tf_record_iterator(report.path)
    try:
        for record in records:
            problem = check_record(record, spec)
            if problem is not None:
                report.bad_records += 1
                if len(report.bad) < keep:
                    report.bad.append(BadRecord(report.records, problem[0], problem[1]))
            report.records += 1
    except tf.errors.OpError as exc:  # DataLossError: truncated record or bad CRC
        report.framing = f"corrupt or truncated TFRecord ({exc.message})"
    return report


def first_bad_record(paths: Sequence[str | os.PathLike[str]],
                     spec: RecordSpec) -> DataError | None:
    """The DataError for the first bad record among ``paths`` (in order), or None."""
    for path in paths:
        error = check_record_file(path, spec).error()
        if error is not None:
            return error
    return None


def first_record_error(paths: Sequence[str | os.PathLike[str]],
                       spec: RecordSpec) -> DataError | None:
    """Check only the first record of each file (a cheap check at load, which
    catches a wrong layout and a cut header); the DataError or None. Files
    of zero bytes are skipped."""
    for path in [os.fspath(p) for p in paths]:
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            continue
        with no_deprecation_warnings():
            records = tf.compat.v1.io.tf_record_iterator(path)
        try:
            first = next(iter(records), None)
        except tf.errors.OpError as exc:
            return DataError(f"corrupt or truncated TFRecord ({exc.message})", path=path,
                             record=0)
        if first is not None:
            problem = check_record(first, spec)
            if problem is not None:
                return DataError(problem[1], path=path, record=0, field=problem[0])
    return None


def require_records(paths: Sequence[str | os.PathLike[str]]) -> None:
    """DataError saying "no records" when every file is empty (zero bytes)."""
    names = [os.fspath(p) for p in paths]
    if names and all(os.path.isfile(p) and os.path.getsize(p) == 0 for p in names):
        where = os.path.dirname(names[0]) if len(names) > 1 else names[0]
        raise DataError(f"no records: all {len(names)} TFRecord files are empty", path=where)
