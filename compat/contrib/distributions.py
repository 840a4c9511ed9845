"""``tf.contrib.distributions``: probability distributions, forwarded to TensorFlow Probability.

``tensorflow-probability`` 0.25 imports and runs graph-mode code on TF 2.21 with
the legacy Keras (checked: ``log_prob``, ``sample``, ``kl_divergence`` in a
``tf.compat.v1.Session``). The distributions keep their TF 1.x names and
arguments there; the ``*WithSoftplus*`` conveniences, which TFP dropped, are
written here as the base distribution over ``softplus`` of the parameter.
``bijectors`` is :mod:`compat.contrib._bijectors`: TFP's, plus ``Affine``,
``AffineScalar``, ``AffineLinearOperator``, ``Ordered``, ... that TFP removed.
The classes whose parameters TF 1.1 renamed also take TF 1.0's keywords and
methods (``Normal(mu=..., sigma=...)``, ``log_pdf``, ``kl``; see
:mod:`compat.contrib._distributions_tf10`).
"""
from __future__ import annotations

from typing import Any

from compat.contrib._forward import forwarding_getattr, resolve

__all__ = [
    "BetaWithSoftplusConcentration", "Chi2WithAbsDf", "ExponentialWithSoftplusRate",
    "GammaWithSoftplusConcentrationRate", "InverseGammaWithSoftplusConcentrationRate", "LaplaceWithSoftplusScale",
    "MultivariateNormalDiagWithSoftplusScale", "NormalWithSoftplusScale", "StudentTWithAbsDfSoftplusScale",
    "VectorExponentialDiag", "VectorLaplaceDiag", "WishartCholesky", "WishartFull", "matrix_diag_transform",
    "moving_mean_variance", "tridiag",
]

_TFD = "tensorflow_probability.distributions"

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    **{name: f"{_TFD}.{name}" for name in (
        "Autoregressive", "BatchReshape", "Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2",
        "Deterministic", "Dirichlet", "DirichletMultinomial", "Distribution", "ExpRelaxedOneHotCategorical",
        "Exponential", "FULLY_REPARAMETERIZED", "Gamma", "Geometric", "HalfNormal", "Independent",
        "InverseGamma", "Kumaraswamy", "Laplace", "Logistic", "Mixture", "MixtureSameFamily", "Multinomial",
        "MultivariateNormalDiag", "MultivariateNormalDiagPlusLowRank", "MultivariateNormalFullCovariance",
        "MultivariateNormalTriL", "NOT_REPARAMETERIZED", "NegativeBinomial", "Normal", "OneHotCategorical",
        "Poisson", "PoissonLogNormalQuadratureCompound", "QuantizedDistribution", "RegisterKL",
        "RelaxedBernoulli", "RelaxedOneHotCategorical", "ReparameterizationType", "SinhArcsinh", "StudentT",
        "TransformedDistribution", "Uniform", "VectorDeterministic", "kl_divergence",
        "normal_conjugates_known_scale_posterior", "normal_conjugates_known_scale_predictive",
        "quadrature_scheme_lognormal_gauss_hermite", "quadrature_scheme_lognormal_quantiles")},
    # TFP's bijectors plus the TF 1.x ones TFP dropped (Affine, AffineScalar, ...).
    "bijectors": "compat.contrib._bijectors",
    "SeedStream": "tensorflow_probability.util.SeedStream",
    **{name: f"tensorflow_probability.stats.{name}" for name in (
        "assign_log_moving_mean_exp", "assign_moving_mean_variance", "auto_correlation", "percentile")},
    **{name: f"tensorflow_probability.math.{name}" for name in (
        "fill_triangular", "fill_triangular_inverse", "reduce_weighted_logsumexp", "softplus_inverse")},
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {
    "ConditionalDistribution": "tfp.distributions.Distribution (conditioning arguments were folded into "
                               "log_prob / sample keyword arguments)",
    "ConditionalTransformedDistribution": "tfp.distributions.TransformedDistribution",
    "VectorDiffeomixture": "tfp.distributions.MixtureSameFamily over tfp.distributions.MultivariateNormalDiag",
    "VectorSinhArcsinhDiag": "tfp.distributions.TransformedDistribution with tfp.bijectors.SinhArcsinh",
    "estimator_head_distribution_regression": "a tf.keras model with a tfp.layers.DistributionLambda output "
                                              "(tf.estimator was removed in TensorFlow 2.16)",
    "quadrature_scheme_softmaxnormal_gauss_hermite": "tfp.distributions.quadrature_scheme_lognormal_gauss_hermite",
    "quadrature_scheme_softmaxnormal_quantiles": "tfp.distributions.quadrature_scheme_lognormal_quantiles",
}

