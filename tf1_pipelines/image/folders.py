"""One rule for the folders of images every pipeline reads.

* the image files of a folder are its ``.png``, ``.jpg`` and ``.jpeg`` files, the
  extension in any case (``0001.PNG`` too): the formats that every reader of the
  project decodes (PIL in the converters, ``tf.image.decode_jpeg`` in the
  graphs);
* a symbolic link whose target is missing is a DataError naming the link (not
  skipped silently, not a raw ``FileNotFoundError`` later);
* an image of more pixels than ``PIL.Image.MAX_IMAGE_PIXELS`` (a decompression
  bomb), a file that is not an image and a truncated image are DataErrors
  naming the file, decided without decoding a bomb's pixels
  (:mod:`tf1_pipelines.image.open_image`);
* only 8-bit images are taken (PIL modes ``1``, ``L``, ``P``, ``RGB``, ``RGBA``,
  ``LA``, ``PA``): a 16-bit PNG is a DataError naming the file and its mode,
  in every pipeline (a graph decoder would scale it down to 8 bits silently).

Sub-folders and other files are left out.
"""
from __future__ import annotations

import os

from tf1_pipelines.errors import DataError
from tf1_pipelines.image.open_image import open_image

#: The image file extensions of every folder reader (compared in lower case).
IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg")
#: PIL modes of 8-bit images.
EIGHT_BIT_MODES = ("1", "L", "P", "RGB", "RGBA", "LA", "PA")


def is_image_name(name: str) -> bool:
    """True if the file name has one of :data:`IMAGE_EXTENSIONS`, in any case."""
    return name.lower().endswith(IMAGE_EXTENSIONS)


def check_eight_bit(path: str) -> None:
    """DataError naming ``path`` if it cannot be opened as an image, has more pixels
    than the limit (:mod:`~tf1_pipelines.image.open_image`) or is not 8-bit (reads
    the header only)."""
    with open_image(path) as im:
        mode = im.mode
    if mode not in EIGHT_BIT_MODES:
        raise DataError(f"image has PIL mode {mode!r}, not 8 bits per channel; every pipeline "
                        f"takes 8-bit images only (modes {', '.join(EIGHT_BIT_MODES)})", path=path)


def image_files(directory: str | os.PathLike[str], check_depth: bool = True) -> list[str]:
    """Sorted paths of the image files of ``directory`` (see the module doc).

    DataError when the folder is missing, for a dangling symbolic link among its
    image names, and (``check_depth``) for an image that is not 8-bit. An empty
    list when it holds no image; the caller says what it needed."""
    directory = os.fspath(directory)
    if not os.path.isdir(directory):
        raise DataError("image directory does not exist", path=directory)
    found = []
    for name in sorted(os.listdir(directory)):
        if not is_image_name(name):
            continue
        path = os.path.join(directory, name)
        if os.path.islink(path) and not os.path.exists(path):
            raise DataError(f"is a symbolic link to {os.readlink(path)!r}, which does not exist",
                            path=path)
        if not os.path.isfile(path):
            continue
        if check_depth:
            check_eight_bit(path)
        found.append(path)
    return found
