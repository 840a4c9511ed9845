"""Truncated back-propagation input: TF 1.15's ``SequenceQueueingStateSaver``,
``NextQueuedSequenceBatch`` and ``batch_sequences_with_states``.

One input example (a key, sequences whose first dimension is time, context, and
initial states) is split into segments of ``num_unroll`` time steps. Batches hold
segments of ``batch_size`` different examples; an example's segment ``k + 1``
becomes available only after the batch holding segment ``k`` has saved its state
(``NextQueuedSequenceBatch.save_state``), and starts from that saved state. Segment
0 starts from the initial states.

Built on a ``Barrier`` (``tf.raw_ops.Barrier*``, still in TensorFlow 2.21): one
element per segment, keyed ``"%05d_of_%05d:%s" % (segment, segment_count, key)``.
The prefetch op inserts every component of every segment of one example, and the
initial states of segment 0 only; ``save_state`` inserts the state components of
the next segments (keys ``next_key``), which completes them. ``take_many`` hands
out complete segments, oldest example first. A ``FIFOQueue`` of one token per
example in flight bounds the examples held to ``capacity``.

End of data: the prefetch runner closes the barrier when its input ends; segments of
examples already inserted still complete and are handed out (in smaller batches
with ``allow_small_batch``), then ``take_many`` raises ``OutOfRangeError``.
"""
from __future__ import annotations

import numbers
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import tensorflow as tf
from tensorflow.python.ops import data_flow_ops

from tf1_pipelines.errors import ConfigError, ConfigTypeError

tf1 = tf.compat.v1

__all__ = ["SequenceQueueingStateSaver", "NextQueuedSequenceBatch", "batch_sequences_with_states",
           "segment_key"]

#: TensorFlow's QueueRunner class (typed Any: TensorFlow ships no type information).
_QueueRunner: Any = tf1.train.QueueRunner
#: The components every barrier element has before the sequences, contexts and states.
_HEAD = ("length", "total_length", "next_key", "sequence", "sequence_count")
#: The value of the capacity tokens (ignored; TF 1.15 used an arbitrary constant too).
_TOKEN = 0


def segment_key(segment: int, segment_count: int, key: str) -> str:
    """The key of segment ``segment`` of an example (pure Python, for checks):
    ``"%05d_of_%05d:%s"``."""
    return "%05d_of_%05d:%s" % (segment, segment_count, key)


def _checked_names(label: str, values: Any) -> OrderedDict[str, tf.Tensor]:
    """``values`` (a dict of str -> tensor) as tensors sorted by name."""
    if not isinstance(values, Mapping):
        raise ConfigTypeError(f"SequenceQueueingStateSaver: {label} must be a dict, got {type(values).__name__}")
    for key in values:
        if not isinstance(key, str):
            raise ConfigTypeError(f"SequenceQueueingStateSaver: {label} key {key!r} must be a string")
        if ":" in key:
            raise ConfigError(f"SequenceQueueingStateSaver: {label} key {key!r} may not contain a colon")
    return OrderedDict((k, tf.convert_to_tensor(values[k], name=f"{label}_{k}")) for k in sorted(values))


def _require_defined(label: str, values: Mapping[str, tf.Tensor], skip_first: bool = False) -> None:
    start = 1 if skip_first else 0
    for key, value in values.items():
        if value.shape.rank is None or not value.shape[start:].is_fully_defined():
            what = " (after the time dimension)" if skip_first else ""
            raise ValueError(f"SequenceQueueingStateSaver: the shape of {label} {key!r} must be fully "
                             f"defined{what}, got {value.shape}")


def _scalar(value: tf.Tensor, what: str, dtype: tf.DType) -> tf.Tensor:
    value.shape.assert_is_compatible_with([])
    if value.dtype != dtype:
        raise ConfigTypeError(f"SequenceQueueingStateSaver: {what} must be {dtype.name}, got {value.dtype.name}")
    return tf.reshape(value, [])


