"""Reports of a bench run: ratios to the seed formulation and the floor, text tables,
JSON and a PNG bar chart."""
from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from tf1_pipelines.bench.cases import BENCHES, FLOOR_CASE, SEED_CASE
from tf1_pipelines.bench.measure import Result
from tf1_pipelines.records.writer import write_file_atomically


def _seed_and_floor(pipeline: str, cases: Sequence[str]) -> tuple[str, str]:
    """Which cases are the seed formulation and the floor (by name when the
    pipeline is unknown: ``seed formulation`` and the first ``floor...``)."""
    if pipeline in BENCHES:
        return BENCHES[pipeline].seed, BENCHES[pipeline].floor
    floors = [c for c in cases if c.startswith("floor")] or [FLOOR_CASE]
    return SEED_CASE, floors[0]


def ratios(pipeline: str, results: Sequence[Result]) -> dict[str, tuple[float, float]]:
    """case -> (rate / seed formulation's rate, rate / floor's rate); NaN when
    the seed or floor case is missing."""
    by_case = {r.case: r for r in results}
    seed_name, floor_name = _seed_and_floor(pipeline, list(by_case))
    seed, floor = by_case.get(seed_name), by_case.get(floor_name)
    return {r.case: (r.examples_per_s / seed.examples_per_s if seed else math.nan,
                     r.examples_per_s / floor.examples_per_s if floor else math.nan)
            for r in results}


#: A case may hold this many times its declared buffers (above the runtime's own).
HELD_LIMIT = 2.0


def over_limit(result: Result, runtime_mb: float) -> bool:
    """True if a case with declared buffers held more than :data:`HELD_LIMIT` times
    them, beyond what TensorFlow's runtime alone holds (``runtime_mb``)."""
    return result.declared_mb > 0 and result.held_mb - runtime_mb > HELD_LIMIT * result.declared_mb


def format_tables(results: Mapping[str, Sequence[Result]], runtime_mb: float = 0.0) -> str:
    """One text table per pipeline: rates, first-batch latency, peak RSS, what the
    case held above the RSS before it (``held``) against its declared buffers
    (``decl.``; ``!`` where :func:`over_limit`), ratios."""
    lines: list[str] = []
    for name, rows in results.items():
        batch = BENCHES[name].batch if name in BENCHES else "?"
        lines.append(f"\n{name} (batch {batch}; median of rounds)")
        lines.append(f"{'case':<34}{'examples/s':>11}{'MB/s':>9}{'first(s)':>9}"
                     f"{'RSS MB':>8}{'held':>6}{'decl.':>6}{'x seed':>8}{'x floor':>8}")
        for r in rows:
            vs_seed, vs_floor = ratios(name, rows)[r.case]
            lines.append(f"{r.case:<34}{r.examples_per_s:>11.0f}{r.mb_per_s:>9.1f}"
                         f"{r.first_batch_s:>9.2f}{r.peak_rss_mb:>8.0f}{r.held_mb:>6.0f}"
                         f"{r.declared_mb:>6.0f}{'!' if over_limit(r, runtime_mb) else ' '}"
                         f"{vs_seed:>7.2f}{vs_floor:>8.3f}")
    return "\n".join(lines)


def write_json(results: Mapping[str, Sequence[Result]], path: str,
               runtime_mb: float = 0.0) -> None:
    """``{pipeline: [{case, examples_per_s, ..., x_seed, x_floor}, ...],
    "runtime_held_mb": what TensorFlow's runtime alone held}``."""
    out: dict[str, Any] = {"runtime_held_mb": runtime_mb}
    for name, rows in results.items():
        table = ratios(name, rows)
        out[name] = [dict(asdict(r), x_seed=table[r.case][0], x_floor=table[r.case][1])
                     for r in rows]
    def write(partial: str) -> None:
        with open(partial, "w", encoding="utf-8") as handle:
            json.dump(out, handle, indent=2)
    write_file_atomically(path, write)


def plot_results(results: Mapping[str, Sequence[Result]], path: str) -> None:
    """A horizontal bar chart of examples/s (log scale), one bar per case, grouped
    and coloured by pipeline, each bar annotated with its x-seed and x-floor
    ratios; saved as PNG. Uses Matplotlib's Agg canvas, no global state."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = [(name, r) for name, group in results.items() for r in group]
    figure = Figure(figsize=(11, 0.32 * len(rows) + 0.35 * len(results) + 1.5))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.set_xscale("log")
    _draw_bars(axes, results)
    axes.set_xlabel("examples/s (log scale; median of rounds)")
    axes.set_title("tf1_pipelines bench: every pipeline x backend on the embedded data")
    axes.invert_yaxis()
    figure.tight_layout()
    write_file_atomically(path, lambda partial: figure.savefig(partial, format="png", dpi=110))


def _draw_bars(axes: Any, results: Mapping[str, Sequence[Result]]) -> None:
    """Bars, labels and ratio annotations, pipeline groups separated by a gap."""
    colours = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
               "tab:pink", "tab:gray", "tab:olive", "tab:cyan"]
    positions, labels, top = [], [], 0.0
    rates = [r.examples_per_s for g in results.values() for r in g if r.examples_per_s > 0]
    base = min(rates, default=1.0) / 3.0  # bars start here: a log axis has no zero
    for index, (name, group) in enumerate(results.items()):
        seed_name, floor_name = _seed_and_floor(name, [r.case for r in group])
        table = ratios(name, group)
        for r in group:
            hatch = "//" if r.case == seed_name else (".." if r.case == floor_name else None)
            axes.barh(top, max(r.examples_per_s - base, 0.0), left=base,
                      color=colours[index % len(colours)], hatch=hatch, edgecolor="black",
                      linewidth=0.4)
            vs_seed, vs_floor = table[r.case]
            axes.text(r.examples_per_s * 1.08, top, f"{vs_seed:.2f}x seed, {vs_floor:.3f}x floor",
                      va="center", fontsize=7)
            positions.append(top)
            labels.append(f"{name}: {r.case}")
            top += 1.0
        top += 0.6
    axes.set_yticks(positions)
    axes.set_yticklabels(labels, fontsize=7)
    axes.set_xlim(base, max(rates, default=1.0) * 30)
    _hatch_legend(axes)


def _hatch_legend(axes: Any) -> None:
    """Which hatch marks the seed formulation and which the floor."""
    from matplotlib.patches import Patch
    axes.legend(handles=[Patch(facecolor="white", edgecolor="black", hatch="//",
                               label="seed formulation"),
                         Patch(facecolor="white", edgecolor="black", hatch="..",
                               label="floor (read + parse)")],
                loc="lower right", fontsize=8)
