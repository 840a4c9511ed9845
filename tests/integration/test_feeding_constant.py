"""Seed 004 §1: feed_dict input (DataProvider) and constant input, both behind get_batch.

Both serve every example once per epoch, shuffled for training and in order for
evaluation, and agree with each other batch by batch in size."""
from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from PIL import Image

import tf1_pipelines as tp
from tf1_pipelines.data import sample_data
from tf1_pipelines.inputs import constant as constant_inputs
from tf1_pipelines.inputs.constant import constant_input
from tf1_pipelines.inputs.feed import DataProvider, make_placeholders
from tf1_pipelines.pipelines.feeding import sample_arrays

tf1 = tf.compat.v1
pytestmark = pytest.mark.timeout(60)

X = np.arange(11 * 3, dtype=np.float32).reshape(11, 3)
Y = np.arange(100, 111, dtype=np.int64)


def epochs_of(batches: list, epoch_size: int = 11) -> list[list[int]]:
    """Split a flat list of label batches into epochs of ``epoch_size`` labels."""
    flat = [v for b in batches for v in b]
    return [flat[i:i + epoch_size] for i in range(0, len(flat), epoch_size)]


# ------------------------------------------------------------------------ DataProvider
def test_provider_in_order_for_evaluation() -> None:
    provider = DataProvider({"x": X, "y": Y}, batch_size=4, shuffle=False, num_epochs=2)
    batches = list(provider)
    assert [len(b[1]) for b in batches] == [4, 4, 3, 4, 4, 3]
    assert [v for b in batches[:3] for v in b[1]] == Y.tolist()
    assert np.array_equal(np.concatenate([b[0] for b in batches[3:]]), X)
    assert provider.epochs_completed == 2
    with pytest.raises(tp.EndOfData):
        provider.next_batch()


def test_provider_shuffles_each_epoch_for_training() -> None:
    provider = DataProvider([X, Y], batch_size=4, shuffle=True, num_epochs=3, seed=5)
    batches = list(provider)
    assert [len(b[1]) for b in batches] == [4, 4, 3] * 3
    epochs = epochs_of([b[1] for b in batches])
    assert all(sorted(e) == Y.tolist() for e in epochs)
    assert epochs[0] != epochs[1] and Y.tolist() not in epochs
    for xs, ys in batches:  # rows stay together
        assert np.array_equal(xs[:, 0], (ys - 100) * 3)
    again = DataProvider([X, Y], batch_size=4, shuffle=True, num_epochs=3, seed=5)
    assert [b[1].tolist() for b in again] == [b[1].tolist() for b in batches]
    dropped = DataProvider([X, Y], batch_size=4, num_epochs=2, seed=1, drop_remainder=True)
    assert [len(b[1]) for b in dropped] == [4, 4, 4, 4]


def test_provider_feeds_placeholders_and_the_batch_size() -> None:
    provider = DataProvider({"x": X, "y": Y}, batch_size=4, shuffle=False)
    with tf.Graph().as_default(), tf1.Session() as sess:
        ph = make_placeholders(provider.arrays)
        assert ph.arrays["x"].shape.as_list() == [None, 3]
        state = tf.zeros(tf.stack([ph.batch_size, 2]))  # a graph that needs the batch size
        total = tf.reduce_sum(ph.arrays["x"], axis=1) + tf.reduce_sum(state, axis=1)
        sizes, sums = [], []
        for _ in range(3):
            feed = provider.feed_dict(ph)
            sizes.append(feed[ph.batch_size])
            sums.append(sess.run(total, feed))
    assert sizes == [4, 4, 3]
    assert np.allclose(np.concatenate(sums), X.sum(axis=1))


# -------------------------------------------------------------------------- constant
def test_constant_input_lives_in_the_graph() -> None:
    with tf.Graph().as_default() as graph, tf1.Session() as sess:
        data = constant_input({"x": X, "y": Y}, shuffle=False, num_epochs=1)
        assert graph.as_graph_def().ByteSize() > X.nbytes + Y.nbytes
        sess.run(data.initializer, {data.batch_size: 5})
        first = sess.run(data.next_element)
        sess.run(data.initializer, {data.batch_size: 11})  # restarts with a new batch size
        whole = sess.run(data.next_element)
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(data.next_element)
    assert first[1].tolist() == Y[:5].tolist()
    assert np.array_equal(whole[0], X) and whole[1].tolist() == Y.tolist()


