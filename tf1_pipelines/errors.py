"""The exceptions every pipeline raises.

``EndOfData`` subclasses ``tf.errors.OutOfRangeError`` so that TF1 loops written as
``except tf.errors.OutOfRangeError`` keep working unchanged.
"""
from __future__ import annotations

import tensorflow as tf


class EndOfData(tf.errors.OutOfRangeError):
    """The pipeline has delivered all of its data (``num_epochs`` reached, or a
    non-repeating dataset ran out). Iteration over a pipeline stops on it."""

    def __init__(self, message: str = "end of data") -> None:
        super().__init__(None, None, message)


class PipelineStalled(RuntimeError):
    """The pipeline produced nothing within its bounded wait (``stall_timeout``).

    The message names the queues of the pipeline and how full each one was.
    """


class DataError(ValueError):
    """Bad input data: the message names the file, and the record index and field
    where they are known.

    Attributes keep the same facts for programs: ``path``, ``record``, ``field``.
    """

    def __init__(self, message: str, *, path: str | None = None,
                 record: int | None = None, field: str | None = None) -> None:
        parts = []
        if path is not None:
            parts.append(f"file {path!r}")
        if record is not None:
            parts.append(f"record {record}")
        if field is not None:
            parts.append(f"field {field!r}")
        where = ", ".join(parts)
        super().__init__(f"{where}: {message}" if where else message)
        self.path = path
        self.record = record
        self.field = field


class ConfigError(ValueError):
    """A bad option value (batch size, capacity, level of detail, backend...). The
    message carries both the value given and what would be valid."""


class ConfigTypeError(ConfigError, TypeError):
    """A bad option of the wrong type (``patch_size="96"``, ``seed="x"``) or an option
    name the pipeline does not take (``batchsize=8``). Also a ``TypeError``, which is
    what Python raised for these before, so old ``except TypeError`` clauses still
    catch it; a ``ConfigError`` (and ``ValueError``) like every bad option."""
