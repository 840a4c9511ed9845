"""Queue-runner threads behind get_batch, through the seed 003 and seed 004 pipelines:
start on first use, stop and join on close, reader errors with the file name,
bounded stalls, end of data, queue fill levels."""
from __future__ import annotations

import io
import os
import threading
import time
from collections import Counter

import numpy as np
import pytest
import tensorflow as tf
from helpers.record_builders import voc_id_record, write_records
from PIL import Image

import tf1_pipelines as tp
from tf1_pipelines.errors import DataError, EndOfData, PipelineStalled
from tf1_pipelines.inputs import queue as queue_inputs
from tf1_pipelines.pipelines import inception_multilabel as inc

tf1 = tf.compat.v1
INCEPTION = {"height": 16, "width": 16, "num_preprocess_threads": 4, "examples_per_shard": 4,
             "input_queue_memory_factor": 2, "semantic_level_settings": [("scene", 3)]}
VOC = {"image_height": 8, "image_width": 8}


def inception_record(record_id: int) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(np.full((12, 12, 3), record_id, np.uint8)).save(buffer, format="JPEG")
    return inc._convert_to_example(f"{record_id:03d}.jpg", buffer.getvalue(),
                                   [("scene", inc.one_hot(record_id % 3, 3))],
                                   12, 12).SerializeToString()


def make_data(kind: str, root: str, ids: list[list[int]]) -> list[str]:
    """Shards of ``kind`` ('voc' or 'inception') holding the given record ids."""
    if kind == "voc":
        return [write_records(os.path.join(root, f"part-{i}.tfrecords"), [voc_id_record(r) for r in group])
                for i, group in enumerate(ids)]
    return [write_records(os.path.join(root, f"train-{i:05d}-of-{len(ids):05d}"),
                          [inception_record(r) for r in group]) for i, group in enumerate(ids)]


def load(kind: str, root: str, **options):
    if kind == "voc":
        return tp.load_pipeline("voc_segmentation", tfrecords=root, **VOC, **options)
    return tp.load_pipeline("inception_multilabel", data_dir=root, **INCEPTION, **options)


def record_ids(kind: str, batch) -> list[int]:
    if kind == "voc":
        return [int(v) for v in batch.image[:, 0, 0, 0]]
    return [int(f[:3]) for f in batch.filenames]


KINDS = ["voc", "inception"]
THREE_SHARDS = [[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]]


def wait_until_full(pipe, bound: float = 20.0) -> None:
    """Wait until every queue of the pipeline holds its capacity (fails after ``bound`` s)."""
    deadline = time.monotonic() + bound
    while True:
        statuses = pipe.queue_status()
        if all(s.size == s.capacity for s in statuses):
            return
        assert time.monotonic() < deadline, f"queues never filled: {statuses}"
        time.sleep(0.05)


# -------------------------------------------------------------------------- lifecycle
@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_threads_start_on_first_batch_and_are_joined_on_close(kind, tmp_path):
    make_data(kind, str(tmp_path), THREE_SHARDS)
    baseline = threading.active_count()
    pipe = load(kind, str(tmp_path), batch_size=2, join_timeout=20)
    _ = pipe.tensors  # building the graph starts nothing
    assert pipe.running_threads() == [] and threading.active_count() == baseline
    batch = pipe.get_batch()
    assert len(record_ids(kind, batch)) == 2
    expected = 3 if kind == "voc" else 9  # one thread per enqueue op of each runner
    assert len(pipe.running_threads()) == expected
    assert threading.active_count() == baseline + expected + 1  # and get_batch's step thread
    # Close only once every queue is full, so that threads are blocked in enqueues
    # that close() must cancel (a queue left uncancelled would hold them).
    wait_until_full(pipe)
    start = time.monotonic()
    pipe.close()
    # Well inside join_timeout (20 s): close() cancels the blocked enqueues instead of
    # waiting the threads out; 10 s leaves room for a loaded two-core machine.
    assert time.monotonic() - start < 10
    pipe.close()  # idempotent
    assert pipe.running_threads() == [] and threading.active_count() == baseline
    with pytest.raises(RuntimeError, match="closed"):
        pipe.get_batch()


@pytest.mark.timeout(60)
def test_with_exit_stops_threads_even_after_an_exception(tmp_path):
    make_data("voc", str(tmp_path), THREE_SHARDS)
    baseline = threading.active_count()
    with pytest.raises(KeyError):
        with load("voc", str(tmp_path), batch_size=2) as pipe:
            pipe.get_batch()
            assert threading.active_count() > baseline
            raise KeyError("user code failed")
    assert threading.active_count() == baseline


