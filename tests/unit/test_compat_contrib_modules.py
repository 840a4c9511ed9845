"""tf.contrib image, metrics, losses, sparsemax, integrate, resampler, ... against NumPy / by-hand values."""
from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest
import tensorflow as tf

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
        return metrics.aggregate_metric_map(pairs)
    # The updates first, then the values, in two runs as TF1 code ran them: a value is read
    # from the metric's variables, and in one run nothing orders that read after the update
    # (pearson's three covariances read half-updated once gave 0/0).
    with tf.Graph().as_default():
        values, updates = build()
        with V1.Session() as session:
            session.run([V1.global_variables_initializer(), V1.local_variables_initializer()])
            session.run(updates)
            got = session.run(values)
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


def test_distributions_take_tf10_keywords_and_methods() -> None:
    distributions = _bridge("distributions")
    from tensorflow_probability import distributions as tfd

    def build() -> Any:
        normal = distributions.Normal(mu=1.0, sigma=2.0)
        prior = distributions.Normal(mu=0.0, sigma=1.0)
        assert isinstance(normal, tfd.Normal) and normal.parameters["loc"] == 1.0
        bernoulli = distributions.Bernoulli(p=0.25)
        mvn = distributions.MultivariateNormalDiag(mu=[0.0, 0.0], diag_stdev=[2.0, 2.0])
        full = distributions.MultivariateNormalFull(mu=[0.0, 0.0], sigma=[[4.0, 0.0], [0.0, 4.0]])
        return (normal.log_pdf(0.0), normal.pdf(0.0), normal.mu, normal.sigma, bernoulli.log_pmf(1.0),
                bernoulli.pmf(0.0), distributions.kl(normal, prior), distributions.Gamma(alpha=2.0, beta=4.0).mean(),
                distributions.Beta(a=2.0, b=6.0).mean(), distributions.Uniform(a=1.0, b=3.0).mean(),
                distributions.Exponential(lam=4.0).mean(), mvn.log_pdf([0.0, 0.0]), full.log_prob([0.0, 0.0]),
                tf.shape(normal.sample_n(5, seed=1)), tf.constant(normal.get_batch_shape().ndims))
    (log_pdf, pdf, mu, sigma, log_pmf, pmf, kl, gamma_mean, beta_mean, uniform_mean, exp_mean, mvn_log_pdf,
     full_log_prob, sample_shape, batch_ndims) = _run(build)
    assert log_pdf == pytest.approx(-0.5 * np.log(2 * np.pi * 4) - 1 / 8, rel=1e-6)
    assert pdf == pytest.approx(np.exp(-1 / 8) / np.sqrt(2 * np.pi * 4), rel=1e-6)
    assert (mu, sigma) == (1.0, 2.0)
    assert log_pmf == pytest.approx(np.log(0.25)) and pmf == pytest.approx(0.75)
    assert kl == pytest.approx(np.log(1 / 2) + (4 + 1) / 2 - 0.5, rel=1e-6)
    assert (gamma_mean, beta_mean, uniform_mean, exp_mean) == pytest.approx((0.5, 0.25, 2.0, 0.25))
    assert mvn_log_pdf == pytest.approx(-np.log(2 * np.pi) - 2 * np.log(2.0), rel=1e-6)
    assert full_log_prob == pytest.approx(mvn_log_pdf, rel=1e-6)
    assert list(sample_shape) == [5] and batch_ndims == 0
    with pytest.raises(TypeError, match="got both 'mu'"):
        distributions.Normal(mu=0.0, loc=0.0, scale=1.0)


