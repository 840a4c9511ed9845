"""scikit-image names that 0.13–0.16 code called and today's scikit-image has removed, with their old semantics.

Facts from scikit-image's release notes (0.14–0.26) and the 0.13–0.16 sources:

* ``measure.compare_mse/compare_nrmse/compare_psnr/compare_ssim`` moved to
  ``skimage.metrics`` in 0.16 and left ``measure`` in 0.18. Their old defaults
  differ from today's: ``compare_ssim`` took ``data_range`` from the dtype when
  it was not given (``dmax - dmin`` of ``dtype_range``: 2 for float images,
  255 for uint8), where ``structural_similarity`` now refuses float images
  without ``data_range``; it computed in float64 and took ``multichannel=``
  (today ``channel_axis=-1``). ``compare_psnr`` used the dtype's maximum as the
  data range when the true image had no negative value, else ``dmax - dmin``.
  0.13 spelled ``data_range`` ``dynamic_range`` (removed in 0.14).
* removed in 0.19: ``color.rgb2grey``/``grey2rgb`` (``rgb2gray``/``gray2rgb``),
  ``draw.circle`` (``draw.disk``), ``feature.register_translation``
  (``registration.phase_cross_correlation``), ``util.pad`` (``numpy.pad``),
  ``morphology.watershed`` (``segmentation.watershed``, moved in 0.17);
  ``rgb2gray`` no longer accepts gray (2-D) or RGBA input.
* removed in 0.20: ``feature.greycomatrix``/``greycoprops`` (``graycomatrix``/``graycoprops``)
  and every ``multichannel=`` argument (``channel_axis=-1``/``None``).
* removed in 0.15: ``filters.threshold_adaptive`` (``image > threshold_local(...)``),
  ``util.montage2d`` (``util.montage``); in 0.16: ``io.imread(as_grey=)`` (``as_gray=``)
  and ``feature.hog(visualise=)`` (``visualize=``).

Importing this module imports NumPy only; scikit-image is imported when a row is used.
"""
from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from compat.library_legacy.lazy import PerModuleTable
from compat.surfaces.table_patches import Removed, Replaced, accepts, const, wrapper

__all__ = ["MULTICHANNEL_MODULES", "OLD_KEYWORDS", "REMOVED", "RENAMED_KEYWORDS", "REPLACED", "old_data_range"]


def _attr(dotted: str) -> Callable[[], Any]:
    module, _, name = dotted.rpartition(".")
    return lambda: getattr(importlib.import_module(module), name)


def _dtype_range(image: np.ndarray) -> tuple[float, float]:
    """``skimage.util.dtype.dtype_range`` of ``image``'s dtype: (-1, 1) for floats, the integer limits else."""
    from skimage.util.dtype import dtype_range
    low, high = dtype_range[image.dtype.type]
    return float(low), float(high)


# --------------------------------------------------------------------------
# measure.compare_* (moved to skimage.metrics in 0.16, removed in 0.18)
# --------------------------------------------------------------------------

def old_data_range(image: np.ndarray, metric: str) -> float:
    """The ``data_range`` the 0.16 metric ``metric`` ('psnr' or 'ssim') took when none was given.

    ssim: ``dmax - dmin`` of the dtype (2.0 for float, 255 for uint8). psnr: ``dmax`` when
    ``image`` has no negative value (1.0 for float, 255 for uint8), else ``dmax - dmin``; a
    ValueError when ``image`` lies outside its dtype's range, as 0.16 raised.
    """
    low, high = _dtype_range(image)
    if metric == "ssim":
        return high - low
    true_min, true_max = float(np.min(image)), float(np.max(image))
    if true_max > high or true_min < low:
        raise ValueError(f"compare_psnr: im_true has values in [{true_min}, {true_max}], outside the range "
                         f"[{low}, {high}] expected for its dtype {image.dtype}; pass data_range=")
    return high if true_min >= 0 else high - low


def _range_argument(name: str, data_range: float | None, dynamic_range: float | None) -> float | None:
    """``data_range``, or 0.13's ``dynamic_range`` spelling of it (one of the two)."""
    if dynamic_range is None:
        return data_range
    if data_range is not None:
        raise TypeError(f"{name}: dynamic_range={dynamic_range!r} is the old name of data_range= "
                        f"(got data_range={data_range!r} too); give one")
    return dynamic_range


