"""The names Keras 2.2.4's TensorFlow backend (``keras.backend``) had that tf_keras's TF1 API lacks.

``from keras import backend as K`` then ``K.logsumexp`` (keras-contrib's CRF),
``K.tf`` (the backend's own ``import tensorflow as tf``, exported by
``keras.backend``'s ``from .tensorflow_backend import *``), ``K.slice``,
``K.is_tensor``. Five are tf_keras's own functions outside its TF1 API; three
(:func:`get_variable_shape`, :func:`is_tensor`, :func:`slice`) are written again
as Keras 2.2.4 defined them. Imports nothing heavy until called.
"""
from __future__ import annotations

import types
from typing import Any

__all__ = ["OWN_ELSEWHERE", "backend_extras", "get_variable_shape", "is_tensor", "slice"]

#: Keras 2.2.4 backend functions tf_keras keeps in ``tf_keras.src.backend`` but not in its TF1 API.
OWN_ELSEWHERE = ("conv3d_transpose", "identity", "is_placeholder", "logsumexp", "separable_conv1d")


def get_variable_shape(x: Any) -> tuple[int | None, ...]:
    """Keras 2.2.4's ``K.get_variable_shape``: the shape of a variable as a tuple (``K.int_shape``)."""
    import tf_keras.src.backend as backend
    return backend.int_shape(x)


def is_tensor(x: Any) -> bool:
    """Keras 2.2.4's ``K.is_tensor``: True for a TensorFlow tensor or variable (not a NumPy array)."""
    import tensorflow as tf
    return bool(tf.is_tensor(x))


def slice(x: Any, start: Any, size: Any) -> Any:  # noqa: A001 - Keras 2.2.4's name
    """Keras 2.2.4's ``K.slice``: ``tf.slice(x, start, size)``."""
    import tensorflow as tf
    return tf.slice(x, start, size)


def backend_extras(source: types.ModuleType) -> dict[str, Any]:
    """The names ``source`` (tf_keras's TF1 backend module) lacks, as ``keras.backend`` had them."""
    import tensorflow as tf
    import tf_keras.src.backend as backend
    extras: dict[str, Any] = {"tf": tf.compat.v1, "get_variable_shape": get_variable_shape,
                              "is_tensor": is_tensor, "slice": slice}
    extras.update({name: getattr(backend, name) for name in OWN_ELSEWHERE if hasattr(backend, name)})
    return {name: value for name, value in extras.items() if not hasattr(source, name)}
