"""Seed 001 (StyleGAN2 multi-resolution TFRecords): byte-identical export, reader values,
per-LOD configure, labels, both faces, bad input."""
from __future__ import annotations

import glob
import io
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tf1_pipelines as tp
from tf1_pipelines.pipelines import stylegan_lod as sl
from tf1_pipelines.records.manifest import MANIFEST_NAME

tf1 = tf.compat.v1
pytestmark = pytest.mark.timeout(120)


# --------------------------------------------------------------- independent references
def reference_lods(chw: np.ndarray) -> list[np.ndarray]:
    """The original's LOD pyramid, computed another way: block means of the float32
    image (exact here: sums of quarter multiples), rint, clip, uint8."""
    levels, img = [], chw
    for lod in range(int(np.log2(chw.shape[1])) - 1):
        if lod:
            c, h, w = img.shape
            img = img.astype(np.float32).reshape(c, h // 2, 2, w // 2, 2).mean(
                axis=(2, 4), dtype=np.float32)
        levels.append(np.rint(img).clip(0, 255).astype(np.uint8))
    return levels


def reference_export(tfrecord_dir: str, images_chw: list[np.ndarray], order: np.ndarray,
                     labels: np.ndarray | None = None) -> None:
    """The original tool's files, written with a plain tf.io.TFRecordWriter."""
    os.makedirs(tfrecord_dir)
    prefix = os.path.join(tfrecord_dir, os.path.basename(tfrecord_dir))
    log2 = int(np.log2(images_chw[0].shape[1]))
    writers = [tf.io.TFRecordWriter(prefix + "-r%02d.tfrecords" % (log2 - lod))
               for lod in range(log2 - 1)]
    for index in order:
        for writer, quant in zip(writers, reference_lods(images_chw[index])):
            ex = tf.train.Example(features=tf.train.Features(feature={
                "shape": tf.train.Feature(int64_list=tf.train.Int64List(value=list(quant.shape))),
                "data": tf.train.Feature(bytes_list=tf.train.BytesList(value=[quant.tobytes()]))}))
            # the original's bytes with the map entries in one fixed (sorted) order: its own
            # SerializeToString() order changes from process to process (compat run sorts it)
            writer.write(ex.SerializeToString(deterministic=True))
    for writer in writers:
        writer.close()
    if labels is not None:
        with open(prefix + "-rxx.labels", "wb") as f:
            np.save(f, labels.astype(np.float32))


def file_bytes(directory: str) -> dict[str, bytes]:
    return {os.path.basename(p): open(p, "rb").read()
            for p in sorted(glob.glob(os.path.join(directory, "*")))}


def write_pngs(folder: str, images_hwc: list[np.ndarray]) -> list[np.ndarray]:
    """Write images as 000.png, 001.png, ...; returns them as CHW."""
    os.makedirs(folder, exist_ok=True)
    chw = []
    for i, img in enumerate(images_hwc):
        Image.fromarray(img).save(os.path.join(folder, f"{i:03d}.png"))
        chw.append(img[np.newaxis] if img.ndim == 2 else img.transpose(2, 0, 1))
    return chw


