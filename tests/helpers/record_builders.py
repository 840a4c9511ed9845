"""Tiny record files of every record-reading pipeline, for the bad-record tests.

Each builder writes good records (small images, few records) so that a test can
break one byte, one record or one feature and know what should be reported.
"""
from __future__ import annotations

import io
import os
from collections.abc import Iterable, Sequence

import numpy as np
import tensorflow as tf
from PIL import Image

from tf1_pipelines.pipelines import inception_multilabel as inc
from tf1_pipelines.pipelines import stylegan_lod as sl
from tf1_pipelines.pipelines.voc_segmentation import records as voc
from tf1_pipelines.records.features import bytes_feature, example, int64_feature

#: The patch size of the tiny div2k records (8 x 8 luma patches, scale 4).
DIV2K_PATCH = 8
#: The options that make an Inception pipeline small and quick on tiny shards.
INCEPTION_SMALL = {"height": 16, "width": 16, "num_preprocess_threads": 4,
                   "examples_per_shard": 2, "input_queue_memory_factor": 1, "seed": 7,
                   "semantic_level_settings": [("scene", 3)]}


def write_records(path: str, records: Iterable[bytes | tf.train.Example]) -> str:
    """Write serialized records (or Examples) to a TFRecord file; returns ``path``."""
    with tf.io.TFRecordWriter(path) as writer:
        for record in records:
            writer.write(record if isinstance(record, bytes) else
                         record.SerializeToString(deterministic=True))
    return path


def div2k_example(index: int, patch_size: int = DIV2K_PATCH) -> tf.train.Example:
    """A seed-000 record: ``gt`` = a uint8 [p, p] luma patch in 16..235."""
    patch = np.full((patch_size, patch_size), 16 + index % 200, np.uint8)
    return example({"gt": bytes_feature(patch.tobytes())})


def div2k_records(folder: str, per_file: Sequence[int] = (3, 3)) -> list[str]:
    """``data{i}.tfrecords`` with ``per_file[i]`` patch records each."""
    os.makedirs(folder, exist_ok=True)
    return [write_records(os.path.join(folder, f"data{i}.tfrecords"),
                          [div2k_example(10 * i + j) for j in range(n)])
            for i, n in enumerate(per_file)]


def voc_example(index: int, height: int = 6, width: int = 5) -> tf.train.Example:
    """A seed-003 record: image [h, w, 3] and mask [h, w], both filled with ``index``."""
    image = np.full((height, width, 3), index, np.uint8)
    mask = np.full((height, width), index, np.uint8)
    return voc.pair_to_example(image, mask)


def voc_records(folder: str, per_file: Sequence[int] = (3, 3)) -> list[str]:
    """``part-{i}.tfrecords`` with ``per_file[i]`` image/mask records each."""
    os.makedirs(folder, exist_ok=True)
    return [write_records(os.path.join(folder, f"part-{i}.tfrecords"),
                          [voc_example(10 * i + j) for j in range(n)])
            for i, n in enumerate(per_file)]


def jpeg_bytes(value: int, size: int = 20) -> bytes:
    """A grey RGB JPEG of ``size`` x ``size``."""
    buffer = io.BytesIO()
    Image.fromarray(np.full((size, size, 3), value, np.uint8)).save(buffer, format="JPEG")
    return buffer.getvalue()


def inception_example(index: int) -> tf.train.Example:
    """A seed-004 record with one level ``scene`` of 3 classes."""
    return inc._convert_to_example(f"{index}.jpg", jpeg_bytes(index * 10),
                                   [("scene", inc.one_hot(index % 3, 3))], 20, 20)


def inception_shards(folder: str, per_file: Sequence[int] = (3, 3)) -> list[str]:
    """``train-0000i-of-0000n`` shards with ``per_file[i]`` records each."""
    os.makedirs(folder, exist_ok=True)
    total = len(per_file)
    return [write_records(os.path.join(folder, f"train-{i:05d}-of-{total:05d}"),
                          [inception_example(10 * i + j) for j in range(n)])
            for i, n in enumerate(per_file)]


def stylegan_records(folder: str, images: int = 4) -> list[str]:
    """A LOD export of ``images`` RGB 8 x 8 images: ``<name>-r03`` and ``-r02``, in
    that order (LOD 0 first)."""
    rng = np.random.RandomState(0)
    with sl.TFRecordExporter(folder, images, print_progress=False) as exporter:
        for _ in range(images):
            exporter.add_image(rng.randint(0, 256, (3, 8, 8)).astype(np.uint8))
    name = os.path.basename(os.path.normpath(folder))
    return [os.path.join(folder, f"{name}-r03.tfrecords"),
            os.path.join(folder, f"{name}-r02.tfrecords")]


def read_all(path: str) -> list[bytes]:
    """Every serialized record of a good file."""
    return [bytes(r) for r in tf.data.TFRecordDataset(path).as_numpy_iterator()]


def voc_id_record(record_id: int, size: int = 8) -> bytes:
    """A seed-003 record of a ``size`` x ``size`` image and mask whose every value is
    ``record_id``: a batch then tells which records it holds."""
    img = np.full((size, size, 3), record_id, np.uint8)
    return example({"height": int64_feature(size), "width": int64_feature(size),
                    "image_raw": bytes_feature(img.tobytes()),
                    "mask_raw": bytes_feature(img[:, :, 0].tobytes())}).SerializeToString()
