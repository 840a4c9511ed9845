"""Bad option values for every pipeline: each is refused with ConfigError naming the
option (ConfigTypeError, also a TypeError, for a value of the wrong type), or
accepted only if it is valid, and never ends in another exception type.

For every registered pipeline and every option it takes, values of many types are
drawn (strings, floats with nan and inf, negative and huge whole numbers, None,
bools, bytes, lists, dicts, NumPy scalars and arrays, plain objects). Each value
goes through the option's check; a refused value is then given to the pipeline
itself, which must refuse it the same way before it reads a file or builds a graph.
An accepted value is compared with an independent statement of what is valid and
is not built (the suite builds nothing, to stay fast). Unknown option names and
``configure()`` are covered as well.
"""
from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import tensorflow as tf
from hypothesis import given, settings
from hypothesis import strategies as st

import tf1_pipelines as tp
from tf1_pipelines import options
from tf1_pipelines.errors import ConfigError, ConfigTypeError
from tf1_pipelines.inputs import distribute
from tf1_pipelines.inputs.feed import check_arrays
from tf1_pipelines.options import MAX_INT, MAX_SEED, option_names
from tf1_pipelines.registry import pipeline_class

pytestmark = pytest.mark.timeout(120)

SUITE = "option values"


# --------------------------------------------------------------- what is valid, stated apart
def _int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _real(v: Any) -> bool:
    return _int(v) or isinstance(v, (float, np.floating))


def _path(v: Any) -> bool:
    return isinstance(v, (str, os.PathLike))


def _path_list(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and len(v) > 0 and all(_path(x) for x in v)


VALID_BY_CHECK: dict[Callable[..., Any], Callable[[Any], bool]] = {
    options.check_positive_int: lambda v: _int(v) and 1 <= v <= MAX_INT,
    options.check_non_negative_int: lambda v: _int(v) and 0 <= v <= MAX_INT,
    options.check_parallel_calls: lambda v: _int(v) and (v == -1 or 1 <= v <= MAX_INT),
    options.check_seed: lambda v: v is None or (_int(v) and 0 <= v <= MAX_SEED),
    options.check_bool: lambda v: isinstance(v, (bool, np.bool_)),
    options.check_seconds: lambda v: _real(v) and math.isfinite(v)
    and 0 < v <= threading.TIMEOUT_MAX,
    options.check_number: lambda v: _real(v) and math.isfinite(v),
    options.check_path: _path,
    options.check_path_list: _path_list,
    options.check_paths: lambda v: _path(v) or _path_list(v),
}

# Options whose check is not one of the shared ones: what is valid for each.
VALID_BY_NAME: dict[str, Callable[[Any], bool]] = {
    "num_preprocess_threads": lambda v: _int(v) and 1 <= v <= MAX_INT and v % 4 == 0,
    "max_label_size": lambda v: (isinstance(v, str) and v == "full")
    or (_int(v) and 0 <= v <= MAX_INT),
    "graph": lambda v: v is None or isinstance(v, tf.Graph),
    "session_config": lambda v: v is None or isinstance(v, tf.compat.v1.ConfigProto),
}

# The base class's options (checked in Pipeline.__init__, not in a check table).
BASE_CHECKS: dict[str, Callable[[str, Any], Any]] = {
    "batch_size": options.check_positive_int,
    "stall_timeout": options.check_seconds,
    "join_timeout": options.check_seconds,
    "graph": lambda n, v: options.check_instance(n, v, tf.Graph, "a tf.Graph"),
    "session_config": lambda n, v: options.check_instance(n, v, tf.compat.v1.ConfigProto,
                                                          "a ConfigProto"),
    # The shard and service options (inputs.distribute), each with the others at
    # their defaults: one shard, so shard_index 0 only; no service, so no job_name.
    "num_shards": options.check_positive_int,
    "shard_index": lambda n, v: options.check_int_in_range(n, v, 0, 0),
    "service": options.optional(distribute.check_service_address),
    "processing_mode": options.choice_of(*distribute.PROCESSING_MODES),
    "job_name": lambda n, v: job_name_without_service(n, v),
}


def job_name_without_service(name: str, value: Any) -> None:
    """The job_name check with no service given: only None passes."""
    if distribute.check_job_name(name, value) is not None:
        raise ConfigError(f"{name} {value!r} needs service=")


def checks_of(name: str) -> dict[str, Callable[[str, Any], Any]]:
    """Option name -> its check, for pipeline ``name``."""
    return {**BASE_CHECKS, **pipeline_class(name).__init__.option_checks}


def is_valid(option: str, check: Any, value: Any) -> bool | None:
    """What the independent statement says of ``value``; None where there is none
    (the arrays and level-settings checks, whose valid values are data)."""
    if option in VALID_BY_NAME:
        return VALID_BY_NAME[option](value)
    inner = getattr(check, "__wrapped__", None)
    if inner is not None:  # optional(check)
        return value is None or is_valid(option, inner, value)
    choices = getattr(check, "choices", None)
    if choices is not None:  # choice_of(...)
        return any(isinstance(value, type(c)) and value == c for c in choices)
    if check in VALID_BY_CHECK:
        return VALID_BY_CHECK[check](value)
    return None


CASES = [(name, option) for name in tp.available() for option in checks_of(name)]


# ------------------------------------------------------------------------- bad values
BAD_VALUES = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", "96", "5", "x", "full", "queue", "datset", "True", "None", "-1"]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-3, max_value=3),
    st.integers(min_value=-(2 ** 70), max_value=2 ** 70),
    st.sampled_from([MAX_INT, MAX_INT + 1, MAX_SEED, MAX_SEED + 1, -(2 ** 63)]),
    st.none(),
    st.booleans(),
    st.binary(max_size=6),
    st.lists(st.one_of(st.integers(-2, 2), st.text(max_size=3), st.none()), max_size=4),
    st.tuples(st.text(max_size=3), st.integers(-2, 5)).map(lambda t: [t]),
    st.dictionaries(st.text(max_size=3), st.integers(-2, 2), max_size=2),
    st.sampled_from([np.int64(-1), np.int32(0), np.uint8(4), np.float32(2.5), np.float64("nan"),
                     np.bool_(True), np.array([1, 2]), np.array(3), np.str_("queue"),
                     object(), complex(1, 1), b"train", frozenset({1}), 1.5 + 0j]),
)


