"""The option checks of tf1_pipelines.options: what each accepts, in which normal
form, and what it refuses with which error type and message."""
from __future__ import annotations

import pathlib
from typing import Any

import numpy as np
import pytest

from tf1_pipelines.errors import ConfigError, ConfigTypeError
from tf1_pipelines.options import (
    AUTOTUNE,
    MAX_INT,
    MAX_SEED,
    check_bool,
    check_choice,
    check_int_in_range,
    check_non_negative_int,
    check_number,
    check_parallel_calls,
    check_path,
    check_path_list,
    check_paths,
    check_positive_int,
    check_seconds,
    check_seed,
    checked_options,
    choice_of,
    closest,
    option_names,
    optional,
    reject_unknown_options,
    show,
)


def test_config_type_error_is_a_type_error_a_config_error_and_a_value_error() -> None:
    error = ConfigTypeError("x")
    assert isinstance(error, TypeError)
    assert isinstance(error, ConfigError)
    assert isinstance(error, ValueError)


@pytest.mark.parametrize("value, expected", [(1, 1), (np.int64(7), 7), (MAX_INT, MAX_INT)])
def test_positive_int_accepts_whole_numbers_and_gives_a_python_int(value: Any,
                                                                   expected: int) -> None:
    result = check_positive_int("scale", value)
    assert result == expected and type(result) is int


@pytest.mark.parametrize("value", [0, -3, MAX_INT + 1, 2 ** 64])
def test_positive_int_refuses_out_of_range_as_config_error_naming_it(value: int) -> None:
    with pytest.raises(ConfigError, match=f"scale must be a whole number .*got {value}") as info:
        check_positive_int("scale", value)
    assert not isinstance(info.value, TypeError)


@pytest.mark.parametrize("value", ["96", 4.0, True, np.bool_(True), None, [4], np.array(4)])
def test_positive_int_refuses_other_types_as_config_type_error(value: Any) -> None:
    with pytest.raises(ConfigTypeError, match=r"patch_size must be a whole number >= 1, got .*\("):
        check_positive_int("patch_size", value)


def test_non_negative_int_and_range() -> None:
    assert check_non_negative_int("buffer_mb", 0) == 0
    with pytest.raises(ConfigError, match="buffer_mb must be a whole number >= 0, got -1"):
        check_non_negative_int("buffer_mb", -1)
    with pytest.raises(ConfigTypeError):
        check_non_negative_int("buffer_mb", "0")
    assert check_int_in_range("level", 5, 5, 9) == 5
    with pytest.raises(ConfigError, match="level must be a whole number from 5 to 9, got 10"):
        check_int_in_range("level", 10, 5, 9)


def test_parallel_calls_takes_autotune_but_not_zero() -> None:
    assert check_parallel_calls("map_parallel_num", AUTOTUNE) == -1
    assert check_parallel_calls("map_parallel_num", 8) == 8
    for bad in (0, -2):
        with pytest.raises(ConfigError, match=f"map_parallel_num must be .* got {bad}"):
            check_parallel_calls("map_parallel_num", bad)
    with pytest.raises(ConfigTypeError):
        check_parallel_calls("map_parallel_num", "8")


def test_bool_is_strict() -> None:
    assert check_bool("train", True) is True
    assert check_bool("train", np.bool_(False)) is False
    for bad in (1, 0, "no", None, "True"):
        with pytest.raises(ConfigTypeError, match=f"train must be True or False, got {bad!r}"):
            check_bool("train", bad)


def test_seed_is_none_or_an_int_numpy_and_tensorflow_both_take() -> None:
    assert check_seed("seed", None) is None
    assert check_seed("seed", 0) == 0
    assert check_seed("seed", np.uint32(MAX_SEED)) == MAX_SEED
    with pytest.raises(ConfigTypeError, match="seed must be None or a whole number from 0 to "
                                              f"{MAX_SEED}, got 'x' \\(str\\)"):
        check_seed("seed", "x")
    for bad in (-1, MAX_SEED + 1):
        with pytest.raises(ConfigError, match=f"got {bad}"):
            check_seed("seed", bad)
    with pytest.raises(ConfigTypeError):
        check_seed("seed", 1.0)


def test_seconds() -> None:
    assert check_seconds("stall_timeout", 5) == 5.0
    assert check_seconds("stall_timeout", 0.25) == 0.25
    with pytest.raises(ConfigTypeError, match="stall_timeout must be a number of seconds > 0.*"
                                              "got '5' \\(str\\)"):
        check_seconds("stall_timeout", "5")
    for bad in (0, -1.0, float("nan"), float("inf"), 1e300):
        with pytest.raises(ConfigError, match="stall_timeout must be a number of seconds > 0"):
            check_seconds("stall_timeout", bad)
    with pytest.raises(ConfigTypeError):
        check_seconds("stall_timeout", True)


