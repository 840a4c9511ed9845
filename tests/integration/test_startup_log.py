"""The command lines drop TensorFlow's start-up notes and nothing else."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from compat.runner.startup_log import is_startup_line

# Lines as TensorFlow 2.21 prints them while it loads.
STARTUP = [
    "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
    "I0000 00:00:1795426681.776709    4994 port.cc:153] oneDNN custom operations are on.",
    "I0000 00:00:1795426681.777006    4994 cudart_stub.cc:31] Could not find cuda drivers on your machine",
    "I0000 00:00:1795426681.823592    4994 cpu_feature_guard.cc:227] This TensorFlow binary is optimized",
    "To enable the following instructions: AVX2 AVX512F FMA, in other operations, rebuild TensorFlow",
    "E0000 00:00:1795428878.042976   22771 cuda_platform.cc:52] failed call to cuInit: INTERNAL: CUDA error",
]
KEPT = [
    "E0000 00:00:1795426681.823592    4994 some_kernel.cc:12] a real error",
    "E0000 00:00:1795426681.823592    4994 cuda_platform.cc:60] another CUDA error, kept",
    "W0000 00:00:1795426681.823592    4994 op_kernel.cc:1840] OP_REQUIRES failed",
    "I0000 00:00:1795426681.823592    4994 my_op.cc:12] an info line of an op, not start-up",
    "Traceback (most recent call last):",
    "error: file 'x.tfrecords': TFRecord file does not exist",
]


@pytest.mark.parametrize("line", STARTUP)
def test_startup_lines_are_recognised(line: str) -> None:
    assert is_startup_line(line)


@pytest.mark.parametrize("line", KEPT)
def test_other_lines_are_kept(line: str) -> None:
    assert not is_startup_line(line)


def inspect_missing_file(tmp_path: Path, verbose: bool) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TF1_PIPELINES_VERBOSE"}
    if verbose:
        env["TF1_PIPELINES_VERBOSE"] = "1"
    return subprocess.run([sys.executable, "-m", "tf1_pipelines", "inspect",
                           str(tmp_path / "missing.tfrecords")],
                          env=env, capture_output=True, text=True, timeout=110)


@pytest.mark.timeout(240)
def test_cli_error_reaches_stderr_without_startup_lines(tmp_path: Path) -> None:
    quiet = inspect_missing_file(tmp_path, verbose=False)
    assert quiet.returncode != 0
    assert str(tmp_path / "missing.tfrecords") in quiet.stderr
    assert "does not exist" in quiet.stderr
    assert not [line for line in quiet.stderr.splitlines() if is_startup_line(line)]
    # The same run with the filter off still shows them: the check above can fail.
    verbose = inspect_missing_file(tmp_path, verbose=True)
    assert "does not exist" in verbose.stderr
    assert [line for line in verbose.stderr.splitlines() if is_startup_line(line)]


def stylegan_help(*command: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("TF1_PIPELINES_VERBOSE", "TF_CPP_MIN_LOG_LEVEL")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, *command, "--help"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=110)


ROOT = Path(__file__).resolve().parents[2]
STYLEGAN_MAIN = ROOT / "tf1_pipelines" / "pipelines" / "stylegan_lod" / "__main__.py"


@pytest.mark.timeout(240)
def test_stylegan_command_line_filters_before_tensorflow_loads() -> None:
    # Run as a script, the entry point alone decides what loads first.
    result = stylegan_help(str(STYLEGAN_MAIN))
    assert result.returncode == 0 and "create_from_images" in result.stdout
    assert not [line for line in result.stderr.splitlines() if is_startup_line(line)]


def _package_imports_tensorflow(package: str) -> bool:
    probe = f"import sys, {package}; print('tensorflow' in sys.modules)"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          timeout=110).stdout.strip() == "True"


@pytest.mark.timeout(240)
def test_stylegan_python_m_help_prints_no_startup_lines() -> None:
    package = "tf1_pipelines.pipelines.stylegan_lod"
    if _package_imports_tensorflow(package):
        pytest.skip("the package imports TensorFlow before its __main__ runs")
    result = stylegan_help("-m", package)
    assert result.returncode == 0 and "create_from_images" in result.stdout
    assert not [line for line in result.stderr.splitlines() if is_startup_line(line)]
