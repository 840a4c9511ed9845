"""Seed 004: Example builders, parsing, Inception preprocessing, batch_inputs, the
converter and the uniform face.

References are computed here: JPEG decoding by TF's own op or PIL, the central
crop and TF1's legacy bilinear / nearest resize in numpy.
"""
from __future__ import annotations

import csv
import io
import os
import random

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tf1_pipelines as tp
from tf1_pipelines.data import sample_data
from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.pipelines import inception_multilabel as inc
from tf1_pipelines.records.reader import iterate_records

tf1 = tf.compat.v1
LEVELS = [("scene", 3), ("colour", 3)]
PHOTOS = {"astronaut": 0, "chelsea": 1, "rocket": 2}  # scene class per photograph
SMALL = {"height": 24, "width": 24, "num_preprocess_threads": 4, "examples_per_shard": 4,
         "input_queue_memory_factor": 2, "seed": 7}


# ----------------------------------------------------------------------------- helpers
def legacy_bilinear(image: np.ndarray, out_h: int, out_w: int) -> np.ndarray:
    """TF1 resize_bilinear, align_corners=False, half_pixel_centers=False, float64."""
    in_h, in_w = image.shape[:2]
    ys = np.arange(out_h) * (in_h / out_h)
    xs = np.arange(out_w) * (in_w / out_w)
    y0 = np.floor(ys).astype(int)
    x0 = np.floor(xs).astype(int)
    y1, x1 = np.minimum(y0 + 1, in_h - 1), np.minimum(x0 + 1, in_w - 1)
    wy, wx = (ys - y0)[:, None, None], (xs - x0)[None, :, None]
    img = image.astype(np.float64)
    top = img[y0][:, x0] * (1 - wx) + img[y0][:, x1] * wx
    bottom = img[y1][:, x0] * (1 - wx) + img[y1][:, x1] * wx
    return top * (1 - wy) + bottom * wy


def legacy_nearest(image: np.ndarray, out_h: int, out_w: int) -> np.ndarray:
    """TF1 resize_nearest_neighbor, align_corners=False: source index floor(i * in / out)."""
    in_h, in_w = image.shape[:2]
    ys = np.minimum(np.floor(np.arange(out_h) * (in_h / out_h)).astype(int), in_h - 1)
    xs = np.minimum(np.floor(np.arange(out_w) * (in_w / out_w)).astype(int), in_w - 1)
    return image[ys][:, xs]


def central_crop(image: np.ndarray, fraction: float) -> np.ndarray:
    """The central ``fraction`` of each side: start int((n - n * f) / 2), size n - 2 start."""
    h, w = image.shape[:2]
    top, left = int((h - h * fraction) / 2), int((w - w * fraction) / 2)
    return image[top:h - top, left:w - left]


def tf_decoded(jpeg: bytes) -> np.ndarray:
    """uint8 RGB through TF's own JPEG op with its default (fast integer) DCT."""
    return tf.io.decode_jpeg(jpeg, channels=3).numpy()


