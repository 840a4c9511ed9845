"""Seed 004 §1 feeding's benchmark cases: a ``DataProvider`` through ``feed_dict``
(the seed), in-order numpy slices (the floor), the uniform face; and the
in-memory data that ``constant``'s cases share.

Internals are imported inside each case, as the harness always did: discovery
stays cheap, and each case's first-batch latency still includes what it imports
in the process that measures it.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tf1_pipelines.bench.cases import (
    SEED_CASE,
    Case,
    CaseFactory,
    PipelineBench,
    megabytes,
    pipeline_case,
    tensorflow,
)

MEMORY_BATCH = 32        # feeding and constant
#: The in-memory cases' declared memory: the arrays twice (the data and one copy:
#: a shuffled epoch, or the graph's constant), batches being made, handed over and
#: with the caller.
_MEMORY_DATA = 90 * (32 * 32 * 3 + 8)


def memory_declared_mb(scale: int) -> float:
    """What the feeding and constant cases declare, in MB, at data ``scale``."""
    return megabytes(2 * scale * _MEMORY_DATA, 3 * MEMORY_BATCH * (32 * 32 * 3 + 8))


def memory_arrays(scale: int = 1) -> dict[str, np.ndarray]:
    """The embedded in-memory sample (90 tiles of 32x32x3 and labels), repeated
    ``scale`` times."""
    from .sample import sample_arrays
    return {name: np.concatenate([array] * scale) for name, array in sample_arrays().items()}


class _SliceReader:
    """Consecutive batches of in-memory arrays, copied out in order (wrapping)."""

    def __init__(self, arrays: Sequence[np.ndarray], batch_size: int) -> None:
        self.arrays, self.batch_size = list(arrays), batch_size
        self.rows, self.position = len(self.arrays[0]), 0

    def __call__(self) -> tuple[np.ndarray, ...]:
        start = self.position if self.position + self.batch_size <= self.rows else 0
        self.position = start + self.batch_size
        return tuple(a[start:self.position].copy() for a in self.arrays)


def _feeding_seed(scale: int) -> Case:
    """Seed 004 section 1: a DataProvider shuffles the in-memory arrays each epoch and
    hands out a batch per step, which goes in through ``feed_dict``."""
    tf = tensorflow()
    from tf1_pipelines.inputs.feed import DataProvider, make_placeholders
    arrays = memory_arrays(scale)
    provider = DataProvider(arrays, MEMORY_BATCH, shuffle=True, num_epochs=None)
    graph = tf.Graph()
    with graph.as_default():
        placeholders = make_placeholders(arrays)
    sess = tf.compat.v1.Session(graph=graph)
    fetches = list(placeholders.arrays.values())
    return Case(lambda: sess.run(fetches, feed_dict=provider.feed_dict(placeholders)),
                sess.close, declared_mb=memory_declared_mb(scale))


def _feeding_floor(scale: int) -> Case:
    """Read only: in-order batches copied out of the arrays in numpy, no session."""
    return Case(_SliceReader(list(memory_arrays(scale).values()), MEMORY_BATCH),
                declared_mb=memory_declared_mb(scale))


def memory_pipeline(name: str) -> CaseFactory:
    """The uniform face of ``name`` over :func:`memory_arrays` (feeding and constant)."""
    return lambda scale: pipeline_case(name, declared_mb=memory_declared_mb(scale),
                                       arrays=memory_arrays(scale),
                                       batch_size=MEMORY_BATCH, num_epochs=None)


BENCH = PipelineBench(MEMORY_BATCH, {
    SEED_CASE: _feeding_seed,
    "floor (numpy slices)": _feeding_floor,
    "feed": memory_pipeline("feeding"),
}, floor="floor (numpy slices)")
