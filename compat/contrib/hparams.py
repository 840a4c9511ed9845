"""``tf.contrib.training.HParams``: hyperparameters as typed name-value pairs, as in TensorFlow 1.15.

Old training scripts build their configuration with ``HParams(learning_rate=0.1,
layers=[64, 64])`` and override it from the command line with
``hparams.parse("learning_rate=0.3,layers=[128,128]")``. This module gives the
same behaviour without TensorFlow (it imports only the standard library):

* each hyperparameter has the type of the value it was created with (for a
  list, the type of its first element); ``parse`` reads values of that type
  from the TF1 string syntax (``name=value`` pairs separated by commas, a list
  in square brackets, booleans as ``true``/``false``/``True``/``False`` or an
  integer), and ``set_hparam`` / ``override_from_dict`` / ``parse_json``
  accept a value only if TF1 would: an int for a float is cast, a float for an
  int, a number for a string, an int for a bool or a string for a number is a
  ``ValueError``;
* the messages of TF1's ``ValueError``s are kept (code matched on them), with
  the value and the known names added where TF1 said less.

Not provided: the ``HParamDef`` protocol buffer (``hparam_def=``,
``to_proto``, ``from_proto``), whose message type left TensorFlow with
``tf.contrib``; :meth:`HParams.to_json` / :meth:`HParams.parse_json` keep a
set of hyperparameters instead.
"""
from __future__ import annotations

import json
import numbers
import re
from collections.abc import Callable
from typing import Any, NoReturn, cast

__all__ = ["HParams", "parse_values"]

#: One clause of the string syntax: ``name``, optional ``[index]``, ``=``, then a
#: single value (no comma, no ``[``) or a bracketed list; the clause ends at a comma.
PARAM_RE = re.compile(r"""
  (?P<name>[a-zA-Z][\w\.]*)
  (\[\s*(?P<index>\d+)\s*\])?
  \s*=\s*
  ((?P<val>[^,\[]*)
   |
   \[(?P<vals>[^\]]*)\])
  ($|,\s*)""", re.VERBOSE)


def _parse_fail(name: str, var_type: type, value: str, values: str) -> NoReturn:
    raise ValueError(f"Could not parse hparam '{name}' of type '{var_type.__name__}' with value "
                     f"'{value}' in {values}")


def _reuse_fail(name: str, values: str) -> NoReturn:
    raise ValueError(f"Multiple assignments to variable '{name}' in {values}")


def _bool_parser(name: str, values: str) -> Callable[[str], bool]:
    """TF1's bool syntax: true/True/false/False, or an integer (non-zero is True)."""
    def parse_bool(value: str) -> bool:
        if value in ("true", "True"):
            return True
        if value in ("false", "False"):
            return False
        try:
            return bool(int(value))
        except ValueError:
            _parse_fail(name, bool, value, values)
    return parse_bool


def _process_scalar(name: str, parse: Callable[[str], Any], var_type: type,
                    match: dict[str, Any], values: str, results: dict[str, Any]) -> None:
    """Put ``name=value`` (or ``name[i]=value``, as ``{i: value}``) into ``results``."""
    try:
        parsed = parse(match["val"])
    except ValueError:
        _parse_fail(name, var_type, match["val"], values)
    if not match["index"]:
        if name in results:
            _reuse_fail(name, values)
        results[name] = parsed
        return
    if name in results and not isinstance(results[name], dict):
        _reuse_fail(name, values)
    indexed = results.setdefault(name, {})
    index = int(match["index"])
    if index in indexed:
        _reuse_fail(f"{name}[{index}]", values)
    indexed[index] = parsed


def _process_list(name: str, parse: Callable[[str], Any], var_type: type,
                  match: dict[str, Any], values: str, results: dict[str, Any]) -> None:
    """Put ``name=[a,b,...]`` into ``results`` (elements split on commas and spaces)."""
    if match["index"] is not None:
        raise ValueError(f"Assignment of a list to a list index. ({name}[{match['index']}] in {values})")
    if name in results:
        _reuse_fail(name, values)
    elements = [e for e in re.split("[ ,]", match["vals"]) if e]
    try:
        results[name] = [parse(e) for e in elements]
    except ValueError:
        _parse_fail(name, var_type, match["vals"], values)


