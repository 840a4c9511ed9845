"""The original ``dataset_tool.py``: :func:`create_from_images` (a folder of images into
a :class:`TFRecordExporter`) and its command line, :func:`main`."""
from __future__ import annotations

import argparse
import glob
import os
import sys
from collections.abc import Sequence

import numpy as np
import PIL.Image

from tf1_pipelines.errors import DataError
from tf1_pipelines.pipelines.stylegan_lod.errors import error
from tf1_pipelines.pipelines.stylegan_lod.exporter import TFRecordExporter


def read_image_array(path: str) -> np.ndarray:
    """``np.asarray(PIL.Image.open(path))`` as the original reads images (no mode
    conversion), with a DataError naming the file if it cannot be decoded."""
    try:
        with PIL.Image.open(path) as im:
            return np.asarray(im)
    except (OSError, SyntaxError, ValueError) as exc:  # PIL.UnidentifiedImageError is an OSError
        raise DataError(f"cannot decode image ({exc})", path=path) from exc


def create_from_images(tfrecord_dir: str, image_dir: str, shuffle: int | bool) -> None:
    """Export every file of ``image_dir`` (sorted; all square, one power-of-two size,
    RGB or grayscale) into ``tfrecord_dir``, in ``choose_shuffled_order()`` if
    ``shuffle`` else in name order. Bad input raises DatasetToolError/DataError
    naming the file; nothing is published then."""
    print('Loading images from "%s"' % image_dir)
    image_filenames = sorted(glob.glob(os.path.join(glob.escape(os.fspath(image_dir)), "*")))
    if len(image_filenames) == 0:
        error("No input images found", os.fspath(image_dir))
    img = read_image_array(image_filenames[0])
    resolution = img.shape[0]
    channels = img.shape[2] if img.ndim == 3 else 1
    if img.shape[1] != resolution:
        error("Input images must have the same width and height", image_filenames[0])
    if resolution != 2 ** int(np.floor(np.log2(resolution))):
        error("Input image resolution must be a power-of-two", image_filenames[0])
    if channels not in [1, 3]:
        error("Input images must be stored as RGB or grayscale", image_filenames[0])
    first_shape = img.shape
    with TFRecordExporter(tfrecord_dir, len(image_filenames)) as tfr:
        order = tfr.choose_shuffled_order() if shuffle else np.arange(len(image_filenames))
        for idx in range(order.size):
            path = image_filenames[order[idx]]
            img = read_image_array(path)
            if img.shape != first_shape:
                raise DataError(f"image has shape {img.shape} (HWC), but the first image "
                                f"{image_filenames[0]!r} has {first_shape}", path=path)
            if channels == 1:
                img = img[np.newaxis, :, :]  # HW => CHW
            else:
                img = img.transpose([2, 0, 1])  # HWC => CHW
            tfr.add_image(img)


def main(argv: Sequence[str] | None = None) -> int:
    """The original's command line (``create_from_images`` only). Returns the exit code."""
    argv = list(sys.argv if argv is None else argv)
    prog = "python -m tf1_pipelines.pipelines.stylegan_lod"
    parser = argparse.ArgumentParser(
        prog=prog, description="Tool for creating multi-resolution TFRecords datasets.",
        epilog='Type "%s <command> -h" for more information.' % prog)
    subparsers = parser.add_subparsers(dest="command")
    subparsers.required = True
    p = subparsers.add_parser("create_from_images",
                              description="Create dataset from a directory full of images.",
                              help="Create dataset from a directory full of images.",
                              epilog=f"Example: {prog} create_from_images datasets/mydataset "
                                     "myimagedir")
    p.add_argument("tfrecord_dir", help="New dataset directory to be created")
    p.add_argument("image_dir", help="Directory containing the images")
    p.add_argument("--shuffle", help="Randomize image order (default: 1)", type=int, default=1)
    args = parser.parse_args(argv[1:] if len(argv) > 1 else ["-h"])
    try:
        create_from_images(args.tfrecord_dir, args.image_dir, args.shuffle)
    except DataError as exc:
        print("Error: " + str(exc))
        return 1
    return 0
