"""Graphs of closed pipelines, given back to the allocator soon after they are dropped.

A ``tf.Graph`` is a web of reference cycles (each operation refers to its graph,
the graph to its operations), so it is freed only by Python's cyclic garbage
collector, never when its last outside reference goes. The collector's full pass
runs rarely (when the objects that survived earlier passes have grown by a quarter),
so a process that opens and closes pipelines in a loop keeps the graphs of the last
twenty or so alive (1.7 MB each for the voc_segmentation queue graph), and the
memory they give back in one burst is too scattered to return to the system.
Measured over 100 open/get_batch/close cycles of that pipeline: RSS +79 MB at the
peak and still +44 MB after a full collection, against +7 MB when each close is
followed by a collection.

:func:`release` is called by ``Pipeline.close`` with a graph the pipeline made
itself. Once :data:`MAX_WAITING` graphs released earlier are still alive, it runs
one full collection. Graphs alive after that are referenced from elsewhere (the
caller keeps a closed pipeline or its tensors): they become the new baseline, so
keeping closed pipelines around does not make every later close collect.
"""
from __future__ import annotations

import gc
import threading
import weakref
from typing import Any

#: Released graphs that may wait for the collector at one time (besides the newest).
MAX_WAITING = 3


class _Released:
    """Weak references to the released graphs and the count known to be held."""

    def __init__(self) -> None:
        self.graphs: weakref.WeakSet[Any] = weakref.WeakSet()
        self.held = 0  # alive after the last collection: referenced from elsewhere
        self.lock = threading.Lock()


_RELEASED = _Released()


def release(graph: Any) -> bool:
    """Note that ``graph``'s pipeline is closed; run a full collection if too many
    graphs released earlier still wait for one. True if it collected."""
    state = _RELEASED
    with state.lock:
        alive = len(state.graphs)
        state.held = min(state.held, alive)  # some held graphs were let go since
        collect = alive - state.held >= MAX_WAITING
    if collect:
        gc.collect()
    with state.lock:
        if collect:
            state.held = len(state.graphs)
        state.graphs.add(graph)
    return collect


def waiting() -> int:
    """How many released graphs are alive beyond those known to be held elsewhere."""
    with _RELEASED.lock:
        return len(_RELEASED.graphs) - _RELEASED.held
