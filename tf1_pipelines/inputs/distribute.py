"""Splitting a pipeline's input across workers: shards and the tf.data service.

Two independent ways, both chosen by :class:`Distribution` (one per pipeline):

* **Shards** (``num_shards``, ``shard_index``): each training worker reads a
  disjoint part of the data, and the union of all shards' epochs is every record
  exactly once. *File-level* when there are at least as many files as shards
  (shard ``i`` reads files ``i, i + n, i + 2n, ...``: no record is read and
  thrown away); *record-level* otherwise (every file is read, and shard ``i``
  keeps records ``i, i + n, ...`` of each file, counted before any shuffle, so
  the split is the same every epoch). Arrays in memory are split by row.
* **The tf.data service** (``service="grpc://host:port"``): the pipeline's
  dataset runs on the service's workers (TensorFlow's own
  ``tf.data.experimental.service``); this process only receives batches.
  ``processing_mode="distributed_epoch"`` hands every record of an epoch to
  one worker, so each record comes once per epoch across all consumers of the
  job; ``"parallel_epochs"`` lets every worker produce a whole epoch.
  Consumers naming the same ``job_name`` share one job.

With the service, workers batch their part of the data and this process
re-batches what arrives (``unbatch`` then ``batch(batch_size)``), so every batch
but the last of the data has ``batch_size`` rows however many workers there
are, and a ``configure(batch_size=...)`` applies as it does locally.
"""
from __future__ import annotations

import socket
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

import numpy as np
import tensorflow as tf

from tf1_pipelines.errors import ConfigError, ConfigTypeError
from tf1_pipelines.inputs.service_probe import dispatcher_problem
from tf1_pipelines.options import check_choice, check_int_in_range, check_positive_int, show

PROCESSING_MODES = ("distributed_epoch", "parallel_epochs")
PROTOCOL = "grpc"

T = TypeVar("T")


def check_service_address(name: str, service: Any) -> str:
    """``service`` as given if it reads ``grpc://host:port`` and nothing more;
    ConfigTypeError for a value that is not a string, ConfigError for a string of
    another form."""
    if not isinstance(service, str):
        raise ConfigTypeError(f"{name} must be a string 'grpc://host:port', got "
                              f"{show(service)} ({type(service).__name__})")
    parts = urlsplit(service)
    try:
        port = parts.port
    except ValueError:
        port = None
    # Nothing may follow host:port (a path, ?query, #fragment) nor precede the host (user@):
    # TensorFlow would take the whole rest as the address and retry it in vain.
    if (parts.scheme != PROTOCOL or not parts.hostname or port is None or "@" in parts.netloc
            or service != f"{PROTOCOL}://{parts.netloc}"):
        raise ConfigError(f"{name} must look like 'grpc://host:port' (a dispatcher's "
                          f"address), got {show(service)}")
    return service