def random_images(n: int, size: int, channels: int = 3, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.RandomState(seed)
    shape = (size, size) if channels == 1 else (size, size, channels)
    return [rng.randint(0, 256, shape).astype(np.uint8) for _ in range(n)]


@pytest.fixture()
def rgb_set(tmp_path) -> tuple[str, list[np.ndarray], np.ndarray]:
    """6 random 16x16 RGB images exported in name order with 4-component labels."""
    images = write_pngs(str(tmp_path / "imgs"), random_images(6, 16))
    labels = np.arange(24, dtype=np.float32).reshape(6, 4)
    tfrecord_dir = str(tmp_path / "rgb")
    with sl.TFRecordExporter(tfrecord_dir, 6, print_progress=False) as tfr:
        for img in images:
            tfr.add_image(img)
        tfr.add_labels(labels)
    return tfrecord_dir, images, labels


def reader(tfrecord_dir: str, **kwargs) -> sl.TFRecordDataset:
    options = dict(repeat=False, shuffle_mb=0, prefetch_mb=0, buffer_mb=1)
    options.update(kwargs)
    return sl.TFRecordDataset(tfrecord_dir, **options)


# ---------------------------------------------------------------------------- writer
@pytest.mark.parametrize("channels,shuffle", [(3, 1), (1, 0)])
def test_create_from_images_is_byte_identical(tmp_path, capsys, channels: int,
                                              shuffle: int) -> None:
    images = write_pngs(str(tmp_path / "imgs"), random_images(7, 32, channels, seed=channels))
    sl.create_from_images(str(tmp_path / "ours"), str(tmp_path / "imgs"), shuffle)
    order = np.arange(7)
    if shuffle:
        np.random.RandomState(123).shuffle(order)
    reference_export(str(tmp_path / "theirs"), images, order)
    ours, theirs = file_bytes(str(tmp_path / "ours")), file_bytes(str(tmp_path / "theirs"))
    assert sorted(ours) == ["ours-r02.tfrecords", "ours-r03.tfrecords", "ours-r04.tfrecords",
                            "ours-r05.tfrecords"]
    assert [v for _, v in sorted(ours.items())] == [v for _, v in sorted(theirs.items())]
    out = capsys.readouterr().out
    assert 'Loading images from "' in out and "Added 7 images." in out


def test_exporter_labels_and_shuffled_order_are_byte_identical(tmp_path) -> None:
    images = [img.transpose(2, 0, 1) for img in random_images(10, 8, seed=3)]
    onehot = np.eye(10, dtype=np.float64)[np.arange(10) % 3]
    with sl.TFRecordExporter(str(tmp_path / "ours"), 10, print_progress=False) as tfr:
        order = tfr.choose_shuffled_order()
        for idx in order:
            tfr.add_image(images[idx])
        tfr.add_labels(onehot[order])
    expected_order = np.arange(10)
    np.random.RandomState(123).shuffle(expected_order)
    assert order.tolist() == expected_order.tolist()
    reference_export(str(tmp_path / "theirs"), images, expected_order, onehot[expected_order])
    ours, theirs = file_bytes(str(tmp_path / "ours")), file_bytes(str(tmp_path / "theirs"))
    assert [k.replace("ours", "x") for k in ours] == [k.replace("theirs", "x") for k in theirs]
    assert list(ours.values()) == list(theirs.values())
    labels = np.load(io.BytesIO(ours["ours-rxx.labels"]), allow_pickle=False)
    assert labels.dtype == np.float32 and labels.tolist() == onehot[expected_order].tolist()


def test_interrupted_export_leaves_nothing(tmp_path) -> None:
    tfrecord_dir = str(tmp_path / "broken")
    with pytest.raises(KeyboardInterrupt):
        with sl.TFRecordExporter(tfrecord_dir, 4, print_progress=False) as tfr:
            for img in random_images(3, 8):
                tfr.add_image(img.transpose(2, 0, 1))
            tfr.add_labels(np.zeros((3, 1)))
            raise KeyboardInterrupt
    assert os.listdir(tfrecord_dir) == []


@pytest.mark.parametrize("image,message", [
    (np.zeros((8, 12, 3), np.uint8), "Input images must have the same width and height"),
    (np.zeros((12, 12, 3), np.uint8), "Input image resolution must be a power-of-two"),
    (np.zeros((8, 8, 4), np.uint8), "Input images must be stored as RGB or grayscale"),
])
def test_create_from_images_rejects_like_the_original(tmp_path, image: np.ndarray,
                                                      message: str) -> None:
    folder = tmp_path / "imgs"
    folder.mkdir()
    Image.fromarray(image).save(folder / "a.png")
    with pytest.raises(sl.DatasetToolError, match=message) as info:
        sl.create_from_images(str(tmp_path / "out"), str(folder), 1)
    assert info.value.path.endswith("a.png")
    assert not glob.glob(str(tmp_path / "out" / "*.tfrecords"))


def test_create_from_images_errors_for_no_images_and_a_different_image(tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(sl.DatasetToolError, match="No input images found"):
        sl.create_from_images(str(tmp_path / "out"), str(tmp_path / "empty"), 0)
    write_pngs(str(tmp_path / "imgs"), random_images(3, 16))
    Image.fromarray(np.zeros((8, 8, 3), np.uint8)).save(tmp_path / "imgs" / "zzz.png")
    with pytest.raises(tp.DataError, match=r"\(8, 8, 3\).*\(16, 16, 3\)") as info:
        sl.create_from_images(str(tmp_path / "out"), str(tmp_path / "imgs"), 0)
    assert info.value.path.endswith("zzz.png")
    assert os.listdir(tmp_path / "out") == []  # the three good images were not published


def test_exporter_rejects_bad_images_and_labels(tmp_path) -> None:
    tfr = sl.TFRecordExporter(str(tmp_path / "x"), 2, print_progress=False)
    with pytest.raises(sl.DatasetToolError, match="at least 4"):
        tfr.add_image(np.zeros((3, 2, 2), np.uint8))
    tfr.add_image(np.zeros((3, 8, 8), np.uint8))
    with pytest.raises(tp.DataError, match=r"image 1 has shape \(1, 8, 8\).*\(3, 8, 8\)"):
        tfr.add_image(np.zeros((1, 8, 8), np.uint8))
    with pytest.raises(tp.DataError, match="labels have 2 rows, but 1 images"):
        tfr.add_labels(np.zeros((2, 3)))
    tfr.abort()
    assert os.listdir(tmp_path / "x") == []


def test_command_line_like_the_original(tmp_path) -> None:
    write_pngs(str(tmp_path / "imgs"), random_images(2, 8))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    done = subprocess.run([sys.executable, "-m", "tf1_pipelines.pipelines.stylegan_lod",
                           "create_from_images", str(tmp_path / "ds"), str(tmp_path / "imgs"),
                           "--shuffle", "1"], capture_output=True, text=True, env=env,
                          timeout=90)
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(tmp_path / "ds")) == [MANIFEST_NAME, "ds-r02.tfrecords",
                                                   "ds-r03.tfrecords"]
    assert sl.main(["prog", "create_from_images", str(tmp_path / "ds2"),
                    str(tmp_path / "nothing")]) == 2


# ---------------------------------------------------------------------------- reader
def test_reader_serves_every_lod_in_order_with_labels(rgb_set) -> None:
    tfrecord_dir, images, labels = rgb_set
    with tf.Graph().as_default(), tf1.Session().as_default():
        dset = reader(tfrecord_dir, max_label_size="full")
        assert dset.shape == [3, 16, 16] and dset.resolution_log2 == 4
        assert dset.label_size == 4 and dset.label_dtype == "float32"
        assert dset.dynamic_range == [0, 255] and dset.lods == [0, 1, 2]
        for lod in (0, 1.5, 2):
            got_images, got_labels = [], []
            while True:
                try:
                    x, y = dset.get_minibatch_np(4, lod)
                except tf.errors.OutOfRangeError:
                    break
                got_images.append(x)
                got_labels.append(y)
                dset.configure(4, lod)  # unchanged: must not restart
            assert [len(x) for x in got_images] == [4, 2]
            expected = np.stack([reference_lods(img)[int(lod)] for img in images])
            assert np.array_equal(np.concatenate(got_images), expected)
            assert np.concatenate(got_labels).tolist() == labels.tolist()


def test_configure_restarts_only_on_change(rgb_set) -> None:
    tfrecord_dir, images, _ = rgb_set
    first = [reference_lods(img)[0] for img in images]
    with tf.Graph().as_default(), tf1.Session().as_default():
        dset = reader(tfrecord_dir, repeat=True)
        assert np.array_equal(dset.get_minibatch_np(2)[0], first[0:2])
        assert np.array_equal(dset.get_minibatch_np(2)[0], first[2:4])  # no re-init
        dset.configure(2, 1)
        dset.configure(2, 0)  # changed back: LOD 0 starts again
        assert np.array_equal(dset.get_minibatch_np(2)[0], first[0:2])
        dset.configure(3, 0)
        assert np.array_equal(dset.get_minibatch_np(3)[0], first[0:3])


def test_label_options(rgb_set, tmp_path) -> None:
    tfrecord_dir, _, labels = rgb_set
    with tf.Graph().as_default(), tf1.Session().as_default():
        dset = reader(tfrecord_dir, max_label_size=2, max_images=3)
        x, y = dset.get_minibatch_np(10)
        assert len(x) == 3 and y.tolist() == labels[:3, :2].tolist()
        no_labels = reader(tfrecord_dir)
        assert no_labels.label_size == 0 and no_labels.get_minibatch_np(2)[1].shape == (2, 0)
        rows = dset.get_random_labels_np(50)
        allowed = {tuple(r) for r in labels[:3, :2]}
        assert rows.shape == (50, 2) and {tuple(r) for r in rows} <= allowed
        tf_rows = tf1.get_default_session().run(dset.get_random_labels_tf(40))
        assert {tuple(r) for r in tf_rows} <= allowed
        assert no_labels.get_random_labels_np(3).shape == (3, 0)
    # a relative label_file is looked up in tfrecord_dir
    shutil.copy(os.path.join(tfrecord_dir, "rgb-rxx.labels"), os.path.join(tfrecord_dir, "b.npy"))
    np.save(os.path.join(tfrecord_dir, "b.npy"), labels * 2)
    with tf.Graph().as_default(), tf1.Session().as_default():
        dset = reader(tfrecord_dir, label_file="b.npy", max_label_size="full")
        assert dset.get_minibatch_np(6)[1].tolist() == (labels * 2).tolist()


def test_shuffled_reader_serves_the_same_images(rgb_set) -> None:
    tfrecord_dir, images, labels = rgb_set
    with tf.Graph().as_default(), tf1.Session().as_default():
        dset = reader(tfrecord_dir, shuffle_mb=1, max_label_size="full")
        x, y = dset.get_minibatch_np(6, 1)
    keys = sorted(img.tobytes() for img in x)
    assert keys == sorted(reference_lods(img)[1].tobytes() for img in images)
    index = {reference_lods(img)[1].tobytes(): i for i, img in enumerate(images)}
    assert all(y[k].tolist() == labels[index[x[k].tobytes()]].tolist() for k in range(6))


def test_parse_functions_agree(rgb_set) -> None:
    tfrecord_dir, images, _ = rgb_set
    record = next(tf1.io.tf_record_iterator(os.path.join(tfrecord_dir, "rgb-r03.tfrecords")))
    parsed = sl.TFRecordDataset.parse_tfrecord_np(record)
    assert np.array_equal(parsed, reference_lods(images[0])[1]) and parsed.flags.writeable
    with tf.Graph().as_default(), tf1.Session() as sess:
        assert np.array_equal(sess.run(sl.TFRecordDataset.parse_tfrecord_tf(record)), parsed)
    bad = tf.train.Example(features=tf.train.Features(feature={
        "shape": tf.train.Feature(int64_list=tf.train.Int64List(value=[3, 4, 4]))}))
    with pytest.raises(tp.DataError, match="'data'"):
        sl.TFRecordDataset.parse_tfrecord_np(bad.SerializeToString())


def test_load_dataset_and_helpers(rgb_set, capsys) -> None:
    tfrecord_dir, _, _ = rgb_set
    with tf.Graph().as_default(), tf1.Session().as_default():
        dset = sl.load_dataset(data_dir=os.path.dirname(tfrecord_dir), verbose=True,
                               tfrecord_dir="rgb", shuffle_mb=0, prefetch_mb=0)
        assert isinstance(dset, sl.TFRecordDataset)
        assert "Dataset shape = [3, 16, 16]" in capsys.readouterr().out
        var = sl.create_var_with_large_initial_value(np.arange(6, dtype=np.float32), name="v")
        assert sl.run(var).tolist() == list(range(6))  # set at once in the default session
        graph_bytes = tf1.get_default_graph().as_graph_def().ByteSize()
    assert sl.get_obj_by_name("tf1_pipelines.pipelines.stylegan_lod.TFRecordDataset") \
        is sl.TFRecordDataset
    big = np.zeros(1 << 20, np.float32)
    with tf.Graph().as_default() as g:
        sl.create_var_with_large_initial_value(big)
        assert g.as_graph_def().ByteSize() < 100_000 < big.nbytes
    assert graph_bytes < 1_000_000
    with pytest.raises(tp.ConfigError, match="class_name or tfrecord_dir"):
        sl.load_dataset()


def test_reader_needs_a_default_session(rgb_set) -> None:
    with tf.Graph().as_default():
        dset = reader(rgb_set[0])
        with pytest.raises(RuntimeError, match="No default TensorFlow session"):
            dset.get_minibatch_np(2)


def test_memory_warning(rgb_set, monkeypatch) -> None:
    monkeypatch.setattr(sl, "memory_available_bytes", lambda: 2000)
    with tf.Graph().as_default():
        with pytest.warns(sl.BufferMemoryWarning, match="more than half"):
            sl.TFRecordDataset(rgb_set[0], shuffle_mb=1, prefetch_mb=0)


# ------------------------------------------------------------------------- bad input
def test_reader_bad_directories(tmp_path, rgb_set) -> None:
    with pytest.raises(RuntimeError, match="graph"):
        sl.TFRecordDataset(rgb_set[0])  # eager mode
    with pytest.raises(tp.DataError, match="does not exist"):
        sl.TFRecordDataset(str(tmp_path / "missing"))
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "e-r04.tfrecords.partial").write_bytes(b"")
    with pytest.raises(tp.DataError, match="no .tfrecords files.*unfinished export"):
        sl.TFRecordDataset(str(tmp_path / "empty"))
    tfrecord_dir = rgb_set[0]
    missing = str(tmp_path / "missing_lod")
    shutil.copytree(tfrecord_dir, missing)
    os.remove(os.path.join(missing, "rgb-r03.tfrecords"))
    with pytest.raises(tp.DataError, match=r"missing LOD 1 \(8x8, -r03.tfrecords\)") as err:
        sl.TFRecordDataset(missing)
    assert missing in str(err.value)  # the folder's full path


