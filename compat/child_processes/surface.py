"""Spawned child processes as a legacy surface (see :mod:`compat.surfaces`): the runner's process makes
its spawn and forkserver children start under the runner (:mod:`compat.child_processes.spawned`), and
``compat check`` reports the places that start them. Python 3.14 makes forkserver Linux's default
start method, so every ``multiprocessing.Pool`` of old code will start children this way."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from compat.child_processes import spawned
from compat.surfaces import Context, Surface, Undo, Use
from compat.surfaces.source_pass import short

__all__ = ["SURFACE"]

_FRESH_METHODS = ("spawn", "forkserver")
_ACTION = ("a child process that starts a fresh interpreter; the runner starts it under the runner "
           "with the script's options (TF1 code at module level and Python 2 modules work there)")


def _install(context: Context) -> Undo | None:
    script = context.options.get("script")
    if not script:  # a notebook: its cells are no file a child could re-import
        return None
    options = {k: v for k, v in context.options.items() if k != "script"}
    return spawned.install(Path(script), options)


def _uses(tree: ast.Module) -> Iterator[Use]:
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        method = node.args[0] if node.args else None
        if name in ("get_context", "set_start_method") and isinstance(method, ast.Constant) \
                and method.value in _FRESH_METHODS:
            yield Use(node, short(node), _ACTION)
        elif name == "ProcessPoolExecutor":
            yield Use(node, short(node), _ACTION + " (with the spawn or forkserver method)")


SURFACE = Surface(
    name="child_processes",
    summary="spawn and forkserver child processes of the script run under the runner with its options",
    after_tensorflow=_install,
    uses=_uses,
)
