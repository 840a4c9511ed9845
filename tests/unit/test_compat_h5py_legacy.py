"""``compat.h5py_legacy``: h5py 2's ``Dataset.value``, ``str`` strings and default file mode.

The old behaviour is h5py 2.10's (its ``files.py`` mode rule, ``docs/strings.rst``):
UTF-8 variable-length strings read as ``str``, ASCII ones as ``bytes``; ``File(name)``
opens ``r+``, else ``r``, else a new file. Calls from outside the script's files (here:
a function compiled under a site-packages file name) keep h5py 3's behaviour.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import h5py
import numpy as np
import pytest

from compat.h5py_legacy.surface import SURFACE
from compat.surfaces import as_use
from compat.surfaces.table_patches import TablePatches


@pytest.fixture
def patched() -> Iterator[TablePatches]:
    assert SURFACE.patches is not None
    patches = SURFACE.patches()
    patches.apply(h5py)
    yield patches
    patches.undo()


def library_call(source: str, **names: Any) -> Any:
    """Evaluate ``source`` as code of an installed package would run it (its file in site-packages)."""
    code = compile(source, "/usr/lib/python3/site-packages/somelib/io.py", "eval")
    return eval(code, dict(names))  # noqa: S307 - a fixed expression of this test


def write_file(path: Path) -> None:
    with h5py.File(path, "w") as f:
        f["utf8"] = "héllo"
        f["names"] = np.array(["a", "bc"], dtype=h5py.string_dtype())
        f["ascii"] = np.array([b"x", b"y"], dtype=h5py.string_dtype("ascii"))
        f["numbers"] = np.arange(6.0).reshape(2, 3)
        f.attrs["title"] = "tïtle"


def test_value_and_utf8_strings_read_as_h5py_2_did(patched: TablePatches, tmp_path: Path) -> None:
    path = tmp_path / "data.h5"
    write_file(path)
    with h5py.File(path, "r") as f:
        np.testing.assert_array_equal(f["numbers"].value, np.arange(6.0).reshape(2, 3))
        assert f["utf8"].value == "héllo" and f["utf8"][()] == "héllo"
        names = f["names"][:]
        assert names.dtype == object and names.tolist() == ["a", "bc"]
        assert f["names"][1] == "bc"
        assert f["ascii"][()].tolist() == [b"x", b"y"]  # ASCII stayed bytes in h5py 2
        assert f.attrs["title"] == "tïtle"
        # an installed library reading the same dataset gets h5py 3's bytes
        assert library_call("ds[()]", ds=f["utf8"]) == "héllo".encode()


def test_file_without_mode_opens_read_write_then_read_only_then_new(patched: TablePatches, tmp_path: Path) -> None:
    new = tmp_path / "new.h5"
    with h5py.File(new) as f:  # h5py 3 would refuse: no such file in mode 'r'
        assert f.mode == "r+"
        f["x"] = 1
    with h5py.File(str(new)) as f:
        assert f.mode == "r+" and f["x"][()] == 1
        f["y"] = 2
    # HDF5 refuses to open read/write a file this process holds open read-only: the 'r' step of the rule
    with h5py.File(new, "r") as holder, h5py.File(new) as f:
        assert f.mode == "r" and f["y"][()] == 2 and holder.mode == "r"
    with h5py.File(new, "r") as f:
        assert f.mode == "r"
    with pytest.raises(OSError):
        library_call("File(path)", File=h5py.File, path=str(tmp_path / "absent.h5"))


def test_removed_dtype_helpers(patched: TablePatches) -> None:
    vlen = h5py.new_vlen(np.int32)
    assert h5py.get_vlen(vlen) == np.dtype(np.int32)
    enum = h5py.new_enum(np.dtype("i1"), {"RED": 0, "GREEN": 1})
    assert h5py.get_enum(enum) == {"RED": 0, "GREEN": 1}


def test_undo_gives_h5py_its_own_objects_back(tmp_path: Path) -> None:
    assert SURFACE.patches is not None
    getitem, init = h5py.Dataset.__getitem__, h5py.File.__init__
    patches = SURFACE.patches()
    patches.apply(h5py)
    assert h5py.Dataset.__getitem__ is not getitem and hasattr(h5py.Dataset, "value")
    patches.undo()
    assert h5py.Dataset.__getitem__ is getitem and h5py.File.__init__ is init
    assert not hasattr(h5py.Dataset, "value") and not hasattr(h5py, "new_vlen")


def test_compat_check_reports_each_use() -> None:
    assert SURFACE.uses is not None
    tree = ast.parse("import h5py\n"
                     "f = h5py.File('weights.h5')\n"
                     "w = f['layer']['kernel'].value\n"
                     "g = h5py.File('out.h5', 'w')\n"
                     "t = h5py.new_vlen(str)\n")
    found = [(u.node.lineno if isinstance(u.node, (ast.stmt, ast.expr)) else 0, u.construct)
             for u in map(as_use, SURFACE.uses(tree))]
    assert found == [(2, "h5py.File('weights.h5')"), (3, "f['layer']['kernel'].value"), (5, "h5py.new_vlen")]
