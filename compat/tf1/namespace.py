"""The TensorFlow 1 namespace handed to legacy scripts by the compat runner.

A script run with ``python -m compat run script.py`` that says
``import tensorflow as tf`` gets the module object built by
:func:`tf1_namespace`: every attribute of ``tf.compat.v1``, plus

* ``tf.contrib`` with the ``tf.contrib.data`` transformations old input
  pipelines used (:data:`compat.rules.CONTRIB_DATA_PROVIDED`), each returning a function for
  ``dataset.apply(...)``; other ``tf.contrib.data`` names are forwarded to
  ``tf.data.experimental`` when it has them; ``tf.contrib.slim``, ``layers``,
  ``framework`` and ``training`` are served from the ``tf_slim`` package
  (:mod:`compat.contrib.slim`);
* the pre-1.0 names of TensorFlow 1.0's rename table (:mod:`compat.tf1.renames`,
  summarised in :data:`RENAMED_OPS`), e.g. ``tf.pack`` is ``tf.stack``,
  ``tf.train.SummaryWriter`` is ``tf.summary.FileWriter``, and ``tf.concat``
  also accepts the pre-1.0 argument order ``tf.concat(axis, values)``.

Anything else under ``tf.contrib`` raises :class:`LegacyAPIError` (an
``AttributeError``) or :class:`LegacyImportError` (a ``ModuleNotFoundError``)
whose message names the modern replacement (:data:`compat.rules.CONTRIB_REPLACEMENTS`).

Importing this module imports nothing heavy and changes nothing: TensorFlow is
imported only when :func:`tf1_namespace`, :func:`contrib_modules` or
:func:`classify_tf_attribute` is called, and the modules they build are only
placed in ``sys.modules`` by :mod:`compat.runner.run`.
"""
from __future__ import annotations

import functools
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import compat.contrib as contrib_bridges
from compat import rules
from compat.contrib import data as contrib_data
from compat.contrib import slim as slim_bridge
from compat.contrib.data import (
    batch_and_drop_remainder,
    map_and_batch,
    padded_batch_and_drop_remainder,
    parallel_interleave,
    shuffle_and_repeat,
    unbatch,
)
from compat.errors import LegacyAPIError, LegacyImportError
from compat.rules import contrib_message, removed_module_message
from compat.surfaces.modules import new_module
from compat.tf1 import flags as tf1_flags
from compat.tf1 import missing, renames

# At import (not on use): the script's folder may have its own `compat`, which the runner
# lets it import, after which `from compat import ...` would find that one.
from compat.tutorials import legacy_modules

__all__ = [
    "RENAMED_OPS",
    "LegacyAPIError",
    "LegacyImportError",
    "accept_numpy_bools",
    "graph_tensor_class",
    "removed_module_message",
    "skip_autograph_for",
    "TFAttributeVerdict",
    "batch_and_drop_remainder",
    "classify_tf_attribute",
    "contrib_message",
    "contrib_modules",
    "map_and_batch",
    "padded_batch_and_drop_remainder",
    "parallel_interleave",
    "shuffle_and_repeat",
    "tf1_namespace",
    "unbatch",
]

#: The version the TF1 namespace reports (``tf.__version__``, ``tf.VERSION``, ``tf.version.VERSION``):
#: TensorFlow 1.15's last release. Old code branches on it (``tf.__version__.startswith('1.')``,
#: ``int(tf.__version__[0]) >= 2``, ``LooseVersion(tf.__version__) < '1.4'``) and must take its TF 1.x
#: branch, since the namespace is TF 1.x's API; ``tf.compat.v2`` and the real module keep their own.
TF1_VERSION = "1.15.5"

#: Pre-1.0 names (below ``tf``) and what each is now; the full rows are :data:`compat.tf1.renames.RENAMES`.
RENAMED_OPS: dict[str, str] = {row.old: row.new for row in renames.RENAMES if row.refusal is None}

# --------------------------------------------------------------------------
# Module objects: tensorflow.contrib, tensorflow.contrib.data, the namespace
# --------------------------------------------------------------------------