@pytest.mark.timeout(60)
def test_num_epochs_counter_is_initialised_for_the_user(tmp_path):
    make_data("voc", str(tmp_path), THREE_SHARDS)
    with load("voc", str(tmp_path), batch_size=5, num_epochs=2) as pipe:
        ids = [i for batch in pipe for i in record_ids("voc", batch)]
        counters = [v for v in pipe.graph.get_collection(tf1.GraphKeys.LOCAL_VARIABLES)
                    if v.name.endswith("limit_epochs/epochs:0")]
        assert len(counters) == 1
        assert pipe.session.run(counters[0]) == 2
        with pytest.raises(EndOfData) as err:
            pipe.get_batch()
    assert isinstance(err.value, tf.errors.OutOfRangeError)
    # Two epochs of ten records in batches of five: every record exactly twice.
    assert Counter(ids) == Counter({i: 2 for i in range(10)})


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("backend", ["queue", "dataset"])
def test_nothing_lost_across_readers_and_threads(kind, backend, tmp_path):
    ids = [[i for i in range(23) if i % 4 == s] for s in range(4)]
    make_data(kind, str(tmp_path), ids)
    with load(kind, str(tmp_path), backend=backend, batch_size=4, num_epochs=1,
              allow_smaller_final_batch=True) as pipe:
        got = [i for batch in pipe for i in record_ids(kind, batch)]
    assert sorted(got) == list(range(23))


@pytest.mark.timeout(60)
def test_configure_batch_size_on_the_queue_backend(tmp_path):
    make_data("inception", str(tmp_path), THREE_SHARDS)
    with load("inception", str(tmp_path), batch_size=2) as pipe:
        assert len(pipe.get_batch().filenames) == 2
        pipe.configure(batch_size=3)
        batch = pipe.get_batch()
        assert batch.images.shape == (3, 16, 16, 3) and batch.labels["scene"].shape == (3, 3)
        with pytest.raises(tp.ConfigError, match="batch_size 17 exceeds the batch_join "
                                                 "capacity 16"):
            pipe.configure(batch_size=17)


# ----------------------------------------------------------------------- reader errors
def truncate(path: str, drop: int = 20) -> None:
    with open(path, "rb") as handle:
        data = handle.read()
    with open(path, "wb") as handle:
        handle.write(data[:-drop])


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_truncated_shard_surfaces_with_its_file_name(kind, tmp_path):
    files = make_data(kind, str(tmp_path), THREE_SHARDS)
    truncate(files[1])
    baseline = threading.active_count()
    with load(kind, str(tmp_path), batch_size=1, num_epochs=1) as pipe:
        with pytest.raises(DataError) as err:
            for _ in pipe:
                pass
    message = str(err.value)
    assert err.value.path == files[1] and err.value.record == 2
    assert "truncated record" in message and "insufficient elements" not in message
    assert threading.active_count() == baseline


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_shard_removed_after_loading_is_named(kind, tmp_path):
    files = make_data(kind, str(tmp_path), THREE_SHARDS)
    with load(kind, str(tmp_path), batch_size=1, num_epochs=1) as pipe:
        _ = pipe.tensors  # built: the reader thread meets the missing file
        os.remove(files[2])
        with pytest.raises(DataError) as err:
            for _ in pipe:
                pass
    assert err.value.path == files[2] and "does not exist" in str(err.value)
    assert "No such file" in str(err.value)  # the reader's own message


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_shard_removed_before_the_first_batch_is_named(kind, tmp_path):
    files = make_data(kind, str(tmp_path), THREE_SHARDS)
    with load(kind, str(tmp_path), batch_size=1, num_epochs=1) as pipe:
        os.remove(files[0])
        with pytest.raises(DataError, match="does not exist") as err:
            pipe.get_batch()
    assert err.value.path == files[0]


@pytest.mark.timeout(60)
def test_corrupt_shard_crc(tmp_path):
    files = make_data("voc", str(tmp_path), THREE_SHARDS)
    with open(files[0], "r+b") as handle:
        handle.seek(40)
        handle.write(b"\x00\x01\x02")
    with load("voc", str(tmp_path), batch_size=1, num_epochs=1) as pipe:
        with pytest.raises(DataError, match="part-0.tfrecords.*corrupt") as err:
            for _ in pipe:
                pass
    assert err.value.record == 0 and files[0] in str(err.value)


