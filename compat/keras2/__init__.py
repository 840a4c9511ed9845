"""Standalone Keras 2 (``import keras``) for TF1-era scripts: served from ``tf-keras``.

Projects of 2017-2019 often used the standalone ``keras`` package (2.0-2.3)
with its TensorFlow backend: ``from keras.models import Sequential``,
``from keras import backend as K``, ``SGD(lr=0.01)``. Today ``import keras``
is Keras 3, which rejects ``lr``, old module paths and TF1 graph mode. Under
the runner (with the legacy Keras selected, as for ``tf.keras``),
:class:`Keras2Finder` serves every ``keras[.x]`` import from the ``tf_keras``
package, the maintained Keras 2: ``keras.x`` is ``x`` of tf_keras's TF1 API
(``tf.compat.v1.keras``: optimizers that take ``lr`` and work in graph mode), or
``tf_keras.src.x`` for the paths Keras 2 kept inside (``keras.layers.core``,
``keras.utils.np_utils``), or one of :data:`OLD_PATHS` (modules Keras 2.0-2.2
had and later releases folded elsewhere). Imports of any other library are
untouched. Importing this module imports nothing heavy and changes nothing.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Sequence

__all__ = ["OLD_PATHS", "Keras2Finder", "install"]

#: Old ``keras`` module paths -> (tf_keras module, names it takes from there, or None for all).
OLD_PATHS: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "keras.engine.topology": ("tf_keras.src.engine.base_layer", None),
    "keras.layers.merge": ("tf_keras.layers", ("Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum",
                                               "Concatenate", "Dot", "add", "subtract", "multiply", "average",
                                               "maximum", "minimum", "concatenate", "dot")),
    "keras.backend.tensorflow_backend": ("tf_keras.api._v1.keras.backend", None),
    "keras.legacy.layers": ("tf_keras.layers", None),
}

#: tf_keras's TF1 API (what ``tf.compat.v1.keras`` is with the legacy Keras): the optimizers
#: are the ones that take ``lr`` and ``decay`` and work in graph mode, as Keras 2.0-2.3's did.
_V1_API = "tf_keras.api._v1.keras"

#: Names the old ``keras.engine.topology`` held besides its base layer module's.
_TOPOLOGY_EXTRAS = ("Input", "InputLayer", "InputSpec", "Model", "get_source_inputs")


def _import(name: str) -> types.ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _old_path_module(fullname: str) -> types.ModuleType | None:
    target, names = OLD_PATHS[fullname]
    source = _import(target)
    if source is None:
        return None
    module = types.ModuleType(fullname, f"Keras 2.0-2.2's {fullname}, from {target} (compat.keras2).")
    chosen = names if names is not None else [n for n in vars(source) if not n.startswith("__")]
    module.__dict__.update({name: getattr(source, name) for name in chosen if hasattr(source, name)})
    if fullname == "keras.engine.topology":
        import tf_keras
        module.__dict__.update({n: getattr(tf_keras.layers if hasattr(tf_keras.layers, n) else tf_keras, n)
                                for n in _TOPOLOGY_EXTRAS if hasattr(tf_keras.layers, n) or hasattr(tf_keras, n)})
        module.__dict__.setdefault("get_source_inputs", tf_keras.utils.get_source_inputs)
        module.__dict__["Container"] = tf_keras.Model
    return module


def keras2_module(fullname: str) -> types.ModuleType | None:
    """The module served for ``fullname`` (``keras`` or ``keras.x...``), or None if Keras 2 has none."""
    if fullname in OLD_PATHS:
        return _old_path_module(fullname)
    rest = fullname[len("keras"):]
    return _import(_V1_API + rest) or (_import("tf_keras.src" + rest) if rest else None)


class _Served(importlib.abc.Loader):
    def __init__(self, module: types.ModuleType) -> None:
        self._module = module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return self._module

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module was imported under its own name."""


class Keras2Finder(importlib.abc.MetaPathFinder):
    """Serves ``keras`` and ``keras.*`` from ``tf_keras`` (see the module docstring)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname.startswith(_V1_API + "."):
            # `from keras.layers import core` asks for the submodule by the package's real name.
            if importlib.machinery.PathFinder.find_spec(fullname, path) is not None:
                return None
            old = "keras" + fullname[len(_V1_API):]
            module = _old_path_module(old) if old in OLD_PATHS else _import("tf_keras.src" + old[len("keras"):])
        elif fullname == "keras" or fullname.startswith("keras."):
            module = keras2_module(fullname)
        else:
            return None
        if module is None:
            return None  # the normal import system says "No module named ..."
        return importlib.util.spec_from_loader(fullname, _Served(module), is_package=hasattr(module, "__path__"))


def install() -> tuple[Keras2Finder, dict[str, types.ModuleType]] | None:
    """Put :class:`Keras2Finder` first on ``sys.meta_path`` if ``tf_keras`` is installed and selected.

    Already imported ``keras`` modules (Keras 3) are taken out of ``sys.modules``
    and returned, so the caller can put them back. None if nothing was installed.
    """
    import os
    if os.environ.get("TF_USE_LEGACY_KERAS") != "1" or importlib.util.find_spec("tf_keras") is None:
        return None
    saved = {name: module for name, module in sys.modules.items() if name == "keras" or name.startswith("keras.")}
    for name in saved:
        del sys.modules[name]
    finder = Keras2Finder()
    sys.meta_path.insert(0, finder)
    return finder, saved
