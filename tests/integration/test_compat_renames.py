"""The TensorFlow 0.x -> 1.0 rename table (compat.tf1.renames, compat.tf1.tf0_ops) on concrete values.

Each old name is evaluated in a fresh graph through the TF1 namespace and
compared with NumPy (or with the 1.0 call it stands for); the summary ops write
an event file that is read back. Subprocess tests run old scripts through
``python -m compat run``.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tensorflow as tf
from helpers.scripts import compat_run, write

from compat.checker import check
from compat.tf1 import namespace as tf1
from compat.tf1 import renames, tf0_ops

v1 = tf.compat.v1
TIMEOUT = 150


@pytest.fixture(scope="module")
def ns() -> Any:
    return tf1.tf1_namespace()


def run_graph(build: Callable[[], Any]) -> Any:
    """Build in a fresh graph and evaluate (initialising variables)."""
    with tf.Graph().as_default():
        fetches = build()
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            return sess.run(fetches)


RNG = np.random.RandomState(0)
A = RNG.randn(2, 3).astype(np.float32)
B = RNG.randn(2, 3).astype(np.float32) + 3
_M = RNG.randn(2, 3, 3).astype(np.float32)
SPD = _M @ _M.transpose(0, 2, 1) + 3 * np.eye(3, dtype=np.float32)  # symmetric positive definite
SQUARE = RNG.randn(2, 3, 3).astype(np.float32)
RHS = RNG.randn(2, 3, 2).astype(np.float32)
SIGNAL = (RNG.randn(2, 4) + 1j * RNG.randn(2, 4)).astype(np.complex64)
SIGNAL3 = (RNG.randn(2, 2, 2, 4) + 1j * RNG.randn(2, 2, 2, 4)).astype(np.complex64)

#: old top-level name -> (arguments, what NumPy computes for them)
PURE_RENAMES: dict[str, tuple[tuple[Any, ...], Callable[[], Any]]] = {
    "mul": ((A, B), lambda: A * B),
    "sub": ((A, B), lambda: A - B),
    "neg": ((A,), lambda: -A),
    "inv": ((B,), lambda: 1 / B),
    "listdiff": (([1, 2, 3, 4], [2, 4]), lambda: ([1, 3], [0, 2])),
    "list_diff": (([5, 6, 7], [6]), lambda: ([5, 7], [0, 2])),
    "select": ((A > 0, A, B), lambda: np.where(A > 0, A, B)),
    "pack": (([A, B],), lambda: np.stack([A, B])),
    "unpack": ((A,), lambda: list(A)),
    "concat_v2": (([A, B], 1), lambda: np.concatenate([A, B], 1)),
    "complex_abs": ((SIGNAL,), lambda: np.abs(SIGNAL)),
    "batch_matrix_diag": ((A,), lambda: np.stack([np.diag(r) for r in A])),
    "batch_matrix_diag_part": ((SQUARE,), lambda: np.stack([np.diag(m) for m in SQUARE])),
    "batch_matrix_band_part": ((SQUARE, -1, 0), lambda: np.tril(SQUARE)),
    "batch_matrix_set_diag": ((SQUARE, A), lambda: np.stack(
        [m - np.diag(np.diag(m)) + np.diag(d) for m, d in zip(SQUARE, A)])),
    "batch_matrix_transpose": ((SQUARE,), lambda: SQUARE.transpose(0, 2, 1)),
    "batch_matrix_determinant": ((SQUARE,), lambda: np.linalg.det(SQUARE)),
    "batch_matrix_inverse": ((SPD,), lambda: np.linalg.inv(SPD)),
    "batch_cholesky": ((SPD,), lambda: np.linalg.cholesky(SPD)),
    "batch_cholesky_solve": ((np.linalg.cholesky(SPD), RHS), lambda: np.linalg.solve(SPD, RHS)),
    "batch_matrix_solve": ((SPD, RHS), lambda: np.linalg.solve(SPD, RHS)),
    "batch_matrix_triangular_solve": ((np.linalg.cholesky(SPD), RHS),
                                      lambda: np.linalg.solve(np.linalg.cholesky(SPD), RHS)),
    "batch_matrix_solve_ls": ((SPD, RHS), lambda: np.linalg.solve(SPD, RHS)),
    "batch_self_adjoint_eigvals": ((SPD,), lambda: np.linalg.eigvalsh(SPD)),
    "batch_fft": ((SIGNAL,), lambda: np.fft.fft(SIGNAL)),
    "batch_ifft": ((SIGNAL,), lambda: np.fft.ifft(SIGNAL)),
    "batch_fft2d": ((SIGNAL3,), lambda: np.fft.fft2(SIGNAL3)),
    "batch_ifft2d": ((SIGNAL3,), lambda: np.fft.ifft2(SIGNAL3)),
    "batch_fft3d": ((SIGNAL3,), lambda: np.fft.fftn(SIGNAL3, axes=(-3, -2, -1))),
    "batch_ifft3d": ((SIGNAL3,), lambda: np.fft.ifftn(SIGNAL3, axes=(-3, -2, -1))),
}


def assert_close(actual: Any, expected: Any) -> None:
    if isinstance(expected, (list, tuple)):
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            assert_close(a, e)
        return
    np.testing.assert_allclose(np.asarray(actual), np.asarray(expected), rtol=2e-4, atol=2e-4)


# --------------------------------------------------------------------------
# The table itself
# --------------------------------------------------------------------------

def test_every_row_is_served_or_refused(ns: Any) -> None:
    for row in renames.RENAMES:
        assert sum(x is not None for x in (row.target, row.adapter, row.refusal)) == 1, row
        parent = ns
        *path, last = row.old.split(".")
        for part in path:
            parent = getattr(parent, part)
        if row.refusal is not None:
            with pytest.raises(tf1.LegacyAPIError, match=f"tf.{row.old} is not provided.*use"):
                getattr(parent, last)
        else:
            assert getattr(parent, last) is renames.resolve(row, v1), row.old


def test_the_upgrade_scripts_names_are_all_there() -> None:
    # TensorFlow 1.0's tf_upgrade.py: function renames and reorders (the table's misspelt
    # batch_band_part / batch_set_diag never existed; 0.x had batch_matrix_band_part / _set_diag).
    upgrade = {"inv", "listdiff", "list_diff", "mul", "neg", "sub", "train.SummaryWriter", "scalar_summary",
               "histogram_summary", "audio_summary", "image_summary", "merge_summary", "merge_all_summaries",
               "image.per_image_whitening", "all_variables", "VARIABLES", "initialize_all_variables",
               "initialize_variables", "initialize_local_variables", "batch_matrix_diag",
               "batch_matrix_band_part", "batch_matrix_set_diag", "batch_matrix_transpose",
               "batch_matrix_determinant", "batch_matrix_inverse", "batch_cholesky", "batch_cholesky_solve",
               "batch_matrix_solve", "batch_matrix_triangular_solve", "batch_matrix_solve_ls",
               "batch_self_adjoint_eig", "batch_self_adjoint_eigvals", "batch_svd", "batch_fft", "batch_ifft",
               "batch_fft2d", "batch_ifft2d", "batch_fft3d", "batch_ifft3d", "select", "complex_abs",
               "batch_matmul", "pack", "unpack", "op_scope", "contrib.deprecated.scalar_summary",
               "contrib.deprecated.histogram_summary", "ones_initializer", "zeros_initializer", "split",
               "sparse_split", "concat", "nn.softmax_cross_entropy_with_logits",
               "nn.sparse_softmax_cross_entropy_with_logits", "nn.sigmoid_cross_entropy_with_logits", "reverse"}
    assert upgrade <= {row.old for row in renames.RENAMES}


def test_the_real_modules_are_not_modified(ns: Any) -> None:
    assert ns.train.SummaryWriter is v1.summary.FileWriter
    assert not hasattr(v1.train, "SummaryWriter") and not hasattr(v1.image, "per_image_whitening")
    assert ns.nn.softmax_cross_entropy_with_logits is tf0_ops.softmax_cross_entropy_with_logits
    assert v1.nn.softmax_cross_entropy_with_logits is not tf0_ops.softmax_cross_entropy_with_logits
    assert ns.nn.relu is v1.nn.relu and ns.image.decode_png is v1.image.decode_png
    assert ns.image.resize_images is tf0_ops.resize_images
    assert "SummaryWriter" in dir(ns.train) and "Saver" in dir(ns.train)
    assert not hasattr(tf, "mul") and not hasattr(v1, "mul")


@pytest.mark.parametrize("name", sorted(PURE_RENAMES))
def test_pure_renames_compute_what_numpy_does(ns: Any, name: str) -> None:
    args, expected = PURE_RENAMES[name]
    assert_close(run_graph(lambda: getattr(ns, name)(*args)), expected())


def test_self_adjoint_eig_and_rnn_names(ns: Any) -> None:
    e, vectors = run_graph(lambda: ns.batch_self_adjoint_eig(SPD))
    np.testing.assert_allclose(e, np.linalg.eigvalsh(SPD), rtol=1e-4)
    np.testing.assert_allclose(SPD @ vectors, vectors * e[:, None, :], atol=1e-3)
    assert ns.nn.rnn is v1.nn.static_rnn and ns.nn.bidirectional_rnn is v1.nn.static_bidirectional_rnn
    assert ns.nn.state_saving_rnn is v1.nn.static_state_saving_rnn


def test_variable_renames(ns: Any) -> None:
    with tf.Graph().as_default():
        a = v1.Variable([1.0, 2.0], name="a")
        b = v1.Variable([3.0], name="b", collections=[v1.GraphKeys.LOCAL_VARIABLES])
        assert ns.all_variables() == [a] and ns.VARIABLES == "variables"
        with ns.op_scope([a], "outer", "default") as scope:
            assert scope == "outer/"
        with v1.Session() as sess:
            sess.run(ns.initialize_all_variables())
            sess.run(ns.initialize_local_variables())
            np.testing.assert_array_equal(sess.run([a, b])[1], [3.0])
            sess.run(a.assign([7.0, 8.0]))
            sess.run(ns.initialize_variables([a]))
            np.testing.assert_array_equal(sess.run(a), [1.0, 2.0])


# --------------------------------------------------------------------------
# Reordered arguments
# --------------------------------------------------------------------------

def test_concat_both_orders(ns: Any) -> None:
    expected = np.concatenate([A, B], 1)
    assert_close(run_graph(lambda: ns.concat(1, [A, B])), expected)
    assert_close(run_graph(lambda: ns.concat([A, B], 1)), expected)
    assert_close(run_graph(lambda: ns.concat(concat_dim=1, values=[A, B])), expected)
    assert_close(run_graph(lambda: ns.concat(np.int64(0), [A, B])), np.concatenate([A, B], 0))
    assert_close(run_graph(lambda: ns.concat(v1.constant(1), [A, B])), expected)
    with pytest.raises(TypeError, match="axis"):
        ns.concat([A, B])


def test_split_both_orders(ns: Any) -> None:
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    expected = np.split(x, 3, axis=1)
    assert_close(run_graph(lambda: ns.split(1, 3, x)), expected)
    assert_close(run_graph(lambda: ns.split(x, 3, 1)), expected)
    assert_close(run_graph(lambda: ns.split(x, 3, axis=1)), expected)
    assert_close(run_graph(lambda: ns.split(split_dim=1, num_split=3, value=x)), expected)
    assert_close(run_graph(lambda: ns.split(1, 3, value=x)), expected)
    assert_close(run_graph(lambda: ns.split(x, [1, 3])), np.split(x, [1], axis=0))


def test_sparse_split_positional_is_the_old_order(ns: Any) -> None:
    def build() -> Any:
        sp = v1.SparseTensor(indices=[[0, 0], [0, 3], [1, 1], [1, 5]], values=[1.0, 2.0, 3.0, 4.0],
                             dense_shape=[2, 6])
        old = ns.sparse_split(1, 2, sp)
        new = ns.sparse_split(sp_input=sp, num_split=2, axis=1)
        return [v1.sparse.to_dense(p) for p in old + new]
    parts = run_graph(build)
    dense = np.zeros((2, 6), np.float32)
    dense[0, 0], dense[0, 3], dense[1, 1], dense[1, 5] = 1, 2, 3, 4
    assert_close(parts, [dense[:, :3], dense[:, 3:], dense[:, :3], dense[:, 3:]])


def test_reverse_with_bool_dims(ns: Any) -> None:
    t = np.arange(24).reshape(2, 3, 4)
    expected = t[::-1, :, ::-1]
    assert_close(run_graph(lambda: ns.reverse(t, [True, False, True])), expected)
    assert_close(run_graph(lambda: ns.reverse(t, np.array([True, False, True]))), expected)
    assert_close(run_graph(lambda: ns.reverse(t, v1.constant([True, False, True]))), expected)
    assert_close(run_graph(lambda: ns.reverse(t, dims=[True, False, True])), expected)
    assert_close(run_graph(lambda: ns.reverse(t, [0, 2])), expected)
    with pytest.raises(ValueError, match="one entry per dimension"):
        ns.reverse(v1.constant(t), [True, False])


def test_batch_matmul_adjoints(ns: Any) -> None:
    x = (RNG.randn(2, 3, 3) + 1j * RNG.randn(2, 3, 3)).astype(np.complex64)
    y = (RNG.randn(2, 3, 3) + 1j * RNG.randn(2, 3, 3)).astype(np.complex64)
    assert_close(run_graph(lambda: ns.batch_matmul(x, y)), x @ y)
    assert_close(run_graph(lambda: ns.batch_matmul(x, y, True, False)), np.conj(x.transpose(0, 2, 1)) @ y)
    assert_close(run_graph(lambda: ns.batch_matmul(x, y, adj_y=True)), x @ np.conj(y.transpose(0, 2, 1)))


def test_batch_svd_old_flag_order(ns: Any) -> None:
    m = RNG.randn(2, 4, 3).astype(np.float32)
    s = run_graph(lambda: ns.batch_svd(m, False))  # 0.x: compute_uv=False
    np.testing.assert_allclose(s, np.linalg.svd(m, compute_uv=False), rtol=1e-4)
    s, u, v = run_graph(lambda: ns.batch_svd(m, True, True))  # full_matrices=True
    assert u.shape == (2, 4, 4) and v.shape == (2, 3, 3)


def test_initializers_as_functions_and_classes(ns: Any) -> None:
    assert_close(run_graph(lambda: ns.zeros_initializer([2, 3])), np.zeros((2, 3)))
    assert_close(run_graph(lambda: ns.ones_initializer([2], v1.int32)), np.ones(2))
    assert isinstance(ns.zeros_initializer(), v1.zeros_initializer)
    assert isinstance(ns.ones_initializer(dtype=v1.float64), v1.ones_initializer)

    def build() -> Any:
        a = v1.get_variable("a", [2, 2], initializer=ns.ones_initializer)
        b = v1.get_variable("b", [3], initializer=ns.zeros_initializer())
        return a, b
    a, b = run_graph(build)
    assert_close(a, np.ones((2, 2))) and assert_close(b, np.zeros(3))


LOGITS = np.array([[1.0, 2.0, 3.0], [1.0, 0.0, -1.0]], np.float32)
ONE_HOT = np.array([[0.0, 0.0, 1.0], [0.2, 0.8, 0.0]], np.float32)
SPARSE = np.array([2, 0])


def np_softmax_xent(logits: np.ndarray, labels: np.ndarray) -> np.ndarray:
    log_softmax = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    return -(labels * log_softmax).sum(-1)


def np_sigmoid_xent(x: np.ndarray, z: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))


def test_cross_entropy_positional_calls_are_the_old_order(ns: Any) -> None:
    expected = np_softmax_xent(LOGITS, ONE_HOT)
    assert_close(run_graph(lambda: ns.nn.softmax_cross_entropy_with_logits(LOGITS, ONE_HOT)), expected)
    assert_close(run_graph(lambda: ns.nn.softmax_cross_entropy_with_logits(labels=ONE_HOT, logits=LOGITS)),
                 expected)
    # Without the adapter, today's tf.compat.v1 takes (labels, logits) and silently swaps them.
    swapped = run_graph(lambda: v1.nn.softmax_cross_entropy_with_logits(LOGITS, ONE_HOT))
    assert not np.allclose(swapped, expected)
    sparse = np_softmax_xent(LOGITS, np.eye(3)[SPARSE])
    assert_close(run_graph(lambda: ns.nn.sparse_softmax_cross_entropy_with_logits(LOGITS, SPARSE)), sparse)
    assert_close(run_graph(lambda: ns.nn.sparse_softmax_cross_entropy_with_logits(labels=SPARSE, logits=LOGITS)),
                 sparse)
    targets = (ONE_HOT > 0.5).astype(np.float32)
    sigmoid = np_sigmoid_xent(LOGITS, targets)
    assert_close(run_graph(lambda: ns.nn.sigmoid_cross_entropy_with_logits(LOGITS, targets)), sigmoid)
    assert_close(run_graph(lambda: ns.nn.sigmoid_cross_entropy_with_logits(logits=LOGITS, targets=targets)),
                 sigmoid)
    assert_close(run_graph(lambda: ns.nn.sigmoid_cross_entropy_with_logits(labels=targets, logits=LOGITS)),
                 sigmoid)
    with pytest.raises(TypeError, match="multiple values"):
        ns.nn.softmax_cross_entropy_with_logits(LOGITS, logits=LOGITS)


def test_contrib_nn_flipped_losses(ns: Any) -> None:
    nn = ns.contrib.nn
    assert_close(run_graph(lambda: nn.deprecated_flipped_softmax_cross_entropy_with_logits(LOGITS, ONE_HOT)),
                 np_softmax_xent(LOGITS, ONE_HOT))
    assert_close(run_graph(lambda: nn.deprecated_flipped_softmax_cross_entropy_with_logits(
        LOGITS.T, ONE_HOT.T, dim=0)), np_softmax_xent(LOGITS, ONE_HOT))
    assert_close(run_graph(lambda: nn.deprecated_flipped_sparse_softmax_cross_entropy_with_logits(
        LOGITS, SPARSE)), np_softmax_xent(LOGITS, np.eye(3)[SPARSE]))
    targets = (ONE_HOT > 0.5).astype(np.float32)
    assert_close(run_graph(lambda: nn.deprecated_flipped_sigmoid_cross_entropy_with_logits(
        logits=LOGITS, targets=targets)), np_sigmoid_xent(LOGITS, targets))
    with pytest.raises(AttributeError, match=r"tf\.contrib\.nn\.rank_sampled_softmax_loss .*sampled_softmax_loss"):
        nn.rank_sampled_softmax_loss  # noqa: B018
    assert_close(run_graph(lambda: nn.scaled_softplus(LOGITS, 2.0)), 2.0 * np.log1p(np.exp(LOGITS / 2.0)))


def np_whitening(image: np.ndarray) -> np.ndarray:
    x = image.astype(np.float64)
    return (x - x.mean()) / max(x.std(), 1 / np.sqrt(x.size))


def test_per_image_whitening(ns: Any) -> None:
    image = RNG.randint(0, 256, size=(5, 4, 3)).astype(np.uint8)
    out = run_graph(lambda: ns.image.per_image_whitening(image))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np_whitening(image), rtol=1e-4, atol=1e-5)
    flat = np.full((2, 2, 1), 0.5, np.float32)
    nearly = flat + np.array([0, 1e-4, 0, 0], np.float32).reshape(2, 2, 1)
    np.testing.assert_allclose(run_graph(lambda: ns.image.per_image_whitening(nearly)), np_whitening(nearly),
                               rtol=1e-3, atol=1e-6)
    with pytest.raises(ValueError, match="3-D"):
        ns.image.per_image_whitening(np.zeros((1, 2, 2, 3), np.float32))


# --------------------------------------------------------------------------
# Summaries: written with the old ops, read back from the event file
# --------------------------------------------------------------------------

def read_events(logdir: Path) -> dict[str, Any]:
    values = {}
    for path in sorted(logdir.glob("events.out.tfevents.*")):
        for event in v1.train.summary_iterator(str(path)):
            for value in event.summary.value:
                values[value.tag] = value
    return values


def test_old_summary_ops_write_their_tags_verbatim(ns: Any, tmp_path: Path) -> None:
    image = np.zeros((2, 4, 5, 3), np.uint8)
    image[0, 1, 2] = [10, 20, 30]
    audio = np.linspace(-1, 1, 16, dtype=np.float32).reshape(1, 16)
    with tf.Graph().as_default():
        with v1.name_scope("tower"):
            ns.scalar_summary("loss (raw)", v1.constant(1.5))
            ns.scalar_summary(["a", "b"], v1.constant([2.0, 3.0]))
            ns.image_summary("one", image, max_images=1)
            ns.image_summary("two", image, 2)
            ns.contrib.deprecated.image_summary("contrib_img", image, max_images=1)
            ns.audio_summary("snd", audio, 8000, max_outputs=1)
            ns.histogram_summary("hist", v1.constant([1.0, 2.0, 4.0]))
            ns.contrib.deprecated.scalar_summary("contrib_scalar", v1.constant(-1.0))
            ns.contrib.deprecated.histogram_summary("contrib_hist", v1.constant([0.5]))
            ns.contrib.deprecated.audio_summary("contrib_snd", audio, 8000, max_outputs=1)
            extra = ns.scalar_summary("extra", v1.constant(9.0), collections=["mine"])
        assert v1.get_collection("mine") == [extra]
        merged = ns.merge_all_summaries()
        assert ns.merge_all_summaries("no_such_collection") is None
        pair = ns.contrib.deprecated.merge_summary([extra, ns.merge_summary([extra])])
        assert pair not in v1.get_collection(v1.GraphKeys.SUMMARIES)
        assert ns.contrib.deprecated.merge_all_summaries("mine") is not None
        with v1.Session() as sess:
            writer = ns.train.SummaryWriter(str(tmp_path), sess.graph)
            writer.add_summary(sess.run(merged), global_step=3)
            writer.close()
            with pytest.raises(v1.errors.InvalidArgumentError, match="Duplicate tag"):
                sess.run(pair)
    values = read_events(tmp_path)
    assert set(values) == {"loss (raw)", "a", "b", "one/image", "two/image/0", "two/image/1",
                           "contrib_img/image", "snd/audio", "hist", "contrib_scalar", "contrib_hist",
                           "contrib_snd/audio"}
    assert values["loss (raw)"].simple_value == 1.5 and values["b"].simple_value == 3.0
    assert values["contrib_scalar"].simple_value == -1.0
    decoded = tf.io.decode_png(values["one/image"].image.encoded_image_string).numpy()
    np.testing.assert_array_equal(decoded, image[0])
    assert (values["two/image/1"].image.height, values["two/image/1"].image.width) == (4, 5)
    assert values["snd/audio"].audio.sample_rate == 8000 and values["snd/audio"].audio.length_frames == 16
    histogram = values["hist"].histo
    assert (histogram.num, histogram.sum, histogram.min, histogram.max) == (3, 7.0, 1.0, 4.0)


def test_summary_writer_needs_no_session(ns: Any, tmp_path: Path) -> None:
    with tf.Graph().as_default() as graph:
        writer = ns.train.SummaryWriter(str(tmp_path), graph, flush_secs=1)
        summary = v1.Summary(value=[v1.Summary.Value(tag="acc", simple_value=0.25)])
        writer.add_summary(summary, 7)
        writer.flush()
        writer.close()
    assert read_events(tmp_path)["acc"].simple_value == 0.25


# --------------------------------------------------------------------------
# The static report
# --------------------------------------------------------------------------

def test_check_classifies_the_old_names(tmp_path: Path) -> None:
    write(tmp_path / "old.py", """
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 3])
        loss = tf.nn.softmax_cross_entropy_with_logits(x, x)
        ok = tf.nn.softmax_cross_entropy_with_logits(labels=x, logits=x)
        tf.image_summary("img", tf.reshape(x, [-1, 1, 3, 1]), 1)
        tf.contrib.deprecated.scalar_summary("s", tf.reduce_mean(x))
        flipped = tf.contrib.nn.deprecated_flipped_softmax_cross_entropy_with_logits(x, x)
        parts = tf.split(1, 3, x)
        fine = tf.split(x, 3, 1)
        r = tf.reverse(x, [False, True])
        w = tf.image.per_image_whitening(x)
        writer = tf.train.SummaryWriter("logs")
        y = tf.batch_matmul(x, x, adj_y=True)
        init = tf.initialize_all_variables()
        bad = tf.nn.seq2seq
    """)
    report = check.check_script(tmp_path / "old.py")
    statuses = {(f.line, f.construct): f.status for f in report.findings}
    bridged_lines = {line for (line, _), status in statuses.items() if status == "bridged"}
    assert bridged_lines == {3, 5, 6, 7, 8, 10, 11, 12, 13, 14}
    assert statuses[(15, "tf.nn.seq2seq")] == "unsupported"
    assert {status for (line, _), status in statuses.items() if line == 4} == {"compat.v1"}
    assert not any(line == 9 for (line, _) in statuses)
    assert report.unsupported and "tf.keras.layers" in report.unsupported[0].action
    text = report.format()
    assert "old.py:12:9: bridged: tf.train.SummaryWriter -> renamed op, bridged to " \
           "tf.compat.v1.summary.FileWriter" in text


# --------------------------------------------------------------------------
# Old scripts through the runner (each failed before this table)
# --------------------------------------------------------------------------

@pytest.mark.timeout(200)
def test_old_summary_and_loss_script_runs(tmp_path: Path) -> None:
    script = write(tmp_path / "train_old.py", """
        import numpy as np
        import tensorflow as tf

        images = tf.constant(np.arange(2 * 3 * 3 * 1, dtype=np.uint8).reshape(2, 3, 3, 1))
        logits = tf.constant([[1.0, 2.0, 3.0], [1.0, 0.0, -1.0]])
        labels = tf.constant([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
        xent = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits, labels))
        flipped = tf.reduce_mean(tf.contrib.nn.deprecated_flipped_softmax_cross_entropy_with_logits(logits, labels))
        tf.scalar_summary("xent (mean)", xent)
        tf.image_summary("inputs", images, max_images=2)
        tf.contrib.deprecated.image_summary("first", images, 1)
        merged = tf.merge_all_summaries()
        parts = tf.split(1, 3, tf.concat(1, [logits, labels]))
        with tf.Session() as sess:
            writer = tf.train.SummaryWriter("logs", sess.graph)
            writer.add_summary(sess.run(merged), 0)
            writer.close()
            print("xent %.6f %.6f" % tuple(sess.run([xent, flipped])))
            print("parts", [p.shape.as_list() for p in parts])
    """)
    result = compat_run(script)
    assert result.returncode == 0, result.stderr
    expected = np_softmax_xent(np.array([[1.0, 2.0, 3.0], [1.0, 0.0, -1.0]]),
                               np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])).mean()
    lines = result.stdout.splitlines()
    assert lines[0] == f"xent {expected:.6f} {expected:.6f}"
    assert lines[1] == "parts [[2, 2], [2, 2], [2, 2]]"
    values = read_events(tmp_path / "logs")
    assert set(values) == {"xent (mean)", "inputs/image/0", "inputs/image/1", "first/image"}
    assert values["xent (mean)"].simple_value == pytest.approx(expected, rel=1e-6)


# --------------------------------------------------------------------------
# Renamed keywords (still accepted by tf.compat.v1, or by an adapter)
# --------------------------------------------------------------------------

def test_every_old_keyword_is_accepted(ns: Any) -> None:
    import inspect
    for function, keywords in renames.KEYWORD_RENAMES.items():
        parameters = inspect.signature(getattr(ns, function)).parameters
        accepts_any = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
        for old in keywords:
            assert old in parameters or accepts_any, f"tf.{function}({old}=...)"


def test_old_keywords_compute_the_new_values(ns: Any) -> None:
    x = np.array([[1.0, 5.0, 2.0], [0.0, 3.0, 7.0]], np.float32)
    for op, reference in (("sum", np.sum), ("mean", np.mean), ("max", np.max), ("min", np.min),
                          ("prod", np.prod)):
        got = run_graph(lambda op=op: getattr(ns, f"reduce_{op}")(x, reduction_indices=1, keep_dims=True))
        assert_close(got, reference(x, axis=1, keepdims=True))
    assert_close(run_graph(lambda: ns.reduce_logsumexp(x, reduction_indices=[0])),
                 np.log(np.exp(x).sum(0)))
    assert_close(run_graph(lambda: ns.reduce_all(x > 0, reduction_indices=1)), (x > 0).all(1))
    assert_close(run_graph(lambda: ns.reduce_any(x > 6, reduction_indices=0)), (x > 6).any(0))
    assert_close(run_graph(lambda: ns.count_nonzero(x, reduction_indices=1)), (x != 0).sum(1))
    assert_close(run_graph(lambda: ns.argmax(x, dimension=1)), x.argmax(1))
    assert_close(run_graph(lambda: ns.argmin(x, dimension=0)), x.argmin(0))
    assert run_graph(lambda: ns.expand_dims(x, dim=1)).shape == (2, 1, 3)
    assert run_graph(lambda: ns.squeeze(x[:, None], squeeze_dims=[1])).shape == (2, 3)
    assert run_graph(lambda: ns.reduce_join([["a", "b"], ["c", "d"]], reduction_indices=1)).tolist() == [
        b"ab", b"cd"]
    seqs = np.arange(8).reshape(2, 4)
    assert_close(run_graph(lambda: ns.reverse_sequence(seqs, [2, 3], seq_dim=1, batch_dim=0)),
                 [[1, 0, 2, 3], [6, 5, 4, 7]])

    def sparse() -> Any:
        a = v1.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])
        b = v1.SparseTensor([[0, 1]], [3.0], [2, 2])
        joined = ns.sparse_concat(concat_dim=1, sp_inputs=[a, b])
        parts = ns.sparse_split(split_dim=1, num_split=2, sp_input=joined)
        return (v1.sparse.to_dense(joined), ns.sparse_reduce_sum(joined, reduction_axes=1),
                v1.sparse.to_dense(ns.sparse_reduce_sum_sparse(joined, reduction_axes=0)),
                v1.sparse.to_dense(parts[1]))
    joined, row_sums, column_sums, right = run_graph(sparse)
    assert_close(joined, [[1, 0, 0, 3], [0, 2, 0, 0]])
    assert_close(row_sums, [4, 2]) and assert_close(column_sums, [1, 2, 0, 3])
    assert_close(right, [[0, 3], [0, 0]])


def test_sampled_losses_accept_the_pre_1_0_order(ns: Any) -> None:
    rng = np.random.RandomState(3)
    weights = rng.randn(6, 4).astype(np.float32)
    biases = rng.randn(6).astype(np.float32)
    inputs = rng.randn(3, 4).astype(np.float32)
    labels = np.array([[1], [4], [0]], np.int64)
    for name in ("nce_loss", "sampled_softmax_loss"):
        def build(old: bool, name: str = name) -> Any:
            v1.set_random_seed(7)
            # the same fixed sampled classes for both calls
            sampled = (np.array([2, 3], np.int64), np.full((3, 1), 0.5, np.float32), np.full(2, 0.5, np.float32))
            pair = (inputs, labels) if old else (labels, inputs)
            return getattr(ns.nn, name)(weights, biases, *pair, 2, 6, sampled_values=sampled)
        new_order = run_graph(lambda: build(False))
        old_order = run_graph(lambda: build(True))
        assert new_order.shape == (3,) and np.all(np.isfinite(new_order))
        np.testing.assert_allclose(old_order, new_order, rtol=1e-6)
    # Independent value: sampled softmax with fixed samples and no accidental hits among them.
    logits_true = (inputs * weights[labels[:, 0]]).sum(1) + biases[labels[:, 0]] - np.log(0.5)
    logits_sampled = inputs @ weights[[2, 3]].T + biases[[2, 3]] - np.log(0.5)
    all_logits = np.concatenate([logits_true[:, None], logits_sampled], 1)
    expected = np.log(np.exp(all_logits).sum(1)) - logits_true
    got = run_graph(lambda: ns.nn.sampled_softmax_loss(
        weights, biases, inputs, labels, 2, 6, remove_accidental_hits=False,
        sampled_values=(np.array([2, 3], np.int64), np.full((3, 1), 0.5, np.float32),
                        np.full(2, 0.5, np.float32))))
    np.testing.assert_allclose(got, expected, rtol=1e-5)


def test_resize_images_0_11_form(ns: Any) -> None:
    image = RNG.rand(1, 4, 6, 1).astype(np.float32)
    new = run_graph(lambda: ns.image.resize_images(image, [2, 3]))
    assert new.shape == (1, 2, 3, 1)
    np.testing.assert_array_equal(run_graph(lambda: ns.image.resize_images(image, 2, 3)), new)
    np.testing.assert_array_equal(run_graph(lambda: ns.image.resize_images(image, new_height=2, new_width=3)), new)
    nearest = run_graph(lambda: ns.image.resize_images(image, 2, 3, 1))  # method 1: nearest neighbour
    np.testing.assert_array_equal(nearest, image[:, ::2, ::2])
    np.testing.assert_array_equal(run_graph(lambda: ns.image.resize_images(
        image, [2, 3], method=v1.image.ResizeMethod.NEAREST_NEIGHBOR)), nearest)


def test_check_spots_the_0_11_resize_call(tmp_path: Path) -> None:
    write(tmp_path / "resize.py", """
        import tensorflow as tf
        image = tf.zeros([1, 4, 4, 3])
        small = tf.image.resize_images(image, 2, 2)
        same = tf.image.resize_images(image, [2, 2])
    """)
    found = {(f.line, f.status) for f in check.check_script(tmp_path / "resize.py").findings}
    assert (3, "bridged") in found and (4, "bridged") not in found


def test_sparse_tensor_takes_the_pre_1_0_shape_keyword(ns: Any) -> None:
    indices, values = [[0, 0], [1, 2]], np.array([1.0, 2.0], np.float32)
    expected = np.zeros((2, 3), np.float32)
    expected[0, 0], expected[1, 2] = 1.0, 2.0
    dense = run_graph(lambda: tf.sparse.to_dense(ns.SparseTensor(indices=indices, values=values, shape=[2, 3])))
    assert_close(dense, expected)
    with tf.Graph().as_default():
        made = ns.SparseTensor(indices, values, [2, 3])  # today's positional call, unchanged
        assert isinstance(made, ns.SparseTensor) and type(made) is tf.SparseTensor
        assert ns.SparseTensor.from_value == tf.SparseTensor.from_value  # a bound classmethod: equal, not identical
        with pytest.raises(TypeError, match="both 'shape'.*'dense_shape'"):
            ns.SparseTensor(indices, values, dense_shape=[2, 3], shape=[2, 3])
    value = ns.SparseTensorValue(indices=indices, values=values, shape=[2, 3])
    assert isinstance(value, tf.compat.v1.SparseTensorValue) and list(value.dense_shape) == [2, 3]
