"""Seed 000's records: format, writer, numpy check and the cache of records per folder.

``data0.tfrecords`` .. ``data{N-1}.tfrecords`` round-robin (byte-identical to the
seed's writer), each an Example with one feature ``gt``: the raw bytes of a uint8
[p, p] luma patch cut on the seed's grid; ``sample_num.txt`` holds the count.
"""
from __future__ import annotations

import glob
import hashlib
import os
from collections.abc import Callable, Sequence

import tensorflow as tf

from tf1_pipelines.data import sample_data
from tf1_pipelines.errors import DataError
from tf1_pipelines.image.patches import grid_patches, list_images, luma_uint8, read_rgb
from tf1_pipelines.options import check_positive_int
from tf1_pipelines.records import manifest
from tf1_pipelines.records.export import ExportScheme, FolderExport
from tf1_pipelines.records.features import bytes_feature, example
from tf1_pipelines.records.folder_lock import folder_lock
from tf1_pipelines.records.reader import iterate_records
from tf1_pipelines.records.serialize import serialize
from tf1_pipelines.records.verify import FeatureSpec, RecordSpec
from tf1_pipelines.records.writer import save_count

SHARD_NAME = "data%d.tfrecords"
COUNT_NAME = "sample_num.txt"
#: The seed's names; its reader takes every ``*.tfrecords`` of the folder.
SCHEME = ExportScheme(SHARD_NAME, r"data(0|[1-9][0-9]*)\.tfrecords", ("*.tfrecords",))


def write_patch_records(png_paths: Sequence[str], save_dir: str, patch_size: int = 96,
                        tfrecord_num: int = 10,
                        on_image: Callable[[str, int], None] | None = None,
                        force: bool = False) -> int:
    """Cut every image into luma patches on the seed's grid and write them round-robin
    into ``save_dir/data{i}.tfrecords``; write ``sample_num.txt``. Returns the count.

    Files are published only when all are complete; stale ``data{i}.tfrecords``
    with ``i >= tfrecord_num`` from an earlier export are removed then. Any other
    ``*.tfrecords`` in ``save_dir`` stops the export with a DataError naming it
    (the reader would take it as data); it is never removed. A ``data{i}.tfrecords``
    or ``sample_num.txt`` already in ``save_dir`` that the folder's manifest does not
    list as written by this project stops it too (``force=True`` replaces such
    files, as the seed did). On any failure no ``.partial`` file stays and the
    earlier export is unchanged.
    """
    check_positive_int("tfrecord_num", tfrecord_num)
    names = [SHARD_NAME % i for i in range(tfrecord_num)]
    sample_num = 0
    with FolderExport(save_dir, SCHEME, names, also_writes=[COUNT_NAME], force=force) as writers:
        for png_path in png_paths:
            y = luma_uint8(read_rgb(png_path, min_size=patch_size))
            for gt in grid_patches(y, patch_size):
                record = serialize(example({"gt": bytes_feature(gt.tobytes())}))
                writers.write(sample_num % tfrecord_num, record)
                sample_num += 1
            if on_image is not None:
                on_image(png_path, sample_num)
    count_path = os.path.join(save_dir, COUNT_NAME)
    save_count(count_path, sample_num)
    manifest.record(save_dir, [count_path])
    return sample_num


def verify_patch_records(paths: Sequence[str], patch_size: int) -> int:
    """Read every record in numpy; DataError naming file, record and field on the first
    bad one (corrupt, missing ``gt``, wrong byte count). Returns the record count."""
    count = 0
    for path in paths:
        for index, record in enumerate(iterate_records(path)):
            ex = tf.train.Example.FromString(record)
            if "gt" not in ex.features.feature:
                raise DataError("missing feature", path=path, record=index, field="gt")
            values = ex.features.feature["gt"].bytes_list.value
            if len(values) != 1 or len(values[0]) != patch_size * patch_size:
                got = len(values[0]) if len(values) == 1 else f"{len(values)} values"
                raise DataError(f"holds {got} bytes, patch_size {patch_size} needs "
                                f"{patch_size * patch_size}", path=path, record=index, field="gt")
            count += 1
    return count


def default_tfrecord_dir(data_dir: str, patch_size: int, tfrecord_num: int) -> str:
    """A cache folder for the records of ``data_dir``, keyed by its PNGs (names, sizes,
    times), the patch size and the shard count, so edits to the folder rebuild."""
    key = hashlib.sha1()
    for path in list_images(data_dir):
        stat = os.stat(path)
        key.update(f"{os.path.abspath(path)}|{stat.st_size}|{stat.st_mtime_ns}\n".encode())
    key.update(f"p{patch_size}|n{tfrecord_num}".encode())
    return os.path.join(sample_data.data_home(), "div2k_records", key.hexdigest()[:16])


def cached_records(data_dir: str | None = None, patch_size: int = 96,
                   tfrecord_num: int = 10) -> str:
    """The folder of the seed's records for ``data_dir`` (default: the embedded
    photographs) in the cache, written on first use by :func:`write_patch_records`.

    Threads and processes asking for the same new cache at once build it once: the
    first holds the folder's lock while it builds, the others wait, then reuse it."""
    data_dir = data_dir or sample_data.div2k_like_dir()
    tfrecord_dir = default_tfrecord_dir(data_dir, patch_size, tfrecord_num)
    with folder_lock(tfrecord_dir):  # files are renamed one by one: look only under the lock
        if not glob.glob(os.path.join(tfrecord_dir, "*.tfrecords")):
            write_patch_records(list_images(data_dir), tfrecord_dir, patch_size, tfrecord_num)
    return tfrecord_dir


def patch_record_spec(patch_size: int) -> RecordSpec:
    """What each record holds: ``gt``, one bytes value of ``patch_size ** 2`` bytes
    (a uint8 [p, p] luma patch)."""
    return {"gt": FeatureSpec("bytes", 1, patch_size * patch_size,
                              source=f"patch_size {patch_size}")}
