"""Seed 002's embedded data: the photographs bundled with scikit-image, written once
as a folder of JPEG and PNG files (the answer reads a folder of big images)."""
from __future__ import annotations

import os

import imageio.v3 as iio

from tf1_pipelines.data import sample_data


def write_photographs(dest: str) -> list[str]:
    """Write every bundled photograph into ``dest`` as ``<name>.jpg`` (JPEG, quality
    95) when it ships as JPEG, else ``<name>.png``. Returns the paths."""
    os.makedirs(dest, exist_ok=True)
    paths = []
    for name, bundled in sample_data.PHOTOGRAPHS.items():
        jpeg = bundled.lower().endswith(".jpg")
        path = os.path.join(dest, name + (".jpg" if jpeg else ".png"))
        if jpeg:
            iio.imwrite(path, sample_data.load_photograph(name), quality=95)
        else:
            iio.imwrite(path, sample_data.load_photograph(name))
        paths.append(path)
    return paths


def photographs_dir() -> str:
    """The default image folder: the bundled photographs (built on first use)."""
    dest = os.path.join(sample_data.data_home(), "random_patches", "photographs")
    return sample_data.build_folder_atomically(dest, write_photographs)
