"""``compat.skimage_legacy``: scikit-image 0.13–0.16 names and arguments, with their old values.

Each removed name is checked against the old formula computed here with NumPy/SciPy
(PSNR 10 log10(R^2 / MSE) with 0.16's data-range rule, SSIM with 0.16's uniform-window
algorithm and the dtype span as range, the 0.16 luma of rgb2gray), against the
installed scikit-image where the old and new agree, and the table is undone to
scikit-image's own objects.
"""
from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import skimage.color
import skimage.draw
import skimage.feature
import skimage.filters
import skimage.io
import skimage.measure
import skimage.morphology
import skimage.transform
import skimage.util
from PIL import Image
from scipy.ndimage import uniform_filter

from compat.skimage_legacy.surface import SURFACE
from compat.surfaces import as_use
from compat.surfaces.table_patches import TablePatches

MODULES = ("skimage.measure", "skimage.color", "skimage.draw", "skimage.feature", "skimage.filters",
           "skimage.io", "skimage.morphology", "skimage.transform", "skimage.util")

# Typed Any: the old names exist only while the table is applied.
measure: Any = skimage.measure
color: Any = skimage.color
draw: Any = skimage.draw
feature: Any = skimage.feature
filters: Any = skimage.filters
io: Any = skimage.io
morphology: Any = skimage.morphology
transform: Any = skimage.transform
util: Any = skimage.util


@pytest.fixture
def patched() -> Iterator[TablePatches]:
    assert SURFACE.patches is not None
    patches = SURFACE.patches()
    for name in MODULES:
        patches.apply(importlib.import_module(name))
    yield patches
    patches.undo()


def images() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    true = rng.random((24, 20))
    return true, np.clip(true + 0.05 * rng.standard_normal(true.shape), 0, 1)


def ssim_016(x: np.ndarray, y: np.ndarray, data_range: float, win: int = 7) -> float:
    """0.16's compare_ssim on a gray image: uniform window, sample covariance, border cropped."""
    x, y = x.astype(np.float64), y.astype(np.float64)
    n = win ** x.ndim
    norm = n / (n - 1)
    ux, uy = uniform_filter(x, win), uniform_filter(y, win)
    vx = norm * (uniform_filter(x * x, win) - ux * ux)
    vy = norm * (uniform_filter(y * y, win) - uy * uy)
    vxy = norm * (uniform_filter(x * y, win) - ux * uy)
    c1, c2 = (0.01 * data_range) ** 2, (0.03 * data_range) ** 2
    s = ((2 * ux * uy + c1) * (2 * vxy + c2)) / ((ux ** 2 + uy ** 2 + c1) * (vx + vy + c2))
    pad = (win - 1) // 2
    return float(s[pad:-pad, pad:-pad].mean())


def test_compare_psnr_mse_nrmse_take_016s_data_range_rule(patched: TablePatches) -> None:
    true, test = images()
    mse = float(np.mean((true - test) ** 2))
    assert measure.compare_mse(true, test) == pytest.approx(mse, rel=1e-12)
    # float image without negative values: data_range = dmax = 1
    assert measure.compare_psnr(true, test) == pytest.approx(10 * np.log10(1.0 / mse), rel=1e-12)
    # with negative values: dmax - dmin = 2
    shifted = true - 0.5
    assert measure.compare_psnr(shifted, test - 0.5) == pytest.approx(10 * np.log10(4.0 / mse), rel=1e-12)
    as_uint8 = (true * 255).astype(np.uint8), (test * 255).astype(np.uint8)
    mse8 = float(np.mean((as_uint8[0].astype(float) - as_uint8[1]) ** 2))
    assert measure.compare_psnr(*as_uint8) == pytest.approx(10 * np.log10(255.0 ** 2 / mse8), rel=1e-12)
    # 0.13's spelling of data_range
    assert measure.compare_psnr(true, test, dynamic_range=255) == pytest.approx(
        10 * np.log10(255.0 ** 2 / mse), rel=1e-12)
    rmse = np.sqrt(mse)
    assert measure.compare_nrmse(true, test, norm_type="Euclidean") == pytest.approx(
        rmse / np.sqrt(np.mean(true ** 2)), rel=1e-12)
    assert measure.compare_nrmse(true, test, "min-max") == pytest.approx(
        rmse / (true.max() - true.min()), rel=1e-12)


def test_compare_ssim_uses_the_dtype_span_and_multichannel(patched: TablePatches) -> None:
    true, test = images()
    # scikit-image today refuses a float image without data_range; 0.16 took 2 (the float span).
    assert measure.compare_ssim(true, test) == pytest.approx(ssim_016(true, test, 2.0), rel=1e-10)
    assert measure.compare_ssim(true.astype(np.float32), test.astype(np.float32)) == pytest.approx(
        ssim_016(true.astype(np.float32), test.astype(np.float32), 2.0), rel=1e-10)
    colour_true = np.stack([true, true[::-1], true[:, ::-1]], axis=-1)
    colour_test = np.stack([test, test[::-1], test[:, ::-1]], axis=-1)
    expected = np.mean([ssim_016(colour_true[..., c], colour_test[..., c], 1.0) for c in range(3)])
    assert measure.compare_ssim(colour_true, colour_test, multichannel=True, data_range=1.0) == \
        pytest.approx(expected, rel=1e-10)
    value, full = measure.compare_ssim(true, test, full=True)
    assert full.shape == true.shape and float(value) == pytest.approx(ssim_016(true, test, 2.0), rel=1e-10)


