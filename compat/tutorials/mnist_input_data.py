"""The MNIST reader of TensorFlow 1.x tutorials, reading local files only.

Old scripts say ``from tensorflow.examples.tutorials.mnist import input_data``
and ``mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)`` (the
same reader is ``tensorflow.contrib.learn.python.learn.datasets.mnist``). Under
the compat runner both names are this module. It behaves as TensorFlow 1.x's
reader did once its four files were downloaded:

* the four gzipped IDX files are read from ``train_dir``; the first
  ``validation_size`` training examples become the validation set;
* :class:`DataSet` reshapes images to ``[n, rows * cols]`` (``reshape=True``)
  and, for ``dtype=float32``, scales them by ``1 / 255`` in float32;
* ``DataSet(..., seed=s)`` seeds NumPy's global generator with ``s`` (as the
  original did through ``random_seed.get_seed``), and :meth:`DataSet.next_batch`
  shuffles the first epoch and reshuffles at each epoch boundary, the batch
  that crosses it made of the rest of the old epoch and the start of the new.

Nothing is downloaded: a missing file raises :class:`FileNotFoundError`
naming the four files and the folder to put them in. Importing this module
imports NumPy only.
"""
from __future__ import annotations

import collections
import gzip
import os
from typing import IO, Any

import numpy as np

__all__ = [
    "DEFAULT_SOURCE_URL",
    "MNIST_FILES",
    "DataSet",
    "Dataset",
    "Datasets",
    "dense_to_one_hot",
    "extract_images",
    "extract_labels",
    "load_mnist",
    "read_data_sets",
]

#: Where the original reader downloaded from (the runner never does).
DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"

TRAIN_IMAGES = "train-images-idx3-ubyte.gz"
TRAIN_LABELS = "train-labels-idx1-ubyte.gz"
TEST_IMAGES = "t10k-images-idx3-ubyte.gz"
TEST_LABELS = "t10k-labels-idx1-ubyte.gz"
#: The four files ``read_data_sets`` needs, in the order it reads them.
MNIST_FILES: tuple[str, ...] = (TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS)

_IMAGES_MAGIC = 2051
_LABELS_MAGIC = 2049

#: ``base.Datasets`` of tf.contrib.learn: the three splits.
Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])
#: ``base.Dataset`` of tf.contrib.learn: data and target arrays.
Dataset = collections.namedtuple("Dataset", ["data", "target"])


def _read32(stream: gzip.GzipFile | IO[bytes], what: str) -> int:
    raw = stream.read(4)
    if len(raw) != 4:
        raise ValueError(f"MNIST file {what} ends inside its header")
    return int(np.frombuffer(raw, dtype=">u4")[0])


def _read_exact(stream: gzip.GzipFile | IO[bytes], count: int, what: str) -> bytes:
    data = stream.read(count)
    if len(data) != count:
        raise ValueError(f"MNIST file {what} is truncated: expected {count} bytes of data, got {len(data)}")
    return data


def extract_images(f: IO[bytes]) -> np.ndarray:
    """The images of a gzipped IDX image file as a uint8 array ``[index, rows, cols, 1]``.

    Prints ``Extracting <name>`` as the original did.

    Raises:
        ValueError: the file does not start with the magic number 2051, or is truncated.
    """
    name = getattr(f, "name", "<stream>")
    print("Extracting", name)
    with gzip.GzipFile(fileobj=f) as stream:
        magic = _read32(stream, name)
        if magic != _IMAGES_MAGIC:
            raise ValueError(f"Invalid magic number {magic} in MNIST image file: {name}")
        count, rows, cols = (_read32(stream, name) for _ in range(3))
        data = np.frombuffer(_read_exact(stream, rows * cols * count, name), dtype=np.uint8)
        return data.reshape(count, rows, cols, 1)


def dense_to_one_hot(labels_dense: np.ndarray, num_classes: int) -> np.ndarray:
    """One-hot float64 rows ``[num_labels, num_classes]`` for integer labels."""
    num_labels = labels_dense.shape[0]
    one_hot = np.zeros((num_labels, num_classes))
    one_hot.flat[np.arange(num_labels) * num_classes + labels_dense.ravel()] = 1
    return one_hot


