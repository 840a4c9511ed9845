"""``python -m tf1_pipelines serve {dispatcher,worker,local}``: TensorFlow's own
tf.data service servers (``tf.data.experimental.service.DispatchServer`` and
``WorkerServer``), started from the command line.

* ``serve dispatcher --port P [--work-dir D]``: the dispatcher; with a work
  directory it journals its state there (fault-tolerant mode: a restarted
  dispatcher resumes its jobs);
* ``serve worker --dispatcher HOST:P [--port Q] [--worker-address HOST]``: one
  worker, which runs the pipelines' datasets and registers with the dispatcher;
* ``serve local --workers N``: a dispatcher and N workers on loopback in this
  one process, for a quick try.

Each prints one line per server saying where it listens (``dispatcher
grpc://host:port`` / ``worker host:port``), then waits; SIGINT or SIGTERM stops
the servers and the command returns 0.

Ports must be 0..65535 (0: any free one) and ``--workers`` at least 1 (the
parser refuses others, exit 2). A worker first waits at most
``--connect-timeout`` seconds (default 30) for its dispatcher: a TCP connection,
then the dispatcher's own version call (gRPC ``GetVersion`` of
``tensorflow.data.DispatcherService``) answered with a version. TensorFlow's
``WorkerServer`` would otherwise retry its registration forever inside a C++
call that holds the interpreter, so Ctrl-C could not end it. Whatever the wait
finds (nothing listening, something that is not a dispatcher such as an HTTP
server, no answer in time) ends in one line ``error: ... HOST:PORT ...`` and
exit status 2. Ctrl-C before the servers are ready exits with 130; during
TensorFlow's own start call it ends the process at once (default SIGINT action).
"""
from __future__ import annotations

import argparse
import signal
import socket
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

from tf1_pipelines.inputs.service_probe import dispatcher_problem

PROTOCOL = "grpc"
STOP_TIMEOUT = 10.0  # seconds the servers get to stop after SIGINT/SIGTERM
CONNECT_TIMEOUT = 30.0  # seconds a worker waits for its dispatcher to answer its version call
_PROBE_INTERVAL = 0.2
EXIT_BAD_INPUT = 2
EXIT_SIGINT = 130


class NotServing(Exception):
    """A server could not start: the message names the address and why (one line)."""


def port_number(text: str) -> int:
    """An argparse type: a TCP port 0..65535 (0: any free one)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port must be a whole number 0..65535, got {text!r}") \
            from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 0..65535 (0: any free one), got {port}")
    return port


def worker_count(text: str) -> int:
    """An argparse type: how many workers, at least 1 (a service without one serves nothing)."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--workers must be a whole number >= 1, got {text!r}") \
            from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"--workers must be at least 1 (a service with no worker "
                                         f"serves no data), got {count}")
    return count


def dispatcher_address(text: str) -> str:
    """An argparse type: ``[grpc://]HOST:PORT`` with a port 1..65535 (no other protocol)."""
    if "://" in text and not text.startswith(f"{PROTOCOL}://"):
        raise argparse.ArgumentTypeError(f"--dispatcher must be HOST:PORT or {PROTOCOL}://HOST:PORT "
                                         f"(the tf.data service speaks gRPC only), got {text!r}")
    host, sep, port = _strip_protocol(text).rpartition(":")
    if not sep or not host:
        raise argparse.ArgumentTypeError(f"--dispatcher must be HOST:PORT, got {text!r}")
    if port_number(port) == 0:
        raise argparse.ArgumentTypeError(f"--dispatcher needs the dispatcher's port (1..65535), "
                                         f"got {text!r}")
    return text


