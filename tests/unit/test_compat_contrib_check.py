"""``compat check`` classifies every TF 1.15 name of the contrib bridges as the runner resolves it.

For each name of ``tf115_contrib_symbols.tsv`` in a bridged module, the verdict
of :func:`compat.tf1.namespace.classify_tf_attribute` (what ``check`` reports)
must be "bridged" exactly when the bridge resolves the name, and a refused
name's verdict must carry the bridge's replacement text.
"""
from __future__ import annotations

import csv
import importlib

import pytest
from helpers.tf115_api import contrib_symbols

SYMBOLS = contrib_symbols()
pytestmark = pytest.mark.skipif(SYMBOLS is None, reason="TF 1.15 API tables not found (set TF115_API_DIR)")

#: The bridges checked here (the second half of tf.contrib).
MODULES = ("autograph", "batching", "bayesflow", "checkpoint", "cluster_resolver", "compiler", "crf", "distribute",
           "distributions", "eager", "feature_column", "image", "input_pipeline", "integrate", "keras",
           "kernel_methods", "lookup", "losses", "metrics", "mixed_precision", "opt", "optimizer_v2", "predictor",
           "proto", "quantization", "recurrent", "signal", "sparsemax", "staging", "stateless", "summary", "testing",
           "tfprof", "util")


def _names() -> dict[str, list[str]]:
    assert SYMBOLS is not None
    names: dict[str, list[str]] = {module: [] for module in MODULES}
    with open(SYMBOLS, newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            parts = row["name"].split(".")
            if len(parts) == 4 and parts[2] in names:
                names[parts[2]].append(parts[3])
    return names


@pytest.mark.timeout(300)
def test_check_verdicts_agree_with_the_bridges() -> None:
    from compat.tf1.namespace import classify_tf_attribute

    disagreements = []
    for module, names in _names().items():
        bridge = importlib.import_module(f"compat.contrib.{module}")
        refused = getattr(bridge, "REFUSED", {})
        for name in names:
            try:
                getattr(bridge, name)
                resolves = True
            except AttributeError:
                resolves = False
            verdict = classify_tf_attribute(["contrib", module, name])
            assert verdict is not None, (module, name)
            if (verdict.status == "bridged") != resolves:
                disagreements.append((module, name, verdict.status, resolves))
            if name in refused:
                assert refused[name] in verdict.action, (module, name, verdict.action)
    assert disagreements == []