class NextQueuedSequenceBatch:
    """One batch of segments handed out by a :class:`SequenceQueueingStateSaver`.

    Vectors have length ``batch_size`` (smaller at the end with ``allow_small_batch``):
    ``key``/``next_key`` (string; ``next_key`` is ``"STOP:<key>"`` after the last
    segment), ``sequence``/``sequence_count`` (int32), ``length`` (int32 time steps of
    this segment that are not padding, 0..num_unroll), ``total_length`` (int32, the
    example's length), ``insertion_index`` (int64). ``sequences[name]`` has shape
    ``[batch, num_unroll, ...]``, ``context[name]`` ``[batch, ...]``.
    """

    def __init__(self, saver: SequenceQueueingStateSaver, received: dict[str, Any],
                 states: OrderedDict[str, tf.Tensor]) -> None:
        self._saver = saver
        self._received = received
        self._states = states

    total_length = property(lambda self: self._received["total_length"])
    length = property(lambda self: self._received["length"])
    batch_size = property(lambda self: self._received["batch_size"])
    insertion_index = property(lambda self: self._received["indices"])
    key = property(lambda self: self._received["keys"])
    next_key = property(lambda self: self._received["next_key"])
    sequence = property(lambda self: self._received["sequence"])
    sequence_count = property(lambda self: self._received["sequence_count"])
    context = property(lambda self: self._received["context"])
    sequences = property(lambda self: self._received["sequences"])

    def state(self, state_name: str) -> tf.Tensor:
        """The batched state ``state_name``, ``[batch, ...]``: initial or last saved.

        Raises:
            KeyError: not a state given in ``initial_states``.
        """
        return self._states[state_name]

    def save_state(self, state_name: str, value: Any, name: str | None = None) -> tf.Operation:
        """An op that stores ``value`` (``[batch, ...]``) as the state of each entry's next
        segment; run it every step, or the next segments never become available.

        Raises:
            KeyError: ``state_name`` was not declared in ``initial_states``.
        """
        if state_name not in self._states:
            raise KeyError(f"state was not declared: {state_name} (declared: {sorted(self._states)})")
        with tf1.name_scope(name, "InputQueueingStateSaver_SaveState", [value]):
            value = tf.convert_to_tensor(value, dtype=self._states[state_name].dtype)
            expected = tf.shape(self._states[state_name])
            check = tf1.assert_equal(tf.shape(value), expected,
                                     message=f"save_state({state_name!r}): the value's shape must be the state's")
            with tf.control_dependencies([check]):
                value = tf.identity(value)
            going_on = tf.reshape(tf.where(tf.logical_not(self._received["done"])), [-1])
            return self._saver.barrier.insert_many(self._saver.component_index(f"state:{state_name}"),
                                                   tf.gather(self.next_key, going_on),
                                                   tf.gather(value, going_on),
                                                   name=f"BarrierInsertState_{state_name}")


