"""``compat.library_legacy.callers``: whose call gets a library's old default.

The callers are real modules compiled with the file name of an installed package
(``.../site-packages/...``), so only the run's ``owns_module`` can make them the
script's: a served TF1-era library's module does, any other installed module does not.
"""
from __future__ import annotations

import sys
import types
from collections.abc import Iterator

import pytest

from compat.library_legacy.callers import called_from_script, remember_scope
from compat.surfaces import Context

#: The installed module calls a library function (the wrapper), which asks about its caller.
SOURCE = "def ask(library_function):\n    return library_function()\n"


def wrapper() -> bool:
    """A library function's wrapper: is its caller the script's code?"""
    return called_from_script()


def installed_module(name: str) -> types.ModuleType:
    module = types.ModuleType(name)
    path = f"/opt/python/lib/python3.11/site-packages/{name.replace('.', '/')}.py"
    exec(compile(SOURCE, path, "exec"), module.__dict__)
    return module


@pytest.fixture()
def modules() -> Iterator[tuple[types.ModuleType, types.ModuleType]]:
    served, other = installed_module("oldlib_served.prepro"), installed_module("modernlib.ops")
    sys.modules.update({served.__name__: served, other.__name__: other})
    yield served, other
    for module in (served, other):
        sys.modules.pop(module.__name__, None)


def test_a_served_librarys_module_counts_as_the_scripts_code_while_the_run_says_so(
        modules: tuple[types.ModuleType, types.ModuleType]) -> None:
    served, other = modules
    assert not served.ask(wrapper) and not other.ask(wrapper)  # installed: no run
    context = Context(scope=None, helpers=None, owns_module=lambda module: False)
    undo = remember_scope(context)
    try:
        # The predicate is read when asked: the TF1-libraries surface widens it after the hooks ran.
        context.owns_module = lambda module: module.__name__ == "oldlib_served.prepro"
        assert served.ask(wrapper)
        assert not other.ask(wrapper)
    finally:
        undo()
    assert not served.ask(wrapper)  # the run ended: back to the file rule
