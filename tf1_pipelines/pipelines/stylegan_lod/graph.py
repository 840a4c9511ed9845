"""Seed 001's TF1 graph under the original names: the record parsers
(:func:`parse_tfrecord_tf`, and :func:`parse_tfrecord_batch` for a whole batch),
the checks of the reader's options, the stand-ins for the parts of StyleGAN2's
``dnnlib.tflib`` that ``training/dataset.py`` uses (``run``,
``create_var_with_large_initial_value``, ``get_obj_by_name``), and that file's
:class:`TFRecordDataset` (per-LOD datasets behind one reinitializable iterator)
and :func:`load_dataset`."""
from __future__ import annotations

import importlib
import os
import warnings
import weakref
from typing import Any

import numpy as np
import tensorflow as tf

from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.options import check_positive_int
from tf1_pipelines.runtime.quiet_tf1 import quiet_tf1

from .records import (
    BufferMemoryWarning,
    DatasetLayout,
    find_bad_record,
    inspect_tfrecord_dir,
    parse_tfrecord_np,
)

tf1 = tf.compat.v1


# ---------------------------------------------------------------------------- parsing
def parse_tfrecord_tf(record: tf.Tensor) -> tf.Tensor:
    """One serialized record -> uint8 tensor of rank 3 (CHW), in the graph."""
    features = tf1.parse_single_example(record, features={
        "shape": tf1.FixedLenFeature([3], tf.int64),
        "data": tf1.FixedLenFeature([], tf.string)})
    data = tf1.decode_raw(features["data"], tf.uint8)
    return tf.reshape(data, features["shape"])


def parse_tfrecord_batch(records: tf.Tensor) -> tf.Tensor:
    """Serialized records [B] of one shape -> uint8 [B, C, H, W]: what
    ``parse_tfrecord_tf`` and ``batch`` give together, in four ops. Records whose
    data differ in length fail (InvalidArgumentError), as batching their images
    would; records of equal length are given the first record's shape."""
    features = tf1.parse_example(records, features={
        "shape": tf1.FixedLenFeature([3], tf.int64),
        "data": tf1.FixedLenFeature([], tf.string)})
    data = tf.io.decode_raw(features["data"], tf.uint8)
    return tf.reshape(data, tf.concat([[-1], features["shape"][0]], axis=0))


