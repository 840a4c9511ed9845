"""Whether a call into a library comes from the script's own files, and not from another library.

An old default (h5py 2's file mode, imageio 2.27's GIF frame time in seconds)
or an old calling convention (librosa 0.8's positional arguments) must change
the script's calls only: TensorFlow, Keras or scikit-image call the same
functions with today's meaning. A wrapper asks :func:`called_from_script`
about its caller's frame. While the runner runs a script, the surfaces'
``before_tensorflow`` hook (:func:`remember_scope`) hands over the run's
:class:`compat.runner.rewrite.LocalScope`; without one (a unit test applying a
table directly) a file counts as the script's when it lies outside the
installed packages, Python's standard library and this project's packages.
The modules of an installed TF1-era library the runner serves as TF1 code
(:mod:`compat.tf1_libraries`) count as the script's too: they were written
against the same old defaults (the run's ``Context.owns_module`` says which).
Imports the standard library only.
"""
from __future__ import annotations

import functools
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["called_from_script", "remember_scope", "run_option"]

#: The contexts of the runs in progress, latest last (the runner runs one script per process; a list keeps
#: undo simple): their ``scope``, ``options`` and ``owns_module`` are read when asked (a surface may widen
#: ``owns_module`` after this hook ran).
_CONTEXTS: list[Any] = []

#: Path parts that mark an installed package.
_INSTALLED_PARTS = frozenset({"site-packages", "dist-packages"})


def _library_folders() -> tuple[Path, ...]:
    """Python's standard library and this project's two packages, resolved."""
    here = Path(__file__).resolve().parent.parent  # compat/
    folders = [here, here.parent / "tf1_pipelines"]
    for key in ("stdlib", "platstdlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            folders.append(Path(path).resolve())
    return tuple(folders)


_LIBRARY_FOLDERS = _library_folders()


def remember_scope(context: Any) -> Callable[[], None]:
    """A surface's ``before_tensorflow`` hook: keep the run's scope for :func:`called_from_script`
    and its options for :func:`run_option`; returns its undo."""
    _CONTEXTS.append(context)

    def undo() -> None:
        if context in _CONTEXTS:
            _CONTEXTS.remove(context)
    return undo


def run_option(name: str, default: Any = None) -> Any:
    """The option ``name`` of the run in progress (``allow_pickle`` for ``--allow-pickle``), else ``default``."""
    options = (getattr(_CONTEXTS[-1], "options", None) or {}) if _CONTEXTS else {}
    return options.get(name, default)


@functools.lru_cache(maxsize=4096)
def _is_script_file_in(filename: str, scope: Any) -> bool:
    """:func:`_is_script_file` for one scope (None: no run in progress); cached, as a wrapper asks per call."""
    if filename.startswith("<") or Path(filename).parent.name.startswith("ipykernel_"):
        return True  # code compiled from a string (exec of the script's text), a notebook cell
    if scope is not None:
        return bool(scope.contains(filename))
    path = Path(filename)
    if _INSTALLED_PARTS.intersection(path.parts):
        return False
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):
        return False
    return not any(resolved.is_relative_to(folder) for folder in _LIBRARY_FOLDERS)


def _is_script_file(filename: str) -> bool:
    """True if ``filename`` is one of the script's own files (the run's scope, else outside the libraries)."""
    scopes = (getattr(context, "scope", None) for context in reversed(_CONTEXTS))
    return _is_script_file_in(filename, next((scope for scope in scopes if scope is not None), None))


def called_from_script(depth: int = 1) -> bool:
    """True if the frame ``depth`` levels above the caller of this function runs the script's own code
    (``depth=1``: the caller of the wrapper that asks)."""
    try:
        frame = sys._getframe(depth + 1)
    except ValueError:
        return False
    return _is_script_file(frame.f_code.co_filename) or _served_module(frame.f_globals.get("__name__"))


def _served_module(name: Any) -> bool:
    """True if module ``name`` is owned by the run in progress (a served TF1-era library's module)."""
    if not _CONTEXTS or not isinstance(name, str):
        return False
    module = sys.modules.get(name)
    owns = getattr(_CONTEXTS[-1], "owns_module", None)
    return module is not None and owns is not None and bool(owns(module))