def _contrib_data_getattr(name: str) -> Any:
    """``tf.contrib.data.<name>`` for names not defined on the module itself."""
    if name.startswith("__"):
        raise AttributeError(name)
    import tensorflow as tf
    if name in rules.CONTRIB_DATA_FROM_V1:
        return getattr(tf.compat.v1.data, name)
    experimental = tf.compat.v1.data.experimental
    if hasattr(experimental, name):
        return getattr(experimental, name)
    raise LegacyAPIError(rules.contrib_data_message(name))


def _contrib_getattr(name: str) -> Any:
    """``tf.contrib.<name>``: from tf_slim (``slim``, ``layers``, ...) or an error naming what to use."""
    if name.startswith("__"):
        raise AttributeError(name)
    if name in slim_bridge.FACADES:
        return slim_bridge.contrib_facade(name)
    if name in contrib_bridges.bridged_modules():
        return contrib_bridges.bridge(name)
    raise LegacyAPIError(contrib_message(name))


@functools.cache
def contrib_modules() -> dict[str, types.ModuleType]:
    """The ``tensorflow.contrib`` and ``tensorflow.contrib.data`` module objects, by name.

    Built once per process; TensorFlow is imported only when an attribute that
    needs it is used. The caller decides whether to put them in ``sys.modules``.
    """
    contrib = new_module("tensorflow.contrib", "tf.contrib, as far as the compat runner "
                          "provides it: tf.contrib.data here; slim, layers, framework and "
                          "training from compat.contrib.slim; deprecated, nn and learn from "
                          "compat.tutorials.legacy_modules.", is_package=True)
    data = new_module("tensorflow.contrib.data", "tf.contrib.data transformations on today's tf.data.",
                       is_package=True)
    for name, function in contrib_data.FUNCTIONS.items():
        setattr(data, name, function)
    # Through __dict__: a module's __getattr__ is a plain entry of it.
    data.__dict__["__getattr__"] = _contrib_data_getattr
    contrib.__dict__.update(data=data, __getattr__=_contrib_getattr)
    modules = {contrib.__name__: contrib, data.__name__: data}
    # contrib.deprecated, contrib.nn, contrib.learn (MNIST reader): see compat.tutorials.legacy_modules.
    for name, module in legacy_modules.contrib_modules(LegacyAPIError, contrib_message).items():
        modules[name] = module
        if name.count(".") == 2:
            setattr(contrib, name.rpartition(".")[2], module)
    return modules


def graph_tensor_class(v1: types.ModuleType) -> type:
    """``tf.Tensor`` as TF 1.x had it: the class of the tensors a graph holds.

    In TF 1.x every graph tensor was exactly ``tf.Tensor``, and code relied on it
    (OpenAI baselines' ``tf_util.function`` accepts an input only if
    ``type(inpt) is tf.Tensor``). Today graph tensors are ``SymbolicTensor``, a
    subclass, so that test fails. While building a graph (the runner's default)
    the namespace's ``tf.Tensor`` is that subclass: ``type(t) is tf.Tensor``
    holds again and ``isinstance(t, tf.Tensor)`` is unchanged for graph tensors.
    Under eager execution (``tf.enable_eager_execution()``) it is today's base
    class, of which eager tensors are instances too.
    """
    from tensorflow.python.framework import ops
    graph_class = getattr(ops, "SymbolicTensor", None)
    if graph_class is None or v1.executing_eagerly():
        return v1.Tensor
    return graph_class


def _namespace_getattr(v1: types.ModuleType) -> Callable[[str], Any]:
    """The module ``__getattr__`` that forwards to ``tf.compat.v1``."""
    def __getattr__(name: str) -> Any:
        if name == "Tensor":
            return graph_tensor_class(v1)
        if name == "estimator":
            # TensorFlow 2.16 dropped tf.estimator; the runner's own lives in compat.estimator.
            import compat.estimator
            return compat.estimator
        if missing.serves(name):  # TF 1.15 names today's tf.compat.v1 lacks (compat.tf1.missing)
            return missing.serve(v1, name)
        try:
            return getattr(v1, name)
        except AttributeError:
            raise LegacyAPIError(
                f"module 'tensorflow' (the TF1 namespace: tf.compat.v1 of TensorFlow "
                f"{getattr(v1, '__version__', '?')}) has no attribute {name!r}") from None
    return __getattr__


