"""The Python examples of the README and of the docs pages run as written, each on its own.

Every ```python block of README.md and of ``docs/*.md`` (but the compat pages,
whose blocks are not meant to run: :data:`NOT_RUN_PAGES`) runs verbatim in a fresh
process of its own (as a reader pasting just that block would run it), so a block
that leans on a name, an import or the graph mode of another block fails here. A
block that shows part of a source file is marked ``<!-- excerpt: PATH -->`` on the
line before it; its lines must then be lines of that file. Its working folder holds
the data folders the block names, standing for the reader's own data (``my_pngs/``,
``DIV2K/DIV2K_train_HR``, ``img.jpg``/``mask.png``, ``labelled_images/``,
``my_square_images/``, ``big_images/``), made from the embedded photographs; Python
names are never provided.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from tf1_pipelines.data import sample_data

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: Pages maintained with the compat package: their blocks show sessions, not programs to run.
NOT_RUN_PAGES = {"compat.md", "contrib.md", "estimator.md"}
PAGES = [README] + sorted(page for page in (ROOT / "docs").glob("*.md") if page.name not in NOT_RUN_PAGES)
#: The README stays a five-minute read.
README_LIMIT = 8 * 1024


def python_blocks(text: str) -> list[tuple[str | None, str]]:
    """Each ```python block of ``text`` as (the file it is an excerpt of, or None; its code)."""
    found = re.findall(r"^(?:<!-- excerpt: (\S+) -->\n)?```python\n(.*?)^```", text, flags=re.S | re.M)
    return [(excerpt or None, code) for excerpt, code in found]


def _page_name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def _collect() -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """Runnable blocks by id (``PAGE#n``; a block repeated on a later page runs once)
    and excerpts as (id, source file, code)."""
    runnable: dict[str, str] = {}
    excerpts: list[tuple[str, str, str]] = []
    for page in PAGES:
        for number, (source, code) in enumerate(python_blocks(page.read_text(encoding="utf-8")), 1):
            block_id = f"{_page_name(page)}#{number}"
            if source is not None:
                excerpts.append((block_id, source, code))
            elif code not in runnable.values():
                runnable[block_id] = code
    return runnable, excerpts


RUNNABLE, EXCERPTS = _collect()
BLOCKS = list(RUNNABLE.values())


def _voc_pair(folder: Path) -> None:
    from tf1_pipelines.pipelines.voc_segmentation.sample import default_pairs_dir
    voc = default_pairs_dir()
    name = sorted(os.listdir(os.path.join(voc, "JPEGImages")))[0][:-4]
    shutil.copy(os.path.join(voc, "JPEGImages", name + ".jpg"), folder / "img.jpg")
    shutil.copy(os.path.join(voc, "SegmentationClass", name + ".png"), folder / "mask.png")


def _labelled_images(folder: Path) -> None:
    from tf1_pipelines.pipelines.inception_multilabel.sample import default_data_dir
    shutil.copytree(os.path.join(default_data_dir(), "images", "train"), folder / "labelled_images")


def _big_images(folder: Path) -> None:
    from tf1_pipelines.pipelines.random_patches import photographs_dir
    shutil.copytree(photographs_dir(), folder / "big_images")


def _square_images(folder: Path) -> None:
    from tf1_pipelines.pipelines.stylegan_lod import sample_images
    (folder / "my_square_images").mkdir()
    for i, (_, image) in enumerate(sample_images(64)[:4]):
        Image.fromarray(image).save(folder / "my_square_images" / f"{i:04d}.png")


#: A folder a block names -> how the test makes it in the block's working folder.
READER_DATA: dict[str, Callable[[Path], None]] = {
    "my_pngs/": lambda f: shutil.copytree(sample_data.div2k_like_dir(), f / "my_pngs"),
    "DIV2K/DIV2K_train_HR": lambda f: shutil.copytree(sample_data.div2k_like_dir(),
                                                      f / "DIV2K" / "DIV2K_train_HR"),
    "img.jpg": _voc_pair,
    "labelled_images/": _labelled_images,
    "big_images/": _big_images,
    "my_square_images": _square_images,
}


def test_the_docs_have_examples_for_every_face() -> None:
    joined = "\n".join(BLOCKS)
    assert len(BLOCKS) >= 6
    for name in ("div2k_sr", "voc_segmentation", "inception_multilabel", "stylegan_lod",
                 "random_patches", "constant", "feeding"):
        assert name in joined, f"no example for {name}"
    readme_blocks = [code for _, code in python_blocks(README.read_text(encoding="utf-8"))]
    assert len(readme_blocks) == 1 and "tp.load_pipeline" in readme_blocks[0]


def test_readme_is_short() -> None:
    assert len(README.read_bytes()) < README_LIMIT


def test_links_between_pages_resolve() -> None:
    missing = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if not (page.parent / target).exists():
                missing.append(f"{_page_name(page)} -> {target}")
    assert not missing, missing


@pytest.mark.parametrize("block_id, source, code", EXCERPTS, ids=[e[0] for e in EXCERPTS])
def test_an_excerpt_is_in_its_source_file(block_id: str, source: str, code: str) -> None:
    lines = {line.strip() for line in (ROOT / source).read_text(encoding="utf-8").splitlines()}
    absent = [line for line in code.splitlines() if line.strip() and line.strip() not in lines]
    assert not absent, f"{block_id}: not in {source}: {absent}"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("block_id", list(RUNNABLE))
def test_python_block_runs_alone(block_id: str, tmp_path: Path) -> None:
    block = RUNNABLE[block_id]
    for mention, make in READER_DATA.items():
        if mention in block:
            make(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(ROOT), TF_CPP_MIN_LOG_LEVEL="2",
               CUDA_VISIBLE_DEVICES="-1")
    result = subprocess.run([sys.executable, "-c", block], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=280)
    assert result.returncode == 0, f"python block {block_id}:\n{result.stderr[-6000:]}"
    if "DataLoader" in block:
        assert "(64, 24, 24, 1) (64, 96, 96, 1)" in result.stdout  # the seed's line
