"""Keep a long-lived process that opens and closes many pipelines from growing.

TensorFlow runs each session's work and each tf.data pipeline on pools of threads,
and glibc's ``malloc`` gives threads their own arenas (up to 8 per core). Memory a
closed pipeline frees stays scattered over those arenas and is rarely given back,
so a loop of open/get_batch/close grows by tens of MB (measured on the embedded
div2k_sr records: +83 MB over 60 cycles) although nothing is leaked: every graph,
session and thread is gone (see ``graph_reclaim`` and ``bench/cycles.py``).
With at most two arenas the same loop grows by under 10 MB.

The limit is a setting of the whole process, so nothing here runs on import: call
:func:`limit_malloc_arenas` explicitly, or start Python with the environment
variable ``MALLOC_ARENA_MAX=2``, which glibc reads at start-up.
"""
from __future__ import annotations

import ctypes
import ctypes.util

from tf1_pipelines.options import check_positive_int

#: glibc's ``mallopt`` parameter number for the arena limit (``M_ARENA_MAX``).
M_ARENA_MAX = -8


def limit_malloc_arenas(count: int = 2) -> bool:
    """Let glibc's ``malloc`` create at most ``count`` arenas from now on (arenas
    already made stay). True if the C library took the setting; False where it is
    not glibc (musl, macOS), where there is nothing to limit. ConfigError for a
    ``count`` that is not a whole number >= 1."""
    count = check_positive_int("count", count)
    return mallopt(M_ARENA_MAX, count)


def mallopt(parameter: int, value: int) -> bool:
    """glibc's ``mallopt(parameter, value)``: True if the C library took the
    setting, False where there is no such function (not glibc) or it refused."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    function = getattr(ctypes.CDLL(name), "mallopt", None)
    if function is None:
        return False
    return bool(function(parameter, value))
