"""Drop TensorFlow's start-up log lines from a command line's stderr.

TensorFlow's C++ runtime prints notes such as ``I0000 ... cudart_stub.cc:31] Could
not find cuda drivers`` while it loads, before it reads ``TF_CPP_MIN_LOG_LEVEL``,
so no setting silences them. A program entry point (never the library) may call
:func:`drop_tensorflow_startup_lines` before TensorFlow is imported: file
descriptor 2 is routed through a pipe whose reader thread forwards every line
except those start-up notes. Set ``TF1_PIPELINES_VERBOSE=1`` to keep them.
"""
from __future__ import annotations

import atexit
import os
import re
import sys
import threading
from collections.abc import Callable

#: How to put the real stderr back, while the filter is installed.
_restorers: list[Callable[[], None]] = []

#: The start-up notes: absl's pre-initialisation banner, the info lines of the files
#: that print while TensorFlow loads, and the "failed call to cuInit" error that a
#: machine without a GPU driver logs when the first session starts. Other warnings
#: and errors pass through.
STARTUP_LINE = re.compile(
    r"^(WARNING: All log messages before absl::InitializeLog\(\) is called"
    r"|I\d{4} [\d:. ]+\d+ (port|cudart_stub|cpu_feature_guard|cuda_executor|cuda_dnn)\.cc:\d+\]"
    r"|E\d{4} [\d:. ]+\d+ cuda_platform\.cc:\d+\] failed call to cuInit"
    r"|To enable the following instructions: )")


def is_startup_line(line: str) -> bool:
    """True for one of TensorFlow's start-up notes."""
    return STARTUP_LINE.match(line) is not None


def drop_tensorflow_startup_lines() -> bool:
    """Filter fd 2 until the process exits; False (nothing done) when ``TF1_PIPELINES_VERBOSE=1``."""
    if os.environ.get("TF1_PIPELINES_VERBOSE") == "1":
        return False
    read_end, write_end = os.pipe()
    sink_fd = os.dup(2)       # where the kept lines go
    original_fd = os.dup(2)   # put back at exit, which closes the pipe's last write end
    os.dup2(write_end, 2)
    os.close(write_end)

    def forward() -> None:
        with os.fdopen(read_end, "rb") as source, os.fdopen(sink_fd, "wb") as sink:
            for raw in source:
                if not is_startup_line(raw.decode("utf-8", "replace")):
                    sink.write(raw)
                    sink.flush()

    forwarder = threading.Thread(target=forward, name="stderr-startup-filter", daemon=True)
    forwarder.start()

    def restore() -> None:
        # A traceback printed just before exit must not die in the pipe: put the real
        # stderr back (the reader then sees end of file) and let the reader finish.
        # Forked children holding the pipe could delay that, hence the bound.
        if restore not in _restorers:
            return  # already done by restore_stderr()
        _restorers.remove(restore)
        try:
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os.dup2(original_fd, 2)
        os.close(original_fd)
        forwarder.join(timeout=2.0)

    _restorers.append(restore)
    atexit.register(restore)
    return True


def restore_stderr() -> None:
    """Put the real stderr back now, after forwarding what the filter still holds.

    For an exit through ``os._exit``, which skips the ``atexit`` function that
    would do it. Nothing happens when no filter is installed.
    """
    for restore in list(_restorers):
        restore()
