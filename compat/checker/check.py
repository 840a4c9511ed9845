"""``python -m compat check script.py``: what an old script needs, found without running it.

The script and every module of its own code it imports are parsed with
:mod:`ast` (nothing is executed or imported from them). For each legacy
construct the report gives ``file:line:col``, the construct, and what the
runner does about it:

* ``rewritten``   - the source is rewritten at import (:mod:`compat.runner.rewrite`);
* ``bridged``     - the runner provides the name (``tf.contrib.data``,
  ``scipy.misc``, renamed TensorFlow ops, Python 2 builtins);
* ``compat.v1``   - works as in TensorFlow 1 through ``tf.compat.v1``;
* ``fallback``    - not provided, but the script has its own alternative: it
  catches the failure (``try: ... except ImportError:``) or the construct is
  in a branch for Python 2 only (:mod:`compat.surfaces.fallbacks`);
* ``unsupported`` - the runner cannot make it work; the message says what to use.

Local modules are followed into namespace packages, ``PYTHONPATH`` folders and
folders the code adds to ``sys.path`` (:mod:`compat.runner.local_imports`).
The exit status is 0 when everything found is handled and 1 otherwise, in the
spirit of ``tf_upgrade_v2``'s report, but covering NumPy, SciPy and Python 2
as well. Classifying ``tf.x.y`` names imports TensorFlow (to compare
``tf.compat.v1`` with TensorFlow 2), never the script.

Every verdict comes from the tables and messages of :mod:`compat.rules`, the
ones the runner serves and refuses from; this module never imports
:mod:`compat.runner.run`.
"""
from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from compat import contrib as contrib_bridges
from compat import rules
from compat.contrib import slim as slim_bridge
from compat.runner import rewrite
from compat.scipy_legacy import removed as scipy_removed
from compat.surfaces import all_surfaces, as_use, fallbacks
from compat.tf1 import namespace as tf1

__all__ = ["HANDLED", "STATUSES", "Finding", "Report", "check_script", "main"]

#: Report statuses, in the order the summary lists them.
STATUSES: tuple[str, ...] = ("rewritten", "bridged", "compat.v1", "fallback", "conditional", "warning",
                              "unsupported")
#: The statuses that do not fail the check: the runner handles the construct, the
#: script's own alternative runs, it runs only under an option of the script, or it
#: runs but behaves as today's library does, not as the old one (``warning``: the
#: action names the release that changed it).
HANDLED = frozenset(STATUSES[:6])

@dataclass(frozen=True)
class Finding:
    """One legacy construct at one place.

    Attributes:
        path: the file, relative to the script's folder.
        line, col: 1-based line, 0-based column.
        construct: the legacy source or name.
        status: one of :data:`STATUSES`.
        action: what the runner does, or what to use instead.
    """

    path: str
    line: int
    col: int
    construct: str
    status: str
    action: str

    @property
    def handled(self) -> bool:
        """True if the runner handles this construct."""
        return self.status in HANDLED

    def format(self) -> str:
        """``file:line:col: status: construct -> action``."""
        return f"{self.path}:{self.line}:{self.col}: {self.status}: {self.construct} -> {self.action}"


