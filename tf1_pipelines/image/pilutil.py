"""Faithful stand-ins for the image helpers removed from ``scipy.misc``.

SciPy 1.2 was the last release with ``scipy.misc.imread``, ``imresize``,
``imsave``, ``toimage``, ``bytescale`` and ``fromimage`` (they lived in
``scipy/misc/pilutil.py`` and were thin wrappers around PIL). Legacy input
pipelines call them everywhere, often with surprising side effects that the
data depends on, for example:

* ``imresize`` of a float array without ``mode`` first min-max rescales it to
  uint8 (``bytescale``), so the result depends on that image's own min and max;
* ``imresize(x, s, 'bicubic', mode='F')`` keeps a 2-D float image unscaled and
  resizes it as a float32 Pillow 'F' image (antialiased on a downscale);
* an int ``size`` is a percentage, a float is a fraction (the new size is
  truncated, not rounded), a tuple is ``(rows, cols)``;
* ``imsave`` of a float array stretches it to the full 0..255 range.

This module re-implements those semantics on today's Pillow, so old call sites
produce the same arrays. Import it in place of ``scipy.misc``::

    from tf1_pipelines.image import pilutil as misc
    lr = misc.imresize(hr, 0.25, interp='bicubic', mode='F')

(The compat runner serves it to old scripts as ``scipy.misc``, through
:mod:`compat.scipy_legacy.misc`.)

Where SciPy 1.2 crashed with an unhelpful error (``KeyError`` for an unknown
``interp``, ``UnboundLocalError`` for a negative ``channel_axis``, ...) these
functions raise ``ValueError``/``TypeError`` that state the value given and what
is valid. Deliberate differences from SciPy 1.2, all for inputs where SciPy
produced garbage or crashed:

* ``bytescale`` on integer arrays works in float64, so wide int16/int32 ranges
  no longer wrap around; non-finite ``cmin``/``cmax`` (NaN or inf in the data)
  raise ``ValueError`` instead of silently giving an all-zero image; ``bool``
  arrays raise ``TypeError`` (SciPy failed inside NumPy).
* ``toimage(..., mode='1')`` thresholds ``data > high`` as documented; SciPy
  handed one byte per pixel to a decoder expecting packed bits.
* ``toimage(..., mode='I')`` of a constant array (``cmax == cmin``) raises
  ``ValueError``; SciPy divided by zero and cast NaN to integers.
* ``imresize`` takes a size sequence of length 2 or 3 only (``(rows, cols)``
  or an image's ``shape``; SciPy silently used the first two entries of any
  sequence), accepts unsigned NumPy integers as a percentage (SciPy crashed),
  and rejects a size that would give an empty image before Pillow does.

``imrotate`` and ``imfilter`` are included because they are two-line wrappers.
``imshow`` is omitted on purpose: it wrote a temporary file and shelled out to
an external viewer named by an environment variable, which is no part of an
input pipeline; use matplotlib's ``plt.imshow`` instead.
"""
from __future__ import annotations

import numbers
import os
from collections.abc import Sequence
from typing import IO, Any, TypeGuard

import numpy as np
from numpy.typing import ArrayLike, NDArray
from PIL import Image, ImageFilter

from tf1_pipelines.image.pixel_limit import too_many_pixels

__all__ = [
    "bytescale",
    "fromimage",
    "imfilter",
    "imread",
    "imresize",
    "imrotate",
    "imsave",
    "toimage",
]

#: A file name, a path object or an open binary file.
ImageSource = str | bytes | os.PathLike | IO[bytes]
#: ``imresize`` size: int percent, float fraction, or (rows, cols[, channels]).
SizeSpec = int | float | Sequence[int]

# SciPy mapped these names to PIL's numeric filter constants 0..3.
_RESAMPLE = {
    "nearest": Image.Resampling.NEAREST,
    "lanczos": Image.Resampling.LANCZOS,
    "bilinear": Image.Resampling.BILINEAR,
    "bicubic": Image.Resampling.BICUBIC,
    "cubic": Image.Resampling.BICUBIC,
}
# Pillow's rotate() supports no lanczos filter (it did not in 2018 either).
_ROTATE_RESAMPLE = {k: v for k, v in _RESAMPLE.items() if k != "lanczos"}

