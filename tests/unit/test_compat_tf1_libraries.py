"""``compat.tf1_libraries``: which installed packages are TF1 code, and how their modules are served.

Fake installed packages (a ``site-packages`` folder with ``*.dist-info`` metadata)
are written in a temporary folder; the served module's values are checked against
NumPy, an old-style generated protobuf module against the message it describes.
"""
from __future__ import annotations

import ast
import contextlib
import importlib
import sys
import textwrap
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

from compat.numpy1 import bytes_helpers
from compat.runner import rewrite
from compat.tf1_libraries import surface
from compat.tf1_libraries.finder import LegacyPackageFinder
from compat.tf1_libraries.pillow import PillowPatches
from compat.tf1_libraries.protobuf import serialized_file
from compat.tf1_libraries.recognise import LegacyPackages, requires_tensorflow_1


def install_fake(site: Path, name: str, version: str, requires: list[str], files: dict[str, str],
                 distribution: str | None = None) -> None:
    """Write package ``name`` (``files``: path below the package -> source) and its dist-info into ``site``."""
    for relative, source in files.items():
        path = site / name / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source))
    info = site / f"{(distribution or name).replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    lines = ["Metadata-Version: 2.1", f"Name: {distribution or name}", f"Version: {version}"]
    lines += [f"Requires-Dist: {r}" for r in requires]
    (info / "METADATA").write_text("\n".join(lines) + "\n")
    (info / "top_level.txt").write_text(name + "\n")


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Path]:
    """A ``site-packages`` folder first on ``sys.path``; the modules imported from it are forgotten after."""
    folder = tmp_path / "site-packages"
    folder.mkdir()
    sys.path.insert(0, str(folder))
    before = set(sys.modules)
    try:
        yield folder
    finally:
        sys.path.remove(str(folder))
        for name in set(sys.modules) - before:
            if getattr(sys.modules[name], "__file__", None) and str(folder) in str(sys.modules[name].__file__):
                del sys.modules[name]
        importlib.invalidate_caches()


# --------------------------------------------------------------------------
# Recognition
# --------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "tf1_only"), [
    ("tensorflow (<2.0.0,>=1.15.0); extra == 'tensorflow'", True),  # dm-sonnet 1.36
    ("tensorflow (<1.13,>=1.6); extra == 'tf_cpu'", True),  # tensorlayer 1.11.1
    ("tensorflow-gpu==1.15.*", True),
    ("tensorflow<=1.14", True),
    ("tensorflow>=1.0", False),  # also accepts 2.x
    ("tensorflow>=2.4", False),
    ("tensorflow", False),  # no bound: says nothing
    ("numpy<2", False),
])
def test_requirement_on_tensorflow_1_only(line: str, tf1_only: bool) -> None:
    assert (requires_tensorflow_1([line]) == line) is tf1_only


def test_packages_recognised_by_metadata_known_list_and_name(site: Path) -> None:
    install_fake(site, "oldlib", "1.0", ["numpy", "tensorflow (<2,>=1.4)"], {"__init__.py": ""})
    install_fake(site, "newlib", "3.0", ["tensorflow>=2.4"], {"__init__.py": ""})
    install_fake(site, "tensorpack", "0.11", [], {"__init__.py": ""})
    packages = LegacyPackages()
    decision = packages.decide("oldlib.sub.module")
    assert decision.legacy and "oldlib 1.0 requires TensorFlow 1 (tensorflow (<2,>=1.4))" in decision.reason
    assert not packages.is_legacy("newlib")
    assert not packages.is_legacy("tensorpack")  # 0.10 and later are TF2-capable
    assert not packages.is_legacy("json")  # the standard library is never asked about
    assert LegacyPackages(["newlib"]).is_legacy("newlib.x")
    with pytest.raises(ValueError, match="--legacy-package tensorflow: the runner itself runs on tensorflow"):
        LegacyPackages(["tensorflow"])


def test_known_library_recognised_below_its_tf2_release(site: Path) -> None:
    install_fake(site, "tensorpack", "0.9.9", [], {"__init__.py": ""})
    decision = LegacyPackages().decide("tensorpack")
    assert decision.legacy and "tensorpack 0.9.9 is a TensorFlow 1 library" in decision.reason


# --------------------------------------------------------------------------
# Serving
# --------------------------------------------------------------------------

def _finder(named: tuple[str, ...] = ()) -> LegacyPackageFinder:
    helpers = rewrite.LegacyHelpers(lambda: pytest.fail("the TF1 namespace is not needed here"), bytes_helpers)
    return LegacyPackageFinder(LegacyPackages(named), helpers)