def test_bijectors_tfp_dropped_follow_tf1_equations() -> None:
    bijectors = _bridge("distributions").bijectors
    x = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)
    shift = np.array([1.0, -2.0, 0.5], np.float32)
    diag = np.array([2.0, 0.5, 3.0], np.float32)
    tril = np.array([[1.0, 9.0, 9.0], [0.3, 1.5, 9.0], [-0.2, 0.4, 0.7]], np.float32)  # upper part ignored
    factor = np.array([[1.0], [0.5], [-1.0]], np.float32)
    # TF 1.x: scale = c I + diag(d) + tril(L) + U diag(p) U^T; y = scale @ x + shift.
    scale = 0.5 * np.eye(3) + np.diag(diag) + np.tril(tril) + factor @ np.diag([2.0]) @ factor.T

    def build() -> Any:
        full = bijectors.Affine(shift=shift, scale_identity_multiplier=0.5, scale_diag=diag, scale_tril=tril,
                                scale_perturb_factor=factor, scale_perturb_diag=[2.0])
        only_diag = bijectors.Affine(shift=shift, scale_diag=diag)
        identity_scale = bijectors.Affine(shift=shift)
        scalar = bijectors.AffineScalar(shift=1.0, scale=3.0)
        ordered = bijectors.Ordered()
        return (full.forward(x), full.inverse(full.forward(x)), full.forward_log_det_jacobian(x, event_ndims=1),
                only_diag.forward(x), only_diag.forward_log_det_jacobian(x, event_ndims=1),
                identity_scale.forward(x), scalar.forward(x), scalar.forward_log_det_jacobian(x, event_ndims=0),
                ordered.forward(np.array([1.0, 2.0, 5.0], np.float32)),
                bijectors.Gumbel(loc=1.0, scale=2.0).forward(0.5),
                bijectors.Weibull(scale=2.0, concentration=3.0).forward(1.0),
                bijectors.ScaleTriL(diag_shift=0.0).forward(np.array([0.0, 1.0, 2.0], np.float32)),
                bijectors.Chain([bijectors.Exp(), bijectors.Permute([1, 0])]).forward([0.0, 1.0]))
    (forward, back, log_det, diag_forward, diag_log_det, identity_forward, scalar_forward, scalar_log_det,
     ordered, gumbel, weibull, scale_tril, chained) = _run(build)
    np.testing.assert_allclose(forward, x @ scale.T + shift, rtol=1e-5)
    np.testing.assert_allclose(back, x, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(log_det, [np.linalg.slogdet(scale)[1]] * 2, rtol=1e-5)
    np.testing.assert_allclose(diag_forward, x * diag + shift, rtol=1e-6)
    np.testing.assert_allclose(diag_log_det, [np.log(diag).sum()] * 2, rtol=1e-6)
    np.testing.assert_allclose(identity_forward, x + shift)
    np.testing.assert_allclose(scalar_forward, 3 * x + 1)
    np.testing.assert_allclose(scalar_log_det, np.full_like(x, np.log(3.0)), rtol=1e-6)
    np.testing.assert_allclose(ordered, [1.0, 0.0, np.log(3.0)], rtol=1e-6)  # x0, log(x1 - x0), ...
    assert gumbel == pytest.approx(np.exp(-np.exp(-(0.5 - 1.0) / 2.0)), rel=1e-6)
    assert weibull == pytest.approx(1 - np.exp(-(1.0 / 2.0) ** 3), rel=1e-6)
    # FillScaleTriL: fill_triangular([0, 1, 2]) = [[2, 0], [1, 0]]... with softplus on the diagonal
    np.testing.assert_allclose(np.triu(scale_tril, 1), 0.0)
    assert np.all(np.diag(scale_tril) > 0)
    np.testing.assert_allclose(chained, np.exp([1.0, 0.0]), rtol=1e-6)
    with pytest.raises(AttributeError, match="tfp.bijectors.Bijector"):
        bijectors.ConditionalBijector  # noqa: B018 - the refusal is the point


def test_contrib_keras_is_the_tf1_keras_whose_optimizers_take_lr_in_graph_mode() -> None:
    keras = _bridge("keras")
    x = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
    y = np.array([[1.0], [0.0]], np.float32)
    with tf.Graph().as_default():
        model = keras.models.Sequential([keras.layers.Dense(1, input_shape=(2,), kernel_initializer="ones",
                                                            bias_initializer="zeros")])
        model.compile(optimizer=keras.optimizers.SGD(lr=0.1), loss="mse")
        model.fit(x, y, batch_size=2, epochs=1, verbose=0)
        kernel, bias = model.get_weights()
    # one full-batch step of mean squared error: w <- w - lr * 2/N * X^T (Xw + b - y)
    error = x @ np.ones((2, 1)) - y
    np.testing.assert_allclose(kernel, np.ones((2, 1)) - 0.1 * 2 / 2 * x.T @ error, rtol=1e-5)
    np.testing.assert_allclose(bias, -0.1 * 2 / 2 * error.sum(0), rtol=1e-5)


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


def test_linalg_operators_keep_their_tf1_1_names() -> None:
    # Kyubyong's transformer: tf.contrib.linalg.LinearOperatorTriL(ones).to_dense() as the causal mask.
    linalg = _bridge("linalg")
    ones = np.ones((3, 3), np.float32)
    matrix = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    u = np.array([[1.0], [2.0]], np.float32)
    v = np.array([[0.5], [-1.0]], np.float32)
    tril, full, update, update_13 = _run(lambda: (
        linalg.LinearOperatorTriL(ones).to_dense(),
        linalg.LinearOperatorMatrix(matrix).matmul(np.ones((2, 1), np.float32)),
        linalg.LinearOperatorUDVHUpdate(linalg.LinearOperatorDiag([2.0, 3.0]), u, diag=[4.0], v=v).to_dense(),
        linalg.LinearOperatorUDVHUpdate(linalg.LinearOperatorDiag([2.0, 3.0]), u, diag_update=[4.0]).to_dense()))
    np.testing.assert_array_equal(tril, np.tril(ones))
    np.testing.assert_allclose(full, matrix @ np.ones((2, 1)))
    np.testing.assert_allclose(update, np.diag([2.0, 3.0]) + u @ np.diag([4.0]) @ v.T)
    np.testing.assert_allclose(update_13, np.diag([2.0, 3.0]) + u @ np.diag([4.0]) @ u.T)


def test_nccl_reductions_of_tower_tensors() -> None:
    nccl = _bridge("nccl")
    towers = [np.array([1.0, -2.0], np.float32), np.array([3.0, 5.0], np.float32), np.array([0.5, 1.0], np.float32)]
    sums, maxima, total = _run(lambda: (nccl.all_sum(towers), nccl.all_max(towers), nccl.reduce_sum(towers)))
    for value in sums:
        np.testing.assert_allclose(value, np.sum(towers, axis=0))
    for value in maxima:
        np.testing.assert_allclose(value, np.max(towers, axis=0))
    np.testing.assert_allclose(total, np.sum(towers, axis=0))
