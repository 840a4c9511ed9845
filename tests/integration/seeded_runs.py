"""Seeded runs of every dataset-backed pipeline in fresh processes, shared by
``test_same_seed.py`` and ``test_resume.py`` (one pair of processes for both).

Run as a script: ``python seeded_runs.py <mode> <state_dir> <ks-json>`` (pipeline
name -> the k to save or resume at) prints one JSON
line: pipeline name -> {"fresh": [digest per batch], "other_seed": [...],
"resumed": {k: [digests of batches k..N-1 after restoring the state saved after
k batches]}}. ``mode`` "first" saves the states (at every k), "second" restores
them. A digest is the SHA-256 of every array of a batch (values, shapes, dtypes).
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

SEED = 11
#: name -> (options, batches in one epoch, batches N read): N crosses an epoch end.
CASES: dict[str, tuple[dict[str, Any], int, int]] = {
    "div2k_sr": ({"batch_size": 64}, 9, 12),
    "voc_segmentation": ({"backend": "dataset", "batch_size": 2}, 3, 6),
    "inception_multilabel": ({"backend": "dataset", "batch_size": 8,
                              "input_queue_memory_factor": 1, "examples_per_shard": 16}, 4, 7),
    "stylegan_lod": ({"lod": 3}, 2, 5),
    "random_patches": ({"num_patches": 10, "num_epochs": None}, 10, 14),
    "constant": ({"num_epochs": None}, 3, 6),
}
TIMEOUT = 240


def digest(batch: Any) -> str:
    """SHA-256 of every array of a Batch (dict-valued fields in key order)."""
    sha = hashlib.sha256()
    for value in batch:
        arrays = [value[k] for k in sorted(value)] if isinstance(value, dict) else [value]
        for array in arrays:
            array = np.asarray(array)
            sha.update(f"{array.dtype}{array.shape}".encode())
            if array.dtype == object:  # strings: their bytes, not the object pointers
                sha.update(b"\0".join(bytes(v) for v in array.ravel()))
            else:
                sha.update(np.ascontiguousarray(array).tobytes())
    return sha.hexdigest()


def draw_ks(rng: Any) -> dict[str, list[int]]:
    """For every pipeline two k: one inside the first epoch, one past its end."""
    return {name: [rng.randrange(1, epoch), rng.randrange(epoch, n)]
            for name, (_, epoch, n) in CASES.items()}


def run_case(name: str, mode: str, state_dir: str, ks: list[int]) -> dict[str, Any]:
    """The fresh run (saving after every k in "first" mode), another seed's first
    batches, and (in "second" mode) the runs resumed from every saved k."""
    import tf1_pipelines as tp

    options, _, n = CASES[name]
    out: dict[str, Any] = {"fresh": [], "resumed": {}}
    with tp.load_pipeline(name, seed=SEED, **options) as p:
        for i in range(n):
            if mode == "first" and i in ks:
                p.save_state(os.path.join(state_dir, f"{name}-{i}"))
            out["fresh"].append(digest(p.get_batch()))
        if mode == "second":
            for k in ks:
                p.restore_state(os.path.join(state_dir, f"{name}-{k}"))
                out["resumed"][str(k)] = [digest(p.get_batch()) for _ in range(k, n)]
    with tp.load_pipeline(name, seed=SEED + 1, **options) as p:
        out["other_seed"] = [digest(p.get_batch()) for _ in range(3)]
    return out


def main(argv: list[str]) -> None:
    mode, state_dir, ks = argv[0], argv[1], json.loads(argv[2])
    print(json.dumps({name: run_case(name, mode, state_dir, ks[name]) for name in CASES}))


@functools.cache
def two_processes(state_dir: str, ks_json: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The JSON of a "first" and then a "second" process (each a fresh interpreter)."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    results = []
    for mode in ("first", "second"):
        done = subprocess.run([sys.executable, str(Path(__file__)), mode, state_dir,
                               ks_json], capture_output=True, text=True,
                              timeout=TIMEOUT, env=env, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{mode} process failed:\n{done.stderr[-3000:]}")
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return results[0], results[1]


_SHARED: dict[str, Any] = {}


def shared_runs(tmp_path_factory: Any, rng: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The two processes' results, run once per test session (the k are drawn with
    ``rng`` on first use; :func:`last_ks` tells which)."""
    if "ks" not in _SHARED:
        _SHARED["ks"] = draw_ks(rng)
        _SHARED["dir"] = str(tmp_path_factory.mktemp("states"))
    return two_processes(_SHARED["dir"], json.dumps(_SHARED["ks"]))


def last_ks() -> dict[str, list[int]]:
    """The k of every pipeline in the shared runs."""
    return dict(_SHARED["ks"])


if __name__ == "__main__":
    main(sys.argv[1:])