@pytest.fixture(scope="module")
def labelled(tmp_path_factory) -> dict:
    """12 real-photograph tiles (3 photographs x 4 quadrants, 40 x 56) with labels,
    sharded into train (3 shards) and validation (1 shard)."""
    root = tmp_path_factory.mktemp("inception")
    image_dir = root / "images"
    image_dir.mkdir()
    labels = {}
    for name, scene in PHOTOS.items():
        photo = Image.fromarray(sample_data.load_photograph(name)).resize((112, 80))
        for k, part in enumerate(inc.quadrants(np.asarray(photo))):
            filename = f"{name}_{k}.png" if k == 0 else f"{name}_{k}.jpg"
            Image.fromarray(np.ascontiguousarray(part)).save(image_dir / filename)
            labels[filename] = {"scene": scene, "colour": inc.dominant_colour(part)}
    with open(image_dir / "labels.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["filename", "scene", "colour"])
        for filename, levels in labels.items():
            writer.writerow([filename, levels["scene"], levels["colour"]])
    data_dir = root / "records"
    train = inc.build_shards(str(image_dir), str(data_dir), LEVELS, "train", 3)
    validation = inc.build_shards(str(image_dir), str(data_dir), LEVELS, "validation", 1)
    return {"data_dir": str(data_dir), "labels": labels, "train": train,
            "validation": validation, "image_dir": str(image_dir)}


def jpeg_of(files: list[str]) -> dict[bytes, bytes]:
    """filename -> JPEG bytes, read from the records in numpy."""
    out = {}
    for path in files:
        for rec in iterate_records(path):
            feature = tf.train.Example.FromString(rec).features.feature
            out[feature["image/filename"].bytes_list.value[0]] = \
                feature["image/encoded"].bytes_list.value[0]
    return out


def run_graph(fetches, feed=None):
    with tf1.Session() as sess:
        return sess.run(fetches, feed_dict=feed)


# -------------------------------------------------------------------- Example builders
def test_convert_to_example_holds_the_seed_features():
    ex = inc._convert_to_example("some/dir/19901221.jpg", b"\xff\xd8jpeg", [
        ("scene", [0, 0, 1]), ("colour", [1, 0, 0, 0])], height=7, width=9)
    f = ex.features.feature
    assert f["image/filename"].bytes_list.value == [b"19901221.jpg"]
    assert f["image/encoded"].bytes_list.value == [b"\xff\xd8jpeg"]
    assert [f[k].int64_list.value[0] for k in ("image/height", "image/width",
                                               "image/channels")] == [7, 9, 3]
    assert list(f["image/label/scene"].int64_list.value) == [0, 0, 1]
    assert list(f["image/label/colour"].int64_list.value) == [1, 0, 0, 0]
    assert inc.one_hot(2, 4) == [0, 0, 1, 0]


def test_parse_example_proto_seed_defaults_and_strict():
    full = inc._convert_to_example("a.jpg", b"x", [("scene", [0, 1, 0]),
                                                   ("colour", [0, 0, 1])], 1, 1)
    partial = inc._convert_to_example("b.jpg", b"y", [("scene", [1, 0, 0])], 1, 1)
    with tf.Graph().as_default():
        serialized = tf1.placeholder(tf.string, [])
        buffer, labels, filename = inc.parse_example_proto(serialized, LEVELS)
        with tf1.Session() as sess:
            got = sess.run([buffer, labels, filename], {serialized: full.SerializeToString()})
            assert got[0] == b"x" and got[2] == b"a.jpg"
            np.testing.assert_array_equal(got[1][0], [0, 1, 0])
            np.testing.assert_array_equal(got[1][1], [0, 0, 1])
            assert got[1][0].dtype == np.int32
            # The seed's default for a missing label: -1 in every position.
            missing = sess.run(labels, {serialized: partial.SerializeToString()})
            np.testing.assert_array_equal(missing[1], [-1, -1, -1])
        strict = inc.parse_example_proto(serialized, LEVELS, strict=True)
        with tf1.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                                  match="image/label/colour"):
            sess.run(strict[1], {serialized: partial.SerializeToString()})


# ------------------------------------------------------------------------ preprocessing
def test_decode_jpeg_is_tf_fast_dct_scaled_to_unit_range(labelled):
    jpegs = jpeg_of(labelled["train"])
    data = next(iter(jpegs.values()))
    with tf.Graph().as_default():
        decoded = run_graph(inc.decode_jpeg(tf.constant(data)))
    reference = tf.io.decode_jpeg(data, channels=3, dct_method="INTEGER_FAST").numpy()
    np.testing.assert_allclose(decoded, reference / 255.0, atol=1e-7)
    pil = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
    # TF's fast integer DCT differs from PIL's accurate one by a few grey levels.
    assert np.abs(decoded * 255 - pil).max() <= 8
    assert decoded.dtype == np.float32 and decoded.min() >= 0 and decoded.max() <= 1


def test_eval_image_is_central_crop_then_legacy_bilinear():
    rng = np.random.default_rng(1)
    image = rng.random((37, 53, 3), dtype=np.float32)
    with tf.Graph().as_default():
        out = run_graph(inc.eval_image(tf.constant(image), 24, 20))
    expected = legacy_bilinear(central_crop(image, 0.875), 24, 20)
    assert out.shape == (24, 20, 3)
    np.testing.assert_allclose(out, expected, atol=1e-5)


def test_rescale_maps_unit_range_to_minus_one_one():
    values = np.array([0.0, 0.25, 0.5, 1.0], np.float32)
    with tf.Graph().as_default():
        out = run_graph(inc.rescale(tf.constant(values)))
    np.testing.assert_array_equal(out, [-1.0, -0.5, 0.0, 1.0])


RESIZE_OPS = {0: "ResizeBilinear", 1: "ResizeNearestNeighbor", 2: "ResizeBicubic",
              3: "ResizeArea"}