def compare_mse(im1: Any, im2: Any) -> float:
    """``skimage.measure.compare_mse``: the mean squared error, float64; today ``metrics.mean_squared_error``."""
    from skimage.metrics import mean_squared_error
    return float(mean_squared_error(np.asarray(im1), np.asarray(im2)))


def compare_nrmse(im_true: Any, im_test: Any, norm_type: str = "euclidean") -> float:
    """``skimage.measure.compare_nrmse``: the RMSE over ``norm_type``'s denominator ('euclidean',
    'min-max' or 'mean', any case: 0.13–0.15 wrote 'Euclidean'); today ``metrics.normalized_root_mse``."""
    from skimage.metrics import normalized_root_mse
    return float(normalized_root_mse(np.asarray(im_true), np.asarray(im_test), normalization=norm_type.lower()))


def compare_psnr(im_true: Any, im_test: Any, data_range: float | None = None,
                 dynamic_range: float | None = None) -> float:
    """``skimage.measure.compare_psnr``: ``10 log10(data_range^2 / MSE)``, data_range by 0.16's rule
    (:func:`old_data_range`); today ``metrics.peak_signal_noise_ratio``."""
    from skimage.metrics import peak_signal_noise_ratio
    im_true, im_test = np.asarray(im_true), np.asarray(im_test)
    data_range = _range_argument("compare_psnr", data_range, dynamic_range)
    if data_range is None:
        data_range = old_data_range(im_true, "psnr")
    return float(peak_signal_noise_ratio(im_true, im_test, data_range=data_range))


def compare_ssim(X: Any, Y: Any, win_size: int | None = None, gradient: bool = False,  # noqa: N803 - 0.16's names
                 data_range: float | None = None, multichannel: bool = False, gaussian_weights: bool = False,
                 full: bool = False, dynamic_range: float | None = None, **kwargs: Any) -> Any:
    """``skimage.measure.compare_ssim``: the mean structural similarity (and the gradient / full SSIM
    image when asked), computed in float64 with 0.16's ``data_range`` rule (the dtype's span: 2 for
    float images) and ``multichannel=True`` as ``channel_axis=-1``; today ``metrics.structural_similarity``."""
    from skimage.metrics import structural_similarity
    X, Y = np.asarray(X), np.asarray(Y)  # noqa: N806 - 0.16's names
    data_range = _range_argument("compare_ssim", data_range, dynamic_range)
    if data_range is None:
        data_range = old_data_range(X, "ssim")
    return structural_similarity(X.astype(np.float64), Y.astype(np.float64), win_size=win_size, gradient=gradient,
                                 data_range=data_range, channel_axis=-1 if multichannel else None,
                                 gaussian_weights=gaussian_weights, full=full, **kwargs)


# --------------------------------------------------------------------------
# color, draw, feature, filters, util (removed in 0.15–0.20)
# --------------------------------------------------------------------------

def _old_rgb2gray(current: Callable[..., Any]) -> Callable[..., Any]:
    """``rgb2gray`` as of 0.16: a 2-D image comes back unchanged (as a contiguous array), an RGBA
    image loses its alpha channel, an RGB image gets today's luma (0.2125 R + 0.7154 G + 0.0721 B)."""
    def rgb2gray(rgb: Any, *args: Any, **kwargs: Any) -> Any:
        rgb = np.asanyarray(rgb)
        if rgb.ndim == 2:
            return np.ascontiguousarray(rgb)
        if rgb.shape[-1] == 4 and not args and kwargs.get("channel_axis", -1) in (-1, rgb.ndim - 1):
            rgb = rgb[..., :3]
        return current(rgb, *args, **kwargs)
    return rgb2gray


def rgb2grey(rgb: Any) -> Any:
    """``skimage.color.rgb2grey`` (removed in 0.19): 0.16's ``rgb2gray``."""
    from skimage.color import colorconv
    return _old_rgb2gray(colorconv.rgb2gray)(rgb)


def grey2rgb(image: Any) -> Any:
    """``skimage.color.grey2rgb`` (removed in 0.19): ``gray2rgb``."""
    from skimage.color import gray2rgb
    return gray2rgb(image)


