"""Where a script's imports lead, found statically: the folders searched and the files run.

Research repositories of the TensorFlow 1 era were rarely installable packages.
Their code reached its own modules in four ways, all followed here without
running anything:

* modules and packages in the script's own folder;
* folders without ``__init__.py`` (namespace packages, PEP 420): ``from models
  import net`` with ``models/net.py`` and no ``models/__init__.py``;
* folders listed in ``PYTHONPATH`` (``export PYTHONPATH=$PYTHONPATH:`pwd`/slim``);
* folders the code adds to ``sys.path`` itself, written with literals:
  ``sys.path.insert(0, 'src')``, ``sys.path.append(os.path.join(
  os.path.dirname(__file__), '..', 'lib'))``, ``sys.path.extend([...])``,
  ``site.addsitedir(...)``, the same through names assigned from such forms
  (``ROOT = os.path.dirname(os.path.abspath(__file__))``), through ``pathlib``
  (``Path(__file__).resolve().parent / 'lib'``), and through a local function
  that passes its argument on to ``sys.path.insert`` (the ``add_path(lib_path)``
  of ``_init_paths.py`` files).

:func:`sys_path_additions` evaluates those literal forms; :func:`module_files`
and :func:`imported_files` resolve import statements to files the way Python's
path finder does (a package's ``__init__.py`` or a module file in the first
folder that has one wins; folders without ``__init__.py`` combine into a
namespace package only if no folder has a regular module of that name).
"""
from __future__ import annotations

import ast
import builtins
import functools
import importlib.machinery
import os
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "SysPathAdditions",
    "imported_files",
    "installed_folders",
    "module_files",
    "pythonpath_folders",
    "stdlib_folders",
    "sys_path_additions",
]

#: Folder names that hold installed packages, never the script's own code.
INSTALLED_PARTS = frozenset({"site-packages", "dist-packages"})


@functools.lru_cache(maxsize=256)
def installed_tops(folder: Path) -> frozenset[str]:
    """The top-level modules that pip installed into ``folder`` (``pip install --target``, a venv's
    folder without the usual name): those its ``*.dist-info``/``*.egg-info`` records list.

    A ``PYTHONPATH`` folder is the script's own code, except what an installer put there.
    """
    tops: set[str] = set()
    try:
        infos = [entry for entry in folder.iterdir() if entry.name.endswith((".dist-info", ".egg-info"))]
    except OSError:
        return frozenset()
    for info in infos:
        for name, read in (("top_level.txt", _lines), ("RECORD", _record_tops)):
            try:
                tops.update(read((info / name).read_text(encoding="utf-8", errors="replace")))
            except OSError:
                continue
    return frozenset(top for top in tops if top and not top.endswith((".dist-info", ".egg-info")))


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]


def _record_tops(text: str) -> list[str]:
    """The first path part of each file of a ``RECORD`` (``pkg/mod.py,sha256=...,123``), ``.py`` dropped."""
    tops = []
    for line in text.splitlines():
        first = line.split(",", 1)[0].split("/", 1)[0]
        if first and first not in ("..", "__pycache__") and not first.startswith("."):
            tops.append(first.removesuffix(".py"))
    return tops


def is_installed_below(folder: Path, relative_parts: tuple[str, ...]) -> bool:
    """True if the file at ``relative_parts`` below ``folder`` belongs to a package an installer put there."""
    if not relative_parts:
        return False
    top = relative_parts[0].removesuffix(".py")
    return top in installed_tops(folder)


def stdlib_folders() -> list[Path]:
    """The folders of Python's standard library (never the script's own code)."""
    paths = sysconfig.get_paths()
    return [Path(paths[key]).resolve() for key in ("stdlib", "platstdlib") if key in paths]


def pythonpath_folders(environ: dict[str, str] | None = None) -> list[Path]:
    """The existing folders listed in ``PYTHONPATH``, in order (empty entries skipped)."""
    value = (os.environ if environ is None else environ).get("PYTHONPATH", "")
    folders = []
    for entry in value.split(os.pathsep):
        if entry and Path(entry).is_dir():
            folders.append(Path(entry).resolve())
    return folders


def installed_folders() -> list[str]:
    """This interpreter's ``sys.path`` entries that hold installed code: site-packages and the stdlib."""
    stdlib = stdlib_folders()
    found = []
    for entry in sys.path:
        if not entry:
            continue
        path = Path(entry).resolve()
        if INSTALLED_PARTS.intersection(path.parts) or any(path.is_relative_to(s) for s in stdlib):
            found.append(entry)
    return found


