"""Indentation that mixes tabs and spaces, read as Python 2 read it.

Python 2's tokenizer advanced a tab to the next multiple of 8 columns, so a
block could indent one line with a tab and the next with 8 spaces. Python 3
measures every indentation twice, with tabs of 8 columns and of 1 column, and
refuses a line whose two measures disagree on its block (``TabError:
inconsistent use of tabs and spaces in indentation``). Such a module never ran
on Python 3: it is Python 2 code.

:func:`inconsistent_lines` finds the lines Python 3 refuses (emulating its
tokenizer's check) and :func:`expand_indentation` rewrites the leading
whitespace of every line of code to spaces with 8-column tab stops, which is
Python 2's reading and changes nothing for indentation Python 3 accepts.
Lines inside multi-line strings keep their text; line numbers are unchanged.
"""
from __future__ import annotations

import io
import tokenize
from collections.abc import Iterator

__all__ = ["TAB_ACTION", "TAB_SIZE", "expand_indentation", "inconsistent_lines"]

#: Python 2's tab size (``Parser/tokenizer.c``: ``TABSIZE 8``).
TAB_SIZE = 8

TAB_ACTION = ("Python 2 indentation: a tab advances to the next multiple of 8 columns, as Python 2 "
              "read it (Python 3 refuses tabs and spaces mixed this way); the module is Python 2")

_SKIPPED = frozenset({tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING})


def _tokens(source: str) -> Iterator[tokenize.TokenInfo]:
    """The tokens of ``source`` until the first one Python's pure tokenizer cannot read."""
    try:
        yield from tokenize.generate_tokens(io.StringIO(source).readline)
    except (tokenize.TokenError, SyntaxError):
        return


def _logical_starts(source: str) -> tuple[list[int], set[int]]:
    """(1-based lines that start a logical line, lines that continue a multi-line string)."""
    starts: list[int] = []
    in_string: set[int] = set()
    expect_start = True
    for token in _tokens(source):
        if token.type == tokenize.STRING and token.end[0] > token.start[0]:
            in_string.update(range(token.start[0] + 1, token.end[0] + 1))
        if token.type in _SKIPPED:
            continue
        if expect_start:
            starts.append(token.start[0])
        expect_start = token.type == tokenize.NEWLINE
    return starts, in_string


def _indentation(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def inconsistent_lines(source: str) -> list[int]:
    """The 1-based lines whose indentation Python 3 refuses as inconsistent tabs and spaces.

    Each logical line's indentation is measured with tabs of 8 columns and of 1
    column; the two measures must order it the same way against the enclosing
    blocks (CPython's ``Parser/tokenizer.c``, ``altcol``).
    """
    lines = source.splitlines()
    starts, _ = _logical_starts(source)
    stack: list[tuple[int, int]] = [(0, 0)]
    bad: list[int] = []
    for number in starts:
        indent = _indentation(lines[number - 1]) if number <= len(lines) else ""
        col, alt = len(indent.expandtabs(TAB_SIZE)), len(indent)
        top_col, top_alt = stack[-1]
        if col > top_col:
            if alt <= top_alt:
                bad.append(number)
            stack.append((col, alt))
            continue
        while len(stack) > 1 and col < stack[-1][0]:
            stack.pop()
        if col == stack[-1][0] and alt != stack[-1][1]:
            bad.append(number)
    return bad


def expand_indentation(source: str) -> str:
    """``source`` with the tabs of every line's indentation expanded to 8-column stops.

    Only leading whitespace is changed, and never on a line that continues a
    multi-line string (that whitespace is the string's text).
    """
    _, in_string = _logical_starts(source)
    lines = source.splitlines(keepends=True)
    for index, line in enumerate(lines):
        indent = _indentation(line)
        if "\t" in indent and index + 1 not in in_string:
            lines[index] = indent.expandtabs(TAB_SIZE) + line[len(indent):]
    return "".join(lines)