_MODES_2D = (None, "L", "P", "F", "I", "1")
# Modes for a 3-D array, with the number of channels each one needs.
_MODES_3D = {"RGB": 3, "YCbCr": 3, "RGBA": 4, "CMYK": 4}

_FILTERS = {
    "blur": ImageFilter.BLUR,
    "contour": ImageFilter.CONTOUR,
    "detail": ImageFilter.DETAIL,
    "edge_enhance": ImageFilter.EDGE_ENHANCE,
    "edge_enhance_more": ImageFilter.EDGE_ENHANCE_MORE,
    "emboss": ImageFilter.EMBOSS,
    "find_edges": ImageFilter.FIND_EDGES,
    "smooth": ImageFilter.SMOOTH,
    "smooth_more": ImageFilter.SMOOTH_MORE,
    "sharpen": ImageFilter.SHARPEN,
}


# --------------------------------------------------------------------------
# bytescale
# --------------------------------------------------------------------------

def _python_scalar(value: Any) -> Any:
    """Turn a NumPy scalar or 0-d array into the equivalent Python number.

    NumPy 1.x decided the result dtype of ``array - scalar`` by the scalar's
    value, so a float64 ``cmin`` did not upcast a float32 image. NumPy 2 lets
    NumPy scalars upcast; Python numbers still behave the old way.
    """
    if isinstance(value, (np.generic, np.ndarray)) and np.ndim(value) == 0:
        return value.item()
    return value


def _data_limit(data: np.ndarray, given: Any, reduce: str) -> Any:
    """``cmin``/``cmax``: the value given, or the data's own min/max."""
    if given is not None:
        return _python_scalar(given)
    if data.size == 0:
        raise ValueError(
            f"cannot take the {reduce} of an empty array "
            f"(shape {data.shape}); pass cmin and cmax explicitly")
    value = getattr(data, reduce)()
    # Integer limits become Python ints so cmax - cmin cannot overflow; float
    # limits keep their dtype so the range is rounded exactly as SciPy did.
    if np.issubdtype(data.dtype, np.integer):
        return int(value)
    return value


def _check_scalable(data: np.ndarray) -> None:
    """Reject dtypes that have no meaningful linear scaling to bytes."""
    if data.dtype == np.bool_:
        raise TypeError(
            "bytescale: boolean arrays cannot be scaled; convert first, e.g. "
            "(mask * 255).astype(np.uint8)")
    if not (np.issubdtype(data.dtype, np.integer)
            or np.issubdtype(data.dtype, np.floating)):
        raise TypeError(
            f"bytescale: expected an integer or floating-point array, got "
            f"dtype {data.dtype}")


def _check_byte_range(high: Any, low: Any) -> None:
    if high > 255:
        raise ValueError(f"bytescale: high={high!r} must be <= 255")
    if low < 0:
        raise ValueError(f"bytescale: low={low!r} must be >= 0")
    if high < low:
        raise ValueError(
            f"bytescale: high={high!r} must be >= low={low!r}")


