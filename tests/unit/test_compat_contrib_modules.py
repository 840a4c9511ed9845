"""tf.contrib image, metrics, losses, sparsemax, integrate, resampler, ... against NumPy / by-hand values."""
from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")
V1 = tf.compat.v1


def _bridge(name: str) -> Any:
    return importlib.import_module(f"compat.contrib.{name}")


def _run(build: Any, feed: Any = None) -> Any:
    """Builds ``build()`` in a fresh graph and runs it once after initialising everything."""
    with tf.Graph().as_default():
        fetches = build()
        with V1.Session() as session:
            session.run([V1.global_variables_initializer(), V1.local_variables_initializer(),
                         V1.tables_initializer()])
            return session.run(fetches, feed)


def _projective_nearest(image: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """Output pixel (x, y) reads the input at the transformed point, rounded; zero outside."""
    height, width = image.shape[:2]
    out = np.zeros_like(image)
    a0, a1, a2, b0, b1, b2, c0, c1 = flat
    for y in range(height):
        for x in range(width):
            k = c0 * x + c1 * y + 1
            sx, sy = (a0 * x + a1 * y + a2) / k, (b0 * x + b1 * y + b2) / k
            ix, iy = int(np.round(sx)), int(np.round(sy))
            if 0 <= ix < width and 0 <= iy < height:
                out[y, x] = image[iy, ix]
    return out


IMAGE = np.arange(20, dtype=np.float32).reshape(4, 5, 1)


def test_rotate_translate_transform_by_hand() -> None:
    image = _bridge("image")
    angle = 0.3
    rotated, translated, composed = _run(lambda: (image.rotate(IMAGE, angle), image.translate(IMAGE, [2.0, -1.0]),
                                                  image.compose_transforms([1, 0, -2, 0, 1, 0, 0, 0],
                                                                           [1, 0, 0, 0, 1, 1, 0, 0])))
    cos, sin = np.cos(angle), np.sin(angle)
    h, w = 3.0, 4.0  # height - 1, width - 1
    flat = [cos, -sin, (w - (cos * w - sin * h)) / 2, sin, cos, (h - (sin * w + cos * h)) / 2, 0, 0]
    np.testing.assert_array_equal(rotated, _projective_nearest(IMAGE, np.array(flat)))
    expected_translated = np.zeros_like(IMAGE)
    expected_translated[:3, 2:] = IMAGE[1:, :3]  # moved right by 2, up by 1
    np.testing.assert_array_equal(translated, expected_translated)
    np.testing.assert_allclose(composed, [[1, 0, -2, 0, 1, 1, 0, 0]])
    # A half turn of a square image is a flip of both axes.
    square = np.arange(9, dtype=np.float32).reshape(1, 3, 3, 1)
    np.testing.assert_array_equal(_run(lambda: image.rotate(square, np.pi)), square[:, ::-1, ::-1])


def test_dense_image_warp_is_bilinear() -> None:
    image = _bridge("image")
    flow = np.zeros((1, 4, 5, 2), np.float32)
    flow[0, 2, 3] = [0.5, 0.25]  # pixel (2, 3) reads (1.5, 2.75)
    out = _run(lambda: image.dense_image_warp(IMAGE[None], flow))[0, ..., 0]
    grid = IMAGE[..., 0]
    top = grid[1, 2] + 0.75 * (grid[1, 3] - grid[1, 2])
    bottom = grid[2, 2] + 0.75 * (grid[2, 3] - grid[2, 2])
    expected = grid.copy()
    expected[2, 3] = top + 0.5 * (bottom - top)
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_adjust_yiq_hsv_identity_and_value_scale() -> None:
    image = _bridge("image")
    rgb = np.random.default_rng(0).uniform(size=(2, 3, 3)).astype(np.float32)
    same, darker = _run(lambda: (image.adjust_yiq_hsv(rgb), image.adjust_yiq_hsv(rgb, 0.7, 1.0, 0.5)))
    np.testing.assert_allclose(same, rgb, atol=1e-5)
    # A hue rotation keeps luma Y; the value scale halves it.
    luma = np.array([0.299, 0.587, 0.114], np.float32)
    np.testing.assert_allclose(darker @ luma, 0.5 * (rgb @ luma), atol=1e-5)


def test_streaming_metrics_by_hand() -> None:
    metrics = _bridge("metrics")
    predictions = np.array([0.9, 0.2, 0.6, 0.4, 0.8], np.float32)
    labels = np.array([1, 0, 0, 1, 1], np.int64)
    hard = predictions > 0.5

    def build() -> Any:
        pairs = {
            "accuracy": metrics.streaming_accuracy(hard.astype(np.int64), labels),
            "precision": metrics.streaming_precision(hard, labels.astype(bool)),
            "recall": metrics.streaming_recall(hard, labels.astype(bool)),
            "fpr": metrics.streaming_false_positive_rate(hard, labels.astype(bool)),
            "fnr": metrics.streaming_false_negative_rate(hard, labels.astype(bool)),
            "mae": metrics.streaming_mean_absolute_error(predictions, labels.astype(np.float32)),
            "rmse": metrics.streaming_root_mean_squared_error(predictions, labels.astype(np.float32)),
            "pearson": metrics.streaming_pearson_correlation(predictions, labels.astype(np.float32)),
            "covariance": metrics.streaming_covariance(predictions, labels.astype(np.float32)),
            "mean": metrics.streaming_mean(predictions),
            "count": metrics.count(predictions),
            "recall_at_1": metrics.streaming_recall_at_k(np.eye(3, dtype=np.float32), np.array([0, 2, 2]), 1),
            "fpr_at": metrics.streaming_false_positive_rate_at_thresholds(predictions, labels.astype(bool), [0.5]),
        }
        values, updates = metrics.aggregate_metric_map(pairs)
        with tf.control_dependencies(list(updates.values())):
            return {name: tf.identity(value) for name, value in values.items()}
    got = _run(build)
    tp, fp, fn, tn = 2, 1, 1, 1
    targets = labels.astype(np.float32)
    expected = {"accuracy": 3 / 5, "precision": tp / (tp + fp), "recall": tp / (tp + fn), "fpr": fp / (fp + tn),
                "fnr": fn / (fn + tp), "mae": np.mean(np.abs(predictions - targets)),
                "rmse": np.sqrt(np.mean((predictions - targets) ** 2)),
                "pearson": np.corrcoef(predictions, targets)[0, 1], "covariance": np.cov(predictions, targets)[0, 1],
                "mean": predictions.mean(), "count": 5.0, "recall_at_1": 2 / 3, "fpr_at": [fp / (fp + tn)]}
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, rel=1e-5), name


