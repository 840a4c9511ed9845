"""``python -m compat check NOTEBOOK.ipynb``: per cell, what ``check`` reports per line for scripts.

Every code cell is read as the ``tf1-compat`` kernel reads it (IPython syntax
to Python, Python 2 recognised per cell, the earlier cells' imports known) and
classified by the script checker (:mod:`compat.checker.check`). Findings are
placed as ``cell N:LINE:COL`` (N counts every cell of the notebook from 1, as a
front end shows them). Shell escapes that download are reported as well: a
notebook run does not download, so the file must already be in the notebook's folder.
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import Any

from compat import rules
from compat.checker import check as script_check
from compat.notebook import cells
from compat.runner import rewrite

__all__ = ["check_notebook", "main"]

#: ``!cmd`` or ``name = !cmd`` at the start of a cell line.
_SHELL_ESCAPE = re.compile(r"^\s*(?:[\w.]+\s*=\s*)?!(?!=)(.*)$")
_TF_VERSION_MAGIC = re.compile(r"^\s*%tensorflow_version\b(.*)$")


def _label(position: int) -> str:
    return f"cell {position}"


def _line_findings(label: str, raw: str, folder: Path) -> list[script_check.Finding]:
    """Findings of the cell's IPython lines: downloads and ``%tensorflow_version``."""
    found = []
    for number, line in enumerate(raw.splitlines(), start=1):
        shell = _SHELL_ESCAPE.match(line)
        download = cells.download_in(shell.group(1)) if shell else None
        if download is not None:
            present = (folder / download.filename).exists()
            status = "fallback" if present else "unsupported"
            action = (f"not downloaded: {download.filename} is already in the notebook's folder" if present
                      else f"not downloaded: put {download.filename} (from {download.url}) in the "
                           f"notebook's folder")
            found.append(script_check.Finding(label, number, 0, f"!{shell.group(1).strip()}"[:60] if shell else "",
                                              status, action))
        magic = _TF_VERSION_MAGIC.match(line)
        if magic is not None:
            found.append(script_check.Finding(label, number, 0, line.strip(), "bridged",
                                              "accepted with a note: the kernel already gives TensorFlow 1"))
    return found


def _cell_findings(label: str, raw: str, history: cells.CellHistory, folder: Path,
                   scipy_bridged: Any) -> list[script_check.Finding]:
    source = cells.python_source(raw)
    try:
        tree, translation = rewrite.parse_legacy(source, label)
    except SyntaxError as err:
        return [script_check._syntax_finding(label, err)]
    context = history.context()
    checked = ast.Module(body=[*history.imports(), *tree.body], type_ignores=[])
    checker = script_check._ModuleChecker(label, checked, scipy_bridged)
    checker.visit(checked)
    history.add(tree)
    changes = rewrite.transform(tree, python2=translation is not None, context=context).changes
    changes += rewrite.translation_changes(translation)
    found = [f for f in checker.findings if f.line > 0]  # line 0: an earlier cell's import, reported there
    found += script_check._change_findings(label, changes) + _line_findings(label, raw, folder)
    return script_check._dedupe(sorted(found, key=lambda f: (f.line, f.col)))


def check_notebook(path: Path) -> script_check.Report:
    """Every legacy construct of the notebook's code cells.

    Raises:
        FileNotFoundError: ``path`` is not a file.
        ValueError: the file is not a notebook nbformat can read.
    """
    import nbformat
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    try:
        notebook = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
    except Exception as exc:  # JSON, validation and version errors of several kinds
        raise ValueError(f"cannot read {path} as a notebook: {exc}") from exc
    report = script_check.Report(script=path.resolve(), files=[path.name])
    history = cells.CellHistory()
    scipy_bridged = script_check._scipy_bridged_names()
    for position, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type == "code" and cell.source.strip():
            report.findings.extend(_cell_findings(_label(position), cell.source, history,
                                                  path.resolve().parent, scipy_bridged))
    return report


def main(notebook: str) -> int:
    """Print the report; 0 if the runner handles everything, 1 if not, 2 if the file cannot be read."""
    try:
        report = check_notebook(Path(notebook))
    except (FileNotFoundError, ValueError) as exc:
        print(f"compat: cannot check {notebook}: {exc}", file=sys.stderr)
        return rules.EXIT_USAGE
    print(report.format())
    return 0 if report.ok else 1
