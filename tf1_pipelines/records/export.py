"""An export's files in its folder: its exact naming scheme, and what it may remove.

A writer that fills a folder (``data%d.tfrecords``, ``<subset>-%05d-of-%05d``,
``<prefix>-rNN.tfrecords``, ...) describes its names with an
:class:`ExportScheme`, then writes through :class:`FolderExport`, which

* refuses a path that is a file, and creates the folder otherwise;
* stops, before writing anything, with a DataError naming any file of the folder
  that the matching reader would read as data but that this scheme did not
  write (a user's ``data_val.tfrecords`` beside ``data0.tfrecords`` would be
  read as training data) - such a file is never deleted;
* holds the folder's lock from its checks to the end (a second writer of the
  folder is refused, naming the process writing it);
* writes every file under a temporary name and publishes them all at the end
  (:class:`~tf1_pipelines.records.writer.AtomicRecordWriters`: on any failure,
  interrupt or SIGTERM included, nothing is published and the earlier export
  stays as it was);
* stops, before writing anything, with a DataError naming any file it would
  overwrite or remove (a file of the scheme's names, or one of ``also_writes``)
  that the folder's manifest (:mod:`tf1_pipelines.records.manifest`) does not
  list as written by this project with its present size and digest: a user's
  own ``data10.tfrecords`` fits the scheme's pattern but is not ours.
  ``force=True`` replaces such files (the original tools' overwrite semantics);
* after publishing, records the files in the manifest and removes the files of
  the same scheme that the earlier export left and this one did not write
  (``data7.tfrecords`` after a re-export into 5 shards), so no reader counts an
  example twice. Nothing outside the scheme, and nothing not ours (unless
  forced), is ever removed.
"""
from __future__ import annotations

import errno
import fnmatch
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import tensorflow as tf

from tf1_pipelines.errors import DataError
from tf1_pipelines.records import folder_lock, manifest
from tf1_pipelines.records.writer import LOCK_TIMEOUT, PARTIAL_SUFFIX, AtomicRecordWriters


@dataclass(frozen=True)
class ExportScheme:
    """The names one export writes in its folder, and the files its reader takes.

    ``description``: the scheme for messages (``"data%d.tfrecords"``).
    ``pattern``: a regular expression matching (in full) the base name of every
    file this kind of export writes, for any shard count.
    ``reader_globs``: the ``fnmatch`` patterns of base names the matching reader
    reads as data (``"*.tfrecords"``); ``*.partial`` files are never data.
    """

    description: str
    pattern: str
    reader_globs: tuple[str, ...]

    def owns(self, name: str) -> bool:
        """True if the base name ``name`` is one this scheme writes."""
        return re.fullmatch(self.pattern, name) is not None

    def is_read_as_data(self, name: str) -> bool:
        """True if the matching reader would read the base name ``name`` as data."""
        if name.endswith(PARTIAL_SUFFIX):
            return False
        return any(fnmatch.fnmatchcase(name, glob) for glob in self.reader_globs)


def prepare_folder(folder: str | os.PathLike[str]) -> str:
    """Create ``folder`` if needed; NotADirectoryError if it (or a parent) is a file."""
    folder = os.fspath(folder)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise NotADirectoryError(errno.ENOTDIR, "the output folder is a file, not a folder",
                                 folder)
    os.makedirs(folder, exist_ok=True)
    return folder


def foreign_data(folder: str, scheme: ExportScheme) -> list[str]:
    """Sorted paths of the files in ``folder`` that the reader would read as data but
    that this scheme does not write."""
    found = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if scheme.is_read_as_data(name) and not scheme.owns(name) and os.path.isfile(path):
            found.append(path)
    return found


def check_no_foreign_data(folder: str, scheme: ExportScheme) -> None:
    """DataError naming the first file of ``folder`` that the reader would mix into
    this export's data (it is left where it is)."""
    foreign = foreign_data(folder, scheme)
    if foreign:
        more = f" (and {len(foreign) - 1} more)" if len(foreign) > 1 else ""
        globs = " or ".join(scheme.reader_globs)
        raise DataError(
            f"is not part of a {scheme.description} export, but its reader takes every "
            f"{globs} of the folder as data{more}; move or rename it, or export into "
            "another folder (nothing was written, nothing was removed)", path=foreign[0])


