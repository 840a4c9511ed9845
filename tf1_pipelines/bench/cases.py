"""Benchmark cases: what one case is (:class:`Case`), what a pipeline's
``bench.py`` declares (:class:`PipelineBench`, named ``BENCH``), helpers to build
cases from graphs, and :data:`BENCHES`, discovered through the registry.

No pipeline module is imported here: each pipeline's ``bench.py`` imports these
helpers, and :data:`BENCHES` finds those modules by the registry's names.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from tf1_pipelines import registry

SEED_CASE = "seed formulation"
FLOOR_CASE = "floor (read+parse+batch)"
#: map calls of the floor cases that parse in parallel
FLOOR_PARALLEL_CALLS = 4


def _nothing() -> None:
    """Nothing to release."""


@dataclass
class Case:
    """A case ready to run: ``step()`` returns one batch, ``close()`` releases
    threads and session. ``warmup``: batches run before the timed window (to
    drain what the queues held at the start). ``examples``: how many examples a
    step's value stands for (default: the length of its first array).
    ``declared_mb``: what the case's buffers (shuffle buffers, queues, prefetch,
    batches in flight) and in-graph data hold when full, in MB (0: not declared)."""

    step: Callable[[], Any]
    close: Callable[[], None] = _nothing
    warmup: int = 3
    examples: Callable[[Any], int] | None = None
    declared_mb: float = 0.0


CaseFactory = Callable[[int], Case]

MB = 1e6


def megabytes(*parts: float) -> float:
    """The sum of byte counts, in MB (1e6 bytes): a case's declared buffers."""
    return sum(parts) / MB


@dataclass(frozen=True)
class PipelineBench:
    """The cases of one pipeline (name -> factory taking the data scale), which of
    them is the seed formulation and which the floor, and how to build the data."""

    batch: int
    cases: dict[str, CaseFactory]
    seed: str = SEED_CASE
    floor: str = FLOOR_CASE
    prepare: Callable[[], Any] = _nothing


# ------------------------------------------------------------------------- discovery
class _Discovered(Mapping[str, PipelineBench]):
    """Pipeline name -> its ``BENCH``, in the registry's order, read from each
    pipeline's ``bench.py`` on first use."""

    def __init__(self) -> None:
        self._benches: dict[str, PipelineBench] | None = None

    def _load(self) -> dict[str, PipelineBench]:
        if self._benches is None:
            self._benches = {name: registry.bench_of(name) for name in registry.registered()}
        return self._benches

    def __getitem__(self, name: str) -> PipelineBench:
        return self._load()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


#: Every pipeline's benchmark, discovered from its package's ``bench.py``.
BENCHES: Mapping[str, PipelineBench] = _Discovered()


def case_factory(pipeline: str, case: str) -> CaseFactory:
    """The factory of one case; ValueError naming what exists otherwise."""
    if pipeline not in BENCHES:
        raise ValueError(f"no benchmark for pipeline {pipeline!r}; have {sorted(BENCHES)}")
    cases = BENCHES[pipeline].cases
    if case not in cases:
        raise ValueError(f"pipeline {pipeline!r} has no case {case!r}; have {list(cases)}")
    return cases[case]


# ------------------------------------------------------------------ building cases
def tensorflow() -> Any:
    """The ``tensorflow`` module, imported on first use (cases build graphs only in
    the process that measures them)."""
    import tensorflow as tf
    return tf


def _session_for(build: Callable[[], Any]) -> tuple[Any, Any]:
    """``(session, fetches)``: the tensors ``build`` makes in a fresh graph, and a
    session of that graph."""
    tf = tensorflow()
    graph = tf.Graph()
    with graph.as_default():
        fetches = build()
    return tf.compat.v1.Session(graph=graph), fetches


def session_case(build: Callable[[], Any], warmup: int = 3,
                  examples: Callable[[Any], int] | None = None,
                  declared_mb: float = 0.0) -> Case:
    """Build tensors in a fresh graph; a case running them with ``sess.run`` (as
    the seeds' own loops do)."""
    sess, fetches = _session_for(build)
    return Case(lambda: sess.run(fetches), sess.close, warmup, examples, declared_mb)


def floor_case(build: Callable[[], Any], declared_mb: float = 0.0,
               examples: Callable[[Any], int] | None = None) -> Case:
    """A floor: tensors built in a fresh graph, fetched by a session callable
    (``Session.make_callable``, the cheapest fetch TF1 sessions have, as the
    uniform face's ``get_batch`` uses)."""
    sess, fetches = _session_for(build)
    return Case(sess.make_callable(fetches), sess.close, examples=examples,
                declared_mb=declared_mb)


def queue_session_case(build: Callable[[], Any], warmup: int,
                       declared_mb: float = 0.0) -> Case:
    """A TF1 queue graph run as the seeds ran it: initialise the variables, start
    the queue runners under a Coordinator, ``sess.run`` the batch; ``close``
    requests stop and joins the threads (the runners cancel pending enqueues)."""
    tf = tensorflow()
    tf1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        fetches = build()
        init = tf.group(tf1.global_variables_initializer(), tf1.local_variables_initializer())
    sess = tf1.Session(graph=graph)
    sess.run(init)
    coord = tf1.train.Coordinator()
    with graph.as_default():
        threads = tf1.train.start_queue_runners(sess=sess, coord=coord)

    def close() -> None:
        coord.request_stop()
        try:
            coord.join(threads, stop_grace_period_secs=10)
        finally:
            sess.close()
    return Case(lambda: sess.run(fetches), close, warmup, declared_mb=declared_mb)


def pipeline_case(name: str, warmup: int = 3, declared_mb: float = 0.0,
                  **options: Any) -> Case:
    """The uniform face: ``load_pipeline(name, **options)`` read by ``get_batch()``;
    its threads start on the first batch and stop on ``close()``."""
    import tf1_pipelines as tp
    pipeline = tp.load_pipeline(name, **options)
    return Case(pipeline.get_batch, pipeline.close, warmup, declared_mb=declared_mb)


def pipeline_factory(name: str, warmup: int = 3, declared_mb: float = 0.0,
                     **options: Any) -> CaseFactory:
    """A factory of :func:`pipeline_case` (the data scale is not used)."""
    return lambda scale: pipeline_case(name, warmup, declared_mb, **options)


def one_shot(dataset: Any) -> Any:
    """The next-element tensors of a one-shot iterator over ``dataset``."""
    from tf1_pipelines.inputs import dataset as dataset_inputs
    return dataset_inputs.one_shot(dataset)
