"""Old teaching notebooks of our own, run unchanged both ways: ``python -m compat run NB.ipynb`` and
the installed ``tf1-compat`` kernel under nbclient.

The five notebooks in ``notebooks/`` next to this file are written in the style of
2016-2018 TensorFlow 1 teaching material: a Python 2 letter classifier with a
``feed_dict`` loop and ``cPickle``, MNIST through ``input_data.read_data_sets``
with ``%matplotlib inline``, a CSV queue reader with a ``Coordinator``, a
character LSTM (``tf.nn.rnn_cell``, ``dynamic_rnn``) and the ``tf.data`` iterators.
Each runs in a temporary copy of its folder; the values it prints are checked
against NumPy re-computations of the same data and training. The kernel is
installed into a temporary prefix and found by nbclient through ``JUPYTER_PATH``.
"""
from __future__ import annotations

import gzip
import math
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import nbformat
import numpy as np
import pytest

NOTEBOOKS = Path(__file__).resolve().parent / "notebooks"
TIMEOUT = 240
CELL_TIMEOUT = 120
MNIST_SEED = 3


def env() -> dict[str, str]:
    """The subprocesses' environment: TensorFlow quiet, no GPU, the inline plotting backend."""
    environ = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    environ.pop("MPLBACKEND", None)
    return environ


def stdout_text(notebook: nbformat.NotebookNode) -> str:
    """Everything the notebook's cells printed to stdout, in order."""
    return "".join(output.get("text", "") for cell in notebook.cells if cell.cell_type == "code"
                   for output in cell.get("outputs", [])
                   if output.get("output_type") == "stream" and output.get("name") == "stdout")


def first_float(pattern: str, text: str) -> float:
    match = re.search(pattern, text, re.MULTILINE)
    assert match is not None, f"no line matches {pattern!r} in:\n{text}"
    return float(match.group(1))


# --------------------------------------------------------------------------
# Independent computations
# --------------------------------------------------------------------------

def softmax_xent_gd(x: np.ndarray, y: np.ndarray, lr: float, steps: list[tuple[int, int]]
                    ) -> tuple[list[float], np.ndarray, np.ndarray]:
    """Softmax regression from zero weights, one gradient step per (start, stop) slice of ``x``.

    Returns the loss before each step (float64 mean cross entropy) and the final W, b.
    """
    w = np.zeros((x.shape[1], y.shape[1]))
    b = np.zeros(y.shape[1])
    losses = []
    for start, stop in steps:
        xb, yb = x[start:stop].astype(np.float64), y[start:stop]
        logits = xb @ w + b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        losses.append(float(-(yb * np.log(p)).sum(axis=1).mean()))
        grad = (p - yb) / len(xb)
        w -= lr * xb.T @ grad
        b -= lr * grad.sum(axis=0)
    return losses, w, b


