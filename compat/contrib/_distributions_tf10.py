"""TF 1.0's ``tf.contrib.distributions`` argument and method names, on TensorFlow Probability's classes.

TensorFlow 1.1 renamed the distributions' parameters (``Normal(mu, sigma)`` became
``Normal(loc, scale)``, ``Bernoulli(p=...)`` ``Bernoulli(probs=...)``,
``Gamma(alpha, beta)`` ``Gamma(concentration, rate)``, ...) and removed the
methods deprecated in 1.0 (``log_pdf`` / ``pdf`` / ``log_pmf`` / ``pmf`` for
``log_prob`` / ``prob``, ``sample_n(n)`` for ``sample(n)``,
``get_batch_shape()`` / ``get_event_shape()`` for the ``batch_shape`` /
``event_shape`` properties) and ``kl`` (now ``kl_divergence``). VAE code of late
2016 and early 2017 is written with the old names.

The positional order did not change, so only keywords differ: each class of
:data:`RENAMED_KEYWORDS` is served as a subclass of TFP's class whose
``__init__`` takes the old keyword for the new one, with the old parameter names
as read-only properties (``q_z.mu``) and the old methods. Instances are
instances of TFP's class too (``isinstance``, ``kl_divergence`` and
``copy()`` work as before). :data:`RENAMED_CLASSES` are the TF 1.0 classes
whose name changed. Imported (with TFP) only when such a name is used.
"""
from __future__ import annotations

import functools
from typing import Any

__all__ = ["RENAMED_CLASSES", "RENAMED_KEYWORDS", "kl", "served"]

_PROBS = {"p": "probs"}
#: TF 1.0 class name -> {TF 1.0 keyword: today's keyword}.
RENAMED_KEYWORDS: dict[str, dict[str, str]] = {
    "Normal": {"mu": "loc", "sigma": "scale"},
    "StudentT": {"mu": "loc", "sigma": "scale"},
    "Bernoulli": _PROBS, "Categorical": _PROBS, "OneHotCategorical": _PROBS, "Geometric": _PROBS,
    "RelaxedBernoulli": _PROBS, "RelaxedOneHotCategorical": _PROBS, "ExpRelaxedOneHotCategorical": _PROBS,
    "Binomial": {"n": "total_count", "p": "probs"},
    "Multinomial": {"n": "total_count", "p": "probs"},
    "Gamma": {"alpha": "concentration", "beta": "rate"},
    "InverseGamma": {"alpha": "concentration", "beta": "rate"},
    "Beta": {"a": "concentration1", "b": "concentration0"},
    "Uniform": {"a": "low", "b": "high"},
    "Exponential": {"lam": "rate"},
    "Poisson": {"lam": "rate"},
    "Dirichlet": {"alpha": "concentration"},
    "DirichletMultinomial": {"n": "total_count", "alpha": "concentration"},
    "MultivariateNormalDiag": {"mu": "loc", "diag_stdev": "scale_diag"},
    "MultivariateNormalFullCovariance": {"mu": "loc", "sigma": "covariance_matrix"},
    "MultivariateNormalTriL": {"mu": "loc", "chol": "scale_tril"},
}
#: TF 1.0 class name -> (today's class, its TF 1.0 keywords).
RENAMED_CLASSES: dict[str, tuple[str, dict[str, str]]] = {
    "MultivariateNormalFull": ("MultivariateNormalFullCovariance", {"mu": "loc", "sigma": "covariance_matrix"}),
    "MultivariateNormalCholesky": ("MultivariateNormalTriL", {"mu": "loc", "chol": "scale_tril"}),
}


def _renaming_init(base: type, renamed: dict[str, str]) -> Any:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        for old, new in renamed.items():
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(f"{base.__name__}() got both {old!r} (TensorFlow 1.0's name) and {new!r}")
                kwargs[new] = kwargs.pop(old)
        base.__init__(self, *args, **kwargs)  # type: ignore[misc]
    return __init__


def _alias(new: str) -> property:
    return property(lambda self: getattr(self, new), doc=f"TensorFlow 1.0's name of ``{new}``.")


def _old_methods() -> dict[str, Any]:
    """The ``Distribution`` methods TensorFlow 1.1 removed, each calling its successor."""
    def sample_n(self: Any, n: Any, seed: Any = None, name: str = "sample_n") -> Any:
        return self.sample(n, seed=seed, name=name)

    return {
        "log_pdf": lambda self, value, name="log_pdf": self.log_prob(value, name=name),
        "pdf": lambda self, value, name="pdf": self.prob(value, name=name),
        "log_pmf": lambda self, value, name="log_pmf": self.log_prob(value, name=name),
        "pmf": lambda self, value, name="pmf": self.prob(value, name=name),
        "sample_n": sample_n,
        "get_batch_shape": lambda self: self.batch_shape,
        "get_event_shape": lambda self: self.event_shape,
    }


@functools.cache
def served(name: str) -> type:
    """The class ``tf.contrib.distributions.<name>`` is: TFP's, taking TF 1.0's keywords too."""
    import tensorflow_probability as tfp
    target, renamed = RENAMED_CLASSES.get(name, (name, RENAMED_KEYWORDS.get(name, {})))
    base = getattr(tfp.distributions, target)
    members: dict[str, Any] = {"__init__": _renaming_init(base, renamed), "__doc__": base.__doc__,
                               "__module__": "tensorflow.contrib.distributions"}
    members.update({old: _alias(new) for old, new in renamed.items() if not hasattr(base, old)})
    members.update({old: method for old, method in _old_methods().items() if not hasattr(base, old)})
    return type(target, (base,), members)


def kl(dist_a: Any, dist_b: Any, allow_nan: bool = False, name: str | None = None) -> Any:
    """TF 1.0's ``kl``: ``kl_divergence`` (``allow_nan`` is TF 1.x's name of ``allow_nan_stats``)."""
    import tensorflow_probability as tfp
    return tfp.distributions.kl_divergence(dist_a, dist_b, allow_nan_stats=allow_nan, name=name)
