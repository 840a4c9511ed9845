"""``compat.rules``: one table of renames, bridges and refusals, read alike by ``run`` and ``check``.

The architecture tests parse the sources; the agreement test turns every row of
every table into a one-line module, runs all of them under ``python -m compat
run`` (one subprocess) and checks all of them with ``compat.checker.check``, and asserts
that each row is treated the same way by both: what the runner serves is
reported as handled (with the status the table implies), and what it refuses is
reported as unsupported with the very message the runner raises.
"""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from compat import contrib as contrib_bridges
from compat import rules
from compat.checker import check
from compat.contrib import slim as slim_bridge
from compat.matplotlib_legacy import removed as mpl_removed
from compat.pydata_legacy import pandas_removed, sklearn_removed
from compat.runner import rewrite
from compat.scipy_legacy import removed as scipy_removed

COMPAT = Path(rules.__file__).resolve().parent
TIMEOUT = 300


def imported_modules(path: Path) -> set[str]:
    """Every module an ``import`` statement of ``path`` names (``from a import b`` gives a and a.b)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


# --------------------------------------------------------------------------
# Architecture
# --------------------------------------------------------------------------

def test_check_imports_no_runner_module() -> None:
    imported = imported_modules(COMPAT / "checker" / "check.py")
    assert "compat.rules" in imported
    assert "compat.runner.run" not in imported, imported


def test_importing_check_does_not_load_the_runner() -> None:
    code = "import sys, compat.checker.check; print('compat.runner.run' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_rules_imports_no_tensorflow_and_has_no_side_effects() -> None:
    assert not {name for name in imported_modules(COMPAT / "rules.py")
                if name.split(".")[0] in ("tensorflow", "tf_slim", "tf_keras", "numpy", "scipy")}
    code = textwrap.dedent("""
        import json, os, sys
        before = (set(sys.modules), list(sys.meta_path), list(sys.path), dict(os.environ))
        import compat.rules
        added = sorted(set(sys.modules) - before[0])
        print(json.dumps({
            "heavy": [m for m in added if m.split(".")[0] in ("tensorflow", "tf_slim", "tf_keras", "numpy",
                                                               "scipy", "PIL", "keras")],
            "compat": [m for m in added if m.startswith("compat")],
            "meta_path": list(sys.meta_path) == before[1],
            "path": sys.path == before[2],
            "environ": dict(os.environ) == before[3],
        }))
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["heavy"] == []
    # compat.surfaces.modules: the standard-library-only helper renames builds its namespaces with;
    # compat.tf1 and compat.surfaces: the packages of those modules (compat.surfaces imports the
    # standard library only);
    # compat.contrib._nn_extras: the tf.contrib.nn ops of the rename table (TensorFlow imported on call).
    assert set(found["compat"]) == {"compat", "compat.rules", "compat.tf1", "compat.tf1.renames",
                                    "compat.tf1.tf0_ops", "compat.surfaces", "compat.surfaces.modules",
                                    "compat.contrib", "compat.contrib._nn_extras"}
    assert found["meta_path"] and found["path"] and found["environ"]


#: Table names of ``compat.rules`` (upper-case names of its ``__all__``).
TABLES = sorted(name for name in rules.__all__ if name.isupper() and not name.startswith("EXIT_"))


def test_no_other_compat_module_defines_a_rules_table() -> None:
    # renames.py is the one data module rules re-exports (the 1.0 rename table).
    owners: dict[str, list[str]] = {}
    for path in sorted(COMPAT.glob("*.py")):
        if path.name in ("rules.py", "renames.py"):
            continue
        for node in ast.parse(path.read_text()).body:
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, ast.AnnAssign) else [])
            for target in targets:
                if isinstance(target, ast.Name) and target.id in TABLES:
                    owners.setdefault(target.id, []).append(path.name)
    assert owners == {}


def test_runtime_modules_use_the_rules_objects() -> None:
    assert slim_bridge.FACADES is rules.FACADES
    assert slim_bridge.DEEP_MODULES is rules.DEEP_MODULES
    assert set(rewrite._NUMPY_VALUES) == set(rules.NUMPY_REMOVED)


