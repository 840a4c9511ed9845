"""TensorFlow's behaviour changes under names that still exist, as a legacy surface (see :mod:`compat.surfaces`).

``after_tensorflow`` installs, in the runner's process and undoably: text-mode
``tf.gfile`` reads that return bytes where today's would raise
(:mod:`compat.tf1_behaviour.gfile`), graph names unique by exact spelling, so
summary tags are the ones TF 1.x wrote (:mod:`compat.tf1_behaviour.names`), and
NCHW convolutions and pools computed in NHWC on a machine without a GPU
(:mod:`compat.tf1_behaviour.nchw`). ``uses`` reports those constructs, the
Estimator's distribution strategies and version tests to ``compat check``, and
the changes the runner leaves as today's as warnings
(:mod:`compat.tf1_behaviour.uses`). Importing this module imports no TensorFlow.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from compat.surfaces import Context, Surface, Use
from compat.tf1_behaviour import gfile, names, nchw
from compat.tf1_behaviour.uses import find_uses

__all__ = ["SURFACE", "install"]

Undo = Callable[[], None]


def install() -> Undo:
    """Every behaviour of this surface, in this process; returns one undo for all of them (last first)."""
    undos = [undo for undo in (gfile.install(), names.install(), nchw.install()) if undo is not None]

    def undo_all() -> None:
        while undos:
            undos.pop()()
    return undo_all


def _after_tensorflow(context: Context) -> Undo:
    return install()


def _uses(tree: ast.Module) -> Iterable[Use]:
    return find_uses(tree)


SURFACE = Surface(
    name="tf1_behaviour",
    summary=("TensorFlow's behaviour changes under surviving names: tf.gfile text reads of binary files, "
             "TF 1.x's summary tags and graph names, NCHW convolutions on a CPU"),
    after_tensorflow=_after_tensorflow,
    uses=_uses,
    # After the TF1 surface (90): its NCHW wrapper must sit outside old_semantics' conv2d_backprop_input one.
    order=95,
)
