"""Faults at random points of every writer: a bad image, a file error (a full disk),
Ctrl-C and SIGTERM, each after a random number of records.

Every case starts from a finished earlier export plus a file of the user's in the
folder, and asserts: the export ends in the expected outcome (the fault's own
exception, or ``ok`` when the fault point lies past the end), no ``.partial``
file is left, the user's file is untouched, and after a failure the folder is
byte for byte the earlier export.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import itertools
import os
import shutil
import signal
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
import tensorflow as tf
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from tf1_pipelines.errors import DataError
from tf1_pipelines.pipelines.div2k_sr import write_patch_records
from tf1_pipelines.pipelines.inception_multilabel import build_shards
from tf1_pipelines.pipelines.stylegan_lod import TFRecordExporter
from tf1_pipelines.pipelines.voc_segmentation import write_sharded_records
from tf1_pipelines.records.interrupts import Terminated

REAL_WRITER = tf.io.TFRecordWriter
FAULTS = ("none", "bad_image", "disk_full", "ctrl_c", "sigterm")
EXPECTED: dict[str, type[BaseException]] = {"bad_image": DataError, "disk_full": OSError,
                                            "ctrl_c": KeyboardInterrupt, "sigterm": Terminated}
GARBAGE = b"\x89PNG\r\n\x1a\n not really an image"


class Inputs:
    """One writer's inputs (built once per test) and how to run it into a folder."""

    def __init__(self, root: Path, writer: str) -> None:
        self.root, self.writer = root, writer
        rng = np.random.default_rng(7)
        self.items: list[Any] = []
        if writer == "div2k_sr":
            for index in range(3):
                path = root / f"{index}.png"
                Image.fromarray(rng.integers(0, 256, (192, 192, 3), dtype=np.uint8)).save(path)
                self.items.append(str(path))
        elif writer == "voc_segmentation":
            for index in range(4):
                img, mask = root / f"{index}.png", root / f"{index}_m.png"
                Image.fromarray(rng.integers(0, 256, (6, 6, 3), dtype=np.uint8)).save(img)
                Image.fromarray(rng.integers(0, 21, (6, 6), dtype=np.uint8), "L").save(mask)
                self.items.append((str(img), str(mask)))
        elif writer == "inception_multilabel":
            for index in range(4):
                name = f"img{index}.jpg"
                Image.fromarray(rng.integers(0, 256, (8, 8, 3), dtype=np.uint8)).save(root / name)
                self.items.append(name)
        else:
            self.items = list(rng.integers(0, 256, (4, 3, 8, 8), dtype=np.uint8))
        #: records written in all (4 patches per div2k image, 2 LODs per stylegan image)
        self.records = {"div2k_sr": 12, "stylegan_lod": 8}.get(writer, 4)

    def with_bad_item(self, position: int, case_dir: Path) -> list[Any]:
        """The inputs with an undecodable image (a wrongly shaped one for stylegan) at
        ``position`` (clipped to the end)."""
        items = list(self.items)
        position = min(position, len(items))
        if self.writer == "stylegan_lod":
            items.insert(position, np.zeros((3, 4, 4), np.uint8))
            return items
        bad = case_dir / "bad.png"
        bad.write_bytes(GARBAGE)
        if self.writer == "voc_segmentation":
            items.insert(position, (str(bad), self.items[0][1]))
        elif self.writer == "inception_multilabel":
            items.insert(position, "bad.jpg")
        else:
            items.insert(position, str(bad))
        return items

    def export(self, out: Path, items: list[Any], shards: int, case_dir: Path | None = None) -> None:
        """Run the writer on ``items`` into ``out`` with ``shards`` files (where it has a count)."""
        if self.writer == "div2k_sr":
            write_patch_records(items, str(out), 96, shards)
        elif self.writer == "voc_segmentation":
            write_sharded_records(items, str(out), shards)
        elif self.writer == "inception_multilabel":
            image_dir = self.root if case_dir is None else case_dir / "images"
            if case_dir is not None:
                shutil.copytree(self.root, image_dir, dirs_exist_ok=True)
                if "bad.jpg" in items:
                    (image_dir / "bad.jpg").write_bytes(GARBAGE)
            build_shards(str(image_dir), str(out), (("scene", 2),), "train", shards,
                         labels={name: {"scene": i % 2} for i, name in enumerate(items)})
        else:
            with TFRecordExporter(str(out), len(items), print_progress=False) as tfr:
                for image in items:
                    tfr.add_image(image)
                tfr.add_labels(np.ones((len(items), 1), np.float32))


