"""Modules that TensorFlow 1 scripts import and that no longer exist, as the compat runner provides them.

* ``tensorflow.examples.tutorials.mnist`` with ``input_data``
  (:mod:`compat.tutorials.mnist_input_data`) and ``mnist`` (:mod:`compat.tutorials.mnist_model`);
* ``tensorflow.contrib.learn``'s modules: ``...python.learn.datasets`` (also
  ``tf.contrib.learn.datasets``) with ``mnist`` (the MNIST reader), ``base`` and
  ``text_datasets`` (:mod:`compat.contrib._learn_datasets`); the other names
  (``Estimator``, ``Experiment``, the readers, ...) and the refusals come from
  :mod:`compat.contrib.learn`;
* ``tensorflow.contrib.deprecated`` and ``tensorflow.contrib.nn`` from
  :mod:`compat.tf1.renames`.

:func:`describe` says what the runner serves for a module name (for ``python -m
compat check``); :func:`tutorial_module` builds the ``tensorflow.examples``
modules the runner's import finder serves; :func:`contrib_modules` builds the
``tensorflow.contrib`` ones. Nothing here touches ``sys.modules``.
"""
from __future__ import annotations

import functools
import importlib
import importlib.machinery
import types
from collections.abc import Callable
from typing import Any

from compat.rules import LEARN_DATASETS, MNIST_MODEL, MNIST_READER, TUTORIAL_MODULES
from compat.rules import describe_legacy_module as describe
from compat.surfaces.modules import new_module
from compat.tf1 import renames

__all__ = ["LEARN_DATASETS", "TUTORIAL_MODULES", "contrib_modules", "describe", "tutorial_module"]

def _package(name: str, doc: str, attributes: dict[str, Any],
             refuse: Callable[[str], str] | None = None, error: type[Exception] = AttributeError
             ) -> types.ModuleType:
    module = new_module(name, doc, is_package=True)
    module.__dict__.update(attributes)
    if refuse is not None:
        def __getattr__(attr: str) -> Any:
            if attr.startswith("__"):
                raise AttributeError(attr)
            raise error(refuse(attr))
        module.__getattr__ = __getattr__  # type: ignore[method-assign]
    return module


@functools.cache
def _tutorial_modules() -> dict[str, types.ModuleType]:
    reader = importlib.import_module(MNIST_READER)
    model = importlib.import_module(MNIST_MODEL)
    mnist = _package("tensorflow.examples.tutorials.mnist", "MNIST tutorial modules (compat runner).",
                     {"input_data": reader, "mnist": model})
    tutorials = _package("tensorflow.examples.tutorials", "TensorFlow 1 tutorials (compat runner: mnist only).",
                         {"mnist": mnist})
    examples = _package("tensorflow.examples", "TensorFlow 1 examples (compat runner: tutorials.mnist only).",
                        {"tutorials": tutorials})
    return {examples.__name__: examples, tutorials.__name__: tutorials, mnist.__name__: mnist,
            "tensorflow.examples.tutorials.mnist.input_data": reader,
            "tensorflow.examples.tutorials.mnist.mnist": model}


def tutorial_module(fullname: str) -> types.ModuleType | None:
    """The module object served for ``fullname`` under ``tensorflow.examples``; None if not provided."""
    if fullname not in TUTORIAL_MODULES:
        return None
    return _tutorial_modules()[fullname]


def _learn_bridge_getattr(refuse: Callable[[str], Any]) -> Callable[[str], Any]:
    """A ``__getattr__`` serving the names of :mod:`compat.contrib.learn` (``Experiment``, ...), else ``refuse``."""
    def __getattr__(attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        bridge = importlib.import_module("compat.contrib.learn")
        if attr in bridge.PROVIDED or attr in bridge.REFUSED:
            return getattr(bridge, attr)  # a refused name raises there, naming its tf.estimator successor
        return refuse(attr)
    return __getattr__


def contrib_modules(error: type[Exception], contrib_message: Callable[[str], str]) -> dict[str, types.ModuleType]:
    """The ``tensorflow.contrib`` submodules provided here, by full name.

    ``tensorflow.contrib.learn`` holds only the datasets path; other names raise
    ``error`` with ``contrib_message("learn.<name>")``.
    """
    reader = importlib.import_module(MNIST_READER)
    loaders = importlib.import_module("compat.contrib._learn_datasets")
    base_names = ("Dataset", "Datasets", "load_csv_with_header", "load_csv_without_header", "load_iris",
                  "load_boston", "maybe_download", "shrink_csv", "split_into_train_and_test")
    base = _package(f"{LEARN_DATASETS}.base", "tf.contrib.learn datasets.base (compat runner: local files only).",
                    {name: getattr(loaders, name) for name in base_names},
                    lambda attr: contrib_message(f"learn.datasets.base.{attr}"), error)
    datasets = _package(LEARN_DATASETS, "tf.contrib.learn datasets (compat runner: local files only).",
                        {"mnist": reader, "base": base, "load_dataset": loaders.load_dataset,
                         "load_iris": loaders.load_iris, "load_boston": loaders.load_boston,
                         "text_datasets": loaders.text_datasets, "DATASETS": loaders.DATASETS},
                        lambda attr: contrib_message(f"learn.datasets.{attr}"), error)
    inner = _package("tensorflow.contrib.learn.python.learn", "tf.contrib.learn internals (compat runner).",
                     {"datasets": datasets}, lambda attr: contrib_message(f"learn.python.learn.{attr}"), error)
    inner.__dict__["__getattr__"] = _learn_bridge_getattr(inner.__dict__["__getattr__"])
    python = _package("tensorflow.contrib.learn.python", "tf.contrib.learn internals (compat runner).",
                      {"learn": inner}, lambda attr: contrib_message(f"learn.python.{attr}"), error)
    learn = _package("tensorflow.contrib.learn", "tf.contrib.learn (compat runner: datasets.mnist here; "
                     "Experiment, learn_runner, RunConfig from compat.contrib.learn).",
                     {"datasets": datasets, "python": python}, lambda attr: contrib_message(f"learn.{attr}"),
                     error)
    learn.__dict__["__getattr__"] = _learn_bridge_getattr(learn.__dict__["__getattr__"])
    modules = {m.__name__: m for m in (learn, python, inner, datasets, base)}
    modules[f"{LEARN_DATASETS}.mnist"] = reader
    # The short path of tf.contrib.learn.datasets, importable as well (as in TensorFlow 1).
    modules["tensorflow.contrib.learn.datasets"] = datasets
    modules["tensorflow.contrib.learn.datasets.mnist"] = reader
    modules["tensorflow.contrib.learn.datasets.base"] = base
    for prefix in (LEARN_DATASETS, "tensorflow.contrib.learn.datasets"):
        modules[f"{prefix}.text_datasets"] = loaders.text_datasets
    # VocabularyProcessor and friends (plain Python and NumPy), under the short and the long path.
    text = importlib.import_module("compat.contrib._learn_text")
    for prefix in ("tensorflow.contrib.learn", "tensorflow.contrib.learn.python.learn"):
        modules[f"{prefix}.preprocessing"] = text
        modules[f"{prefix}.preprocessing.text"] = text
    modules.update(renames.contrib_modules(error))
    return modules
