"""The two exceptions every surface of the runner raises for what it cannot provide.

Both carry a message that names the modern replacement. They live apart from
every surface so that any of them (the TF1 namespace, a ``tf.contrib`` bridge,
the runner's import finder) can raise them without importing another.
"""
from __future__ import annotations

__all__ = ["LegacyAPIError", "LegacyImportError"]


class LegacyAPIError(AttributeError):
    """A TensorFlow 1 name the compat runner cannot provide; the message says what to use."""


class LegacyImportError(ModuleNotFoundError):
    """A TensorFlow 1 module the compat runner cannot provide; the message says what to use.

    Its ``name`` is left unset on purpose: ``from tensorflow.contrib import slim``
    then reports this message instead of a generic "cannot import name".
    """
