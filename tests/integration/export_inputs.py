"""Tiny inputs for every writer of the project, and checks on what they wrote.

Run as a script (``python export_inputs.py OUT``) it builds the inputs under
``OUT/inputs`` and runs every writer into ``OUT/exports/<writer>``: the
reproducibility tests run it in two fresh processes and compare file hashes.
"""
from __future__ import annotations

import hashlib
import os
import sys

import numpy as np
from PIL import Image

WRITERS = ("div2k_sr", "stylegan_lod", "voc_segmentation", "inception_multilabel")


def write_pngs(folder: str, count: int, size: int = 192, seed: int = 0) -> list[str]:
    """``count`` RGB PNGs of ``size`` x ``size`` random pixels (4 div2k patches each at 96)."""
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(seed)
    paths = []
    for index in range(count):
        path = os.path.join(folder, f"{index:04d}.png")
        Image.fromarray(rng.integers(0, 256, (size, size, 3), dtype=np.uint8)).save(path)
        paths.append(path)
    return paths


def write_voc_pairs(folder: str, count: int, seed: int = 1) -> list[tuple[str, str]]:
    """``count`` (image PNG, palette-free 8-bit mask PNG) pairs of 8x12 pixels."""
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(seed)
    pairs = []
    for index in range(count):
        img, mask = os.path.join(folder, f"{index}.png"), os.path.join(folder, f"{index}_m.png")
        Image.fromarray(rng.integers(0, 256, (8, 12, 3), dtype=np.uint8)).save(img)
        Image.fromarray(rng.integers(0, 21, (8, 12), dtype=np.uint8), mode="L").save(mask)
        pairs.append((img, mask))
    return pairs


def write_voc_folders(folder: str, count: int, seed: int = 1) -> tuple[str, str]:
    """VOC-style ``JPEGImages/<i>.png`` and ``SegmentationClass/<i>.png`` (8x12)."""
    image_dir, mask_dir = os.path.join(folder, "JPEGImages"), os.path.join(folder, "SegmentationClass")
    for directory in (image_dir, mask_dir):
        os.makedirs(directory, exist_ok=True)
    for index, (img, mask) in enumerate(write_voc_pairs(os.path.join(folder, "pairs"), count, seed)):
        os.replace(img, os.path.join(image_dir, f"{index}.png"))
        os.replace(mask, os.path.join(mask_dir, f"{index}.png"))
    return image_dir, mask_dir


def write_labelled_jpegs(folder: str, count: int, seed: int = 2) -> dict[str, dict[str, int]]:
    """``count`` 16x16 JPEGs and their labels ``{name: {'scene': k}}`` (2 classes)."""
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(seed)
    labels = {}
    for index in range(count):
        name = f"img{index}.jpg"
        Image.fromarray(rng.integers(0, 256, (16, 16, 3), dtype=np.uint8)).save(
            os.path.join(folder, name), quality=90)
        labels[name] = {"scene": index % 2}
    return labels


SEMANTIC_LEVELS = (("scene", 2),)


def stylegan_images(count: int, seed: int = 3) -> np.ndarray:
    """uint8 [count, 3, 8, 8] CHW images (LODs 8x8, 4x4)."""
    return np.random.default_rng(seed).integers(0, 256, (count, 3, 8, 8), dtype=np.uint8)


def export_stylegan(tfrecord_dir: str, images: np.ndarray) -> None:
    """The original tool's order: shuffled images, then their one-column labels."""
    from tf1_pipelines.pipelines.stylegan_lod import TFRecordExporter

    with TFRecordExporter(tfrecord_dir, len(images), print_progress=False) as tfr:
        order = tfr.choose_shuffled_order()
        for index in order:
            tfr.add_image(images[index])
        tfr.add_labels(np.arange(len(images), dtype=np.float32)[order, None])


def tree_hashes(folder: str) -> dict[str, str]:
    """``{relative path: sha256}`` of every file under ``folder``."""
    hashes = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as handle:
                hashes[os.path.relpath(path, folder)] = hashlib.sha256(handle.read()).hexdigest()
    return hashes


def non_canonical_records(path: str) -> int:
    """How many records of a TFRecord file differ from their deterministic
    serialization (map entries sorted by key)."""
    from tensorflow.core.example import example_pb2

    from tf1_pipelines.records.reader import iterate_records
    from tf1_pipelines.records.serialize import serialize

    return sum(serialize(example_pb2.Example.FromString(record)) != record
               for record in iterate_records(path))


def export_everything(out: str) -> None:
    """Every writer of the project on tiny inputs, into ``out/exports/<writer>``."""
    from tf1_pipelines.pipelines.div2k_sr import write_patch_records
    from tf1_pipelines.pipelines.inception_multilabel import build_shards
    from tf1_pipelines.pipelines.voc_segmentation import write_sharded_records

    inputs, exports = os.path.join(out, "inputs"), os.path.join(out, "exports")
    write_patch_records(write_pngs(os.path.join(inputs, "pngs"), 2),
                        os.path.join(exports, "div2k_sr"), 96, 3)
    export_stylegan(os.path.join(exports, "stylegan_lod"), stylegan_images(5))
    write_sharded_records(write_voc_pairs(os.path.join(inputs, "voc"), 4),
                          os.path.join(exports, "voc_segmentation"), 2)
    labels = write_labelled_jpegs(os.path.join(inputs, "jpegs"), 4)
    build_shards(os.path.join(inputs, "jpegs"), os.path.join(exports, "inception_multilabel"),
                 SEMANTIC_LEVELS, "train", 2, labels=labels)


if __name__ == "__main__":
    export_everything(sys.argv[1])
