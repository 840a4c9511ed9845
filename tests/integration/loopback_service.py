"""A tf.data service on loopback for the tests: a dispatcher and workers, each in its
own process (``python -m tf1_pipelines.cli.service_cli serve ...``), started and stopped
by the test, every wait bounded."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field

START_TIMEOUT = 150.0  # seconds for a server process to import TensorFlow and listen
STOP_TIMEOUT = 15.0


@dataclass
class Server:
    """One server process and the lines it printed (read by a thread of ours)."""

    process: subprocess.Popen[str]
    lines: queue.Queue[str] = field(default_factory=queue.Queue)
    reader: threading.Thread | None = None

    def wait_ready(self, timeout: float) -> list[str]:
        """The lines up to ``ready``; RuntimeError if it exits or stays silent."""
        seen: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise RuntimeError(f"server not ready within {timeout} s: {seen}") from None
            if line == "":
                raise RuntimeError(f"server exited ({self.process.poll()}): {seen}")
            seen.append(line.rstrip())
            if line.startswith("ready"):
                return seen

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Send ``sig``, wait (bounded; killed after that); returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            code = self.process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait(STOP_TIMEOUT)
        if self.reader is not None:
            self.reader.join(STOP_TIMEOUT)
        return code


def start_server(*args: str) -> Server:
    """``serve <args>`` in a new process, its output read line by line (stderr too, so
    that a server's ``error:`` line shows in :meth:`Server.wait_ready`'s message)."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    process = subprocess.Popen([sys.executable, "-m", "tf1_pipelines.cli.service_cli", "serve", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=env)
    server = Server(process)

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            server.lines.put(line)
        server.lines.put("")  # end of output

    server.reader = threading.Thread(target=read, name="server-output", daemon=True)
    server.reader.start()
    return server


@dataclass
class Cluster:
    """A dispatcher (``address``: ``grpc://localhost:port``) and its workers."""

    address: str
    dispatcher: Server
    workers: list[Server]

    def stop(self) -> list[int]:
        """Stop the workers, then the dispatcher; their exit statuses in that order."""
        codes = [worker.stop() for worker in self.workers]
        return codes + [self.dispatcher.stop()]


def start_cluster(port: int, workers: int, work_dir: str | None = None) -> Cluster:
    """A dispatcher on ``port`` (journal in ``work_dir`` if given) with one worker in
    its process (``serve local --workers 1``) and ``workers`` more in processes of
    their own, all ready: three servers for two TensorFlow imports. Workers beat
    every 0.5 s and the dispatcher drops one after 2 s of silence.

    The workers start with the dispatcher and wait for it as long as it may take to
    start (``--connect-timeout`` START_TIMEOUT): with the default 30 s a worker
    exited 2 on a loaded machine, where the dispatcher's TensorFlow import alone
    took longer than that."""
    extra = ["--work-dir", work_dir] if work_dir else []
    dispatcher = start_server("local", "--workers", "1", "--port", str(port),
                              "--worker-timeout", "2", "--heartbeat", "0.5", *extra)
    started = [start_server("worker", "--dispatcher", f"localhost:{port}",
                            "--worker-address", "localhost", "--heartbeat", "0.5",
                            "--connect-timeout", str(START_TIMEOUT))
               for _ in range(workers)]
    cluster = Cluster(f"grpc://localhost:{port}", dispatcher, started)
    try:
        dispatcher.wait_ready(START_TIMEOUT)
        for worker in started:
            worker.wait_ready(START_TIMEOUT)
    except BaseException:
        cluster.stop()
        raise
    return cluster
