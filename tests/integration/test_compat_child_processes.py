"""Spawn and forkserver children of a script run under the runner, as the script's own process does;
a child that cannot start stops its pool within seconds instead of being restarted for ever."""
from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from compat.child_processes import spawned as child_processes
from tests.helpers.scripts import compat_run, quiet_env, write

SCRIPT = """
import multiprocessing
import numpy as np
import tensorflow as tf

X = tf.placeholder(tf.float32, [None])          # TF1 code at module level, run again in every child
SQUARED = tf.square(X)

def work(n):
    with tf.Session() as sess:                   # np.float: NumPy 1's alias, rewritten in the child too
        return float(sess.run(tf.reduce_sum(SQUARED), {X: np.arange(n, dtype=np.float)}))

if __name__ == "__main__":
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        print("spawn", pool.map(work, [3, 4]))
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver")) as executor:
        print("forkserver", list(executor.map(work, [5])))
"""


@pytest.mark.timeout(400)
def test_spawn_and_forkserver_children_run_the_tf1_script(tmp_path: Path) -> None:
    result = compat_run(write(tmp_path / "pool_script.py", SCRIPT), timeout=380)
    assert result.returncode == 0, result.stderr[-3000:]
    squares = {n: float(sum(k * k for k in range(n))) for n in (3, 4, 5)}  # 0² + 1² + ... + (n-1)²
    assert f"spawn {[squares[3], squares[4]]}" in result.stdout
    assert f"forkserver {[squares[5]]}" in result.stdout


@pytest.mark.timeout(60)
def test_a_child_whose_bootstrap_fails_says_so_and_exits_3() -> None:
    code = "from compat.child_processes.spawned import bootstrap; bootstrap('not json')"
    result = subprocess.run([sys.executable, "-c", code], env=quiet_env(), capture_output=True, text=True,
                            timeout=50, check=False)
    assert result.returncode == 3
    assert result.stderr.startswith("compat: a child process of the script could not start under the runner")


def _exit_like_a_failed_bootstrap() -> None:
    os._exit(3)


@pytest.mark.timeout(60)
def test_a_pool_whose_worker_cannot_start_raises_instead_of_restarting_it_for_ever() -> None:
    from multiprocessing import pool as pool_module
    undo = child_processes._stop_respawning(pool_module)
    try:
        with multiprocessing.get_context("fork").Pool(1, initializer=_exit_like_a_failed_bootstrap) as pool:
            with pytest.raises(RuntimeError, match="could not start under the compat runner"):
                pool.map(abs, [1, 2, 3], chunksize=1)
    finally:
        undo()
    # Undone: Python's own methods again.
    assert pool_module.Pool.__dict__["_maintain_pool"].__func__.__module__ == "multiprocessing.pool"


def test_the_child_program_is_prefixed_only_for_spawn_and_forkserver() -> None:
    spawn = ["python", "-c", "from multiprocessing.spawn import spawn_main; spawn_main(pipe_handle=5)", "--x"]
    tracker = ["python", "-c", "from multiprocessing.resource_tracker import main;main(5)"]
    prefixed = child_processes._prefixed(spawn, '{"script": "s.py"}')
    assert prefixed[2].startswith("from compat.child_processes.spawned import bootstrap; bootstrap(")
    assert prefixed[2].endswith(spawn[2]) and prefixed[3] == "--x"
    assert child_processes._prefixed(tracker, "{}") == tracker