def scheme_files(folder: str, scheme: ExportScheme) -> list[str]:
    """Base names of the entries of ``folder`` that fit ``scheme``'s names, sorted."""
    return sorted(name for name in os.listdir(folder) if scheme.owns(name))


def check_in_the_way(folder: str, scheme: ExportScheme, also_writes: Iterable[str] = (),
                     force: bool = False) -> None:
    """DataError naming the first file of ``folder`` that an export of ``scheme``
    would overwrite or remove (every file of the scheme's names, and
    ``also_writes``) but that this project did not write; nothing is touched.
    ``force`` lets such regular files be replaced."""
    manifest.check_ours(folder, [*scheme_files(folder, scheme), *also_writes],
                        "overwrite or remove", force)


def remove_stale(folder: str, scheme: ExportScheme, keep: Iterable[str],
                 force: bool = False) -> list[str]:
    """Remove the files of ``scheme`` in ``folder`` that are not in ``keep`` (the
    files just published) and that the manifest proves ours (any regular file of
    the scheme with ``force``). Returns the removed paths; nothing else is touched."""
    kept = {os.path.abspath(path) for path in keep}
    files = manifest.load(folder)
    removed = []
    for name in scheme_files(folder, scheme):
        path = os.path.join(folder, name)
        if os.path.abspath(path) in kept or os.path.islink(path) or not os.path.isfile(path):
            continue
        if force or manifest.is_ours(folder, name, files):
            os.remove(path)
            removed.append(path)
    manifest.forget(folder, [os.path.basename(path) for path in removed])
    return removed


class FolderExport(AtomicRecordWriters):
    """The record files ``names`` of one export into ``folder`` under ``scheme``.

    ``write(i, record)`` appends to file ``i``; ``commit()`` (or leaving the
    ``with`` block normally) publishes every file and then removes this scheme's
    stale files; an exception (or ``abort()``) removes every ``.partial`` file and
    leaves the folder as it was. Raises, before writing: NotADirectoryError when
    ``folder`` is a file, DataError naming a foreign file the reader would read or
    a file in the way that this project did not write (``also_writes``: other
    base names the caller will write, e.g. ``sample_num.txt``; ``force``: replace
    such files), ValueError if a name is not of the scheme.
    """

    def __init__(self, folder: str | os.PathLike[str], scheme: ExportScheme,
                 names: Sequence[str], options: tf.io.TFRecordOptions | None = None,
                 also_writes: Sequence[str] = (), force: bool = False,
                 lock_timeout: float = LOCK_TIMEOUT) -> None:
        self.folder = prepare_folder(folder)
        self.scheme = scheme
        self.force = bool(force)
        self.removed: list[str] = []
        wrong = [name for name in names if not scheme.owns(name)]
        if wrong:
            raise ValueError(f"{wrong[0]!r} is not a name of the {scheme.description} scheme")
        # The folder is ours from the checks to the stale files' removal after publishing.
        self._folder_lock: str | None = folder_lock.acquire(self.folder, lock_timeout)
        try:
            check_no_foreign_data(self.folder, scheme)
            check_in_the_way(self.folder, scheme, also_writes, self.force)
            super().__init__([os.path.join(self.folder, name) for name in names], options,
                             lock_timeout)
        except BaseException:
            self._release_folder()
            raise

    def _release_folder(self) -> None:
        if self._folder_lock is not None:
            path, self._folder_lock = self._folder_lock, None
            folder_lock.release(path)

    def commit(self) -> list[str]:
        """Publish every file, record them in the folder's manifest, then remove the
        scheme's stale files. Returns the paths."""
        try:
            published = super().commit()
            manifest.record(self.folder, published)
            self.removed = remove_stale(self.folder, self.scheme, published, self.force)
        finally:
            self._release_folder()
        return published

    def abort(self) -> None:
        """Remove every temporary file and give the folder back; nothing is published."""
        try:
            super().abort()
        finally:
            self._release_folder()
