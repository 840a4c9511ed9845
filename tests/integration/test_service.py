"""The tf.data service on loopback: a fault-tolerant dispatcher (journal in a temporary
folder) with one worker in its process and one worker in another, both started by
``serve`` commands. One distributed epoch holds exactly the data set for every
dataset-backed pipeline; a killed worker does not stop the consumer; pipelines that
cannot be served, and a dispatcher nobody runs, are refused by name. A worker
pointed at what is not a dispatcher (an HTTP/1.1 server, an HTTP/2 server
answering 404, raw bytes, silence) exits 2 with one line naming the address, and
Ctrl-C ends its wait.

The workers wait for the dispatcher as long as it takes to start
(loopback_service.py): with the default 30 s they exited 2 on a loaded machine."""
from __future__ import annotations

import collections
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest
from epoch_keys import ARRAYS, EPOCHS, epoch_keys
from helpers.fake_servers import not_a_dispatcher, stalling_dispatcher
from loopback_service import Cluster, start_cluster

import tf1_pipelines as tp
from tf1_pipelines.cli.service_cli import free_port
from tf1_pipelines.errors import ConfigError, PipelineStalled
from tf1_pipelines.inputs.service_probe import VERSION_METHOD, parse_version

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    started = start_cluster(free_port(), workers=1,
                            work_dir=str(tmp_path_factory.mktemp("dispatcher_journal")))
    yield started
    codes = started.stop()
    assert all(server.process.poll() is not None
               for server in [started.dispatcher, *started.workers]), "a server is left"
    # SIGTERM stops a server cleanly (0); the worker the fault test killed says -9.
    assert codes[-1] == 0, codes


@pytest.mark.parametrize("name", sorted(EPOCHS))
def test_one_distributed_epoch_is_the_data_set(cluster: Cluster, name: str) -> None:
    before = set(threading.enumerate())
    served = epoch_keys(name, service=cluster.address, stall_timeout=60)
    assert served == epoch_keys(name)
    assert set(threading.enumerate()) <= before, "a thread of the pipeline is left"


def test_parallel_epochs_give_one_epoch_per_worker(cluster: Cluster) -> None:
    served = epoch_keys("constant", service=cluster.address, processing_mode="parallel_epochs")
    assert served == collections.Counter({key: 2 for key in epoch_keys("constant")})


def test_configure_and_end_of_data_behave_as_locally(cluster: Cluster) -> None:
    with tp.load_pipeline("constant", arrays=ARRAYS, batch_size=8, train=False, num_epochs=1,
                          service=cluster.address) as pipe:
        assert len(pipe.get_batch().x) == 8  # the workers' batches re-batched here
        pipe.configure(batch_size=16)       # restarts the epoch, as locally
        sizes = [len(batch.x) for batch in pipe]
    assert sizes == [16, 16, 8]


def test_killed_worker_does_not_stop_the_consumer(cluster: Cluster) -> None:
    """Dynamic splits are at-most-once: after one worker dies, the other serves
    every record not yet handed to the dead one, none twice. The job's end then
    never comes (the dead worker's task stays open), so the consumer gets
    PipelineStalled after stall_timeout instead of EndOfData."""
    rows = 4000
    arrays = {"x": np.arange(rows, dtype=np.int64), "y": np.zeros((rows, 64), np.float32)}
    got: list[int] = []
    with tp.load_pipeline("constant", arrays=arrays, batch_size=10, train=False,
                          service=cluster.address, stall_timeout=10) as pipe:
        for _ in range(3):
            got.extend(pipe.get_batch().x.tolist())
        cluster.workers[0].process.kill()
        cluster.workers[0].process.wait(15)
        killed_at = len(got)
        start = time.monotonic()
        with pytest.raises(PipelineStalled, match="stall_timeout=10") as stalled:
            for batch in pipe:
                got.extend(batch.x.tolist())
        # Data flowed: the message says a worker was lost, never "is the data empty?".
        assert "worker was lost" in str(stalled.value) and "empty" not in str(stalled.value)
        assert time.monotonic() - start < 120
    counts = collections.Counter(got)
    assert max(counts.values()) == 1 and set(counts) <= set(range(rows))
    assert len(got) - killed_at > rows // 4, "the surviving worker kept serving"


def test_unreachable_dispatcher_is_named_within_stall_timeout() -> None:
    address = f"grpc://localhost:{free_port()}"
    start = time.monotonic()
    with pytest.raises(ConfigError, match=f"service='{address}': no dispatcher answers"):
        with tp.load_pipeline("constant", service=address, stall_timeout=5) as pipe:
            pipe.get_batch()
    assert time.monotonic() - start < 30


