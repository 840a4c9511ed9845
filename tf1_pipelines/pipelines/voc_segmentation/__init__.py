"""Seed 003: PASCAL-VOC-style image/mask pairs in TFRecords, read by queue runners.

Legacy face (``legacy.py``; the seed's names and numbers):

* ``_bytes_feature`` / ``_int64_feature`` and :func:`write_records` - the seed's
  writer: one Example per pair with ``height``, ``width`` (int64), ``image_raw``
  (the raw bytes of a uint8 [H, W, 3] RGB array, row-major) and ``mask_raw`` (the
  raw bytes of a uint8 [H, W] array of class ids, e.g. the indices of a VOC
  palette PNG read with PIL);
* :func:`read_records` and :func:`round_trip_check` - the seed's verification:
  read every record back with a record iterator and compare each pair with
  ``np.allclose`` (the seed prints ``True`` six times for three pairs);
* :func:`read_and_decode` ``(filename_queue)`` - ``TFRecordReader``, parse,
  ``decode_raw``, reshape to [height, width, 3] / [height, width, 1],
  ``resize_image_with_crop_or_pad`` to ``IMAGE_HEIGHT`` x ``IMAGE_WIDTH`` (384 x
  384: larger images are centre-cropped, smaller ones centre-padded with zeros)
  and ``tf.train.shuffle_batch(batch_size=2, capacity=30, num_threads=2,
  min_after_dequeue=10)``, fed by ``string_input_producer([...], num_epochs=10)``.

Uniform face (``pipeline.py``): :class:`VocSegmentationPipeline` (``load_pipeline("voc_segmentation",
...)``), backends ``"queue"`` (the seed's graph) and ``"dataset"`` (tf.data with
the same parsing, the same multiset of examples per epoch).

Embedded default data (``sample.py``): six photographs bundled with scikit-image (astronaut,
coffee, chelsea, rocket, immunohistochemistry, motorcycle_left) stored as JPEGs
in ``JPEGImages/<name>.jpg``, each with a mask in ``SegmentationClass/<name>.png``
as VOC lays them out. A mask is derived from its own (decoded) JPEG: the class id
of a pixel is its ITU-R 601 luma ``Y = 0.299 R + 0.587 G + 0.114 B`` quantised to
four bands, ``min(floor(Y / 64), 3)`` (0 darkest .. 3 brightest; computed in
integers); it is saved as a palette PNG with the VOC colour map, so PIL reads
back the class ids, exactly as the seed reads VOC's ``SegmentationClass`` files.
The photographs are 300 to 512 pixels high, so the 384 x 384 crop-or-pad both
crops and pads.

The names below are imported from their modules on first use.
"""
from tf1_pipelines.data.lazy_exports import lazy_exports

_EXPORTS = {
    "records": ("TFRECORDS_FILENAME", "IMAGE_SUFFIXES", "_bytes_feature", "_int64_feature",
                "read_pair", "pair_to_example", "write_records", "write_sharded_records",
                "find_pairs", "decode_record", "read_records", "round_trip_check",
                "verify_records", "iterate_pairs", "default_record_dir", "cached_shards",
                "shard_scheme"),
    "graph": ("IMAGE_HEIGHT", "IMAGE_WIDTH", "decode_example", "check_batch_fits",
              "read_and_decode"),
    "pipeline": ("BACKENDS", "Batch", "VocSegmentationPipeline"),
    "sample": ("DEFAULT_PHOTOGRAPHS", "MASK_CLASSES", "mask_from_luma", "voc_colormap",
               "write_default_pairs", "default_pairs_dir"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

#: What this pipeline builds under the data home (``tf1-pipelines cache list|clear``):
#: embedded data sets, folder -> what it holds, and record caches, folder -> what
#: each of its sub-folders (one per source folder) holds.
CACHE_DATA_SETS: dict[str, str] = {
    "voc_like": "seed 003's embedded photographs and masks",
}
CACHE_RECORDS: dict[str, str] = {
    "voc_records": "seed 003's records of an image/mask folder pair",
}

# What ``from ... import *`` gives; the other names above are importable too.
__all__ = ["IMAGE_HEIGHT", "IMAGE_WIDTH", "Batch", "VocSegmentationPipeline", "check_batch_fits",
           "decode_example", "decode_record", "default_pairs_dir", "find_pairs", "iterate_pairs",
           "mask_from_luma", "pair_to_example", "read_and_decode", "read_pair", "read_records",
           "round_trip_check", "verify_records", "voc_colormap", "write_default_pairs",
           "write_records", "write_sharded_records"]
