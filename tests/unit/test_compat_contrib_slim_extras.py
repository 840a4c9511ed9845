"""TF1 names of tf.contrib.layers / framework / slim that tf_slim lacks, and the small contrib additions.

In process, in graph mode: the old feature-column adapters against NumPy on the
variables they create, the embedding layers against a NumPy gather of their
``embeddings`` variable, the nest and tensor utilities against results worked
out by hand, and the metrics / distributions added to their bridges against
NumPy (and SciPy) formulas.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import tensorflow as tf

from compat.contrib import _feature_columns as fc
from compat.contrib import _slim_extras as extras

V1 = tf.compat.v1


def _run(fetches: Any, feed: dict[Any, Any] | None = None) -> Any:
    """Run ``fetches`` in a session of the default graph after initializing variables and tables."""
    with V1.Session() as session:
        session.run([V1.global_variables_initializer(), V1.local_variables_initializer(),
                     V1.tables_initializer()])
        return session.run(fetches, feed_dict=feed)


def framework(name: str) -> Any:
    return extras.lookup("framework", name)


# --------------------------------------------------------------------------- the table


def test_every_provider_resolves() -> None:
    for facade, table in extras.EXTRAS.items():
        for name in table:
            if name in ("elu", "relu", "relu6", "linear", "legacy_relu", "legacy_linear", "summaries",
                        "contrib_variables", "contrib_framework"):
                continue  # tf_slim's layers: checked under the runner (tests/integration)
            assert extras.lookup(facade, name) is not None, (facade, name)
    with pytest.raises(KeyError):
        extras.lookup("framework", "fuse_op")


def test_no_provided_name_is_still_refused() -> None:
    from compat import rules
    for facade, moved in rules.SLIM_MOVED.items():
        assert not set(moved) & set(extras.EXTRAS.get(facade, {})), facade


# --------------------------------------------------------------------------- nest and tensor utilities


def test_nest_functions_by_hand() -> None:
    structure = {"b": (1, [2, 3]), "a": 4}
    assert framework("flatten")(structure) == [4, 1, 2, 3]  # dict keys sorted
    assert framework("flatten_up_to")([0, [0, 0]], [1, [(2, 3), 4]]) == [1, (2, 3), 4]
    assert framework("map_structure_up_to")([0, 0], lambda x: len(x), [[1, 2], (3,)]) == [2, 1]
    assert framework("is_sequence")([1]) and not framework("is_sequence")("ab")
    assert framework("pack_sequence_as")((0, [0]), [7, 8]) == (7, [8])
    assert framework("flatten_with_joined_string_paths")({"x": [5, 6]}) == [("x/0", 5), ("x/1", 6)]
    with pytest.raises((TypeError, ValueError)):
        framework("assert_shallow_structure")([0, 0, 0], [1, 2])
    assert framework("nest").flatten([[1], 2]) == [1, 2]


def test_with_shape_and_reductions() -> None:
    with tf.Graph().as_default():
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        assert framework("with_shape")([2, 2], x) is x
        with pytest.raises(ValueError, match="shape"):
            framework("with_shape")([3, 2], x)
        dynamic = V1.placeholder(tf.float32, [None, 2])
        checked = framework("with_same_shape")(x, dynamic)
        total = framework("reduce_sum_n")([x, tf.constant([10.0])])
        predictions, labels = framework("remove_squeezable_dimensions")(tf.zeros([4, 1]), tf.zeros([4]))
        zero = V1.get_variable("v", initializer=tf.constant([5.0, 6.0]))
        reset = framework("zero_initializer")(zero)
        with V1.Session() as session:
            session.run(V1.global_variables_initializer())
            assert session.run(checked, {dynamic: np.ones((2, 2))}).sum() == 4.0
            with pytest.raises(tf.errors.InvalidArgumentError):
                session.run(checked, {dynamic: np.ones((3, 2))})
            assert session.run(total) == pytest.approx(20.0)
            np.testing.assert_array_equal(session.run(reset), [0.0, 0.0])
        assert predictions.shape.as_list() == [4] and labels.shape.as_list() == [4]
        placeholders = framework("get_placeholders")(tf.compat.v1.get_default_graph())
        assert placeholders == [dynamic]
        assert framework("assert_scalar_int")(tf.constant(3)).dtype == tf.int32
        with pytest.raises(ValueError, match="integer"):
            framework("assert_scalar_int")(tf.constant(3.0))


def test_sparse_feature_cross_joins_values() -> None:
    with tf.Graph().as_default():
        crossed = extras.sparse_feature_cross([tf.constant([["a"], ["b"]]), tf.constant([["x", "y"], ["z", "w"]])])
        values = _run(crossed).values
    assert [v.decode() for v in values] == ["a_X_x", "a_X_y", "b_X_z", "b_X_w"]


# --------------------------------------------------------------------------- layers


def test_embed_sequence_gathers_its_variable() -> None:
    ids = np.array([[0, 2, 2], [3, 1, 0]])
    with tf.Graph().as_default():
        out = extras.embed_sequence(tf.constant(ids), vocab_size=4, embed_dim=3, scope="words")
        unique = extras.embed_sequence(tf.constant(ids), vocab_size=4, embed_dim=3, unique=True, scope="words",
                                       reuse=True)
        (variable,) = V1.get_collection(V1.GraphKeys.MODEL_VARIABLES)
        assert variable.name == "words/embeddings:0"
        table, embedded, embedded_unique = _run([variable, out, unique])
    np.testing.assert_allclose(embedded, table[ids])
    np.testing.assert_allclose(embedded_unique, table[ids])


def test_bow_encoder_means_rows() -> None:
    ids = np.array([[0, 2], [3, 3]])
    with tf.Graph().as_default():
        dense = extras.bow_encoder(tf.constant(ids), vocab_size=4, embed_dim=2)
        sparse = extras.bow_encoder(tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant([1, 0, 2], tf.int64),
                                                    [2, 2]), vocab_size=4, embed_dim=2, reuse=True, scope="bow_encoder")
        (variable,) = V1.global_variables()
        assert variable.name == "bow_encoder/embeddings:0"
        table, got_dense, got_sparse = _run([variable, dense, sparse])
    np.testing.assert_allclose(got_dense, table[ids].mean(axis=1), rtol=1e-6)
    np.testing.assert_allclose(got_sparse, [table[1], (table[0] + table[2]) / 2], rtol=1e-6)


def test_embedding_lookup_unique_and_safe_lookup() -> None:
    params = np.arange(12.0).reshape(4, 3)
    with tf.Graph().as_default():
        looked = extras.embedding_lookup_unique(tf.constant(params), tf.constant([[3, 0], [3, 3]]))
        sparse = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([1, 2, -1], tf.int64), [2, 2])
        safe = extras.lookup("layers", "safe_embedding_lookup_sparse")(tf.constant(params), sparse, combiner="sum")
        got, got_safe = _run([looked, safe])
    np.testing.assert_array_equal(got, params[[[3, 0], [3, 3]]])
    np.testing.assert_allclose(got_safe, [params[1] + params[2], np.zeros(3)])  # -1 ids are pruned


# --------------------------------------------------------------------------- feature columns


def _feature_graph() -> tuple[dict[str, Any], Any, Any]:
    price = fc.real_valued_column("price", dimension=2)
    color = fc.sparse_column_with_keys("color", ["r", "g", "b"])
    features = {"price": tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                "color": tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["g", "b", "r"], [2, 2])}
    return features, price, color


def test_input_from_feature_columns_against_numpy() -> None:
    table = np.arange(9.0).reshape(3, 3) / 10
    with tf.Graph().as_default():
        features, price, color = _feature_graph()
        embedded = fc.embedding_column(color, 3, initializer=V1.constant_initializer(table))
        layer = fc.input_from_feature_columns(features, [price, embedded, fc.one_hot_column(color)])
        got = _run(layer)
    color_ids = [[1], [2, 0]]
    expected_embedding = np.stack([table[ids].mean(axis=0) for ids in color_ids])
    expected_one_hot = np.array([[0, 1, 0], [1, 0, 1]], np.float32)
    # input_layer orders columns by name: color_embedding, color_indicator, price
    np.testing.assert_allclose(got, np.hstack([expected_embedding, expected_one_hot, [[1, 2], [3, 4]]]),
                               rtol=1e-6)


def test_weighted_sum_from_feature_columns_against_numpy() -> None:
    with tf.Graph().as_default():
        features, price, color = _feature_graph()
        bucket = fc.bucketized_column(price, [2.5])
        predictions, variables, bias = fc.weighted_sum_from_feature_columns(features, [price, color, bucket], 2)
        assigns = [V1.assign(v[0], tf.reshape(tf.range(tf.size(v[0]), dtype=tf.float32), v[0].shape))
                   for v in variables.values()]
        assigns.append(V1.assign(bias, [0.5, -0.5]))
        with V1.Session() as session:
            session.run([V1.global_variables_initializer(), V1.tables_initializer()])
            values = session.run(assigns)
            got = session.run(predictions)
    by_name = dict(zip([c.name for c in variables], values, strict=False))
    w_price, w_color, w_bucket, b = by_name["price"], by_name["color"], by_name["price_bucketized"], values[-1]
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    color_sum = np.stack([w_color[1], w_color[2] + w_color[0]])  # the sparse combiner "sum"
    # each of the two price values falls in bucket 0 (< 2.5) or 1; bucketized ids are value * 2 + bucket
    bucket_ids = [[0 * 2 + 0, 1 * 2 + 0], [0 * 2 + 1, 1 * 2 + 1]]
    bucket_sum = np.stack([w_bucket[ids].sum(axis=0) for ids in bucket_ids])
    np.testing.assert_allclose(got, x @ w_price + color_sum + bucket_sum + b, rtol=1e-6)


def test_mixed_sparse_combiners_are_refused() -> None:
    with tf.Graph().as_default():
        features, _, color = _feature_graph()
        other = fc.sparse_column_with_hash_bucket("tag", 10, combiner="mean")
        with pytest.raises(ValueError, match="combiners"):
            fc.weighted_sum_from_feature_columns(features, [color, other], 1)


def test_weighted_and_integerized_columns() -> None:
    with tf.Graph().as_default():
        ids = fc.sparse_column_with_integerized_feature("item", bucket_size=3)
        weighted = fc.weighted_sparse_column(ids, "item_weight")
        embedded = fc.embedding_column(weighted, 2, combiner="sum",
                                       initializer=V1.constant_initializer([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]))
        features = {"item": tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([0, 2, 1], tf.int64), [2, 2]),
                    "item_weight": tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [0.5, 2.0, 3.0], [2, 2])}
        got = _run(fc.input_from_feature_columns(features, [embedded]))
    np.testing.assert_allclose(got, [[0.5 * 1 + 2.0 * 2, 2.0 * 2], [0.0, 3.0]])


def test_parsing_spec_and_examples() -> None:
    columns = {"a": fc.real_valued_column("price", 2, default_value=0.0),
               "b": fc.sparse_column_with_hash_bucket("tag", 5)}
    spec = fc.create_feature_spec_for_parsing(columns)
    assert spec["price"] == tf.io.FixedLenFeature((2,), tf.float32, default_value=(0.0, 0.0))
    assert spec["tag"] == tf.io.VarLenFeature(tf.string)
    example = tf.train.Example(features=tf.train.Features(feature={
        "price": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5, -2.0])),
        "tag": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"x", b"y"]))}))
    with tf.Graph().as_default():
        parsed = fc.parse_feature_columns_from_examples(tf.constant([example.SerializeToString()]), columns)
        placeholders = fc.make_place_holder_tensors_for_base_features(columns)
        got = _run(parsed)
    np.testing.assert_allclose(got["price"], [[1.5, -2.0]])
    assert list(got["tag"].values) == [b"x", b"y"]
    assert placeholders["price"].shape.as_list() == [None, 2] and isinstance(placeholders["tag"], tf.SparseTensor)


def test_infer_and_check_columns() -> None:
    with tf.Graph().as_default():
        columns = fc.infer_real_valued_columns({"b": tf.zeros([4, 2, 3]), "a": tf.zeros([4], tf.int32)})
    assert [(c.key, c.shape) for c in columns] == [("a", (1,)), ("b", (6,))]
    with pytest.raises(ValueError, match="Duplicate"):
        fc.check_feature_columns([fc.real_valued_column("x"), fc.real_valued_column("x")])
    with pytest.raises(ValueError, match="dimension=None"):
        fc.real_valued_column("x", dimension=None)


def test_shared_embeddings_share_one_table() -> None:
    with tf.Graph().as_default():
        a = fc.sparse_column_with_keys("a", ["p", "q"])
        b = fc.sparse_column_with_keys("b", ["p", "q"])
        shared = fc.shared_embedding_columns([a, b], 2, combiner="sum", shared_embedding_name="tbl")
        features = {"a": tf.SparseTensor([[0, 0]], ["q"], [1, 1]), "b": tf.SparseTensor([[0, 0]], ["p"], [1, 1])}
        layer = fc.input_from_feature_columns(features, shared)
        tables = [v for v in V1.global_variables() if "tbl" in v.name]
        assert len(tables) == 1
        table, got = _run([tables[0], layer])
    np.testing.assert_allclose(got, [np.hstack([table[1], table[0]])])


def test_transform_features_gives_ids() -> None:
    with tf.Graph().as_default():
        features, price, color = _feature_graph()
        transformed = fc.transform_features(features, [price, color])
        got = _run(transformed)
    np.testing.assert_array_equal(got[color].values, [1, 2, 0])
    np.testing.assert_allclose(got[price], [[1, 2], [3, 4]])


# --------------------------------------------------------------------------- metrics, distributions, eager, losses


def _thresholds(n: int) -> np.ndarray:
    return np.array([-1e-7, *[(i + 1) / (n - 1) for i in range(n - 2)], 1 + 1e-7])


def _counts(labels: np.ndarray, scores: np.ndarray, n: int) -> tuple[np.ndarray, ...]:
    above = scores[None, :] > _thresholds(n)[:, None]
    positive = labels[None, :].astype(bool)
    return ((above & positive).sum(1), (above & ~positive).sum(1), (~above & positive).sum(1),
            (~above & ~positive).sum(1))


LABELS = np.array([1, 0, 1, 1, 0, 0, 1, 0])
# scores off the threshold grid, so float32 rounding cannot move one across a threshold
SCORES = np.array([0.93, 0.83, 0.63, 0.35, 0.33, 0.22, 0.12, 0.05], np.float32)


def test_threshold_metrics_against_numpy() -> None:
    from compat.contrib import metrics
    with tf.Graph().as_default():
        labels, scores = tf.constant(LABELS.astype(bool)), tf.constant(SCORES)
        f1, f1_update = metrics.f1_score(labels, scores, num_thresholds=11)
        par, par_update = metrics.precision_at_recall(labels, scores, 0.5, num_thresholds=11)
        roc, roc_update = metrics.streaming_curve_points(labels, scores, num_thresholds=11)
        pr, pr_update = metrics.streaming_curve_points(labels, scores, num_thresholds=11, curve="PR")
        with V1.Session() as session:
            session.run(V1.local_variables_initializer())
            session.run([f1_update, par_update, roc_update, pr_update])
            got = session.run([f1, par, roc, pr])
    tp, fp, fn, tn = (c.astype(np.float64) for c in _counts(LABELS, SCORES, 11))
    eps = 1e-7
    precision, recall = tp / (tp + fp + eps), tp / (tp + fn + eps)
    assert got[0] == pytest.approx((2 * precision * recall / (precision + recall + eps)).max(), rel=1e-5)
    index = np.argmin(np.abs(recall - 0.5))
    assert got[1] == pytest.approx(precision[index], rel=1e-5)
    np.testing.assert_allclose(got[2], np.stack([fp / (fp + tn + eps), recall], 1), rtol=1e-5)
    np.testing.assert_allclose(got[3], np.stack([recall, precision], 1), rtol=1e-5)


def test_cohen_kappa_against_formula() -> None:
    from compat.contrib import metrics
    truth = np.array([0, 1, 2, 2, 1, 0, 2, 1])
    guess = np.array([0, 2, 2, 2, 1, 1, 0, 1])
    with tf.Graph().as_default():
        kappa, update = metrics.cohen_kappa(tf.constant(truth), tf.constant(guess), 3)
        with V1.Session() as session:
            session.run(V1.local_variables_initializer())
            session.run(update)
            got = session.run(kappa)
    observed = np.mean(truth == guess)
    expected = sum(np.mean(truth == k) * np.mean(guess == k) for k in range(3))
    assert got == pytest.approx((observed - expected) / (1 - expected), rel=1e-5)


def test_sparse_average_precision_at_top_k_by_hand() -> None:
    from compat.contrib import metrics
    with tf.Graph().as_default():
        top_k = tf.constant([[3, 1, 0]], tf.int64)  # ranked ids
        labels = tf.constant([[1, 0]], tf.int64)   # relevant: 1 and 0
        value, update = metrics.streaming_sparse_average_precision_at_top_k(top_k, labels)
        with V1.Session() as session:
            session.run(V1.local_variables_initializer())
            session.run(update)
            got = session.run(value)
    # hits at ranks 2 and 3: precisions 1/2 and 2/3, averaged over min(k, 2 relevant) = 2
    assert got == pytest.approx((1 / 2 + 2 / 3) / 2)


def test_distribution_helpers_against_numpy() -> None:
    from scipy import stats

    from compat.contrib import distributions
    x = np.array([0.5, -1.0, 2.0], np.float32)
    loc, scale = np.array([0.0, 1.0, -1.0], np.float32), np.array([1.0, 2.0, 0.5], np.float32)
    matrix = np.array([[2.0, 0.5], [0.5, 1.0]], np.float32)
    with tf.Graph().as_default():
        laplace = distributions.VectorLaplaceDiag(loc=loc, scale_diag=scale).log_prob(x)
        exponential = distributions.VectorExponentialDiag(loc=loc - 5.0, scale_diag=scale).log_prob(x)
        tri = distributions.tridiag([1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0])
        transformed = distributions.matrix_diag_transform(tf.constant(matrix), tf.exp)
        full = distributions.WishartFull(df=4.0, scale=matrix).log_prob(matrix)
        chol = distributions.WishartCholesky(df=4.0, scale=np.linalg.cholesky(matrix)).log_prob(matrix)
        got = _run([laplace, exponential, tri, transformed, full, chol])
    z = (x - loc) / scale
    assert got[0] == pytest.approx(np.sum(-np.abs(z) - np.log(2 * scale)), rel=1e-5)
    z = (x - (loc - 5.0)) / scale
    assert got[1] == pytest.approx(np.sum(-z - np.log(scale)), rel=1e-5)
    np.testing.assert_array_equal(got[2], [[3, 6, 0], [1, 4, 7], [0, 2, 5]])
    np.testing.assert_allclose(got[3], [[np.exp(2.0), 0.5], [0.5, np.exp(1.0)]], rtol=1e-6)
    expected = stats.wishart(df=4.0, scale=matrix).logpdf(matrix)
    assert got[4] == pytest.approx(expected, rel=1e-4) and got[5] == pytest.approx(expected, rel=1e-4)


def test_eager_and_losses_additions() -> None:
    from compat.contrib import eager, losses
    with tf.Graph().as_default():
        w = V1.get_variable("w", initializer=[1.0])
        optimizer = V1.train.AdamOptimizer(0.1)
        optimizer.minimize(tf.reduce_sum(w * w))
        names = sorted(v.op.name for v in eager.get_optimizer_variables(optimizer))
    assert names == ["beta1_power", "beta2_power", "w/Adam", "w/Adam_1"]
    with tf.Graph().as_default():
        loss = losses.metric_learning.contrastive_loss(tf.constant([1.0, 0.0]), tf.constant([[0.0, 0.0], [1.0, 0.0]]),
                                                       tf.constant([[3.0, 4.0], [1.5, 0.0]]), margin=1.0)
        got = _run(loss)
    # distances 5 (similar pair: 5^2) and 0.5 (dissimilar: (1 - 0.5)^2), averaged
    assert got == pytest.approx((25.0 + 0.25) / 2)


# --------------------------------------------------------------------------- tf.contrib.nn


def test_contrib_nn_ops_against_numpy() -> None:
    from compat.contrib import _nn_extras as nn
    x = np.array([[0.5, -1.0, 2.0, 0.0]] * 50, np.float32)
    signal = np.array([[[1.0], [2.0], [3.0]]], np.float32)        # [batch 1, width 3, in 1]
    kernel = np.array([[[1.0]], [[10.0]]], np.float32)           # [width 2, out 1, in 1]
    with tf.Graph().as_default():
        dropped = nn.alpha_dropout(tf.constant(x), 0.8, seed=3)
        same = nn.alpha_dropout(tf.constant(x), 1.0)
        softplus = nn.scaled_softplus(tf.constant(x[0]), 2.0, clip=1.5)
        nth = nn.nth_element(tf.constant([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]]), 1, reverse=True)
        transposed = nn.conv1d_transpose(tf.constant(signal), tf.constant(kernel), [1, 6, 1], 2, padding="VALID")
        got = _run([dropped, same, softplus, nth, transposed])
    keep, s = 0.8, -1.7580993408473766
    a = (keep + s * s * keep * (1 - keep)) ** -0.5
    b = -a * s * (1 - keep)
    kept, off = np.isclose(got[0], a * x + b, atol=1e-5), np.isclose(got[0], a * s + b, atol=1e-5)
    assert np.all(kept | off) and 0 < off.mean() < 0.5  # each unit kept or saturated, about 20 % dropped
    np.testing.assert_array_equal(got[1], x)  # keep_prob 1: x itself
    np.testing.assert_allclose(got[2], np.minimum(2.0 * np.log1p(np.exp(x[0] / 2.0)), 1.5), rtol=1e-6)
    np.testing.assert_array_equal(got[3], [2.0, 4.0])
    # stride 2, kernel width 2, VALID: input i spreads to outputs 2i (times 1) and 2i + 1 (times 10)
    np.testing.assert_allclose(got[4][0, :, 0], [1, 10, 2, 20, 3, 30])


def test_sampled_sparse_softmax_loss_by_hand() -> None:
    from compat.contrib import _nn_extras as nn
    weights = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.5]], np.float32)
    biases = np.array([0.1, -0.2, 0.0, 0.3], np.float32)
    inputs = np.array([[0.5, 2.0], [1.0, -1.0]], np.float32)
    labels = np.array([[1], [3]], np.int64)
    sampled, true_expected, sampled_expected = np.array([0, 2]), np.array([[0.5], [0.25]]), np.array([0.4, 0.2])
    with tf.Graph().as_default():
        loss = nn.sampled_sparse_softmax_loss(
            weights, biases, labels, inputs, num_sampled=2, num_classes=4, remove_accidental_hits=False,
            sampled_values=(tf.constant(sampled, tf.int64), tf.constant(true_expected, tf.float32),
                            tf.constant(sampled_expected, tf.float32)))
        got = _run(loss)
    logits = inputs @ weights.T + biases
    true_logit = logits[[0, 1], labels[:, 0]] - np.log(true_expected[:, 0])
    sampled_logits = logits[:, sampled] - np.log(sampled_expected)
    row = np.column_stack([true_logit, sampled_logits])
    expected = np.log(np.exp(row).sum(axis=1)) - row[:, 0]
    np.testing.assert_allclose(got, expected, rtol=1e-5)


def test_recall_at_precision_and_moving_mean_variance() -> None:
    from compat.contrib import distributions, metrics
    values, decay = [2.0, 4.0, -1.0], 0.5
    with tf.Graph().as_default():
        rap, rap_update = metrics.recall_at_precision(tf.constant(LABELS.astype(bool)), tf.constant(SCORES), 0.7,
                                                      num_thresholds=11)
        with pytest.raises(ValueError, match="strict_mode"):
            metrics.recall_at_precision(tf.constant([True]), tf.constant([0.5]), 0.7, strict_mode=True)
        fed = V1.placeholder(tf.float32, [])
        mean, variance = distributions.moving_mean_variance(fed, decay)
        with V1.Session() as session:
            session.run([V1.global_variables_initializer(), V1.local_variables_initializer()])
            session.run(rap_update)
            got_rap = session.run(rap)
            got = [session.run([mean, variance], {fed: value}) for value in values]
    tp, fp, fn, _ = (c.astype(np.float64) for c in _counts(LABELS, SCORES, 11))
    precision, recall = tp / (tp + fp + 1e-7), tp / (tp + fn + 1e-7)
    assert got_rap == pytest.approx(recall[np.argmin(np.abs(precision - 0.7))], rel=1e-5)
    m = v = 0.0
    for value, (got_mean, got_variance) in zip(values, got, strict=True):
        v = decay * (v + (1 - decay) * (value - m) ** 2)
        m = decay * m + (1 - decay) * value
        assert (got_mean, got_variance) == (pytest.approx(m), pytest.approx(v))
