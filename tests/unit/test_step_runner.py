"""get_batch's steps: run untimed in one thread of ours, waited for with a bound."""
from __future__ import annotations

import threading

import pytest

from tf1_pipelines.runtime.step_runner import StepRunner, StepTimeout


@pytest.mark.timeout(30)
def test_values_and_exceptions_reach_the_caller() -> None:
    runner = StepRunner("t")
    assert runner.run(lambda: 41 + 1, timeout=5) == 42
    with pytest.raises(KeyError, match="boom"):
        runner.run(lambda: {}["boom"], timeout=5)
    worker = runner.thread()
    assert worker is not None and worker is not threading.current_thread()
    assert runner.close(timeout=5) and runner.thread() is None and not worker.is_alive()


@pytest.mark.timeout(30)
def test_a_step_past_the_bound_stays_in_flight_and_is_not_repeated() -> None:
    runner = StepRunner("t")
    release = threading.Event()
    calls: list[int] = []

    def slow() -> str:
        calls.append(1)
        release.wait(10)
        return "the late batch"

    with pytest.raises(StepTimeout):
        runner.run(slow, timeout=0.2)
    with pytest.raises(StepTimeout):
        runner.run(lambda: "a second step", timeout=0.2)  # waits for the first again
    release.set()
    assert runner.run(lambda: "a third step", timeout=5) == "the late batch"
    assert calls == [1]
    assert runner.run(lambda: "next", timeout=5) == "next"
    assert runner.close(timeout=5)


@pytest.mark.timeout(30)
def test_close_reports_a_step_that_does_not_end() -> None:
    runner = StepRunner("t")
    release = threading.Event()
    with pytest.raises(StepTimeout):
        runner.run(lambda: release.wait(10), timeout=0.1)
    assert runner.close(timeout=0.2) is False
    release.set()


@pytest.mark.timeout(30)
def test_stop_from_another_thread_wakes_waiting_callers_at_once() -> None:
    import time

    from tf1_pipelines.runtime.step_runner import StepsClosed
    runner = StepRunner("t")
    release = threading.Event()
    outcomes: list[str] = []

    def wait_for_step() -> None:
        try:
            runner.run(lambda: release.wait(10), timeout=20)
            outcomes.append("returned")
        except StepsClosed:
            outcomes.append("closed")

    callers = [threading.Thread(target=wait_for_step) for _ in range(3)]
    for caller in callers:
        caller.start()
    time.sleep(0.2)
    start = time.monotonic()
    runner.stop()
    for caller in callers:
        caller.join(5)
    assert time.monotonic() - start < 5.0  # not the 20 s bound (room for a loaded machine)
    assert outcomes == ["closed"] * 3
    with pytest.raises(StepsClosed):
        runner.run(lambda: 1, timeout=1)
    release.set()
    assert runner.close(timeout=5)