@functools.cache
def tf1_namespace() -> types.ModuleType:
    """The module object a legacy script gets for ``import tensorflow``.

    Attributes: those of ``tf.compat.v1`` (looked up on use), ``contrib``, and
    the pre-1.0 names of :mod:`compat.tf1.renames` (``tf.nn``, ``tf.train`` and
    ``tf.image`` are overlays of the ``tf.compat.v1`` modules with the old names
    added). The real ``tensorflow`` module is not touched. Built once per process.
    """
    import tensorflow as tf
    v1 = tf.compat.v1
    namespace = types.ModuleType(
        "tensorflow", "TensorFlow 1 API for legacy scripts: tf.compat.v1 plus tf.contrib.data "
                      "and the pre-1.0 renamed ops (built by compat.tf1.namespace).")
    for name, value in renames.namespace_attributes(v1, LegacyAPIError).items():
        setattr(namespace, name, value)
    for prefix in renames.OVERLAY_PREFIXES:
        missing.extend_overlay(namespace.__dict__[prefix], prefix)
    namespace.__dict__["contrib"] = contrib_modules()["tensorflow.contrib"]
    legacy_flags = tf1_flags.flags_module(v1.flags)
    namespace.__dict__.update(flags=legacy_flags, app=tf1_flags.app_module(v1.app, legacy_flags))
    _report_tf1_version(namespace, v1)
    added = set(namespace.__dict__)
    namespace.__dict__.update(__getattr__=_namespace_getattr(v1), __dir__=lambda: sorted(set(dir(v1)) | added))
    return namespace


def _report_tf1_version(namespace: types.ModuleType, v1: types.ModuleType) -> None:
    """``__version__``, ``VERSION`` and ``version.VERSION`` of the namespace say :data:`TF1_VERSION`.

    ``tf.version`` is a copy of ``tf.compat.v1.version`` (the graph-def versions and
    ``GIT_VERSION`` / ``COMPILER_VERSION`` stay today's: they describe the running binary).
    """
    version = new_module("tensorflow.version", "tf.version of the TF1 namespace: VERSION is TensorFlow 1.15's.")
    version.__dict__.update({k: v for k, v in vars(v1.version).items() if not k.startswith("_")})
    version.__dict__["VERSION"] = TF1_VERSION
    namespace.__dict__.update(__version__=TF1_VERSION, VERSION=TF1_VERSION, version=version)


def accept_numpy_bools() -> Callable[[], None]:
    """Let TensorFlow op attributes take NumPy booleans; returns a function that undoes it.

    Legacy code computes sizes with NumPy (StyleGAN2's ``dataset.prefetch(... //
    bytes_per_item + 1)`` with ``bytes_per_item = np.prod(shape)``), and today's
    ``Dataset.prefetch`` derives a bool attribute from that size
    (``buffer_size == AUTOTUNE``), which is then a ``numpy.bool_`` that
    TensorFlow's attribute check rejects. This wraps that check
    (``tensorflow.python.eager.execute.make_bool``) so a ``numpy.bool_`` is
    turned into ``bool`` first; every other value is checked as before. Only
    :mod:`compat.runner.run` calls this, in its own process.
    """
    import numpy as np
    from tensorflow.python.eager import execute

    original = execute.make_bool
    if getattr(original, "_compat_accepts_numpy_bool", False):
        return lambda: None

    def make_bool(v: Any, arg_name: str) -> bool:
        if isinstance(v, np.bool_):
            v = bool(v)
        return original(v, arg_name)

    make_bool._compat_accepts_numpy_bool = True  # type: ignore[attr-defined]
    execute.make_bool = make_bool

    def undo() -> None:
        execute.make_bool = original
    return undo