def test_reader_inconsistent_channels_and_short_labels(tmp_path, rgb_set) -> None:
    tfrecord_dir = rgb_set[0]
    mixed = str(tmp_path / "mixed")
    shutil.copytree(tfrecord_dir, mixed)
    with sl.TFRecordExporter(str(tmp_path / "gray"), 1, print_progress=False) as tfr:
        tfr.add_image(np.zeros((1, 4, 4), np.uint8))
    shutil.copy(str(tmp_path / "gray" / "gray-r02.tfrecords"),
                os.path.join(mixed, "rgb-r02.tfrecords"))
    with pytest.raises(tp.DataError,
                       match="inconsistent channel counts.*rgb-r02.tfrecords has 1") as err:
        sl.TFRecordDataset(mixed)
    assert mixed in str(err.value)
    labels_path = os.path.join(tfrecord_dir, "rgb-rxx.labels")
    with open(labels_path, "wb") as f:
        np.save(f, np.zeros((5, 2), np.float32))
    with pytest.raises(tp.DataError, match="5 rows, but the data set has 6 images"):
        sl.TFRecordDataset(tfrecord_dir, max_label_size="full")
    with open(labels_path, "wb") as f:
        np.save(f, np.array([{"a": 1}] * 6, dtype=object))  # pickled objects
    with pytest.raises(tp.DataError, match="allow_pickle=False"):
        sl.TFRecordDataset(tfrecord_dir, max_label_size="full")


