"""Bridges that let TensorFlow 1 era code run on today's stack.

Importing this package changes nothing: ``compat.scipy_legacy.misc`` and
``compat.numpy1.bytes_helpers`` are plain modules, and only the runner
(``python -m compat run script.py``) installs anything process-wide.
``%load_ext compat`` in IPython calls :func:`load_ipython_extension`, which
does for the session's later cells what the runner does for a script
(:mod:`compat.notebook`).
"""

from typing import Any


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext compat``: later cells run as TensorFlow 1 era code (see :mod:`compat.notebook.extension`)."""
    from compat.notebook import extension
    extension.load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext compat``: undo ``%load_ext compat``."""
    from compat.notebook import extension
    extension.unload(ipython)
