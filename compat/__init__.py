"""Bridges that let TensorFlow 1 era code run on today's stack.

Importing this package changes nothing: ``compat.scipy_legacy.misc`` and
``compat.numpy1.bytes_helpers`` are plain modules, and only the runner
(``python -m compat run script.py``) installs anything process-wide.
"""
