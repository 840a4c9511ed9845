"""TensorFlow's start-up log lines, kept off the runner's stderr: :mod:`tf1_pipelines.runtime.startup_log`.

The pipelines' command line and the runner share the one implementation (and its
state: the saved stderr), so it lives in the package of pipelines, which compat may use.
"""
from __future__ import annotations

from tf1_pipelines.runtime.startup_log import (
    STARTUP_LINE,
    drop_tensorflow_startup_lines,
    is_startup_line,
    restore_stderr,
)

__all__ = ["STARTUP_LINE", "drop_tensorflow_startup_lines", "is_startup_line", "restore_stderr"]
