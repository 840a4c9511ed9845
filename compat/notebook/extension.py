"""``%load_ext compat``: the cells after it run as TensorFlow 1 era code.

Loading the extension into an IPython shell (a Jupyter kernel, ``ipython``)
does for the session what ``python -m compat run`` does for a script
(:func:`compat.runner.install.install`, every declared legacy surface): the TF1 namespace for ``import tensorflow
as tf``, ``tf.contrib`` bridges, ``scipy.misc``, the MNIST tutorial reader,
the local-module finder for the notebook's folder (the working directory), graph
mode, NumPy 1 printing. Then, for every later cell:

* the shell's compiler parses the cell through :func:`compat.notebook.cells.parse_cell`
  (Python 2 translated per cell, the source rewrite applied, the cell's own line
  numbers kept), and the names the rewrite needs go into the user namespace;
* ``!wget URL`` and other downloads are refused with a message naming the file
  and the folder to put it in, or skipped when that file is already there;
* ``%tensorflow_version 1.x`` (Colab's magic) is accepted with a ``compat:`` note.

``%unload_ext compat`` removes all of it and switches TensorFlow back to its
version 2 behaviour; names the cells already bound (``tf``) keep their values.
Once a cell has built a graph, TensorFlow cannot go back to eager mode in that
process: it then stays in graph mode, with a ``compat:`` note saying to restart
the kernel for TensorFlow 2.
"""
from __future__ import annotations

import ast
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compat.keras2 import legacy_keras
from compat.notebook import cells
from compat.runner import install, local_imports, rewrite

__all__ = ["DownloadRefused", "NotebookSession", "load", "unload"]

_PREFIX = "compat:"
#: The attribute of the shell under which the loaded session is kept.
_SESSION_ATTR = "_compat_notebook_session"


class DownloadRefused(RuntimeError):
    """A cell asked to download a file: the message names the file and the folder to put it in."""


@dataclass
class NotebookSession:
    """What :func:`load` changed in one shell, so that :func:`unload` can put it back."""

    shell: Any
    installation: install.Installation
    undo: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        """Undo every change, last first. TensorFlow stays in graph mode once a cell has built a
        graph (its eager mode can only start with the program); a ``compat:`` note says so."""
        while self.undo:
            _undo_step(self.undo.pop())
        self.installation.uninstall()


def _undo_step(step: Callable[[], None]) -> None:
    """Run one undo of :func:`load`. Switching TensorFlow back to version 2 behaviour fails once a
    cell has built a graph (``tf.enable_eager_execution must be called at program startup``); TensorFlow
    is then put back wholly into its version 1 behaviour, since the failed switch left it half-way."""
    try:
        step()
    except ValueError as exc:
        if "program startup" not in str(exc):
            raise
        _stay_in_graph_mode()


def _stay_in_graph_mode() -> None:
    import tensorflow as tf
    tf.compat.v1.disable_v2_behavior()
    _note("TensorFlow stays in graph mode (TensorFlow 1 behaviour) in this kernel: a cell built a graph, "
          "and eager mode can only start with the program; restart the kernel for TensorFlow 2")


def _note(message: str) -> None:
    print(f"{_PREFIX} {message}", file=sys.stderr)


def _notebook_scope(folder: Path) -> rewrite.LocalScope:
    """The notebook's own code: its folder and the ``PYTHONPATH`` folders."""
    return rewrite.LocalScope(folder, folders=local_imports.pythonpath_folders())


def _prepare_tensorflow(session: NotebookSession) -> None:
    """The surfaces' hooks around TensorFlow in graph mode (Keras 2, NumPy booleans, TF1 semantics, NumPy 1
    printing, ...), with AutoGraph kept off the cells' and local modules' functions."""
    if "tensorflow" in sys.modules and legacy_keras.ENV_VAR not in os.environ:
        _note("TensorFlow was imported before `%load_ext compat`: tf.layers and tf.nn.rnn_cell "
              "get Keras 3; restart the kernel and load the extension first for Keras 2")
    context = session.installation.context
    user_module = session.shell.user_module
    owns_file = context.owns_module
    context.owns_module = lambda module: module is user_module or owns_file(module)
    tf = install.prepare_tensorflow(session.installation)
    session.undo.append(tf.compat.v1.enable_v2_behavior)


