"""``python -m compat run NB.ipynb`` on a notebook that fails, and ``%load_ext compat`` in IPython.

A failing run must exit 1 naming the cell, show the cell's own line in the
traceback, keep the outputs of the cells before it, and leave the original file
byte-identical. The extension is loaded into a plain IPython shell in a
subprocess: downloads refused with the file and folder named, ``input()`` under a
run, ``%tensorflow_version``, ``%unload_ext compat``.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest
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
