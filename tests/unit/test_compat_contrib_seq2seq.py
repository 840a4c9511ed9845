"""tf.contrib.legacy_seq2seq and tf.contrib.seq2seq against NumPy: losses, attention, decoders, beam search.

Variables get random values; every decoder / attention result is recomputed
here in NumPy from those values and the documented equations.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import tensorflow as tf

v1 = tf.compat.v1

from compat.contrib import legacy_seq2seq as ls  # noqa: E402
from compat.contrib import rnn  # noqa: E402
from compat.contrib import seq2seq as s2s  # noqa: E402

RNG = np.random.default_rng(77)


def sig(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def xent(logits: np.ndarray, labels: np.ndarray) -> np.ndarray:
    return -np.log(softmax(logits)[np.arange(len(labels)), labels])


def close(a: Any, b: Any, tol: float = 2e-4) -> None:
    np.testing.assert_allclose(np.asarray(a, np.float64), np.asarray(b, np.float64), rtol=tol, atol=tol / 10)


def randomize(sess: Any) -> dict[str, np.ndarray]:
    """Give every variable random values; return them by name (without ':0')."""
    sess.run(v1.global_variables_initializer())
    values = {}
    for var in v1.global_variables():
        value = RNG.uniform(-0.7, 0.7, size=var.shape.as_list()).astype(np.float32)
        var.load(value, sess)
        values[var.name.removesuffix(":0")] = value
    return values


def gru(v: dict[str, np.ndarray], p: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def step(x: np.ndarray, h: np.ndarray) -> np.ndarray:
        r, u = np.split(sig(np.concatenate([x, h], 1) @ v[p + "gates/kernel"] + v[p + "gates/bias"]), 2, 1)
        c = np.tanh(np.concatenate([x, r * h], 1) @ v[p + "candidate/kernel"] + v[p + "candidate/bias"])
        return u * h + (1 - u) * c
    return step


# ------------------------------------------------------------------ legacy_seq2seq
def test_legacy_sequence_losses_by_hand() -> None:
    logits = [RNG.normal(size=(3, 5)).astype(np.float32) for _ in range(2)]
    targets = [np.array([0, 4, 2], np.int32), np.array([1, 1, 3], np.int32)]
    weights = [np.array([1, 1, 0.5], np.float32), np.array([1, 0, 1], np.float32)]
    with tf.Graph().as_default(), v1.Session() as sess:
        per_example, total, unaveraged = sess.run([
            ls.sequence_loss_by_example(logits, targets, weights),
            ls.sequence_loss(logits, targets, weights),
            ls.sequence_loss(logits, targets, weights, average_across_timesteps=False, average_across_batch=False)])
    summed = sum(w * xent(lg, t) for lg, t, w in zip(logits, targets, weights, strict=True))
    expected = summed / (weights[0] + weights[1] + 1e-12)
    close(per_example, expected)
    close(total, expected.sum() / 3)
    close(unaveraged, summed.sum())


def test_attention_decoder_matches_numpy() -> None:
    batch, attn_len, attn_size, depth, units = 2, 4, 3, 2, 3
    states = RNG.normal(size=(batch, attn_len, attn_size)).astype(np.float32)
    inputs = [RNG.normal(size=(batch, depth)).astype(np.float32) for _ in range(3)]
    init = RNG.normal(size=(batch, units)).astype(np.float32)
    with tf.Graph().as_default(), v1.Session() as sess:
        outputs, state = ls.attention_decoder([tf.constant(x) for x in inputs], tf.constant(init),
                                              tf.constant(states), rnn.GRUCell(units), output_size=5)
        v = randomize(sess)
        got, got_state = sess.run([outputs, state])
    p = "attention_decoder/"
    assert {p + "AttnW_0", p + "AttnV_0", p + "kernel", p + "Attention_0/kernel",
            p + "AttnOutputProjection/kernel", p + "gru_cell/gates/kernel"} <= set(v)
    step = gru(v, p + "gru_cell/")
    features = states @ v[p + "AttnW_0"][0, 0]
    h, read = init, np.zeros((batch, attn_size), np.float32)
    for t, x in enumerate(inputs):
        h = step(np.concatenate([x, read], 1) @ v[p + "kernel"] + v[p + "bias"], h)
        y = h @ v[p + "Attention_0/kernel"] + v[p + "Attention_0/bias"]
        weights = softmax((v[p + "AttnV_0"] * np.tanh(features + y[:, None])).sum(2))
        read = (weights[:, :, None] * states).sum(1)
        out = np.concatenate([h, read], 1) @ v[p + "AttnOutputProjection/kernel"] + v[p + "AttnOutputProjection/bias"]
        close(got[t], out)
    close(got_state, h)


def test_rnn_decoder_feeds_back_with_loop_function() -> None:
    inputs = [RNG.normal(size=(2, 3)).astype(np.float32) for _ in range(3)]
    with tf.Graph().as_default(), v1.Session() as sess:
        outputs, _ = ls.rnn_decoder([tf.constant(x) for x in inputs], tf.zeros([2, 3]), rnn.GRUCell(3),
                                    loop_function=lambda prev, i: prev * 2.0)
        v = randomize(sess)
        got = sess.run(outputs)
    step = gru(v, "rnn_decoder/gru_cell/")
    h, x = np.zeros((2, 3), np.float32), inputs[0]
    for t in range(3):
        h = step(x, h)
        close(got[t], h)
        x = h * 2.0  # the loop function's value replaces inputs[1:]


def test_translate_model_names_and_bucket_sharing() -> None:
    """The translate.py model: embedding_attention_seq2seq under model_with_buckets, TF 1.x's variable names."""
    buckets = [(2, 3), (4, 4)]
    with tf.Graph().as_default(), v1.Session() as sess:
        enc = [v1.placeholder(tf.int32, [None]) for _ in range(4)]
        dec = [v1.placeholder(tf.int32, [None]) for _ in range(5)]
        weights = [tf.ones([2]) for _ in range(4)]
        cell = rnn.MultiRNNCell([rnn.GRUCell(4) for _ in range(2)])

        def model(e: list, d: list) -> tuple:
            return ls.embedding_attention_seq2seq(e, d, cell, 7, 6, 5)
        outputs, losses = ls.model_with_buckets(enc, dec, dec[1:], weights, buckets, model)
        names = {v.name.removesuffix(":0") for v in v1.global_variables()}
        randomize(sess)
        feed = {p: RNG.integers(0, 6, size=2) for p in enc + dec}
        got_outputs, got_losses = sess.run([outputs, losses], feed)
    root = "embedding_attention_seq2seq/"
    dec_scope = root + "embedding_attention_decoder/attention_decoder/"
    expected = {root + "rnn/embedding_wrapper/embedding", root + "embedding_attention_decoder/embedding",
                dec_scope + "AttnW_0", dec_scope + "AttnV_0", dec_scope + "kernel", dec_scope + "bias",
                dec_scope + "Attention_0/kernel", dec_scope + "Attention_0/bias",
                dec_scope + "AttnOutputProjection/kernel", dec_scope + "AttnOutputProjection/bias",
                dec_scope + "output_projection_wrapper/kernel", dec_scope + "output_projection_wrapper/bias"}
    for i in (0, 1):
        for part in ("gates/kernel", "gates/bias", "candidate/kernel", "candidate/bias"):
            expected.add(f"{root}rnn/embedding_wrapper/multi_rnn_cell/cell_{i}/gru_cell/{part}")
            expected.add(f"{dec_scope}output_projection_wrapper/multi_rnn_cell/cell_{i}/gru_cell/{part}")
    assert names == expected  # one set of variables for both buckets
    assert [len(o) for o in got_outputs] == [3, 4]
    for bucket, (_, dec_len) in enumerate(buckets):
        logits = got_outputs[bucket]
        by_hand = np.mean([np.mean([xent(logits[t][b:b + 1], feed[dec[t + 1]][b:b + 1])[0]
                                    for t in range(dec_len)]) for b in range(2)])
        close(got_losses[bucket], by_hand)


