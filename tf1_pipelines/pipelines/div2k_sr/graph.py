"""Seed 000's TF1 graph functions: parsing the patch records, the LR resize, the
flips - the seed's per-record map function and the batched equivalents the uniform
face uses (same values, one op per batch)."""
from __future__ import annotations

import tensorflow as tf

from tf1_pipelines.image import pilutil as misc
from tf1_pipelines.image.resize import resize_bicubic_matmul
from tf1_pipelines.inputs.seeds import sub_key

tf1 = tf.compat.v1
LR_METHODS = ("native", "py_func")
# The seed's from_generator(gen, (tf.float32, tf.float32)): two float32 tensors of any
# shape, given as the non-deprecated output_signature.
LR_HR_ANY = (tf.TensorSpec(None, tf.float32), tf.TensorSpec(None, tf.float32))


def parse_patch(serialized: tf.Tensor, patch_size: int) -> tf.Tensor:
    """One serialized Example -> float32 [p, p], luma 0..255 (the seed's parse)."""
    features = tf1.parse_single_example(serialized, {"gt": tf1.FixedLenFeature([], tf.string)})
    gt = tf1.decode_raw(features["gt"], tf.uint8)
    return tf.cast(tf.reshape(gt, [patch_size, patch_size]), tf.float32)


def parse_patch_batch(serialized: tf.Tensor, patch_size: int,
                      dtype: tf.DType = tf.float32) -> tf.Tensor:
    """Serialized Examples [B] -> [B, p, p] luma 0..255 in ``dtype`` (float32, or
    uint8: the stored bytes as they are), in one op each."""
    features = tf1.parse_example(serialized, {"gt": tf1.FixedLenFeature([], tf.string)})
    gt = tf.reshape(tf.io.decode_raw(features["gt"], tf.uint8), [-1, patch_size, patch_size])
    return gt if dtype == tf.uint8 else tf.cast(gt, dtype)


def lr_by_py_func(gt: tf.Tensor, scale: int) -> tf.Tensor:
    """The seed's LR: ``misc.imresize(gt, 1/scale, 'bicubic', 'F')`` in a py_func."""
    # tf.numpy_function is tf.py_func without its deprecation notice (same semantics).
    return tf.numpy_function(lambda x: misc.imresize(x, 1.0 / scale, "bicubic", "F"), [gt],
                             tf.float32)


def _flip_draws(batch: tf.Tensor, seed: int | None,
                key: tf.Tensor | None) -> tuple[tf.Tensor, tf.Tensor]:
    """Per-image flip decisions, bool [B] each: up-down, then left-right. Stateful
    draws take op seeds ``seed`` and ``seed + 1``; with ``key`` they are stateless,
    from sub-keys 1 and 2."""
    draws = []
    for axis, op_seed in ((1, seed), (2, None if seed is None else seed + 1)):
        if key is None:
            draws.append(tf1.random_uniform(batch, 0, 1, seed=op_seed) < 0.5)
        else:
            draws.append(tf.random.stateless_uniform(batch, sub_key(key, axis)) < 0.5)
    return draws[0], draws[1]


def random_flips(images: tf.Tensor, seed: int | None = None,
                 key: tf.Tensor | None = None) -> tf.Tensor:
    """Flip each image of a [B, H, W] batch up-down, then left-right, each with
    probability 1/2: the seed's per-example ``tf.cond`` flips, for a whole batch.
    With ``key`` (int64 [2], see :mod:`tf1_pipelines.inputs.seeds`) the draws are
    stateless, the same for this batch in any process and after a resume.

    The batch is split into its four orientations (as is, up-down, left-right,
    both), each part reversed once and the parts stitched back in batch order:
    about two copies of the batch instead of the four of reverse-and-select on
    every image (measured: the flips' cost down by 40%). Same images either way:
    only where each pixel goes depends on the draws.
    """
    batch = tf.shape(images)[:1]
    up_down, left_right = _flip_draws(batch, seed, key)
    orientation = tf.cast(up_down, tf.int32) + 2 * tf.cast(left_right, tf.int32)
    parts = tf.dynamic_partition(images, orientation, 4)
    positions = tf.dynamic_partition(tf.range(batch[0]), orientation, 4)
    flipped = [parts[0], tf.reverse(parts[1], [1]), tf.reverse(parts[2], [2]),
               tf.reverse(parts[3], [1, 2])]
    return tf.dynamic_stitch(positions, flipped)


def batched_lr_hr(hr: tf.Tensor, patch_size: int, scale: int, seed: int | None,
                  key: tf.Tensor | None = None) -> tuple[tf.Tensor, tf.Tensor]:
    """HR luma batch [B, p, p] in 0..255 (uint8 or float32) -> flipped ``(lr,
    hr)``, float32 in 0..1, NHWC: ``lr`` [B, p/s, p/s, 1], ``hr`` [B, p, p, 1].

    Flipping before the resize equals flipping after: at an integer factor the
    bicubic sampling grid is symmetric (checked in the tests). Flipping uint8
    records moves a quarter of the bytes of float32 ones, and the LR is resized
    from the HR already scaled to 0..1 (one pass over the batch fewer): the HR
    values are those of ``hr / 255`` exactly, the LR those of resizing first
    within float32 rounding (measured: -19% CPU for the map of a batch of 64).
    """
    hr = tf.cast(random_flips(hr, seed=seed, key=key), tf.float32)[..., None] * (1.0 / 255.0)
    return resize_bicubic_matmul(hr, (patch_size // scale, patch_size // scale)), hr


def parse_one_example(example_proto: tf.Tensor, patch_size: int, scale: int,
                      lr_method: str) -> tuple[tf.Tensor, tf.Tensor]:
    """The seed's per-record map function (``DataLoader._parse_one_example``):
    parse, LR by ``lr_method``, both / 255, each flipped up-down then left-right
    with probability 1/2 by its own ``tf.cond``. Returns ``(lr [p/s, p/s, 1],
    gt [p, p, 1])``, float32."""
    p, s = patch_size, scale
    gt = parse_patch(example_proto, p)
    if lr_method == "py_func":
        lr = lr_by_py_func(gt, s)
    else:
        lr = resize_bicubic_matmul(gt[:, :, None], (p // s, p // s))
    gt = tf.reshape(gt, [p, p, 1]) / 255.0
    lr = tf.reshape(lr, [p // s, p // s, 1]) / 255.0
    c1 = tf1.random_uniform([], 0, 1)
    c2 = tf1.random_uniform([], 0, 1)
    gt, lr = tf.cond(c1 < 0.5, lambda: (gt[::-1, :], lr[::-1, :]), lambda: (gt, lr))
    gt, lr = tf.cond(c2 < 0.5, lambda: (gt[:, ::-1], lr[:, ::-1]), lambda: (gt, lr))
    return lr, gt


def require_graph_mode(what: str) -> None:
    """RuntimeError saying how to get a graph, if eager execution is on."""
    if tf.executing_eagerly():
        raise RuntimeError(f"{what} builds TF1 graph tensors: call it inside "
                           "`with tf.Graph().as_default():`, after "
                           "tf.compat.v1.disable_eager_execution(), or run the script with "
                           "`python -m compat run`")
