"""Seed 004 §1, constant input: a small data set stored in the graph, behind the uniform API.

``load_pipeline("constant", arrays={...}, batch_size=..., train=True)`` puts the
arrays into the pipeline's graph as ``tf.constant`` and slices batches from them
(shuffled each epoch for training, in order for evaluation); it serves the same
examples per epoch, in the same batch sizes, as the ``feeding`` pipeline.
Without ``arrays`` it serves the embedded sample (``feeding``'s :func:`sample_arrays`).

Files: ``pipeline.py`` (the uniform face), ``graph.py`` (the constants and TF1's
preloaded-data recipe), ``legacy.py`` (that recipe), ``sample.py`` (feeding's
sample); ``records.py`` says why there are no records. The names below are
imported on first use.
"""
from tf1_pipelines.data.lazy_exports import lazy_exports

_EXPORTS = {
    "graph": ("MAX_CONSTANT_BYTES", "constant_dataset", "constant_input", "constant_tensors",
              "preloaded_batch"),
    "pipeline": ("Batch", "ConstantPipeline"),
    "sample": ("sample_arrays",),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

# What ``from ... import *`` gives; the other names above are importable too.
__all__ = ["Batch", "ConstantPipeline"]
