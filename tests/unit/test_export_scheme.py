"""Export naming schemes (what a writer may remove, what it must refuse) and the
SIGTERM handler an open export installs."""
from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest

from tf1_pipelines.errors import DataError
from tf1_pipelines.pipelines.div2k_sr.records import SCHEME as DIV2K
from tf1_pipelines.pipelines.inception_multilabel.records import shard_scheme as inception_scheme
from tf1_pipelines.pipelines.stylegan_lod.records import export_scheme as stylegan_scheme
from tf1_pipelines.pipelines.voc_segmentation.records import shard_scheme as voc_scheme
from tf1_pipelines.records import interrupts, manifest
from tf1_pipelines.records.export import check_no_foreign_data, prepare_folder, remove_stale


@pytest.mark.parametrize("scheme, own, foreign, ignored", [
    (DIV2K, ["data0.tfrecords", "data12.tfrecords"],
     ["data_val.tfrecords", "data01.tfrecords", "x.tfrecords"], ["sample_num.txt", "data0.tfrecords.partial"]),
    (inception_scheme("train"), ["train-00000-of-00004"],
     ["train-labels.csv", "train-README.txt", "train-0-of-1"], ["validation-00000-of-00002", "labels.csv"]),
    (voc_scheme("pascal"), ["pascal.tfrecords", "pascal-00001-of-00002.tfrecords"],
     ["pascal_val.tfrecords", "other.tfrecords"], ["pascal.txt"]),
    (stylegan_scheme("ffhq"), ["ffhq-r02.tfrecords", "ffhq-r10.tfrecords", "ffhq-rxx.labels"],
     ["old-r02.tfrecords", "mine.labels", "ffhq-r2.tfrecords"], ["ffhq.png", "ffhq-r03.tfrecords.partial"]),
], ids=["div2k", "inception", "voc", "stylegan"])
def test_schemes_tell_own_foreign_and_ignored_files(scheme, own: list[str], foreign: list[str],
                                                    ignored: list[str]) -> None:
    assert [scheme.owns(name) for name in own] == [True] * len(own)
    assert [(scheme.owns(n), scheme.is_read_as_data(n)) for n in foreign] == [(False, True)] * len(foreign)
    assert [scheme.is_read_as_data(name) and not scheme.owns(name) for name in ignored] == \
        [False] * len(ignored)


def test_remove_stale_removes_only_the_schemes_files_that_are_ours(tmp_path: Path) -> None:
    for name in ["data0.tfrecords", "data1.tfrecords", "data2.tfrecords", "notes.txt",
                 "data2.tfrecords.partial", "data7.tfrecords"]:
        (tmp_path / name).write_text(name)
    # An earlier export wrote data0..data2; data7 fits the scheme but is the user's.
    manifest.record(str(tmp_path), [str(tmp_path / f"data{i}.tfrecords") for i in range(3)])
    removed = remove_stale(str(tmp_path), DIV2K, [str(tmp_path / "data0.tfrecords")])
    assert [os.path.basename(p) for p in removed] == ["data1.tfrecords", "data2.tfrecords"]
    assert sorted(os.listdir(tmp_path)) == [manifest.MANIFEST_NAME, "data0.tfrecords",
                                            "data2.tfrecords.partial", "data7.tfrecords",
                                            "notes.txt"]
    assert sorted(manifest.load(str(tmp_path))) == ["data0.tfrecords"]
    assert remove_stale(str(tmp_path), DIV2K, [], force=True)[-1].endswith("data7.tfrecords")


def test_foreign_data_is_named_and_kept(tmp_path: Path) -> None:
    (tmp_path / "data_val.tfrecords").write_text("mine")
    with pytest.raises(DataError, match="data_val.tfrecords"):
        check_no_foreign_data(str(tmp_path), DIV2K)
    assert (tmp_path / "data_val.tfrecords").read_text() == "mine"


def test_an_output_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(NotADirectoryError, match="is a file"):
        prepare_folder(str(tmp_path / "f"))


def test_sigterm_raises_while_held_and_the_handler_is_restored() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(interrupts.Terminated):
        with interrupts.sigterm_raises():
            with interrupts.sigterm_raises():  # nested exports share one handler
                pass
            assert signal.getsignal(signal.SIGTERM) is not before
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler runs between bytecodes
                pass
    assert signal.getsignal(signal.SIGTERM) is before
    results: list[bool] = []
    thread = threading.Thread(target=lambda: results.append(interrupts.hold()))
    thread.start()
    thread.join()
    assert results == [False] and signal.getsignal(signal.SIGTERM) is before
