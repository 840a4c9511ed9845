"""Removed modules old scripts import: the MNIST tutorial reader and model, scipy.ndimage.imread.

The reader is checked on tiny gzipped IDX files written here, against NumPy
computations of the same values and the same shuffling; the model against a
NumPy forward pass on its own initial weights.
"""
from __future__ import annotations

import gzip
import os
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers.scripts import compat_run, write
from PIL import Image

from compat.checker import check
from compat.runner import run as runner
from compat.scipy_legacy import misc as scipy_misc
from compat.scipy_legacy import ndimage as scipy_ndimage
from compat.tf1 import namespace as tf1
from compat.tutorials import legacy_modules, mnist_model
from compat.tutorials import mnist_input_data as mnist_tutorial

TIMEOUT = 150
ROWS, COLS = 4, 3


def write_idx(folder: Path, name: str, array: np.ndarray) -> None:
    magic = 2051 if array.ndim == 3 else 2049
    header = struct.pack(">I", magic) + b"".join(struct.pack(">I", n) for n in array.shape)
    with gzip.open(folder / name, "wb") as f:
        f.write(header + array.astype(np.uint8).tobytes())


def make_mnist(folder: Path, n_train: int = 10, n_test: int = 4) -> dict[str, np.ndarray]:
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(1)
    data = {
        "train_images": rng.randint(0, 256, size=(n_train, ROWS, COLS)).astype(np.uint8),
        "train_labels": np.arange(n_train, dtype=np.uint8) % 10,
        "test_images": rng.randint(0, 256, size=(n_test, ROWS, COLS)).astype(np.uint8),
        "test_labels": (np.arange(n_test, dtype=np.uint8) * 3) % 10,
    }
    write_idx(folder, "train-images-idx3-ubyte.gz", data["train_images"])
    write_idx(folder, "train-labels-idx1-ubyte.gz", data["train_labels"])
    write_idx(folder, "t10k-images-idx3-ubyte.gz", data["test_images"])
    write_idx(folder, "t10k-labels-idx1-ubyte.gz", data["test_labels"])
    return data


def scaled(images: np.ndarray) -> np.ndarray:
    return images.reshape(len(images), -1).astype(np.float32) * np.float32(1 / 255)


# --------------------------------------------------------------------------
# The reader
# --------------------------------------------------------------------------