def test_feed_previous_tensor_chooses_between_teacher_forcing_and_argmax_feedback() -> None:
    with tf.Graph().as_default(), v1.Session() as sess:
        enc = [tf.constant([1, 2]), tf.constant([3, 0])]
        dec = [tf.constant([0, 0]), tf.constant([4, 5])]
        feed_previous = v1.placeholder(tf.bool, [])
        outputs, _ = ls.embedding_rnn_seq2seq(enc, dec, rnn.GRUCell(3), 4, 6, 2, feed_previous=feed_previous)
        v = randomize(sess)
        forced = sess.run(outputs, {feed_previous: False})
        fed_back = sess.run(outputs, {feed_previous: True})
    p = "embedding_rnn_seq2seq/"
    encoder = gru(v, p + "rnn/embedding_wrapper/gru_cell/")
    h = np.zeros((2, 3), np.float32)
    for ids in ([1, 2], [3, 0]):
        h = encoder(v[p + "rnn/embedding_wrapper/embedding"][ids], h)
    d = p + "embedding_rnn_decoder/rnn_decoder/output_projection_wrapper/"
    decoder, emb = gru(v, d + "gru_cell/"), v[p + "embedding_rnn_decoder/embedding"]
    for feed_back, got in ((False, forced), (True, fed_back)):
        state, token = h, np.array([0, 0])
        for t in range(2):
            state = decoder(emb[token], state)
            logits = state @ v[d + "kernel"] + v[d + "bias"]
            close(got[t], logits)
            token = logits.argmax(1) if feed_back else np.array([4, 5])


