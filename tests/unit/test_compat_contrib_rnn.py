"""tf.contrib.rnn and tf.contrib.cudnn_rnn: TF 1.x variable names per cell family, and every cell against NumPy.

Each cell runs a few steps under ``tf.compat.v1.nn.dynamic_rnn`` with random
variable values; the same steps are recomputed here in NumPy from the cell's
documented equations and the fetched variable values.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import tensorflow as tf

v1 = tf.compat.v1

from compat.contrib import cudnn_rnn, rnn  # noqa: E402

BATCH, STEPS, DEPTH = 2, 3, 4
RNG = np.random.default_rng(1234)
INPUTS = RNG.normal(size=(BATCH, STEPS, DEPTH)).astype(np.float32)


def sig(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def run_cell(make_cell: Callable[[], Any], inputs: np.ndarray = INPUTS,
             int_inputs: bool = False) -> tuple[np.ndarray, Any, dict[str, np.ndarray]]:
    """(outputs [B, T, out], final state, {variable name without 'rnn/' and ':0': value}) with random variables."""
    with tf.Graph().as_default():
        x = tf.constant(inputs)
        cell = make_cell()
        if int_inputs:
            outputs, state = v1.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32)
            outputs = tf.stack(outputs, 1)
        else:
            outputs, state = v1.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values = {}
            for var in v1.global_variables():
                value = RNG.uniform(-0.6, 0.6, size=var.shape.as_list()).astype(np.float32)
                var.load(value, sess)
                values[var.name.removeprefix("rnn/").removesuffix(":0")] = value
            out, final = sess.run([outputs, state])
    return out, final, values


def unroll(step: Callable[[np.ndarray, Any], tuple[np.ndarray, Any]], state: Any,
           inputs: np.ndarray = INPUTS) -> tuple[np.ndarray, Any]:
    outs = []
    for t in range(inputs.shape[1]):
        out, state = step(inputs[:, t], state)
        outs.append(out)
    return np.stack(outs, 1), state


def zeros(n: int) -> np.ndarray:
    return np.zeros((BATCH, n), np.float32)


def ln(v: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    return (v - v.mean(1, keepdims=True)) / np.sqrt(v.var(1, keepdims=True) + 1e-12) * gamma + beta


def close(a: Any, b: Any) -> None:
    for x, y in zip(np.asarray(a, dtype=object).ravel() if isinstance(a, tuple) else [a],
                    np.asarray(b, dtype=object).ravel() if isinstance(b, tuple) else [b], strict=True):
        np.testing.assert_allclose(np.asarray(x, np.float64), np.asarray(y, np.float64), rtol=2e-4, atol=2e-5)


# ------------------------------------------------------------------ checkpoint names, per cell family
NAMES: dict[str, tuple[Callable[[], Any], dict[str, list[int]]]] = {
    "basic_lstm": (lambda: rnn.BasicLSTMCell(3), {"basic_lstm_cell/kernel": [7, 12], "basic_lstm_cell/bias": [12]}),
    "lstm_peephole_proj": (lambda: rnn.LSTMCell(3, use_peepholes=True, num_proj=2), {
        "lstm_cell/kernel": [6, 12], "lstm_cell/bias": [12], "lstm_cell/w_f_diag": [3], "lstm_cell/w_i_diag": [3],
        "lstm_cell/w_o_diag": [3], "lstm_cell/projection/kernel": [3, 2]}),
    "gru": (lambda: rnn.GRUCell(3), {"gru_cell/gates/kernel": [7, 6], "gru_cell/gates/bias": [6],
                                     "gru_cell/candidate/kernel": [7, 3], "gru_cell/candidate/bias": [3]}),
    "multi": (lambda: rnn.MultiRNNCell([rnn.BasicLSTMCell(3), rnn.BasicLSTMCell(3)]), {
        "multi_rnn_cell/cell_0/basic_lstm_cell/kernel": [7, 12], "multi_rnn_cell/cell_0/basic_lstm_cell/bias": [12],
        "multi_rnn_cell/cell_1/basic_lstm_cell/kernel": [6, 12], "multi_rnn_cell/cell_1/basic_lstm_cell/bias": [12]}),
    "layer_norm": (lambda: rnn.LayerNormBasicLSTMCell(3), {
        "layer_norm_basic_lstm_cell/kernel": [7, 12],
        **{f"layer_norm_basic_lstm_cell/{g}/{p}": [3] for g in ("input", "transform", "forget", "output", "state")
           for p in ("gamma", "beta")}}),
    "lstm_block": (lambda: rnn.LSTMBlockCell(3), {"lstm_cell/kernel": [7, 12], "lstm_cell/bias": [12]}),
    "gru_block": (lambda: rnn.GRUBlockCell(3), {"gru_cell/w_ru": [7, 6], "gru_cell/b_ru": [6],
                                                "gru_cell/w_c": [7, 3], "gru_cell/b_c": [3]}),
    "gru_block_v2": (lambda: rnn.GRUBlockCellV2(3), {"gru_cell/gates/kernel": [7, 6], "gru_cell/gates/bias": [6],
                                                     "gru_cell/candidate/kernel": [7, 3],
                                                     "gru_cell/candidate/bias": [3]}),
    "cifg": (lambda: rnn.CoupledInputForgetGateLSTMCell(3, num_proj=2), {
        "coupled_input_forget_gate_lstm_cell/W_0": [6, 9], "coupled_input_forget_gate_lstm_cell/B": [9],
        "coupled_input_forget_gate_lstm_cell/W_F_diag": [3], "coupled_input_forget_gate_lstm_cell/W_O_diag": [3],
        "coupled_input_forget_gate_lstm_cell/projection/W_P": [3, 2]}),
    "cudnn_lstm_cell": (lambda: cudnn_rnn.CudnnCompatibleLSTMCell(3), {
        "cudnn_compatible_lstm_cell/kernel": [7, 12], "cudnn_compatible_lstm_cell/bias": [12]}),
    "cudnn_gru_cell": (lambda: cudnn_rnn.CudnnCompatibleGRUCell(3), {
        "cudnn_compatible_gru_cell/gates/kernel": [7, 6], "cudnn_compatible_gru_cell/gates/bias": [6],
        "cudnn_compatible_gru_cell/candidate/input_projection/kernel": [4, 3],
        "cudnn_compatible_gru_cell/candidate/input_projection/bias": [3],
        "cudnn_compatible_gru_cell/candidate/hidden_projection/kernel": [3, 3],
        "cudnn_compatible_gru_cell/candidate/hidden_projection/bias": [3]}),
    "indy_lstm": (lambda: rnn.IndyLSTMCell(3), {"indy_lstm_cell/kernel_w": [4, 12], "indy_lstm_cell/kernel_u": [1, 12],
                                                "indy_lstm_cell/bias": [12]}),
    "ind_rnn": (lambda: rnn.IndRNNCell(3), {"ind_rnn_cell/input_kernel": [4, 3],
                                            "ind_rnn_cell/recurrent_kernel": [3], "ind_rnn_cell/bias": [3]}),
    "embedding_wrapper": (lambda: rnn.EmbeddingWrapper(rnn.GRUCell(3), 10, 4), {
        "embedding_wrapper/embedding": [10, 4], "embedding_wrapper/gru_cell/gates/kernel": [7, 6],
        "embedding_wrapper/gru_cell/gates/bias": [6], "embedding_wrapper/gru_cell/candidate/kernel": [7, 3],
        "embedding_wrapper/gru_cell/candidate/bias": [3]}),
}


def test_checkpoint_names_per_cell_family() -> None:
    """Each family's variables, as TF 1.x named and shaped them (built, not run: the names are the point)."""
    for family, (make, expected) in sorted(NAMES.items()):
        with tf.Graph().as_default():
            if family == "embedding_wrapper":
                steps = tf.unstack(tf.zeros([BATCH, STEPS], tf.int32), axis=1)
                v1.nn.static_rnn(make(), steps, dtype=tf.float32)
            else:
                v1.nn.static_rnn(make(), tf.unstack(tf.constant(INPUTS), axis=1), dtype=tf.float32)
            got = {v.name.removeprefix("rnn/").removesuffix(":0"): v.shape.as_list() for v in v1.global_variables()}
        assert got == expected, family


