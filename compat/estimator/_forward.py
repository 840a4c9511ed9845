"""Module ``__getattr__`` / ``__dir__`` pairs that forward to ``tensorflow-estimator``'s TF1 API modules.

Each public module of :mod:`compat.estimator` (``tf.estimator``, ``.inputs``,
``.export``, ``.experimental``, ``.tpu.experimental``) is a thin module whose
names are looked up, on first use, in the matching module of the
``tensorflow_estimator`` package's v1 API (``tensorflow_estimator._api.v1.estimator``).
The first lookup supplies what that package needs from TensorFlow 2.21
(:mod:`compat.estimator._gaps`) and imports it; nothing happens at import.
"""
from __future__ import annotations

import importlib
import types
from collections.abc import Callable, Iterable
from typing import Any

from compat.errors import LegacyAPIError
from compat.estimator._gaps import supply

__all__ = ["API_ROOT", "api_module", "forwarding"]

#: The TF1 API of the ``tensorflow-estimator`` package: ``tf.estimator`` of TensorFlow 1.15.
API_ROOT = "tensorflow_estimator._api.v1.estimator"

_MISSING_PACKAGE = ("tf.estimator is served from the tensorflow-estimator package (2.15.0), which is not "
                    "installed: pip install --no-deps tensorflow-estimator==2.15.0")


def api_module(sub: str = "") -> types.ModuleType:
    """The ``tensorflow_estimator`` v1 API module ``estimator[.sub]`` (gaps supplied, imported on first use).

    Raises:
        LegacyAPIError: the ``tensorflow-estimator`` package is not installed.
    """
    supply()
    name = f"{API_ROOT}.{sub}" if sub else API_ROOT
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name.startswith("tensorflow_estimator"):
            raise LegacyAPIError(_MISSING_PACKAGE) from exc
        raise


def forwarding(public: str, sub: str, own: dict[str, str] | None = None,
               own_submodules: Iterable[str] = ()) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for the module ``public`` (``tf.estimator.export``) forwarding to ``sub``.

    Args:
        public: the TF1 dotted name, for messages (``tf.estimator.export``).
        sub: the submodule of :data:`API_ROOT` (``"export"``; ``""`` for the root).
        own: names this module serves itself instead: name -> ``"module:attribute"`` of compat.
        own_submodules: submodules of this package of ours (``"tpu"``), imported on access.
    """
    own = dict(own or {})
    package = "compat.estimator" + (f".{sub}" if sub else "")
    own_sub = frozenset(own_submodules)

    def __getattr__(name: str) -> Any:
        if name.startswith("_"):
            # Private names (and submodules of ours being imported) are never forwarded.
            raise AttributeError(name)
        if name in own_sub:
            return importlib.import_module(f"{package}.{name}")
        if name in own:
            module, _, attribute = own[name].partition(":")
            return getattr(importlib.import_module(module), attribute)
        try:
            return getattr(api_module(sub), name)
        except AttributeError:
            raise LegacyAPIError(f"{public} has no attribute {name!r} (TensorFlow 1.15's {public} did not "
                                 "have it either)") from None

    def __dir__() -> list[str]:
        names = {n for n in dir(api_module(sub)) if not n.startswith("_")}
        return sorted(names | set(own) | own_sub)

    return __getattr__, __dir__