def test_read_data_sets_values_split_and_one_hot(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    data = make_mnist(tmp_path)
    sets = mnist_tutorial.read_data_sets(str(tmp_path), one_hot=True, validation_size=3, seed=5)
    out = capsys.readouterr().out.splitlines()
    assert out == [f"Extracting {tmp_path / name}" for name in mnist_tutorial.MNIST_FILES]
    assert isinstance(sets, mnist_tutorial.Datasets)
    assert sets.train.images.dtype == np.float32 and sets.train.images.shape == (7, ROWS * COLS)
    np.testing.assert_array_equal(sets.validation.images, scaled(data["train_images"][:3]))
    np.testing.assert_array_equal(sets.train.images, scaled(data["train_images"][3:]))
    np.testing.assert_array_equal(sets.test.images, scaled(data["test_images"]))
    np.testing.assert_array_equal(sets.train.labels, np.eye(10)[data["train_labels"][3:]])
    assert sets.train.labels.dtype == np.float64
    assert (sets.train.num_examples, sets.validation.num_examples, sets.test.num_examples) == (7, 3, 4)
    assert sets.train.epochs_completed == 0


def test_uint8_unflattened_and_dense_labels(tmp_path: Path) -> None:
    data = make_mnist(tmp_path)
    sets = mnist_tutorial.read_data_sets(tmp_path, dtype="uint8", reshape=False, validation_size=0)
    np.testing.assert_array_equal(sets.train.images, data["train_images"][..., None])
    np.testing.assert_array_equal(sets.train.labels, data["train_labels"])
    assert sets.validation.num_examples == 0
    import tensorflow as tf
    assert mnist_tutorial.read_data_sets(tmp_path, dtype=tf.uint8, validation_size=2).test.images.dtype == np.uint8


def test_bad_arguments_and_files(tmp_path: Path) -> None:
    make_mnist(tmp_path)
    with pytest.raises(ValueError, match="Validation size should be between 0 and 10. Received: 11."):
        mnist_tutorial.read_data_sets(tmp_path, validation_size=11)
    with pytest.raises(TypeError, match="expected uint8 or float32"):
        mnist_tutorial.read_data_sets(tmp_path, dtype="float64", validation_size=2)
    write_idx(tmp_path, "t10k-labels-idx1-ubyte.gz", np.zeros((2, 2, 2), np.uint8))  # an image file
    with pytest.raises(ValueError, match="Invalid magic number 2051 in MNIST label file"):
        mnist_tutorial.read_data_sets(tmp_path, validation_size=2)
    with gzip.open(tmp_path / "t10k-labels-idx1-ubyte.gz", "wb") as f:
        f.write(struct.pack(">II", 2049, 5) + b"\x01\x02")
    with pytest.raises(ValueError, match="truncated"):
        mnist_tutorial.read_data_sets(tmp_path, validation_size=2)
    with pytest.raises(ValueError, match="differ in length"):
        mnist_tutorial.DataSet(np.zeros((3, 2, 2, 1), np.uint8), np.zeros(2))


def test_missing_files_are_named_with_the_folder(tmp_path: Path) -> None:
    (tmp_path / "MNIST_data").mkdir()
    with gzip.open(tmp_path / "MNIST_data" / "train-images-idx3-ubyte.gz", "wb") as f:
        f.write(b"")
    with pytest.raises(FileNotFoundError) as info:
        mnist_tutorial.read_data_sets(str(tmp_path / "MNIST_data"))
    message = str(info.value)
    assert "train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz not found" in message
    assert str(tmp_path / "MNIST_data") in message and "does not download" in message
    for name in mnist_tutorial.MNIST_FILES:
        assert name in message


def expected_batches(images: np.ndarray, seed: int, batch: int, count: int, shuffle: bool) -> list[np.ndarray]:
    """The original next_batch, computed independently on a private generator."""
    rng = np.random.RandomState(seed)
    order = images.copy()
    n = len(order)
    position, batches = 0, []
    if shuffle:
        order = order[_shuffled(rng, n)]
    for _ in range(count):
        if position + batch > n:
            rest = order[position:]
            if shuffle:
                order = order[_shuffled(rng, n)]
            position = batch - len(rest)
            batches.append(np.concatenate([rest, order[:position]]))
        else:
            batches.append(order[position:position + batch])
            position += batch
    return batches


def _shuffled(rng: np.random.RandomState, n: int) -> np.ndarray:
    perm = np.arange(n)
    rng.shuffle(perm)
    return perm


@pytest.mark.parametrize("shuffle", [True, False])
def test_next_batch_across_epochs(tmp_path: Path, shuffle: bool) -> None:
    data = make_mnist(tmp_path, n_train=12)
    sets = mnist_tutorial.read_data_sets(tmp_path, validation_size=5, seed=123)
    train = sets.train  # 7 examples; batches of 3 cross the epoch end at the 3rd batch
    expected = expected_batches(scaled(data["train_images"][5:]), 123, 3, 6, shuffle)
    epochs = []
    for want in expected:
        images, labels = train.next_batch(3, shuffle=shuffle)
        np.testing.assert_array_equal(images, want)
        # labels travel with their images
        for image, label in zip(images, labels):
            index = next(i for i, x in enumerate(scaled(data["train_images"])) if np.array_equal(x, image))
            assert label == data["train_labels"][index]
        epochs.append(train.epochs_completed)
    assert epochs == [0, 0, 1, 1, 2, 2]
    if not shuffle:
        np.testing.assert_array_equal(expected[2], scaled(data["train_images"][[11, 5, 6]]))


def test_fake_data_and_one_hot_helper() -> None:
    sets = mnist_tutorial.read_data_sets("", fake_data=True, one_hot=True)
    images, labels = sets.train.next_batch(2, fake_data=True)
    assert sets.train.num_examples == 10000
    assert images == [[1] * 784] * 2 and labels == [[1] + [0] * 9] * 2
    np.testing.assert_array_equal(mnist_tutorial.dense_to_one_hot(np.array([2, 0]), 3),
                                  [[0, 0, 1], [1, 0, 0]])


# --------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------

def test_mnist_model_matches_numpy_and_trains() -> None:
    import tensorflow as tf
    v1 = tf.compat.v1
    assert (mnist_model.NUM_CLASSES, mnist_model.IMAGE_SIZE, mnist_model.IMAGE_PIXELS) == (10, 28, 784)
    rng = np.random.RandomState(0)
    x = rng.rand(6, 784).astype(np.float32)
    y = rng.randint(0, 10, size=6).astype(np.int32)
    with tf.Graph().as_default():
        v1.set_random_seed(1)
        images = v1.placeholder(v1.float32, [None, 784])
        labels = v1.placeholder(v1.int32, [None])
        logits = mnist_model.inference(images, 8, 5)
        loss = mnist_model.loss(logits, labels)
        train_op = mnist_model.training(loss, 0.5)
        correct = mnist_model.evaluation(logits, labels)
        names = sorted(v.op.name for v in v1.global_variables())
        assert names == ["global_step", "hidden1/biases", "hidden1/weights", "hidden2/biases", "hidden2/weights",
                         "softmax_linear/biases", "softmax_linear/weights"]
        assert v1.get_collection(v1.GraphKeys.LOSSES) == [loss]
        assert len(v1.get_collection(v1.GraphKeys.SUMMARIES)) == 1
        weights = {v.op.name: v for v in v1.global_variables()}
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            w = sess.run(weights)
            feed = {images: x, labels: y}
            got_logits, got_loss, got_correct = sess.run([logits, loss, correct], feed)
            losses = [got_loss]
            for _ in range(20):
                sess.run(train_op, feed)
                losses.append(sess.run(loss, feed))
            assert sess.run(weights["global_step"]) == 20
    assert w["hidden1/weights"].shape == (784, 8) and np.abs(w["hidden1/weights"]).max() <= 2 / np.sqrt(784)
    assert not w["hidden1/biases"].any()
    h1 = np.maximum(x @ w["hidden1/weights"] + w["hidden1/biases"], 0)
    h2 = np.maximum(h1 @ w["hidden2/weights"] + w["hidden2/biases"], 0)
    want = h2 @ w["softmax_linear/weights"] + w["softmax_linear/biases"]
    np.testing.assert_allclose(got_logits, want, rtol=1e-5, atol=1e-6)
    log_softmax = want - np.log(np.exp(want).sum(1, keepdims=True))
    assert got_loss == pytest.approx(-log_softmax[np.arange(6), y].mean(), rel=1e-5)
    # in_top_k(..., 1) counts ties with the label's logit as hits
    assert got_correct == int(((want > want[np.arange(6), y][:, None]).sum(1) < 1).sum())
    assert losses[-1] < 0.9 * losses[0]


# --------------------------------------------------------------------------
# scipy.ndimage.imread, module serving, check
# --------------------------------------------------------------------------

def test_ndimage_imread_is_misc_imread(tmp_path: Path) -> None:
    rgb = np.random.RandomState(2).randint(0, 256, size=(5, 7, 3)).astype(np.uint8)
    Image.fromarray(rgb).save(tmp_path / "x.png")
    np.testing.assert_array_equal(scipy_ndimage.imread(tmp_path / "x.png"), rgb)
    for kwargs in ({"flatten": True}, {"mode": "L"}, {"mode": "RGBA"}):
        got = scipy_ndimage.imread(fname=str(tmp_path / "x.png"), **kwargs)
        want = scipy_misc.imread(str(tmp_path / "x.png"), **kwargs)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_install_serves_and_uninstall_removes(tmp_path: Path) -> None:
    import scipy.ndimage
    import tensorflow as tf
    assert not hasattr(scipy.ndimage, "imread")
    with runner.install(tmp_path):
        assert scipy.ndimage.imread is scipy_ndimage.imread
        import tensorflow.contrib.learn.python.learn.datasets.mnist as learn_mnist
        from tensorflow.contrib.learn.python.learn.datasets import base
        from tensorflow.examples.tutorials.mnist import input_data, mnist
        assert input_data is mnist_tutorial and mnist is mnist_model and learn_mnist is mnist_tutorial
        assert base.Datasets is mnist_tutorial.Datasets
        contrib = sys.modules["tensorflow.contrib"]
        assert contrib.learn.datasets.mnist is mnist_tutorial
        with pytest.raises(AttributeError, match=r"tf\.contrib\.learn\.DNNEstimator .*tf\.keras"):
            contrib.learn.DNNEstimator  # noqa: B018
        with pytest.raises(ImportError, match=r"tensorflow\.examples\.tutorials\.word2vec .*tf\.keras\.datasets"):
            import tensorflow.examples.tutorials.word2vec  # noqa: F401
    assert not hasattr(scipy.ndimage, "imread")
    assert "tensorflow.examples" not in sys.modules and "tensorflow.contrib.learn" not in sys.modules
    assert "examples" not in tf.__dict__


def test_check_reports_the_served_modules(tmp_path: Path) -> None:
    write(tmp_path / "tutorial.py", """
        import scipy.ndimage
        from scipy import ndimage
        from scipy.ndimage import imread
        import tensorflow as tf
        from tensorflow.examples.tutorials.mnist import input_data, mnist
        from tensorflow.contrib.learn.python.learn.datasets import mnist as learn_mnist
        data = tf.contrib.learn.datasets.mnist.read_data_sets("MNIST_data")
        a = scipy.ndimage.imread("x.png")
        b = ndimage.imread("x.png")
    """)
    report = check.check_script(tmp_path / "tutorial.py")
    assert report.ok, report.format()
    bridged = {(f.line, f.construct) for f in report.findings if f.status == "bridged"}
    assert {line for line, _ in bridged} == {3, 5, 6, 7, 8, 9}
    assert legacy_modules.describe("tensorflow.examples.tutorials.mnist.input_data.read_data_sets") is not None
    assert tf1.removed_module_message("tensorflow.examples.tutorials.mnist") is None


@pytest.mark.timeout(200)
def test_tutorial_script_runs_unchanged(tmp_path: Path) -> None:
    data = make_mnist(tmp_path / "MNIST_data", n_train=12)
    Image.fromarray(np.arange(12, dtype=np.uint8).reshape(3, 4)).save(tmp_path / "digit.png")
    script = write(tmp_path / "fully_connected.py", """
        import numpy as np
        import scipy.ndimage
        import tensorflow as tf
        from tensorflow.examples.tutorials.mnist import input_data, mnist
        from tensorflow.contrib.learn.python.learn.datasets import mnist as learn_mnist

        data_sets = input_data.read_data_sets("MNIST_data", one_hot=False, validation_size=2, seed=3)
        other = tf.contrib.learn.datasets.mnist.read_data_sets("MNIST_data", validation_size=2, seed=3)
        print("same", np.array_equal(data_sets.test.images, other.test.images), learn_mnist is input_data)
        images, labels = data_sets.train.next_batch(4)
        print("batch", images.shape, images.dtype, labels.tolist())
        print("pixels", mnist.IMAGE_PIXELS, "digit", scipy.ndimage.imread("digit.png").tolist())
        x = tf.placeholder(tf.float32, [None, 12])
        y = tf.placeholder(tf.int32, [None])
        w = tf.Variable(tf.zeros([12, mnist.NUM_CLASSES]))
        loss = mnist.loss(tf.matmul(x, w), y)
        train_op = mnist.training(loss, 0.1)
        with tf.Session() as sess:
            sess.run(tf.initialize_all_variables())
            first = sess.run(loss, {x: images, y: labels})
            for _ in range(5):
                sess.run(train_op, {x: images, y: labels})
            print("loss", "%.4f" % first, sess.run(loss, {x: images, y: labels}) < first)
    """)
    result = compat_run(script)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:4] == [f"Extracting MNIST_data/{name}" for name in mnist_tutorial.MNIST_FILES]
    assert lines[8] == "same True True"
    rng = np.random.RandomState(3)
    perm = np.arange(10)
    rng.shuffle(perm)
    assert lines[9] == f"batch (4, 12) float32 {data['train_labels'][2:][perm[:4]].tolist()}"
    assert lines[10] == f"pixels 784 digit {np.arange(12).reshape(3, 4).tolist()}"
    assert lines[11] == f"loss {np.log(10):.4f} True"


