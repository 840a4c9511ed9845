"""Seed 000: DIV2K 4x super-resolution patches (LR 24x24, HR 96x96, luma only).

Legacy face (``legacy.py``): :class:`DataLoader` with the seed's constructor,
``gen_tfrecords``, ``read_tfrecords``, ``get_generator`` and ``read_pngs``,
returning graph tensors as the seed does, and the seed's ``utils`` functions
(``rgb2ycbcr``, ``ycbcr2rgb``, ``img_to_uint8``, ``psnr``) importable from here.

Uniform face (``pipeline.py``): :class:`Div2kPipeline` (``load_pipeline("div2k_sr",
...)``).

Records (``records.py``, byte-identical to the seed's writer): ``data0.tfrecords``
.. ``data{N-1}.tfrecords`` round-robin, each an Example with one feature ``gt``:
the raw bytes of a uint8 [p, p] luma patch; ``sample_num.txt`` holds the count.

The names below are imported from their modules on first use.
"""
from tf1_pipelines.data.lazy_exports import lazy_exports

_EXPORTS = {
    "records": ("SHARD_NAME", "write_patch_records", "verify_patch_records",
                "default_tfrecord_dir", "cached_records"),
    "graph": ("LR_METHODS", "parse_patch", "parse_patch_batch", "lr_by_py_func", "random_flips",
              "batched_lr_hr", "parse_one_example"),
    "legacy": ("DataLoader", "rgb2ycbcr", "ycbcr2rgb", "img_to_uint8", "psnr"),
    "pipeline": ("BACKENDS", "Batch", "Div2kPipeline"),
    "sample": ("sample_records_dir",),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

#: What this pipeline builds under the data home (``tf1-pipelines cache list|clear``):
#: embedded data sets, folder -> what it holds, and record caches, folder -> what
#: each of its sub-folders (one per source folder) holds.
CACHE_DATA_SETS: dict[str, str] = {
    "div2k_like": "seed 000's embedded photographs as a DIV2K-like folder of PNGs",
}
CACHE_RECORDS: dict[str, str] = {
    "div2k_records": "seed 000's patch records of a PNG folder",
}

# What ``from ... import *`` gives; the other names above are importable too.
__all__ = ["Batch", "DataLoader", "Div2kPipeline", "cached_records", "img_to_uint8", "psnr",
           "rgb2ycbcr", "verify_patch_records", "write_patch_records", "ycbcr2rgb"]
