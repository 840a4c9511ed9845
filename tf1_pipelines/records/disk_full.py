"""A full disk as one line: which folder, how much the write needed, what is left.

No TensorFlow here: the data sets' builder and the cache command use it too.
"""
from __future__ import annotations

import errno
import shutil


def human_bytes(count: int) -> str:
    """``count`` bytes as e.g. '3.2 MB' (decimal units)."""
    if count < 1000:
        return f"{count} B"
    value = count / 1000
    for unit in ("kB", "MB"):
        if value < 1000:
            return f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} GB"


def disk_full(folder: str, written: int, exc: BaseException | None = None) -> OSError:
    """The OSError (ENOSPC) of a write into ``folder`` that filled the disk after
    ``written`` bytes: one line naming the folder, the space it needed at least and
    the space left."""
    try:
        free = human_bytes(shutil.disk_usage(folder).free)
    except OSError:
        free = "unknown"
    detail = f" ({exc})" if exc is not None and str(exc) else ""
    return OSError(errno.ENOSPC,
                   f"no space left on the disk of folder {folder!r}: the write needed more than "
                   f"the {human_bytes(written)} it had written when the disk filled ({free} "
                   f"free now); nothing was published - free space or write elsewhere{detail}")


def is_disk_full(exc: BaseException) -> bool:
    """True for an OSError of a full disk (or of a used-up quota)."""
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)
