"""Small one-epoch configurations of the pipelines and a key per record, for the
sharding and service tests: the multiset of keys over one epoch identifies the
records it held."""
from __future__ import annotations

import collections
import functools
import hashlib
from collections.abc import Callable
from typing import Any

import numpy as np

import tf1_pipelines as tp


def _digest(array: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(array).tobytes()).hexdigest()


def _rows_of(field: str) -> Callable[[Any], list[str]]:
    return lambda batch: [_digest(row) for row in getattr(batch, field)]


def _sorted_pixels(batch: Any) -> list[str]:
    # div2k_sr flips and rotates patches at random: the multiset of a patch's
    # pixels identifies it whatever the flip.
    return [_digest(np.sort(row.ravel())) for row in batch.hr]


def _filenames(batch: Any) -> list[str]:
    return [name.decode() for name in batch.filenames]


ARRAYS = {"x": np.arange(40, dtype=np.int64), "y": np.arange(80, dtype=np.float32).reshape(40, 2)}

#: pipeline -> (options for exactly one epoch, every record delivered; record key)
EPOCHS: dict[str, tuple[dict[str, Any], Callable[[Any], list[str]]]] = {
    "constant": (dict(arrays=ARRAYS, batch_size=7, train=True, num_epochs=1), _rows_of("x")),
    "voc_segmentation": (dict(backend="dataset", num_epochs=1, allow_smaller_final_batch=True,
                              batch_size=2, image_height=32, image_width=32), _rows_of("image")),
    "inception_multilabel": (dict(backend="dataset", num_epochs=1, batch_size=4, height=32,
                                  width=32, allow_smaller_final_batch=True, examples_per_shard=4,
                                  input_queue_memory_factor=1, num_preprocess_threads=4),
                             _filenames),
    "div2k_sr": (dict(num_epochs=1, batch_size=50, shuffle_num=64), _sorted_pixels),
    "random_patches": (dict(num_epochs=1, num_patches=6, seed=3), lambda b: ["patch"] * len(b[0])),
}


def epoch_keys(name: str, **options: Any) -> collections.Counter[str]:
    """The multiset of record keys of one epoch of ``name`` with ``options`` added
    (the local epoch without options is read once per test process)."""
    if not options:
        return collections.Counter(_local_epoch(name))
    return _read_epoch(name, **options)


@functools.cache
def _local_epoch(name: str) -> collections.Counter[str]:
    return _read_epoch(name)


def _read_epoch(name: str, **options: Any) -> collections.Counter[str]:
    base, key = EPOCHS[name]
    keys: collections.Counter[str] = collections.Counter()
    with tp.load_pipeline(name, **dict(base, **options)) as pipeline:
        for batch in pipeline:
            keys.update(key(batch))
    return keys
