"""Seed 001's legacy face, with the original names, arguments and defaults: the
reader of ``training/dataset.py`` (:class:`TFRecordDataset`, :func:`load_dataset`,
the ``tflib`` stand-ins), the writer of ``dataset_tool.py``
(:class:`TFRecordExporter`, :func:`create_from_images`) and that tool's checks
:func:`extract` and :func:`compare`, which read an export back through the reader.
The tool's command line is in ``__main__.py``."""
from __future__ import annotations

import glob
import os
import re
from collections.abc import Generator
from dataclasses import dataclass

import numpy as np
import PIL.Image
import tensorflow as tf

from tf1_pipelines.errors import DataError
from tf1_pipelines.image.open_image import open_image
from tf1_pipelines.records import manifest
from tf1_pipelines.records.export import prepare_folder
from tf1_pipelines.records.writer import write_file_atomically

from .graph import (
    TFRecordDataset,
    create_var_with_large_initial_value,
    get_obj_by_name,
    load_dataset,
    run,
)
from .records import TFRecordExporter, error

__all__ = ["Comparison", "TFRecordDataset", "TFRecordExporter", "compare", "compare_datasets",
           "create_from_images",
           "create_var_with_large_initial_value", "extract", "get_obj_by_name", "load_dataset",
           "read_image_array", "run"]


def read_image_array(path: str) -> np.ndarray:
    """``np.asarray(PIL.Image.open(path))`` as the original reads images (no mode
    conversion), with a DataError naming the file if it cannot be decoded."""
    with open_image(path) as im:  # a bomb, a truncated file: DataError naming it
        return np.asarray(im)


def create_from_images(tfrecord_dir: str, image_dir: str, shuffle: int | bool,
                       force: bool = False) -> None:
    """Export every file of ``image_dir`` (sorted; all square, one power-of-two size,
    RGB or grayscale) into ``tfrecord_dir``, in ``choose_shuffled_order()`` if
    ``shuffle`` else in name order. Bad input raises DatasetToolError/DataError
    naming the file; nothing is published then. A ``<name>-rNN.tfrecords`` in
    ``tfrecord_dir`` that this project did not write stops it before anything is
    written, unless ``force`` (see :class:`TFRecordExporter`)."""
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
    with TFRecordExporter(tfrecord_dir, len(image_filenames), force=force) as tfr:
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
                 ) -> Generator[tuple[np.ndarray, np.ndarray], None, None]:
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
                         ) -> Generator[tuple[np.ndarray, np.ndarray], None, None]:
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


#: The names ``extract`` writes.
EXTRACTED_NAME = re.compile(r"img[0-9]{8}\.png")


def extract(tfrecord_dir: str, output_dir: str, force: bool = False) -> int:
    """The original's ``extract``: write LOD 0 of ``tfrecord_dir`` as
    ``output_dir/img%08d.png`` in record order; returns the number of images.

    An ``img%08d.png`` already in ``output_dir`` that an earlier ``extract`` did
    not write (the folder's manifest, :mod:`tf1_pipelines.records.manifest`)
    stops it with a DataError naming the file before anything is written, unless
    ``force`` (the original overwrote it)."""
    print('Loading dataset "%s"' % tfrecord_dir)
    records = _lod0_records(tfrecord_dir, max_label_size=0)
    print('Extracting images to "%s"' % output_dir)
    output_dir = prepare_folder(output_dir)
    in_the_way = [name for name in os.listdir(output_dir) if EXTRACTED_NAME.fullmatch(name)]
    manifest.check_ours(output_dir, in_the_way, "overwrite", force)
    written: list[str] = []
    try:
        for image, _labels in records:
            if len(written) % 10 == 0:
                print("%d\r" % len(written), end="", flush=True)
            path = os.path.join(output_dir, "img%08d.png" % len(written))
            _save_png_atomically(image, path)
            written.append(path)
    finally:  # what was written is ours, even when an error stops the loop
        if written:
            manifest.record(output_dir, written)
    print("Extracted %d images." % len(written))
    return len(written)


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare_datasets` found: counts over the images compared (the
    shorter export's), and whether both exports hold as many images."""

    identical_images: int
    identical_labels: int
    compared: int
    same_count: bool
    labels_compared: bool

    @property
    def same(self) -> bool:
        """True when the exports hold the same images (and labels, if compared)."""
        labels_same = not self.labels_compared or self.identical_labels == self.compared
        return self.same_count and self.identical_images == self.compared and labels_same


def compare(tfrecord_dir_a: str, tfrecord_dir_b: str, ignore_labels: int | bool
            ) -> tuple[int, int, int]:
    """The original's ``compare``: read LOD 0 of both exports in step and print which
    images (and, unless ``ignore_labels``, which labels) differ. Returns
    ``(identical images, identical labels, images compared)``."""
    found = compare_datasets(tfrecord_dir_a, tfrecord_dir_b, ignore_labels)
    return found.identical_images, found.identical_labels, found.compared


def compare_datasets(tfrecord_dir_a: str, tfrecord_dir_b: str, ignore_labels: int | bool
                     ) -> Comparison:
    """:func:`compare`, returning the :class:`Comparison` (with whether the counts match)."""
    max_label_size = 0 if ignore_labels else "full"
    print('Loading dataset "%s"' % tfrecord_dir_a)
    records_a = _lod0_records(tfrecord_dir_a, max_label_size)
    print('Loading dataset "%s"' % tfrecord_dir_b)
    records_b = _lod0_records(tfrecord_dir_b, max_label_size)
    print("Comparing datasets")
    idx = identical_images = identical_labels = 0
    same_count = True
    while True:
        if idx % 100 == 0:
            print("%d\r" % idx, end="", flush=True)
        a, b = next(records_a, None), next(records_b, None)  # a record is never None
        if a is None or b is None:
            if a is not b:
                same_count = False
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
    return Comparison(identical_images, identical_labels, idx, same_count, not ignore_labels)
