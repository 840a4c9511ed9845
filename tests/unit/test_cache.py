"""The record cache: ``cache list`` names every folder the pipelines build under the
data home, ``cache clear`` removes exactly those and nothing else there."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import tf1_pipelines as tp
from tf1_pipelines.cli import cache
from tf1_pipelines.data import sample_data
from tf1_pipelines.pipelines.div2k_sr import cached_records
from tf1_pipelines.pipelines.inception_multilabel.sample import default_data_dir
from tf1_pipelines.pipelines.random_patches import photographs_dir
from tf1_pipelines.pipelines.stylegan_lod import sample_tfrecord_dir

ROOT = Path(__file__).resolve().parents[2]


def tree(folder: Path) -> dict[str, int]:
    """Relative path -> size of every file under ``folder``."""
    return {str(p.relative_to(folder)): p.stat().st_size
            for p in folder.rglob("*") if p.is_file()}


def cli(home: Path, action: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, TF1_PIPELINES_DATA=str(home), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "tf1_pipelines", "cache", action], env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data home holding every default the pipelines build, a record cache of a
    folder of ours, an interrupted build, and things of the user's own."""
    folder = tmp_path_factory.mktemp("home")
    old = os.environ["TF1_PIPELINES_DATA"]
    os.environ["TF1_PIPELINES_DATA"] = str(folder)
    try:
        sample_data.div2k_like_dir()
        cached_records()
        with tp.load_pipeline("voc_segmentation"):
            pass
        default_data_dir()
        sample_tfrecord_dir()
        photographs_dir()
    finally:
        os.environ["TF1_PIPELINES_DATA"] = old
    (folder / ".partial-abc123").mkdir()  # the user's: no build's marker
    (folder / ".partial-abc123" / "0001.png").write_bytes(b"half")
    (folder / ".partial-def456").mkdir()  # an interrupted build's: it carries the marker
    (folder / ".partial-def456" / sample_data.PARTIAL_MARKER).write_bytes(b"")
    (folder / ".partial-def456" / "0001.png").write_bytes(b"half")
    (folder / "my_notes.txt").write_text("mine")
    (folder / "div2k_records" / "my_folder").mkdir()
    (folder / "div2k_records" / "my_folder" / "keep.txt").write_text("mine too")
    return folder


def test_list_names_every_folder_the_pipelines_built_with_its_size(home: Path) -> None:
    found = {os.path.relpath(e.path, home): e for e in cache.entries(str(home))}
    built = {name for name in os.listdir(home)
             if name not in ("my_notes.txt", ".partial-abc123", sample_data.HOME_MARKER)}
    # Every top-level folder the builders made is an entry or a record cache of entries.
    assert built == {key.split(os.sep)[0] for key in found}
    for key, entry in found.items():
        files = tree(home / key)
        assert entry.files == len(files) and entry.bytes == sum(files.values())
    assert sum(key.startswith("div2k_records" + os.sep) for key in found) == 1
    assert sum(key.startswith("voc_records" + os.sep) for key in found) == 1
    assert "div2k_records/my_folder" not in found and ".partial-def456" in found
    assert ".partial-abc123" not in found  # a folder of that name that no build made

    listing = cli(home, "list")
    assert listing.returncode == 0, listing.stderr
    assert listing.stdout.splitlines()[0] == f"record cache: {home} (TF1_PIPELINES_DATA moves it)"
    for key, entry in found.items():
        assert f"  {key}: {entry.files} files, {cache.human_size(entry.bytes)} (" in listing.stdout
    assert listing.stderr == ""  # no TensorFlow start-up lines: the command never loads it


def test_clear_removes_only_what_the_cache_wrote(home: Path) -> None:
    mine = {"my_notes.txt": "mine", "div2k_records/my_folder/keep.txt": "mine too",
            ".partial-abc123/0001.png": "half", sample_data.HOME_MARKER: ""}
    result = cli(home, "clear")
    assert result.returncode == 0, result.stderr
    assert "removed div2k_like:" in result.stdout and "removed voc_records/" in result.stdout
    left = tree(home)
    assert sorted(left) == sorted(mine)
    assert all((home / path).read_text() == text for path, text in mine.items())
    assert cache.entries(str(home)) == []
    assert cli(home, "list").stdout.splitlines()[-1] == "empty"


@pytest.mark.parametrize("count,text", [(0, "0 B"), (999, "999 B"), (1000, "1.0 kB"),
                                        (3_250_000, "3.2 MB"), (7_100_000_000, "7.1 GB")])
def test_human_size(count: int, text: str) -> None:
    assert cache.human_size(count) == text
