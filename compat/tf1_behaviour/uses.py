"""What ``compat check`` reports for TensorFlow's behaviour changes under names that still exist.

:func:`find_uses` walks one module's syntax tree and reports, for the
TensorFlow the script imports (``import tensorflow as tf``, ``from tensorflow
import gfile``, ...):

* a text-mode ``GFile`` / ``FastGFile`` / ``gfile.Open`` (TF 1.1 made its
  reads text): bridged, a read that is not UTF-8 returns the bytes;
* ``train_distribute=`` / ``eval_distribute=`` / ``experimental_distribute=``
  (``RunConfig``, ``tf.contrib.learn.RunConfig``): bridged on one machine;
* reads of ``tf.__version__`` / ``tf.VERSION`` / ``tf.version.VERSION``:
  bridged, TF 1.15's version string;
* ``data_format='NCHW'`` / ``'channels_first'``: bridged, NHWC on a CPU;
* summary ops (``tf.summary.scalar`` ...): bridged, TF 1.x's tags;
* the rows of :data:`WARNINGS`: TensorFlow changed them and the runner runs
  today's behaviour (status ``warning``, naming the release).

Imports the standard library only.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from compat.surfaces import Use
from compat.surfaces.source_pass import dotted_through, names_bound_to, short

__all__ = ["SUMMARY_OPS", "WARNINGS", "Warned", "find_uses"]

#: TF 1.x's graph-mode summary functions whose tag came from their unique name scope.
SUMMARY_OPS = frozenset({"scalar", "histogram", "image", "audio", "text", "tensor_summary"})

_GFILE_CLASSES = frozenset({"GFile", "FastGFile", "Open"})
_DISTRIBUTE_KEYWORDS = frozenset({"train_distribute", "eval_distribute", "experimental_distribute"})
_VERSION_NAMES = frozenset({"tensorflow.__version__", "tensorflow.VERSION", "tensorflow.version.VERSION"})
_CHANNELS_FIRST = frozenset({"NCHW", "channels_first"})

ACTIONS = {
    "gfile": ("text-mode read: TF <= 1.0 returned bytes in every mode, TF 1.1 made it text; the runner "
              "returns text when the bytes read are UTF-8 and the bytes otherwise (JPEGs, graphs), where "
              "TF 1.1+ raised UnicodeDecodeError"),
    "distribute": ("Estimator with a distribution strategy on this machine: runs in one process through the "
                   "Estimator's own strategy path (OneDeviceStrategy, MirroredStrategy over local devices); "
                   "multi-worker TF_CONFIG runs are refused"),
    "version": ("the TF1 namespace reports TensorFlow 1.15's version (1.15.5), so version tests take their "
                "TF 1.x branch; tf.compat.v2 and the real module report the installed one"),
    "nchw": ("channels-first convolution/pool: on a machine without a GPU, where the CPU kernels refuse NCHW, "
             "the runner computes it in NHWC between two transposes (same values); TF 1.x's CPU kernels "
             "refused NCHW"),
    "summary": ("summary tag as TF 1.x wrote it: names unique by exact spelling (TensorFlow 2 ignores case, "
                "so after name_scope('Loss') the tag 'loss' became 'loss_1')"),
}


def _always(call: ast.Call) -> bool:
    return True


def _without(*keywords: str, positional: int) -> Callable[[ast.Call], bool]:
    """A test true for calls that give none of ``keywords`` and at most ``positional`` positional arguments."""
    def applies(call: ast.Call) -> bool:
        return len(call.args) <= positional and not any(k.arg in keywords for k in call.keywords)
    return applies


def _repeated_cell(call: ast.Call) -> bool:
    """``MultiRNNCell([cell] * n)`` (or ``n * [cell]``): one cell object for every layer."""
    cells = _argument(call, 0, "cells")
    return isinstance(cells, ast.BinOp) and isinstance(cells.op, ast.Mult) and (
        isinstance(cells.left, ast.List) or isinstance(cells.right, ast.List))


@dataclass(frozen=True)
class Warned:
    """A TensorFlow name whose behaviour changed in ``release`` and that the runner runs as today.

    ``suffixes``: dotted endings of the called name (below ``tensorflow``) that it applies to;
    ``applies``: whether a call of it shows the old behaviour was relied on.
    """

    suffixes: tuple[str, ...]
    release: str
    what: str
    applies: Callable[[ast.Call], bool] = _always


#: Behaviour changes the runner does not undo, reported as ``warning`` where a call shows them.
WARNINGS: tuple[Warned, ...] = (
    Warned(("nn.rnn_cell.BasicLSTMCell", "nn.rnn_cell.LSTMCell", "nn.rnn_cell.GRUCell", "nn.rnn_cell.BasicRNNCell",
            "contrib.rnn.BasicLSTMCell", "contrib.rnn.LSTMCell", "contrib.rnn.GRUCell", "contrib.rnn.BasicRNNCell"),
           "TensorFlow 1.2",
           "RNN cells name their variables kernel/bias since TensorFlow 1.2 (weights/biases before): a checkpoint "
           "written by TF <= 1.1 does not restore into them; rename its variables "
           "(TF 1.x's tf.contrib.rnn checkpoint_convert did) or build a name map for tf.train.Saver"),
    Warned(("nn.rnn_cell.MultiRNNCell", "contrib.rnn.MultiRNNCell"), "TensorFlow 1.2",
           "one cell object repeated ([cell] * n) shares its variables across the layers since TensorFlow 1.2 "
           "(TF 1.0 gave each layer its own, TF 1.1 raised): build one cell per layer to get TF 1.0's stack",
           _repeated_cell),
    Warned(("data.Dataset.list_files",), "TensorFlow 1.7",
           "Dataset.list_files shuffles the file names by default since TensorFlow 1.7 (in order before): "
           "pass shuffle=False for the old order", _without("shuffle", "seed", positional=1)),
    Warned(("keras.optimizers.Adadelta", "keras.optimizers.Adagrad", "keras.optimizers.Adamax",
            "keras.optimizers.Nadam"), "TensorFlow 1.14",
           "tf.keras optimizers' default learning rates changed in TensorFlow 1.14 (Adadelta 1.0, Adagrad 0.01, "
           "Adamax and Nadam 0.002 before; 0.001 since): give the learning rate the script was tuned with",
           _without("lr", "learning_rate", positional=0)),
    Warned(("keras.initializers.RandomUniform", "keras.initializers.RandomNormal",
            "keras.initializers.TruncatedNormal"), "TensorFlow 1.11",
           "tf.keras' random initializers took TensorFlow's defaults before 1.11 (RandomUniform 0..1, "
           "stddev 1.0) and Keras' since (-0.05..0.05, stddev 0.05): give the range or stddev explicitly",
           _without("minval", "maxval", "mean", "stddev", positional=0)),
    Warned(("set_random_seed", "random.set_random_seed"), "TensorFlow 1.x-2.x (the ops each release builds)",
           "with a graph-level seed and no op seed, each random op's seed is the count of ops built before it "
           "(TF 1.x's rule, kept); today's functions build other internal ops than TF 1.x's, so the same seed "
           "can draw other numbers than under TF 1.x (runs still repeat on this stack): give op-level seeds "
           "where TF 1.x's exact draws matter"),
    Warned(("keras.layers.UpSampling2D", "keras.backend.resize_images"), "TensorFlow 1.15",
           "a bug in tf.keras' image resizing (UpSampling2D, backend.resize_images) was fixed in TensorFlow 1.15: "
           "the upsampled values can differ from TF <= 1.14's"),
)


def _is_tensorflow(module: str) -> bool:
    return module == "tensorflow" or module.startswith("tensorflow.")


def _string(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    if len(call.args) > position:
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _text_mode_gfile(call: ast.Call, dotted: str) -> bool:
    """``GFile(path)`` / ``GFile(path, 'r')``: a read in text mode (a mode the source shows)."""
    if dotted.rpartition(".")[2] not in _GFILE_CLASSES or ".gfile." not in f".{dotted}":
        return False
    mode = _argument(call, 1, "mode")
    text = "r" if mode is None else _string(mode)
    return text is not None and "r" in text and "b" not in text and "+" not in text


def _call_uses(call: ast.Call, dotted: str | None) -> Iterator[Use]:
    if dotted is not None and _is_tensorflow(dotted):
        below = dotted.removeprefix("tensorflow").lstrip(".")
        if _text_mode_gfile(call, dotted):
            yield Use(call, short(call), ACTIONS["gfile"])
        if below.startswith(("summary.", "compat.v1.summary.")) and below.rpartition(".")[2] in SUMMARY_OPS:
            yield Use(call, short(call), ACTIONS["summary"])
        for warned in WARNINGS:
            if below.endswith(warned.suffixes) and warned.applies(call):
                yield Use(call, short(call), f"changed in {warned.release}: {warned.what}", "warning")
    for keyword in call.keywords:
        if keyword.arg in _DISTRIBUTE_KEYWORDS and not (isinstance(keyword.value, ast.Constant)
                                                        and keyword.value.value is None):
            yield Use(keyword.value, f"{keyword.arg}=", ACTIONS["distribute"])
        if keyword.arg == "data_format" and _string(keyword.value) in _CHANNELS_FIRST:
            yield Use(keyword.value, f"data_format={_string(keyword.value)!r}", ACTIONS["nchw"])


def find_uses(tree: ast.Module) -> Iterator[Use]:
    """Each construct of ``tree`` whose TensorFlow behaviour changed under the same name (see the module doc)."""
    bound = names_bound_to(tree, _is_tensorflow)
    if not bound:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            target = node.func
            dotted = dotted_through(target, bound) if isinstance(target, ast.Attribute) else (
                bound.get(target.id) if isinstance(target, ast.Name) else None)
            yield from _call_uses(node, dotted)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            if dotted_through(node, bound) in _VERSION_NAMES:
                yield Use(node, short(node), ACTIONS["version"])