def test_number() -> None:
    assert check_number("lod", np.float32(1.5)) == 1.5
    with pytest.raises(ConfigError, match="lod must be a finite number, got nan"):
        check_number("lod", float("nan"))
    with pytest.raises(ConfigTypeError, match="lod must be a number, got '1'"):
        check_number("lod", "1")


def test_choice_lists_the_valid_ones_and_suggests_the_closest() -> None:
    assert check_choice("backend", "queue", ("queue", "dataset")) == "queue"
    with pytest.raises(ConfigError, match="backend must be one of 'queue', 'dataset', "
                                          "got 'datset'; did you mean 'dataset'\\?"):
        check_choice("backend", "datset", ("queue", "dataset"))
    with pytest.raises(ConfigTypeError, match="got 1 \\(int\\)"):
        check_choice("backend", 1, ("queue", "dataset"))
    # An array must not reach ==: its truth value would be an error of its own.
    with pytest.raises(ConfigTypeError):
        check_choice("backend", np.array(["queue", "x"]), ("queue", "dataset"))
    with pytest.raises(ConfigError):
        choice_of("a", "b")("iterator", "c")


def test_paths() -> None:
    assert check_path("data_dir", pathlib.Path("/x/y")) == "/x/y"
    with pytest.raises(ConfigTypeError, match="data_dir must be a path"):
        check_path("data_dir", 5)
    assert check_paths("tfrecords", ["a", pathlib.Path("b")]) == ["a", "b"]
    assert check_paths("tfrecords", "a") == "a"
    with pytest.raises(ConfigError, match="tfrecords is an empty list"):
        check_paths("tfrecords", [])
    with pytest.raises(ConfigTypeError, match=r"tfrecords\[1\] must be a path"):
        check_paths("tfrecords", ["a", None])
    with pytest.raises(ConfigTypeError, match="filenames must be a list of paths"):
        check_path_list("filenames", "a.png")  # not read as a list of characters


def test_optional_lets_none_through_only() -> None:
    check = optional(check_positive_int)
    assert check("num_epochs", None) is None
    assert check("num_epochs", 2) == 2
    with pytest.raises(ConfigError):
        check("num_epochs", 0)


def test_show_cuts_long_values() -> None:
    assert len(show("x" * 10_000)) < 80
    assert len(show(list(range(10_000)))) < 80


class _Thing:
    @checked_options(size=check_positive_int, flag=check_bool)
    def __init__(self, size: int = 1, flag: bool = False, name: str = "n", **rest: Any) -> None:
        self.size, self.flag, self.name = size, flag, name


def test_checked_options_checks_and_normalises_before_the_body() -> None:
    thing = _Thing(np.int64(3), flag=np.bool_(True))
    assert type(thing.size) is int and thing.size == 3 and thing.flag is True
    with pytest.raises(ConfigTypeError, match="size must be a whole number >= 1, got '3'"):
        _Thing("3")
    assert _Thing.__init__.option_checks == {"size": check_positive_int,  # type: ignore[attr-defined]
                                             "flag": check_bool}


def test_checked_options_refuses_a_check_for_a_missing_parameter() -> None:
    with pytest.raises(TypeError, match="no parameters \\['sise'\\] to check"):
        checked_options(sise=check_positive_int)(_Thing.__init__.__wrapped__)  # type: ignore[attr-defined]


def test_option_names_follow_the_mro() -> None:
    class Base:
        def __init__(self, *, batch_size: int, graph: Any = None, **unknown: Any) -> None:
            pass

    class Child(Base):
        @checked_options(scale=check_positive_int)
        def __init__(self, data_dir: str = "", scale: int = 4, **options: Any) -> None:
            super().__init__(batch_size=1, **options)

    assert option_names(Child) == ["data_dir", "scale", "batch_size", "graph"]


def test_unknown_options_name_the_closest_and_list_the_valid() -> None:
    valid = ["data_dir", "batch_size", "scale"]
    reject_unknown_options("pipeline 'x'", {"scale": 2}, valid)  # nothing unknown
    with pytest.raises(ConfigTypeError) as info:
        reject_unknown_options("pipeline 'x'", {"batchsize": 8, "zzz": 1}, valid)
    assert str(info.value) == ("pipeline 'x': unknown option 'batchsize' (and 'zzz'); did you "
                               "mean 'batch_size'? valid options: data_dir, batch_size, scale")
    with pytest.raises(ConfigTypeError, match="unknown option 'qqqq'; valid options"):
        reject_unknown_options("pipeline 'x'", {"qqqq": 8}, valid)
    assert closest("sacle", valid) == "scale"
    assert closest("qqqq", valid) is None
