"""The compat package's layout: one place per legacy surface, and no import cycle between its modules."""
from __future__ import annotations

import ast
from pathlib import Path

import compat

ROOT = Path(compat.__file__).resolve().parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in ROOT.rglob("*.py")}


def top_level_imports(path: Path, known: set[str]) -> set[str]:
    """The compat modules ``path`` imports when it is imported (not the ones imported inside functions)."""
    found: set[str] = set()
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name in known}


def test_no_import_cycle_between_compat_modules() -> None:
    modules = all_modules()
    graph = {name: top_level_imports(path, set(modules)) - {name} for name, path in modules.items()}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycles.append(trail[trail.index(target):] + [target])
            elif target not in state:
                visit(target, trail + [target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles, cycles


def test_each_surface_is_a_sub_package_named_in_the_docs() -> None:
    docs = (ROOT.parent / "docs" / "compat.md").read_text()
    surfaces = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file())
    assert {"tf1", "contrib", "estimator", "numpy1", "stdlib", "py2", "scipy_legacy", "checker", "runner",
            "tutorials"} <= set(surfaces)
    for surface in surfaces:
        assert f"compat/{surface}/" in docs, surface
        assert (ROOT / surface / "__init__.py").read_text().startswith('"""'), surface
    loose = sorted(p.stem for p in ROOT.glob("*.py"))
    assert loose == ["__init__", "__main__", "errors", "rules"], loose


def test_the_namespace_and_the_slim_bridge_do_not_import_each_other() -> None:
    modules = all_modules()
    known = set(modules)
    assert "compat.tf1.namespace" not in top_level_imports(modules["compat.contrib.slim"], known)
    assert "compat.contrib.slim" in top_level_imports(modules["compat.tf1.namespace"], known)


def test_the_pipelines_never_import_compat() -> None:
    """One direction between the two packages: compat may use tf1_pipelines, never the reverse."""
    import tf1_pipelines
    package = Path(tf1_pipelines.__file__).resolve().parent
    offenders = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            offenders += [f"{path.relative_to(package)}:{node.lineno}: {name}" for name in names
                          if name == "compat" or name.startswith("compat.")]
    assert not offenders, offenders
