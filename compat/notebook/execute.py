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

Where the copy goes is checked before the first cell runs (an existing folder
that can be written, not a folder itself, not the notebook), so a long run never
ends with its outputs lost to a bad ``--output``. The copy is written to a
temporary file of this process's own (created new, so never a file of the
user's, such as their own ``X.compat.ipynb.partial``) and renamed over the
target when complete; the temporary file is removed if that fails.
"""
from __future__ import annotations

import copy
import math
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compat.rules import EXIT_FAILURE, EXIT_USAGE
from compat.runner import hints

__all__ = ["CellFailure", "default_output", "output_problem", "run_notebook", "timeout_problem"]

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


def _temporary_file(output: Path) -> Path:
    """A new, empty file next to ``output`` (created exclusively: never an existing file)."""
    handle, name = tempfile.mkstemp(prefix=f".{output.name}.", suffix=f".{os.getpid()}.partial",
                                    dir=output.parent)
    os.close(handle)
    return Path(name)


def output_problem(output: Path, source: Path) -> str | None:
    """Why the executed copy cannot be written to ``output``, or None: it is the
    notebook itself, or a folder, or its folder is missing or cannot be written
    (tried by creating and removing a temporary file there)."""
    if output.resolve() == source.resolve():
        return (f"--output {output} is the notebook itself; the original is never modified: "
                "name another file")
    if output.is_dir():
        return f"--output {output} is a folder: name a file, e.g. {output / default_output(source).name}"
    folder = output.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        return f"--output {output}: its folder {folder} {what}; create it first"
    try:
        _temporary_file(output).unlink()
    except OSError as exc:
        return f"--output {output}: cannot write in {folder}: {exc.strerror or exc}"
    return None


def _write(notebook: Any, output: Path) -> None:
    """Write ``notebook`` to ``output`` through a temporary file of its own, renamed when complete."""
    import nbformat
    partial = _temporary_file(output)
    try:
        with open(partial, "w", encoding="utf-8") as stream:
            nbformat.write(notebook, stream)
        os.replace(partial, output)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


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
    # nbclient takes whole seconds (an Integer trait): a fraction is rounded up, never cut to 0 (no limit)
    client = NotebookClient(notebook, timeout=None if timeout is None else math.ceil(timeout),
                            startup_timeout=STARTUP_TIMEOUT_S,
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
    problem = output_problem(target, source) or timeout_problem(timeout)
    if problem is not None:
        _error(f"cannot run {path}: {problem}")
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
    try:
        _write(notebook, target)
    except OSError as exc:  # the folder changed while the cells ran
        _error(f"{path}: cannot write the executed notebook to {target}: {exc.strerror or exc}")
        return EXIT_FAILURE
    print(f"compat: wrote the executed notebook to {target}", file=sys.stderr)
    return status


def timeout_problem(timeout: float | None) -> str | None:
    """Why ``timeout`` is no cell time limit (it must be None or seconds > 0, finite), or None."""
    if timeout is None or (math.isfinite(timeout) and timeout > 0):
        return None
    return f"--timeout {timeout}: give a finite number of seconds > 0"
