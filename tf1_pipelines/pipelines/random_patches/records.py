"""Seed 002's data format: a folder of JPEG or PNG images, read whole. There are no
TFRecords in this pipeline (the answer decodes the image files in the graph), so
this module holds what a records module holds elsewhere: listing the files and
checking them in numpy, naming the first bad one."""
from __future__ import annotations

import os

from tf1_pipelines.errors import DataError
from tf1_pipelines.image.folders import IMAGE_EXTENSIONS, image_files
from tf1_pipelines.image.open_image import open_image

__all__ = ["IMAGE_EXTENSIONS", "check_image_files", "list_image_files"]


def list_image_files(image_dir: str) -> list[str]:
    """Sorted image files of ``image_dir`` by the one rule of
    :mod:`tf1_pipelines.image.folders` (``.jpg``/``.jpeg``/``.png`` in any case,
    8-bit, a dangling link a DataError); DataError if the folder is missing or
    holds none."""
    files = image_files(image_dir)
    if not files:
        raise DataError(f"no JPEG or PNG images ({', '.join(IMAGE_EXTENSIONS)}, any case) in "
                        "this directory", path=os.fspath(image_dir))
    return files


def check_image_files(filenames: list[str], patch_size: int, decode: bool = False) -> None:
    """DataError naming the first file that is unreadable or smaller than
    ``patch_size`` on a side. Reads headers only unless ``decode``."""
    for path in filenames:
        with open_image(path) as im:  # a bomb is refused from its header
            width, height = im.size
            if decode:
                im.load()
        if height < patch_size or width < patch_size:
            raise DataError(f"image is {height}x{width}, smaller than the patch size "
                            f"{patch_size}x{patch_size}", path=path)
