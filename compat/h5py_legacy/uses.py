"""The uses of h5py 2 names and behaviour in one module, for ``compat check``; h5py is not imported."""
from __future__ import annotations

import ast

from compat.h5py_legacy import removed
from compat.library_legacy.uses import Uses, finder
from compat.surfaces.source_pass import short

__all__ = ["USES", "find_uses"]


def _file_without_mode(node: ast.Call, full: str | None) -> tuple[str, str] | None:
    """``h5py.File(name)`` with no mode: h5py 2 opened it read/write."""
    if full not in ("h5py.File", "h5py._hl.files.File") or len(node.args) > 1 \
            or any(k.arg == "mode" for k in node.keywords):
        return None
    return (short(node), "h5py 3 opens a file read-only when no mode is given, h5py 2 read/write; the runner "
                         "opens the script's own File(name) the old way (r+, else r, else a new file)")


USES = Uses(
    library="h5py",
    roots=("h5py",),
    removed={"h5py": {name: entry.replacement for name, entry in removed.REMOVED["h5py"].items()}},
    methods={"value": "dataset[()] (UTF-8 strings read as str, as h5py 2 did)"},
    call=_file_without_mode,
)

#: The surface's ``uses`` hook.
find_uses = finder(USES)
