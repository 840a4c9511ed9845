"""The base of every pipeline's uniform face: :class:`Pipeline` and its contract.

A :class:`Pipeline` builds its input tensors into a TF1 graph (its own private
graph by default, or one the caller gives), and then runs them:

* ``get_batch()`` runs them in the pipeline's own session; ``get_batch(sess)``
  runs them in the caller's session (the pipeline is then built into
  ``sess.graph``).
* Variables the pipeline made (e.g. ``num_epochs`` counters) and iterator
  initializers run on first use in each session; queue runners start then too,
  under a ``Coordinator`` of ours. The pipeline's own session for a graph with
  queue runners runs each step in its calling thread
  (:func:`queue_runner_session_config`).
* ``configure(batch_size=...)`` changes placeholder-fed settings; iterators that
  depend on them are re-initialised (a reinitializable iterator restarts).
* ``close()`` (also on ``with`` exit and garbage collection) stops the queue
  threads, letting each step in flight finish rather than cancelling it
  (:mod:`tf1_pipelines.runtime.queue_threads`), and joins every thread with a bound.

This module is the contract of a pipeline and its public methods; the machinery
of sessions, threads and steps is :mod:`tf1_pipelines.runtime.session_runs`, the
input position (save/restore) :mod:`tf1_pipelines.state`.

Errors: the end of the data raises :class:`EndOfData` (an ``OutOfRangeError``);
a step that produces nothing within ``stall_timeout`` seconds raises
:class:`PipelineStalled` naming the queues and their sizes; an exception in a
reader thread surfaces as :class:`DataError` carrying the original message and,
where the subclass can tell, the file.
"""
from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from types import TracebackType
from typing import Any, ClassVar, Self

import tensorflow as tf

from tf1_pipelines import state as input_state
from tf1_pipelines.errors import ConfigError, DataError, EndOfData, PipelineStalled
from tf1_pipelines.fields import FieldSpec, check_field
from tf1_pipelines.inputs.distribute import Distribution
from tf1_pipelines.options import (
    check_instance,
    check_positive_int,
    check_seconds,
    option_names,
    reject_unknown_options,
)
from tf1_pipelines.runtime import graph_reclaim
from tf1_pipelines.runtime.quiet_tf1 import no_deprecation_warnings
from tf1_pipelines.runtime.session_runs import (
    BuildRecord,
    Built,
    QueueStatus,
    Run,
    Runs,
    collections_snapshot,
    finish_build,
    queue_runner_session_config,
    run_step,
    start_run,
)
from tf1_pipelines.runtime.step_runner import StepsClosed, StepTimeout

__all__ = ["INTERRUPT_GRACE", "Pipeline", "QueueStatus", "Run", "queue_runner_session_config"]

tf1 = tf.compat.v1

#: Seconds queue threads get to end their steps when Ctrl-C closes a pipeline.
INTERRUPT_GRACE = 0.25


