"""Checks of option values shared by pipelines, writers and inputs.

Each ``check_*`` returns the value in its normal form (``int`` for a NumPy integer,
``str`` for a path, ``float`` for seconds) or raises :class:`ConfigError` naming the
option, the value given and what is valid. A value of the wrong type raises
:class:`ConfigTypeError`, which is also a ``TypeError`` (what Python raised for most
of these before the checks). No TensorFlow graph work here: writers use these
checks as much as pipelines do.

A pipeline lists its options' checks once, on its ``__init__``, with
:func:`checked_options`; the checks then run before the body, so a bad option
fails before any file is read or any graph is built. Option names a pipeline does
not take are refused by :func:`reject_unknown_options`, which lists the valid ones
and suggests the closest.
"""
from __future__ import annotations

import difflib
import functools
import inspect
import math
import os
import reprlib
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ParamSpec, TypeVar

import numpy as np

from tf1_pipelines.errors import ConfigError, ConfigTypeError

__all__ = ["MAX_INT", "MAX_SEED", "AUTOTUNE", "Check", "show", "check_positive_int",
           "check_non_negative_int", "check_int_in_range", "check_parallel_calls",
           "check_bool", "check_seed", "check_seconds", "check_number", "check_choice",
           "check_path", "check_path_list", "check_paths", "check_instance", "optional", "choice_of",
           "checked_options", "option_names", "reject_unknown_options", "closest"]

#: The largest whole-number option: TensorFlow keeps queue capacities, thread counts
#: and the queue pipelines' batch size in int32 attributes and placeholders.
MAX_INT = 2 ** 31 - 1
#: Seeds go to ``np.random.RandomState`` as well as to TensorFlow: 0..2**32-1.
MAX_SEED = 2 ** 32 - 1
#: ``tf.data.AUTOTUNE``, accepted where tf.data takes a parallelism or buffer size.
AUTOTUNE = -1

#: A check: ``(option name, value) -> value in normal form``, or ConfigError.
Check = Callable[[str, Any], Any]

_SHOW = reprlib.Repr()
_SHOW.maxstring = 60
_SHOW.maxother = 60
_SHOW.maxlist = _SHOW.maxtuple = _SHOW.maxdict = _SHOW.maxset = 6


def show(value: Any) -> str:
    """A short ``repr`` of ``value`` for a message (long strings and lists cut)."""
    try:
        return _SHOW.repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        return f"<{type(value).__name__} object>"


def _got(value: Any) -> str:
    """``'96' (str)``: the value and its type, for a message about a wrong type."""
    return f"{show(value)} ({type(value).__name__})"


