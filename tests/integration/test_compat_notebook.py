"""``python -m compat run NB.ipynb`` on a notebook that fails, and ``%load_ext compat`` in IPython.

A failing run must exit 1 naming the cell, show the cell's own line in the
traceback, keep the outputs of the cells before it, and leave the original file
byte-identical. The extension is loaded into a plain IPython shell in a
subprocess: downloads refused with the file and folder named, ``input()`` under a
run, ``%tensorflow_version``, ``%unload_ext compat`` (also after a graph cell).
A bad ``--output`` or ``--timeout`` is refused before any cell runs; a user's own
``*.partial`` file is never touched; ``kernel install`` refuses an empty or
unwritable ``--prefix`` (read-only also for root, see ``helpers.read_only``).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest
from helpers.read_only import read_only
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

TIMEOUT = 180


def env() -> dict[str, str]:
    environ = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    environ.pop("MPLBACKEND", None)
    return environ


def write_notebook(path: Path, sources: list[str]) -> Path:
    nbformat.write(new_notebook(cells=[new_markdown_cell("# An old notebook"),
                                       *(new_code_cell(source) for source in sources)]), path)
    return path


def compat(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "compat", *args], cwd=cwd, env=env(), capture_output=True,
                          text=True, timeout=TIMEOUT)


@pytest.mark.timeout(TIMEOUT + 30)
def test_failing_cell_is_named_and_original_untouched(tmp_path: Path) -> None:
    (tmp_path / "present.bin").write_bytes(b"downloaded earlier")
    notebook = write_notebook(tmp_path / "old.ipynb", [
        "%tensorflow_version 1.x",
        "import numpy as np\nimport tensorflow as tf",
        "print 'py2', 7 / 2",
        "!echo shell-ok\n!wget -q http://example.org/files/present.bin",
        "x = np.float(2) * 3\nprint(x)",
        "a = 1\nprint a\nb = a / 0",
        "print('after')",
    ])
    before = notebook.read_bytes()
    result = compat("run", str(notebook), cwd=tmp_path)
    assert result.returncode == 1, result.stderr[-3000:]
    assert notebook.read_bytes() == before
    assert "cell 7 (In [6]) raised ZeroDivisionError" in result.stderr
    assert "Cell In[6], line 3" in result.stderr  # the cell's own line, Python 2 cell included
    assert "%tensorflow_version 1.x: accepted" in result.stderr
    assert "not downloading http://example.org/files/present.bin" in result.stderr
    assert result.stdout.splitlines()[:4] == ["py2 3", "shell-ok", "6.0", "1"]
    executed = nbformat.read(tmp_path / "old.compat.ipynb", as_version=4)
    assert [cell.get("execution_count") for cell in executed.cells[1:]] == [1, 2, 3, 4, 5, 6, None]
    assert "after" not in result.stdout


@pytest.mark.timeout(TIMEOUT + 30)
def test_input_under_a_run_names_the_cell(tmp_path: Path) -> None:
    notebook = write_notebook(tmp_path / "ask.ipynb", ["n = 3", "name = raw_input('Your name? ')\nprint name"])
    result = compat("run", str(notebook), "--output", str(tmp_path / "done.ipynb"), cwd=tmp_path)
    assert result.returncode == 1
    assert "cell 3 (In [2]) raised StdinNotImplementedError" in result.stderr
    assert "cell 3 (In [2]) asks for input()" in result.stderr
    assert (tmp_path / "done.ipynb").is_file()


SHELL_SCRIPT = textwrap.dedent("""\
    from IPython.testing.globalipapp import start_ipython
    shell = start_ipython()
    def run(cell):
        result = shell.run_cell(cell)
        error = result.error_in_exec or result.error_before_exec
        print("RESULT", type(error).__name__ if error else "ok", str(error) if error else "", flush=True)
    shell.run_line_magic("load_ext", "compat")
    run("import tensorflow as tf\\nprint tf.executing_eagerly()")
    run("!wget http://example.org/data/notMNIST_small.tar.gz")
    run("%tensorflow_version 2.x")
    shell.run_line_magic("unload_ext", "compat")
    run("import tensorflow as tf2\\nprint(tf2.executing_eagerly())")
    run("print 'py2 again'")
    """)


@pytest.mark.timeout(TIMEOUT + 30)
def test_load_ext_and_unload_ext(tmp_path: Path) -> None:
    script = tmp_path / "shell.py"
    script.write_text(SHELL_SCRIPT)
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env(), capture_output=True,
                            text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = [line for line in result.stdout.splitlines() if line.startswith(("RESULT", "True", "False"))]
    assert lines[0:2] == ["False", "RESULT ok "]  # graph mode under the extension
    assert lines[2].startswith("RESULT DownloadRefused")
    assert f"put the file notMNIST_small.tar.gz in {tmp_path.resolve()}" in lines[2]
    assert lines[3] == "RESULT ok "
    assert "%tensorflow_version 2.x: ignored" in result.stderr
    assert lines[4:6] == ["True", "RESULT ok "]  # unloaded: TensorFlow 2's eager mode again
    assert lines[6].startswith("RESULT SyntaxError")  # and Python 2 cells no longer translated


# ------------------------------------------------ bad --output / --timeout: refused before any cell
RAN = "open('ran.txt', 'w').write('the first cell ran')"


def _partials(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*.partial"))


@pytest.mark.timeout(120)
def test_bad_output_and_timeout_are_refused_before_the_first_cell(tmp_path: Path) -> None:
    notebook = write_notebook(tmp_path / "nb.ipynb", [RAN])
    (tmp_path / "outdir").mkdir()
    (tmp_path / "locked").mkdir()
    cases = [
        (["--output", "missing/out.ipynb"], "--output missing/out.ipynb: its folder missing does not exist"),
        (["--output", "outdir"], "--output outdir is a folder: name a file, e.g. outdir/nb.compat.ipynb"),
        (["--output", "nb.ipynb"], "--output nb.ipynb is the notebook itself"),
        (["--timeout", "nan"], "--timeout nan: give a finite number of seconds > 0"),
        (["--timeout", "inf"], "--timeout inf: give a finite number of seconds > 0"),
        (["--timeout", "-2.5"], "--timeout -2.5: give a finite number of seconds > 0"),
    ]
    for options, message in cases:
        result = compat("run", "nb.ipynb", *options, cwd=tmp_path)
        assert result.returncode == 2, (options, result.stderr)
        assert message in result.stderr and "Traceback" not in result.stderr, (options, result.stderr)
    with read_only(tmp_path / "locked") as prefix:
        result = subprocess.run([*prefix, sys.executable, "-m", "compat", "run", "nb.ipynb", "--output",
                                 "locked/out.ipynb"], cwd=tmp_path, env=env(), capture_output=True, text=True,
                                timeout=TIMEOUT)
    assert result.returncode == 2, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and "--output locked/out.ipynb: cannot write in locked: " in errors[0], errors
    assert not (tmp_path / "ran.txt").exists(), "a cell ran before the options were checked"
    assert _partials(tmp_path) == [] and os.listdir(tmp_path / "locked") == []
    assert notebook.is_file() and sorted(os.listdir(tmp_path)) == ["locked", "nb.ipynb", "outdir"]


@pytest.mark.timeout(TIMEOUT + 30)
def test_a_fractional_timeout_runs_and_a_users_partial_file_is_kept(tmp_path: Path) -> None:
    write_notebook(tmp_path / "nb.ipynb", [RAN, "print('done')"])
    users = tmp_path / "nb.compat.ipynb.partial"
    users.write_bytes(b"the user's own notes")
    result = compat("run", "nb.ipynb", "--timeout", "2.5", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines()[-1:] == ["done"]
    assert users.read_bytes() == b"the user's own notes"
    assert _partials(tmp_path) == [users.name]  # and no temporary file of the run left
    executed = nbformat.read(tmp_path / "nb.compat.ipynb", as_version=4)
    assert executed.cells[2].outputs[0]["text"] == "done\n"


@pytest.mark.timeout(TIMEOUT + 30)
def test_an_output_path_taken_while_the_cells_ran_leaves_no_temporary_file(tmp_path: Path) -> None:
    write_notebook(tmp_path / "nb.ipynb", ["import os\nos.mkdir('out.ipynb')  # the --output path, taken"])
    result = compat("run", "nb.ipynb", "--output", "out.ipynb", cwd=tmp_path)
    assert result.returncode == 1, result.stderr[-3000:]
    assert "compat: nb.ipynb: cannot write the executed notebook to out.ipynb: Is a directory" in result.stderr
    assert _partials(tmp_path) == [] and os.listdir(tmp_path / "out.ipynb") == []


@pytest.mark.timeout(TIMEOUT + 30)
def test_a_cell_over_a_fractional_timeout_is_stopped(tmp_path: Path) -> None:
    write_notebook(tmp_path / "slow.ipynb", ["import time\ntime.sleep(60)"])
    result = compat("run", "slow.ipynb", "--timeout", "0.5", cwd=tmp_path)
    assert result.returncode == 1, result.stderr[-3000:]
    # nbclient counts whole seconds: 0.5 waits 1 s (rounded up, never cut to 0, which means no limit)
    assert "cell 2 ran longer than 0.5 seconds (--timeout)" in result.stderr


UNLOAD_AFTER_GRAPH = textwrap.dedent("""\
    from IPython.testing.globalipapp import start_ipython
    shell = start_ipython()
    def run(cell):
        result = shell.run_cell(cell)
        error = result.error_in_exec or result.error_before_exec
        print("RESULT", type(error).__name__ if error else "ok", str(error) if error else "", flush=True)
    shell.run_line_magic("load_ext", "compat")
    run("import tensorflow as tf\\nx = tf.constant(3.0) * 2\\nprint tf.Session().run(x)")
    run("%unload_ext compat")
    run("import tensorflow as tf2\\nprint(tf2.executing_eagerly())")
    run("y = tf2.compat.v1.placeholder(tf2.float32) + 1\\n"
        "print(tf2.compat.v1.Session().run(y, {y.op.inputs[0]: 4.0}))")
    """)


@pytest.mark.timeout(TIMEOUT + 30)
def test_unload_ext_after_a_graph_cell_says_graph_mode_stays(tmp_path: Path) -> None:
    script = tmp_path / "shell.py"
    script.write_text(UNLOAD_AFTER_GRAPH)
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env(), capture_output=True,
                            text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert lines == ["6.0", "RESULT ok ", "RESULT ok ", "False", "RESULT ok ", "5.0", "RESULT ok "], lines
    assert ("compat: TensorFlow stays in graph mode (TensorFlow 1 behaviour) in this kernel" in result.stderr
            and "restart the kernel for TensorFlow 2" in result.stderr)


# ------------------------------------------------------------------------------ kernel install
@pytest.mark.timeout(120)
def test_kernel_install_refuses_an_empty_or_unwritable_prefix(tmp_path: Path) -> None:
    from jupyter_core.paths import SYSTEM_JUPYTER_PATH
    system_wide = [Path(folder) / "kernels" / "tf1-compat" for folder in SYSTEM_JUPYTER_PATH]
    before = [path.exists() for path in system_wide]
    for empty in ("", "  "):
        result = compat("kernel", "install", "--prefix", empty, cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert result.stderr.strip() == ("compat: kernel install: --prefix is empty; give a folder "
                                         "(a virtualenv's), or use --user or --sys-prefix")
    assert [path.exists() for path in system_wide] == before, "installed system-wide"
    prefix = tmp_path / "env"
    prefix.mkdir()
    with read_only(prefix) as command:
        result = subprocess.run([*command, sys.executable, "-m", "compat", "kernel", "install", "--prefix",
                                 str(prefix)], cwd=tmp_path, env=env(), capture_output=True, text=True,
                                timeout=TIMEOUT)
    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"compat: kernel install: cannot write {prefix}"), lines
    assert "Traceback" not in result.stderr and os.listdir(prefix) == []
    result = compat("kernel", "install", "--prefix", str(prefix), cwd=tmp_path)  # writable again: installs
    assert result.returncode == 0, result.stderr
    spec = prefix / "share" / "jupyter" / "kernels" / "tf1-compat" / "kernel.json"
    assert json.loads(spec.read_text())["argv"][1:3] == ["-m", "compat.notebook.kernel"]