# ------------------------------------------------------------------ seq2seq small functions
def test_seq2seq_sequence_loss_reductions_by_hand() -> None:
    logits = RNG.normal(size=(2, 3, 4)).astype(np.float32)
    targets = np.array([[0, 3, 1], [2, 2, 0]], np.int32)
    weights = np.array([[1, 1, 0], [1, 0.5, 0]], np.float32)
    loss = np.stack([xent(logits[b], targets[b]) for b in range(2)]) * weights
    with tf.Graph().as_default(), v1.Session() as sess:
        got = sess.run([
            s2s.sequence_loss(logits, targets, weights),
            s2s.sequence_loss(logits, targets, weights, average_across_batch=False),
            s2s.sequence_loss(logits, targets, weights, average_across_timesteps=False),
            s2s.sequence_loss(logits, targets, weights, False, False),
            s2s.sequence_loss(logits, targets, weights, False, False, sum_over_timesteps=True, sum_over_batch=True),
        ])
    close(got[0], loss.sum() / weights.sum())
    close(got[1], loss.sum(1) / weights.sum(1))
    close(got[2], loss.sum(0) / weights.sum(0).clip(1e-12))
    close(got[3], loss)
    close(got[4], loss.sum() / np.count_nonzero(weights))


def test_tile_batch_gather_tree_hardmax_safe_cumprod() -> None:
    # gather_tree: [time=3, batch=1, beam=2]; beam 0 ends at t=1 with end token 9.
    step_ids = np.array([[[1, 2]], [[3, 9]], [[5, 6]]], np.int32)
    parent_ids = np.array([[[0, 0]], [[1, 0]], [[1, 0]]], np.int32)
    with tf.Graph().as_default(), v1.Session() as sess:
        tiled, tree, short, hard, cum = sess.run([
            s2s.tile_batch(tf.constant([[1, 2], [3, 4]]), 3),
            s2s.gather_tree(step_ids, parent_ids, [3], 9),
            s2s.gather_tree(step_ids, parent_ids, [2], 9),
            s2s.hardmax(tf.constant([[0.1, 0.7, 0.2], [3.0, -1.0, 2.0]])),
            s2s.safe_cumprod(tf.constant([0.5, 0.5, 1e-30, 0.5]), exclusive=True)])
    np.testing.assert_array_equal(tiled, [[1, 2]] * 3 + [[3, 4]] * 3)
    # By hand: final beam 0 is id 5 (t=2) <- beam 1 at t=1 (id 9) <- beam 0 at t=0 (id 1): 1 9 5, and after
    # the end token everything is the end token: 1 9 9. Final beam 1: 6 <- beam 0 (3) <- beam 1 (2): 2 3 6.
    np.testing.assert_array_equal(tree[:, 0], [[1, 2], [9, 3], [9, 6]])
    # With length 2, step 2 is the end token and back-tracking starts at t=1 from beams 0 and 1.
    np.testing.assert_array_equal(short[:, 0], [[2, 1], [3, 9], [9, 9]])
    np.testing.assert_array_equal(hard, [[0, 1, 0], [1, 0, 0]])
    close(cum, [1.0, 0.5, 0.25, 0.25e-30], tol=1e-5)


