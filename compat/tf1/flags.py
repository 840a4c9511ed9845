"""``tf.flags`` / ``tf.app.flags`` as TensorFlow <= 1.4 scripts used them.

TensorFlow 1.5 moved ``tf.flags`` onto absl. Scripts of 2016-2017 kept using
the old ``FLAGS`` object's internals:

* ``FLAGS._parse_flags()`` parsed ``sys.argv`` and returned the arguments it
  did not know (``tf.app.run`` called it for them);
* ``FLAGS.__flags`` (also ``FLAGS.__dict__['__flags']``) was a dict of flag
  name -> **value**; absl's ``FlagValues`` has an attribute of that name too,
  holding ``Flag`` objects, so ``for k, v in FLAGS.__flags.items(): print(k, v)``
  prints objects instead of the values the original logs show.

:class:`LegacyFlagValues` wraps TensorFlow's own ``FLAGS`` (every flag defined
through it or through absl stays one shared set) and adds those internals;
:func:`flags_module` is the ``tf.flags`` module the TF1 namespace serves. The
old keyword names of ``DEFINE_*`` (``flag_name``, ``default_value``,
``docstring``) are still accepted by TensorFlow itself. TF <= 1.4 handed a
flag's default to ``argparse`` as it was, so ``DEFINE_integer("train_size",
np.inf, ...)`` (DCGAN-tensorflow) or ``DEFINE_string("gpu", 0, ...)`` gave that
value, where absl rejects it: :func:`lenient_define` keeps such a non-string
default unparsed (a value given on the command line is still parsed by the
flag's type). Importing this module imports nothing heavy.
"""
from __future__ import annotations

import functools
import sys
import types
from collections.abc import Callable
from typing import Any

__all__ = ["LegacyFlagValues", "flags_module", "lenient_define"]

# The DEFINE_* functions TF <= 1.4's ``tf.flags`` had; their defaults went to argparse unparsed.
LENIENT_DEFINES = ("DEFINE_string", "DEFINE_integer", "DEFINE_float", "DEFINE_boolean", "DEFINE_bool")


