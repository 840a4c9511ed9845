"""Sequence models of 2016-2018 from our own corpus, run unchanged under ``python -m compat run``.

* ``char_rnn/``: a character language model (``tf.contrib.rnn`` cells, ``legacy_seq2seq.rnn_decoder`` and
  ``sequence_loss_by_example``) trained a few steps, evaluated and sampled greedily;
* ``seq2seq_translate/``: the bucketed translation model (``embedding_attention_seq2seq`` under
  ``model_with_buckets``, Python 2 source) trained, saved, then restored into a decoding graph;
* ``nmt_attention/``: an NMT-tutorial model (``dynamic_rnn`` encoder, ``BahdanauAttention`` +
  ``AttentionWrapper``, ``TrainingHelper`` / ``BasicDecoder``, ``BeamSearchDecoder`` with ``tile_batch``).

Every printed perplexity, loss, sample, decoded sequence and beam score is recomputed here in NumPy from
the weights in the checkpoint the script wrote.
"""
from __future__ import annotations

import collections
import json
import re
from pathlib import Path

import numpy as np
import pytest
from test_legacy_scripts import LEGACY, run_script, succeeded

CORPUS = LEGACY / "corpus"
TEXT = "the cat sat on the mat. the dog sat on the log. a cat and a dog met on a mat.\n" * 3


def checkpoint_values(prefix: Path) -> dict[str, np.ndarray]:
    import tensorflow as tf
    reader = tf.train.load_checkpoint(str(prefix))
    return {name: reader.get_tensor(name) for name in reader.get_variable_to_shape_map()}


def printed(pattern: str, text: str) -> str:
    match = re.search(pattern, text, re.MULTILINE)
    assert match is not None, f"no line matches {pattern!r} in:\n{text}"
    return match.group(1)


def sig(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def log_softmax(x: np.ndarray) -> np.ndarray:
    shifted = x - x.max(-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))


def lstm(w: np.ndarray, b: np.ndarray, x: np.ndarray, c: np.ndarray, h: np.ndarray) -> tuple:
    i, j, f, o = np.split(np.concatenate([x, h], -1) @ w + b, 4, -1)
    c = c * sig(f + 1.0) + sig(i) * np.tanh(j)
    return c, np.tanh(c) * sig(o)


def gru(v: dict[str, np.ndarray], p: str, x: np.ndarray, h: np.ndarray) -> np.ndarray:
    r, u = np.split(sig(np.concatenate([x, h], -1) @ v[p + "gates/kernel"] + v[p + "gates/bias"]), 2, -1)
    c = np.tanh(np.concatenate([x, r * h], -1) @ v[p + "candidate/kernel"] + v[p + "candidate/bias"])
    return u * h + (1 - u) * c


# ------------------------------------------------------------------ char-rnn
@pytest.mark.timeout(300)
def test_char_rnn_perplexity_and_sample_match_numpy(tmp_path: Path) -> None:
    (tmp_path / "input.txt").write_text(TEXT)
    out = succeeded(run_script(CORPUS / "char_rnn" / "train.py", "--data", "input.txt", "--save_dir", str(tmp_path),
                               cwd=tmp_path))
    v = checkpoint_values(tmp_path / "model.ckpt")
    # The vocabulary by falling count (ties in order of first appearance), and the first 4 x 8 batch.
    chars = [c for c, _ in sorted(collections.Counter(TEXT).items(), key=lambda kv: -kv[1])]
    assert "".join(chars) == (tmp_path / "chars.txt").read_text()
    ids = np.array([chars.index(c) for c in TEXT])
    batches = ids.size // 32
    ids = ids[:batches * 32]
    targets = np.roll(ids, -1)
    x, y = ids.reshape(4, -1)[:, :8], targets.reshape(4, -1)[:, :8]

    cells = [(v[f"rnnlm/multi_rnn_cell/cell_{i}/basic_lstm_cell/kernel"],
              v[f"rnnlm/multi_rnn_cell/cell_{i}/basic_lstm_cell/bias"]) for i in (0, 1)]

    def step(token: np.ndarray, state: list) -> tuple[np.ndarray, list]:
        inp, new_state = v["embedding"][token], []
        for (w, b), (c, h) in zip(cells, state, strict=True):
            c, h = lstm(w, b, inp, c, h)
            new_state.append((c, h))
            inp = h
        return inp @ v["rnnlm/softmax_w"] + v["rnnlm/softmax_b"], new_state

    state = [(np.zeros((4, 16)), np.zeros((4, 16)))] * 2
    nll = []
    for t in range(8):
        logits, state = step(x[:, t], state)
        nll.append(-log_softmax(logits)[np.arange(4), y[:, t]])
    assert float(printed(r"^eval perplexity: (\S+)", out)) == pytest.approx(np.exp(np.mean(nll)), rel=1e-4)

    prime = chars[0] + chars[1]
    state = [(np.zeros((1, 16)), np.zeros((1, 16)))] * 2
    _, state = step(np.array([chars.index(prime[0])]), state)
    text, token = prime, chars.index(prime[1])
    for _ in range(20):
        logits, state = step(np.array([token]), state)
        token = int(logits.argmax())
        text += chars[token]
    assert printed(r"^sample: (.*)$", out) == repr(text)