def extract_labels(f: IO[bytes], one_hot: bool = False, num_classes: int = 10) -> np.ndarray:
    """The labels of a gzipped IDX label file: uint8 ``[index]``, or one-hot float64 rows.

    Prints ``Extracting <name>`` as the original did.

    Raises:
        ValueError: the file does not start with the magic number 2049, or is truncated.
    """
    name = getattr(f, "name", "<stream>")
    print("Extracting", name)
    with gzip.GzipFile(fileobj=f) as stream:
        magic = _read32(stream, name)
        if magic != _LABELS_MAGIC:
            raise ValueError(f"Invalid magic number {magic} in MNIST label file: {name}")
        count = _read32(stream, name)
        labels = np.frombuffer(_read_exact(stream, count, name), dtype=np.uint8)
        return dense_to_one_hot(labels, num_classes) if one_hot else labels


def _dtype_name(dtype: Any) -> str:
    """``"uint8"`` or ``"float32"`` for a TensorFlow or NumPy dtype (or its name)."""
    name = getattr(dtype, "name", None)
    if not isinstance(name, str):
        try:
            name = np.dtype(dtype).name
        except TypeError:
            name = repr(dtype)
    name = name.removesuffix("_ref")
    if name not in ("uint8", "float32"):
        raise TypeError(f"Invalid image dtype {dtype!r}, expected uint8 or float32")
    return name


def _seed_numpy(seed: int | None) -> None:
    """Seed NumPy's global generator as the original did: ``seed`` if given, else the graph seed.

    The original called ``random_seed.get_seed(seed)`` and seeded NumPy with the
    op seed when one was given, else with the graph-level seed (None, i.e. fresh
    entropy, when that is unset too).
    """
    if seed is not None:
        np.random.seed(seed)
        return
    import sys
    tf = sys.modules.get("tensorflow")
    graph_seed = None
    if tf is not None:
        graph_seed, _ = tf.compat.v1.get_seed(None)
    np.random.seed(graph_seed)


class DataSet:
    """One split of MNIST with the TensorFlow 1.x tutorial's batching.

    Args:
        images: uint8 ``[n, rows, cols, 1]`` (or already flat when ``reshape`` is false).
        labels: ``[n]`` integers or ``[n, classes]`` one-hot rows.
        fake_data: a 10000-example stand-in whose batches are all ones / class 0.
        one_hot: the label form of fake batches.
        dtype: ``float32`` (scaled to [0, 1]) or ``uint8`` (left as is).
        reshape: flatten each image to ``rows * cols`` values (needs one channel).
        seed: seeds NumPy's global generator, as the original did.

    Raises:
        TypeError: ``dtype`` is neither uint8 nor float32.
        ValueError: images and labels differ in length, or ``reshape`` with more than one channel.
    """

    def __init__(self, images: Any, labels: Any, fake_data: bool = False, one_hot: bool = False,
                 dtype: Any = "float32", reshape: bool = True, seed: int | None = None) -> None:
        _seed_numpy(seed)
        dtype_name = _dtype_name(dtype)
        if fake_data:
            self._num_examples = 10000
            self.one_hot = one_hot
        else:
            if images.shape[0] != labels.shape[0]:
                raise ValueError(f"DataSet: images and labels differ in length: images.shape: "
                                 f"{images.shape} labels.shape: {labels.shape}")
            self._num_examples = images.shape[0]
            if reshape:
                if images.ndim != 4 or images.shape[3] != 1:
                    raise ValueError(f"DataSet: reshape=True needs images of shape [n, rows, cols, 1], "
                                     f"got {images.shape}; pass reshape=False to keep them")
                images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
            if dtype_name == "float32":
                # float32 times a Python float stays float32, as in the original.
                images = np.multiply(images.astype(np.float32), 1.0 / 255.0)
        self._images = images
        self._labels = labels
        self._epochs_completed = 0
        self._index_in_epoch = 0

    @property
    def images(self) -> Any:
        """The images, in the current (shuffled) order."""
        return self._images

    @property
    def labels(self) -> Any:
        """The labels, in the same order as :attr:`images`."""
        return self._labels

    @property
    def num_examples(self) -> int:
        """How many examples this split has."""
        return self._num_examples

    @property
    def epochs_completed(self) -> int:
        """How many epochs :meth:`next_batch` has finished."""
        return self._epochs_completed

    def _permute(self) -> None:
        perm = np.arange(self._num_examples)
        np.random.shuffle(perm)
        self._images = self._images[perm]
        self._labels = self._labels[perm]

    def next_batch(self, batch_size: int, fake_data: bool = False, shuffle: bool = True) -> tuple[Any, Any]:
        """The next ``batch_size`` examples as ``(images, labels)``.

        The first call shuffles (when ``shuffle``); a batch that runs past the
        end takes the rest of the epoch, reshuffles, and fills up from the new
        epoch's start.
        """
        if fake_data:
            fake_image = [1] * 784
            fake_label: Any = [1] + [0] * 9 if self.one_hot else 0
            return [fake_image for _ in range(batch_size)], [fake_label for _ in range(batch_size)]
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            self._permute()
        if start + batch_size > self._num_examples:
            self._epochs_completed += 1
            rest = self._num_examples - start
            images_rest = self._images[start:self._num_examples]
            labels_rest = self._labels[start:self._num_examples]
            if shuffle:
                self._permute()
            self._index_in_epoch = batch_size - rest
            end = self._index_in_epoch
            return (np.concatenate((images_rest, self._images[0:end]), axis=0),
                    np.concatenate((labels_rest, self._labels[0:end]), axis=0))
        self._index_in_epoch += batch_size
        end = self._index_in_epoch
        return self._images[start:end], self._labels[start:end]


