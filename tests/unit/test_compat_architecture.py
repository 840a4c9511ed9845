"""compat's layers hold (docs/architecture.md, "compat/"): the base imports only the base, a surface
imports the base and other surfaces, only the programs (runner, checker, notebook) import the
programs, and every import inside a function that goes up a floor or back along a cycle is one
of the documented lazy imports, each with its reason in the doc."""
from __future__ import annotations

import ast
from pathlib import Path

import compat

ROOT = Path(compat.__file__).resolve().parent
DOC = ROOT.parent / "docs" / "architecture.md"

#: The base: what every surface may use (``compat.rules``, the tables run and check share, sits with
#: the surfaces: it re-exports TF 1.0's rename table of ``compat.tf1.renames``).
BASE_PACKAGES = {"surfaces"}
BASE_MODULES = {"compat", "compat.errors"}
#: The programs: they install or read the surfaces.
PROGRAMS = {"runner", "checker", "notebook"}
PROGRAM_MODULES = {"compat.__main__"}

#: Imports inside functions that go up a floor or close a cycle: (importer, imported) -> why lazy.
#: Each is named in docs/architecture.md.
LAZY = {
    ("compat", "compat.notebook.extension"):
        "`%load_ext compat` finds load_ipython_extension on the package; importing compat must not "
        "import the notebook machinery (or TensorFlow)",
    ("compat.contrib._slim_extras", "compat.contrib.slim"):
        "tf_slim's gaps are supplied on first use of a facade, after TensorFlow is imported",
    ("compat.keras2", "compat.keras2.legacy_models"):
        "the served Keras 2 classes are built from tf_keras only when `import keras` is served",
    ("compat.child_processes.spawned", "compat.runner.install"):
        "a spawned child process installs the runner as its parent did; only the child imports it",
    ("compat.child_processes.spawned", "compat.runner.rewrite"):
        "the child compiles the script again through the source rewrite; only the child imports it",
    ("compat.tf1_libraries.finder", "compat.runner.rewrite"):
        "an installed TF1-era package is compiled through the runner's source rewrite, only when one is served",
    ("compat.tf1_libraries.follow", "compat.runner.rewrite"):
        "check's walk into a served package parses its modules as the runner reads them, only inside check",
    ("compat.tf1_libraries.follow", "compat.runner.local_imports"):
        "check's walk into a served package resolves its imports as the local walk does, only inside check",
    ("compat.tf1_libraries.follow", "compat.checker.check"):
        "the checker's own verdicts for a served package's modules; reached only from check's uses hook",
    ("compat.tf1_libraries.surface", "compat.runner.hints"):
        "a missing TF1-era library is reported with the runner's MISSING_PACKAGES advice, by check only",
}


def _layer(module: str) -> str:
    parts = module.split(".")
    if module in BASE_MODULES or (len(parts) > 1 and parts[1] in BASE_PACKAGES):
        return "base"
    if module in PROGRAM_MODULES or (len(parts) > 1 and parts[1] in PROGRAMS):
        return "program"
    return "surface"


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: set[str]) -> set[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = module.split(".") if is_package else module.split(".")[:-1]
        if node.level:
            base = base[:len(base) - node.level + 1]
            head = ".".join([*base, node.module] if node.module else base)
        else:
            head = node.module or ""
        # `from a.b import c`: the module a.b.c if there is one, else a.b (c is a name of it).
        names = [f"{head}.{alias.name}" if f"{head}.{alias.name}" in known else head for alias in node.names]
    return {name for name in names if name in known}


def _imports() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(module -> compat modules it imports at module level, module -> those imported inside functions)."""
    modules = _modules()
    known = set(modules)
    top: dict[str, set[str]] = {}
    lazy: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        inside: set[int] = set()
        lazy[name] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for sub in ast.walk(node):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        inside.add(id(sub))
                        lazy[name] |= _targets(sub, name, is_package, known)
        top[name] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in inside:
                if _type_checking_only(tree, node):
                    continue
                top[name] |= _targets(node, name, is_package, known)
    return top, lazy


def _type_checking_only(tree: ast.Module, node: ast.AST) -> bool:
    for statement in tree.body:
        if isinstance(statement, ast.If) and isinstance(statement.test, ast.Name) and \
                statement.test.id == "TYPE_CHECKING" and any(node is sub for sub in ast.walk(statement)):
            return True
    return False


def _with_parents(module: str) -> set[str]:
    """``module`` and the packages Python imports before it (``compat.a.b`` -> ``compat.a``), not ``compat``."""
    parts = module.split(".")
    return {".".join(parts[:n]) for n in range(2, len(parts) + 1)}


def _reach(start: str, top: dict[str, set[str]]) -> set[str]:
    """Every module importing ``start`` imports at module level, parents included."""
    seen: set[str] = set()
    stack = [start]
    while stack:
        for target in top.get(stack.pop(), ()):
            for one in _with_parents(target) - seen:
                seen.add(one)
                stack.append(one)
    return seen


_ORDER = {"base": 0, "surface": 1, "program": 2}


def _up(importer: str, imported: str) -> bool:
    return _ORDER[_layer(imported)] > _ORDER[_layer(importer)]


def test_module_level_imports_go_down_the_layers() -> None:
    top, _ = _imports()
    wrong = sorted((m, t) for m, targets in top.items() for t in targets
                   if _up(m, t) and not t.startswith(m + "."))
    assert wrong == [], wrong


def test_lazy_imports_up_a_floor_or_along_a_cycle_are_the_documented_ones() -> None:
    top, lazy = _imports()
    found = set()
    for module, targets in lazy.items():
        for target in targets:
            if target == module:
                continue
            if _up(module, target) or module in _reach(target, top):
                found.add((module, target))
    assert found == set(LAZY), sorted(found ^ set(LAZY))
    doc = DOC.read_text(encoding="utf-8")
    for importer, imported in LAZY:
        assert f"`{importer}` → `{imported}`" in doc, (importer, imported)


def test_the_base_imports_no_surface_and_no_heavy_library() -> None:
    top, _ = _imports()
    for module, targets in top.items():
        if _layer(module) == "base":
            assert {t for t in targets if _layer(t) != "base"} == set(), module


def test_every_surface_package_declares_its_surface() -> None:
    from compat.surfaces import all_surfaces, surface_modules
    declared = {name.split(".")[1] for name in surface_modules()}
    assert {s.name for s in all_surfaces()} >= {"scipy_legacy", "tf1", "keras2", "estimator", "tutorials"}
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}
    helpers_only = packages - declared - BASE_PACKAGES - PROGRAMS
    # A package without surface.py is shared by surfaces (library_legacy, contrib's bridges served by tf1).
    assert helpers_only <= {"contrib", "library_legacy", "py2"}, helpers_only