@dataclass
class Report:
    """Everything found in a script and its local modules."""

    script: Path
    files: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def unsupported(self) -> list[Finding]:
        """The findings the runner cannot handle."""
        return [f for f in self.findings if not f.handled]

    @property
    def ok(self) -> bool:
        """True if the runner handles everything found."""
        return not self.unsupported

    def count(self, status: str) -> int:
        """How many findings have ``status``."""
        return sum(1 for f in self.findings if f.status == status)

    def format(self) -> str:
        """The text report printed by ``python -m compat check``."""
        local = [f for f in self.files[1:]]
        header = f"compat check: {self.files[0] if self.files else self.script.name}"
        header += f" (local modules: {', '.join(local)})" if local else " (no local modules)"
        lines = [header]
        lines.extend(f.format() for f in self.findings)
        lines.append("")
        lines.append(self._summary())
        conditional = [f for f in self.findings if f.status == "conditional"]
        if self.unsupported:
            lines.append("Cannot be handled by the runner:")
            lines.extend("  " + f.format() for f in self.unsupported)
        elif conditional:
            lines.append(f"The runner handles everything found except {len(conditional)} construct(s) in branches "
                         "an option selects: python -m compat run "
                         f"{self.script.name} should work unless the options take those branches.")
        else:
            lines.append("The runner handles everything found: python -m compat run "
                         f"{self.script.name} should work.")
        return "\n".join(lines)

    def _summary(self) -> str:
        if not self.findings:
            return f"No legacy constructs found in {len(self.files)} file(s)."
        parts = [f"{self.count(s)} {'work through tf.compat.v1' if s == 'compat.v1' else s}"
                 for s in STATUSES[:3]]
        if self.count("fallback"):
            parts.append(f"{self.count('fallback')} fallback (the script's own alternative runs)")
        if self.count("conditional"):
            parts.append(f"{self.count('conditional')} conditional (fail only when an option selects them)")
        if self.count("warning"):
            parts.append(f"{self.count('warning')} warning (run, but as today's release behaves)")
        return (f"{len(self.findings)} legacy constructs in {len(self.files)} file(s): "
                f"{', '.join(parts)}; {len(self.unsupported)} cannot be handled.")


# --------------------------------------------------------------------------
# Classification helpers
# --------------------------------------------------------------------------

Verdict = tuple[str, str]


def _classify_scipy_misc(name: str, bridged: tuple[str, ...]) -> Verdict:
    if name in bridged:
        return "bridged", f"compat.scipy_legacy.misc.{name} (SciPy 1.2 semantics)"
    if name in rules.SCIPY_MISC_MOVED:
        return "bridged", f"forwarded to {rules.SCIPY_MISC_MOVED[name]}"
    return "unsupported", rules.scipy_misc_message(name)


@functools.lru_cache(maxsize=1)
def _scipy_top_level_removed() -> dict[str, scipy_removed.Removed]:
    """The NumPy names old SciPy re-exported at its top level and the installed SciPy lacks."""
    import scipy
    return scipy_removed.top_level_removed(scipy)


def _scipy_removed_verdict(module: str, name: str) -> Verdict | None:
    """``bridged`` for a name today's SciPy lost and the runner adds back
    (:mod:`compat.scipy_legacy.removed`), else None."""
    entry = scipy_removed.REMOVED.get(module, {}).get(name)
    if entry is None and module == "scipy":
        entry = _scipy_top_level_removed().get(name)
    if entry is None:
        return None
    return "bridged", f"removed from SciPy; the runner adds {module}.{name} back ({entry.replacement} today)"


#: The verdict for ``scipy.ndimage.imread``.
_NDIMAGE_IMREAD: Verdict = ("bridged", rules.NDIMAGE_IMREAD_ACTION)


def _classify_tf(parts: list[str]) -> Verdict | None:
    verdict = tf1.classify_tf_attribute(parts)
    return None if verdict is None else (verdict.status, verdict.action)


def _chain(node: ast.Attribute) -> tuple[str, list[str]] | None:
    """(root name, attribute names) for ``root.a.b``; None if the root is not a plain name."""
    parts: list[str] = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        parts.append(current.attr)
        current = current.value
    if isinstance(current, ast.Name):
        return current.id, parts[::-1]
    return None


def _is_int_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


