"""TensorFlow 1's API as a legacy surface (see :mod:`compat.surfaces`).

* import machinery: ``tensorflow.contrib`` and its served submodules
  (:func:`compat.tf1.namespace.contrib_modules`), the ``tf_slim`` facades
  (``tf.contrib.slim/layers/framework/training``: :mod:`compat.contrib.slim`), one bridge module
  per other ``tf.contrib`` submodule (:mod:`compat.contrib`) also under TF 1.x's source paths
  (``tensorflow.contrib.crf.python.ops.crf``), and removed TensorFlow modules refused with a
  message naming the replacement. Asked after every other surface's finders (``order``), so
  that what another surface serves under ``tensorflow.`` is never refused here;
* once TensorFlow runs in graph mode: NumPy booleans accepted as op attributes, AutoGraph kept
  off the script's own functions, TF 1.0-1.14 semantics (:mod:`compat.tf1.old_semantics`) and the
  names TensorFlow's internal modules lost (:mod:`compat.tf1.deep_modules`).

The ``import tensorflow`` of the script itself is the rewrite's (:mod:`compat.runner.rewrite`), and
``compat check`` classifies ``tf.*`` names in :mod:`compat.checker.check` with the same tables.
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Sequence

import compat.contrib as contrib_bridges
from compat.contrib import slim as slim_bridge
from compat.errors import LegacyImportError
from compat.rules import removed_module_message
from compat.surfaces import Context, Surface, Undo, chain
from compat.surfaces.modules import ModuleObjectLoader, source_path_module
from compat.tf1 import deep_modules, old_semantics
from compat.tf1 import namespace as tf1

__all__ = ["SURFACE", "ContribFinder"]


def _contrib_bridge(fullname: str) -> types.ModuleType | None:
    """The bridge module serving ``tensorflow.contrib.<name>[.deeper...]``, or None.

    A deep path of TF 1.x's source tree (``tensorflow.contrib.rnn.python.ops.rnn_cell``)
    is served the bridge of its ``tf.contrib`` submodule, which holds the public names.
    """
    parts = fullname.split(".")
    if len(parts) < 3 or parts[:2] != ["tensorflow", "contrib"] or parts[2] not in contrib_bridges.bridged_modules():
        return None
    bridge = contrib_bridges.bridge(parts[2])
    return bridge if len(parts) == 3 else source_path_module(fullname, bridge)


class ContribFinder(importlib.abc.MetaPathFinder):
    """Serves ``tensorflow.contrib``'s bridges; refuses removed TensorFlow modules (asked last).

    ``tensorflow.contrib`` and ``tensorflow.contrib.data`` themselves are put in ``sys.modules``
    when the finder is made; :meth:`undo` puts back what was there.
    """

    def __init__(self) -> None:
        self._saved: dict[str, types.ModuleType | None] = {}
        for name, module in tf1.contrib_modules().items():
            self._saved.setdefault(name, sys.modules.get(name))
            sys.modules[name] = module

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """A bridge's spec; raises :class:`compat.errors.LegacyImportError` for a removed module."""
        bridge = _contrib_bridge(fullname)
        if bridge is not None:
            # Always a package: TF 1.x's source paths below it (tensorflow.contrib.crf.python.ops.crf)
            # are served the same bridge, and Python looks for them only below a package.
            return importlib.util.spec_from_loader(fullname, ModuleObjectLoader(bridge), is_package=True)
        message = removed_module_message(fullname)
        if message is not None:
            raise LegacyImportError(message)
        return None

    def undo(self) -> None:
        """Put back the ``sys.modules`` entries this finder replaced."""
        for name, previous in self._saved.items():
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous
        self._saved.clear()


class _SlimFinder(importlib.abc.MetaPathFinder):
    """The ``tf_slim`` facades' finder (:class:`compat.contrib.slim.ContribFinder`) with its undo."""

    def __init__(self) -> None:
        self._bridge = slim_bridge.install(insert=False)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """What the facades' finder serves."""
        return self._bridge.finder.find_spec(fullname, path, target)

    def undo(self) -> None:
        """Remove the modules it served and the names it supplied."""
        self._bridge.uninstall()


def _finders(context: Context) -> Sequence[importlib.abc.MetaPathFinder]:
    return [_SlimFinder(), ContribFinder()]


def _after_tensorflow(context: Context) -> Undo:
    return chain(tf1.accept_numpy_bools(), tf1.skip_autograph_for(context.owns_module),
                 old_semantics.install_all(), deep_modules.add_missing_names())


SURFACE = Surface(
    name="tf1",
    summary="TensorFlow 1's API: tf.contrib, removed modules refused, TF 1.0-1.14 semantics in graph mode",
    finders=_finders,
    after_tensorflow=_after_tensorflow,
    order=90,
)
