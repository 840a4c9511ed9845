"""The Keras 1 arguments and names of one module using standalone Keras, found without running it.

Read by :mod:`compat.checker.check`, which reports each as ``bridged``: under
the runner, ``import keras`` takes them as Keras 2.0-2.3 did
(:mod:`compat.keras2.legacy_interfaces`, whose tables are used here):

* a Keras 1 keyword of a layer (``Convolution2D(..., border_mode='same')``,
  ``Dense(output_dim=)``, ``Dropout(p=)``) or of ``Model(input=, output=)``;
* ``Convolution2D(32, 3, 3)`` (``nb_row, nb_col``), ``AtrousConvolution1D/2D``;
* a Keras 1 keyword of ``fit`` / ``fit_generator`` / ``evaluate_generator`` /
  ``predict_generator`` (``nb_epoch``, ``samples_per_epoch``, ``val_samples``);
* ``image_dim_ordering`` / ``set_image_dim_ordering``.

Only in modules that import ``keras`` (``tf.keras`` never had these). Keras is never imported here.
"""
from __future__ import annotations

import ast

from compat.keras2 import legacy_interfaces as li

__all__ = ["Use", "bridged_uses"]

#: (node, construct, what the runner does)
Use = tuple[ast.AST, str, str]

_SERVED = "converted as Keras 2.x did (compat.keras2.legacy_interfaces)"
#: What Keras 2.x did with a number whose unit changed, for the report.
_UNIT_CHANGES = {
    "samples_per_epoch": "steps_per_epoch = samples_per_epoch // generator.batch_size if the generator has "
                         "`batch_size`, else the same number (of batches now)",
    "nb_val_samples": "validation_steps, the same number (of batches now)",
    "val_samples": "steps, the same number (of batches now)",
}


def bridged_uses(tree: ast.Module) -> list[Use]:
    """Each use in ``tree`` of a Keras 1 argument or name that the served ``keras`` converts."""
    if not _imports_keras(tree):
        return []
    uses: list[Use] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            uses.extend(_call_uses(node))
        elif isinstance(node, (ast.Name, ast.Attribute)) and _name(node) in li.BACKEND_NAMES:
            uses.append((node, _name(node), f"Keras 1 backend function kept by Keras 2.x; {_SERVED}"))
    return uses


def _imports_keras(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "keras" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "keras":
            return True
    return False


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def _call_uses(node: ast.Call) -> list[Use]:
    name = _name(node.func)
    keywords = [k.arg for k in node.keywords if k.arg is not None]
    if isinstance(node.func, ast.Attribute) and name in li.MODEL_METHOD_KEYWORDS:
        table = li.MODEL_METHOD_KEYWORDS[name]
        return [(node, f"{name}({old}=...)", f"Keras 1 argument -> {_UNIT_CHANGES.get(old, table[old])}; {_SERVED}")
                for old in keywords if old in table]
    if name == "Model":
        renames = dict(li.MODEL_INTERFACE.renames)
        return [(node, f"Model({old}=...)", f"Keras 1 argument -> {renames[old]}; {_SERVED}")
                for old in keywords if old in renames]
    if name not in li.KERAS1_LAYER_NAMES:
        return []
    old_keywords = li.LAYER_INTERFACES[li.KERAS1_LAYER_NAMES[name]].old_keywords
    uses: list[Use] = [(node, f"{name}({old}=...)", f"Keras 1 argument -> {old_keywords[old]}; {_SERVED}")
                       for old in keywords if old in old_keywords]
    if name.startswith("Atrous"):
        uses.append((node, f"{name}(...)", f"Keras 1 layer -> {li.KERAS1_LAYER_NAMES[name]}(dilation_rate="
                                           f"atrous_rate); {_SERVED}"))
    kernel_rank = {"Conv2D": 2, "Conv2DTranspose": 2, "SeparableConv2D": 2, "Conv3D": 3, "ConvLSTM2D": 2}
    rank = kernel_rank.get(li.KERAS1_LAYER_NAMES[name])
    if rank is not None and len(node.args) == rank + 1 and all(
            isinstance(a, ast.Constant) and isinstance(a.value, int) for a in node.args[1:]):
        uses.append((node, f"{name}(filters, {', '.join(['n'] * rank)})",
                     f"Keras 1 kernel dimensions -> kernel_size; {_SERVED}"))
    return uses