class _Aliases(ast.NodeVisitor):
    """Names bound to the TF1 namespace, to ``scipy.misc`` and to ``scipy``."""

    def __init__(self) -> None:
        self.tensorflow: set[str] = set()
        self.misc: set[str] = set()
        self.ndimage: set[str] = set()
        self.scipy: set[str] = set()
        #: A name bound to a SciPy module -> the module (``sig`` -> ``scipy.signal``).
        self.scipy_modules: dict[str, str] = {}
        #: A name bound to a ``tf.contrib`` module -> its path under ``tf`` (``learn`` -> ``["contrib", "learn"]``),
        #: so that ``learn.preprocessing`` is classified as ``tf.contrib.learn.preprocessing``.
        self.contrib: dict[str, list[str]] = {}

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.startswith("tensorflow.contrib.") and alias.asname and alias.name.count(".") == 2:
                self.contrib[alias.asname] = alias.name.split(".")[1:]
            elif alias.name == "tensorflow" or (alias.name.startswith("tensorflow.") and not alias.asname):
                self.tensorflow.add(alias.asname or "tensorflow")
            elif alias.name == "scipy.misc" and alias.asname:
                self.misc.add(alias.asname)
            elif alias.name == "scipy.ndimage" and alias.asname:
                self.ndimage.add(alias.asname)
            elif alias.name.split(".")[0] == "scipy" and not alias.asname:
                self.scipy.add("scipy")
            elif alias.name == "scipy" and alias.asname:
                self.scipy.add(alias.asname)
            elif alias.name.startswith("scipy.") and alias.asname:  # import scipy.signal as sig
                self.scipy_modules[alias.asname] = alias.name

    def visit_Assign(self, node: ast.Assign) -> None:
        # learn = tf.contrib.learn (TensorFlow's own examples of 2016-2017 wrote it so).
        path = _dotted(node.value)
        if (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and path is not None
                and len(path) == 3 and path[0] in self.tensorflow and path[1] == "contrib"):
            self.contrib[node.targets[0].id] = path[1:]
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        # Only tf.contrib and its modules: deeper paths (tensorflow.contrib.learn.python.learn) name
        # implementation modules the TF1 namespace does not have as attributes.
        if node.level == 0 and (module in ("tensorflow", "tensorflow.contrib")
                                or (module.startswith("tensorflow.contrib.") and module.count(".") == 2)):
            prefix = module.split(".")[1:]
            for alias in node.names:
                if [*prefix, alias.name][0] == "contrib" and alias.name != "*":
                    self.contrib[alias.asname or alias.name] = [*prefix, alias.name]
        if node.level == 0 and node.module == "scipy":
            self.misc.update(a.asname or a.name for a in node.names if a.name == "misc")
            self.ndimage.update(a.asname or a.name for a in node.names if a.name == "ndimage")
            self.scipy_modules.update({a.asname or a.name: f"scipy.{a.name}" for a in node.names
                                       if a.name not in ("misc", "ndimage", "*")})
        elif node.level == 0 and (node.module or "").startswith("scipy."):  # from scipy.spatial import distance
            self.scipy_modules.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names
                                       if f"{node.module}.{a.name}" in scipy_removed.REMOVED})


