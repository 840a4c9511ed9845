"""Python generators behind ``Dataset.from_generator`` with errors that name the file.

An exception raised inside a generator reaches the caller of ``sess.run`` as
TensorFlow's ``InvalidArgumentError``, whose text embeds the Python traceback
and names the file only deep inside it. :class:`GeneratorGuard` wraps the
generator function: it keeps the first exception as a :class:`DataError`
(naming the file the generator was reading, when it says so through
:meth:`GeneratorGuard.reading`), and ends the generator with a one-line error
so nothing long is printed; the pipeline then raises the kept DataError
(:meth:`GeneratorGuard.error`).
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from tf1_pipelines.errors import DataError

T = TypeVar("T")


class GeneratorFailed(Exception):
    """Ends a guarded generator; its one-line message is what TensorFlow carries.
    The full error is kept by the guard."""


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
        try:
            yield from self._make(self)
        except GeneratorExit:
            raise
        except DataError as exc:
            self._keep(exc)
            raise GeneratorFailed(str(exc)) from None
        except Exception as exc:  # any failure of user data becomes a DataError
            error = DataError(f"{self.what}: {type(exc).__name__}: {exc}", path=self._path)
            self._keep(error)
            raise GeneratorFailed(str(error)) from None

    def _keep(self, error: DataError) -> None:
        with self._lock:
            if self._error is None:
                self._error = error

    def error(self) -> DataError | None:
        """The first error the generator raised, or None."""
        with self._lock:
            return self._error
