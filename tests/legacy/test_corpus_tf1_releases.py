"""Corpus scripts for what TensorFlow 1.0-1.14 accepted and 1.15's API lists do not show.

Each script is run unchanged under ``python -m compat run`` and its printed
values are checked against a computation done here (the flags as given, word
ids numbered in order of first appearance, squares of a counter); each also
fails under plain ``python`` on today's stack.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_legacy_scripts import LEGACY, run_script, succeeded

CORPUS = LEGACY / "corpus"

LINES = [
    (1, "the cat sat"),
    (0, "a dog ran far away"),
    (1, "the dog sat"),
    (0, "cat"),
    (1, "a cat ran"),
]


def expected_batches(lines: list[tuple[int, str]], batch_size: int) -> list[tuple[list[int], int]]:
    """(labels, sum of word ids) per batch, ids numbered from 1 in order of first appearance."""
    vocab: dict[str, int] = {}
    ids = [[vocab.setdefault(word, len(vocab) + 1) for word in text.split()] for _, text in lines]
    return [([label for label, _ in lines[i:i + batch_size]], sum(sum(row) for row in ids[i:i + batch_size]))
            for i in range(0, len(lines), batch_size)]


@pytest.mark.timeout(300)
def test_tf13_dataset_api_flags_and_float_dimensions(tmp_path: Path) -> None:
    data = tmp_path / "lines.txt"
    data.write_text("".join(f"{label}\t{text}\n" for label, text in LINES))
    script = CORPUS / "tf13_text_pipeline" / "train.py"
    args = ("--data_file", str(data), "--batch_size", "2", "--embedding_dim", "8", "--groups", "4")
    out = succeeded(run_script(script, *args, cwd=tmp_path))
    assert f"DATA_FILE={data}" in out and "BATCH_SIZE=2" in out
    assert "EMBEDDING_DIM=8" in out and "GROUPS=4" in out
    found = [(list(map(int, re.findall(r"\d+", m.group(1)))), int(m.group(2)), int(m.group(3)))
             for m in re.finditer(r"labels \[(.*?)\] ids_sum (\d+) width (\d+)", out)]
    expected = expected_batches(LINES, 2)
    assert [(labels, total) for labels, total, _ in found] == expected
    assert {width for _, _, width in found} == {2}
    assert f"batches {len(expected)}" in out
    plain = run_script(script, *args, cwd=tmp_path, runner=False)
    assert plain.returncode != 0


@pytest.mark.timeout(300)
def test_feeder_thread_cancelled_by_the_session_close_exits_0_every_time(tmp_path: Path) -> None:
    script = CORPUS / "queue_feeder_2016.py"
    for _ in range(3):  # the thread's ending races the close: every run must pass
        result = run_script(script, "--batches", "3", cwd=tmp_path)
        lines = succeeded(result).splitlines()
        squares = [i * i for i in range(12)]
        assert lines == [f"batch {b}: " + " ".join(str(v) for v in squares[4 * b:4 * b + 4]) for b in range(3)] + [
            "done"]


@pytest.mark.timeout(300)
def test_python2_main_script_in_a_package_folder_imports_its_siblings(tmp_path: Path) -> None:
    import numpy as np
    script = CORPUS / "py2_package_main" / "real_nvp" / "nvp_multiscale_dataset.py"
    size = 6
    out = succeeded(run_script(script, "--size", str(size), cwd=tmp_path)).splitlines()
    image = np.arange(size * size * 3, dtype=np.float32).reshape(size, size, 3)
    mask = np.add.outer(np.arange(size), np.arange(size)) % 2
    assert out == [f"shape ({size // 2}, {size // 2}, 12)", f"sum {(image * mask[:, :, None]).sum():.1f}",
                   f"half {size // 2}"]