def test_resize_method_follows_thread_id_mod_4():
    assert [inc.resize_method_for_thread(t) for t in range(8)] == [0, 1, 2, 3, 0, 1, 2, 3]
    with tf.Graph().as_default() as graph:
        image = tf1.placeholder(tf.float32, [None, None, 3])
        for thread_id in range(8):
            with tf1.name_scope(f"thread{thread_id}"):
                out = inc.distort_image(image, 16, 12, thread_id, seed=5)
                assert out.shape.as_list() == [16, 12, 3]
        for thread_id in range(8):
            kinds = {op.type for op in graph.get_operations()
                     if op.name.startswith(f"thread{thread_id}/") and op.type.startswith("Resize")}
            assert kinds == {RESIZE_OPS[thread_id % 4]}


@pytest.mark.parametrize("thread_id,reference", [(0, legacy_bilinear), (1, legacy_nearest),
                                                 (5, legacy_nearest)])
def test_distort_resize_matches_numpy_on_the_random_crop(thread_id, reference):
    """The crop is random, so fetch it together with the resized image and check
    the resize against numpy; the final image must stay in [0, 1]."""
    image = np.random.default_rng(2).random((41, 30, 3), dtype=np.float32)
    with tf.Graph().as_default() as graph:
        out = inc.distort_image(tf.constant(image), 16, 12, thread_id, seed=11)
        resize = next(op for op in graph.get_operations() if op.type.startswith("Resize"))
        crop, resized, final = run_graph([resize.inputs[0], resize.outputs[0], out])
    np.testing.assert_allclose(resized[0], reference(crop[0], 16, 12), atol=1e-5)
    assert crop.shape[1] * crop.shape[2] >= 0.05 * 41 * 30 * 0.99
    assert final.min() >= 0.0 and final.max() <= 1.0


def colour_op_order(graph: tf.Graph, scope: str) -> list[str]:
    first = {}
    for index, op in enumerate(graph.get_operations()):
        for name in ("brightness", "saturation", "hue", "contrast"):
            if op.name.startswith(scope) and f"adjust_{name}" in op.name:
                first.setdefault(name, index)
    return sorted(first, key=first.get)


def test_colour_order_follows_thread_id_mod_2():
    with tf.Graph().as_default() as graph:
        image = tf1.placeholder(tf.float32, [8, 8, 3])
        for thread_id in range(4):
            with tf1.name_scope(f"t{thread_id}"):
                inc.distort_color(image, thread_id)
    assert colour_op_order(graph, "t0/") == ["brightness", "saturation", "hue", "contrast"]
    assert colour_op_order(graph, "t1/") == ["brightness", "contrast", "saturation", "hue"]
    assert colour_op_order(graph, "t2/") == colour_op_order(graph, "t0/")
    assert colour_op_order(graph, "t3/") == colour_op_order(graph, "t1/")
    assert inc.color_ordering_for_thread(3) == ("brightness", "contrast", "saturation", "hue")


def test_distortion_is_repeatable_with_a_seed():
    image = np.random.default_rng(3).random((30, 30, 3), dtype=np.float32)
    results = []
    for _ in range(2):
        with tf.Graph().as_default():
            results.append(run_graph(inc.distort_image(tf.constant(image), 10, 10, 2, seed=4)))
    np.testing.assert_array_equal(results[0], results[1])


# -------------------------------------------------------------------- Dataset, converter
def test_dataset_files_follow_the_inception_convention(labelled, tmp_path):
    dataset = inc.Dataset("multilabel", "train", labelled["data_dir"], 24, 24)
    assert [os.path.basename(p) for p in dataset.data_files()] == [
        "train-00000-of-00003", "train-00001-of-00003", "train-00002-of-00003"]
    assert dataset.num_examples_per_epoch() == 12
    open(os.path.join(tmp_path, "train-00000-of-00001.partial"), "wb").close()
    with pytest.raises(DataError, match="no files found for dataset multilabel/train"):
        inc.Dataset("multilabel", "train", str(tmp_path)).data_files()
    with pytest.raises(ConfigError, match="subset must be one of"):
        inc.Dataset("multilabel", "test", str(tmp_path))


