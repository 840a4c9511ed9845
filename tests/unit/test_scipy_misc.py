"""compat.scipy_legacy.misc against Pillow and NumPy computed independently here.

Every expected array is built in the test from Pillow primitives
(``Image.fromarray(...).resize(...)``) or a NumPy formula, never by calling the
module under test, so a test fails if the module drifts from SciPy 1.2's
behaviour on today's Pillow.
"""
from __future__ import annotations

import io
import os

import numpy as np
import pytest
import skimage.data
from PIL import Image, ImageFilter

from compat.scipy_legacy import misc

FILTERS = {
    "nearest": Image.Resampling.NEAREST,
    "lanczos": Image.Resampling.LANCZOS,
    "bilinear": Image.Resampling.BILINEAR,
    "bicubic": Image.Resampling.BICUBIC,
    "cubic": Image.Resampling.BICUBIC,
}
LUMA = np.array([0.299, 0.587, 0.114])


@pytest.fixture(scope="module")
def photos() -> dict[str, np.ndarray]:
    """Real photographs bundled with scikit-image (uint8 RGB)."""
    return {name: getattr(skimage.data, name)()
            for name in ("astronaut", "coffee", "chelsea")}


@pytest.fixture(scope="module")
def chelsea() -> np.ndarray:
    return skimage.data.chelsea()


def luma(rgb: np.ndarray) -> np.ndarray:
    """ITU-R 601-2 luma in float64."""
    return rgb.astype(np.float64) @ LUMA


def bytescale_formula(x: np.ndarray, lo: float, hi: float, low: int = 0,
                      high: int = 255) -> np.ndarray:
    """The bytescale mapping written out in float64."""
    width = (hi - lo) if hi > lo else 1.0
    y = (x.astype(np.float64) - lo) * ((high - low) / width) + low
    return np.floor(np.clip(y, low, high) + 0.5).astype(np.uint8)


def pil_resize(arr: np.ndarray, wh: tuple[int, int], interp: str) -> np.ndarray:
    return np.array(Image.fromarray(arr).resize(wh, FILTERS[interp]))


# ---------------------------------------------------------------- bytescale

class TestBytescale:
    def test_min_max_stretch_matches_formula_on_photo(self, photos):
        x = luma(photos["coffee"]) * 0.37 - 12.5  # float64, arbitrary range
        got = misc.bytescale(x)
        assert got.dtype == np.uint8 and got.shape == x.shape
        np.testing.assert_array_equal(got, bytescale_formula(x, x.min(), x.max()))
        assert got.min() == 0 and got.max() == 255

    def test_explicit_limits_clip_and_target_range(self):
        x = np.linspace(-50.0, 300.0, 701).reshape(1, -1)
        got = misc.bytescale(x, cmin=0, cmax=255, high=200, low=100)
        np.testing.assert_array_equal(got, bytescale_formula(x, 0, 255, 100, 200))
        assert got.min() == 100 and got.max() == 200

    def test_known_values(self):
        # Values SciPy 1.2's bytescale gave for this input.
        img = np.array([[91.06794177, 3.39058326, 84.4221549],
                        [73.88003259, 80.91433048, 4.88878881],
                        [51.53875334, 34.45808177, 27.5873488]])
        np.testing.assert_array_equal(
            misc.bytescale(img), [[255, 0, 236], [205, 225, 4], [140, 90, 70]])
        np.testing.assert_array_equal(
            misc.bytescale(img, high=200, low=100),
            [[200, 100, 192], [180, 188, 102], [155, 135, 128]])
        np.testing.assert_array_equal(
            misc.bytescale(img, cmin=0, cmax=255),
            [[91, 3, 84], [74, 81, 5], [52, 34, 28]])

    def test_uint8_is_returned_untouched(self):
        x = np.array([[3, 7], [9, 11]], dtype=np.uint8)
        assert misc.bytescale(x, cmin=0, cmax=1) is x

    def test_float32_is_scaled_in_float32(self):
        rng = np.random.default_rng(0)
        x = rng.normal(size=(64, 64)).astype(np.float32) * 1000
        lo, hi = x.min(), x.max()
        scale = 255.0 / float(hi - lo)
        expected = (((x - lo) * scale).clip(0, 255) + np.float32(0.5)).astype(np.uint8)
        assert ((x - lo) * scale).dtype == np.float32
        np.testing.assert_array_equal(misc.bytescale(x), expected)

    def test_wide_int16_range_does_not_wrap(self):
        x = np.array([[-30000, 0, 30000]], dtype=np.int16)
        np.testing.assert_array_equal(misc.bytescale(x), [[0, 128, 255]])

    def test_constant_array_becomes_low(self):
        np.testing.assert_array_equal(misc.bytescale(np.full((2, 3), 7.5), low=10),
                                      np.full((2, 3), 10))

    @pytest.mark.parametrize("kwargs, match", [
        (dict(high=256), "high=256 must be <= 255"),
        (dict(low=-1), "low=-1 must be >= 0"),
        (dict(high=10, low=20), "high=10 must be >= low=20"),
        (dict(cmin=5.0, cmax=1.0), "cmax=1.0 must be >= cmin=5.0"),
    ])
    def test_bad_arguments(self, kwargs, match):
        with pytest.raises(ValueError, match=match):
            misc.bytescale(np.arange(4.0), **kwargs)

    def test_nan_data_needs_explicit_limits(self):
        with pytest.raises(ValueError, match="must be finite"):
            misc.bytescale(np.array([1.0, np.nan]))

    def test_empty_needs_explicit_limits(self):
        with pytest.raises(ValueError, match="empty array"):
            misc.bytescale(np.zeros((0, 3)))

    @pytest.mark.parametrize("x", [np.array([True, False]), np.array(["a"])])
    def test_bad_dtypes(self, x):
        with pytest.raises(TypeError, match="bytescale"):
            misc.bytescale(x)


