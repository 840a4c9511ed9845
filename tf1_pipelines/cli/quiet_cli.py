"""TensorFlow made quiet for our command lines: program entry points only.

The library never calls this: ``TF_CPP_MIN_LOG_LEVEL``, the ``tensorflow`` logger
and file descriptor 2 belong to the user's process. A command line of ours owns
its process, so it may quiet TensorFlow's start-up noise; the variable must be
set, and the filter in place, before TensorFlow loads.
"""
from __future__ import annotations

import os

from tf1_pipelines.runtime.startup_log import drop_tensorflow_startup_lines


def quiet_startup() -> None:
    """Default ``TF_CPP_MIN_LOG_LEVEL`` to 2 and drop TensorFlow's start-up lines from
    stderr (kept with ``TF1_PIPELINES_VERBOSE=1``), without importing TensorFlow, for a
    command line that may not need it (``--help``). Returns nothing."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    drop_tensorflow_startup_lines()


def quiet_tensorflow() -> None:
    """:func:`quiet_startup`, then import TensorFlow and set its Python logger to errors
    only. Returns nothing."""
    quiet_startup()
    import tensorflow as tf  # imported here, after the variable is set
    tf.get_logger().setLevel("ERROR")
