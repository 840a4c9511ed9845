"""Run an unmodified TensorFlow 1 era script on today's stack.

:func:`run` is ``python -m compat run script.py [args...]``. It reads the script,
compiles it through the source rewrite (:func:`compat.runner.rewrite.compile_legacy`:
Python 2 translated, NumPy 1 and old standard-library names rewritten), installs
every declared legacy surface in its own process (:mod:`compat.runner.install`: the
finder of the script's own modules, each surface's finders and patches, TensorFlow in
TF1 graph mode with each surface's hooks; see :mod:`compat.surfaces`), and adds a
``threading.excepthook`` that prints an uncaught exception of any thread of the
script (with file and line) and makes the run fail.

Then the script runs as ``__main__`` with ``sys.argv = [script, *args]`` and its
folder first on ``sys.path``. The exit status is the script's: 0 when it ends,
the ``SystemExit`` code when it exits, 1 after an uncaught exception (whose
traceback is printed) in the main thread or, once the script's threads have
ended, in any other thread. The runner's own messages go to stderr; a missing
script or a syntax error in it is reported with file and line, with status 2.
"""
from __future__ import annotations

import ast
import atexit
import builtins
import importlib.machinery
import os
import sys
import threading
import traceback
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from compat import rules
from compat.errors import LegacyAPIError, LegacyImportError
from compat.rules import EXIT_FAILURE, EXIT_USAGE
from compat.runner import hints, rewrite, startup_log, thread_endings
from compat.runner.install import Installation, install, legacy_finder, prepare_tensorflow, surface_hint
from compat.surfaces import all_surfaces

__all__ = ["Installation", "install", "run"]

_PREFIX = "compat"
#: The folder of the compat package, whose frames end a "not provided" traceback.
_COMPAT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: The file of the rewriting loader and the ``__compat__`` helpers: plumbing in a traceback.
_REWRITE_FILE = os.path.abspath(rewrite.__file__)

def _in_compat(filename: str) -> bool:
    """True for a file of the compat package (any of its sub-packages)."""
    return os.path.abspath(filename).startswith(_COMPAT_DIR + os.sep)


def _error(message: str) -> None:
    print(f"{_PREFIX}: {message}", file=sys.stderr)


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------

def _format_syntax_error(err: SyntaxError, scope: rewrite.LocalScope | None = None) -> str:
    filename = err.filename or "<unknown>"
    if scope is not None:
        filename = scope.relative(filename)
    where = f"{filename}:{err.lineno or 1}"
    if err.offset:
        where += f":{err.offset}"
    line = f"\n    {err.text.rstrip()}" if err.text and err.text.strip() else ""
    return f"{where}: {rewrite.describe_syntax_error(err)}{line}"


def _local_module_findings(script: Path, scope: rewrite.LocalScope,
                           python2: bool | None = None) -> tuple[list[str], bool]:
    """(warnings naming the local modules that cannot be compiled, whether one is Python 2 by its syntax).

    The warnings are printed before anything runs (those modules fail when imported). A module
    that is Python 2 by its syntax (a ``print`` statement) shows that the script ran under
    Python 2 (see :func:`_ran_under_python2`).
    """
    warnings: list[str] = []
    python2_syntax = False
    for source in rewrite.walk_local_modules(script, scope, python2):
        if source.error is not None and source.path != script:
            warnings.append("warning: " + _format_syntax_error(source.error, scope)
                            + "\n    (this module will fail when it is imported; the runner cannot bridge it)")
        elif source.translation is not None and not python2_syntax:
            python2_syntax = not _parses_as_python3(source.path)
    return warnings, python2_syntax


def _parses_as_python3(path: Path) -> bool:
    try:
        ast.parse(rewrite.read_source(path))
    except (SyntaxError, ValueError, OSError):
        return False
    return True


def _ran_under_python2(script_result: rewrite.TransformResult, module_syntax_is_python2: bool) -> bool:
    """True if the script's own code shows it ran under Python 2: then all of it did.

    The interpreter was chosen for the whole process: a script that is Python 2
    (``xrange``, ``print x``), or that imports a module only Python 2 can compile,
    ran every one of its modules with Python 2's ``/``, even a module that shows
    nothing else of Python 2 (igul222's ``tflib/save_images.py``). A module that
    is Python 2 only by leftovers (a stray ``xrange`` in a helper) does not
    decide it: Python 3 projects carry such leftovers in code they never run.
    """
    return script_result.python2 or module_syntax_is_python2