def letters(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The letter images the notMNIST-style notebook makes, computed here again."""
    rng = np.random.RandomState(seed)
    patterns = np.random.RandomState(1234).rand(10, 28, 28) > 0.7
    labels = np.arange(count) % 10
    pixels = patterns[labels] * 160 + rng.randint(0, 90, size=(count, 28, 28))
    return ((pixels - 127.5) / 255.0).astype(np.float32), labels


def one_hot(labels: np.ndarray) -> np.ndarray:
    return (np.arange(10) == labels[:, None]).astype(np.float32)


def check_notmnist(text: str, _: Path) -> None:
    assert "Training set (200, 28, 28) (200,)" in text
    assert "Reloaded 200 training images" in text
    assert "Batches per epoch: 3" in text  # Python 2's 200 / 64
    train, train_labels = letters(200, 0)
    test, test_labels = letters(50, 1)
    x, y = train.reshape(200, -1), one_hot(train_labels)
    slices = [((s * 64) % (200 - 64), (s * 64) % (200 - 64) + 64) for s in range(31)]
    losses, w, b = softmax_xent_gd(x, y, 0.5, slices)
    for step in (0, 10, 20, 30):
        printed = first_float(rf"^Minibatch loss at step {step}: ([\d.]+)", text)
        assert printed == pytest.approx(losses[step], rel=2e-3, abs=2e-4), step
    accuracy = 100.0 * np.mean((test.reshape(50, -1) @ w + b).argmax(1) == test_labels)
    assert first_float(r"^Test accuracy: ([\d.]+)%", text) == pytest.approx(accuracy, abs=2.01)


def mnist_arrays() -> dict[str, np.ndarray]:
    """Tiny MNIST: 300 training (the first 100 become validation) and 50 test images of class patterns."""
    rng = np.random.RandomState(MNIST_SEED)
    patterns = rng.rand(10, 28, 28) > 0.75
    arrays = {}
    for split, count in (("train", 300), ("t10k", 50)):
        labels = rng.randint(0, 10, count).astype(np.uint8)
        images = (patterns[labels] * 200 + rng.randint(0, 56, (count, 28, 28))).astype(np.uint8)
        images[0, 0, 0] = 255
        arrays[f"{split}-images"], arrays[f"{split}-labels"] = images, labels
    return arrays


def write_mnist(folder: Path) -> None:
    """The four gzipped IDX files of :func:`mnist_arrays` in ``folder``."""
    folder.mkdir()
    for name, array in mnist_arrays().items():
        magic = 2051 if name.endswith("images") else 2049
        kind = "idx3" if name.endswith("images") else "idx1"
        with gzip.open(folder / f"{name}-{kind}-ubyte.gz", "wb") as stream:
            stream.write(np.array([magic, *array.shape], dtype=">u4").tobytes() + array.tobytes())


def check_mnist(text: str, _: Path) -> None:
    arrays = mnist_arrays()
    assert "train 200 validation 100 test 50" in text
    assert "image shape (200, 784) max pixel 1.0" in text
    assert f"first label {arrays['train-labels'][100]}" in text
    assert "batch (50, 784) (50, 10)" in text
    x = (arrays["train-images"][100:].reshape(200, -1) / np.float32(255)).astype(np.float32)
    losses, w, b = softmax_xent_gd(x, one_hot(arrays["train-labels"][100:]), 0.05, [(0, 200)] * 10)
    for step in (0, 3, 6, 9):
        assert first_float(rf"^step {step} loss ([\d.]+)", text) == pytest.approx(losses[step], rel=1e-3)
    test_x = arrays["t10k-images"].reshape(50, -1) / 255.0
    accuracy = np.mean((test_x @ w + b).argmax(1) == arrays["t10k-labels"])
    assert first_float(r"^test accuracy ([\d.]+)", text) == pytest.approx(accuracy, abs=0.021)


def check_queue(text: str, _: Path) -> None:
    rows = np.arange(15)
    assert "Done training -- epoch limit reached" in text
    assert f"batches {math.ceil(len(rows) / 4)}" in text
    assert f"records {len(rows)}" in text
    assert first_float(r"^feature sum ([\d.]+)", text) == pytest.approx(float((rows + rows * 0.5).sum()))
    assert f"label sum {int((rows % 3).sum())}" in text


def check_lstm(text: str, _: Path) -> None:
    corpus = ("the cat sat on the mat and the dog sat on the log "
              "then the cat and the dog ran to the park ") * 4
    vocabulary = len(set(corpus))
    assert f"text length {len(corpus)}" in text
    assert f"vocabulary size {vocabulary}" in text
    first = first_float(r"^first loss ([\d.]+)", text)
    assert first == pytest.approx(math.log(vocabulary), abs=0.1)  # small weights: near-uniform predictions
    assert first_float(r"^last loss ([\d.]+)", text) < 0.6 * first


def check_tfdata(text: str, _: Path) -> None:
    features = np.arange(20, dtype=np.float32).reshape(10, 2) * 2
    labels = np.arange(10) % 3 + 1
    assert f"first element {features[0]} {labels[0]}" in text
    assert "batch size 3 batches [3, 3, 3, 1]" in text
    assert "batch size 4 batches [4, 4, 2]" in text
    assert f"training examples 20 feature sum {2 * features.sum():.1f}" in text
    chosen = labels == 2
    assert f"validation examples {chosen.sum()} feature sum {features[chosen].sum():.1f}" in text


CHECKS: dict[str, Callable[[str, Path], None]] = {
    "notmnist_feed_dict_py2": check_notmnist,
    "mnist_input_data": check_mnist,
    "queue_reader": check_queue,
    "lstm_text": check_lstm,
    "tfdata_iterator": check_tfdata,
}


# --------------------------------------------------------------------------
# The two ways of running a notebook
# --------------------------------------------------------------------------

def workdir(tmp_path: Path, name: str) -> Path:
    """A copy of the notebook in a fresh folder, with the MNIST files where the MNIST notebook wants them."""
    shutil.copy(NOTEBOOKS / f"{name}.ipynb", tmp_path / f"{name}.ipynb")
    if name == "mnist_input_data":
        write_mnist(tmp_path / "MNIST_data")
    return tmp_path / f"{name}.ipynb"


def run_compat(notebook: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "compat", "run", str(notebook), *args], cwd=notebook.parent,
                          env=env(), capture_output=True, text=True, timeout=TIMEOUT)


@pytest.fixture(scope="module")
def kernel_prefix(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A prefix with the tf1-compat kernel installed by ``python -m compat kernel install --prefix``."""
    prefix = tmp_path_factory.mktemp("prefix")
    done = subprocess.run([sys.executable, "-m", "compat", "kernel", "install", "--prefix", str(prefix)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (prefix / "share" / "jupyter" / "kernels" / "tf1-compat" / "kernel.json").is_file()
    return prefix


@pytest.mark.timeout(TIMEOUT)
@pytest.mark.parametrize("name", sorted(CHECKS))
def test_notebook_under_compat_run(name: str, tmp_path: Path) -> None:
    notebook = workdir(tmp_path, name)
    before = notebook.read_bytes()
    executed = tmp_path / "out" / "executed.ipynb"
    executed.parent.mkdir()
    result = run_compat(notebook, "--output", str(executed), "--timeout", str(CELL_TIMEOUT))
    assert result.returncode == 0, result.stderr[-4000:]
    assert notebook.read_bytes() == before
    text = stdout_text(nbformat.read(executed, as_version=4))
    CHECKS[name](text, tmp_path)
    echoed = result.stdout.splitlines()
    assert [line for line in echoed if line in text.splitlines()] == text.splitlines()  # echoed in order


@pytest.mark.timeout(TIMEOUT)
@pytest.mark.parametrize("name", sorted(CHECKS))
def test_notebook_under_installed_kernel(name: str, tmp_path: Path, kernel_prefix: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from jupyter_client.kernelspec import KernelSpecManager
    from nbclient import NotebookClient
    monkeypatch.setenv("JUPYTER_PATH", str(kernel_prefix / "share" / "jupyter"))
    assert "tf1-compat" in KernelSpecManager().find_kernel_specs()
    notebook = nbformat.read(workdir(tmp_path, name), as_version=4)
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="tf1-compat",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute(env=env())
    CHECKS[name](stdout_text(notebook), tmp_path)
    if name == "mnist_input_data":  # %matplotlib inline: the figure is in the notebook
        kinds = [set(output.get("data", {})) for cell in notebook.cells for output in cell.get("outputs", [])]
        assert any("image/png" in kind for kind in kinds)
