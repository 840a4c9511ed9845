"""The CRF tagger of the corpus (``corpus/crf_tagger``) under ``python -m compat run``.

The decoded tags and the log-likelihoods it prints are recomputed here from its
checkpoint's weights: the scores in NumPy, the best tag sequence and the
normaliser by enumerating every sequence.
"""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest
from test_legacy_scripts import LEGACY, run_script, succeeded

SCRIPT = LEGACY / "corpus" / "crf_tagger" / "tagger.py"

SENTENCES = [
    [("john", "B-PER"), ("lives", "O"), ("in", "O"), ("paris", "B-LOC")],
    [("mary", "B-PER"), ("smith", "I-PER"), ("visited", "O"), ("berlin", "B-LOC")],
    [("in", "O"), ("london", "B-LOC")],
    [("john", "B-PER"), ("smith", "I-PER")],
]


def _write(folder: Path) -> Path:
    path = folder / "train.txt"
    path.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in s) for s in SENTENCES) + "\n")
    return path


def _checkpoint(prefix: Path) -> dict[str, np.ndarray]:
    import tensorflow as tf
    reader = tf.train.load_checkpoint(str(prefix))
    return {name: reader.get_tensor(name) for name in reader.get_variable_to_shape_map()}


def _score(scores: np.ndarray, transitions: np.ndarray, seq: tuple[int, ...]) -> float:
    return float(sum(scores[t, tag] for t, tag in enumerate(seq))
                 + sum(transitions[a, b] for a, b in itertools.pairwise(seq)))


@pytest.mark.timeout(300)
def test_crf_tagger_decodes_what_enumeration_of_the_checkpoint_gives(tmp_path: Path) -> None:
    data = _write(tmp_path)
    out = succeeded(run_script(SCRIPT, "--data", str(data), "--model_dir", str(tmp_path / "model"),
                               "--steps", "60", cwd=tmp_path))
    first, last = map(float, re.search(r"loss ([\d.]+) -> ([\d.]+)", out).groups())
    assert last < first
    weights = _checkpoint(tmp_path / "model" / "model.ckpt")
    # The names TF 1.x gave these variables, so old checkpoints restore.
    assert {"words/_word_embeddings", "proj/dense/kernel", "proj/dense/bias", "transitions"} <= set(weights)
    words = sorted({w for s in SENTENCES for w, _ in s})
    tags = sorted({t for s in SENTENCES for _, t in s})
    transitions = weights["transitions"]
    for i, sentence in enumerate(SENTENCES):
        ids = [words.index(w) for w, _ in sentence]
        scores = weights["words/_word_embeddings"][ids] @ weights["proj/dense/kernel"] + weights["proj/dense/bias"]
        sequences = list(itertools.product(range(len(tags)), repeat=len(sentence)))
        all_scores = np.array([_score(scores, transitions, s) for s in sequences])
        best = sequences[int(np.argmax(all_scores))]
        expected_tags = " ".join(tags[t] for t in best)
        for kind in ("viterbi", "graph"):
            match = re.search(rf"sentence {i} {kind} ([\w\- ]+) score ([-\d.]+)", out)
            assert match is not None, out
            assert match.group(1) == expected_tags
            assert float(match.group(2)) == pytest.approx(all_scores.max(), abs=1e-3)
        gold = tuple(tags.index(t) for _, t in sentence)
        log_norm = np.log(np.sum(np.exp(all_scores)))
        loglik = float(re.search(rf"sentence {i} loglik ([-\d.]+)", out).group(1))
        assert loglik == pytest.approx(_score(scores, transitions, gold) - log_norm, abs=1e-3)
    # After training, the tagger gets the training sentences right.
    assert "sentence 1 viterbi B-PER I-PER O B-LOC" in out


@pytest.mark.timeout(120)
def test_crf_tagger_needs_the_runner(tmp_path: Path) -> None:
    data = _write(tmp_path)
    result = run_script(SCRIPT, "--data", str(data), "--model_dir", str(tmp_path / "m"), cwd=tmp_path, runner=False)
    assert result.returncode != 0
