"""NumPy 1 for the script's own code: every removed name (ruff's NPY201 list and the older
removals), ``np.lib.pad``, ragged ``np.array``, ``np.load`` of object arrays and the removed
ndarray methods, each compiled through the runner's rewrite (``compile_legacy``) and run in
process, with values checked against independent computations."""
from __future__ import annotations

import io
import json
import math
import pickle
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from compat.numpy1 import bytes_helpers, removed, runtime
from compat.runner import rewrite

#: Names today's NumPy still has (with a deprecation): served anyway, without it.
STILL_PRESENT = {"row_stack", "chararray"}


def run_legacy(source: str, allow_pickle: bool = False, **globals_: Any) -> dict[str, Any]:
    """Compile ``source`` as the runner does for a script's own module and run it; its globals."""
    code, result = rewrite.compile_legacy(textwrap.dedent(source), "legacy_module.py", python2=False)
    helpers = rewrite.LegacyHelpers(lambda: None, bytes_helpers)  # type: ignore[arg-type,return-value]
    helpers.numpy.allow_pickle = allow_pickle
    namespace: dict[str, Any] = {"__name__": "legacy_module", **globals_}
    namespace.update(rewrite.injected_globals(result, helpers))
    exec(code, namespace)
    return namespace


def reported(source: str) -> list[tuple[str, str]]:
    """(construct, status) of what ``compat check`` reports for ``source``."""
    import ast
    return [(c.construct, c.status) for c in rewrite.transform(ast.parse(textwrap.dedent(source))).changes]


