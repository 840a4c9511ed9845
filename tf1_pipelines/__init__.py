"""Classic TensorFlow 1 input pipelines, faithful on today's TensorFlow.

Uniform face::

    import tf1_pipelines as tp
    with tp.load_pipeline("div2k_sr", data_dir="...", batch_size=64) as p:
        lr, hr = p.get_batch()

Importing this package changes no global TensorFlow state, and does not even load
TensorFlow: the public names below are imported on first use. That lets the command
line (``python -m tf1_pipelines``) quiet TensorFlow's start-up log before TensorFlow
loads, which it cannot do once the library has imported it.

The top level is the public face; ``runtime/`` (sessions, threads, steps), ``cli/``
(the command lines), ``data/`` (embedded data) and the other sub-packages are laid out
in ``docs/architecture.md``.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # Explicit re-exports ("X as X"): what __getattr__ below serves, for type checkers.
    from tf1_pipelines.errors import ConfigError as ConfigError
    from tf1_pipelines.errors import ConfigTypeError as ConfigTypeError
    from tf1_pipelines.errors import DataError as DataError
    from tf1_pipelines.errors import EndOfData as EndOfData
    from tf1_pipelines.errors import PipelineStalled as PipelineStalled
    from tf1_pipelines.pipeline import Pipeline as Pipeline
    from tf1_pipelines.pipeline import QueueStatus as QueueStatus
    from tf1_pipelines.registry import available as available
    from tf1_pipelines.registry import load_pipeline as load_pipeline

#: Public name -> the module that defines it.
_PUBLIC = {
    "available": "tf1_pipelines.registry",
    "load_pipeline": "tf1_pipelines.registry",
    "Pipeline": "tf1_pipelines.pipeline",
    "QueueStatus": "tf1_pipelines.pipeline",
    "EndOfData": "tf1_pipelines.errors",
    "PipelineStalled": "tf1_pipelines.errors",
    "DataError": "tf1_pipelines.errors",
    "ConfigError": "tf1_pipelines.errors",
    "ConfigTypeError": "tf1_pipelines.errors",
}

__all__ = list(_PUBLIC)
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'tf1_pipelines' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