def test_constant_refuses_data_too_big_for_a_graph(monkeypatch) -> None:
    monkeypatch.setattr(constant_inputs, "MAX_CONSTANT_BYTES", 100)
    with tf.Graph().as_default():
        with pytest.raises(tp.ConfigError, match="feeding"):
            constant_input({"x": X})


# -------------------------------------------------------------------- uniform faces
@pytest.mark.parametrize("name", ["feeding", "constant"])
def test_pipelines_in_order_for_evaluation(name: str) -> None:
    with tp.load_pipeline(name, arrays={"x": X, "y": Y}, batch_size=4, train=False,
                          num_epochs=2) as p:
        batches = list(p)
    assert type(batches[0]).__name__ == "Batch" and batches[0]._fields == ("x", "y")
    assert [len(b.y) for b in batches] == [4, 4, 3, 4, 4, 3]
    assert np.array_equal(np.concatenate([b.x for b in batches[:3]]), X)
    assert np.concatenate([b.y for b in batches[3:]]).tolist() == Y.tolist()
    assert batches[0].x.dtype == np.float32 and batches[0].y.dtype == np.int64


def test_feeding_and_constant_serve_the_same_examples_per_epoch() -> None:
    epochs = {}
    for name in ("feeding", "constant"):
        with tp.load_pipeline(name, arrays=[X, Y], batch_size=4, train=True, num_epochs=3,
                              seed=2) as p:
            batches = list(p)
        assert [len(b.array1) for b in batches] == [4, 4, 3] * 3
        epochs[name] = epochs_of([b.array1 for b in batches])
        assert all(sorted(e) == Y.tolist() for e in epochs[name])
        assert epochs[name][0] != epochs[name][1]
        for b in batches:
            assert np.array_equal(b.array0[:, 0], (b.array1 - 100) * 3)


def test_configure_batch_size() -> None:
    with tp.load_pipeline("feeding", arrays={"y": Y}, batch_size=4, train=False) as p:
        assert p.get_batch().y.tolist() == Y[:4].tolist()
        p.configure(batch_size=2)  # feeding: the epoch goes on
        assert p.get_batch().y.tolist() == Y[4:6].tolist()
        with pytest.raises(tp.ConfigError):
            p.configure(batch_size=0)
    with tp.load_pipeline("constant", arrays={"y": Y}, batch_size=4, train=False) as p:
        assert p.get_batch().y.tolist() == Y[:4].tolist()
        p.configure(batch_size=2)  # constant: the initializable iterator restarts
        assert p.get_batch().y.tolist() == Y[:2].tolist()


def test_feeding_tensors_in_the_users_graph() -> None:
    graph = tf.Graph()
    p = tp.load_pipeline("feeding", arrays={"x": X}, batch_size=5, train=False, graph=graph)
    with graph.as_default():
        doubled = p.tensors.x * 2.0 + tf.cast(p.batch_size_tensor, tf.float32) * 0.0
    with tf1.Session(graph=graph) as sess:
        out = sess.run(doubled, feed_dict=p.next_feed_dict())
    p.close()
    assert np.array_equal(out, X[:5] * 2)


def test_embedded_sample_arrays() -> None:
    arrays = sample_arrays()
    assert arrays["images"].shape == (90, 32, 32, 3) and arrays["images"].dtype == np.uint8
    assert arrays["labels"].tolist() == [i for i in range(10) for _ in range(9)]
    photo = sample_data.load_photograph("astronaut")  # 512 x 512: the whole photograph
    small = np.asarray(Image.fromarray(photo).resize((96, 96), Image.Resampling.LANCZOS))
    assert np.array_equal(arrays["images"][4], small[32:64, 32:64])
    with tp.load_pipeline("constant", batch_size=16, seed=0) as p:
        batch = p.get_batch()
    assert batch.images.shape == (16, 32, 32, 3) and set(batch.labels) <= set(range(10))


def test_bad_arrays() -> None:
    with pytest.raises(tp.ConfigError, match="differ in their number of examples"):
        tp.load_pipeline("feeding", arrays={"x": X, "y": Y[:5]})
    with pytest.raises(tp.ConfigError, match="empty"):
        tp.load_pipeline("constant", arrays={})
    with pytest.raises(tp.ConfigError, match="dtype object"):
        tp.load_pipeline("feeding", arrays={"x": np.array([{}, {}])})
    with pytest.raises(tp.ConfigError, match="batch_size"):
        tp.load_pipeline("constant", arrays={"x": X}, batch_size=0)
    with pytest.raises(tp.ConfigError, match="drop_remainder"):
        tp.load_pipeline("feeding", arrays={"x": X}, batch_size=20, drop_remainder=True)
