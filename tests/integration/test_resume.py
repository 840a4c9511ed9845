"""Resume mid-epoch: for every dataset-backed pipeline, save after k batches
(k drawn at random: one inside the first epoch, one past its end), restore in a
fresh process, and the batches that follow equal the uninterrupted run's, batch
for batch. Plus the ``tf.compat.v1.train.Saver`` path and the refusals."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import seeded_runs
import tensorflow as tf

import tf1_pipelines as tp

tf1 = tf.compat.v1


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    return seeded_runs.shared_runs(tmp_path_factory, random.Random())


@pytest.mark.timeout(2 * seeded_runs.TIMEOUT + 60)
@pytest.mark.parametrize("name", sorted(seeded_runs.CASES))
def test_restored_in_a_fresh_process_continues_batch_for_batch(
        runs: tuple[dict[str, Any], dict[str, Any]], name: str) -> None:
    first, second = runs
    ks = seeded_runs.last_ks()[name]
    _, epoch, n = seeded_runs.CASES[name]
    assert ks[0] < epoch <= ks[1] < n
    for k in ks:
        resumed = second[name]["resumed"][str(k)]
        assert resumed == first[name]["fresh"][k:], f"{name} resumed after k={k} batches"


def _values(batch: Any) -> list[np.ndarray]:
    return [np.asarray(v) for v in batch]


@pytest.mark.timeout(120)
def test_a_users_saver_captures_the_input_position(tmp_path: Path) -> None:
    options = {"num_patches": 4, "num_epochs": None, "seed": 5, "batch_size": 4}
    with tp.load_pipeline("random_patches", **options) as reference:
        expected = [reference.get_batch() for _ in range(8)]
    graph = tf.Graph()
    p = tp.load_pipeline("random_patches", graph=graph, **options)
    with graph.as_default():
        step = tf1.train.get_or_create_global_step()
        _ = p.tensors
        saver = tf1.train.Saver()  # built after the pipeline: holds its iterator
        init = tf1.global_variables_initializer()
        sess = tf1.Session()
    sess.run(init)
    for _ in range(3):
        p.get_batch(sess)
    with graph.as_default():
        prefix = saver.save(sess, str(tmp_path / "model"), global_step=step)
    p.close()
    sess.close()

    graph = tf.Graph()
    p = tp.load_pipeline("random_patches", graph=graph, **options)
    with graph.as_default():
        tf1.train.get_or_create_global_step()
        _ = p.tensors
        saver = tf1.train.Saver()
        sess = tf1.Session()
    p.initialize(sess)  # first, so that the first get_batch keeps the restored position
    with graph.as_default():
        saver.restore(sess, prefix)
    for want in expected[3:]:
        for got, value in zip(_values(p.get_batch(sess)), _values(want)):
            np.testing.assert_array_equal(got, value)
    p.close()
    sess.close()


@pytest.mark.timeout(120)
def test_queue_generator_and_feed_inputs_are_refused_naming_the_dataset_backend(
        tmp_path: Path) -> None:
    for name, options in (("voc_segmentation", {"backend": "queue"}),
                          ("div2k_sr", {"backend": "generator"}),
                          ("feeding", {})):
        with tp.load_pipeline(name, **options) as p:
            with pytest.raises(tp.ConfigError, match="backend='dataset'"):
                p.save_state(str(tmp_path / name))
            assert p.running_threads() == []
        assert not (tmp_path / name).exists()


@pytest.mark.timeout(120)
def test_a_state_of_other_options_or_settings_is_refused(tmp_path: Path) -> None:
    with tp.load_pipeline("constant", seed=1) as p:
        p.get_batch()
        p.save_state(str(tmp_path / "state"))
        p.save_state(str(tmp_path / "state"))  # replaces its own state
    with tp.load_pipeline("constant", seed=2) as p:
        with pytest.raises(tp.ConfigError, match="seed=1.*seed=2"):
            p.restore_state(str(tmp_path / "state"))
    with tp.load_pipeline("constant", seed=1, batch_size=5) as p:
        with pytest.raises(tp.ConfigError, match="batch_size=32.*batch_size=5"):
            p.restore_state(str(tmp_path / "state"))
    with tp.load_pipeline("random_patches", seed=1) as p:
        with pytest.raises(tp.ConfigError, match="'constant', not 'random_patches'"):
            p.restore_state(str(tmp_path / "state"))
    (tmp_path / "mine").mkdir()
    with tp.load_pipeline("constant", seed=1) as p:
        with pytest.raises(tp.ConfigError, match="not a saved pipeline state"):
            p.save_state(str(tmp_path / "mine"))
    assert sorted(x.name for x in tmp_path.iterdir()) == ["mine", "state"]