# --------------------------------------------------------------------------
# Resolving an import to files
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class _Located:
    """What one name resolves to in a list of folders.

    ``file`` is the module's source or the package's ``__init__.py`` (None for a
    namespace package); ``folders`` are where its submodules are searched.
    """

    file: Path | None
    folders: tuple[Path, ...] = ()

    @property
    def is_package(self) -> bool:
        """True for a regular or namespace package."""
        return bool(self.folders)




def _locate(name: str, folders: Sequence[Path]) -> _Located | None:
    """``name`` looked up in ``folders`` in order, as :class:`importlib.machinery.FileFinder` does.

    A folder with ``name/__init__.py`` or ``name.py`` ends the search; a folder
    with only a ``name/`` directory adds a namespace portion. A compiled module
    (``name.so`` before ``name.py``, ``name.pyc`` after it) also ends it, with
    nothing to read.
    """
    portions: list[Path] = []
    for folder in folders:
        package = folder / name
        if (package / "__init__.py").is_file():
            return _Located(package / "__init__.py", (package,))
        if _has_file(folder, name, importlib.machinery.EXTENSION_SUFFIXES):
            return None
        if (folder / f"{name}.py").is_file():
            return _Located(folder / f"{name}.py")
        if _has_file(folder, name, importlib.machinery.BYTECODE_SUFFIXES):
            return None
        if package.is_dir():
            portions.append(package)
    return _Located(None, tuple(portions)) if portions else None


def _has_file(folder: Path, name: str, suffixes: Sequence[str]) -> bool:
    return any((folder / f"{name}{suffix}").is_file() for suffix in suffixes)


def _found_before_path(name: str) -> bool:
    """True for built-in and frozen modules: Python finds them before looking at ``sys.path``."""
    if name in sys.builtin_module_names:
        return True
    return importlib.machinery.FrozenImporter.find_spec(name) is not None


def _installed_regular(name: str, installed: Sequence[str]) -> bool:
    """True if ``name`` is an installed module or regular package (which beats a namespace folder)."""
    try:
        spec = importlib.machinery.PathFinder.find_spec(name, list(installed))
    except (ImportError, ValueError):
        return False
    return spec is not None and spec.origin not in (None, "namespace")


def module_files(parts: Sequence[str], folders: Sequence[Path],
                 installed: Sequence[str] = ()) -> list[Path]:
    """The files that importing ``parts`` (``a.b.c``) from ``folders`` runs, outermost first.

    ``installed`` are the folders of installed code: a top-level name that is
    only a namespace folder locally loses to an installed module of that name.
    Stops at the first part that is not found (an attribute, or not local).
    """
    if not parts or _found_before_path(parts[0]):
        return []
    files: list[Path] = []
    search = list(folders)
    for index, part in enumerate(parts):
        located = _locate(part, search)
        if located is None:
            break
        if index == 0 and located.file is None and _installed_regular(part, installed):
            break
        if located.file is not None:
            files.append(located.file)
        if not located.is_package:
            break
        search = list(located.folders)
    return files


def _package_folder(path: Path, level: int) -> Path:
    """The folder a relative import of ``level`` dots in ``path`` starts from."""
    base = path.parent
    for _ in range(level - 1):
        base = base.parent
    return base


def imported_files(tree: ast.Module, path: Path, folders: Sequence[Path],
                   installed: Sequence[str] = ()) -> list[Path]:
    """Files that ``tree`` (the source of ``path``) may import from ``folders``, found without running it."""
    found: list[Path] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.extend(module_files(alias.name.split("."), folders, installed))
        elif isinstance(node, ast.ImportFrom):
            module_parts = node.module.split(".") if node.module else []
            search = [_package_folder(path, node.level)] if node.level else list(folders)
            known: Sequence[str] = () if node.level else installed
            if module_parts:
                found.extend(module_files(module_parts, search, known))
            for alias in node.names:  # `from pkg import mod` runs pkg/mod.py if it is a module
                if alias.name != "*":
                    found.extend(module_files([*module_parts, alias.name], search, known))
    return found


# --------------------------------------------------------------------------
# Folders the code adds to sys.path
# --------------------------------------------------------------------------

