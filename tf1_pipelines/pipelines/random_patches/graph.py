"""Seed 002's TF1 graph functions under the answer's names: :func:`parse_fn`,
:func:`get_patches`, :func:`make_patch_batches`, and the dataset they make
(:func:`patches_dataset`) with the answer's parameters."""
from __future__ import annotations

import os
from typing import Any

import tensorflow as tf

from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.inputs.dataset import one_shot
from tf1_pipelines.options import check_positive_int

tf1 = tf.compat.v1

#: The answer's parameters.
NUM_PATCHES = 100
PATCH_SIZE = 32
BUFFER_IMAGES = 50          # buffer_size = 50 * num_patches: patches of 50 images
NUM_PARALLEL_CALLS = 4
BATCH_SIZE = 10
PREFETCH_BATCHES = 1


def parse_fn(filename: tf.Tensor) -> tf.Tensor:
    """Decode the image file (JPEG; today's ``decode_jpeg`` also reads PNG) as RGB and
    convert it to float32 [H, W, 3] in [0, 1] (the answer's ``parse_fn``)."""
    image_string = tf1.read_file(filename)
    image_decoded = tf1.image.decode_jpeg(image_string, channels=3)
    return tf.image.convert_image_dtype(image_decoded, tf.float32)


def decode_rgb(filename: tf.Tensor) -> tf.Tensor:
    """The image file's RGB pixels, uint8 [H, W, 3] in 0..255: :func:`parse_fn`
    before its conversion to float."""
    return tf1.image.decode_jpeg(tf1.read_file(filename), channels=3)


def check_patch_fits(image: tf.Tensor, patch_size: int, filename: tf.Tensor) -> tf.Tensor:
    """``image`` after an in-graph check that it is at least ``patch_size`` on both
    sides; the InvalidArgumentError names the file and its size."""
    shape = tf.shape(image)
    fits = tf.reduce_all(shape[:2] >= patch_size)
    check = tf.debugging.Assert(fits, [filename, "is smaller than the patch size", patch_size,
                                       "height, width:", shape[0], shape[1]])
    with tf.control_dependencies([check]):
        return tf.identity(image)


def crop_offsets(shape: tf.Tensor, num_patches: int, patch_size: int,
                 seed: tf.Tensor | None = None) -> tf.Tensor:
    """The top-left corners of ``num_patches`` uniformly placed ``patch_size`` crops of
    an image of ``shape`` ([H, W, ...], int32): int32 [num_patches, 2] (row, column),
    row in [0, H - p], column in [0, W - p]. Drawn as ``tf.random_crop`` draws them
    (uniform int32 in [0, 2**31 - 1) modulo the free range), all in one op per image;
    from stateless draws keyed by ``seed`` (int64 [2]) when given."""
    limit = shape[:2] - patch_size + 1
    if seed is None:
        draws = tf1.random_uniform([num_patches, 2], maxval=tf.int32.max, dtype=tf.int32)
    else:
        draws = tf.random.stateless_uniform([num_patches, 2], seed=seed, minval=0,
                                            maxval=tf.int32.max, dtype=tf.int32)
    return draws % limit


def random_crops(image: tf.Tensor, num_patches: int, patch_size: int,
                 seed: tf.Tensor | None = None) -> tf.Tensor:
    """``num_patches`` uniformly placed [p, p, 3] crops of an [H, W, 3] image (any
    dtype; values copied unchanged) as [num_patches, p, p, 3], offsets from
    :func:`crop_offsets` (stateless, keyed by ``seed``, when given).

    The crops are one ``gather`` of the n * p * p pixels from the image seen as
    [H * W, 3]: it reads only the pixels it keeps (gathering whole rows first
    copied n * p full-width rows, 23 MB per 512-wide float image at the defaults).
    """
    shape = tf.shape(image)
    offsets = crop_offsets(shape, num_patches, patch_size, seed)
    steps = tf.range(patch_size)
    rows = offsets[:, :1] + steps  # [n, p]
    cols = offsets[:, 1:] + steps  # [n, p]
    pixels = rows[:, :, None] * shape[1] + cols[:, None, :]  # [n, p, p] in H * W
    patches = tf.gather(tf.reshape(image, [-1, 3]), pixels)  # [n, p, p, 3]
    return tf.reshape(patches, [num_patches, patch_size, patch_size, 3])


def get_patches(image: tf.Tensor, num_patches: int = 100, patch_size: int = 16,
                seed: tf.Tensor | None = None) -> tf.Tensor:
    """``num_patches`` random crops of ``image`` stacked as [num_patches, p, p, 3].

    Without ``seed`` this is the answer's loop of ``tf.random_crop`` ops; with an
    int64 [2] ``seed`` the crops come from :func:`random_crops`' stateless draws,
    so they repeat from run to run whatever the thread scheduling.
    """
    if seed is not None:
        return random_crops(image, num_patches, patch_size, seed)
    patches = [tf1.random_crop(image, [patch_size, patch_size, 3]) for _ in range(num_patches)]
    return tf.stack(patches)  # static shape [num_patches, p, p, 3], as the answer asserts


