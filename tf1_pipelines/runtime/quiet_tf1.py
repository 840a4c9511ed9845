"""Calls of the TF1 APIs we reproduce, without TensorFlow's deprecation warnings.

The seeds' graph pieces (``string_input_producer``, ``TFRecordReader``,
``shuffle_batch``, ``batch_join``, ``QueueRunner``, ``tf_record_iterator``, the
``Iterator.output_types`` TensorFlow itself reads, ...) have no non-deprecated
replacement: they *are* what this package provides. TensorFlow logs a deprecation
warning the first time each of them is called; those lines would be caused by our
code, not the user's, so our calls run inside :func:`no_deprecation_warnings`.

Only the deprecation notices are held back, and only while our call runs: the flag
TensorFlow's ``deprecation`` module reads is switched off for the call and restored
after it (also on an exception). Nothing is marked as already warned, so a user who
calls one of these APIs directly still sees TensorFlow's notice the first time.
A deprecated call made by another thread during that window stays silent for that
one call and warns on its next one.
"""
from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_lock = threading.Lock()
_depth = 0          # how many of our calls are inside the window, over all threads
_saved = True       # the flag's value before the outermost of them


def _deprecation_module() -> Any:
    # Imported on first use: importing tf1_pipelines must not load TensorFlow.
    from tensorflow.python.util import deprecation
    return deprecation


@contextlib.contextmanager
def no_deprecation_warnings() -> Iterator[None]:
    """Run the body with TensorFlow's deprecation notices off; nested and
    concurrent uses are counted, and the outermost exit restores the flag."""
    global _depth, _saved
    module = _deprecation_module()
    with _lock:
        if _depth == 0:
            _saved = module._PRINT_DEPRECATION_WARNINGS
            module._PRINT_DEPRECATION_WARNINGS = False
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                module._PRINT_DEPRECATION_WARNINGS = _saved


def quiet_tf1(func: F) -> F:
    """Decorator: ``func`` runs inside :func:`no_deprecation_warnings`; returns
    what ``func`` returns."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with no_deprecation_warnings():
            return func(*args, **kwargs)
    return wrapper  # type: ignore[return-value]
