"""Child processes of the script run under the runner too (``multiprocessing`` with spawn or forkserver).

A process started with the *spawn* or *forkserver* method is a fresh interpreter:
it re-imports the script (as ``__mp_main__``) to find the function it runs, and
under plain Python the script's TF1 code at module level, its Python 2 modules and
its NumPy 1 names fail there. Then a ``multiprocessing.Pool`` replaces the dead
worker with another that dies the same way, for ever. *fork*, Linux's default on
Python < 3.14, copies the runner's process and needs nothing.

:func:`install` (the runner's process only) makes every such child start with
:func:`bootstrap`, which installs the runner exactly as the parent did (same script,
same options: ``--py2``, ``--allow-pickle``, ``--legacy-package``) before
``multiprocessing`` prepares the child, and re-imports the script through the
source rewrite. Both start methods hand their interpreter a ``-c`` program through
``multiprocessing.util.spawnv_passfds``; the runner prefixes that program with
the bootstrap. ``concurrent.futures.ProcessPoolExecutor`` uses the same machinery.
If the bootstrap itself fails, the child prints one ``compat:`` line and exits with
status 3; a ``Pool`` then stops replacing its workers and its pending calls raise
within seconds (:func:`_stop_respawning`), and a ``ProcessPoolExecutor`` raises
``BrokenProcessPool`` as it does for any dead worker.
"""
from __future__ import annotations

import json
import os
import sys
import types
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["bootstrap", "install"]

#: The programs multiprocessing runs in a new interpreter for its two fresh-process start methods.
_CHILD_PROGRAMS = ("from multiprocessing.spawn import spawn_main", "from multiprocessing.forkserver import main")
#: Exit status of a child whose bootstrap failed (the parent's pool sees it).
_BOOTSTRAP_FAILED = 3


def _prefixed(args: list[str], options_json: str) -> list[str]:
    """``args`` with the ``-c`` program of a spawn/forkserver child prefixed by :func:`bootstrap`."""
    args = list(args)
    for index, arg in enumerate(args[:-1]):
        if arg == "-c" and args[index + 1].startswith(_CHILD_PROGRAMS):
            args[index + 1] = (f"from compat.child_processes.spawned import bootstrap; bootstrap({options_json!r}); "
                               + args[index + 1])
            break
    return args


def install(script: Path, options: Mapping[str, Any]) -> Callable[[], None]:
    """Make spawn and forkserver children of this process run under the runner; returns the undo.

    ``options``: the run's options (``python2``, ``allow_pickle``, ``legacy_packages``,
    ``py2_process``), as JSON-serialisable values.
    """
    from multiprocessing import pool, util

    options_json = json.dumps({**options, "script": str(script)}, sort_keys=True)
    original = util.spawnv_passfds

    def spawnv_passfds(path: Any, args: Any, passfds: Any) -> int:
        return original(path, _prefixed(list(args), options_json), passfds)

    util.spawnv_passfds = spawnv_passfds
    undo_pool = _stop_respawning(pool)

    def undo() -> None:
        if util.spawnv_passfds is spawnv_passfds:
            util.spawnv_passfds = original
        undo_pool()
    return undo