# ---------------------------------------------------------------------- reader options
def check_reader_options(repeat: bool, shuffle_mb: int, prefetch_mb: int, buffer_mb: int,
                         num_threads: int) -> None:
    """ConfigError for option values the original would have failed on later."""
    for name, value in (("shuffle_mb", shuffle_mb), ("prefetch_mb", prefetch_mb),
                        ("buffer_mb", buffer_mb)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ConfigError(f"{name} must be a whole number of megabytes >= 0, got {value!r}")
    check_positive_int("num_threads", num_threads)
    if not isinstance(repeat, (bool, np.bool_)):
        raise ConfigError(f"repeat must be True or False, got {repeat!r}")


def memory_available_bytes() -> int | None:
    """Memory available to new allocations (Linux ``MemAvailable``), or None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def buffer_items(megabytes: int, bytes_per_item: int) -> int:
    """How many items a buffer of ``megabytes`` holds, rounded up (the original's formula)."""
    return int(((megabytes << 20) - 1) // bytes_per_item + 1)


def warn_if_buffers_too_big(layout: DatasetLayout, shuffle_mb: int, prefetch_mb: int) -> None:
    """BufferMemoryWarning when the LOD-0 shuffle and prefetch buffers could take more
    than half of the available memory (each holds at most one epoch of images)."""
    # Through the package, so that replacing stylegan_lod.memory_available_bytes
    # takes effect here.
    from tf1_pipelines.pipelines import stylegan_lod
    available = stylegan_lod.memory_available_bytes()
    if available is None:
        return
    item = int(np.prod(layout.shape_for(0)))
    data_set = item * layout.num_images
    need = sum(min(buffer_items(mb, item) * item, data_set)
               for mb in (shuffle_mb, prefetch_mb) if mb > 0)
    if need > available // 2:
        warnings.warn(f"shuffle_mb={shuffle_mb} and prefetch_mb={prefetch_mb} could hold "
                      f"{need >> 20} MB of LOD-0 images, more than half of the "
                      f"{available >> 20} MB of memory available; lower them (0 disables)",
                      BufferMemoryWarning, stacklevel=3)


# ------------------------------------------------------------------------------ tflib
def _default_session_for(graph: tf.Graph | None, what: str) -> Any:
    sess = tf1.get_default_session()
    if sess is None:
        raise RuntimeError(f"No default TensorFlow session found for {what}: run it inside "
                           "`with tf.compat.v1.Session().as_default():` (the original called "
                           "dnnlib.tflib.init_tf() first)")
    if graph is not None and sess.graph is not graph:
        raise RuntimeError(f"the default session runs another graph than the one {what} was "
                           "built in; make a session on that graph the default")
    return sess


def run(*args: Any, **kwargs: Any) -> Any:
    """``tflib.run``: run the given fetches in the default session."""
    return _default_session_for(None, "tflib.run").run(*args, **kwargs)


def create_var_with_large_initial_value(initial_value: np.ndarray, *args: Any,
                                        **kwargs: Any) -> tf.Variable:
    """A ``tf.Variable`` holding ``initial_value`` without a constant of that size in the
    graph: its initializer takes the value from Python (``tf.numpy_function``), so
    any initializer run (ours, the user's, ``global_variables_initializer``) loads
    it. As ``tflib`` did, the value is set at once when a default session on this
    graph exists."""
    return _large_value_variable(initial_value, True, *args, **kwargs)


def _large_value_variable(value: np.ndarray, load_now: bool, *args: Any,
                          **kwargs: Any) -> tf.Variable:
    if not isinstance(value, np.ndarray):
        raise TypeError(f"initial_value must be a numpy array, got {type(value).__name__}")
    loaded = tf.numpy_function(lambda: value, [], tf.as_dtype(value.dtype), name="initial_value")
    loaded.set_shape(value.shape)
    var = tf1.Variable(loaded, *args, **kwargs)
    sess = tf1.get_default_session()
    if load_now and sess is not None and sess.graph is var.graph:
        sess.run(var.initializer)
    return var


def get_obj_by_name(name: str) -> Any:
    """``dnnlib.util.get_obj_by_name``: the object at a dotted ``module.attr`` path,
    importing the longest module prefix that exists."""
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:split])
        try:
            obj: Any = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and not module_name.startswith(exc.name):
                raise  # the module exists but one of its imports does not
            continue
        try:
            for attr in parts[split:]:
                obj = getattr(obj, attr)
        except AttributeError as exc:
            raise ImportError(f"{module_name!r} has no {'.'.join(parts[split:])!r}") from exc
        return obj
    raise ImportError(f"cannot find {name!r}: no importable module prefix")


# ---------------------------------------------------------------------------- dataset
READ_BUFFER_CAP_MB = 4  # buffer_mb above this reads the same records, only slower


def _fixed_pipeline_options() -> tf.data.Options:
    """Options that run a dataset as written: no graph rewrites, no autotuning."""
    options = tf.data.Options()
    options.experimental_optimization.apply_default_optimizations = False
    options.autotune.enabled = False
    return options


class TFRecordDataset:
    """Loads a multi-resolution data set from its tfrecords files, as StyleGAN2 did.

    Each LOD gets a dataset read -> zip labels -> shuffle (``shuffle_mb`` of
    images) -> repeat -> prefetch (``prefetch_mb``) -> batch (the ``minibatch_in``
    placeholder) -> parse (``num_threads`` batches at once), which serves what the
    original's read -> parse -> zip -> ... -> batch served; one reinitializable
    iterator serves them all, switched by :meth:`configure`. Images are uint8
    [B, C, H, W] in 0..255; labels float32 [B, label_size].

    Arguments: ``resolution`` (None: autodetect; a lower power of two ignores the
    larger files), ``label_file`` (None: the first ``*.labels``; a relative name is
    looked up in ``tfrecord_dir``), ``max_label_size`` (0: no labels, 'full': all
    components, N: the first N), ``max_images`` (None: all), ``repeat``,
    ``shuffle_mb`` (0: no shuffling), ``prefetch_mb`` (0: no prefetching),
    ``buffer_mb`` (read buffer), ``num_threads`` (parallel parsing).
    """

    #: (num_shards, shard_index) given to :meth:`from_layout`; (1, 0) keeps every image.
    _shard: tuple[int, int] = (1, 0)

    def __init__(self, tfrecord_dir: str, resolution: int | None = None,
                 label_file: str | None = None, max_label_size: int | str = 0,
                 max_images: int | None = None, repeat: bool = True, shuffle_mb: int = 4096,
                 prefetch_mb: int = 2048, buffer_mb: int = 256, num_threads: int = 2) -> None:
        check_reader_options(repeat, shuffle_mb, prefetch_mb, buffer_mb, num_threads)
        layout = inspect_tfrecord_dir(tfrecord_dir, resolution, label_file, max_label_size,
                                      max_images)
        warn_if_buffers_too_big(layout, shuffle_mb, prefetch_mb)
        if tf.executing_eagerly():
            raise RuntimeError("TFRecordDataset builds TF1 graph tensors: create it inside "
                               "`with tf.Graph().as_default():` (or after "
                               "tf.compat.v1.disable_eager_execution()), as StyleGAN2 did")
        self._setup(layout, repeat, shuffle_mb, prefetch_mb, buffer_mb, num_threads)

    @classmethod
    def from_layout(cls, layout: DatasetLayout,
                    repeat: bool = True, shuffle_mb: int = 4096, prefetch_mb: int = 2048,
                    buffer_mb: int = 256, num_threads: int = 2,
                    minibatch_in: tf.Tensor | None = None,
                    shard: tuple[int, int] = (1, 0),
                    seed: int | None = None) -> TFRecordDataset:
        """Build the graph side for an already inspected directory (no file reads,
        no session use); ``minibatch_in`` replaces the int64 [] batch-size placeholder;
        ``shard=(n, k)`` keeps images ``k, k + n, ...`` of each LOD (and their labels);
        ``seed`` fixes the shuffles (None: fresh each run, as the original)."""
        check_reader_options(repeat, shuffle_mb, prefetch_mb, buffer_mb, num_threads)
        dataset = cls.__new__(cls)
        dataset._shard = shard
        dataset._setup(layout, repeat, shuffle_mb, prefetch_mb, buffer_mb, num_threads,
                       minibatch_in, load_labels_now=False, seed=seed)
        return dataset

    @quiet_tf1
    def _setup(self, layout: DatasetLayout, repeat: bool, shuffle_mb: int, prefetch_mb: int,
               buffer_mb: int, num_threads: int, minibatch_in: tf.Tensor | None = None,
               load_labels_now: bool = True, seed: int | None = None) -> None:
        self.layout = layout
        self._seed = seed
        self.tfrecord_dir = layout.tfrecord_dir
        self.resolution = layout.resolution
        self.resolution_log2 = layout.resolution_log2
        self.shape = list(layout.shape)  # [channels, height, width]
        self.dtype = "uint8"
        self.dynamic_range = [0, 255]
        self.label_file = layout.label_file
        self._np_labels = layout.labels
        self.label_size = self._np_labels.shape[1]
        self.label_dtype = self._np_labels.dtype.name
        self._tf_datasets: dict[int, tf.data.Dataset] = {}
        self._tf_minibatch_np: Any = None
        self._cur_minibatch = -1
        self._cur_lod = -1
        self._graph = tf1.get_default_graph()
        self._labels_ready: weakref.WeakSet[Any] = weakref.WeakSet()
        with tf.name_scope("Dataset"), tf.device("/cpu:0"):
            self._tf_minibatch_in = minibatch_in if minibatch_in is not None else \
                tf1.placeholder(tf.int64, name="minibatch_in", shape=[])
            self._tf_labels_var = _large_value_variable(
                self._np_labels, load_now=load_labels_now, name="labels_var", trainable=False)
            if self.label_size > 0:
                self._tf_labels_dataset = tf.data.Dataset.from_tensor_slices(self._tf_labels_var)
            else:
                # The original sliced its [1<<30, 0] variable; today's TensorSliceDataset
                # spends seconds per initialisation on 2**30 rows. An endless empty row
                # zips with the images the same way.
                self._tf_labels_dataset = tf.data.Dataset.from_tensors(
                    tf.zeros([0], self._np_labels.dtype)).repeat()
            for tfr_file, tfr_shape, tfr_lod in zip(layout.files, layout.shapes, layout.lods):
                self._tf_datasets[tfr_lod] = self._lod_dataset(
                    tfr_file, tfr_shape, layout.max_images, repeat, shuffle_mb, prefetch_mb,
                    buffer_mb, num_threads)
            self._tf_iterator = tf1.data.Iterator.from_structure(
                tf1.data.get_output_types(self._tf_datasets[0]),
                tf1.data.get_output_shapes(self._tf_datasets[0]))
            self._tf_init_ops = {lod: self._tf_iterator.make_initializer(dset)
                                 for lod, dset in self._tf_datasets.items()}

    def _lod_dataset(self, tfr_file: str, tfr_shape: tuple[int, ...], max_images: int | None,
                     repeat: bool, shuffle_mb: int, prefetch_mb: int, buffer_mb: int,
                     num_threads: int) -> tf.data.Dataset:
        """The original's chain with the same data, done cheaper (docs/divergences.md):

        * the read buffer is at most ``READ_BUFFER_CAP_MB`` (4) and the file's size: it
          is allocated anew for every pass over the file, and bigger buffers (fresh
          pages every epoch) cost more than the reads gained; the records are the same;
        * records are shuffled, prefetched and batched still serialized, and each
          batch is parsed at once (``num_threads`` batches in parallel): parsing is
          deterministic, so this serves what parse -> shuffle -> batch served;
        * tf.data's graph rewrites and autotuning are off: every buffer and thread
          count is given, and rewriting the chain at every initialisation made
          configure() take tens of milliseconds;
        * the shuffle and prefetch buffers hold at most one epoch of images: a bigger
          shuffle buffer shuffles the same way, but today's ShuffleDataset allocates
          all its slots up front (2 GB of slots for 4x4 images at shuffle_mb=4096,
          seconds per configure()), and a prefetch buffer after repeat() would loop
          over the data until it held prefetch_mb of images (44 million 4x4 images).
        """
        read_buffer = min(min(buffer_mb, READ_BUFFER_CAP_MB) << 20, os.path.getsize(tfr_file))
        dset = tf1.data.TFRecordDataset(tfr_file, compression_type="", buffer_size=read_buffer)
        if max_images is not None:
            dset = dset.take(max_images)
        dset = tf1.data.Dataset.zip((dset, self._tf_labels_dataset))
        num_shards, shard_index = self._shard
        if num_shards > 1:  # before the shuffle: the same images every epoch
            dset = dset.shard(num_shards, shard_index)
        bytes_per_item = int(np.prod(tfr_shape)) * np.dtype(self.dtype).itemsize
        epoch = self.layout.num_images if max_images is None else \
            min(self.layout.num_images, max_images)
        if shuffle_mb > 0:
            dset = dset.shuffle(max(1, min(buffer_items(shuffle_mb, bytes_per_item), epoch)),
                                seed=self._seed)
        if repeat:
            dset = dset.repeat()
        if prefetch_mb > 0:
            dset = dset.prefetch(max(1, min(buffer_items(prefetch_mb, bytes_per_item), epoch)))
        dset = dset.batch(self._tf_minibatch_in)
        dset = dset.map(lambda records, labels: (parse_tfrecord_batch(records), labels),
                        num_parallel_calls=num_threads)
        return dset.with_options(_fixed_pipeline_options())

    @property
    def lods(self) -> list[int]:
        """The levels of detail this data set can serve, 0 = full resolution."""
        return sorted(self._tf_datasets)

    def initializer_for(self, lod: int) -> tf.Operation:
        """The iterator initializer of LOD ``lod`` (feeds ``minibatch_in``); what
        :meth:`configure` runs, for a caller that runs it in its own session."""
        return self._tf_init_ops[lod]

    def close(self) -> None:
        """Nothing to release (as the original)."""

    def check_configuration(self, minibatch_size: Any, lod: Any = 0) -> tuple[int, int]:
        """``(minibatch_size, int(np.floor(lod)))``, or ConfigError naming the valid LODs."""
        minibatch_size = check_positive_int("minibatch_size", minibatch_size)
        try:
            lod = int(np.floor(lod))
        except (TypeError, ValueError, OverflowError):
            raise ConfigError(f"lod must be a number, got {lod!r}; valid LODs: {self.lods}") \
                from None
        if lod not in self._tf_datasets:
            raise ConfigError(f"lod {lod} does not exist in {self.tfrecord_dir!r}; valid LODs: "
                              f"{self.lods} (0 = {self.resolution}x{self.resolution})")
        return minibatch_size, lod

    def configure(self, minibatch_size: int, lod: float = 0) -> None:
        """Serve minibatches of ``minibatch_size`` at LOD ``floor(lod)`` from
        :meth:`get_minibatch_tf`; re-initialises the iterator (restarting that LOD's
        data) in the default session only when either changed."""
        minibatch_size, lod = self.check_configuration(minibatch_size, lod)
        if self._cur_minibatch != minibatch_size or self._cur_lod != lod:
            sess = _default_session_for(self._graph, "TFRecordDataset.configure")
            self.ensure_labels_loaded(sess)
            sess.run(self._tf_init_ops[lod], {self._tf_minibatch_in: minibatch_size})
            self._cur_minibatch = minibatch_size
            self._cur_lod = lod

    def ensure_labels_loaded(self, sess: Any) -> None:
        """Initialise the labels variable in ``sess`` if nothing has yet."""
        if sess in self._labels_ready:
            return
        with self._graph.as_default():
            ready = sess.run(tf1.is_variable_initialized(self._tf_labels_var))
        if not ready:
            sess.run(self._tf_labels_var.initializer)
        self._labels_ready.add(sess)

    def get_minibatch_tf(self) -> tuple[tf.Tensor, tf.Tensor]:
        """``(images, labels)`` tensors: uint8 [B, C, H, W] and label_dtype [B, label_size]."""
        with self._graph.as_default():
            return self._tf_iterator.get_next()

    def get_minibatch_np(self, minibatch_size: int,
                         lod: float = 0) -> tuple[np.ndarray, np.ndarray]:
        """The next minibatch as numpy arrays, run in the default session. Raises
        OutOfRangeError at the end of a non-repeating data set, as the original."""
        self.configure(minibatch_size, lod)
        with self._graph.as_default(), tf.name_scope("Dataset"):
            if self._tf_minibatch_np is None:
                self._tf_minibatch_np = self.get_minibatch_tf()
        try:
            return run(self._tf_minibatch_np)
        except tf.errors.OutOfRangeError:
            raise
        except tf.errors.OpError as exc:
            found = self.explain_error(self._cur_lod)
            if found is not None:
                raise found from exc
            raise

    def explain_error(self, lod: int) -> DataError | None:
        """A DataError naming the bad record of ``lod``'s file, if one is bad."""
        return find_bad_record(self.layout.file_for(lod), self.layout.shape_for(lod))

    def get_random_labels_tf(self, minibatch_size: int | tf.Tensor) -> tf.Tensor:
        """Labels of random images as a tensor [minibatch_size, label_size]."""
        with self._graph.as_default(), tf.name_scope("Dataset"):
            if self.label_size > 0:
                with tf.device("/cpu:0"):
                    return tf.gather(self._tf_labels_var, tf1.random_uniform(
                        [minibatch_size], 0, self._np_labels.shape[0], dtype=tf.int32))
            return tf.zeros([minibatch_size, 0], self.label_dtype)

    def get_random_labels_np(self, minibatch_size: int) -> np.ndarray:
        """Labels of random images (numpy's global RNG) [minibatch_size, label_size]."""
        if self.label_size > 0:
            return self._np_labels[np.random.randint(self._np_labels.shape[0],
                                                     size=[minibatch_size])]
        return np.zeros([minibatch_size, 0], self.label_dtype)

    parse_tfrecord_tf = staticmethod(parse_tfrecord_tf)
    parse_tfrecord_np = staticmethod(parse_tfrecord_np)



def load_dataset(class_name: str | None = None, data_dir: str | None = None,
                 verbose: bool = False, **kwargs: Any) -> Any:
    """Construct a dataset object by class name (default: :class:`TFRecordDataset`
    when ``tfrecord_dir`` is given), joining ``data_dir`` and ``tfrecord_dir``."""
    kwargs = dict(kwargs)
    if "tfrecord_dir" in kwargs:
        if class_name is None:
            class_name = __package__ + ".TFRecordDataset"
        if data_dir is not None:
            kwargs["tfrecord_dir"] = os.path.join(data_dir, kwargs["tfrecord_dir"])
    if class_name is None:
        raise ConfigError("load_dataset needs class_name or tfrecord_dir, got neither")
    if verbose:
        print("Streaming data using %s..." % class_name)
    dataset = get_obj_by_name(class_name)(**kwargs)
    if verbose:
        print("Dataset shape =", np.int32(dataset.shape).tolist())
        print("Dynamic range =", dataset.dynamic_range)
        print("Label size    =", dataset.label_size)
    return dataset