def test_build_shards_order_labels_and_pngs(labelled):
    names = sorted(labelled["labels"])
    order = list(range(len(names)))
    random.seed(12345)  # Inception's build_image_data.py
    random.shuffle(order)
    expected = [names[i] for i in order]
    spacing = np.linspace(0, 12, 4).astype(int)
    got = []
    for shard, path in enumerate(labelled["train"]):
        records = [tf.train.Example.FromString(r).features.feature for r in iterate_records(path)]
        assert len(records) == spacing[shard + 1] - spacing[shard]
        for feature in records:
            filename = feature["image/filename"].bytes_list.value[0].decode()
            got.append(filename)
            levels = labelled["labels"][filename]
            assert list(feature["image/label/scene"].int64_list.value) == \
                inc.one_hot(levels["scene"], 3)
            assert list(feature["image/label/colour"].int64_list.value) == \
                inc.one_hot(levels["colour"], 3)
            jpeg = feature["image/encoded"].bytes_list.value[0]
            assert jpeg[:2] == b"\xff\xd8"  # PNGs were converted to JPEG
            assert feature["image/height"].int64_list.value[0] == 40
            assert feature["image/width"].int64_list.value[0] == 56
    assert got == expected


def test_converter_errors_name_file_row_and_level(labelled, tmp_path):
    with open(tmp_path / "labels.csv", "w") as handle:
        handle.write("filename,scene,colour\nastronaut_1.jpg,5,0\n")
    with pytest.raises(DataError, match=r"record 1, field 'scene': class 5 is outside 0..2"):
        inc.build_shards(labelled["image_dir"], str(tmp_path / "out"), LEVELS,
                         labels=str(tmp_path / "labels.csv"))
    with pytest.raises(DataError, match="image has no labels"):
        inc.build_shards(labelled["image_dir"], str(tmp_path / "out"), LEVELS,
                         labels={"astronaut_1.jpg": {"scene": 0, "colour": 0}})
    assert not os.path.exists(tmp_path / "out" / "train-00000-of-00004")


# ----------------------------------------------------------------------- batch_inputs
def test_batch_inputs_keeps_the_seed_queue_sizes(labelled):
    dataset = inc.Dataset("multilabel", "train", labelled["data_dir"], 24, 24)
    with tf.Graph().as_default() as graph:
        images, labels, filenames = inc.batch_inputs(dataset, 8, True, LEVELS)
        assert images.shape.as_list() == [8, 24, 24, 3]
        assert labels["scene"].shape.as_list()[0] == 8 and filenames.shape.as_list() == [8]
        queues = {op.name.split("/")[-1]: op for op in graph.get_operations()
                  if op.type.endswith("QueueV2")}
        shuffle = queues["random_shuffle_queue"]
        assert shuffle.get_attr("capacity") == 1024 * 16 + 3 * 8
        assert shuffle.get_attr("min_after_dequeue") == 1024 * 16
        assert queues["fifo_queue"].get_attr("capacity") == 2 * 16 * 8  # batch_join
        assert queues["input_producer"].get_attr("capacity") == 16
        readers = [op for op in graph.get_operations() if op.type == "TFRecordReaderV2"]
        assert len(readers) == 4
        runner = graph.get_collection(tf1.GraphKeys.QUEUE_RUNNERS)
        assert [len(r.enqueue_ops) for r in runner] == [1, 4, 16]
    with tf.Graph().as_default() as graph:
        inc.batch_inputs(dataset, 8, False, LEVELS, num_preprocess_threads=4)
        producer = next(op for op in graph.get_operations() if op.name.endswith("input_producer"))
        assert producer.get_attr("capacity") == 1
        assert len([op for op in graph.get_operations() if op.type == "TFRecordReaderV2"]) == 1


def test_num_preprocess_threads_must_be_a_multiple_of_4(labelled):
    dataset = inc.Dataset("multilabel", "train", labelled["data_dir"])
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as err:
            inc.batch_inputs(dataset, 8, True, LEVELS, num_preprocess_threads=6)
    assert str(err.value) == "Please make num_preprocess_threads a multiple of 4 (6 % 4 != 0)."
    with tf.Graph().as_default(), pytest.raises(ConfigError, match="whole number >= 1, got 0"):
        inc.batch_inputs(dataset, 8, True, LEVELS, num_preprocess_threads=0)
    with pytest.raises(ConfigError, match=r"multiple of 4 \(10 % 4 != 0\)"):
        tp.load_pipeline("inception_multilabel", data_dir=labelled["data_dir"],
                         num_preprocess_threads=10)


