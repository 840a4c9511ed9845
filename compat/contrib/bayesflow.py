"""``tf.contrib.bayesflow``: Monte Carlo estimation, which moved to TensorFlow Probability (checked on TF 2.21)."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    "monte_carlo": "tensorflow_probability.monte_carlo",
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {

}

__getattr__ = forwarding_getattr("bayesflow", FORWARDS, REFUSED)
