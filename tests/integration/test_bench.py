"""The benchmark's measuring and reporting, on cheap cases only (the full bench
is run by hand: ``python -m tf1_pipelines bench``)."""
from __future__ import annotations

import json
import math
import os
import threading

import pytest

from tf1_pipelines import bench


@pytest.mark.parametrize("pipeline, case", [("feeding", bench.SEED_CASE),
                                            ("constant", bench.SEED_CASE)])
def test_measure_case_gives_positive_finite_figures(pipeline: str, case: str) -> None:
    before = {t.ident for t in threading.enumerate()}
    result = bench.measure_case(pipeline, case, seconds=0.2)
    assert result.case == case
    for name in ("examples_per_s", "mb_per_s", "first_batch_s", "peak_rss_mb"):
        value = getattr(result, name)
        assert math.isfinite(value) and value > 0, (name, value)
    assert result.steps >= bench.MIN_TIMED_STEPS
    # the constant seed runs queue runners: every thread it started is joined
    assert {t.ident for t in threading.enumerate() if t.is_alive()} <= before


def test_every_pipeline_has_its_seed_and_floor_case() -> None:
    import tf1_pipelines as tp
    assert set(bench.BENCHES) == set(tp.available())
    for name, entry in bench.BENCHES.items():
        assert entry.seed in entry.cases and entry.floor in entry.cases, name
        assert len(entry.cases) >= 3, name


def test_unknown_case_is_named() -> None:
    with pytest.raises(ValueError, match="no case 'nope'"):
        bench.measure_case("feeding", "nope", seconds=0.1)


def _synthetic() -> dict[str, list[bench.Result]]:
    return {
        "div2k_sr": [bench.Result(bench.SEED_CASE, 2000.0, 80.0, 0.9, 330.0, 30),
                     bench.Result(bench.FLOOR_CASE, 40000.0, 1500.0, 0.5, 300.0, 600),
                     bench.Result("tfrecords native", 20000.0, 800.0, 1.0, 333.0, 300)],
        "feeding": [bench.Result(bench.SEED_CASE, 2e5, 600.0, 0.2, 263.0, 3000),
                    bench.Result("floor (numpy slices)", 4e6, 14000.0, 0.2, 263.0, 9000)],
    }


def test_ratios_and_tables() -> None:
    results = _synthetic()
    table = bench.ratios("div2k_sr", results["div2k_sr"])
    assert table["tfrecords native"] == pytest.approx((10.0, 0.5))
    assert table[bench.SEED_CASE][0] == pytest.approx(1.0)
    text = bench.format_tables(results)
    assert "tfrecords native" in text and "x floor" in text
    missing = bench.ratios("div2k_sr", results["div2k_sr"][2:])
    assert all(math.isnan(v) for v in missing["tfrecords native"])


