"""How fast Ctrl-C ends a ``get_batch()`` that waits on a stalled queue:
``python -m tf1_pipelines.bench.interrupt [TRIALS]``.

A child process opens a queue pipeline whose shards hold no record (its readers
run, nothing ever reaches the batch queue) and calls ``get_batch()``; once the
call waits, the parent sends SIGINT and the child notes when ``KeyboardInterrupt``
reached it and which of the pipeline's threads were still alive. One child runs
every trial, a new pipeline each. Prints each latency, the median and the worst.
"""
from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Any
from unittest import mock

#: How long the child waits after the pipeline's threads start before saying it waits.
SETTLE_S = 0.3


@dataclass
class Trial:
    """One Ctrl-C: seconds from SIGINT to KeyboardInterrupt caught (``latency_s``),
    the exception type that ended ``get_batch``, the pipeline threads still alive."""

    latency_s: float
    raised: str
    threads_left: list[str]


def _announce_when_waiting(pipe: Any, trial: int) -> None:
    """In a thread of the child: say "waiting" once get_batch has started the
    pipeline's threads (it then waits for the first batch)."""
    while not pipe.running_threads():
        time.sleep(0.01)
    time.sleep(SETTLE_S)
    print(json.dumps({"waiting": trial}), flush=True)


def _ours(thread: threading.Thread) -> bool:
    return thread.name.startswith("QueueThread-") or thread.name.endswith("-steps")


def _child(trials: int) -> None:
    """Run ``trials`` stalled get_batch calls, each ended by the parent's SIGINT."""
    import tensorflow as tf

    import tf1_pipelines as tp

    # Empty shards are refused at load ("no records"); here they stand for a reader
    # that never delivers (a hung network file system), so the load check is skipped.
    skip_load_check = mock.patch(
        "tf1_pipelines.pipelines.voc_segmentation.pipeline.require_records", lambda paths: None)
    with skip_load_check, tempfile.TemporaryDirectory() as root:
        for shard in range(2):
            with tf.io.TFRecordWriter(os.path.join(root, f"empty-{shard}.tfrecords")):
                pass
        for trial in range(trials):
            pipe = tp.load_pipeline("voc_segmentation", tfrecords=root, batch_size=1,
                                    num_epochs=None, stall_timeout=60)
            threading.Thread(target=_announce_when_waiting, args=(pipe, trial),
                             daemon=True).start()
            try:
                pipe.get_batch()
                raised = "nothing"
            except KeyboardInterrupt:
                raised = "KeyboardInterrupt"
            except BaseException as exc:  # noqa: BLE001 - reported to the parent
                raised = f"{type(exc).__name__}: {exc}"
            caught = time.monotonic()
            left = [t.name for t in threading.enumerate() if _ours(t) and t.is_alive()]
            print(json.dumps({"caught": caught, "raised": raised, "threads_left": left}),
                  flush=True)
            pipe.close()


def measure(trials: int = 10, timeout: float = 300.0) -> list[Trial]:
    """Send SIGINT to a child blocked in get_batch ``trials`` times; one Trial each.
    (CLOCK_MONOTONIC is shared by the processes of a Linux machine.)"""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    child = subprocess.Popen([sys.executable, "-m", "tf1_pipelines.bench.interrupt", "--child",
                              str(trials)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True, env=env)
    timer = threading.Timer(timeout, child.kill)
    timer.start()
    results: list[Trial] = []
    try:
        assert child.stdout is not None
        sent = 0.0
        for line in child.stdout:
            if not line.startswith("{"):
                continue
            message = json.loads(line)
            if "waiting" in message:
                sent = time.monotonic()
                child.send_signal(signal.SIGINT)
            elif "caught" in message:
                results.append(Trial(message["caught"] - sent, message["raised"],
                                     message["threads_left"]))
        child.wait()
    finally:
        timer.cancel()
        if child.poll() is None:
            child.kill()
            child.wait()
    if len(results) != trials:
        raise RuntimeError(f"the child ended after {len(results)} of {trials} trials "
                           f"(exit status {child.returncode})")
    return results


def main(argv: list[str]) -> int:
    """Print each trial, the median and the worst latency; 1 if a trial went wrong."""
    trials = int(argv[0]) if argv else 10
    results = measure(trials)
    for number, trial in enumerate(results, 1):
        print(f"trial {number:2d}: {trial.latency_s * 1000:7.1f} ms  {trial.raised}"
              f"  threads left: {len(trial.threads_left)}")
    latencies = [t.latency_s * 1000 for t in results]
    print(f"Ctrl-C to KeyboardInterrupt: median {statistics.median(latencies):.1f} ms, "
          f"worst {max(latencies):.1f} ms over {trials} trials")
    bad = [t for t in results if t.raised != "KeyboardInterrupt" or t.threads_left]
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        _child(int(sys.argv[2]))
    else:
        sys.exit(main(sys.argv[1:]))
