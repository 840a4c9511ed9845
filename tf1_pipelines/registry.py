"""The names of all pipelines and where each one lives.

The table maps a name to its package (``tf1_pipelines/pipelines/<name>/``, every
one of the same shape) and the class of its uniform face, defined in the
package's ``pipeline.py``. Packages are imported only when a pipeline is loaded
or benchmarked, so that ``available()`` stays cheap. Adding a pipeline means
adding its package and one line here.
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import Any

_PIPELINES: dict[str, tuple[str, str]] = {
    "div2k_sr": ("tf1_pipelines.pipelines.div2k_sr", "Div2kPipeline"),
    "voc_segmentation": ("tf1_pipelines.pipelines.voc_segmentation", "VocSegmentationPipeline"),
    "inception_multilabel": ("tf1_pipelines.pipelines.inception_multilabel",
                             "InceptionMultilabelPipeline"),
    "stylegan_lod": ("tf1_pipelines.pipelines.stylegan_lod", "StyleganLodPipeline"),
    "random_patches": ("tf1_pipelines.pipelines.random_patches", "RandomPatchesPipeline"),
    "feeding": ("tf1_pipelines.pipelines.feeding", "FeedingPipeline"),
    "constant": ("tf1_pipelines.pipelines.constant", "ConstantPipeline"),
}


def registered() -> list[str]:
    """Names of the installed pipelines in the table's order (seed 000 first)."""
    return [name for name, (package, _) in _PIPELINES.items()
            if importlib.util.find_spec(package) is not None]


def available() -> list[str]:
    """Names of the pipelines this installation provides, sorted."""
    return sorted(registered())


def _module(name: str, part: str) -> Any:
    """The module ``part`` (``pipeline``, ``bench``...) of pipeline ``name``."""
    if name not in available():
        # Imported here: errors loads TensorFlow, and the table and cache_folders() are
        # read by command lines that must not (``tf1-pipelines cache``).
        from tf1_pipelines.errors import ConfigError
        from tf1_pipelines.options import closest, show
        hint = closest(name, available()) if isinstance(name, str) else None
        suggestion = f"did you mean {hint!r}? " if hint is not None else ""
        raise ConfigError(f"unknown pipeline {show(name)}; {suggestion}"
                          f"available: {', '.join(available())}")
    return importlib.import_module(f"{_PIPELINES[name][0]}.{part}")


def pipeline_class(name: str) -> Any:
    """The class of pipeline ``name`` (a :class:`tf1_pipelines.pipeline.Pipeline`
    subclass); ConfigError for an unknown name."""
    return getattr(_module(name, "pipeline"), _PIPELINES[name][1])


def load_pipeline(name: str, **options: Any) -> Any:
    """Create the pipeline called ``name`` with its options (see each pipeline's
    class docstring). Nothing runs until its first ``get_batch``. Every option is
    checked first: ConfigError (ConfigTypeError, also a TypeError, for a value of
    the wrong type or an option name the pipeline does not take)."""
    return pipeline_class(name)(**options)


def cache_folders() -> tuple[dict[str, str], dict[str, str]]:
    """What the installed pipelines build under the data home: (embedded data sets,
    record caches), each folder name -> what it holds, from every package's
    ``CACHE_DATA_SETS`` and ``CACHE_RECORDS`` (set in its ``__init__``, which loads
    no TensorFlow). A pipeline that builds nothing there declares nothing."""
    data_sets: dict[str, str] = {}
    records: dict[str, str] = {}
    for name in registered():
        package = importlib.import_module(_PIPELINES[name][0])
        data_sets.update(getattr(package, "CACHE_DATA_SETS", {}))
        records.update(getattr(package, "CACHE_RECORDS", {}))
    return data_sets, records


def bench_of(name: str) -> Any:
    """The benchmark cases of pipeline ``name``: ``BENCH`` of its ``bench.py``, a
    :class:`tf1_pipelines.bench.cases.PipelineBench`."""
    return _module(name, "bench").BENCH
