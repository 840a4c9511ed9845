"""``tf.estimator`` as a legacy surface (see :mod:`compat.surfaces`): ``tensorflow.estimator[.x]``
served from :mod:`compat.estimator`, the installed ``tensorflow_estimator`` package loaded once the
TensorFlow internals it imports are supplied (:mod:`compat.estimator._gaps`), and
``tensorflow.python.estimator[.x]``, where TF <= 1.13 kept the Estimator (2018 code imported
``tensorflow.python.estimator.model_fn`` by path), served the same module of that package."""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import types
from collections.abc import Sequence

from compat.estimator import _gaps
from compat.surfaces import Surface, finders_of
from compat.surfaces.modules import ModuleObjectLoader

__all__ = ["SURFACE", "EstimatorFinder", "estimator_module"]


def estimator_module(fullname: str) -> types.ModuleType | None:
    """The module served for ``fullname``, or None (also for ``tensorflow_estimator`` itself, which the
    normal finders load once :func:`compat.estimator._gaps.supply` has run)."""
    parts = fullname.split(".")
    if parts[0] == "tensorflow_estimator":
        _gaps.supply()
        return None
    if parts[:2] == ["tensorflow", "estimator"]:
        target = ".".join(["compat", "estimator", *parts[2:]])
    elif parts[:3] == ["tensorflow", "python", "estimator"]:
        _gaps.supply()
        target = ".".join(["tensorflow_estimator", *parts[1:]])
    else:
        return None
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError:
        return None


class EstimatorFinder(importlib.abc.MetaPathFinder):
    """Serves :func:`estimator_module`'s modules (always as packages: their submodules are found here too)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The spec of a served estimator module, else None."""
        module = estimator_module(fullname)
        if module is None:
            return None
        return importlib.util.spec_from_loader(fullname, ModuleObjectLoader(module), is_package=True)

    def undo(self) -> None:
        """Take back what tf.estimator's package was given, if a script used it."""
        _gaps.restore()



SURFACE = Surface(
    name="estimator",
    summary="tf.estimator on the tensorflow-estimator package, and TF <= 1.13's tensorflow.python.estimator",
    finders=finders_of(EstimatorFinder),
    order=40,
)
