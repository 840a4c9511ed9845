"""The keyword adapters of ``compat.tf1.signatures`` and the tables of ``compat.tf1.missing`` (no TensorFlow)."""
from __future__ import annotations

import inspect

import pytest

from compat.tf1 import missing, signatures


def _create_rng_state(seed: int, alg: int) -> tuple[int, int]:
    return seed * 10, alg


def _set_loop_options(shape_invariants: object = None, parallel_iterations: int | None = None) -> tuple:
    return shape_invariants, parallel_iterations


def test_old_keyword_is_renamed_and_gives_the_modern_value() -> None:
    adapted = signatures.adapt("random.experimental.create_rng_state", _create_rng_state)
    assert adapted(7, algorithm=1) == _create_rng_state(7, alg=1) == (70, 1)
    assert adapted(7, alg=2) == (70, 2)
    assert "algorithm" in inspect.signature(adapted).parameters
    with pytest.raises(TypeError, match="got both 'algorithm'"):
        adapted(7, algorithm=1, alg=2)


def test_keyword_without_effect_is_dropped() -> None:
    adapted = signatures.adapt("autograph.experimental.set_loop_options", _set_loop_options)
    assert adapted(parallel_iterations=3, back_prop=False) == (None, 3)


def test_refused_argument_names_why() -> None:
    message = signatures.refused_arg_message("RaggedTensor", "row_splits")
    assert message is not None and message.startswith("compat:") and "from_row_splits" in message
    assert signatures.refused_arg_message("RaggedTensor", "values") is None


def test_every_refusal_and_provided_name_is_classified_for_check() -> None:
    for path in missing.REFUSED:
        verdict = missing.classify(path.split("."))
        assert verdict is not None and verdict[0] == "unsupported"
        assert verdict[1].startswith("compat:") and "use " in verdict[1]
    for path in list(missing.PROVIDED) + list(signatures.KEYWORD_ADAPTERS):
        verdict = missing.classify(path.split("."))
        assert verdict is not None and verdict[0] == "bridged"
    assert missing.classify(["reduce_sum"]) is None
    # a table row is never both served and refused
    assert not set(missing.PROVIDED) & set(missing.REFUSED)