def test_losses_keep_the_contrib_argument_order() -> None:
    losses = _bridge("losses")
    predictions = np.array([[0.2, 0.7], [0.9, 0.4]], np.float32)
    labels = np.array([[0.0, 1.0], [1.0, 1.0]], np.float32)
    logits = np.array([[2.0, -1.0], [0.5, 0.5]], np.float32)
    mse, absolute, hinge, softmax, sparse = _run(lambda: (
        losses.mean_squared_error(predictions, labels), losses.absolute_difference(predictions, labels),
        losses.hinge_loss(logits, labels), losses.softmax_cross_entropy(logits, labels / labels.sum(1, keepdims=True)),
        losses.sparse_softmax_cross_entropy(logits, np.array([0, 1]))))
    assert mse == pytest.approx(np.mean((predictions - labels) ** 2))
    assert absolute == pytest.approx(np.mean(np.abs(predictions - labels)))
    np.testing.assert_allclose(hinge, np.maximum(0, 1 - (2 * labels - 1) * logits))
    log_softmax = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    targets = labels / labels.sum(1, keepdims=True)
    assert softmax == pytest.approx(-np.mean((targets * log_softmax).sum(1)), rel=1e-5)
    assert sparse == pytest.approx(-np.mean([log_softmax[0, 0], log_softmax[1, 1]]), rel=1e-5)


