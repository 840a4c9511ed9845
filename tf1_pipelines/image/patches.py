"""Pure-numpy patch extraction (no TensorFlow): the data logic of seed 000."""
from __future__ import annotations

import glob
import os
from collections.abc import Iterator

import numpy as np

from tf1_pipelines.errors import DataError
from tf1_pipelines.image.colour import img_to_uint8, rgb2ycbcr
from tf1_pipelines.image.folders import IMAGE_EXTENSIONS, image_files
from tf1_pipelines.image.open_image import open_image

#: PIL modes read_rgb converts to RGB: 8-bit grayscale, palette, RGB, with or without alpha.
_READ_RGB_MODES = ("1", "L", "P", "RGB", "RGBA", "LA", "PA")


def list_images(directory: str | os.PathLike[str], pattern: str | None = None) -> list[str]:
    """Sorted image files of ``directory`` by the one rule of
    :mod:`tf1_pipelines.image.folders` (``.png``/``.jpg``/``.jpeg`` in any case,
    8-bit, a dangling link a DataError), or the files matching ``pattern`` when
    given; DataError if the folder is missing or holds none."""
    directory = os.fspath(directory)
    if pattern is None:
        paths = image_files(directory)
        if not paths:
            raise DataError(f"no images ({', '.join(IMAGE_EXTENSIONS)}, any case) in this "
                            "directory", path=directory)
        return paths
    if not os.path.isdir(directory):
        raise DataError("image directory does not exist", path=directory)
    paths = sorted(glob.glob(os.path.join(glob.escape(directory), pattern)))
    if not paths:
        raise DataError(f"no images matching {pattern!r} in this directory", path=directory)
    return paths


def read_rgb(path: str, min_size: int = 1) -> np.ndarray:
    """An 8-bit image file as uint8 [H, W, 3] RGB, values 0..255.

    Grayscale, palette and RGBA images are converted to RGB (alpha dropped), so a
    folder of mixed PNGs still works; images with more than 8 bits per channel,
    unreadable files and images smaller than ``min_size`` on a side raise
    DataError naming the file.
    """
    with open_image(path) as im:  # a bomb, a truncated file: DataError naming it
        if im.mode not in _READ_RGB_MODES:
            raise DataError(f"PIL mode {im.mode!r} is not an 8-bit grayscale/RGB(A) image",
                            path=path)
        rgb = np.asarray(im.convert("RGB"))
    height, width = rgb.shape[:2]
    if height < min_size or width < min_size:
        raise DataError(f"image is {height}x{width}, smaller than the patch size {min_size}",
                        path=path)
    return rgb


def luma_uint8(rgb: np.ndarray) -> np.ndarray:
    """The Y channel of seed 000: ``img_to_uint8(rgb2ycbcr(rgb)[:, :, 0])``, uint8 [H, W] in 16..235."""
    return img_to_uint8(rgb2ycbcr(rgb)[:, :, 0])


def grid_patches(y: np.ndarray, patch_size: int) -> Iterator[np.ndarray]:
    """Patches [p, p] of ``y`` on seed 000's grid: stride ``p // 3 * 2``, rows then columns."""
    p = patch_size
    step = p // 3 * 2
    height, width = y.shape[:2]
    for h in range(0, height - p + 1, step):
        for w in range(0, width - p + 1, step):
            yield y[h:h + p, w:w + p]


def random_patch(image: np.ndarray, patch_size: int, rng: np.random.RandomState) -> np.ndarray:
    """A uniformly placed [p, p, ...] crop, drawing row then column as seed 000 does."""
    p = patch_size
    h = rng.randint(image.shape[0] - p + 1)
    w = rng.randint(image.shape[1] - p + 1)
    return image[h:h + p, w:w + p]


def check_image_header(path: str, min_size: int = 1) -> tuple[int, int]:
    """Read only the header of an image file: DataError naming the file unless it is
    an 8-bit image that :func:`read_rgb` takes, at least ``min_size`` on each side.
    Returns its (height, width). Cheap: the pixels are not decoded."""
    with open_image(path) as im:  # a bomb is refused here, from its header
        mode, (width, height) = im.mode, im.size
    if mode not in _READ_RGB_MODES:
        raise DataError(f"PIL mode {mode!r} is not an 8-bit grayscale/RGB(A) image", path=path)
    if height < min_size or width < min_size:
        raise DataError(f"image is {height}x{width}, smaller than the patch size {min_size}",
                        path=path)
    return height, width