_forward = forwarding_getattr("distributions", FORWARDS, REFUSED)


def __getattr__(name: str) -> Any:
    """A TF 1.15 name of ``FORWARDS``; the classes TF 1.0 gave other keywords take those too."""
    from compat.contrib import _distributions_tf10 as tf10
    if name in tf10.RENAMED_KEYWORDS or name in tf10.RENAMED_CLASSES:
        return tf10.served(name)
    if name == "kl":
        return tf10.kl
    return _forward(name)


def _softplus(value: Any) -> Any:
    import tensorflow as tf
    return tf.nn.softplus(value)


def _abs_floor(value: Any) -> Any:
    """``floor(|df|)``: the degrees of freedom TF 1.x derived from an unconstrained ``df``."""
    import tensorflow as tf
    return tf.floor(tf.abs(value))


def _tfd(name: str) -> Any:
    return resolve(f"{_TFD}.{name}")


def NormalWithSoftplusScale(loc: Any, scale: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                            name: str = "NormalWithSoftplusScale") -> Any:
    """``Normal(loc, softplus(scale))``."""
    return _tfd("Normal")(loc=loc, scale=_softplus(scale), validate_args=validate_args,
                          allow_nan_stats=allow_nan_stats, name=name)


def LaplaceWithSoftplusScale(loc: Any, scale: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                             name: str = "LaplaceWithSoftplusScale") -> Any:
    """``Laplace(loc, softplus(scale))``."""
    return _tfd("Laplace")(loc=loc, scale=_softplus(scale), validate_args=validate_args,
                           allow_nan_stats=allow_nan_stats, name=name)


def BetaWithSoftplusConcentration(concentration1: Any, concentration0: Any, validate_args: bool = False,
                                  allow_nan_stats: bool = True, name: str = "BetaWithSoftplusConcentration") -> Any:
    """``Beta(softplus(concentration1), softplus(concentration0))``."""
    return _tfd("Beta")(concentration1=_softplus(concentration1), concentration0=_softplus(concentration0),
                        validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)


def ExponentialWithSoftplusRate(rate: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                                name: str = "ExponentialWithSoftplusRate") -> Any:
    """``Exponential(softplus(rate))``."""
    return _tfd("Exponential")(rate=_softplus(rate), validate_args=validate_args,
                               allow_nan_stats=allow_nan_stats, name=name)


def GammaWithSoftplusConcentrationRate(concentration: Any, rate: Any, validate_args: bool = False,
                                       allow_nan_stats: bool = True,
                                       name: str = "GammaWithSoftplusConcentrationRate") -> Any:
    """``Gamma(softplus(concentration), softplus(rate))``."""
    return _tfd("Gamma")(concentration=_softplus(concentration), rate=_softplus(rate),
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)


def InverseGammaWithSoftplusConcentrationRate(concentration: Any, rate: Any, validate_args: bool = False,
                                              allow_nan_stats: bool = True,
                                              name: str = "InverseGammaWithSoftplusConcentrationRate") -> Any:
    """``InverseGamma(softplus(concentration), softplus(rate))``."""
    return _tfd("InverseGamma")(concentration=_softplus(concentration), scale=_softplus(rate),
                                validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)