def _stop_respawning(pool: types.ModuleType) -> Callable[[], None]:
    """A pool one of whose workers ended with :data:`_BOOTSTRAP_FAILED` stops replacing its workers, and
    its pending calls, and those made later, raise (Python's own pool would start a new worker, which
    dies the same way, for ever).

    Wraps ``Pool._handle_workers`` (to know each pool's pending jobs), ``Pool._maintain_pool`` and
    ``Pool._wait_for_updates`` (a broken pool has no worker whose end would wake its handler: it looks
    at its jobs twice a second instead).
    """
    Pool = pool.Pool
    originals = {name: Pool.__dict__[name] for name in ("_handle_workers", "_maintain_pool", "_wait_for_updates")}
    pending: dict[int, Any] = {}  # id(the pool's list of workers) -> its cache of pending jobs
    broken: set[int] = set()

    def _handle_workers(cls: Any, cache: Any, taskqueue: Any, ctx: Any, process: Any, processes: Any,
                        workers: list[Any], *rest: Any) -> None:
        pending[id(workers)] = cache
        try:
            originals["_handle_workers"].__func__(cls, cache, taskqueue, ctx, process, processes, workers, *rest)
        finally:
            pending.pop(id(workers), None)
            broken.discard(id(workers))

    def _maintain_pool(ctx: Any, process: Any, processes: Any, workers: list[Any], *rest: Any) -> None:
        if any(w.exitcode == _BOOTSTRAP_FAILED for w in workers):
            broken.add(id(workers))
        if id(workers) not in broken:
            originals["_maintain_pool"].__func__(ctx, process, processes, workers, *rest)
            return
        error = RuntimeError("a worker process of the script could not start under the compat runner "
                             "(its message is above); the pool stops instead of restarting it for ever")
        for job in list(pending.get(id(workers), {}).values()):
            # Each chunk still pending of an apply/map job fails: the caller's get() raises the error.
            for _ in range(max(1, getattr(job, "_number_left", 1))):
                job._set(0, (False, error))

    def _wait_for_updates(sentinels: Any, change_notifier: Any, timeout: float | None = None) -> None:
        if broken:
            timeout = 0.5 if timeout is None else min(timeout, 0.5)
        originals["_wait_for_updates"].__func__(sentinels, change_notifier, timeout)

    Pool._handle_workers = classmethod(_handle_workers)
    Pool._maintain_pool = staticmethod(_maintain_pool)
    Pool._wait_for_updates = staticmethod(_wait_for_updates)

    def undo() -> None:
        for name, value in originals.items():
            setattr(Pool, name, value)
    return undo


def bootstrap(options_json: str) -> None:
    """In a fresh child interpreter: install the runner as the parent did, then let multiprocessing go on."""
    try:
        _bootstrap(json.loads(options_json))
    except BaseException as exc:  # the child cannot run the script's code: say so once, end it
        print(f"compat: a child process of the script could not start under the runner: "
              f"{type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        os._exit(_BOOTSTRAP_FAILED)


def _bootstrap(options: dict[str, Any]) -> None:
    from multiprocessing import spawn

    # The runner itself, imported in the child only: what it installs is what this child needs.
    from compat.runner import rewrite
    from compat.runner.install import install as install_runner
    from compat.runner.install import legacy_finder, prepare_tensorflow
    from tf1_pipelines.runtime.startup_log import drop_tensorflow_startup_lines

    drop_tensorflow_startup_lines()
    script = Path(options["script"])
    mode = True if options.get("python2") else None
    installation = install_runner(script.parent, rewrite.script_scope(script), mode, options)
    installation.helpers.numpy.allow_pickle = bool(options.get("allow_pickle"))
    py2_process = bool(options.get("py2_process"))
    legacy_finder(installation).py2_process = py2_process
    prepare_tensorflow(installation)

    def fixup_main_from_path(main_path: str) -> None:
        if os.path.abspath(main_path) != str(script):
            original_fixup(main_path)
            return
        current = sys.modules["__main__"]
        if getattr(current, "__file__", None) == main_path:
            return
        spawn.old_main_modules.append(current)
        code, result = rewrite.compile_legacy(rewrite.read_source(script), str(script), mode, top_level=True,
                                              py2_process=py2_process)
        module = types.ModuleType("__mp_main__")
        module.__dict__.update(__file__=str(script), __builtins__=__builtins__,
                               **rewrite.injected_globals(result, installation.helpers))
        sys.modules["__main__"] = sys.modules["__mp_main__"] = module
        exec(code, module.__dict__)

    original_fixup = spawn._fixup_main_from_path  # type: ignore[attr-defined]  # private, stable since 3.4
    spawn._fixup_main_from_path = fixup_main_from_path  # type: ignore[attr-defined]
