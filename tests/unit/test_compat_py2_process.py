"""A script that ran under Python 2 ran all of its modules under Python 2.

igul222's WGAN-GP trainer (``xrange``, ``gen.next()``) imports ``tflib``, whose
``print`` statements only Python 2 compiles, and ``tflib/save_images.py``, which
shows nothing of Python 2 but computes a grid size with ``n_samples/rows``: it
ran with Python 2's floor division, as every module of that process did.
"""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from compat.numpy1 import bytes_helpers
from compat.runner import rewrite
from compat.runner import run as runner

GRID = """\
import numpy as np

def grid(n_samples, rows):
    nh, nw = rows, n_samples/rows
    return np.zeros((nh, nw)).shape

def halves():
    return 7 / 2, -7 / 2
"""


def run_module(source: str, py2_process: bool) -> dict[str, Any]:
    """Compile ``source`` as the runner does for a local module and run it; its globals."""
    code, result = rewrite.compile_legacy(source, "save_images.py", py2_process=py2_process)
    helpers = rewrite.LegacyHelpers(lambda: None, bytes_helpers)  # type: ignore[arg-type,return-value]
    namespace: dict[str, Any] = {"__name__": "save_images", **rewrite.injected_globals(result, helpers)}
    exec(code, namespace)
    return namespace


def test_module_without_python2_markers_divides_as_python2_in_a_python2_process() -> None:
    python2 = run_module(GRID, py2_process=True)
    assert python2["grid"](8, 2) == (2, 4) and python2["halves"]() == (3, -4)
    # On its own (a Python 3 project) it is Python 3: true division.
    assert run_module(GRID, py2_process=False)["halves"]() == (3.5, -3.5)


def test_true_division_import_is_kept_in_a_python2_process() -> None:
    source = "from __future__ import division\nratio = 7 / 2\n"
    assert run_module(source, py2_process=True)["ratio"] == 3.5


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return folder / "train.py"


def decides_python2(folder: Path, files: dict[str, str]) -> bool:
    script = write(folder, files)
    scope = rewrite.script_scope(script)
    code, result = rewrite.compile_legacy(script.read_text(), str(script), top_level=True)
    return runner._ran_under_python2(result, runner._local_module_findings(script, scope)[1])


def test_a_module_with_python2_syntax_makes_the_process_python2(tmp_path: Path) -> None:
    assert decides_python2(tmp_path, {
        "train.py": "import tflib\nimport tflib.save_images\n",
        "tflib/__init__.py": 'def show(x):\n    print "x:", x\n',
        "tflib/save_images.py": GRID,
    })


def test_a_python2_script_makes_the_process_python2(tmp_path: Path) -> None:
    assert decides_python2(tmp_path, {"train.py": "import helper\nfor i in xrange(2):\n    pass\n",
                                      "helper.py": GRID})


def test_python2_leftovers_in_a_module_do_not_decide(tmp_path: Path) -> None:
    # A Python 3 project carrying a stray xrange in a helper it never calls stays Python 3.
    assert not decides_python2(tmp_path, {"train.py": "import helper\nprint(7 / 2)\n",
                                          "helper.py": "def old():\n    return list(xrange(3))\n"})