def _main_module(path: Path, injected: dict[str, Any]) -> types.ModuleType:
    """A fresh ``__main__`` module for the script, as ``python script.py`` would make it."""
    module = types.ModuleType("__main__")
    module.__file__ = str(path)
    module.__dict__.update(__cached__=None, __builtins__=builtins)
    module.__loader__ = importlib.machinery.SourceFileLoader("__main__", str(path))
    module.__dict__.update(injected)
    return module


def _exit_code(exc: SystemExit) -> int:
    """The process status Python itself would give for this ``SystemExit``."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return EXIT_FAILURE


def _innermost_local_frame(tb: types.TracebackType | None,
                           scope: rewrite.LocalScope) -> tuple[str, int] | None:
    location = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if scope.contains(filename):
            location = (scope.relative(filename), tb.tb_lineno)
        tb = tb.tb_next
    return location


def _legacy_hint(exc: BaseException, scope: rewrite.LocalScope) -> str | None:
    """A line naming the legacy construct, file and line, when the failure is a legacy construct."""
    if isinstance(exc, SyntaxError) and exc.filename and scope.contains(exc.filename):
        return _format_syntax_error(exc, scope) + " (the runner cannot bridge this; fix the line)"
    location = _innermost_local_frame(exc.__traceback__, scope)
    if location is None:
        return None
    where = f"{location[0]}:{location[1]}"
    if isinstance(exc, (LegacyAPIError, LegacyImportError)):
        return f"{where}: {exc}"
    name = getattr(exc, "name", None)
    if isinstance(exc, NameError) and name in rules.PY2_BUILTINS_UNSUPPORTED:
        return (f"{where}: Python 2 builtin {name!r} is not bridged by the runner; use "
                f"{rules.PY2_BUILTINS_UNSUPPORTED[name]}")
    # The surfaces' (np.load of an object array, a removed name reached by getattr, ...), then the runner's own.
    hint = surface_hint(all_surfaces(), exc) or hints.hint_for(exc)
    return None if hint is None else f"{where}: {hint}"


def _strip_runner_frames(tb: types.TracebackType | None) -> types.TracebackType | None:
    """The traceback without the runner's own leading frames (``exec`` of the script)."""
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return tb


def _strip_refusing_frames(tb: types.TracebackType | None) -> types.TracebackType | None:
    """The traceback ending at the script's line, without the compat frames that refused.

    Only for the runner's deliberate "not provided" errors, raised by the stubs of
    :mod:`compat.tf1.namespace` or by this module's import finder: those frames say nothing the
    message does not. Tracebacks are linked from the outermost frame, so the kept
    frames are relinked into new objects.
    """
    frames = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    while frames and _in_compat(frames[-1].tb_frame.f_code.co_filename):
        frames.pop()
    relinked: types.TracebackType | None = None
    for frame in reversed(frames):
        relinked = types.TracebackType(relinked, frame.tb_frame, frame.tb_lasti, frame.tb_lineno)
    return relinked


def _is_importlib(frame: types.TracebackType) -> bool:
    return frame.tb_frame.f_code.co_filename.startswith("<frozen importlib._bootstrap")


def _frame_in_compat(frame: types.TracebackType) -> bool:
    return _in_compat(frame.tb_frame.f_code.co_filename)


def _strip_import_frames(tb: types.TracebackType | None) -> types.TracebackType | None:
    """The traceback without importlib's and the runner's loader frames, as plain Python shows it.

    Python hides its own importlib frames when a module fails while being
    imported, so ``import mod`` is followed directly by ``mod``'s failing line.
    The runner's loader runs between importlib and the module (the compat
    frames right after importlib's), and the ``__compat__`` helpers of
    :mod:`compat.runner.rewrite` stand in for the script's own calls; those frames are
    dropped too, so the traceback reads script line, then module line.
    """
    frames = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    kept = []
    after_importlib = False
    for frame in frames:
        if _is_importlib(frame):
            after_importlib = True
        elif _frame_in_compat(frame) and (after_importlib or frame.tb_frame.f_code.co_filename == _REWRITE_FILE):
            continue
        else:
            kept.append(frame)
            after_importlib = False
    if len(kept) == len(frames):
        return frames[0] if frames else None
    relinked: types.TracebackType | None = None
    for frame in reversed(kept):
        relinked = types.TracebackType(relinked, frame.tb_frame, frame.tb_lasti, frame.tb_lineno)
    return relinked