def bytescale(data: ArrayLike, cmin: float | None = None,
              cmax: float | None = None, high: int = 255,
              low: int = 0) -> NDArray[np.uint8]:
    """Linearly map ``[cmin, cmax]`` to ``[low, high]`` and round to uint8.

    ``cmin``/``cmax`` default to the array's own minimum and maximum; values
    outside them are clipped. When ``cmax == cmin`` the range is taken as 1, so
    a constant array becomes all ``low``. Rounding is half up
    (``floor(x + 0.5)``), computed in float32 for float32 input (as SciPy did)
    and in float64 for integer input.

    A uint8 array is returned as is: the same object, not scaled, not copied.

    Returns:
        uint8 array of the same shape as ``data``, values in ``[low, high]``.

    Raises:
        ValueError: ``high > 255``, ``low < 0``, ``high < low``,
            ``cmax < cmin``, a non-finite limit, or an empty array without
            explicit limits.
        TypeError: a boolean, complex or non-numeric array.
    """
    data = np.asarray(data)
    if data.dtype == np.uint8:
        return data
    _check_scalable(data)
    _check_byte_range(high, low)
    cmin = _data_limit(data, cmin, "min")
    cmax = _data_limit(data, cmax, "max")
    if not (np.isfinite(cmin) and np.isfinite(cmax)):
        raise ValueError(
            f"bytescale: cmin={cmin!r} and cmax={cmax!r} must be finite; the "
            "data contains NaN or inf, so pass finite limits explicitly")
    cscale = cmax - cmin
    if cscale < 0:
        raise ValueError(
            f"bytescale: cmax={cmax!r} must be >= cmin={cmin!r}")
    if cscale == 0:
        cscale = 1
    scale = float(high - low) / float(cscale)
    if np.issubdtype(data.dtype, np.integer):
        # SciPy subtracted in the integer dtype (and wrapped around on wide
        # ranges); float64 gives the same values wherever SciPy's were sane.
        data = data.astype(np.float64)
    scaled = (data - _python_scalar(cmin)) * scale + low
    return (scaled.clip(low, high) + 0.5).astype(np.uint8)


# --------------------------------------------------------------------------
# toimage / fromimage
# --------------------------------------------------------------------------

def _pil_size(shape: Sequence[int]) -> tuple[int, int]:
    """PIL sizes are (width, height): columns first."""
    return (int(shape[1]), int(shape[0]))


def _palette_bytes(pal: ArrayLike) -> bytes:
    """Validate a palette given as (N, 3) RGB values 0..255, N <= 256."""
    values = np.asarray(pal)
    if values.size % 3 or values.size > 768 or values.size == 0:
        raise ValueError(
            f"toimage: pal must hold 1..256 RGB triplets, got {values.size} "
            f"values (shape {values.shape})")
    if values.min() < 0 or values.max() > 255:
        raise ValueError(
            f"toimage: pal values must be in 0..255, got "
            f"{values.min()}..{values.max()}")
    return values.astype(np.uint8).tobytes()


def _grey_palette() -> bytes:
    """The identity grey ramp SciPy attached for ``mode='P'`` without pal."""
    return np.repeat(np.arange(256, dtype=np.uint8), 3).tobytes()


def _stretch_to_int32(data: np.ndarray, high: Any, low: Any, cmin: Any,
                      cmax: Any) -> bytes:
    """Mode 'I': map [cmin, cmax] to [low, high] without clipping or rounding.

    The operation order is SciPy's, so float rounding matches.
    """
    cmin = _data_limit(data, cmin, "min")
    cmax = _data_limit(data, cmax, "max")
    if not cmax > cmin:
        # SciPy divided by zero here and cast NaN to integers (garbage).
        raise ValueError(
            f"toimage: mode='I' needs cmax > cmin, got cmin={cmin!r}, "
            f"cmax={cmax!r} (a constant image?); pass cmin and cmax explicitly")
    stretched = (data * 1.0 - cmin) * (high - low) / (cmax - cmin) + low
    return stretched.astype(np.uint32).tobytes()


def _toimage_2d(data: np.ndarray, high: Any, low: Any, cmin: Any, cmax: Any,
                pal: ArrayLike | None, mode: str | None) -> Image.Image:
    size = _pil_size(data.shape)
    if mode == "F":
        # Unscaled: the float values go into the image as they are.
        return Image.frombytes("F", size, data.astype(np.float32).tobytes())
    if mode in (None, "L", "P"):
        scaled = bytescale(data, cmin=cmin, cmax=cmax, high=high, low=low)
        image = Image.frombytes("L", size, np.ascontiguousarray(scaled).tobytes())
        if pal is not None:
            image.putpalette(_palette_bytes(pal))  # turns the image into 'P'
        elif mode == "P":
            image.putpalette(_grey_palette())
        return image
    if mode == "1":
        mask = (data > high).astype(np.uint8)
        return Image.frombytes("1", size, mask.tobytes(), "raw", "1;8")
    if mode == "I":
        return Image.frombytes("I", size, _stretch_to_int32(data, high, low, cmin, cmax))
    raise ValueError(
        f"toimage: mode={mode!r} is not valid for a 2-D array; use one of "
        f"{list(_MODES_2D)}")