def test_stacked_bidirectional_and_cudnn_layer_names() -> None:
    with tf.Graph().as_default():
        x = tf.constant(INPUTS)
        rnn.stack_bidirectional_dynamic_rnn([rnn.BasicLSTMCell(3)], [rnn.BasicLSTMCell(3)], x, dtype=tf.float32)
        rnn.stack_bidirectional_rnn([rnn.GRUCell(2)], [rnn.GRUCell(2)], tf.unstack(x, axis=1), dtype=tf.float32,
                                    scope="static")
        cudnn_rnn.CudnnLSTM(2, 3)(tf.transpose(x, [1, 0, 2]))
        names = {v.name.removesuffix(":0") for v in v1.global_variables()}
    prefix = "stack_bidirectional_rnn/cell_0/bidirectional_rnn"
    assert {f"{prefix}/fw/basic_lstm_cell/kernel", f"{prefix}/bw/basic_lstm_cell/bias"} <= names
    assert "static/cell_0/bidirectional_rnn/fw/gru_cell/gates/kernel" in names
    assert {f"cudnn_lstm/rnn/multi_rnn_cell/cell_{i}/cudnn_compatible_lstm_cell/{p}"
            for i in (0, 1) for p in ("kernel", "bias")} <= names


# ------------------------------------------------------------------ NumPy references
def lstm_step(w: np.ndarray, b: np.ndarray, forget_bias: float = 1.0) -> Callable[..., Any]:
    def step(x: np.ndarray, state: tuple) -> tuple:
        c, h = state
        i, j, f, o = np.split(np.concatenate([x, h], 1) @ w + b, 4, 1)
        c = c * sig(f + forget_bias) + sig(i) * np.tanh(j)
        h = np.tanh(c) * sig(o)
        return h, (c, h)
    return step


