"""compat.surfaces: every surface.py is found and well formed, in order; the runner's PatchesFinder applies
every surface's patches to a module (two surfaces may patch one module) and undoes them."""
from __future__ import annotations

import ast
import colorsys
import importlib
import sys

import pytest

from compat.runner.install import PatchesFinder
from compat.surfaces import Surface, Use, all_surfaces, as_use, by_name, chain, surface_modules
from compat.surfaces.table_patches import Removed, TablePatches, const


def test_every_surface_module_declares_one_surface_in_order() -> None:
    surfaces = all_surfaces()
    assert len(surfaces) == len(surface_modules()) >= 10
    assert all(isinstance(s, Surface) for s in surfaces)
    assert [(s.order, s.name) for s in surfaces] == sorted((s.order, s.name) for s in surfaces)
    assert len({s.name for s in surfaces}) == len(surfaces)
    # The TF1 surface refuses removed TensorFlow modules: it must be asked after those serving under tensorflow.
    tf1 = by_name("tf1")
    assert all(tf1.order > by_name(name).order for name in ("tutorials", "estimator", "scipy_legacy"))
    with pytest.raises(KeyError, match="no legacy surface 'nope'; known: .*tf1"):
        by_name("nope")


def test_uses_and_undos() -> None:
    node = ast.parse("x").body[0]
    assert as_use((node, "x", "bridged here")) == Use(node, "x", "bridged here", "bridged")
    done: list[str] = []
    undo = chain(lambda: done.append("a"), None, lambda: done.append("b"))
    undo()
    undo()  # once only
    assert done == ["b", "a"]


def test_two_surfaces_patch_one_module_and_both_are_undone() -> None:
    first = TablePatches({"colorsys": {"old_one": Removed("colorsys.rgb_to_hsv", const(1))}})
    second = TablePatches({"colorsys": {"old_two": Removed("colorsys.hsv_to_rgb", const(2))}})
    finder = PatchesFinder([first, second])  # colorsys is loaded: patched at once
    try:
        assert (colorsys.old_one, colorsys.old_two) == (1, 2)  # type: ignore[attr-defined]
        sys.modules.pop("colorsys")
        sys.meta_path.insert(0, finder)
        reloaded = importlib.import_module("colorsys")  # loaded again through the finder: patched again
        assert reloaded is not colorsys and (reloaded.old_one, reloaded.old_two) == (1, 2)  # type: ignore[attr-defined]
    finally:
        if finder in sys.meta_path:
            sys.meta_path.remove(finder)
        finder.undo()
        sys.modules["colorsys"] = colorsys
    assert not hasattr(colorsys, "old_one") and not hasattr(colorsys, "old_two")
