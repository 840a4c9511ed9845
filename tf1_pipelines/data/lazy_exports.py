"""Public names of a package imported on first use.

A pipeline package's ``__init__`` lists which of its modules defines each public
name; nothing is imported until a name is looked up. So ``import
tf1_pipelines.pipelines.stylegan_lod`` (and its command line's ``--help``) does not
load TensorFlow, and a package's modules never import one another through it.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def lazy_exports(package: str, table: Mapping[str, Sequence[str]]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` whose public names are
    ``{module: [name, ...]}`` (modules relative to the package)."""
    where = {name: module for module, names in table.items() for name in names}
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value  # later look-ups skip this function
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(where))

    return __getattr__, __dir__
