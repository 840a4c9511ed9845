"""Bad options of every pipeline end in ConfigError at construction, before any file
is read or graph built, naming the option, the value and what is valid; a value of
the wrong type or an unknown option name is also a TypeError (ConfigTypeError), as
Python's own error was before."""
from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import tf1_pipelines as tp
from tf1_pipelines.errors import ConfigError, ConfigTypeError
from tf1_pipelines.options import option_names
from tf1_pipelines.registry import pipeline_class

pytestmark = pytest.mark.timeout(60)

PIPELINES = tp.available()


# ---------------------------------------------------------------- seed 000 (div2k_sr)
def test_scale_zero_is_a_config_error_not_a_zero_division() -> None:
    with pytest.raises(ConfigError, match="scale must be a whole number >= 1, got 0") as info:
        tp.load_pipeline("div2k_sr", scale=0)
    assert not isinstance(info.value, TypeError)


@pytest.mark.parametrize("option", ["shuffle_num", "map_parallel_num"])
def test_zero_buffer_or_parallelism_fails_at_construction_not_at_the_first_batch(
        option: str) -> None:
    with pytest.raises(ConfigError, match=f"{option} must be a whole number >= 1.*got 0"):
        tp.load_pipeline("div2k_sr", **{option: 0})


@pytest.mark.parametrize("name", ["div2k_sr", "random_patches"])
def test_patch_size_as_a_string_is_a_config_type_error(name: str) -> None:
    with pytest.raises(TypeError) as info:
        tp.load_pipeline(name, patch_size="96")
    assert isinstance(info.value, ConfigTypeError)
    assert "patch_size must be a whole number >= 1, got '96' (str)" in str(info.value)


def test_legacy_loader_checks_its_options_too() -> None:
    from tf1_pipelines.pipelines.div2k_sr.legacy import DataLoader
    with pytest.raises(ConfigError, match="scale must be a whole number >= 1, got 0"):
        DataLoader("unused", scale=0)


# ------------------------------------------------------------------- every pipeline
@pytest.mark.parametrize("name", PIPELINES)
def test_seed_as_a_string_is_a_config_type_error(name: str) -> None:
    if "seed" not in option_names(pipeline_class(name)):
        pytest.skip(f"{name} takes no seed")
    with pytest.raises(ConfigTypeError, match="seed must be None or a whole number from 0 to "
                                              "4294967295, got 'x' \\(str\\)"):
        tp.load_pipeline(name, seed="x")


@pytest.mark.parametrize("name", PIPELINES)
def test_stall_timeout_as_a_string_is_a_config_type_error(name: str) -> None:
    with pytest.raises(ConfigTypeError, match="stall_timeout must be a number of seconds > 0 "
                                              ".*got '5' \\(str\\)"):
        tp.load_pipeline(name, stall_timeout="5")


@pytest.mark.parametrize("name", PIPELINES)
def test_unknown_option_lists_the_valid_ones_and_suggests_the_closest(name: str) -> None:
    with pytest.raises(ConfigTypeError) as info:
        tp.load_pipeline(name, batchsize=8)
    message = str(info.value)
    assert message.startswith(f"pipeline {name!r}: unknown option 'batchsize'; "
                              "did you mean 'batch_size'? valid options: ")
    valid = message.split("valid options: ")[1].split(", ")
    assert valid == option_names(pipeline_class(name))
    assert {"batch_size", "stall_timeout", "join_timeout", "graph", "session_config"} <= set(valid)


@pytest.mark.parametrize("name", PIPELINES)
def test_every_option_is_checked_before_anything_is_read(name: str) -> None:
    """Each pipeline's own options are in its check table; the base class checks
    the rest (batch_size, graph, stall_timeout, join_timeout, session_config and
    the distribution options)."""
    cls = pipeline_class(name)
    base = set(option_names(tp.Pipeline))
    assert {"batch_size", "graph", "stall_timeout", "num_shards", "service"} <= base
    assert set(option_names(cls)) == set(cls.__init__.option_checks) | base


def test_unknown_pipeline_name_suggests_the_closest() -> None:
    with pytest.raises(ConfigError, match="unknown pipeline 'div2k'; did you mean 'div2k_sr'\\? "
                                          "available: "):
        tp.load_pipeline("div2k")


@pytest.mark.parametrize("option, value, expected", [
    ("graph", "g", "graph must be None or a tf.Graph, got 'g' (str)"),
    ("join_timeout", 0, "join_timeout must be a number of seconds > 0"),
    ("session_config", {}, "session_config must be None or a tf1 ConfigProto, got {} (dict)"),
])
def test_base_options_are_checked(option: str, value: Any, expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        tp.load_pipeline("feeding", **{option: value})
    assert expected in str(info.value)


# ------------------------------------------------------------------ feeding, constant
@pytest.mark.parametrize("name", ["feeding", "constant"])
@pytest.mark.parametrize("arrays, field", [([[[1, 2], [3]]], "array0"),
                                           ({"images": np.zeros((2, 2)), "boxes": [[1, 2], [3]]},
                                            "boxes")])
def test_a_ragged_list_names_the_array(name: str, arrays: Any, field: str) -> None:
    with pytest.raises(ConfigError, match=f"array {field!r} is not a regular array"):
        tp.load_pipeline(name, arrays=arrays)


@pytest.mark.parametrize("name", ["feeding", "constant"])
def test_configure_suggests_the_closest_setting(name: str) -> None:
    with tp.load_pipeline(name, arrays={"x": np.arange(4)}, batch_size=2) as pipeline:
        with pytest.raises(ConfigTypeError, match=f"{name} cannot configure: unknown setting "
                                                  "'batchsize'; did you mean 'batch_size'\\? "
                                                  "valid settings: batch_size"):
            pipeline.configure(batchsize=3)
        with pytest.raises(ConfigTypeError, match="batch_size must be a whole number >= 1, "
                                                  "got '3' \\(str\\)"):
            pipeline.configure(batch_size="3")
        assert pipeline.batch_size == 2


@pytest.mark.parametrize("name", ["feeding", "constant"])
@pytest.mark.parametrize("option", ["train", "drop_remainder"])
def test_bools_are_strict(name: str, option: str) -> None:
    with pytest.raises(ConfigTypeError, match=f"{option} must be True or False, got 'no' \\(str\\)"):
        tp.load_pipeline(name, **{option: "no"})


def test_a_good_call_still_works_with_numpy_values() -> None:
    """Normal forms: NumPy ints and bools are accepted and become Python ones."""
    with tp.load_pipeline("feeding", arrays={"x": np.arange(6)}, batch_size=np.int64(4),
                          train=np.bool_(False), seed=np.uint32(3)) as pipeline:
        assert pipeline.batch_size == 4 and type(pipeline.batch_size) is int
        assert pipeline.get_batch().x.tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("name", PIPELINES)
def test_every_default_passes_its_own_check(name: str) -> None:
    """checked_options checks only the options given: the defaults must be valid."""
    cls = pipeline_class(name)
    parameters = inspect.signature(cls.__init__).parameters
    for option, check in cls.__init__.option_checks.items():
        default = parameters[option].default
        normal = check(option, default)
        assert normal is None if default is None else normal == default, (option, default)