def _sparsemax_numpy(z: np.ndarray) -> np.ndarray:
    out = []
    for row in z:
        ordered = np.sort(row)[::-1]
        cumulative = np.cumsum(ordered)
        k = max(j for j in range(1, len(row) + 1) if 1 + j * ordered[j - 1] > cumulative[j - 1])
        tau = (cumulative[k - 1] - 1) / k
        out.append(np.maximum(row - tau, 0))
    return np.array(out)


def test_sparsemax_and_loss() -> None:
    sparsemax = _bridge("sparsemax")
    logits = np.array([[1.0, 2.0, 0.1], [0.3, 0.2, 0.1], [5.0, -1.0, 4.5]], np.float32)
    labels = np.eye(3, dtype=np.float32)
    probs, loss = _run(lambda: (sparsemax.sparsemax(logits),
                                sparsemax.sparsemax_loss(logits, sparsemax.sparsemax(logits), labels)))
    expected = _sparsemax_numpy(logits.astype(np.float64))
    np.testing.assert_allclose(probs, expected, atol=1e-6)
    # The loss is 0 when the target is the sparsemax itself, and its gradient is sparsemax - q.
    z = logits - logits.mean(1, keepdims=True)
    tau = (z - expected).max(1, keepdims=True)
    support = expected > 0
    by_hand = -(labels * z).sum(1) + 0.5 * (support * (z ** 2 - tau ** 2)).sum(1) + 0.5
    np.testing.assert_allclose(loss, by_hand, rtol=1e-5)


def test_odeint_exponential_decay() -> None:
    integrate = _bridge("integrate")
    times = np.array([0.0, 0.5, 2.0], np.float32)
    adaptive, fixed = _run(lambda: (integrate.odeint(lambda y, t: -2.0 * y, tf.constant([1.0, 3.0]), times),
                                    integrate.odeint_fixed(lambda y, t: -2.0 * y, tf.constant([1.0, 3.0]), times,
                                                           dt=0.05)))
    expected = np.exp(-2.0 * times)[:, None] * np.array([1.0, 3.0])
    np.testing.assert_allclose(adaptive, expected, rtol=1e-5)
    np.testing.assert_allclose(fixed, expected, rtol=1e-5)


def test_resampler_and_reduce_slices() -> None:
    resampler = _bridge("resampler")
    reduce_slice_ops = _bridge("reduce_slice_ops")
    data = IMAGE[None]
    warp = np.array([[[1.5, 2.25], [4.0, 3.0], [-1.0, 0.0]]], np.float32)  # (x, y)
    sampled, sums, maxima = _run(lambda: (
        resampler.resampler(data, warp),
        reduce_slice_ops.reduce_slice_sum(np.arange(8.0).reshape(4, 2), np.array([[0, 2], [1, 4], [3, 3]]), 0),
        reduce_slice_ops.reduce_slice_max(np.arange(8.0).reshape(2, 4), np.array([0, 1, 4]), 1)))
    grid = IMAGE[..., 0]
    at = (0.75 * (0.5 * grid[2, 1] + 0.5 * grid[2, 2]) + 0.25 * (0.5 * grid[3, 1] + 0.5 * grid[3, 2]))
    np.testing.assert_allclose(sampled[0, :, 0], [at, grid[3, 4], 0.0], rtol=1e-6)
    np.testing.assert_allclose(sums, [[2, 4], [12, 15], [0, 0]])
    np.testing.assert_allclose(maxima, [[0, 3], [4, 7]])


def test_kernel_methods() -> None:
    kernel_methods = _bridge("kernel_methods")
    mapper = kernel_methods.RandomFourierFeatureMapper(2, 4000, stddev=1.5, seed=3)
    points = np.array([[0.0, 0.0], [0.5, -0.5]], np.float32)
    logits = np.array([[2.0, 1.5, -1.0], [0.0, 3.0, 0.5]], np.float32)
    features, hinge = _run(lambda: (mapper.map(points),
                                    kernel_methods.sparse_multiclass_hinge_loss(np.array([0, 2]), logits)))
    # The features approximate the Gaussian kernel exp(-|x - y|^2 / (2 stddev^2)).
    assert features[0] @ features[1] == pytest.approx(np.exp(-0.5 / (2 * 1.5 ** 2)), abs=0.05)
    assert hinge == pytest.approx(np.mean([max(0, 1 + 1.5 - 2.0), max(0, 1 + 3.0 - 0.5)]))


