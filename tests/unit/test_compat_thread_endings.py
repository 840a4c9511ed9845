"""ThreadEndings.settle: at the run's end a daemon thread is let out of a cancelled session call.

The independent check is the thread itself: after ``settle`` returns, the
daemon thread blocked in ``sess.run(dequeue)`` has ended with the
``CancelledError`` the close gave it, instead of being inside TensorFlow's C++
code when the interpreter finalizes.
"""
from __future__ import annotations

import threading
import time

import pytest
import tensorflow as tf

from compat.runner import thread_endings
from compat.runner.thread_endings import ThreadEndings


@pytest.fixture()
def endings():
    watcher = ThreadEndings()
    watcher.install()
    yield watcher
    watcher.uninstall()


def _blocked_dequeue(graph: tf.Graph, sess: tf.compat.v1.Session, ended: list[BaseException]) -> threading.Thread:
    with graph.as_default():
        queue = tf.compat.v1.FIFOQueue(4, [tf.int32], shapes=[[]])
        dequeue = queue.dequeue()

    def run() -> None:
        try:
            sess.run(dequeue)
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
            ended.append(exc)
            time.sleep(0.3)  # still alive for a moment, outside any session call

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.timeout(60)
def test_settle_waits_for_a_daemon_thread_inside_a_closed_sessions_call(endings: ThreadEndings) -> None:
    graph = tf.Graph()
    sess = tf.compat.v1.Session(graph=graph)
    ended: list[BaseException] = []
    thread = _blocked_dequeue(graph, sess, ended)
    deadline = time.monotonic() + 20
    while not ended and time.monotonic() < deadline:
        if thread in thread_endings._threads_in_session_calls():
            break
        time.sleep(0.01)
    assert thread in thread_endings._threads_in_session_calls()  # blocked inside sess.run
    assert endings.settle(bound=5) == []  # not stopped yet: returns at once, waits for nothing
    assert thread.is_alive() and not ended
    sess.close()  # cancels the dequeue
    assert endings.stopped
    assert endings.settle(bound=20) == []
    assert len(ended) == 1 and isinstance(ended[0], tf.errors.CancelledError)
    thread.join(10)
    assert not thread.is_alive()


@pytest.mark.timeout(60)
def test_settle_does_not_wait_for_a_daemon_thread_outside_tensorflow(endings: ThreadEndings) -> None:
    release = threading.Event()
    sleeper = threading.Thread(target=release.wait, daemon=True)
    sleeper.start()
    try:
        graph = tf.Graph()
        tf.compat.v1.Session(graph=graph).close()
        assert endings.stopped
        started = time.monotonic()
        assert endings.settle(bound=5) == []
        assert time.monotonic() - started < 2  # the sleeper is no session call: not waited for
        assert sleeper.is_alive()
    finally:
        release.set()
        sleeper.join(10)


def _thread_in_a_session_frame(release: threading.Event) -> threading.Thread:
    """A daemon thread whose stack is in a file named as TensorFlow's session module, until released."""
    namespace: dict = {}
    exec(compile("def run(release):\n    release.wait()\n", "/site/tensorflow/python/client/session.py", "exec"),
         namespace)
    thread = threading.Thread(target=namespace["run"], args=(release,), daemon=True, name="feeder")
    thread.start()
    return thread


@pytest.mark.timeout(60)
def test_settle_returns_when_the_session_call_ends_and_names_a_thread_past_the_bound(endings: ThreadEndings) -> None:
    release = threading.Event()
    thread = _thread_in_a_session_frame(release)
    try:
        tf.compat.v1.Session(graph=tf.Graph()).close()
        assert endings.settle(bound=0.3) == ["feeder"]  # still inside at the bound: named
        timer = threading.Timer(0.5, release.set)
        timer.start()
        started = time.monotonic()
        assert endings.settle(bound=20) == []
        waited = time.monotonic() - started
        assert 0.4 <= waited < 10, waited  # waited for the call to end, not for the bound
        thread.join(5)
        assert not thread.is_alive()
    finally:
        release.set()


def test_the_runner_names_a_thread_still_inside_at_the_bound(capsys: pytest.CaptureFixture[str]) -> None:
    from compat.runner import run

    class Stuck(ThreadEndings):
        def settle(self, bound: float = thread_endings.SETTLE_BOUND) -> list[str]:
            return ["feeder"]

    run._settle_threads(Stuck())
    err = capsys.readouterr().err
    assert "daemon thread 'feeder' still inside a TensorFlow session call at exit after 10 s" in err
    run._settle_threads(ThreadEndings())  # nothing stopped, nothing waiting: silent
    assert capsys.readouterr().err == ""
