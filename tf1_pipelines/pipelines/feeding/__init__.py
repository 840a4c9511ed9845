"""Seed 004 §1, feeding: numpy batches through ``feed_dict`` behind the uniform API.

``load_pipeline("feeding", arrays={...}, batch_size=..., train=True)`` serves the
arrays with a :class:`~tf1_pipelines.inputs.feed.DataProvider` (shuffled each
epoch for training, in order for evaluation). ``tensors`` are the placeholders;
to run a model on them in your own session, feed ``next_feed_dict()``.

Without ``arrays`` it serves the embedded sample: 32x32 tiles of the bundled
photographs with the photograph's index as the label (see :func:`sample_arrays`).

Files: ``pipeline.py`` (the uniform face), ``sample.py`` (the embedded sample),
``legacy.py`` (``DataProvider``), ``graph.py`` (the placeholders); ``records.py``
says why there are no records. The names below are imported on first use.
"""
from tf1_pipelines.data.lazy_exports import lazy_exports

_EXPORTS = {
    "graph": ("FeedPlaceholders", "make_placeholders"),
    "legacy": ("DataProvider", "named_arrays"),
    "pipeline": ("Batch", "FeedingPipeline", "batch_class_for"),
    "sample": ("SAMPLE_TILE", "SAMPLE_TILES_PER_SIDE", "sample_arrays"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

# What ``from ... import *`` gives; the other names above are importable too.
__all__ = ["Batch", "FeedingPipeline", "sample_arrays"]