def test_bad_configure_values(rgb_set) -> None:
    with tf.Graph().as_default(), tf1.Session().as_default():
        dset = reader(rgb_set[0])
        with pytest.raises(tp.ConfigError, match=r"lod 3 does not exist.*valid LODs: \[0, 1, 2\]"):
            dset.configure(2, 3)
        with pytest.raises(tp.ConfigError, match="minibatch_size must be a whole number >= 1"):
            dset.configure(0, 0)
    with pytest.raises(tp.ConfigError, match="max_label_size"):
        sl.TFRecordDataset(rgb_set[0], max_label_size=-1)


# ---------------------------------------------------------------------- uniform face
def test_pipeline_values_configure_and_end(rgb_set) -> None:
    tfrecord_dir, images, labels = rgb_set
    with tp.load_pipeline("stylegan_lod", tfrecord_dir=tfrecord_dir, batch_size=4, lod=0,
                          max_label_size="full", repeat=False, shuffle_mb=0,
                          prefetch_mb=0) as p:
        batch = p.get_batch()
        assert isinstance(batch, sl.Batch) and batch.images.dtype == np.uint8
        assert batch.labels.dtype == np.float32 and batch.labels.tolist() == labels[:4].tolist()
        assert np.array_equal(batch.images, np.stack(images[:4]))
        p.configure(batch_size=4, lod=0)  # nothing changed: continues
        assert np.array_equal(p.get_batch().images, np.stack(images[4:]))
        p.configure(lod=2.9)  # floor -> 2, restarts
        assert p.settings["lod"] == 2
        lod2 = [b.images for b in p]
        expected = np.stack([reference_lods(i)[2] for i in images])
        assert np.array_equal(np.concatenate(lod2), expected)
        with pytest.raises(tp.ConfigError, match=r"valid LODs: \[0, 1, 2\]"):
            p.configure(lod=7)
        with pytest.raises(tp.ConfigError, match="batch_size"):
            p.configure(batch_size=0)
        with pytest.raises(tp.EndOfData):
            p.get_batch()


