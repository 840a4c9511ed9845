"""The runner's hint for a third-party package the script imports and the stack does not install.

The ``ModuleNotFoundError`` is raised by Python's own import here (for a package this
stack does not have) and built by hand only for one the stack has (``yaml``).
"""
from __future__ import annotations

import importlib
import importlib.util

import pytest

from compat.notebook.execute import CellFailure, _hint
from compat.runner.hints import MISSING_PACKAGES, hint_for


def import_error(name: str) -> ModuleNotFoundError:
    """The error Python raises for ``import name`` here."""
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as error:
        return error
    raise AssertionError(f"{name} is installed")


@pytest.mark.parametrize(("name", "install"), [("prettytensor", "prettytensor==0.7.4"), ("tflearn", "tflearn==0.5.0"),
                                             ("sonnet", "dm-sonnet==1.36")])
def test_libraries_of_tensorflow_1_name_the_release_the_runner_serves(name: str, install: str) -> None:
    assert importlib.util.find_spec(name) is None
    hint = hint_for(import_error(name))
    assert hint is not None and hint.startswith(f"the script imports {name}, which is not installed")
    assert "pip install" in hint and install in hint and "serves as such" in hint
    # PrettyTensor's requirement enum34 is a backport that would hide Python 3's enum: the hint says so.
    assert name != "prettytensor" or ("--no-deps" in hint and "enum34" in hint)


def test_the_pypi_name_is_given_where_it_differs() -> None:
    error = ModuleNotFoundError("No module named 'yaml'", name="yaml")
    assert hint_for(error) == "the script imports yaml, which is not installed: `pip install PyYAML`"
    dotted = ModuleNotFoundError("No module named 'tensorflow_hub'", name="tensorflow_hub.module")
    assert "pip install tensorflow-hub" in (hint_for(dotted) or "")


def test_unknown_and_local_modules_get_no_hint() -> None:
    assert hint_for(import_error("no_such_module_of_the_script")) is None
    assert hint_for(ModuleNotFoundError("x")) is None  # no name: nothing to say


def test_a_notebook_cell_gets_the_same_hint() -> None:
    failure = CellFailure(3, 2, "ModuleNotFoundError", "No module named 'prettytensor'")
    assert _hint(failure) == "\n    " + (hint_for(import_error("prettytensor")) or "")
    assert _hint(CellFailure(3, 2, "ModuleNotFoundError", "No module named 'mine'")) == ""


def test_every_entry_is_not_installed_or_named_by_pypi() -> None:
    # An installed package needs no hint unless its PyPI name differs (yaml -> PyYAML).
    for module, advice in MISSING_PACKAGES.items():
        assert importlib.util.find_spec(module) is None or "pip install" in advice, module
