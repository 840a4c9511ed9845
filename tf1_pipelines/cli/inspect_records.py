"""``python -m tf1_pipelines inspect PATH...``: check every record of TFRecord files.

Each path is a file, or a folder whose record files (``*.tfrecords``,
``*.tfrecord``, ``*.tfr`` and Inception's ``<subset>-NNNNN-of-NNNNN``) are all
checked. Every file is read to its end (CRC of every record), and every record's
features are parsed with TensorFlow's parser against the record kind the first
record shows (the kinds this package writes, see :data:`KINDS`), then checked
for the sizes the readers need. One line per file gives its count; a summary
line ends the report. A bad file does not stop the others.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import tensorflow as tf
from google.protobuf.message import DecodeError

from tf1_pipelines.cli.command_line import EXIT_BAD_INPUT, EXIT_DIFFERENT, EXIT_OK
from tf1_pipelines.errors import DataError
from tf1_pipelines.records.reader import count_records_by_header, iterate_records
from tf1_pipelines.records.verify import FeatureSpec, check_feature, image_problem

RECORD_SUFFIXES = (".tfrecords", ".tfrecord", ".tfr")
_INCEPTION_SHARD = re.compile(r".+-\d{5}-of-\d{5}$")
# Records parsed by one TF call (one call per record would dominate the time),
# bounded in bytes too so that big images do not pile up in memory.
_CHUNK_RECORDS = 256
_CHUNK_BYTES = 16 << 20


@dataclass(frozen=True)
class FileReport:
    """The check of one path.

    ``records``: records read (all of them when the framing is sound, else those
    before the break); ``bad_records``: records whose features failed;
    ``kind``: the record kind recognised; ``error``: the first problem as one
    line, None when the file is good; ``missing``: the path is no file to check.
    """

    path: str
    records: int = 0
    bad_records: int = 0
    kind: str = "unknown"
    error: str | None = None
    missing: bool = False

    @property
    def ok(self) -> bool:
        """True when every record read and passed its feature check."""
        return self.error is None


# ------------------------------------------------------------------------ record kinds
Spec = dict[str, Any]  # feature key -> tf.io.FixedLenFeature / VarLenFeature
Values = Mapping[str, Any]  # feature key -> the parsed value of one record (numpy)


@dataclass(frozen=True)
class RecordKind:
    """A record layout this package writes.

    ``keys``: recognised when the first record holds exactly these keys (or, with
    ``prefix``, these plus keys starting with it); ``spec(first)`` gives TF's
    parsing spec from the first record's features; ``check(values, first)``
    returns ``(field, problem)`` for a record whose parsed values do not fit,
    else None.
    """

    name: str
    keys: frozenset[str]
    spec: Callable[[Any], Spec]
    check: Callable[[Values, Values], tuple[str, str] | None]
    prefix: str | None = None

    def matches(self, keys: set[str]) -> bool:
        """Whether a record with these feature keys is of this kind."""
        extra = keys - self.keys
        if self.prefix is None:
            return not extra and self.keys <= keys
        return self.keys <= keys and bool(extra) and all(k.startswith(self.prefix) for k in extra)


def _fixed(dtype: tf.DType, shape: Sequence[int] = ()) -> Any:
    return tf.io.FixedLenFeature(list(shape), dtype)


#: The div2k_sr pipeline's default patch size: what its reader needs unless told.
DEFAULT_PATCH_SIZE = 96


def _check_patch(values: Values, first: Values, patch_size: int = DEFAULT_PATCH_SIZE
                 ) -> tuple[str, str] | None:
    """The div2k_sr pipeline's own rule (``patch_record_spec``): ``gt`` holds exactly
    ``patch_size ** 2`` bytes, so inspect fails what the pipeline would reject."""
    size = len(values["gt"])
    if size != patch_size * patch_size:
        return "gt", (f"holds {size} bytes, patch_size {patch_size} needs {patch_size * patch_size} "
                      "(the div2k_sr reader's rule; --patch-size names another size)")
    return None


def _check_lod_image(values: Values, first: Values) -> tuple[str, str] | None:
    shape = [int(n) for n in values["shape"]]
    if min(shape) < 1:
        return "shape", f"shape {shape} has an empty dimension"
    if len(values["data"]) != int(np.prod(shape)):
        return "data", f"holds {len(values['data'])} bytes, but shape {shape} needs {int(np.prod(shape))}"
    if shape != [int(n) for n in first["shape"]]:
        return "shape", (f"image has shape {shape}, the first parsed record of this file (one LOD) has "
                         f"{[int(n) for n in first['shape']]}")
    return None


def _check_pair(values: Values, first: Values) -> tuple[str, str] | None:
    height, width = int(values["height"]), int(values["width"])
    if height < 1 or width < 1:
        return ("height" if height < 1 else "width"), f"height {height} and width {width} must be >= 1"
    if len(values["image_raw"]) != height * width * 3:
        return "image_raw", (f"holds {len(values['image_raw'])} bytes, but height {height} x width "
                             f"{width} x 3 channels needs {height * width * 3}")
    if len(values["mask_raw"]) != height * width:
        return "mask_raw", (f"holds {len(values['mask_raw'])} bytes, but height {height} x width "
                            f"{width} needs {height * width}")
    return None


def _labelled_spec(first: Any) -> Spec:
    spec = {"image/encoded": _fixed(tf.string), "image/filename": _fixed(tf.string)}
    for key in first:
        if key.startswith("image/label/"):
            kind = first[key].WhichOneof("kind")
            length = len(getattr(first[key], kind).value) if kind else 0
            spec[key] = _fixed(tf.int64, [length])
    return spec


def _check_labelled_image(values: Values, first: Values) -> tuple[str, str] | None:
    problem = image_problem(values["image/encoded"])
    return None if problem is None else ("image/encoded", problem)


def _unknown_spec(first: Any) -> Spec:
    dtypes = {"bytes_list": tf.string, "int64_list": tf.int64, "float_list": tf.float32}
    return {key: tf.io.VarLenFeature(dtypes[feature.WhichOneof("kind") or "bytes_list"])
            for key, feature in first.items()}


KINDS: tuple[RecordKind, ...] = (
    RecordKind("div2k_sr patches", frozenset({"gt"}), lambda first: {"gt": _fixed(tf.string)},
               _check_patch),
    RecordKind("stylegan_lod images", frozenset({"shape", "data"}),
               lambda first: {"shape": _fixed(tf.int64, [3]), "data": _fixed(tf.string)},
               _check_lod_image),
    RecordKind("voc_segmentation pairs", frozenset({"height", "width", "image_raw", "mask_raw"}),
               lambda first: {"height": _fixed(tf.int64), "width": _fixed(tf.int64),
                              "image_raw": _fixed(tf.string), "mask_raw": _fixed(tf.string)},
               _check_pair),
    RecordKind("inception_multilabel images",
               frozenset({"image/encoded", "image/filename", "image/height", "image/width",
                          "image/channels"}),
               _labelled_spec, _check_labelled_image, prefix="image/label/"),
)
# Any other Example: every record must parse with the value types of record 0.
UNKNOWN = RecordKind("unknown Example", frozenset(), _unknown_spec, lambda values, first: None)
# Record 0 is no Example: the file's records are only counted.
NOT_EXAMPLES = RecordKind("not Examples", frozenset(), lambda first: {}, lambda values, first: None)


def _example_features(record: bytes) -> Any:
    """The feature map of one serialized Example; DecodeError when it is none."""
    return tf.train.Example.FromString(record).features.feature


def _kind_of(features: Any) -> RecordKind:
    keys = set(features.keys())
    return next((kind for kind in KINDS if kind.matches(keys)), UNKNOWN)


# ------------------------------------------------------------------------- parsing
def _values(parsed: Mapping[str, Any], row: int) -> dict[str, Any]:
    """Row ``row`` of a batch parsed by TF, as numpy (bytes for a string scalar)."""
    return {key: value[row] for key, value in parsed.items() if not isinstance(value, tf.SparseTensor)}


def _parse(records: Sequence[bytes], spec: Spec) -> dict[str, Any]:
    """TF's parser on a batch of serialized records: ``{key: numpy [len(records), ...]}``
    (VarLen features stay sparse); InvalidArgumentError for any bad record."""
    parsed = tf.io.parse_example(tf.constant(list(records), dtype=tf.string), spec)
    return {key: value if isinstance(value, tf.SparseTensor) else value.numpy()
            for key, value in parsed.items()}


_KIND_OF_DTYPE = {tf.string: "bytes", tf.int64: "int64", tf.float32: "float"}


def _explain(record: bytes, spec: Spec, exc: tf.errors.OpError) -> tuple[str | None, str]:
    """``(field, problem)`` for a record TF's parser rejected, in the words of the
    Example's contents (the record checker's: missing key, other value type,
    other value count)."""
    try:
        features = _example_features(record)
    except DecodeError:
        return None, "record is not a tf.train.Example"
    for key, feature_spec in spec.items():
        if key not in features and not isinstance(feature_spec, tf.io.FixedLenFeature):
            continue  # an absent VarLen feature parses as empty
        fixed = isinstance(feature_spec, tf.io.FixedLenFeature)
        length = (int(np.prod(feature_spec.shape)) if feature_spec.shape else 1) if fixed else None
        problem = check_feature(features, key,
                                FeatureSpec(_KIND_OF_DTYPE[feature_spec.dtype], length))
        if problem is not None and (fixed or not problem.startswith("holds no ")):
            return key, problem
    return None, f"TensorFlow's parser rejects it ({exc.message.splitlines()[0]})"


def _check_chunk(path: str, start: int, records: Sequence[bytes], kind: RecordKind, spec: Spec,
                 first: Values | None) -> tuple[list[DataError], Values | None]:
    """The problems of records ``start``.. of one file (TF's parser, then the kind's
    check), and the parsed values of record 0 of the file once known."""
    try:
        parsed = _parse(records, spec)
    except tf.errors.OpError:
        parsed = None
    problems: list[DataError] = []
    for row, record in enumerate(records):
        index = start + row
        if parsed is not None:
            values = _values(parsed, row)
        else:  # find which records of the chunk TF rejects, one by one
            try:
                values = _values(_parse([record], spec), 0)
            except tf.errors.OpError as exc:
                field, problem = _explain(record, spec, exc)
                problems.append(DataError(problem, path=path, record=index, field=field))
                continue
        first = values if first is None else first
        found = kind.check(values, first)
        if found is not None:
            problems.append(DataError(found[1], path=path, record=index, field=found[0]))
    return problems, first


def check_file(path: str, patch_size: int = DEFAULT_PATCH_SIZE) -> FileReport:
    """Read every record of one file and check its features; never raises DataError.

    The kind is recognised from record 0 (:data:`KINDS`, else any Example whose
    records keep record 0's value types); when record 0 is no Example at all,
    the rest is only counted. ``patch_size``: the div2k_sr records' patch side
    (the pipeline's default unless given). A file whose first record cannot be
    read is reported "unreadable", not "empty". Returns the :class:`FileReport`.
    """
    count = bad = chunk_bytes = 0
    kind = UNKNOWN
    spec: Spec | None = None
    errors: list[DataError] = []
    first: Values | None = None
    chunk: list[bytes] = []

    def flush() -> None:
        nonlocal bad, first, chunk_bytes
        if spec is not None and chunk:
            problems, first = _check_chunk(path, count - len(chunk), chunk, kind, spec, first)
            bad += len(problems)
            errors.extend(problems[:1])
        chunk.clear()
        chunk_bytes = 0

    try:
        for record in iterate_records(path):
            if count == 0:
                try:
                    features = _example_features(record)
                    kind = _kind_of(features)
                    if kind.check is _check_patch:
                        kind = dataclasses.replace(kind, check=functools.partial(
                            _check_patch, patch_size=patch_size))
                    spec = kind.spec(features)
                except DecodeError:
                    kind, bad = NOT_EXAMPLES, 1
                    errors.append(DataError("record is not a tf.train.Example", path=path, record=0))
            chunk.append(record)
            count += 1
            chunk_bytes += len(record)
            if len(chunk) >= _CHUNK_RECORDS or chunk_bytes >= _CHUNK_BYTES:
                flush()
    except DataError as exc:  # framing: nothing after the break can be read
        flush()
        errors.append(exc)
    else:
        flush()
        try:  # TF's reader takes a file cut inside a record's length field as its end
            count_records_by_header(path)
        except DataError as exc:
            errors.append(exc)
    name = kind.name if count else ("unreadable" if errors else "empty")
    return FileReport(path, count, bad, name, str(errors[0]) if errors else None)


# ------------------------------------------------------------------------ the command
def _is_record_name(name: str) -> bool:
    return name.endswith(RECORD_SUFFIXES) or bool(_INCEPTION_SHARD.match(name))


def record_files(path: str) -> list[str] | FileReport:
    """The files to check for one path: the path itself if a file, a folder's record
    files in name order (not its subfolders); a failed report for a missing
    path or a folder without record files."""
    if os.path.isfile(path):
        return [path]
    if not os.path.isdir(path):
        return FileReport(path, error=str(DataError("no such file or folder: it does not exist",
                                                    path=path)), missing=True)
    names = sorted(name for name in os.listdir(path)
                   if _is_record_name(name) and os.path.isfile(os.path.join(path, name)))
    if not names:
        patterns = ", ".join(f"*{suffix}" for suffix in RECORD_SUFFIXES)
        return FileReport(path, error=str(DataError(
            f"folder holds no TFRecord files ({patterns}, <subset>-NNNNN-of-NNNNN)", path=path)),
            missing=True)
    return [os.path.join(path, name) for name in names]


def format_report(report: FileReport) -> str:
    """One line: ``<path>: <n> records (<kind>), ok`` or with the bad counts and the error."""
    if report.missing:
        return f"{report.path}: FAILED: {report.error}"
    line = f"{report.path}: {report.records} records ({report.kind})"
    if report.ok:
        return line + ", ok"
    return line + f", {report.bad_records} bad, FAILED: {report.error}"


def _print_error(line: str) -> None:
    print(line, file=sys.stderr)


def run_inspect(paths: Sequence[str], check: Callable[[str], FileReport] = check_file,
                out: Callable[[str], None] = print, err: Callable[[str], None] = _print_error
                ) -> int:
    """Check every file of ``paths`` in order, report each on one line (``out``) as
    soon as it is checked, then a summary line; a path that cannot be checked
    goes to ``err``.

    ``check`` is the per-file check (any function of a path returning a
    :class:`FileReport`). Returns the exit code: 0 when every file is good, 1
    when a file failed its check, 2 when a path is missing or an empty folder.
    """
    reports: list[FileReport] = []
    not_checked = 0
    for path in paths:
        files = record_files(path)
        if isinstance(files, FileReport):
            not_checked += 1
            err(format_report(files))
            continue
        for file in files:
            reports.append(check(file))
            out(format_report(reports[-1]))
    bad_files = sum(not report.ok for report in reports)
    out(f"summary: {len(reports)} files checked, {len(reports) - bad_files} ok, {bad_files} failed, "
        f"{sum(r.records for r in reports)} records, {sum(r.bad_records for r in reports)} bad"
        + (f"; {not_checked} paths not checked" if not_checked else ""))
    if not_checked:
        return EXIT_BAD_INPUT
    return EXIT_DIFFERENT if bad_files else EXIT_OK
