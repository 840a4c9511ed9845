"""Seed 002 (random patches from big images): every patch is a real crop, each image gives
num_patches patches, batches mix images, both faces, bad input."""
from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tf1_pipelines as tp
from tf1_pipelines.pipelines import random_patches as rp

tf1 = tf.compat.v1
pytestmark = pytest.mark.timeout(120)


def write_noise_images(folder, sizes: list[tuple[int, int]], fmt: str = "png",
                       seed: int = 0) -> list[str]:
    """Random-noise images (every crop is unique) of the given (height, width)."""
    rng = np.random.RandomState(seed)
    folder.mkdir(exist_ok=True)
    paths = []
    for i, (h, w) in enumerate(sizes):
        path = str(folder / f"img{i}.{fmt}")
        Image.fromarray(rng.randint(0, 256, (h, w, 3)).astype(np.uint8)).save(path)
        paths.append(path)
    return paths


def tf_decoded(paths: list[str]) -> list[np.ndarray]:
    """The files as TensorFlow decodes them (JPEG decoders differ between libraries)."""
    with tf.Graph().as_default(), tf1.Session() as sess:
        return [sess.run(tf.io.decode_image(tf.io.read_file(p), channels=3,
                                            expand_animations=False)) for p in paths]


def locate(patch: np.ndarray, images: list[np.ndarray]) -> list[tuple[int, int, int]]:
    """Every (image, row, column) where ``patch`` (uint8 [p, p, 3]) occurs exactly."""
    p = patch.shape[0]
    found = []
    for k, image in enumerate(images):
        h, w = image.shape[:2]
        ys, xs = np.nonzero(np.all(image[:h - p + 1, :w - p + 1] == patch[0, 0], axis=-1))
        found += [(k, y, x) for y, x in zip(ys, xs)
                  if np.array_equal(image[y:y + p, x:x + p], patch)]
    return found


def as_uint8(patches: np.ndarray) -> np.ndarray:
    """convert_image_dtype's x * (1/255) back to the decoded bytes."""
    assert patches.dtype == np.float32 and 0.0 <= patches.min() and patches.max() <= 1.0
    back = patches * 255.0
    assert np.abs(back - np.rint(back)).max() < 1e-3
    return np.rint(back).astype(np.uint8)


def test_every_patch_is_a_crop_and_batches_mix_images(tmp_path) -> None:
    paths = write_noise_images(tmp_path / "imgs", [(40, 50), (48, 48), (64, 40), (30, 70)])
    images = [np.asarray(Image.open(p)) for p in paths]
    with tp.load_pipeline("random_patches", image_dir=str(tmp_path / "imgs"), num_patches=6,
                          patch_size=8, batch_size=5, seed=1) as p:
        batches = [b.patches for b in p]
    assert [len(b) for b in batches] == [5, 5, 5, 5, 4]  # 4 images x 6 patches, one pass
    sources = []
    for batch in batches:
        assert batch.shape[1:] == (8, 8, 3)
        for patch in as_uint8(batch):
            where = locate(patch, images)
            assert len(where) == 1
            sources.append(where[0][0])
    assert Counter(sources) == {0: 6, 1: 6, 2: 6, 3: 6}
    assert all(len(set(sources[i:i + 5])) >= 2 for i in range(0, 20, 5))
    assert sources != sorted(sources)


def test_seed_makes_it_repeatable(tmp_path) -> None:
    write_noise_images(tmp_path / "imgs", [(32, 32), (40, 36)])

    def run(seed: int) -> np.ndarray:
        with tp.load_pipeline("random_patches", image_dir=str(tmp_path / "imgs"), num_patches=4,
                              patch_size=6, batch_size=8, seed=seed,
                              num_parallel_calls=2) as p:
            return p.get_batch().patches

    first = run(7)
    assert np.array_equal(first, run(7))
    assert not np.array_equal(first, run(8))


def test_legacy_one_shot_on_jpegs(tmp_path) -> None:
    paths = write_noise_images(tmp_path / "jpgs", [(36, 44), (40, 40), (33, 52)], fmt="jpg")
    images = tf_decoded(paths)
    with tf.Graph().as_default():
        patches = rp.make_patch_batches(paths, num_patches=5, patch_size=9, batch_size=4)
        assert patches.shape.as_list() == [None, 9, 9, 3]
        got = []
        with tf1.Session() as sess:
            while True:
                try:
                    got.append(sess.run(patches))
                except tf.errors.OutOfRangeError:
                    break
    assert [len(b) for b in got] == [4, 4, 4, 3]
    sources = [locate(patch, images) for patch in as_uint8(np.concatenate(got))]
    assert all(len(s) >= 1 for s in sources)
    assert Counter(s[0][0] for s in sources) == {0: 5, 1: 5, 2: 5}


