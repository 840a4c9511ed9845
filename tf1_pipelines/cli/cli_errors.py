"""How the command line ends on an error: one line ``error: ...`` on stderr, no
traceback, and an exit status that says what happened.

* 2: bad input or options (``DataError``, ``ConfigError``) or a file system error
  (``OSError``: a full disk, permission denied, an output path that is a file,
  a folder lock held too long);
* 130: interrupted by Ctrl-C (SIGINT), as shells report it;
* 143: terminated by SIGTERM (raised as
  :class:`~tf1_pipelines.records.interrupts.Terminated` while an export runs).

Exports remove their temporary files before the error reaches here.
"""
from __future__ import annotations

import signal
import sys
from collections.abc import Callable

from tf1_pipelines.cli.command_line import EXIT_BAD_INPUT, error_line
from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.records.interrupts import Terminated

EXIT_SIGINT = 128 + signal.SIGINT
EXIT_SIGTERM = 128 + signal.SIGTERM


def report(message: str) -> None:
    """Print ``error: <message>`` as one line on stderr."""
    print(error_line(RuntimeError(message)), file=sys.stderr, flush=True)


def run_reporting_errors(command: Callable[[], int | None]) -> int:
    """Run ``command``; return its status (0 for None), or report an error and
    return the status above."""
    try:
        return command() or 0
    except (DataError, ConfigError, OSError) as error:
        report(str(error))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        report("interrupted (SIGINT)")
        return EXIT_SIGINT
    except Terminated:
        report("terminated (SIGTERM)")
        return EXIT_SIGTERM