def test_rgb2gray_keeps_016s_gray_and_rgba_inputs(patched: TablePatches) -> None:
    rng = np.random.default_rng(1)
    rgba = rng.integers(0, 256, (5, 6, 4), dtype=np.uint8)
    expected = (rgba[..., :3] / 255.0) @ np.array([0.2125, 0.7154, 0.0721])
    np.testing.assert_allclose(color.rgb2gray(rgba), expected, rtol=1e-12)
    np.testing.assert_allclose(color.rgb2grey(rgba[..., :3]), expected, rtol=1e-12)
    gray = rng.integers(0, 256, (5, 6), dtype=np.uint8)
    assert color.rgb2gray(gray).dtype == np.uint8 and np.array_equal(color.rgb2gray(gray), gray)
    assert np.array_equal(color.grey2rgb(gray), np.stack([gray] * 3, axis=-1))


def test_multichannel_and_renamed_keywords(patched: TablePatches, tmp_path: object) -> None:
    image = np.random.default_rng(2).random((8, 10, 3))
    np.testing.assert_array_equal(transform.rescale(image, 0.5, multichannel=True),
                                  transform.rescale(image, 0.5, channel_axis=-1))
    np.testing.assert_array_equal(filters.gaussian(image, 1, multichannel=False),
                                  filters.gaussian(image, 1, channel_axis=None))
    with pytest.raises(TypeError, match="old form of channel_axis"):
        transform.rescale(image, 0.5, multichannel=True, channel_axis=0)
    gray = image[..., 0]
    features, picture = feature.hog(gray, pixels_per_cell=(4, 4), cells_per_block=(1, 1), visualise=True)
    expected, expected_picture = feature.hog(gray, pixels_per_cell=(4, 4), cells_per_block=(1, 1),
                                                     visualize=True)
    np.testing.assert_array_equal(features, expected)
    np.testing.assert_array_equal(picture, expected_picture)


def test_imread_as_grey_is_as_gray(patched: TablePatches, tmp_path: Path) -> None:
    rgb = np.random.default_rng(4).integers(0, 256, (6, 5, 3), dtype=np.uint8)
    path = tmp_path / "x.png"
    Image.fromarray(rgb).save(path)
    gray = io.imread(str(path), as_grey=True)
    expected = (rgb / 255.0) @ np.array([0.2125, 0.7154, 0.0721])  # rgb2gray of the image as float
    assert gray.shape == (6, 5) and np.allclose(gray, expected, atol=1e-12)


def test_moved_and_removed_functions(patched: TablePatches) -> None:
    rows, cols = draw.circle(4, 5, 3, shape=(10, 10))
    inside = {(r, c) for r in range(10) for c in range(10) if ((r - 4) / 3) ** 2 + ((c - 5) / 3) ** 2 < 1}
    assert set(zip(rows.tolist(), cols.tolist())) == inside
    image = np.zeros((32, 32))
    image[8:16, 10:20] = 1
    shifted = np.roll(image, (3, -2), axis=(0, 1))
    shift, error, phase = feature.register_translation(image, shifted)
    assert shift.tolist() == [-3.0, 2.0] and error == pytest.approx(0.0, abs=1e-6)
    assert feature.register_translation(image, shifted, return_error=False).tolist() == [-3.0, 2.0]
    assert feature.greycomatrix is feature.graycomatrix
    assert morphology.watershed is importlib.import_module("skimage.segmentation").watershed
    assert util.pad is np.pad
    stack = np.arange(4 * 2 * 3, dtype=float).reshape(4, 2, 3)
    np.testing.assert_array_equal(util.montage2d(stack),
                                  np.block([[stack[0], stack[1]], [stack[2], stack[3]]]))
    ramp = np.tile(np.arange(9, dtype=float), (9, 1))
    local = filters.threshold_local(ramp, 3, offset=0.5)
    np.testing.assert_array_equal(filters.threshold_adaptive(ramp, 3, offset=0.5), ramp > local)


def test_undo_gives_scikit_image_its_own_objects_back() -> None:
    assert SURFACE.patches is not None
    before = transform.rescale, color.rgb2gray
    patches = SURFACE.patches()
    for name in MODULES:
        patches.apply(importlib.import_module(name))
    assert transform.rescale is not before[0] and hasattr(skimage.measure, "compare_psnr")
    patches.undo()
    assert (transform.rescale, color.rgb2gray) == before
    assert not hasattr(skimage.measure, "compare_psnr") and not hasattr(skimage.draw, "circle")


def test_compat_check_reports_each_use() -> None:
    assert SURFACE.uses is not None
    tree = ast.parse(
        "from skimage.measure import compare_psnr, label\n"
        "import skimage.measure as M\n"
        "from skimage import transform, io\n"
        "M.compare_ssim(a, b, multichannel=True)\n"
        "transform.rescale(x, 0.5, multichannel=True)\n"
        "io.imread(f, as_grey=True)\n"
        "transform.resize(x, (2, 2))\n")
    found = [(u.node.lineno if isinstance(u.node, (ast.stmt, ast.expr)) else 0, u.construct)
             for u in map(as_use, SURFACE.uses(tree))]
    assert found == [(1, "skimage.measure.compare_psnr"), (4, "M.compare_ssim(a, b, multichannel=True)"),
                     (4, "M.compare_ssim"), (5, "transform.rescale(x, 0.5, multichannel=True)"),
                     (6, "io.imread(f, as_grey=True)")]