@dataclass
class SysPathAdditions:
    """Folders a module adds to ``sys.path``: at the front (``insert``) or the back (``append``)."""

    front: list[Path] = field(default_factory=list)
    back: list[Path] = field(default_factory=list)


#: Call targets that add their argument at ``sys.path``'s front or back: (position, argument index).
_ADDERS: dict[str, tuple[str, int]] = {
    "sys.path.insert": ("front", 1),
    "sys.path.append": ("back", 0),
    "site.addsitedir": ("back", 0),
}
_PATH_FUNCTIONS = frozenset({"join", "dirname", "abspath", "realpath", "normpath"})
_PATH_CLASSES = frozenset({"pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.PurePosixPath"})


def _join(*parts: str) -> str:
    return os.path.join(*parts)


class _PathEvaluator(ast.NodeVisitor):
    """Walks a module in source order, tracking import aliases and path-valued names.

    Args:
        file: the module's file (the value of ``__file__``).
        cwd: the folder relative paths are taken from.
    """

    def __init__(self, file: Path, cwd: Path) -> None:
        self._file = str(file)
        self._cwd = str(cwd)
        self._aliases: dict[str, str] = {}
        self._env: dict[str, str] = {}
        self._forwarders: dict[str, tuple[str, int]] = {}
        self.additions = SysPathAdditions()

    # -- names -----------------------------------------------------------------

    def _qualname(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            if node.id in self._aliases:
                return self._aliases[node.id]
            return node.id if hasattr(builtins, node.id) else None
        if isinstance(node, ast.Attribute):
            owner = self._qualname(node.value)
            return None if owner is None else f"{owner}.{node.attr}"
        return None

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self._aliases[alias.asname] = alias.name
            else:
                top = alias.name.split(".")[0]
                self._aliases[top] = top
            self._env.pop(alias.asname or alias.name.split(".")[0], None)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            return
        for alias in node.names:
            if alias.name != "*":
                self._aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    # -- values ----------------------------------------------------------------

    def _value(self, node: ast.expr) -> str | None:
        """The path string ``node`` evaluates to, or None if it is not one of the literal forms."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            if node.id == "__file__":
                return self._file
            return self._env.get(node.id)
        if isinstance(node, ast.JoinedStr):
            pieces = [self._value(v.value) if isinstance(v, ast.FormattedValue) else self._value(v)
                      for v in node.values]
            return None if any(p is None for p in pieces) else "".join(p for p in pieces if p is not None)
        if isinstance(node, ast.BinOp):
            return self._binop(node)
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        if isinstance(node, ast.Subscript):
            return self._parents(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        return None

    def _values(self, nodes: Sequence[ast.expr]) -> list[str] | None:
        values = [self._value(n) for n in nodes]
        return None if any(v is None for v in values) else [v for v in values if v is not None]

    def _binop(self, node: ast.BinOp) -> str | None:
        left, right = self._value(node.left), self._value(node.right)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Div):  # pathlib's `path / "lib"`
            return _join(left, right)
        return None

    def _attribute(self, node: ast.Attribute) -> str | None:
        name = self._qualname(node)
        if name in ("os.curdir", "os.path.curdir"):
            return os.curdir
        if name in ("os.pardir", "os.path.pardir"):
            return os.pardir
        if name in ("os.sep", "os.path.sep"):
            return os.sep
        if node.attr == "parent":
            owner = self._value(node.value)
            return None if owner is None else os.path.dirname(self._absolute(owner))
        return None

    def _parents(self, node: ast.Subscript) -> str | None:
        """``path.parents[n]``."""
        if not (isinstance(node.value, ast.Attribute) and node.value.attr == "parents"):
            return None
        index = node.slice
        if not (isinstance(index, ast.Constant) and type(index.value) is int and index.value >= 0):
            return None
        value = self._value(node.value.value)
        if value is None:
            return None
        value = self._absolute(value)
        for _ in range(index.value + 1):
            value = os.path.dirname(value)
        return value

    def _absolute(self, path: str) -> str:
        return os.path.normpath(path if os.path.isabs(path) else _join(self._cwd, path))

    def _call(self, node: ast.Call) -> str | None:
        if node.keywords:
            return None
        func = node.func
        name = self._qualname(func)
        if name in ("os.getcwd", "pathlib.Path.cwd"):
            return self._cwd
        if name in ("str", "os.fspath") and len(node.args) == 1:
            return self._value(node.args[0])
        args = self._values(node.args)
        if args is None:
            return None
        if name is not None and name.rsplit(".", 1)[0] in ("os.path", "posixpath"):
            return self._os_path(name.rsplit(".", 1)[1], args)
        if name in _PATH_CLASSES:
            return os.path.normpath(_join(*args)) if args else os.curdir
        if isinstance(func, ast.Attribute):  # methods of a pathlib value
            owner = self._value(func.value)
            if owner is None:
                return None
            if func.attr in ("resolve", "absolute") and not args:
                return self._absolute(owner)
            if func.attr == "joinpath":
                return _join(owner, *args)
        return None

    def _os_path(self, function: str, args: list[str]) -> str | None:
        if function not in _PATH_FUNCTIONS or not args:
            return None
        if function == "join":
            return _join(*args)
        if len(args) != 1:
            return None
        if function == "dirname":
            return os.path.dirname(args[0])
        if function == "normpath":
            return os.path.normpath(args[0])
        return self._absolute(args[0])  # abspath, realpath

    # -- statements ------------------------------------------------------------

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        value = self._value(node.value)
        for target in node.targets:
            for name in (n.id for n in ast.walk(target) if isinstance(n, ast.Name)):
                if value is not None and isinstance(target, ast.Name):
                    self._env[name] = value
                else:
                    self._env.pop(name, None)

    def visit_For(self, node: ast.For) -> None:
        """``for p in ['lib', 'src']: sys.path.insert(0, p)``: the body once per literal element."""
        if isinstance(node.target, ast.Name) and isinstance(node.iter, (ast.List, ast.Tuple)):
            for element in node.iter.elts:
                value = self._value(element)
                if value is None:
                    self._env.pop(node.target.id, None)
                else:
                    self._env[node.target.id] = value
                for statement in node.body:
                    self.visit(statement)
            for statement in node.orelse:
                self.visit(statement)
            return
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """A function body sees the module's names, minus its parameters; its assignments stay local."""
        params = [a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)]
        saved = dict(self._env)
        for param in params:
            self._env.pop(param, None)
        self._record_forwarder(node, params)
        for statement in node.body:
            self.visit(statement)
        self._env = saved

    visit_AsyncFunctionDef = visit_FunctionDef

    def _record_forwarder(self, node: ast.FunctionDef | ast.AsyncFunctionDef,
                          params: list[str]) -> None:
        """Remember ``def add_path(path): sys.path.insert(0, path)`` so that its calls are followed."""
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            adder = _ADDERS.get(self._qualname(call.func) or "")
            if adder is None or len(call.args) <= adder[1]:
                continue
            argument = call.args[adder[1]]
            if isinstance(argument, ast.Name) and argument.id in params:
                self._forwarders[node.name] = (adder[0], params.index(argument.id))

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        func = node.func
        name = self._qualname(func) or ""
        if isinstance(func, ast.Name) and func.id in self._forwarders:
            position, index = self._forwarders[func.id]
        elif name in _ADDERS:
            position, index = _ADDERS[name]
        elif name == "sys.path.extend" and len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple)):
            for element in node.args[0].elts:
                self._add("back", element)
            return
        else:
            return
        if len(node.args) > index:
            self._add(position, node.args[index])

    def _add(self, position: str, node: ast.expr) -> None:
        value = self._value(node)
        if value is None:
            return
        folder = Path(self._absolute(value))
        getattr(self.additions, position).append(folder)


def sys_path_additions(tree: ast.Module, path: Path, bases: Sequence[Path]) -> SysPathAdditions:
    """The folders ``tree`` (the source of ``path``) adds to ``sys.path`` through literal forms.

    Relative paths are relative to the current folder at run time, which is not
    known statically: each is taken from every folder in ``bases`` (the script's
    folder and the current one). Folders that do not exist are left out.
    """
    additions = SysPathAdditions()
    for base in dict.fromkeys(Path(b).resolve() for b in bases):
        evaluator = _PathEvaluator(Path(path).resolve(), base)
        evaluator.visit(tree)
        for position in ("front", "back"):
            target = getattr(additions, position)
            for folder in getattr(evaluator.additions, position):
                if folder.is_dir() and folder.resolve() not in target:
                    target.append(folder.resolve())
    return additions

