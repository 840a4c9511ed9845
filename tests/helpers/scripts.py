"""Scripts written into a test's folder and run under the compat runner in a subprocess."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

#: Seconds a small script gets under ``python -m compat run`` (TensorFlow's start included).
RUN_TIMEOUT = 150


def write(path: Path, text: str) -> Path:
    """Write the dedented ``text`` (its leading newline dropped) to ``path``, making the
    folders on the way; returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def quiet_env() -> dict[str, str]:
    """This process's environment with TensorFlow's C++ log at warnings and no GPU."""
    return dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")


def compat_run(script: Path, *args: str, timeout: float = RUN_TIMEOUT) -> subprocess.CompletedProcess:
    """``python -m compat run SCRIPT ARGS...`` in the script's folder; output captured as text."""
    return subprocess.run([sys.executable, "-m", "compat", "run", str(script), *args], cwd=script.parent,
                          env=quiet_env(), capture_output=True, text=True, timeout=timeout, check=False)
