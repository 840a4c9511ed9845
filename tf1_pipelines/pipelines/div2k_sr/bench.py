"""Seed 000's benchmark cases: the seed's ``DataLoader.read_tfrecords``, the floors
(per-record and batched parse), the uniform face's backends and LR methods.

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
    CaseFactory,
    PipelineBench,
    floor_case,
    megabytes,
    one_shot,
    pipeline_case,
    session_case,
    tensorflow,
)

#: Batch size of the div2k_sr cases (the seed's).
BATCH = 64
# Declared memory: each buffer's capacity (the seed's shuffle_num 2000, prefetch_num
# 1000, map_parallel_num 8, or the case's own) times its element, at most the 565
# records of one epoch where the buffers sit before the repeat; plus the batches in
# flight: one being built, one handed over, one with the caller, and per batched map
# call its intermediate copies of the batch. An element is an HR patch (96 x 96
# float32) with its LR (24 x 24 float32); a record is 9,235 bytes.
_RECORDS = 565
_RECORD = 9235
_PAIR = (96 * 96 + 24 * 24) * 4
_HR = 96 * 96 * 4
_READ_BUFFER = 1 << 20
_HANDED = 3  # batches being built, handed over, with the caller
#: per-example formulations: shuffle + prefetch of parsed pairs (one epoch at most)
_PER_EXAMPLE_MB = megabytes(_READ_BUFFER, min(2000 + 1000, _RECORDS) * _PAIR, 8 * _PAIR,
                            _HANDED * BATCH * _PAIR)
#: the floors: a batch of records, the parse's copies (bytes, float, / 255), prefetch 4
_FLOOR_MB = megabytes(_READ_BUFFER, BATCH * _RECORD, (3 + 4 + _HANDED) * BATCH * _HR)
#: native: one epoch of records shuffled; 3 map calls, each with about 6 copies of
#: its batch (float, the four orientation parts, stitched, / 255); 1000 // 64 = 15
#: batches prefetched after the repeat
_NATIVE_MB = megabytes(_READ_BUFFER, _RECORDS * _RECORD, 3 * 6 * BATCH * _HR,
                       (15 + _HANDED) * BATCH * _PAIR)
#: the generator backend: one photograph decoded (the largest embedded one, 872 x
#: 1000 x 3, as float64 in the seed's colour conversion); 100 patches per photograph
#: of the 8 make an epoch
_PHOTO = 872 * 1000 * 3 * 8
_GENERATED = 8 * 100


def _div2k_records() -> str:
    """The embedded photographs' records, as ``load_pipeline("div2k_sr")`` uses them."""
    from .sample import sample_records_dir
    return sample_records_dir()


def _div2k_seed(scale: int) -> Case:
    """The seed's read_tfrecords: per-example py_func PIL resize, per-example flips."""
    from .legacy import DataLoader
    record_dir = _div2k_records()
    return session_case(lambda: DataLoader(batch_size=BATCH).read_tfrecords(record_dir),
                        declared_mb=_PER_EXAMPLE_MB)


def _div2k_per_example_native(scale: int) -> Case:
    """The seed's structure with the native resize in each map call."""
    from .legacy import DataLoader
    record_dir = _div2k_records()
    return session_case(
        lambda: DataLoader(batch_size=BATCH, lr_method="native").read_tfrecords(record_dir),
        declared_mb=_PER_EXAMPLE_MB)


def _div2k_floor(batched_parse: bool) -> CaseFactory:
    """Read + parse + batch only: no shuffle, no flips, no resize. The seed parses
    one record per map call; the batched floor parses a whole batch per call."""
    def make(scale: int) -> Case:
        tf = tensorflow()
        from tf1_pipelines.records.reader import list_record_files

        from .graph import parse_patch, parse_patch_batch
        files = list_record_files(_div2k_records())

        def build() -> Any:
            dataset = tf.compat.v1.data.TFRecordDataset(files, buffer_size=1 << 20).repeat()
            if batched_parse:
                dataset = dataset.batch(BATCH).map(lambda x: parse_patch_batch(x, 96) / 255.0)
            else:
                dataset = dataset.map(lambda x: parse_patch(x, 96) / 255.0, 8).batch(BATCH)
            return one_shot(dataset.prefetch(4))
        return floor_case(build, declared_mb=_FLOOR_MB)
    return make


def _declared(backend: str, lr_method: str) -> float:
    """The declared buffers of a uniform-face case, in MB."""
    if backend == "tfrecords":
        return _NATIVE_MB if lr_method == "native" else _PER_EXAMPLE_MB
    element = _HR if lr_method == "native" else _PAIR
    return megabytes(_PHOTO, min(2000 + 1000, _GENERATED) * element,
                     (6 + _HANDED) * BATCH * _PAIR)


def _div2k_pipeline(backend: str, lr_method: str) -> CaseFactory:
    def make(scale: int) -> Case:
        tfrecord_dir = _div2k_records() if backend == "tfrecords" else None
        return pipeline_case("div2k_sr", declared_mb=_declared(backend, lr_method),
                             backend=backend, lr_method=lr_method,
                             tfrecord_dir=tfrecord_dir, batch_size=BATCH)
    return make


BENCH = PipelineBench(BATCH, {
    SEED_CASE: _div2k_seed,
    FLOOR_CASE: _div2k_floor(batched_parse=False),
    "floor, batched parse": _div2k_floor(batched_parse=True),
    "tfrecords native": _div2k_pipeline("tfrecords", "native"),
    "tfrecords py_func": _div2k_pipeline("tfrecords", "py_func"),
    "per-example native": _div2k_per_example_native,
    "generator native": _div2k_pipeline("generator", "native"),
    "generator py_func": _div2k_pipeline("generator", "py_func"),
}, prepare=_div2k_records)
