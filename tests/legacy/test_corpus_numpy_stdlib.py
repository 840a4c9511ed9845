"""Corpus scripts for NumPy 1 and the Python 3.6 standard library, run unchanged under ``compat run``.

``numpy1_text_cnn``: a sentence-classification data path of 2016 (ragged token lists,
``np.lib.pad``, ``np.int``/``np.float``, ``np.asscalar``, an object-array vocabulary
read with ``np.load(...).item()``). ``py36_stdlib``: a PASCAL VOC converter of 2017
(``collections.Iterable``/``Mapping``, ``time.clock``, ``inspect.getargspec``,
``fractions.gcd``, ``xml.etree.cElementTree`` with ``getiterator``/``getchildren``,
``Thread.isAlive``, ``os.errno``, ``json.loads(encoding=)``, ``base64.encodestring``).
Printed values are checked against computations made here.
"""
from __future__ import annotations

import base64
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_legacy_scripts import LEGACY, TIMEOUT, run_script, succeeded

CORPUS = LEGACY / "corpus"
TEXT_CNN = CORPUS / "numpy1_text_cnn" / "train_text_cnn.py"
VOC = CORPUS / "py36_stdlib" / "convert_voc.py"

SENTENCES = ["The movie was great !", "Awful .", "great great plot , awful acting"]
VOCAB = {"<pad>": 0, "<unk>": 1, "the": 2, "movie": 3, "was": 4, "great": 5, "awful": 6, "plot": 7}


def run_with_flags(script: Path, *args: str, flags: tuple[str, ...], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    return subprocess.run([sys.executable, "-m", "compat", "run", *flags, str(script), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)


@pytest.fixture()
def text_data(tmp_path: Path) -> Path:
    (tmp_path / "sentences.txt").write_text("\n".join(SENTENCES) + "\n")
    np.save(tmp_path / "vocab.npy", np.array(VOCAB, dtype=object), allow_pickle=True)
    return tmp_path


def expected_ids() -> list[list[int]]:
    """The script's tokenisation, by hand: lower-case words; punctuation other than ,!? dropped."""
    words = [["the", "movie", "was", "great", "!"], ["awful"], ["great", "great", "plot", ",", "awful", "acting"]]
    return [[VOCAB.get(w, 1) for w in sentence] for sentence in words]


@pytest.mark.timeout(300)
def test_text_cnn_refuses_the_pickled_vocab_then_runs_with_allow_pickle(text_data: Path) -> None:
    refused = run_with_flags(TEXT_CNN, str(text_data), flags=(), cwd=text_data)
    assert refused.returncode == 1
    hint = [line for line in refused.stderr.splitlines() if line.startswith("compat: train_text_cnn.py:")]
    assert hint and "--allow-pickle" in hint[0], refused.stderr[-2000:]

    out = succeeded(run_with_flags(TEXT_CNN, str(text_data), flags=("--allow-pickle",), cwd=text_data))
    ids = expected_ids()
    assert "ragged object (3,)" in out
    mean = sum(len(s) for s in ids) / len(ids)
    assert f"mean_length {mean:.4f}" in out
    width = max(len(s) for s in ids)
    padded = [s + [0] * (width - len(s)) for s in ids]
    assert f"padded {padded}" in out
    table = np.arange(len(VOCAB) * 2, dtype=np.float32).reshape(len(VOCAB), 2)
    table[0] = 0.0
    pooled = [table[row].max(axis=0).tolist() for row in padded]
    assert re.findall(r"^pooled (.*)$", out, re.MULTILINE) == [str(pooled[:2]), str(pooled[2:])]
    assert "nan_token True inf True" in out


@pytest.mark.timeout(120)
def test_text_cnn_fails_under_plain_python(text_data: Path) -> None:
    result = run_script(TEXT_CNN, str(text_data), cwd=text_data, runner=False)
    assert result.returncode != 0


VOC_XML = """<annotation><size><width>{w}</width><height>{h}</height><depth>3</depth></size>{objects}</annotation>"""
OBJECT_XML = ("<object><name>{name}</name><difficult>0</difficult><bndbox><xmin>{x0}</xmin><ymin>{y0}</ymin>"
              "<xmax>{x1}</xmax><ymax>{y1}</ymax></bndbox></object>")
IMAGES = {
    "000001.xml": (500, 375, [("dog", (48, 240, 195, 371)), ("person", (8, 12, 12, 40))]),
    "000002.xml": (640, 480, [("train", (139, 200, 207, 301))]),
}


@pytest.mark.timeout(300)
def test_voc_converter_on_the_python_36_standard_library(tmp_path: Path) -> None:
    annotations = tmp_path / "Annotations"
    annotations.mkdir()
    for name, (w, h, objects) in IMAGES.items():
        body = "".join(OBJECT_XML.format(name=n, x0=b[0], y0=b[1], x1=b[2], y1=b[3]) for n, b in objects)
        (annotations / name).write_text(VOC_XML.format(w=w, h=h, objects=body))
    output = tmp_path / "out"
    output.mkdir()  # exists: the script's os.makedirs fails and it checks os.errno.EEXIST
    out = succeeded(run_script(VOC, str(annotations), str(output), cwd=tmp_path))

    coords: list[int] = []
    for name, (w, h, objects) in IMAGES.items():
        divisor = math.gcd(w, h)
        kept = [box for _, box in objects if box[2] - box[0] >= 8]
        assert f"image {name} aspect {w // divisor}:{h // divisor} objects {len(objects)} kept {len(kept)}" in out
        coords += [c for box in kept for c in box]
    assert f"coords {coords}" in out
    token = base64.encodebytes(json.dumps({"keep_difficult": False, "min_size": 8}, sort_keys=True).encode())
    assert f"token {token.decode().strip()}" in out
    assert "elapsed_ok True" in out
    assert json.loads((output / "summary.json").read_text()) == {"images": 2, "boxes": len(coords) // 4}

    plain = run_script(VOC, str(annotations), str(output), cwd=tmp_path, runner=False)
    assert plain.returncode != 0 and "cannot import name 'Mapping' from 'collections'" in plain.stderr