def MultivariateNormalDiagWithSoftplusScale(loc: Any, scale_diag: Any, validate_args: bool = False,
                                            allow_nan_stats: bool = True,
                                            name: str = "MultivariateNormalDiagWithSoftplusScale") -> Any:
    """``MultivariateNormalDiag(loc, softplus(scale_diag))``."""
    return _tfd("MultivariateNormalDiag")(loc=loc, scale_diag=_softplus(scale_diag), validate_args=validate_args,
                                          allow_nan_stats=allow_nan_stats, name=name)


def StudentTWithAbsDfSoftplusScale(df: Any, loc: Any, scale: Any, validate_args: bool = False,
                                   allow_nan_stats: bool = True, name: str = "StudentTWithAbsDfSoftplusScale") -> Any:
    """``StudentT(floor(|df|), loc, softplus(scale))``."""
    return _tfd("StudentT")(df=_abs_floor(df), loc=loc, scale=_softplus(scale), validate_args=validate_args,
                            allow_nan_stats=allow_nan_stats, name=name)


def Chi2WithAbsDf(df: Any, validate_args: bool = False, allow_nan_stats: bool = True,
                  name: str = "Chi2WithAbsDf") -> Any:
    """``Chi2(floor(|df|))``."""
    return _tfd("Chi2")(df=_abs_floor(df), validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                        name=name)


def WishartCholesky(df: Any, scale: Any, cholesky_input_output_matrices: bool = False, validate_args: bool = False,
                    allow_nan_stats: bool = True, name: str = "WishartCholesky") -> Any:
    """Wishart with ``df`` degrees of freedom and scale ``scale @ scale^T`` (``scale``: lower triangular,
    ``[..., k, k]``).

    ``tfp.distributions.WishartTriL`` is the same distribution under its newer name.
    """
    return _tfd("WishartTriL")(df=df, scale_tril=scale, input_output_cholesky=cholesky_input_output_matrices,
                               validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)


def WishartFull(df: Any, scale: Any, cholesky_input_output_matrices: bool = False, validate_args: bool = False,
                allow_nan_stats: bool = True, name: str = "WishartFull") -> Any:
    """Wishart with ``df`` degrees of freedom and positive-definite scale matrix ``scale`` ``[..., k, k]``."""
    import tensorflow as tf
    return _tfd("WishartTriL")(df=df, scale_tril=tf.linalg.cholesky(scale),
                               input_output_cholesky=cholesky_input_output_matrices, validate_args=validate_args,
                               allow_nan_stats=allow_nan_stats, name=name)


def matrix_diag_transform(matrix: Any, transform: Any = None, name: str | None = None) -> Any:
    """``matrix`` ``[..., k, k]`` with ``transform`` applied to its diagonal (unchanged when None)."""
    import tensorflow as tf
    with tf.name_scope(name or "matrix_diag_transform"):
        matrix = tf.convert_to_tensor(matrix, name="matrix")
        if transform is None:
            return matrix
        return tf.linalg.set_diag(matrix, transform(tf.linalg.diag_part(matrix)))


def tridiag(below: Any = None, diag: Any = None, above: Any = None, name: str | None = None) -> Any:
    """The ``[..., d, d]`` matrix with ``diag`` (``[..., d]``) on the diagonal and ``below`` / ``above``
    (``[..., d - 1]``) on the sub- / super-diagonal; a part left None is zeros.

    Raises:
        ValueError: all three parts are None.
    """
    import tensorflow as tf
    if below is None and diag is None and above is None:
        raise ValueError("tridiag: give at least one of below, diag, above")
    with tf.name_scope(name or "tridiag"):
        parts = [(tf.convert_to_tensor(part), k) for part, k in ((below, -1), (diag, 0), (above, 1))
                 if part is not None]
        # the size of the matrix, from any part given: d = diagonal length + |offset|
        size = tf.shape(parts[0][0])[-1] + abs(parts[0][1])
        total = None
        for part, k in parts:
            band = tf.linalg.diag(part, k=k, num_rows=size, num_cols=size)
            total = band if total is None else total + band
        return total


