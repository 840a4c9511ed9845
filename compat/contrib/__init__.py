"""``tf.contrib``, one module a file: what the runner serves for each ``tf.contrib.<name>``.

Three kinds of module live here:

* :mod:`compat.contrib.data` (``tf.contrib.data``) and the ``tf_slim`` facades of
  :mod:`compat.contrib.slim` (``slim``, ``layers``, ``framework``, ``training``),
  with :mod:`compat.contrib.hparams` (``tf.contrib.training.HParams``): wired by
  hand, since they forward to other packages;
* every other module file of this package whose name is a ``tf.contrib``
  submodule (``rnn.py`` is ``tf.contrib.rnn``, ``crf.py`` is ``tf.contrib.crf``):
  a **bridge**, found by :func:`bridged_modules`. Its public attributes are the
  TF 1.15 names it provides; a TF 1.15 name it cannot provide is a key of its
  ``REFUSED`` dict (name -> what to use instead), which the module's
  ``__getattr__`` (see :func:`refusing_getattr`) raises as
  :class:`compat.errors.LegacyAPIError`;
* helpers whose names start with ``_``, which are not bridges.

To add ``tf.contrib.foo``: write ``compat/contrib/foo.py`` with the names and a
``REFUSED`` dict, and a test beside the others in ``tests/``. Nothing else is
edited: the TF1 namespace, the runner's import finder and ``compat check`` all
ask :func:`bridged_modules`.

Importing this package imports nothing heavy; a bridge is imported (and with it
TensorFlow) only when a script touches it.
"""
from __future__ import annotations

import functools
import importlib
import pkgutil
import types
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["HAND_WIRED", "bridge", "bridged_modules", "refusing_getattr"]

#: Module files of this package that are not bridges found by name.
HAND_WIRED = frozenset({"data", "slim", "hparams"})


@functools.cache
def bridged_modules() -> frozenset[str]:
    """The ``tf.contrib`` submodule names served by a bridge module of this package."""
    return frozenset(info.name for info in pkgutil.iter_modules(__path__)
                     if not info.name.startswith("_") and info.name not in HAND_WIRED)


def bridge(name: str) -> types.ModuleType:
    """The bridge module of ``tf.contrib.<name>`` (imported on first use).

    Raises:
        KeyError: ``name`` has no bridge here.
    """
    if name not in bridged_modules():
        raise KeyError(name)
    return importlib.import_module(f"{__name__}.{name}")


def refusing_getattr(module_name: str, refused: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that raises a message naming the replacement of a refused name.

    ``refused`` maps a TF 1.15 name of ``tf.contrib.<module_name>`` to what to
    use instead; any other missing name is reported as unknown to TF 1.15.
    """
    from compat.errors import LegacyAPIError

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name in refused:
            raise LegacyAPIError(f"tf.contrib.{module_name}.{name} is not provided by the compat runner: "
                                 f"{refused[name]}")
        raise LegacyAPIError(f"tf.contrib.{module_name} has no attribute {name!r} "
                             f"(TensorFlow 1.15's tf.contrib.{module_name} did not have it either)")
    return __getattr__
