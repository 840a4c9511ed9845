"""One notebook cell as Python source and as a rewritten tree.

A cell of an old notebook is IPython input: ``%matplotlib inline``, ``!wget
URL`` and ``x = !ls`` are not Python. IPython's own input transformer turns
them into calls (``get_ipython().run_line_magic(...)``, ``get_ipython().system(...)``)
first; the result is then what a script's source is to the runner: parsed by
:func:`compat.runner.rewrite.parse_legacy` (Python 2 recognised per cell, so
``print x`` and ``print(x)`` cells can follow each other) and rewritten by
:func:`compat.runner.rewrite.transform`. Line numbers stay the cell's own.
"""
from __future__ import annotations

import ast
import copy
import re
import shlex
from dataclasses import dataclass
from urllib.parse import urlparse

from compat.runner import rewrite

__all__ = [
    "DOWNLOAD_COMMANDS",
    "CellHistory",
    "Download",
    "ParsedCell",
    "download_in",
    "parse_cell",
    "python_source",
]

#: Shell commands that fetch files from the network: refused in a notebook run.
DOWNLOAD_COMMANDS = frozenset({"wget", "curl", "aria2c"})
#: Per command, the options that take the output file name as the next word
#: (``curl -O`` takes none: it keeps the URL's name).
_OUTPUT_OPTIONS = {"wget": frozenset({"-O", "--output-document"}), "curl": frozenset({"-o", "--output"}),
                   "aria2c": frozenset({"-o", "--out"})}


@dataclass
class ParsedCell:
    """A cell's rewritten tree (``tree``, a :class:`ast.Module` with the cell's line numbers),
    the rewrite's record (``result``) and whether the cell was read as Python 2."""

    tree: ast.Module
    result: rewrite.TransformResult
    python2: bool


@dataclass(frozen=True)
class Download:
    """A download a shell escape asks for: the URL and the file it would write (a name, no folder)."""

    url: str
    filename: str


def python_source(cell: str) -> str:
    """The cell with IPython's syntax (magics, ``!`` escapes, ``?`` help) turned into Python calls.

    Cells that IPython cannot transform are returned unchanged (the parse then reports them).
    """
    from IPython.core.inputtransformer2 import TransformerManager
    try:
        return str(TransformerManager().transform_cell(cell))
    except Exception:  # IPython's transformers raise assorted errors on broken input
        return cell


class CellHistory:
    """The cells run so far in one namespace, whose imports and bindings later cells see.

    ``import numpy as np`` in one cell makes ``np.float`` in a later cell NumPy's,
    and a name a cell binds (``xrange = range``) is not replaced in later cells.
    """

    def __init__(self) -> None:
        self._statements: list[ast.stmt] = []

    def context(self) -> ast.Module | None:
        """The earlier cells as one module (None before the first)."""
        return ast.Module(body=list(self._statements), type_ignores=[]) if self._statements else None

    def add(self, tree: ast.Module) -> None:
        """Remember a cell that ran (or is about to)."""
        self._statements.extend(tree.body)

    def imports(self) -> list[ast.stmt]:
        """Copies of the earlier cells' imports at line 0, to give a checker the aliases they bind."""
        found: list[ast.stmt] = []
        for statement in self._statements:
            if isinstance(statement, (ast.Import, ast.ImportFrom)):
                copied = copy.deepcopy(statement)
                for node in ast.walk(copied):
                    if hasattr(node, "lineno"):
                        node.lineno = node.end_lineno = 0  # type: ignore[attr-defined]
                found.append(copied)
        return found


def parse_cell(source: str, filename: str, python2: bool | None = None,
               history: CellHistory | None = None) -> ParsedCell:
    """Parse (translating Python 2 when the cell is Python 2) and rewrite one cell's Python source.

    ``source`` is already Python (see :func:`python_source`); ``filename`` names the
    cell in tracebacks. ``python2`` as for :func:`compat.runner.rewrite.parse_legacy`.
    ``history``: the earlier cells, whose imports and bindings count; the cell is added to it.

    Raises:
        SyntaxError: the cell is neither valid Python 3 nor translatable Python 2.
    """
    tree, translation = rewrite.parse_legacy(source, filename, python2)
    context = history.context() if history is not None else None
    if history is not None:
        history.add(copy.deepcopy(tree))
    result = rewrite.transform(tree, python2=translation is not None, context=context)
    result.changes = sorted(result.changes + rewrite.translation_changes(translation),
                            key=lambda c: (c.line, c.col))
    return ParsedCell(tree=result.tree, result=result, python2=translation is not None)


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:  # unbalanced quotes: fall back to whitespace
        return command.split()


def download_in(command: str) -> Download | None:
    """The download a shell command asks for (``wget URL``, ``curl -O URL``, ...), or None.

    Every command of a ``&&``/``;`` chain is looked at, so ``!mkdir -p data && wget URL``
    is recognised too; the first download found is returned.
    """
    for part in re.split(r"&&|\|\||;", command):
        words = _words(part.strip())
        if not words or words[0].rsplit("/", 1)[-1] not in DOWNLOAD_COMMANDS:
            continue
        url = next((w for w in words[1:] if "://" in w), None)
        if url is None:
            continue
        named = _output_name(words, _OUTPUT_OPTIONS[words[0].rsplit("/", 1)[-1]])
        filename = named or urlparse(url).path.rsplit("/", 1)[-1] or "index.html"
        return Download(url=url, filename=filename)
    return None


def _output_name(words: list[str], options: frozenset[str]) -> str | None:
    """The file name given to one of ``options`` (``-O name`` or ``--output-document=name``), or None."""
    for index, word in enumerate(words[:-1]):
        if word in options and words[index + 1] != "-":
            return words[index + 1]
    for word in words:
        name, equals, value = word.partition("=")
        if equals and name in options and value:
            return value
    return None