def positive_seconds(text: str) -> float:
    """An argparse type: seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds must be a number > 0, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"seconds must be a finite number > 0, got {text!r}")
    return value


def add_serve_parser(sub: Any) -> None:
    """Add the ``serve`` command and its three sub-commands to ``sub`` (the
    sub-parsers of the main command line)."""
    serve = sub.add_parser("serve", help="run tf.data service servers (dispatcher, worker)")
    kinds = serve.add_subparsers(dest="serve_kind", required=True)
    dispatcher = kinds.add_parser("dispatcher", help="the dispatcher that hands out work")
    dispatcher.add_argument("--port", type=port_number, required=True,
                            help="port to listen on, 0..65535, 0: any free one (required)")
    dispatcher.add_argument("--work-dir", default=None,
                            help="journal folder: fault-tolerant mode (default: none)")
    _add_timing(dispatcher, worker=False)
    worker = kinds.add_parser("worker", help="a worker that runs the pipelines' datasets")
    worker.add_argument("--dispatcher", required=True, type=dispatcher_address,
                        help="HOST:PORT of the dispatcher (required)")
    worker.add_argument("--port", type=port_number, default=0, help="port (default: any free one)")
    worker.add_argument("--connect-timeout", type=positive_seconds, default=CONNECT_TIMEOUT,
                        help="seconds to wait for the dispatcher to answer before exiting with "
                             "an error (default: %(default)s)")
    worker.add_argument("--worker-address", default=None,
                        help="host name consumers reach this worker by (default: this "
                             "host's name)")
    _add_timing(worker, dispatcher=False)
    local = kinds.add_parser("local", help="a dispatcher and N workers on loopback")
    local.add_argument("--workers", type=worker_count, default=2,
                       help="how many, at least 1 (default: 2)")
    local.add_argument("--port", type=port_number, default=0,
                       help="dispatcher port (default: any free one)")
    local.add_argument("--work-dir", default=None,
                       help="dispatcher journal folder: fault-tolerant mode (default: none)")
    _add_timing(local)


def _add_timing(parser: argparse.ArgumentParser, dispatcher: bool = True,
                worker: bool = True) -> None:
    if dispatcher:
        parser.add_argument("--worker-timeout", type=positive_seconds, default=None,
                            help="seconds without a heartbeat before the dispatcher drops "
                                 "a worker (default: TensorFlow's)")
    if worker:
        parser.add_argument("--heartbeat", type=positive_seconds, default=None,
                            help="seconds between a worker's heartbeats (default: "
                                 "TensorFlow's)")


def free_port() -> int:
    """A TCP port free on loopback now (the OS picks it)."""
    with socket.socket() as probe:
        probe.bind(("localhost", 0))
        return int(probe.getsockname()[1])


def _ms(seconds: float | None) -> int | None:
    return None if seconds is None else max(1, int(seconds * 1000))


def start_dispatcher(port: int, work_dir: str | None = None,
                     worker_timeout: float | None = None) -> Any:
    """A started ``DispatchServer`` on ``port`` (0: a free one); fault-tolerant
    with a ``work_dir``; ``worker_timeout`` seconds without a heartbeat drop a worker."""
    import tensorflow as tf
    service = tf.data.experimental.service
    port = port or free_port()
    config = service.DispatcherConfig(port=port, protocol=PROTOCOL, work_dir=work_dir,
                                      fault_tolerant_mode=work_dir is not None,
                                      worker_timeout_ms=_ms(worker_timeout))
    return service.DispatchServer(config, start=True)


def start_worker(dispatcher: str, port: int = 0, worker_address: str | None = None,
                 heartbeat: float | None = None) -> Any:
    """A started ``WorkerServer`` registered with ``dispatcher`` (``host:port``),
    sending a heartbeat every ``heartbeat`` seconds."""
    import tensorflow as tf
    service = tf.data.experimental.service
    port = port or free_port()
    host = worker_address or socket.gethostname()
    config = service.WorkerConfig(dispatcher_address=_strip_protocol(dispatcher), port=port,
                                  worker_address=f"{host}:%port%", protocol=PROTOCOL,
                                  heartbeat_interval_ms=_ms(heartbeat))
    return service.WorkerServer(config, start=True)


def _strip_protocol(address: str) -> str:
    return address.split("://", 1)[1] if "://" in address else address


def _host_port(address: str) -> tuple[str, int]:
    host, _, port = _strip_protocol(address).rpartition(":")
    return host, int(port)


def _accepts(host: str, port: int, timeout: float) -> bool:
    """Whether ``host:port`` accepts a TCP connection within ``timeout`` seconds."""
    try:
        with socket.create_connection((host, port), timeout=max(0.05, min(timeout, 2.0))):
            return True
    except OSError:
        return False


def wait_for_dispatcher(address: str, timeout: float = CONNECT_TIMEOUT) -> str | None:
    """None as soon as a tf.data dispatcher at ``address`` (``[grpc://]HOST:PORT``)
    answers its version call; else, one line saying why not: nothing accepted a
    connection within ``timeout`` seconds, or what listens there is not a
    dispatcher (said at once), or it gave no answer in time. Polls in Python, so
    Ctrl-C (KeyboardInterrupt) ends the wait at once."""
    host, port = _host_port(address)
    # The probe's gRPC is imported before the wait is announced: the line means the wait, and
    # Ctrl-C's handling of it, has begun (what a supervising script or a test can wait for).
    import grpc  # noqa: F401
    _say(f"waiting for a dispatcher at {host}:{port} (up to {timeout:g} s; Ctrl-C stops)")
    deadline = time.monotonic() + timeout
    while not _accepts(host, port, deadline - time.monotonic()):
        if time.monotonic() + _PROBE_INTERVAL >= deadline:
            return (f"no dispatcher answers at {host}:{port} within {timeout:g} s (is `serve "
                    "dispatcher` running there, on that port?); --connect-timeout waits longer")
        time.sleep(_PROBE_INTERVAL)
    problem = dispatcher_problem(f"{host}:{port}", deadline - time.monotonic(), timeout)
    if problem is not None and "no answer" in problem:
        problem += "; --connect-timeout waits longer"
    return problem


def wait_for_signal(stop: threading.Event | None = None) -> str:
    """Block until SIGINT or SIGTERM (or ``stop`` is set); returns what ended the wait."""
    stop = stop or threading.Event()
    received: list[str] = []

    def handler(signum: int, frame: Any) -> None:
        received.append(signal.Signals(signum).name)
        stop.set()

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        while not stop.wait(0.5):
            pass
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
    return received[0] if received else "stop"


def run_serve(args: argparse.Namespace) -> int:
    """Start the servers ``args`` ask for, print where they listen, wait for a
    signal, stop them. Returns the exit status: 0 after SIGINT/SIGTERM once ready,
    2 when a server cannot start (one ``error:`` line), 130 for Ctrl-C before."""
    servers: list[Any] = []
    try:
        if args.serve_kind == "worker":
            problem = wait_for_dispatcher(args.dispatcher, args.connect_timeout)
            if problem is not None:
                raise NotServing(problem)
        _start_servers(args, servers)
        _say("ready; stop with Ctrl-C (SIGINT) or SIGTERM")
        why = wait_for_signal()
        _say(f"{why}: stopping")
    except NotServing as error:
        print(f"error: {error}", file=sys.stderr, flush=True)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(f"error: interrupted (SIGINT) while starting `serve {args.serve_kind}`",
              file=sys.stderr, flush=True)
        return EXIT_SIGINT
    finally:
        stop_servers(servers)
    return 0


def _start_servers(args: argparse.Namespace, servers: list[Any]) -> None:
    """Start what ``args`` ask for, appending each server to ``servers`` as it starts."""
    if args.serve_kind in ("dispatcher", "local"):
        work_dir = args.work_dir
        dispatcher = _started(f"the dispatcher on port {args.port}", start_dispatcher,
                              args.port, work_dir, args.worker_timeout)
        servers.append(dispatcher)
        _say(f"dispatcher {dispatcher.target}"
             + (f" (fault-tolerant, journal in {work_dir})" if work_dir else ""))
    if args.serve_kind == "worker":
        servers.append(_started(f"a worker of the dispatcher at {args.dispatcher}",
                                start_worker, args.dispatcher, args.port,
                                args.worker_address, args.heartbeat))
        _say(f"worker {servers[-1]._address} -> dispatcher {args.dispatcher}")
    if args.serve_kind == "local":
        for _ in range(args.workers):
            worker = _started(f"a worker of the dispatcher at {servers[0].target}",
                              start_worker, servers[0].target, 0, "localhost", args.heartbeat)
            servers.append(worker)
            _say(f"worker {worker._address} -> dispatcher {servers[0].target}")


def _started(what: str, start: Any, *args: Any) -> Any:
    """``start(*args)``: TensorFlow's server start, a C++ call that holds the interpreter
    (a Python SIGINT handler would only run after it), so Ctrl-C takes its default
    action meanwhile and ends the process at once. Its errors (a port taken, a
    dispatcher refusing the worker) become NotServing naming ``what``."""
    import tensorflow as tf  # imported before the default action is set: Ctrl-C here is a KeyboardInterrupt
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_DFL) if main else None
    try:
        return start(*args)
    except (OSError, RuntimeError, ValueError, NotImplementedError, tf.errors.OpError) as error:
        message = " ".join(str(error).split()) or type(error).__name__
        raise NotServing(f"cannot start {what}: {message}") from None
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


def stop_servers(servers: list[Any], timeout: float = STOP_TIMEOUT) -> bool:
    """Stop ``servers`` (workers first, then the dispatcher) within ``timeout`` seconds.

    A worker still producing for a job that repeats forever can take minutes to stop
    (it finishes the job's tasks first); the stop then goes on in a daemon thread and
    this returns False, so the process exits anyway. True when all stopped in time."""
    def stop_all() -> None:
        for server in reversed(servers):
            server.stop()

    stopper = threading.Thread(target=stop_all, name="stop-servers", daemon=True)
    stopper.start()
    stopper.join(timeout)
    if stopper.is_alive():
        _say(f"servers still stopping after {timeout:g} s; exiting")
        return False
    return True


def _say(line: str) -> None:
    print(line, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """``serve ...`` alone (the tests start servers with it as a subprocess)."""
    parser = argparse.ArgumentParser(prog="python -m tf1_pipelines.cli.service_cli")
    add_serve_parser(parser.add_subparsers(dest="command", required=True))
    return run_serve(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
