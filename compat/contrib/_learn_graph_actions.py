"""``tf.contrib.learn``'s graph actions of TF 1.x: ``run_n``, ``run_feeds``, ``infer`` and ``no_op_train_fn``.

``run_feeds(output_dict, feed_dicts, restore_checkpoint_path)`` opens one
session on the graph of ``output_dict``'s tensors; restores the global variables
from the checkpoint with a ``Saver`` when a path is given (a graph without
variables restores nothing), else runs their initializer; then runs the local
variable and table initializers, starts the graph's queue runners under a
``Coordinator``, runs ``output_dict`` once per feed dict and finally stops and
joins the queue runners (at most 120 s, as TF 1.x). ``run_n`` feeds the same dict
``n`` times; ``infer`` returns the first (only) result. TensorFlow is imported on
first use.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

__all__ = ["infer", "no_op_train_fn", "run_feeds", "run_feeds_iter", "run_n"]

#: How long the queue-runner threads get to stop once the feeds are done (TF 1.x's grace period).
STOP_GRACE_SECS = 120


def _v1() -> Any:
    import tensorflow as tf
    return tf.compat.v1


def _restore(session: Any, checkpoint_path: str) -> None:
    """Restore the graph's global variables from ``checkpoint_path`` (nothing when it has none)."""
    v1 = _v1()
    variables = v1.global_variables()
    if variables:
        v1.train.Saver(variables, sharded=True).restore(session, checkpoint_path)


def run_feeds_iter(output_dict: Mapping[str, Any], feed_dicts: Iterable[Any] | None,
                   restore_checkpoint_path: str | None = None) -> Iterator[dict[str, Any]]:
    """Yield ``session.run(output_dict, feed)`` for each feed of ``feed_dicts`` (a feed may be None).

    Raises:
        ValueError: ``output_dict`` or ``feed_dicts`` is empty or None.
    """
    if not output_dict:
        raise ValueError(f"run_feeds: output_dict is invalid: {output_dict!r} (a dict of name -> tensor)")
    if not feed_dicts:
        raise ValueError(f"run_feeds: feed_dicts is invalid: {feed_dicts!r} (an iterable of feed dicts)")
    v1 = _v1()
    graph = next(iter(output_dict.values())).graph
    with graph.as_default(), v1.Session(graph=graph) as session:
        if restore_checkpoint_path:
            _restore(session, restore_checkpoint_path)
        else:
            session.run(v1.global_variables_initializer())
        session.run(v1.local_variables_initializer())
        session.run(v1.tables_initializer())
        coord = v1.train.Coordinator()
        threads: list[Any] = []
        try:
            threads = v1.train.start_queue_runners(session, coord=coord)
            for feed in feed_dicts:
                yield session.run(dict(output_dict), feed)
        finally:
            coord.request_stop()
            if threads:
                coord.join(threads, stop_grace_period_secs=STOP_GRACE_SECS)


def run_feeds(output_dict: Mapping[str, Any], feed_dicts: Iterable[Any] | None,
              restore_checkpoint_path: str | None = None) -> list[dict[str, Any]]:
    """:func:`run_feeds_iter` as a list: one dict of NumPy values per feed dict."""
    return list(run_feeds_iter(output_dict, feed_dicts, restore_checkpoint_path))


def run_n(output_dict: Mapping[str, Any], feed_dict: Any = None, restore_checkpoint_path: str | None = None,
          n: int = 1) -> list[dict[str, Any]]:
    """Run ``output_dict`` ``n`` times with the same ``feed_dict``: a list of ``n`` result dicts."""
    return run_feeds(output_dict, itertools.repeat(feed_dict, n), restore_checkpoint_path)


def infer(restore_checkpoint_path: str | None, output_dict: Mapping[str, Any],
          feed_dict: Any = None) -> dict[str, Any]:
    """Run ``output_dict`` once (restored from ``restore_checkpoint_path`` when given): its result dict."""
    return run_feeds(output_dict, [feed_dict], restore_checkpoint_path)[0]


def no_op_train_fn(loss: Any) -> Any:
    """A train op that does nothing (``tf.no_op``); ``loss`` is ignored, as in TF 1.x."""
    del loss
    return _v1().no_op()
