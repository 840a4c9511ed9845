"""The fault suite's shared settings and its tally of outcomes.

Every suite here generates bad inputs with ``hypothesis`` and asserts that each one
ends in one of the project's own outcomes (``DataError``, ``ConfigError``,
``EndOfData``), within a bound, with no user file lost. Generation is derandomized
(the same cases in every run, so CI is repeatable) and bounded in count.

Each test reports what a case ended in with ``fault_outcomes.record(suite, outcome)``
(the fixture lives in ``tests/conftest.py``, so the tally survives a run split over
worker processes); the totals (cases generated, by outcome) are printed at the end.
"""
from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "faults", derandomize=True, deadline=None, max_examples=40, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                           HealthCheck.data_too_large])
settings.load_profile("faults")
