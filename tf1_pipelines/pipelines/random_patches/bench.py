"""Seed 002's benchmark cases: the answer's graph (repeating), the floor (read +
decode of one image per step, standing for its 100 patches), the uniform face
with and without a seed.

Internals are imported inside each case, as the harness always did: discovery
stays cheap, and each case's first-batch latency still includes what it imports
in the process that measures it.
"""
from __future__ import annotations

from typing import Any

from tf1_pipelines.bench.cases import (
    FLOOR_PARALLEL_CALLS,
    SEED_CASE,
    Case,
    PipelineBench,
    floor_case,
    megabytes,
    one_shot,
    pipeline_factory,
    session_case,
    tensorflow,
)

PATCHES_BATCH = 10       # the answer's
# Declared memory on the embedded photographs (10, the largest 1411 x 1411 x 3): per
# parallel call (4) the decoded image (uint8, and float32 where the graph converts
# the whole image first, as the answer's parse_fn) and its 100 patches of 32 x 32 x 3
# float32; the shuffle buffer of 5,000 patches; batches handed over and prefetched.
_PHOTO = 1411 * 1411 * 3
_PATCH = 32 * 32 * 3 * 4
_CROPS = 100 * _PATCH
_SHUFFLE = 5000 * _PATCH
_SEED_MB = megabytes(4 * (_PHOTO * 5 + _CROPS), _SHUFFLE, 4 * PATCHES_BATCH * _PATCH)
_GATHER_MB = megabytes(4 * (_PHOTO + 2 * _CROPS), _SHUFFLE, 4 * PATCHES_BATCH * _PATCH)
_FLOOR_MB = megabytes(4 * _PHOTO * 5, (1 + 3) * _PHOTO * 4)


def _patch_files() -> list[str]:
    from .records import list_image_files
    from .sample import photographs_dir
    return list_image_files(photographs_dir())


def _patches_seed(scale: int) -> Case:
    """The answer's graph (``make_patch_batches``: 100 ``random_crop`` ops per image,
    unbatch, shuffle 5000, batch 10, prefetch 1, one-shot iterator), repeating
    instead of one pass so that it never ends."""
    from .graph import patches_dataset
    files = _patch_files()
    return session_case(lambda: one_shot(patches_dataset(files, num_epochs=None)),
                        declared_mb=_SEED_MB)


def _patches_floor(scale: int) -> Case:
    """Read + parse (``parse_fn``: read, decode, to float32) of one image per step,
    which stands for the 100 patches the pipeline cuts from it: the rate the
    pipeline would reach if cropping, shuffling and batching were free. Its MB/s
    counts the decoded images."""
    tf1 = tensorflow().compat.v1
    from .legacy import NUM_PATCHES, parse_fn
    files = _patch_files()

    def build() -> Any:
        dataset = tf1.data.Dataset.from_tensor_slices(files).repeat() \
            .map(parse_fn, num_parallel_calls=FLOOR_PARALLEL_CALLS).prefetch(1)
        return one_shot(dataset)
    return floor_case(build, declared_mb=_FLOOR_MB, examples=lambda value: NUM_PATCHES)


BENCH = PipelineBench(PATCHES_BATCH, {
    SEED_CASE: _patches_seed,
    "floor (read+decode, per image)": _patches_floor,
    "dataset one_shot": pipeline_factory("random_patches", declared_mb=_GATHER_MB,
                                         batch_size=PATCHES_BATCH, num_epochs=None),
    "dataset seeded (gather crops)": pipeline_factory(
        "random_patches", declared_mb=_GATHER_MB, batch_size=PATCHES_BATCH, num_epochs=None,
        seed=1),
}, floor="floor (read+decode, per image)", prepare=_patch_files)
