"""``python -m compat run NOTEBOOK.ipynb [--output EXECUTED.ipynb] [--timeout SECONDS]``.

The notebook is read, never written: a copy runs top to bottom in a fresh
``tf1-compat`` kernel (:mod:`compat.notebook.kernel`, on this interpreter,
installed or not) with the notebook's folder as working directory, and the copy
with its outputs (text, ``%matplotlib inline`` images, display data) is written
to ``--output`` (default: ``NAME.compat.ipynb`` next to the notebook). Each
cell's text output is echoed as it finishes, so a run reads like a script's.

Exit status: 0 when every cell ran; 1 when a cell raised (the message names the
cell, its ``In [n]`` and the error; the traceback shows the cell's own line) or
ran longer than ``--timeout`` seconds, or the kernel died; 2 for bad usage.
"""
from __future__ import annotations

import copy
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compat.rules import EXIT_FAILURE, EXIT_USAGE
from compat.runner import hints

__all__ = ["CellFailure", "default_output", "run_notebook"]

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
#: How long the kernel may take to start and answer (TensorFlow is imported by then), in seconds.
STARTUP_TIMEOUT_S = 120


@dataclass(frozen=True)
class CellFailure:
    """Why a run stopped: the cell (1-based position in the notebook), its ``In [n]`` and the error."""

    position: int
    execution_count: int | None
    ename: str
    evalue: str
    traceback: tuple[str, ...] = ()

    def describe(self) -> str:
        """``cell 4 (In [3])``."""
        count = f" (In [{self.execution_count}])" if self.execution_count is not None else ""
        return f"cell {self.position}{count}"


def default_output(notebook: Path) -> Path:
    """Where the executed copy goes by default: ``NAME.compat.ipynb`` next to the notebook."""
    return notebook.with_name(notebook.stem + ".compat.ipynb")


def _error(message: str) -> None:
    print(f"compat: {message}", file=sys.stderr)


def _plain(text: Any) -> str:
    joined = "".join(text) if isinstance(text, list) else str(text)
    return _ANSI.sub("", joined)


def echo_outputs(cell: Any, **_: Any) -> None:
    """Print a finished cell's text outputs (stdout, stderr, results, display text) as a script would."""
    if cell.get("cell_type") != "code":
        return
    for output in cell.get("outputs", []):
        kind = output.get("output_type")
        if kind == "stream":
            stream = sys.stderr if output.get("name") == "stderr" else sys.stdout
            stream.write(_plain(output.get("text", "")))
        elif kind in ("execute_result", "display_data"):
            data = output.get("data", {})
            if "text/plain" in data:
                print(_plain(data["text/plain"]))
    sys.stdout.flush()
    sys.stderr.flush()


def _kernel_manager_class() -> type:
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import default

    from compat.notebook.kernelspec import ThisInterpreterSpecs

    class ThisInterpreterKernelManager(AsyncKernelManager):
        """Finds ``tf1-compat`` on this interpreter whether or not it is installed."""

        @default("kernel_spec_manager")
        def _kernel_spec_manager_default(self) -> ThisInterpreterSpecs:
            return ThisInterpreterSpecs(data_dir=self.data_dir)

    return ThisInterpreterKernelManager


def _kernel_environment() -> dict[str, str]:
    """This process's environment, with the inline plotting backend and TensorFlow's C++ notes quietened."""
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)  # ipykernel then selects the inline backend, as Jupyter does
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env


def _failure(notebook: Any) -> CellFailure | None:
    for position, cell in enumerate(notebook.cells, start=1):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                return CellFailure(position, cell.get("execution_count"), output.get("ename", "Error"),
                                   _plain(output.get("evalue", "")),
                                   tuple(_plain(line) for line in output.get("traceback", [])))
    return None


def _write(notebook: Any, output: Path) -> None:
    import nbformat
    partial = output.with_name(output.name + ".partial")
    nbformat.write(notebook, str(partial))
    os.replace(partial, output)


