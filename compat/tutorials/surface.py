"""TensorFlow 1's tutorial modules as a legacy surface (see :mod:`compat.surfaces`):
``tensorflow.examples.tutorials.mnist`` (``input_data``, ``mnist``) served from
:mod:`compat.tutorials.legacy_modules`, reading local files."""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Sequence

from compat import rules
from compat.surfaces import Surface, finders_of
from compat.surfaces.modules import ModuleObjectLoader
from compat.tutorials import legacy_modules

__all__ = ["SURFACE", "TutorialFinder"]


class TutorialFinder(importlib.abc.MetaPathFinder):
    """Serves the modules of :data:`compat.rules.TUTORIAL_MODULES`; :meth:`undo` takes them away."""

    def __init__(self) -> None:
        self._served = {name: legacy_modules.tutorial_module(name) for name in rules.TUTORIAL_MODULES}

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """The spec of a served tutorial module, else None."""
        served = self._served.get(fullname)
        if served is None:
            return None
        return importlib.util.spec_from_loader(fullname, ModuleObjectLoader(served),
                                               is_package=hasattr(served, "__path__"))

    def undo(self) -> None:
        """Take the served modules out of ``sys.modules`` and ``tensorflow.examples`` off TensorFlow."""
        for name, served in self._served.items():
            if sys.modules.get(name) is served:
                del sys.modules[name]
        tensorflow = sys.modules.get("tensorflow")
        # The import system set `tensorflow.examples` on the real module when it loaded ours.
        if tensorflow is not None and tensorflow.__dict__.get("examples") is self._served["tensorflow.examples"]:
            delattr(tensorflow, "examples")



SURFACE = Surface(
    name="tutorials",
    summary="TensorFlow 1's MNIST tutorial modules (tensorflow.examples.tutorials.mnist), on local files",
    finders=finders_of(TutorialFinder),
    order=30,
)
