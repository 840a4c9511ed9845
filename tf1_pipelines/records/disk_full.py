"""A full disk as one line: which folder, how much the write needed, what is left.

No TensorFlow here: the data sets' builder and the cache command use it too.
"""
from __future__ import annotations

import contextlib
import errno
import os
import shutil
from collections.abc import Callable, Iterator


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


def file_size(path: str | None) -> int:
    """The size of the regular file ``path`` (0 if there is none): what a write had written."""
    return os.path.getsize(path) if path is not None and os.path.isfile(path) else 0


@contextlib.contextmanager
def named_when_full(folder: str, written: Callable[[], int]) -> Iterator[None]:
    """Within the block, a full disk becomes :func:`disk_full`'s one line naming ``folder``
    (``written()``: the bytes written when it filled); every other error passes unchanged."""
    try:
        yield
    except OSError as exc:
        if not is_disk_full(exc):
            raise
        raise disk_full(folder, written()) from exc
