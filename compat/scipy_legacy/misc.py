"""``scipy.misc``'s image helpers as SciPy 1.2 had them, for legacy scripts (``from scipy import misc``).

The implementation is the pipelines' own image operation,
:mod:`tf1_pipelines.image.pilutil` (seed 000 resizes with it); this module is
the name the compat runner serves and old call sites import.
"""
from __future__ import annotations

from tf1_pipelines.image.pilutil import (
    bytescale,
    fromimage,
    imfilter,
    imread,
    imresize,
    imrotate,
    imsave,
    toimage,
)

__all__ = ["bytescale", "fromimage", "imfilter", "imread", "imresize", "imrotate", "imsave", "toimage"]