def test_basic_lstm_and_multi_rnn_cell_match_numpy() -> None:
    out, final, v = run_cell(lambda: rnn.MultiRNNCell([rnn.BasicLSTMCell(3), rnn.BasicLSTMCell(3)]))
    s0 = lstm_step(v["multi_rnn_cell/cell_0/basic_lstm_cell/kernel"], v["multi_rnn_cell/cell_0/basic_lstm_cell/bias"])
    s1 = lstm_step(v["multi_rnn_cell/cell_1/basic_lstm_cell/kernel"], v["multi_rnn_cell/cell_1/basic_lstm_cell/bias"])

    def step(x: np.ndarray, state: tuple) -> tuple:
        h0, st0 = s0(x, state[0])
        h1, st1 = s1(h0, state[1])
        return h1, (st0, st1)
    ref, ref_state = unroll(step, ((zeros(3), zeros(3)), (zeros(3), zeros(3))))
    close(out, ref)
    close(final[1].c, ref_state[1][0])


def test_layer_norm_basic_lstm_matches_numpy() -> None:
    out, final, v = run_cell(lambda: rnn.LayerNormBasicLSTMCell(3))
    p = "layer_norm_basic_lstm_cell/"

    def norm(x: np.ndarray, g: str) -> np.ndarray:
        return ln(x, v[p + g + "/gamma"], v[p + g + "/beta"])

    def step(x: np.ndarray, state: tuple) -> tuple:
        c, h = state
        i, j, f, o = np.split(np.concatenate([x, h], 1) @ v[p + "kernel"], 4, 1)
        i, j, f, o = norm(i, "input"), norm(j, "transform"), norm(f, "forget"), norm(o, "output")
        c = norm(c * sig(f + 1.0) + sig(i) * np.tanh(j), "state")
        h = np.tanh(c) * sig(o)
        return h, (c, h)
    ref, ref_state = unroll(step, (zeros(3), zeros(3)))
    close(out, ref)
    close(final.c, ref_state[0])


def test_lstm_block_cell_with_peepholes_and_clip_matches_numpy() -> None:
    out, final, v = run_cell(lambda: rnn.LSTMBlockCell(3, use_peephole=True, cell_clip=0.5))

    def step(x: np.ndarray, state: tuple) -> tuple:
        c, h = state
        i, j, f, o = np.split(np.concatenate([x, h], 1) @ v["lstm_cell/kernel"] + v["lstm_cell/bias"], 4, 1)
        i, f = i + v["lstm_cell/w_i_diag"] * c, f + v["lstm_cell/w_f_diag"] * c
        c = np.clip(sig(f + 1.0) * c + sig(i) * np.tanh(j), -0.5, 0.5)
        h = sig(o + v["lstm_cell/w_o_diag"] * c) * np.tanh(c)
        return h, (c, h)
    ref, _ = unroll(step, (zeros(3), zeros(3)))
    close(out, ref)


def test_cudnn_compatible_lstm_is_lstm_without_forget_bias() -> None:
    out, _, v = run_cell(lambda: cudnn_rnn.CudnnCompatibleLSTMCell(3))
    step = lstm_step(v["cudnn_compatible_lstm_cell/kernel"], v["cudnn_compatible_lstm_cell/bias"], 0.0)
    close(out, unroll(step, (zeros(3), zeros(3)))[0])


def gru_step(wg: np.ndarray, bg: np.ndarray, wc: np.ndarray, bc: np.ndarray) -> Callable[..., Any]:
    def step(x: np.ndarray, h: np.ndarray) -> tuple:
        r, u = np.split(sig(np.concatenate([x, h], 1) @ wg + bg), 2, 1)
        c = np.tanh(np.concatenate([x, r * h], 1) @ wc + bc)
        h = u * h + (1 - u) * c
        return h, h
    return step


