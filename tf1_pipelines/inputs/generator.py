"""Python generators behind ``Dataset.from_generator`` with errors that name the file.

An exception raised inside a generator reaches the caller of ``sess.run`` as
TensorFlow's ``InvalidArgumentError``, whose text embeds the Python traceback
and names the file only deep inside it; TensorFlow's C++ side also logs that
traceback twice on its way out. :class:`GeneratorGuard` wraps the generator
function: it keeps the first exception as a :class:`DataError` (naming the file
the generator was reading, when it says so through
:meth:`GeneratorGuard.reading`) and ends the generator quietly, as if the data
had ended (and ends every later call at once, so a ``repeat()`` ends too). The
pipeline then raises the kept DataError (:meth:`GeneratorGuard.error`) in place
of the end of data. A plain ``sess.run`` of the pipeline's tensors sees only the
end of data: read through ``get_batch`` to get the error.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from tf1_pipelines.errors import DataError

T = TypeVar("T")


class GeneratorGuard(Generic[T]):
    """A generator function for ``from_generator`` that keeps its error as a DataError.

    ``make(guard)`` returns the iterator to guard; it may call
    ``guard.reading(path)`` before reading each file, so that an error that is
    not already a DataError is reported as one naming that file.
    """

    def __init__(self, make: Callable[[GeneratorGuard[T]], Iterator[T]], what: str) -> None:
        self._make = make
        self.what = what
        self._lock = threading.Lock()
        self._error: DataError | None = None
        self._path: str | None = None

    def reading(self, path: str) -> None:
        """Say which file the generator reads now (named if it fails)."""
        self._path = path

    def __call__(self) -> Iterator[T]:
        if self.error() is not None:
            return  # failed before: every later epoch is empty, so repeat() ends
        try:
            yield from self._make(self)
        except DataError as exc:
            self._keep(exc)
        except Exception as exc:  # any failure reading user data becomes a DataError
            self._keep(DataError(f"{self.what}: {type(exc).__name__}: {exc}", path=self._path))

    def _keep(self, error: DataError) -> None:
        with self._lock:
            if self._error is None:
                self._error = error

    def error(self) -> DataError | None:
        """The first error the generator raised, or None."""
        with self._lock:
            return self._error
