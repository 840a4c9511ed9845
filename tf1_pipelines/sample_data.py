"""The embedded default data: real photographs that ship inside scikit-image.

No network is needed: the scikit-image wheel bundles a few photographs under
``skimage/data/``. They are read from there as files (no scikit-image code
runs) and written out as small folders shaped like the data sets the seeds
used, e.g. a DIV2K-like folder of numbered PNGs.

Folders made for a pipeline's default live under ``$TF1_PIPELINES_DATA`` (or
``~/.cache/tf1_pipelines``); each is built in a temporary folder and renamed
into place when complete, so an interrupted build leaves nothing half-written.
"""
from __future__ import annotations

import importlib.resources
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence

import imageio.v3 as iio
import numpy as np

#: RGB photographs bundled with scikit-image: name -> file in skimage/data.
PHOTOGRAPHS: dict[str, str] = {
    "astronaut": "astronaut.png",              # 512 x 512
    "coffee": "coffee.png",                    # 400 x 600
    "chelsea": "chelsea.png",                  # 300 x 451
    "rocket": "rocket.jpg",                    # 427 x 640
    "immunohistochemistry": "ihc.png",         # 512 x 512
    "motorcycle_left": "motorcycle_left.png",  # 500 x 741
    "motorcycle_right": "motorcycle_right.png",  # 500 x 741
    "hubble_deep_field": "hubble_deep_field.jpg",  # 872 x 1000
    "retina": "retina.jpg",                    # 1411 x 1411
    "color": "color.png",                      # 370 x 371
}

#: The photographs of the DIV2K-like set, in file order 0001.png, 0002.png, ...
DIV2K_LIKE: tuple[str, ...] = ("astronaut", "coffee", "chelsea", "rocket", "immunohistochemistry",
                               "motorcycle_left", "motorcycle_right", "hubble_deep_field")


def photograph_path(name: str) -> str:
    """Path of a bundled photograph file."""
    if name not in PHOTOGRAPHS:
        raise ValueError(f"unknown photograph {name!r}; bundled: {', '.join(PHOTOGRAPHS)}")
    path = importlib.resources.files("skimage.data") / PHOTOGRAPHS[name]
    return os.fspath(path)


def load_photograph(name: str) -> np.ndarray:
    """A bundled photograph as uint8 [H, W, 3] RGB, values 0..255."""
    image = np.asarray(iio.imread(photograph_path(name)))
    return image[..., :3]


def data_home() -> str:
    """Where default data folders are built: ``$TF1_PIPELINES_DATA`` or ``~/.cache/tf1_pipelines``."""
    default = os.path.join(os.path.expanduser("~"), ".cache", "tf1_pipelines")
    return os.environ.get("TF1_PIPELINES_DATA", default)


def build_folder_atomically(dest: str, fill: Callable[[str], None]) -> str:
    """Call ``fill(tmp_dir)`` and rename ``tmp_dir`` to ``dest``; no-op if ``dest`` exists."""
    if os.path.isdir(dest):
        return dest
    parent = os.path.dirname(os.path.abspath(dest))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".partial-", dir=parent)
    try:
        fill(tmp)
        os.replace(tmp, dest)
    except OSError:
        if not os.path.isdir(dest):  # lost a race with another process: theirs is complete
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest


def write_div2k_like(dest: str, names: Sequence[str] = DIV2K_LIKE) -> list[str]:
    """Write the photographs as ``0001.png``, ``0002.png``, ... (RGB) into ``dest``.

    Returns the sorted PNG paths.
    """
    os.makedirs(dest, exist_ok=True)
    paths = []
    for index, name in enumerate(names, start=1):
        path = os.path.join(dest, f"{index:04d}.png")
        iio.imwrite(path, load_photograph(name))
        paths.append(path)
    return paths


def div2k_like_dir() -> str:
    """The default DIV2K-like folder (built on first use)."""
    dest = os.path.join(data_home(), "div2k_like", "DIV2K_train_HR")
    return build_folder_atomically(dest, write_div2k_like)
