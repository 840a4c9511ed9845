"""``tensorflow.compat.v1.estimator``, which TensorFlow 2.16 dropped, served as ``tf.estimator`` is.

tensorflow-hub 0.15.0 (the last release with ``hub.Module`` for TF1 hub modules)
runs ``from tensorflow.compat.v1 import estimator as tf_estimator`` at import;
TensorFlow 2.16 and later have no ``estimator`` in ``tf.compat.v1``. Python's
``from package import name`` imports ``package.name`` when the attribute is
missing, so :class:`CompatV1EstimatorFinder` serves that module, and the modules
below it, from :func:`compat.estimator.surface.estimator_module` (the
``tensorflow-estimator`` package's TF1 API). Imports the standard library only.
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import types
from collections.abc import Sequence

__all__ = ["PREFIX", "CompatV1EstimatorFinder"]

PREFIX = "tensorflow.compat.v1.estimator"


class CompatV1EstimatorFinder(importlib.abc.MetaPathFinder):
    """Serves ``tensorflow.compat.v1.estimator[.x]`` as ``tensorflow.estimator[.x]`` is served."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The served module's spec, or None for any other name (or one the estimator lacks)."""
        if fullname != PREFIX and not fullname.startswith(PREFIX + "."):
            return None
        from compat.estimator.surface import estimator_module
        from compat.surfaces.modules import ModuleObjectLoader
        module = estimator_module("tensorflow.estimator" + fullname[len(PREFIX):])
        if module is None:
            return None
        return importlib.util.spec_from_loader(fullname, ModuleObjectLoader(module),
                                               is_package=hasattr(module, "__path__"))
