"""Servers on 127.0.0.1 that are not a tf.data dispatcher, for the service tests.

Each is a context manager yielding ``host:port``; its threads are stopped and
joined on exit (bounded). Kinds:

* ``http1``: Python's own ``http.server`` (a plain HTTP/1.1 server);
* ``http2_404``: a minimal HTTP/2 server that answers every request with status 404
  (what a web server speaking HTTP/2 does for an unknown path): a SETTINGS frame,
  then for each request's HEADERS frame a HEADERS frame holding ``:status: 404``
  (HPACK static table index 13, RFC 7541 Appendix A) that ends the stream;
* ``garbage``: raw TCP that sends bytes that are no protocol at all;
* ``silent``: accepts connections and never says anything.
"""
from __future__ import annotations

import contextlib
import http.server
import socket
import struct
import threading
from collections.abc import Callable, Iterator

JOIN_TIMEOUT = 5.0
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"  # RFC 7540 section 3.5
SETTINGS, HEADERS = 0x4, 0x1
ACK = END_STREAM = 0x1
END_HEADERS = 0x4
STATUS_404 = b"\x8d"  # HPACK: indexed header field 13, ":status: 404"


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    """One HTTP/2 frame: 24-bit length, type, flags, 31-bit stream id, payload."""
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def _http2_404(conn: socket.socket, stop: threading.Event) -> None:
    conn.sendall(frame(SETTINGS, 0, 0))
    buffer = b""
    while not stop.is_set():
        try:
            data = conn.recv(65536)
        except TimeoutError:
            continue
        if not data:
            return
        buffer += data
        if buffer.startswith(PREFACE):
            buffer = buffer[len(PREFACE):]
        while len(buffer) >= 9 and len(buffer) >= 9 + int.from_bytes(buffer[:3], "big"):
            size, kind, flags = int.from_bytes(buffer[:3], "big"), buffer[3], buffer[4]
            stream = int.from_bytes(buffer[5:9], "big") & 0x7FFFFFFF
            buffer = buffer[9 + size:]
            if kind == SETTINGS and not flags & ACK:
                conn.sendall(frame(SETTINGS, ACK, 0))
            elif kind == HEADERS:
                conn.sendall(frame(HEADERS, END_HEADERS | END_STREAM, stream, STATUS_404))


def _garbage(conn: socket.socket, stop: threading.Event) -> None:
    conn.sendall(b"\x00no protocol at all\xff\r\n" * 64)
    _silent(conn, stop)


def _silent(conn: socket.socket, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            if not conn.recv(65536):
                return
        except TimeoutError:
            continue


HANDLERS: dict[str, Callable[[socket.socket, threading.Event], None]] = {
    "http2_404": _http2_404, "garbage": _garbage, "silent": _silent}


@contextlib.contextmanager
def _raw_server(handler: Callable[[socket.socket, threading.Event], None]) -> Iterator[str]:
    stop = threading.Event()
    threads: list[threading.Thread] = []

    def serve_one(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(0.2)
            try:
                handler(conn, stop)
            except OSError:
                pass  # the client hung up

    def accept(listener: socket.socket) -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            thread = threading.Thread(target=serve_one, args=(conn,), daemon=True)
            threads.append(thread)
            thread.start()

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        listener.settimeout(0.2)
        acceptor = threading.Thread(target=accept, args=(listener,), daemon=True)
        acceptor.start()
        try:
            yield f"127.0.0.1:{listener.getsockname()[1]}"
        finally:
            stop.set()
            for thread in [acceptor, *threads]:
                thread.join(JOIN_TIMEOUT)


class _QuietHandler(http.server.BaseHTTPRequestHandler):
    """Answers GET with a small page; logs nothing (HTTP/2's preface gets the server's own 505)."""

    def do_GET(self) -> None:
        body = b"<html>not a dispatcher</html>"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def _http1_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _QuietHandler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(JOIN_TIMEOUT)


def not_a_dispatcher(kind: str) -> contextlib.AbstractContextManager[str]:
    """A server of ``kind`` (see the module docstring) on 127.0.0.1: ``host:port``."""
    return _http1_server() if kind == "http1" else _raw_server(HANDLERS[kind])


@contextlib.contextmanager
def stalling_dispatcher(version: int) -> Iterator[tuple[str, list[str]]]:
    """A gRPC server on 127.0.0.1 that answers the dispatcher's version call with
    ``version`` (as TensorFlow's dispatcher does) and never answers any other call
    (each waits until the server stops): ``(host:port, methods called so far)``."""
    import grpc
    calls: list[str] = []
    stop = threading.Event()
    reply = b"\x08" + _varint(version)

    def stall(request: bytes, context: grpc.ServicerContext) -> bytes:
        stop.wait(120)
        context.abort(grpc.StatusCode.UNAVAILABLE, "stalling dispatcher stopped")
        return b""

    class Handler(grpc.GenericRpcHandler):
        def service(self, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
            calls.append(details.method)
            answer = (lambda request, context: reply) if details.method.endswith("/GetVersion") else stall
            return grpc.unary_unary_rpc_method_handler(answer)

    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=8) as pool:
        server = grpc.server(pool, handlers=[Handler()])
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        try:
            yield f"127.0.0.1:{port}", calls
        finally:
            stop.set()
            server.stop(grace=None).wait(JOIN_TIMEOUT)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)
