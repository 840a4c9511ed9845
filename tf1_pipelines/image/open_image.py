"""One rule for opening an image file with PIL, for every image reader of the project.

* An image of more pixels than ``PIL.Image.MAX_IMAGE_PIXELS`` (89,478,485 by
  default, about 256 MB as RGB; ``None`` lifts the limit, as in PIL) is a
  :class:`~tf1_pipelines.errors.DataError` naming the file, its size and the
  limit, decided from the header before any pixel is decoded: a 40000 x 40000
  PNG of 1.5 MB (a decompression bomb) costs no memory. PIL itself only warns
  between the limit and twice it, and raises its own ``DecompressionBombError``
  above.
* A file that is not an image (a web page saved as ``.png``), a truncated image
  and any other decoding failure is a DataError naming the file.

:func:`open_image` gives the opened image to a ``with`` block (errors raised
while the block decodes it become DataErrors too); :func:`image_problem` says why
encoded bytes (an image stored in a record) do not decode, under the same rule.
"""
from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager

import PIL.Image

from tf1_pipelines.errors import DataError
from tf1_pipelines.image.pixel_limit import too_many_pixels

#: What PIL raises for a broken or unknown file (UnidentifiedImageError is an OSError).
DECODE_ERRORS = (OSError, SyntaxError, ValueError, EOFError, PIL.Image.DecompressionBombError)


def _bomb_size(exc: BaseException) -> str:
    return f"({exc})" if str(exc) else ""


@contextmanager
def open_image(source: str | bytes, path: str | None = None,
               what: str = "image") -> Iterator[PIL.Image.Image]:
    """``PIL.Image.open(source)`` (a file path, or encoded bytes) for the block,
    with the size checked before any pixel is decoded.

    DataError naming ``path`` (default: ``source`` when it is a path) and saying
    ``what`` it is ("image", "mask") for a decompression bomb, a file that is not
    an image, and any decoding error raised inside the block (a truncated file
    fails at ``load()``, ``convert()`` or ``np.asarray``)."""
    name = path if path is not None else (source if isinstance(source, str) else None)
    try:
        im = PIL.Image.open(io.BytesIO(source) if isinstance(source, bytes) else source)
    except PIL.Image.DecompressionBombError as exc:
        raise DataError(f"{what} has too many pixels {_bomb_size(exc)}; a decompression bomb, "
                        "or an image too big to decode (PIL.Image.MAX_IMAGE_PIXELS); nothing "
                        "was decoded", path=name) from None
    except DECODE_ERRORS as exc:
        raise DataError(f"cannot decode {what} ({exc})", path=name) from exc
    with im:
        refusal = too_many_pixels(*im.size)
        if refusal is not None:
            raise DataError(refusal if what == "image" else f"{what}: {refusal}", path=name)
        try:
            yield im
        except DataError:
            raise
        except DECODE_ERRORS as exc:
            raise DataError(f"cannot decode {what} ({exc})", path=name) from exc


def image_problem(data: bytes) -> str | None:
    """Why encoded ``data`` does not decode as an image under the rule above
    (too many pixels included), or None if it decodes."""
    try:
        with open_image(data) as im:
            im.load()
    except DataError as exc:
        return str(exc)
    return None