def test_pipeline_in_the_users_session(rgb_set) -> None:
    tfrecord_dir, images, labels = rgb_set
    graph = tf.Graph()
    p = tp.load_pipeline("stylegan_lod", tfrecord_dir=tfrecord_dir, batch_size=6, lod=1,
                         max_label_size="full", shuffle_mb=0, prefetch_mb=1, graph=graph)
    with tf1.Session(graph=graph) as sess:
        batch = p.get_batch(sess)
    p.close()
    assert batch.labels.tolist() == labels.tolist()
    assert np.array_equal(batch.images, np.stack([reference_lods(i)[1] for i in images]))


def test_pipeline_explains_a_corrupt_file(rgb_set) -> None:
    tfrecord_dir = rgb_set[0]
    path = os.path.join(tfrecord_dir, "rgb-r04.tfrecords")
    data = bytearray(open(path, "rb").read())
    data[-20] ^= 0xFF  # corrupt the last record
    open(path, "wb").write(bytes(data))
    with tp.load_pipeline("stylegan_lod", tfrecord_dir=tfrecord_dir, batch_size=6, repeat=False,
                          shuffle_mb=0, prefetch_mb=0) as p:
        with pytest.raises(tp.DataError, match="record 5") as info:
            p.get_batch()
    assert info.value.path == path