def numpy_monotonic(p: np.ndarray, previous: np.ndarray) -> np.ndarray:
    """alpha_j = p_j * sum_{k<=j} previous_k * prod_{k<=l<j} (1 - p_l), straight from the definition."""
    out = np.zeros_like(p)
    for b in range(p.shape[0]):
        for j in range(p.shape[1]):
            out[b, j] = p[b, j] * sum(previous[b, k] * np.prod(1 - p[b, k:j]) for k in range(j + 1))
    return out


def test_monotonic_attention_modes() -> None:
    p = RNG.uniform(0.05, 0.95, size=(2, 5)).astype(np.float32)
    previous = softmax(RNG.normal(size=(2, 5))).astype(np.float32)
    hard_p = np.array([[0, 1, 0, 1, 1]], np.float32)
    with tf.Graph().as_default(), v1.Session() as sess:
        recursive, parallel, hard = sess.run([
            s2s.monotonic_attention(p, previous, "recursive"), s2s.monotonic_attention(p, previous, "parallel"),
            s2s.monotonic_attention(hard_p, np.array([[0, 0, 1, 0, 0]], np.float32), "hard")])
    close(recursive, numpy_monotonic(p, previous))
    close(parallel, numpy_monotonic(p, previous), tol=1e-3)
    np.testing.assert_array_equal(hard, [[0, 0, 0, 1, 0]])  # the first chosen index at or after the previous one
    with pytest.raises(ValueError, match="recursive"):
        s2s.monotonic_attention(p, previous, "soft")


# ------------------------------------------------------------------ attention and decoders
MEMORY = RNG.normal(size=(2, 4, 3)).astype(np.float32)
LENGTHS = np.array([4, 2], np.int32)


@pytest.mark.parametrize("kind", ["bahdanau", "bahdanau_normed", "luong", "luong_scaled", "bahdanau_monotonic"])
def test_attention_mechanisms_match_numpy(kind: str) -> None:
    query = RNG.normal(size=(2, 3)).astype(np.float32)
    previous = softmax(RNG.normal(size=(2, 4))).astype(np.float32)
    with tf.Graph().as_default(), v1.Session() as sess:
        if kind.startswith("luong"):
            mech = s2s.LuongAttention(3, MEMORY, LENGTHS, scale=kind == "luong_scaled")
        elif kind == "bahdanau_monotonic":
            mech = s2s.BahdanauMonotonicAttention(3, MEMORY, LENGTHS, score_bias_init=-1.0)
        else:
            mech = s2s.BahdanauAttention(3, MEMORY, LENGTHS, normalize=kind == "bahdanau_normed")
        alignments, _ = mech(tf.constant(query), state=tf.constant(previous))
        v = randomize(sess)
        got = sess.run(alignments)
    keys = (MEMORY * (np.arange(4) < LENGTHS[:, None])[:, :, None]) @ v["memory_layer/kernel"]
    scope = {"bahdanau": "bahdanau_attention/", "bahdanau_normed": "bahdanau_attention/",
             "luong": "luong_attention/", "luong_scaled": "luong_attention/",
             "bahdanau_monotonic": "bahdanau_monotonic_attention/"}[kind]
    if kind.startswith("luong"):
        score = np.einsum("bd,btd->bt", query, keys) * (v[scope + "attention_g"] if kind == "luong_scaled" else 1)
    else:
        pq = (query @ v[scope + "query_layer/kernel"])[:, None]
        vec, bias = v[scope + "attention_v"], 0.0
        if kind == "bahdanau_normed":
            vec = v[scope + "attention_g"] * vec / np.linalg.norm(vec)
            bias = v[scope + "attention_b"]
        score = (vec * np.tanh(keys + pq + bias)).sum(2)
    score = np.where(np.arange(4) < LENGTHS[:, None], score, -np.inf)
    if kind == "bahdanau_monotonic":
        expected = numpy_monotonic(sig(score + v[scope + "attention_score_bias"]), previous)
    else:
        expected = softmax(score)
    close(got, expected)


