"""Seed 001: StyleGAN2 multi-resolution TFRecords (``dataset_tool.py`` and ``training/dataset.py``).

Legacy face (``legacy.py``), with the original names, arguments and defaults:

* writer: :func:`create_from_images`, :class:`TFRecordExporter` (``add_image``,
  ``add_labels``, ``choose_shuffled_order``, ``close``, context manager) and a
  command line ``python -m tf1_pipelines.pipelines.stylegan_lod create_from_images
  TFRECORD_DIR IMAGE_DIR --shuffle 1``, with the original's checks ``extract
  TFRECORD_DIR OUTPUT_DIR`` and ``compare TFRECORD_DIR_A TFRECORD_DIR_B``;
* reader: :class:`TFRecordDataset` (per-LOD datasets behind one reinitializable
  iterator, ``configure``, ``get_minibatch_tf/np``, ``get_random_labels_tf/np``,
  ``parse_tfrecord_tf/np``) and :func:`load_dataset`.

Uniform face (``pipeline.py``): :class:`StyleganLodPipeline` (``load_pipeline("stylegan_lod", ...)``).

Files (``records.py``; byte-identical to the original tool): one per level of detail (LOD),
``<tfrecord_dir>/<basename of tfrecord_dir>-rXX.tfrecords`` with XX = log2 of
that LOD's resolution, from the full resolution (LOD 0) down to 4x4. Each
record is an Example with ``shape`` (int64 [3], CHW) and ``data`` (the raw
uint8 bytes of the CHW image). LOD k+1 is LOD k halved by a 2x2 box average in
float32, then ``np.rint``, clipped to 0..255, uint8. Optional labels:
``<basename>-rxx.labels``, an ``np.save`` of a float32 [N, L] array.

Where this differs from the original (exceptions instead of ``exit``/``assert``,
publishing files only when the export completes, ...) is listed in
``docs/divergences.md``.

The names below are imported from their modules on first use, so importing the
package (or running its command line with ``--help``) does not load TensorFlow.
"""
from tf1_pipelines.data.lazy_exports import lazy_exports

_EXPORTS = {
    "records": ("DatasetToolError", "BufferMemoryWarning", "error", "parse_tfrecord_np",
                "find_bad_record", "LABELS_SUFFIX", "MIN_RESOLUTION_LOG2", "TFRecordExporter",
                "check_first_image_shape", "lod_file_name", "lod_images", "serialize_image",
                "DatasetLayout", "inspect_tfrecord_dir"),
    "graph": ("parse_tfrecord_tf", "parse_tfrecord_batch", "buffer_items",
              "check_reader_options", "memory_available_bytes", "warn_if_buffers_too_big",
              "create_var_with_large_initial_value", "get_obj_by_name", "run",
              "READ_BUFFER_CAP_MB", "TFRecordDataset", "load_dataset"),
    "legacy": ("compare", "create_from_images", "extract", "read_image_array"),
    "pipeline": ("Batch", "StyleganLodPipeline"),
    "sample": ("SAMPLE_PHOTOGRAPHS", "SAMPLE_RESOLUTION", "sample_images", "sample_tfrecord_dir",
               "write_sample_dataset"),
    "__main__": ("main",),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

#: What this pipeline builds under the data home (``tf1-pipelines cache list|clear``):
#: embedded data sets, folder -> what it holds, and record caches, folder -> what
#: each of its sub-folders (one per source folder) holds.
CACHE_DATA_SETS: dict[str, str] = {
    "stylegan_lod": "seed 001's embedded multi-resolution records",
}
CACHE_RECORDS: dict[str, str] = {}

# What ``from ... import *`` gives; the other names above are importable too.
__all__ = [
    "Batch",
    "BufferMemoryWarning",
    "DatasetLayout",
    "DatasetToolError",
    "StyleganLodPipeline",
    "TFRecordDataset",
    "TFRecordExporter",
    "compare",
    "create_from_images",
    "create_var_with_large_initial_value",
    "extract",
    "find_bad_record",
    "get_obj_by_name",
    "inspect_tfrecord_dir",
    "load_dataset",
    "main",
    "parse_tfrecord_batch",
    "run",
    "sample_tfrecord_dir",
]