class SequenceQueueingStateSaver:
    """Splits examples into ``num_unroll``-step segments and batches them with saved state.

    Arguments as TF 1.15's: ``batch_size`` (int or int32 scalar), ``num_unroll`` (int),
    ``input_length`` (int32 scalar, at most the padded length), ``input_key`` (string
    scalar, unique per example in flight), ``input_sequences`` / ``input_context`` /
    ``initial_states`` (dicts of str -> tensor; the sequences' first dimension is a
    non-zero multiple of ``num_unroll``), ``capacity`` (examples in flight; None:
    unbounded), ``allow_small_batch``.
    """

    _batch_size: Any
    _num_unroll: int
    _allow_small_batch: bool
    _capacity_queue: Any
    _barrier: Any
    _name: str
    _scope: str

    def __init__(self, batch_size: Any, num_unroll: int, input_length: Any, input_key: Any,
                 input_sequences: Mapping[str, Any], input_context: Mapping[str, Any],
                 initial_states: Mapping[str, Any], capacity: int | None = None,
                 allow_small_batch: bool = False, name: str | None = None) -> None:
        if capacity is not None and isinstance(batch_size, int) and capacity < batch_size:
            raise ConfigError(f"SequenceQueueingStateSaver: capacity {capacity} must be at least "
                              f"batch_size {batch_size}")
        if not isinstance(initial_states, Mapping) or not initial_states:
            raise ConfigError("SequenceQueueingStateSaver: initial_states must be a non-empty dict: at least "
                              "one state is needed to carry an example from one segment to the next")
        if not isinstance(num_unroll, numbers.Integral) or num_unroll <= 0:
            raise ConfigError(f"SequenceQueueingStateSaver: num_unroll must be a positive int, got {num_unroll!r}")
        self._batch_size = batch_size
        self._num_unroll = int(num_unroll)
        self._allow_small_batch = allow_small_batch
        self._capacity_queue = tf1.FIFOQueue(capacity=-1 if capacity is None else capacity, dtypes=[tf.int32],
                                             shapes=[[]])
        with tf1.name_scope(name, "InputQueueingStateSaver") as scope:
            self._name = scope
            self._scope = scope
            self._prepare_inputs(input_length, input_key, input_sequences, input_context, initial_states)
            self._barrier = data_flow_ops.Barrier(types=self._component_types(), shapes=self._component_shapes())
        self._prefetch_op: tf.Operation | None = None
        self._next_batch: NextQueuedSequenceBatch | None = None

    # ------------------------------------------------------------- inputs and layout
    def _prepare_inputs(self, input_length: Any, input_key: Any, input_sequences: Mapping[str, Any],
                        input_context: Mapping[str, Any], initial_states: Mapping[str, Any]) -> None:
        self._sequences = _checked_names("sequence", input_sequences)
        self._context = _checked_names("context", input_context)
        self._initial_states = _checked_names("state", initial_states)
        if not self._sequences:
            raise ConfigError("SequenceQueueingStateSaver: input_sequences must hold at least one sequence")
        _require_defined("state", self._initial_states)
        _require_defined("context", self._context)
        _require_defined("sequence", self._sequences, skip_first=True)
        length = _scalar(tf.convert_to_tensor(input_length, name="length"), "input_length", tf.int32)
        self._key = _scalar(tf.convert_to_tensor(input_key, name="key"), "input_key", tf.string)
        padded = tf.shape(next(iter(self._sequences.values())))[0]
        multiple = tf1.Assert(tf.logical_and(tf.equal(padded % self._num_unroll, 0), tf.not_equal(padded, 0)),
                              ["the sequences' time dimension must be a non-zero multiple of num_unroll "
                               f"{self._num_unroll} (consider pad=True), got", padded])
        same = [tf1.assert_equal(tf.shape(v)[0], padded, message=f"sequence {k!r}: time dimension differs")
                for k, v in self._sequences.items()]
        fits = tf1.Assert(tf.less_equal(length, padded),
                          ["input_length must be at most the sequences' time dimension:", length, padded])
        with tf.control_dependencies([multiple, fits, *same]):
            self._padded_length = tf.identity(padded, name="padded_length")
            self._length = tf.identity(length)
        self._names = [*_HEAD, *(f"sequence:{k}" for k in self._sequences),
                       *(f"context:{k}" for k in self._context), *(f"state:{k}" for k in self._initial_states)]

    def component_index(self, name: str) -> int:
        """The barrier component holding ``name`` (``"length"``, ``"state:lstm"``, ...)."""
        return self._names.index(name)

    def _component_types(self) -> list[tf.DType]:
        return [tf.int32, tf.int32, tf.string, tf.int32, tf.int32,
                *(v.dtype for v in self._sequences.values()), *(v.dtype for v in self._context.values()),
                *(v.dtype for v in self._initial_states.values())]

    def _component_shapes(self) -> list[list[int]]:
        return [[], [], [], [], [],
                *([self._num_unroll, *v.shape.as_list()[1:]] for v in self._sequences.values()),
                *(v.shape.as_list() for v in self._context.values()),
                *(v.shape.as_list() for v in self._initial_states.values())]

    # ------------------------------------------------------------- properties of TF 1.15
    @property
    def name(self) -> str:
        """The name scope of the saver's ops."""
        return self._name

    @property
    def barrier(self) -> Any:
        """The underlying ``Barrier``."""
        return self._barrier

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def num_unroll(self) -> int:
        return self._num_unroll

    @property
    def prefetch_op(self) -> tf.Operation:
        """The op that inserts one example (all its segments); run it from a QueueRunner."""
        if self._prefetch_op is None:
            with tf1.name_scope(None), tf1.name_scope(self._scope):
                self._prefetch_op = self._build_prefetch()
        return self._prefetch_op

    @property
    def next_batch(self) -> NextQueuedSequenceBatch:
        """The :class:`NextQueuedSequenceBatch` (built once)."""
        _ = self.prefetch_op
        if self._next_batch is None:
            with tf1.name_scope(None), tf1.name_scope(self._scope):
                self._next_batch = self._build_reads()
        return self._next_batch

    def close(self, cancel_pending_enqueues: bool = False, name: str | None = None) -> tf.Operation:
        """Close the barrier (no new examples; started ones still complete) and the capacity queue.

        With ``cancel_pending_enqueues`` (what a QueueRunner runs when its coordinator
        stops) only the capacity queue is closed, cancelling the prefetch threads' waits:
        cancel-closing a Barrier that was closed before hangs in TensorFlow's kernel
        (measured on 2.21), and nothing waits on the barrier for long here (the mover's
        takes are bounded).
        """
        with tf1.name_scope(name, "SQSSClose") as scope:
            if cancel_pending_enqueues:
                return tf.group(self._capacity_queue.close(True, "FIFOClose"), name=scope)
            return tf.group(self._barrier.close(False, "BarrierClose"),
                            self._capacity_queue.close(False, "FIFOClose"), name=scope)

    # ------------------------------------------------------------- the graph
    def _build_prefetch(self) -> tf.Operation:
        count = self._padded_length // self._num_unroll
        segment = tf.range(count)
        ones = tf.ones([count], tf.int32)
        lengths = tf.minimum(self._num_unroll, tf.maximum(0, self._length - self._num_unroll * segment))
        keys = tf.strings.join([tf.strings.as_string(segment, width=5, fill="0"), "_of_",
                                tf.strings.as_string(count, width=5, fill="0"), ":", self._key])
        next_keys = tf.concat([keys[1:], tf.strings.join(["STOP:", self._key])[None]], 0)
        insert = self._barrier.insert_many
        # The segment index first: the barrier gives every key of this example the
        # insertion index of this first insert, so its segments keep their turn.
        first = insert(self.component_index("sequence"), keys, segment, name="BarrierInsertSequence")
        token = self._capacity_queue.enqueue((tf.constant(_TOKEN),))  # blocks at capacity
        ops = [first, token,
               insert(self.component_index("sequence_count"), keys, count * ones, name="BarrierInsertSequenceCount"),
               insert(self.component_index("next_key"), keys, next_keys, name="BarrierInsertNextKey"),
               insert(self.component_index("length"), keys, lengths, name="BarrierInsertLength"),
               insert(self.component_index("total_length"), keys, self._length * ones,
                      name="BarrierInsertTotalLength")]
        for k, v in self._sequences.items():
            split = tf.reshape(v, tf.concat([[count, self._num_unroll], tf.shape(v)[1:]], 0))
            ops.append(insert(self.component_index(f"sequence:{k}"), keys, split, name=f"BarrierInsertSequences_{k}"))
        for k, v in self._context.items():
            copies = tf.tile(v[None], tf.concat([[count], tf.ones([v.shape.rank], tf.int32)], 0))
            ops.append(insert(self.component_index(f"context:{k}"), keys, copies, name=f"BarrierInsertContext_{k}"))
        with tf.control_dependencies([first, token]):
            for k, v in self._initial_states.items():
                ops.append(insert(self.component_index(f"state:{k}"), keys[:1], v[None],
                                  name=f"BarrierInitialInsertState_{k}"))
        return tf.group(*ops, name="StateSaverPrefetchGroup")

    def _build_reads(self) -> NextQueuedSequenceBatch:
        mover = _SegmentMover(self)
        tf1.train.add_queue_runner(mover)
        values = mover.dequeued()
        indices, keys = values[0], values[1]
        part = {name: values[i + 2] for i, name in enumerate(self._names)}
        done = part["sequence"] + 1 >= part["sequence_count"]
        # One capacity token back per example whose last segment this batch holds.
        release = self._capacity_queue.dequeue_many(tf.reduce_sum(tf.cast(done, tf.int32)))
        with tf.control_dependencies([release]):
            states = OrderedDict((k, tf.identity(part[f"state:{k}"])) for k in self._initial_states)
        received = {**{name: part[name] for name in _HEAD}, "indices": indices, "keys": keys, "done": done,
                    "batch_size": tf.squeeze(tf.shape(part["length"])),
                    "sequences": OrderedDict((k, part[f"sequence:{k}"]) for k in self._sequences),
                    "context": OrderedDict((k, part[f"context:{k}"]) for k in self._context)}
        return NextQueuedSequenceBatch(self, received, states)


