"""Corpus scripts in the style of well-known TF1 projects that failed on the runner until their
surface was bridged: a sentence classifier's ``learn.preprocessing.VocabularyProcessor`` (train,
save, restore, encode), the examples' ``tf.contrib.factorization.KMeans`` on a placeholder and the
word2vec tutorial's ``tf.contrib.tensorboard.plugins.projector`` config, and a sequence GAN's
hand-unrolled ``control_flow_ops.while_loop`` (Python 2 source) with the other names TF 2.13 moved out
of ``tensorflow.python.ops`` modules.

Each test builds tiny data, runs the scripts under ``python -m compat run`` with a timeout and checks
the printed values against an independent computation (word ids by first sight, Lloyd's k-means in
NumPy). The last test runs each with plain ``python``: it must fail on today's stack.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from test_legacy_scripts import LEGACY, run_script, succeeded

CORPUS = LEGACY / "corpus"
TEXT_CNN = CORPUS / "text_cnn_vocab"
KMEANS = CORPUS / "kmeans_clusters.py"
WORD2VEC = CORPUS / "word2vec_projector.py"
SEQGAN = CORPUS / "seqgan_while_loop.py"

SENTENCES = [(1, "a great movie"), (0, "a dull movie"), (1, "great acting and a great plot"), (0, "dull plot")]


def write_sentences(folder: Path) -> Path:
    path = folder / "sentences.txt"
    path.write_text("".join(f"{label}\t{sentence}\n" for label, sentence in SENTENCES))
    return path


def ids_by_first_sight(sentences: list[str], min_count: int = 0) -> dict[str, int]:
    """Word -> id as the processor numbers them (plain words here, so splitting on spaces is the tokenizer)."""
    counts: dict[str, int] = {}
    for sentence in sentences:
        for word in sentence.split():
            counts[word] = counts.get(word, 0) + 1
    if min_count == 0:
        return {word: index + 1 for index, word in enumerate(counts)}
    kept = sorted((w for w, c in counts.items() if c > min_count), key=lambda w: (-counts[w], w))
    return {word: index + 1 for index, word in enumerate(kept)}


def ints_after(label: str, text: str) -> list[list[int]]:
    return [[int(v) for v in m.split()] for m in re.findall(rf"^{label}: (.*)$", text, re.MULTILINE)]


@pytest.mark.timeout(240)
def test_text_cnn_vocabulary_train_save_restore(tmp_path: Path) -> None:
    data = write_sentences(tmp_path)
    out = tmp_path / "runs"
    train = succeeded(run_script(TEXT_CNN / "train_vocab.py", f"--data_file={data}", f"--out_dir={out}",
                                 cwd=tmp_path))
    sentences = [s for _, s in SENTENCES]
    vocab = ids_by_first_sight(sentences)
    assert f"Vocabulary Size: {len(vocab) + 1}" in train
    longest = max(len(s.split()) for s in sentences)
    first = [vocab[w] for w in sentences[0].split()] + [0] * (longest - 3)
    assert ints_after("first ids", train) == [first]
    assert (out / "model.index").exists()

    evaluated = succeeded(run_script(TEXT_CNN / "eval_vocab.py", f"--out_dir={out}", cwd=tmp_path))
    rows = ints_after("ids", evaluated)
    assert rows[0] == [vocab["a"], vocab["great"], vocab["movie"]] + [0] * (longest - 3)
    # "an", "unseen" and "zebra" were never seen: id 0, like the padding.
    assert rows[1] == [0, 0, 0, vocab["movie"]] + [0] * (longest - 4)
    assert "back: a great movie" + " <UNK>" * (longest - 3) in evaluated


@pytest.mark.timeout(240)
def test_text_cnn_vocabulary_min_frequency(tmp_path: Path) -> None:
    data = write_sentences(tmp_path)
    train = succeeded(run_script(TEXT_CNN / "train_vocab.py", f"--data_file={data}", f"--out_dir={tmp_path / 'r'}",
                                 "--min_frequency=1", "--num_steps=1", cwd=tmp_path))
    vocab = ids_by_first_sight([s for _, s in SENTENCES], min_count=1)
    assert f"Vocabulary Size: {len(vocab) + 1}" in train
    assert ints_after("first ids", train)[0][:3] == [vocab.get(w, 0) for w in "a great movie".split()]


def lloyd(points: np.ndarray, centers: np.ndarray, steps: int) -> tuple[list[float], np.ndarray]:
    """Mean nearest squared distance before each step, and the assignment of the last step."""
    distances, labels = [], np.zeros(len(points), int)
    for _ in range(steps):
        d2 = ((points[:, None] - centers[None]) ** 2).sum(-1)
        labels = d2.argmin(1)
        distances.append(float(d2.min(1).mean()))
        centers = np.stack([points[labels == k].mean(0) if (labels == k).any() else centers[k]
                            for k in range(len(centers))])
    return distances, labels


@pytest.mark.timeout(240)
def test_kmeans_training_graph_matches_lloyd(tmp_path: Path) -> None:
    rng = np.random.RandomState(3)
    means = np.array([[0.0, 0.0], [6.0, 0.0], [0.0, 6.0]])
    labels = np.repeat([0, 1, 2], 20)
    points = (means[labels] + rng.randn(60, 2)).astype(np.float32)
    start = points[[0, 1, 2]].copy()  # all three from cluster 0: the steps have work to do
    np.savez(tmp_path / "data.npz", points=points, labels=labels, start=start)
    out = succeeded(run_script(KMEANS, str(tmp_path / "data.npz"), "4", cwd=tmp_path))
    printed = [float(v) for v in re.findall(r"Avg Distance: ([0-9.]+)", out)]
    expected, assignment = lloyd(points.astype(np.float64), start.astype(np.float64), 4)
    np.testing.assert_allclose(printed, expected, rtol=1e-4)
    assert ints_after("assignments", out) == [assignment.tolist()]
    majority = [int(np.bincount(labels[assignment == k], minlength=3).argmax()) for k in range(3)]
    assert ints_after("labels_map", out) == [majority]


@pytest.mark.timeout(240)
def test_word2vec_projector_config_and_metadata(tmp_path: Path) -> None:
    import collections

    from google.protobuf import text_format

    from compat.contrib.tensorboard import ProjectorConfig
    words = ("the cat sat on the mat the dog sat on the log a cat and a dog " * 4).split()
    (tmp_path / "text.txt").write_text(" ".join(words))
    log_dir = tmp_path / "log"
    out = succeeded(run_script(WORD2VEC, str(tmp_path / "text.txt"), str(log_dir), cwd=tmp_path))
    name = re.search(r"embedding variable: (\S+)", out)
    assert name is not None and name.group(1) == "embeddings/Variable:0"
    # metadata.tsv: UNK, then the 7 most common words (ties in first-seen order, as Counter keeps them).
    expected = ["UNK"] + [w for w, _ in collections.Counter(words).most_common(7)]
    assert (log_dir / "metadata.tsv").read_text().split("\n")[:-1] == expected
    config = text_format.Parse((log_dir / "projector_config.pbtxt").read_text(), ProjectorConfig())
    assert [(e.tensor_name, e.metadata_path) for e in config.embeddings] == [
        ("embeddings/Variable:0", str(log_dir / "metadata.tsv"))]
    assert list(log_dir.glob("events.out.tfevents.*")) and (log_dir / "model.ckpt.index").exists()


@pytest.mark.timeout(240)
def test_seqgan_while_loop_and_moved_internal_ops(tmp_path: Path) -> None:
    import pickle
    xs = [1.0, 2.0, -1.0, 0.5, 3.0]
    decay = 0.5
    with open(tmp_path / "params.pkl", "wb") as f:
        pickle.dump({"decay": decay, "xs": xs}, f, protocol=2)
    out = succeeded(run_script(SEQGAN, str(tmp_path / "params.pkl"), cwd=tmp_path))
    hidden, h = [], 0.0
    for x in xs:  # h_t = decay * h_{t-1} + x_t, from h = 0
        h = decay * h + x
        hidden.append(h)
    printed = [float(v) for v in re.search(r"^hidden: (.*)$", out, re.MULTILINE).group(1).split()]  # type: ignore[union-attr]
    np.testing.assert_allclose(printed, hidden, atol=1e-5)
    assert f"last: {hidden[-1]:.5f}" in out
    squares = " ".join(f"{x * x:.1f}" for x in xs)
    assert f"squares: {squares}" in out and f"unstacked: {squares}" in out
    assert f"cond True: {sum(xs):.1f}" in out and f"cond False: {max(xs):.1f}" in out
    assert "case 0: 10.0" in out and "case 1: 20.0" in out and "case 2: 30.0" in out


@pytest.mark.timeout(240)
def test_plain_python_fails(tmp_path: Path) -> None:
    data = write_sentences(tmp_path)
    result = run_script(TEXT_CNN / "train_vocab.py", f"--data_file={data}", cwd=tmp_path, runner=False)
    assert result.returncode != 0
    np.savez(tmp_path / "data.npz", points=np.zeros((3, 2)), labels=np.zeros(3, int), start=np.zeros((1, 2)))
    result = run_script(KMEANS, str(tmp_path / "data.npz"), "1", cwd=tmp_path, runner=False)
    assert result.returncode != 0
    (tmp_path / "text.txt").write_text("a b c a b c")
    result = run_script(WORD2VEC, str(tmp_path / "text.txt"), str(tmp_path / "log"), cwd=tmp_path, runner=False)
    assert result.returncode != 0
    result = run_script(SEQGAN, str(tmp_path / "text.txt"), cwd=tmp_path, runner=False)
    assert result.returncode != 0
