"""Keras 2 for legacy scripts: ``tf.layers`` and ``tf.keras`` as TensorFlow 1 had them.

TensorFlow 2.16 and later use Keras 3, which dropped the TF1 layer functions:
``tf.compat.v1.layers.conv2d`` raises "conv2d is not available with Keras 3".
TensorFlow still builds ``tf.layers`` and ``tf.keras`` on Keras 2 (the
maintained ``tf-keras`` package) when the environment variable
``TF_USE_LEGACY_KERAS`` is ``1`` at the moment TensorFlow is imported, and then
``tf.layers.*``, ``tf.keras`` and ``tf_slim``'s ``batch_norm`` behave as under
TensorFlow 1.x.

:func:`select_legacy_keras` sets it for the runner, before the runner imports
TensorFlow. An explicit value set by the user is respected (``0`` keeps Keras 3,
so ``tf.layers`` fails as it does without the runner). Importing this module
changes nothing.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import MutableMapping

__all__ = ["ENV_VAR", "select_legacy_keras"]

#: TensorFlow's own switch between Keras 3 and Keras 2 (``tf_keras``).
ENV_VAR = "TF_USE_LEGACY_KERAS"


def select_legacy_keras(environ: MutableMapping[str, str] | None = None) -> str | None:
    """Ask TensorFlow for Keras 2 unless the user already chose; returns the value in effect.

    Sets ``environ[ENV_VAR] = "1"`` (``os.environ`` by default) when the user
    did not set it, ``tf_keras`` is installed and TensorFlow is not imported yet
    (afterwards the switch would have no effect). Returns the variable's value
    after the call, or None when it stays unset.
    """
    env = os.environ if environ is None else environ
    if ENV_VAR in env:
        return env[ENV_VAR]  # the user's explicit choice
    if "tensorflow" in sys.modules or importlib.util.find_spec("tf_keras") is None:
        return None
    env[ENV_VAR] = "1"
    return "1"