def _vector_diag(base: str, loc: Any, scale_diag: Any, scale_identity_multiplier: Any, validate_args: bool,
                 allow_nan_stats: bool, name: str) -> Any:
    """``loc + scale @ X``, ``X`` a vector of iid standard ``base`` variables, ``scale`` =
    ``diag(scale_diag) + scale_identity_multiplier * I`` (identity when both are None)."""
    import tensorflow as tf
    import tensorflow_probability as tfp
    sized = scale_diag if scale_diag is not None else loc
    if sized is None:
        raise ValueError(f"{name}: give loc or scale_diag (the event size comes from their last axis)")
    with tf.name_scope(name):
        size = tf.shape(tf.convert_to_tensor(sized, dtype_hint=tf.float32))[-1]
        diagonal = tf.ones([size]) if scale_diag is None else tf.convert_to_tensor(scale_diag, dtype_hint=tf.float32)
        if scale_identity_multiplier is not None:
            diagonal = diagonal + tf.convert_to_tensor(scale_identity_multiplier, dtype_hint=tf.float32)[..., None]
        bijectors = [tfp.bijectors.ScaleMatvecDiag(diagonal, validate_args=validate_args)]
        if loc is not None:
            bijectors.insert(0, tfp.bijectors.Shift(loc))
        standard = _tfd(base)(**({"loc": 0.0, "scale": 1.0} if base == "Laplace" else {"rate": 1.0}))
        return tfp.distributions.TransformedDistribution(
            tfp.distributions.Sample(standard, sample_shape=[size], validate_args=validate_args),
            tfp.bijectors.Chain(bijectors), validate_args=validate_args, name=name)


def VectorLaplaceDiag(loc: Any = None, scale_diag: Any = None, scale_identity_multiplier: Any = None,
                      validate_args: bool = False, allow_nan_stats: bool = True,
                      name: str = "VectorLaplaceDiag") -> Any:
    """``loc + scale @ X`` over ``[..., k]`` vectors, ``X`` iid Laplace(0, 1), ``scale`` diagonal."""
    return _vector_diag("Laplace", loc, scale_diag, scale_identity_multiplier, validate_args, allow_nan_stats,
                        name)


def VectorExponentialDiag(loc: Any = None, scale_diag: Any = None, scale_identity_multiplier: Any = None,
                          validate_args: bool = False, allow_nan_stats: bool = True,
                          name: str = "VectorExponentialDiag") -> Any:
    """``loc + scale @ X`` over ``[..., k]`` vectors, ``X`` iid Exponential(1), ``scale`` diagonal."""
    return _vector_diag("Exponential", loc, scale_diag, scale_identity_multiplier, validate_args,
                        allow_nan_stats, name)


def moving_mean_variance(value: Any, decay: Any, collections: Any = None, name: str | None = None) -> tuple[Any, Any]:
    """Exponentially weighted moving mean and variance of ``value``, updated each time they are run.

    Creates the zero-initialized, non-trainable variables ``moving_mean`` and
    ``moving_variance`` (``value``'s shape and dtype) in scope ``name`` and
    returns them after one update: ``variance <- decay * (variance + (1 - decay)
    * (value - mean)^2)`` with the old mean, then ``mean <- decay * mean +
    (1 - decay) * value``.
    """
    import tensorflow as tf
    v1 = tf.compat.v1
    with v1.variable_scope(name, "moving_mean_variance", [value, decay]):
        value = tf.convert_to_tensor(value, name="value")
        keys = collections if collections is not None else [v1.GraphKeys.GLOBAL_VARIABLES]
        mean = v1.get_variable("moving_mean", shape=value.shape, dtype=value.dtype,
                               initializer=v1.zeros_initializer(), trainable=False, collections=keys)
        variance = v1.get_variable("moving_variance", shape=value.shape, dtype=value.dtype,
                                   initializer=v1.zeros_initializer(), trainable=False, collections=keys)
        decay = tf.cast(decay, value.dtype)
        delta = value - mean
        new_variance = v1.assign(variance, decay * (variance + (1.0 - decay) * delta * delta))
        with tf.control_dependencies([new_variance]):
            new_mean = v1.assign_add(mean, (1.0 - decay) * delta)
        return new_mean, new_variance
