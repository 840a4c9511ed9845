"""get_batch, configure and close from eight threads at once (the Threads paragraph of
the Pipeline docstring): one graph, one session, one set of queue threads; every
record served exactly once per epoch; close from any thread ends every waiter."""
from __future__ import annotations

import os
import random
import threading
from typing import Any

import pytest
import tensorflow as tf
from helpers.record_builders import voc_id_record
from tensorflow.python.client import session as tf_session

import tf1_pipelines as tp
from tf1_pipelines.errors import EndOfData
from tf1_pipelines.runtime import session_runs

THREADS = 8
RECORDS = 41  # not a multiple of the batch size: the last batch is short


def write_shards(root: str) -> None:
    for shard in range(3):
        with tf.io.TFRecordWriter(os.path.join(root, f"part-{shard}.tfrecords")) as writer:
            for record_id in range(shard, RECORDS, 3):
                writer.write(voc_id_record(record_id))


def batch_ids(batch: Any) -> list[int]:
    """The record ids of a batch, after checking every pixel belongs to its record."""
    ids = [int(v) for v in batch.image[:, 0, 0, 0]]
    for row, record_id in enumerate(ids):
        assert (batch.image[row] == record_id).all() and (batch.mask[row] == record_id).all()
    return ids


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """Every tf.compat.v1.Session and every set of queue threads the pipelines make."""
    made: dict[str, list[Any]] = {"sessions": [], "queue_threads": []}

    # On TensorFlow's Session class itself, not on a module attribute: whichever module
    # object a pipeline reaches it through, every session it makes is counted.
    original_init = tf_session.Session.__init__

    def counting_init(self: Any, *args: Any, **kwargs: Any) -> None:
        made["sessions"].append(self)
        original_init(self, *args, **kwargs)

    class CountingQueueThreads(session_runs.QueueThreads):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            made["queue_threads"].append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(tf_session.Session, "__init__", counting_init)
    monkeypatch.setattr(session_runs, "QueueThreads", CountingQueueThreads)
    return made


def run_threads(target: Any, count: int, bound: float) -> list[BaseException]:
    """Run ``target(k)`` in ``count`` threads; their exceptions. Fails if one is still
    running after ``bound`` seconds."""
    errors: list[BaseException] = []

    def guarded(k: int) -> None:
        try:
            target(k)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(bound)
    assert not any(t.is_alive() for t in threads), "a thread never returned"
    return errors


@pytest.mark.timeout(120)
@pytest.mark.parametrize("backend", ["queue", "dataset"])
def test_eight_threads_share_one_epoch_exactly(backend: str, tmp_path: Any,
                                               counted: dict[str, list[Any]]) -> None:
    write_shards(str(tmp_path))
    baseline = threading.active_count()
    pipe = tp.load_pipeline("voc_segmentation", tfrecords=str(tmp_path), backend=backend,
                            batch_size=3, num_epochs=1, allow_smaller_final_batch=True,
                            image_height=8, image_width=8, stall_timeout=30)
    start = threading.Barrier(THREADS)
    got: list[list[int]] = [[] for _ in range(THREADS)]

    def take_all(k: int) -> None:
        start.wait(30)  # every thread's first get_batch at once: the graph is not built
        while True:
            try:
                got[k].extend(batch_ids(pipe.get_batch()))
            except EndOfData:
                return

    errors = run_threads(take_all, THREADS, bound=90)
    assert errors == []
    assert sorted(i for ids in got for i in ids) == list(range(RECORDS))
    assert len(counted["sessions"]) == 1
    assert len(counted["queue_threads"]) == (1 if backend == "queue" else 0)
    scopes = {op.name.split("/")[0] for op in pipe.graph.get_operations()}
    assert "voc_segmentation_1" not in scopes  # built once
    pipe.close()
    assert counted["sessions"][0]._closed
    assert threading.active_count() == baseline


@pytest.mark.timeout(120)
def test_get_batch_configure_and_close_from_eight_threads(tmp_path: Any,
                                                         counted: dict[str, list[Any]]) -> None:
    write_shards(str(tmp_path))
    baseline = threading.active_count()
    pipe = tp.load_pipeline("voc_segmentation", tfrecords=str(tmp_path), batch_size=2,
                            num_epochs=None, image_height=8, image_width=8, stall_timeout=30)
    sizes: list[int] = []
    enough = threading.Event()
    outcomes: list[str] = []

    def consume() -> None:
        while True:
            try:
                batch = pipe.get_batch()
            except RuntimeError as exc:
                assert "pipeline is closed" in str(exc)
                outcomes.append("closed")
                return
            batch_ids(batch)  # every row whole (records repeat: one may come twice)
            sizes.append(len(batch.image))
            if len(sizes) >= 40:
                enough.set()

    def reconfigure(rng: random.Random) -> None:
        while not enough.is_set():
            try:
                pipe.configure(batch_size=rng.choice([1, 2, 3]))
            except RuntimeError as exc:  # closed meanwhile
                assert "pipeline is closed" in str(exc)
                return

    def work(k: int) -> None:
        if k == 0:
            assert enough.wait(60), "too few batches"
            pipe.close()
        elif k == 1:
            reconfigure(random.Random(k))
        else:
            consume()

    errors = run_threads(work, THREADS, bound=90)
    assert errors == []
    assert outcomes == ["closed"] * (THREADS - 2)  # every consumer ended by the close
    assert set(sizes) <= {1, 2, 3} and len(sizes) >= 40
    assert len(counted["sessions"]) == 1 and counted["sessions"][0]._closed
    assert len(counted["queue_threads"]) == 1
    assert pipe.running_threads() == [] and threading.active_count() == baseline
    with pytest.raises(RuntimeError, match="pipeline is closed"):
        pipe.get_batch()