# ------------------------------------------------------------------ bucketed translation model
def legacy_attention_seq2seq(v: dict[str, np.ndarray], encoder: list, decoder: list,
                             feed_previous: bool) -> list[np.ndarray]:
    """embedding_attention_seq2seq (2-layer GRU(8), vocab 10) in NumPy: the logits of each decoder step."""
    root = "embedding_attention_seq2seq/"
    enc_cell = root + "rnn/embedding_wrapper/multi_rnn_cell/cell_{}/gru_cell/"
    batch = len(encoder[0])
    hs = [np.zeros((batch, 8)), np.zeros((batch, 8))]
    tops = []
    for ids in encoder:
        inp = v[root + "rnn/embedding_wrapper/embedding"][ids]
        for i in (0, 1):
            hs[i] = gru(v, enc_cell.format(i), inp, hs[i])
            inp = hs[i]
        tops.append(inp)
    hidden = np.stack(tops, 1)  # [B, T, 8]
    d = root + "embedding_attention_decoder/attention_decoder/"
    dec_cell = d + "output_projection_wrapper/multi_rnn_cell/cell_{}/gru_cell/"
    features = hidden @ v[d + "AttnW_0"][0, 0]
    read = np.zeros((batch, 8))
    outputs: list[np.ndarray] = []
    for t, ids in enumerate(decoder):
        if feed_previous and t > 0:
            ids = outputs[-1].argmax(1)
        x = np.concatenate([v[root + "embedding_attention_decoder/embedding"][ids], read], 1) @ v[d + "kernel"] \
            + v[d + "bias"]
        for i in (0, 1):
            hs[i] = gru(v, dec_cell.format(i), x, hs[i])
            x = hs[i]
        cell_out = x @ v[d + "output_projection_wrapper/kernel"] + v[d + "output_projection_wrapper/bias"]
        y = np.concatenate(hs, 1) @ v[d + "Attention_0/kernel"] + v[d + "Attention_0/bias"]
        score = (v[d + "AttnV_0"] * np.tanh(features + y[:, None])).sum(2)
        weights = np.exp(log_softmax(score))
        read = (weights[:, :, None] * hidden).sum(1)
        outputs.append(np.concatenate([cell_out, read], 1) @ v[d + "AttnOutputProjection/kernel"]
                       + v[d + "AttnOutputProjection/bias"])
    return outputs


@pytest.mark.timeout(300)
def test_bucketed_translation_loss_and_decoding_match_numpy(tmp_path: Path) -> None:
    train_dir = tmp_path / "train"
    train_dir.mkdir()
    out = succeeded(run_script(CORPUS / "seq2seq_translate" / "translate.py", "--train_dir", str(train_dir),
                               cwd=tmp_path))
    assert "Reading model parameters from" in out  # the decoding graph restored the training checkpoint
    v = checkpoint_values(train_dir / "translate.ckpt-12")
    batch = json.loads(printed(r"^eval batch: (.*)$", out))
    logits = legacy_attention_seq2seq(v, [np.array(e) for e in batch["encoder"]],
                                      [np.array(d) for d in batch["decoder"]], feed_previous=False)
    targets = [np.array(d) for d in batch["decoder"][1:]] + [np.zeros(4, int)]
    weights = np.array(batch["weights"])
    nll = np.stack([-log_softmax(lg)[np.arange(4), t] for lg, t in zip(logits, targets, strict=True)])
    expected = np.mean((nll * weights).sum(0) / (weights.sum(0) + 1e-12))
    assert float(printed(r"^eval loss (\S+)", out)) == pytest.approx(expected, rel=1e-4)

    encoder = [np.array([t]) for t in reversed([5, 7, 9, 0, 0])]
    decoder = [np.array([1])] + [np.array([0])] * 6
    decoded = [int(lg.argmax()) for lg in legacy_attention_seq2seq(v, encoder, decoder, feed_previous=True)]
    assert printed(r"^decoded: (.*)$", out).split() == [str(t) for t in decoded]