def printed(func: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    buffer = io.StringIO()
    func(*args, output=buffer, **kwargs) if "output" in func.__code__.co_varnames else func(*args, **kwargs)
    return buffer.getvalue()


def _deprecate_check(v: Any) -> None:
    def twice(x: int) -> int:
        return 2 * x
    wrapped = v(twice)
    with pytest.warns(DeprecationWarning, match="twice"):
        assert wrapped(4) == 8


def _deprecate_with_doc_check(v: Any) -> None:
    wrapped = v("use thrice")(lambda x: 3 * x)
    with pytest.warns(DeprecationWarning, match="use thrice"):
        assert wrapped(2) == 6


def _disp_check(v: Any) -> None:
    buffer = io.StringIO()
    v("hello", device=buffer)
    v(3, device=buffer, linefeed=False)
    assert buffer.getvalue() == "hello\n3"


def _errobj_check(get: Any, set_: Any) -> None:
    with np.errstate(divide="raise", over="ignore", under="warn", invalid="print"):
        bufsize, mask, callback = get()
        assert mask == 2 | (0 << 3) | (1 << 6) | (4 << 9)  # NumPy 1's 3 bits per category
        assert bufsize == np.getbufsize() and callback is None
        set_([bufsize, 1 | (2 << 3) | (0 << 6) | (1 << 9), None])
        assert np.geterr() == {"divide": "warn", "over": "raise", "under": "ignore", "invalid": "warn"}


def _recfromcsv_check(v: Any, tmp_path: Path) -> None:
    path = tmp_path / "table.csv"
    path.write_text("Width,Score\n1,2.5\n3,4.5\n")
    table = v(str(path))
    assert isinstance(table, np.recarray)
    assert table.width.tolist() == [1, 3] and table.score.tolist() == [2.5, 4.5]


def _recfromtxt_check(v: Any, tmp_path: Path) -> None:
    path = tmp_path / "table.txt"
    path.write_text("1 2\n3 4\n")
    table = v(str(path))
    assert isinstance(table, np.recarray) and table[1, 0] == 3 and table.sum() == 10


def _set_string_function_check(v: Any) -> None:
    try:
        v(lambda a: f"<{a.size} items>")
        assert repr(np.zeros(3)) == "<3 items>"
    finally:
        v(None)
    assert repr(np.zeros(2)) == "array([0., 0.])"


def _who_check(v: Any, capsys: pytest.CaptureFixture[str]) -> None:
    v({"weights": np.zeros((2, 3)), "other": 5})
    out = capsys.readouterr().out
    assert "weights" in out and "2 x 3" in out and "48" in out and "other" not in out


def _ufunc_doc_check(v: Any) -> None:
    # A C ufunc's docstring is fixed; the helper is NumPy's own internal one, which refuses to change it.
    with pytest.raises(ValueError, match="docstring"), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        v(np.add, "new")


#: name -> check of the value the script gets (independent expectations).
CHECKS: dict[str, Callable[..., None]] = {
    "add_docstring": lambda v: assert_is(v, np.lib.add_docstring),
    "add_newdoc": lambda v: assert_is(v, np.lib.add_newdoc),
    "add_newdoc_ufunc": _ufunc_doc_check,
    "alltrue": lambda v: assert_true(v([True, True]) and not v([True, False])),
    "asfarray": lambda v: assert_true(v([1, 2]).dtype == np.float64 and v([1], dtype=np.int32).dtype == np.float64
                                      and v([1], dtype=np.float32).dtype == np.float32),
    "byte_bounds": lambda v: assert_true(np.subtract(*v(np.zeros(4, np.int32))[::-1]) == 16),
    "cast": lambda v: assert_true(v[np.int32]([1.7, -2.2]).tolist() == [1, -2]
                                  and v[np.int32]([1.0]).dtype == np.int32),
    "cfloat": lambda v: assert_is(v, np.complex128),
    "clongfloat": lambda v: assert_is(v, np.clongdouble),
    "compat": lambda v: assert_true(v.long is int and v.unicode is str and v.asbytes("ab") == b"ab"
                                    and v.asstr(b"ab") == "ab"),
    "complex_": lambda v: assert_is(v, np.complex128),
    "cumproduct": lambda v: assert_true(v([1, 2, 3, 4]).tolist() == [1, 2, 6, 24]),
    "DataSource": lambda v: assert_is(v, np.lib.npyio.DataSource),
    "deprecate": _deprecate_check,
    "deprecate_with_doc": _deprecate_with_doc_check,
    "disp": _disp_check,
    "fastCopyAndTranspose": lambda v: assert_true(
        v(np.arange(6).reshape(2, 3)).tolist() == [[0, 3], [1, 4], [2, 5]]
        and v(np.arange(6).reshape(2, 3)).flags.c_contiguous),
    "find_common_type": lambda v: assert_true(v([np.int32], [np.float64]) == np.float64
                                              and v([np.float32], [np.int64]) == np.float32
                                              and v([np.int16, np.int32], []) == np.int32),
    "float_": lambda v: assert_is(v, np.float64),
    "get_array_wrap": lambda v: assert_true(v(1) is None and v(np.zeros(1)) is not None),
    "geterrobj": lambda v: _errobj_check(v, removed.value_of("seterrobj")),
    "in1d": lambda v: assert_true(v([[1, 2], [3, 4]], [2, 3]).tolist() == [False, True, True, False]),
    "INF": lambda v: assert_true(v == math.inf),
    "Inf": lambda v: assert_true(v == math.inf),
    "Infinity": lambda v: assert_true(v == math.inf),
    "infty": lambda v: assert_true(v == math.inf),
    "issctype": lambda v: assert_true(v(np.int32) and not v(list) and not v(1.1) and not v(np.object_)),
    "issubclass_": lambda v: assert_true(v(np.int32, np.integer) and not v(1, int)),
    "issubsctype": lambda v: assert_true(v(np.float32, np.floating) and not v("i4", np.floating)),
    "mat": lambda v: assert_true(isinstance(v([[1, 2]]), np.matrix) and v([[1, 2]]).shape == (1, 2)),
    "maximum_sctype": lambda v: assert_true(v(np.int8) is np.int64 and v(np.float32) is np.longdouble
                                            and v(np.bool_) is np.bool_),
    "NaN": lambda v: assert_true(math.isnan(v)),
    "NAN": lambda v: assert_true(math.isnan(v)),
    "nbytes": lambda v: assert_true(v[np.float32] == 4 and v[np.int16] == 2 and v["f8"] == 8),
    "NINF": lambda v: assert_true(v == -math.inf),
    "NZERO": lambda v: assert_true(v == 0.0 and math.copysign(1.0, v) == -1.0),
    "longcomplex": lambda v: assert_is(v, np.clongdouble),
    "longfloat": lambda v: assert_is(v, np.longdouble),
    "lookfor": lambda v: assert_true("numpy.cumprod" in printed(v, "cumulative product")),
    "obj2sctype": lambda v: assert_true(v(np.int32) is np.int32 and v(np.zeros(2, np.float32)) is np.float32
                                        and v("no such type") is None),
    "PINF": lambda v: assert_true(v == math.inf),
    "product": lambda v: assert_true(v([2, 3, 4]) == 24),
    "PZERO": lambda v: assert_true(v == 0.0 and math.copysign(1.0, v) == 1.0),
    "recfromcsv": _recfromcsv_check,
    "recfromtxt": _recfromtxt_check,
    "round_": lambda v: assert_true(v([1.26, 2.04], 1).tolist() == [1.3, 2.0]),
    "safe_eval": lambda v: assert_true(v("[1, {'a': 2}]") == [1, {"a": 2}]),
    "sctype2char": lambda v: assert_true(v(np.float64) == "d" and v(np.int8) == "b"),
    "sctypes": lambda v: assert_true(v["int"] == [np.int8, np.int16, np.int32, np.int64]
                                     and np.float32 in v["float"]),
    "seterrobj": lambda v: _errobj_check(removed.value_of("geterrobj"), v),
    "set_string_function": _set_string_function_check,
    "singlecomplex": lambda v: assert_is(v, np.complex64),
    "string_": lambda v: assert_is(v, np.bytes_),
    "sometrue": lambda v: assert_true(v([0, 1]) and not v([0, 0])),
    "source": lambda v: assert_true("def dumps" in printed(v, json.dumps)),
    "tracemalloc_domain": lambda v: assert_true(v == np.lib.tracemalloc_domain),
    "trapz": lambda v: assert_true(v([1.0, 2.0, 3.0]) == 4.0 and v([1.0, 3.0], dx=2.0) == 4.0),
    "unicode_": lambda v: assert_is(v, np.str_),
    "who": None,  # type: ignore[dict-item]  # needs capsys: test_who below
    "row_stack": lambda v: assert_true(v(([1, 2], [3, 4])).tolist() == [[1, 2], [3, 4]]),
    "AxisError": lambda v: assert_is(v, np.exceptions.AxisError),
    "ComplexWarning": lambda v: assert_is(v, np.exceptions.ComplexWarning),
    "DTypePromotionError": lambda v: assert_is(v, np.exceptions.DTypePromotionError),
    "ModuleDeprecationWarning": lambda v: assert_is(v, np.exceptions.ModuleDeprecationWarning),
    "RankWarning": lambda v: assert_is(v, np.exceptions.RankWarning),
    "TooHardError": lambda v: assert_is(v, np.exceptions.TooHardError),
    "VisibleDeprecationWarning": lambda v: assert_is(v, np.exceptions.VisibleDeprecationWarning),
    "compare_chararrays": lambda v: assert_true(
        v(np.array(["a", "b"]), np.array(["a", "c"]), "==", True).tolist() == [True, False]),
    "chararray": lambda v: assert_is(v, np.char.chararray),
    "format_parser": lambda v: assert_true(v(["f8", "i4"], ["a", "b"], []).dtype.names == ("a", "b")),
    # NumPy 1.20-1.24: the Python types
    "float": lambda v: assert_is(v, float),
    "int": lambda v: assert_is(v, int),
    "object": lambda v: assert_is(v, object),
    "str": lambda v: assert_is(v, str),
    "unicode": lambda v: assert_is(v, str),
    "complex": lambda v: assert_is(v, complex),
    # older removals
    "asscalar": lambda v: assert_true(v(np.array([2.5])) == 2.5 and type(v(np.array([2.5]))) is float),
    "msort": lambda v: assert_true(v([[3, 1], [1, 2]]).tolist() == [[1, 1], [3, 2]]),
    "rank": lambda v: assert_true(v(np.zeros((2, 3))) == 2 and v(5) == 0),
    "loads": lambda v: assert_true(v(pickle.dumps({"a": [1]})) == {"a": [1]}),
    "int0": lambda v: assert_is(v, np.intp),
    "uint0": lambda v: assert_is(v, np.uintp),
    "bool8": lambda v: assert_is(v, np.bool_),
    "object0": lambda v: assert_is(v, np.object_),
    "str0": lambda v: assert_is(v, np.str_),
    "bytes0": lambda v: assert_is(v, np.bytes_),
    "void0": lambda v: assert_is(v, np.void),
    "typeDict": lambda v: assert_is(v, np.sctypeDict),
}


def assert_is(value: Any, expected: Any) -> None:
    assert value is expected, f"{value!r} is not {expected!r}"


def assert_true(condition: Any) -> None:
    assert condition


def test_the_table_has_a_check_for_every_name() -> None:
    assert set(CHECKS) == set(removed.REMOVED)


@pytest.mark.timeout(60)
def test_ruff_npy201_flags_exactly_the_npy201_table(tmp_path: Path) -> None:
    # The reference list is ruff's NPY201 rule: every entry of the table is flagged by it,
    # and none of the other names of the table (NumPy 1.20-1.24 aliases, older removals) is.
    ruff = Path(sys.executable).with_name("ruff")
    if not ruff.exists():
        pytest.skip("ruff is not installed next to this Python")
    names = sorted(removed.REMOVED)
    (tmp_path / "uses.py").write_text("import numpy as np\n" + "".join(f"np.{n}\n" for n in names))
    result = subprocess.run([str(ruff), "check", "--isolated", "--select", "NPY201", "--output-format", "json",
                             "uses.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    flagged = {names[item["location"]["row"] - 2] for item in json.loads(result.stdout)}
    assert flagged == set(removed.NPY201)


def _needs_tmp(check: Callable[..., None]) -> bool:
    return check in (_recfromcsv_check, _recfromtxt_check)


@pytest.mark.parametrize("name", sorted(n for n in removed.REMOVED if n != "who"))
def test_every_removed_name_works_in_the_scripts_code(name: str, tmp_path: Path) -> None:
    if name not in STILL_PRESENT:
        assert not hasattr(np, name)  # NumPy itself lacks it: the script failed before
    value = run_legacy(f"import numpy as np\nvalue = np.{name}\n")["value"]
    imported = run_legacy(f"from numpy import {name} as value\n")["value"]
    check = CHECKS[name]
    for got in (value, imported):
        if _needs_tmp(check):
            check(got, tmp_path)
        else:
            check(got)
    assert (f"np.{name}", "rewritten") in reported(f"import numpy as np\nvalue = np.{name}\n")


def test_who(capsys: pytest.CaptureFixture[str]) -> None:
    assert not hasattr(np, "who")
    _who_check(run_legacy("import numpy\nvalue = numpy.who\n")["value"], capsys)


def test_numpy_itself_is_not_changed() -> None:
    run_legacy("import numpy as np\nvalue = (np.float, np.NaN, np.lib.pad)\n")
    assert not hasattr(np, "NaN") and not hasattr(np.lib, "pad")


def test_names_that_still_exist_are_not_rewritten() -> None:
    source = "import numpy as np\nx = np.float32(1)\nok = isinstance(np.zeros(1), np.ndarray)\n"
    assert reported(source) == []
    assert run_legacy(source)["ok"] is True


def test_bool_and_long_are_numpy_2s_own() -> None:
    # NumPy 2 has np.bool and np.long again; old uses work with them unchanged.
    found = run_legacy("import numpy as np\nmask = np.zeros(2, dtype=np.bool)\nn = np.long(3)\n")
    assert found["mask"].dtype == np.bool_ and found["n"] == 3
    assert reported("import numpy as np\nx = np.bool\n") == []


def test_assignment_to_numpy_reaches_the_real_module() -> None:
    # The common 2023 patch for old libraries (np.float = float) still reaches NumPy itself.
    try:
        run_legacy("import numpy as np\nnp.old_alias_for_test = float\n")
        assert np.old_alias_for_test is float  # type: ignore[attr-defined]
    finally:
        del np.old_alias_for_test  # type: ignore[attr-defined]


# --------------------------------------------------------------------------
# np.lib.pad
# --------------------------------------------------------------------------

@pytest.mark.parametrize("source", [
    "import numpy as np\nout = np.lib.pad(x, ((1, 0), (0, 2)), 'constant')\n",
    "import numpy\nout = numpy.lib.pad(x, ((1, 0), (0, 2)), 'constant')\n",
    "from numpy.lib import pad\nout = pad(x, ((1, 0), (0, 2)), 'constant')\n",
])
def test_lib_pad(source: str) -> None:
    x = np.array([[1, 2], [3, 4]])
    out = run_legacy(source, x=x)["out"]
    expected = np.zeros((3, 4), int)
    expected[1:, :2] = x
    np.testing.assert_array_equal(out, expected)
    assert any("pad" in construct for construct, _ in reported(source))


# --------------------------------------------------------------------------
# Ragged np.array, copy=False
# --------------------------------------------------------------------------

@pytest.mark.parametrize("source", [
    "import numpy as np\nout = np.array(tokens)\n",
    "import numpy as np\nout = np.asarray(tokens)\n",
    "from numpy import array\nout = array(tokens)\n",
])
def test_ragged_input_gives_an_object_array_with_the_old_warning(source: str) -> None:
    tokens = [[4, 8, 15], [16], [23, 42]]
    with pytest.raises(ValueError, match="inhomogeneous"):
        np.array(tokens)  # NumPy itself
    with pytest.warns(np.exceptions.VisibleDeprecationWarning, match="ragged"):
        out = run_legacy(source, tokens=tokens)["out"]
    assert out.dtype == object and out.shape == (3,)
    assert [len(row) for row in out] == [3, 1, 2] and out[2] == [23, 42]


def test_ragged_input_with_a_dtype_still_fails_as_in_numpy_1() -> None:
    with pytest.raises(ValueError):
        run_legacy("import numpy as np\nout = np.array([[1, 2], [3]], dtype=np.int32)\n")


def test_regular_input_is_unchanged_and_silent() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = run_legacy("import numpy as np\nout = np.array([[1, 2], [3, 4]], np.float32)\n")["out"]
    assert out.dtype == np.float32 and out.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_copy_false_means_copy_if_needed() -> None:
    source = "import numpy as np\na = np.array([1, 2], copy=False)\nb = np.array(base, copy=False)\n"
    base = np.arange(3)
    found = run_legacy(source, base=base)
    assert found["a"].tolist() == [1, 2] and found["b"] is base


@pytest.mark.parametrize("source", [
    "import numpy as np\nnp.savez(path, params=weights)\n",
    "import numpy as np\nnp.savez_compressed(path, weights)\n",
    "from numpy import save\nsave(path, weights)\n",
])
def test_saving_a_ragged_list_stores_numpy_1s_object_array(source: str, tmp_path: Path) -> None:
    # TensorLayer 1.x's tl.files.save_npz: np.savez(name, params=[W0, b0, W1, b1]).
    weights = [np.arange(12.0).reshape(4, 3), np.arange(3.0), np.ones((3, 2)), np.zeros(2)]
    path = tmp_path / ("out.npy" if "save(" in source and "savez" not in source else "out.npz")
    with pytest.raises(ValueError, match="inhomogeneous"):
        np.savez(tmp_path / "direct.npz", params=weights)  # NumPy itself
    with pytest.warns(np.exceptions.VisibleDeprecationWarning, match="ragged") as caught:
        run_legacy(source, path=str(path), weights=weights)
    assert [(w.filename, w.lineno) for w in caught] == [("legacy_module.py", 2)]  # the script's saving line
    loaded = np.load(path, allow_pickle=True)
    stored = loaded if path.suffix == ".npy" else loaded["params" if "params" in source else "arr_0"]
    assert stored.dtype == object and stored.shape == (4,)
    for got, want in zip(stored, weights):
        np.testing.assert_array_equal(got, want)


def test_saving_regular_lists_is_numpys_own_and_silent(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_legacy("import numpy as np\nnp.savez(path, a=[[1, 2], [3, 4]], b=x)\n", path=str(tmp_path / "r.npz"),
                   x=np.float32(2.5))
    loaded = np.load(tmp_path / "r.npz")
    assert loaded["a"].dtype == np.int64 and loaded["a"].tolist() == [[1, 2], [3, 4]] and loaded["b"] == 2.5


# --------------------------------------------------------------------------
# np.load of object arrays
# --------------------------------------------------------------------------

LOAD = "import numpy as np\nvocab = np.load(path).item()\n"


@pytest.fixture()
def vocab_file(tmp_path: Path) -> str:
    path = tmp_path / "vocab.npy"
    np.save(path, np.array({"<pad>": 0, "the": 1}, dtype=object), allow_pickle=True)
    return str(path)


def test_load_of_an_object_array_keeps_the_safe_default_and_names_the_flag(vocab_file: str) -> None:
    with pytest.raises(runtime.PickleRefusedError, match="--allow-pickle") as caught:
        run_legacy(LOAD, path=vocab_file)
    assert isinstance(caught.value, ValueError) and vocab_file in str(caught.value)
    assert runtime.failure_hint(caught.value) == str(caught.value)


def test_allow_pickle_flag_restores_the_old_default(vocab_file: str) -> None:
    assert run_legacy(LOAD, allow_pickle=True, path=vocab_file)["vocab"] == {"<pad>": 0, "the": 1}


def test_explicit_allow_pickle_false_wins_over_the_flag(vocab_file: str) -> None:
    with pytest.raises(ValueError, match="allow_pickle"):
        run_legacy("import numpy as np\nv = np.load(path, allow_pickle=False).item()\n",
                   allow_pickle=True, path=vocab_file)


def test_npz_access_failure_gets_the_hint(tmp_path: Path) -> None:
    path = tmp_path / "arrays.npz"
    np.savez(path, words=np.array(["a", 1], dtype=object))
    with pytest.raises(ValueError) as caught:
        run_legacy("import numpy as np\nwords = np.load(path)['words']\n", path=str(path))
    hint = runtime.failure_hint(caught.value)
    assert hint is not None and "--allow-pickle" in hint
    loaded = run_legacy("import numpy as np\nwords = np.load(path)['words']\n", allow_pickle=True, path=str(path))
    assert loaded["words"].tolist() == ["a", 1]


def test_check_reports_object_array_loads() -> None:
    assert ("np.load(path)", "bridged") in reported(LOAD)
    assert ("np.load(p, encoding='latin1')", "bridged") in reported(
        "import numpy as np\nw = np.load(p, encoding='latin1')\n")
    assert reported("import numpy as np\nw = np.load(p)\n") == []


def test_removed_name_reached_by_getattr_gets_a_hint() -> None:
    with pytest.raises(AttributeError) as caught:
        run_legacy("import numpy as np\nv = getattr(np, 'asscalar')\n")
    hint = runtime.failure_hint(caught.value)
    assert hint is not None and "ndarray.item()" in hint


# --------------------------------------------------------------------------
# ndarray methods NumPy 2 removed
# --------------------------------------------------------------------------

def test_ptp_itemset_newbyteorder() -> None:
    found = run_legacy("""
        import numpy as np
        a = np.array([[1, 7], [4, 2]])
        spread = a.ptp()
        columns = a.ptp(axis=0)
        a.itemset((0, 1), 9)
        a.itemset(3, 5)
        b = np.array([1], dtype='<i4').newbyteorder()
    """)
    assert found["spread"] == 6 and found["columns"].tolist() == [3, 5]
    assert found["a"].tolist() == [[1, 9], [4, 5]]
    assert found["b"].dtype.byteorder == ">" and int(found["b"][0]) == 1 << 24


def test_own_ptp_method_is_kept() -> None:
    class Range:
        def ptp(self) -> str:
            return "own"
    assert run_legacy("value = r.ptp()\n", r=Range())["value"] == "own"


def test_size_one_arrays_convert_to_python_scalars_as_in_numpy_1() -> None:
    with pytest.raises(TypeError):
        int(np.array([3]))  # NumPy 2 itself takes only 0-d arrays
    out = run_legacy("""
        import numpy as np
        logits = np.array([[0.1, 0.7, 0.2]])
        out = (int(np.argmax(logits, axis=1)), float(np.array([[2.5]])), complex(np.array([1j])),
               int("12"), int(3.9), float("0.5"))
    """)["out"]
    assert out == (1, 2.5, 1j, 12, 3, 0.5)
    assert type(out[0]) is int and type(out[1]) is float
    with pytest.raises(TypeError):
        run_legacy("import numpy as np\nout = int(np.array([1, 2]))\n")  # more than one element: still an error


def test_a_module_without_numpy_or_with_its_own_int_keeps_the_builtin() -> None:
    with pytest.raises(TypeError):
        run_legacy("import math\nout = int(v)\n", v=np.array([3]))
    out = run_legacy("""
        import numpy as np
        def convert(v, int=lambda v: "own"):
            return int(v)
        out = convert(np.array([3]))
    """)["out"]
    assert out == "own"


# -- keyword arguments NumPy removed ---------------------------------------------------------------


def test_reshape_newshape_and_percentile_interpolation_get_their_new_names() -> None:
    ns = run_legacy("""
        import numpy as np
        batch = np.arange(2 * 784, dtype=np.float32)
        images = np.reshape(batch, newshape=[-1, 28, 28, 1])
        low = np.percentile([1.0, 2.0, 3.0, 4.0], 40, interpolation='lower')
        near = np.nanquantile([1.0, np.nan, 3.0, 4.0], 0.5, interpolation='nearest')
    """)
    np.testing.assert_array_equal(ns["images"], np.arange(2 * 784, dtype=np.float32).reshape(2, 28, 28, 1))
    assert ns["low"] == 2.0  # 40 % of the way through [1, 2, 3, 4] is 2.2, rounded down to an element
    assert ns["near"] == 3.0
    assert ("np.reshape(a, newshape=3)", "rewritten") in reported("import numpy as np\nnp.reshape(a, newshape=3)\n")


def test_histogram_normed_computes_numpy_1s_normalisation() -> None:
    data = np.array([0.1, 0.2, 0.25, 0.7, 1.5, 2.9, 3.0])
    ns = run_legacy("""
        import numpy as np
        even, even_edges = np.histogram(data, bins=4, range=(0, 4), normed=True)
        uneven, uneven_edges = np.histogram(data, bins=[0, 0.5, 1, 4], normed=True)
        counts, _ = np.histogram(data, bins=4, normed=False)
        joint, _, _ = np.histogram2d(data, data, bins=2, normed=True)
    """, data=data)
    # NumPy 1.x: counts / sum(counts * widths), by hand.
    np.testing.assert_allclose(ns["even"], np.array([4, 1, 1, 1]) / 7.0)
    np.testing.assert_allclose(ns["uneven"], np.array([3, 1, 3]) / (3 * 0.5 + 1 * 0.5 + 3 * 3))
    np.testing.assert_array_equal(ns["counts"], np.histogram(data, bins=4)[0])
    np.testing.assert_allclose(ns["joint"], np.histogram2d(data, data, bins=2, density=True)[0])
    assert ns["joint"].sum() * (2.9 / 2) ** 2 == pytest.approx(1.0)


def test_abstract_scalar_types_as_dtypes_get_numpy_1s_concrete_type() -> None:
    # DQN replay memories of 2016-2017: `np.empty(n, dtype=np.integer)`; NumPy 2 raises TypeError.
    with pytest.raises(TypeError):
        np.empty(3, dtype=np.integer)
    values = run_legacy("""
        import numpy as np
        rewards = np.empty(3, dtype = np.integer)
        positional = np.zeros(2, np.floating)
        full = np.full((2,), 7, np.unsignedinteger)
        cast = np.array([1.7, 2.2]).astype(np.integer)
        kind = np.dtype(np.complexfloating)
        arange = np.arange(0, 3, 1, np.number)
        # not dtype positions: the abstract type stays
        is_int = np.issubdtype(np.int32, np.integer)
        isinst = isinstance(np.int8(1), np.signedinteger)
    """)
    assert values["rewards"].dtype == np.dtype(np.int_) == np.dtype(np.int64)
    assert values["positional"].dtype == np.float64
    np.testing.assert_array_equal(values["full"], np.array([7, 7], dtype=np.uint64))
    assert values["full"].dtype == np.uint64
    np.testing.assert_array_equal(values["cast"], np.array([1, 2], dtype=np.int64))
    assert values["kind"] == np.complex128
    assert values["arange"].dtype == np.float64
    np.testing.assert_array_equal(values["arange"], [0.0, 1.0, 2.0])
    assert values["is_int"] is True and values["isinst"] is True
    assert ("np.integer", "rewritten") in reported("import numpy as np\nx = np.empty(3, dtype=np.integer)\n")
    assert reported("import numpy as np\nx = np.issubdtype(np.int8, np.integer)\n") == []