@pytest.mark.parametrize("name, options, why", [
    ("feeding", {}, "fed from this process's arrays"),
    ("stylegan_lod", {}, "labels are a variable of this process's session"),
    ("div2k_sr", dict(lr_method="py_func"), "py_func runs only in the process"),
    ("voc_segmentation", dict(backend="queue"), "backend='queue' runs queue runners"),
    ("inception_multilabel", dict(backend="queue"), "backend='queue' runs queue runners"),
])
def test_unservable_pipelines_are_refused(name: str, options: dict[str, object],
                                          why: str) -> None:
    with pytest.raises(ConfigError, match=f"service='grpc://localhost:1' is not available "
                                          f"here: .*{why}"):
        tp.load_pipeline(name, service="grpc://localhost:1", **options)


def test_serve_commands_parse() -> None:
    from tf1_pipelines.__main__ import _parser
    args = _parser().parse_args(["serve", "dispatcher", "--port", "5050", "--work-dir", "j"])
    assert (args.serve_kind, args.port, args.work_dir) == ("dispatcher", 5050, "j")
    args = _parser().parse_args(["serve", "worker", "--dispatcher", "cpu:5050"])
    assert (args.serve_kind, args.dispatcher, args.port) == ("worker", "cpu:5050", 0)
    args = _parser().parse_args(["serve", "local", "--workers", "3"])
    assert (args.serve_kind, args.workers, args.work_dir) == ("local", 3, None)


