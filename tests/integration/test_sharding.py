"""num_shards / shard_index: the union of every shard's epoch is one epoch exactly,
file-level where there are enough files, record-level otherwise; bad values and
readers that cannot split records are refused."""
from __future__ import annotations

import collections

import numpy as np
import pytest
from epoch_keys import ARRAYS, EPOCHS, epoch_keys

import tf1_pipelines as tp
from tf1_pipelines.errors import ConfigError
from tf1_pipelines.inputs.distribute import Distribution

pytestmark = pytest.mark.timeout(120)


def union_of_shards(name: str, num_shards: int, **options: object) -> collections.Counter[str]:
    union: collections.Counter[str] = collections.Counter()
    for index in range(num_shards):
        union.update(epoch_keys(name, num_shards=num_shards, shard_index=index, **options))
    return union


@pytest.mark.parametrize("name", ["constant", "voc_segmentation", "inception_multilabel",
                                  "div2k_sr"])
def test_three_shards_make_one_epoch(name: str) -> None:
    whole = epoch_keys(name)
    assert sum(whole.values()) > 3
    assert union_of_shards(name, 3) == whole


def test_record_level_when_files_are_fewer_than_shards() -> None:
    # The embedded inception data has 4 files: 5 shards split each file's records.
    whole = epoch_keys("inception_multilabel")
    parts = [epoch_keys("inception_multilabel", num_shards=5, shard_index=i) for i in range(5)]
    assert sum(parts, collections.Counter()) == whole
    assert all(parts), "every record-level shard holds records"


def test_file_level_or_record_level() -> None:
    files = [f"f{i}" for i in range(4)]
    by_file = Distribution.checked(num_shards=3, shard_index=1)
    assert by_file.shard_files(files) == ["f1"] and by_file.record_shard(4) == (1, 0)
    by_record = Distribution.checked(num_shards=5, shard_index=2)
    assert by_record.shard_files(files) == files and by_record.record_shard(4) == (5, 2)
    assert Distribution.checked().shard_files(files) == files


def test_random_patches_shards_split_images_and_patches() -> None:
    whole = sum(epoch_keys("random_patches").values())
    assert whole == 6 * 10  # 10 embedded photographs x num_patches
    assert sum(union_of_shards("random_patches", 3).values()) == whole           # by file
    # 12 shards > 10 files: by patch, shard k keeps patches k, k + 12, ... of each image's 6.
    assert sum(epoch_keys("random_patches", num_shards=12, shard_index=5).values()) == 10


def test_feeding_rows_are_split() -> None:
    rows = []
    for index in range(3):
        with tp.load_pipeline("feeding", arrays=ARRAYS, batch_size=5, num_epochs=1,
                              num_shards=3, shard_index=index) as pipe:
            rows.extend(int(x) for batch in pipe for x in batch.x)
    assert sorted(rows) == list(range(40))


def test_stylegan_lod_record_level_shards() -> None:
    def images(**options: object) -> collections.Counter[bytes]:
        with tp.load_pipeline("stylegan_lod", repeat=False, batch_size=4, lod=3,
                              **options) as pipe:
            return collections.Counter(np.ascontiguousarray(img).tobytes()
                                       for batch in pipe for img in batch.images)
    whole = images()
    parts = [images(num_shards=3, shard_index=i) for i in range(3)]
    assert sum(whole.values()) > 3 and sum(parts, collections.Counter()) == whole


def test_queue_backend_shards_the_filename_list() -> None:
    options = dict(EPOCHS["voc_segmentation"][0], backend="queue", record_shards=3)
    rows = collections.Counter[str]()
    for index in range(3):
        rows.update(epoch_keys("voc_segmentation", **dict(options, num_shards=3,
                                                          shard_index=index)))
    assert rows == epoch_keys("voc_segmentation")
    with pytest.raises(ConfigError, match="num_shards 3 needs at least as many record files, "
                                          "got 1.*backend='dataset'"):
        tp.load_pipeline("voc_segmentation", backend="queue", num_shards=3)


@pytest.mark.parametrize("options, message", [
    (dict(num_shards=0), "num_shards must be a whole number >= 1, got 0"),
    (dict(num_shards=3, shard_index=3), "shard_index must be a whole number from 0 to 2, got 3"),
    (dict(num_shards=2.0), "num_shards must be a whole number >= 1, got 2.0"),
    (dict(service="localhost:5000"), "service must look like 'grpc://host:port'"),
    (dict(service="grpc://localhost:1", processing_mode="dynamic"),
     "processing_mode must be one of"),
    (dict(job_name="shared"), "job_name 'shared' needs service="),
    (dict(num_shard=2), "unknown option 'num_shard'; did you mean 'num_shards'"),
])
def test_bad_distribution_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        tp.load_pipeline("constant", **options)
