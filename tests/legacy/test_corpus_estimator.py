"""Estimator-era scripts of our own (``corpus/estimator_*``), run unchanged under ``python -m compat run``.

* ``estimator_premade``: a 2017 premade-estimator program (feature columns, a
  ``decode_csv`` input_fn, ``DNNClassifier`` driven by ``tf.contrib.learn``'s
  ``Experiment`` and ``learn_runner``, ``tf.contrib.estimator.add_metrics``, a
  ``LinearClassifier``);
* ``estimator_custom.py``: a custom ``model_fn`` with ``tf.layers``,
  ``train_and_evaluate`` with a ``LatestExporter``, a warm-started second model;
* ``estimator_bert_like``: BERT's ``run_classifier.py`` shape (``tf.flags``,
  ``tf.gfile``, ``parallel_interleave`` / ``map_and_batch`` over TFRecords,
  ``TPUEstimator`` with ``use_tpu=False``, and with ``use_tpu=True`` on the CPU).

Every value the scripts print or write is recomputed here in NumPy from the
checkpoints they leave (read back with ``tf.train.load_checkpoint``).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_legacy_scripts import LEGACY, run_script, succeeded

CORPUS = LEGACY / "corpus"
COLORS = ["red", "green", "blue"]


def checkpoint(prefix: Path) -> dict[str, np.ndarray]:
    import tensorflow as tf
    reader = tf.train.load_checkpoint(str(prefix))
    return {name: reader.get_tensor(name) for name in reader.get_variable_to_shape_map()}


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def cross_entropy(logits: np.ndarray, labels: np.ndarray) -> np.ndarray:
    return -np.log(softmax(logits)[np.arange(len(labels)), labels])


def last_json(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------------
# Premade estimators on CSV
# --------------------------------------------------------------------------

def write_csvs(folder: Path) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Train (90 rows) and eval (30 rows) CSVs: 3 numbers, a color, a label; returns (x, color index, label)."""
    rng = np.random.RandomState(5)
    out = {}
    for name, rows in (("train", 90), ("eval", 30)):
        x = rng.uniform(-1, 1, size=(rows, 3)).round(3)
        color = rng.randint(0, 3, size=rows)
        label = (x + np.eye(3)[color]).argmax(1)
        lines = ["a,b,c,color,label"] + [f"{x[i, 0]},{x[i, 1]},{x[i, 2]},{COLORS[color[i]]},{label[i]}"
                                         for i in range(rows)]
        (folder / f"{name}.csv").write_text("\n".join(lines) + "\n")
        out[name] = (x, color, label)
    return out


@pytest.mark.timeout(300)
def test_premade_estimators_on_csv(tmp_path: Path) -> None:
    data = write_csvs(tmp_path)
    result = run_script(CORPUS / "estimator_premade" / "premade_estimator.py", "--train_data", "train.csv",
                        "--eval_data", "eval.csv", "--model_dir", "model", cwd=tmp_path)
    out = last_json(succeeded(result))
    x, color, label = data["eval"]
    one_hot = np.eye(3)[color]

    # DNNClassifier: the input layer concatenates a, b, c, color_indicator (columns sorted by name).
    w = checkpoint(tmp_path / "model" / "dnn" / "model.ckpt-60")
    hidden = np.maximum(np.hstack([x, one_hot]) @ w["dnn/hiddenlayer_0/kernel"] + w["dnn/hiddenlayer_0/bias"], 0)
    logits = hidden @ w["dnn/logits/kernel"] + w["dnn/logits/bias"]
    np.testing.assert_allclose(np.array(out["dnn_logits"]), logits, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.array(out["dnn_probabilities"]), softmax(logits), rtol=1e-4, atol=1e-5)
    assert out["dnn_class_ids"] == logits.argmax(1).tolist()
    assert out["eval"]["global_step"] == 60
    assert out["eval"]["accuracy"] == pytest.approx(float(np.mean(logits.argmax(1) == label)), abs=1e-6)
    assert out["eval"]["average_loss"] == pytest.approx(float(cross_entropy(logits, label).mean()), rel=1e-4)
    assert out["eval"]["mean_label"] == pytest.approx(float(label.mean()), rel=1e-6)  # from add_metrics
    assert out["eval"]["accuracy"] > 0.5  # it learned something: a chance level would be 1/3

    # LinearClassifier: a weight row per number, a row per color, a bias.
    v = checkpoint(tmp_path / "model" / "linear" / "model.ckpt-30")
    linear = (sum(x[:, [i]] * v[f"linear/linear_model/{n}/weights"] for i, n in enumerate("abc"))
              + one_hot @ v["linear/linear_model/color/weights"] + v["linear/linear_model/bias_weights"])
    np.testing.assert_allclose(np.array(out["linear_logits"]), linear, rtol=1e-4, atol=1e-5)
    assert (tmp_path / "model" / "dnn" / "graph.pbtxt").exists()
    assert list((tmp_path / "model" / "dnn" / "eval").glob("events.out.tfevents.*"))


# --------------------------------------------------------------------------
# A custom model_fn with train_and_evaluate
# --------------------------------------------------------------------------

