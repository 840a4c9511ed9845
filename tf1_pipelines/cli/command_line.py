"""What every command line of the package shares: one-line error reports and exit codes.

A command prints a failure as one line on stderr (``error: <message>``), never a
traceback, and exits with one of the codes below.
"""
from __future__ import annotations

EXIT_OK = 0
EXIT_DIFFERENT = 1  # the command ran and found a difference or bad data
EXIT_BAD_INPUT = 2  # bad usage, a missing path, data that cannot be read at all


def error_line(exc: BaseException, prefix: str = "error") -> str:
    """``"<prefix>: <message>"`` on one line: the exception's text with its line
    breaks folded into spaces (the class name stands in for an empty message)."""
    message = " ".join(str(exc).split()) or type(exc).__name__
    return f"{prefix}: {message}"