# ---------------------------------------------------------------- toimage

class TestToimage:
    def test_mode_f_keeps_values_unscaled(self):
        x = np.array([[-40.25, 0.0, 255.5], [1000.125, 3.0, 7.0]])
        im = misc.toimage(x, mode="F")
        assert im.mode == "F" and im.size == (3, 2)
        np.testing.assert_array_equal(np.array(im), x.astype(np.float32))

    def test_default_2d_is_bytescaled_grey(self, photos):
        x = luma(photos["chelsea"])
        im = misc.toimage(x)
        assert im.mode == "L" and im.size == (451, 300)
        np.testing.assert_array_equal(np.array(im), bytescale_formula(x, x.min(), x.max()))

    def test_uint8_rgb_roundtrips_exactly(self, photos):
        x = photos["astronaut"]
        im = misc.toimage(x)
        assert im.mode == "RGB"
        np.testing.assert_array_equal(np.array(im), x)

    @pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
    def test_channel_axis_anywhere(self, photos, axis):
        x = photos["chelsea"][:40, :50]
        moved = np.moveaxis(x, 2, axis)
        np.testing.assert_array_equal(np.array(misc.toimage(moved, channel_axis=axis)), x)

    def test_channel_axis_found_automatically(self, photos):
        x = photos["chelsea"][:40, :50]
        np.testing.assert_array_equal(np.array(misc.toimage(x.transpose(2, 0, 1))), x)

    def test_3d_float_is_scaled_with_one_range_for_all_channels(self):
        x = np.arange(2 * 5 * 3, dtype=np.float64).reshape(2, 5, 3) * 2.5 + 4
        np.testing.assert_array_equal(np.array(misc.toimage(x)),
                                      bytescale_formula(x, x.min(), x.max()))

    def test_four_channels_rgba_and_cmyk(self):
        x = np.arange(5 * 6 * 4, dtype=np.uint8).reshape(5, 6, 4)
        assert misc.toimage(x).mode == "RGBA"
        np.testing.assert_array_equal(np.array(misc.toimage(x)), x)
        assert misc.toimage(x, mode="CMYK").mode == "CMYK"

    def test_first_axis_of_length_4_wins(self):
        # SciPy took the first axis of length 3, else of length 4, even when
        # that is the row axis; channel_axis=2 (as imsave passes) avoids it.
        x = np.arange(4 * 6 * 4, dtype=np.uint8).reshape(4, 6, 4)
        np.testing.assert_array_equal(np.array(misc.toimage(x)), x.transpose(1, 2, 0))
        np.testing.assert_array_equal(np.array(misc.toimage(x, channel_axis=2)), x)

    def test_ycbcr_mode(self, photos):
        x = photos["coffee"][:8, :8]
        im = misc.toimage(x, mode="YCbCr")
        assert im.mode == "YCbCr"
        np.testing.assert_array_equal(np.array(im), x)  # raw bytes, no conversion

    def test_mode_p_grey_palette_and_custom_palette(self):
        x = np.array([[0, 10], [20, 30]], dtype=np.uint8)
        grey = misc.toimage(x, mode="P")
        assert grey.mode == "P"
        np.testing.assert_array_equal(np.array(grey.convert("RGB"))[..., 1], x)
        pal = np.zeros((256, 3), dtype=np.uint8)
        pal[10] = (1, 2, 3)
        coloured = misc.toimage(x, pal=pal)
        assert coloured.mode == "P"
        np.testing.assert_array_equal(np.array(coloured.convert("RGB"))[0, 1], (1, 2, 3))

    def test_mode_1_thresholds_at_high(self):
        x = np.array([[0.0, 100.0, 200.0], [201.0, 255.0, 50.0]])
        im = misc.toimage(x, mode="1", high=200)
        assert im.mode == "1"
        np.testing.assert_array_equal(np.array(im), x > 200)

    def test_mode_i_stretches_and_truncates(self):
        x = np.array([[0.0, 1.0], [2.0, 4.0]])
        im = misc.toimage(x, mode="I", high=1000, low=10)
        assert im.mode == "I"
        np.testing.assert_array_equal(np.array(im), np.trunc(x / 4 * 990 + 10))

    @pytest.mark.parametrize("arr, kwargs, exc, match", [
        (np.ones((2, 2), complex), {}, ValueError, "complex"),
        (np.ones((2, 3, 4, 5)), {}, ValueError, r"shape \(2, 3, 4, 5\)"),
        (np.ones((5, 6, 7)), {}, ValueError, r"shape \(5, 6, 7\)"),
        (np.ones((5, 6, 3)), dict(mode="F"), ValueError, "mode='F' is not valid for a 3-D"),
        (np.ones((5, 6, 3)), dict(mode="RGBA"), ValueError, "needs 4 channels"),
        (np.ones((5, 6, 3)), dict(channel_axis=1), ValueError, "length 6"),
        (np.ones((5, 6, 3)), dict(channel_axis=3), ValueError, "channel_axis=3"),
        (np.ones((5, 6)), dict(mode="RGB"), ValueError, "mode='RGB' is not valid for a 2-D"),
        (np.ones((5, 6)), dict(mode="I"), ValueError, "cmax > cmin"),
        (np.ones((5, 6)), dict(pal=np.zeros((2, 2))), ValueError, "RGB triplets"),
    ])
    def test_bad_arguments(self, arr, kwargs, exc, match):
        with pytest.raises(exc, match=match):
            misc.toimage(arr, **kwargs)


