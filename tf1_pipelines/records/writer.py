"""TFRecord writers that never leave a partial file behind.

A set of writers holds the lock of every folder it writes into
(:mod:`~tf1_pipelines.records.folder_lock`) from opening to publishing, so two
writers never share a folder: the second is refused at once, naming the process
that holds it (or waits ``lock_timeout`` seconds). Each file is written under a
temporary name unique to the process that no glob of a reader picks up
(``.<name>.<pid>-<random>.partial``, :func:`temporary_name`), listed in the
folder's manifest while it is written, and renamed into place only when every
writer of the set has closed successfully. A user's own ``<name>.partial`` is
never touched; a temporary file that a writer killed outright left behind is
removed by the next writer of the folder (the manifest lists it).
On an exception all temporary files are removed, and
while a set is open SIGTERM raises :class:`~tf1_pipelines.records.interrupts.Terminated`
(so a terminated export cleans up too). TensorFlow's file errors (a full disk,
permission denied) surface as ``OSError`` with the matching ``errno``; a full
disk as one line naming the folder, what was written and the space left
(:func:`disk_full`).
"""
from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType

import numpy as np
import tensorflow as tf

from tf1_pipelines.records import folder_lock, interrupts, manifest
from tf1_pipelines.records.disk_full import file_size, named_when_full

PARTIAL_SUFFIX = ".partial"
#: How long a writer waits for another writer of its folder: 0, refuse at once.
LOCK_TIMEOUT = 0.0

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


def temporary_name(path: str | os.PathLike[str]) -> str:
    """A temporary path beside ``path`` that no user's file and no other process's
    temporary file can have: ``.<name>.<pid>-<8 hex digits>.partial`` (hidden, so
    no ``*`` glob matches it; ``.partial``, so no reader takes it)."""
    folder, name = os.path.split(os.fspath(path))
    return os.path.join(folder, f".{name}.{os.getpid()}-{secrets.token_hex(4)}{PARTIAL_SUFFIX}")


class AtomicRecordWriters:
    """A set of TFRecord files written together and published together.

    ``write(i, record)`` appends a serialized record to file ``i``; ``commit()``
    (or leaving the ``with`` block normally) renames every file into place;
    ``abort()`` (or an exception in the ``with`` block) deletes them all. The
    folders' locks are held from here to ``commit()``/``abort()``
    (FolderLockTimeout, an OSError, when another writer holds one for longer
    than ``lock_timeout`` seconds).
    """

    def __init__(self, paths: Sequence[str | os.PathLike[str]],
                 options: tf.io.TFRecordOptions | None = None,
                 lock_timeout: float = LOCK_TIMEOUT) -> None:
        if not paths:
            raise ValueError("AtomicRecordWriters needs at least one output path, got none")
        self.paths = [os.fspath(p) for p in paths]
        self._partial = [temporary_name(p) for p in self.paths]
        self._writers: list[tf.io.TFRecordWriter] = []
        self.counts = [0] * len(self.paths)
        self.bytes_written = 0
        self._open = True
        self._locks: list[str] = []
        self._listed: dict[str, list[str]] = {}  # folder -> temporary names in its manifest
        self._held = interrupts.hold()  # SIGTERM now raises, so the cleanup below runs
        try:
            self._lock_folders(lock_timeout)
            for partial in self._partial:
                with self._disk_errors(partial):
                    self._writers.append(tf.io.TFRecordWriter(partial, options))
        except BaseException:
            self.abort()
            raise

    def _lock_folders(self, timeout: float) -> None:
        """Take each folder's lock (in sorted order, so two sets cannot deadlock),
        remove what a dead writer left there, list our temporary files."""
        by_folder: dict[str, list[str]] = {}
        for partial in self._partial:
            folder = os.path.dirname(os.path.abspath(partial))
            by_folder.setdefault(folder, []).append(os.path.basename(partial))
        for folder in sorted(by_folder):
            self._locks.append(folder_lock.acquire(folder, timeout))
            manifest.remove_leftover_partials(folder)
            manifest.add_partials(folder, by_folder[folder], os.getpid())
            self._listed[folder] = by_folder[folder]

    @contextlib.contextmanager
    def _disk_errors(self, path: str) -> Iterator[None]:
        """TensorFlow's file errors as OSError; a full disk as :func:`disk_full`."""
        with named_when_full(os.path.dirname(os.path.abspath(path)), lambda: self.bytes_written), os_errors(path):
            yield

    def __len__(self) -> int:
        return len(self.paths)

    def write(self, index: int, record: bytes) -> None:
        """Append one serialized record to file ``index``; OSError if the write fails."""
        with self._disk_errors(self._partial[index]):
            self._writers[index].write(record)
        self.counts[index] += 1
        self.bytes_written += len(record) + 16  # length, its CRC and the data's CRC

    def commit(self) -> list[str]:
        """Close every file and rename it to its final name. Returns the final paths.

        If closing fails (a full disk shows up at the last flush) every temporary
        file is removed and nothing is published.
        """
        try:
            for partial, writer in zip(self._partial, self._writers):
                with self._disk_errors(partial):
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
        """Unlist our temporary files and give the folders' locks back (once)."""
        if not self._open:
            return
        self._open = False
        try:
            for folder, names in self._listed.items():
                with contextlib.suppress(OSError, ValueError):  # a full disk: listed, removed later
                    manifest.drop_partials(folder, names)
        finally:
            for path in reversed(self._locks):
                folder_lock.release(path)
            self._locks.clear()
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
    """Call ``write(tmp_path)`` and rename the result to ``path`` when it returns
    (``tmp_path``: a :func:`temporary_name`, so no user's file is touched). A full
    disk is :func:`disk_full`'s one line naming the folder."""
    path = os.fspath(path)
    partial = temporary_name(path)
    try:
        with named_when_full(os.path.dirname(os.path.abspath(path)), lambda: file_size(partial)):
            write(partial)
            os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def save_count(path: str | os.PathLike[str], count: int) -> None:
    """Write a count as ``np.savetxt(path, np.asarray([count]), '%d')`` does, atomically."""
    write_file_atomically(path, lambda tmp: np.savetxt(tmp, np.asarray([count]), "%d"))
