"""Seed 000 (DIV2K 4x super-resolution patches): records, values, both faces, bad input."""
from __future__ import annotations

import glob
import os
import shutil
import threading

import imageio.v3 as iio
import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tf1_pipelines as tp
from tf1_pipelines.data import sample_data
from tf1_pipelines.pipelines.div2k_sr import DataLoader, write_patch_records

tf1 = tf.compat.v1
P = 96


# --------------------------------------------------------------- independent references
def seed_writer(png_dir: str, save_dir: str, p: int = 96, shards: int = 10) -> int:
    """The seed's gen_tfrecords, written out again with PIL, numpy and a plain writer."""
    os.makedirs(save_dir)
    writers = [tf.io.TFRecordWriter(os.path.join(save_dir, "data%d.tfrecords" % i))
               for i in range(shards)]
    m = np.array([65.481, 128.553, 24.966])
    n = 0
    for path in sorted(glob.glob(os.path.join(png_dir, "*.png"))):
        img = np.array(Image.open(path)).astype(np.float64)
        y = np.round(np.clip(img @ m / 255.0 + 16.0, 0, 255)).astype(np.uint8)
        step = p // 3 * 2
        for h in range(0, y.shape[0] - p + 1, step):
            for w in range(0, y.shape[1] - p + 1, step):
                feature = {"gt": tf.train.Feature(bytes_list=tf.train.BytesList(
                    value=[y[h:h + p, w:w + p].tobytes()]))}
                ex = tf.train.Example(features=tf.train.Features(feature=feature))
                writers[n % shards].write(ex.SerializeToString())
                n += 1
    np.savetxt(os.path.join(save_dir, "sample_num.txt"), np.asarray([n]), "%d")
    for w in writers:
        w.close()
    return n