def skip_autograph_for(is_legacy: Callable[[types.ModuleType], bool]) -> Callable[[], None]:
    """Keep AutoGraph away from the legacy script's own functions; returns a function that undoes it.

    TensorFlow 1 traced ``Dataset.map`` functions as written; today's
    ``tf.compat.v1`` converts them with AutoGraph, which re-reads the
    function's *original* source from disk, so the source rewrite of
    :mod:`compat.runner.rewrite` (``d.iteritems()``, ``np.float``, ...) would be lost
    inside them. A conversion rule placed first in AutoGraph's rule list marks
    every module for which ``is_legacy(module)`` is true as "do not convert";
    everything else (TensorFlow, Keras, other libraries) is converted as before.
    Only :mod:`compat.runner.run` calls this, in its own process.
    """
    from tensorflow.python.autograph.core import config, config_lib

    class _LegacyModules(config_lib.Rule):
        def __str__(self) -> str:
            return "DoNotConvert rule for the legacy script's own modules"

        def get_action(self, module: types.ModuleType) -> Any:
            return config_lib.Action.DO_NOT_CONVERT if is_legacy(module) else config_lib.Action.NONE

    previous = config.CONVERSION_RULES
    config.CONVERSION_RULES = (_LegacyModules("<legacy script>"), *previous)

    def undo() -> None:
        config.CONVERSION_RULES = previous
    return undo


# --------------------------------------------------------------------------
# Static classification of tf.<a>.<b> chains, for `python -m compat check`
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class TFAttributeVerdict:
    """What the runner does about one ``tf.a.b`` chain.

    Attributes:
        status: ``"bridged"`` (provided by the runner), ``"compat.v1"`` (works
            as in TensorFlow 1 through tf.compat.v1) or ``"unsupported"``.
        action: a sentence for the report.
    """

    status: str
    action: str


def _classify_contrib(parts: Sequence[str]) -> TFAttributeVerdict | None:
    if len(parts) == 1:
        return None
    served = slim_bridge.classify_attribute(parts[1:])
    if served is not None:
        return TFAttributeVerdict(status=served[0], action=served[1])
    if parts[1] in contrib_bridges.bridged_modules():
        return _classify_bridged(parts[1], parts[2:])
    if len(parts) == 2 and parts[1] in rules.PARTIAL_CONTRIB_PACKAGES:
        return TFAttributeVerdict(status="bridged", action=rules.PARTIAL_CONTRIB_PACKAGES[parts[1]])
    if parts[1] != "data":
        return TFAttributeVerdict(status="unsupported", action=contrib_message(".".join(parts[1:])))
    if len(parts) == 2:
        return TFAttributeVerdict(status="bridged", action="tf.contrib.data is provided by the runner")
    name = parts[2]
    if name in rules.CONTRIB_DATA_PROVIDED:
        return TFAttributeVerdict(status="bridged",
                                  action=f"provided by the runner as {rules.CONTRIB_DATA_PROVIDED[name]}")
    if name in rules.CONTRIB_DATA_FROM_V1:
        return TFAttributeVerdict(status="bridged", action=f"forwarded to tf.compat.v1.data.{name}")
    import tensorflow as tf
    if hasattr(tf.compat.v1.data.experimental, name):
        return TFAttributeVerdict(status="bridged",
                                  action=f"forwarded to tf.compat.v1.data.experimental.{name}")
    return TFAttributeVerdict(status="unsupported", action=rules.contrib_data_message(name))


