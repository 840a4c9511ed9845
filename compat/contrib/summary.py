"""``tf.contrib.summary``: the graph-mode summary API of TF 1.8-1.15 (writers, ``record_summaries_*``).

It lives on in TensorFlow as ``summary_ops_v2``, with the same names and arguments
(``scalar(name, tensor, family=None, step=None)``, ``create_file_writer``,
``summary_writer_initializer_op``, ...).
"""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    **{name: f"tensorflow.python.ops.summary_ops_v2.{name}" for name in (
        "SummaryWriter", "always_record_summaries", "audio", "create_file_writer", "create_summary_file_writer",
        "eval_dir", "flush", "generic", "graph", "histogram", "image", "import_event", "initialize",
        "never_record_summaries", "record_summaries_every_n_global_steps", "scalar", "should_record_summaries",
        "summary_writer_initializer_op")},
    "all_summary_ops": "tensorflow.python.ops.summary_ops_v2.all_v2_summary_ops",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {
    "create_db_writer": "create_file_writer (the SQLite summary writer was removed)",
}

__getattr__ = forwarding_getattr("summary", FORWARDS, REFUSED)
