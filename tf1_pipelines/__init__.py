"""Classic TensorFlow 1 input pipelines, faithful on today's TensorFlow.

Uniform face::

    import tf1_pipelines as tp
    with tp.load_pipeline("div2k_sr", data_dir="...", batch_size=64) as p:
        lr, hr = p.get_batch()

Importing this package changes no global TensorFlow state.
"""
from tf1_pipelines.errors import ConfigError, DataError, EndOfData, PipelineStalled
from tf1_pipelines.registry import available, load_pipeline
from tf1_pipelines.session import Pipeline, QueueStatus

__all__ = ["available", "load_pipeline", "Pipeline", "QueueStatus", "EndOfData",
           "PipelineStalled", "DataError", "ConfigError"]
__version__ = "0.1.0"