# --------------------------------------------------------------------------- uniform face
@pytest.mark.timeout(90)
@pytest.mark.parametrize("backend", ["queue", "dataset"])
@pytest.mark.parametrize("train", [True, False])
def test_every_record_once_with_its_labels(labelled, backend, train):
    with tp.load_pipeline("inception_multilabel", data_dir=labelled["data_dir"], train=train,
                          backend=backend, batch_size=5, num_epochs=1,
                          allow_smaller_final_batch=True, semantic_level_settings=LEVELS,
                          **SMALL) as pipe:
        batches = list(pipe)
        for batch in batches:
            pipe.check_batch(batch)  # the declared FIELDS
    names = [f.decode() for b in batches for f in b.filenames]
    assert sorted(names) == sorted(labelled["labels"])
    jpegs = jpeg_of(labelled["train"])
    for batch in batches:
        assert batch.images.dtype == np.float32 and batch.images.shape[1:] == (24, 24, 3)
        assert batch.images.min() >= -1.0 and batch.images.max() <= 1.0
        for row, filename in enumerate(batch.filenames):
            levels = labelled["labels"][filename.decode()]
            np.testing.assert_array_equal(batch.labels["scene"][row],
                                          inc.one_hot(levels["scene"], 3))
            np.testing.assert_array_equal(batch.labels["colour"][row],
                                          inc.one_hot(levels["colour"], 3))
            assert batch.labels["scene"].dtype == np.int32
            if not train:
                decoded = tf_decoded(jpegs[filename]).astype(np.float64) / 255.0
                expected = (legacy_bilinear(central_crop(decoded, 0.875), 24, 24) - 0.5) * 2
                np.testing.assert_allclose(batch.images[row], expected, atol=1e-5)


@pytest.mark.timeout(60)
def test_faithful_default_drops_the_remainder(labelled):
    with tp.load_pipeline("inception_multilabel", data_dir=labelled["data_dir"], batch_size=5,
                          num_epochs=1, **SMALL) as pipe:
        names = [f for b in pipe for f in b.filenames]
    assert len(names) == 12 - 12 % 5 == 10 and len(set(names)) == 10


@pytest.mark.timeout(60)
def test_a_batch_no_epoch_can_fill_is_refused_at_load_and_by_configure(labelled):
    too_big = "batch_size 25 is larger than the 12 examples x 2 epochs = 24"
    with pytest.raises(ConfigError, match=too_big):
        tp.load_pipeline("inception_multilabel", data_dir=labelled["data_dir"], batch_size=25,
                         num_epochs=2, **SMALL)
    with tp.load_pipeline("inception_multilabel", data_dir=labelled["data_dir"], batch_size=4,
                          num_epochs=2, **SMALL) as pipe:
        with pytest.raises(ConfigError, match=too_big):
            pipe.configure(batch_size=25)
        pipe.configure(batch_size=24)  # exactly two epochs: one batch comes
        assert len(pipe.get_batch().filenames) == 24


@pytest.mark.timeout(60)
def test_levels_read_from_the_records_when_not_given(labelled):
    pipe = tp.load_pipeline("inception_multilabel", data_dir=labelled["data_dir"], **SMALL)
    assert pipe.semantic_level_settings == [("colour", 3), ("scene", 3)]
    pipe.close()
    with pytest.raises(DataError, match="field 'image/label/scene': holds 3 int64 values, "
                                        "but semantic_level_settings gives 'scene' 4"):
        tp.load_pipeline("inception_multilabel", data_dir=labelled["data_dir"],
                         semantic_level_settings=[("scene", 4)], **SMALL)


@pytest.mark.timeout(90)
def test_embedded_default_data(tmp_path, monkeypatch):
    monkeypatch.setenv("TF1_PIPELINES_DATA", str(tmp_path))
    with tp.load_pipeline("inception_multilabel", subset="validation", train=False,
                          batch_size=9, num_epochs=1, height=32, width=32,
                          num_preprocess_threads=4) as pipe:
        batch = pipe.get_batch()
    root = inc.default_data_dir()
    with open(os.path.join(root, "images", "validation", "labels.csv")) as handle:
        rows = {row["filename"]: row for row in csv.DictReader(handle)}
    assert sorted(f.decode() for f in batch.filenames) == sorted(rows)
    for row, filename in enumerate(batch.filenames):
        name = filename.decode()
        scene = inc.SCENE_CLASSES.index(inc.PHOTO_SCENES[name.rsplit("_q", 1)[0]])
        np.testing.assert_array_equal(batch.labels["scene"][row], inc.one_hot(scene, 5))
        jpeg_path = os.path.join(root, "images", "validation", name)
        pixels = np.asarray(Image.open(jpeg_path).convert("RGB"), np.float64)
        colour = int(np.argmax(pixels.reshape(-1, 3).mean(axis=0)))
        np.testing.assert_array_equal(batch.labels["colour"][row], inc.one_hot(colour, 3))
        assert int(rows[name]["colour"]) == colour