@pytest.mark.parametrize("make, names", [
    (lambda: rnn.GRUCell(3), ("gru_cell/gates/kernel", "gru_cell/gates/bias", "gru_cell/candidate/kernel",
                              "gru_cell/candidate/bias")),
    (lambda: rnn.GRUBlockCell(3), ("gru_cell/w_ru", "gru_cell/b_ru", "gru_cell/w_c", "gru_cell/b_c")),
    (lambda: rnn.GRUBlockCellV2(3), ("gru_cell/gates/kernel", "gru_cell/gates/bias", "gru_cell/candidate/kernel",
                                     "gru_cell/candidate/bias")),
])
def test_gru_cells_match_numpy(make: Callable[[], Any], names: tuple[str, ...]) -> None:
    out, final, v = run_cell(make)
    ref, ref_state = unroll(gru_step(*(v[n] for n in names)), zeros(3))
    close(out, ref)
    close(final, ref_state)


def test_cudnn_compatible_gru_matches_numpy() -> None:
    out, _, v = run_cell(lambda: cudnn_rnn.CudnnCompatibleGRUCell(3))
    p = "cudnn_compatible_gru_cell/"

    def step(x: np.ndarray, h: np.ndarray) -> tuple:
        r, u = np.split(sig(np.concatenate([x, h], 1) @ v[p + "gates/kernel"] + v[p + "gates/bias"]), 2, 1)
        c = np.tanh(x @ v[p + "candidate/input_projection/kernel"] + v[p + "candidate/input_projection/bias"]
                    + r * (h @ v[p + "candidate/hidden_projection/kernel"] + v[p + "candidate/hidden_projection/bias"]))
        h = u * h + (1 - u) * c
        return h, h
    close(out, unroll(step, zeros(3))[0])


def test_cifg_lstm_with_peepholes_and_projection_matches_numpy() -> None:
    out, _, v = run_cell(lambda: rnn.CoupledInputForgetGateLSTMCell(3, num_proj=2, proj_clip=0.3))
    p = "coupled_input_forget_gate_lstm_cell/"

    def step(x: np.ndarray, state: tuple) -> tuple:
        c, m = state
        j, f, o = np.split(np.concatenate([x, m], 1) @ v[p + "W_0"] + v[p + "B"], 3, 1)
        f = sig(f + 1.0 + v[p + "W_F_diag"] * c)
        c = f * c + (1 - f) * np.tanh(j)
        m = np.clip((sig(o + v[p + "W_O_diag"] * c) * np.tanh(c)) @ v[p + "projection/W_P"], -0.3, 0.3)
        return m, (c, m)
    close(out, unroll(step, (zeros(3), zeros(2)))[0])


def test_independent_recurrent_cells_match_numpy() -> None:
    out, _, v = run_cell(lambda: rnn.IndRNNCell(3))
    def step_ind(x: np.ndarray, h: np.ndarray) -> tuple:
        h = np.maximum(x @ v["ind_rnn_cell/input_kernel"] + h * v["ind_rnn_cell/recurrent_kernel"]
                       + v["ind_rnn_cell/bias"], 0)
        return h, h
    close(out, unroll(step_ind, zeros(3))[0])

    out, _, v = run_cell(lambda: rnn.IndyLSTMCell(3))

    def step_lstm(x: np.ndarray, state: tuple) -> tuple:
        c, h = state
        p = "indy_lstm_cell/"
        gates = x @ v[p + "kernel_w"] + np.tile(h, 4) * v[p + "kernel_u"] + v[p + "bias"]
        i, j, f, o = np.split(gates, 4, 1)
        c = c * sig(f + 1.0) + sig(i) * np.tanh(j)
        h = np.tanh(c) * sig(o)
        return h, (c, h)
    close(out, unroll(step_lstm, (zeros(3), zeros(3)))[0])

    out, _, v = run_cell(lambda: rnn.IndyGRUCell(3))
    p = "indy_gru_cell/"

    def step_gru(x: np.ndarray, h: np.ndarray) -> tuple:
        r, u = np.split(sig(x @ v[p + "gates/input_kernel"] + np.tile(h, 2) * v[p + "gates/recurrent_kernel"]
                            + v[p + "gates/bias"]), 2, 1)
        c = np.tanh(x @ v[p + "candidate/input_kernel"] + r * h * v[p + "candidate/recurrent_kernel"]
                    + v[p + "candidate/bias"])
        h = u * h + (1 - u) * c
        return h, h
    close(out, unroll(step_gru, zeros(3))[0])