def _is_int(value: Any) -> bool:
    """A Python or NumPy integer that is not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_real(value: Any) -> bool:
    """A Python or NumPy int or float that is not a bool."""
    return _is_int(value) or isinstance(value, (float, np.floating))


# ----------------------------------------------------------------------- whole numbers
def check_int_in_range(name: str, value: Any, low: int, high: int) -> int:
    """``value`` as an int if it is a whole number in ``low..high``; ConfigTypeError
    for another type (floats included), ConfigError outside the range."""
    what = f"a whole number from {low} to {high}"
    if not _is_int(value):
        raise ConfigTypeError(f"{name} must be {what}, got {_got(value)}")
    if not low <= value <= high:
        raise ConfigError(f"{name} must be {what}, got {value!r}")
    return int(value)


def check_positive_int(name: str, value: Any, maximum: int = MAX_INT) -> int:
    """``value`` as an int if it is a whole number in 1..``maximum``, else ConfigError
    naming it (ConfigTypeError for another type: ``"96"``, ``4.0``, ``True``)."""
    if not _is_int(value):
        raise ConfigTypeError(f"{name} must be a whole number >= 1, got {_got(value)}")
    if value < 1:
        raise ConfigError(f"{name} must be a whole number >= 1, got {value!r}")
    return check_int_in_range(name, value, 1, maximum)


def check_non_negative_int(name: str, value: Any, maximum: int = MAX_INT) -> int:
    """``value`` as an int if it is a whole number in 0..``maximum``, else ConfigError
    naming it (ConfigTypeError for another type)."""
    if not _is_int(value):
        raise ConfigTypeError(f"{name} must be a whole number >= 0, got {_got(value)}")
    if value < 0:
        raise ConfigError(f"{name} must be a whole number >= 0, got {value!r}")
    return check_int_in_range(name, value, 0, maximum)


def check_parallel_calls(name: str, value: Any) -> int:
    """A tf.data parallelism or buffer size: a whole number >= 1, or ``AUTOTUNE``
    (-1, ``tf.data.AUTOTUNE``). 0 is refused: tf.data fails on it only at the first
    batch."""
    if _is_int(value) and value == AUTOTUNE:
        return AUTOTUNE
    if not _is_int(value):
        raise ConfigTypeError(f"{name} must be a whole number >= 1 or tf.data.AUTOTUNE (-1), "
                              f"got {_got(value)}")
    if value < 1:
        raise ConfigError(f"{name} must be a whole number >= 1 or tf.data.AUTOTUNE (-1), "
                          f"got {value!r}")
    return check_int_in_range(name, value, 1, MAX_INT)


def check_seed(name: str, value: Any) -> int | None:
    """None (fresh randomness) or a whole number 0..2**32-1, the range both
    ``np.random.RandomState`` and TensorFlow take."""
    if value is None:
        return None
    if not _is_int(value):
        raise ConfigTypeError(f"{name} must be None or a whole number from 0 to {MAX_SEED}, "
                              f"got {_got(value)}")
    return check_int_in_range(name, value, 0, MAX_SEED)


# ----------------------------------------------------------------------------- others
def check_bool(name: str, value: Any) -> bool:
    """``value`` if it is ``True`` or ``False`` (a NumPy bool too). Strict: ``1``,
    ``"no"`` or ``None`` are refused rather than read by their truth value."""
    if not isinstance(value, (bool, np.bool_)):
        raise ConfigTypeError(f"{name} must be True or False, got {_got(value)}")
    return bool(value)


def check_seconds(name: str, value: Any) -> float:
    """A finite number of seconds > 0 that a thread can wait for (at most
    ``threading.TIMEOUT_MAX``, about 292 years), as a float."""
    what = f"a number of seconds > 0 (at most {threading.TIMEOUT_MAX:.0f})"
    if not _is_real(value):
        raise ConfigTypeError(f"{name} must be {what}, got {_got(value)}")
    if not (math.isfinite(value) and 0 < value <= threading.TIMEOUT_MAX):
        raise ConfigError(f"{name} must be {what}, got {value!r}")
    return float(value)


def check_number(name: str, value: Any) -> float:
    """A finite real number (not a bool), as a float."""
    if not _is_real(value):
        raise ConfigTypeError(f"{name} must be a number, got {_got(value)}")
    if not math.isfinite(value):
        raise ConfigError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate most like ``name`` (difflib), or None if none is close."""
    found = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def check_choice(name: str, value: Any, choices: Sequence[Any]) -> Any:
    """``value`` if it is one of ``choices``; ConfigError listing them (and the
    closest, for a misspelt name) otherwise; ConfigTypeError for a value of
    another type than the choices (``backend=1`` among strings)."""
    # Compared only with choices of its own type: an array or a list must not
    # reach ``==`` (an array's truth value is an error of its own).
    if any(isinstance(value, type(c)) and value == c for c in choices):
        return value
    valid = ", ".join(repr(c) for c in choices)
    if not any(isinstance(value, type(c)) for c in choices):
        raise ConfigTypeError(f"{name} must be one of {valid}, got {_got(value)}")
    hint = closest(value, [str(c) for c in choices]) if isinstance(value, str) else None
    suggestion = f"; did you mean {hint!r}?" if hint is not None else ""
    raise ConfigError(f"{name} must be one of {valid}, got {show(value)}{suggestion}")


