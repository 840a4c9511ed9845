"""Seed 000 behind the uniform API: :class:`Div2kPipeline`, its :class:`Batch` and
``FIELDS``."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np
import tensorflow as tf

from tf1_pipelines.data import sample_data
from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.fields import FieldSpec
from tf1_pipelines.image.colour import rgb2ycbcr
from tf1_pipelines.image.patches import check_image_header, list_images, random_patch, read_rgb
from tf1_pipelines.inputs.dataset import initializable
from tf1_pipelines.inputs.generator import GeneratorGuard
from tf1_pipelines.inputs.seeds import element_key, seeded
from tf1_pipelines.options import check_path, check_positive_int, check_seed, checked_options, choice_of, optional
from tf1_pipelines.pipeline import Pipeline
from tf1_pipelines.records.reader import list_record_files
from tf1_pipelines.records.verify import first_bad_record, first_record_error, require_records

from .graph import LR_HR_ANY, batched_lr_hr, parse_one_example, parse_patch_batch
from .legacy import LOADER_CHECKS, DataLoader
from .records import cached_records, patch_record_spec

tf1 = tf.compat.v1
BACKENDS = ("tfrecords", "generator")


class Batch(NamedTuple):
    """One batch of seed 000.

    lr: float32 [B, p/s, p/s, 1] (NHWC), bicubic 1/s of ``hr``, luma / 255, about 0..1
        (bicubic may overshoot a little; not clipped, as in the seed).
    hr: float32 [B, p, p, 1] (NHWC), luma Y (16..235) / 255.
    """

    lr: Any
    hr: Any


def _single_threaded_ops() -> tf.data.Options:
    """Each op of a map call on one thread: on a 2-core machine three whole-batch
    map calls in flight beat ops that split themselves (measured +10%)."""
    options = tf.data.Options()
    options.threading.max_intra_op_parallelism = 1
    return options


class Div2kPipeline(Pipeline):
    """Seed 000 behind the uniform API: ``Batch(lr, hr)`` (see :class:`Batch`).

    Options: ``data_dir`` (PNG folder; default: the embedded DIV2K-like photographs),
    ``tfrecord_dir`` (records from ``gen_tfrecords``; default: built from
    ``data_dir`` into a cache folder on first use), ``backend`` ('tfrecords' or
    'generator'), ``lr_method`` ('native': batched in-graph bicubic equal to PIL's
    within 1e-4 on 0..255; 'py_func': the seed's per-example PIL call), the seed's
    ``patch_size``, ``scale``, ``shuffle_num``, ``prefetch_num``,
    ``map_parallel_num``, ``one_img_patch_num``, ``tfrecord_num``; ``num_epochs``
    (None: repeat forever, as the seed; N: EndOfData after N epochs), ``seed``.
    As in the seed, batching comes before repeat, so the last batch of each epoch
    holds the remainder. ``configure(batch_size=...)`` restarts the epoch.
    ``num_shards``/``shard_index``: by record file, by record when the files are
    fewer than the shards (the generator backend: by patch of its stream);
    ``service=`` serves ``backend='tfrecords'`` with ``lr_method='native'`` only.
    """

    name = "div2k_sr"
    Batch = Batch
    # Luma 16..235 / 255; the bicubic LR may overshoot by a little (not clipped).
    FIELDS: dict[str, FieldSpec] = {
        "lr": FieldSpec("float32", (None, 24, 24, 1), "NHWC", (-0.1, 1.1)),
        "hr": FieldSpec("float32", (None, 96, 96, 1), "NHWC", (16 / 255, 235 / 255))}

    @checked_options(**LOADER_CHECKS, data_dir=optional(check_path), tfrecord_dir=optional(check_path),
                     backend=choice_of(*BACKENDS), tfrecord_num=check_positive_int,
                     num_epochs=optional(check_positive_int), seed=check_seed)
    def __init__(self, data_dir: str | None = None, tfrecord_dir: str | None = None,
                 backend: str = "tfrecords", batch_size: int = 64, lr_method: str = "native",
                 patch_size: int = 96, scale: int = 4, shuffle_num: int = 2000,
                 prefetch_num: int = 1000, map_parallel_num: int = 8,
                 one_img_patch_num: int = 100, tfrecord_num: int = 10,
                 num_epochs: int | None = None, seed: int | None = None,
                 **pipeline_options: Any) -> None:
        super().__init__(batch_size=batch_size, **pipeline_options)
        if backend not in BACKENDS:
            raise ConfigError(f"backend must be one of {BACKENDS}, got {backend!r}")
        if num_epochs is not None:
            check_positive_int("num_epochs", num_epochs)
        self.loader = DataLoader(data_dir or "", patch_size, scale, batch_size, shuffle_num,
                                 prefetch_num, map_parallel_num, one_img_patch_num, lr_method)
        self.backend, self.num_epochs, self.seed = backend, num_epochs, seed
        if backend == "generator" or lr_method == "py_func":  # see inputs.distribute
            self._distribution.refuse_service("a Python generator or py_func runs only in the "
                                              "process that defined it; use backend='tfrecords' "
                                              "with lr_method='native'")
        lr_size = patch_size // scale
        self.FIELDS = {"lr": FieldSpec("float32", (None, lr_size, lr_size, 1), "NHWC",
                                       (-0.1, 1.1)),
                       "hr": FieldSpec("float32", (None, patch_size, patch_size, 1), "NHWC",
                                       (16 / 255, 235 / 255))}
        self.tfrecord_files: list[str] = []
        self._guard: GeneratorGuard[Any] | None = None
        if backend == "tfrecords":
            self.tfrecord_files = self._record_files(data_dir, tfrecord_dir, tfrecord_num)
        else:
            self.loader.data_dir = data_dir or sample_data.div2k_like_dir()
            for png in list_images(self.loader.data_dir):  # fail now, not in a generator
                check_image_header(png, min_size=patch_size)

    def _record_files(self, data_dir: str | None, tfrecord_dir: str | None,
                      tfrecord_num: int) -> list[str]:
        if tfrecord_dir is None:
            tfrecord_dir = cached_records(data_dir, self.loader.patch_size, tfrecord_num)
        files = list_record_files(tfrecord_dir)
        require_records(files)
        # A wrong patch_size, a wrong layout or a cut header fails here, not in a graph.
        error = first_record_error(files, patch_record_spec(self.loader.patch_size))
        if error is not None:
            raise error
        return files

    def _build(self) -> tuple[Any, ...]:  # a Batch (the class attribute shadows the type)
        loader, p, s = self.loader, self.loader.patch_size, self.loader.scale
        batch_size = self._setting_placeholder("batch_size", tf.int64)
        if self.backend == "tfrecords" and loader.lr_method == "py_func":
            dataset = self._shard_records(tf1.data.TFRecordDataset)
            dataset = dataset.map(lambda x: parse_one_example(x, p, s, loader.lr_method),
                                  loader.map_parallel_num) \
                .shuffle(loader.shuffle_num, seed=self.seed).prefetch(loader.prefetch_num) \
                .batch(batch_size).repeat(self.num_epochs)
        elif self.backend == "tfrecords":
            # Shuffling serialized records is shuffling parsed patches (parsing is
            # deterministic); parsing, flips and the resize then run once a batch.
            dataset = self._shard_records(lambda f: tf1.data.TFRecordDataset(f, buffer_size=1 << 20)) \
                .shuffle(loader.shuffle_num, seed=self.seed).batch(batch_size) \
                .repeat(self.num_epochs).enumerate() \
                .map(lambda i, x: Batch(*batched_lr_hr(parse_patch_batch(x, p, tf.uint8), p, s, self.seed,
                                                       self._flip_key(i))),
                     num_parallel_calls=3) \
                .prefetch(max(1, loader.prefetch_num // max(1, self.batch_size))) \
                .with_options(_single_threaded_ops())
            dataset = self._distribute(seeded(dataset, self.seed))
        else:
            dataset = self._generator_dataset(batch_size)
        (lr, hr), initializer = initializable(dataset)
        self._add_iterator_initializer(initializer)
        return Batch(lr=tf.reshape(lr, [-1, p // s, p // s, 1]), hr=tf.reshape(hr, [-1, p, p, 1]))

    def _shard_records(self, reader: Any) -> tf.data.Dataset:
        """``reader(files)`` over this shard's record files (file-level), or its
        records of all files (record-level, before the shuffle)."""
        files = self._distribution.shard_files(self.tfrecord_files)
        return self._distribution.shard_records(len(self.tfrecord_files), reader(files))

    def _generator_dataset(self, batch_size: tf.Tensor) -> tf.data.Dataset:
        loader, p, s = self.loader, self.loader.patch_size, self.loader.scale
        rng = np.random.RandomState(self.seed)
        if loader.lr_method == "py_func":
            self._guard = GeneratorGuard(lambda guard: loader.get_generator(rng),
                                         f"{self.name} generator")
            dataset = tf1.data.Dataset.from_generator(self._guard, output_signature=LR_HR_ANY)
            dataset = self._distribution.shard_records(1, dataset)  # patches of one stream
            return dataset.shuffle(loader.shuffle_num, seed=self.seed) \
                .prefetch(loader.prefetch_num).batch(batch_size).repeat(self.num_epochs)

        def hr_only(guard: GeneratorGuard[np.ndarray]) -> Iterator[np.ndarray]:
            for img_path in list_images(loader.data_dir):
                guard.reading(img_path)
                img = read_rgb(img_path, min_size=p)
                for _ in range(loader.one_img_patch_num):
                    yield rgb2ycbcr(random_patch(img, p, rng))[:, :, 0].astype(np.float32)

        self._guard = GeneratorGuard(hr_only, f"{self.name} generator")
        dataset = tf1.data.Dataset.from_generator(
            self._guard, output_signature=tf.TensorSpec([p, p], tf.float32))
        dataset = self._distribution.shard_records(1, dataset)  # patches of one stream
        return dataset.shuffle(loader.shuffle_num, seed=self.seed) \
            .prefetch(loader.prefetch_num).batch(batch_size).repeat(self.num_epochs) \
            .enumerate().map(lambda i, hr: tuple(batched_lr_hr(hr, p, s, self.seed,
                                                               self._flip_key(i))))

    def _flip_key(self, index: tf.Tensor) -> tf.Tensor | None:
        """The stateless key of the flips of batch ``index`` (None without a seed)."""
        return None if self.seed is None else element_key(self.seed, index)

    def _deferred_error(self) -> DataError | None:
        # The generator backend's generator ends early on a bad image; this is why.
        return self._guard.error() if self._guard is not None else None

    def _explain_error(self, error: tf.errors.OpError) -> DataError | None:
        if self._guard is not None:
            return self._guard.error()
        return first_bad_record(self.tfrecord_files, patch_record_spec(self.loader.patch_size))