def test_legacy_package_is_rewritten_in_memory_and_others_are_not(site: Path) -> None:
    old_module = """
        import numpy as np
        VALUE = np.float(3) / 2
        DATA = np.arange(3, dtype=np.uint8).tostring()
        x = 1 if "" is not "a" else 2
    """
    install_fake(site, "oldlib", "1.0", ["tensorflow<2"], {"__init__.py": "", "arrays.py": old_module})
    install_fake(site, "plainlib", "1.0", [], {"__init__.py": "import numpy as np\nHAS_FLOAT = hasattr(np, 'float')\n"})
    finder = _finder()
    sys.meta_path.insert(0, finder)
    try:
        with _no_syntax_warning():
            arrays = importlib.import_module("oldlib.arrays")
        plain = importlib.import_module("plainlib")
    finally:
        sys.meta_path.remove(finder)
    assert arrays.VALUE == 1.5 and isinstance(arrays.VALUE, float)  # NumPy 1's np.float is float
    assert arrays.DATA == np.arange(3, dtype=np.uint8).tobytes() == b"\x00\x01\x02"
    assert plain.HAS_FLOAT is hasattr(np, "float")  # left alone: NumPy 2 has no np.float
    assert finder.served == ["oldlib", "oldlib.arrays"]
    assert finder.owns(arrays) and not finder.owns(plain)
    assert not list((site / "oldlib").rglob("*.pyc"))  # compiled in memory: no bytecode next to the files


