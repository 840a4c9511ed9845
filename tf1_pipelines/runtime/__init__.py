"""The runtime under every pipeline: sessions' step threads, queue-runner threads,
graph reclaiming, the allocator settings and TensorFlow's quieting.

Nothing here knows a pipeline; :mod:`tf1_pipelines.pipeline` drives it. See
``docs/architecture.md``.
"""