class LegacyFlagValues:
    """TensorFlow's ``FLAGS`` with the TF <= 1.4 internals ``_parse_flags()`` and ``__flags`` (name -> value)."""

    __slots__ = ("_real",)

    def __init__(self, real: Any) -> None:
        object.__setattr__(self, "_real", real)

    def _ensure_parsed(self) -> None:
        """Parse ``sys.argv`` (known flags only) if nothing has yet, as TF's implicit parse on first read does."""
        real = object.__getattribute__(self, "_real")
        if not real.is_parsed():
            real(sys.argv, known_only=True)

    def _parse_flags(self, args: list[str] | None = None) -> list[str]:
        """Parse ``args`` (default ``sys.argv[1:]``); returns the arguments no flag took, as TF <= 1.4 did."""
        real = object.__getattribute__(self, "_real")
        argv = [sys.argv[0] if sys.argv else "", *(sys.argv[1:] if args is None else args)]
        remaining = real(argv, known_only=True)
        return list(remaining[1:])

    def _values(self) -> dict[str, Any]:
        """Every flag's current value, by name (TF <= 1.4's ``FLAGS.__flags``)."""
        self._ensure_parsed()
        real = object.__getattribute__(self, "_real")
        return {name: real[name].value for name in real}

    @property
    def __dict__(self) -> dict[str, Any]:  # type: ignore[override]
        """``FLAGS.__dict__['__flags']`` (name -> value) and ``['__parsed']``, as TF <= 1.4 held them."""
        real = object.__getattribute__(self, "_real")
        return {"__flags": self._values(), "__parsed": real.is_parsed()}

    def __getattr__(self, name: str) -> Any:
        if name == "__flags":
            return self._values()
        return getattr(object.__getattribute__(self, "_real"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_real"), name, value)

    def __delattr__(self, name: str) -> None:
        delattr(object.__getattribute__(self, "_real"), name)

    def __dir__(self) -> list[str]:
        return sorted(set(dir(object.__getattribute__(self, "_real"))) | {"_parse_flags", "__flags"})

    def __getitem__(self, name: str) -> Any:
        return object.__getattribute__(self, "_real")[name]

    def __setitem__(self, name: str, flag: Any) -> None:
        object.__getattribute__(self, "_real")[name] = flag

    def __contains__(self, name: str) -> bool:
        return name in object.__getattribute__(self, "_real")

    def __iter__(self) -> Any:
        return iter(object.__getattribute__(self, "_real"))

    def __len__(self) -> int:
        return len(object.__getattribute__(self, "_real"))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return object.__getattribute__(self, "_real")(*args, **kwargs)

    def __str__(self) -> str:
        return str(object.__getattribute__(self, "_real"))


def _define_arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any]:
    """The flag name and default of a ``DEFINE_*`` call, positional or by old or new keyword."""
    name = args[0] if args else kwargs.get("name", kwargs.get("flag_name"))
    if len(args) > 1:
        return name, args[1]
    return name, kwargs.get("default", kwargs.get("default_value"))


def _with_default(args: tuple[Any, ...], kwargs: dict[str, Any],
                  default: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """``args``/``kwargs`` of a ``DEFINE_*`` call with the default replaced."""
    if len(args) > 1:
        return (args[0], default, *args[2:]), kwargs
    key = "default_value" if "default_value" in kwargs else "default"
    return args, {**kwargs, key: default}


def _keep_default(flag: Any, default: Any) -> None:
    """Make ``default`` the flag's default and (unless already set) value, unparsed, as argparse kept it."""
    flag.default = default
    flag.default_unparsed = default
    flag.default_as_str = repr(str(default))
    if flag.using_default_value:
        flag.value = default


def lenient_define(real_define: Callable[..., Any], default_flag_values: Any) -> Callable[..., Any]:
    """``real_define`` (absl's ``DEFINE_integer`` & co.) taking any non-string default as TF <= 1.4 did.

    absl parses a default through the flag's type and rejects ``np.inf`` for an
    integer or ``0`` for a string; TF <= 1.4 passed it to argparse, which keeps
    a non-string default as it is. Such a default is kept unparsed; a string
    default and every command-line value are parsed as before (an unparsable
    string default still fails).
    """
    from absl.flags import IllegalFlagValueError

    @functools.wraps(real_define)
    def define(*args: Any, **kwargs: Any) -> Any:
        try:
            return real_define(*args, **kwargs)
        except IllegalFlagValueError:
            name, default = _define_arguments(args, kwargs)
            if default is None or isinstance(default, (str, bytes)):
                raise
        new_args, new_kwargs = _with_default(args, kwargs, None)
        result = real_define(*new_args, **new_kwargs)
        _keep_default(kwargs.get("flag_values", default_flag_values)[name], default)
        return result

    return define


def _disclaim_this_module() -> None:
    """Let absl attribute flags to the script that defines them, not to :func:`lenient_define`'s frame."""
    from absl.flags import _helpers
    _helpers.disclaim_module_ids.add(id(sys.modules[__name__]))


def flags_module(real_flags: types.ModuleType) -> types.ModuleType:
    """The ``tf.flags`` module of the TF1 namespace: ``real_flags`` with ``FLAGS`` wrapped.

    ``DEFINE_string``, ``DEFINE_integer``, ``DEFINE_float`` and ``DEFINE_boolean``
    take TF <= 1.4's defaults (:func:`lenient_define`); they and every other name
    define on ``real_flags``'s own ``FLAGS``, so a flag defined by the script and
    one read by a library are the same flag.
    """
    module = types.ModuleType("tensorflow.flags", real_flags.__doc__)
    module.__dict__.update({k: v for k, v in vars(real_flags).items() if not k.startswith("__")})
    module.FLAGS = LegacyFlagValues(real_flags.FLAGS)  # type: ignore[attr-defined]
    _disclaim_this_module()
    for name in LENIENT_DEFINES:
        if hasattr(real_flags, name):
            setattr(module, name, lenient_define(getattr(real_flags, name), real_flags.FLAGS))
    module.__dict__["__getattr__"] = lambda name: getattr(real_flags, name)
    return module


def app_module(real_app: types.ModuleType, flags: types.ModuleType) -> types.ModuleType:
    """``tf.app`` with ``tf.app.flags`` being :func:`flags_module`'s module."""
    module = types.ModuleType("tensorflow.app", real_app.__doc__)
    module.__dict__.update({k: v for k, v in vars(real_app).items() if not k.startswith("__")})
    module.flags = flags  # type: ignore[attr-defined]
    module.__dict__["__getattr__"] = lambda name: getattr(real_app, name)
    return module