# ------------------------------------------------------------------ NMT with beam search
class NumpyNMT:
    """The nmt_attention model in NumPy, from the checkpoint's weights."""

    def __init__(self, v: dict[str, np.ndarray]) -> None:
        self.v = v
        self.p = "dynamic_seq2seq/decoder/attention/"

    def encode(self, src: np.ndarray, length: int) -> tuple:
        v, c, h = self.v, np.zeros(8), np.zeros(8)
        outputs = np.zeros((len(src), 8))
        for t in range(length):
            c, h = lstm(v["dynamic_seq2seq/encoder/rnn/basic_lstm_cell/kernel"],
                        v["dynamic_seq2seq/encoder/rnn/basic_lstm_cell/bias"],
                        v["embeddings/embedding_encoder"][src[t]], c, h)
            outputs[t] = h
        return outputs, (c, h)

    def log_probs(self, src: np.ndarray, length: int, tokens: list[int]) -> list[np.ndarray]:
        """Teacher-forced log-softmax of each step, fed SOS then ``tokens``."""
        v, p = self.v, self.p
        memory, (c, h) = self.encode(src, length)
        mask = np.arange(len(src)) < length
        keys = memory @ v["dynamic_seq2seq/decoder/memory_layer/kernel"]
        g, vec = v[p + "bahdanau_attention/attention_g"], v[p + "bahdanau_attention/attention_v"]
        normed = g * vec / np.linalg.norm(vec)
        attention, result = np.zeros(8), []
        for token in [1, *tokens]:
            x = np.concatenate([v["embeddings/embedding_decoder"][token], attention])
            c, h = lstm(v[p + "basic_lstm_cell/kernel"], v[p + "basic_lstm_cell/bias"], x, c, h)
            query = h @ v[p + "bahdanau_attention/query_layer/kernel"]
            score = (normed * np.tanh(keys + query + v[p + "bahdanau_attention/attention_b"])).sum(1)
            weights = np.exp(log_softmax(np.where(mask, score, -np.inf)))
            attention = np.concatenate([h, weights @ memory]) @ v[p + "attention_layer/kernel"]
            result.append(log_softmax(attention @ v["dynamic_seq2seq/decoder/output_projection/kernel"]))
        return result


@pytest.mark.timeout(300)
def test_nmt_training_loss_and_beam_scores_match_numpy(tmp_path: Path) -> None:
    out = succeeded(run_script(CORPUS / "nmt_attention" / "nmt.py", "--out_dir", str(tmp_path), cwd=tmp_path))
    model = NumpyNMT(checkpoint_values(tmp_path / "translate.ckpt"))
    rng = np.random.RandomState(0)
    src = rng.randint(3, 8, size=(6, 4))
    lengths = [4, 3, 2, 4, 3, 4]
    losses = []
    for b in range(6):
        target = [*src[b, ::-1], 2]
        steps = model.log_probs(src[b], lengths[b], target[:-1])
        losses += [-lp[t] for lp, t in zip(steps, target, strict=True)]
    assert float(printed(r"^per-token loss (\S+)", out)) == pytest.approx(np.mean(losses), rel=1e-3)

    beams = [line.split()[1:] for line in out.splitlines() if line.startswith("beam0 ")]
    scores = [float(line.split()[1]) for line in out.splitlines() if line.startswith("score0 ")]
    sources = [line.split()[1:] for line in out.splitlines() if line.startswith("source ")]
    assert len(beams) == len(scores) == len(sources) == 2
    for b in range(2):
        ids = [int(t) for t in beams[b]]
        assert sources[b] == [str(t) for t in src[b, :lengths[b]]]  # the script's data is the one rebuilt here
        steps = ids.index(2) + 1 if 2 in ids else len(ids)
        tokens = ids[:steps]
        total = sum(lp[t] for lp, t in zip(model.log_probs(src[b], lengths[b], tokens[:-1]), tokens, strict=True))
        # The end token counts in the length once a later step ran (TF 1.x's beam search bookkeeping).
        length = steps if steps < len(ids) else len(tokens) - (tokens[-1] == 2)
        assert scores[b] == pytest.approx(total / ((5.0 + length) / 6.0) ** 0.6, rel=1e-3, abs=1e-5)
