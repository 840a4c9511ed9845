"""graph_reclaim: released graphs wait for at most MAX_WAITING more closes; graphs held
elsewhere do not make every release collect."""
from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from tf1_pipelines.runtime import graph_reclaim


class Cyclic:
    """Freed only by the cyclic collector, like a tf.Graph."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def only_reclaim_collects() -> Iterator[None]:
    """Python's automatic collection off; graph_reclaim starts right after a collection."""
    while not graph_reclaim.release(Cyclic()):
        pass
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def test_dropped_graphs_are_collected_after_max_waiting_releases(
        only_reclaim_collects: None) -> None:
    refs = []
    collected = []
    for _ in range(graph_reclaim.MAX_WAITING * 3):
        graph = Cyclic()
        refs.append(weakref.ref(graph))
        collected.append(graph_reclaim.release(graph))
        del graph
        assert sum(r() is not None for r in refs) <= graph_reclaim.MAX_WAITING + 1
    assert collected.count(True) == 3


def test_held_graphs_become_the_baseline(only_reclaim_collects: None) -> None:
    held = [Cyclic() for _ in range(graph_reclaim.MAX_WAITING * 2)]
    collected = [graph_reclaim.release(graph) for graph in held]
    assert collected.count(True) <= 2  # not one collection per release
    assert graph_reclaim.waiting() < graph_reclaim.MAX_WAITING
    later = [graph_reclaim.release(Cyclic()) for _ in range(graph_reclaim.MAX_WAITING)]
    assert later.count(True) == 1  # the held graphs do not count as waiting
    del held
