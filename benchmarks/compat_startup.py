"""Start-up of ``python -m compat run`` against plain ``python`` on a trivial TensorFlow script.

    python benchmarks/compat_startup.py [--rounds 7]

Each round runs both, one after the other in alternating order, each in a
fresh process; the script imports TensorFlow, builds one constant and runs it
in a session (``tf.compat.v1`` for plain python, ``tf`` under the runner). It
prints the median wall time of each and the ratio of the medians (the issue's
bound is 1.2).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAIN = "import tensorflow as tf\ntf = tf.compat.v1\ntf.disable_eager_execution()\n" \
        "print(tf.Session().run(tf.constant(2) * 21))\n"
LEGACY = "import tensorflow as tf\nprint(tf.Session().run(tf.constant(2) * 21))\n"


def timed(command: list[str]) -> float:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    start = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    elapsed = time.perf_counter() - start
    if result.returncode != 0 or result.stdout.strip() != "42":
        raise RuntimeError(f"{command} failed: {result.stderr[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as folder:
        plain, legacy = Path(folder, "plain.py"), Path(folder, "legacy.py")
        plain.write_text(PLAIN)
        legacy.write_text(LEGACY)
        commands = {"python": [sys.executable, str(plain)],
                    "compat run": [sys.executable, "-m", "compat", "run", str(legacy)]}
        times: dict[str, list[float]] = {name: [] for name in commands}
        for index in range(rounds):
            order = list(commands) if index % 2 == 0 else list(reversed(commands))
            for name in order:
                times[name].append(timed(commands[name]))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, value in medians.items():
        print(f"{name:12s} median {value:.2f} s  (range {min(times[name]):.2f}-{max(times[name]):.2f})")
    print(f"ratio compat run / python: {medians['compat run'] / medians['python']:.2f}")


if __name__ == "__main__":
    main()
