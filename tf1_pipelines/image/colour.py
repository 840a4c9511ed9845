"""Colour conversions and image measures of seed 000's ``utils`` module.

The formulas are the seed's (ITU-R BT.601 "studio swing" YCbCr, as MATLAB's
``rgb2ycbcr``), computed in float64 on values in 0..255, so that the TFRecords
written from them hold the same bytes as the original code wrote.
"""
from __future__ import annotations

import numpy as np

# Rows give Y, Cb, Cr as weights on R, G, B (0..255 input, divided by 255).
_RGB_TO_YCBCR = np.array([[65.481, 128.553, 24.966],
                          [-37.797, -74.203, 112.0],
                          [112.0, -93.786, -18.214]], dtype=np.float64)
_YCBCR_OFFSET = np.array([16.0, 128.0, 128.0], dtype=np.float64)


def _require_rgb(img: np.ndarray, name: str) -> np.ndarray:
    img = np.asarray(img)
    if img.ndim < 1 or img.shape[-1] != 3:
        raise ValueError(f"{name} needs an image whose last axis has 3 channels, got shape {img.shape}")
    return img


def rgb2ycbcr(img: np.ndarray) -> np.ndarray:
    """RGB in 0..255 (any dtype, [..., 3]) -> YCbCr float64 [..., 3].

    Y lies in 16..235 and Cb, Cr in 16..240 for input in 0..255.
    """
    img = _require_rgb(img, "rgb2ycbcr").astype(np.float64)
    return img @ _RGB_TO_YCBCR.T / 255.0 + _YCBCR_OFFSET


def ycbcr2rgb(img: np.ndarray) -> np.ndarray:
    """YCbCr float [..., 3] (as from :func:`rgb2ycbcr`) -> RGB float64 [..., 3] in about 0..255,
    unclipped and unrounded (the exact inverse of :func:`rgb2ycbcr`)."""
    img = _require_rgb(img, "ycbcr2rgb").astype(np.float64)
    return (img - _YCBCR_OFFSET) @ np.linalg.inv(_RGB_TO_YCBCR).T * 255.0


def img_to_uint8(img: np.ndarray) -> np.ndarray:
    """Any image -> uint8 of the same shape.

    Values are taken as 0..1 when the maximum is at most 1.0 (multiplied by 255
    first), else as 0..255; then clipped to 0..255 and rounded half to even
    (``np.round``), as the seed does.
    """
    img = np.asarray(img, dtype=np.float64)
    if img.size and img.max() <= 1.0:
        img = img * 255.0
    return np.round(np.clip(img, 0, 255)).astype(np.uint8)


def psnr(target: np.ndarray, reference: np.ndarray) -> float:
    """Peak signal-to-noise ratio in dB for 0..255 images: 20*log10(255 / RMSE), float64.

    Identical images give ``inf``.
    """
    target = np.asarray(target, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    if target.shape != reference.shape:
        raise ValueError(f"psnr needs two images of one shape, got {target.shape} and {reference.shape}")
    rmse = np.sqrt(np.mean((target - reference) ** 2))
    if rmse == 0:
        return float("inf")
    return float(20.0 * np.log10(255.0 / rmse))
