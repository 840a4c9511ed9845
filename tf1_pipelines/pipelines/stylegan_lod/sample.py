"""The embedded data set of the uniform face: the bundled photographs as 256x256
images, exported with one-hot labels of their photograph."""
from __future__ import annotations

import os

import numpy as np
import PIL.Image

from tf1_pipelines.data import sample_data

from .records import TFRecordExporter

#: Photographs of the embedded data set; each gives two 256x256 images.
SAMPLE_PHOTOGRAPHS: tuple[str, ...] = tuple(sample_data.PHOTOGRAPHS)
SAMPLE_RESOLUTION = 256


def sample_images(resolution: int = SAMPLE_RESOLUTION) -> list[tuple[int, np.ndarray]]:
    """``(photograph index, uint8 [R, R, 3])`` pairs: for every bundled photograph its
    centred square resized to R (Lanczos) and its centre R x R crop at full size."""
    images = []
    for index, name in enumerate(SAMPLE_PHOTOGRAPHS):
        photo = sample_data.load_photograph(name)
        height, width = photo.shape[:2]
        side = min(height, width)
        top, left = (height - side) // 2, (width - side) // 2
        square = PIL.Image.fromarray(photo[top:top + side, left:left + side])
        images.append((index, np.asarray(square.resize((resolution, resolution),
                                                       PIL.Image.Resampling.LANCZOS))))
        top, left = (height - resolution) // 2, (width - resolution) // 2
        images.append((index, np.ascontiguousarray(
            photo[top:top + resolution, left:left + resolution])))
    return images


def write_sample_dataset(dest: str) -> str:
    """Write the embedded set into ``dest``: ``images/NNNN.png`` and the export in
    ``tfrecords/`` (shuffled order, one-hot labels of the source photograph)."""
    pairs = sample_images()
    image_dir = os.path.join(dest, "images")
    os.makedirs(image_dir, exist_ok=True)
    for number, (_, image) in enumerate(pairs):
        PIL.Image.fromarray(image).save(os.path.join(image_dir, f"{number:04d}.png"))
    onehot = np.zeros((len(pairs), len(SAMPLE_PHOTOGRAPHS)), np.float32)
    onehot[np.arange(len(pairs)), [index for index, _ in pairs]] = 1.0
    tfrecord_dir = os.path.join(dest, "tfrecords")
    with TFRecordExporter(tfrecord_dir, len(pairs), print_progress=False) as tfr:
        order = tfr.choose_shuffled_order()
        for idx in order:
            tfr.add_image(pairs[idx][1].transpose([2, 0, 1]))
        tfr.add_labels(onehot[order])
    return tfrecord_dir


def sample_tfrecord_dir() -> str:
    """The embedded data set's tfrecord_dir (built on first use under data_home())."""
    dest = os.path.join(sample_data.data_home(), "stylegan_lod", f"photographs{SAMPLE_RESOLUTION}")
    sample_data.build_folder_atomically(dest, write_sample_dataset)
    return os.path.join(dest, "tfrecords")
