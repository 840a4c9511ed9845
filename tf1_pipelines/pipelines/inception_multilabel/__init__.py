"""Seed 004: the Inception-style multi-reader, multi-label TFRecord reader.

Records (one ``tf.train.Example`` per image, as the seed's ``_convert_to_example``
writes them): ``image/encoded`` (JPEG bytes of an RGB image), ``image/filename``
(base name, bytes), ``image/height``, ``image/width``, ``image/channels`` (int64)
and, for every semantic level, ``image/label/<level>``: a one-hot int64 list of
that level's class count. Shards follow the Inception convention
``<subset>-<shard:05d>-of-<shards:05d>`` (``train-00000-of-00004``); a
:class:`Dataset` finds them with the glob ``<data_dir>/<subset>-*``.

Legacy face (``legacy.py``): ``_int64_feature``, ``_float_feature``, ``_bytes_feature``,
``_convert_to_example``, :func:`parse_example_proto`, :func:`batch_inputs`
(``dataset, batch_size, train, semantic_level_settings,
num_preprocess_threads=16``), :func:`decode_jpeg`, :func:`distort_image`,
:func:`distort_color`, :func:`eval_image` and :class:`Dataset` (``data_files()``,
``reader()``, ``height``, ``width``).

``batch_inputs`` builds the seed's graph. Training: a shuffled filename queue
(capacity 16), four ``TFRecordReader``s enqueueing into one
``RandomShuffleQueue`` (capacity ``min_queue_examples + 3 * batch_size``,
``min_after_dequeue = min_queue_examples = 1024 * 16``) through one
``QueueRunner``. Evaluation: an unshuffled filename queue (capacity 1) and one
reader read directly (the seed also builds a ``FIFOQueue`` there that nothing
uses; it is kept, and shows as an empty queue). Then ``num_preprocess_threads``
parallel branches (parse, decode, distort or eval, rescale to [-1, 1]) feed
``tf.train.batch_join`` with capacity ``2 * num_preprocess_threads * batch_size``.

Preprocessing follows the original Inception ``image_processing.py``:
``decode_jpeg`` gives float32 RGB in [0, 1]; ``distort_image`` takes a random
crop (``sample_distorted_bounding_box``: at least 10% of the box covered,
aspect ratio 0.75..1.33, 5%..100% of the area, 100 attempts, the whole image when
there is no box), resizes it to height x width with the TF1 method number
``thread_id % 4`` (0 bilinear, 1 nearest neighbour, 2 bicubic, 3 area), flips
left-right with probability 1/2 and distorts the colours in the order chosen
by ``thread_id % 2`` (0: brightness, saturation, hue, contrast; 1: brightness,
contrast, saturation, hue; brightness delta 32/255, saturation and contrast
0.5..1.5, hue delta 0.2), then clips to [0, 1]; ``eval_image`` crops the
central 87.5% and resizes bilinearly (TF1 ``resize_bilinear``,
``align_corners=False``). The original's TensorBoard image summaries are left out.

Uniform face (``pipeline.py``): :class:`InceptionMultilabelPipeline` (``load_pipeline(
"inception_multilabel", ...)``), backends ``"queue"`` (the graph above) and
``"dataset"`` (tf.data with the same preprocessing).

Converter (``records.py``): :func:`build_shards` shards a folder of labelled images (a
``labels.csv`` with a ``filename`` column and one class-index column per
level) into such records, in the order of Inception's ``build_image_data.py``
(file order shuffled with ``random.seed(12345)``, contiguous runs per shard).

Embedded default data (``sample.py``): nine photographs bundled with scikit-image, each scaled
so its short side is 320 pixels and cut into its four quadrants (36 JPEGs):
quadrants 0-2 form ``train`` (27 images, 4 shards), quadrant 3 ``validation``
(9 images, 2 shards). Two semantic levels with labels from the pictures:
``scene`` (5 classes: person, animal, object, vehicle, science - what the
photograph shows) and ``colour`` (3 classes: the channel, red, green or blue,
with the largest mean over the quadrant).

The names below are imported from their modules on first use.
"""
from tf1_pipelines.data.lazy_exports import lazy_exports

_EXPORTS = {
    "records": ("LABEL_PREFIX", "SUBSETS", "_int64_feature", "_float_feature", "_bytes_feature",
                "_convert_to_example", "convert_to_example", "one_hot",
                "check_semantic_level_settings", "IMAGE_SUFFIXES", "image_to_jpeg",
                "read_labels_csv", "shard_names", "build_shards", "check_record",
                "verify_shards", "infer_semantic_level_settings"),
    "graph": ("parse_example_proto", "RESIZE_METHODS", "COLOR_ORDERINGS", "decode_jpeg",
              "resize_method_for_thread", "color_ordering_for_thread", "distort_color",
              "distort_image", "eval_image", "rescale", "Dataset", "PinnedDataset",
              "EXAMPLES_PER_SHARD", "TRAIN_MEMORY_FACTOR", "EVAL_MEMORY_FACTOR", "TRAIN_READERS",
              "check_preprocess_threads", "batch_inputs"),
    "pipeline": ("BACKENDS", "Batch", "InceptionMultilabelPipeline"),
    "sample": ("SCENE_CLASSES", "COLOUR_CLASSES", "PHOTO_SCENES",
               "DEFAULT_SEMANTIC_LEVEL_SETTINGS", "DEFAULT_SHARDS", "DEFAULT_SHORT_SIDE",
               "quadrants", "dominant_colour", "write_default_data", "default_data_dir"),
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

#: What this pipeline builds under the data home (``tf1-pipelines cache list|clear``):
#: embedded data sets, folder -> what it holds, and record caches, folder -> what
#: each of its sub-folders (one per source folder) holds.
CACHE_DATA_SETS: dict[str, str] = {
    "inception_multilabel": "seed 004's embedded labelled JPEGs and their shards",
}
CACHE_RECORDS: dict[str, str] = {}

# What ``from ... import *`` gives; the other names above are importable too.
__all__ = [
    "DEFAULT_SEMANTIC_LEVEL_SETTINGS",
    "Batch",
    "Dataset",
    "InceptionMultilabelPipeline",
    "PinnedDataset",
    "batch_inputs",
    "build_shards",
    "check_preprocess_threads",
    "check_record",
    "check_semantic_level_settings",
    "color_ordering_for_thread",
    "convert_to_example",
    "decode_jpeg",
    "default_data_dir",
    "distort_color",
    "distort_image",
    "dominant_colour",
    "eval_image",
    "image_to_jpeg",
    "infer_semantic_level_settings",
    "one_hot",
    "parse_example_proto",
    "quadrants",
    "read_labels_csv",
    "rescale",
    "resize_method_for_thread",
    "shard_names",
    "verify_shards",
    "write_default_data",
]
