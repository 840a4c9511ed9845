"""Sync and execute the teaching notebooks.

Every notebook is a pair: ``name.py``, a jupytext "percent" script, is the source
of truth (readable, diffable); ``name.ipynb`` is its twin with the outputs of a
real run. ``python notebooks/build.py`` does, for every ``notebooks/*.py``
except this file:

1. read the script and write it back in jupytext's canonical form, with the
   pairing header (``formats: ipynb,py:percent``) and the ``python3`` kernel;
2. execute it top to bottom at full size, in a fresh kernel on the interpreter
   that runs this script, with the ``notebooks/`` folder as working directory;
3. write the cells with their outputs into ``name.ipynb``.

By default (``make notebooks``) the tracked files are left byte-identical: the
executed notebooks go to ``notebooks/executed/`` (not tracked) and the scripts are
not rewritten. ``--in-place`` (``make notebooks-update``) does steps 1 and 3 on the
tracked files themselves, as a maintainer does before a commit.

``python notebooks/build.py div2k_questions`` builds only the named notebooks.
A cell that raises stops the build of that notebook and leaves its ``.ipynb``
as it was. The tests import :func:`notebook_scripts`, :func:`read_script` and
:func:`execute` from here and run the same notebooks with small sizes
(``TF1P_NOTEBOOK_SMALL=1``).
"""
from __future__ import annotations

import argparse
import copy
import os
import sys
import time
from pathlib import Path

import jupytext
import nbformat
from ipykernel.kernelspec import RESOURCES, get_kernel_dict
from jupyter_client.kernelspec import NATIVE_KERNEL_NAME, KernelSpec, KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from traitlets import default

HERE = Path(__file__).resolve().parent
SMALL_ENV = "TF1P_NOTEBOOK_SMALL"
TEXT_FORMAT = "py:percent"
PAIRED_FORMATS = "ipynb,py:percent"
KERNELSPEC = {"name": NATIVE_KERNEL_NAME, "display_name": "Python 3 (ipykernel)",
              "language": "python"}
FULL_CELL_TIMEOUT_S = 900
#: Where executed copies go unless ``--in-place`` is given (ignored by git).
EXECUTED_DIR = HERE / "executed"


class _ThisInterpreterSpecs(KernelSpecManager):
    """Resolves ``python3`` to ipykernel's own spec, i.e. the interpreter running
    this process, even when another ``python3`` kernel is installed for the user."""

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        if kernel_name == NATIVE_KERNEL_NAME:
            return self.kernel_spec_class(resource_dir=RESOURCES, **get_kernel_dict())
        return super().get_kernel_spec(kernel_name)


class ThisInterpreterKernelManager(AsyncKernelManager):
    """The kernel manager nbclient uses: ``python3`` runs on ``sys.executable``."""

    @default("kernel_spec_manager")
    def _kernel_spec_manager_default(self) -> KernelSpecManager:
        return _ThisInterpreterSpecs(data_dir=self.data_dir)


def notebook_scripts(folder: Path = HERE) -> list[Path]:
    """Every notebook script in ``folder``: all ``*.py`` files except this one."""
    return sorted(path for path in folder.glob("*.py") if path.name != Path(__file__).name)


def read_script(path: Path) -> nbformat.NotebookNode:
    """The notebook of a percent script, with the pairing header and the kernel set."""
    notebook = jupytext.read(path, fmt=TEXT_FORMAT)
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)
    notebook.metadata.setdefault("jupytext", {})["formats"] = PAIRED_FORMATS
    return notebook


def kernel_environment(small: bool) -> dict[str, str]:
    """The environment of the kernel: ours, with the size switch set or cleared,
    TensorFlow's C++ logging quietened and the inline plotting backend."""
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)  # let ipykernel pick the inline backend
    if small:
        env[SMALL_ENV] = "1"
    else:
        env.pop(SMALL_ENV, None)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env


def execute(notebook: nbformat.NotebookNode, cwd: Path = HERE, small: bool = False,
            cell_timeout: float = FULL_CELL_TIMEOUT_S) -> nbformat.NotebookNode:
    """Run every cell of ``notebook`` in place, in a fresh ``python3`` kernel with
    working directory ``cwd``; returns the notebook. A cell that raises raises
    ``nbclient.exceptions.CellExecutionError`` (naming the cell and its traceback);
    a cell running longer than ``cell_timeout`` seconds raises a timeout error."""
    client = NotebookClient(notebook, timeout=cell_timeout, kernel_name=NATIVE_KERNEL_NAME,
                            kernel_manager_class=ThisInterpreterKernelManager,
                            resources={"metadata": {"path": str(cwd)}}, record_timing=False,
                            extra_arguments=["--IPKernelApp.capture_fd_output=False"])
    client.execute(env=kernel_environment(small))
    return notebook


def build(script: Path, in_place: bool = False) -> tuple[Path, float]:
    """Execute ``script``; returns where the executed notebook went and the run time in seconds.

    ``in_place``: rewrite the script in canonical form and write its tracked ``.ipynb``
    twin; otherwise the executed copy goes to :data:`EXECUTED_DIR` and nothing tracked changes.
    """
    notebook = read_script(script)
    text = jupytext.writes(notebook, fmt=TEXT_FORMAT)
    if in_place and script.read_text(encoding="utf-8") != text:
        script.write_text(text, encoding="utf-8")
        print(f"  rewrote {script.name} in canonical form")
    start = time.perf_counter()
    executed = execute(copy.deepcopy(notebook), cwd=script.parent, small=False)
    elapsed = time.perf_counter() - start
    if in_place:
        twin = script.with_suffix(".ipynb")
    else:
        EXECUTED_DIR.mkdir(exist_ok=True)
        twin = EXECUTED_DIR / script.with_suffix(".ipynb").name
    partial = twin.with_name(twin.name + ".partial")
    nbformat.write(executed, partial)
    os.replace(partial, twin)
    return twin, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="notebook names (default: all)")
    parser.add_argument("--in-place", action="store_true",
                        help="rewrite the tracked scripts and .ipynb twins (default: write executed "
                             "copies to notebooks/executed/ and leave tracked files as they are)")
    args = parser.parse_args(argv)
    scripts = notebook_scripts()
    if args.names:
        wanted = {Path(name).stem for name in args.names}
        unknown = wanted - {script.stem for script in scripts}
        if unknown:
            parser.error(f"no notebook named {sorted(unknown)}; have "
                         f"{[script.stem for script in scripts]}")
        scripts = [script for script in scripts if script.stem in wanted]
    for script in scripts:
        print(f"building {script.stem} ...", flush=True)
        written, elapsed = build(script, in_place=args.in_place)
        print(f"  wrote {written.relative_to(HERE)} ({elapsed:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
