"""``async`` and ``await`` used as names, as code written before Python 3.7 could.

Python 3.7 made ``async`` and ``await`` reserved keywords (What's New in 3.7,
"Porting to Python 3.7"); before, they were ordinary names outside ``async
def``. Old code used them as parameters and attributes (``def load(self,
async=False)``, ``self.async = async``) and as keyword arguments of library
calls (``x.cuda(async=True)``). Such a module no longer parses.

:func:`rename_keywords` renames every such use, by its tokens, before the module is
parsed: a name becomes ``async_`` / ``await_`` (consistently across the
script's own modules, which all go through this), and a keyword argument of a
call becomes :data:`KEYWORD_MARKERS`' marker, which :class:`CallKeywords`
turns into ``__compat__.stdlib.call_renamed(f, ..., marker=value)``: the
callee gets ``async_=`` when it is one of the script's renamed functions and
``async=`` otherwise (a library taking ``**kwargs``, as the old call did).
Line numbers are unchanged.
"""
from __future__ import annotations

import ast
import inspect
import io
import tokenize
from dataclasses import dataclass
from typing import Any

from compat.surfaces.source_pass import SourcePass, helper

__all__ = ["KEYWORD_MARKERS", "RENAMED", "CallKeywords", "Rename", "accepts", "call_renamed", "rename_action",
           "rename_keywords"]

#: The names reserved in Python 3.7 -> what they are renamed to in the script's own code.
RENAMED: dict[str, str] = {"async": "async_", "await": "await_"}

#: The marker a renamed call keyword gets until :class:`CallKeywords` rewrites the call.
KEYWORD_MARKERS: dict[str, str] = {"async": "__compat_kw_async__", "await": "__compat_kw_await__"}

RENAME_ACTION = ("a name before Python 3.7 made it a keyword; renamed {new} in the script's own code "
                 "(keyword arguments reach the callee as {new}= for the script's own functions, "
                 "else as {old}=)")

#: Tokens after which ``await`` is an operand, not the operator: it is a name there.
_AFTER_NAME_OPS = frozenset({"=", ",", ")", "]", "}", ":", ".", ";", "==", "!=", "<", ">", "<=", ">=", "+=",
                             "-=", "*=", "/=", "%=", "//=", "**=", "&=", "|=", "^=", "%", "/", "//", "**",
                             "|", "&", "^", "<<", ">>", "@"})
_AFTER_NAME_WORDS = frozenset({"in", "is", "and", "or", "if", "else", "not", "for"})
#: Names before ``(`` that open a parenthesised expression, not a call.
_NOT_CALLEES = frozenset({"if", "elif", "while", "return", "yield", "in", "not", "and", "or", "is", "else",
                          "assert", "del", "print", "exec", "import", "from", "lambda", "with", "for",
                          "raise", "except", "await"})


@dataclass(frozen=True)
class Rename:
    """One renamed token: 1-based line, 0-based column (of the original), old name, and its role."""

    line: int
    col: int
    name: str
    role: str  # "name" or "keyword argument"


def _is_name_use(name: str, previous: tokenize.TokenInfo | None, following: tokenize.TokenInfo | None) -> bool:
    """True if this ``async``/``await`` token is a name (not Python 3.5's keyword)."""
    if previous is not None and previous.string == ".":
        return True
    if following is None or following.type in (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT,
                                                tokenize.ENDMARKER):
        return True
    if name == "async":
        return following.string not in ("def", "for", "with")
    if following.type == tokenize.OP:
        return following.string in _AFTER_NAME_OPS
    return following.type == tokenize.NAME and following.string in _AFTER_NAME_WORDS


def _significant(source: str) -> list[tokenize.TokenInfo]:
    skipped = (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)
    return [t for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type not in skipped]


