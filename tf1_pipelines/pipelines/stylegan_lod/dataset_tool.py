"""The original ``dataset_tool.py``: :func:`create_from_images` (a folder of images into
a :class:`TFRecordExporter`), the two commands that check an export, :func:`extract`
(LOD 0 back to PNGs) and :func:`compare` (two exports, image by image), and their
command line, :func:`main`."""
from __future__ import annotations

import argparse
import glob
import os
import sys
from collections.abc import Iterator, Sequence

import numpy as np
import PIL.Image
import tensorflow as tf

from tf1_pipelines.errors import DataError
from tf1_pipelines.pipelines.stylegan_lod.errors import error
from tf1_pipelines.pipelines.stylegan_lod.dataset import TFRecordDataset
from tf1_pipelines.pipelines.stylegan_lod.exporter import TFRecordExporter
from tf1_pipelines.records.writer import write_file_atomically


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


def _lod0_records(tfrecord_dir: str, max_label_size: int | str
                 ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Every LOD-0 image in file order, as the original reads them for ``extract`` and
    ``compare`` (``repeat=False, shuffle_mb=0``, minibatches of 1): ``(image uint8
    [C, H, W], labels float32 [L])``. The folder is checked now (a bad one raises
    before anything is written); reading has its own graph and session, closed at the end."""
    graph = tf.Graph()
    with graph.as_default():
        dset = TFRecordDataset(tfrecord_dir, max_label_size=max_label_size, repeat=False,
                               shuffle_mb=0)
    return _read_in_own_session(dset, graph)


def _read_in_own_session(dset: TFRecordDataset, graph: tf.Graph
                         ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    # Not ``with Session() as sess``, which would make it the default session: two of
    # these generators run in step (compare), and a default-session context must not
    # span a yield; it is the default only around each read.
    sess = tf.compat.v1.Session(graph=graph)
    try:
        while True:
            with sess.as_default():
                try:
                    images, labels = dset.get_minibatch_np(1)
                except tf.errors.OutOfRangeError:
                    return
            yield images[0], labels[0]
    finally:
        dset.close()
        sess.close()


def _save_png_atomically(image_chw: np.ndarray, path: str) -> None:
    """Save a uint8 [C, H, W] image (C = 1 or 3) as PNG; the file appears complete or not at all."""
    if image_chw.shape[0] == 1:
        img = PIL.Image.fromarray(image_chw[0], "L")
    else:
        img = PIL.Image.fromarray(image_chw.transpose(1, 2, 0), "RGB")
    write_file_atomically(path, lambda partial: img.save(partial, format="PNG"))


def extract(tfrecord_dir: str, output_dir: str) -> int:
    """The original's ``extract``: write LOD 0 of ``tfrecord_dir`` as
    ``output_dir/img%08d.png`` in record order; returns the number of images."""
    print('Loading dataset "%s"' % tfrecord_dir)
    records = _lod0_records(tfrecord_dir, max_label_size=0)
    print('Extracting images to "%s"' % output_dir)
    os.makedirs(output_dir, exist_ok=True)
    idx = 0
    for image, _labels in records:
        if idx % 10 == 0:
            print("%d\r" % idx, end="", flush=True)
        _save_png_atomically(image, os.path.join(output_dir, "img%08d.png" % idx))
        idx += 1
    print("Extracted %d images." % idx)
    return idx


def compare(tfrecord_dir_a: str, tfrecord_dir_b: str, ignore_labels: int | bool
            ) -> tuple[int, int, int]:
    """The original's ``compare``: read LOD 0 of both exports in step and print which
    images (and, unless ``ignore_labels``, which labels) differ. Returns
    ``(identical images, identical labels, images compared)``."""
    max_label_size = 0 if ignore_labels else "full"
    print('Loading dataset "%s"' % tfrecord_dir_a)
    records_a = _lod0_records(tfrecord_dir_a, max_label_size)
    print('Loading dataset "%s"' % tfrecord_dir_b)
    records_b = _lod0_records(tfrecord_dir_b, max_label_size)
    print("Comparing datasets")
    idx = identical_images = identical_labels = 0
    missing = object()
    while True:
        if idx % 100 == 0:
            print("%d\r" % idx, end="", flush=True)
        a, b = next(records_a, missing), next(records_b, missing)
        if a is missing or b is missing:
            if a is not b:
                print("Datasets contain different number of images")
            break
        (image_a, labels_a), (image_b, labels_b) = a, b
        if image_a.shape == image_b.shape and np.all(image_a == image_b):
            identical_images += 1
        else:
            print("Image %d is different" % idx)
        if labels_a.shape == labels_b.shape and np.all(labels_a == labels_b):
            identical_labels += 1
        else:
            print("Label %d is different" % idx)
        idx += 1
    for records in (records_a, records_b):
        records.close()  # ends the generator: its session and dataset close now
    print("Identical images: %d / %d" % (identical_images, idx))
    if not ignore_labels:
        print("Identical labels: %d / %d" % (identical_labels, idx))
    return identical_images, identical_labels, idx


def main(argv: Sequence[str] | None = None) -> int:
    """The original's command line (``create_from_images``, ``extract``, ``compare``).
    Returns the exit code: 0, or 1 after printing the error of bad input."""
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
    p = subparsers.add_parser("extract", description="Extract images from dataset.",
                              help="Extract images from dataset.",
                              epilog=f"Example: {prog} extract datasets/mnist mnist-images")
    p.add_argument("tfrecord_dir", help="Directory containing dataset")
    p.add_argument("output_dir", help="Directory to extract the images into")
    p = subparsers.add_parser("compare", description="Compare two datasets.",
                              help="Compare two datasets.",
                              epilog=f"Example: {prog} compare datasets/mydataset "
                                     "datasets/mnist")
    p.add_argument("tfrecord_dir_a", help="Directory containing first dataset")
    p.add_argument("tfrecord_dir_b", help="Directory containing second dataset")
    p.add_argument("--ignore_labels", help="Ignore labels (default: 1)", type=int, default=1)
    args = parser.parse_args(argv[1:] if len(argv) > 1 else ["-h"])
    try:
        if args.command == "create_from_images":
            create_from_images(args.tfrecord_dir, args.image_dir, args.shuffle)
        elif args.command == "extract":
            extract(args.tfrecord_dir, args.output_dir)
        else:
            compare(args.tfrecord_dir_a, args.tfrecord_dir_b, args.ignore_labels)
    except DataError as exc:
        print("Error: " + str(exc))
        return 1
    return 0