def test_lookup_and_input_pipeline() -> None:
    lookup = _bridge("lookup")
    input_pipeline = _bridge("input_pipeline")

    def build() -> Any:
        mapping = tf.constant(["a", "b", "c"])
        table = lookup.HashTable(lookup.KeyValueTensorInitializer(["x", "y"], [7, 9], tf.string, tf.int64), -1)
        counter = V1.get_variable("counter", initializer=np.int64(-1))
        names = input_pipeline.obtain_next(tf.constant(["p", "q"]), counter)
        return (lookup.string_to_index(tf.constant(["c", "zz", "a"]), mapping),
                lookup.index_to_string(tf.constant([1, 5], tf.int64), mapping),
                table.lookup(tf.constant(["y", "w"])), names)
    ids, words, values, name = _run(build)
    np.testing.assert_array_equal(ids, [2, -1, 0])
    assert list(words) == [b"b", b"UNK"]
    np.testing.assert_array_equal(values, [9, -1])
    assert name == b"p"


def test_distributions_from_probability() -> None:
    distributions = _bridge("distributions")

    def build() -> Any:
        normal = distributions.Normal(loc=1.0, scale=2.0)
        soft = distributions.NormalWithSoftplusScale(loc=0.0, scale=0.0)
        return (normal.log_prob(0.0), distributions.kl_divergence(normal, distributions.Normal(0.0, 1.0)),
                soft.scale)
    log_prob, kl, soft_scale = _run(build)
    assert log_prob == pytest.approx(-0.5 * np.log(2 * np.pi * 4) - 1 / 8, rel=1e-6)
    assert kl == pytest.approx(np.log(1 / 2) + (4 + 1) / 2 - 0.5, rel=1e-6)
    assert soft_scale == pytest.approx(np.log(2.0))


def test_summary_writes_scalars_in_graph_mode(tmp_path: Any) -> None:
    summary = _bridge("summary")
    with tf.Graph().as_default():
        step = V1.train.get_or_create_global_step()
        writer = summary.create_file_writer(str(tmp_path))
        with writer.as_default(), summary.always_record_summaries():
            op = summary.scalar("loss", tf.constant(1.5), step=step)
            flush = summary.flush()
            with V1.Session() as session:
                session.run(V1.global_variables_initializer())
                session.run(summary.summary_writer_initializer_op())
                session.run(op)
                session.run(flush)
    values = [v for path in tmp_path.iterdir() for event in V1.train.summary_iterator(str(path))
              for v in event.summary.value if v.tag == "loss"]
    assert [v.simple_value if v.HasField("simple_value") else float(tf.make_ndarray(v.tensor))
            for v in values] == [1.5]


def test_functional_rnn_runs_a_cell_like_dynamic_rnn() -> None:
    recurrent = _bridge("recurrent")
    crf = _bridge("crf")
    rng = np.random.default_rng(5)
    unaries = rng.normal(size=(2, 3, 3)).astype(np.float32)
    transitions = rng.normal(size=(3, 3)).astype(np.float32)
    # The CRF forward cell over steps 1.. from the first unaries: its final state's log-sum-exp is the log-norm.
    _, final = _run(lambda: recurrent.functional_rnn(crf.CrfForwardRnnCell(transitions), unaries[:, 1:],
                                                     initial_state=tf.constant(unaries[:, 0])))
    alpha = unaries[:, 0].astype(np.float64)
    for t in (1, 2):
        alpha = unaries[:, t] + np.log(np.exp(alpha[:, :, None] + transitions[None]).sum(axis=1))
    np.testing.assert_allclose(final, alpha, rtol=1e-5)


