"""The notebook commands of ``python -m compat``: ``run X.ipynb``, ``check X.ipynb``, ``kernel``.

    python -m compat run NOTEBOOK.ipynb [--output EXECUTED.ipynb] [--timeout SECONDS]
    python -m compat check NOTEBOOK.ipynb
    python -m compat kernel install [--user | --prefix DIR | --sys-prefix]
    python -m compat kernel uninstall [--user | --prefix DIR | --sys-prefix]

Every function returns the exit status: 0 success, 1 failure, 2 bad usage.
"""
from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence

from compat.rules import EXIT_FAILURE, EXIT_USAGE

__all__ = ["check_main", "is_notebook", "kernel_main", "run_main"]

NOTEBOOK_SUFFIX = ".ipynb"


def is_notebook(path: str) -> bool:
    """True for a path naming a Jupyter notebook (by its ``.ipynb`` suffix)."""
    return path.lower().endswith(NOTEBOOK_SUFFIX)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors return status 2 through :class:`SystemExit` as ``compat`` does."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"compat: {self.prog.split()[-1]}: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _positive_seconds(text: str) -> float:
    """An argparse type: seconds > 0 and finite (``nan`` and ``inf`` are no limit); fractions are kept."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--timeout {text!r}: give a number of seconds > 0") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"--timeout {text}: give a finite number of seconds > 0")
    return value


def _parse(parser: argparse.ArgumentParser, args: Sequence[str]) -> argparse.Namespace | int:
    try:
        return parser.parse_args(list(args))
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE


def run_main(args: Sequence[str]) -> int:
    """``compat run NOTEBOOK.ipynb [--output FILE] [--timeout SECONDS]``."""
    parser = _Parser(prog="python -m compat run", description="Run an old notebook top to bottom under "
                     "the tf1-compat kernel; the original is never modified.")
    parser.add_argument("notebook", help="the .ipynb file to run (required)")
    parser.add_argument("--output", default=None,
                        help="where to write the executed copy (default: NAME.compat.ipynb next to it)")
    parser.add_argument("--timeout", type=_positive_seconds, default=None,
                        help="seconds one cell may run, > 0 (a fraction counts as the next whole second; "
                             "default: no limit)")
    parsed = _parse(parser, args)
    if isinstance(parsed, int):
        return parsed
    from compat.notebook import execute
    return execute.run_notebook(parsed.notebook, parsed.output, parsed.timeout)


def check_main(args: Sequence[str]) -> int:
    """``compat check NOTEBOOK.ipynb``: the legacy constructs of every cell; 1 if some cannot be handled."""
    if len(args) != 1:
        print("compat: check: give exactly one notebook", file=sys.stderr)
        return EXIT_USAGE
    from compat.keras2 import legacy_keras
    from compat.notebook import check
    legacy_keras.select_legacy_keras()  # classify tf.layers / tf.keras as the kernel will see them
    return check.main(args[0])


def kernel_main(args: Sequence[str]) -> int:
    """``compat kernel install|uninstall [--user | --prefix DIR | --sys-prefix]``."""
    parser = _Parser(prog="python -m compat kernel",
                     description="Install or remove the tf1-compat Jupyter kernel (\"Python 3 (TensorFlow 1 "
                                 "compat)\"): every cell runs as TensorFlow 1 era code.")
    parser.add_argument("action", choices=("install", "uninstall"))
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="for this user only (default: system-wide)")
    where.add_argument("--prefix", default=None, help="under DIR/share/jupyter/kernels (a virtualenv, a test)")
    where.add_argument("--sys-prefix", action="store_true", help="in this interpreter's environment")
    parsed = _parse(parser, args)
    if isinstance(parsed, int):
        return parsed
    from compat.notebook import kernelspec
    prefix = sys.prefix if parsed.sys_prefix else parsed.prefix
    if prefix is not None and not prefix.strip():
        # Jupyter reads an empty prefix as none given and installs system-wide
        print(f"compat: kernel {parsed.action}: --prefix is empty; give a folder (a virtualenv's), or use "
              "--user or --sys-prefix", file=sys.stderr)
        return EXIT_USAGE
    try:
        if parsed.action == "install":
            folder = kernelspec.install(user=parsed.user, prefix=prefix)
            print(f"installed kernel {kernelspec.KERNEL_NAME} ({kernelspec.DISPLAY_NAME}) in {folder}")
        else:
            folder = kernelspec.uninstall(user=parsed.user, prefix=prefix)
            print(f"removed kernel {kernelspec.KERNEL_NAME} from {folder}")
    except FileNotFoundError as exc:
        print(f"compat: kernel {parsed.action}: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    except OSError as exc:  # permission denied, a read-only file system, a file where a folder goes
        unwritable = exc.filename or prefix or "the system-wide kernels folder"
        print(f"compat: kernel {parsed.action}: cannot write {unwritable}: {exc.strerror or exc}; use --user or "
              "--sys-prefix, or a --prefix you can write", file=sys.stderr)
        return EXIT_USAGE
    return 0