def _channel_axis(shape: Sequence[int], channel_axis: int | None) -> int:
    """The axis holding colour channels: given, else the first of length 3, else 4."""
    if channel_axis is None:
        for length in (3, 4):
            if length in shape:
                return list(shape).index(length)
        raise ValueError(
            f"toimage: could not find a channel axis of length 3 or 4 in shape "
            f"{tuple(shape)}")
    if (isinstance(channel_axis, bool) or not isinstance(channel_axis, numbers.Integral)
            or not -3 <= channel_axis <= 2):
        raise ValueError(
            f"toimage: channel_axis={channel_axis!r} is not valid for a 3-D "
            "array; use 0, 1, 2 (or -3..-1) or None")
    return int(channel_axis) % 3


def _toimage_3d(data: np.ndarray, high: Any, low: Any, cmin: Any, cmax: Any,
                mode: str | None, channel_axis: int | None) -> Image.Image:
    axis = _channel_axis(data.shape, channel_axis)
    channels = data.shape[axis]
    if channels not in (3, 4):
        raise ValueError(
            f"toimage: channel axis {axis} of shape {data.shape} has length "
            f"{channels}; it must have length 3 or 4")
    if mode is None:
        mode = "RGB" if channels == 3 else "RGBA"
    if mode not in _MODES_3D:
        raise ValueError(
            f"toimage: mode={mode!r} is not valid for a 3-D array of shape "
            f"{data.shape}; use one of {sorted(_MODES_3D)} (mode 'F', 'L', 'I' "
            "need a 2-D array: convert or split the channels first)")
    if _MODES_3D[mode] != channels:
        raise ValueError(
            f"toimage: mode={mode!r} needs {_MODES_3D[mode]} channels, but the "
            f"channel axis of shape {data.shape} has {channels}")
    scaled = bytescale(data, cmin=cmin, cmax=cmax, high=high, low=low)
    pixels = np.ascontiguousarray(np.moveaxis(scaled, axis, -1))
    return Image.frombytes(mode, _pil_size(pixels.shape), pixels.tobytes())


def toimage(arr: ArrayLike, high: int = 255, low: int = 0,
            cmin: float | None = None, cmax: float | None = None,
            pal: ArrayLike | None = None, mode: str | None = None,
            channel_axis: int | None = None) -> Image.Image:
    """Turn a 2-D or 3-D array into a PIL image, SciPy 1.2 style.

    2-D arrays:

    * ``mode='F'``: float32 'F' image of the values as they are (no scaling);
    * ``mode`` None, 'L' or 'P': ``bytescale(arr, cmin, cmax, high, low)`` into
      an 'L' image; with ``pal`` (N x 3 RGB bytes) or ``mode='P'`` (grey ramp)
      the image becomes 'P';
    * ``mode='1'``: bilevel image of ``arr > high``;
    * ``mode='I'``: int32 image of ``arr`` linearly mapped from
      ``[cmin, cmax]`` to ``[low, high]`` (truncated, not clipped).

    3-D arrays: the channel axis is ``channel_axis`` or else the first axis of
    length 3, else of length 4. The whole array is bytescaled (one min/max for
    all channels) into an 'RGB'/'RGBA' image (or 'YCbCr'/'CMYK' when asked).

    Returns:
        A ``PIL.Image.Image`` whose size is (cols, rows) of the array.

    Raises:
        ValueError: complex data, a shape that is neither 2-D nor 3-D with a
            channel axis of length 3 or 4, or a mode that does not fit the
            shape (for example ``mode='F'`` on a 3-D array).
    """
    data = np.asarray(arr)
    if np.iscomplexobj(data):
        raise ValueError(
            "toimage: cannot convert a complex-valued array; take np.abs() or "
            ".real first")
    if data.ndim == 2:
        return _toimage_2d(data, high, low, cmin, cmax, pal, mode)
    if data.ndim == 3 and (3 in data.shape or 4 in data.shape):
        return _toimage_3d(data, high, low, cmin, cmax, mode, channel_axis)
    raise ValueError(
        f"toimage: array of shape {data.shape} is not an image; expected 2-D "
        "(rows, cols) or 3-D with a channel axis of length 3 or 4")


