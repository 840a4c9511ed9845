"""``compat.imageio_legacy``: imageio 2's GIF frame times and ``imread(as_gray=)`` for the script's calls.

The old values are imageio 2.9's legacy GIF writer's (``duration`` in seconds, 10 fps and
endless looping by default) and its ``as_gray`` (Pillow's 'F' conversion); the GIF's
frame delays and loop count are read back with Pillow.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import imageio as imageio_module
import imageio.v2 as imageio_v2
import numpy as np
import pytest
from PIL import Image

from compat.imageio_legacy.surface import SURFACE
from compat.surfaces import as_use
from compat.surfaces.table_patches import TablePatches

#: Typed Any: the wrapped calls take the old keywords.
imageio: Any = imageio_module

FRAMES: list[Any] = [np.full((6, 6, 3), value, dtype=np.uint8) for value in (0, 120, 250)]


@pytest.fixture
def patched() -> Iterator[TablePatches]:
    assert SURFACE.patches is not None
    patches = SURFACE.patches()
    patches.apply(imageio_module)
    patches.apply(imageio_v2)
    yield patches
    patches.undo()


def gif_timing(path: Path) -> tuple[list[int], Any]:
    """Each frame's delay in ms and the loop count (None: no loop block, the GIF plays once)."""
    with Image.open(path) as image:
        delays = []
        for index in range(getattr(image, "n_frames", 1)):
            image.seek(index)
            delays.append(image.info["duration"])
        return delays, image.info.get("loop")


def library_call(source: str, **names: Any) -> Any:
    """Run ``source`` as code of an installed package would (its file in site-packages)."""
    exec(compile(source, "/usr/lib/python3/site-packages/somelib/save.py", "exec"), dict(names))  # noqa: S102


def test_gif_duration_in_seconds_fps_10_and_endless_loop(patched: TablePatches, tmp_path: Path) -> None:
    imageio.mimsave(tmp_path / "a.gif", FRAMES, duration=0.5)
    assert gif_timing(tmp_path / "a.gif") == ([500, 500, 500], 0)
    imageio.v2.mimwrite(str(tmp_path / "b.gif"), FRAMES)  # no duration: 1/fps with fps=10
    assert gif_timing(tmp_path / "b.gif") == ([100, 100, 100], 0)
    imageio.mimsave(tmp_path / "c.gif", FRAMES, fps=4, loop=2)
    assert gif_timing(tmp_path / "c.gif") == ([250, 250, 250], 2)
    imageio.mimsave(tmp_path / "d.gif", FRAMES, duration=[0.1, 0.2, 0.3])
    assert gif_timing(tmp_path / "d.gif")[0] == [100, 200, 300]
    with imageio.get_writer(tmp_path / "e.gif", mode="I", duration=0.2) as writer:
        for frame in FRAMES:
            writer.append_data(frame)
    assert gif_timing(tmp_path / "e.gif") == ([200, 200, 200], 0)
    # another library's call keeps today's milliseconds and no loop
    library_call("mimsave(path, frames, duration=300)", mimsave=imageio.mimsave, path=tmp_path / "f.gif",
                 frames=FRAMES)
    assert gif_timing(tmp_path / "f.gif") == ([300, 300, 300], None)


def test_imread_as_gray_is_pillows_float_luma(patched: TablePatches, tmp_path: Path) -> None:
    rgb = np.random.default_rng(0).integers(0, 256, (5, 7, 3), dtype=np.uint8)
    imageio.imwrite(tmp_path / "x.png", rgb)
    gray = imageio.imread(tmp_path / "x.png", as_gray=True)
    expected = rgb.astype(np.float64) @ np.array([299, 587, 114]) / 1000  # ITU-R 601-2, unrounded
    assert gray.dtype == np.float32 and np.allclose(gray, expected, atol=1e-3)
    assert np.array_equal(imageio.v2.imread(tmp_path / "x.png", as_gray=False), rgb)
    from_l = imageio.v2.imread(tmp_path / "x.png", pilmode="L", as_gray=True)
    assert from_l.dtype == np.float32 and np.array_equal(from_l, np.asarray(Image.open(tmp_path / "x.png")
                                                                            .convert("L"), dtype=np.float32))


def test_undo_gives_imageio_its_own_functions_back() -> None:
    assert SURFACE.patches is not None
    before = imageio.mimsave, imageio.v2.mimwrite, imageio.imread
    patches = SURFACE.patches()
    patches.apply(imageio_module)
    patches.apply(imageio_v2)
    assert imageio.mimsave is not before[0]
    patches.undo()
    assert (imageio.mimsave, imageio.v2.mimwrite, imageio.imread) == before


def test_compat_check_reports_each_use() -> None:
    assert SURFACE.uses is not None
    tree = ast.parse("import imageio\n"
                     "imageio.mimsave('out.gif', frames, duration=0.1)\n"
                     "imageio.mimsave('out.mp4', frames, fps=30)\n"
                     "imageio.mimwrite(path, frames, format='GIF')\n"
                     "im = imageio.imread('a.png', as_gray=True)\n")
    found = [(u.node.lineno if isinstance(u.node, (ast.stmt, ast.expr)) else 0, u.construct)
             for u in map(as_use, SURFACE.uses(tree))]
    assert found == [(2, "imageio.mimsave('out.gif', frames, duration=0.1)"),
                     (4, "imageio.mimwrite(path, frames, format='GIF')"),
                     (5, "imageio.imread('a.png', as_gray=True)")]


def test_a_notebook_cell_counts_as_the_scripts_code(patched: TablePatches, tmp_path: Path) -> None:
    # ipykernel >= 6 compiles each cell under <tmp>/ipykernel_<pid>/<hash>.py
    code = compile("mimsave(path, frames, duration=0.3)", "/tmp/ipykernel_4242/2716.py", "exec")
    exec(code, {"mimsave": imageio.mimsave, "path": tmp_path / "n.gif", "frames": FRAMES})  # noqa: S102
    assert gif_timing(tmp_path / "n.gif") == ([300, 300, 300], 0)