@contextlib.contextmanager
def _no_syntax_warning() -> Iterator[None]:
    """Fails if a ``SyntaxWarning`` is shown (an installed package's warnings are not the user's)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        yield
    assert not [w for w in seen if issubclass(w.category, SyntaxWarning)]


def _old_generated_source() -> tuple[str, bytes]:
    """An old-style ``*_pb2`` module (protoc < 3.20: descriptors built by direct calls) for
    ``message Point { int32 x = 1; float y = 2; }`` in package ``fake``, and its serialized file."""
    from google.protobuf import descriptor_pb2
    proto = descriptor_pb2.FileDescriptorProto(name="fake_point.proto", package="fake", syntax="proto3")
    message = proto.message_type.add(name="Point")
    message.field.add(name="x", number=1, type=descriptor_pb2.FieldDescriptorProto.TYPE_INT32,
                      label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
    message.field.add(name="y", number=2, type=descriptor_pb2.FieldDescriptorProto.TYPE_FLOAT,
                      label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
    data = proto.SerializeToString()
    source = f"""
        import sys
        _b=sys.version_info[0]<3 and (lambda x:x) or (lambda x:x.encode('latin1'))
        from google.protobuf import descriptor as _descriptor
        DESCRIPTOR = _descriptor.FileDescriptor(
          name='fake_point.proto', package='fake', syntax='proto3',
          serialized_pb=_b({data.decode('latin1')!r}))
        _POINT = _descriptor.Descriptor(name='Point', full_name='fake.Point', filename=None, file=DESCRIPTOR,
          containing_type=None, fields=[], extensions=[], nested_types=[], enum_types=[])
    """
    return source, data


def test_old_generated_protobuf_module_is_rebuilt(site: Path) -> None:
    source, data = _old_generated_source()
    install_fake(site, "oldproto", "1.0", ["tensorflow<2"], {"__init__.py": "", "point_pb2.py": source})
    assert serialized_file(ast.parse(textwrap.dedent(source))) == data
    with pytest.raises(TypeError, match="Descriptors cannot be created directly"):
        exec(compile(textwrap.dedent(source), "point_pb2.py", "exec"), {})  # what protobuf 4 does to it
    finder = _finder()
    sys.meta_path.insert(0, finder)
    try:
        point_pb2 = importlib.import_module("oldproto.point_pb2")
    finally:
        sys.meta_path.remove(finder)
    point = point_pb2.Point(x=7, y=1.5)
    # proto3 wire format by hand: field 1 varint 7, field 2 fixed32 1.5
    assert point.SerializeToString() == b"\x08\x07\x15" + np.float32(1.5).tobytes()
    assert point_pb2._POINT.full_name == "fake.Point"


# --------------------------------------------------------------------------
# Pillow, hints and check
# --------------------------------------------------------------------------

def test_pillow_constants_put_back_and_taken_away() -> None:
    from PIL import Image
    patches = PillowPatches()
    had = hasattr(Image, "ANTIALIAS")
    patches.apply(Image)
    try:
        assert getattr(Image, "ANTIALIAS") == Image.Resampling.LANCZOS == 1  # noqa: B009 - gone from the stubs
        assert getattr(Image, "LINEAR") == Image.Resampling.BILINEAR == 2  # noqa: B009
        assert getattr(Image, "CUBIC") == Image.Resampling.BICUBIC == 3  # noqa: B009
    finally:
        patches.undo()
    assert hasattr(Image, "ANTIALIAS") is had


def test_failure_inside_an_unrecognised_installed_package_names_the_flag(tmp_path: Path) -> None:
    path = tmp_path / "site-packages" / "foolib" / "layers.py"
    # The error TensorFlow 2.21 gives TFLearn 0.5.0's import, raised from a file of the installed package.
    code = compile("raise ImportError(\"cannot import name 'is_sequence' from 'tensorflow.python.util.nest'\")\n",
                   str(path), "exec")
    with pytest.raises(ImportError) as caught:
        exec(code, {})
    hint = surface.installed_failure_hint(caught.value)
    assert hint is not None and "--legacy-package foolib" in hint
    assert surface.installed_failure_hint(ValueError("tensorflow")) is None


def test_check_reports_known_library_not_installed() -> None:
    for name in ("prettytensor", "keras_contrib"):
        if importlib.machinery.PathFinder.find_spec(name) is not None:
            pytest.fail(f"{name} is installed in the project's environment: this test expects it absent")
    source = "import prettytensor as pt\nimport numpy\nfrom keras_contrib.layers import CRF\n"
    uses = list(surface.SURFACE.uses(ast.parse(source)))  # type: ignore[misc]
    assert [(u.construct, u.status) for u in uses] == [("import prettytensor", "unsupported"),
                                                       ("import keras_contrib", "unsupported")]
    assert "prettytensor" in uses[0].action and "0.7.4" in uses[0].action
    assert "keras-contrib 2.0.8" in uses[1].action and "never released to PyPI" in uses[1].action


@pytest.mark.parametrize(("args", "message"), [
    (["run", "--legacy-package"], "--legacy-package needs a package name"),
    (["run", "--legacy-package=", "x.py"], "--legacy-package needs a package name"),
    (["run", "--legacy-package", "tensorflow", "x.py"], "the runner itself runs on tensorflow"),
    (["run", "--legacy-package", "numpy", "x.py"], "the runner itself runs on numpy"),
    (["check", "--legacy-package", "tflearn", "x.py"], "--legacy-package is an option of run"),
])
def test_legacy_package_option_refusals(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    from compat.__main__ import main
    assert main(args) == 2
    assert message in capsys.readouterr().err


# --------------------------------------------------------------------------
# compat check following imports into legacy packages
# --------------------------------------------------------------------------

class _Verdict(NamedTuple):
    path: str
    construct: str
    handled: bool


def test_check_follows_imports_into_legacy_packages_only(site: Path, tmp_path: Path) -> None:
    from compat.tf1_libraries.follow import refused_in_packages
    install_fake(site, "oldlib", "1.0", ["tensorflow<2"], {
        "__init__.py": "from .layers import dense\n",
        "layers.py": "from oldlib import utils\nimport tensorflow as tf\nREFUSED = 1\n",
        "utils.py": "import plainlib\n",
        "extra.py": "REFUSED = 2\n",  # imported by the script by its full name only
        "unused.py": "REFUSED = 3\n",  # never imported: not read
    })
    install_fake(site, "plainlib", "1.0", [], {"__init__.py": "REFUSED = 4\n"})
    script = tmp_path / "project" / "train.py"
    script.parent.mkdir()
    script.write_text("import oldlib.extra\nimport plainlib\n")

    def findings_of(path: str, source: rewrite.LocalSource) -> list[_Verdict]:
        assert source.tree is not None
        refused = any(isinstance(n, ast.Name) and n.id == "REFUSED" for n in ast.walk(source.tree))
        return [_Verdict(path, "module", True), *([_Verdict(path, "REFUSED", False)] if refused else [])]

    found = refused_in_packages(script, rewrite.LocalScope.for_script(script), findings_of)
    assert sorted(f.path for f in found) == ["oldlib/extra.py", "oldlib/layers.py"]
    assert all(not f.handled for f in found)


def test_check_reports_what_is_refused_inside_a_served_package_as_a_warning(site: Path) -> None:
    from compat.tf1_libraries import follow
    install_fake(site, "oldlib", "1.0", ["tensorflow<2"], {
        "__init__.py": "from . import profiling\n",
        "profiling.py": "def peak():\n    from tensorflow.contrib.memory_stats import MaxBytesInUse\n"
                        "    return MaxBytesInUse()\n",
    })
    surface._default_packages.cache_clear()
    follow._refused_in_package.cache_clear()
    try:
        uses = list(surface.SURFACE.uses(ast.parse("import oldlib\n")))  # type: ignore[misc]
    finally:
        surface._default_packages.cache_clear()
        follow._refused_in_package.cache_clear()
    assert [(u.construct.split(" -> ")[0], u.status) for u in uses] == [
        ("import oldlib", "bridged"),
        ("oldlib/profiling.py:2: from tensorflow.contrib.memory_stats import ...", "warning")]
    assert "oldlib 1.0 requires TensorFlow 1" in uses[0].action
    assert "tf.contrib.memory_stats is not provided" in uses[1].action and "inside oldlib" in uses[1].action


def test_a_served_librarys_modules_count_as_the_scripts_own_code() -> None:
    import types

    from compat.surfaces import Context
    context = Context(scope=None, helpers=None, owns_module=lambda module: module.__name__ == "script_mod")
    finders = surface.SURFACE.finders(context) if surface.SURFACE.finders else []
    served = next(f for f in finders if isinstance(f, LegacyPackageFinder))
    served.mark_served("tflearn.layers.core")  # as if the finder had served it
    assert context.owns_module(types.ModuleType("script_mod"))
    assert context.owns_module(types.ModuleType("tflearn.layers.core"))
    assert not context.owns_module(types.ModuleType("numpy"))


# --------------------------------------------------------------------------
# pip install --target FOLDER on PYTHONPATH: installed, not the script's code
# --------------------------------------------------------------------------

def test_a_pip_target_folder_on_pythonpath_holds_installed_packages_not_script_code(tmp_path: Path) -> None:
    target = tmp_path / "libs"  # not named site-packages
    install_fake(target, "oldlib", "1.0", ["tensorflow<2"], {"__init__.py": "X = 1\n", "core.py": "Y = 2\n"})
    info = next(target.glob("oldlib-*.dist-info"))
    (info / "RECORD").write_text("oldlib/__init__.py,sha256=x,6\noldlib/core.py,sha256=y,6\n"
                                 "oldlib-1.0.dist-info/METADATA,,\n")
    (target / "helpers.py").write_text("Z = 3\n")  # the user's own module beside them
    (target / "shared").mkdir()
    (target / "shared" / "__init__.py").write_text("")
    from compat.runner import local_imports
    local_imports.installed_tops.cache_clear()
    scope = rewrite.LocalScope(tmp_path / "project", folders=[target])
    assert not scope.contains(target / "oldlib" / "core.py")
    assert not scope.contains(target / "oldlib" / "__init__.py")
    assert scope.contains(target / "helpers.py") and scope.contains(target / "shared" / "__init__.py")
    assert local_imports.installed_tops(target.resolve()) == frozenset({"oldlib"})


def test_top_level_txt_of_an_egg_info_also_marks_installed_modules(tmp_path: Path) -> None:
    target = tmp_path / "vendor"
    (target / "legacy_mod.egg-info").mkdir(parents=True)
    (target / "legacy_mod.egg-info" / "top_level.txt").write_text("legacy_mod\n")
    (target / "legacy_mod.py").write_text("A = 1\n")
    (target / "mine.py").write_text("B = 2\n")
    from compat.runner import local_imports
    local_imports.installed_tops.cache_clear()
    scope = rewrite.LocalScope(tmp_path / "project", folders=[target])
    assert not scope.contains(target / "legacy_mod.py") and scope.contains(target / "mine.py")


# --------------------------------------------------------------------------
# TF 1.7's variable_scope._VARSCOPE_KEY (PrettyTensor)
# --------------------------------------------------------------------------

def test_varscope_key_collection_reads_and_sets_the_current_scope_of_its_graph() -> None:
    import tensorflow as tf
    from tensorflow.python.ops import variable_scope

    from compat.tf1_libraries import varscope
    assert not hasattr(variable_scope, "_VARSCOPE_KEY")  # TF 1.8 removed it
    undo = varscope.install()
    try:
        graph, other = tf.Graph(), tf.Graph()
        with graph.as_default():
            slot = tf.compat.v1.get_collection_ref(variable_scope._VARSCOPE_KEY)
            old = slot[0]
            assert old is tf.compat.v1.get_variable_scope() and len(slot) == 1 and list(slot) == [old]
            # PrettyTensor's enter: a scope object put in the slot becomes the current scope ...
            slot[0] = tf.compat.v1.VariableScope(old.reuse, name="block/fc")
            made = tf.compat.v1.get_variable("weights", shape=[2])
            with other.as_default():  # ... of this graph only
                assert tf.compat.v1.get_variable_scope().name == ""
            slot[0] = old  # ... and its leave restores the scope
            after = tf.compat.v1.get_variable("weights", shape=[2])
            assert tf.compat.v1.get_collection(variable_scope._VARSCOPESTORE_KEY)  # TF 2's store kept
        assert made.op.name == "block/fc/weights" and after.op.name == "weights"
        with pytest.raises(IndexError, match="one entry"):
            slot[1] = old
        assert graph.get_collection_ref("losses") == []  # every other key reaches TensorFlow's method
    finally:
        undo()
    assert not hasattr(variable_scope, "_VARSCOPE_KEY")
    assert "get_collection_ref" in tf.Graph.__dict__ and not hasattr(tf.Graph.get_collection_ref, "__wrapped__")