def _hint(failure: CellFailure) -> str:
    if failure.ename == "StdinNotImplementedError":
        return (f"\n    {failure.describe()} asks for input(): a notebook run has no one to type the answer; "
                f"set the value in the cell instead")
    missing = re.fullmatch(r"No module named '([\w.]+)'", failure.evalue.strip())
    if failure.ename == "ModuleNotFoundError" and missing is not None:
        advice = hints.missing_package_hint(missing.group(1))
        if advice is not None:
            return f"\n    {advice}"
    return ""


def execute_notebook(notebook: Any, folder: Path, timeout: float | None = None) -> CellFailure | None:
    """Run every cell of ``notebook`` (in place) in a ``tf1-compat`` kernel working in ``folder``.

    Returns None when every cell ran, else the failure (the notebook keeps the outputs
    up to and including the failing cell).

    Raises:
        TimeoutError: a cell ran longer than ``timeout`` seconds (nbclient's ``CellTimeoutError``).
        RuntimeError: the kernel died (nbclient's ``DeadKernelError``).
    """
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    from compat.notebook.kernelspec import DISPLAY_NAME, KERNEL_NAME
    started: list[int] = [0]  # the 1-based position of the cell running now, for a timeout message

    def note_start(cell: Any, cell_index: int, **_: Any) -> None:
        started[0] = cell_index + 1

    notebook.metadata["kernelspec"] = {"name": KERNEL_NAME, "display_name": DISPLAY_NAME, "language": "python"}
    client = NotebookClient(notebook, timeout=timeout, startup_timeout=STARTUP_TIMEOUT_S,
                            kernel_name=KERNEL_NAME, kernel_manager_class=_kernel_manager_class(),
                            resources={"metadata": {"path": str(folder)}}, allow_errors=False,
                            record_timing=False, on_cell_executed=echo_outputs, on_cell_start=note_start,
                            # the kernel's own note about unencrypted local TCP says nothing about the notebook
                            extra_arguments=["--IPKernelApp.log_level=ERROR"])
    try:
        client.execute(env=_kernel_environment())
    except TimeoutError as exc:
        raise TimeoutError(f"cell {started[0]} ran longer than {timeout:g} seconds" if timeout
                           else str(exc)) from exc
    except CellExecutionError:
        failure = _failure(notebook)
        if failure is None:
            raise
        return failure
    return None


def run_notebook(path: str, output: str | None = None, timeout: float | None = None) -> int:
    """``compat run NOTEBOOK.ipynb``: execute a copy, write it to ``output``; the exit status."""
    source = Path(path)
    if not source.is_file():
        _error(f"cannot run {path}: no such file")
        return EXIT_USAGE
    target = Path(output) if output is not None else default_output(source)
    if target.resolve() == source.resolve():
        _error(f"--output {output} is the notebook itself; the original is never modified: name another file")
        return EXIT_USAGE
    import nbformat
    try:
        original = nbformat.reads(source.read_text(encoding="utf-8"), as_version=4)
    except Exception as exc:  # nbformat raises JSON, validation and version errors of several kinds
        _error(f"cannot read {path} as a notebook: {exc}")
        return EXIT_USAGE
    notebook = copy.deepcopy(original)
    status = 0
    try:
        failure = execute_notebook(notebook, source.resolve().parent, timeout)
    except TimeoutError as exc:  # names the cell
        _error(f"{path}: {exc} (--timeout)")
        failure, status = None, EXIT_FAILURE
    except RuntimeError as exc:  # the kernel died (DeadKernelError) or could not start
        _error(f"{path}: the kernel stopped: {exc}")
        failure, status = None, EXIT_FAILURE
    if failure is not None:
        print("\n".join(failure.traceback), file=sys.stderr)  # "Cell In[n], line k": the cell's own line
        _error(f"{path}: {failure.describe()} raised {failure.ename}: {failure.evalue}{_hint(failure)}")
        status = EXIT_FAILURE
    _write(notebook, target)
    print(f"compat: wrote the executed notebook to {target}", file=sys.stderr)
    return status
