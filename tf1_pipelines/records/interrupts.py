"""SIGTERM as an exception while an export runs, so its cleanup code runs.

Python turns SIGINT into ``KeyboardInterrupt`` but lets SIGTERM end the process
at once, skipping every ``finally``/``__exit__``: an export killed that way
would leave its ``*.partial`` files behind. While at least one export is open
(:func:`sigterm_raises` entered, or :func:`hold` without :func:`release`), a
SIGTERM raises :class:`Terminated` in the main thread instead; the previous
handler comes back when the last export ends. Nothing is installed from other
threads (Python only runs signal handlers in the main thread) or when some
other code already handles SIGTERM itself.
"""
from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

_lock = threading.Lock()
_depth = 0  # exports open in the main thread
_previous: Any = None
_installed = False


class Terminated(BaseException):
    """SIGTERM arrived while an export was open. Like ``KeyboardInterrupt`` it is not
    an ``Exception``, so ``except Exception`` clauses do not swallow it."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(f"terminated by signal {signal.Signals(signum).name}")
        self.signum = signum


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


def hold() -> bool:
    """One more open export. In the main thread, install the SIGTERM handler if this
    is the first; returns whether it was counted (pass that to :func:`release`)."""
    global _depth, _previous, _installed
    if threading.current_thread() is not threading.main_thread():
        return False  # signal handlers can only be set, and only run, in the main thread
    with _lock:
        _depth += 1
        if _depth == 1:
            current = signal.getsignal(signal.SIGTERM)
            if current in (signal.SIG_DFL, None):  # someone else's handler is left alone
                _previous = current
                signal.signal(signal.SIGTERM, _raise_terminated)
                _installed = True
    return True


def release(held: bool) -> None:
    """One export fewer (``held``: what :func:`hold` returned); after the last one of
    the main thread, restore the previous SIGTERM handler."""
    global _depth, _installed
    if not held:
        return
    with _lock:
        _depth = max(0, _depth - 1)
        if _depth or not _installed or threading.current_thread() is not threading.main_thread():
            return
        if signal.getsignal(signal.SIGTERM) is _raise_terminated:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if _previous is None else _previous)
        _installed = False


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """Within the block (main thread), SIGTERM raises :class:`Terminated`."""
    held = hold()
    try:
        yield
    finally:
        release(held)