# ---------------------------------------------------------------- fromimage

class TestFromimage:
    def test_palette_becomes_rgb(self, chelsea):
        pim = Image.fromarray(chelsea).quantize(16)
        expected = np.array(pim.getpalette(), dtype=np.uint8).reshape(-1, 3)[np.array(pim)]
        np.testing.assert_array_equal(misc.fromimage(pim), expected)
        np.testing.assert_array_equal(misc.fromimage(pim, mode="P"), np.array(pim))

    def test_bilevel_becomes_0_255(self):
        im = Image.fromarray(np.array([[True, False], [False, True]]))
        got = misc.fromimage(im)
        assert got.dtype == np.uint8
        np.testing.assert_array_equal(got, [[255, 0], [0, 255]])

    def test_not_an_image(self):
        with pytest.raises(TypeError, match="got ndarray"):
            misc.fromimage(np.zeros((2, 2)))

    def test_bad_mode(self):
        with pytest.raises(ValueError, match="mode='NOPE'"):
            misc.fromimage(Image.new("RGB", (2, 2)), mode="NOPE")


# ---------------------------------------------------------------- imresize

class TestImresize:
    @pytest.mark.parametrize("interp", sorted(FILTERS))
    def test_every_interp_on_uint8_photos(self, photos, interp):
        for name, x in photos.items():
            rows, cols = x.shape[:2]
            got = misc.imresize(x, (rows // 3, cols // 2 + 7), interp=interp)
            expected = pil_resize(x, (cols // 2 + 7, rows // 3), interp)
            assert got.dtype == np.uint8 and got.shape == (rows // 3, cols // 2 + 7, 3), name
            np.testing.assert_array_equal(got, expected, err_msg=f"{name} {interp}")

    def test_default_interp_is_bilinear(self, photos):
        x = photos["coffee"]
        np.testing.assert_array_equal(misc.imresize(x, 0.5), pil_resize(x, (300, 200), "bilinear"))

    def test_mode_f_is_float_unscaled_bicubic(self, photos):
        # Like a super-resolution LR maker: 0..255 float stretched past 255.
        x = (luma(photos["astronaut"]) * 1.5 - 20.0).astype(np.float32)
        got = misc.imresize(x, 0.25, interp="bicubic", mode="F")
        expected = np.array(Image.fromarray(x).resize((128, 128), Image.Resampling.BICUBIC))
        assert got.dtype == np.float32 and got.shape == (128, 128)
        np.testing.assert_array_equal(got, expected)
        assert got.max() > 255 and got.min() < 0  # no clipping, no rescaling

    def test_mode_none_float_goes_through_bytescale(self, photos):
        x = luma(photos["coffee"]) / 255.0  # a 0..1 float image
        got = misc.imresize(x, (100, 150), interp="bicubic")
        scaled = bytescale_formula(x, x.min(), x.max())
        expected = pil_resize(scaled, (150, 100), "bicubic")
        assert got.dtype == np.uint8
        np.testing.assert_array_equal(got, expected)

    def test_float_size_truncates(self):
        x = np.random.default_rng(1).integers(0, 256, (93, 127), dtype=np.uint8)
        got = misc.imresize(x, 0.25, interp="bicubic")
        assert got.shape == (23, 31)
        np.testing.assert_array_equal(got, pil_resize(x, (31, 23), "bicubic"))

    def test_int_size_is_percent_with_float_truncation(self):
        x = np.random.default_rng(2).integers(0, 256, (100, 100, 3), dtype=np.uint8)
        # 100 * 0.29 == 28.999999999999996 in float64, so SciPy gave 28, not 29.
        assert misc.imresize(x, 29).shape == (28, 28, 3)
        assert misc.imresize(x, 0.29).shape == (28, 28, 3)
        assert misc.imresize(x, np.int64(150)).shape == (150, 150, 3)
        assert misc.imresize(x, np.float32(0.5)).shape == (50, 50, 3)
        np.testing.assert_array_equal(misc.imresize(x, 50, interp="nearest"),
                                      pil_resize(x, (50, 50), "nearest"))

    def test_tuple_is_rows_cols_and_shape_tuple_works(self, photos):
        x = photos["chelsea"]
        expected = pil_resize(x, (64, 48), "bilinear")
        np.testing.assert_array_equal(misc.imresize(x, (48, 64)), expected)
        np.testing.assert_array_equal(misc.imresize(x, [48, 64, 3]), expected)
        np.testing.assert_array_equal(misc.imresize(x, np.array([48, 64])), expected)

    def test_mode_p_comes_back_rgb(self):
        x = np.arange(16, dtype=np.uint8).reshape(4, 4) * 16
        got = misc.imresize(x, (8, 8), mode="P", interp="bicubic")
        assert got.shape == (8, 8, 3)
        # Palette images always resize with nearest; the grey palette is identity.
        np.testing.assert_array_equal(got[..., 0], pil_resize(x, (8, 8), "nearest"))

    @pytest.mark.parametrize("size, exc, match", [
        ("50", TypeError, "size='50'"),
        (True, TypeError, "size=True"),
        (None, TypeError, "size=None"),
        ((10.0, 12.0), TypeError, "must hold integers"),
        ((1, 2, 3, 4), ValueError, r"\(rows, cols\)"),
        ((0, 5), ValueError, "both must be >= 1"),
        (1, ValueError, "into 0x0"),
        (float("nan"), ValueError, "finite"),
    ])
    def test_bad_size(self, size, exc, match):
        with pytest.raises(exc, match=match):
            misc.imresize(np.zeros((20, 30), np.uint8), size)

    def test_bad_interp_lists_valid_names(self):
        with pytest.raises(ValueError, match=r"interp='area'.*'nearest'.*'cubic'"):
            misc.imresize(np.zeros((4, 4), np.uint8), 2.0, interp="area")

    def test_3d_with_mode_f_is_an_error(self, photos):
        with pytest.raises(ValueError, match="mode='F'.*3-D"):
            misc.imresize(photos["chelsea"].astype(np.float32), 0.5, mode="F")


# ---------------------------------------------------------------- imread

def _save(path, image: Image.Image, **params) -> str:
    image.save(path, **params)
    return str(path)


class TestImread:
    def test_rgb_png(self, tmp_path, photos):
        x = photos["astronaut"]
        got = misc.imread(_save(tmp_path / "a.png", Image.fromarray(x)))
        assert got.dtype == np.uint8
        np.testing.assert_array_equal(got, x)

    def test_palette_png_becomes_rgb(self, tmp_path, chelsea):
        pim = Image.fromarray(chelsea).quantize(32)
        got = misc.imread(_save(tmp_path / "p.png", pim))
        pal = np.array(pim.getpalette(), dtype=np.uint8).reshape(-1, 3)
        assert got.shape == chelsea.shape
        np.testing.assert_array_equal(got, pal[np.array(pim)])

    def test_palette_with_transparency_becomes_rgba(self, tmp_path, chelsea):
        pim = Image.fromarray(chelsea[:60, :80]).quantize(8)
        got = misc.imread(_save(tmp_path / "t.png", pim, transparency=0))
        idx = np.array(pim)
        pal = np.array(pim.getpalette(), dtype=np.uint8).reshape(-1, 3)
        assert got.shape == (60, 80, 4)
        np.testing.assert_array_equal(got[..., :3], pal[idx])
        np.testing.assert_array_equal(got[..., 3], np.where(idx == 0, 0, 255))
        assert (idx == 0).any()

    def test_flatten_is_unrounded_601_luma(self, tmp_path, photos):
        x = photos["coffee"]
        got = misc.imread(_save(tmp_path / "c.png", Image.fromarray(x)), flatten=True)
        assert got.dtype == np.float32 and got.shape == x.shape[:2]
        np.testing.assert_allclose(got, luma(x), atol=1e-3, rtol=0)
        assert not np.allclose(got, np.round(got))  # really not rounded

    def test_mode_then_flatten(self, tmp_path, photos):
        x = photos["chelsea"]
        path = _save(tmp_path / "c.png", Image.fromarray(x))
        grey = misc.imread(path, mode="L")
        assert grey.dtype == np.uint8 and grey.ndim == 2
        np.testing.assert_allclose(grey, luma(x), atol=0.51)
        np.testing.assert_array_equal(misc.imread(path, mode="L", flatten=True),
                                      grey.astype(np.float32))

    def test_grey_and_bilevel(self, tmp_path):
        grey = np.arange(48, dtype=np.uint8).reshape(6, 8) * 5
        np.testing.assert_array_equal(
            misc.imread(_save(tmp_path / "g.png", Image.fromarray(grey))), grey)
        mask = grey > 100
        np.testing.assert_array_equal(
            misc.imread(_save(tmp_path / "m.png", Image.fromarray(mask))),
            np.where(mask, 255, 0))

    def test_file_object(self, photos):
        buf = io.BytesIO()
        Image.fromarray(photos["chelsea"]).save(buf, format="PNG")
        buf.seek(0)
        np.testing.assert_array_equal(misc.imread(buf), photos["chelsea"])

    def test_missing_file_names_it(self, tmp_path):
        with pytest.raises(FileNotFoundError, match="nope.png"):
            misc.imread(tmp_path / "nope.png")

    def test_not_an_image_names_it(self, tmp_path):
        path = tmp_path / "junk.png"
        path.write_bytes(b"definitely not a PNG")
        with pytest.raises(OSError, match="junk.png"):
            misc.imread(path)

    def test_truncated_image_names_it(self, tmp_path, photos):
        path = tmp_path / "cut.png"
        Image.fromarray(photos["coffee"]).save(path)
        path.write_bytes(path.read_bytes()[:2000])
        with pytest.raises(OSError, match="cut.png"):
            misc.imread(path)

    def test_bad_name_type(self):
        with pytest.raises(TypeError, match="got int"):
            misc.imread(3)


# ---------------------------------------------------------------- imsave

class TestImsave:
    @pytest.mark.parametrize("suffix", [".png", ".bmp", ".tiff"])
    def test_uint8_round_trip(self, tmp_path, photos, suffix):
        x = photos["astronaut"][100:228, 150:300]
        path = tmp_path / f"out{suffix}"
        misc.imsave(path, x)
        np.testing.assert_array_equal(misc.imread(path), x)

    def test_grey_and_rgba_round_trip(self, tmp_path, photos):
        grey = photos["coffee"][..., 1]
        misc.imsave(tmp_path / "g.png", grey)
        np.testing.assert_array_equal(np.array(Image.open(tmp_path / "g.png")), grey)
        rgba = np.dstack([photos["chelsea"], photos["chelsea"][..., 0]])
        misc.imsave(tmp_path / "a.png", rgba)
        np.testing.assert_array_equal(misc.imread(tmp_path / "a.png"), rgba)

    def test_float_is_stretched_to_full_range(self, tmp_path, photos):
        x = luma(photos["chelsea"]) / 1024.0  # dim 0..0.25 float image
        misc.imsave(tmp_path / "f.png", x)
        np.testing.assert_array_equal(misc.imread(tmp_path / "f.png"),
                                      bytescale_formula(x, x.min(), x.max()))

    def test_format_for_file_object(self, photos):
        buf = io.BytesIO()
        misc.imsave(buf, photos["chelsea"], format="PNG")
        buf.seek(0)
        np.testing.assert_array_equal(np.array(Image.open(buf)), photos["chelsea"])

    def test_channels_must_be_last(self, tmp_path):
        with pytest.raises(ValueError, match="length 5"):
            misc.imsave(tmp_path / "x.png", np.zeros((3, 4, 5)))

    def test_unknown_extension_and_format(self, tmp_path):
        with pytest.raises(ValueError, match=r"x\.nope"):
            misc.imsave(tmp_path / "x.nope", np.zeros((4, 4)))
        with pytest.raises(ValueError, match="format='NOPE'"):
            misc.imsave(tmp_path / "x.png", np.zeros((4, 4)), format="NOPE")

    def test_unwritable_mode_leaves_no_file(self, tmp_path):
        path = tmp_path / "x.jpg"
        with pytest.raises(OSError, match=r"'RGBA'.*x\.jpg"):
            misc.imsave(path, np.zeros((4, 4, 4), np.uint8))
        assert not os.path.exists(path)


# ---------------------------------------------------------------- imrotate / imfilter

def test_imrotate_matches_pil(photos):
    x = photos["chelsea"]
    for interp, flt in [("nearest", Image.Resampling.NEAREST),
                        ("bicubic", Image.Resampling.BICUBIC)]:
        expected = np.array(Image.fromarray(x).rotate(17.5, resample=flt))
        np.testing.assert_array_equal(misc.imrotate(x, 17.5, interp=interp), expected)
    with pytest.raises(ValueError, match="interp='lanczos'"):
        misc.imrotate(x, 10, interp="lanczos")


def test_imfilter_matches_pil(photos):
    x = photos["coffee"]
    expected = np.array(Image.fromarray(x).filter(ImageFilter.FIND_EDGES))
    np.testing.assert_array_equal(misc.imfilter(x, "find_edges"), expected)
    with pytest.raises(ValueError, match="ftype='gaussian'.*'blur'"):
        misc.imfilter(x, "gaussian")
