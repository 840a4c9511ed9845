"""The record cache: the folders the pipelines build under the data home.

The data home is ``$TF1_PIPELINES_DATA`` or ``~/.cache/tf1_pipelines``
(:func:`tf1_pipelines.data.sample_data.data_home`). Two kinds of entries live there:

* the embedded data sets, built on first use and then reused as they are
  (``div2k_like``, ``voc_like``, ``inception_multilabel``, ``stylegan_lod``,
  ``random_patches``);
* record caches of folders (``div2k_records``, ``voc_records``): one sub-folder per
  source folder, named by a hash of its files' paths, sizes and modification times
  and of the options (patch size, shard count), so an edited folder gets a new one
  on next use; the old one stays until cleared. A folder that a failed build
  left empty (a full disk) is no entry: not listed, and removed by ``clear``.

``python -m tf1_pipelines cache list`` shows them, ``cache clear`` removes them.
Clearing removes only files the cache wrote: those listed, with their present
size and digest, in the manifest of their entry
(:mod:`tf1_pipelines.records.manifest`), the lock files of record caches that
no build holds (``.tf1_pipelines.lock`` naming a dead holder; an empty ``.lock``
of earlier versions, never one with content), the temporary files a killed build listed in
its manifest (unless a running build holds the folder), and the ``.partial-*`` folders an
interrupted build leaves when they carry the build's marker. A file of the user's inside an entry stays (and with
it its folders); nothing else the data home holds is touched. The data home
itself must be a folder this project made (``sample_data.data_home``). Each pipeline package declares its
folders (``CACHE_DATA_SETS``, ``CACHE_RECORDS``; read by
:func:`tf1_pipelines.registry.cache_folders`), so a new pipeline adds its own.
"""
from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass

from tf1_pipelines.data.sample_data import PARTIAL_MARKER, DataHomeError, data_home
from tf1_pipelines.records import folder_lock, manifest
from tf1_pipelines.records.disk_full import human_bytes as human_size
from tf1_pipelines.records.folder_lock import LEGACY_LOCK_NAME, LOCK_NAME
from tf1_pipelines.registry import cache_folders

#: A record cache's sub-folder: the first 16 hex digits of a SHA-1.
_KEY = re.compile(r"^[0-9a-f]{16}$")
#: What build_folder_atomically leaves behind when a build is interrupted.
_PARTIAL = re.compile(r"^\.partial-")


@dataclass(frozen=True)
class Entry:
    """One folder the cache wrote: where, what, how many files and bytes."""

    path: str
    description: str
    files: int
    bytes: int


def _size(path: str) -> tuple[int, int]:
    """(files, bytes) under ``path``, symbolic links not followed."""
    files = total = 0
    for root, _, names in os.walk(path):
        for name in names:
            full = os.path.join(root, name)
            if not os.path.islink(full):
                files += 1
                total += os.path.getsize(full)
    return files, total


def _partials(folder: str) -> Iterator[str]:
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            # Only a folder that build_folder_atomically made: it carries the marker.
            if _PARTIAL.match(name) and os.path.isfile(os.path.join(path, PARTIAL_MARKER)):
                yield path


def _owned(home: str) -> Iterator[tuple[str, str]]:
    """(path, description) of every folder of ours under ``home``."""
    for partial in _partials(home):
        yield partial, "an interrupted build"
    data_sets, record_caches = cache_folders()
    for name, description in data_sets.items():
        path = os.path.join(home, name)
        if os.path.isdir(path):
            yield path, description
    for name, description in record_caches.items():
        folder = os.path.join(home, name)
        if not os.path.isdir(folder):
            continue
        for key in sorted(os.listdir(folder)):
            path = os.path.join(folder, key)
            if _KEY.match(key) and os.path.isdir(path) and not _half_made(path):
                yield path, description


def _half_made(entry: str) -> bool:
    """True for a record cache's folder that a failed build left with nothing but
    the lock files of earlier versions, while no build holds it: not an entry;
    :func:`clear` removes it."""
    names = set(os.listdir(entry))
    return names <= {LEGACY_LOCK_NAME, LOCK_NAME} and all(
        _cache_wrote(entry, os.path.join(entry, name), {}) for name in names) and \
        folder_lock.is_free(entry)


def _remove_half_made(home: str) -> None:
    """Remove the record caches' folders a failed build left (see :func:`_half_made`)."""
    for name in cache_folders()[1]:
        folder = os.path.join(home, name)
        if not os.path.isdir(folder):
            continue
        for key in sorted(os.listdir(folder)):
            path = os.path.join(folder, key)
            if _KEY.match(key) and os.path.isdir(path) and not os.path.islink(path) \
                    and _half_made(path):
                for leftover in os.listdir(path):
                    os.remove(os.path.join(path, leftover))
                os.rmdir(path)


def entries(home: str | None = None) -> list[Entry]:
    """The cache's folders under ``home`` (default: the data home), with sizes."""
    home = data_home() if home is None else home
    return [Entry(path, description, *_size(path)) for path, description in _owned(home)]


