"""compat.notebook without a kernel: cells to Python, downloads in shell escapes, per-cell check,
the kernel spec's install and uninstall, and the command line's usage errors."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from compat.notebook import cells, check, cli, kernelspec


@pytest.mark.parametrize(("command", "url", "filename"), [
    ("wget http://yaroslavvb.com/upload/notMNIST/notMNIST_small.tar.gz",
     "http://yaroslavvb.com/upload/notMNIST/notMNIST_small.tar.gz", "notMNIST_small.tar.gz"),
    ("mkdir -p data && wget -q -O data.zip 'https://x.org/a/b?c=1'", "https://x.org/a/b?c=1", "data.zip"),
    ("curl -O https://x.org/text8.zip", "https://x.org/text8.zip", "text8.zip"),
    ("curl -L -o corpus.txt https://x.org/raw", "https://x.org/raw", "corpus.txt"),
    ("wget --output-document=w.npz https://x.org/weights", "https://x.org/weights", "w.npz"),
])
def test_download_in_names_url_and_file(command: str, url: str, filename: str) -> None:
    assert cells.download_in(command) == cells.Download(url=url, filename=filename)


@pytest.mark.parametrize("command", ["ls -l", "wget --help", "echo wget http://x", "pip install numpy"])
def test_download_in_ignores_other_commands(command: str) -> None:
    assert cells.download_in(command) is None


def test_python_source_turns_magics_into_calls_and_keeps_lines() -> None:
    source = cells.python_source("%matplotlib inline\n!ls data\nfiles = !ls\nprint x")
    lines = source.splitlines()
    assert lines[0] == "get_ipython().run_line_magic('matplotlib', 'inline')"
    assert lines[1] == "get_ipython().system('ls data')"
    assert lines[2] == "files = get_ipython().getoutput('ls')"
    assert lines[3] == "print x"  # left for the Python 2 translation


def _calls(tree: ast.Module) -> list[str]:
    return [ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.Call)]


def test_parse_cell_is_python2_per_cell_and_knows_earlier_imports() -> None:
    history = cells.CellHistory()
    first = cells.parse_cell("import numpy as np\nprint('a', 1)", "cell1", history=history)
    assert not first.python2
    second = cells.parse_cell("x = 7 / 2\nprint x, np.float(x)", "cell2", history=history)
    assert second.python2
    assert any(call.startswith("__compat__.div(7, 2)") for call in _calls(second.tree))  # Python 2 division
    text = ast.unparse(second.tree)
    assert "__compat__.numpy.float" in text  # np from the first cell is NumPy
    assert [node.lineno for node in second.tree.body] == [1, 2]  # the cell's own lines
    alone = cells.parse_cell("y = np.float(1)", "cell3")
    assert "__compat__.numpy" not in ast.unparse(alone.tree)  # no history: np is unknown


def _write(folder: Path, sources: list[str]) -> Path:
    notebook = new_notebook(cells=[new_markdown_cell("# old"), *(new_code_cell(s) for s in sources)])
    path = folder / "old.ipynb"
    nbformat.write(notebook, path)
    return path


def test_check_notebook_reports_per_cell(tmp_path: Path) -> None:
    path = _write(tmp_path, ["import tensorflow as tf\nimport numpy as np",
                             "x = tf.placeholder(tf.float32)\nprint x",
                             "!wget http://x.org/data/notMNIST_small.tar.gz\ny = np.float(2)"])
    report = check.check_notebook(path)
    found = {(f.path, f.line, f.status) for f in report.findings}
    assert ("cell 2", 1, "rewritten") in found  # import tensorflow as tf
    assert ("cell 3", 1, "compat.v1") in found  # tf.placeholder, with tf imported in cell 2
    assert ("cell 3", 2, "rewritten") in found  # print x
    assert ("cell 4", 1, "unsupported") in found  # the download: the file is missing
    assert ("cell 4", 2, "rewritten") in found  # np.float, np imported in cell 2
    assert not report.ok
    (tmp_path / "notMNIST_small.tar.gz").write_bytes(b"")
    assert check.check_notebook(path).ok  # now the download is skipped


def test_check_main_exit_statuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(tmp_path, ["print 'hello'"])
    assert check.main(str(good)) == 0
    assert "cell 2:1:0: rewritten" in capsys.readouterr().out
    assert check.main(str(tmp_path / "missing.ipynb")) == 2
    (tmp_path / "bad.ipynb").write_text("{not json")
    assert check.main(str(tmp_path / "bad.ipynb")) == 2


def test_kernel_install_and_uninstall_in_a_prefix(tmp_path: Path) -> None:
    folder = kernelspec.install(prefix=str(tmp_path))
    spec = json.loads((folder / "kernel.json").read_text())
    assert folder == tmp_path / "share" / "jupyter" / "kernels" / "tf1-compat"
    assert spec["display_name"] == "Python 3 (TensorFlow 1 compat)"
    assert spec["argv"][1:] == ["-m", "compat.notebook.kernel", "-f", "{connection_file}"]
    assert kernelspec.uninstall(prefix=str(tmp_path)) == folder
    assert not folder.exists()
    with pytest.raises(FileNotFoundError, match="no tf1-compat kernel"):
        kernelspec.uninstall(prefix=str(tmp_path))


def test_kernel_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.kernel_main(["install", "--prefix", str(tmp_path)]) == 0
    assert "installed kernel tf1-compat" in capsys.readouterr().out
    assert cli.kernel_main(["uninstall", "--prefix", str(tmp_path)]) == 0
    assert cli.kernel_main(["uninstall", "--prefix", str(tmp_path)]) == 1
    assert cli.kernel_main(["remove"]) == 2
    assert cli.kernel_main(["install", "--user", "--sys-prefix"]) == 2


def test_run_refuses_to_overwrite_the_original(tmp_path: Path) -> None:
    path = _write(tmp_path, ["print('x')"])
    before = path.read_bytes()
    assert cli.run_main([str(path), "--output", str(path)]) == 2
    assert cli.run_main([str(path), "--timeout", "0"]) == 2
    assert cli.run_main([str(tmp_path / "missing.ipynb")]) == 2
    assert path.read_bytes() == before