def _convert(im: Image.Image, mode: str) -> Image.Image:
    """``im.convert(mode)`` with an error that names both modes."""
    try:
        return im.convert(mode)
    except ValueError as exc:
        raise ValueError(
            f"cannot convert a mode {im.mode!r} image to mode={mode!r} ({exc}); "
            "common modes are 'L', 'P', 'RGB', 'RGBA', 'CMYK', 'YCbCr', 'I', "
            "'F', '1'") from exc


def fromimage(im: Image.Image, flatten: bool = False,
              mode: str | None = None) -> np.ndarray:
    """Copy a PIL image into a new array, SciPy 1.2 style.

    ``mode``, when given and different, converts the image first. Without
    ``mode`` a palette ('P') image becomes 'RGBA' if it has transparency, else
    'RGB'. ``flatten=True`` then converts to 'F' (ITU-R 601-2 luma
    ``0.299 R + 0.587 G + 0.114 B``, not rounded). A bilevel '1' image becomes
    'L' (0 or 255).

    Returns:
        (rows, cols) for single-band modes, (rows, cols, bands) otherwise.
        dtype follows the mode: uint8 for 'L'/'RGB'/'RGBA'/'P', float32 for 'F'
        (flatten) with values 0..255 for 8-bit sources, int32 for 'I',
        uint16 for 'I;16'.

    Raises:
        TypeError: ``im`` is not a PIL image.
        ValueError: Pillow cannot convert to ``mode``.
    """
    if not isinstance(im, Image.Image):
        raise TypeError(
            f"fromimage: expected a PIL.Image.Image, got {type(im).__name__}")
    if mode is not None:
        if mode != im.mode:
            im = _convert(im, mode)
    elif im.mode == "P":
        # Palette indices are useless as pixel values; expand the palette.
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    if flatten:
        im = im.convert("F")
    elif im.mode == "1":
        im = im.convert("L")
    return np.array(im)


# --------------------------------------------------------------------------
# imread / imsave
# --------------------------------------------------------------------------

def _describe(name: object) -> str:
    """How to name a file source in an error message."""
    if isinstance(name, (str, bytes, os.PathLike)):
        return repr(os.fsdecode(name))
    return repr(getattr(name, "name", name))


def _open_loaded(name: ImageSource) -> Image.Image:
    """Open and decode an image, with errors that name the file."""
    if not isinstance(name, (str, bytes, os.PathLike)) and not hasattr(name, "read"):
        raise TypeError(
            f"imread: name must be a file name, path or binary file object, "
            f"got {type(name).__name__}")
    try:
        im = Image.open(name)
    except FileNotFoundError:
        raise  # its message already names the file
    except Image.DecompressionBombError as exc:
        raise OSError(f"imread: {_describe(name)}: too many pixels ({exc}); a decompression "
                      "bomb, or an image too big to decode; nothing was decoded") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise OSError(f"imread: cannot open image file {_describe(name)}: {exc}") from exc
    refusal = too_many_pixels(*im.size)  # the project's one rule: a bomb is never decoded
    if refusal is not None:
        im.close()
        raise OSError(f"imread: {_describe(name)}: {refusal}")
    try:
        im.load()  # decode now, so a truncated file fails here, not later
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        im.close()
        raise OSError(f"imread: cannot decode image file {_describe(name)}: {exc}") from exc
    return im


