"""The constant pipeline's benchmark cases: TF1's preloaded-data recipe with queue
runners (the seed), the first rows of the constants (the floor), the uniform face;
on ``feeding``'s in-memory data.

Internals are imported inside each case, as the harness always did: discovery
stays cheap, and each case's first-batch latency still includes what it imports
in the process that measures it.
"""
from __future__ import annotations

from tf1_pipelines.bench.cases import (
    SEED_CASE,
    Case,
    PipelineBench,
    floor_case,
    queue_session_case,
    session_case,
    tensorflow,
)
from tf1_pipelines.pipelines.feeding.bench import (
    MEMORY_BATCH,
    memory_arrays,
    memory_declared_mb,
    memory_pipeline,
)


def _constant_seed(scale: int) -> Case:
    """TF1's preloaded-data recipe: the arrays as ``tf.constant``, rows shuffled by
    ``slice_input_producer`` and batched by ``tf.train.batch``, with queue runners."""
    from .legacy import preloaded_batch
    arrays = memory_arrays(scale)
    # the queues of slice_input_producer and tf.train.batch: 32 rows each (two batches)
    return queue_session_case(lambda: preloaded_batch(arrays, MEMORY_BATCH), warmup=3,
                              declared_mb=memory_declared_mb(scale))


def _constant_floor(scale: int) -> Case:
    """Read only: the first batch of rows of the constants, fetched at every step
    through a session callable. Grappler folds that slice into a constant: this is
    the cost of fetching a batch, nothing else."""
    tf = tensorflow()
    arrays = memory_arrays(scale)
    return floor_case(lambda: [tf.constant(a)[:MEMORY_BATCH] for a in arrays.values()],
                      declared_mb=memory_declared_mb(scale))


def _constant_floor_run(scale: int) -> Case:
    """The floor fetched by ``sess.run`` instead of a session callable: grappler
    folds the slice of a constant into a constant, so the callable floor is the
    fetch alone, and this row shows what ``sess.run``'s Python side adds to it."""
    tf = tensorflow()
    arrays = memory_arrays(scale)
    return session_case(lambda: [tf.constant(a)[:MEMORY_BATCH] for a in arrays.values()],
                        declared_mb=memory_declared_mb(scale))


BENCH = PipelineBench(MEMORY_BATCH, {
    SEED_CASE: _constant_seed,
    "floor (constant slice)": _constant_floor,
    "floor (constant slice), sess.run": _constant_floor_run,
    "constant": memory_pipeline("constant"),
}, floor="floor (constant slice)")