def parse_values(values: str, type_map: dict[str, type], ignore_unknown: bool = False) -> dict[str, Any]:
    """Parse ``"a=1,b=[1,2],c[0]=3"`` into ``{'a': 1, 'b': [1, 2], 'c': {0: 3}}``.

    Each value is parsed with ``type_map[name]`` (``bool`` with TF1's bool
    syntax). Returns a dict mapping each name to a value, a list of values, or
    a dict from index to value.

    Raises:
        ValueError: malformed text, an unknown name (unless ``ignore_unknown``),
            a value that does not parse as its type, a name assigned twice, or
            a list assigned to an index.
    """
    results: dict[str, Any] = {}
    pos = 0
    while pos < len(values):
        m = PARAM_RE.match(values, pos)
        if not m:
            raise ValueError(f"Malformed hyperparameter value: {values[pos:]}")
        pos = m.end()
        match = m.groupdict()
        name = match["name"]
        if name not in type_map:
            if ignore_unknown:
                continue
            raise ValueError(f"Unknown hyperparameter type for {name} (known: "
                             f"{', '.join(sorted(type_map)) or 'none'})")
        var_type = type_map[name]
        parse: Callable[[str], Any] = _bool_parser(name, values) if var_type is bool else var_type
        if match["val"] is not None:
            _process_scalar(name, parse, var_type, match, values, results)
        elif match["vals"] is not None:
            _process_list(name, parse, var_type, match, values, results)
        else:
            _parse_fail(name, var_type, "", values)
    return results


def _cast_to_type_if_compatible(name: str, param_type: type, value: Any) -> Any:
    """``value`` as ``param_type`` when TF1 allows it (int to float, str to str, ...).

    Raises:
        ValueError: a non-string for a string, a bool for a non-bool or the
            reverse, a non-integer for an int, a non-number for a number.
    """
    fail = f"Could not cast hparam '{name}' of type '{param_type}' from value {value!r}"
    if type(value) is param_type:
        return value
    if issubclass(param_type, type(None)):
        return value  # a None hyperparameter takes anything, as in TF1
    if issubclass(param_type, (str, bytes)) and not isinstance(value, (str, bytes)):
        raise ValueError(fail)
    if issubclass(param_type, bool) != isinstance(value, bool):
        raise ValueError(fail)
    if issubclass(param_type, numbers.Integral) and not isinstance(value, numbers.Integral):
        raise ValueError(fail)
    if issubclass(param_type, numbers.Number) and not isinstance(value, numbers.Number):
        raise ValueError(fail)
    return cast(Any, param_type)(value)