def test_quantization_round_trip() -> None:
    quantization = _bridge("quantization")
    values = np.array([0.0, 1.0, 2.0, 4.0], np.float32)

    def build() -> Any:
        quantized = quantization.quantize_v2(values, 0.0, 4.0, tf.quint8)
        return quantization.dequantize(quantized.output, quantized.output_min, quantized.output_max)
    np.testing.assert_allclose(_run(build), values, atol=4.0 / 255)


def test_connected_components_numbered_by_first_pixel() -> None:
    image = _bridge("image")
    batch = np.array([[[0, 2, 2, 0],
                       [1, 0, 2, 0],
                       [1, 0, 0, 3]],
                      [[5, 0, 0, 5],
                       [5, 5, 0, 5],
                       [0, 0, 0, 0]]], np.int32)
    expected = np.array([[[0, 1, 1, 0],
                          [2, 0, 1, 0],
                          [2, 0, 0, 3]],
                         [[4, 0, 0, 5],
                          [4, 4, 0, 5],
                          [0, 0, 0, 0]]])
    np.testing.assert_array_equal(_run(lambda: image.connected_components(batch)), expected)


def test_streaming_concat_gathers_every_batch() -> None:
    metrics = _bridge("metrics")
    with tf.Graph().as_default():
        batch = V1.placeholder(tf.float32, [None, 2])
        value, update = metrics.streaming_concat(batch)
        with V1.Session() as session:
            session.run(V1.local_variables_initializer())
            session.run(update, {batch: [[1, 2]]})
            session.run(update, {batch: [[3, 4], [5, 6]]})
            np.testing.assert_array_equal(session.run(value), [[1, 2], [3, 4], [5, 6]])


def test_predictor_runs_a_saved_model_signature(tmp_path: Any) -> None:
    predictor = _bridge("predictor")
    export_dir = str(tmp_path / "export")
    with tf.Graph().as_default():
        x = V1.placeholder(tf.float32, [None, 2], name="x")
        w = V1.get_variable("w", initializer=np.array([[1.0], [-2.0]], np.float32))
        y = tf.matmul(x, w) + 0.5
        with V1.Session() as session:
            session.run(V1.global_variables_initializer())
            V1.saved_model.simple_save(session, export_dir, inputs={"x": x}, outputs={"y": y})
    predict = predictor.from_saved_model(export_dir)
    result = predict({"x": [[3.0, 1.0], [0.0, 2.0]]})
    np.testing.assert_allclose(result["y"], [[1.5], [-3.5]])
    with pytest.raises(ValueError, match="unknown input keys"):
        predict({"z": [[0.0, 0.0]]})


def test_linalg_forwards_the_linear_operators() -> None:
    linalg = _bridge("linalg")
    from compat.errors import LegacyAPIError

    operator_value, logdet = _run(lambda: (
        linalg.LinearOperatorDiag([2.0, 3.0]).matmul(np.ones((2, 1), np.float32)),
        linalg.logdet(np.array([[2.0, 0.0], [0.0, 5.0]], np.float32))))
    np.testing.assert_allclose(operator_value, [[2.0], [3.0]])
    assert logdet == pytest.approx(np.log(10.0))
    with pytest.raises(LegacyAPIError, match="tf.contrib.linalg"):
        _ = linalg.no_such_operator


def test_nccl_reductions_of_tower_tensors() -> None:
    nccl = _bridge("nccl")
    towers = [np.array([1.0, -2.0], np.float32), np.array([3.0, 5.0], np.float32), np.array([0.5, 1.0], np.float32)]
    sums, maxima, total = _run(lambda: (nccl.all_sum(towers), nccl.all_max(towers), nccl.reduce_sum(towers)))
    for value in sums:
        np.testing.assert_allclose(value, np.sum(towers, axis=0))
    for value in maxima:
        np.testing.assert_allclose(value, np.max(towers, axis=0))
    np.testing.assert_allclose(total, np.sum(towers, axis=0))
