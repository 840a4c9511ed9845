"""NumPy 1 and the Python 3.6 standard library end to end: ``python -m compat run`` runs a script
of the script's own code using them, ``python -m compat check`` predicts it, and plain Python fails."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

TIMEOUT = 180

SCRIPT = """
    import collections
    import time
    import numpy as np
    from numpy import float as np_float

    batch = np.array([[3, 1, 2], [5]])
    print("ragged", batch.dtype, len(batch[0]), len(batch[1]))
    print("padded", np.lib.pad(np.array(batch[1], dtype=np.int), (1, 2), "constant").tolist())
    print("aliases", np.float is float, np_float is float, np.NaN != np.NaN, np.asscalar(np.array([7])))
    print("scalars", [np.float64(1.5), np.int64(2)])
    print("iterable", isinstance(batch, collections.Iterable), time.clock() >= 0)
    weights = np.load("weights.npy").item()
    print("weights", sorted(weights.items()))
"""


def compat(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    return subprocess.run([sys.executable, "-m", "compat", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT)


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    (tmp_path / "legacy.py").write_text(textwrap.dedent(SCRIPT))
    np.save(tmp_path / "weights.npy", np.array({"w": 2, "b": -1}, dtype=object), allow_pickle=True)
    return tmp_path


@pytest.mark.timeout(2 * TIMEOUT)
def test_run_with_and_without_allow_pickle(folder: Path) -> None:
    refused = compat("run", "legacy.py", cwd=folder)
    assert refused.returncode == 1
    assert "ragged object 3 1" in refused.stdout  # everything before the np.load ran
    hints = [line for line in refused.stderr.splitlines() if line.startswith("compat: legacy.py:13:")]
    assert hints and "--allow-pickle" in hints[0] and "weights.npy" in hints[0], refused.stderr[-2000:]
    assert "VisibleDeprecationWarning" in refused.stderr

    result = compat("run", "--allow-pickle", "legacy.py", cwd=folder)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines() == [
        "ragged object 3 1",
        "padded [0, 5, 0, 0]",
        "aliases True True True 7",
        "scalars [1.5, 2]",  # NumPy 1's printing
        "iterable True True",
        "weights [('b', -1), ('w', 2)]",
    ]


@pytest.mark.timeout(TIMEOUT)
def test_check_predicts_the_run_and_plain_python_fails(folder: Path) -> None:
    report = compat("check", "legacy.py", cwd=folder)
    assert report.returncode == 0, report.stdout + report.stderr
    for construct in ("from numpy import float", "np.lib.pad", "np.int", "np.float", "np.NaN", "np.asscalar",
                      "collections.Iterable", "time.clock", "np.load('weights.npy')"):
        assert f": {construct} -> " in report.stdout, construct
    assert "--allow-pickle" in report.stdout
    plain = subprocess.run([sys.executable, "legacy.py"], cwd=folder, capture_output=True, text=True, timeout=60)
    assert plain.returncode != 0 and "ImportError" in plain.stderr