def _dotted(node: ast.expr) -> list[str] | None:
    """``["tf", "contrib", "learn"]`` for the expression ``tf.contrib.learn``; None for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


def _contrib_bridge_name(module: str) -> str | None:
    """``crf`` for ``tensorflow.contrib.crf[.deeper]`` when a bridge of :mod:`compat.contrib` serves it, else None."""
    parts = module.split(".")
    if len(parts) > 2 and parts[:2] == ["tensorflow", "contrib"] and parts[2] in contrib_bridges.bridged_modules():
        return parts[2]
    return None


def _partial_contrib_verdict(module: str, name: str) -> Verdict | None:
    """``from tensorflow.contrib.<partial package> import name``: bridged when the runner
    serves that module (or a package of served modules), else as ``tf.contrib.<...>.name``."""
    served = f"{module}.{name}"
    description = rules.describe_legacy_module(served)
    if description is None and any(key.startswith(served + ".") for key in rules.LEGACY_MODULE_DESCRIPTIONS):
        description = f"{served} is served by the runner (its modules: see compat.rules)"
    if description is not None:
        return "bridged", description
    return _classify_tf(["contrib", *module.split(".")[2:], name])


class _ModuleChecker(ast.NodeVisitor):
    """Finds the legacy constructs of one module that the source rewrite does not report."""

    def __init__(self, path: str, tree: ast.Module, scipy_bridged: Callable[[], tuple[str, ...]],
                 python2: bool = False) -> None:
        self._path = path
        self._python2 = python2
        self._aliases = _Aliases()
        self._aliases.visit(tree)
        self._bound = rewrite.module_bindings(tree).bound
        self._scipy_bridged = scipy_bridged
        self._guards = fallbacks.Guards(tree)
        self.findings: list[Finding] = []

    def _add(self, node: ast.AST, construct: str, verdict: Verdict | None) -> None:
        if verdict is not None:
            status, action = verdict
            fallback = self._guards.fallback_for(node) if status == "unsupported" else None
            condition = self._guards.condition_for(node) if status == "unsupported" else None
            if fallback is not None:
                status, action = "fallback", fallback
            elif condition is not None:
                status, action = "conditional", f"{action}; runs {condition}"
            self.findings.append(Finding(self._path, getattr(node, "lineno", 0),
                                         getattr(node, "col_offset", 0), construct, status, action))

    def visit_Module(self, node: ast.Module) -> None:
        # What each legacy surface reports for this module (Matplotlib's, Keras 1's, scikit-learn's
        # and pandas' removed names and arguments, ...: compat.surfaces).
        for surface in all_surfaces():
            if surface.uses is not None:
                for use in map(as_use, surface.uses(node)):
                    self._add(use.node, use.construct, (use.status, use.action))
        self.generic_visit(node)

    # -- imports -------------------------------------------------------------

    def _module_verdict(self, name: str) -> Verdict | None:
        served = slim_bridge.classify_module(name)  # tf.contrib.slim/layers/framework/training
        if served is not None:
            return served
        provided = rules.describe_legacy_module(name)
        if provided is not None:
            return "bridged", provided
        partial = rules.PARTIAL_CONTRIB_PACKAGES.get(name.removeprefix("tensorflow.contrib."))
        if name.startswith("tensorflow.contrib.") and partial is not None:
            return "bridged", partial
        bridge = _contrib_bridge_name(name)
        if bridge is not None:  # the runner serves tensorflow.contrib.<bridge>[.deeper] the bridge module
            return "bridged", f"tf.contrib.{bridge} is provided by the runner (compat.contrib.{bridge})"
        message = rules.removed_module_message(name)
        if message is not None:
            if name.startswith("tensorflow.contrib.data"):
                return "bridged", "tf.contrib.data is provided by the runner"
            return "unsupported", message
        if name == "tensorflow.contrib":
            return "bridged", "tf.contrib is provided by the runner (data, slim, layers, framework, training)"
        if name == "scipy.misc":
            return "bridged", "scipy.misc is served by the runner from compat.scipy_legacy.misc"
        if name.split(".")[0] in rules.PY2_MODULES_UNSUPPORTED:
            return "unsupported", (f"Python 2 module {name}; use "
                                   f"{rules.PY2_MODULES_UNSUPPORTED[name.split('.')[0]]}")
        return None

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(node, f"import {alias.name}", self._module_verdict(alias.name))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or node.module is None:
            return
        module = node.module
        names = [a.name for a in node.names if a.name != "*"]
        if module == "tensorflow":
            for name in names:
                self._add(node, f"tf.{name}", _classify_tf([name]))
        elif module in ("tensorflow.contrib", "tensorflow.contrib.data"):
            prefix = module.split(".")[1:]
            for name in names:
                self._add(node, f"from {module} import {name}", _classify_tf([*prefix, name]))
        elif (module.startswith("tensorflow.contrib.")
              and module.removeprefix("tensorflow.contrib.") in rules.PARTIAL_CONTRIB_PACKAGES):
            for name in names:  # from tensorflow.contrib.learn import datasets / Estimator
                self._add(node, f"from {module} import {name}", _partial_contrib_verdict(module, name))
        elif module == "scipy" and "misc" in names:
            self._add(node, "from scipy import misc", self._module_verdict("scipy.misc"))
        elif module == "scipy.ndimage" and "imread" in names:
            self._add(node, "scipy.ndimage.imread", _NDIMAGE_IMREAD)
        elif any(_scipy_removed_verdict(module, name) for name in names):
            for name in names:
                verdict = _scipy_removed_verdict(module, name)
                if verdict is not None:
                    self._add(node, f"{module}.{name}", verdict)
        elif module == "scipy.misc":
            for name in names:
                self._add(node, f"scipy.misc.{name}", _classify_scipy_misc(name, self._scipy_bridged()))
        else:
            served = [rules.describe_legacy_module(f"{module}.{name}") for name in names]
            first = served[0] if served and all(served) else None
            bridge = _contrib_bridge_name(module)
            if first is not None:  # e.g. from tensorflow.contrib.learn...datasets import mnist
                self._add(node, f"from {module} import ...", ("bridged", first))
            elif bridge is not None:
                for name in names:  # from tensorflow.contrib.crf import crf_log_likelihood
                    self._add(node, f"from {module} import {name}", _classify_tf(["contrib", bridge, name]))
            else:
                self._add(node, f"from {module} import ...", self._module_verdict(module))

    # -- attribute chains ------------------------------------------------------

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain = _chain(node)
        if chain is not None and isinstance(node.ctx, ast.Load):
            root, parts = chain
            dotted = ".".join([root, *parts])
            if root in self._aliases.tensorflow:
                self._add(node, dotted, _classify_tf(parts))
                return
            if root in self._aliases.contrib and root not in self._aliases.tensorflow:
                self._add(node, dotted, _classify_tf([*self._aliases.contrib[root], *parts]))
                return
            if root in self._aliases.misc:
                self._add(node, dotted, _classify_scipy_misc(parts[0], self._scipy_bridged()))
                return
            if root in self._aliases.scipy and len(parts) > 1 and parts[0] == "misc":
                self._add(node, dotted, _classify_scipy_misc(parts[1], self._scipy_bridged()))
                return
            if (root in self._aliases.ndimage and parts == ["imread"]) or (
                    root in self._aliases.scipy and parts == ["ndimage", "imread"]):
                self._add(node, dotted, _NDIMAGE_IMREAD)
                return
            verdict = self._scipy_attribute_verdict(root, parts)
            if verdict is not None:
                self._add(node, dotted, verdict)
                return
        if node.attr in rules.DATASET_V1_MEMBERS and isinstance(node.ctx, ast.Load):
            self._add(node, f".{node.attr}", ("compat.v1", "TensorFlow 1 Dataset member; works on "
                                              "tf.compat.v1 datasets (TF2 spelling: "
                                              f"{rules.DATASET_V1_MEMBERS[node.attr]})"))
        self.generic_visit(node)

    def _scipy_attribute_verdict(self, root: str, parts: list[str]) -> Verdict | None:
        """``sig.hann`` / ``scipy.signal.hann`` / ``sp.zeros``: the verdict for a removed SciPy name, else None."""
        if root in self._aliases.scipy_modules:
            return _scipy_removed_verdict(self._aliases.scipy_modules[root], parts[0])
        if root in self._aliases.scipy:
            if len(parts) > 1 and f"scipy.{parts[0]}" in scipy_removed.REMOVED:
                return _scipy_removed_verdict(f"scipy.{parts[0]}", parts[1])
            return _scipy_removed_verdict("scipy", parts[0])
        return None

    # -- calls and names -------------------------------------------------------

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        chain = _chain(func) if isinstance(func, ast.Attribute) else None
        if chain is not None and chain[0] in self._aliases.tensorflow:
            row = rules.by_name(".".join(chain[1]))
            if row is not None and row.kept_in_1_0 and _is_old_call(node, row.old_call):
                self._add(node, _short(node), ("bridged", f"pre-1.0 call of tf.{row.old}, accepted by the "
                                                          f"runner: {row.description}"))
        if _imports_tensorflow_dynamically(node):
            self._add(node, _short(node), ("unsupported", "gives TensorFlow 2's own module, not the TF1 namespace "
                                                          "the runner gives to `import tensorflow as tf`: use that "
                                                          "statement (TF1 names such as tf.placeholder are missing "
                                                          "from the module this returns)"))
        is_sort = (isinstance(func, ast.Name) and func.id == "sorted") or (
            isinstance(func, ast.Attribute) and func.attr == "sort")
        if is_sort and any(k.arg == "cmp" for k in node.keywords):
            self._add(node, _short(node), ("unsupported", "Python 2 cmp= argument; use "
                                                          "key=functools.cmp_to_key(f)"))
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if (isinstance(node.ctx, ast.Load) and node.id in rules.PY2_BUILTINS_UNSUPPORTED
                and node.id not in self._bound):
            self._add(node, node.id, ("unsupported", f"Python 2 builtin; use "
                                                     f"{rules.PY2_BUILTINS_UNSUPPORTED[node.id]}"))


def _imports_tensorflow_dynamically(node: ast.Call) -> bool:
    """``importlib.import_module("tensorflow")`` or ``__import__("tensorflow")``."""
    func = node.func
    named = (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id in ("import_module", "__import__"))
    first = node.args[0] if node.args else None
    return named and isinstance(first, ast.Constant) and first.value == "tensorflow"


def _is_old_call(node: ast.Call, old_call: str | None) -> bool:
    """True if the call's arguments have the pre-1.0 shape named by ``old_call`` (see ``compat.tf1.renames.Rename``)."""
    args = node.args
    if old_call == "int_first":
        return bool(args) and _is_int_literal(args[0])
    if old_call == "int_second":
        return (len(args) > 2 and _is_int_literal(args[1])) or any(k.arg == "new_height" for k in node.keywords)
    if old_call == "positional":
        return bool(args) or any(k.arg == "targets" for k in node.keywords)
    if old_call is not None and old_call.startswith("keyword:"):
        return any(k.arg == old_call.partition(":")[2] for k in node.keywords)
    if old_call == "bool_list":
        dims = args[1] if len(args) > 1 else next((k.value for k in node.keywords if k.arg == "dims"), None)
        return isinstance(dims, (ast.List, ast.Tuple)) and bool(dims.elts) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, bool) for e in dims.elts)
    return False