def test_pipeline_on_the_embedded_photographs() -> None:
    with tp.load_pipeline("stylegan_lod", batch_size=5, lod=6, max_label_size="full",
                          shuffle_mb=1, prefetch_mb=1) as p:
        assert p.lods == [0, 1, 2, 3, 4, 5, 6] and p.layout.shape == [3, 256, 256]
        small = p.get_batch()
        p.configure(lod=0)
        big = p.get_batch()
    assert small.images.shape == (5, 3, 4, 4) and big.images.shape == (5, 3, 256, 256)
    assert big.labels.shape == (5, 10) and np.all(big.labels.sum(axis=1) == 1)
    # every image is a LOD-0 image of the embedded set, with its photograph's label
    tfrecord_dir = sl.sample_tfrecord_dir()
    images_dir = os.path.join(os.path.dirname(tfrecord_dir), "images")
    pngs = {np.asarray(Image.open(p)).transpose(2, 0, 1).tobytes()
            for p in glob.glob(os.path.join(images_dir, "*.png"))}
    assert all(img.tobytes() in pngs for img in big.images)
    labels = np.load(os.path.join(tfrecord_dir, "tfrecords-rxx.labels"))
    assert {tuple(r) for r in big.labels} <= {tuple(r) for r in labels}


def test_pipeline_explains_a_record_of_another_size(tmp_path) -> None:
    images = [img.transpose(2, 0, 1) for img in random_images(3, 8, seed=4)]
    tfrecord_dir = str(tmp_path / "odd")
    reference_export(tfrecord_dir, images, np.arange(3))
    path = os.path.join(tfrecord_dir, "odd-r03.tfrecords")
    with tf.io.TFRecordWriter(path) as writer:  # the third LOD-0 record is 4x4
        for quant in (images[0], images[1], reference_lods(images[2])[1]):
            writer.write(sl.serialize_image(quant))
    with tp.load_pipeline("stylegan_lod", tfrecord_dir=tfrecord_dir, batch_size=3,
                          repeat=False, shuffle_mb=0, prefetch_mb=0) as p:
        with pytest.raises(tp.DataError, match=r"record 2, field 'shape'.*\[3, 4, 4\]"):
            p.get_batch()


