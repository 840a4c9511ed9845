"""``tf.contrib.slim``, ``layers``, ``framework`` and ``training`` served from the ``tf_slim`` package.

``tf_slim`` is the official extraction of ``tf.contrib.slim`` together with the
parts of ``tf.contrib.layers``, ``tf.contrib.framework``, ``tf.contrib.losses``,
``tf.contrib.metrics`` and ``tf.contrib.training`` that slim was built on. This
module gives old scripts those ``tf.contrib`` names back:

* :func:`contrib_facade` builds the module objects ``tensorflow.contrib.slim``
  (every name of ``tf_slim``, and its submodules: ``slim.nets``,
  ``slim.tfexample_decoder``, ...), ``tensorflow.contrib.layers`` (the layers,
  initializers, regularizers, ``optimize_loss`` and summaries of
  ``tf_slim.layers``), ``tensorflow.contrib.framework`` (``arg_scope`` and the
  variable helpers of ``tf_slim.ops``) and ``tensorflow.contrib.training``
  (:class:`compat.contrib.hparams.HParams` and the training and evaluation loops of
  ``tf_slim.training``). ``tf_slim`` is imported when a name is first used.
  A TF1 name that ``tf_slim`` lacks is served from :mod:`compat.contrib._slim_extras`
  when it has a provider there (nest, checkpoint readers, the old feature
  columns, ...), else raises :class:`compat.errors.LegacyAPIError` naming its
  replacement (:data:`compat.rules.SLIM_MOVED`).
* :class:`ContribFinder` serves imports of those modules and of the deep paths
  old code used (``tensorflow.contrib.slim.python.slim.data.tfexample_decoder``
  is ``tf_slim.data.tfexample_decoder``; :data:`compat.rules.DEEP_MODULES`).
* ``tf_slim`` 1.1.0 was written for TensorFlow 2.0-2.15 and calls names that
  TensorFlow 2.21 moved to other internal modules (:data:`TF_SLIM_GAPS`) and a
  ``tf_keras`` module path that ``tf_keras`` 2.21 keeps under ``tf_keras.src``.
  The finder supplies them, as aliases, the first time ``tf_slim`` is used.

Importing this module changes nothing and imports neither TensorFlow nor
``tf_slim``: only :func:`install`, called by :mod:`compat.runner.run` in its own
process, puts the finder on ``sys.meta_path``, and its
:meth:`SlimBridge.uninstall` removes the finder, the ``sys.modules`` entries it
served and the supplied names again.
"""
from __future__ import annotations
import __future__

import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from compat import errors, rules
from compat.contrib import _slim_extras, hparams

# Served by name here; the tables are compat.rules'.
from compat.rules import DEEP_MODULES, EMPTY_PACKAGES, FACADES, FacadeSpec
from compat.surfaces.modules import ModuleObjectLoader, new_module

__all__ = [
    "DEEP_MODULES",
    "FACADES",
    "TF_SLIM_GAPS",
    "ContribFinder",
    "FacadeSpec",
    "SlimBridge",
    "classify_attribute",
    "classify_module",
    "contrib_facade",
    "install",
]


@dataclass(frozen=True)
class Gap:
    """A name ``tf_slim`` looks up on a TensorFlow module that no longer has it.

    Attributes:
        module, name: where ``tf_slim`` looks (``control_flow_ops.cond``).
        source, source_name: where TensorFlow 2.21 keeps the same object.
    """

    module: str
    name: str
    source: str
    source_name: str


#: What ``tf_slim`` 1.1.0 calls that TensorFlow 2.21 moved (found by importing every
#: ``tf_slim`` module and checking each ``module.name`` it uses on a TensorFlow module).
TF_SLIM_GAPS: tuple[Gap, ...] = (
    Gap("tensorflow.python.ops.control_flow_ops", "cond", "tensorflow.python.ops.cond", "cond"),
    Gap("tensorflow.python.ops.control_flow_ops", "case", "tensorflow.python.ops.control_flow_case", "case"),
    Gap("tensorflow.python.ops.control_flow_ops", "while_loop", "tensorflow.python.ops.while_loop",
        "while_loop"),
    Gap("tensorflow.python.ops.control_flow_ops", "Assert", "tensorflow.python.ops.control_flow_assert",
        "Assert"),
    Gap("tensorflow.python.ops.array_ops", "stack", "tensorflow.python.ops.array_ops_stack", "stack"),
    Gap("tensorflow.python.ops.array_ops", "unstack", "tensorflow.python.ops.array_ops_stack", "unstack"),
    Gap("tensorflow.python.framework.ops", "Tensor", "tensorflow.python.framework.tensor", "Tensor"),
    Gap("tensorflow.python.framework.ops", "IndexedSlices", "tensorflow.python.framework.indexed_slices",
        "IndexedSlices"),
    # TF1's variable_scope.variable made a VariableV1 through the variable creator stack,
    # which is what calling VariableV1 does today.
    Gap("tensorflow.python.ops.variable_scope", "variable", "tensorflow.python.ops.variable_v1",
        "VariableV1"),
)

