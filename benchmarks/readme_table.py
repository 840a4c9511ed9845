"""The benchmark table of docs/benchmarks.md from a bench run's JSON:
``python benchmarks/readme_table.py bench.json`` prints the Markdown table
(``python -m tf1_pipelines bench --json bench.json --plot docs/bench.png`` makes
the JSON and the plot of the same run)."""
from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

from tf1_pipelines.bench.measure import Result
from tf1_pipelines.bench.report import over_limit

_RESULT_FIELDS = {field.name for field in dataclasses.fields(Result)}


def _row(pipeline: str, case: dict[str, Any], runtime_mb: float) -> str:
    result = Result(**{k: v for k, v in case.items() if k in _RESULT_FIELDS})
    mark = " !" if over_limit(result, runtime_mb) else ""
    declared = f"{result.declared_mb:,.0f}" if result.declared_mb else "-"
    return (f"| {pipeline} | {result.case} | {result.examples_per_s:,.0f} "
            f"| {result.mb_per_s:,.0f} | {result.first_batch_s:.2f} "
            f"| {result.peak_rss_mb:,.0f} | {result.held_mb:,.0f}{mark} | {declared} "
            f"| {case['x_seed']:.2f} | {case['x_floor']:.3f} |")


def markdown(data: dict[str, Any]) -> str:
    """The table: one row per case, pipelines in the run's order."""
    runtime_mb = float(data.get("runtime_held_mb", 0.0))
    lines = ["| pipeline | case | examples/s | MB/s | first batch (s) | peak RSS (MB) "
             "| held (MB) | declared (MB) | × seed | × floor |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for pipeline, cases in data.items():
        if pipeline != "runtime_held_mb":
            lines.extend(_row(pipeline, case, runtime_mb) for case in cases)
    return "\n".join(lines)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        print(markdown(json.load(handle)))