def test_ugrnn_sru_and_intersection_cells_match_numpy() -> None:
    out, _, v = run_cell(lambda: rnn.UGRNNCell(3))

    def step_ug(x: np.ndarray, h: np.ndarray) -> tuple:
        g, c = np.split(np.concatenate([x, h], 1) @ v["ugrnn_cell/kernel"] + v["ugrnn_cell/bias"], 2, 1)
        g = sig(g + 1.0)
        h = g * h + (1 - g) * np.tanh(c)
        return h, h
    close(out, unroll(step_ug, zeros(3))[0])

    out, final, v = run_cell(lambda: rnn.SRUCell(DEPTH))

    def step_sru(x: np.ndarray, c: np.ndarray) -> tuple:
        xt, f, r = np.split(x @ v["sru_cell/kernel"], 3, 1)
        bf, br = np.split(v["sru_cell/bias"], 2)
        f, r = sig(f + bf), sig(r + br)
        c = f * c + (1 - f) * xt
        return r * np.tanh(c) + (1 - r) * x, c
    ref, ref_c = unroll(step_sru, zeros(DEPTH))
    close(out, ref)
    close(final, ref_c)

    out, _, v = run_cell(lambda: rnn.IntersectionRNNCell(DEPTH))

    def step_int(x: np.ndarray, h: np.ndarray) -> tuple:
        gh, ht, gy, yt = np.split(np.concatenate([x, h], 1) @ v["intersection_rnn_cell/kernel"]
                                  + v["intersection_rnn_cell/bias"], 4, 1)
        gh, gy = sig(gh + 1.0), sig(gy + 1.0)
        return gy * x + (1 - gy) * np.maximum(yt, 0), gh * h + (1 - gh) * np.tanh(ht)
    close(out, unroll(step_int, zeros(DEPTH))[0])


def test_nas_cell_matches_numpy() -> None:
    out, _, v = run_cell(lambda: rnn.NASCell(3, num_proj=2, use_bias=True))
    p = "nas_cell/"
    relu = lambda a: np.maximum(a, 0)  # noqa: E731

    def step(x: np.ndarray, state: tuple) -> tuple:
        c, m_prev = state
        m = np.split(m_prev @ v[p + "recurrent_kernel"] + v[p + "bias"], 8, 1)
        xs = np.split(x @ v[p + "kernel"], 8, 1)
        l1 = [sig(xs[0] + m[0]), relu(xs[1] + m[1]), sig(xs[2] + m[2]), relu(xs[3] * m[3]),
              np.tanh(xs[4] + m[4]), sig(xs[5] + m[5]), np.tanh(xs[6] + m[6]), sig(xs[7] + m[7])]
        l2_0 = np.tanh(np.tanh(l1[0] * l1[1]) + c)
        new_c = l2_0 * np.tanh(l1[2] + l1[3])
        new_m = np.tanh(new_c * np.tanh(np.tanh(l1[4] * l1[5]) + sig(l1[6] + l1[7]))) @ v[p + "projection_weights"]
        return new_m, (new_c, new_m)
    close(out, unroll(step, (zeros(3), zeros(2)))[0])


def test_projection_highway_and_embedding_wrappers_match_numpy() -> None:
    out, _, v = run_cell(lambda: rnn.OutputProjectionWrapper(rnn.InputProjectionWrapper(rnn.GRUCell(3), 5), 6))
    o, i = "output_projection_wrapper/", "output_projection_wrapper/input_projection_wrapper/"
    gru = gru_step(*(v[i + "gru_cell/" + n] for n in ("gates/kernel", "gates/bias", "candidate/kernel",
                                                      "candidate/bias")))

    def step(x: np.ndarray, h: np.ndarray) -> tuple:
        out, h = gru(x @ v[i + "kernel"] + v[i + "bias"], h)
        return out @ v[o + "kernel"] + v[o + "bias"], h
    close(out, unroll(step, zeros(3))[0])

    out, _, v = run_cell(lambda: rnn.HighwayWrapper(rnn.GRUCell(DEPTH)))
    p = "highway_wrapper/"
    gru = gru_step(*(v[p + "gru_cell/" + n] for n in ("gates/kernel", "gates/bias", "candidate/kernel",
                                                      "candidate/bias")))

    def step_hw(x: np.ndarray, h: np.ndarray) -> tuple:
        cell_out, h = gru(x, h)
        carry = sig(x @ v[p + "highway_0/carry_w"] + v[p + "highway_0/carry_b"])
        return x * carry + cell_out * (1 - carry), h
    close(out, unroll(step_hw, zeros(DEPTH))[0])

    ids = RNG.integers(0, 10, size=(BATCH, STEPS)).astype(np.int32)
    out, _, v = run_cell(lambda: rnn.EmbeddingWrapper(rnn.GRUCell(3), 10, 4), ids, int_inputs=True)
    p = "embedding_wrapper/"
    gru = gru_step(*(v[p + "gru_cell/" + n] for n in ("gates/kernel", "gates/bias", "candidate/kernel",
                                                      "candidate/bias")))
    close(out, unroll(lambda x, h: gru(v[p + "embedding"][x], h), zeros(3), ids)[0])


