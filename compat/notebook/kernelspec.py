"""The ``tf1-compat`` Jupyter kernel spec: install, uninstall, and an uninstalled spec for ``compat run``.

``python -m compat kernel install [--user | --prefix DIR | --sys-prefix]``
writes ``kernels/tf1-compat/kernel.json`` (display name "Python 3 (TensorFlow 1
compat)") where Jupyter looks for kernels; the kernel is this interpreter running
:mod:`compat.notebook.kernel`. ``compat run NB.ipynb`` needs no installation: it
hands nbclient :class:`ThisInterpreterSpecs`, which knows the spec in memory.
"""
from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from jupyter_client.kernelspec import KernelSpec, KernelSpecManager, NoSuchKernel

__all__ = [
    "DISPLAY_NAME",
    "KERNEL_NAME",
    "ThisInterpreterSpecs",
    "install",
    "kernel_dict",
    "uninstall",
]

KERNEL_NAME = "tf1-compat"
DISPLAY_NAME = "Python 3 (TensorFlow 1 compat)"


def kernel_dict(python: str | None = None) -> dict[str, Any]:
    """The ``kernel.json`` content: ``python`` (default: this interpreter) running the compat kernel."""
    return {
        "argv": [python or sys.executable, "-m", "compat.notebook.kernel", "-f", "{connection_file}"],
        "display_name": DISPLAY_NAME,
        "language": "python",
        "metadata": {"debugger": False},
    }


def _resources() -> Path | None:
    """ipykernel's logo files, shown by the front ends next to the kernel's name."""
    try:
        from ipykernel.kernelspec import RESOURCES
    except ImportError:
        return None
    return Path(RESOURCES)


def install(user: bool = False, prefix: str | None = None) -> Path:
    """Write the kernel spec (for the user, under ``prefix``, or system-wide); returns its folder.

    Raises:
        OSError: the kernels folder cannot be written (system-wide without rights: use ``--user``).
    """
    with tempfile.TemporaryDirectory() as staging:
        folder = Path(staging) / KERNEL_NAME
        folder.mkdir()
        resources = _resources()
        if resources is not None:
            for logo in resources.glob("logo-*"):
                shutil.copy(logo, folder / logo.name)
        (folder / "kernel.json").write_text(json.dumps(kernel_dict(), indent=1) + "\n", encoding="utf-8")
        destination = KernelSpecManager().install_kernel_spec(str(folder), KERNEL_NAME, user=user,
                                                              prefix=prefix)
    return Path(destination)


def _kernels_folder(user: bool, prefix: str | None) -> Path | None:
    """Where :func:`install` writes with these options; None for the system-wide default search."""
    if prefix is not None:
        return Path(prefix) / "share" / "jupyter" / "kernels"
    if user:
        from jupyter_core.paths import jupyter_data_dir
        return Path(jupyter_data_dir()) / "kernels"
    return None


def uninstall(user: bool = False, prefix: str | None = None) -> Path:
    """Remove the installed kernel spec; returns the folder removed.

    Raises:
        FileNotFoundError: no ``tf1-compat`` kernel is installed there.
    """
    folder = _kernels_folder(user, prefix)
    if folder is not None:
        target = folder / KERNEL_NAME
        if not (target / "kernel.json").is_file():
            raise FileNotFoundError(f"no {KERNEL_NAME} kernel in {folder}")
        shutil.rmtree(target)
        return target
    try:
        return Path(KernelSpecManager().remove_kernel_spec(KERNEL_NAME))
    except NoSuchKernel:
        raise FileNotFoundError(f"no {KERNEL_NAME} kernel is installed (jupyter kernelspec list)") from None


class ThisInterpreterSpecs(KernelSpecManager):
    """Resolves ``tf1-compat`` to :func:`kernel_dict` on this interpreter, installed or not."""

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        """The in-memory spec for ``tf1-compat``; any other name as Jupyter finds it."""
        if kernel_name == KERNEL_NAME:
            resources = _resources()
            return self.kernel_spec_class(resource_dir=str(resources or ""), **kernel_dict())
        return super().get_kernel_spec(kernel_name)
