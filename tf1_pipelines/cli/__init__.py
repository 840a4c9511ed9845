"""The command lines behind ``python -m tf1_pipelines``: demo, bench, inspect, cache,
serve, and their shared exit codes and error reporting.

Program code: unlike the library it may quiet TensorFlow and exit. See
``docs/architecture.md``.
"""