def test_attention_cell_wrapper_matches_numpy() -> None:
    attn_len = 2
    out, _, v = run_cell(lambda: rnn.AttentionCellWrapper(rnn.BasicLSTMCell(3), attn_len))
    p = "attention_cell_wrapper/"
    lstm = lstm_step(v[p + "basic_lstm_cell/kernel"], v[p + "basic_lstm_cell/bias"])

    def step(x: np.ndarray, state: tuple) -> tuple:
        cell_state, attns, states = state
        x = np.concatenate([x, attns], 1) @ v[p + "kernel"] + v[p + "bias"]
        cell_out, (c, h) = lstm(x, cell_state)
        hidden_features = states @ v[p + "attention/attn_w"][0, 0]  # a 1x1 convolution
        y = np.concatenate([c, h], 1) @ v[p + "attention/kernel"] + v[p + "attention/bias"]
        score = (v[p + "attention/attn_v"] * np.tanh(hidden_features + y[:, None, :])).sum(2)
        weights = np.exp(score) / np.exp(score).sum(1, keepdims=True)
        read = (weights[:, :, None] * states).sum(1)
        output = np.concatenate([cell_out, read], 1) @ v[p + "attn_output_projection/kernel"] \
            + v[p + "attn_output_projection/bias"]
        states = np.concatenate([states[:, 1:], output[:, None]], 1)
        return output, ((c, h), read, states)
    init = ((zeros(3), zeros(3)), zeros(3), np.zeros((BATCH, attn_len, 3), np.float32))
    close(out, unroll(step, init)[0])


def test_stack_bidirectional_dynamic_rnn_matches_numpy() -> None:
    with tf.Graph().as_default():
        x = tf.constant(INPUTS)
        lengths = tf.constant([3, 2])
        outputs, fw_states, bw_states = rnn.stack_bidirectional_dynamic_rnn(
            [rnn.GRUCell(2)], [rnn.GRUCell(2)], x, sequence_length=lengths, dtype=tf.float32)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            out = sess.run(outputs)
            v = {var.name.split("cell_0/bidirectional_rnn/")[1].removesuffix(":0"): sess.run(var)
                 for var in v1.global_variables()}
    names = ("gates/kernel", "gates/bias", "candidate/kernel", "candidate/bias")
    fw = gru_step(*(v["fw/gru_cell/" + n] for n in names))
    bw = gru_step(*(v["bw/gru_cell/" + n] for n in names))
    for b, length in enumerate((3, 2)):
        seq = INPUTS[b:b + 1, :length]
        f_out, _ = unroll(fw, np.zeros((1, 2), np.float32), seq)
        b_out, _ = unroll(bw, np.zeros((1, 2), np.float32), seq[:, ::-1])
        expected = np.concatenate([f_out, b_out[:, ::-1]], 2)[0]
        close(out[b, :length], expected)
        assert np.all(out[b, length:] == 0)


def test_fused_cells_and_cudnn_layer_match_the_step_cells() -> None:
    with tf.Graph().as_default():
        x = tf.constant(np.transpose(INPUTS, (1, 0, 2)))
        fused_out, fused_state = rnn.LSTMBlockFusedCell(3)(x, dtype=tf.float32)
        reversed_out, _ = rnn.TimeReversedFusedRNN(rnn.LSTMBlockFusedCell(3, name="rev"))(x, dtype=tf.float32)
        layer_out, (h, c) = cudnn_rnn.CudnnLSTM(1, 3)(x)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            got = sess.run([fused_out, fused_state, reversed_out, layer_out, h, c])
            v = {var.name.removesuffix(":0"): sess.run(var) for var in v1.global_variables()}
    step = lstm_step(v["lstm_cell/kernel"], v["lstm_cell/bias"])  # the fused layer adds no "rnn/" scope
    ref, (ref_c, ref_h) = unroll(step, (zeros(3), zeros(3)))
    close(got[0], np.transpose(ref, (1, 0, 2)))
    close(got[1].c, ref_c)
    rev_ref, _ = unroll(lstm_step(v["rev/kernel"], v["rev/bias"]), (zeros(3), zeros(3)), INPUTS[:, ::-1])
    close(got[2], np.transpose(rev_ref[:, ::-1], (1, 0, 2)))
    p = "cudnn_lstm/rnn/multi_rnn_cell/cell_0/cudnn_compatible_lstm_cell/"
    cu_ref, (cu_c, cu_h) = unroll(lstm_step(v[p + "kernel"], v[p + "bias"], 0.0), (zeros(3), zeros(3)))
    close(got[3], np.transpose(cu_ref, (1, 0, 2)))
    close(got[4][0], cu_h)
    close(got[5][0], cu_c)


