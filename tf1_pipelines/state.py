"""Where a ``tf.data`` pipeline stands in its data, saved and restored.

The position of a TF1 iterator (its shuffle buffers, epoch counters, element
counters and the dataset graph itself) is a ``SaveableObject``
(``make_saveable_from_iterator``). Building a pipeline puts one per iterator into
the graph's ``SAVEABLE_OBJECTS`` collection, so a ``tf.compat.v1.train.Saver()``
the user builds afterwards saves and restores the input position with the model.
:func:`save_state` / :func:`restore_state` do the same on their own, into a folder::

    <path>/header.json      pipeline name, options, settings, a fingerprint of the
                            data and the sizes of the files below, checked on restore
    <path>/iterator.index   the iterators' checkpoint (TF's format)
    <path>/iterator.data-00000-of-00001

written under a temporary name first, then moved into the folder, the header last
(with a manifest, ``.tf1_pipelines-written.json``, of the files saved). Saving again
into the folder replaces only what the earlier save wrote: your own files there stay,
and the folder's permissions are never changed.

The data's fingerprint (:func:`data_fingerprint`): for every array the pipeline
holds, its shape, dtype and SHA-256; for every file it reads (and every file
under a folder it reads), its size and a digest of its content
(:func:`tf1_pipelines.records.manifest.edge_fingerprint`: the size and both ends,
so a save stays cheap over gigabytes of records). A state restored into a
pipeline over other data is refused with a ConfigError naming the difference
(a saved position means nothing in other data). A state whose files are
truncated or corrupt is a DataError naming the file, never ``EndOfData`` and
never a silent start from the beginning.

What cannot be saved is refused with :class:`ConfigError` naming the ``dataset``
backend: queue runners (their queues live in the session, filled by threads),
Python generators and ``py_func`` maps (Python state TF cannot serialize), and
feed_dict inputs (the position is in the user's Python code).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import tensorflow as tf

from tf1_pipelines.errors import ConfigError, DataError
from tf1_pipelines.records import folder_lock, manifest
from tf1_pipelines.records.manifest import edge_fingerprint
from tf1_pipelines.runtime.quiet_tf1 import no_deprecation_warnings

tf1 = tf.compat.v1

HEADER = "header.json"
PREFIX = "iterator"
FORMAT = 2  # 2: the header holds the data's fingerprint and the checkpoint's file sizes
#: At most this many files of a folder a pipeline reads are fingerprinted.
MAX_FINGERPRINT_FILES = 10000
_ITERATOR_OPS = ("IteratorV2", "Iterator", "OneShotIterator", "MultiDeviceIterator")
_PYTHON_OPS = ("PyFunc", "EagerPyFunc", "PyFuncStateless")
#: Public attributes of a pipeline that do not change which batches come next.
_NOT_POSITION = frozenset({"stall_timeout"})


@dataclass
class InputState:
    """What a build made to save its position: one saveable per iterator, and why
    the position cannot be saved (None when it can)."""

    saveables: list[Any]
    refusal: str | None
    saver: Any = None  # a Saver over ``saveables``, built on first save/restore


class _IteratorHandle:
    """The one attribute of an iterator that ``make_saveable_from_iterator`` reads."""

    def __init__(self, resource: tf.Tensor) -> None:
        self._iterator_resource = resource


def collect(graph: tf.Graph, first_op: int, pipeline: Any) -> InputState:
    """Make a saveable of every iterator the build added to ``graph`` (ops from
    index ``first_op`` on) and register it in ``SAVEABLE_OBJECTS`` unless the input
    cannot be saved. Stateful random ops (unseeded crops and flips) are left out of
    the state (a resume draws fresh values); with a seed, every draw is stateless."""
    new_ops = graph.get_operations()[first_op:]
    refusal = _refusal(graph, new_ops, pipeline)
    iterators = [op for op in new_ops if op.type in _ITERATOR_OPS]
    if refusal is None and not iterators:
        refusal = "it has no tf.data iterator"
    if refusal is not None:
        return InputState([], refusal)
    policy = "fail" if getattr(pipeline, "seed", None) is not None else "ignore"
    with graph.as_default(), no_deprecation_warnings():
        saveables = [tf1.data.experimental.make_saveable_from_iterator(
            _IteratorHandle(op.outputs[0]), external_state_policy=policy) for op in iterators]
        for saveable in saveables:
            graph.add_to_collection(tf1.GraphKeys.SAVEABLE_OBJECTS, saveable)
    return InputState(saveables, None)


def _refusal(graph: tf.Graph, new_ops: list[tf.Operation], pipeline: Any) -> str | None:
    """Why this build's input position cannot be saved, or None."""
    if any(op.type.endswith("QueueV2") for op in new_ops):
        return "its queues are filled by reader threads and live only in the session"
    if any(node.op in _PYTHON_OPS for function in _function_defs(graph)
           for node in function.node_def):
        return "its tf.data pipeline calls Python (a generator or py_func)"
    return None