def test_missing_mnist_files_fail_with_the_file_names(tmp_path: Path) -> None:
    script = write(tmp_path / "train.py", """
        from tensorflow.examples.tutorials.mnist import input_data
        mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
    """)
    result = compat_run(script)
    assert result.returncode == 1
    assert "FileNotFoundError" in result.stderr and "does not download" in result.stderr
    for name in mnist_tutorial.MNIST_FILES:
        assert name in result.stderr
    assert "No module named" not in result.stderr


def test_dataset_seeds_numpy_like_the_original() -> None:
    import tensorflow as tf
    images, labels = np.zeros((2, 2, 2, 1), np.uint8), np.zeros(2)
    mnist_tutorial.DataSet(images, labels, seed=11)
    assert np.random.rand() == np.random.RandomState(11).rand()
    with tf.Graph().as_default():
        tf.compat.v1.set_random_seed(42)  # no op seed: the graph-level seed seeds NumPy
        mnist_tutorial.DataSet(images, labels)
        assert np.random.rand() == np.random.RandomState(42).rand()


def test_contrib_learn_load_dataset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_mnist(tmp_path / "MNIST-data")
    monkeypatch.chdir(tmp_path)
    datasets = tf1.contrib_modules()["tensorflow.contrib.learn.python.learn.datasets"]
    # The original's defaults: folder MNIST-data, validation_size=5000 (too many for this tiny set).
    with pytest.raises(ValueError, match="Validation size should be between 0 and 10. Received: 5000."):
        datasets.load_dataset("mnist")
    assert datasets.load_dataset("mnist", test_with_fake_data=True).train.num_examples == 10000
    assert datasets.load_dataset("iris").data.shape == (150, 4)  # compat.contrib._learn_datasets
    with pytest.raises(ValueError, match="no data set 'synthetic'"):
        datasets.load_dataset("synthetic")
    with pytest.raises(AttributeError, match=r"tf\.contrib\.learn\.datasets\.base\.load_libsvm"):
        datasets.base.load_libsvm  # noqa: B018


@pytest.mark.timeout(200)
def test_served_modules_survive_a_script_with_its_own_compat_package(tmp_path: Path) -> None:
    project = tmp_path / "project"
    make_mnist(project / "MNIST_data")
    Image.fromarray(np.full((2, 2), 7, np.uint8)).save(project / "dot.png")
    write(project / "compat" / "__init__.py", "MINE = 'own compat'\n")
    write(project / "run.py", """
        import os
        import compat
        from tensorflow.examples.tutorials.mnist import input_data
        import scipy.ndimage
        here = os.path.dirname(os.path.abspath(__file__))
        sets = input_data.read_data_sets(os.path.join(here, "MNIST_data"), validation_size=1)
        print(compat.MINE, sets.train.num_examples, scipy.ndimage.imread(os.path.join(here, "dot.png")).tolist())
    """)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    result = subprocess.run([sys.executable, "-m", "compat", "run", "project/run.py"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "own compat 9 [[7, 7], [7, 7]]"
