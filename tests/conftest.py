"""Shared fixtures: small folders of real photographs, a private data home, and the
fault suites' tally of outcomes (gathered from every worker when pytest-xdist splits
the run)."""
from __future__ import annotations

import os
from collections import Counter
from typing import Any

import imageio.v3 as iio
import pytest

from tf1_pipelines.data import sample_data


@pytest.fixture(autouse=True, scope="session")
def _private_data_home(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Default data folders go to a temporary home, never the user's cache."""
    os.environ["TF1_PIPELINES_DATA"] = str(tmp_path_factory.mktemp("data_home"))


@pytest.fixture(scope="session")
def two_photos_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    """PNGs of chelsea (300x451) and coffee (400x600): 24 + 40 = 64 seed-000 patches."""
    folder = tmp_path_factory.mktemp("two_photos")
    for index, name in enumerate(("chelsea", "coffee"), start=1):
        iio.imwrite(folder / f"{index:04d}.png", sample_data.load_photograph(name))
    return str(folder)


# ------------------------------------------------------- the fault suites' tally
class FaultOutcomes:
    """Counts of fault cases by suite and by outcome (exception class name, or 'ok')."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[str, str]] = Counter()

    def record(self, suite: str, outcome: str | BaseException) -> None:
        name = outcome if isinstance(outcome, str) else type(outcome).__name__
        self.counts[(suite, name)] += 1

    def lines(self) -> list[str]:
        suites = sorted({suite for suite, _ in self.counts})
        lines = []
        for suite in suites:
            by_outcome = {o: n for (s, o), n in self.counts.items() if s == suite}
            total = sum(by_outcome.values())
            detail = ", ".join(f"{o} {n}" for o, n in sorted(by_outcome.items()))
            lines.append(f"{suite}: {total} cases ({detail})")
        return lines


_OUTCOMES = FaultOutcomes()


@pytest.fixture
def fault_outcomes() -> FaultOutcomes:
    """The run's tally; call ``record(suite, outcome)`` once per generated case."""
    return _OUTCOMES


def pytest_sessionfinish(session: pytest.Session) -> None:
    """In a pytest-xdist worker: hand this worker's tally to the controller."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["fault_outcomes"] = [[s, o, n] for (s, o), n in _OUTCOMES.counts.items()]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """In the pytest-xdist controller: add a finished worker's tally to the run's."""
    for suite, outcome, count in getattr(node, "workeroutput", {}).get("fault_outcomes", []):
        _OUTCOMES.counts[(suite, outcome)] += count


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _OUTCOMES.counts:
        terminalreporter.section("fault suite: cases generated, by outcome")
        for line in _OUTCOMES.lines():
            terminalreporter.write_line(line)
