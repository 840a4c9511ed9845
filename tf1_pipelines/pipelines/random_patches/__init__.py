"""Seed 002: many random patches from each big image, mixed across images (tf.data).

The answer's pipeline: file names -> shuffle (all of them) -> decode -> ``get_patches``
(``num_patches`` random crops of one image) -> unbatch -> shuffle (a buffer of
``50 * num_patches`` patches, i.e. patches of about 50 images) -> batch -> prefetch(1),
read through a one-shot iterator. Each image is decoded once and gives many
patches, and the second shuffle makes a batch mix images.

Legacy face (``legacy.py``): :func:`parse_fn`, :func:`get_patches` and
:func:`make_patch_batches` (the answer's code, with ``tf.data.Dataset.unbatch``
replacing ``tf.contrib.data.unbatch``).

Uniform face (``pipeline.py``): :class:`RandomPatchesPipeline`
(``load_pipeline("random_patches", ...)``) over a folder of JPEG or PNG files
(default: the embedded photographs, ``sample.py``).

The names below are imported from their modules on first use.
"""
from tf1_pipelines.data.lazy_exports import lazy_exports

_EXPORTS = {
    "records": ("IMAGE_EXTENSIONS", "list_image_files", "check_image_files"),
    "graph": ("NUM_PATCHES", "PATCH_SIZE", "BUFFER_IMAGES", "NUM_PARALLEL_CALLS", "BATCH_SIZE",
              "PREFETCH_BATCHES", "parse_fn", "decode_rgb", "check_patch_fits", "crop_offsets",
              "random_crops", "get_patches",
              "check_patch_options", "patches_dataset", "make_patch_batches"),
    "pipeline": ("ITERATORS", "Batch", "RandomPatchesPipeline"),
    "sample": ("write_photographs", "photographs_dir"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

#: What this pipeline builds under the data home (``tf1-pipelines cache list|clear``):
#: embedded data sets, folder -> what it holds, and record caches, folder -> what
#: each of its sub-folders (one per source folder) holds.
CACHE_DATA_SETS: dict[str, str] = {
    "random_patches": "seed 002's embedded photographs",
}
CACHE_RECORDS: dict[str, str] = {}

# What ``from ... import *`` gives; the other names above are importable too.
__all__ = ["Batch", "RandomPatchesPipeline", "check_image_files", "get_patches",
           "list_image_files", "make_patch_batches", "parse_fn", "patches_dataset",
           "photographs_dir", "random_crops"]