#: Modules of this package that serve old paths (by object: the script may own a ``compat``).
_OWN_MODULES: dict[str, types.ModuleType] = {"compat.contrib.hparams": hparams}

# --------------------------------------------------------------------------
# What a facade serves
# --------------------------------------------------------------------------

def _import(name: str) -> types.ModuleType:
    """The module ``name``; this package's own modules by object. Raises ImportError."""
    own = _OWN_MODULES.get(name)
    if own is not None:
        return own
    module = importlib.import_module(name)
    if name == "tf_slim" or name.startswith("tf_slim."):
        _supply_gaps_for_active_bridges()
    return module


def _is_own(value: Any) -> bool:
    """True for what a ``tf_slim`` module defines (functions, classes, constants), not what it imports."""
    if isinstance(value, (types.ModuleType, __future__._Feature)):
        return False
    owner = getattr(value, "__module__", None)
    return owner is None or not isinstance(owner, str) or owner.startswith("tf_slim")


@functools.cache
def _served_names(source: str, everything: bool) -> dict[str, Any]:
    """The public names of ``source`` a facade serves (its ``__all__`` when it has one)."""
    module = _import(source)
    if everything:
        return {n: v for n, v in vars(module).items() if not n.startswith("_")}
    names = getattr(module, "__all__", None)
    if names is not None:
        return {n: getattr(module, n) for n in names}
    return {n: v for n, v in vars(module).items() if not n.startswith("_") and _is_own(v)}


def _needs_tf_slim(spec: FacadeSpec, exc: ImportError) -> errors.LegacyAPIError:
    return errors.LegacyAPIError(
        f"tf.contrib.{spec.name} is served by the compat runner from the tf_slim package, which "
        f"cannot be imported here ({exc}); install it with pip install tf-slim")


def _missing_message(spec: FacadeSpec, name: str) -> str:
    replacement = rules.SLIM_MOVED.get(spec.name, {}).get(name)
    if replacement is not None:
        return (f"tf.contrib.{spec.name}.{name} is not provided by the compat runner "
                f"({spec.label}, which serves tf.contrib.{spec.name}, has no counterpart); "
                f"use {replacement}")
    return (f"tf.contrib.{spec.name}.{name} is not provided by the compat runner "
            f"({spec.label}, which serves tf.contrib.{spec.name}, has no {name}); use "
            f"{rules.CONTRIB_REPLACEMENTS.get(spec.name, 'the TensorFlow 2 API')}")


def _facade_value(spec: FacadeSpec, name: str) -> Any:
    """``tf.contrib.<spec.name>.<name>``; raises LegacyAPIError naming the replacement."""
    _supply_gaps_for_active_bridges()  # tf_slim may have been imported before the runner installed
    for extra, module in spec.extras:
        if extra == name:
            return getattr(_import(module), name)
    try:
        for source in spec.sources:
            served = _served_names(source, spec.everything)
            if name in served:
                return served[name]
        if spec.submodules is not None and _has_submodule(spec.submodules, name):
            return _import(f"{spec.submodules}.{name}")
    except ImportError as exc:
        raise _needs_tf_slim(spec, exc) from None
    if f"tensorflow.contrib.{spec.name}.{name}" in EMPTY_PACKAGES:
        return _empty_package(f"tensorflow.contrib.{spec.name}.{name}")
    try:  # a TF1 name tf_slim lacks but TensorFlow or this package provides
        return _slim_extras.lookup(spec.name, name)
    except KeyError:
        pass
    raise errors.LegacyAPIError(_missing_message(spec, name))


def _has_submodule(package: str, name: str) -> bool:
    try:
        return importlib.util.find_spec(f"{package}.{name}") is not None
    except (ImportError, ValueError):
        return False


def _facade_names(spec: FacadeSpec) -> list[str]:
    """The names ``dir()`` and ``import *`` see; empty if ``tf_slim`` cannot be imported."""
    names = {extra for extra, _ in spec.extras} | set(_slim_extras.names(spec.name))
    try:
        for source in spec.sources:
            names.update(_served_names(source, spec.everything))
    except ImportError:
        pass
    return sorted(names)


@functools.cache
def contrib_facade(name: str) -> types.ModuleType:
    """The ``tensorflow.contrib.<name>`` module object for a name of :data:`FACADES`.

    Built once per process; ``tf_slim`` is imported when an attribute is first
    used. Placing it in ``sys.modules`` is left to :class:`ContribFinder`.

    Raises:
        KeyError: ``name`` is not served here.
    """
    spec = FACADES[name]
    module = new_module(f"tensorflow.contrib.{name}",
                          f"tf.contrib.{name} for legacy scripts, served by the compat runner from "
                          f"{spec.label} (see compat.contrib.slim).", is_package=True)

    def __getattr__(attr: str) -> Any:
        if attr == "__all__":
            return _facade_names(spec)
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _facade_value(spec, attr)

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    module.__dir__ = lambda: _facade_names(spec)  # type: ignore[method-assign]
    return module


