"""Command line of the compat layer.

    python -m compat run SCRIPT [ARG ...]   run a TensorFlow 1 era script unchanged
    python -m compat check SCRIPT           list its legacy constructs; run nothing
    tf1-run SCRIPT [ARG ...]                the same as ``python -m compat run``

``run`` exits with the script's own status; ``check`` exits 0 when the runner
handles everything it found and 1 otherwise. Both exit 2 for bad usage, a
missing script, or (``run``) a syntax error in the script.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from compat.runner.startup_log import drop_tensorflow_startup_lines

USAGE = """\
usage: python -m compat run [--py2] [--allow-pickle] [--legacy-package NAME ...] SCRIPT [ARG ...]
       python -m compat check [--py2] SCRIPT
       python -m compat run NOTEBOOK.ipynb [--output EXECUTED.ipynb] [--timeout SECONDS]
       python -m compat check NOTEBOOK.ipynb
       python -m compat kernel install|uninstall [--user | --prefix DIR | --sys-prefix]
       tf1-run [--py2] SCRIPT [ARG ...]

  run     run a TensorFlow 1 era script unchanged on today's TensorFlow, NumPy and SciPy;
          the exit status is the script's (1 if one of its threads died of an exception);
          --py2 treats every local module as Python 2 (a Python 2 module can be valid
          Python 3 with only `/` to tell); check takes it too
  check   list, without running anything, the legacy constructs in SCRIPT and its local
          modules and what the runner does about each; exit status 1 if some cannot be handled

  NOTEBOOK.ipynb  run: execute a copy of an old notebook under the tf1-compat kernel and write
          it with its outputs to --output (default: NAME.compat.ipynb); the original is never
          modified; exit status 1 naming the cell if one raised; --timeout limits each cell
          (default: no limit); check: the same report, per cell
  kernel  install (or remove) the Jupyter kernel tf1-compat, "Python 3 (TensorFlow 1 compat)",
          whose every cell runs as TensorFlow 1 code (default: system-wide; --user, --prefix
          DIR or --sys-prefix choose where)

arguments:
  SCRIPT  the Python file to run or check (required; no default)
  ARG     arguments handed to SCRIPT as sys.argv[1:] (default: none)
  --py2   treat every local module as Python 2 (default: off: each module is
          recognised, as Python 2 if it does not parse as Python 3 or uses what only
          Python 2 has)
  --allow-pickle  run: the script's own np.load calls default to allow_pickle=True, as
          before NumPy 1.16.3 (only for files you trust; default: off, NumPy's safe default)
  --legacy-package NAME  run: serve the installed package NAME (import or PyPI name; the option
          may be repeated) as TensorFlow 1 code, as the script's own modules are served
          (default: none: packages whose metadata requires TensorFlow 1, and TFLearn,
          TensorLayer 1.x, Sonnet 1, PrettyTensor and tensorpack 0.9, are recognised)
  -h, --help  show this help and exit (default: off)
"""

_COMMANDS = ("run", "check")
_HELP = ("-h", "--help")


def _usage_error(message: str) -> int:
    print(f"compat: {message}\n{USAGE}", file=sys.stderr, end="")
    return 2


def _legacy_package_value(option: str, rest: list[str]) -> tuple[str, str | None]:
    """The NAME of ``--legacy-package NAME`` / ``--legacy-package=NAME`` (taken from ``rest``), or a problem."""
    from compat.tf1_libraries.recognise import refusal
    if option == "--legacy-package":
        if not rest or rest[0].startswith("-"):
            return "", "--legacy-package needs a package name (--legacy-package tflearn)"
        name = rest.pop(0)
    elif option.startswith("--legacy-package="):
        name = option.partition("=")[2]
    else:
        return "", f"unknown option {option!r}"
    if not name:
        return "", "--legacy-package needs a package name (--legacy-package tflearn)"
    return name, refusal(name)


def _invoked_as_tf1_run() -> bool:
    return Path(sys.argv[0]).name.startswith("tf1-run") if sys.argv else False


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the command; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if argv is None and _invoked_as_tf1_run() and args and args[0] not in (*_COMMANDS, *_HELP):
        args.insert(0, "run")
    if not args:
        return _usage_error("no command given")
    command, rest = args[0], args[1:]
    if command in _HELP:
        print(USAGE, end="")
        return 0
    if command == "kernel":
        from compat.notebook import cli as notebook_cli
        return notebook_cli.kernel_main(rest)
    if command not in _COMMANDS:
        return _usage_error(f"unknown command {command!r}")
    if not rest:
        return _usage_error(f"{command}: no script given")
    if rest[0] in _HELP:
        print(USAGE, end="")
        return 0
    if command in _COMMANDS and rest[0].lower().endswith(".ipynb"):
        from compat.notebook import cli as notebook_cli
        if command == "run":
            drop_tensorflow_startup_lines()
            return notebook_cli.run_main(rest)
        return notebook_cli.check_main(rest)
    options: set[str] = set()
    legacy_packages: list[str] = []
    while rest and (rest[0] in ("--py2", "--allow-pickle") or rest[0].startswith("--legacy-package")):
        option = rest.pop(0)
        if not option.startswith("--legacy-package"):
            options.add(option)
            continue
        name, problem = _legacy_package_value(option, rest)
        if problem is not None:
            return _usage_error(f"{command}: {problem}")
        legacy_packages.append(name)
    python2 = "--py2" in options
    if not rest:
        return _usage_error(f"{command}: no script given")
    if legacy_packages and command != "run":
        return _usage_error("check: --legacy-package is an option of run (check follows the recognised packages)")
    if command == "run":
        drop_tensorflow_startup_lines()  # before anything can load TensorFlow
        from compat.runner import run as runner
        return runner.run(rest[0], rest[1:], python2=python2, allow_pickle="--allow-pickle" in options,
                          legacy_packages=legacy_packages)
    if len(rest) > 1:
        return _usage_error("check: give exactly one script")
    drop_tensorflow_startup_lines()  # classifying tf.x.y imports TensorFlow: its start-up log is noise here
    from compat.checker import check
    from compat.keras2 import legacy_keras
    legacy_keras.select_legacy_keras()  # classify tf.layers / tf.keras as the runner will see them
    return check.main(rest[0], python2=python2)


if __name__ == "__main__":
    sys.exit(main())
