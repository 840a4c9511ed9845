"""The uses of removed scikit-image names and arguments in one module, for ``compat check``.

Everything comes from the table of :mod:`compat.skimage_legacy.removed`; scikit-image is not imported.
"""
from __future__ import annotations

from compat.library_legacy.uses import Uses, finder
from compat.skimage_legacy import removed

__all__ = ["USES", "find_uses"]

USES = Uses(
    library="scikit-image",
    roots=("skimage",),
    removed={module: {name: entry.replacement for name, entry in names.items()}
             for module, names in removed.REMOVED.items()},
    keywords={**removed.OLD_KEYWORDS, "*": {"multichannel": "channel_axis=-1 (True) or None (False)"}},
)

#: The surface's ``uses`` hook.
find_uses = finder(USES)