def conv2d_same(x: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """Stride-1 SAME convolution of ``x`` [B, H, W, C] with ``kernel`` [kh, kw, C, F] (odd kernel sizes)."""
    kh, kw = kernel.shape[:2]
    padded = np.pad(x, ((0, 0), (kh // 2, kh // 2), (kw // 2, kw // 2), (0, 0)))
    out = np.zeros(x.shape[:3] + (kernel.shape[3],))
    for i in range(x.shape[1]):
        for j in range(x.shape[2]):
            out[:, i, j] = np.einsum("bhwc,hwcf->bf", padded[:, i:i + kh, j:j + kw], kernel)
    return out


def test_conv2d_lstm_cell_names_and_numpy() -> None:
    frames = RNG.normal(size=(BATCH, STEPS, 3, 3, 2)).astype(np.float32)
    out, _, v = run_cell(lambda: rnn.Conv2DLSTMCell(input_shape=[3, 3, 2], output_channels=2, kernel_shape=[3, 3]),
                         frames)
    assert {k: list(a.shape) for k, a in v.items()} == {"conv_2d_lstm_cell/kernel": [3, 3, 4, 8],
                                                        "conv_2d_lstm_cell/biases": [8]}

    def step(x: np.ndarray, state: tuple) -> tuple:
        c, h = state
        gates = conv2d_same(np.concatenate([x, h], -1), v["conv_2d_lstm_cell/kernel"]) + v["conv_2d_lstm_cell/biases"]
        i, j, f, o = np.split(gates, 4, -1)
        c = sig(f + 1.0) * c + sig(i) * np.tanh(j)
        h = np.tanh(c) * sig(o)
        return h, (c, h)
    empty = np.zeros((BATCH, 3, 3, 2))
    close(out, unroll(step, (empty, empty), frames)[0])


def test_compiled_wrapper_adds_no_scope_and_changes_nothing() -> None:
    out, _, v = run_cell(lambda: rnn.CompiledWrapper(rnn.BasicLSTMCell(3)))
    assert set(v) == {"basic_lstm_cell/kernel", "basic_lstm_cell/bias"}
    step = lstm_step(v["basic_lstm_cell/kernel"], v["basic_lstm_cell/bias"])
    close(out, unroll(step, (zeros(3), zeros(3)))[0])


def test_refused_names_raise_with_the_replacement() -> None:
    from compat.errors import LegacyAPIError
    with pytest.raises(LegacyAPIError, match="phased LSTMs"):
        rnn.PhasedLSTMCell  # noqa: B018
    with pytest.raises(LegacyAPIError, match="opaque"):
        cudnn_rnn.CudnnLSTMSaveable  # noqa: B018
    with pytest.raises(LegacyAPIError, match="did not have it either"):
        rnn.NoSuchCell  # noqa: B018


#: Every public name of TF 1.15's tf.contrib.{rnn, legacy_seq2seq, seq2seq, cudnn_rnn} (from its API listing).
TF115_NAMES = (
    "cudnn_rnn.CudnnCompatibleGRUCell", "cudnn_rnn.CudnnCompatibleLSTMCell", "cudnn_rnn.CudnnGRU",
    "cudnn_rnn.CudnnGRUSaveable", "cudnn_rnn.CudnnLSTM", "cudnn_rnn.CudnnLSTMSaveable",
    "cudnn_rnn.CudnnParamsFormatConverterGRU", "cudnn_rnn.CudnnParamsFormatConverterLSTM",
    "cudnn_rnn.CudnnParamsFormatConverterRelu", "cudnn_rnn.CudnnParamsFormatConverterTanh",
    "cudnn_rnn.CudnnRNNRelu", "cudnn_rnn.CudnnRNNReluSaveable", "cudnn_rnn.CudnnRNNTanh",
    "cudnn_rnn.CudnnRNNTanhSaveable", "legacy_seq2seq.attention_decoder", "legacy_seq2seq.basic_rnn_seq2seq",
    "legacy_seq2seq.embedding_attention_decoder", "legacy_seq2seq.embedding_attention_seq2seq",
    "legacy_seq2seq.embedding_rnn_decoder", "legacy_seq2seq.embedding_rnn_seq2seq",
    "legacy_seq2seq.embedding_tied_rnn_seq2seq", "legacy_seq2seq.model_with_buckets",
    "legacy_seq2seq.one2many_rnn_seq2seq", "legacy_seq2seq.rnn_decoder", "legacy_seq2seq.sequence_loss",
    "legacy_seq2seq.sequence_loss_by_example", "legacy_seq2seq.tied_rnn_seq2seq", "rnn.AttentionCellWrapper",
    "rnn.BasicLSTMCell", "rnn.BasicRNNCell", "rnn.BidirectionalGridLSTMCell", "rnn.CompiledWrapper",
    "rnn.Conv1DLSTMCell", "rnn.Conv2DLSTMCell", "rnn.Conv3DLSTMCell", "rnn.ConvLSTMCell",
    "rnn.CoupledInputForgetGateLSTMCell", "rnn.DeviceWrapper", "rnn.DropoutWrapper", "rnn.EmbeddingWrapper",
    "rnn.FusedRNNCell", "rnn.FusedRNNCellAdaptor", "rnn.GLSTMCell", "rnn.GRUBlockCell", "rnn.GRUBlockCellV2",
    "rnn.GRUCell", "rnn.GridLSTMCell", "rnn.HighwayWrapper", "rnn.IndRNNCell", "rnn.IndyGRUCell",
    "rnn.IndyLSTMCell", "rnn.InputProjectionWrapper", "rnn.IntersectionRNNCell", "rnn.LSTMBlockCell",
    "rnn.LSTMBlockFusedCell", "rnn.LSTMBlockWrapper", "rnn.LSTMCell", "rnn.LSTMStateTuple",
    "rnn.LayerNormBasicLSTMCell", "rnn.LayerRNNCell", "rnn.MultiRNNCell", "rnn.NASCell",
    "rnn.OutputProjectionWrapper", "rnn.PhasedLSTMCell", "rnn.RNNCell", "rnn.ResidualWrapper", "rnn.SRUCell",
    "rnn.TimeFreqLSTMCell", "rnn.TimeReversedFusedRNN", "rnn.UGRNNCell", "rnn.best_effort_input_batch_size",
    "rnn.stack_bidirectional_dynamic_rnn", "rnn.stack_bidirectional_rnn", "rnn.static_bidirectional_rnn",
    "rnn.static_rnn", "rnn.static_state_saving_rnn", "rnn.transpose_batch_time", "seq2seq.AttentionMechanism",
    "seq2seq.AttentionWrapper", "seq2seq.AttentionWrapperState", "seq2seq.BahdanauAttention",
    "seq2seq.BahdanauMonotonicAttention", "seq2seq.BasicDecoder", "seq2seq.BasicDecoderOutput",
    "seq2seq.BeamSearchDecoder", "seq2seq.BeamSearchDecoderOutput", "seq2seq.BeamSearchDecoderState",
    "seq2seq.CustomHelper", "seq2seq.Decoder", "seq2seq.FinalBeamSearchDecoderOutput",
    "seq2seq.GreedyEmbeddingHelper", "seq2seq.Helper", "seq2seq.InferenceHelper", "seq2seq.LuongAttention",
    "seq2seq.LuongMonotonicAttention", "seq2seq.SampleEmbeddingHelper", "seq2seq.ScheduledEmbeddingTrainingHelper",
    "seq2seq.ScheduledOutputTrainingHelper", "seq2seq.TrainingHelper", "seq2seq.dynamic_decode",
    "seq2seq.gather_tree", "seq2seq.hardmax", "seq2seq.monotonic_attention", "seq2seq.monotonic_probability_fn",
    "seq2seq.safe_cumprod", "seq2seq.sequence_loss", "seq2seq.tile_batch",
)


@pytest.mark.parametrize("dotted", TF115_NAMES)
def test_every_tf115_name_is_provided_or_refused(dotted: str) -> None:
    import importlib

    from compat.errors import LegacyAPIError
    module_name, name = dotted.split(".", 1)
    module = importlib.import_module(f"compat.contrib.{module_name}")
    refused = getattr(module, "REFUSED", {})
    if name in refused:
        with pytest.raises(LegacyAPIError, match="not provided by the compat runner"):
            getattr(module, name)
    else:
        assert getattr(module, name) is not None
