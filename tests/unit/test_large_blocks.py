"""keep_large_blocks: in a fresh process, a 40 MB block allocated and freed over and
over costs fresh pages every time by default and none once the setting is made."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tf1_pipelines.errors import ConfigError
from tf1_pipelines.runtime.large_blocks import keep_large_blocks

pytestmark = pytest.mark.timeout(120)

# Counts the minor page faults of 20 cycles of a 40 MB array made, written and
# dropped, before and after keep_large_blocks (numpy allocates with malloc).
_CHILD = """
import json, resource, sys
import numpy as np
from tf1_pipelines.runtime.large_blocks import keep_large_blocks

def faults_of_cycles():
    np.ones(5 << 20)  # the first block of a setting may still be mapped: not counted
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(20):
        block = np.ones(5 << 20)  # 5 Mi float64 = 40 MB
        del block
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

default = faults_of_cycles()
taken = keep_large_blocks()
print(json.dumps({"default": default, "taken": taken, "kept": faults_of_cycles()}))
"""


def test_a_large_block_is_reused_instead_of_faulted_in_again() -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("glibc's malloc settings exist on Linux only")
    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                         timeout=100, check=True).stdout
    counts = json.loads(out.strip().splitlines()[-1])
    if not counts["taken"]:
        pytest.skip("this C library does not take the setting (not glibc, or an old one)")
    pages_per_block = (40 << 20) // 4096
    # Default: each cycle maps the block anew (huge pages, where the kernel gives
    # them, fault 2 MB at a time, hence the low bar).
    assert counts["default"] >= 20 * pages_per_block // 512, counts
    assert counts["kept"] * 10 < counts["default"], counts


@pytest.mark.parametrize("megabytes", [0, -1, 2.5, "64"])
def test_a_threshold_that_is_not_a_whole_number_is_refused(megabytes: object) -> None:
    with pytest.raises(ConfigError, match="megabytes"):
        keep_large_blocks(megabytes)  # type: ignore[arg-type]
