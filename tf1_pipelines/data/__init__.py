"""The embedded data: sample photographs and the data home they are copied to, and the
lazy export tables the pipeline packages use to load their names on first use.

Nothing here imports TensorFlow. See ``docs/architecture.md``.
"""
