"""An exclusive lock on a folder, held by one thread of one process at a time.

Every writer of the project holds the lock of the folder it writes into for as
long as it writes (the record writers, the exporters, ``convert``, the record
cache), so two writers never share a folder's temporary files: a second one
waits for a bounded time, or is refused at once (``timeout=0``), with an error
naming the process that holds the lock. Around "build the record cache of this
``data_dir`` unless it exists" the lock makes two processes (or threads) asking
for the same new cache at once build it once.

The lock is ``fcntl.flock`` on the folder itself (the folder is created if
needed), so a refused or finished writer leaves nothing behind. While held,
``<folder>/.tf1_pipelines.lock`` says which process holds it
(``tf1_pipelines folder lock, pid N``; no record glob matches the name, and a
user's own ``.lock`` is never opened); the holder removes it on release. A lock
whose holder died is free (the kernel drops a ``flock`` with its process): the
file it left names a stale pid, :func:`stale_holder` reports it and the next
holder overwrites it. A per-path thread lock (re-entrant: a thread that holds a
folder may take it again, as the cache does around an export) is taken first,
because ``flock`` locks held through two descriptors of one process do not
exclude each other reliably across threads. The wait is bounded.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

DEFAULT_TIMEOUT = 600.0
LOCK_NAME = ".tf1_pipelines.lock"
#: The lock file of earlier versions (always empty); only ``cache clear`` knows it.
LEGACY_LOCK_NAME = ".lock"
_TEXT = "tf1_pipelines folder lock, pid {pid}\n"
_PID = re.compile(r"^tf1_pipelines folder lock, pid (\d+)\n?$")
_POLL = 0.05


class FolderLockTimeout(TimeoutError):
    """Another process or thread held the folder's lock for longer than the wait allowed."""


class _PathLock:
    """The lock of one lock file inside this process: who holds it, how often, the fd."""

    def __init__(self) -> None:
        self.thread_lock = threading.RLock()
        self.depth = 0
        self.fd = -1


_path_locks: dict[str, _PathLock] = {}
_registry_lock = threading.Lock()


def _path_lock(path: str) -> _PathLock:
    with _registry_lock:
        return _path_locks.setdefault(path, _PathLock())


def lock_path(folder: str | os.PathLike[str]) -> str:
    """The file naming the holder of ``folder``'s lock."""
    return os.path.join(os.path.abspath(os.fspath(folder)), LOCK_NAME)


def holder_pid(path: str) -> int | None:
    """The pid a lock file names (None when empty, missing or not ours)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            match = _PID.match(f.read(200))
    except OSError:
        return None
    return int(match.group(1)) if match else None


def is_free(folder: str | os.PathLike[str]) -> bool:
    """True if no process holds the lock of ``folder`` (a missing folder is free)."""
    try:
        fd = os.open(os.fspath(folder), os.O_RDONLY | os.O_DIRECTORY)
    except (FileNotFoundError, NotADirectoryError):
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return True
    finally:
        os.close(fd)


def stale_holder(folder: str | os.PathLike[str]) -> int | None:
    """The pid that the lock file of a free ``folder`` still names: a holder that
    died while holding it (None when there is no such file or the lock is held)."""
    pid = holder_pid(lock_path(folder))
    if pid is None or not is_free(folder):
        return None
    return pid


def is_our_free_lock_file(path: str) -> bool:
    """True if ``path`` is a lock file this module wrote (naming a pid in its own
    words, or empty: the lock files of earlier versions) and nobody holds its
    folder: safe for ``cache clear`` to remove. A file with other content is not."""
    if os.path.islink(path) or not os.path.isfile(path):
        return False
    if os.path.getsize(path) and holder_pid(path) is None:
        return False  # someone else's content
    return is_free(os.path.dirname(os.path.abspath(path)))


def acquire(folder: str | os.PathLike[str], timeout: float = DEFAULT_TIMEOUT) -> str:
    """Take the lock of ``folder`` (created if needed), waiting at most ``timeout``
    seconds (0: refuse at once if held). Returns the folder's absolute path, to
    pass to :func:`release`. FolderLockTimeout naming the folder and the holder
    otherwise."""
    folder = os.path.abspath(os.fspath(folder))
    deadline = time.monotonic() + max(timeout, 0.0)
    state = _path_lock(folder)
    if not state.thread_lock.acquire(timeout=max(timeout, 0.0)):
        raise FolderLockTimeout(_timeout_message(folder, timeout, "another thread of this process"))
    if state.depth:  # this thread holds it already
        state.depth += 1
        return folder
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            _flock_until(fd, deadline, folder, timeout)
            _write_holder(folder)
        except BaseException:
            os.close(fd)  # closing drops the flock too
            raise
    except BaseException:
        state.thread_lock.release()
        raise
    state.fd, state.depth = fd, 1
    return folder


def _write_holder(folder: str) -> None:
    """Name this process in the lock file (over a stale one a dead holder left)."""
    path = os.path.join(folder, LOCK_NAME)
    if os.path.islink(path) or (os.path.lexists(path) and not os.path.isfile(path)):
        raise FileExistsError(f"{path!r} is in the way of the folder's lock file; move it")
    with open(path, "w", encoding="utf-8") as f:
        f.write(_TEXT.format(pid=os.getpid()))


def release(folder: str) -> None:
    """Give back one :func:`acquire` of ``folder`` by this thread; the last one
    removes the lock file and unlocks the folder."""
    state = _path_lock(folder)
    state.depth -= 1
    if state.depth == 0:
        fd, state.fd = state.fd, -1
        try:
            with contextlib.suppress(FileNotFoundError):
                os.remove(os.path.join(folder, LOCK_NAME))
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)
    state.thread_lock.release()


@contextmanager
def folder_lock(folder: str | os.PathLike[str], timeout: float = DEFAULT_TIMEOUT) -> Iterator[None]:
    """Hold the lock of ``folder`` for the block; wait at most ``timeout`` seconds for it.

    Raises :class:`FolderLockTimeout` naming the folder, the lock file and the
    holding process when the wait runs out. Nothing of the lock stays after it.
    """
    held = acquire(folder, timeout)
    try:
        yield
    finally:
        release(held)


def _flock_until(fd: int, deadline: float, folder: str, timeout: float) -> None:
    """Take the exclusive flock, polling (non-blocking) so the wait stays bounded."""
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                pid = holder_pid(os.path.join(folder, LOCK_NAME))
                holder = f"process {pid}" if pid is not None else "another process"
                raise FolderLockTimeout(_timeout_message(folder, timeout, holder)) from None
            time.sleep(_POLL)


def _timeout_message(folder: str, timeout: float, holder: str) -> str:
    waited = f"after waiting {timeout:g} s" if timeout > 0 else "(a second writer is refused)"
    return (f"folder {folder!r} is being written by {holder} {waited} (lock file "
            f"{os.path.join(folder, LOCK_NAME)!r}); wait for that writer to finish, or write "
            "into another folder")