def _strip_chained_import_frames(exc: BaseException) -> None:
    """:func:`_strip_import_frames` for the exceptions ``exc`` was raised from or during."""
    seen = {id(exc)}
    chained = [exc.__cause__, exc.__context__]
    while chained:
        inner = chained.pop()
        if inner is None or id(inner) in seen:
            continue
        seen.add(id(inner))
        inner.with_traceback(_strip_import_frames(inner.__traceback__) or inner.__traceback__)
        chained.extend((inner.__cause__, inner.__context__))


def _report_exception(exc: BaseException, scope: rewrite.LocalScope) -> None:
    tb = _strip_runner_frames(exc.__traceback__)
    tb = _strip_import_frames(tb) or tb
    _strip_chained_import_frames(exc)
    if isinstance(exc, (LegacyAPIError, LegacyImportError)):
        tb = _strip_refusing_frames(tb) or tb
    exc.with_traceback(tb)
    try:
        sys.excepthook(type(exc), exc, tb)
    except Exception:  # a broken user excepthook must not hide the error
        traceback.print_exception(type(exc), exc, tb)
    hint = _legacy_hint(exc, scope)
    if hint is not None:
        _error(hint)


def _execute(code: types.CodeType, module: types.ModuleType, scope: rewrite.LocalScope) -> int:
    """Run the script's code in ``module``; the exit status Python would give."""
    try:
        exec(code, module.__dict__)
    except SystemExit as exc:
        return _exit_code(exc)
    except KeyboardInterrupt as exc:
        _report_exception(exc, scope)
        return 130
    except BaseException as exc:  # the script's failure becomes its exit status
        _report_exception(exc, scope)
        return EXIT_FAILURE
    return 0


def _load_script(script: str) -> tuple[Path | None, str | None]:
    """(absolute path, source) of the script, or (None, None) after reporting why not."""
    path = Path(script)
    if not path.exists():
        _error(f"cannot run {script}: no such file")
        return None, None
    if path.is_dir():
        _error(f"cannot run {script}: it is a directory, not a script (name the .py file or notebook in it)")
        return None, None
    if not path.is_file():
        _error(f"cannot run {script}: not a regular file")
        return None, None
    path = path.resolve()
    try:
        return path, rewrite.read_source(path)
    except OSError as exc:
        _error(f"cannot read {script}: {exc.strerror or exc}")
    except SyntaxError as err:
        err.filename = err.filename or script  # an undecodable file: name it, not "<unknown>"
        _error(_format_syntax_error(err))
    return None, None


def run(script: str, args: Sequence[str] = (), python2: bool = False, allow_pickle: bool = False,
        legacy_packages: Sequence[str] = ()) -> int:
    """Run ``script`` unchanged with ``args`` as its arguments; returns its exit status.

    ``allow_pickle`` (``--allow-pickle``) makes the script's own ``np.load`` calls
    default to ``allow_pickle=True``, as before NumPy 1.16.3 (for files the user trusts).
    ``legacy_packages`` (``--legacy-package NAME``): installed packages to serve as TF1-era
    code besides those recognised (the surfaces read it from their context's options).

    Python 2 modules are translated (``python2=True``: every local module is
    Python 2). Exit status 2 (and a message on stderr naming file and line) if
    the script does not exist or is neither valid Python 3 nor translatable
    Python 2; 1 if a thread of the script died of an exception, even when the
    main thread ended normally.
    """
    path, source = _load_script(script)
    if path is None or source is None:
        return EXIT_USAGE
    mode = True if python2 else None
    # Read once and decide once: the script's own modules (statically) say whether the whole
    # process ran under Python 2, then the script is compiled with that decision.
    scope = rewrite.script_scope(path)
    warnings, module_syntax_is_python2 = _local_module_findings(path, scope, mode)
    py2_process = mode is None and module_syntax_is_python2
    try:
        code, result = rewrite.compile_legacy(source, str(path), mode, top_level=True, py2_process=py2_process)
    except SyntaxError as err:
        _error(_format_syntax_error(err, rewrite.LocalScope(path.parent)))
        return EXIT_USAGE
    for warning in warnings:
        _error(warning)
    py2_process = mode is None and _ran_under_python2(result, module_syntax_is_python2)
    options: dict[str, Any] = {"script": str(path), "python2": python2, "allow_pickle": allow_pickle,
                               "legacy_packages": list(legacy_packages), "py2_process": py2_process}
    installation = install(path.parent, scope, mode, options)
    installation.helpers.numpy.allow_pickle = allow_pickle
    legacy_finder(installation).py2_process = py2_process
    prepare_tensorflow(installation)
    endings = thread_endings.ThreadEndings()
    endings.install()
    threads = _ThreadFailures(installation.scope, endings)
    threading.excepthook = threads.hook
    module = _main_module(path, rewrite.injected_globals(result, installation.helpers))
    sys.argv = [script, *args]
    _put_script_folder_first(path.parent)
    sys.modules["__main__"] = module
    try:
        status = _execute(code, module, installation.scope)
        final = threads.final_status(status)
        # Registered last, so it runs first at exit (after Python joined the non-daemon threads
        # and before a late thread failure is counted): see ThreadEndings.settle.
        atexit.register(_settle_threads, endings)
        return final
    finally:
        _flush_streams()