def _missing_message(train_dir: str, missing: list[str]) -> str:
    return (f"MNIST file(s) {', '.join(missing)} not found in {os.path.abspath(train_dir)!r}. "
            f"The compat runner does not download; put the four files {', '.join(MNIST_FILES)} "
            f"(from {DEFAULT_SOURCE_URL} or http://yann.lecun.com/exdb/mnist/) in that folder, "
            "or use tf.keras.datasets.mnist.load_data()")


def _open_all(train_dir: str) -> list[str]:
    paths = [os.path.join(train_dir, name) for name in MNIST_FILES]
    missing = [name for name, path in zip(MNIST_FILES, paths) if not os.path.isfile(path)]
    if missing:
        raise FileNotFoundError(_missing_message(train_dir, missing))
    return paths


def read_data_sets(train_dir: str, fake_data: bool = False, one_hot: bool = False, dtype: Any = "float32",
                   reshape: bool = True, validation_size: int = 5000, seed: int | None = None,
                   source_url: str = DEFAULT_SOURCE_URL) -> Datasets:
    """``Datasets(train, validation, test)`` from the four MNIST files in ``train_dir``.

    ``source_url`` is accepted and ignored: nothing is downloaded.

    Raises:
        FileNotFoundError: a file is missing (the message names the four files and the folder).
        ValueError: ``validation_size`` is not between 0 and the number of training examples.
    """
    del source_url  # the runner never downloads
    if fake_data:
        def fake() -> DataSet:
            return DataSet(np.zeros(0), np.zeros(0), fake_data=True, one_hot=one_hot, dtype=dtype, seed=seed)
        return Datasets(train=fake(), validation=fake(), test=fake())
    paths = _open_all(str(train_dir))
    with open(paths[0], "rb") as f:
        train_images = extract_images(f)
    with open(paths[1], "rb") as f:
        train_labels = extract_labels(f, one_hot=one_hot)
    with open(paths[2], "rb") as f:
        test_images = extract_images(f)
    with open(paths[3], "rb") as f:
        test_labels = extract_labels(f, one_hot=one_hot)
    if not 0 <= validation_size <= len(train_images):
        raise ValueError(f"Validation size should be between 0 and {len(train_images)}. "
                         f"Received: {validation_size}.")
    options = dict(dtype=dtype, reshape=reshape, seed=seed)
    train = DataSet(train_images[validation_size:], train_labels[validation_size:], **options)
    validation = DataSet(train_images[:validation_size], train_labels[:validation_size], **options)
    test = DataSet(test_images, test_labels, **options)
    return Datasets(train=train, validation=validation, test=test)


def load_mnist(train_dir: str = "MNIST-data") -> Datasets:
    """``read_data_sets(train_dir)`` with the defaults (``tf.contrib.learn.datasets.load_dataset('mnist')``)."""
    return read_data_sets(train_dir)