def check_job_name(name: str, value: Any) -> str | None:
    """``value`` if it is None or a non-empty string; ConfigTypeError for another
    type, ConfigError for an empty string."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigTypeError(f"{name} must be a non-empty string or None, got "
                              f"{show(value)} ({type(value).__name__})")
    if not value:
        raise ConfigError(f"{name} must be a non-empty string or None, got ''")
    return value


@dataclass(frozen=True)
class Distribution:
    """How one pipeline splits its input (see the module docstring)."""

    num_shards: int = 1
    shard_index: int = 0
    service: str | None = None
    processing_mode: str = "distributed_epoch"
    job_name: str | None = None

    @classmethod
    def checked(cls, num_shards: Any = 1, shard_index: Any = 0, service: Any = None,
                processing_mode: Any = "distributed_epoch", job_name: Any = None
                ) -> Distribution:
        """A Distribution after checking every option: ConfigError naming the option
        (ConfigTypeError, also a TypeError, for a value of the wrong type)."""
        num_shards = check_positive_int("num_shards", num_shards)
        shard_index = check_int_in_range("shard_index", shard_index, 0, num_shards - 1)
        if service is not None:
            check_service_address("service", service)
        processing_mode = check_choice("processing_mode", processing_mode, PROCESSING_MODES)
        job_name = check_job_name("job_name", job_name)
        if job_name is not None and service is None:
            raise ConfigError(f"job_name {job_name!r} needs service='grpc://host:port'")
        return cls(num_shards, shard_index, service, processing_mode, job_name)

    # ------------------------------------------------------------------- shards
    @property
    def sharded(self) -> bool:
        return self.num_shards > 1

    def file_level(self, num_files: int) -> bool:
        """Whether ``num_files`` files are enough to shard by file."""
        return num_files >= self.num_shards

    def shard_files(self, files: Sequence[T]) -> list[T]:
        """This shard's files when sharding by file, else all of them (the records
        are then split by :meth:`record_reader`)."""
        if not self.sharded or not self.file_level(len(files)):
            return list(files)
        return list(files[self.shard_index::self.num_shards])

    def record_reader(self, num_files: int, reader: Callable[[Any], tf.data.Dataset]
                      ) -> Callable[[Any], tf.data.Dataset]:
        """``reader`` (file name -> dataset of records) keeping only this shard's
        records of each file when ``num_files`` files are too few to shard by file."""
        n, i = self.record_shard(num_files)
        return reader if n == 1 else (lambda filename: reader(filename).shard(n, i))

    def shard_records(self, num_files: int, dataset: tf.data.Dataset) -> tf.data.Dataset:
        """``dataset`` (records in file order, before any shuffle) cut to this shard's
        records when ``num_files`` files are too few to shard by file."""
        n, i = self.record_shard(num_files)
        return dataset if n == 1 else dataset.shard(n, i)

    def record_shard(self, num_files: int) -> tuple[int, int]:
        """``(num_shards, shard_index)`` when ``num_files`` files are too few to
        shard by file (records are then split), else ``(1, 0)``."""
        if not self.sharded or self.file_level(num_files):
            return (1, 0)
        return (self.num_shards, self.shard_index)

    def shard_rows(self, arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """This shard's rows ``i, i + n, ...`` of every array (record-level)."""
        if not self.sharded:
            return arrays
        return {name: a[self.shard_index::self.num_shards] for name, a in arrays.items()}

    def require_file_level(self, num_files: int, why: str) -> None:
        """ConfigError if ``num_files`` files are too few to shard by file and the
        reader (``why``, e.g. "the queue backend") cannot split records."""
        if self.sharded and not self.file_level(num_files):
            raise ConfigError(f"num_shards {self.num_shards} needs at least as many record "
                              f"files, got {num_files}: {why} shards by file; use "
                              "backend='dataset' (record-level shards) or write more files")

    # ------------------------------------------------------------------ service
    @property
    def splits_by_dispatcher(self) -> bool:
        """Whether the service's dispatcher hands out the source's elements (files)
        one by one (``distributed_epoch``). A file list shuffled in the dataset and
        then interleaved is then read twice over (TensorFlow 2.21: 40 of 20 elements
        through 2 workers); the pipelines leave the file order to the dispatcher."""
        return self.service is not None and self.processing_mode == "distributed_epoch"

    def refuse_service(self, why: str) -> None:
        """ConfigError if the service was asked for: ``why`` says what cannot be served."""
        if self.service is not None:
            raise ConfigError(f"service={self.service!r} is not available here: {why}")

    def distribute(self, dataset: tf.data.Dataset, batch_size: Any,
                   drop_remainder: bool = False, timeout: float = 10.0) -> tf.data.Dataset:
        """``dataset`` of batches run by the service, re-batched here to
        ``batch_size`` rows; ``dataset`` unchanged without a service.

        The dispatcher is checked first (a TCP connection within ``timeout``
        seconds): TensorFlow would otherwise retry an unreachable one for a long
        time inside the iterator's initializer."""
        if self.service is None:
            return dataset
        check_reachable(self.service, timeout)
        with warnings.catch_warnings():
            # distribute() reads dataset.options() in graph mode, which warns that the
            # value may be stale; the options travel inside the graph regardless.
            warnings.filterwarnings("ignore", "To make it possible to preserve tf.data options")
            served = dataset.apply(tf.data.experimental.service.distribute(
                processing_mode=self.processing_mode, service=self.service,
                job_name=self.job_name))
        return served.unbatch().batch(batch_size, drop_remainder=drop_remainder)

    def stall_reason(self, batches_delivered: int, timeout: float = 2.0) -> str:
        """Why a served pipeline gave no batch, for PipelineStalled: the dispatcher
        is unreachable (stopped), or it answers and no batch ever came (no worker
        registered), or batches came and stopped (a worker lost)."""
        if self.service is None:
            return ""
        problem = unreachable(self.service, timeout)
        served = f" after {batches_delivered} batches" if batches_delivered else ""
        if problem is not None:
            return (f"{served}: the dispatcher of service={self.service!r} is unreachable "
                    f"({problem}); was it stopped?")
        if not batches_delivered:
            return (f": the dispatcher of service={self.service!r} answers, but no batch came - "
                    "has it any worker? start one with `python -m tf1_pipelines serve worker "
                    f"--dispatcher {urlsplit(self.service).netloc}`")
        return (f"{served}: the dispatcher of service={self.service!r} answers, but its workers "
                "stopped producing - a worker was lost (stopped or unreachable); the "
                "dispatcher hands its work to another once one registers")


def unreachable(service: str, timeout: float) -> str | None:
    """None if ``service``'s dispatcher accepts a TCP connection within ``timeout``
    seconds, else what went wrong (refused at once, or no answer in time)."""
    parts = urlsplit(service)
    host, port = parts.hostname or "", int(parts.port or 0)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except ConnectionRefusedError:
        return f"{host}:{port} refuses connections: nothing listens on that port"
    except TimeoutError:
        return f"no answer from {host}:{port} within {timeout:g} s"
    except OSError as exc:
        return f"{host}:{port}: {exc}"


def check_reachable(service: str, timeout: float) -> None:
    """ConfigError naming ``service`` if no TCP connection opens within ``timeout`` s
    (saying whether it was refused at once or timed out), or if what answers there is
    not a tf.data dispatcher (its version call, :mod:`service_probe`): TensorFlow
    would retry either for ever inside the iterator's initializer."""
    problem = unreachable(service, timeout)
    parts = urlsplit(service)
    if problem is not None:
        raise ConfigError(f"service={service!r}: no dispatcher answers ({problem}); start one "
                          f"with `python -m tf1_pipelines serve dispatcher --port {parts.port}`")
    problem = dispatcher_problem(parts.netloc, timeout, timeout)
    if problem is not None:
        raise ConfigError(f"service={service!r}: {problem}")