def _patch_compiler(session: NotebookSession) -> None:
    """Every cell is parsed as the user's TF1 code (see :func:`compat.notebook.cells.parse_cell`)."""
    compiler = session.shell.compile
    original = compiler.ast_parse
    helpers = session.installation.helpers
    history = cells.CellHistory()

    def ast_parse(source: str, filename: str = "<unknown>", symbol: str = "exec") -> ast.AST:
        if symbol != "exec":
            return original(source, filename, symbol)
        try:
            parsed = cells.parse_cell(source, filename, history=history)
        except SyntaxError:
            original(source, filename, symbol)  # valid for IPython (top-level await): its tree, unrewritten
            raise
        session.shell.user_ns.update(rewrite.injected_globals(parsed.result, helpers))
        return parsed.tree

    compiler.ast_parse = ast_parse
    session.undo.append(lambda: compiler.__dict__.pop("ast_parse", None))


def refuse_download(command: str, folder: Path) -> bool:
    """Handle a shell command that downloads: True (skip it) if its file is already in ``folder``.

    Raises:
        DownloadRefused: the file is missing; the message names it, the URL and ``folder``.
    """
    download = cells.download_in(command)
    if download is None:
        return False
    target = folder / download.filename
    if target.exists():
        _note(f"not downloading {download.url}: {download.filename} is already in {folder}")
        return True
    raise DownloadRefused(
        f"this notebook downloads {download.url} ({command.strip()!r}); the compat runner does not "
        f"download: put the file {download.filename} in {folder} (fetch it yourself from that URL), "
        f"then run the cell again")


def _patch_shell_escapes(session: NotebookSession) -> None:
    """``!cmd`` and ``x = !cmd``: downloads refused (or skipped when done), everything else as IPython runs it."""
    shell = session.shell
    system, getoutput = shell.system, shell.getoutput

    def checked_system(cmd: str) -> Any:
        if refuse_download(cmd, Path.cwd()):
            return None
        return system(cmd)

    def checked_getoutput(cmd: str, *args: Any, **kwargs: Any) -> Any:
        if refuse_download(cmd, Path.cwd()):
            return getoutput("true", *args, **kwargs)
        return getoutput(cmd, *args, **kwargs)

    shell.system, shell.getoutput = checked_system, checked_getoutput

    def undo() -> None:
        shell.__dict__.pop("system", None)
        shell.__dict__.pop("getoutput", None)
    session.undo.append(undo)


def tensorflow_version(line: str) -> None:
    """``%tensorflow_version 1.x`` (Colab): accepted with a note; this session already is TensorFlow 1."""
    import tensorflow as tf
    wanted = line.strip() or "1.x"
    if wanted.startswith("1"):
        _note(f"%tensorflow_version {wanted}: accepted; `import tensorflow as tf` gives the TensorFlow 1 "
              f"namespace (tf.compat.v1 on TensorFlow {tf.__version__}) in this session")
    else:
        _note(f"%tensorflow_version {wanted}: ignored; this session runs cells as TensorFlow 1 code "
              f"(`%unload_ext compat` for TensorFlow {tf.__version__} as it is)")


def _register_magics(session: NotebookSession) -> None:
    shell = session.shell
    shell.register_magic_function(tensorflow_version, "line", "tensorflow_version")

    def undo() -> None:
        shell.magics_manager.magics["line"].pop("tensorflow_version", None)
    session.undo.append(undo)


def load(shell: Any) -> None:
    """Install the compat runner into ``shell`` (an IPython ``InteractiveShell``) for its later cells."""
    if getattr(shell, _SESSION_ATTR, None) is not None:
        return
    folder = Path.cwd().resolve()
    installation = install.install(folder, _notebook_scope(folder), None)
    session = NotebookSession(shell=shell, installation=installation)
    try:
        _prepare_tensorflow(session)
        _patch_compiler(session)
        _patch_shell_escapes(session)
        _register_magics(session)
    except BaseException:
        session.close()
        raise
    setattr(shell, _SESSION_ATTR, session)


def unload(shell: Any) -> None:
    """Undo :func:`load` in ``shell`` (nothing if it is not loaded)."""
    session = getattr(shell, _SESSION_ATTR, None)
    if session is None:
        return
    session.close()
    setattr(shell, _SESSION_ATTR, None)