def circle(r: float, c: float, radius: float, shape: tuple[int, ...] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``skimage.draw.circle`` (removed in 0.19): the rows and columns of the pixels inside the circle,
    ``ellipse(r, c, radius, radius, shape)`` as 0.16 computed it; today ``draw.disk((r, c), radius)``."""
    from skimage.draw import ellipse
    return ellipse(r, c, radius, radius, shape=shape)


def register_translation(src_image: Any, target_image: Any, upsample_factor: int = 1, space: str = "real",
                         return_error: bool = True) -> Any:
    """``skimage.feature.register_translation`` (removed in 0.19): the shift by plain (unnormalised)
    cross-correlation, and ``(shifts, error, phasediff)`` when ``return_error``; today
    ``registration.phase_cross_correlation(..., normalization=None)``."""
    from skimage.registration import phase_cross_correlation
    found = phase_cross_correlation(src_image, target_image, upsample_factor=upsample_factor, space=space,
                                    normalization=None)
    return found if return_error else found[0]


def threshold_adaptive(image: Any, block_size: int, method: str = "gaussian", offset: float = 0,
                       mode: str = "reflect", param: Any = None) -> np.ndarray:
    """``skimage.filters.threshold_adaptive`` (removed in 0.15): the binary image
    ``image > threshold_local(image, block_size, method, offset, mode, param)``."""
    from skimage.filters import threshold_local
    return np.asarray(image) > threshold_local(image, block_size=block_size, method=method, offset=offset,
                                               mode=mode, param=param)


def montage2d(arr_in: Any, fill: Any = "mean", rescale_intensity: bool = False, grid_shape: Any = None,
              padding_width: int = 0) -> np.ndarray:
    """``skimage.util.montage2d`` (removed in 0.15): a (K, M, N) stack of gray images tiled into one 2-D
    image; today ``util.montage``."""
    from skimage.util import montage
    return montage(arr_in, fill=fill, rescale_intensity=rescale_intensity, grid_shape=grid_shape,
                   padding_width=padding_width)


# --------------------------------------------------------------------------
# Renamed and removed keywords
# --------------------------------------------------------------------------

#: Old keyword renames: module -> function -> old keyword -> today's (removed in 0.16).
RENAMED_KEYWORDS: dict[str, dict[str, dict[str, str]]] = {
    "skimage.io": {"imread": {"as_grey": "as_gray"}},
    "skimage.feature": {"hog": {"visualise": "visualize"}},
}

#: The modules whose functions took ``multichannel=`` in 0.16 and take ``channel_axis=`` today.
MULTICHANNEL_MODULES = ("skimage.color", "skimage.exposure", "skimage.feature", "skimage.filters",
                        "skimage.measure", "skimage.metrics", "skimage.morphology", "skimage.restoration",
                        "skimage.segmentation", "skimage.transform", "skimage.util")


def _old_keywords(current: Callable[..., Any], renames: Mapping[str, str], multichannel: bool) -> Callable[..., Any]:
    """``current`` accepting the old keywords: each of ``renames`` under its new name, and (when
    ``multichannel``) 0.13–0.19's ``multichannel=`` as ``channel_axis=-1`` (True) or ``None`` (False)."""
    name = getattr(current, "__name__", "function")

    def call(*args: Any, **kwargs: Any) -> Any:
        for old, new in renames.items():
            if old in kwargs:
                value = kwargs.pop(old)
                if new in kwargs:
                    raise TypeError(f"{name}: {old}={value!r} is the old name of {new}= "
                                    f"(got {new}={kwargs[new]!r} too); give one")
                kwargs[new] = value
        if multichannel and "multichannel" in kwargs:
            flag = kwargs.pop("multichannel")
            if kwargs.get("channel_axis") is not None:
                raise TypeError(f"{name}: multichannel={flag!r} is the old form of channel_axis= "
                                f"(got channel_axis={kwargs['channel_axis']!r} too); give one")
            kwargs["channel_axis"] = -1 if flag else None
        return current(*args, **kwargs)
    return call


def _takes_channel_axis_only(value: Any) -> bool:
    """True for a function with ``channel_axis`` and without ``multichannel``."""
    return inspect.isfunction(value) and accepts(value, "channel_axis") and not accepts(value, "multichannel")


def _entry(module: str, name: str) -> Replaced:
    """The wrapper entry of ``module.name``: 0.16's ``rgb2gray`` for that one, the renamed keywords of
    :data:`RENAMED_KEYWORDS`, ``multichannel=`` where today's function takes ``channel_axis``."""
    renames = RENAMED_KEYWORDS.get(module, {}).get(name, {})
    old_gray = module == "skimage.color" and name == "rgb2gray"

    def needed(current: Any) -> bool:
        return (old_gray or any(not accepts(current, old) for old in renames)
                or _takes_channel_axis_only(current))

    def make(current: Callable[..., Any]) -> Callable[..., Any]:
        call = _old_keywords(current, renames, _takes_channel_axis_only(current))
        return wrapper(current, _old_rgb2gray(call) if old_gray else call)

    parts = [f"{name}({new}=)" for new in renames.values()] or [f"{name}(channel_axis=-1 or None)"]
    return Replaced(", ".join(parts), needed, make)


def _wrap(module_name: str, name: str, value: Any) -> Any | None:
    """The wrapper of ``module_name.name`` (``value``) if its old calls need one, else None."""
    if not inspect.isfunction(value):
        return None
    entry = _entry(module_name, name)
    if module_name not in MULTICHANNEL_MODULES and name not in RENAMED_KEYWORDS.get(module_name, {}):
        return None
    return entry.make(value) if entry.needed(value) else None


def _replaced_entry(module_name: str, name: str, value: Any) -> Replaced | None:
    """The entry of a loaded function that takes ``channel_axis``, a renamed keyword or is 0.16's
    ``rgb2gray``, else None."""
    return _entry(module_name, name) if _wrap(module_name, name, value) is not None else None


# --------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------

#: module -> removed name -> what it was.
REMOVED: dict[str, dict[str, Removed]] = {
    "skimage.measure": {
        "compare_mse": Removed("skimage.metrics.mean_squared_error", const(compare_mse)),
        "compare_nrmse": Removed("skimage.metrics.normalized_root_mse(normalization=)", const(compare_nrmse)),
        "compare_psnr": Removed("skimage.metrics.peak_signal_noise_ratio(data_range=)", const(compare_psnr)),
        "compare_ssim": Removed("skimage.metrics.structural_similarity(data_range=, channel_axis=)",
                                const(compare_ssim)),
    },
    "skimage.color": {
        "rgb2grey": Removed("skimage.color.rgb2gray", const(rgb2grey)),
        "grey2rgb": Removed("skimage.color.gray2rgb", const(grey2rgb)),
    },
    "skimage.draw": {"circle": Removed("skimage.draw.disk((r, c), radius, shape=)", const(circle))},
    "skimage.feature": {
        "register_translation": Removed("skimage.registration.phase_cross_correlation(normalization=None)",
                                        const(register_translation)),
        "greycomatrix": Removed("skimage.feature.graycomatrix", _attr("skimage.feature.graycomatrix")),
        "greycoprops": Removed("skimage.feature.graycoprops", _attr("skimage.feature.graycoprops")),
    },
    "skimage.filters": {
        "threshold_adaptive": Removed("image > skimage.filters.threshold_local(image, block_size)",
                                      const(threshold_adaptive)),
    },
    "skimage.morphology": {"watershed": Removed("skimage.segmentation.watershed",
                                                _attr("skimage.segmentation.watershed"))},
    "skimage.util": {
        "pad": Removed("numpy.pad", const(np.pad)),
        "montage2d": Removed("skimage.util.montage", const(montage2d)),
    },
}

#: owner -> name -> when today's value refuses the old call, and the wrapper that accepts it
#: (computed from each loaded module: :class:`compat.library_legacy.lazy.PerModuleTable`).
REPLACED: Mapping[str, Mapping[str, Replaced]] = PerModuleTable(
    {*MULTICHANNEL_MODULES, *RENAMED_KEYWORDS}, _replaced_entry, _wrap, "today's keywords")

#: Call name -> old keyword -> today's spelling, for ``compat check`` (``multichannel`` on any call).
OLD_KEYWORDS: dict[str, dict[str, str]] = {
    "compare_ssim": {"dynamic_range": "data_range"},
    "compare_psnr": {"dynamic_range": "data_range"},
    **{name: dict(renames) for names in RENAMED_KEYWORDS.values() for name, renames in names.items()},
}
