"""Keep batches of tens of MB in glibc's heap instead of fresh pages every step.

glibc's ``malloc`` hands a block of 32 MB or more (the ceiling of its adaptive
threshold) straight to the kernel with ``mmap`` and gives it back on ``free``. A
batch of 32 Inception images (32 x 299 x 299 x 3 float32 = 34.3 MB) is such a
block, made anew at every step by the queue's ``dequeue_many`` or the dataset's
``batch``: 8,400 fresh pages, each faulted in and zeroed by the kernel. Measured on
the embedded Inception records (2 cores, two alternating rounds of 4 s in fresh
processes): page faults per example went from 280 to 9 on the dataset backend and
from 370 to 16-67 on the queue backend, CPU per example from 4.65 to 3.85 ms and
from 5.9 to 4.4 ms; the processes' RSS rose by 70-110 MB more while they ran.

The setting is one of the whole process (every allocation of every library), so
nothing here runs on import: call :func:`keep_large_blocks` once, or start Python
with ``MALLOC_MMAP_THRESHOLD_=67108864 MALLOC_TRIM_THRESHOLD_=134217728``, which
glibc reads at start-up. The cost: up to twice the threshold of freed memory may
stay with the process at the top of each heap instead of going back to the
kernel at once. Pipelines whose batches are a few MB (all the others here) showed
no change beyond the noise of a run.
"""
from __future__ import annotations

from tf1_pipelines.options import check_positive_int
from tf1_pipelines.runtime.malloc_arenas import mallopt

#: glibc's ``mallopt`` parameter numbers (``M_MMAP_THRESHOLD``, ``M_TRIM_THRESHOLD``).
M_MMAP_THRESHOLD = -3
M_TRIM_THRESHOLD = -1

#: The default threshold: blocks below it come from the heap. A thread's heap holds
#: at most 64 MB, so a larger block is mapped whatever the threshold.
DEFAULT_MEGABYTES = 64


def keep_large_blocks(megabytes: int = DEFAULT_MEGABYTES) -> bool:
    """Let glibc's ``malloc`` serve blocks below ``megabytes`` MB from its heap and
    keep up to twice that much freed memory before giving it back to the kernel.
    True if the C library took both settings; False where it is not glibc (musl,
    macOS) or refused the value (older glibc caps the threshold at 32 MB).
    ConfigError for ``megabytes`` that is not a whole number >= 1."""
    size = check_positive_int("megabytes", megabytes) << 20
    return mallopt(M_MMAP_THRESHOLD, size) and mallopt(M_TRIM_THRESHOLD, 2 * size)