def imread(name: ImageSource, flatten: bool = False,
           mode: str | None = None) -> np.ndarray:
    """Read an image file into an array, SciPy 1.2 style.

    Opens ``name`` with Pillow, converts to ``mode`` if given, expands palette
    images to RGB (RGBA when they have transparency) and, with
    ``flatten=True``, converts to 'F' luma. See :func:`fromimage`.

    Returns:
        uint8 (rows, cols) for grey images, (rows, cols, 3) for RGB,
        (rows, cols, 4) for RGBA/CMYK, values 0..255; float32 (rows, cols)
        0..255 with ``flatten=True``; uint16 for 16-bit greyscale PNGs.

    Raises:
        FileNotFoundError: the file does not exist.
        OSError: the file is not an image Pillow can decode (message names it).
        ValueError: ``mode`` is not a mode the image converts to.
    """
    with _open_loaded(name) as im:
        return fromimage(im, flatten=flatten, mode=mode)


def _save(im: Image.Image, name: ImageSource, format: str | None) -> None:
    """``im.save`` with errors that name the target and the format."""
    try:
        im.save(name, format)
    except KeyError as exc:
        # Pillow reports an unknown format name as a bare KeyError.
        raise ValueError(
            f"imsave: unknown image format={format!r} for {_describe(name)}; use "
            "a Pillow format name such as 'PNG', 'JPEG', 'BMP', 'TIFF'") from exc
    except ValueError as exc:
        raise ValueError(
            f"imsave: cannot choose a format for {_describe(name)} ({exc}); use "
            "a known extension or pass format=") from exc
    except OSError as exc:
        if exc.filename is not None:
            raise  # an errno error that already names the path
        raise OSError(
            f"imsave: cannot write a mode {im.mode!r} image to {_describe(name)}: "
            f"{exc}") from exc


def imsave(name: ImageSource, arr: ArrayLike, format: str | None = None) -> None:
    """Write an array as an image file, SciPy 1.2 style.

    The array goes through ``toimage(arr, channel_axis=2)``: a 2-D array is
    saved as greyscale, (rows, cols, 3) as RGB, (rows, cols, 4) as RGBA, and
    any dtype other than uint8 is first **min-max stretched** to 0..255 by
    :func:`bytescale` (so a float image in 0..1 is saved at full contrast, and
    a constant float image is saved as zeros). ``format`` overrides the format
    chosen from the file name; it is required for file objects. Pillow deletes
    a file it created if writing fails.

    Returns:
        None.

    Raises:
        ValueError: a shape toimage cannot handle, an unknown extension or
            format.
        OSError: Pillow cannot write this image mode in this format.
    """
    _save(toimage(arr, channel_axis=2), name, format)


# --------------------------------------------------------------------------
# imresize / imrotate / imfilter
# --------------------------------------------------------------------------

def _resample(func: str, interp: str, table: dict) -> Image.Resampling:
    """PIL filter for ``interp``; SciPy raised a bare KeyError instead."""
    if not isinstance(interp, str) or interp not in table:
        raise ValueError(f"{func}: interp={interp!r} is not valid; use one of {list(table)}")
    return table[interp]


def _is_int(value: object) -> TypeGuard[numbers.Integral | np.integer]:
    # bool is an Integral, but size=True is surely a mistake.
    return isinstance(value, (numbers.Integral, np.integer)) and not isinstance(
        value, (bool, np.bool_))


def _size_from_tuple(size: Sequence[Any]) -> tuple[int, int]:
    """(rows, cols) or (rows, cols, channels) -> PIL (width, height)."""
    if len(size) not in (2, 3):
        raise ValueError(
            f"imresize: size={tuple(size)!r} must be (rows, cols) or "
            "(rows, cols, channels)")
    rows, cols = size[0], size[1]
    if not (_is_int(rows) and _is_int(cols)):
        raise TypeError(
            f"imresize: size={tuple(size)!r} must hold integers (rows, cols); "
            "pass a float scalar for a fraction of the current size")
    return (int(cols), int(rows))


def _pair(values: NDArray[Any]) -> tuple[int, int]:
    """The two entries of ``values`` as Python ints."""
    return int(values[0]), int(values[1])


