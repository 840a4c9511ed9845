"""Which files of a folder this project wrote: a manifest kept in the folder.

A name that fits an export's pattern is no proof that the export wrote the file
(a user's own ``data10.tfrecords`` or ``sample_num.txt`` fits too). Every writer
of the project therefore records, in ``<folder>/.tf1_pipelines-written.json``,
each file it published with its size and a digest of its content; a later run
removes or overwrites a file only when the manifest lists it and the file still
has the recorded size and digest. Any other file in the way stops the writer
before anything is written (:func:`check_ours`), naming the file, unless the
caller passes ``force=True`` (the original tools' overwrite semantics).

The digest is SHA-256 over the size and the first and last :data:`EDGE_BYTES` of
the file: cheap for files of gigabytes, and any edit, truncation or append to a
record file changes the size or the ends that the digest covers.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from typing import Any


def _data_error(message: str, path: str) -> Exception:
    # Imported here: the cache command reads manifests and must not load TensorFlow
    # (errors.py does, for EndOfData).
    from tf1_pipelines.errors import DataError
    return DataError(message, path=path)

MANIFEST_NAME = ".tf1_pipelines-written.json"
#: Bytes read from each end of a file for its digest.
EDGE_BYTES = 1 << 20
_VERSION = 1


def fingerprint(path: str) -> dict[str, int | str]:
    """``{"size": bytes, "sha256": hex}`` of the file at ``path`` (see the module doc)."""
    size = os.path.getsize(path)
    digest = hashlib.sha256(str(size).encode())
    with open(path, "rb") as f:
        digest.update(f.read(EDGE_BYTES))
        if size > 2 * EDGE_BYTES:
            f.seek(size - EDGE_BYTES)
        digest.update(f.read(EDGE_BYTES))
    return {"size": size, "sha256": digest.hexdigest()}


def manifest_path(folder: str) -> str:
    """Where the manifest of ``folder`` lives."""
    return os.path.join(folder, MANIFEST_NAME)


def load(folder: str) -> dict[str, dict[str, int | str]]:
    """Base name -> recorded fingerprint, for every file the manifest of ``folder``
    lists; empty when there is no manifest. DataError naming it when unreadable."""
    path = manifest_path(folder)
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise _data_error(f"the list of files this project wrote here is unreadable ({exc}); "
                          "remove it only if no export of this project lives in the folder",
                          path) from exc
    files: Any = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        raise _data_error("the list of files this project wrote here has no 'files' table", path)
    return files


def _save(folder: str, files: dict[str, dict[str, int | str]]) -> None:
    """Write the manifest atomically (a temporary file renamed into place)."""
    fd, tmp = tempfile.mkstemp(prefix=MANIFEST_NAME + ".", suffix=".partial", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"version": _VERSION, "files": dict(sorted(files.items()))}, f, indent=1)
        os.replace(tmp, manifest_path(folder))
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(tmp)


def is_ours(folder: str, name: str, files: dict[str, dict[str, int | str]] | None = None) -> bool:
    """True if ``folder/name`` is a regular file the manifest lists with its present
    size and digest (so this project wrote it and nobody changed it since)."""
    files = load(folder) if files is None else files
    path = os.path.join(folder, name)
    recorded = files.get(name)
    if recorded is None or os.path.islink(path) or not os.path.isfile(path):
        return False
    if recorded.get("size") != os.path.getsize(path):
        return False
    return recorded == fingerprint(path)


def not_ours(folder: str, names: Iterable[str]) -> list[str]:
    """Paths of the files among ``names`` that exist in ``folder`` (any kind of entry)
    but are not provably ours, sorted."""
    files = load(folder)
    found = []
    for name in sorted(set(names)):
        path = os.path.join(folder, name)
        if os.path.lexists(path) and not is_ours(folder, name, files):
            found.append(path)
    return found


def check_ours(folder: str, names: Iterable[str], what: str, force: bool = False) -> None:
    """DataError naming the first of ``names`` in ``folder`` that this project did not
    write (or that changed since), before anything is written. ``what`` says what
    the writer would do with it ("overwrite", "remove"). ``force`` skips the check
    for regular files (a folder or link in the way is refused even then)."""
    for path in not_ours(folder, names):
        if force and os.path.isfile(path) and not os.path.islink(path):
            continue
        raise _data_error(
            f"is in the way and was not written by this project (or changed since); it would "
            f"{what} it - move or rename it, write into another folder, or pass force=True / "
            "--force to replace it (nothing was written, nothing was removed)", path)


def record(folder: str, paths: Iterable[str]) -> None:
    """Add (or refresh) the files ``paths`` of ``folder`` in its manifest."""
    files = load(folder)
    for path in paths:
        files[os.path.basename(path)] = fingerprint(path)
    _save(folder, files)


def record_tree(root: str) -> None:
    """Record every regular file under ``root`` (relative paths, links not followed)
    in the manifest of ``root``: a folder built whole, such as a cache entry."""
    files = load(root)
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            if rel != MANIFEST_NAME and not os.path.islink(path):
                files[rel] = fingerprint(path)
    _save(root, files)


def forget(folder: str, names: Iterable[str]) -> None:
    """Drop ``names`` from the manifest of ``folder`` (files removed by their writer)."""
    files = load(folder)
    dropped = [name for name in names if files.pop(name, None) is not None]
    if dropped:
        _save(folder, files)


def remove_ours(folder: str, names: Iterable[str]) -> list[str]:
    """Remove those of ``names`` that are provably ours and drop them from the
    manifest; others are left. Returns the removed paths."""
    files = load(folder)
    removed = []
    for name in sorted(set(names)):
        if is_ours(folder, name, files):
            path = os.path.join(folder, name)
            os.remove(path)
            removed.append(path)
    forget(folder, [os.path.basename(p) for p in removed])
    return removed