# --------------------------------------------------------------------------
# Every row: run and check agree
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    """One table row as a one-module script.

    Attributes:
        table, key: the row.
        source: the module's code, which uses the row's construct once.
        status: what ``check`` must report (``unsupported`` means the runner must fail on it;
            ``handled``: any status but unsupported; ``agree``: unsupported exactly if the runner
            fails; ``kept``: a name TensorFlow 1.0 kept, which
            is not legacy by itself, so the report may say nothing).
        construct: the finding to look at; None: every finding of the module.
        replacement: text the message must contain when the runner's error is Python's own.
    """

    table: str
    key: str
    source: str
    status: str
    construct: str | None = None
    replacement: str | None = None


TF = "import tensorflow as tf\n"


def _rename_cases() -> list[Case]:
    cases = []
    for row in rules.RENAMES:
        # A name 1.0 kept (tf.concat) is not legacy by itself: whatever check says, it is handled.
        status = "unsupported" if row.refusal is not None else ("kept" if row.kept_in_1_0 else "bridged")
        cases.append(Case("RENAMES", row.old, f"{TF}value = tf.{row.old}\n", status, f"tf.{row.old}"))
    return cases


def _contrib_cases() -> list[Case]:
    cases = [Case("CONTRIB_DATA_PROVIDED", name, f"{TF}value = tf.contrib.data.{name}\n", "bridged",
                  f"tf.contrib.data.{name}") for name in rules.CONTRIB_DATA_PROVIDED]
    cases += [Case("CONTRIB_DATA_FROM_V1", name, f"{TF}value = tf.contrib.data.{name}\n", "bridged",
                   f"tf.contrib.data.{name}") for name in rules.CONTRIB_DATA_FROM_V1]
    bridged = contrib_bridges.bridged_modules()
    for name in rules.CONTRIB_REPLACEMENTS:
        served = name in rules.FACADES or name in rules.PARTIAL_CONTRIB_PACKAGES or name in bridged
        status = "bridged" if served else "unsupported"
        cases.append(Case("CONTRIB_REPLACEMENTS", name, f"import tensorflow.contrib.{name}\n",
                          status, f"import tensorflow.contrib.{name}"))
    cases += _bridge_cases(bridged)
    for facade, moved in rules.SLIM_MOVED.items():
        cases += [Case("SLIM_MOVED", f"{facade}.{name}", f"{TF}value = tf.contrib.{facade}.{name}\n",
                       "unsupported", f"tf.contrib.{facade}.{name}") for name in moved]
    cases += [Case("FACADES", name, f"{TF}value = tf.contrib.{name}\n", "bridged", f"tf.contrib.{name}")
              for name in rules.FACADES]
    cases += [Case("PARTIAL_CONTRIB_PACKAGES", name, f"{TF}value = tf.contrib.{name}\n", "bridged",
                   f"tf.contrib.{name}") for name in rules.PARTIAL_CONTRIB_PACKAGES]
    cases += [Case("DEEP_MODULES", name, f"import {name}\n", "bridged", f"import {name}")
              for name in rules.DEEP_MODULES if name.startswith("tensorflow.contrib.")]
    cases += [Case("EMPTY_PACKAGES", name, f"import {name}\n", "bridged", f"import {name}")
              for name in sorted(rules.EMPTY_PACKAGES)]
    cases += [Case("CONTRIB_NN_REPLACEMENTS", name, f"{TF}value = tf.contrib.nn.{name}\n", "unsupported",
                   f"tf.contrib.nn.{name}") for name in rules.CONTRIB_NN_REPLACEMENTS]
    for name in rules.REMOVED_TF_MODULES:
        # The first missing level is refused (tensorflow.examples.tutorials is served for the MNIST tutorial).
        module = f"{name}.removed_module" if name in rules.TUTORIAL_MODULES else name
        cases.append(Case("REMOVED_TF_MODULES", name, f"import {module}\n", "unsupported", f"import {module}"))
    return cases


