"""TensorFlow 1.15 argument names today's functions no longer take, as data.

Each entry of :data:`KEYWORD_ADAPTERS` names a ``tf.<path>`` function whose
TF 1.15 keyword (left) is spelled differently today (right; None: the
argument no longer has an effect and is dropped). :func:`adapt` wraps the
``tf.compat.v1`` function so both spellings work; the TF1 namespace serves
the wrapper under the TF 1.15 name (:mod:`compat.tf1.missing`).

:data:`REFUSED_ARGS` lists the TF 1.15 argument names no adapter serves,
each with why and what to write instead; the walk over TF 1.15's API
(``tests/integration/test_compat_tf115_api.py``) accepts those rows only
through this table.

To map one more renamed keyword: add a row to :data:`KEYWORD_ADAPTERS`.
Importing this module imports nothing heavy.
"""
from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["KEYWORD_ADAPTERS", "REFUSED_ARGS", "adapt", "refused_arg_message"]

#: ``tf.<path>`` -> {TF 1.15 keyword: today's keyword, or None for one that no longer has an effect}.
KEYWORD_ADAPTERS: dict[str, dict[str, str | None]] = {
    # TF 2.1 renamed virtual devices to logical devices; same configuration objects.
    "config.experimental.set_virtual_device_configuration": {"virtual_devices": "logical_devices"},
    # The RNG algorithm argument is spelled ``alg`` since TF 2.0.
    "random.experimental.create_rng_state": {"algorithm": "alg"},
    # Keras serialises any object; TF 1.15 called it ``instance``.
    "keras.utils.serialize_keras_object": {"instance": "obj"},
    # back_prop=False only stopped gradients through an AutoGraph loop; TF 2 computes none unless asked.
    "autograph.experimental.set_loop_options": {"back_prop": None},
}

#: ``tf.<path>`` -> {TF 1.15 argument: why it is not accepted and what to pass instead}.
REFUSED_ARGS: dict[str, dict[str, str]] = {
    "OptionalSpec": {"value_structure": "renamed element_spec in TF 2.0; pass the structure positionally "
                                        "or as element_spec="},
    "data.experimental.OptionalStructure": {"value_structure": "renamed element_spec in TF 2.0; pass it "
                                                               "positionally or as element_spec="},
    "RaggedTensor": {
        arg: "the RaggedTensor constructor is internal since TF 1.14; build one with "
             "tf.RaggedTensor.from_row_splits(values, row_splits) (or from_row_lengths, from_value_rowids)"
        for arg in ("row_splits", "cached_row_lengths", "cached_value_rowids", "cached_nrows")},
    "errors.UnknownError": {"error_code": "today's UnknownError always has code UNKNOWN; pass it as the "
                                          "fourth positional argument or leave it out"},
    "keras.mixed_precision.experimental.Policy": {
        "loss_scale": "loss scaling moved from the Policy to the optimizer: wrap it in "
                      "tf.keras.mixed_precision.LossScaleOptimizer(optimizer, dynamic=True)"},
    **{f"nn.rnn_cell.{cell}.build": {"_": "a positional placeholder (the input shape); pass it positionally"}
       for cell in ("RNNCell", "MultiRNNCell", "DeviceWrapper", "DropoutWrapper", "ResidualWrapper")},
}


def refused_arg_message(path: str, arg: str) -> str | None:
    """The message for TF 1.15's ``tf.<path>(arg=...)`` if the runner refuses that argument, else None."""
    reason = REFUSED_ARGS.get(path, {}).get(arg)
    if reason is None:
        return None
    return f"compat: tf.{path}: the TensorFlow 1.15 argument {arg!r} is not accepted: {reason}"


def _with_old_names(signature: inspect.Signature, old_names: Mapping[str, str | None]) -> inspect.Signature:
    """``signature`` with the old keyword names added as keyword-only parameters (default None)."""
    parameters = list(signature.parameters.values())
    var_keyword = [p for p in parameters if p.kind is inspect.Parameter.VAR_KEYWORD]
    parameters = [p for p in parameters if p.kind is not inspect.Parameter.VAR_KEYWORD]
    parameters += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None) for name in old_names]
    return signature.replace(parameters=parameters + var_keyword)


def adapt(path: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (today's ``tf.compat.v1.<path>``) also taking its TF 1.15 keyword names.

    An old keyword is renamed to today's (an error if both are given) or
    dropped when it no longer has an effect. Raises KeyError if ``path`` has
    no row in :data:`KEYWORD_ADAPTERS`.
    """
    renamed = KEYWORD_ADAPTERS[path]

    @functools.wraps(function)
    def adapter(*args: Any, **kwargs: Any) -> Any:
        for old, new in renamed.items():
            if old not in kwargs:
                continue
            value = kwargs.pop(old)
            if new is None:
                continue
            if new in kwargs:
                raise TypeError(f"tf.{path}() got both {old!r} (its TensorFlow 1.15 name) and {new!r}; "
                                f"pass only {new!r}")
            kwargs[new] = value
        return function(*args, **kwargs)

    try:
        adapter.__signature__ = _with_old_names(inspect.signature(function), renamed)  # type: ignore[attr-defined]
    except (TypeError, ValueError):  # a builtin without a signature: **kwargs says enough
        pass
    return adapter