@pytest.mark.timeout(300)
def test_custom_model_fn_train_and_evaluate(tmp_path: Path) -> None:
    rng = np.random.RandomState(3)
    x_train = rng.normal(size=(200, 2)).astype(np.float32)
    x_eval = rng.normal(size=(50, 2)).astype(np.float32)
    y_train = (x_train[:, 0] * x_train[:, 1] > 0).astype(np.int32)
    y_eval = (x_eval[:, 0] * x_eval[:, 1] > 0).astype(np.int32)
    np.savez(tmp_path / "data.npz", x_train=x_train, y_train=y_train, x_eval=x_eval, y_eval=y_eval)
    out = last_json(succeeded(run_script(CORPUS / "estimator_custom.py", "data.npz", "model", cwd=tmp_path)))

    model = tmp_path / "model"
    assert Path(out["latest"]).name == "model.ckpt-120"
    # save_checkpoints_steps=40 with keep_checkpoint_max=3: 40, 80, 120 kept, 0 removed
    assert sorted(p.name for p in model.glob("model.ckpt-*.index")) == [
        "model.ckpt-120.index", "model.ckpt-40.index", "model.ckpt-80.index"]
    exports = sorted((model / "export" / "classifier").iterdir())
    assert 1 <= len(exports) <= 2 and all((e / "saved_model.pb").exists() for e in exports)

    w = checkpoint(model / "model.ckpt-120")
    logits = np.tanh(x_eval @ w["hidden/kernel"] + w["hidden/bias"]) @ w["logits/kernel"] + w["logits/bias"]
    np.testing.assert_allclose(np.array(out["probabilities"]), softmax(logits), rtol=1e-4, atol=1e-5)
    assert out["classes"] == logits.argmax(1).tolist()
    assert out["metrics"]["accuracy"] == pytest.approx(float(np.mean(logits.argmax(1) == y_eval)), abs=1e-6)
    # two eval batches of 25: the mean of the batch losses is the mean over the 50 rows
    assert out["metrics"]["loss"] == pytest.approx(float(cross_entropy(logits, y_eval).mean()), rel=1e-4)
    assert out["metrics"]["accuracy"] > 0.7  # x0*x1 > 0 is not linear: the hidden layer learned it

    # warm start: the hidden layer came from the trained model, the logits layer did not
    np.testing.assert_allclose(np.array(out["warm_hidden"]), w["hidden/kernel"], rtol=1e-6)
    assert not np.allclose(np.array(out["warm_logits"]), w["logits/kernel"])


# --------------------------------------------------------------------------
# A BERT-like TPUEstimator on the CPU
# --------------------------------------------------------------------------

def write_records(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    """Two training TFRecord files of 48 examples and an eval file of 20: 8 token ids and a label each."""
    import tensorflow as tf
    rng = np.random.RandomState(8)
    for name, rows in (("train-0", 48), ("train-1", 48), ("eval", 20)):
        ids = rng.randint(0, 20, size=(rows, 8))
        labels = ((ids < 10).sum(1) > 4).astype(np.int64)
        with tf.io.TFRecordWriter(str(folder / f"{name}.tfrecord")) as writer:
            for row, label in zip(ids, labels, strict=True):
                feature = {"input_ids": tf.train.Feature(int64_list=tf.train.Int64List(value=row)),
                           "label_ids": tf.train.Feature(int64_list=tf.train.Int64List(value=[label]))}
                writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
    return ids, labels  # the eval file's


def bert_like_logits(prefix: Path, ids: np.ndarray) -> np.ndarray:
    w = checkpoint(prefix)
    pooled = w["embeddings/word_embeddings"][ids].mean(axis=1)
    return pooled @ w["output_weights"].T + w["output_bias"]


@pytest.mark.timeout(400)
@pytest.mark.parametrize("use_tpu", [False, True])
def test_bert_like_tpu_estimator_on_cpu(tmp_path: Path, use_tpu: bool) -> None:
    ids, labels = write_records(tmp_path)
    result = run_script(CORPUS / "estimator_bert_like" / "run_classifier.py", "--train_file=train-*.tfrecord",
                        "--eval_file=eval.tfrecord", "--output_dir=out", f"--use_tpu={str(use_tpu).lower()}",
                        cwd=tmp_path)
    stdout = succeeded(result)
    assert ("compat: TPUEstimator(use_tpu=True)" in result.stderr) == use_tpu
    out = tmp_path / "out"
    assert sorted(p.name for p in out.glob("model.ckpt-*.index")) == [
        "model.ckpt-0.index", "model.ckpt-20.index", "model.ckpt-40.index"]
    # with use_tpu the script drops the remainder batch, as on a TPU: 2 batches of 8 out of 20
    rows = 16 if use_tpu else 20
    logits = bert_like_logits(out / "model.ckpt-40", ids[:rows])
    written = np.loadtxt(out / "test_results.tsv", ndmin=2)
    np.testing.assert_allclose(written, softmax(logits), rtol=1e-4, atol=1e-6)
    results = dict(line.split(" = ") for line in (out / "eval_results.txt").read_text().splitlines())
    assert float(results["eval_accuracy"]) == pytest.approx(float(np.mean(logits.argmax(1) == labels[:rows])),
                                                            abs=1e-6)
    assert float(results["eval_loss"]) == pytest.approx(float(cross_entropy(logits, labels[:rows]).mean()),
                                                        rel=1e-4)
    assert int(results["global_step"]) == 40
    assert "eval_accuracy = " in stdout
    initial = bert_like_logits(out / "model.ckpt-0", ids[:rows])
    assert cross_entropy(logits, labels[:rows]).mean() < cross_entropy(initial, labels[:rows]).mean()


# --------------------------------------------------------------------------
# Without the runner
# --------------------------------------------------------------------------

@pytest.mark.timeout(200)
def test_estimator_scripts_fail_without_the_runner(tmp_path: Path) -> None:
    write_csvs(tmp_path)
    result = run_script(CORPUS / "estimator_premade" / "premade_estimator.py", "--train_data", "train.csv",
                        "--eval_data", "eval.csv", "--model_dir", "model", cwd=tmp_path, runner=False)
    assert result.returncode != 0
    assert "contrib" in result.stderr or "estimator" in result.stderr
