"""TFRecord writers that never leave a partial file behind.

Each file is written under a temporary name that no ``*.tfrecords`` glob picks
up (``<name>.partial``) and renamed into place only when every writer of the set
has closed successfully. On an exception all temporary files are removed, and
while a set is open SIGTERM raises :class:`~tf1_pipelines.records.interrupts.Terminated`
(so a terminated export cleans up too). TensorFlow's file errors (a full disk,
permission denied) surface as ``OSError`` with the matching ``errno``.
"""
from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType

import numpy as np
import tensorflow as tf

from tf1_pipelines.records import interrupts

PARTIAL_SUFFIX = ".partial"

#: TensorFlow's file errors and the OSError errno each one stands for.
_ERRNO = {tf.errors.ResourceExhaustedError: errno.ENOSPC,
          tf.errors.PermissionDeniedError: errno.EACCES,
          tf.errors.NotFoundError: errno.ENOENT,
          tf.errors.AlreadyExistsError: errno.EEXIST,
          tf.errors.FailedPreconditionError: errno.ENOTDIR,
          tf.errors.OutOfRangeError: errno.EFBIG}  # a write past the file size limit


@contextlib.contextmanager
def os_errors(path: str) -> Iterator[None]:
    """Re-raise TensorFlow's file errors about ``path`` as ``OSError`` (ENOSPC for a
    full disk, EACCES, ...), so callers handle one kind of error for files."""
    try:
        yield
    except tf.errors.OpError as exc:
        code = next((n for kind, n in _ERRNO.items() if isinstance(exc, kind)), errno.EIO)
        raise OSError(code, f"{os.strerror(code)} ({exc.message.strip()})", path) from exc


class AtomicRecordWriters:
    """A set of TFRecord files written together and published together.

    ``write(i, record)`` appends a serialized record to file ``i``; ``commit()``
    (or leaving the ``with`` block normally) renames every file into place;
    ``abort()`` (or an exception in the ``with`` block) deletes them all.
    """

    def __init__(self, paths: Sequence[str | os.PathLike[str]],
                 options: tf.io.TFRecordOptions | None = None) -> None:
        if not paths:
            raise ValueError("AtomicRecordWriters needs at least one output path, got none")
        self.paths = [os.fspath(p) for p in paths]
        self._partial = [p + PARTIAL_SUFFIX for p in self.paths]
        self._writers: list[tf.io.TFRecordWriter] = []
        self.counts = [0] * len(self.paths)
        self._open = True
        self._held = interrupts.hold()  # SIGTERM now raises, so the cleanup below runs
        try:
            for partial in self._partial:
                with os_errors(partial):
                    self._writers.append(tf.io.TFRecordWriter(partial, options))
        except BaseException:
            self.abort()
            raise

    def __len__(self) -> int:
        return len(self.paths)

    def write(self, index: int, record: bytes) -> None:
        """Append one serialized record to file ``index``; OSError if the write fails."""
        with os_errors(self._partial[index]):
            self._writers[index].write(record)
        self.counts[index] += 1

    def commit(self) -> list[str]:
        """Close every file and rename it to its final name. Returns the final paths.

        If closing fails (a full disk shows up at the last flush) every temporary
        file is removed and nothing is published.
        """
        try:
            for partial, writer in zip(self._partial, self._writers):
                with os_errors(partial):
                    writer.close()
            for partial, final in zip(self._partial, self.paths):
                os.replace(partial, final)
        except BaseException:
            self.abort()
            raise
        self._finish()
        return list(self.paths)

    def abort(self) -> None:
        """Close and delete every temporary file; nothing is published. Never raises
        for a file that cannot be closed or is already gone."""
        for writer in self._writers:
            with contextlib.suppress(Exception):  # a full disk fails the flush: drop it
                writer.close()
        for partial in self._partial:
            with contextlib.suppress(FileNotFoundError):
                os.remove(partial)
        self._finish()

    def _finish(self) -> None:
        if self._open:
            self._open = False
            interrupts.release(self._held)

    def __enter__(self) -> AtomicRecordWriters:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.abort()


def write_file_atomically(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """Call ``write(tmp_path)`` and rename the result to ``path`` when it returns."""
    path = os.fspath(path)
    partial = path + PARTIAL_SUFFIX
    try:
        write(partial)
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def save_count(path: str | os.PathLike[str], count: int) -> None:
    """Write a count as ``np.savetxt(path, np.asarray([count]), '%d')`` does, atomically."""
    write_file_atomically(path, lambda tmp: np.savetxt(tmp, np.asarray([count]), "%d"))
