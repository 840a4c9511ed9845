"""A folder a command cannot write, also when the tests run as root (as CI does).

Permission bits do not stop root, so for root the command runs in a private
mount namespace (``unshare --mount``, whose mounts are private by default) where
the folder is bind-mounted read-only over itself: its writes fail with EROFS,
and nothing changes outside that one process. Other users get ``chmod 0o555``
for the duration (writes fail with EACCES).

    with read_only(folder) as prefix:
        subprocess.run([*prefix, sys.executable, "-m", "compat", ...])
"""
from __future__ import annotations

import contextlib
import errno
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

#: The errors a write into the folder gets: EROFS under the read-only mount, EACCES by the bits.
WRITE_ERRNOS = (errno.EROFS, errno.EACCES)
_MOUNT_THEN_RUN = 'mount --bind -o ro "$0" "$0" && exec "$@"'


def _namespace_prefix(folder: Path) -> list[str]:
    unshare = shutil.which("unshare")
    if unshare is None:
        raise RuntimeError("running as root and `unshare` (util-linux) is missing: a read-only folder "
                           "cannot be made for this test")
    return [unshare, "--mount", "sh", "-c", _MOUNT_THEN_RUN, str(folder)]


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[list[str]]:
    """A command prefix under which ``folder`` cannot be written (see the module docstring)."""
    if os.geteuid() == 0:
        yield _namespace_prefix(folder)
        return
    mode = folder.stat().st_mode
    folder.chmod(0o555)
    try:
        yield []
    finally:
        folder.chmod(mode)