def check_path(name: str, value: Any) -> str:
    """A file or folder name: a ``str`` or ``os.PathLike`` (returned as ``str``). The
    path is not looked at here; readers name a missing file with DataError."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise ConfigTypeError(f"{name} must be a path (str or os.PathLike), got {_got(value)}")
    return value


def check_path_list(name: str, value: Any) -> list[str]:
    """A non-empty list or tuple of paths, returned as a list of str."""
    if not isinstance(value, (list, tuple)):
        raise ConfigTypeError(f"{name} must be a list of paths, got {_got(value)}")
    if not value:
        raise ConfigError(f"{name} is an empty list; give at least one path")
    return [check_path(f"{name}[{i}]", item) for i, item in enumerate(value)]


def check_paths(name: str, value: Any) -> str | list[str]:
    """One path (returned as str), or a non-empty list or tuple of paths (a list of str)."""
    if isinstance(value, (list, tuple)):
        return check_path_list(name, value)
    if not isinstance(value, (str, os.PathLike)):
        raise ConfigTypeError(f"{name} must be a path or a list of paths, got {_got(value)}")
    return check_path(name, value)


def check_instance(name: str, value: Any, types: type | tuple[type, ...], what: str) -> Any:
    """``value`` if it is None or an instance of ``types`` (described as ``what``)."""
    if value is not None and not isinstance(value, types):
        raise ConfigTypeError(f"{name} must be None or {what}, got {_got(value)}")
    return value


# ------------------------------------------------------------------------ combinators
def optional(check: Check) -> Check:
    """``check`` that also lets None through (the option's "not given" value)."""
    def check_optional(name: str, value: Any) -> Any:
        return None if value is None else check(name, value)
    check_optional.__name__ = f"optional({getattr(check, '__name__', 'check')})"
    check_optional.__wrapped__ = check  # type: ignore[attr-defined]
    return check_optional


def choice_of(*choices: Any) -> Check:
    """A check that ``value`` is one of ``choices`` (see :func:`check_choice`)."""
    def check_one_of(name: str, value: Any) -> Any:
        return check_choice(name, value, choices)
    check_one_of.__name__ = f"choice_of{choices!r}"
    check_one_of.choices = choices  # type: ignore[attr-defined]
    return check_one_of


# ------------------------------------------------------------------- applied to __init__
P = ParamSpec("P")
R = TypeVar("R")


def checked_options(**checks: Check) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate an ``__init__``: each named option given to it is checked (and put in
    normal form) before the body runs; defaults are trusted (a test checks them).

    The checks are kept as ``option_checks`` on the decorated function.
    """
    def decorate(init: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(init)
        missing = sorted(set(checks) - set(signature.parameters))
        if missing:  # a typo in the table would silently check nothing
            raise TypeError(f"{init.__qualname__} has no parameters {missing} to check")

        @functools.wraps(init)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:  # too many positional values, one given twice...
                raise ConfigTypeError(f"{init.__qualname__}(): {exc}") from None
            for name, check in checks.items():
                if name in bound.arguments:
                    bound.arguments[name] = check(name, bound.arguments[name])
            return init(*bound.args, **bound.kwargs)

        wrapper.option_checks = dict(checks)  # type: ignore[attr-defined]
        return wrapper
    return decorate


def option_names(cls: type) -> list[str]:
    """Every keyword a class's constructor takes: the named parameters of each
    ``__init__`` along its MRO (``self``, ``*args`` and ``**kwargs`` left out), in
    order of appearance."""
    names: list[str] = []
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None or klass is object:
            continue
        for parameter in list(inspect.signature(init).parameters.values())[1:]:
            if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY) \
                    and parameter.name not in names:
                names.append(parameter.name)
    return names


def reject_unknown_options(owner: str, given: Mapping[str, Any], valid: Iterable[str],
                           what: str = "option") -> None:
    """ConfigTypeError (a TypeError, as Python's "unexpected keyword argument") for
    names in ``given`` that are not in ``valid``: names the first one, suggests the
    closest valid name and lists all of them."""
    valid = list(valid)
    unknown = [name for name in given if name not in valid]
    if not unknown:
        return
    name = unknown[0]
    hint = closest(name, valid)
    suggestion = f"did you mean {hint!r}? " if hint is not None else ""
    others = f" (and {', '.join(repr(n) for n in unknown[1:])})" if unknown[1:] else ""
    raise ConfigTypeError(f"{owner}: unknown {what} {name!r}{others}; {suggestion}"
                          f"valid {what}s: {', '.join(valid)}")
