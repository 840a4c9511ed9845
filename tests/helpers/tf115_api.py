"""Where the TF 1.15 API tables are: ``$TF115_API_DIR``, the copy in ``tests/data/tf115_api``, or the
shared one beside the repository (the first holding ``tf115_contrib_symbols.tsv``)."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def api_dir() -> Path | None:
    """The folder of the TF 1.15 API tables, or None where none is found."""
    for candidate in (os.environ.get("TF115_API_DIR", ""), str(ROOT / "tests" / "data" / "tf115_api"),
                      str(ROOT.parent / "shared" / "tf115_api")):
        if candidate and (Path(candidate) / "tf115_contrib_symbols.tsv").is_file():
            return Path(candidate)
    return None


def contrib_symbols() -> Path | None:
    """``tf115_contrib_symbols.tsv``, or None where no table folder is found."""
    folder = api_dir()
    return None if folder is None else folder / "tf115_contrib_symbols.tsv"
