"""``tf.contrib.keras``: the Keras of TF 1.x, forwarded to the ``tf_keras`` package (Keras 2, what tf.keras
was then).

The modules come from ``tf_keras``'s TF1 API (``tf_keras.api._v1.keras``, what
``tf.compat.v1.keras`` is with the legacy Keras), as ``import keras`` does
(:mod:`compat.keras2`): its optimizers are the legacy ones, which take ``lr``
and work in graph mode. ``tf_keras.optimizers.SGD`` is the TF2 optimizer, whose
``get_config`` reads its variables eagerly and so fails in ``model.compile``.
"""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    **{name: f"tf_keras.api._v1.keras.{name}" for name in (
        "activations", "applications", "backend", "callbacks", "constraints", "datasets", "initializers",
        "layers", "losses", "metrics", "models", "optimizers", "preprocessing", "regularizers", "utils")},
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {
    "python": "the public tf_keras modules (tf.contrib.keras.python was the private source tree)",
    "wrappers": "the scikeras package (tf_keras dropped the scikit-learn wrappers)",
}

__getattr__ = forwarding_getattr("keras", FORWARDS, REFUSED)