# -------------------------------------------------------------------------------- stalls
@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_empty_shards_are_no_records_at_load(kind, tmp_path):
    make_data(kind, str(tmp_path), [[], []])
    with pytest.raises(DataError, match="no records: all 2 TFRecord files are empty"):
        load(kind, str(tmp_path), batch_size=1, num_epochs=None)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_readers_that_never_deliver_stall_with_queue_names(kind, tmp_path, monkeypatch):
    # Empty shards, let past the load check, stand for a reader that never
    # delivers (a hung network file system): the queues stay empty forever.
    module = {"voc": "voc_segmentation", "inception": "inception_multilabel"}[kind]
    monkeypatch.setattr(f"tf1_pipelines.pipelines.{module}.pipeline.require_records",
                        lambda files: None)
    make_data(kind, str(tmp_path), [[], []])
    baseline = threading.active_count()
    pipe = load(kind, str(tmp_path), batch_size=1, stall_timeout=1.5, num_epochs=None)
    start = time.monotonic()
    with pipe, pytest.raises(PipelineStalled) as err:
        pipe.get_batch()
    assert time.monotonic() - start < 10
    message = str(err.value)
    assert "stall_timeout=1.5 s" in message and "input_producer holds" in message
    queue = "shuffle_batch/random_shuffle_queue holds 0 of 30" if kind == "voc" \
        else "batch_processing/random_shuffle_queue holds 0 of 11"  # 4 x 2 + 3 x 1
    assert queue in message
    assert threading.active_count() == baseline


# ---------------------------------------------------------------------------- queue fill
@pytest.mark.timeout(60)
def test_fill_figures_match_queue_sizes_when_full(tmp_path):
    make_data("voc", str(tmp_path), THREE_SHARDS)
    with load("voc", str(tmp_path), batch_size=2) as pipe:
        pipe.get_batch()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            sizes = {s.name.split("/")[-1]: s for s in pipe.queue_status()}
            if sizes["random_shuffle_queue"].size == 30:
                break
            time.sleep(0.05)
        fill = pipe.queue_fill()
    assert sizes["random_shuffle_queue"].capacity == 30
    assert fill["voc_segmentation/shuffle_batch/fraction_over_10_of_20_full"] == 1.0
    assert 0.0 <= fill["voc_segmentation/input_producer/fraction_of_32_full"] <= 1.0


@pytest.mark.timeout(60)
def test_fill_includes_the_hand_made_examples_queue_and_samples_over_time(tmp_path):
    make_data("inception", str(tmp_path), THREE_SHARDS)
    with load("inception", str(tmp_path), batch_size=2) as pipe:
        pipe.get_batch()
        samples = queue_inputs.sample_fill(pipe, duration=0.5, interval=0.05)
        keys = set(samples[0][1])
        steps = []
        under_load = queue_inputs.sample_fill(pipe, duration=0.3,
                                              step=lambda: steps.append(pipe.get_batch()))
        assert len(steps) == len(under_load) >= 1
    assert "inception_multilabel/batch_processing/random_shuffle_queue" in keys
    assert any(k.endswith("batch_join/fraction_of_16_full") for k in keys)  # 2 x 4 x 2
    assert len(samples) >= 2 and [t for t, _ in samples] == sorted(t for t, _ in samples)
    assert all(0.0 <= v <= 1.0 for _, levels in samples for v in levels.values())


def test_dataset_backend_has_no_threads_and_no_queues(tmp_path):
    make_data("voc", str(tmp_path), THREE_SHARDS)
    baseline = threading.active_count()
    with load("voc", str(tmp_path), backend="dataset", batch_size=2) as pipe:
        pipe.get_batch()
        assert pipe.running_threads() == [] and pipe.queue_fill() == {}
        assert threading.active_count() == baseline + 1  # get_batch's step thread only
    assert threading.active_count() == baseline


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_own_session_runs_steps_in_the_calling_thread_only_for_queue_graphs(kind, tmp_path):
    make_data(kind, str(tmp_path), THREE_SHARDS)
    with load(kind, str(tmp_path), batch_size=2) as queue_pipe, \
            load(kind, str(tmp_path), backend="dataset", batch_size=2) as dataset_pipe:
        assert queue_pipe.session._config.inter_op_parallelism_threads == -1
        assert dataset_pipe.session._config.inter_op_parallelism_threads == 0
    chosen = tf.compat.v1.ConfigProto(inter_op_parallelism_threads=3)
    with load(kind, str(tmp_path), batch_size=2, session_config=chosen) as pipe:
        assert pipe.session._config.inter_op_parallelism_threads == 3
        assert len(record_ids(kind, pipe.get_batch())) == 2


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_tensors_wired_into_the_users_own_graph_and_session(kind, tmp_path):
    make_data(kind, str(tmp_path), THREE_SHARDS)
    baseline = threading.active_count()
    graph = tf.Graph()
    pipe = load(kind, str(tmp_path), batch_size=3, graph=graph)
    images = pipe.tensors[0]
    with graph.as_default():
        model = tf.reduce_mean(tf.cast(images, tf.float32), axis=[1, 2, 3])
    with tf1.Session(graph=graph) as sess:
        assert len(record_ids(kind, pipe.get_batch(sess))) == 3  # starts our threads
        out = sess.run(model, options=tf1.RunOptions(timeout_in_ms=20000))  # no feed needed
        assert out.shape == (3,)
        pipe.configure(batch_size=2)
        assert len(record_ids(kind, pipe.get_batch(sess))) == 2
        pipe.close()
    assert threading.active_count() == baseline