def luong_wrapper_reference(v: dict[str, np.ndarray], inputs: np.ndarray, steps: int,
                            feed: Callable[[int, np.ndarray], np.ndarray]) -> tuple[list, list]:
    """NumPy AttentionWrapper(BasicLSTMCell, LuongAttention, attention_layer_size=3) + output layer, unrolled."""
    p = "decoder/attention_wrapper/"
    keys = (MEMORY * (np.arange(4) < LENGTHS[:, None])[:, :, None]) @ v["memory_layer/kernel"]
    values = MEMORY * (np.arange(4) < LENGTHS[:, None])[:, :, None]
    c = h = np.zeros((2, 3), np.float32)
    attention = np.zeros((2, 3), np.float32)
    logits_seq, x = [], inputs
    for t in range(steps):
        z = np.concatenate([x, attention, h], 1) @ v[p + "basic_lstm_cell/kernel"] + v[p + "basic_lstm_cell/bias"]
        i, j, f, o = np.split(z, 4, 1)
        c = c * sig(f + 1.0) + sig(i) * np.tanh(j)
        h = np.tanh(c) * sig(o)
        score = np.where(np.arange(4) < LENGTHS[:, None], np.einsum("bd,btd->bt", h, keys), -np.inf)
        context = (softmax(score)[:, :, None] * values).sum(1)
        attention = np.concatenate([h, context], 1) @ v[p + "attention_layer/kernel"]
        logits = attention @ v["decoder/dense/kernel"] + v["decoder/dense/bias"]
        logits_seq.append(logits)
        x = feed(t, logits)
    return logits_seq, [c, h]


def test_attention_wrapper_training_decoder_matches_numpy() -> None:
    from tf_keras.src.legacy_tf_layers import core
    targets_in = RNG.normal(size=(2, 3, 2)).astype(np.float32)
    with tf.Graph().as_default(), v1.Session() as sess:
        mech = s2s.LuongAttention(3, MEMORY, LENGTHS)
        cell = s2s.AttentionWrapper(rnn.BasicLSTMCell(3), mech, attention_layer_size=3, alignment_history=True)
        helper = s2s.TrainingHelper(targets_in, [3, 2])
        decoder = s2s.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32), output_layer=core.Dense(5))
        outputs, state, lengths = s2s.dynamic_decode(decoder, impute_finished=True)
        v = randomize(sess)
        got, got_lengths, history = sess.run([outputs.rnn_output, lengths, state.alignment_history.stack()])
    ref, _ = luong_wrapper_reference(v, targets_in[:, 0], 3, lambda t, _: targets_in[:, min(t + 1, 2)])
    np.testing.assert_array_equal(got_lengths, [3, 2])
    for t in range(3):
        close(got[0, t], ref[t][0])
    close(got[1, :2], np.stack(ref[:2], 1)[1])
    assert np.all(got[1, 2] == 0)  # impute_finished zeroes the finished entry's output
    assert history.shape == (3, 2, 4) and np.allclose(history.sum(2), 1.0)


