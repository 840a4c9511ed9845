"""The sessions a pipeline runs in, and the threads and steps of each.

:class:`tf1_pipelines.pipeline.Pipeline` holds the contract of a pipeline; this
module holds the machinery under it that knows no pipeline: what a build put into
the graph (:class:`Built`, found by :func:`finish_build`), one :class:`Run` per
session (its coordinator and queue-runner threads, :mod:`.queue_threads`), the
step thread of ``get_batch`` (:mod:`.step_runner`) and how all of it stops
(:class:`Runs`, :func:`stop_run`).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import tensorflow as tf

from tf1_pipelines.runtime.queue_threads import QueueThreads
from tf1_pipelines.runtime.step_runner import StepRunner

tf1 = tf.compat.v1

_QUEUE_OP_TYPES = ("FIFOQueueV2", "RandomShuffleQueueV2", "PaddingFIFOQueueV2", "PriorityQueueV2")


class QueueStatus(NamedTuple):
    """How full one queue of a pipeline is at one moment."""

    name: str
    size: int
    capacity: int

    @property
    def fraction_full(self) -> float:
        return self.size / self.capacity if self.capacity > 0 else 0.0


def queue_runner_session_config() -> Any:
    """A ``ConfigProto`` that runs each ``Session.run`` in its calling thread.

    A queue-runner graph is driven by many Python threads (4 readers and 16
    preprocessing threads in seed 004), each running a small graph branch over and
    over. With the default shared inter-op thread pool every op of every branch is
    handed to the pool, whose spinning workers cost more CPU than the ops on a small
    machine (2.7 against 1.9 CPU ms per example for seed 004 on 2 cores). Running
    the ops in the thread that called ``run`` (``inter_op_parallelism_threads < 0``)
    gives the same values from the same graph; large ops still use the intra-op pool.
    """
    return tf1.ConfigProto(inter_op_parallelism_threads=-1)


@dataclass
class BuildRecord:
    """What a pipeline's ``_build`` asked for while it ran: the settings' placeholders
    and the iterator initializers. One record per build, handed back to
    :func:`finish_build`; the helpers refuse to run outside a build."""

    placeholders: dict[str, tf.Tensor] = field(default_factory=dict)
    initializers: list[tf.Operation] = field(default_factory=list)


@dataclass
class Built:
    """What building the pipeline into one graph produced."""

    graph: tf.Graph
    tensors: Any                                   # the Batch of tensors
    placeholders: dict[str, tf.Tensor]             # setting name -> placeholder
    variable_initializer: tf.Operation | None      # our global and local variables
    iterator_initializers: list[tf.Operation]      # re-run when a setting changes
    queue_runners: list[Any]                       # tf1.train.QueueRunner
    queue_sizes: dict[str, tuple[tf.Tensor, int]]  # queue name -> (size op, capacity)
    fill_summaries: dict[str, tf.Tensor]           # "…/fraction_of_N_full" -> value
    queue_dequeues: dict[str, Any] = field(default_factory=dict)  # queue name -> take one
    step_inputs: frozenset[tf.Tensor] = frozenset()  # placeholders a batch depends on


@dataclass
class Run:
    """The pipeline's state inside one session, as the :meth:`tf1_pipelines.pipeline.Pipeline._feed` hook
    receives it: ``session`` (the ``tf.compat.v1.Session`` running the step),
    ``coordinator`` and ``threads`` (its queue runners), ``settings`` (those the
    iterators were last initialised with)."""

    session: Any
    coordinator: Any
    threads: list[threading.Thread] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    queue_threads: QueueThreads | None = None
    step: Any = None  # the batch tensors as a session callable, made on first use


def placeholders_reached(tensors: Any) -> frozenset[tf.Tensor]:
    """The placeholders whose values the (nested) ``tensors`` depend on, through data
    and control inputs. An iterator's batch size reaches only its initializer, not
    ``get_next``: feeding it at every step would be wasted work."""
    pending = [t.op for t in tf.nest.flatten(tensors) if isinstance(t, tf.Tensor)]
    seen: set[tf.Operation] = set()
    found: set[tf.Tensor] = set()
    while pending:
        op = pending.pop()
        if op in seen:
            continue
        seen.add(op)
        if op.type in ("Placeholder", "PlaceholderWithDefault"):
            found.add(op.outputs[0])
        pending.extend(t.op for t in op.inputs)
        pending.extend(op.control_inputs)
    return frozenset(found)


def run_step(run: Run, built: Built, feed: dict[tf.Tensor, Any]) -> Any:
    """One run of the batch tensors in ``run``'s session. Placeholders the batch
    does not depend on are left out of the feed; with nothing left to feed, the
    step is a callable made once per session (``Session.make_callable``: the fetch
    structure is analysed once, not at every ``sess.run``). Measured on batches of
    32 small constant rows: 313 -> 186 us a step (a bare ``sess.run`` of 32 rows
    sliced from constants: 183 us)."""
    feed = {tensor: value for tensor, value in feed.items() if tensor in built.step_inputs}
    if feed:
        return run.session.run(built.tensors, feed_dict=feed)
    if run.step is None:
        run.step = run.session.make_callable(built.tensors)
    return run.step()


class Runs:
    """Every session the pipeline runs in, kept apart from the pipeline so that a
    ``weakref.finalize`` can stop the threads without keeping the pipeline alive."""

    def __init__(self, join_timeout: float, name: str = "pipeline") -> None:
        self.join_timeout = join_timeout
        self.by_session: dict[int, Run] = {}
        self.own_session: Any = None
        self.steps = StepRunner(name)  # get_batch's steps (see step_runner: why a thread)

    def stop_all(self, grace: float | None = None) -> list[BaseException]:
        """Stop and join every thread; close our own session. Returns join errors.

        ``grace``: seconds the queue threads of our own session get to end their
        steps before the session is closed under them, cancelling what is left (on
        Ctrl-C); None waits up to ``join_timeout`` without cancelling anything."""
        errors: list[BaseException] = []
        self.steps.stop()  # waiting get_batch calls raise at once; none starts
        for run in list(self.by_session.values()):
            if (grace is not None and run.queue_threads is not None
                    and run.session is self.own_session
                    and not run.queue_threads.stop(grace)):
                self.own_session.close()  # cancels the steps still in flight
            errors.extend(stop_run(run, self.join_timeout))
        self.by_session.clear()
        if self.own_session is not None:
            self.own_session.close()
            self.own_session = None
        if not self.steps.close(self.join_timeout):
            errors.append(RuntimeError("a get_batch step is still running"))
        return errors


def start_run(run: Run, built: Built) -> None:
    """Start the queue-runner threads of ``built`` in ``run``'s session (none for a
    graph without queue runners); the iterators are initialised before."""
    if built.queue_runners:
        run.queue_threads = QueueThreads(run.session, run.coordinator, built.queue_runners,
                                         built.queue_sizes, built.queue_dequeues)
        run.threads.extend(run.queue_threads.start())


def stop_run(run: Run, join_timeout: float) -> list[BaseException]:
    """Request stop, let the queue runners cancel pending enqueues, join with a bound."""
    errors: list[BaseException] = []
    # Steps in flight end by themselves, none is cancelled (see queue_threads).
    if run.queue_threads is not None and not run.queue_threads.stop(join_timeout):
        errors.append(RuntimeError("queue threads did not stop: "
                                   + ", ".join(t.name for t in run.threads if t.is_alive())))
    run.coordinator.request_stop()
    try:
        run.coordinator.join(run.threads, stop_grace_period_secs=join_timeout)
    except tf.errors.OpError:
        pass  # a reader error already reported through get_batch
    except RuntimeError as exc:  # threads still alive after the grace period
        errors.append(exc)
    except Exception as exc:  # the coordinator re-raises thread errors as is
        errors.append(exc)
    run.threads.clear()
    return errors


def finish_build(name: str, graph: tf.Graph, tensors: Any, record: BuildRecord,
                 before: dict[str, Any]) -> Built:
    """What the build of pipeline ``name`` added to ``graph`` since ``before`` (a
    :func:`collections_snapshot`): its variables, queue runners, queues (with a size
    op, a dequeue op and the capacity of each) and the queues' fill summaries."""
    new = {key: [x for x in graph.get_collection(key) if id(x) not in before[key]]
           for key in _COLLECTIONS}
    variables = new[tf1.GraphKeys.GLOBAL_VARIABLES] + new[tf1.GraphKeys.LOCAL_VARIABLES]
    queue_ops = [op for op in graph.get_operations()[before["#ops"]:]
                 if op.type in _QUEUE_OP_TYPES]
    with tf.name_scope(f"{name}_status"):
        queue_sizes = {op.name: (tf.raw_ops.QueueSizeV2(handle=op.outputs[0]),
                                 int(op.get_attr("capacity"))) for op in queue_ops}
        initializer = tf1.variables_initializer(variables) if variables else None
        dequeues = {op.name: tf.raw_ops.QueueDequeueV2(
            handle=op.outputs[0], component_types=op.get_attr("component_types"))
            for op in queue_ops}
    fill = {}
    for op in graph.get_operations()[before["#ops"]:]:
        # tf.train queues record "fraction_of_N_full" (shuffle_batch:
        # "fraction_over_M_of_N_full") as scalar summaries of their size.
        if op.type == "ScalarSummary" and "fraction_" in op.name:
            tag = np.asarray(tf.get_static_value(op.inputs[0])).item()
            fill[tag.decode() if isinstance(tag, bytes) else str(tag)] = op.inputs[1]
    return Built(graph=graph, tensors=tensors, placeholders=record.placeholders,
                  variable_initializer=initializer,
                  iterator_initializers=record.initializers,
                  queue_runners=new[tf1.GraphKeys.QUEUE_RUNNERS],
                  queue_sizes=queue_sizes, fill_summaries=fill, queue_dequeues=dequeues,
                  step_inputs=placeholders_reached(tensors))


_COLLECTIONS = (tf1.GraphKeys.GLOBAL_VARIABLES, tf1.GraphKeys.LOCAL_VARIABLES,
                tf1.GraphKeys.QUEUE_RUNNERS)


def collections_snapshot(graph: tf.Graph) -> dict[str, Any]:
    snapshot: dict[str, Any] = {key: {id(x) for x in graph.get_collection(key)}
                                for key in _COLLECTIONS}
    snapshot["#ops"] = len(graph.get_operations())
    return snapshot