class HParams:
    """``tf.contrib.training.HParams``: hyperparameters as attributes, typed by their first value."""

    _HAS_DYNAMIC_ATTRIBUTES = True

    def __init__(self, hparam_def: Any = None, model_structure: Any = None, **kwargs: Any) -> None:
        """Create one hyperparameter per keyword argument.

        Raises:
            ValueError: ``hparam_def`` is given (the protocol buffer is not
                provided; use ``HParams(**values)`` or ``parse_json``), or a
                name is reserved (an existing attribute such as ``values``),
                or a list value is empty.
        """
        self._hparam_types: dict[str, tuple[type, bool]] = {}
        self._model_structure = model_structure
        if hparam_def:
            raise ValueError("HParams(hparam_def=...) is not provided by the compat runner: the "
                             "HParamDef protocol buffer left TensorFlow with tf.contrib; build "
                             "HParams(**values) or use hparams.parse_json(text)")
        for name, value in kwargs.items():
            self.add_hparam(name, value)

    def add_hparam(self, name: str, value: Any) -> None:
        """Add hyperparameter ``name``, typed by ``value`` (a list is typed by its first element).

        Raises:
            ValueError: ``name`` is already an attribute with a non-None value
                (an existing hyperparameter or a method), or ``value`` is an
                empty list or tuple.
        """
        if getattr(self, name, None) is not None:
            raise ValueError(f"Hyperparameter name is reserved: {name}")
        if isinstance(value, (list, tuple)):
            if not value:
                raise ValueError(f"Multi-valued hyperparameters cannot be empty: {name}")
            self._hparam_types[name] = (type(value[0]), True)
        else:
            self._hparam_types[name] = (type(value), False)
        setattr(self, name, value)

    def set_hparam(self, name: str, value: Any) -> None:
        """Set an existing hyperparameter, casting ``value`` to its type where TF1 allowed it.

        Raises:
            KeyError: no hyperparameter ``name`` (add it with ``add_hparam``).
            ValueError: a list for a single value or the reverse, or a value of
                an incompatible type.
        """
        if name not in self._hparam_types:
            raise KeyError(f"{name!r}: no such hyperparameter (known: "
                           f"{', '.join(sorted(self._hparam_types)) or 'none'}); use add_hparam")
        param_type, is_list = self._hparam_types[name]
        if isinstance(value, list):
            if not is_list:
                raise ValueError(f"Must not pass a list for single-valued parameter: {name}")
            setattr(self, name, [_cast_to_type_if_compatible(name, param_type, v) for v in value])
        else:
            if is_list:
                raise ValueError(f"Must pass a list for multi-valued parameter: {name}.")
            setattr(self, name, _cast_to_type_if_compatible(name, param_type, value))

    def del_hparam(self, name: str) -> None:
        """Remove hyperparameter ``name``; nothing happens if there is none."""
        if hasattr(self, name):
            delattr(self, name)
            del self._hparam_types[name]

    def parse(self, values: str) -> HParams:
        """Override hyperparameters from ``"name=value,..."`` text; returns ``self``.

        Raises:
            ValueError: see :func:`parse_values`; also for a list given to a
                single-valued hyperparameter or the reverse (an index
                assignment ``a[1]=2`` counts as not a list, as in TF1).
        """
        type_map = {name: param_type for name, (param_type, _) in self._hparam_types.items()}
        return self.override_from_dict(parse_values(values, type_map))

    def override_from_dict(self, values_dict: dict[str, Any]) -> HParams:
        """Set each hyperparameter named in ``values_dict`` (see :meth:`set_hparam`); returns ``self``."""
        for name, value in values_dict.items():
            self.set_hparam(name, value)
        return self

    def set_from_map(self, values_map: dict[str, Any]) -> HParams:
        """The TF1 name (deprecated there) of :meth:`override_from_dict`; returns ``self``."""
        return self.override_from_dict(values_map)

    def set_model_structure(self, model_structure: Any) -> None:
        """Keep ``model_structure`` (opaque, as in TF1)."""
        self._model_structure = model_structure

    def get_model_structure(self) -> Any:
        """The model structure given to the constructor or :meth:`set_model_structure`."""
        return self._model_structure

    def to_json(self, indent: int | None = None, separators: tuple[str, str] | None = None,
                sort_keys: bool = False) -> str:
        """The hyperparameters as a JSON object (``json.dumps`` of :meth:`values`)."""
        return json.dumps(self.values(), indent=indent, separators=separators, sort_keys=sort_keys)

    def parse_json(self, values_json: str) -> HParams:
        """Override hyperparameters from a JSON object; returns ``self``.

        Raises:
            KeyError: a name that is not a hyperparameter.
            ValueError: invalid JSON or a value of an incompatible type.
        """
        return self.override_from_dict(json.loads(values_json))

    def values(self) -> dict[str, Any]:
        """A dict of the hyperparameters' names and current values."""
        return {name: getattr(self, name) for name in self._hparam_types}

    def get(self, key: str, default: Any = None) -> Any:
        """The value of hyperparameter ``key``, or ``default`` if there is none.

        Raises:
            ValueError: ``key`` exists and ``default`` is not None and not of a
                type compatible with it (TF1 checked this to catch typos).
        """
        if key not in self._hparam_types:
            return default
        if default is not None:
            self._check_default(key, default)
        return getattr(self, key)

    def _check_default(self, key: str, default: Any) -> None:
        param_type, is_list = self._hparam_types[key]
        type_str = f"list<{param_type}>" if is_list else str(param_type)
        fail = f"Hparam '{key}' of type '{type_str}' is incompatible with default={default}"
        if is_list != isinstance(default, list):
            raise ValueError(fail)
        try:
            for value in (default if is_list else [default]):
                _cast_to_type_if_compatible(key, param_type, value)
        except ValueError as exc:
            raise ValueError(f"{fail}. {exc}") from None

    def __contains__(self, key: object) -> bool:
        return key in self._hparam_types

    def __str__(self) -> str:
        return ",".join(f"{key}={value}" for key, value in self.values().items())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({sorted(self.values().items())})"
