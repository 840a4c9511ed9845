"""Reading TFRecord files outside a graph, with errors that name file and record."""
from __future__ import annotations

import glob
import os
from collections.abc import Iterator, Sequence

import tensorflow as tf

from tf1_pipelines.errors import DataError
from tf1_pipelines.runtime.quiet_tf1 import no_deprecation_warnings


def list_record_files(directory: str | os.PathLike[str], pattern: str = "*.tfrecords") -> list[str]:
    """Sorted files matching ``pattern`` in ``directory``.

    Raises DataError when the directory is missing or holds no matching file.
    """
    directory = os.fspath(directory)
    if not os.path.isdir(directory):
        raise DataError("TFRecord directory does not exist", path=directory)
    files = sorted(glob.glob(os.path.join(directory, pattern)))
    if not files:
        raise DataError(f"no TFRecord files matching {pattern!r} in this directory", path=directory)
    return files


def iterate_records(path: str | os.PathLike[str]) -> Iterator[bytes]:
    """Yield the serialized records of one file.

    A missing file, a truncated record or a CRC mismatch raises DataError naming
    the file and the index of the first bad record.
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise DataError("TFRecord file does not exist", path=path)
    index = 0
    with no_deprecation_warnings():  # works in graph mode too, unlike tf.data
        records = tf.compat.v1.io.tf_record_iterator(path)
    try:
        for record in records:
            yield record
            index += 1
    except tf.errors.OpError as exc:  # DataLossError for truncation and bad CRCs
        raise DataError(f"corrupt or truncated TFRecord ({exc.message})", path=path,
                        record=index) from exc


def count_records(paths: Sequence[str | os.PathLike[str]]) -> dict[str, int]:
    """Number of records in each file, reading every record (so it also verifies CRCs)."""
    return {os.fspath(p): sum(1 for _ in iterate_records(p)) for p in paths}


def find_corrupt_file(paths: Sequence[str | os.PathLike[str]]) -> DataError | None:
    """The DataError for the first unreadable file among ``paths``, or None if all read."""
    for path in paths:
        try:
            for _ in iterate_records(path):
                pass
        except DataError as error:
            return error
    return None


def count_records_by_header(path: str | os.PathLike[str], strict: bool = True) -> int:
    """Number of records in one TFRecord file, read from the length fields alone
    (each record is a uint64 length, a 4-byte CRC of it, the data, a 4-byte CRC of
    the data): a seek per record, whatever the record size. DataError naming the
    file when a record runs past its end; with ``strict=False`` the count of the
    whole records before it (the reader names the file when it gets there)."""
    path = os.fspath(path)
    size = os.path.getsize(path)
    count = offset = 0
    with open(path, "rb") as f:
        while offset < size:
            head = f.read(8)
            if len(head) < 8:
                if not strict:
                    return count
                raise DataError("truncated TFRecord (a record's length is cut off)",
                                path=path, record=count)
            length = int.from_bytes(head, "little")
            offset += 8 + 4 + length + 4
            if offset > size:
                if not strict:
                    return count
                raise DataError(f"truncated TFRecord (record of {length} bytes runs past the "
                                f"end of the file)", path=path, record=count)
            f.seek(offset)
            count += 1
    return count
