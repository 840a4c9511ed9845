"""``tf.contrib.distributions.bijectors``: TensorFlow Probability's bijectors, with the TF 1.x ones TFP dropped.

Every name ``tfp.bijectors`` still has (``Chain``, ``Exp``, ``Permute``,
``MaskedAutoregressiveFlow``, ``RealNVP``, ``masked_autoregressive_default_template``,
...) is forwarded to it. The TF 1.15 bijectors TFP removed are built here from
their TFP successors, with TF 1.15's arguments and equations:

* ``Affine``: ``y = scale @ x + shift`` with ``scale = scale_identity_multiplier * I
  + diag(scale_diag) + tril(scale_tril) + U diag(d) U^T`` (``U`` =
  ``scale_perturb_factor``, ``d`` = ``scale_perturb_diag``, ones if omitted); with
  none of the first three given the multiplier is 1, as in TF 1.x;
* ``AffineScalar`` (``y = scale * x + shift``) and ``AffineLinearOperator``
  (``y = scale.matvec(x) + shift`` for a ``tf.linalg.LinearOperator``);
* ``Gumbel``, ``Kumaraswamy``, ``Weibull``: the CDF bijectors TFP renamed
  ``GumbelCDF``, ``KumaraswamyCDF``, ``WeibullCDF``;
* ``Ordered``: ``Invert(Ascending())`` (TFP's own replacement); ``ScaleTriL``:
  ``FillScaleTriL``.

These are functions returning TFP bijectors (a ``Chain`` of ``Shift`` and a scale
where TF 1.x had one class), so ``isinstance(b, Affine)`` is not available.
TensorFlow Probability is imported only when a name is used.
"""
from __future__ import annotations

from typing import Any

from compat.contrib._forward import forwarding_getattr

__all__ = ["Affine", "AffineLinearOperator", "AffineScalar", "Gumbel", "Kumaraswamy", "Ordered", "ScaleTriL",
           "Weibull"]

_TFB = "tensorflow_probability.bijectors"

#: TF 1.15 names still in ``tfp.bijectors``.
FORWARDS: dict[str, str] = {name: f"{_TFB}.{name}" for name in (
    "AbsoluteValue", "BatchNormalization", "Bijector", "Chain", "CholeskyOuterProduct", "Exp",
    "FillTriangular", "Identity", "Inline", "Invert", "MaskedAutoregressiveFlow", "MatrixInverseTriL",
    "Permute", "PowerTransform", "RealNVP", "Reshape", "Sigmoid", "SinhArcsinh", "SoftmaxCentered", "Softplus",
    "Softsign", "Square", "TransformDiagonal", "masked_autoregressive_default_template", "masked_dense",
    "real_nvp_default_template")}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {
    "ConditionalBijector": "tfp.bijectors.Bijector (conditioning arguments are passed as keyword arguments "
                           "of forward / inverse)",
}

_getattr = forwarding_getattr("distributions.bijectors", FORWARDS, REFUSED)


def __getattr__(name: str) -> Any:
    """A TF 1.15 bijector name; names TFP added since are forwarded too (``Shift``, ``Scale``, ...)."""
    if name in FORWARDS or name in REFUSED or name.startswith("__"):
        return _getattr(name)
    import tensorflow_probability as tfp
    if hasattr(tfp.bijectors, name):
        return getattr(tfp.bijectors, name)
    return _getattr(name)


def _tfb() -> Any:
    import tensorflow_probability as tfp
    return tfp.bijectors


def _tensor(value: Any, dtype: Any, name: str) -> Any:
    import tensorflow as tf
    return None if value is None else tf.convert_to_tensor(value, dtype=dtype, name=name)


def _shifted(scale: Any, shift: Any, validate_args: bool, name: str) -> Any:
    """``scale`` then ``+ shift`` (a ``Chain`` when there is a shift)."""
    tfb = _tfb()
    if shift is None:
        return scale
    return tfb.Chain([tfb.Shift(shift, validate_args=validate_args), scale], validate_args=validate_args,
                     name=name)


def _scale_operator(multiplier: Any, diag: Any, tril: Any, perturb_factor: Any, perturb_diag: Any) -> Any:
    """TF 1.x Affine's ``scale`` as a ``LinearOperator``, or None when it is a plain scalar multiple."""
    import tensorflow as tf
    base: Any
    if tril is not None:
        matrix = tf.linalg.band_part(tril, -1, 0)
        extra = diag if diag is not None else None
        if multiplier is not None:
            ones = tf.ones_like(tf.linalg.diag_part(matrix))
            extra = multiplier[..., None] * ones if extra is None else extra + multiplier[..., None]
        if extra is not None:
            matrix = tf.linalg.set_diag(matrix, tf.linalg.diag_part(matrix) + extra)
        base = tf.linalg.LinearOperatorLowerTriangular(matrix)
    elif diag is not None:
        base = tf.linalg.LinearOperatorDiag(diag if multiplier is None else diag + multiplier[..., None])
    elif perturb_factor is not None:
        rows = tf.compat.dimension_value(perturb_factor.shape[-2])
        if rows is None:
            rows = tf.shape(perturb_factor)[-2]
        base = tf.linalg.LinearOperatorScaledIdentity(rows, multiplier)
    else:
        return None
    if perturb_factor is None:
        return base
    return tf.linalg.LinearOperatorLowRankUpdate(base, u=perturb_factor, diag_update=perturb_diag)