def _renames(tokens: list[tokenize.TokenInfo]) -> list[tuple[tokenize.TokenInfo, str, str]]:
    """(token, new text, role) for every ``async``/``await`` used as a name."""
    found: list[tuple[tokenize.TokenInfo, str, str]] = []
    parens: list[str] = []  # "call", "def" or "group" for each open bracket
    for index, token in enumerate(tokens):
        previous = tokens[index - 1] if index else None
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if token.type == tokenize.OP and token.string in "([{":
            parens.append(_bracket_kind(token.string, previous, tokens[index - 2] if index > 1 else None))
        elif token.type == tokenize.OP and token.string in ")]}" and parens:
            parens.pop()
        elif token.type == tokenize.NAME and token.string in RENAMED and _is_name_use(token.string, previous,
                                                                                     following):
            keyword = (parens and parens[-1] == "call" and following is not None and following.string == "="
                       and previous is not None and previous.string in ("(", ","))
            if keyword:
                found.append((token, KEYWORD_MARKERS[token.string], "keyword argument"))
            else:
                found.append((token, RENAMED[token.string], "name"))
    return found


def _bracket_kind(bracket: str, previous: tokenize.TokenInfo | None,
                  before: tokenize.TokenInfo | None) -> str:
    if bracket != "(" or previous is None:
        return "group"
    if previous.type == tokenize.NAME and before is not None and before.string == "def":
        return "def"
    if previous.type == tokenize.NAME and previous.string not in _NOT_CALLEES:
        return "call"
    return "call" if previous.string in (")", "]") else "group"


def rename_keywords(source: str) -> tuple[str, list[Rename]]:
    """``source`` with ``async``/``await`` names renamed (module docstring), and what was renamed.

    Returns ``source`` itself and no renames when it has none or cannot be tokenized.
    """
    if "async" not in source and "await" not in source:
        return source, []
    try:
        found = _renames(_significant(source))
    except (tokenize.TokenError, SyntaxError):
        return source, []
    if not found:
        return source, []
    lines = source.splitlines(keepends=True)
    # Right to left, so earlier columns of a line stay valid.
    for token, new, _ in sorted(found, key=lambda f: f[0].start, reverse=True):
        row, col = token.start
        line = lines[row - 1]
        lines[row - 1] = line[:col] + new + line[col + len(token.string):]
    renames = [Rename(t.start[0], t.start[1], t.string, role) for t, _, role in found]
    return "".join(lines), renames


def rename_action(name: str) -> str:
    """What the check report says about a renamed ``name``."""
    return RENAME_ACTION.format(old=name, new=RENAMED[name])


def accepts(func: Any, name: str) -> bool:
    """True if ``func``'s signature names a parameter ``name`` (False when it cannot be read)."""
    try:
        return name in inspect.signature(func).parameters
    except (TypeError, ValueError):
        return False


def call_renamed(func: Any, *args: Any, **kwargs: Any) -> Any:
    """``func(*args, **kwargs)`` with each :data:`KEYWORD_MARKERS` keyword given its name back.

    The callee gets ``async_=`` when it names that parameter (one of the script's
    own functions, renamed by :func:`rename_keywords`), else ``async=`` as the old
    code passed it. Returns what ``func`` returns.
    """
    for old, marker in KEYWORD_MARKERS.items():
        if marker in kwargs:
            value = kwargs.pop(marker)
            kwargs[RENAMED[old] if accepts(func, RENAMED[old]) else old] = value
    return func(*args, **kwargs)


class CallKeywords(SourcePass):
    """``f(a, __compat_kw_async__=v)`` -> ``__compat__.stdlib.call_renamed(f, a, __compat_kw_async__=v)``."""

    _MARKERS = frozenset(KEYWORD_MARKERS.values())

    def __init__(self, tree: ast.Module) -> None:
        super().__init__()

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        if not any(k.arg in self._MARKERS for k in node.keywords):
            return node
        return ast.copy_location(ast.Call(func=helper("stdlib", "call_renamed"), args=[node.func, *node.args],
                                          keywords=node.keywords), node)