# ----------------------------------------------------------------------------- bad input
def write_shard(path: str, examples: list[tf.train.Example]) -> str:
    with tf.io.TFRecordWriter(path) as writer:
        for ex in examples:
            writer.write(ex.SerializeToString())
    return path


def good_example(index: int) -> tf.train.Example:
    buffer = io.BytesIO()
    Image.fromarray(np.full((20, 20, 3), index * 10, np.uint8)).save(buffer, format="JPEG")
    return inc._convert_to_example(f"{index}.jpg", buffer.getvalue(),
                                   [("scene", inc.one_hot(index % 3, 3))], 20, 20)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("backend", ["queue", "dataset"])
def test_record_missing_a_label_names_file_record_and_key(tmp_path, backend):
    bad = good_example(2)
    del bad.features.feature["image/label/scene"]
    path = write_shard(str(tmp_path / "train-00000-of-00001"),
                       [good_example(0), good_example(1), bad])
    with tp.load_pipeline("inception_multilabel", data_dir=str(tmp_path), backend=backend,
                          semantic_level_settings=[("scene", 3)], batch_size=1, num_epochs=1,
                          train=False, **SMALL) as pipe:
        with pytest.raises(DataError) as err:
            for _ in pipe:
                pass
    assert (err.value.path, err.value.record, err.value.field) == (path, 2, "image/label/scene")
    assert "missing feature" in str(err.value) and "is required" in str(err.value)


@pytest.mark.timeout(60)
def test_corrupt_jpeg_names_its_record(tmp_path):
    bad = good_example(1)
    bad.features.feature["image/encoded"].bytes_list.value[0] = b"\xff\xd8 not a jpeg"
    path = write_shard(str(tmp_path / "train-00000-of-00001"), [good_example(0), bad])
    with tp.load_pipeline("inception_multilabel", data_dir=str(tmp_path), batch_size=1,
                          num_epochs=1, semantic_level_settings=[("scene", 3)], **SMALL) as pipe:
        with pytest.raises(DataError) as err:
            for _ in pipe:
                pass
    assert (err.value.path, err.value.record, err.value.field) == (path, 1, "image/encoded")


def test_missing_data_and_bad_queue_sizes(labelled, tmp_path):
    with pytest.raises(DataError, match="no files found for dataset multilabel/validation"):
        tp.load_pipeline("inception_multilabel", data_dir=str(tmp_path), subset="validation")
    with pytest.raises(ConfigError, match="examples_per_shard must be a whole number >= 1"):
        tp.load_pipeline("inception_multilabel", data_dir=labelled["data_dir"],
                         examples_per_shard=0)
    with pytest.raises(ConfigError, match="semantic level names repeat"):
        tp.load_pipeline("inception_multilabel", data_dir=labelled["data_dir"],
                         semantic_level_settings=[("scene", 3), ("scene", 3)])


@pytest.mark.timeout(300)
def test_record_table_gives_the_batches_of_the_records(monkeypatch):
    """A small data set's dataset backend shuffles record ids over records kept in
    memory: the same batches as shuffling the records read from the files."""
    from tf1_pipelines.pipelines.inception_multilabel import pipeline as module
    options = dict(backend="dataset", batch_size=8, seed=4, examples_per_shard=16,
                   input_queue_memory_factor=2, num_epochs=2, height=64, width=64)

    def batches() -> list:
        with tp.load_pipeline("inception_multilabel", **options) as pipe:
            table = pipe._table
            return table, [pipe.get_batch() for _ in range(6)]

    table, from_table = batches()
    assert table is not None and len(table.records) == table.starts[-1] > 0
    assert table.records[0] == next(iterate_records(inc.Dataset(
        "multilabel", "train", inc.default_data_dir()).data_files()[0]))
    monkeypatch.setattr(module, "SMALL_DATA_BYTES", 0)
    no_table, from_files = batches()
    assert no_table is None
    for a, b in zip(from_table, from_files):
        np.testing.assert_array_equal(a.images, b.images)
        assert list(a.filenames) == list(b.filenames)
