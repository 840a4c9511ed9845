"""The most pixels an image may have before anything decodes it (no TensorFlow here:
``pilutil`` uses it too). See :mod:`tf1_pipelines.image.open_image` for the rule."""
from __future__ import annotations

import PIL.Image


def pixel_limit() -> int | None:
    """The most pixels an image may have: ``PIL.Image.MAX_IMAGE_PIXELS`` (None: no limit)."""
    limit = PIL.Image.MAX_IMAGE_PIXELS
    return None if limit is None else int(limit)


def too_many_pixels(width: int, height: int) -> str | None:
    """Why a ``width`` x ``height`` image is refused, or None if it is within the limit."""
    limit = pixel_limit()
    if limit is None or width * height <= limit:
        return None
    return (f"image is {width}x{height} = {width * height:,} pixels, more than the limit of "
            f"{limit:,} (PIL.Image.MAX_IMAGE_PIXELS; a decompression bomb, or an image too big "
            "to decode - raise the limit only for files you trust); nothing was decoded")
