"""The embedded default data of seed 004 (see the package docstring): bundled
photographs cut into quadrants, labelled by scene and dominant colour."""
from __future__ import annotations

import csv
import os

import numpy as np
from PIL import Image

from tf1_pipelines.data import sample_data

from .records import SUBSETS, build_shards

SCENE_CLASSES = ("person", "animal", "object", "vehicle", "science")
COLOUR_CLASSES = ("red", "green", "blue")
PHOTO_SCENES: dict[str, str] = {
    "astronaut": "person", "chelsea": "animal", "coffee": "object", "rocket": "vehicle",
    "motorcycle_left": "vehicle", "motorcycle_right": "vehicle",
    "immunohistochemistry": "science", "hubble_deep_field": "science", "retina": "science"}
DEFAULT_SEMANTIC_LEVEL_SETTINGS: tuple[tuple[str, int], ...] = (
    ("scene", len(SCENE_CLASSES)), ("colour", len(COLOUR_CLASSES)))
DEFAULT_SHARDS = {"train": 4, "validation": 2}
DEFAULT_SHORT_SIDE = 320


def quadrants(rgb: np.ndarray) -> list[np.ndarray]:
    """The four quadrants of an image: top-left, top-right, bottom-left, bottom-right."""
    h, w = rgb.shape[0] // 2, rgb.shape[1] // 2
    return [rgb[:h, :w], rgb[:h, w:2 * w], rgb[h:2 * h, :w], rgb[h:2 * h, w:2 * w]]


def dominant_colour(rgb: np.ndarray) -> int:
    """0 red, 1 green, 2 blue: the channel with the largest mean."""
    return int(np.argmax(rgb.reshape(-1, 3).astype(np.float64).mean(axis=0)))


def write_default_data(dest: str) -> None:
    """The embedded data set (module docstring): JPEGs and ``labels.csv`` under
    ``images/<subset>/`` and the shards ``<subset>-XXXXX-of-YYYYY`` in ``dest``."""
    for subset in SUBSETS:
        os.makedirs(os.path.join(dest, "images", subset), exist_ok=True)
    rows: dict[str, list[tuple[str, int, int]]] = {subset: [] for subset in SUBSETS}
    for name, scene in PHOTO_SCENES.items():
        photo = Image.fromarray(sample_data.load_photograph(name))
        scale = DEFAULT_SHORT_SIDE / min(photo.size)
        photo = photo.resize((round(photo.width * scale), round(photo.height * scale)),
                             Image.Resampling.BICUBIC)
        for k, part in enumerate(quadrants(np.asarray(photo))):
            subset = "train" if k < 3 else "validation"
            filename = f"{name}_q{k}.jpg"
            Image.fromarray(np.ascontiguousarray(part)).save(
                os.path.join(dest, "images", subset, filename), quality=90)
            rows[subset].append((filename, SCENE_CLASSES.index(scene), dominant_colour(part)))
    for subset in SUBSETS:
        with open(os.path.join(dest, "images", subset, "labels.csv"), "w", newline="",
                  encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["filename"] + [level for level, _ in DEFAULT_SEMANTIC_LEVEL_SETTINGS])
            writer.writerows(rows[subset])
        build_shards(os.path.join(dest, "images", subset), dest, DEFAULT_SEMANTIC_LEVEL_SETTINGS,
                     subset, DEFAULT_SHARDS[subset])


def default_data_dir() -> str:
    """The embedded data folder (built on first use under ``sample_data.data_home()``)."""
    dest = os.path.join(sample_data.data_home(), "inception_multilabel")
    return sample_data.build_folder_atomically(dest, write_default_data)
