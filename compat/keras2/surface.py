"""Keras 2 as a legacy surface (see :mod:`compat.surfaces`): ``TF_USE_LEGACY_KERAS=1`` before
TensorFlow is imported (``tf.layers`` / ``tf.keras`` on ``tf_keras``: :mod:`compat.keras2.legacy_keras`),
the standalone ``import keras`` of 2017-2019 served from ``tf_keras`` with Keras 1's arguments
(:mod:`compat.keras2`), Keras 2.2's view of a layer's ``Node`` for the script's code
(:mod:`compat.keras2.node_view`), and those arguments reported by ``compat check``
(:mod:`compat.keras2.uses`)."""
from __future__ import annotations

import sys

from compat import keras2
from compat.keras2 import legacy_keras
from compat.keras2.node_view import NodeViewPatches
from compat.keras2.uses import bridged_uses
from compat.surfaces import Context, Surface, Undo

__all__ = ["SURFACE"]


def _install(context: Context) -> Undo | None:
    legacy_keras.select_legacy_keras()  # must precede the import of TensorFlow
    installed = keras2.install()
    if installed is None:
        return None
    finder, saved = installed

    def undo() -> None:
        if finder in sys.meta_path:
            sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if n == "keras" or n.startswith("keras.")]:
            del sys.modules[name]
        sys.modules.update(saved)  # the Keras 3 modules imported before, if any
    return undo


SURFACE = Surface(
    name="keras2",
    summary="Keras 2 for tf.layers / tf.keras and the standalone keras, with Keras 1's arguments",
    before_tensorflow=_install,
    patches=NodeViewPatches,
    uses=bridged_uses,
    order=20,
)