def Affine(shift: Any = None, scale_identity_multiplier: Any = None, scale_diag: Any = None,  # noqa: N802
           scale_tril: Any = None, scale_perturb_factor: Any = None, scale_perturb_diag: Any = None,
           adjoint: bool = False, validate_args: bool = False, name: str = "affine", dtype: Any = None) -> Any:
    """TF 1.x's ``Affine`` bijector: ``y = scale @ x + shift`` (module docstring), on TFP's ``Shift`` and scales."""
    import tensorflow as tf
    tfb = _tfb()
    dtype = tf.as_dtype(dtype) if dtype is not None else tf.float32
    for value in (shift, scale_identity_multiplier, scale_diag, scale_tril, scale_perturb_factor):
        if value is not None and hasattr(value, "dtype"):
            dtype = tf.as_dtype(value.dtype)
            break
    shift = _tensor(shift, dtype, "shift")
    multiplier = _tensor(scale_identity_multiplier, dtype, "scale_identity_multiplier")
    diag = _tensor(scale_diag, dtype, "scale_diag")
    tril = _tensor(scale_tril, dtype, "scale_tril")
    factor = _tensor(scale_perturb_factor, dtype, "scale_perturb_factor")
    perturb_diag = _tensor(scale_perturb_diag, dtype, "scale_perturb_diag")
    if multiplier is None and diag is None and tril is None:
        multiplier = tf.constant(1.0, dtype=dtype)
    operator = _scale_operator(multiplier, diag, tril, factor, perturb_diag)
    if operator is None:
        scale = tfb.Scale(multiplier, validate_args=validate_args)
    else:
        scale = tfb.ScaleMatvecLinearOperator(operator, adjoint=adjoint, validate_args=validate_args)
    return _shifted(scale, shift, validate_args, name)


def AffineScalar(shift: Any = None, scale: Any = None, validate_args: bool = False,  # noqa: N802
                 name: str = "affine_scalar") -> Any:
    """TF 1.x's ``AffineScalar``: ``y = scale * x + shift`` elementwise (either may be omitted)."""
    tfb = _tfb()
    if scale is None and shift is None:
        return tfb.Identity(validate_args=validate_args, name=name)
    if scale is None:
        return tfb.Shift(shift, validate_args=validate_args, name=name)
    return _shifted(tfb.Scale(scale, validate_args=validate_args), shift, validate_args, name)


def AffineLinearOperator(shift: Any = None, scale: Any = None, adjoint: bool = False,  # noqa: N802
                         validate_args: bool = False, name: str = "affine_linear_operator") -> Any:
    """TF 1.x's ``AffineLinearOperator``: ``y = scale.matvec(x, adjoint) + shift`` for a ``LinearOperator``."""
    tfb = _tfb()
    if scale is None:
        linear: Any = tfb.Identity(validate_args=validate_args)
    else:
        linear = tfb.ScaleMatvecLinearOperator(scale, adjoint=adjoint, validate_args=validate_args)
    return _shifted(linear, shift, validate_args, name)


def Gumbel(loc: Any = 0.0, scale: Any = 1.0, validate_args: bool = False, name: str = "gumbel") -> Any:  # noqa: N802
    """TF 1.x's ``Gumbel`` bijector (the Gumbel CDF): ``tfp.bijectors.GumbelCDF``."""
    return _tfb().GumbelCDF(loc=loc, scale=scale, validate_args=validate_args, name=name)


def Kumaraswamy(concentration1: Any = None, concentration0: Any = None,  # noqa: N802
                validate_args: bool = False, name: str = "kumaraswamy") -> Any:
    """TF 1.x's ``Kumaraswamy`` bijector (``None`` concentrations are 1): ``tfp.bijectors.KumaraswamyCDF``."""
    return _tfb().KumaraswamyCDF(concentration1=1.0 if concentration1 is None else concentration1,
                                 concentration0=1.0 if concentration0 is None else concentration0,
                                 validate_args=validate_args, name=name)


def Weibull(scale: Any = 1.0, concentration: Any = 1.0, validate_args: bool = False,  # noqa: N802
            name: str = "weibull") -> Any:
    """TF 1.x's ``Weibull`` bijector (the Weibull CDF): ``tfp.bijectors.WeibullCDF``."""
    return _tfb().WeibullCDF(scale=scale, concentration=concentration, validate_args=validate_args, name=name)


def Ordered(validate_args: bool = False, name: str = "ordered") -> Any:  # noqa: N802
    """TF 1.x's ``Ordered`` (an increasing vector to an unconstrained one): ``Invert(Ascending())``."""
    tfb = _tfb()
    return tfb.Invert(tfb.Ascending(validate_args=validate_args), name=name)


def ScaleTriL(diag_bijector: Any = None, diag_shift: Any = 1e-5, validate_args: bool = False,  # noqa: N802
              name: str = "scale_tril") -> Any:
    """TF 1.x's ``ScaleTriL`` (a vector to a lower-triangular scale): ``tfp.bijectors.FillScaleTriL``."""
    return _tfb().FillScaleTriL(diag_bijector=diag_bijector, diag_shift=diag_shift, validate_args=validate_args,
                                name=name)
