"""Time and size of ``save_state`` + ``restore_state`` for every dataset-backed
pipeline on its embedded data, with its shuffle buffer full (after the first batch).

    python benchmarks/resume_cost.py

Prints one row per pipeline: state size, save time and restore time (the median
of three, after a first save that also builds the saver's ops, shown apart).
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from typing import Any

import tf1_pipelines as tp

CASES: list[tuple[str, dict[str, Any]]] = [
    ("div2k_sr", {}),
    ("voc_segmentation", {"backend": "dataset"}),
    ("inception_multilabel", {"backend": "dataset"}),
    # The default buffer (16384 records) holds the embedded epoch 500 times over; one
    # epoch (32 records) is what a buffer of this data set needs.
    ("inception_multilabel", {"backend": "dataset", "input_queue_memory_factor": 1,
                              "examples_per_shard": 32}),
    ("stylegan_lod", {}),
    ("random_patches", {"num_epochs": None}),
    ("constant", {}),
]


def folder_bytes(path: str) -> int:
    return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))


def measure(name: str, options: dict[str, Any], folder: str) -> str:
    path = os.path.join(folder, name)
    with tp.load_pipeline(name, seed=1, **options) as p:
        p.get_batch()  # the shuffle buffer is full before the first element leaves it
        start = time.perf_counter()
        p.save_state(path)
        first = time.perf_counter() - start
        saves, restores = [], []
        for _ in range(3):
            start = time.perf_counter()
            p.save_state(path)
            saves.append(time.perf_counter() - start)
            start = time.perf_counter()
            p.restore_state(path)
            restores.append(time.perf_counter() - start)
    label = name + "".join(f" {k}={v}" for k, v in options.items() if k != "backend")
    return (f"| {label} | {folder_bytes(path) / 1e6:.1f} MB | {first:.2f} s | "
            f"{statistics.median(saves):.2f} s | {statistics.median(restores):.2f} s |")


def main() -> None:
    print("| pipeline | state | first save | save | restore |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for name, options in CASES:
            print(measure(name, options, folder), flush=True)


if __name__ == "__main__":
    sys.exit(main())
