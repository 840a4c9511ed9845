"""The main job (``make demo``): seed 000 end to end on the embedded photographs.

Builds the TFRecords with a progress bar, reads them back through both
backends, prints the seed's line ``(64, 24, 24, 1) (64, 96, 96, 1)`` and the
throughput, and writes a PNG of LR/HR pairs side by side.
"""
from __future__ import annotations

import os
import time

import numpy as np
from PIL import Image
from tqdm import tqdm

import tf1_pipelines as tp
from tf1_pipelines.data import sample_data
from tf1_pipelines.errors import ConfigError
from tf1_pipelines.image.patches import list_images
from tf1_pipelines.options import check_positive_int
from tf1_pipelines.pipelines.div2k_sr import write_patch_records


def build_records(data_dir: str, save_dir: str, tfrecord_num: int = 10,
                  patch_size: int = 96, force: bool = False) -> int:
    """Write the seed's ``patch_size`` x ``patch_size`` patch records with a progress
    bar; returns the patch count. ConfigError for a ``patch_size`` below 3; DataError
    for a file in ``save_dir`` this project did not write, unless ``force``."""
    if check_positive_int("patch_size", patch_size) < 3:  # the grid steps by p // 3 * 2
        raise ConfigError(f"patch_size must be a whole number >= 3, got {patch_size!r}")
    paths = list_images(data_dir)
    with tqdm(total=len(paths), unit="image", desc="gen_tfrecords") as bar:
        def advance(path: str, count: int) -> None:
            bar.set_postfix(patches=count)
            bar.update(1)
        return write_patch_records(paths, save_dir, patch_size, tfrecord_num, on_image=advance,
                                   force=force)


def measure(pipeline: tp.Pipeline, batches: int) -> tuple[tuple[int, ...], tuple[int, ...], float]:
    """Shapes of the first batch, and patches/s over the next ``batches`` batches."""
    first = pipeline.get_batch()
    start, count = time.perf_counter(), 0
    for _ in range(batches):
        count += len(pipeline.get_batch().hr)
    return first.lr.shape, first.hr.shape, count / (time.perf_counter() - start)


def pairs_image(lr: np.ndarray, hr: np.ndarray, pairs: int = 8) -> Image.Image:
    """A grid: each row an LR patch (nearest-upscaled to HR size) beside its HR patch."""
    rows = []
    for i in range(min(pairs, len(hr))):
        big_lr = np.kron(lr[i, :, :, 0], np.ones((hr.shape[1] // lr.shape[1],) * 2))
        gap = np.ones((hr.shape[1], 4))
        rows.append(np.hstack([big_lr, gap, hr[i, :, :, 0]]))
        rows.append(np.ones((4, rows[-1].shape[1])))
    grid = np.clip(np.vstack(rows[:-1]) * 255.0, 0, 255).round().astype(np.uint8)
    return Image.fromarray(grid, mode="L")


def run_demo(out_dir: str = "demo_output", data_dir: str | None = None,
             batches: int = 30) -> str:
    """Run the demo; returns the path of the PNG it wrote."""
    data_dir = data_dir or sample_data.div2k_like_dir()
    record_dir = os.path.join(out_dir, "tfrecords")
    print(f"images: {data_dir} ({len(list_images(data_dir))} PNGs)")
    count = build_records(data_dir, record_dir)
    shards = len([f for f in os.listdir(record_dir) if f.endswith(".tfrecords")])
    print(f"example number: {count} patches in {shards} shards under {record_dir}")
    last = None
    for backend in ("tfrecords", "generator"):
        for lr_method in ("native", "py_func"):
            with tp.load_pipeline("div2k_sr", data_dir=data_dir, tfrecord_dir=record_dir,
                                  backend=backend, lr_method=lr_method, batch_size=64) as p:
                lr_shape, hr_shape, rate = measure(p, batches)
                print(lr_shape, hr_shape)
                print(f"  backend={backend:<9} lr_method={lr_method:<7} {rate:8.0f} patches/s")
                if backend == "tfrecords" and lr_method == "native":
                    last = p.get_batch()
    if last is None:  # the tfrecords/native case above always runs
        raise RuntimeError("no batch of backend tfrecords, lr_method native to draw")
    png = os.path.join(out_dir, "lr_hr_pairs.png")
    pairs_image(last.lr, last.hr).save(png)
    print(f"LR (left, 4x nearest) / HR (right) pairs written to {png}")
    return png