def test_get_patches_shapes_and_values() -> None:
    image = np.random.RandomState(2).rand(20, 30, 3).astype(np.float32)
    with tf.Graph().as_default(), tf1.Session() as sess:
        looped = rp.get_patches(tf.constant(image), num_patches=7, patch_size=5)
        keyed = rp.get_patches(tf.constant(image), 7, 5, seed=tf.constant([3, 4], tf.int64))
        assert looped.shape.as_list() == keyed.shape.as_list() == [7, 5, 5, 3]
        a, b, b2 = sess.run([looped, keyed, keyed])
    assert np.array_equal(b, b2)  # stateless: the same key gives the same crops
    windows = np.lib.stride_tricks.sliding_window_view(image, (5, 5, 3)).reshape(-1, 5, 5, 3)
    keys = {w.tobytes() for w in windows}
    assert all(patch.tobytes() in keys for patch in np.concatenate([a, b]))


def test_embedded_photographs(tmp_path) -> None:
    with tp.load_pipeline("random_patches", num_patches=4, seed=0) as p:
        batch = p.get_batch()
        files = p.filenames
    assert batch.patches.shape == (10, 32, 32, 3)
    assert {os.path.splitext(f)[1] for f in files} == {".png", ".jpg"}
    images = tf_decoded(files)
    sources = [locate(patch, images) for patch in as_uint8(batch.patches)]
    assert all(sources) and len({s[0][0] for s in sources}) >= 3


def test_initializable_iterator_takes_a_new_batch_size(tmp_path) -> None:
    write_noise_images(tmp_path / "imgs", [(32, 32)])
    with tp.load_pipeline("random_patches", image_dir=str(tmp_path / "imgs"), num_patches=12,
                          patch_size=4, batch_size=5, iterator="initializable",
                          num_epochs=None) as p:
        assert len(p.get_batch().patches) == 5
        p.configure(batch_size=3)
        assert len(p.get_batch().patches) == 3
    with tp.load_pipeline("random_patches", image_dir=str(tmp_path / "imgs"), num_patches=2,
                          patch_size=4, batch_size=5) as p:
        with pytest.raises(tp.ConfigError, match="one-shot iterator has a fixed batch size"):
            p.configure(batch_size=3)


def test_bad_input(tmp_path) -> None:
    with pytest.raises(tp.DataError, match="does not exist"):
        rp.RandomPatchesPipeline(image_dir=str(tmp_path / "missing"))
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("no images here")
    with pytest.raises(tp.DataError, match="no JPEG or PNG images"):
        rp.RandomPatchesPipeline(image_dir=str(tmp_path / "empty"))
    paths = write_noise_images(tmp_path / "imgs", [(40, 40), (20, 50)])
    with pytest.raises(tp.DataError, match=r"20x50, smaller than the patch size 32x32") as info:
        rp.RandomPatchesPipeline(image_dir=str(tmp_path / "imgs"))
    assert info.value.path == paths[1]
    with pytest.raises(tp.ConfigError, match="num_patches"):
        rp.RandomPatchesPipeline(image_dir=str(tmp_path / "imgs"), num_patches=0)
    # an image replaced by a smaller one after loading: get_batch names it
    good = write_noise_images(tmp_path / "later", [(40, 40)])
    with tp.load_pipeline("random_patches", image_dir=str(tmp_path / "later"),
                          num_patches=2) as p:
        Image.fromarray(np.zeros((10, 10, 3), np.uint8)).save(good[0])
        with pytest.raises(tp.DataError, match="smaller than the patch size") as info:
            p.get_batch()
        assert info.value.path == good[0]
    # the legacy graph checks the size too, naming the file
    with tf.Graph().as_default():
        patches = rp.make_patch_batches([paths[1]], num_patches=2, patch_size=32)
        with tf1.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="img1.png") as err:
                sess.run(patches)
            assert paths[1] in err.value.message


def crops_at(image: np.ndarray, offsets: np.ndarray, p: int) -> np.ndarray:
    """NumPy slices image[r:r+p, c:c+p] at each (r, c) of ``offsets``."""
    return np.stack([image[r:r + p, c:c + p] for r, c in offsets])


