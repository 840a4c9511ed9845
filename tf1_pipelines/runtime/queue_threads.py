"""Queue-runner threads that stop without cancelling a step.

``QueueRunner.create_threads`` adds, per runner, a closer thread that closes the
runner's queue with ``cancel_pending_enqueues=True`` once the coordinator stops.
Every enqueue then blocked on a full queue fails with CANCELLED, and TensorFlow logs
``local_rendezvous.cc:...] Local rendezvous is aborting with status: CANCELLED:
Enqueue operation was cancelled`` for it: at every ``close()`` of a pipeline whose
queues were full. TensorFlow stays quiet about a step that ends with OutOfRange.

These threads run the same enqueue ops as the runners, and end the same way when
their input runs out (the last thread of a runner to meet a closed input closes the
runner's queue, without cancelling). :meth:`QueueThreads.stop` lets every step in
flight finish instead of cancelling it: no thread starts a new step, a full queue
gives up one element at a time so that blocked enqueues complete, and a queue whose
runner threads have all ended is closed, so that steps waiting to dequeue from it
end with OutOfRange. Queue graphs have no cycles, so this ends; ``timeout`` bounds
it anyway.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import tensorflow as tf


@dataclass
class _Runner:
    """One QueueRunner and the state of its threads."""

    runner: Any               # tf.compat.v1.train.QueueRunner
    queue_name: str           # its queue op's name
    alive: int = 0            # its threads still running
    closed: bool = False      # its queue closed by us or by its last thread


class QueueThreads:
    """The threads of a pipeline's queue runners in one session."""

    def __init__(self, sess: Any, coord: Any, runners: list[Any],
                 sizes: dict[str, tuple[tf.Tensor, int]], dequeue_one: dict[str, Any]) -> None:
        self.sess = sess
        self.coord = coord
        self.sizes = sizes                # queue op name -> (size op, capacity)
        self.dequeue_one = dequeue_one    # queue op name -> an op taking one element
        self.runners = [_Runner(r, r.queue.queue_ref.op.name) for r in runners]
        self.threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._stopping = False

    def start(self) -> list[threading.Thread]:
        """Start one daemon thread per enqueue op; returns them."""
        for state in self.runners:
            for op in state.runner.enqueue_ops:
                state.alive += 1
                thread = threading.Thread(target=self._loop, args=(state, op), daemon=True,
                                          name=f"QueueThread-{op.name}")
                self.threads.append(thread)
                thread.start()
        return list(self.threads)

    def _loop(self, state: _Runner, enqueue_op: Any) -> None:
        try:
            step = self.sess.make_callable(enqueue_op)
            while True:
                with self._lock:
                    if self._stopping or self.coord.should_stop():
                        return
                try:
                    step()
                except (tf.errors.OutOfRangeError, tf.errors.CancelledError):
                    return  # the input ran out (or was closed): the thread's work is done
        except Exception as exc:  # noqa: BLE001 - a reader error stops the pipeline, as TF1's
            self.coord.request_stop(exc)
        finally:
            with self._lock:
                state.alive -= 1
                last = state.alive == 0 and not self._stopping
            if last:
                self._close(state)  # as QueueRunner: the last thread closes the queue

    def _close(self, state: _Runner) -> None:
        with self._lock:
            if state.closed:
                return
            state.closed = True
        try:
            self.sess.run(state.runner.close_op)  # no cancel: pending dequeues get the rest
        except (tf.errors.OpError, RuntimeError):
            pass  # the session is closing: nothing waits on the queue any more

    def stop(self, timeout: float) -> bool:
        """Let every step in flight end (see the module docstring); True if every
        thread ended within ``timeout`` seconds."""
        with self._lock:
            self._stopping = True
        deadline = time.monotonic() + timeout
        while any(t.is_alive() for t in self.threads) and time.monotonic() < deadline:
            for state in self.runners:
                if state.alive == 0:
                    self._close(state)
                elif not state.closed:
                    self._make_room(state.queue_name)
            time.sleep(0.005)
        for state in self.runners:
            if state.alive == 0:
                self._close(state)
        return not any(t.is_alive() for t in self.threads)

    def _make_room(self, queue_name: str) -> None:
        """Take one element from a full queue: an enqueue blocked on it completes."""
        if queue_name not in self.sizes:
            return  # a queue built outside the pipeline: left to its own runner
        size_op, capacity = self.sizes[queue_name]
        try:
            if self.sess.run(size_op) >= capacity:
                # It cannot block on a full queue; the bound covers a consumer that
                # emptied it down to min_after_dequeue in between.
                self.sess.run(self.dequeue_one[queue_name],
                              options=tf.compat.v1.RunOptions(timeout_in_ms=1000))
        except (tf.errors.OpError, RuntimeError):
            pass  # closed meanwhile, or the session is closing
