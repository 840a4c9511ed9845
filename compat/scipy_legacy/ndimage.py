"""``scipy.ndimage.imread``, removed in SciPy 1.2, for the compat runner.

It was a deprecated alias of ``scipy.misc.imread`` (read with Pillow); the
runner adds this function as ``imread`` to ``scipy.ndimage`` in its own process
only. Importing this module changes nothing.
"""
from __future__ import annotations

import numpy as np

from tf1_pipelines.image import pilutil as scipy_misc

__all__ = ["imread"]


def imread(fname: scipy_misc.ImageSource, flatten: bool = False, mode: str | None = None) -> np.ndarray:
    """Read an image file into an array, as ``scipy.misc.imread`` (SciPy 1.2 semantics) does.

    Returns the array :func:`tf1_pipelines.image.pilutil.imread` returns (uint8 grey,
    RGB or RGBA; float32 luma with ``flatten=True``).
    """
    return scipy_misc.imread(fname, flatten=flatten, mode=mode)
