"""Which files of a folder this project wrote: a manifest kept in the folder.

A name that fits an export's pattern is no proof that the export wrote the file
(a user's own ``data10.tfrecords`` or ``sample_num.txt`` fits too). Every writer
of the project therefore records, in ``<folder>/.tf1_pipelines-written.json``,
each file it published with its size and a digest of its content; a later run
removes or overwrites a file only when the manifest lists it and the file still
has the recorded size and digest. Any other file in the way stops the writer
before anything is written (:func:`check_ours`), naming the file, unless the
caller passes ``force=True`` (the original tools' overwrite semantics).

The digest is the SHA-256 of the whole file (what ``sha256sum`` prints), so an
edit that keeps the size is caught wherever it lies (about 0.2 s for 100 MB,
see docs/cache.md). Each digest is computed once per process for a file whose
size, inode and modification and change times are unchanged. Manifests of
version 1 hashed only the size and the first and last :data:`EDGE_BYTES`; their
entries are kept and checked that way (``"scheme": "edges"``) until rewritten.

The manifest also lists the temporary files of a write in progress
(``"partial"``: base name -> pid of the writer), so that the next writer of the
folder removes the leftovers of one that died and nothing else.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Iterable
from typing import Any

from tf1_pipelines.records.disk_full import file_size, named_when_full


def _data_error(message: str, path: str) -> Exception:
    # Imported here: the cache command reads manifests and must not load TensorFlow
    # (errors.py does, for EndOfData).
    from tf1_pipelines.errors import DataError
    return DataError(message, path=path)

MANIFEST_NAME = ".tf1_pipelines-written.json"
#: Bytes read from each end of a file by :func:`edge_fingerprint`.
EDGE_BYTES = 1 << 20
#: 2: whole-file digests and the ``partial`` table; 1: edge digests only.
_VERSION = 2
#: The ``scheme`` of an entry written by version 1 (an edge digest).
EDGES = "edges"

_Key = tuple[str, int, int, int, int]
_digests: dict[_Key, str] = {}
_digests_lock = threading.Lock()


def _whole_sha256(path: str) -> str:
    """Hex SHA-256 of every byte of the file, remembered while its stat is unchanged."""
    stat = os.stat(path)
    key = (os.path.realpath(path), stat.st_size, stat.st_ino, stat.st_mtime_ns, stat.st_ctime_ns)
    with _digests_lock:
        known = _digests.get(key)
    if known is not None:
        return known
    with open(path, "rb") as f:
        digest = hashlib.file_digest(f, "sha256").hexdigest()
    with _digests_lock:
        _digests[key] = digest
    return digest


def fingerprint(path: str) -> dict[str, int | str]:
    """``{"size": bytes, "sha256": hex}``: the SHA-256 of the whole file at ``path``."""
    return {"size": os.path.getsize(path), "sha256": _whole_sha256(path)}


def edge_fingerprint(path: str) -> dict[str, int | str]:
    """``{"size": bytes, "sha256": hex}`` over the size and the first and last
    :data:`EDGE_BYTES` only: cheap for files of gigabytes, blind to a same-size edit
    in between (the digest of version-1 manifests, and of a saved state's data)."""
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
    if data.get("version", 1) == 1:  # edge digests: checked as such until rewritten
        return {name: {**entry, "scheme": EDGES} if isinstance(entry, dict) else entry
                for name, entry in files.items()}
    return files


def _load_table(folder: str, table: str) -> dict[str, Any]:
    """Another table of the manifest of ``folder`` (``"partial"``); empty if none."""
    try:
        with open(manifest_path(folder), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    value = data.get(table) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


def _save(folder: str, files: dict[str, dict[str, int | str]],
          partial: dict[str, Any] | None = None) -> None:
    """Write the manifest atomically (a temporary file renamed into place); the
    ``partial`` table is kept as it is unless given. A full disk is
    :func:`~tf1_pipelines.records.disk_full.disk_full`'s one line naming the folder
    (the earlier manifest stays as it was)."""
    partial = _load_table(folder, "partial") if partial is None else partial
    content: dict[str, Any] = {"version": _VERSION, "files": dict(sorted(files.items()))}
    if partial:
        content["partial"] = dict(sorted(partial.items()))
    text = json.dumps(content, indent=1)
    tmp = None
    try:
        with named_when_full(folder, lambda: file_size(tmp)):
            fd, tmp = tempfile.mkstemp(prefix=MANIFEST_NAME + ".", suffix=".partial", dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, manifest_path(folder))
    finally:
        if tmp is not None:
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
    if recorded.get("scheme") == EDGES:
        return {**recorded, "scheme": None} == {**edge_fingerprint(path), "scheme": None}
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


def add_partials(folder: str, names: Iterable[str], pid: int) -> None:
    """List the temporary files ``names`` of ``folder`` as being written by ``pid``."""
    partial = _load_table(folder, "partial")
    partial.update({name: pid for name in names})
    _save(folder, load(folder), partial)


def drop_partials(folder: str, names: Iterable[str]) -> None:
    """Drop ``names`` from the temporary files the manifest of ``folder`` lists."""
    partial = _load_table(folder, "partial")
    dropped = [name for name in names if partial.pop(name, None) is not None]
    if not dropped:
        return
    files = load(folder)
    if files or partial:
        _save(folder, files, partial)
    else:  # a write that published nothing leaves no manifest it made
        with contextlib.suppress(FileNotFoundError):
            os.remove(manifest_path(folder))


def remove_leftover_partials(folder: str) -> list[str]:
    """Remove the temporary files the manifest of ``folder`` lists (call it while
    holding the folder's lock: no other writer is running, so every listed file is
    a leftover of one that died). Returns the removed paths; files not listed (a
    user's ``data0.tfrecords.partial``) are never touched."""
    partial = _load_table(folder, "partial")
    removed = []
    for name in sorted(partial):
        path = os.path.join(folder, name)
        if os.path.isfile(path) and not os.path.islink(path):
            os.remove(path)
            removed.append(path)
    if partial:
        _save(folder, load(folder), {})
    return removed