def test_greedy_and_beam_search_decoders_match_numpy() -> None:
    from tf_keras.src.legacy_tf_layers import core
    vocab, beam, end, alpha = 5, 3, 4, 0.6
    embedding = RNG.normal(size=(vocab, 2)).astype(np.float32)
    with tf.Graph().as_default(), v1.Session() as sess:
        def build(memory: Any, lengths: Any, reuse: Any) -> tuple:
            with v1.variable_scope("model", reuse=reuse):
                mech = s2s.LuongAttention(3, memory, lengths)
                cell = s2s.AttentionWrapper(rnn.BasicLSTMCell(3), mech, attention_layer_size=3)
                return cell, core.Dense(vocab, name="dense")
        cell, dense = build(MEMORY, LENGTHS, None)
        with v1.variable_scope("model"):
            greedy = s2s.BasicDecoder(cell, s2s.GreedyEmbeddingHelper(embedding, [0, 0], end),
                                      cell.zero_state(2, tf.float32), output_layer=dense)
            greedy_out, _, _ = s2s.dynamic_decode(greedy, maximum_iterations=4)
        bcell, bdense = build(s2s.tile_batch(MEMORY, beam), s2s.tile_batch(LENGTHS, beam), True)
        with v1.variable_scope("model", reuse=True):
            decoder = s2s.BeamSearchDecoder(bcell, embedding, [0, 0], end, bcell.zero_state(2 * beam, tf.float32),
                                            beam, output_layer=bdense, length_penalty_weight=alpha)
            beam_out, _, _ = s2s.dynamic_decode(decoder, maximum_iterations=4)
        v = randomize(sess)
        v = {k.removeprefix("model/"): val for k, val in v.items()}
        ids, logits, beams = sess.run([greedy_out.sample_id, greedy_out.rnn_output, beam_out.predicted_ids])

    chosen: list[np.ndarray] = []

    def feed(t: int, step_logits: np.ndarray) -> np.ndarray:
        chosen.append(step_logits.argmax(1))
        return embedding[step_logits.argmax(1)]
    ref, _ = luong_wrapper_reference(v, embedding[[0, 0]], ids.shape[1], feed)
    np.testing.assert_array_equal(ids, np.stack(chosen, 1))
    close(logits, np.stack(ref, 1))
    for b in range(2):
        expected = numpy_beam_search(v, embedding, b, beam, end, alpha, steps=4)
        np.testing.assert_array_equal(beams[b, :, 0][:len(expected)], expected)


def numpy_beam_search(v: dict[str, np.ndarray], embedding: np.ndarray, b: int, beam: int, end: int, alpha: float,
                      steps: int) -> list[int]:
    """The best hypothesis of batch entry ``b`` by an explicit beam search over (tokens, log-prob, state)."""
    p = "decoder/attention_wrapper/"
    mask = (np.arange(4) < LENGTHS[b])
    values = MEMORY[b] * mask[:, None]
    keys = values @ v["memory_layer/kernel"]

    def step(token: int, state: tuple) -> tuple:
        c, h, attention = state
        z = np.concatenate([embedding[token], attention, h]) @ v[p + "basic_lstm_cell/kernel"] \
            + v[p + "basic_lstm_cell/bias"]
        i, j, f, o = np.split(z, 4)
        c = c * sig(f + 1.0) + sig(i) * np.tanh(j)
        h = np.tanh(c) * sig(o)
        weights = softmax(np.where(mask, keys @ h, -np.inf))
        attention = np.concatenate([h, weights @ values]) @ v[p + "attention_layer/kernel"]
        log_probs = np.log(softmax(attention @ v["decoder/dense/kernel"] + v["decoder/dense/bias"]))
        return log_probs, (c, h, attention)

    zero = np.zeros(3, np.float32)
    # A hypothesis: tokens, log-prob, state, finished, length. The length counts every step taken while
    # unfinished (end token included); a candidate is scored with the end token not yet counted.
    hyps: list[tuple] = [([], 0.0, (zero, zero, zero), False, 0)]
    for _ in range(steps):
        candidates = []
        for tokens, logp, state, done, length in hyps:
            if done:
                candidates.append((tokens + [end], logp, state, True, length, length))
                continue
            log_probs, new_state = step(tokens[-1] if tokens else 0, state)
            for word in range(len(log_probs)):
                candidates.append((tokens + [word], logp + log_probs[word], new_state, word == end, length + 1,
                                   length + (word != end)))
        candidates.sort(key=lambda c: c[1] / ((5.0 + c[5]) / 6.0) ** alpha, reverse=True)
        hyps = [c[:5] for c in candidates[:beam]]
        if all(h[3] for h in hyps):
            break
    best = hyps[0][0]
    return best[:best.index(end) + 1] if end in best else best
