"""Whether a tf.data service dispatcher answers at ``host:port``: its own version call.

TensorFlow's dispatcher serves gRPC ``tensorflow.data.DispatcherService`` and its
``GetVersion`` method (``dispatcher.proto``) is what a worker or a consumer asks
first. TensorFlow retries that call for as long as it fails, inside C++ calls that
Ctrl-C cannot end, so a worker or a consumer pointed at an HTTP server, at a server
speaking another protocol, or at one that never answers would wait forever. This
module makes the same call from Python, bounded and interruptible, and says in one
line what answered instead. No TensorFlow import (the ``serve worker`` command
checks before importing it); ``grpc`` (TensorFlow's own dependency) is imported
when a call is made.
"""
from __future__ import annotations

import time

__all__ = ["VERSION_METHOD", "dispatcher_problem", "parse_version"]

#: The dispatcher's gRPC method; its reply carries the data service version as
#: field 1 (a varint), and a request with no fields is empty bytes.
VERSION_METHOD = "/tensorflow.data.DispatcherService/GetVersion"
_POLL = 0.1  # seconds between looks at a pending call, so that Ctrl-C is seen at once


def dispatcher_problem(target: str, left: float, timeout: float) -> str | None:
    """None if ``target`` (``host:port``, accepting connections) answers the dispatcher's
    version call within ``left`` seconds with a version > 0; else why not, in one line
    naming ``target`` (``timeout``: the whole wait, for the message)."""
    import grpc
    channel = grpc.insecure_channel(target)
    future = channel.unary_unary(VERSION_METHOD).future(b"", timeout=max(0.05, left))
    try:
        while not future.done():
            time.sleep(_POLL)  # a Python wait: KeyboardInterrupt lands here
        error = future.exception()
        if error is None:
            if parse_version(future.result()) > 0:
                return None
            return f"{target} is not a tf.data dispatcher: its reply to the version call holds no version"
        code = error.code()
        if code == grpc.StatusCode.DEADLINE_EXCEEDED:
            return (f"{target} accepts connections but gives no answer as a tf.data dispatcher "
                    f"within {timeout:g} s (is that port a dispatcher's?)")
        details = " ".join(str(error.details() or "").split())
        return (f"{target} is not a tf.data dispatcher: it answers the dispatcher's version "
                f"call with {code.name} ({details}); give the port of `serve dispatcher`")
    except KeyboardInterrupt:
        future.cancel()
        raise
    finally:
        channel.close()


def parse_version(reply: bytes) -> int:
    """The version in a ``GetVersionResponse`` (field 1, a varint); 0 when ``reply``
    is not such a message (the protobuf default, which no dispatcher sends)."""
    if not reply or reply[0] != 0x08:  # field 1, wire type 0 (varint)
        return 0
    value, shift = 0, 0
    for byte in reply[1:11]:
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value
    return 0
