"""Session steps run without a timeout in a thread of ours, waited for with a bound.

Why not ``RunOptions(timeout_in_ms=...)``: TensorFlow runs a step that has a timeout
on its asynchronous executor path, and when such a step fails - as the step that
meets the end of the data does, with OutOfRangeError - it aborts the step's
rendezvous and logs ``local_rendezvous.cc:...] Local rendezvous is aborting with
status: ABORTED: Stopping remaining executors.`` (a warning, printed at the 1st,
2nd, 4th, 8th... time). A step without a timeout runs synchronously, and TensorFlow
keeps quiet about an OutOfRangeError there. The log line cannot be silenced alone
(``TF_CPP_MIN_LOG_LEVEL`` would hide every warning of the process), so its cause
is avoided instead: the step runs untimed, and the *wait* for it is bounded.

A step that has not finished within the bound stays in flight; the next call from
the same thread waits for that step again instead of starting another, so no
batch is lost and no second step piles up behind a stalled one.

The wait is cut into slices of :data:`WAIT_SLICE` seconds. A signal such as
Ctrl-C's SIGINT is delivered to any thread of the process that does not block it
(TensorFlow's own threads do not), where Python's handler only sets a flag; the
main thread acts on that flag when it next runs Python code. One long wait would
see Ctrl-C only at its end (after ``stall_timeout``); a slice ends every
:data:`WAIT_SLICE` seconds, so ``KeyboardInterrupt`` is raised from the wait soon
after the key is pressed.

Any number of threads may call :meth:`StepRunner.run` at once: their steps run one
after another in the worker. :meth:`StepRunner.stop` (from any thread) makes every
waiting and later caller raise :class:`StepsClosed` at once.
"""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

#: Longest single wait, in seconds: the main thread sees a pending Ctrl-C at the end of a slice.
WAIT_SLICE = 0.05


class StepTimeout(Exception):
    """The step did not finish within the bound; it is still in flight."""


class StepsClosed(RuntimeError):
    """The runner was stopped: the step will not run, or its outcome is not awaited."""


class _Step:
    """One call of ``fn`` and its outcome."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn: Callable[[], Any] | None = fn
        self.done = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.value = self.fn()  # type: ignore[misc]
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller as is
            self.error = exc
        finally:
            self.fn = None  # drop what the step held (feeds, the pipeline) at once
            self.done.set()

    def outcome(self) -> Any:
        """The value of ``fn``, or its exception raised again."""
        if self.error is not None:
            raise self.error
        return self.value


class StepRunner:
    """One worker thread that runs steps in order; callers wait with a bound.

    The thread starts with the first step and ends on :meth:`close`.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._requests: queue.SimpleQueue[_Step | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._in_flight: dict[int, _Step] = {}  # caller thread -> its step that timed out
        self._lock = threading.Lock()
        self._stopped = threading.Event()

    def run(self, fn: Callable[[], Any], timeout: float) -> Any:
        """Run ``fn()`` in the worker and return its value (or raise its exception).

        Raises StepTimeout if it has not finished within ``timeout`` seconds; the
        caller's next ``run`` then waits for that same step (``fn`` is not called).
        Raises StepsClosed once :meth:`stop` was called (before or during the wait).
        A ``KeyboardInterrupt`` ends the wait within :data:`WAIT_SLICE` seconds of
        reaching the main thread; the step then stays queued or in flight, unawaited.
        """
        caller = threading.get_ident()
        with self._lock:
            if self._stopped.is_set():
                raise StepsClosed(f"{self.name}: closed")
            step = self._in_flight.pop(caller, None)
            if step is None:
                step = _Step(fn)
                self._start()
                self._requests.put(step)
        if not self._wait(step, timeout):
            with self._lock:
                if not self._stopped.is_set():
                    self._in_flight[caller] = step
            raise StepTimeout(f"{self.name}: no result within {timeout:g} s")
        if self._stopped.is_set():  # the step ended because of the stop (or just then)
            raise StepsClosed(f"{self.name}: closed while a step was awaited")
        return step.outcome()

    def _wait(self, step: _Step, timeout: float) -> bool:
        """Wait up to ``timeout`` s, in slices (module docstring); True if the step ended."""
        deadline = time.monotonic() + timeout
        while not step.done.wait(min(WAIT_SLICE, max(0.0, deadline - time.monotonic()))):
            if self._stopped.is_set():
                raise StepsClosed(f"{self.name}: closed while a step was awaited")
            if time.monotonic() >= deadline:
                return False
        return True

    def thread(self) -> threading.Thread | None:
        """The worker thread, if it was started and is alive."""
        return self._thread if self._thread is not None and self._thread.is_alive() else None

    def stop(self) -> None:
        """Refuse new steps; every caller waiting now raises StepsClosed within a slice.
        The step running in the worker (if any) is left to end by itself. Idempotent."""
        with self._lock:
            self._stopped.set()
            self._in_flight.clear()

    def close(self, timeout: float) -> bool:
        """:meth:`stop`, then end the worker after its current step (steps still queued
        are dropped); True if it ended within ``timeout`` s."""
        self.stop()
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is None:
            return True
        self._requests.put(None)
        thread.join(timeout)
        return not thread.is_alive()

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=_serve, args=(self._requests, self._stopped),
                                            name=f"{self.name}-steps", daemon=True)
            self._thread.start()


def _serve(requests: queue.SimpleQueue[_Step | None], stopped: threading.Event) -> None:
    # A module function holding only the queue: the thread keeps no pipeline alive.
    while True:
        step = requests.get()
        if step is None:
            return
        if stopped.is_set():
            step.fn = None  # queued before stop(): dropped unrun
            step.error = StepsClosed("closed before the step ran")
            step.done.set()
            continue
        step.run()