def _faulty_writer(fault: str, after: int) -> type:
    """A TFRecordWriter that raises the fault once ``after`` records were written."""
    state = {"written": 0}

    class FaultyWriter:
        def __init__(self, path: str, options: Any = None) -> None:
            self._real = REAL_WRITER(path, options)

        def write(self, record: bytes) -> None:
            if state["written"] >= after:
                if fault == "disk_full":
                    raise tf.errors.ResourceExhaustedError(None, None, "No space left on device")
                if fault == "ctrl_c":
                    raise KeyboardInterrupt
                if fault == "sigterm":
                    # never kill the test run: only when an export turned SIGTERM into an exception
                    assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None)
                    os.kill(os.getpid(), signal.SIGTERM)
            self._real.write(record)
            state["written"] += 1

        def close(self) -> None:
            self._real.close()

    return FaultyWriter


def _hashes(folder: Path) -> dict[str, str]:
    return {name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
            for name in sorted(os.listdir(folder))}


@pytest.mark.timeout(240)
@pytest.mark.parametrize("writer", ["div2k_sr", "voc_segmentation", "inception_multilabel",
                                    "stylegan_lod"])
def test_a_fault_anywhere_keeps_the_earlier_export_and_the_users_files(
        tmp_path: Path, fault_outcomes: Any, writer: str) -> None:
    (tmp_path / "inputs").mkdir()
    inputs = Inputs(tmp_path / "inputs", writer)
    earlier = tmp_path / "earlier" / "out"  # stylegan's file names follow the folder's name
    inputs.export(earlier, inputs.items, 2)
    (earlier / "notes.txt").write_text("the user's own")
    counter = itertools.count()

    @given(fault=st.sampled_from(FAULTS), at=st.integers(0, inputs.records), shards=st.integers(1, 4))
    def case(fault: str, at: int, shards: int) -> None:
        case_dir = tmp_path / f"case{next(counter)}"
        out = case_dir / "out"
        shutil.copytree(earlier, out)
        before = _hashes(out)
        items = inputs.with_bad_item(at, case_dir) if fault == "bad_image" else inputs.items
        expected: type[BaseException] | None = EXPECTED.get(fault)
        injected = fault in ("disk_full", "ctrl_c", "sigterm")
        outcome: str | BaseException = "ok"
        with mock.patch.object(tf.io, "TFRecordWriter", _faulty_writer(fault, at)) if injected \
                else contextlib.nullcontext():
            try:
                inputs.export(out, items, shards, case_dir)
            except (DataError, OSError, KeyboardInterrupt, Terminated) as exc:
                outcome = exc
        fault_outcomes.record(f"writers/{writer}", outcome)
        assert not [n for n in os.listdir(out) if n.endswith(".partial")]
        assert (out / "notes.txt").read_text() == "the user's own"
        if outcome == "ok":  # no fault, or the fault point lay past the last record
            assert fault != "bad_image", "the bad image was not reported"
        else:
            assert expected is not None and isinstance(outcome, expected), repr(outcome)
            if isinstance(outcome, OSError):
                assert outcome.errno == errno.ENOSPC
            assert _hashes(out) == before
        shutil.rmtree(case_dir)

    case()
    assert signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None)  # handler restored