def _function_defs(graph: tf.Graph) -> list[Any]:
    """The FunctionDefs of the graph's functions (tf.data's map and generator
    functions among them). Read from the graph's function table: ``as_graph_def()``
    would also copy every constant, up to 1 GB for the ``constant`` pipeline."""
    functions = getattr(graph, "_functions", None)
    if functions is None:
        return list(graph.as_graph_def().library.function)
    return [getattr(f, "cached_definition", None) or f.definition for f in functions.values()]


def header(pipeline: Any) -> dict[str, Any]:
    """The pipeline's name, JSON-able public options and settings: what must match
    for a saved position to mean the same batches."""
    options = {key: value for key, value in sorted(vars(pipeline).items())
               if not key.startswith("_") and key not in _NOT_POSITION and _plain(value)}
    return {"format": FORMAT, "pipeline": pipeline.name, "options": options,
            "settings": pipeline.settings, "data": data_fingerprint(pipeline)}


def _array_digest(array: np.ndarray) -> dict[str, Any]:
    """Shape, dtype and SHA-256 of the bytes of an array."""
    data = np.ascontiguousarray(array)
    return {"shape": list(data.shape), "dtype": str(data.dtype),
            "sha256": hashlib.sha256(data.data).hexdigest()}


def _paths_in(value: Any) -> Iterator[str]:
    """Existing files and folders named by an attribute value (a path or a list of them)."""
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        if path and os.path.exists(path):
            yield os.path.abspath(path)
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, (str, os.PathLike)):
                yield from _paths_in(item)


def _files_under(path: str) -> Iterator[str]:
    if os.path.isfile(path):
        yield path
        return
    for root, dirs, names in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if not name.startswith(".") and os.path.isfile(os.path.join(root, name)):
                yield os.path.join(root, name)


def data_fingerprint(pipeline: Any) -> dict[str, Any]:
    """What the pipeline reads: ``{"arrays": {attr.name: {shape, dtype, sha256}},
    "files": {abspath: {size, sha256}}}`` from its public attributes (dicts of
    arrays; paths and lists of paths of files or folders)."""
    arrays: dict[str, Any] = {}
    files: dict[str, Any] = {}
    for key, value in sorted(vars(pipeline).items()):
        if key.startswith("_"):
            continue
        if isinstance(value, Mapping) and value and all(
                isinstance(v, np.ndarray) for v in value.values()):
            for name, array in value.items():
                arrays[f"{key}.{name}"] = _array_digest(array)
        for path in _paths_in(value):
            for file in _files_under(path):
                if len(files) < MAX_FINGERPRINT_FILES and file not in files:
                    files[file] = edge_fingerprint(file)
    return {"arrays": arrays, "files": files}


def check_data(saved: dict[str, Any], current: dict[str, Any], path: str) -> None:
    """ConfigError naming the first array or file that differs from the saved data."""
    for part, what in (("arrays", "array"), ("files", "file")):
        old, new = saved.get(part, {}), current.get(part, {})
        for key in sorted(set(old) | set(new)):
            if key not in new:
                raise ConfigError(f"{path} was saved over data with {what} {key!r}, which this "
                                  "pipeline does not read; restore it only over the same data")
            if key not in old:
                raise ConfigError(f"{path} was saved over other data: this pipeline reads "
                                  f"{what} {key!r}, the saved state's data did not")
            if old[key] != new[key]:
                diff = ", ".join(f"{field} {old[key].get(field)!r} then, {new[key].get(field)!r} now"
                                 for field in sorted(set(old[key]) | set(new[key]))
                                 if old[key].get(field) != new[key].get(field))
                raise ConfigError(f"{path} was saved over other data: {what} {key!r} differs "
                                  f"({diff}); restore it only over the same data")


