"""Same seed, same batches: every dataset-backed pipeline, two fresh processes.

Both processes (shared with ``test_resume.py``, see ``seeded_runs``) load each
pipeline with one seed and read past an epoch end; the batches must be equal
byte for byte, and another seed must give other batches.
"""
from __future__ import annotations

import random
from typing import Any

import pytest
import seeded_runs

pytestmark = pytest.mark.timeout(2 * seeded_runs.TIMEOUT + 60)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    return seeded_runs.shared_runs(tmp_path_factory, random.Random())


@pytest.mark.parametrize("name", sorted(seeded_runs.CASES))
def test_same_seed_gives_the_same_batches_in_two_processes(
        runs: tuple[dict[str, Any], dict[str, Any]], name: str) -> None:
    first, second = runs
    _, _, n = seeded_runs.CASES[name]
    assert len(first[name]["fresh"]) == n
    assert first[name]["fresh"] == second[name]["fresh"]
    assert first[name]["other_seed"] == second[name]["other_seed"]


@pytest.mark.parametrize("name", sorted(seeded_runs.CASES))
def test_another_seed_gives_other_batches(runs: tuple[dict[str, Any], dict[str, Any]],
                                          name: str) -> None:
    first, _ = runs
    other, same = first[name]["other_seed"], first[name]["fresh"][:3]
    assert all(a != b for a, b in zip(other, same))