class _ThreadFailures:
    """A ``threading.excepthook`` that prints a thread's uncaught exception and remembers it."""

    def __init__(self, scope: rewrite.LocalScope, endings: thread_endings.ThreadEndings) -> None:
        self._scope = scope
        self._endings = endings
        self._lock = threading.Lock()
        self.names: list[str] = []

    def hook(self, args: threading.ExceptHookArgs) -> None:
        """Print the traceback (file and line) as Python does, plus the legacy hint; note the thread.

        A TF1 input thread cancelled by the session's close (or ended by its
        input or a stopped coordinator) is printed as Python prints it and not
        counted: TensorFlow 1.x scripts ended that way with status 0.
        """
        if args.exc_type is SystemExit:
            return  # as Python's own hook: a thread calling sys.exit() just ends
        name = args.thread.name if args.thread is not None else "<unknown>"
        if self._endings.is_normal_end(args.exc_value):
            threading.__excepthook__(args)
            _error(f"thread {name!r} ended with {args.exc_type.__name__} after the session was closed or "
                   "the coordinator stopped: the normal end of a TF1 input thread, not counted as a failure")
            _flush_streams()
            return
        with self._lock:
            self.names.append(name)
        threading.__excepthook__(args)
        if args.exc_value is not None:
            hint = _legacy_hint(args.exc_value, self._scope)
            if hint is not None:
                _error(hint)
        _flush_streams()

    def final_status(self, status: int) -> int:
        """The run's exit status: 1 instead of 0 if a thread has failed.

        Threads still running are waited for by Python's own exit (which first
        lets thread pools shut down); :meth:`_fail_late`, an ``atexit`` function,
        runs after that and exits with status 1 if one of them failed.
        """
        if status != 0:
            return status
        if self.names:
            self._report()
            return EXIT_FAILURE
        atexit.register(self._fail_late)
        return status

    def _report(self) -> None:
        names = ", ".join(repr(n) for n in self.names)
        _error(f"exit status {EXIT_FAILURE}: uncaught exception in thread {names} (traceback above)")

    def _fail_late(self) -> None:
        """After Python has joined the script's threads: exit with status 1 if one failed."""
        if self.names:
            self._report()
            _flush_streams()
            startup_log.restore_stderr()  # os._exit skips the atexit function that would
            os._exit(EXIT_FAILURE)  # the only way to change the status once exit has begun


def _settle_threads(endings: thread_endings.ThreadEndings) -> None:
    """At exit: let daemon threads leave a cancelled session call (bounded); name those that did not."""
    still = endings.settle()
    if still:
        names = ", ".join(repr(name) for name in still)
        _error(f"daemon thread {names} still inside a TensorFlow session call at exit after "
               f"{thread_endings.SETTLE_BOUND:g} s; if the process aborts now, that thread is why")
        _flush_streams()


def _put_script_folder_first(folder: Path) -> None:
    """``sys.path[0]`` is the script's folder, as for ``python script.py`` (not the runner's)."""
    if sys.path:
        sys.path[0] = str(folder)
    else:
        sys.path.insert(0, str(folder))


def _flush_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