def _refused_the_same_way(name: str, option: str, value: Any, expected: ConfigError) -> None:
    """The pipeline, given ``value``, refuses it with the check's error type, naming
    the option, before reading a file or building a graph."""
    with pytest.raises(ConfigError) as info:
        pipeline_class(name)(**{option: value})
    assert type(info.value) is type(expected), (option, value, info.value)
    named = "array" if option == "arrays" else option
    assert named in str(info.value), (option, value, str(info.value))


@pytest.mark.parametrize("name, option", CASES, ids=[f"{n}-{o}" for n, o in CASES])
@settings(max_examples=30)  # x ~110 options: the file stays within a minute
@given(value=BAD_VALUES)
def test_every_option_refuses_bad_values_with_config_error(name: str, option: str, value: Any,
                                                          fault_outcomes: Any) -> None:
    check = checks_of(name)[option]
    try:
        check(option, value)
    except ConfigError as refused:
        assert is_valid(option, check, value) in (False, None), (option, value, refused)
        _refused_the_same_way(name, option, value, refused)
        fault_outcomes.record(SUITE, refused)
        return
    assert is_valid(option, check, value) in (True, None), (option, value, "accepted")
    fault_outcomes.record(SUITE, "accepted")


NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,14}", fullmatch=True)


@pytest.mark.parametrize("name", tp.available())
@given(data=st.data())
def test_unknown_option_names_are_config_type_errors(name: str, data: st.DataObject,
                                                    fault_outcomes: Any) -> None:
    valid = option_names(pipeline_class(name))
    near_miss = st.sampled_from(valid).flatmap(
        lambda v: st.integers(0, len(v) - 1).map(lambda i: v[:i] + v[i + 1:]))
    unknown = data.draw(st.one_of(NAMES, near_miss).filter(lambda n: n not in valid))
    with pytest.raises(ConfigTypeError) as info:
        pipeline_class(name)(**{unknown: 1})
    message = str(info.value)
    if unknown != "self":  # Python's own "multiple values for argument 'self'"
        assert f"unknown option {unknown!r}" in message
        assert message.endswith("valid options: " + ", ".join(valid))
    fault_outcomes.record("option names", info.value)


@pytest.mark.parametrize("name", ["feeding", "constant"])
@given(value=BAD_VALUES, setting=st.one_of(st.just("batch_size"), NAMES))
def test_configure_refuses_bad_settings(name: str, value: Any, setting: str,
                                        fault_outcomes: Any) -> None:
    """configure() on a pipeline that holds its data in memory (nothing is built)."""
    with pipeline_class(name)(arrays={"x": np.arange(5)}, batch_size=2) as pipeline:
        try:
            pipeline.configure(**{setting: value})
        except ConfigError as refused:
            if setting == "batch_size":
                assert not VALID_BY_CHECK[options.check_positive_int](value), (value, refused)
            else:
                assert isinstance(refused, ConfigTypeError) and "unknown setting" in str(refused)
            fault_outcomes.record("configure settings", refused)
            return
        assert setting == "batch_size" and pipeline.batch_size == value
        fault_outcomes.record("configure settings", "accepted")


def test_check_arrays_is_the_arrays_check() -> None:
    """The feeding and constant pipelines check ``arrays`` with check_arrays (which
    the independent statement above does not cover: its valid values are data)."""
    for name in ("feeding", "constant"):
        assert pipeline_class(name).__init__.option_checks["arrays"].__wrapped__ is check_arrays
