"""tf.contrib.learn's smaller TF 1.15 names: graph actions, serving input_fn, ProblemType, the interfaces.

``run_feeds`` / ``run_n`` / ``infer`` are checked against values known here: a
variable saved to a checkpoint and restored, placeholders fed, a queue runner's
strings in order; ``build_parsing_serving_input_fn`` against an ``Example`` built
here.
"""
from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
import tensorflow as tf

from compat.contrib import _learn_graph_actions as actions
from compat.contrib import _learn_served, learn
from compat.errors import LegacyAPIError

v1 = tf.compat.v1


def _saved_variable(path: Path) -> str:
    """A checkpoint whose variable ``w`` holds [1.5, -2.0, 4.0]."""
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.constant([1.5, -2.0, 4.0]))
        with v1.Session() as sess:
            sess.run(w.initializer)
            return str(v1.train.Saver([w]).save(sess, str(path / "model.ckpt")))


@pytest.mark.timeout(60)
def test_run_feeds_restores_or_initializes_and_feeds_each_dict(tmp_path: Path) -> None:
    checkpoint = _saved_variable(tmp_path)
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.zeros([3]))
        x = v1.placeholder(tf.float32, [3], name="x")
        outputs = {"w": w.value(), "y": w * x}
        feeds = [{x: np.array([1.0, 2.0, 3.0], np.float32)}, {x: np.array([0.0, -1.0, 0.5], np.float32)}]
        results = learn.run_feeds(outputs, feeds, restore_checkpoint_path=checkpoint)
        saved = np.array([1.5, -2.0, 4.0], np.float32)
        assert len(results) == 2
        for result, feed in zip(results, feeds):
            np.testing.assert_array_equal(result["w"], saved)
            np.testing.assert_array_equal(result["y"], saved * feed[x])
        # No checkpoint: the variables start from their initializers.
        fresh = learn.infer(None, outputs, {x: np.ones(3, np.float32)})
        np.testing.assert_array_equal(fresh["y"], np.zeros(3, np.float32))
        np.testing.assert_array_equal(learn.infer(checkpoint, {"w": w.value()})["w"], saved)
        with pytest.raises(ValueError, match="output_dict"):
            learn.run_feeds({}, feeds)
        with pytest.raises(ValueError, match="feed_dicts"):
            learn.run_feeds(outputs, [])


@pytest.mark.timeout(60)
def test_run_n_runs_the_queue_runners_and_joins_them() -> None:
    before = threading.active_count()
    with tf.Graph().as_default():
        names = v1.train.string_input_producer(["a", "b", "c"], shuffle=False).dequeue()
        counter = v1.get_local_variable("counter", initializer=tf.constant(10))  # local init runs too
        results = learn.run_n({"name": names, "counter": counter}, n=4)
    assert [r["name"] for r in results] == [b"a", b"b", b"c", b"a"]
    assert [int(r["counter"]) for r in results] == [10] * 4
    assert threading.active_count() == before
    with tf.Graph().as_default():
        op = learn.no_op_train_fn(tf.constant(1.0))
        assert op.type == "NoOp"


@pytest.mark.timeout(60)
def test_parsing_serving_input_fn_parses_a_fed_example() -> None:
    feature = {"age": tf.train.Feature(int64_list=tf.train.Int64List(value=[42])),
               "tags": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"x", b"y"]))}
    record = tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()
    spec = {"age": v1.FixedLenFeature([1], tf.int64), "tags": v1.VarLenFeature(tf.string)}
    with tf.Graph().as_default():
        ops = learn.build_parsing_serving_input_fn(spec)()
        assert isinstance(ops, learn.InputFnOps) and ops.labels is None
        examples = ops.default_inputs["examples"]
        assert examples.op.name == "input_example_tensor" and examples.shape.as_list() == [None]
        with v1.Session() as sess:
            age, tags = sess.run([ops.features["age"], ops.features["tags"]], {examples: [record, record]})
        np.testing.assert_array_equal(age, [[42], [42]])
        assert list(tags.values) == [b"x", b"y", b"x", b"y"]
        fixed = learn.build_parsing_serving_input_fn(spec, default_batch_size=2)()
        assert fixed.default_inputs["examples"].shape.as_list() == [2]


@pytest.mark.timeout(60)
def test_problem_type_interfaces_dask_helpers_and_kmeans() -> None:
    problem = learn.ProblemType
    assert (problem.UNSPECIFIED, problem.CLASSIFICATION, problem.LINEAR_REGRESSION,
            problem.LOGISTIC_REGRESSION) == (0, 1, 2, 3)
    estimator = learn.Estimator(model_fn=lambda features, labels: (features, None, None))
    assert isinstance(estimator, learn.Trainable) and isinstance(estimator, learn.Evaluable)
    assert not isinstance(learn.SKCompat(estimator), learn.Trainable)  # TF 1.x's SKCompat was neither
    data = np.arange(6.0).reshape(3, 2)
    assert learn.extract_dask_data(data) is data and learn.extract_dask_labels(data) is data
    assert learn.io.extract_dask_data is _learn_served.extract_dask_data
    from compat.contrib import factorization
    assert learn.KMeansClustering is factorization.KMeansClustering
    assert actions.run_n is learn.run_n and learn.graph_actions.run_feeds is learn.run_feeds
    with pytest.raises(LegacyAPIError, match="Estimator.train"):
        learn.graph_actions.train  # noqa: B018
