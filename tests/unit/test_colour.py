"""Seed 000's utils, checked against the formulas written out per pixel."""
from __future__ import annotations

import numpy as np
import pytest

from tf1_pipelines.data import sample_data
from tf1_pipelines.pipelines.div2k_sr import img_to_uint8, psnr, rgb2ycbcr, ycbcr2rgb


def test_rgb2ycbcr_matches_the_written_out_formula() -> None:
    image = sample_data.load_photograph("astronaut")[::37, ::41]
    ours = rgb2ycbcr(image)
    for (row, col), (r, g, b) in zip(np.ndindex(image.shape[:2]), image.reshape(-1, 3).astype(float)):
        y = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255
        cb = 128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255
        cr = 128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255
        np.testing.assert_allclose(ours[row, col], [y, cb, cr], rtol=0, atol=1e-9)
    assert ours.dtype == np.float64


def test_ycbcr2rgb_inverts_rgb2ycbcr() -> None:
    image = sample_data.load_photograph("coffee")[:64, :64].astype(np.float64)
    np.testing.assert_allclose(ycbcr2rgb(rgb2ycbcr(image)), image, atol=1e-9)


def test_luma_range_is_studio_swing() -> None:
    extremes = np.array([[[0, 0, 0], [255, 255, 255]]], dtype=np.uint8)
    np.testing.assert_allclose(rgb2ycbcr(extremes)[0, :, 0], [16.0, 235.0], atol=1e-9)


@pytest.mark.parametrize("values, expected", [
    ([0.0, 0.5, 1.0], [0, 128, 255]),          # max <= 1: scaled by 255 (127.5 rounds to even 128)
    ([16.4, 234.6, 300.0, -3.0], [16, 235, 255, 0]),  # max > 1: clipped and rounded
    ([0.5, 1.5], [0, 2]),                     # half to even, not scaled (max 1.5 > 1)
])
def test_img_to_uint8(values: list[float], expected: list[int]) -> None:
    out = img_to_uint8(np.array(values))
    assert out.dtype == np.uint8
    assert out.tolist() == expected


def test_psnr_is_20_log10_255_over_rmse() -> None:
    rng = np.random.RandomState(0)
    a = rng.randint(0, 256, (32, 32)).astype(np.uint8)
    b = np.clip(a.astype(int) + rng.randint(-5, 6, a.shape), 0, 255)
    rmse = np.sqrt(np.mean((a.astype(float) - b) ** 2))
    assert psnr(a, b) == pytest.approx(20 * np.log10(255 / rmse), rel=1e-12)
    assert psnr(a, a) == float("inf")
    with pytest.raises(ValueError, match="one shape"):
        psnr(a, a[:4])