# ------------------------------------------- a worker pointed at what is not a dispatcher
def serve_worker(address: str, *options: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``serve worker --dispatcher address`` to its end (bounded)."""
    return subprocess.run([sys.executable, "-m", "tf1_pipelines.cli.service_cli", "serve", "worker",
                           "--dispatcher", address, *options], capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"))


# A regression would hang inside TensorFlow's C++ initializer, which holds the interpreter, so
# pytest-timeout's signal could not fire: its thread method ends the test process instead.
@pytest.mark.timeout(120, method="thread")
@pytest.mark.parametrize("kind, why", [
    ("http1", "is not a tf.data dispatcher: it answers the dispatcher's version call with UNAVAILABLE"),
    ("http2_404", "is not a tf.data dispatcher: it answers the dispatcher's version call with "
                  "UNIMPLEMENTED (Received http2 header with status: 404)"),
    ("garbage", "is not a tf.data dispatcher: it answers the dispatcher's version call with UNAVAILABLE"),
    ("silent", "accepts connections but gives no answer as a tf.data dispatcher within 2 s"),
])
def test_a_worker_names_what_is_not_a_dispatcher_and_exits_2(kind: str, why: str) -> None:
    with not_a_dispatcher(kind) as address:
        start = time.monotonic()
        result = serve_worker(address, "--connect-timeout", "2")
        took = time.monotonic() - start
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert result.returncode == 2, result.stderr[-2000:]
    assert errors == [line for line in result.stderr.splitlines() if line.strip()], result.stderr
    assert len(errors) == 1 and f"error: {address} {why}" in errors[0], result.stderr
    assert "Traceback" not in result.stderr and "ready" not in result.stdout
    # Said at once (no TensorFlow import, no retry), except the silent one, after its 2 s.
    assert took < (40 if kind == "silent" else 30)


# A regression would hang inside TensorFlow's C++ initializer, which holds the interpreter, so
# pytest-timeout's signal could not fire: its thread method ends the test process instead.
@pytest.mark.timeout(120, method="thread")
@pytest.mark.parametrize("kind, why", [
    ("http1", "is not a tf.data dispatcher: it answers the dispatcher's version call with UNAVAILABLE"),
    ("http2_404", "is not a tf.data dispatcher: it answers the dispatcher's version call with UNIMPLEMENTED"),
    ("silent", "accepts connections but gives no answer as a tf.data dispatcher within 3 s"),
])
def test_a_consumer_names_what_is_not_a_dispatcher(kind: str, why: str) -> None:
    # TensorFlow's iterator initializer would retry the version call for ever (past stall_timeout).
    with not_a_dispatcher(kind) as address:
        start = time.monotonic()
        with pytest.raises(ConfigError) as caught:
            with tp.load_pipeline("constant", service=f"grpc://{address}", stall_timeout=3) as pipe:
                pipe.get_batch()
    assert f"service='grpc://{address}': {address} {why}" in str(caught.value)
    assert time.monotonic() - start < 60


@pytest.mark.timeout(120)
def test_a_grpc_server_whose_version_reply_holds_no_version_is_no_dispatcher() -> None:
    with stalling_dispatcher(0) as (address, calls):  # replies field 1 = 0: protobuf's default, no version
        result = serve_worker(address, "--connect-timeout", "20")
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.strip() == (f"error: {address} is not a tf.data dispatcher: its reply to the "
                                     "version call holds no version")
    assert calls == ["/tensorflow.data.DispatcherService/GetVersion"]


def default_sigint() -> None:
    """In the child before exec: SIGINT's default action, so that Python installs its Ctrl-C handler
    (a process started with SIGINT ignored, as an earlier test of this worker may leave it, keeps
    ignoring it: Python installs its handler only over the default)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_for_the_wait(process: subprocess.Popen[str]) -> None:
    """Read ``serve worker``'s output up to its "waiting for a dispatcher" line (on a busy machine its
    start-up takes seconds: a signal sent by the clock could land before the wait it is meant for)."""
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("waiting for a dispatcher at "):
            return
    raise AssertionError(f"serve worker ended before waiting (status {process.wait()})")


@pytest.mark.timeout(120)
def test_ctrl_c_ends_a_worker_waiting_on_a_silent_server() -> None:
    with not_a_dispatcher("silent") as address:
        process = subprocess.Popen([sys.executable, "-m", "tf1_pipelines.cli.service_cli", "serve",
                                    "worker", "--dispatcher", address, "--connect-timeout", "600"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   preexec_fn=default_sigint)
        try:
            wait_for_the_wait(process)  # it announces the wait once it has begun
            time.sleep(0.5)  # into the version call (the silent server accepted at once)
            sent = time.monotonic()
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=60)
            took = time.monotonic() - sent
        finally:
            process.kill()
            process.wait(15)
    assert process.returncode == 130, err
    assert err.strip() == "error: interrupted (SIGINT) while starting `serve worker`"
    assert took < 20, f"Ctrl-C took {took:.1f} s"


def dispatcher_version() -> int:
    """The data service version of this TensorFlow, asked of a real dispatcher on loopback."""
    import grpc
    import tensorflow as tf
    service = tf.data.experimental.service
    server = service.DispatchServer(service.DispatcherConfig(port=0))
    try:
        with grpc.insecure_channel(server.target.split("://")[1]) as channel:
            return parse_version(channel.unary_unary(VERSION_METHOD)(b"", timeout=30))
    finally:
        server.stop()


@pytest.mark.timeout(200)
def test_ctrl_c_ends_a_worker_stuck_in_tensorflows_own_start() -> None:
    """A server that answers the version call as a dispatcher but never the worker's
    registration holds TensorFlow's start call (C++, holding the interpreter) for ever:
    Ctrl-C then takes its default action and ends the process at once."""
    with stalling_dispatcher(dispatcher_version()) as (address, calls):
        process = subprocess.Popen([sys.executable, "-m", "tf1_pipelines.cli.service_cli", "serve",
                                    "worker", "--dispatcher", address, "--connect-timeout", "60"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"))
        try:
            deadline = time.monotonic() + 150  # the worker's TensorFlow import, on a loaded machine
            while process.poll() is None and time.monotonic() < deadline and \
                    all(method.endswith("/GetVersion") for method in calls):
                time.sleep(0.2)
            assert process.poll() is None, process.communicate(timeout=30)[1][-2000:]
            assert calls[-1].endswith("/WorkerHeartbeat"), calls  # inside TensorFlow's start call
            time.sleep(1)
            sent = time.monotonic()
            process.send_signal(signal.SIGINT)
            process.communicate(timeout=60)
            took = time.monotonic() - sent
        finally:
            process.kill()
            process.wait(15)
    assert process.returncode == -signal.SIGINT and took < 20, (process.returncode, took)


@pytest.mark.parametrize("reply, version", [
    (b"\x08\x09", 9), (b"\x08\xac\x02", 300), (b"", 0), (b"\x10\x09", 0), (b"\x08\xff", 0),
    (b"<html>", 0)])
def test_the_version_reply_is_read_as_protobuf(reply: bytes, version: int) -> None:
    # 300 = 0b10_0101100: varint bytes 0xac 0x02 (protobuf's encoding guide example).
    assert parse_version(reply) == version