def _bridge_cases(bridged: frozenset[str]) -> list[Case]:
    """Per bridge module of compat.contrib: the module, each refused name and a few provided names."""
    import importlib
    cases = []
    for module in sorted(bridged):
        bridge = importlib.import_module(f"compat.contrib.{module}")
        cases.append(Case("CONTRIB_BRIDGES", module, f"import tensorflow.contrib.{module}\n", "bridged",
                          f"import tensorflow.contrib.{module}"))
        cases += [Case("CONTRIB_BRIDGES", f"{module}.{name}", f"{TF}value = tf.contrib.{module}.{name}\n",
                       "unsupported", f"tf.contrib.{module}.{name}") for name in sorted(getattr(bridge, "REFUSED", {}))]
        provided = [name for name in sorted(getattr(bridge, "FORWARDS", {})) + sorted(getattr(bridge, "__all__", []))
                    if name not in ("REFUSED", "FORWARDS")]
        cases += [Case("CONTRIB_BRIDGES", f"{module}.{name}", f"{TF}value = tf.contrib.{module}.{name}\n",
                       "bridged", f"tf.contrib.{module}.{name}") for name in provided[:3]]
    return cases


def _module_cases() -> list[Case]:
    cases = []
    for name in rules.LEGACY_MODULE_DESCRIPTIONS:
        parent, _, last = name.rpartition(".")
        cases.append(Case("LEGACY_MODULE_DESCRIPTIONS", name, f"from {parent} import {last}\n", "bridged"))
    return cases


def _scipy_cases() -> list[Case]:
    cases = [Case("SCIPY_MISC_MOVED", name, f"from scipy.misc import {name}\n", "bridged",
                  f"scipy.misc.{name}") for name in rules.SCIPY_MISC_MOVED]
    cases += [Case("SCIPY_MISC_REPLACEMENTS", name, f"from scipy.misc import {name}\n", "unsupported",
                   f"scipy.misc.{name}") for name in rules.SCIPY_MISC_REPLACEMENTS]
    cases += [Case("scipy_misc_bridged_names", name, f"from scipy.misc import {name}\n", "bridged",
                   f"scipy.misc.{name}") for name in rules.scipy_misc_bridged_names()]
    cases.append(Case("NDIMAGE_IMREAD_ACTION", "imread", "from scipy.ndimage import imread\n", "bridged",
                      "scipy.ndimage.imread"))
    # compat.scipy_legacy.removed: the names today's SciPy lost, imported and reached as attributes.
    cases += [Case("SCIPY_REMOVED", f"{module}.{name}", f"from {module} import {name}\n", "bridged",
                   f"{module}.{name}") for module, names in scipy_removed.REMOVED.items() for name in names
              if ":" not in module]  # a class's properties (spmatrix.A) are not imported
    cases += [Case("SCIPY_REMOVED", f"scipy.{name}", f"import scipy as sp\nvalue = sp.{name}\n", "bridged",
                   f"sp.{name}") for name in ("zeros", "pi", "rand", "ifft", "sqrt", "log")]
    cases.append(Case("SCIPY_REMOVED", "scipy.signal.hann", "import scipy.signal as sig\nvalue = sig.hann\n",
                      "bridged", "sig.hann"))
    return cases


#: Matplotlib rows select the Agg backend before anything imports pyplot.
MPL = "import matplotlib\nmatplotlib.use('Agg')\n"
PLT = MPL + "import matplotlib.pyplot as plt\n"


def _matplotlib_cases() -> list[Case]:
    # compat.matplotlib_legacy.removed: module-level names imported, then names, methods and old
    # arguments reached the way 2016-2020 code reached them.
    cases = [Case("MATPLOTLIB_REMOVED", f"{module}.{name}", f"{MPL}from {module} import {name}\n", "bridged",
                  f"{module}.{name}") for module, names in mpl_removed.REMOVED.items() if ":" not in module
             for name in names]
    uses = {
        "plt.cm.get_cmap": "value = plt.cm.get_cmap('viridis', 5)\n",
        "mlab.normpdf": "from matplotlib import mlab\nvalue = mlab.normpdf(0.0, 0.0, 1.0)\n",
        "plt.hold": "plt.hold(True)\n",
        "plt.gca().set_axis_bgcolor": "plt.gca().set_axis_bgcolor('r')\n",
        "plt.gca().set_color_cycle": "plt.gca().set_color_cycle(['r', 'g'])\n",
        "fig.canvas.tostring_rgb": "fig = plt.figure()\nfig.canvas.draw()\nvalue = fig.canvas.tostring_rgb()\n",
        "plt.hist([1, 2, 2], normed=True)": "plt.hist([1, 2, 2], normed=True)\n",
        "plt.figure().gca(projection='polar')": "plt.figure().gca(projection='polar')\n",
        "plt.subplot(111, axisbg='r')": "plt.subplot(111, axisbg='r')\n",
        "plt.gca().set_aspect('equal', adjustable='box-forced')":
            "plt.gca().set_aspect('equal', adjustable='box-forced')\n",
        "plt.style.use('seaborn-whitegrid')": "plt.style.use('seaborn-whitegrid')\n",
    }
    cases += [Case("MATPLOTLIB_REMOVED", construct, PLT + source, "bridged", construct)
              for construct, source in uses.items()]
    cases.append(Case("MATPLOTLIB_REMOVED", "matplotlib.use(warn=)", "import matplotlib\n"
                      "matplotlib.use('Agg', warn=False)\n", "bridged", "matplotlib.use('Agg', warn=False)"))
    return cases


