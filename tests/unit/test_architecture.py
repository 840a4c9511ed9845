"""The layout of docs/architecture.md holds: a short top level, every sub-package
described, and every import of the package going down the layers."""
from __future__ import annotations

import ast
import os

import pytest

import tf1_pipelines

ROOT = os.path.dirname(tf1_pipelines.__file__)
REPO = os.path.dirname(ROOT)
DOC = os.path.join(REPO, "docs", "architecture.md")

#: The modules of the base, importable from everywhere.
BASE = {"errors", "options", "fields"}
#: The public face at the top level besides the base.
FACE = {"__init__", "pipeline", "state", "registry"}
#: Layer -> the layers its modules may import (besides their own).
ALLOWED: dict[str, set[str]] = {
    "base": {"base"},
    "runtime": {"base"},
    "records": {"base", "runtime"},
    "image": {"base"},
    "inputs": {"base", "runtime", "records"},
    "face": {"base", "face", "runtime", "records", "inputs"},
    "data": {"base", "records", "face"},
    "bench": {"base", "face", "runtime", "records", "inputs"},
    "pipelines": {"base", "face", "runtime", "records", "image", "inputs", "data", "bench"},
    "cli": {"base", "face", "runtime", "records", "image", "inputs", "data", "bench", "pipelines"},
    "main": {"base", "face", "cli", "bench"},
}


def _sub_packages(folder: str) -> list[str]:
    return sorted(name for name in os.listdir(folder)
                  if os.path.isfile(os.path.join(folder, name, "__init__.py")))


def _layer(parts: list[str]) -> str:
    """The layer of module ``tf1_pipelines.<parts...>`` (parts without the package)."""
    if not parts:
        return "face"
    head = parts[0]
    if os.path.isdir(os.path.join(ROOT, head)):
        return head
    if head in BASE:
        return "base"
    return "main" if head == "__main__" else "face"


def _imports(path: str) -> list[str]:
    """The ``tf1_pipelines`` modules ``path`` imports (``from tf1_pipelines import x``
    counts as ``tf1_pipelines.x``)."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "tf1_pipelines":
                found.extend(f"tf1_pipelines.{alias.name}" for alias in node.names)
            else:
                found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return [name for name in found if name.split(".")[0] == "tf1_pipelines"]


def _package_files() -> list[str]:
    return sorted(os.path.join(folder, name) for folder, _, names in os.walk(ROOT)
                  for name in names if name.endswith(".py"))


def test_the_top_level_holds_at_most_eight_modules() -> None:
    modules = sorted(name for name in os.listdir(ROOT) if name.endswith(".py"))
    assert len(modules) <= 8, modules
    assert {name[:-3] for name in modules} == BASE | FACE | {"__main__"}


@pytest.mark.parametrize("package", ["tf1_pipelines", "compat"])
def test_every_sub_package_is_described(package: str) -> None:
    with open(DOC, encoding="utf-8") as handle:
        text = handle.read()
    folder = os.path.join(REPO, package)
    for name in _sub_packages(folder):
        if package == "tf1_pipelines":
            assert f"## `tf1_pipelines/{name}/`" in text, name
        else:
            assert f"`{name}/`" in text, name


def test_every_import_goes_down_the_layers() -> None:
    wrong = []
    for path in _package_files():
        parts = os.path.relpath(path, ROOT)[:-3].split(os.sep)
        layer = _layer(parts)
        allowed = ALLOWED[layer] | {layer}
        if layer == "pipelines" and parts[-1] == "__main__":
            allowed = allowed | {"cli"}  # a pipeline's own command line
        for module in _imports(path):
            target = _layer(module.split(".")[1:])
            if target not in allowed:
                wrong.append(f"{os.path.relpath(path, REPO)} ({layer}) imports {module} ({target})")
    assert not wrong, "\n".join(wrong)


def test_the_layer_rules_see_a_wrong_import() -> None:
    # The check above would pass on an empty walk; make sure it classifies modules.
    assert _layer(["runtime", "step_runner"]) == "runtime"
    assert _layer(["errors"]) == "base"
    assert _layer(["pipeline"]) == "face"
    assert "cli" not in ALLOWED["runtime"] and "pipelines" not in ALLOWED["bench"]
    assert len(_package_files()) > 50


def test_lint_type_checks_both_whole_packages() -> None:
    with open(os.path.join(REPO, "Makefile"), encoding="utf-8") as handle:
        typed = [line for line in handle if line.startswith("TYPED")]
    assert [line.split(":=")[1].split() for line in typed] == [["tf1_pipelines", "compat"]]
