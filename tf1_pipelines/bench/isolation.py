"""Running a case in a process of its own: a forked child on Linux (TensorFlow is
imported once, in the parent), else a ``python -m tf1_pipelines.bench --worker``
subprocess; the child's output goes to a log shown only when the case fails."""
from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from tf1_pipelines.bench.cases import BENCHES
from tf1_pipelines.bench.measure import Result, measure_case, runtime_held_mb


def _can_fork() -> bool:
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def _child_main(write_fd: int, log_fd: int, task: Callable[[], Any]) -> None:
    """In a forked child: send stdout and stderr (TensorFlow's warnings, the
    cancelled-enqueue notes of stopping queue runners) to the log file, run
    ``task``, send its JSON outcome, exit without cleanup."""
    code = 0
    os.dup2(log_fd, 1)
    os.dup2(log_fd, 2)
    try:
        outcome: dict[str, Any] = {"value": task()}
    except BaseException:  # everything goes back to the parent
        outcome, code = {"error": traceback.format_exc()}, 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        with os.fdopen(write_fd, "w") as pipe:
            json.dump(outcome, pipe)
    finally:
        os._exit(code)


def _read_child(read_fd: int, pid: int, timeout: float) -> str:
    """Everything the child writes, or RuntimeError (child killed) after ``timeout``."""
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    with os.fdopen(read_fd, "rb") as pipe:
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([pipe], [], [], max(0.0, left))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise RuntimeError(f"no answer within {timeout:.0f} s; the case was killed")
            chunk = os.read(pipe.fileno(), 1 << 16)
            if not chunk:
                return b"".join(chunks).decode()
            chunks.append(chunk)


def run_forked(task: Callable[[], Any], timeout: float) -> Any:
    """``task()`` run in a forked child; its JSON-able return value, or RuntimeError
    carrying the child's traceback and the end of its output."""
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as log:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            _child_main(write_fd, log.fileno(), task)
        os.close(write_fd)
        try:
            text = _read_child(read_fd, pid, timeout)
            os.waitpid(pid, 0)
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}\n{_tail(log)}") from None
        outcome = json.loads(text) if text else {"error": "the child died without an answer"}
        if "error" in outcome:
            raise RuntimeError(f"{outcome['error']}\noutput of the case:\n{_tail(log)}")
    return outcome["value"]


def _tail(log: Any, size: int = 2000) -> str:
    """The last ``size`` bytes of a child's log file."""
    log.seek(0, os.SEEK_END)
    log.seek(max(0, log.tell() - size))
    return log.read().decode("utf-8", "replace")


def _run_worker(pipeline: str, case: str, seconds: float, scale: int, timeout: float) -> Result:
    """One case in a fresh ``python -m tf1_pipelines.bench --worker`` process."""
    cmd = [sys.executable, "-m", "tf1_pipelines.bench", "--worker", pipeline, case,
           str(seconds), str(scale)]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return Result(**json.loads(done.stdout.strip().splitlines()[-1]))


def measure_isolated(pipeline: str, case: str, seconds: float, scale: int = 1) -> Result:
    """One case in a process of its own (forked on Linux, else a subprocess)."""
    timeout = 120.0 + 20.0 * seconds
    if _can_fork():
        return Result(**run_forked(lambda: asdict(measure_case(pipeline, case, seconds, scale)),
                                   timeout))
    return _run_worker(pipeline, case, seconds, scale, timeout)


def prepare(name: str) -> None:
    """Build the pipeline's embedded data before anything is timed."""
    prepare = BENCHES[name].prepare
    if _can_fork():
        run_forked(lambda: _discard(prepare()), timeout=900.0)
    else:
        prepare()


def _discard(value: Any) -> None:
    """Nothing: what a preparation returns stays in its child."""


def runtime_isolated() -> float:
    """:func:`~tf1_pipelines.bench.measure.runtime_held_mb` in a forked child (0
    where there is no fork: a subprocess's peak includes its own imports)."""
    return float(run_forked(runtime_held_mb, timeout=300.0)) if _can_fork() else 0.0