#: pandas rows import pandas as 2016-2020 code did.
PD = "import numpy as np\nimport pandas as pd\ndf = pd.DataFrame({'a': [1.0, np.nan], 'b': [3.0, 4.0]})\n"


def _pydata_cases() -> list[Case]:
    # compat.pydata_legacy: removed scikit-learn modules served, removed names imported or reached,
    # and old keywords and methods used the way 2016-2020 code used them.
    cases = [Case("PYDATA_SERVED", name, f"import {name}\n", "bridged", f"import {name}")
             for name in sklearn_removed.SERVED_MODULES]
    cases.append(Case("PYDATA_SERVED", "from sklearn.externals import joblib",
                      "from sklearn.externals import joblib\n", "bridged", "sklearn.externals.joblib"))
    cases.append(Case("PYDATA_REMOVED", "sklearn.preprocessing.Imputer",
                      "from sklearn.preprocessing import Imputer\n", "bridged", "sklearn.preprocessing.Imputer"))
    cases += [Case("PYDATA_REMOVED", f"pandas.{name}", f"{PD}value = pd.{name}\n", "bridged", f"pd.{name}")
              for name in pandas_removed.REMOVED["pandas"]]
    uses = {
        "TSNE(n_iter=250)": "from sklearn.manifold import TSNE\nTSNE(n_iter=250)\n",
        "OneHotEncoder(sparse=False)": "from sklearn.preprocessing import OneHotEncoder\nOneHotEncoder(sparse=False)\n",
        "df.as_matrix": f"{PD}value = df.as_matrix()\n",
        "df.ix": f"{PD}value = df.ix[0, 'b']\n",
        "df.applymap": f"{PD}value = df.applymap(str)\n",
        "df.get_value": f"{PD}value = df.get_value(0, 'b')\n",
        "df.fillna(method='ffill')": f"{PD}value = df.fillna(method='ffill')\n",
        "pd.read_csv(io.StringIO('a\\n1\\n'), squeeze=True)":
            f"import io\n{PD}value = pd.read_csv(io.StringIO('a\\n1\\n'), squeeze=True)\n",
    }
    cases += [Case("PYDATA_REMOVED", construct, source, "bridged", construct) for construct, source in uses.items()]
    return cases


def _language_cases() -> list[Case]:
    cases = [Case("NUMPY_REMOVED", name, f"import numpy as np\nvalue = np.{name}\n", "rewritten", f"np.{name}")
             for name in rules.NUMPY_REMOVED]
    # A module using unicode, long, ... is Python 2 and translated; the others are provided as globals.
    cases += [Case("PY2_BUILTINS", name, f"value = {name}\n", "handled") for name in rules.PY2_BUILTINS]
    cases += [Case("PY2_BUILTINS_UNSUPPORTED", name, f"value = {name}\n", "unsupported", name, replacement)
              for name, replacement in rules.PY2_BUILTINS_UNSUPPORTED.items()]
    cases += [Case("PY2_MODULES", name, f"import {name}\n", "rewritten") for name in rules.PY2_MODULES]
    # fissix translates most of them in a Python 2 module (fix_imports, fix_urllib); the rest are refused.
    cases += [Case("PY2_MODULES_UNSUPPORTED", name, f"import {name}\n", "agree", None, replacement)
              for name, replacement in rules.PY2_MODULES_UNSUPPORTED.items()]
    cases += [Case("DICT_METHODS", name, f"value = {{1: 2}}.{name}({'1' if name == 'has_key' else ''})\n",
                   "rewritten") for name in rules.DICT_METHODS]
    cases += [Case("DATASET_V1_MEMBERS", name, f"{TF}value = tf.data.Dataset.range(3).{name}\n", "compat.v1",
                   f".{name}") for name in rules.DATASET_V1_MEMBERS]
    return cases