#: How long the mover waits, after the input ended, for segments that can never fill a whole batch
#: (without ``allow_small_batch``) before it ends the output (seconds).
STALL_SECONDS = 1.0
#: The mover's pauses between looks while too few segments are complete: from the first,
#: doubling up to the last (seconds).
POLL_SECONDS = (0.001, 0.02)


class _SegmentMover(_QueueRunner):
    """The thread that takes whole batches of complete segments from the barrier into a
    one-batch ``FIFOQueue`` that the consumer's step dequeues.

    Why a thread: a take that waits for ``batch_size`` segments when the input ends with
    fewer ready, and the others waiting for the state of those, never returns (the
    Barrier kernel wakes waiting takes only when every element is complete): TF 1.15
    hung there. The mover only takes segments that are already complete (it is the only
    taker, so a take it starts never waits, and no take is ever cancelled half done):
    a whole batch while the input runs; once the input has ended what is ready
    (``allow_small_batch``), or it ends the output when no whole batch can form any
    more. Registered in ``QUEUE_RUNNERS``; stops with the coordinator.
    """

    def __init__(self, saver: SequenceQueueingStateSaver) -> None:
        self._saver = saver
        self._count = tf1.placeholder_with_default(tf.constant(1, tf.int32), [], name="take_count")
        indices, keys, values = saver.barrier.take_many(self._count, allow_small_batch=True, name="BarrierTakeMany")
        types = [tf.int64, tf.string, *saver._component_types()]
        self._fifo = tf1.FIFOQueue(1, types, name="segment_batches")
        enqueue = self._fifo.enqueue([indices, keys, *values], name="enqueue_segment_batch")
        # Read in this order: an element only goes from incomplete to ready (when the consumer
        # saves its state) and only the mover takes ready ones, so reading the incomplete count
        # before the ready one never misses an element moving between the two reads.
        ended = saver._capacity_queue.is_closed()
        with tf.control_dependencies([ended]):
            incomplete = saver.barrier.incomplete_size()
        with tf.control_dependencies([incomplete]):
            ready = saver.barrier.ready_size()
        self._probe = (ended, ready, incomplete, self._fifo.size())
        self._batch = tf.convert_to_tensor(saver.batch_size, dtype=tf.int32)
        super().__init__(self._fifo, [enqueue])

    def dequeued(self) -> list[tf.Tensor]:
        """The consumer's step: one batch, with the static shapes of the components."""
        values = self._fifo.dequeue(name="dequeue_segment_batch")
        static = self._saver.batch_size if isinstance(self._saver.batch_size, int) else None
        first = None if self._saver._allow_small_batch else static
        shapes = [[], [], *self._saver._component_shapes()]
        for value, shape in zip(values, shapes):
            value.set_shape([first, *shape])
        return list(values)

    def create_threads(self, sess: Any, coord: Any = None, daemon: bool = False,
                       start: bool = False) -> list[threading.Thread]:
        """The mover thread (plus, with ``coord``, the base class's closer on stop)."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = 1
            self._exceptions_raised: list[BaseException] = []
        threads = [threading.Thread(target=self._move, args=(sess, coord), name="SegmentMover")]
        if coord is not None:
            threads.append(threading.Thread(target=self._close_on_stop, args=(sess, self._cancel_op, coord)))
        for thread in threads:
            thread.daemon = daemon
            if start:
                thread.start()
        return threads

    def _move(self, sess: Any, coord: Any) -> None:
        if coord is not None:
            coord.register_thread(threading.current_thread())
        try:
            self._move_until_done(sess, coord)
        except (tf.errors.CancelledError, tf.errors.OutOfRangeError):
            pass  # the session or the output queue was closed under us
        except Exception as exc:  # noqa: BLE001 - reported like a QueueRunner's errors
            if coord is None:
                raise
            coord.request_stop(exc)
        finally:
            with self._lock:
                self._runs_per_session[sess] -= 1
            try:
                sess.run(self._close_op)
            except Exception:  # noqa: BLE001 - the session may be gone already
                pass

    def _move_until_done(self, sess: Any, coord: Any) -> None:
        batch = int(sess.run(self._batch))
        small = bool(self._saver._allow_small_batch)
        stalled_since: float | None = None
        pause = POLL_SECONDS[0]
        while coord is None or not coord.should_stop():
            ended, ready, incomplete, waiting = sess.run(self._probe)
            count = self._count_to_take(bool(ended), int(ready), int(incomplete), batch, small)
            if count == -1:
                return
            if count == -2 and not waiting:  # nothing the consumer holds can complete a whole batch
                stalled_since = stalled_since or time.monotonic()
                if time.monotonic() - stalled_since > STALL_SECONDS:
                    return
            else:
                stalled_since = None
            if waiting or count <= 0:
                time.sleep(pause)
                pause = min(2 * pause, POLL_SECONDS[1])
                continue
            pause = POLL_SECONDS[0]
            # At least `count` segments are complete and the output queue has room: this run
            # does not wait, so it is never left half done.
            sess.run(self.enqueue_ops[0], {self._count: count})

    @staticmethod
    def _count_to_take(ended: bool, ready: int, incomplete: int, batch: int, small: bool) -> int:
        """How many complete segments to take now (0: none yet, look again): a whole batch
        once ready; after the input's end what is ready (``small``) or a whole batch; -1
        when the output is finished, -2 when no whole batch is in sight (ends after a bound)."""
        if not ended:
            return batch if ready >= batch else 0
        if ready == 0 and incomplete == 0:
            return -1
        if small:
            return min(batch, ready)
        if ready >= batch:
            return batch
        return -1 if ready + incomplete < batch else -2


# ------------------------------------------------------------------------- the wrapper
def _pad_to_multiple(sequences: Mapping[str, Any], num_unroll: int) -> tuple[Any, dict[str, tf.Tensor]]:
    """(the common time length, the sequences padded with 0 / b"" to a multiple of ``num_unroll``)."""
    if not isinstance(num_unroll, numbers.Integral):
        raise ConfigTypeError(f"batch_sequences_with_states: num_unroll must be an int, got {num_unroll!r}")
    if not isinstance(sequences, Mapping):
        raise ConfigTypeError(f"batch_sequences_with_states: input_sequences must be a dict, "
                              f"got {type(sequences).__name__}")
    if not sequences:
        return 0, {}
    tensors = {k: tf.convert_to_tensor(v) for k, v in sequences.items()}
    lengths = [tf.shape(v)[0] for v in tensors.values()]
    checks = [tf1.assert_equal(n, lengths[0], message="all sequence lengths must match") for n in lengths]
    with tf.control_dependencies(checks):
        length = tf.identity(lengths[0])
    padded_length = length + (num_unroll - length % num_unroll) % num_unroll
    padded = {}
    for k, v in tensors.items():
        fill = tf.constant("" if v.dtype == tf.string else 0, dtype=v.dtype)
        pad = tf.fill(tf.concat([[padded_length - tf.shape(v)[0]], tf.shape(v)[1:]], 0), fill)
        padded[k] = tf.concat([v, pad], 0)
    return length, padded


def batch_sequences_with_states(input_key: Any, input_sequences: Mapping[str, Any], input_context: Mapping[str, Any],
                                input_length: Any, initial_states: Mapping[str, Any], num_unroll: int,
                                batch_size: Any, num_threads: int = 3, capacity: int = 1000,
                                allow_small_batch: bool = True, pad: bool = True, make_keys_unique: bool = False,
                                make_keys_unique_seed: int | None = None,
                                name: str | None = None) -> NextQueuedSequenceBatch:
    """A :class:`SequenceQueueingStateSaver` fed by ``num_threads`` prefetch threads (a
    ``QueueRunner`` in ``QUEUE_RUNNERS``); returns its ``next_batch``.

    With ``pad`` the sequences are padded to a multiple of ``num_unroll`` and
    ``input_length`` may be None (then the unpadded time length). With
    ``make_keys_unique`` a random int is appended to each key, so that the same
    example read twice (a second epoch) does not collide in the barrier.
    """
    tensors = [*input_sequences.values(), *input_context.values(), *initial_states.values()]
    with tf1.name_scope(name, "batch_sequences_with_states", tensors):
        if pad:
            length, input_sequences = _pad_to_multiple(input_sequences, num_unroll)
            input_length = length if input_length is None else input_length
        elif input_length is None:
            raise ConfigError("batch_sequences_with_states: input_length may be None only with pad=True")
        if make_keys_unique:
            salt = tf1.random_uniform((), minval=0, maxval=100000000, dtype=tf.int32, seed=make_keys_unique_seed)
            input_key = tf.strings.join([input_key, tf.strings.as_string(salt)])
        saver = SequenceQueueingStateSaver(batch_size, num_unroll, input_length=input_length, input_key=input_key,
                                           input_sequences=input_sequences, input_context=input_context,
                                           initial_states=initial_states, capacity=capacity,
                                           allow_small_batch=allow_small_batch)
        tf1.summary.scalar(f"queue/{saver.barrier.name}/ready_segment_batches_",
                           tf.cast(saver.barrier.ready_size(), tf.float32))
        tf1.train.add_queue_runner(tf1.train.QueueRunner(
            saver, [saver.prefetch_op] * num_threads,
            queue_closed_exception_types=(tf.errors.OutOfRangeError, tf.errors.CancelledError)))
        return saver.next_batch