def _plain(value: Any) -> bool:
    """True for values that survive JSON as they are (scalars, lists of them)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return not isinstance(value, float) or np.isfinite(value)
    if isinstance(value, (list, tuple)):
        return all(_plain(v) and not isinstance(v, (list, tuple)) for v in value)
    return False


def check_header(saved: dict[str, Any], current: dict[str, Any], path: str) -> None:
    """ConfigError naming the first option or setting that differs."""
    if saved.get("format") != FORMAT:
        raise ConfigError(f"{path}: state format {saved.get('format')!r} is not {FORMAT}")
    if saved.get("pipeline") != current["pipeline"]:
        raise ConfigError(f"{path} holds the state of pipeline {saved.get('pipeline')!r}, "
                          f"not {current['pipeline']!r}")
    check_data(saved.get("data", {}), current["data"], path)
    for part in ("settings", "options"):
        old, new = saved.get(part, {}), current[part]
        for key in sorted(set(old) | set(new)):
            if _jsonable(old.get(key)) != _jsonable(new.get(key)):
                hint = f"; configure({key}={old.get(key)!r}) first" if part == "settings" else ""
                raise ConfigError(f"{path} was saved with {key}={old.get(key)!r}, this "
                                  f"pipeline has {key}={new.get(key)!r}{hint}")


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value))


def refuse_if_unsaveable(pipeline: Any, state: InputState) -> None:
    """ConfigError saying why the position cannot be saved, naming the way."""
    if state.refusal is not None:
        backend = getattr(pipeline, "backend", None)
        where = f" (backend={backend!r})" if backend is not None else ""
        raise ConfigError(f"{pipeline.name}{where} cannot save its input position: "
                          f"{state.refusal}; load it with backend='dataset' (tf.data, "
                          "stateless or saved randomness) to save and resume mid-epoch")


def _saver(graph: tf.Graph, state: InputState) -> Any:
    if state.saver is None:
        with graph.as_default():
            state.saver = tf1.train.Saver(var_list=state.saveables, sharded=False,
                                          save_relative_paths=True)
    return state.saver


def save(pipeline: Any, state: InputState, sess: Any, path: str) -> None:
    """Write the position of the pipeline's iterators in ``sess`` to folder ``path``
    (replacing the files an earlier save wrote there; see :func:`_publish`)."""
    refuse_if_unsaveable(pipeline, state)
    saver = _saver(sess.graph, state)
    path = os.path.abspath(os.fspath(path))
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    if os.path.lexists(path) and not os.path.isdir(path):
        raise ConfigError(f"{path} exists and is not a folder; give a folder for the state")
    tmp = tempfile.mkdtemp(prefix=f".{os.path.basename(path)}.partial-", dir=parent)
    try:
        with sess.graph.as_default():  # a Saver run outside its graph builds eager ops
            saver.save(sess, os.path.join(tmp, PREFIX), write_meta_graph=False,
                       write_state=False)
        written = header(pipeline)
        written["checkpoint_files"] = {name: os.path.getsize(os.path.join(tmp, name))
                                       for name in sorted(os.listdir(tmp))}
        with open(os.path.join(tmp, HEADER), "w", encoding="utf-8") as f:
            json.dump(written, f, indent=1, sort_keys=True)
        _publish(tmp, path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _publish(tmp: str, path: str) -> None:
    """Move the files of ``tmp`` into the folder ``path`` (made if missing, with the
    usual permissions), under the folder's lock.

    Only what an earlier save wrote there is replaced or removed: the files the
    folder's manifest lists with their present digest (or, for a state saved
    before states had a manifest, the header and the checkpoint files it lists
    with their sizes). Anything else in the folder is kept as it is, and the
    folder's mode is never changed; a file of ours in the way that the user
    changed, or a folder that is not a saved state, is refused with ConfigError
    before anything moves. The header moves last: until it is in place the folder
    holds no complete state, and a restore refuses it."""
    existed = os.path.isdir(path)
    os.makedirs(path, exist_ok=True)
    with folder_lock.folder_lock(path, timeout=60):
        ours = _earlier_save(path) if existed else set()
        new = sorted(os.listdir(tmp))
        for name in new:
            target = os.path.join(path, name)
            if os.path.lexists(target) and name not in ours:
                raise ConfigError(f"{target} is in the way and was not written by save_state "
                                  "(or changed since); move it, or save into another folder "
                                  "(nothing was written)")
        if HEADER in ours:
            os.remove(os.path.join(path, HEADER))  # the folder holds no complete state now
        files = [name for name in new if name != HEADER]
        for name in files:
            os.replace(os.path.join(tmp, name), os.path.join(path, name))
        stale = [name for name in ours if name not in new and name != HEADER]
        for name in stale:
            os.remove(os.path.join(path, name))
        manifest.forget(path, stale)
        manifest.record(path, [os.path.join(path, name) for name in files])
        os.replace(os.path.join(tmp, HEADER), os.path.join(path, HEADER))
        manifest.record(path, [os.path.join(path, HEADER)])


def _earlier_save(path: str) -> set[str]:
    """Base names in the existing folder ``path`` that an earlier save wrote and
    nobody changed since; ConfigError when it holds no state of ours (an empty
    folder included: a path the user made for something else)."""
    listed = manifest.load(path)
    ours = {name for name in listed if manifest.is_ours(path, name, listed)}
    if not listed:
        ours = _legacy_state_files(path)
    if not ours and not os.path.lexists(os.path.join(path, HEADER)):
        raise ConfigError(f"{path} exists and is not a saved pipeline state; give a new path")
    return ours


def _legacy_state_files(path: str) -> set[str]:
    """The files of a state saved without a manifest: its header and the checkpoint
    files the header lists, each still of the size it lists."""
    header_file = os.path.join(path, HEADER)
    if not os.path.isfile(header_file) or os.path.islink(header_file):
        return set()
    try:
        saved = _read_header(header_file)
    except DataError:
        return set()
    sizes = saved.get("checkpoint_files")
    if not isinstance(sizes, dict):
        return set()
    ours = {HEADER}
    for name, size in sizes.items():
        file = os.path.join(path, str(name))
        if os.path.isfile(file) and not os.path.islink(file) and os.path.getsize(file) == size:
            ours.add(str(name))
    return ours


def restore(pipeline: Any, state: InputState, sess: Any, path: str) -> None:
    """Put the pipeline's iterators in ``sess`` where they stood when ``path`` was
    saved; ConfigError when the header does not match this pipeline."""
    refuse_if_unsaveable(pipeline, state)
    path = os.fspath(path)
    header_file = os.path.join(path, HEADER)
    if not os.path.isfile(header_file):
        raise ConfigError(f"{path} is not a saved pipeline state (no {HEADER})")
    saved = _read_header(header_file)
    check_header(saved, header(pipeline), path)
    _check_checkpoint_files(path, saved)
    saver = _saver(sess.graph, state)
    with sess.graph.as_default():
        try:
            saver.restore(sess, os.path.join(path, PREFIX))
        except (tf.errors.OpError, ValueError) as exc:
            # OutOfRangeError (a truncated file) is EndOfData's base: a loop would just stop.
            message = exc.message if isinstance(exc, tf.errors.OpError) else str(exc)
            raise DataError(f"the saved state is corrupt and was not restored "
                            f"({type(exc).__name__}: {message.strip()[:300]}); the pipeline is "
                            "not where it was saved - load a new one", path=path) from None


def _read_header(header_file: str) -> dict[str, Any]:
    """The header as a dict; DataError naming the file when it is not valid JSON."""
    try:
        with open(header_file, encoding="utf-8") as f:
            saved = json.load(f)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(f"the saved state's header is corrupt ({exc})", path=header_file) from None
    if not isinstance(saved, dict):
        raise DataError("the saved state's header is not a JSON object", path=header_file)
    return saved


def _check_checkpoint_files(path: str, saved: dict[str, Any]) -> None:
    """DataError naming a checkpoint file that is missing or not the size it was saved with."""
    sizes = saved.get("checkpoint_files")
    if not isinstance(sizes, dict):
        raise DataError("the saved state's header lists no checkpoint files",
                        path=os.path.join(path, HEADER))
    for name, size in sorted(sizes.items()):
        file = os.path.join(path, name)
        if not os.path.isfile(file):
            raise DataError("the saved state's file is missing", path=file)
        if os.path.getsize(file) != size:
            raise DataError(f"the saved state's file is {os.path.getsize(file)} bytes, it was "
                            f"saved with {size} (truncated or changed)", path=file)