CASES: list[Case] = (_rename_cases() + _contrib_cases() + _module_cases() + _scipy_cases()
                     + _matplotlib_cases() + _pydata_cases() + _language_cases())

#: The driver run under ``python -m compat run``: imports each row's module and records the outcome.
DRIVER = """
import importlib, json, sys
outcomes = {}
for name in sys.argv[2:]:
    try:
        importlib.import_module(name)
    except Exception as exc:
        outcomes[name] = [type(exc).__name__, str(exc)]
    else:
        outcomes[name] = None
with open(sys.argv[1], "w") as out:
    json.dump(outcomes, out)
"""


#: Tables that are not rows of constructs: call-level keyword renames (tests/integration/test_compat_renames.py),
#: the overlay modules and the module names the tutorial rows are built from.
NOT_ROWS = {"KEYWORD_RENAMES", "OVERLAY_PREFIXES", "CONTRIB_OVERLAYS", "LEARN_DATASETS", "TUTORIAL_MODULES",
            "MNIST_MODEL", "MNIST_READER"}


def test_every_table_has_cases() -> None:
    # A new table in compat.rules needs cases above (or a reason to be in NOT_ROWS).
    assert set(TABLES) - {case.table for case in CASES} == NOT_ROWS


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[object, list[check.Finding]]]:
    """Per case module: (the runner's outcome, ``check``'s findings)."""
    folder = tmp_path_factory.mktemp("rules")
    names = [f"rule{i:04d}" for i in range(len(CASES))]
    for name, case in zip(names, CASES, strict=True):
        (folder / f"{name}.py").write_text(case.source)
    (folder / "driver.py").write_text(DRIVER)
    (folder / "check_all.py").write_text("".join(f"import {name}\n" for name in names))
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"}
    result = subprocess.run([sys.executable, "-m", "compat", "run", "driver.py", "outcomes.json", *names],
                            cwd=folder, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr[-3000:]
    outcomes = json.loads((folder / "outcomes.json").read_text())
    report = check.check_script(folder / "check_all.py")
    findings: dict[str, list[check.Finding]] = {name: [] for name in names}
    for finding in report.findings:
        stem = Path(finding.path).stem
        if stem in findings:
            findings[stem].append(finding)
    return {name: (outcomes[name], findings[name]) for name in names}


#: Rows where run and check still disagree, with the reason (strict: fixing one fails the test).
KNOWN_DIVERGENCES: dict[tuple[str, str], str] = {}


def _param(index: int, case: Case) -> object:
    reason = KNOWN_DIVERGENCES.get((case.table, case.key))
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(index, id=f"{case.table}-{case.key}", marks=marks)


@pytest.mark.parametrize("index", [_param(i, case) for i, case in enumerate(CASES)])
def test_run_and_check_treat_the_row_alike(index: int, verdicts: dict) -> None:
    case = CASES[index]
    outcome, findings = verdicts[f"rule{index:04d}"]
    relevant = [f for f in findings if case.construct is None or f.construct == case.construct]
    if case.status == "kept":
        assert outcome is None, outcome
        assert all(f.handled for f in relevant), relevant
        return
    assert relevant, f"check reports nothing for {case}: {findings}"
    if case.status == "agree":
        case = replace(case, status="handled" if outcome is None else "unsupported")
        relevant = [f for f in relevant if outcome is None or not f.handled]
    if case.status == "handled":
        assert outcome is None, f"the runner fails on {case}: {outcome}"
        assert all(f.handled for f in relevant), relevant
        return
    if case.status != "unsupported":
        assert outcome is None, f"the runner fails on {case}: {outcome}"
        assert {f.status for f in relevant} == {case.status}, relevant
        return
    assert outcome is not None, f"the runner accepts {case}"
    kind, message = outcome
    assert {f.status for f in relevant} == {"unsupported"}, relevant
    if kind in ("LegacyAPIError", "LegacyImportError"):
        assert [f.action for f in relevant] == [message]
    else:  # Python's own error (NameError, ModuleNotFoundError): check names the replacement
        assert kind in ("NameError", "ModuleNotFoundError"), outcome
        assert case.replacement is not None and all(case.replacement in f.action for f in relevant)