@functools.cache
def _empty_package(name: str) -> types.ModuleType:
    """An intermediate level of an old deep path (``tensorflow.contrib.slim.python``)."""
    module = new_module(name, f"{name}: a level of the TensorFlow 1 module tree, served by the "
                                "compat runner (see compat.contrib.slim.DEEP_MODULES).", is_package=True)

    def __getattr__(attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        try:
            return importlib.import_module(f"{name}.{attr}")
        except ImportError:
            raise AttributeError(f"module {name!r} has no attribute {attr!r}") from None

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    return module


def served_module_name(fullname: str) -> str | None:
    """The module that serves the old module path ``fullname`` (:data:`compat.rules.DEEP_MODULES`), or None."""
    best = None
    for prefix in DEEP_MODULES:
        if (fullname == prefix or fullname.startswith(prefix + ".")) and (
                best is None or len(prefix) > len(best)):
            best = prefix
    if best is None:
        return None
    return DEEP_MODULES[best] + fullname[len(best):]


#: ``SERVED.child`` -> ``OLD.child`` for the old paths of :data:`DEEP_MODULES` whose module is not the
#: same-named submodule of what serves their parent. ``from OLD import child`` asks the import system
#: for ``SERVED.child`` (the parent module's own ``__name__``), so that name must lead to the old path's
#: module too (``tensorflow.contrib.framework.python.ops`` is ``tf_slim.ops``, which has no ``audio_ops``).
_CHILD_ALIASES: dict[str, str] = {
    f"{DEEP_MODULES[parent]}.{child}": old
    for old in DEEP_MODULES
    for parent, _, child in [old.rpartition(".")]
    if parent in DEEP_MODULES and DEEP_MODULES[old] != f"{DEEP_MODULES[parent]}.{child}"
}


def _facade_name(fullname: str) -> str | None:
    head, _, name = fullname.rpartition(".")
    return name if head == "tensorflow.contrib" and name in FACADES else None


# --------------------------------------------------------------------------
# The finder and what it changes
# --------------------------------------------------------------------------

@dataclass
class SlimBridge:
    """What :func:`install` changed, so that :meth:`uninstall` can put it back.

    Attributes:
        finder: the :class:`ContribFinder` on ``sys.meta_path``.
        supplied: the :data:`TF_SLIM_GAPS` names set on TensorFlow modules, with their values.
        served: ``sys.modules`` names the finder served, with the module served.
        parent_attributes: (parent module, attribute, module) triples the import system
            set on the served modules' parents (``tf_keras.legacy_tf_layers``).
    """

    finder: ContribFinder
    supplied: list[tuple[types.ModuleType, str, Any]] = field(default_factory=list)
    served: dict[str, types.ModuleType] = field(default_factory=dict)
    parent_attributes: list[tuple[types.ModuleType, str, types.ModuleType]] = field(default_factory=list)
    gaps_supplied: bool = False

    def supply_gaps(self) -> None:
        """Set the :data:`TF_SLIM_GAPS` names TensorFlow lacks (once; TensorFlow is imported)."""
        if self.gaps_supplied:
            return
        self.gaps_supplied = True
        for gap in TF_SLIM_GAPS:
            module = importlib.import_module(gap.module)
            if not hasattr(module, gap.name):
                value = getattr(importlib.import_module(gap.source), gap.source_name)
                setattr(module, gap.name, value)
                self.supplied.append((module, gap.name, value))

    def uninstall(self) -> None:
        """Remove the finder, the modules it served and the names it supplied."""
        if self.finder in sys.meta_path:
            sys.meta_path.remove(self.finder)
        for name, module in self.served.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
        for parent, attr, module in self.parent_attributes:
            if parent.__dict__.get(attr) is module:
                del parent.__dict__[attr]
        for module, name, value in self.supplied:
            if module.__dict__.get(name) is value:
                del module.__dict__[name]
        self.served.clear()
        self.parent_attributes.clear()
        self.supplied.clear()
        self.gaps_supplied = False
        if self in _ACTIVE:
            _ACTIVE.remove(self)

    def __enter__(self) -> SlimBridge:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.uninstall()


#: The installed bridges (the runner installs one); tf_slim gaps are supplied for them.
_ACTIVE: list[SlimBridge] = []


def _supply_gaps_for_active_bridges() -> None:
    for bridge in _ACTIVE:
        bridge.supply_gaps()


class ContribFinder(importlib.abc.MetaPathFinder):
    """Serves the ``tf.contrib`` modules of :data:`FACADES`, the old deep paths and ``tf_slim``'s gaps."""

    def __init__(self) -> None:
        self.bridge: SlimBridge | None = None

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """A spec for a served module; None for everything else.

        Raises:
            compat.errors.LegacyImportError: an old deep path whose module ``tf_slim`` lacks.
        """
        alias = _CHILD_ALIASES.get(fullname)
        if fullname == "tf_slim" or fullname.startswith("tf_slim."):
            _supply_gaps_for_active_bridges()  # before tf_slim's code can call the moved names
            if alias is None:
                return None
        module = self._module_for(alias or fullname)
        if module is None:
            return None
        self._remember(fullname, module)
        return importlib.util.spec_from_loader(fullname, ModuleObjectLoader(module),
                                               is_package=hasattr(module, "__path__"))

    def _module_for(self, fullname: str) -> types.ModuleType | None:
        facade = _facade_name(fullname)
        if facade is not None:
            return contrib_facade(facade)
        if fullname in EMPTY_PACKAGES:
            return _empty_package(fullname)
        served = served_module_name(fullname)
        if served is None:
            return None
        try:
            return _import(served)
        except ImportError as exc:
            head, _, child = fullname.rpartition(".")
            if _facade_name(head) is not None:  # `from tensorflow.contrib.slim import no_such_name`
                spec = FACADES[head.rpartition(".")[2]]
                raise errors.LegacyImportError(_missing_message(spec, child)) from None
            raise errors.LegacyImportError(
                f"{fullname} is not provided by the compat runner: it is served from {served}, "
                f"which cannot be imported ({exc})") from None

    def _remember(self, fullname: str, module: types.ModuleType) -> None:
        """Record what to undo: the ``sys.modules`` entry and the attribute the import sets on the parent."""
        if self.bridge is None:
            return
        self.bridge.served[fullname] = module
        parent_name, _, child = fullname.rpartition(".")
        parent = sys.modules.get(parent_name)
        if parent is not None and child not in vars(parent):
            self.bridge.parent_attributes.append((parent, child, module))


def install(insert: bool = True) -> SlimBridge:
    """Make a :class:`ContribFinder` and put it first on ``sys.meta_path`` (this process only;
    ``insert=False`` leaves placing it to the caller: the runner orders the surfaces' finders).

    Returns the :class:`SlimBridge`, whose ``uninstall`` undoes it. TensorFlow
    and ``tf_slim`` are not imported here; the gaps are supplied when
    ``tf_slim`` is first imported or used through ``tf.contrib``.
    """
    finder = ContribFinder()
    bridge = SlimBridge(finder=finder)
    finder.bridge = bridge
    if insert:
        sys.meta_path.insert(0, finder)
    _ACTIVE.append(bridge)
    return bridge


# --------------------------------------------------------------------------
# Static classification, for `python -m compat check`
# --------------------------------------------------------------------------

def _origin(value: Any, name: str) -> str:
    if isinstance(value, types.ModuleType):
        return value.__name__
    owner = getattr(value, "__module__", None)
    return f"{owner}.{name}" if isinstance(owner, str) else name


def classify_attribute(path: Sequence[str]) -> tuple[str, str] | None:
    """(status, action) for ``tf.contrib.<path>`` when ``path[0]`` is served here, else None.

    Imports ``tf_slim`` to see what it has (as the runner would).
    """
    if not path or path[0] not in FACADES:
        return None
    spec = FACADES[path[0]]
    if len(path) == 1:
        return "bridged", f"tf.contrib.{spec.name} is served by the runner from {spec.label}"
    try:
        value = getattr(contrib_facade(spec.name), path[1])
    except errors.LegacyAPIError as exc:
        return "unsupported", str(exc)
    return "bridged", f"served by the runner from {_origin(value, path[1])}"


def classify_module(fullname: str) -> tuple[str, str] | None:
    """(status, action) for an import of ``fullname`` when it is served here, else None."""
    facade = _facade_name(fullname)
    if facade is not None:
        return classify_attribute([facade])
    if fullname in EMPTY_PACKAGES:
        return "bridged", f"{fullname} is provided by the runner (a package level of the TF1 tree)"
    served = served_module_name(fullname)
    if served is None or not fullname.startswith("tensorflow.contrib."):
        return None
    if served in _OWN_MODULES:
        return "bridged", f"served by the runner from {served}"
    try:
        found = importlib.util.find_spec(served) is not None
    except (ImportError, ValueError) as exc:
        return "unsupported", f"{fullname} is served from {served}, which cannot be imported ({exc})"
    if not found:
        return "unsupported", f"{fullname} is not provided by the compat runner: {served} does not exist"
    return "bridged", f"served by the runner from {served}"