def test_trailing_slash_names_files_after_the_folder(tmp_path) -> None:
    with sl.TFRecordExporter(str(tmp_path / "ds") + os.sep, 1, print_progress=False) as tfr:
        tfr.add_image(np.zeros((1, 4, 4), np.uint8))
    assert sorted(os.listdir(tmp_path / "ds")) == [MANIFEST_NAME, "ds-r02.tfrecords"]


# ------------------------------------------------------------------- extract and compare
@pytest.mark.timeout(120)
@pytest.mark.parametrize("channels", [1, 3])
def test_extract_gives_back_the_pngs_in_export_order(tmp_path, capsys, channels: int) -> None:
    images = random_images(5, 16, channels, seed=channels)
    write_pngs(str(tmp_path / "imgs"), images)
    sl.create_from_images(str(tmp_path / "ds"), str(tmp_path / "imgs"), 1)
    order = np.random.RandomState(123).permutation(len(images))  # the exporter's shuffle
    assert sl.extract(str(tmp_path / "ds"), str(tmp_path / "out")) == 5
    assert "Extracted 5 images." in capsys.readouterr().out
    names = sorted(set(os.listdir(tmp_path / "out")) - {MANIFEST_NAME})
    assert names == [f"img{i:08d}.png" for i in range(5)]
    for i, name in enumerate(names):
        got = np.asarray(Image.open(tmp_path / "out" / name))
        np.testing.assert_array_equal(got, images[order[i]])


@pytest.mark.timeout(120)
def test_compare_counts_identical_and_different_images_and_labels(tmp_path, capsys) -> None:
    images = random_images(4, 8, 3, seed=5)
    write_pngs(str(tmp_path / "imgs"), images)
    sl.create_from_images(str(tmp_path / "a"), str(tmp_path / "imgs"), 0)
    sl.create_from_images(str(tmp_path / "b"), str(tmp_path / "imgs"), 0)
    assert sl.compare(str(tmp_path / "a"), str(tmp_path / "b"), 1) == (4, 4, 4)
    # c: image 2 changed, and labels that differ in row 1; d: one image fewer
    changed = [img.copy() for img in images]
    changed[2][0, 0, 0] ^= 1
    write_pngs(str(tmp_path / "imgs_c"), changed)
    with sl.TFRecordExporter(str(tmp_path / "c"), 4, print_progress=False) as tfr:
        for img in changed:
            tfr.add_image(img.transpose(2, 0, 1))
        labels = np.zeros((4, 2), np.float32)
        labels[1, 0] = 1
        tfr.add_labels(labels)
    with sl.TFRecordExporter(str(tmp_path / "a_labels"), 4, print_progress=False) as tfr:
        for img in images:
            tfr.add_image(img.transpose(2, 0, 1))
        tfr.add_labels(np.zeros((4, 2), np.float32))
    capsys.readouterr()
    assert sl.compare(str(tmp_path / "a_labels"), str(tmp_path / "c"), 0) == (3, 3, 4)
    out = capsys.readouterr().out
    assert "Image 2 is different" in out and "Label 1 is different" in out
    assert "Identical images: 3 / 4" in out and "Identical labels: 3 / 4" in out
    shutil.copytree(tmp_path / "imgs", tmp_path / "imgs_d")
    os.remove(tmp_path / "imgs_d" / "003.png")
    sl.create_from_images(str(tmp_path / "d"), str(tmp_path / "imgs_d"), 0)
    capsys.readouterr()
    assert sl.compare(str(tmp_path / "a"), str(tmp_path / "d"), 1) == (3, 3, 3)
    assert "Datasets contain different number of images" in capsys.readouterr().out


def test_command_line_extract_and_compare(tmp_path, capsys) -> None:
    write_pngs(str(tmp_path / "imgs"), random_images(2, 8))
    assert sl.main(["prog", "create_from_images", str(tmp_path / "ds"), str(tmp_path / "imgs")]) == 0
    assert sl.main(["prog", "extract", str(tmp_path / "ds"), str(tmp_path / "out")]) == 0
    assert sl.main(["prog", "compare", str(tmp_path / "ds"), str(tmp_path / "ds")]) == 0
    assert "Identical images: 2 / 2" in capsys.readouterr().out
    assert sl.main(["prog", "extract", str(tmp_path / "nothing"), str(tmp_path / "out2")]) == 2
    assert "Error: " in capsys.readouterr().out and not os.path.exists(tmp_path / "out2")