class Pipeline:
    """Base class of every pipeline's uniform face.

    The whole contract of a subclass (``docs/adding_a_pipeline.md`` walks through it):

    Class attributes
        ``name`` (the registry name), ``Batch`` (a NamedTuple class whose docstring
        gives each field's shape, dtype, layout and value range) and ``FIELDS``
        (field name -> :class:`~tf1_pipelines.fields.FieldSpec`). A pipeline whose
        fields depend on its options (patch size, the arrays given) sets
        ``self.Batch`` / ``self.FIELDS`` in ``__init__`` instead. ``CAN_STALL``
        (default True) is False only where a step cannot wait on anything (arrays
        in the graph or in the feed): such steps run in the calling thread.

    ``__init__``
        Takes the pipeline's options with the seed's defaults, passes
        ``batch_size`` and ``**pipeline_options`` (``graph``, ``stall_timeout``,
        ``join_timeout``, ``session_config``, and the shard and service options of
        :mod:`tf1_pipelines.inputs.distribute`) to ``super().__init__``, checks every
        option at once (ConfigError; ``@checked_options`` of :mod:`tf1_pipelines.options`)
        and builds nothing. The base refuses option names no ``__init__`` takes. Settings other than
        ``batch_size`` that :meth:`configure` may change are declared with
        :meth:`_declare_setting`.

    Must override
        :meth:`_build` - create the tensors in the current default graph (under a
        name scope of ``name``) and return a ``Batch`` of them. While it runs it may
        call :meth:`_setting_placeholder` and :meth:`_add_iterator_initializer`.

    May override (each default is right for most pipelines)
        :meth:`_validate_settings` - check and normalise what ``configure`` gets;
        call ``super()`` for ``batch_size`` and unknown names.
        :meth:`_explain_error` - turn a TensorFlow error into a DataError naming the
        file (and record) behind it.
        :meth:`_iterator_initializers_for` - which initializers to run for given
        settings (default: all that ``_build`` added).
        :meth:`_feed` - the feed of one step (default: the settings' placeholders);
        override to add per-step values, calling ``super()``.

    Read-only for subclasses
        :attr:`settings` (a copy), :attr:`batch_size`, :attr:`graph`,
        :attr:`tensors`. Everything else with a leading underscore belongs to
        this class.

    Threads
        ``get_batch()``, ``configure()``, ``close()`` and the properties may be
        called from any threads at any time. However many threads arrive first at
        once, the pipeline builds one graph, opens one session of its own and
        starts one set of queue-runner threads (one per session). Steps of
        ``get_batch()`` called from several threads run one after another, each
        batch going to exactly one caller: nothing is lost or served twice. A
        ``configure()`` applies to every step that starts after it returns. After
        ``close()`` returns (from any thread) no thread of ours is left and our
        session is closed; a ``get_batch()`` waiting in another thread at that time
        raises ``RuntimeError("... pipeline is closed ...")`` at once, as does every
        later call. Ctrl-C while ``get_batch()`` waits raises ``KeyboardInterrupt``
        within a fraction of a second (see :mod:`tf1_pipelines.runtime.step_runner`),
        after closing the pipeline: its threads are joined on the way out.
        Subclass hooks run under the pipeline's lock (``_build``,
        ``_validate_settings``, the ``_feed`` of a step run in the caller) or in
        the single step thread (the ``_feed`` of other steps), never two at once.
    """

    name: ClassVar[str] = "pipeline"
    # Batch and FIELDS are class attributes a pipeline may set per instance (see above).
    Batch: type = tuple
    #: Field name -> FieldSpec; a dict-valued field (labels per level) is checked per entry.
    FIELDS: dict[str, FieldSpec] = {}  # read-only: a pipeline replaces it whole
    #: False where a step cannot wait on anything (the batch comes from arrays already in
    #: the graph or in the feed): get_batch then runs the step in the calling thread,
    #: without the step thread's hand-off (see step_runner), which costs more than such
    #: a step. True (the default) bounds every wait by ``stall_timeout``.
    CAN_STALL: ClassVar[bool] = True
    _input_state: input_state.InputState | None = None  # set by the build

    def __init__(self, *, batch_size: int, graph: tf.Graph | None = None,
                 stall_timeout: float = 60.0, join_timeout: float = 10.0,
                 session_config: Any = None, num_shards: int = 1, shard_index: int = 0,
                 service: str | None = None, processing_mode: str = "distributed_epoch",
                 job_name: str | None = None, **unknown: Any) -> None:
        reject_unknown_options(f"pipeline {self.name!r}", unknown, option_names(type(self)))
        self._settings: dict[str, Any] = {"batch_size": check_positive_int("batch_size", batch_size)}
        self._graph = check_instance("graph", graph, tf.Graph, "a tf.Graph")
        self._made_graph: tf.Graph | None = None  # the graph, if we made it (graph_reclaim)
        self.stall_timeout = check_seconds("stall_timeout", stall_timeout)
        join_timeout = check_seconds("join_timeout", join_timeout)
        check_instance("session_config", session_config, tf1.ConfigProto, "a tf1 ConfigProto")
        self._session_config = session_config
        # num_shards, shard_index, service, processing_mode, job_name (inputs.distribute)
        self._distribution = Distribution.checked(num_shards, shard_index, service,
                                                  processing_mode, job_name)
        self._built: Built | None = None
        self._batches_delivered = 0
        self._record_examples: int | None = None  # counted on first need
        self._building: BuildRecord | None = None  # set only while _build runs
        self._runs = Runs(join_timeout, self.name)
        self._closed = False
        # Guards building, our session, each session's Run, settings and closing
        # (the Threads paragraph of the class docstring); re-entrant as these nest.
        self._lock = threading.RLock()
        self._finalizer = weakref.finalize(self, Runs.stop_all, self._runs)

    # ----------------------------------------------------------------- subclass API
    def _build(self) -> Any:
        """Create the input tensors in the current default graph; return a Batch.

        Called once, on first use (``tensors``, ``get_batch``, ``session``...),
        inside ``graph.as_default()`` and ``tf.name_scope(name)``. Variables and
        queue runners it creates are found by the base class (initialised and
        started on first use in each session)."""
        raise NotImplementedError

    def _declare_setting(self, name: str, value: Any) -> None:
        """Make ``name`` a setting that :meth:`configure` may change, starting at
        ``value`` (already checked). Call in ``__init__``, before anything is built."""
        if self._built is not None:
            raise RuntimeError(f"{type(self).__name__}: declare setting {name!r} before "
                               "the pipeline is built")
        self._settings[name] = value

    def _record(self, helper: str) -> BuildRecord:
        """The record of the build in progress; RuntimeError naming ``helper`` if none."""
        if self._building is None:
            raise RuntimeError(f"{type(self).__name__}.{helper} may only be called from _build")
        return self._building

    def _setting_placeholder(self, name: str, dtype: tf.DType = tf.int64) -> tf.Tensor:
        """A scalar placeholder fed with the current value of setting ``name``.

        It defaults to the value the setting had when the graph was built, so a
        model wired to :attr:`tensors` also runs in the user's own ``sess.run``
        without a feed; ``get_batch`` always feeds the current value.
        """
        record = self._record("_setting_placeholder")
        if name not in self._settings:
            raise KeyError(f"{type(self).__name__} has no setting {name!r}")
        default = tf.constant(self._settings[name], dtype)
        placeholder = tf1.placeholder_with_default(default, shape=[], name=name)
        record.placeholders[name] = placeholder
        return placeholder

    def _add_iterator_initializer(self, initializer: tf.Operation) -> None:
        """An initializer run on first use in a session and again after configure()."""
        self._record("_add_iterator_initializer").initializers.append(initializer)

    @property
    def _served(self) -> bool:
        """Whether the dataset runs on the tf.data service (``service=`` given)."""
        return self._distribution.service is not None

    def _distribute(self, dataset: tf.data.Dataset, drop_remainder: bool = False
                    ) -> tf.data.Dataset:
        """``dataset`` (of batches) run by the tf.data service when ``service=`` was
        given, re-batched to the ``batch_size`` setting; unchanged otherwise."""
        batch_size = self._record("_distribute").placeholders.get("batch_size", self.batch_size)
        return self._distribution.distribute(dataset, batch_size, drop_remainder,
                                             self.stall_timeout)

    def _iterator_initializers_for(self, settings: dict[str, Any]) -> list[tf.Operation]:
        """Which initializers to run for these settings (all of them by default;
        a pipeline with one dataset per level of detail picks one). Called after
        the build, on first use in a session and after every change of settings."""
        return self._built.iterator_initializers if self._built else []

    def _explain_error(self, error: tf.errors.OpError) -> DataError | None:
        """A DataError naming the file behind a reader error, or None (the error is
        then raised as it is). Called when a step or a reader thread fails; it may
        read the files again to find the bad record."""
        return None

    def _deferred_error(self) -> DataError | None:
        """A DataError kept aside by the input (e.g. a Python generator that ended
        early on a bad file) to raise in place of the end of data or a stall."""
        return None

    def _examples_in_records(self, files: list[str]) -> int:
        """Examples this pipeline's shard reads per epoch from the record ``files``
        (counted from the records' length fields: a seek per record)."""
        from tf1_pipelines.records.reader import count_records_by_header
        dist = self._distribution
        # not strict: a truncated file is named by the reader when it gets there
        counts = [count_records_by_header(f, strict=False) for f in dist.shard_files(files)]
        shards, index = dist.record_shard(len(files))
        if shards == 1:
            return sum(counts)
        # record-level: shard i keeps records i, i + n, ... of each file
        return sum(max(0, (c - index + shards - 1) // shards) for c in counts)

    def _check_batch_can_come(self, batch_size: int, examples: int, num_epochs: int | None,
                              keeps_remainder: bool, flag: str) -> None:
        """ConfigError when no batch would ever come: ``examples`` examples per epoch,
        read ``num_epochs`` times (None: forever) into one stream cut into batches of
        ``batch_size`` whose smaller final batch is dropped unless ``keeps_remainder``
        (``flag`` names the option that keeps it)."""
        if keeps_remainder or num_epochs is None:
            return
        total = examples * num_epochs
        if batch_size > total:
            epochs = f" x {num_epochs} epochs = {total}" if num_epochs > 1 else ""
            raise ConfigError(f"batch_size {batch_size} is larger than the {examples} examples"
                              f"{epochs} this pipeline reads, and {flag} is off: no batch would "
                              f"ever come; lower batch_size to at most {total}, or set {flag}=True")

    def _check_records_batch_size(self, batch_size: int, files: list[str], num_epochs: int | None,
                                  allow_smaller_final_batch: bool) -> None:
        """``_check_batch_can_come`` for a pipeline reading the records of ``files``
        for ``num_epochs`` epochs; they are counted once, on first need."""
        if allow_smaller_final_batch or num_epochs is None:
            return
        if self._record_examples is None:
            self._record_examples = self._examples_in_records(files)
        self._check_batch_can_come(batch_size, self._record_examples, num_epochs, False,
                                   "allow_smaller_final_batch")

    def _check_batch_size(self, batch_size: int) -> None:
        """ConfigError when no batch of ``batch_size`` would ever come; called by
        configure(). The base class cannot tell; pipelines that can override it."""

    def _validate_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Check and normalise settings given to configure() (a fresh dict the
        override may change); raise ConfigError. Returns the settings to apply."""
        if "batch_size" in settings:
            settings["batch_size"] = check_positive_int("batch_size", settings["batch_size"])
            self._check_batch_size(settings["batch_size"])
        reject_unknown_options(f"{self.name} cannot configure", settings, sorted(self._settings),
                               "setting")
        return settings

    # ------------------------------------------------------------------ public API
    @property
    def graph(self) -> tf.Graph:
        """The graph the pipeline is (or will be) built into."""
        if self._graph is None:
            with self._lock:
                if self._graph is None:
                    self._graph = self._made_graph = tf.Graph()
        return self._graph

    @property
    def tensors(self) -> Any:
        """The Batch of ``tf.Tensor`` in :attr:`graph`, to wire into a model."""
        return self._ensure_built(self.graph).tensors

    @property
    def batch_size(self) -> int:
        return self._settings["batch_size"]

    @property
    def settings(self) -> dict[str, Any]:
        """A copy of the current configurable settings."""
        return dict(self._settings)

    @property
    def session(self) -> Any:
        """The pipeline's own ``tf.compat.v1.Session`` (created on first use, after the
        pipeline is built: a graph with queue runners gets
        :func:`queue_runner_session_config` unless ``session_config`` was given)."""
        with self._lock:
            self._check_open()
            if self._runs.own_session is None:
                built = self._ensure_built(self.graph)
                config = self._session_config
                if config is None and built.queue_runners:
                    config = queue_runner_session_config()
                self._runs.own_session = tf1.Session(graph=self.graph, config=config)
            return self._runs.own_session

    def feed_dict(self) -> dict[tf.Tensor, Any]:
        """The placeholder values (e.g. batch size) to feed when you ``sess.run``
        your own ops built on :attr:`tensors`."""
        self._ensure_built(self.graph)
        return self._feed(None)

    def configure(self, **settings: Any) -> None:
        """Change placeholder-fed settings (``batch_size=``, and per pipeline e.g.
        ``lod=``). Iterators are re-initialised only when something changed."""
        with self._lock:
            self._check_open()
            settings = self._validate_settings(dict(settings))
            if all(self._settings.get(k) == v for k, v in settings.items()):
                return
            # A new dict, not an update: a step reading the settings sees old or new.
            self._settings = {**self._settings, **settings}
            for run in list(self._runs.by_session.values()):
                self._reinitialize(run)

    def get_batch(self, sess: Any = None) -> Any:
        """The next Batch of numpy arrays.

        Without ``sess`` the pipeline's own session runs it; with ``sess`` the
        caller's session does (the pipeline must be built into ``sess.graph``).
        Raises EndOfData at the end of the data, PipelineStalled after
        ``stall_timeout`` seconds without a batch (the step stays in flight and
        the next call from this thread waits for it), DataError for bad records.
        """
        with self._lock:
            self._check_open()
            sess = self.session if sess is None else sess
            run = self._ensure_running(sess)
            built = self._require_built()
            # Computed here under the lock: callers in other threads get other feeds.
            feed = None if self.CAN_STALL or self._served else self._feed(run)
        try:
            if feed is not None:
                batch = run_step(run, built, feed)
            else:
                # Untimed, in our step thread, with a bounded wait: see step_runner.
                batch = self._runs.steps.run(lambda: run_step(run, built, self._feed(run)),
                                             self.stall_timeout)
            self._batches_delivered += 1  # for the stall message: did data ever flow?
            return batch
        except KeyboardInterrupt:
            self._close_quietly()  # threads joined on the way out (class docstring)
            raise
        except StepsClosed as exc:  # close() in another thread while this one waited
            raise RuntimeError(f"{self.name} pipeline is closed; load a new one") from exc
        except StepTimeout as exc:
            self._raise_reader_error(run)
            raise PipelineStalled(self._stall_message(sess)) from exc
        except tf.errors.OutOfRangeError as exc:
            self._raise_reader_error(run)
            raise EndOfData(f"{self.name}: end of data ({exc.message})") from exc
        except tf.errors.DeadlineExceededError as exc:
            self._raise_reader_error(run)
            raise PipelineStalled(self._stall_message(sess)) from exc
        except tf.errors.CancelledError:
            self._raise_reader_error(run)
            raise
        except tf.errors.OpError as exc:
            explained = self._explain_error(exc)
            if explained is not None:
                raise explained from exc
            raise

    def check_batch(self, batch: Any) -> None:
        """Raise ValueError if a Batch of numpy arrays breaks the declared FIELDS."""
        for name, spec in self.FIELDS.items():
            value = getattr(batch, name)
            values = value.items() if isinstance(value, dict) else [(name, value)]
            for key, array in values:
                check_field(key, array, spec)

    def __iter__(self) -> Iterator[Any]:
        """Batches until the end of the data (forever for a repeating pipeline)."""
        while True:
            try:
                yield self.get_batch()
            except EndOfData:
                return

    def queue_status(self, sess: Any = None) -> list[QueueStatus]:
        """Size and capacity of every queue of the pipeline (empty for tf.data)."""
        sess = self.session if sess is None else sess
        built = self._ensure_built(sess.graph)
        if not built.queue_sizes:
            return []
        names = list(built.queue_sizes)
        sizes = sess.run([built.queue_sizes[n][0] for n in names],
                         options=tf1.RunOptions(timeout_in_ms=5000))
        return [QueueStatus(n, int(s), built.queue_sizes[n][1]) for n, s in zip(names, sizes)]

    def queue_fill(self, sess: Any = None) -> dict[str, float]:
        """How full each queue is now, each value in 0..1: the ``fraction_of_N_full``
        figures ``tf.train`` queues record for TensorBoard, keyed by summary tag
        (``…/fraction_over_M_of_N_full`` is ``(size - M) / (N - M)``, clipped at 0),
        plus ``size / capacity`` under the op name of every queue that records no
        summary of its own. Empty for tf.data pipelines."""
        sess = self.session if sess is None else sess
        built = self._ensure_built(sess.graph)
        levels: dict[str, float] = {}
        if built.fill_summaries:
            tags = list(built.fill_summaries)
            values = sess.run([built.fill_summaries[t] for t in tags],
                              options=tf1.RunOptions(timeout_in_ms=5000))
            levels.update({t: float(v) for t, v in zip(tags, values)})
        # A tf.train queue's summary sits next to its queue op (shuffle_batch/…)
        # or inside the scope named after it (input_producer/fraction_of_32_full).
        covered = {tag.rsplit("/", 1)[0] for tag in levels}
        for status in self.queue_status(sess):
            if status.name not in covered and status.name.rsplit("/", 1)[0] not in covered:
                levels[status.name] = status.fraction_full
        return levels

    def running_threads(self) -> list[threading.Thread]:
        """Threads of ours still alive (one per enqueue op of each queue runner)."""
        runs = list(self._runs.by_session.values())  # a copy: close() may clear it meanwhile
        return [t for run in runs for t in run.threads if t.is_alive()]

    def close(self) -> None:
        """Stop and join every thread of ours, close our own session. Idempotent.

        Raises PipelineStalled if a thread did not stop within ``join_timeout``.
        """
        self._close(grace=None)

    def _close(self, grace: float | None) -> None:
        """close(), the queue threads given ``grace`` seconds (see Runs.stop_all)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            errors = self._runs.stop_all(grace)
            self._finalizer.detach()
            if self._made_graph is not None:
                graph_reclaim.release(self._made_graph)
        stuck = [e for e in errors if isinstance(e, RuntimeError)]
        if stuck:
            raise PipelineStalled(f"{self.name}: threads did not stop within "
                                  f"{self._runs.join_timeout} s: {stuck[0]}")

    # -------------------------------------------------- input position (tf1_pipelines.state)
    def initialize(self, sess: Any = None) -> None:
        """Run the pipeline's initializers in ``sess`` and start its threads, as the
        first ``get_batch`` would; call it before ``saver.restore(sess, ...)`` of a
        Saver that holds the input position, so the first get_batch keeps it."""
        with self._lock:
            self._check_open()
            self._ensure_running(self.session if sess is None else sess)

    def save_state(self, path: str, sess: Any = None) -> None:
        """Save where the input stands (shuffle buffers, epoch and element counters,
        the setting values) into folder ``path``, atomically. ConfigError for inputs
        that cannot be saved (queues, generators, py_func, feed_dict), naming the
        ``dataset`` backend."""
        with self._lock:  # no step, configure() or close() in between
            self._check_open()
            sess = self.session if sess is None else sess
            state = self._saveable_input(sess)
            input_state.save(self, state, sess, path)

    def restore_state(self, path: str, sess: Any = None) -> None:
        """Continue from the position saved in ``path``: the next get_batch returns
        the batch that followed the save. ConfigError when ``path`` was saved by
        another pipeline or with other options or settings (naming the first)."""
        with self._lock:
            self._check_open()
            sess = self.session if sess is None else sess
            state = self._saveable_input(sess)
            input_state.restore(self, state, sess, path)

    def _saveable_input(self, sess: Any) -> input_state.InputState:
        """The build's InputState (ConfigError if it cannot be saved), running in ``sess``."""
        self._ensure_built(sess.graph)
        state = self._input_state
        if state is None:
            raise RuntimeError(f"{self.name}: built without its input state")
        input_state.refuse_if_unsaveable(self, state)
        self._ensure_running(sess)
        return state

    def _close_quietly(self) -> None:
        """Close at once (Ctrl-C): queue threads get :data:`INTERRUPT_GRACE` seconds to
        end their steps, then our session is closed under them; threads that did not
        stop within ``join_timeout`` are only left behind (daemons)."""
        try:
            self._close(grace=INTERRUPT_GRACE)
        except PipelineStalled:
            pass

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # --------------------------------------------------------------- internals
    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"{self.name} pipeline is closed; load a new one")

    def _ensure_built(self, graph: tf.Graph) -> Built:
        built = self._built  # set once; read without the lock (the step thread's _feed)
        if built is None:
            with self._lock:
                built = self._built or self._build_into(graph)
        if built.graph is not graph:
            raise ConfigError(f"{self.name} pipeline is built into another graph than this "
                              "session's; pass graph= to load_pipeline or use one session")
        return built

    def _build_into(self, graph: tf.Graph) -> Built:
        """Build into ``graph`` (under the lock, once)."""
        self._graph = graph
        with graph.as_default():
            before = collections_snapshot(graph)
            self._building = record = BuildRecord()
            try:
                with tf.name_scope(self.name), no_deprecation_warnings():
                    tensors = self._build()
            finally:
                self._building = None
            self._built = finish_build(self.name, graph, tensors, record, before)
            self._input_state = input_state.collect(graph, before["#ops"], self)
        return self._built


    def _feed(self, run: Run | None) -> dict[tf.Tensor, Any]:
        """The feed of one step: every setting's placeholder with its current value.
        ``run`` is the session's :class:`Run` (None for :meth:`feed_dict`)."""
        return self._settings_feed()

    def _ensure_running(self, sess: Any) -> Run:
        """The Run of ``sess``, started on first use (called under the lock)."""
        run = self._runs.by_session.get(id(sess))
        if run is not None and run.session is sess:
            return run
        built = self._ensure_built(sess.graph)
        if built.variable_initializer is not None:
            sess.run(built.variable_initializer)
        run = Run(session=sess, coordinator=tf1.train.Coordinator())
        self._reinitialize(run)  # iterators before the queue threads read through them
        start_run(run, built)
        self._runs.by_session[id(sess)] = run
        return run

    def _initializer_feed(self) -> dict[tf.Tensor, Any]:
        """The feed for iterator initializers: the settings' placeholders only
        (``_feed`` may be overridden to add per-step values, e.g. a fed batch)."""
        return self._settings_feed()

    def _settings_feed(self) -> dict[tf.Tensor, Any]:
        """Every setting's placeholder with the setting's current value."""
        placeholders = self._require_built().placeholders
        settings = self._settings  # one snapshot: configure() replaces the dict whole
        return {ph: settings[name] for name, ph in placeholders.items()}

    def _require_built(self) -> Built:
        """What the build produced; RuntimeError if nothing is built yet."""
        if self._built is None:
            raise RuntimeError(f"{self.name} pipeline is not built yet")
        return self._built

    def _reinitialize(self, run: Run) -> None:
        initializers = self._iterator_initializers_for(self._settings)
        if initializers:
            run.session.run(initializers, feed_dict=self._initializer_feed())
        run.settings = dict(self._settings)

    def _raise_reader_error(self, run: Run) -> None:
        """If a reader thread failed, raise its error (as DataError with the file)."""
        deferred = self._deferred_error()
        if deferred is not None:
            raise deferred
        if not run.coordinator.should_stop():
            return
        try:
            run.coordinator.raise_requested_exception()
        except tf.errors.OutOfRangeError:
            return
        except tf.errors.OpError as exc:
            explained = self._explain_error(exc)
            if explained is not None:
                raise explained from exc
            raise DataError(f"{self.name}: a reader thread failed: {exc.message}") from exc

    def _stall_message(self, sess: Any) -> str:
        head = f"{self.name}: no batch within stall_timeout={self.stall_timeout:g} s"
        if self._served:
            return head + self._distribution.stall_reason(self._batches_delivered)
        try:
            statuses = self.queue_status(sess)
        except tf.errors.OpError:
            statuses = []
        if not statuses and self._batches_delivered:
            return head + (f" after {self._batches_delivered} batches (the input stopped "
                           "producing; a reader is blocked)")
        if not statuses:
            return head + " (the input produced nothing; is the data empty?)"
        queues = ", ".join(f"{s.name} holds {s.size} of {s.capacity}" for s in statuses)
        running = len(self.running_threads())
        return f"{head}; queues: {queues}; {running} queue-runner threads alive"