def check_patch_options(num_patches: int, patch_size: int, batch_size: int,
                        buffer_size: int | None, num_parallel_calls: int,
                        prefetch: int, num_epochs: int | None) -> int:
    """ConfigError for a bad option; returns the shuffle buffer size (patches)."""
    for name, value in (("num_patches", num_patches), ("patch_size", patch_size),
                        ("batch_size", batch_size), ("num_parallel_calls", num_parallel_calls),
                        ("prefetch", prefetch)):
        check_positive_int(name, value)
    if num_epochs is not None:
        check_positive_int("num_epochs", num_epochs)
    if buffer_size is None:
        return BUFFER_IMAGES * num_patches
    return check_positive_int("buffer_size", buffer_size)


def patches_dataset(filenames: list[str] | tf.Tensor, num_patches: int = NUM_PATCHES,
                    patch_size: int = PATCH_SIZE, batch_size: int | tf.Tensor = BATCH_SIZE,
                    buffer_size: int | None = None,
                    num_parallel_calls: int = NUM_PARALLEL_CALLS,
                    prefetch: int = PREFETCH_BATCHES, num_epochs: int | None = 1,
                    seed: int | None = None, patch_shard: tuple[int, int] = (1, 0),
                    gather: bool = False) -> tf.data.Dataset:
    """The answer's dataset of patch batches, float32 [B, p, p, 3] in [0, 1].

    ``patch_shard=(n, k)`` keeps patches ``k, k + n, ...`` of each image's
    ``num_patches`` (record-level sharding; ``(1, 0)``: all of them).

    ``num_epochs``: passes over the files (None: forever; each pass reshuffles).
    ``seed``: None draws fresh randomness; an int makes both shuffles and the crops
    deterministic (stateless crops keyed by the seed and the image's position).
    ``gather``: the crops of each image are :func:`random_crops` (one gather from the
    uint8 image, then converted), not the answer's loop of ``num_patches``
    ``random_crop`` ops on the float image: the same distribution of crops, a graph
    of a few ops instead of about ten per patch, less work per image. A seed
    implies it (the stateless draws are made for the gather).
    """
    buffer_size = check_patch_options(num_patches, patch_size, 1, buffer_size,
                                      num_parallel_calls, prefetch, num_epochs)
    num_samples = len(filenames) if isinstance(filenames, (list, tuple)) else \
        tf.shape(filenames, out_type=tf.int64)[0]
    files = tf1.data.Dataset.from_tensor_slices(filenames) \
        .shuffle(buffer_size=num_samples, seed=seed) \
        .repeat(num_epochs)
    if seed is None:
        keyed = files.map(lambda f: (f, tf.constant([0, 0], tf.int64)))
    else:
        keyed = files.enumerate().map(
            lambda i, f: (f, tf.stack([tf.constant(seed, tf.int64), i])))

    gather = gather or seed is not None

    def decode(filename: tf.Tensor, key: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        # Gathered crops are cut from the decoded uint8 pixels and only the patches
        # are converted (elementwise, so the values are those of cropping parse_fn's
        # float image), not the whole image; the answer's loop crops parse_fn's image.
        image = decode_rgb(filename) if gather else parse_fn(filename)
        return check_patch_fits(image, patch_size, filename), key

    def crops(image: tf.Tensor, key: tf.Tensor) -> tf.Tensor:
        if gather:
            patches = tf.image.convert_image_dtype(
                random_crops(image, num_patches, patch_size, None if seed is None else key),
                tf.float32)
        else:
            patches = get_patches(image, num_patches, patch_size)
        return patches[patch_shard[1]::patch_shard[0]]

    return keyed.map(decode, num_parallel_calls=num_parallel_calls) \
        .map(crops, num_parallel_calls=num_parallel_calls) \
        .unbatch() \
        .shuffle(buffer_size=buffer_size, seed=None if seed is None else seed + 1) \
        .batch(batch_size) \
        .prefetch(prefetch)


def check_filenames(filenames: Any) -> list[str]:
    """The file list as paths; DataError for an empty list (``sorted(glob(...))`` of a
    folder without images: TensorFlow would fail on a float32 ``filename`` tensor)
    and ConfigError for a list of something else than paths."""
    if isinstance(filenames, (str, os.PathLike)) or not isinstance(filenames, (list, tuple)):
        raise ConfigError(f"filenames must be a list of image paths, got "
                          f"{type(filenames).__name__}")
    if not filenames:
        raise DataError("no image files given (an empty list: did the glob match nothing?); "
                        "make_patch_batches needs at least one JPEG or PNG path")
    wrong = [f for f in filenames if not isinstance(f, (str, os.PathLike))]
    if wrong:
        raise ConfigError(f"filenames must be paths, got {wrong[0]!r} ({type(wrong[0]).__name__})")
    return [os.fspath(f) for f in filenames]


def make_patch_batches(filenames: list[str], num_patches: int = NUM_PATCHES,
                       patch_size: int = PATCH_SIZE, batch_size: int = BATCH_SIZE,
                       buffer_size: int | None = None,
                       num_parallel_calls: int = NUM_PARALLEL_CALLS) -> tf.Tensor:
    """The answer's code: ``patches = iterator.get_next()`` of a one-shot iterator,
    float32 [<=batch_size, p, p, 3] in [0, 1]; one pass over the files."""
    if tf.executing_eagerly():
        raise RuntimeError("make_patch_batches builds TF1 graph tensors: call it inside "
                           "`with tf.Graph().as_default():`")
    check_filenames(filenames)
    return one_shot(patches_dataset(filenames, num_patches, patch_size, batch_size, buffer_size,
                                    num_parallel_calls))
