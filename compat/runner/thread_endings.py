"""Which exceptions of a script's threads are the normal end of a TF1 input thread, not a failure.

A 2016-2018 input script often fed a queue from its own ``threading.Thread``
(``sess.run(enqueue_op)`` in a loop) and simply closed the session at the end.
Closing the session cancels the enqueue the thread is blocked in, so the thread
dies of ``CancelledError``; under TensorFlow 1.x Python printed that traceback
and the script still exited 0. TF1's own ``QueueRunner`` threads ended the same
way silently, and also on ``OutOfRangeError`` (the input is exhausted) or on a
closed queue once the ``Coordinator`` was asked to stop.

The runner fails the run when a thread of the script dies of an exception
(a converter whose worker died has written nothing), except for these endings:
a ``CancelledError``, ``OutOfRangeError``, closed-queue ``AbortedError`` or
"Attempted to use a closed Session" ``RuntimeError`` raised after a session of
the process was closed or a ``Coordinator`` asked to stop.
:class:`ThreadEndings` watches both events; only the runner installs it, in its
own process. Importing this module changes nothing.

At the end of the run :meth:`ThreadEndings.settle` lets such a daemon thread
leave TensorFlow's session call before the interpreter finalizes: Python 3
ends a daemon thread that wakes during finalization by unwinding its stack,
and unwinding through TensorFlow's C++ frames aborts the process ("terminate
called ... exception not rethrown") after the script had succeeded.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

__all__ = ["SETTLE_BOUND", "ThreadEndings"]

#: Seconds :meth:`ThreadEndings.settle` waits at most (a cancelled call returns within milliseconds).
SETTLE_BOUND = 10.0


class ThreadEndings:
    """Watches session closes and coordinator stops; tells a normal thread ending from a failure."""

    def __init__(self) -> None:
        self._stopped = threading.Event()
        self._undo: list[Callable[[], None]] = []

    @property
    def stopped(self) -> bool:
        """True once a session was closed or a Coordinator asked to stop."""
        return self._stopped.is_set()

    def install(self) -> None:
        """Wrap ``Session.close`` and ``Coordinator.request_stop`` (TensorFlow must be importable)."""
        from tensorflow.python.client import session
        from tensorflow.python.training import coordinator
        self._wrap(session.BaseSession, "close")
        self._wrap(coordinator.Coordinator, "request_stop")

    def uninstall(self) -> None:
        """Put back what :meth:`install` wrapped."""
        while self._undo:
            self._undo.pop()()

    def is_normal_end(self, exc: BaseException | None) -> bool:
        """True if ``exc`` ended a TF1 input thread the way TF 1.x let it end without failing."""
        if exc is None or not self.stopped:
            return False
        from tensorflow.python.framework import errors
        if isinstance(exc, (errors.CancelledError, errors.OutOfRangeError)):
            return True
        if isinstance(exc, RuntimeError) and "closed Session" in str(exc):
            return True  # the thread's next sess.run after close(): TF 1.x raised the same
        return isinstance(exc, errors.AbortedError) and "closed" in str(exc).lower()

    def settle(self, bound: float = SETTLE_BOUND) -> list[str]:
        """After a session close: wait up to ``bound`` seconds for daemon threads inside a session call.

        Only threads whose stack is in TensorFlow's ``client/session.py`` are
        waited for (a cancelled ``sess.run`` returns within milliseconds); a
        daemon thread doing anything else is left to Python's exit as always.
        Returns the names of the threads still inside a session call at the bound.
        """
        if not self.stopped:
            return []
        deadline = time.monotonic() + bound
        while True:
            waiting = _threads_in_session_calls()
            if not waiting or time.monotonic() >= deadline:
                return [thread.name for thread in waiting]
            waiting[0].join(max(0.0, min(0.05, deadline - time.monotonic())))

    def _wrap(self, owner: type, name: str) -> None:
        original = owner.__dict__[name]
        stopped = self._stopped

        def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
            stopped.set()  # before: the thread's enqueue is cancelled while close() runs
            return original(self, *args, **kwargs)

        wrapped.__wrapped__ = original  # type: ignore[attr-defined]
        wrapped.__doc__ = original.__doc__
        setattr(owner, name, wrapped)
        self._undo.append(lambda: setattr(owner, name, original))


_SESSION_FILE = os.path.join("client", "session.py")


def _threads_in_session_calls() -> list[threading.Thread]:
    """Live daemon threads (not the caller) whose Python stack is inside TensorFlow's Session code."""
    frames = sys._current_frames()
    found = []
    for thread in threading.enumerate():
        if thread is threading.current_thread() or not thread.daemon or not thread.is_alive():
            continue
        frame = frames.get(thread.ident) if thread.ident is not None else None
        if frame is not None and _in_session_call(frame):
            found.append(thread)
    return found


def _in_session_call(frame: FrameType | None) -> bool:
    while frame is not None:
        name = frame.f_code.co_filename
        if name.endswith(_SESSION_FILE) and "tensorflow" in name:
            return True
        frame = frame.f_back
    return False
