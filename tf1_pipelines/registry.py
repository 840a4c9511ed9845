"""The names of all pipelines and how to load one by name.

The table maps a name to the module and class of its uniform face. Modules are
imported only when a pipeline is loaded, so that ``available()`` stays cheap.
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from tf1_pipelines.errors import ConfigError

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


def available() -> list[str]:
    """Names of the pipelines this installation provides, sorted."""
    return sorted(name for name, (module, _) in _PIPELINES.items()
                  if importlib.util.find_spec(module) is not None)


def load_pipeline(name: str, **options: Any) -> Any:
    """Create the pipeline called ``name`` with its options (see each pipeline's
    class docstring). Nothing runs until its first ``get_batch``."""
    if name not in available():
        raise ConfigError(f"unknown pipeline {name!r}; available: {', '.join(available())}")
    module_name, class_name = _PIPELINES[name]
    pipeline_class = getattr(importlib.import_module(module_name), class_name)
    return pipeline_class(**options)
