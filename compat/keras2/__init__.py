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

Keras 2.0-2.3 still took Keras 1 arguments and names (``Dense(output_dim=)``,
``Convolution2D(32, 3, 3, border_mode='same')``, ``fit(nb_epoch=)``,
``K.set_image_dim_ordering('th')``): the modules served to ``keras`` (and
only to it: ``tf.keras`` is unchanged) are views of the tf_keras modules
holding the classes of :mod:`compat.keras2.legacy_interfaces`, which convert
them as Keras 2.x did.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Sequence
from typing import Any

from compat.keras2 import backend_names, legacy_interfaces

__all__ = ["OLD_PATHS", "Keras2Finder", "install"]

#: Old ``keras`` module paths -> (tf_keras module, names it takes from there, or None for all).
OLD_PATHS: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "keras.engine.topology": ("tf_keras.src.engine.base_layer", None),
    "keras.layers.merge": ("tf_keras.layers", ("Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum",
                                               "Concatenate", "Dot", "add", "subtract", "multiply", "average",
                                               "maximum", "minimum", "concatenate", "dot")),
    "keras.backend.tensorflow_backend": ("tf_keras.api._v1.keras.backend", None),
    "keras.legacy.layers": ("tf_keras.layers", None),
    # Keras 2.0-2.2 kept its layers in modules by kind, and code imported them from there
    # (`from keras.layers.normalization import BatchNormalization`); tf_keras has other modules.
    **{f"keras.layers.{kind}": ("tf_keras.api._v1.keras.layers", None) for kind in (
        "advanced_activations", "convolutional_recurrent", "cudnn_recurrent", "embeddings", "local",
        "normalization", "recurrent", "wrappers")},
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
    if fullname in _VIEWS:
        return _VIEWS[fullname]
    if fullname in OLD_PATHS:
        module = _old_path_module(fullname)
        return _legacy_view(fullname, module, fresh=True) if module is not None else None
    rest = fullname[len("keras"):]
    module = _import(_V1_API + rest) or (_import("tf_keras.src" + rest) if rest else None)
    return _legacy_view(fullname, module) if module is not None else None


#: The served modules that are not tf_keras's own (views with Keras 1 support), by ``keras`` name.
_VIEWS: dict[str, types.ModuleType] = {}
#: Model-building functions served so that the models they build take Keras 1 arguments.
_MODEL_LOADERS = ("load_model", "model_from_json", "model_from_yaml", "model_from_config")


def _extras(fullname: str, source: types.ModuleType) -> dict[str, Any]:
    """Names Keras 2.2 had in ``fullname`` that tf_keras's module lacks, and served model loaders."""
    extras: dict[str, Any] = {}
    if fullname in legacy_interfaces.ALIAS_MODULES:
        import tf_keras.src.layers as layers
        for alias, target in legacy_interfaces.LAYER_ALIASES.items():
            if not hasattr(source, alias) and hasattr(layers, target):
                extras[alias] = legacy_interfaces.legacy_class(getattr(layers, target))
        for rank in (1, 2):
            atrous = legacy_interfaces.atrous_convolution(
                rank, legacy_interfaces.legacy_class(getattr(layers, f"Conv{rank}D")))  # type: ignore[arg-type]
            extras.setdefault(f"AtrousConvolution{rank}D", atrous)
            extras.setdefault(f"AtrousConv{rank}D", atrous)
    if hasattr(source, "set_image_data_format") and hasattr(source, "int_shape"):  # the backend
        extras.update(backend_names.backend_extras(source))
    if hasattr(source, "set_image_data_format") and not hasattr(source, "set_image_dim_ordering"):
        extras["image_dim_ordering"] = legacy_interfaces.image_dim_ordering(source)
        extras["set_image_dim_ordering"] = legacy_interfaces.set_image_dim_ordering(source)
    for name in _MODEL_LOADERS:
        function = getattr(source, name, None)
        if callable(function) and getattr(function, "__module__", "").startswith("tf_keras."):
            from compat.keras2 import legacy_models
            extras[name] = legacy_models.load_model_function(function)
    return extras


def _legacy_view(fullname: str, source: types.ModuleType, fresh: bool = False) -> types.ModuleType:
    """``source``, or a copy of it named ``fullname`` serving the Keras 1 support of Keras 2.x.

    A copy for a module holding such classes or names, and for every package:
    importing ``keras.a.b`` sets ``b`` on the module served as ``keras.a``,
    which must then not be tf_keras's own (``tf.keras`` would see the copy).
    ``fresh``: ``source`` was built for ``fullname`` (an old path) and is changed in place.
    """
    names = vars(source)
    replaced = {name: served for name, value in names.items()
                if isinstance(value, type) and (served := legacy_interfaces.legacy_class(value)) is not value}
    extras = _extras(fullname, source)
    package = hasattr(source, "__path__")
    if not (replaced or extras or package or fresh):
        return source
    view = source if fresh else types.ModuleType(fullname, source.__doc__)
    if not fresh:
        view.__dict__.update({k: v for k, v in names.items() if not (k.startswith("__") and k.endswith("__"))})
        view.__dict__.update({k: names[k] for k in ("__path__", "__file__", "__all__") if k in names})
    view.__dict__.update(replaced)
    view.__dict__.update(extras)
    _VIEWS[fullname] = view  # before the submodules below, which may name this package again
    if package:
        for name, value in list(view.__dict__.items()):
            # `keras.layers` must be the served `keras.layers`, not tf_keras's.
            if isinstance(value, types.ModuleType) and value.__name__ == f"{source.__name__}.{name}":
                child = keras2_module(f"{fullname}.{name}")
                if child is not None:
                    view.__dict__[name] = child
    return view


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