def pil_quarter(hr_255: np.ndarray) -> np.ndarray:
    """PIL's own BICUBIC on a float 'F' image: what scipy.misc.imresize(x, 0.25, 'bicubic', 'F') did."""
    im = Image.fromarray(hr_255.astype(np.float32))
    return np.asarray(im.resize((hr_255.shape[1] // 4, hr_255.shape[0] // 4), Image.BICUBIC))


def record_patches(save_dir: str) -> list[bytes]:
    out = []
    for path in sorted(glob.glob(os.path.join(save_dir, "*.tfrecords"))):
        for rec in tf.compat.v1.io.tf_record_iterator(path):
            out.append(tf.train.Example.FromString(rec).features.feature["gt"].bytes_list.value[0])
    return out


def canonical(patch_u8: np.ndarray) -> bytes:
    """The same key for a patch and its up-down / left-right flips."""
    return min(v.tobytes() for v in (patch_u8, patch_u8[::-1], patch_u8[:, ::-1], patch_u8[::-1, ::-1]))


def check_lr_is_bicubic_of_hr(batch: tuple[np.ndarray, np.ndarray]) -> None:
    lr, hr = batch
    assert lr.dtype == hr.dtype == np.float32
    assert lr.shape[1:] == (24, 24, 1) and hr.shape[1:] == (96, 96, 1)
    assert 16 / 255 - 1e-6 <= hr.min() and hr.max() <= 235 / 255 + 1e-6
    for i in range(len(hr)):
        expected = pil_quarter(hr[i, :, :, 0] * 255.0)
        assert np.abs(lr[i, :, :, 0] * 255.0 - expected).max() < 1e-4


def luma_planes(png_dir: str) -> list[np.ndarray]:
    """Seed 000's float Y (BT.601, 16..235) of every PNG, computed from RGB here."""
    m = np.array([65.481, 128.553, 24.966])
    return [np.asarray(Image.open(path).convert("RGB"), np.float64) @ m / 255.0 + 16.0
            for path in sorted(glob.glob(os.path.join(png_dir, "*.png")))]


def found_in(patch: np.ndarray, planes: list[np.ndarray], atol: float = 2e-3) -> bool:
    """True if ``patch`` (or one of its flips) is a crop of one of the planes."""
    p = patch.shape[0]
    for variant in (patch, patch[::-1], patch[:, ::-1], patch[::-1, ::-1]):
        for plane in planes:
            corners = plane[:plane.shape[0] - p + 1, :plane.shape[1] - p + 1]
            for r, c in np.argwhere(np.abs(corners - variant[0, 0]) < atol):
                if np.abs(plane[r:r + p, c:c + p] - variant).max() < atol:
                    return True
    return False


@pytest.fixture(scope="module")
def records(two_photos_dir: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    save_dir = str(tmp_path_factory.mktemp("div2k") / "tfrecords")
    write_patch_records(sorted(glob.glob(os.path.join(two_photos_dir, "*.png"))), save_dir)
    return save_dir


# ------------------------------------------------------------------------------ tests
def test_records_are_byte_identical_to_the_seed_writer(two_photos_dir: str, records: str,
                                                       tmp_path) -> None:
    expected_dir = str(tmp_path / "seed")
    count = seed_writer(two_photos_dir, expected_dir)
    assert count == 64
    for name in [f"data{i}.tfrecords" for i in range(10)] + ["sample_num.txt"]:
        with open(os.path.join(records, name), "rb") as ours, \
                open(os.path.join(expected_dir, name), "rb") as theirs:
            assert ours.read() == theirs.read(), name
    assert not glob.glob(os.path.join(records, "*.partial"))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("lr_method", ["native", "py_func"])
def test_one_epoch_delivers_every_patch_once_with_its_bicubic_lr(records: str,
                                                                lr_method: str) -> None:
    with tp.load_pipeline("div2k_sr", tfrecord_dir=records, lr_method=lr_method,
                          batch_size=24, num_epochs=1, seed=3) as p:
        batches = list(p)
    assert [len(b.hr) for b in batches] == [24, 24, 16]  # the seed keeps the last partial batch
    delivered = []
    for batch in batches:
        check_lr_is_bicubic_of_hr(batch)
        hr255 = batch.hr[..., 0] * 255.0
        assert np.abs(hr255 - np.round(hr255)).max() < 1e-4  # HR is the stored uint8 patch
        delivered += [canonical(np.round(h).astype(np.uint8)) for h in hr255]
    stored = [canonical(np.frombuffer(b, np.uint8).reshape(P, P)) for b in record_patches(records)]
    assert sorted(delivered) == sorted(stored)


@pytest.mark.timeout(120)
def test_flips_happen_and_the_shuffle_mixes_shards(records: str) -> None:
    stored = {np.frombuffer(b, np.uint8).reshape(P, P).tobytes() for b in record_patches(records)}
    with tp.load_pipeline("div2k_sr", tfrecord_dir=records, batch_size=64, num_epochs=1) as p:
        hr = np.round(p.get_batch().hr[..., 0] * 255).astype(np.uint8)
    unflipped = sum(h.tobytes() in stored for h in hr)
    assert 4 < unflipped < 40  # about a quarter of 64 patches keep their stored orientation
    file_order = [canonical(np.frombuffer(b, np.uint8).reshape(P, P)) for b in record_patches(records)]
    delivered = [canonical(h) for h in hr]
    assert sorted(delivered) == sorted(file_order) and delivered != file_order


@pytest.mark.timeout(120)
@pytest.mark.parametrize("lr_method", ["native", "py_func"])
def test_generator_backend_gives_bicubic_pairs(two_photos_dir: str, lr_method: str) -> None:
    with tp.load_pipeline("div2k_sr", data_dir=two_photos_dir, backend="generator",
                          lr_method=lr_method, batch_size=16, one_img_patch_num=8,
                          shuffle_num=16, num_epochs=1, seed=0) as p:
        batches = list(p)
    assert sum(len(b.hr) for b in batches) == 16  # 2 images x 8 random patches
    planes = luma_planes(two_photos_dir)
    for batch in batches:
        check_lr_is_bicubic_of_hr(batch)
        for hr in batch.hr[..., 0] * 255.0:  # each HR patch is a crop of a photograph's Y
            assert found_in(hr, planes)


def test_flip_before_or_after_the_resize_is_the_same() -> None:
    from tf1_pipelines.image.resize import resize_bicubic_numpy
    hr = sample_data.load_photograph("astronaut")[100:196, 200:296, 1].astype(np.float32)
    for flip in (lambda x: x[::-1], lambda x: x[:, ::-1]):
        a = resize_bicubic_numpy(flip(hr), (24, 24))
        b = flip(resize_bicubic_numpy(hr, (24, 24)))
        assert np.abs(a - b).max() < 1e-4


def test_random_flips_follow_their_draws() -> None:
    """Each image is flipped exactly as its two stateless draws say (NumPy flips of
    the same batch), every orientation occurs, and the batch order is kept."""
    from tf1_pipelines.inputs.seeds import sub_key
    from tf1_pipelines.pipelines.div2k_sr.graph import random_flips
    images = np.random.default_rng(5).integers(0, 256, (32, 6, 5)).astype(np.float32)
    key = tf.constant([7, 3], tf.int64)
    flipped = random_flips(tf.constant(images), key=key).numpy()
    up_down = tf.random.stateless_uniform([32], sub_key(key, 1)).numpy() < 0.5
    left_right = tf.random.stateless_uniform([32], sub_key(key, 2)).numpy() < 0.5
    assert len(set(zip(up_down, left_right))) == 4  # the draws give all four orientations
    for image, out, ud, lr in zip(images, flipped, up_down, left_right):
        expected = image[::-1] if ud else image
        expected = expected[:, ::-1] if lr else expected
        np.testing.assert_array_equal(out, expected)


@pytest.mark.timeout(120)
def test_legacy_dataloader_builds_the_seed_tensors(two_photos_dir: str, tmp_path, capsys) -> None:
    loader = DataLoader(data_dir=two_photos_dir, one_img_patch_num=40, shuffle_num=100)
    assert loader.gen_tfrecords(str(tmp_path / "rec")) == 64
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("processing ") and printed[-1] == "example number: 64"
    with tf.Graph().as_default():
        lrs, gts = loader.read_tfrecords(str(tmp_path / "rec"))
        plrs, pgts = loader.read_pngs()
        with tf1.Session() as sess:
            im1, im2 = sess.run([lrs, gts])
            pim1, pim2 = sess.run([plrs, pgts])
    assert (im1.shape, im2.shape) == ((64, 24, 24, 1), (64, 96, 96, 1))
    assert (pim1.shape, pim2.shape) == ((64, 24, 24, 1), (64, 96, 96, 1))
    check_lr_is_bicubic_of_hr((im1, im2))
    check_lr_is_bicubic_of_hr((pim1, pim2))


def test_legacy_face_needs_graph_mode(two_photos_dir: str) -> None:
    with pytest.raises(RuntimeError, match="graph"):
        DataLoader(data_dir=two_photos_dir).read_pngs()


@pytest.mark.timeout(120)
def test_configure_tensors_and_the_callers_session(records: str) -> None:
    graph = tf.Graph()
    p = tp.load_pipeline("div2k_sr", tfrecord_dir=records, batch_size=8, graph=graph)
    with graph.as_default():
        mean_hr = tf.reduce_mean(p.tensors.hr)
        sess = tf1.Session(graph=graph)
    batch = p.get_batch(sess)
    assert batch.hr.shape == (8, 96, 96, 1)
    p.configure(batch_size=5)
    assert p.get_batch(sess).lr.shape == (5, 24, 24, 1)
    assert 16 / 255 < sess.run(mean_hr, feed_dict=p.feed_dict()) < 235 / 255
    p.close()
    sess.close()


@pytest.mark.timeout(120)
def test_end_of_data_is_an_out_of_range_error_and_close_is_clean(records: str) -> None:
    before = threading.active_count()
    p = tp.load_pipeline("div2k_sr", tfrecord_dir=records, batch_size=64, num_epochs=1)
    assert len(p.get_batch().hr) == 64
    with pytest.raises(tf.errors.OutOfRangeError):
        p.get_batch()
    p.close()
    p.close()  # idempotent
    assert threading.active_count() == before
    with pytest.raises(RuntimeError, match="closed"):
        p.get_batch()


# -------------------------------------------------------------------------- bad input
def test_missing_and_empty_directories(tmp_path) -> None:
    with pytest.raises(tp.DataError, match="does not exist") as missing:
        tp.load_pipeline("div2k_sr", data_dir=str(tmp_path / "nope"))
    assert "nope" in str(missing.value)
    with pytest.raises(tp.DataError, match="no images"):
        tp.load_pipeline("div2k_sr", data_dir=str(tmp_path), backend="generator")
    with pytest.raises(tp.DataError, match="no TFRecord files"):
        tp.load_pipeline("div2k_sr", tfrecord_dir=str(tmp_path))


def test_bad_options() -> None:
    for bad in (0, -1, 2.5):
        with pytest.raises(tp.ConfigError, match="batch_size"):
            tp.load_pipeline("div2k_sr", tfrecord_dir=".", batch_size=bad)
    with pytest.raises(tp.ConfigError, match="backend"):
        tp.load_pipeline("div2k_sr", backend="queue")
    with pytest.raises(tp.ConfigError, match="lr_method"):
        DataLoader(lr_method="pil")
    with pytest.raises(tp.ConfigError, match="unknown pipeline"):
        tp.load_pipeline("div2k")


def test_a_corrupt_png_fails_the_export_and_leaves_no_shard(two_photos_dir: str, tmp_path) -> None:
    data = tmp_path / "pngs"
    shutil.copytree(two_photos_dir, data)
    (data / "0003.png").write_bytes(b"\x89PNG\r\n\x1a\n not really")
    save_dir = tmp_path / "rec"
    with pytest.raises(tp.DataError, match="0003.png") as err:
        write_patch_records(sorted(glob.glob(str(data / "*.png"))), str(save_dir))
    assert str(data / "0003.png") in str(err.value)  # the full path, not only its name
    assert os.listdir(save_dir) == []  # neither shards nor partial files


def test_an_image_smaller_than_the_patch_is_named(tmp_path) -> None:
    iio.imwrite(tmp_path / "small.png", sample_data.load_photograph("coffee")[:80, :300])
    with pytest.raises(tp.DataError, match=r"small\.png.*80x300.*96") as err:
        write_patch_records([str(tmp_path / "small.png")], str(tmp_path / "rec"))
    assert str(tmp_path / "small.png") in str(err.value)


def test_rgba_and_grayscale_pngs_are_read_as_rgb(tmp_path) -> None:
    rgb = sample_data.load_photograph("chelsea")[:96, :96]
    gray = rgb[:, :, 1]
    iio.imwrite(tmp_path / "a_rgb.png", rgb)
    iio.imwrite(tmp_path / "b_rgba.png", np.dstack([rgb, np.full(rgb.shape[:2], 77, np.uint8)]))
    iio.imwrite(tmp_path / "c_gray.png", gray)
    write_patch_records(sorted(glob.glob(str(tmp_path / "*.png"))), str(tmp_path / "rec"), 96, 3)
    patches = [np.frombuffer(b, np.uint8).reshape(96, 96) for b in record_patches(str(tmp_path / "rec"))]
    # shards are read back in file order: data0 holds the RGB patch, data1 RGBA, data2 gray
    assert np.array_equal(patches[0], patches[1])  # alpha is dropped
    expected_gray = np.round(16 + 219 * gray.astype(np.float64) / 255).astype(np.uint8)
    assert np.abs(patches[2].astype(int) - expected_gray).max() <= 1


@pytest.mark.timeout(120)
def test_a_truncated_shard_is_named(records: str, tmp_path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(records, broken)
    shard = broken / "data3.tfrecords"
    shard.write_bytes(shard.read_bytes()[:-100])
    with pytest.raises(tp.DataError, match=r"data3\.tfrecords.*record") as err:
        with tp.load_pipeline("div2k_sr", tfrecord_dir=str(broken), batch_size=64,
                              num_epochs=1) as p:
            list(p)
    assert str(shard) in str(err.value)


def test_records_of_another_patch_size_are_named(records: str) -> None:
    with pytest.raises(tp.DataError,
                       match=r"data0\.tfrecords.*record 0.*'gt'.*9216 bytes.*64") as err:
        tp.load_pipeline("div2k_sr", tfrecord_dir=records, patch_size=64)
    assert os.path.join(records, "data0.tfrecords") in str(err.value)
