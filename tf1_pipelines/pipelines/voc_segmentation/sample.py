"""The embedded default data of seed 003 (see the package docstring): bundled
photographs as JPEGs with masks from their luma, in VOC's folder layout."""
from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
from PIL import Image

from tf1_pipelines.data import sample_data

DEFAULT_PHOTOGRAPHS: tuple[str, ...] = ("astronaut", "coffee", "chelsea", "rocket",
                                        "immunohistochemistry", "motorcycle_left")
MASK_CLASSES = 4


def mask_from_luma(rgb: np.ndarray) -> np.ndarray:
    """Class ids uint8 [H, W] in 0..3 from uint8 RGB [H, W, 3]: ITU-R 601 luma
    ``0.299 R + 0.587 G + 0.114 B`` quantised to four bands of 64 grey levels,
    computed exactly in integers (``(299 R + 587 G + 114 B) // 64000``)."""
    rgb = rgb[..., :3].astype(np.int64)
    luma_1000 = 299 * rgb[..., 0] + 587 * rgb[..., 1] + 114 * rgb[..., 2]
    return np.minimum(luma_1000 // 64000, MASK_CLASSES - 1).astype(np.uint8)


def voc_colormap(n: int = 256) -> np.ndarray:
    """The PASCAL VOC palette: uint8 [n, 3], class c's colour from the bits of c."""
    colormap = np.zeros((n, 3), np.uint8)
    for index in range(n):
        c, r, g, b = index, 0, 0, 0
        for shift in range(7, -1, -1):
            r |= (c & 1) << shift
            g |= ((c >> 1) & 1) << shift
            b |= ((c >> 2) & 1) << shift
            c >>= 3
        colormap[index] = (r, g, b)
    return colormap


def write_default_pairs(dest: str, names: Sequence[str] = DEFAULT_PHOTOGRAPHS
                        ) -> list[tuple[str, str]]:
    """Write ``JPEGImages/<name>.jpg`` and ``SegmentationClass/<name>.png`` (palette
    PNG of :func:`mask_from_luma` of the decoded JPEG) for each photograph."""
    image_dir = os.path.join(dest, "JPEGImages")
    mask_dir = os.path.join(dest, "SegmentationClass")
    os.makedirs(image_dir, exist_ok=True)
    os.makedirs(mask_dir, exist_ok=True)
    palette = voc_colormap().reshape(-1).tolist()
    pairs = []
    for name in names:
        img_path = os.path.join(image_dir, f"{name}.jpg")
        Image.fromarray(sample_data.load_photograph(name)).save(img_path, quality=95)
        with Image.open(img_path) as im:
            mask = Image.fromarray(mask_from_luma(np.asarray(im.convert("RGB"))))
        mask.putpalette(palette)
        mask_path = os.path.join(mask_dir, f"{name}.png")
        mask.save(mask_path)
        pairs.append((img_path, mask_path))
    return pairs


def default_pairs_dir() -> str:
    """The embedded VOC-like folder (``JPEGImages/``, ``SegmentationClass/``), built on
    first use under :func:`tf1_pipelines.data.sample_data.data_home`."""
    dest = os.path.join(sample_data.data_home(), "voc_like")
    return sample_data.build_folder_atomically(dest, write_default_pairs)
