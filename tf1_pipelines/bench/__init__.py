"""``python -m tf1_pipelines bench``: every pipeline x backend on the embedded data, as ratios.

For each pipeline there are three kinds of case:

* the **seed formulation**: the seed's own code path through its legacy face
  (``DataLoader.read_tfrecords``, ``read_and_decode`` on a
  ``string_input_producer`` with Coordinator threads, ``batch_inputs``,
  ``TFRecordDataset.get_minibatch_np``, the answer's patch graph, a
  ``feed_dict`` loop over a ``DataProvider``, constants through
  ``slice_input_producer`` + ``tf.train.batch``), run by a plain ``sess.run``;
* the **floor**: read + parse only, batched the same way, no shuffling and no
  preprocessing - how fast the pipeline could be if its own work were free;
* one case per backend of the **uniform face** (``load_pipeline(name, backend=...)``
  read through ``get_batch()``), plus a few variants worth comparing.

Every case reports examples/s, MB/s (bytes of the numpy arrays delivered),
the first-batch latency (from building the graph to the first batch, queue
threads included) and the peak RSS, and each pipeline's cases are given as
ratios to its seed formulation (``x seed``) and to its floor (``x floor``),
since absolute rates vary from machine to machine.

How it is measured. A case builds its graph and session, takes its first batch
(that latency is reported on its own), runs a few warm-up batches (enough to
drain what its queues held when the timed window would start, within half the
measuring time) and then runs batches for ``seconds`` (at least
``MIN_TIMED_STEPS``). Queue threads are started before the first batch and
joined when the case ends. The cases alternate over ``rounds`` rounds
(pipeline by pipeline, case by case) and the median round of each case counts
(the best would favour the case whose rate varies most).

Isolation and peak RSS. Starting a Python process with TensorFlow takes 3-4 s,
which would eat the whole time budget, so on Linux the bench imports
TensorFlow once and forks a fresh child for every case (and for building the
data beforehand); the parent never creates a TensorFlow session, so each child
starts clean. A forked child's peak RSS starts from the RSS of the parent at
the fork (TensorFlow imported, about 230-260 MB) and grows with what the case
itself allocates, so ``peak RSS`` is per case: baseline + the case's own peak.
A child's stdout and stderr (TensorFlow's warnings, the notes of cancelled
enqueues when queue runners stop) go to a log that is shown only if the case
fails; a failed case is reported after the tables and left out of them.
Elsewhere each case runs in its own ``python -m tf1_pipelines.bench --worker``
subprocess, whose peak also holds TensorFlow's import-time peak.

Time budget. With the defaults (``DEFAULT_SECONDS`` s per case,
``DEFAULT_ROUNDS`` rounds, 28 cases) the whole run takes about two and a half
minutes on 2 cores (measured: 132 s with a load average of 2-3 from other work),
once the embedded data are built (the first run also builds them).
``scale=N`` multiplies the measuring time by N, adds N - 1 rounds, and repeats
the in-memory data sets (``feeding``, ``constant``) N times.

Where things are. Each pipeline declares its cases in its own package's
``bench.py`` (``BENCH``, a :class:`~tf1_pipelines.bench.cases.PipelineBench`);
:data:`~tf1_pipelines.bench.cases.BENCHES` finds them through the registry, so
adding a pipeline needs no edit here. The harness: ``cases.py`` (what a case is,
discovery, helpers to build cases), ``measure.py`` (one case in this process),
``isolation.py`` (one case in a process of its own), ``run.py`` (rounds),
``report.py`` (ratios, tables, JSON, plot). None of them imports a pipeline module.
"""
from tf1_pipelines.bench.cases import (
    BENCHES,
    FLOOR_CASE,
    SEED_CASE,
    Case,
    CaseFactory,
    PipelineBench,
)
from tf1_pipelines.bench.isolation import _can_fork, measure_isolated, run_forked
from tf1_pipelines.bench.measure import (
    MIN_TIMED_STEPS,
    Result,
    measure_case,
    peak_rss_mb,
)
from tf1_pipelines.bench.report import format_tables, plot_results, ratios, write_json
from tf1_pipelines.bench.run import DEFAULT_ROUNDS, DEFAULT_SECONDS, run_bench

__all__ = ["BENCHES", "DEFAULT_ROUNDS", "DEFAULT_SECONDS", "FLOOR_CASE", "MIN_TIMED_STEPS",
           "SEED_CASE", "Case", "CaseFactory", "PipelineBench", "Result", "_can_fork",
           "format_tables", "measure_case", "measure_isolated", "peak_rss_mb", "plot_results",
           "ratios", "run_bench", "run_forked", "write_json"]
