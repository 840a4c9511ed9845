"""The errors and warnings of seed 001, and the original tool's ``error(msg)``."""
from __future__ import annotations

from typing import NoReturn

from tf1_pipelines.errors import DataError


class DatasetToolError(DataError):
    """An input the original ``dataset_tool.py`` rejected with ``error(msg)`` (which
    printed ``Error: msg`` and exited); the message starts with the original text."""


class BufferMemoryWarning(UserWarning):
    """``shuffle_mb`` / ``prefetch_mb`` could take more than half of the available memory."""


def error(msg: str, path: str | None = None) -> NoReturn:
    """The original's ``error(msg)``, as an exception instead of ``exit(1)``."""
    raise DatasetToolError(msg, path=path)