@pytest.mark.parametrize("seeded", [False, True])
def test_gathered_crops_are_numpy_slices_at_their_offsets(seeded: bool) -> None:
    pixels = np.random.RandomState(4).randint(0, 256, (23, 31, 3)).astype(np.uint8)
    with tf.Graph().as_default(), tf1.Session() as sess:
        image = tf.constant(pixels)
        key = tf.constant([5, 9], tf.int64) if seeded else None
        offsets = rp.crop_offsets(tf.shape(image), 40, 7, key)
        # the same draws, cut from the uint8 image and from parse_fn's float image
        as_float = tf.image.convert_image_dtype(image, tf.float32)
        if seeded:
            crops_u8, crops_f32 = rp.random_crops(image, 40, 7, key), \
                rp.random_crops(as_float, 40, 7, key)
            got_offsets, u8, f32 = sess.run([offsets, crops_u8, crops_f32])
        else:  # stateful draws: take the offsets the gather used from its own graph
            got_offsets, u8 = sess.run([offsets, rp.random_crops(image, 40, 7)])
            f32 = None
    if seeded:
        assert (got_offsets >= 0).all() and (got_offsets <= [23 - 7, 31 - 7]).all()
        np.testing.assert_array_equal(u8, crops_at(pixels, got_offsets, 7))
        # cropping then converting gives the bytes of converting then cropping
        expected = crops_at(pixels, got_offsets, 7).astype(np.float32) * np.float32(1 / 255)
        np.testing.assert_array_equal(f32, expected)
    else:
        windows = {w.tobytes() for w in np.lib.stride_tricks.sliding_window_view(
            pixels, (7, 7, 3)).reshape(-1, 7, 7, 3)}
        assert all(patch.tobytes() in windows for patch in u8)


@pytest.mark.parametrize("seeded", [False, True])
def test_crop_offsets_are_uniform_over_the_free_range(seeded: bool) -> None:
    # a 10 x 12 image and 8-pixel patches: 3 x 5 = 15 places, 15,000 draws
    with tf.Graph().as_default(), tf1.Session() as sess:
        key = tf.constant([1, 2], tf.int64) if seeded else None
        offsets = sess.run(rp.crop_offsets(tf.constant([10, 12, 3]), 15000, 8, key))
    counts = np.zeros((3, 5), int)
    np.add.at(counts, (offsets[:, 0], offsets[:, 1]), 1)
    assert counts.sum() == 15000
    assert np.abs(counts - 1000).max() < 5 * np.sqrt(1000)  # binomial sd ~ 31


@pytest.mark.timeout(180)
def test_seeded_batches_equal_the_earlier_float_formulation(tmp_path) -> None:
    """The seeded crops are cut from the uint8 image in one gather and then converted;
    before, rows then columns were gathered from parse_fn's float image. Rebuilt
    here the earlier way (same seeds, same shuffles), the batches are identical."""
    paths = write_noise_images(tmp_path / "imgs", [(40, 50), (48, 48), (64, 40)])

    def earlier(images: tf.Tensor, key: tf.Tensor) -> tf.Tensor:
        shape = tf.shape(images)
        draws = tf.random.stateless_uniform([6, 2], seed=key, minval=0, maxval=tf.int32.max,
                                            dtype=tf.int32)
        offsets = draws % (shape[:2] - 8 + 1)
        rows = offsets[:, :1] + tf.range(8)
        cols = offsets[:, 1:] + tf.range(8)
        return tf.gather(tf.gather(images, rows), cols, axis=2, batch_dims=1)

    with tf.Graph().as_default():
        files = tf1.data.Dataset.from_tensor_slices(paths).shuffle(3, seed=7).repeat(2)
        keyed = files.enumerate().map(lambda i, f: (f, tf.stack([tf.constant(7, tf.int64), i])))
        dataset = keyed.map(lambda f, k: (rp.parse_fn(f), k)) \
            .map(earlier).unbatch().shuffle(300, seed=8).batch(5)
        batch = tf1.data.make_one_shot_iterator(dataset).get_next()
        with tf1.Session() as sess:
            expected = [sess.run(batch) for _ in range(7)]
    with tp.load_pipeline("random_patches", image_dir=str(tmp_path / "imgs"), num_patches=6,
                          patch_size=8, batch_size=5, seed=7, num_epochs=2,
                          buffer_size=300) as p:
        got = [p.get_batch().patches for _ in range(7)]
    for want, have in zip(expected, got):
        np.testing.assert_array_equal(have, want)
