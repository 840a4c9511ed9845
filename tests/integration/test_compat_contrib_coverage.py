"""How much of TF 1.15's ``tf.contrib`` a script under ``compat run`` gets, module by module.

One subprocess resolves every name of ``tf115_contrib_symbols.tsv`` on the
script's ``tf.contrib`` (``tests/integration/contrib_walk.py``). The bridges of
``compat/contrib`` listed in ``OWN`` must resolve most of their names and refuse
the rest with a message; the totals are printed for the record (``-s``).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.tf115_api import api_dir

ROOT = Path(__file__).resolve().parents[2]
WALK = Path(__file__).with_name("contrib_walk.py")


API_DIR = api_dir()
pytestmark = pytest.mark.skipif(API_DIR is None, reason="TF 1.15 API tables not found (set TF115_API_DIR)")

#: Bridges written for the second half of tf.contrib, with the fewest of their TF 1.15 names that must resolve.
OWN: dict[str, int] = {
    "autograph": 15, "batching": 2, "bayesflow": 1, "checkpoint": 11, "cluster_resolver": 8, "compiler": 2,
    "crf": 11, "distribute": 23, "distributions": 77, "eager": 41, "feature_column": 5, "image": 12,
    "input_pipeline": 1, "integrate": 2, "keras": 15, "kernel_methods": 2, "lookup": 23, "losses": 15,
    "metrics": 53, "mixed_precision": 4, "opt": 19, "optimizer_v2": 7, "predictor": 1, "proto": 2,
    "quantization": 7, "recurrent": 2, "reduce_slice_ops": 0, "resampler": 0, "signal": 9, "sparsemax": 2,
    "staging": 1, "stateless": 4, "summary": 19, "testing": 1, "tfprof": 2, "util": 5,
}


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    assert API_DIR is not None
    out = tmp_path_factory.mktemp("contrib") / "walk.json"
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "compat", "run", str(WALK), str(API_DIR / "tf115_contrib_symbols.tsv"),
                           str(API_DIR / "tf115_contrib_modules.txt"), str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=400)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(out.read_text())
    return result


def _counts(entry: dict[str, Any]) -> tuple[int, int]:
    names = entry["names"]
    return sum(1 for outcome, _ in names.values() if outcome == "ok"), len(names)


@pytest.mark.timeout(420)
def test_own_bridges_resolve_their_names_and_refuse_the_rest(walk: dict[str, Any]) -> None:
    for module, least in OWN.items():
        entry = walk[module]
        assert entry["module"] == "ok", (module, entry["message"])
        ok, total = _counts(entry)
        assert ok >= least, f"tf.contrib.{module}: {ok} of {total} names resolve (expected at least {least})"
        missing = {name: message for name, (outcome, message) in entry["names"].items() if outcome == "missing"}
        assert missing == {}, f"tf.contrib.{module}: names failing without a message: {missing}"


@pytest.mark.timeout(420)
def test_totals(walk: dict[str, Any]) -> None:
    provided = {m: _counts(e) for m, e in walk.items() if e["module"] == "ok"}
    # A module counts as provided when most of its names resolve (a module with no names listed: when it imports).
    counted = {m: c for m, c in provided.items() if c[1] == 0 or c[0] * 2 > c[1]}
    ok = sum(c[0] for c in counted.values())
    total = sum(c[1] for c in counted.values())
    refused = sorted(set(walk) - set(counted))
    print(f"\ncontrib modules provided: {len(counted)} of {len(walk)}; names resolving in them: {ok} of {total}")
    for module, (resolved, names) in sorted(provided.items()):
        print(f"  {module}: {resolved}/{names}")
    print(f"not provided: {', '.join(refused)}")
    for module in refused:
        if walk[module]["module"] != "ok":
            assert walk[module]["module"] == "refused", (module, walk[module]["message"])
    assert len(counted) >= len(OWN)
    # issue 23: at least 35 modules provided, and at least 90 % of the names inside them resolve
    assert len(counted) >= 35 and ok * 10 >= total * 9, (len(counted), ok, total)
