"""An exclusive lock on a folder, held by one thread of one process at a time.

Used around "build the record cache of this ``data_dir`` unless it exists", so
that two processes (or two threads) asking for the same new cache at once build
it once: the first builds, the others wait for the lock and then find the
records. The lock is ``fcntl.flock`` on ``<folder>/.lock`` (the folder is
created if needed; no record glob matches the name), plus a per-path thread lock because
``flock`` locks held through two descriptors of one process do not exclude
each other reliably across threads. The wait is bounded.
"""
from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

DEFAULT_TIMEOUT = 600.0
LOCK_NAME = ".lock"
_POLL = 0.05

_thread_locks: dict[str, threading.Lock] = {}
_registry_lock = threading.Lock()


class FolderLockTimeout(TimeoutError):
    """Another process or thread held the folder's lock for longer than the wait allowed."""


def _thread_lock(path: str) -> threading.Lock:
    with _registry_lock:
        return _thread_locks.setdefault(path, threading.Lock())


@contextmanager
def folder_lock(folder: str | os.PathLike[str], timeout: float = DEFAULT_TIMEOUT) -> Iterator[None]:
    """Hold the lock of ``folder`` for the block; wait at most ``timeout`` seconds for it.

    Raises :class:`FolderLockTimeout` naming the folder and the lock file when the
    wait runs out. The lock file (``<folder>/.lock``, empty) stays for the next user.
    """
    folder = os.path.abspath(os.fspath(folder))
    lock_path = os.path.join(folder, LOCK_NAME)
    deadline = time.monotonic() + timeout
    in_process = _thread_lock(lock_path)
    if not in_process.acquire(timeout=max(timeout, 0.0)):
        raise FolderLockTimeout(_timeout_message(folder, lock_path, timeout))
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            _flock_until(fd, deadline, folder, lock_path, timeout)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)
    finally:
        in_process.release()


def _flock_until(fd: int, deadline: float, folder: str, lock_path: str, timeout: float) -> None:
    """Take the exclusive flock, polling (non-blocking) so the wait stays bounded."""
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise FolderLockTimeout(_timeout_message(folder, lock_path, timeout)) from None
            time.sleep(_POLL)


def _timeout_message(folder: str, lock_path: str, timeout: float) -> str:
    return (f"folder {folder!r} is still being built by another process or thread after "
            f"{timeout:g} s (lock file {lock_path!r}); wait for it, or remove the lock file "
            "if no other process is running")
