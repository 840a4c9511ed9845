"""Seed 001's benchmark cases: the original ``TFRecordDataset`` read by
``get_minibatch_np`` in a default session, the floor (read + parse + batch of the
LOD-0 file), the uniform face.

Internals are imported inside each case, as the harness always did: discovery
stays cheap, and each case's first-batch latency still includes what it imports
in the process that measures it.
"""
from __future__ import annotations

from typing import Any

from tf1_pipelines.bench.cases import (
    FLOOR_CASE,
    SEED_CASE,
    Case,
    PipelineBench,
    floor_case,
    megabytes,
    one_shot,
    pipeline_factory,
    tensorflow,
)

STYLEGAN_BATCH = 32
# Declared buffers on the embedded LOD-0 file (20 images of 3 x 256 x 256 uint8):
# the read buffer (at most the file), the shuffle buffer (shuffle_mb 4096, but at
# most one epoch: it sits before the repeat), the prefetch (prefetch_mb 2048, after
# the repeat: the original's defaults, kept by the uniform face), 2 parsing threads
# (a record and its image each), batches being built, handed over and with the
# caller.
_IMAGE = 3 * 256 * 256
_LOD0_FILE = 20 * (_IMAGE + 60)
_IN_FLIGHT = (2 * 2 + 3 * STYLEGAN_BATCH) * _IMAGE
_SEED_MB = megabytes(_LOD0_FILE, 20 * _IMAGE, 2048 << 20, _IN_FLIGHT)
_FLOOR_MB = megabytes(_LOD0_FILE, _IN_FLIGHT)


def _stylegan_dir() -> str:
    from .sample import sample_tfrecord_dir
    return sample_tfrecord_dir()


def _stylegan_seed(scale: int) -> Case:
    """The seed: ``TFRecordDataset(tfrecord_dir)`` with the original's defaults, read by
    ``get_minibatch_np(32, lod=0)`` in a default session (as after ``tflib.init_tf``)."""
    tf = tensorflow()
    from .legacy import TFRecordDataset
    tfrecord_dir = _stylegan_dir()
    graph = tf.Graph()
    with graph.as_default():
        dataset = TFRecordDataset(tfrecord_dir)
    sess = tf.compat.v1.Session(graph=graph)
    default = sess.as_default()
    default.__enter__()

    def close() -> None:
        default.__exit__(None, None, None)
        sess.close()
    return Case(lambda: dataset.get_minibatch_np(STYLEGAN_BATCH, lod=0), close,
                declared_mb=_SEED_MB)


def _stylegan_floor(scale: int) -> Case:
    """Read + parse (``parse_tfrecord_tf``, 2 threads) + batch of the LOD-0 file."""
    tf1 = tensorflow().compat.v1
    from .graph import parse_tfrecord_tf
    from .records import inspect_tfrecord_dir
    lod0_file = inspect_tfrecord_dir(_stylegan_dir()).file_for(0)

    def build() -> Any:
        dataset = tf1.data.TFRecordDataset(lod0_file).repeat() \
            .map(parse_tfrecord_tf, num_parallel_calls=2).batch(STYLEGAN_BATCH)
        return one_shot(dataset)
    return floor_case(build, declared_mb=_FLOOR_MB)


BENCH = PipelineBench(STYLEGAN_BATCH, {
    SEED_CASE: _stylegan_seed,
    FLOOR_CASE: _stylegan_floor,
    "dataset (lod 0)": pipeline_factory("stylegan_lod", declared_mb=_SEED_MB,
                                        batch_size=STYLEGAN_BATCH, lod=0),
}, prepare=_stylegan_dir)