def _target_size(current: tuple[int, int], size: SizeSpec) -> tuple[int, int]:
    """New PIL (width, height) from SciPy's int / float / tuple size."""
    if _is_int(size):
        # Percent: SciPy divided by 100.0, then truncated like for a float.
        return _pair((np.array(current) * (size / 100.0)).astype(int))
    if isinstance(size, (float, np.floating)):
        if not np.isfinite(size):
            raise ValueError(f"imresize: size={size!r} must be a finite fraction")
        return _pair((np.array(current) * size).astype(int))
    if isinstance(size, (tuple, list, np.ndarray)):
        return _size_from_tuple(size)
    raise TypeError(
        f"imresize: size={size!r} ({type(size).__name__}) is not valid; use an "
        "int percentage, a float fraction or a (rows, cols) tuple")


def imresize(arr: ArrayLike, size: SizeSpec, interp: str = "bilinear",
             mode: str | None = None) -> np.ndarray:
    """Resize an image array through Pillow, SciPy 1.2 style.

    The array first becomes a PIL image by ``toimage(arr, mode=mode)``: with
    ``mode=None`` any non-uint8 array is **min-max stretched** to uint8;
    ``mode='F'`` keeps a 2-D float image unscaled as float32.

    ``size`` is an int percentage (``50`` halves), a float fraction (``0.25``),
    each giving ``(array(im.size) * fraction).astype(int)`` - truncated, so
    127x93 at 0.25 becomes 31x23 - or a tuple ``(rows, cols)``; a third
    tuple entry (channels, as in ``arr.shape``) is ignored.

    ``interp`` is 'nearest', 'lanczos', 'bilinear', 'bicubic' or 'cubic'
    (= 'bicubic'). Pillow antialiases bilinear, bicubic and lanczos on a
    downscale. Palette ('P') and bilevel ('1') images always use nearest.

    Returns:
        The resized image as an array of shape (rows, cols) or
        (rows, cols, bands): uint8 0..255 for the default path, float32
        (unclipped, may overshoot slightly) for ``mode='F'``, int32 for 'I';
        ``mode='P'`` comes back as (rows, cols, 3) uint8.

    Raises:
        ValueError: unknown ``interp``, a tuple of the wrong length, a size
            that gives an empty image, or any :func:`toimage` error.
        TypeError: a size that is not an int, float or tuple of ints.
    """
    resample = _resample("imresize", interp, _RESAMPLE)
    im = toimage(arr, mode=mode)
    new_size = _target_size(im.size, size)
    if min(new_size) < 1:
        raise ValueError(
            f"imresize: size={size!r} turns a {im.size[1]}x{im.size[0]} "
            f"(rows x cols) image into {new_size[1]}x{new_size[0]}; both must be >= 1")
    return fromimage(im.resize(new_size, resample=resample))


def imrotate(arr: ArrayLike, angle: float, interp: str = "bilinear") -> np.ndarray:
    """Rotate an image counter-clockwise by ``angle`` degrees, SciPy 1.2 style.

    The array goes through ``toimage(arr)`` (non-uint8 input is min-max
    stretched to uint8); the output keeps the input size, corners filled with
    0. ``interp`` is 'nearest', 'bilinear', 'bicubic' or 'cubic'.

    Returns:
        uint8 array of the input's (rows, cols[, bands]) shape, values 0..255.
    """
    resample = _resample("imrotate", interp, _ROTATE_RESAMPLE)
    return fromimage(toimage(arr).rotate(angle, resample=resample))


def imfilter(arr: ArrayLike, ftype: str) -> np.ndarray:
    """Apply one of PIL's fixed 3x3/5x5 filters, SciPy 1.2 style.

    ``ftype`` is one of 'blur', 'contour', 'detail', 'edge_enhance',
    'edge_enhance_more', 'emboss', 'find_edges', 'smooth', 'smooth_more',
    'sharpen'. The array goes through ``toimage(arr)`` first.

    Returns:
        uint8 array of the input's (rows, cols[, bands]) shape, values 0..255.
    """
    if not isinstance(ftype, str) or ftype not in _FILTERS:
        raise ValueError(f"imfilter: ftype={ftype!r} is not valid; use one of {list(_FILTERS)}")
    return fromimage(toimage(arr).filter(_FILTERS[ftype]))
