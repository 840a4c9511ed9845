"""Seed 003: image/mask TFRecords, the round trip, read_and_decode and the uniform face.

Expected arrays come from PIL and numpy in the test (crop-or-pad offsets written
out here, masks re-derived from luma here), never from the module under test.
"""
from __future__ import annotations

import os

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tf1_pipelines as tp
from tf1_pipelines.errors import ConfigError, DataError, EndOfData
from tf1_pipelines.pipelines import voc_segmentation as voc
from tf1_pipelines.records.features import bytes_feature, example, int64_feature

tf1 = tf.compat.v1


# ----------------------------------------------------------------------------- helpers
def crop_or_pad(array: np.ndarray, height: int, width: int) -> np.ndarray:
    """Centre crop / zero pad of [H, W, C] to [height, width, C]: the crop starts at
    (size - target) // 2, the padding before is (target - size) // 2."""
    out = np.zeros((height, width, array.shape[2]), array.dtype)
    h, w = array.shape[:2]
    src_y, dst_y = max((h - height) // 2, 0), max((height - h) // 2, 0)
    src_x, dst_x = max((w - width) // 2, 0), max((width - w) // 2, 0)
    rows, cols = min(h, height), min(w, width)
    out[dst_y:dst_y + rows, dst_x:dst_x + cols] = array[src_y:src_y + rows, src_x:src_x + cols]
    return out


def record_arrays(record_id: int, height: int = 8,
                  width: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """The image uint8 [H, W, 3] and mask uint8 [H, W] of :func:`record`: pixels
    carry ``record_id`` (image: id, id+1, id+2 per channel plus a position ramp;
    mask: id plus a column ramp)."""
    ramp = np.arange(height * width, dtype=np.int64).reshape(height, width, 1)
    img = ((ramp + np.array([0, 1, 2]) + record_id * 3) % 256).astype(np.uint8)
    img[0, 0, 0] = record_id
    mask = ((np.arange(width) * 7)[None, :] + np.full((height, 1), record_id)).astype(np.uint8)
    mask[0, 0] = record_id
    return img, mask


def record(record_id: int, height: int = 8, width: int = 8, mask_bytes: int | None = None,
           drop: str | None = None) -> bytes:
    """A seed-003 record holding :func:`record_arrays`."""
    img, mask = record_arrays(record_id, height, width)
    features = {"height": int64_feature(height), "width": int64_feature(width),
                "image_raw": bytes_feature(img.tobytes()),
                "mask_raw": bytes_feature(mask.tobytes()[:mask_bytes])}
    if drop:
        del features[drop]
    return example(features).SerializeToString()


def write_file(path: str, records: list[bytes]) -> str:
    with tf.io.TFRecordWriter(path) as writer:
        for rec in records:
            writer.write(rec)
    return path


@pytest.fixture()
def wide_shards(tmp_path) -> str:
    """11 records of 6 x 10 pixels (not square) with ids 0..10 over three shards."""
    ids = [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8]]
    for index, group in enumerate(ids):
        write_file(str(tmp_path / f"part-{index}.tfrecords"), [record(i, 6, 10) for i in group])
    return str(tmp_path)


@pytest.fixture()
def shards(tmp_path) -> str:
    """11 records with ids 0..10 over three shards (4, 4, 3)."""
    ids = [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8]]
    for index, group in enumerate(ids):
        write_file(str(tmp_path / f"part-{index}.tfrecords"), [record(i) for i in group])
    return str(tmp_path)


@pytest.fixture(scope="module")
def voc_home(tmp_path_factory) -> str:
    """The embedded VOC-like folder, built once in a private data home."""
    home = tmp_path_factory.mktemp("data_home")
    old = os.environ.get("TF1_PIPELINES_DATA")
    os.environ["TF1_PIPELINES_DATA"] = str(home)
    try:
        yield voc.default_pairs_dir()
    finally:
        if old is None:
            del os.environ["TF1_PIPELINES_DATA"]
        else:
            os.environ["TF1_PIPELINES_DATA"] = old


def pil_pair(root: str, name: str) -> tuple[np.ndarray, np.ndarray]:
    img = np.array(Image.open(os.path.join(root, "JPEGImages", f"{name}.jpg")))
    mask = np.array(Image.open(os.path.join(root, "SegmentationClass", f"{name}.png")))
    return img, mask


def ids_of(images: list[np.ndarray]) -> list[int]:
    return sorted(int(i) for batch in images for i in batch[:, 0, 0, 0])


# ---------------------------------------------------------------------- writer and data
def test_embedded_masks_are_quantised_luma_of_the_jpeg(voc_home):
    for name in voc.DEFAULT_PHOTOGRAPHS:
        img, mask = pil_pair(voc_home, name)
        assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
        r, g, b = (img[..., c].astype(int) for c in range(3))
        expected = np.clip((299 * r + 587 * g + 114 * b) // 64000, 0, 3)  # floor(luma / 64)
        np.testing.assert_array_equal(mask, expected)
        assert set(np.unique(mask)) <= {0, 1, 2, 3}
    with Image.open(os.path.join(voc_home, "SegmentationClass", "astronaut.png")) as im:
        assert im.mode == "P"  # read back as class ids, like VOC's files


def test_seed_round_trip_prints_six_true(voc_home, tmp_path, capsys):
    names = ["astronaut", "chelsea", "coffee"]
    pairs = [(os.path.join(voc_home, "JPEGImages", f"{n}.jpg"),
              os.path.join(voc_home, "SegmentationClass", f"{n}.png")) for n in names]
    path = str(tmp_path / voc.TFRECORDS_FILENAME)
    original = voc.write_records(pairs, path)
    reconstructed = voc.read_records(path)
    assert voc.round_trip_check(original, reconstructed) == [True] * 6
    assert capsys.readouterr().out == "True\n" * 6
    for name, (img, mask) in zip(names, reconstructed):
        pil_img, pil_mask = pil_pair(voc_home, name)
        np.testing.assert_array_equal(img, pil_img)
        np.testing.assert_array_equal(mask, pil_mask)
    assert not os.path.exists(path + ".partial")


def test_round_trip_check_reports_a_changed_pixel():
    img = np.zeros((4, 5, 3), np.uint8)
    mask = np.zeros((4, 5), np.uint8)
    changed = mask.copy()
    changed[1, 1] = 7
    assert voc.round_trip_check([(img, mask)], [(img, changed)], verbose=False) == [True, False]
    with pytest.raises(DataError, match="2 pairs were written but 1"):
        voc.round_trip_check([(img, mask)] * 2, [(img, mask)], verbose=False)


# -------------------------------------------------------------------------- legacy graph
@pytest.mark.timeout(60)
def test_seed_script_reads_crop_or_pad_batches(voc_home, tmp_path):
    """The seed's own script: string_input_producer(num_epochs=10), read_and_decode,
    init_op, Coordinator, start_queue_runners, three batches of two."""
    names = ["astronaut", "chelsea", "coffee"]  # 512x512 crop, 300x451 pad+crop, 400x600 crop
    pairs = [(os.path.join(voc_home, "JPEGImages", f"{n}.jpg"),
              os.path.join(voc_home, "SegmentationClass", f"{n}.png")) for n in names]
    path = str(tmp_path / voc.TFRECORDS_FILENAME)
    voc.write_records(pairs, path)
    expected = []
    for name in names:
        img, mask = pil_pair(voc_home, name)
        expected.append((crop_or_pad(img, 384, 384), crop_or_pad(mask[:, :, None], 384, 384)))
    with tf.Graph().as_default() as graph:
        filename_queue = tf1.train.string_input_producer([path], num_epochs=10)
        image, annotation = voc.read_and_decode(filename_queue)
        init_op = tf.group(tf1.global_variables_initializer(), tf1.local_variables_initializer())
        queue = [op for op in graph.get_operations() if op.type == "RandomShuffleQueueV2"][0]
        assert queue.get_attr("capacity") == 30 and queue.get_attr("min_after_dequeue") == 10
        with tf1.Session() as sess:
            sess.run(init_op)
            coord = tf1.train.Coordinator()
            threads = tf1.train.start_queue_runners(sess=sess, coord=coord)
            for _ in range(3):
                img, anno = sess.run([image, annotation],
                                     options=tf1.RunOptions(timeout_in_ms=30000))
                assert img.shape == (2, 384, 384, 3) and anno.shape == (2, 384, 384, 1)
                for b in range(2):
                    match = [k for k, (e_img, _) in enumerate(expected)
                             if np.array_equal(img[b], e_img)]
                    assert len(match) == 1
                    np.testing.assert_array_equal(anno[b], expected[match[0]][1])
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=10)


def test_read_and_decode_rejects_capacity_not_above_min_after_dequeue():
    with tf.Graph().as_default():
        queue = tf1.train.string_input_producer(["unused.tfrecords"])
        with pytest.raises(ConfigError, match="capacity 10 must be bigger than "
                                              "min_after_dequeue 20"):
            voc.read_and_decode(queue, capacity=10, min_after_dequeue=20)


# --------------------------------------------------------------------------- uniform face
@pytest.mark.timeout(60)
@pytest.mark.parametrize("backend", ["queue", "dataset"])
def test_every_record_exactly_once_with_smaller_final_batch(wide_shards, backend):
    with tp.load_pipeline("voc_segmentation", tfrecords=wide_shards, backend=backend,
                          batch_size=4, num_epochs=1, allow_smaller_final_batch=True,
                          image_height=6, image_width=10, seed=3) as pipe:
        batches = list(pipe)
        with pytest.raises(EndOfData):
            pipe.get_batch()
        for batch in batches:
            pipe.check_batch(batch)  # the declared FIELDS
    images = [b.image for b in batches]
    assert ids_of(images) == list(range(11))
    assert sorted(len(b.image) for b in batches) == [3, 4, 4]
    for batch in batches:
        for img, mask in zip(batch.image, batch.mask):
            expected_img, expected_mask = record_arrays(int(img[0, 0, 0]), 6, 10)  # as written
            np.testing.assert_array_equal(img, expected_img)
            np.testing.assert_array_equal(mask[:, :, 0], expected_mask)
            assert img.dtype == np.uint8 and mask.dtype == np.uint8


@pytest.mark.timeout(60)
@pytest.mark.parametrize("backend", ["queue", "dataset"])
def test_faithful_default_drops_exactly_the_remainder(shards, backend):
    with tp.load_pipeline("voc_segmentation", tfrecords=shards, backend=backend, batch_size=4,
                          num_epochs=2, image_height=8, image_width=8) as pipe:
        images = [b.image for b in pipe]
    ids = ids_of(images)
    assert len(ids) == 22 - 22 % 4 == 20
    # Two epochs of 11 are shuffled together: any 2 of the 22 may be the tail.
    assert all(ids.count(i) <= 2 for i in range(11)) and set(ids) <= set(range(11))


@pytest.mark.timeout(60)
@pytest.mark.parametrize("backend", ["queue", "dataset"])
def test_crop_and_pad_to_a_given_size(tmp_path, backend):
    path = write_file(str(tmp_path / "one.tfrecords"), [record(5, height=6, width=11)])
    with tp.load_pipeline("voc_segmentation", tfrecords=path, backend=backend, batch_size=1,
                          num_epochs=1, image_height=9, image_width=7) as pipe:
        batch = pipe.get_batch()
    img, mask = voc.decode_record(record(5, height=6, width=11))
    np.testing.assert_array_equal(batch.image[0], crop_or_pad(img, 9, 7))
    np.testing.assert_array_equal(batch.mask[0], crop_or_pad(mask[:, :, None], 9, 7))
    assert batch.image[0, 0, 0, 0] == 0 and batch.image.shape == (1, 9, 7, 3)


@pytest.mark.timeout(60)
def test_embedded_photographs_through_the_uniform_face(voc_home):
    expected = {}
    for name in voc.DEFAULT_PHOTOGRAPHS:
        img, mask = pil_pair(voc_home, name)
        expected[name] = (crop_or_pad(img, 384, 384), crop_or_pad(mask[:, :, None], 384, 384))
    with tp.load_pipeline("voc_segmentation", num_epochs=1, allow_smaller_final_batch=True,
                          backend="queue") as pipe:
        batches = list(pipe)
    found = []
    for batch in batches:
        assert batch.image.shape[1:] == (384, 384, 3) and batch.mask.shape[1:] == (384, 384, 1)
        for img, mask in zip(batch.image, batch.mask):
            name = next(n for n, (e, _) in expected.items() if np.array_equal(img, e))
            np.testing.assert_array_equal(mask, expected[name][1])
            found.append(name)
    assert sorted(found) == sorted(voc.DEFAULT_PHOTOGRAPHS)


@pytest.mark.timeout(60)
def test_user_image_and_mask_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("TF1_PIPELINES_DATA", str(tmp_path / "home"))
    (tmp_path / "img").mkdir()
    (tmp_path / "msk").mkdir()
    rng = np.random.default_rng(0)
    arrays = {}
    for stem in ("a", "b", "c"):
        img = rng.integers(0, 256, (10, 12, 3), dtype=np.uint8)
        mask = rng.integers(0, 21, (10, 12), dtype=np.uint8)
        Image.fromarray(img).save(tmp_path / "img" / f"{stem}.png")
        Image.fromarray(mask).save(tmp_path / "msk" / f"{stem}.png")
        arrays[stem] = (img, mask)
    with tp.load_pipeline("voc_segmentation", image_dir=str(tmp_path / "img"),
                          mask_dir=str(tmp_path / "msk"), record_shards=2, batch_size=3,
                          num_epochs=1, image_height=10, image_width=12,
                          backend="dataset") as pipe:
        batch = pipe.get_batch()
        assert len(pipe.files) == 2
    for img, mask in zip(batch.image, batch.mask):
        stem = next(s for s, (e, _) in arrays.items() if np.array_equal(img, e))
        np.testing.assert_array_equal(mask[:, :, 0], arrays[stem][1])


# ----------------------------------------------------------------------------- bad input
def test_mask_of_another_size_names_both_files(tmp_path):
    Image.fromarray(np.zeros((10, 12, 3), np.uint8)).save(tmp_path / "x.jpg")
    Image.fromarray(np.zeros((10, 11), np.uint8)).save(tmp_path / "x.png")
    with pytest.raises(DataError, match=r"mask is 10x11 but its image .*x\.jpg.* is 10x12") as err:
        voc.read_pair(str(tmp_path / "x.jpg"), str(tmp_path / "x.png"))
    assert err.value.path == str(tmp_path / "x.png")
    for path in (tmp_path / "x.jpg", tmp_path / "x.png"):  # full paths, not only names
        assert str(path) in str(err.value)


def test_colour_mask_is_refused(tmp_path):
    Image.fromarray(np.zeros((4, 4, 3), np.uint8)).save(tmp_path / "x.png")
    Image.fromarray(np.zeros((4, 4, 3), np.uint8)).save(tmp_path / "m.png")
    with pytest.raises(DataError, match="mode 'RGB'"):
        voc.read_pair(str(tmp_path / "x.png"), str(tmp_path / "m.png"))


def test_image_without_mask_is_named(tmp_path):
    (tmp_path / "i").mkdir()
    (tmp_path / "m").mkdir()
    Image.fromarray(np.zeros((4, 4, 3), np.uint8)).save(tmp_path / "i" / "lonely.jpg")
    with pytest.raises(DataError, match="lonely.jpg.*has no mask") as err:
        voc.find_pairs(str(tmp_path / "i"), str(tmp_path / "m"))
    assert str(tmp_path / "i" / "lonely.jpg") in str(err.value)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("backend", ["queue", "dataset"])
def test_record_whose_mask_does_not_match_height_times_width(tmp_path, backend):
    path = write_file(str(tmp_path / "bad.tfrecords"),
                      [record(0), record(1), record(2, mask_bytes=50)])
    with tp.load_pipeline("voc_segmentation", tfrecords=path, backend=backend, batch_size=1,
                          num_epochs=1, image_height=8, image_width=8) as pipe:
        with pytest.raises(DataError) as err:
            for _ in pipe:
                pass
    assert (err.value.path, err.value.record, err.value.field) == (path, 2, "mask_raw")
    assert "holds 50 bytes, but height 8 x width 8 needs 64" in str(err.value)
    assert "Input to reshape is a tensor with 50 values" in str(err.value)


@pytest.mark.timeout(60)
def test_record_missing_a_key_names_it(tmp_path):
    path = write_file(str(tmp_path / "bad.tfrecords"), [record(0), record(1, drop="mask_raw")])
    with tp.load_pipeline("voc_segmentation", tfrecords=path, batch_size=1, num_epochs=1,
                          image_height=8, image_width=8) as pipe:
        with pytest.raises(DataError, match="record 1, field 'mask_raw': missing feature"):
            for _ in pipe:
                pass
    with pytest.raises(DataError, match="record 1, field 'mask_raw'"):
        voc.read_records(path)


def test_bad_options_and_missing_files(shards):
    with pytest.raises(ConfigError, match="capacity 10 must be bigger than min_after_dequeue 10"):
        tp.load_pipeline("voc_segmentation", tfrecords=shards, capacity=10, min_after_dequeue=10)
    with pytest.raises(ConfigError, match="backend must be one of"):
        tp.load_pipeline("voc_segmentation", tfrecords=shards, backend="feed")
    with pytest.raises(ConfigError, match="num_epochs"):
        tp.load_pipeline("voc_segmentation", tfrecords=shards, num_epochs=0)
    missing = os.path.join(shards, "gone.tfrecords")
    with pytest.raises(DataError, match="gone.tfrecords.*does not exist") as err:
        tp.load_pipeline("voc_segmentation",
                         tfrecords=[os.path.join(shards, "part-0.tfrecords"), missing])
    assert missing in str(err.value)
    os.makedirs(os.path.join(shards, "empty"))
    with pytest.raises(DataError, match="no record files matching"):
        tp.load_pipeline("voc_segmentation", tfrecords=os.path.join(shards, "empty"))


# ------------------------------------------------------------------ deterministic queue
_ORDER_SCRIPT = """
import json, sys
import tf1_pipelines as tp
with tp.load_pipeline("voc_segmentation", tfrecords=sys.argv[1], backend="queue",
                      batch_size=3, num_epochs=3, allow_smaller_final_batch=True,
                      image_height=8, image_width=8, min_after_dequeue=4,
                      seed=int(sys.argv[2]), deterministic=True) as pipe:
    print(json.dumps([[int(i) for i in b.image[:, 0, 0, 0]] for b in pipe]))
"""


def _queue_order(folder: str, seed: int) -> list[list[int]]:
    """The record ids of every batch of three epochs, read in a fresh process."""
    import json
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", _ORDER_SCRIPT, folder, str(seed)],
                          capture_output=True, text=True, timeout=120, check=True,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"))
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.timeout(300)
def test_deterministic_queue_gives_the_same_batches_in_every_run(shards):
    first, second, other = (_queue_order(shards, 5), _queue_order(shards, 5),
                            _queue_order(shards, 6))
    assert first == second
    assert first != other
    ids = [i for batch in first for i in batch]
    assert sorted(ids) == sorted(list(range(11)) * 3)  # three epochs, every record each
    assert ids[:11] != list(range(11)) and ids[:11] != ids[11:22]  # shuffled, anew each epoch


def test_deterministic_queue_refuses_what_breaks_its_promise(shards):
    def load(**options):
        return tp.load_pipeline("voc_segmentation", tfrecords=shards, **options)
    with pytest.raises(ConfigError, match="needs a seed"):
        load(backend="queue", deterministic=True)
    with pytest.raises(ConfigError, match="one thread, got num_threads 2"):
        load(backend="queue", deterministic=True, seed=1, num_threads=2)
    with pytest.raises(ConfigError, match="the queue backend's option"):
        load(backend="dataset", deterministic=True, seed=1)
    pipe = load(backend="queue", deterministic=True, seed=1, min_after_dequeue=4, batch_size=3)
    assert (pipe.capacity, pipe.num_threads) == (5, 1)
    pipe.close()


@pytest.mark.timeout(60)
def test_a_batch_bigger_than_the_queue_slack_is_served(shards):
    """TF's shuffle_batch takes a batch one example at a time as the queue holds more
    than min_after_dequeue, so batch 6 from capacity 5 / min 4 comes (TF1 took it)."""
    with tp.load_pipeline("voc_segmentation", tfrecords=shards, backend="queue", batch_size=6,
                          capacity=5, min_after_dequeue=4, num_epochs=1, image_height=8,
                          image_width=8, seed=2) as pipe:
        batches = list(pipe)
    assert [len(b.image) for b in batches] == [6]  # 11 records: one full batch, 5 dropped
    assert len(set(int(i) for i in batches[0].image[:, 0, 0, 0])) == 6


@pytest.mark.timeout(60)
def test_seeded_dataset_batches_equal_the_formulation_rebuilt(shards):
    """With a seed the dataset backend's batches are those of the formulation rebuilt
    here: files shuffled, two files read at a time taking turns record by record,
    records decoded in input order, then shuffled and batched (an unordered parallel
    map or read would make them depend on thread timing)."""
    files = sorted(os.path.join(shards, f) for f in os.listdir(shards))
    with tf.Graph().as_default():
        names = tf1.data.Dataset.from_tensor_slices(files).shuffle(3, seed=5)
        records = names.repeat(2).interleave(tf1.data.TFRecordDataset, cycle_length=2,
                                             block_length=1)
        decoded = records.map(lambda s: voc.decode_example(s, 8, 8), num_parallel_calls=2)
        batches = decoded.shuffle(16, seed=5).batch(3, drop_remainder=True)
        batch = tf1.data.make_one_shot_iterator(batches).get_next()
        with tf1.Session() as sess:
            expected = [sess.run(batch) for _ in range(7)]
    with tp.load_pipeline("voc_segmentation", tfrecords=files, backend="dataset", batch_size=3,
                          num_epochs=2, image_height=8, image_width=8, capacity=16,
                          seed=5) as pipe:
        got = list(pipe)
    assert len(got) == len(expected) == 22 // 3
    for (want_image, want_mask), have in zip(expected, got):
        np.testing.assert_array_equal(have.image, want_image)
        np.testing.assert_array_equal(have.mask, want_mask)
