"""``run_bench``: every case of the chosen pipelines in alternating rounds, each in a
process of its own; the median round of each case counts."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from tf1_pipelines.bench.cases import BENCHES
from tf1_pipelines.bench.isolation import measure_isolated, prepare, runtime_isolated
from tf1_pipelines.bench.measure import Result
from tf1_pipelines.bench.report import HELD_LIMIT, format_tables, over_limit, plot_results, write_json
from tf1_pipelines.errors import ConfigError

DEFAULT_SECONDS = 1.0
DEFAULT_ROUNDS = 2


@dataclass
class _Failure:
    pipeline: str
    case: str
    message: str


@dataclass
class _Progress:
    rounds: dict[str, dict[str, list[Result]]] = field(default_factory=dict)
    failures: list[_Failure] = field(default_factory=list)

    def record(self, pipeline: str, result: Result) -> None:
        self.rounds[pipeline].setdefault(result.case, []).append(result)

    def median(self, pipeline: str, case: str) -> Result:
        return median_round(self.rounds[pipeline][case])


def median_round(results: Sequence[Result]) -> Result:
    """The round of the median rate (of an even count, the faster of the middle
    two). The best round would favour a case whose rate varies more from round to
    round: the ratio of two bests drifts towards the noisier case, the medians'
    does not (measured: voc_segmentation dataset / queue 0.87 as bests of 4 rounds,
    1.01 as the median of 6 paired rounds)."""
    ordered = sorted(results, key=lambda r: r.examples_per_s)
    return ordered[len(ordered) // 2]


def _check_names(pipelines: Sequence[str] | None) -> list[str]:
    names = list(pipelines) if pipelines else list(BENCHES)
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        raise ConfigError(f"no benchmark for {unknown}; have {sorted(BENCHES)}")
    return names


def _run_round(names: list[str], seconds: float, scale: int, progress: _Progress,
               label: str) -> None:
    for name in names:
        print(f"{label}: {name}", file=sys.stderr, flush=True)
        for case in BENCHES[name].cases:
            if any(f.pipeline == name and f.case == case for f in progress.failures):
                continue
            try:
                progress.record(name, measure_isolated(name, case, seconds, scale))
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                progress.failures.append(_Failure(name, case, str(exc)))


def _load_average() -> str:
    try:
        return "/".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def run_bench(pipelines: Sequence[str] | None = None, seconds: float | None = None,
              rounds: int | None = None, json_path: str | None = None,
              plot_path: str | None = None, scale: int = 1) -> dict[str, list[Result]]:
    """Measure every case of the chosen pipelines (default: all) in alternating
    rounds; print one table per pipeline with the ratios; optionally write JSON
    and a PNG plot. ``scale`` multiplies seconds and in-memory data, adds rounds.

    Returns pipeline -> the median round's Result per case (cases that failed are left out and
    reported on stderr)."""
    names = _check_names(pipelines)
    if scale < 1:
        raise ConfigError(f"scale must be a whole number >= 1, got {scale}")
    seconds = (DEFAULT_SECONDS if seconds is None else seconds) * scale
    rounds = (DEFAULT_ROUNDS if rounds is None else rounds) + scale - 1
    if seconds <= 0 or rounds < 1:
        raise ConfigError(f"seconds must be > 0 and rounds >= 1, got {seconds} and {rounds}")
    for option, path in (("--json", json_path), ("--plot", plot_path)):
        check_output_path(option, path)  # before the minutes of measuring, not after
    started, load_before = time.perf_counter(), _load_average()
    for name in names:
        prepare(name)
    runtime_mb = runtime_isolated()
    progress = _Progress(rounds={n: {} for n in names})
    for index in range(rounds):
        _run_round(names, seconds, scale, progress, f"round {index + 1}/{rounds}")
    results = {n: [progress.median(n, c) for c in BENCHES[n].cases if c in progress.rounds[n]]
               for n in names}
    print(format_tables(results, runtime_mb))
    print(f"\n{seconds:g} s per case, median of {rounds} rounds, scale {scale}; wall time "
          f"{time.perf_counter() - started:.0f} s; load average (1/5/15 min) before "
          f"{load_before}, after {_load_average()}; {os.cpu_count()} CPUs")
    _report_memory(results, runtime_mb)
    _report_failures(progress.failures)
    if json_path:
        write_json(results, json_path, runtime_mb)
    if plot_path:
        plot_results(results, plot_path)
    return results


def check_output_path(option: str, path: str | None) -> None:
    """ConfigError when ``path`` cannot be written as a file: its folder is missing
    or not a folder, or the path is a folder."""
    if not path:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ConfigError(f"{option} {path!r}: the folder {folder!r} does not exist; create it "
                          "first or give another path")
    if os.path.isdir(path):
        raise ConfigError(f"{option} {path!r} is a folder; give a file name")
    if not os.access(folder, os.W_OK):
        raise ConfigError(f"{option} {path!r}: the folder {folder!r} is not writable")


def _report_memory(results: dict[str, list[Result]], runtime_mb: float) -> None:
    over = [f"{name} / {r.case} ({r.held_mb:.0f} MB held, {r.declared_mb:.0f} declared)"
            for name, rows in results.items() for r in rows if over_limit(r, runtime_mb)]
    print(f"held: peak RSS while a case ran above its RSS once built, less the library "
          f"pages it touched; the harness and TensorFlow's runtime alone held "
          f"{runtime_mb:.0f} MB; a case holding more than {HELD_LIMIT:g} x its declared "
          f"buffers beyond that is marked '!': {'; '.join(over) if over else 'none'}")


def _report_failures(failures: list[_Failure]) -> None:
    for failure in failures:
        print(f"\nFAILED {failure.pipeline} / {failure.case}:\n{failure.message[-4000:]}",
              file=sys.stderr)