def test_plot_and_json_are_written(tmp_path) -> None:
    results = _synthetic()
    png = tmp_path / "bench.png"
    bench.plot_results(results, str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 10_000
    out = tmp_path / "bench.json"
    bench.write_json(results, str(out))
    data = json.loads(out.read_text())
    assert set(data) == {"div2k_sr", "feeding", "runtime_held_mb"}
    assert data["feeding"][1]["x_seed"] == pytest.approx(20.0)
    assert sorted(os.listdir(tmp_path)) == ["bench.json", "bench.png"]  # no partial left


@pytest.mark.parametrize("options, message", [
    ({"pipelines": ["nope"]}, r"no benchmark for \['nope'\]"),
    ({"scale": 0}, "scale must be a whole number >= 1, got 0"),
    ({"seconds": -1.0}, r"seconds must be > 0 and rounds >= 1, got -1.0 and 2"),
])
def test_bad_options_raise_config_error_before_running(options, message) -> None:
    from tf1_pipelines.errors import ConfigError
    with pytest.raises(ConfigError, match=message):
        bench.run_bench(**options)


@pytest.mark.skipif(not bench._can_fork(), reason="cases are forked on Linux only")
def test_forked_child_returns_value_or_error() -> None:
    assert bench.run_forked(lambda: {"answer": 6 * 7}, timeout=30.0) == {"answer": 42}

    def fail() -> None:
        os.write(2, b"noise from the case\n")  # as TensorFlow's C++ log lines
        raise ValueError("broken case")
    with pytest.raises(RuntimeError, match="(?s)broken case.*noise from the case"):
        bench.run_forked(fail, timeout=30.0)


@pytest.mark.skipif(not bench._can_fork(), reason="the peak is reset on Linux only")
@pytest.mark.timeout(60)
def test_held_memory_counts_a_peak_but_not_library_pages(tmp_path) -> None:
    """``held_above``: 64 MB written and freed again count (the peak), a 64 MB file
    read through a memory map that stays mapped does not (page cache, as the
    library code a case runs)."""
    import mmap

    import numpy as np

    from tf1_pipelines.bench import measure
    big_file = tmp_path / "pages.bin"
    big_file.write_bytes(os.urandom(64 << 20))

    def allocate() -> float:
        measure.reset_peak_rss()
        before, before_file = measure.current_rss_mb(), measure.file_rss_mb()
        block = np.ones(64 << 20, np.uint8)  # every page written
        del block
        return measure.held_above(before, before_file)

    def map_file() -> float:
        measure.reset_peak_rss()
        before, before_file = measure.current_rss_mb(), measure.file_rss_mb()
        with open(big_file, "rb") as handle, \
                mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as pages:
            assert sum(pages[i] for i in range(0, len(pages), 4096)) > 0
            return measure.held_above(before, before_file)

    assert 60 < bench.run_forked(allocate, timeout=30.0) < 80
    assert bench.run_forked(map_file, timeout=30.0) < 8


def test_a_case_over_twice_its_declared_buffers_is_marked() -> None:
    from tf1_pipelines.bench.report import over_limit
    within = bench.Result("a", 1.0, 1.0, 0.1, 300.0, 3, held_mb=45.0, declared_mb=20.0)
    over = bench.Result("b", 1.0, 1.0, 0.1, 300.0, 3, held_mb=50.0, declared_mb=20.0)
    undeclared = bench.Result("c", 1.0, 1.0, 0.1, 300.0, 3, held_mb=500.0)
    assert not over_limit(within, runtime_mb=5.0)  # 45 - 5 = 40 <= 2 x 20
    assert over_limit(over, runtime_mb=5.0)        # 50 - 5 = 45 > 40
    assert not over_limit(undeclared, runtime_mb=5.0)
    text = bench.format_tables({"feeding": [within, over]}, runtime_mb=5.0)
    assert [line.split()[6].endswith("!") for line in text.splitlines()[3:]] == [False, True]


def test_readme_table_comes_from_the_json(tmp_path) -> None:
    import subprocess
    import sys
    results = {"feeding": [
        bench.Result(bench.SEED_CASE, 2e5, 600.0, 0.2, 263.0, 3000, held_mb=3.0, declared_mb=1.0),
        bench.Result("floor (numpy slices)", 4e6, 14000.0, 0.2, 263.0, 9000, held_mb=1.0,
                     declared_mb=1.0)]}
    out = tmp_path / "bench.json"
    bench.write_json(results, str(out), runtime_mb=0.5)
    script = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "readme_table.py")
    table = subprocess.run([sys.executable, script, str(out)], capture_output=True, text=True,
                           check=True, timeout=120).stdout.splitlines()
    assert table[2] == "| feeding | seed formulation | 200,000 | 600 | 0.20 | 263 | 3 ! | 1 | 1.00 | 0.050 |"
    assert table[3].endswith("| 1 | 1 | 20.00 | 1.000 |") and len(table) == 4


def test_the_median_round_counts_not_the_best() -> None:
    from tf1_pipelines.bench.run import median_round
    rounds = [bench.Result("case", rate, 0.0, 0.0, 0.0) for rate in (900.0, 400.0, 1000.0, 500.0, 950.0)]
    assert median_round(rounds).examples_per_s == 900.0
    assert median_round(rounds[:4]).examples_per_s == 900.0  # the faster of the middle two
    assert median_round(rounds[:1]).examples_per_s == 900.0