def _cache_wrote(entry: str, path: str, manifests: dict[str, dict[str, dict[str, int | str]]]
                 ) -> bool:
    """True if the file ``path`` under ``entry`` is one the cache wrote: listed (with
    its present size and digest) in the manifest of its folder or of any folder
    above it up to ``entry`` (a built data set records its whole tree at its top;
    an export, its own folder), the lock file of
    :func:`~tf1_pipelines.records.folder_lock.folder_lock` when it names a holder
    in its own words and nobody holds the folder, or an empty ``.lock`` (the lock
    file of earlier versions; one with content is someone else's). ``manifests``
    caches the manifests read, by folder."""
    if os.path.islink(path):
        return False
    if os.path.basename(path) == LEGACY_LOCK_NAME:  # earlier versions' lock: always empty
        return os.path.getsize(path) == 0
    if os.path.basename(path) == LOCK_NAME:  # names a holder that died, or is empty
        return folder_lock.is_our_free_lock_file(path)
    folder = os.path.dirname(path)
    while True:
        if folder not in manifests:
            try:
                manifests[folder] = manifest.load(folder)
            except ValueError:  # an unreadable manifest proves nothing
                manifests[folder] = {}
        if manifest.is_ours(folder, os.path.relpath(path, folder), manifests[folder]):
            return True
        if os.path.samefile(folder, entry) or os.path.dirname(folder) == folder:
            return False
        folder = os.path.dirname(folder)


def _remove_leftovers(entry: str) -> None:
    """The temporary files a killed build listed in a manifest under ``entry``, where no
    build holds the folder now (a held folder is a build running: left alone)."""
    for folder, _, names in os.walk(entry):
        if manifest.MANIFEST_NAME not in names:
            continue
        try:
            with folder_lock.folder_lock(folder, timeout=0):
                manifest.remove_leftover_partials(folder)
        except (folder_lock.FolderLockTimeout, ValueError):
            continue  # a build holds it, or its manifest is unreadable: prove nothing, remove nothing


def _clear_entry(entry: str) -> list[str]:
    """Remove the leftovers of killed builds, what the cache wrote under ``entry``, then
    every manifest none of whose files is left, then the folders left empty. Returns
    the files kept."""
    _remove_leftovers(entry)
    read: dict[str, dict[str, dict[str, int | str]]] = {}
    kept: list[str] = []
    manifests: list[str] = []
    for folder, _, names in os.walk(entry):
        for name in names:
            path = os.path.join(folder, name)
            if name == manifest.MANIFEST_NAME:
                manifests.append(folder)  # removed below, once the files it proves are gone
            elif _cache_wrote(entry, path, read):
                os.remove(path)
            else:
                kept.append(path)
    for folder in reversed(manifests):  # deepest first: a top manifest lists the nested ones
        try:
            listed = manifest.load(folder)
        except ValueError:
            continue
        if not any(os.path.lexists(os.path.join(folder, rel)) for rel in listed):
            os.remove(manifest.manifest_path(folder))
    for folder, _, _ in sorted(os.walk(entry), key=lambda item: -len(item[0])):
        if not os.path.islink(folder) and not os.listdir(folder):
            os.rmdir(folder)
    return kept


def _clear_partial(partial: str) -> None:
    """An interrupted build's folder (it carries our marker): nothing in it is published."""
    shutil.rmtree(partial)


def clear(home: str | None = None) -> list[Entry]:
    """Remove what the cache wrote under ``home`` (default: the data home); a
    record cache's folder goes too once empty. Returns the entries cleared; a
    file of the user's inside an entry is kept (see :data:`kept_files`)."""
    home = data_home() if home is None else home
    removed = entries(home)
    kept_files.clear()
    _remove_half_made(home)
    for entry in removed:
        if _PARTIAL.match(os.path.basename(entry.path)):
            _clear_partial(entry.path)
        else:
            kept_files.extend(_clear_entry(entry.path))
    for name in cache_folders()[1]:
        folder = os.path.join(home, name)
        if os.path.isdir(folder) and not os.listdir(folder):
            os.rmdir(folder)
    return removed


#: The files the last :func:`clear` kept because the cache did not write them.
kept_files: list[str] = []


def report(found: list[Entry], home: str, verb: str = "") -> str:
    """The lines ``cache list`` / ``cache clear`` print, as one string."""
    lines = [f"record cache: {home} (TF1_PIPELINES_DATA moves it)"]
    for entry in found:
        lines.append(f"  {verb}{os.path.relpath(entry.path, home)}: {entry.files} files, "
                     f"{human_size(entry.bytes)} ({entry.description})")
    total = sum(entry.bytes for entry in found)
    lines.append(f"{len(found)} entries, {human_size(total)}" if found else "empty")
    return "\n".join(lines)


def run_cache_command(action: str) -> int:
    """``cache list`` or ``cache clear``: print the report; returns the exit status
    (0; 2 with ``Error: ...`` when the data home is not one this project made)."""
    try:
        home = data_home(create=False)
        if os.path.lexists(home):
            home = data_home()  # refuses a folder that is not ours
    except DataHomeError as exc:
        print(f"Error: {exc}")
        return 2
    if not os.path.isdir(home):
        print(report([], home))
        return 0
    if action == "clear":
        print(report(clear(home), home, verb="removed "))
        for path in kept_files:
            print(f"  kept {os.path.relpath(path, home)}: not written by the cache")
    else:
        print(report(entries(home), home))
    return 0