def _classify_bridged(module: str, rest: Sequence[str]) -> TFAttributeVerdict:
    """The verdict for ``tf.contrib.<module>.<rest...>`` where a bridge module serves ``module``."""
    where = f"compat.contrib.{module}"
    if not rest:
        return TFAttributeVerdict(status="bridged", action=f"tf.contrib.{module} is provided by the runner ({where})")
    bridge_module = contrib_bridges.bridge(module)
    refused: dict[str, str] = getattr(bridge_module, "REFUSED", {})
    if rest[0] in refused:
        # The runner's own message: the bridge's __getattr__ raises it.
        try:
            getattr(bridge_module, rest[0])
        except AttributeError as error:
            message = str(error)
        else:
            message = f"tf.contrib.{module}.{rest[0]} is not provided: {refused[rest[0]]}"
        return TFAttributeVerdict(status="unsupported", action=message)
    found, _ = _lookup(bridge_module, rest[:1])
    if found:
        return TFAttributeVerdict(status="bridged", action=f"provided by the runner ({where}.{rest[0]})")
    return TFAttributeVerdict(status="unsupported",
                              action=f"tf.contrib.{module} has no attribute {rest[0]!r} in TensorFlow 1.15 either")


def _lookup(root: Any, parts: Sequence[str]) -> tuple[bool, Any]:
    """(found, value) for ``root.parts[0].parts[1]...``; any error counts as not found."""
    target = root
    for part in parts:
        try:
            target = getattr(target, part)
        except Exception:  # lazy TensorFlow modules raise all sorts on access
            return False, None
    return True, target


def _classify_renamed(parts: Sequence[str]) -> TFAttributeVerdict | None:
    """The verdict for a name of the rename table or a module the runner provides; None otherwise.

    Names TensorFlow 1.0 kept with new arguments (``concat``, ``split``, ...)
    are not legacy by themselves; ``check`` reports their old-style calls.
    """
    for length in range(len(parts), 0, -1):
        row = renames.by_name(".".join(parts[:length]))
        if row is None:
            continue
        if row.refusal is not None:
            return TFAttributeVerdict(status="unsupported", action=renames.refusal_message(row))
        if row.kept_in_1_0:
            return None
        return TFAttributeVerdict(status="bridged", action=renames.bridged_action(row))
    if len(parts) > 2 and ".".join(parts[:2]) in rules.CONTRIB_OVERLAYS:
        # tf.contrib.nn and tf.contrib.deprecated hold only their rename rows.
        return TFAttributeVerdict(status="unsupported",
                                  action=rules.contrib_overlay_message(".".join(parts[:2]), parts[2]))
    described = rules.describe_legacy_module("tensorflow." + ".".join(parts))
    if described is not None:
        return TFAttributeVerdict(status="bridged", action=described)
    return None


def classify_tf_attribute(parts: Sequence[str]) -> TFAttributeVerdict | None:
    """Classify ``tf.<parts[0]>.<parts[1]>...`` as seen through the TF1 namespace.

    Returns None for names that mean the same in TensorFlow 2 (nothing legacy
    to report), else a :class:`TFAttributeVerdict`. Imports TensorFlow.
    """
    if not parts:
        return None
    if parts[0] == "contrib":
        return _classify_renamed(parts) or _classify_contrib(parts)
    if parts[0] == "estimator":
        # Served by compat.estimator from the tensorflow-estimator package (docs/estimator.md).
        return TFAttributeVerdict(status="bridged", action=f"tf.{'.'.join(parts)} is served by compat.estimator "
                                                           "(tensorflow-estimator 2.15.0)")
    dotted = "tf." + ".".join(parts)
    served = missing.classify(parts)
    if served is not None:
        return TFAttributeVerdict(status=served[0], action=served[1])
    renamed = _classify_renamed(parts)
    if renamed is not None:
        return renamed
    import tensorflow as tf
    found_v1, in_v1 = _lookup(tf.compat.v1, parts)
    if not found_v1:
        return TFAttributeVerdict(status="unsupported",
                                  action=f"{dotted} does not exist in tf.compat.v1 of "
                                         f"TensorFlow {tf.__version__}")
    found_v2, in_v2 = _lookup(tf, parts)
    if found_v2 and in_v2 is in_v1:
        return None
    return TFAttributeVerdict(status="compat.v1", action=f"works as tf.compat.v1.{'.'.join(parts)}")