def _short(node: ast.AST, limit: int = 60) -> str:
    text = ast.unparse(node)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --------------------------------------------------------------------------
# Whole script
# --------------------------------------------------------------------------

def _syntax_finding(path: str, err: SyntaxError) -> Finding:
    col = max((err.offset or 1) - 1, 0)
    return Finding(path, err.lineno or 1, col, rewrite.describe_syntax_error(err), "unsupported",
                   "not valid Python 3, so the runner cannot load this file; fix the line by hand")


def _change_findings(path: str, changes: list[rewrite.Change]) -> list[Finding]:
    return [Finding(path, c.line, c.col, c.construct, c.status, c.action) for c in changes]


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, int, str]] = set()
    unique = []
    for finding in findings:
        key = (finding.path, finding.line, finding.construct)
        if key not in seen:
            seen.add(key)
            unique.append(finding)
    return unique


def _scipy_bridged_names() -> Callable[[], tuple[str, ...]]:
    cache: list[tuple[str, ...]] = []

    def names() -> tuple[str, ...]:
        if not cache:
            cache.append(rules.scipy_misc_bridged_names())
        return cache[0]
    return names


def check_script(script: Path, python2: bool = False) -> Report:
    """Parse ``script`` and its local modules and report every legacy construct found.

    Python 2 modules are reported as translated (``python2=True``: every local
    module is Python 2, as ``compat run --py2`` treats them).

    Raises:
        FileNotFoundError: ``script`` is not a file.
    """
    path = Path(script)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {script}")
    path = path.resolve()
    scope = rewrite.LocalScope.for_script(path)
    report = Report(script=path)
    scipy_bridged = _scipy_bridged_names()
    for source in rewrite.walk_local_modules(path, scope, True if python2 else None):
        relative = scope.relative(source.path)
        report.files.append(relative)
        if source.tree is None:
            if source.error is not None:
                report.findings.append(_syntax_finding(relative, source.error))
            continue
        checker = _ModuleChecker(relative, source.tree, scipy_bridged, python2=source.translation is not None)
        checker.visit(source.tree)
        changes = rewrite.transform(source.tree, python2=source.translation is not None).changes
        changes += rewrite.translation_changes(source.translation)
        # The checker's findings first: for the same construct (``import tensorflow.contrib.rnn``),
        # its specific verdict is kept over the rewrite's generic one.
        found = checker.findings + _change_findings(relative, changes)
        report.findings.extend(_dedupe(sorted(found, key=lambda f: (f.line, f.col))))
    return report


def main(script: str, python2: bool = False) -> int:
    """Print the report for ``script``; 0 if everything is handled, 1 if not, 2 if no such file."""
    if Path(script).is_dir():
        print(f"compat: cannot check {script}: it is a directory, not a script (name the .py file in it)",
              file=sys.stderr)
        return rules.EXIT_USAGE
    try:
        report = check_script(Path(script), python2)
    except FileNotFoundError:
        print(f"compat: cannot check {script}: no such file", file=sys.stderr)
        return rules.EXIT_USAGE
    except SyntaxError as err:  # not text at all (random bytes): name the file
        print(f"compat: cannot check {script}: {err.msg}", file=sys.stderr)
        return rules.EXIT_USAGE
    print(report.format())
    return 0 if report.ok else 1
