"""Run an unmodified TensorFlow 1 era script on today's stack.

:func:`run` is ``python -m compat run script.py [args...]``. Inside the runner's
own process, and only there, it installs:

* a :class:`compat.runner.rewrite.LegacyFinder` first on ``sys.meta_path``: the
  script's own modules (files below its folder, a ``PYTHONPATH`` folder or a
  folder its code adds to ``sys.path``, see :func:`compat.runner.rewrite.script_scope`;
  never installed packages) are compiled through :func:`compat.runner.rewrite.compile_legacy`;
* ``sys.modules['tensorflow.contrib']`` and ``['tensorflow.contrib.data']``
  from :func:`compat.tf1.namespace.contrib_modules` (the real ``tensorflow`` module is
  not modified);
* a finder that serves ``scipy.misc`` from :mod:`compat.scipy_legacy.misc` and the
  MNIST tutorial modules (:mod:`compat.tutorials.legacy_modules`), gives SciPy's
  modules the names they lost (``scipy.ndimage.imread``, ``scipy.integrate.simps``,
  ...: :mod:`compat.scipy_legacy.patches`), likewise Matplotlib's, scikit-learn's and
  pandas' (:mod:`compat.matplotlib_legacy`, :mod:`compat.pydata_legacy`, which also has
  ``sklearn.cross_validation`` and the other removed modules served), and refuses removed TensorFlow modules
  (``tensorflow.contrib.rnn``, ...) with a message naming the replacement;
* the finder of :mod:`compat.contrib.slim`, which serves ``tensorflow.contrib.slim``,
  ``layers``, ``framework`` and ``training`` from the ``tf_slim`` package;
* ``TF_USE_LEGACY_KERAS=1`` unless set (:mod:`compat.runner.legacy_keras`), then
  ``tf.compat.v1.disable_v2_behavior()``;
* ``SerializeToString()`` deterministic by default (map entries sorted by key, so
  the script's exports have the same bytes in every run;
  :mod:`compat.runner.deterministic_protobuf`);
* NumPy 1's printing of scalars (``numpy.set_printoptions(legacy="1.25")``);
* a ``threading.excepthook`` that prints an uncaught exception of any thread of
  the script (with file and line) and makes the run fail.

Then the script runs as ``__main__`` with ``sys.argv = [script, *args]`` and its
folder first on ``sys.path``. The exit status is the script's: 0 when it ends,
the ``SystemExit`` code when it exits, 1 after an uncaught exception (whose
traceback is printed) in the main thread or, once the script's threads have
ended, in any other thread. The runner's own messages go to stderr; a missing
script or a syntax error in it is reported with file and line, with status 2.
"""
from __future__ import annotations

import ast
import atexit
import builtins
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import pkgutil
import sys
import threading
import traceback
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import compat.contrib as contrib_bridges
from compat import keras2, rules
from compat.contrib import slim as slim_bridge
from compat.estimator import _gaps as estimator_gaps
from compat.rules import EXIT_FAILURE, EXIT_USAGE, SCIPY_MISC_MOVED, scipy_misc_message
from compat.runner import deterministic_protobuf, hints, legacy_keras, rewrite, startup_log, thread_endings
from compat.runner.modules import ModuleObjectLoader, forget_module
from compat.surfaces.table_patches import TablePatches
from compat.tf1 import deep_modules, old_semantics
from compat.tf1 import namespace as tf1
from compat.tutorials import legacy_modules

__all__ = [
    "Installation",
    "install",
    "make_scipy_misc_module",
    "run",
]

_PREFIX = "compat"
#: The folder of the compat package, whose frames end a "not provided" traceback.
_COMPAT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: The file of the rewriting loader and the ``__compat__`` helpers: plumbing in a traceback.
_REWRITE_FILE = os.path.abspath(rewrite.__file__)

def _in_compat(filename: str) -> bool:
    """True for a file of the compat package (any of its sub-packages)."""
    return os.path.abspath(filename).startswith(_COMPAT_DIR + os.sep)


def _error(message: str) -> None:
    print(f"{_PREFIX}: {message}", file=sys.stderr)


# --------------------------------------------------------------------------
# scipy.misc
# --------------------------------------------------------------------------

def make_scipy_misc_module(bridge: types.ModuleType) -> types.ModuleType:
    """A ``scipy.misc`` module: the image helpers from ``bridge``, moved functions, clear errors."""
    module = types.ModuleType("scipy.misc", "scipy.misc as of SciPy 1.2, as far as the compat "
                                            "runner provides it (see compat.scipy_legacy.misc).")
    provided = tuple(getattr(bridge, "__all__", ()))

    def __getattr__(name: str) -> Any:
        if name in provided:
            return getattr(bridge, name)
        if name in SCIPY_MISC_MOVED:
            module_name, _, attr = SCIPY_MISC_MOVED[name].rpartition(".")
            return getattr(importlib.import_module(module_name), attr)
        if name.startswith("__"):
            raise AttributeError(name)
        raise tf1.LegacyAPIError(scipy_misc_message(name))

    # Through __dict__: a module's __getattr__ and __dir__ are plain entries of it.
    module.__dict__.update(__getattr__=__getattr__, __dir__=lambda: sorted({*provided, *SCIPY_MISC_MOVED}),
                           __all__=list(provided))
    module.__path__ = []  # a package, so unknown names reach _LegacyModuleFinder on `from` imports
    return module


class _AddedAttributesLoader(importlib.abc.Loader):
    """Runs a module's own loader, then adds attributes the module lost (``scipy.ndimage.imread``)."""

    def __init__(self, loader: importlib.abc.Loader, add: Callable[[types.ModuleType], None]) -> None:
        self._loader = loader
        self._add = add

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        """What the module's own loader creates."""
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        """Run the module's own code, then add the attributes."""
        self._loader.exec_module(module)
        self._add(module)

    def __getattr__(self, name: str) -> Any:
        # get_source, get_filename, resource readers ...: the module's own loader answers.
        return getattr(self._loader, name)


class _LegacyModuleFinder(importlib.abc.MetaPathFinder):
    """Serves ``scipy.misc``, the TF1 tutorial modules and SciPy's removed names; refuses removed modules.

    ``scipy.misc`` is served as a package with an empty path, so that ``from
    scipy.misc import face`` (a name it lacks) asks this finder for
    ``scipy.misc.face``, which raises with the useful message instead of
    Python's generic "cannot import name" (the same for ``tensorflow.contrib``).
    ``tensorflow.examples.tutorials.mnist`` comes from
    :mod:`compat.tutorials.legacy_modules`. ``scipy``, ``scipy.ndimage``, ``scipy.signal``,
    ... are the real modules, given the names they lost once they are loaded
    (``imread``, ``simps``, ``hann``, ...: :mod:`compat.scipy_legacy.patches`);
    :meth:`undo` takes them away again.
    """

    def __init__(self, scipy_misc: types.ModuleType) -> None:
        self._scipy_misc = scipy_misc
        # Resolved now: a script with its own `compat` package may take that name later.
        imread = importlib.import_module("compat.scipy_legacy.ndimage").imread
        # Each gives some third-party modules back the names they lost, when they are loaded.
        self._patches: list[TablePatches] = [
            importlib.import_module("compat.scipy_legacy.patches").ScipyPatches(imread),
            importlib.import_module("compat.matplotlib_legacy.patches").MatplotlibPatches(),
            importlib.import_module("compat.pydata_legacy.patches").PydataPatches()]
        self._patched_modules = {name: patches for patches in self._patches for name in patches.modules}
        # Whole removed modules some patches serve (sklearn.cross_validation, ...): name -> factory.
        self._module_factories = {name: make for patches in self._patches
                                  for name, make in patches.served_modules.items()}
        #: The module objects served from those factories, made on first import.
        self._served: dict[str, types.ModuleType] = {}
        self._tutorials = {name: legacy_modules.tutorial_module(name) for name in rules.TUTORIAL_MODULES}

    def add_to_loaded_modules(self) -> None:
        """Give the third-party modules already imported the names they lost (``scipy.ndimage.imread``, ...)."""
        for name, patches in sorted(self._patched_modules.items()):
            module = sys.modules.get(name)
            if module is not None:
                patches.apply(module)

    def undo(self) -> None:
        """Take away the third-party names this finder added and the modules it served."""
        for patches in self._patches:
            patches.undo()
        for name, module in self._served.items():
            forget_module(name, module)
        self._served.clear()
        for name, served in self._tutorials.items():
            if sys.modules.get(name) is served:
                del sys.modules[name]
        tensorflow = sys.modules.get("tensorflow")
        # The import system set `tensorflow.examples` on the real module when it loaded ours.
        if tensorflow is not None and tensorflow.__dict__.get("examples") is self._tutorials["tensorflow.examples"]:
            delattr(tensorflow, "examples")

    def _patched_spec(self, fullname: str, path: Sequence[str] | None
                      ) -> importlib.machinery.ModuleSpec | None:
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _AddedAttributesLoader(spec.loader, self._patched_modules[fullname].apply)
        return spec

    def _served_spec(self, fullname: str) -> importlib.machinery.ModuleSpec | None:
        """The spec of a removed module a patches object serves (made once; a factory may refuse)."""
        if fullname not in self._served:
            self._served[fullname] = self._module_factories[fullname]()
        served = self._served[fullname]
        return importlib.util.spec_from_loader(fullname, ModuleObjectLoader(served),
                                               is_package=hasattr(served, "__path__"))

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """A spec for a served module; raises :class:`compat.errors.LegacyImportError` for removed modules."""
        if fullname == "scipy.misc":
            return importlib.util.spec_from_loader(fullname, ModuleObjectLoader(self._scipy_misc),
                                                   is_package=True)
        if fullname in self._patched_modules:
            return self._patched_spec(fullname, path)
        if fullname in self._module_factories:
            return self._served_spec(fullname)
        if fullname.startswith("scipy.misc."):
            # Reached by `from scipy.misc import name` when scipy.misc lacks `name`.
            raise tf1.LegacyImportError(scipy_misc_message(fullname[len("scipy.misc."):]))
        bridge = _contrib_bridge(fullname)
        if bridge is not None:
            # Always a package: TF 1.x's source paths below it (tensorflow.contrib.crf.python.ops.crf)
            # are served the same bridge, and Python looks for them only below a package.
            return importlib.util.spec_from_loader(fullname, ModuleObjectLoader(bridge), is_package=True)
        served = self._tutorials.get(fullname)
        if served is not None:
            return importlib.util.spec_from_loader(fullname, ModuleObjectLoader(served),
                                                   is_package=hasattr(served, "__path__"))
        message = tf1.removed_module_message(fullname)
        if message is not None:
            raise tf1.LegacyImportError(message)
        return None


def _estimator_module(parts: list[str]) -> types.ModuleType | None:
    """``tensorflow.estimator[.sub]``: :mod:`compat.estimator` and its modules; None for ``tensorflow_estimator``.

    ``tensorflow_estimator[.python.estimator...]`` is the installed
    ``tensorflow-estimator`` package, loaded by the normal finders after the
    TensorFlow internals it imports are supplied (:mod:`compat.estimator._gaps`).
    """
    if parts[0] == "tensorflow_estimator":
        # The installed package itself, once the TensorFlow internals it imports are supplied.
        from compat.estimator._gaps import supply
        supply()
        return None
    rest = parts[2:]
    try:
        return importlib.import_module(".".join(["compat", "estimator", *rest]))
    except ModuleNotFoundError:
        return None


def _old_estimator_path(parts: list[str]) -> types.ModuleType | None:
    """``tensorflow.python.estimator[.x...]``, where TF <= 1.13 kept the Estimator (2018 code imported
    ``tensorflow.python.estimator.model_fn`` / ``.estimator`` by path): the same module of the installed
    ``tensorflow-estimator`` package, which TF 1.14-1.15 had moved it to; None if it has none."""
    from compat.estimator._gaps import supply
    supply()
    try:
        return importlib.import_module(".".join(["tensorflow_estimator", *parts[1:]]))
    except ModuleNotFoundError:
        return None


def _contrib_bridge(fullname: str) -> types.ModuleType | None:
    """The bridge module serving ``tensorflow.contrib.<name>[.deeper...]``, or None.

    A deep path of TF 1.x's source tree (``tensorflow.contrib.rnn.python.ops.rnn_cell``)
    is served the bridge of its ``tf.contrib`` submodule, which holds the public names.
    """
    parts = fullname.split(".")
    if parts[:2] == ["tensorflow", "estimator"] or parts[0] == "tensorflow_estimator":
        return _estimator_module(parts)
    if parts[:3] == ["tensorflow", "python", "estimator"]:
        return _old_estimator_path(parts)
    if len(parts) < 3 or parts[:2] != ["tensorflow", "contrib"]:
        return None
    if parts[2] not in contrib_bridges.bridged_modules():
        return None
    bridge = contrib_bridges.bridge(parts[2])
    return bridge if len(parts) == 3 else _source_path_module(fullname, bridge)


def _source_path_module(fullname: str, bridge: types.ModuleType) -> types.ModuleType:
    """A package for a TF 1.x source path below a bridged module (``...crf.python.ops``).

    Its names are the bridge's; a lower-case name the bridge lacks is taken for
    the name of a TF 1.x source file (``from tensorflow.contrib.crf.python.ops
    import crf``) and is the bridge itself, which holds that file's public names.
    """
    module = types.ModuleType(fullname, f"TF 1.x's {fullname}: the names of {bridge.__name__}.")
    module.__path__ = []

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return getattr(bridge, name)
        except AttributeError:
            if name.islower() and not name.startswith("_"):
                return bridge
            raise
    module.__dict__["__getattr__"] = __getattr__
    return module


# --------------------------------------------------------------------------
# Installation
# --------------------------------------------------------------------------

@dataclass
class Installation:
    """What :func:`install` changed, so that :meth:`uninstall` can put it back."""

    scope: rewrite.LocalScope
    helpers: rewrite.LegacyHelpers
    scipy_misc: types.ModuleType
    finders: list[importlib.abc.MetaPathFinder] = field(default_factory=list)
    saved_modules: dict[str, types.ModuleType | None] = field(default_factory=dict)
    slim: slim_bridge.SlimBridge | None = None
    protobuf: deterministic_protobuf.DeterministicSerialization | None = None

    def set_module(self, name: str, module: types.ModuleType) -> None:
        """Put ``module`` in ``sys.modules[name]``, remembering what was there."""
        if name not in self.saved_modules:
            self.saved_modules[name] = sys.modules.get(name)
        sys.modules[name] = module

    def uninstall(self) -> None:
        """Remove the finders, our ``scipy.misc``, and restore the ``sys.modules`` entries."""
        for finder in self.finders:
            if finder in sys.meta_path:
                sys.meta_path.remove(finder)
            if isinstance(finder, _LegacyModuleFinder):
                finder.undo()
        if sys.modules.get("scipy.misc") is self.scipy_misc:
            del sys.modules["scipy.misc"]
        scipy = sys.modules.get("scipy")
        if scipy is not None and scipy.__dict__.get("misc") is self.scipy_misc:
            delattr(scipy, "misc")
        for name, previous in self.saved_modules.items():
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous
        previous_misc = self.saved_modules.get("scipy.misc")
        if scipy is not None and previous_misc is not None:
            setattr(scipy, "misc", previous_misc)  # noqa: B010 - SciPy's stubs have no misc since 1.10
        self.finders.clear()
        self.saved_modules.clear()
        if self.slim is not None:
            self.slim.uninstall()
            self.slim = None
        if self.protobuf is not None:
            self.protobuf.uninstall()
            self.protobuf = None
        estimator_gaps.restore()  # what tf.estimator's package was given, if a script used it

    def __enter__(self) -> Installation:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.uninstall()


def _has_own_compat(folder: Path) -> bool:
    """True if the script's folder has its own top-level ``compat`` module or package."""
    own = (folder / "compat.py", folder / "compat" / "__init__.py")
    ours = Path(__file__).resolve().parents[1]
    return any(path.is_file() and path.resolve().parent != ours for path in own)


def _release_compat_name(installation: Installation, folder: Path) -> None:
    """Let the script import its own ``compat`` from ``folder``: drop ours from ``sys.modules``.

    Only the top-level name, and our sub-packages whose names the script's own
    ``compat`` package also has, are dropped (kept alive by reference). Our other
    sub-packages stay registered, imported first if need be (their ``__init__``
    imports nothing heavy), so that what the runner imports on use later
    (``compat.contrib.rnn`` when the script touches ``tf.contrib.rnn``) is still
    found through them and never through the script's package.
    """
    ours = Path(__file__).resolve().parents[1]
    for info in pkgutil.iter_modules([str(ours)], "compat."):
        if info.ispkg:
            importlib.import_module(info.name)
    theirs = folder / "compat"
    clashing = {p.stem for p in theirs.iterdir()} if theirs.is_dir() else set()
    for name in [n for n in sys.modules if n == "compat" or n.startswith("compat.")]:
        parts = name.split(".")
        if len(parts) > 1 and parts[1] not in clashing:
            continue
        module = sys.modules[name]
        if module is not None:
            installation.saved_modules.setdefault(name, module)
            del sys.modules[name]


def install(script_dir: Path, scope: rewrite.LocalScope | None = None,
            python2: bool | None = None) -> Installation:
    """Install the legacy import machinery for a script in ``script_dir`` (this process only).

    ``scope`` says which files are the script's own (rewritten); by default the
    files below ``script_dir``. ``python2=True`` translates every local module
    as Python 2 (``compat run --py2``); None recognises Python 2 modules
    (:mod:`compat.py2.translate`).

    Returns the :class:`Installation`; its ``uninstall`` undoes everything but
    the TensorFlow graph-mode switch, which :func:`run` makes separately.
    """
    numpy_legacy = importlib.import_module("compat.numpy1.bytes_helpers")
    scipy_misc = make_scipy_misc_module(importlib.import_module("compat.scipy_legacy.misc"))
    scope = scope or rewrite.LocalScope(script_dir)
    helpers = rewrite.LegacyHelpers(tf1.tf1_namespace, numpy_legacy)
    installation = Installation(scope=scope, helpers=helpers, scipy_misc=scipy_misc)
    for name, module in tf1.contrib_modules().items():
        installation.set_module(name, module)
    if "scipy.misc" in sys.modules:
        installation.set_module("scipy.misc", scipy_misc)
        scipy = sys.modules.get("scipy")
        if scipy is not None:
            setattr(scipy, "misc", scipy_misc)  # noqa: B010 - SciPy's stubs have no misc since 1.10
    module_finder = _LegacyModuleFinder(scipy_misc)
    module_finder.add_to_loaded_modules()
    installation.finders = [rewrite.LegacyFinder(scope, helpers, python2), module_finder]
    sys.meta_path[0:0] = installation.finders
    installation.slim = slim_bridge.install()  # tf.contrib.slim/layers/framework/training
    installation.protobuf = deterministic_protobuf.install()  # same export bytes every run
    if _has_own_compat(scope.root):
        _release_compat_name(installation, scope.root)
    return installation


def _prepare_tensorflow(scope: rewrite.LocalScope) -> None:
    """TF1 graph mode as the script expects; NumPy booleans accepted; no AutoGraph for the script's code."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    legacy_keras.select_legacy_keras()  # Keras 2 for tf.layers / tf.keras; must precede the import
    keras2.install()  # and for the standalone `import keras` of 2017-2019 code
    import tensorflow as tf
    _disable_v2_behavior_quietly(tf)
    tf1.accept_numpy_bools()
    tf1.skip_autograph_for(_module_predicate(scope))
    old_semantics.install_all()
    deep_modules.add_missing_names()


def _disable_v2_behavior_quietly(tf: types.ModuleType) -> None:
    """``disable_v2_behavior()`` without the deprecation note it logs about itself.

    The note ("disable_resource_variables ... is deprecated") is about the runner's
    own call, not the script, so it would only mislead; the logger's level is restored.
    """
    logger = tf.get_logger()
    level = logger.level
    logger.setLevel("ERROR")
    try:
        tf.compat.v1.disable_v2_behavior()
    finally:
        logger.setLevel(level)


def _module_predicate(scope: rewrite.LocalScope) -> Callable[[types.ModuleType], bool]:
    """True for modules loaded from the script's own files (the script itself included)."""
    known: dict[str, bool] = {}

    def is_legacy(module: types.ModuleType) -> bool:
        filename = getattr(module, "__file__", None)
        if not isinstance(filename, str):
            return False
        if filename not in known:
            known[filename] = scope.contains(filename)
        return known[filename]
    return is_legacy


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------

def _format_syntax_error(err: SyntaxError, scope: rewrite.LocalScope | None = None) -> str:
    filename = err.filename or "<unknown>"
    if scope is not None:
        filename = scope.relative(filename)
    where = f"{filename}:{err.lineno or 1}"
    if err.offset:
        where += f":{err.offset}"
    line = f"\n    {err.text.rstrip()}" if err.text and err.text.strip() else ""
    return f"{where}: {rewrite.describe_syntax_error(err)}{line}"


def _warn_about_local_modules(script: Path, scope: rewrite.LocalScope,
                              python2: bool | None = None) -> bool:
    """Name, before anything runs, local modules that cannot be compiled (they fail when imported).

    Returns True if one of them is Python 2 by its syntax (a ``print`` statement):
    then the script ran under Python 2 (see :func:`_ran_under_python2`).
    """
    python2_syntax = False
    for source in rewrite.walk_local_modules(script, scope, python2):
        if source.error is not None and source.path != script:
            _error("warning: " + _format_syntax_error(source.error, scope)
                   + "\n    (this module will fail when it is imported; the runner cannot bridge it)")
        elif source.translation is not None and not python2_syntax:
            python2_syntax = not _parses_as_python3(source.path)
    return python2_syntax


def _treat_modules_as_python2(installation: Installation) -> None:
    """Let the local modules imported from now on run with Python 2's semantics (:func:`_ran_under_python2`)."""
    for finder in installation.finders:
        if isinstance(finder, rewrite.LegacyFinder):
            finder.py2_process = True


def _parses_as_python3(path: Path) -> bool:
    try:
        ast.parse(rewrite.read_source(path))
    except (SyntaxError, ValueError, OSError):
        return False
    return True


def _ran_under_python2(script_result: rewrite.TransformResult, module_syntax_is_python2: bool) -> bool:
    """True if the script's own code shows it ran under Python 2: then all of it did.

    The interpreter was chosen for the whole process: a script that is Python 2
    (``xrange``, ``print x``), or that imports a module only Python 2 can compile,
    ran every one of its modules with Python 2's ``/``, even a module that shows
    nothing else of Python 2 (igul222's ``tflib/save_images.py``). A module that
    is Python 2 only by leftovers (a stray ``xrange`` in a helper) does not
    decide it: Python 3 projects carry such leftovers in code they never run.
    """
    return script_result.python2 or module_syntax_is_python2


def _main_module(path: Path, injected: dict[str, Any]) -> types.ModuleType:
    """A fresh ``__main__`` module for the script, as ``python script.py`` would make it."""
    module = types.ModuleType("__main__")
    module.__file__ = str(path)
    module.__dict__.update(__cached__=None, __builtins__=builtins)
    module.__loader__ = importlib.machinery.SourceFileLoader("__main__", str(path))
    module.__dict__.update(injected)
    return module


def _exit_code(exc: SystemExit) -> int:
    """The process status Python itself would give for this ``SystemExit``."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return EXIT_FAILURE


def _innermost_local_frame(tb: types.TracebackType | None,
                           scope: rewrite.LocalScope) -> tuple[str, int] | None:
    location = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if scope.contains(filename):
            location = (scope.relative(filename), tb.tb_lineno)
        tb = tb.tb_next
    return location


def _legacy_hint(exc: BaseException, scope: rewrite.LocalScope) -> str | None:
    """A line naming the legacy construct, file and line, when the failure is a legacy construct."""
    if isinstance(exc, SyntaxError) and exc.filename and scope.contains(exc.filename):
        return _format_syntax_error(exc, scope) + " (the runner cannot bridge this; fix the line)"
    location = _innermost_local_frame(exc.__traceback__, scope)
    if location is None:
        return None
    where = f"{location[0]}:{location[1]}"
    if isinstance(exc, (tf1.LegacyAPIError, tf1.LegacyImportError)):
        return f"{where}: {exc}"
    name = getattr(exc, "name", None)
    if isinstance(exc, NameError) and name in rules.PY2_BUILTINS_UNSUPPORTED:
        return (f"{where}: Python 2 builtin {name!r} is not bridged by the runner; use "
                f"{rules.PY2_BUILTINS_UNSUPPORTED[name]}")
    from compat.numpy1.runtime import failure_hint as numpy1_hint
    from compat.stdlib.runtime import failure_hint as stdlib_hint
    # np.load of an object array, a removed name reached by getattr, the other recognised failures
    for recognise in (numpy1_hint, stdlib_hint, hints.hint_for):
        hint = recognise(exc)
        if hint is not None:
            return f"{where}: {hint}"
    return None


def _strip_runner_frames(tb: types.TracebackType | None) -> types.TracebackType | None:
    """The traceback without the runner's own leading frames (``exec`` of the script)."""
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return tb


def _strip_refusing_frames(tb: types.TracebackType | None) -> types.TracebackType | None:
    """The traceback ending at the script's line, without the compat frames that refused.

    Only for the runner's deliberate "not provided" errors, raised by the stubs of
    :mod:`compat.tf1.namespace` or by this module's import finder: those frames say nothing the
    message does not. Tracebacks are linked from the outermost frame, so the kept
    frames are relinked into new objects.
    """
    frames = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    while frames and _in_compat(frames[-1].tb_frame.f_code.co_filename):
        frames.pop()
    relinked: types.TracebackType | None = None
    for frame in reversed(frames):
        relinked = types.TracebackType(relinked, frame.tb_frame, frame.tb_lasti, frame.tb_lineno)
    return relinked


def _is_importlib(frame: types.TracebackType) -> bool:
    return frame.tb_frame.f_code.co_filename.startswith("<frozen importlib._bootstrap")


def _frame_in_compat(frame: types.TracebackType) -> bool:
    return _in_compat(frame.tb_frame.f_code.co_filename)


def _strip_import_frames(tb: types.TracebackType | None) -> types.TracebackType | None:
    """The traceback without importlib's and the runner's loader frames, as plain Python shows it.

    Python hides its own importlib frames when a module fails while being
    imported, so ``import mod`` is followed directly by ``mod``'s failing line.
    The runner's loader runs between importlib and the module (the compat
    frames right after importlib's), and the ``__compat__`` helpers of
    :mod:`compat.runner.rewrite` stand in for the script's own calls; those frames are
    dropped too, so the traceback reads script line, then module line.
    """
    frames = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    kept = []
    after_importlib = False
    for frame in frames:
        if _is_importlib(frame):
            after_importlib = True
        elif _frame_in_compat(frame) and (after_importlib or frame.tb_frame.f_code.co_filename == _REWRITE_FILE):
            continue
        else:
            kept.append(frame)
            after_importlib = False
    if len(kept) == len(frames):
        return frames[0] if frames else None
    relinked: types.TracebackType | None = None
    for frame in reversed(kept):
        relinked = types.TracebackType(relinked, frame.tb_frame, frame.tb_lasti, frame.tb_lineno)
    return relinked


def _strip_chained_import_frames(exc: BaseException) -> None:
    """:func:`_strip_import_frames` for the exceptions ``exc`` was raised from or during."""
    seen = {id(exc)}
    chained = [exc.__cause__, exc.__context__]
    while chained:
        inner = chained.pop()
        if inner is None or id(inner) in seen:
            continue
        seen.add(id(inner))
        inner.with_traceback(_strip_import_frames(inner.__traceback__) or inner.__traceback__)
        chained.extend((inner.__cause__, inner.__context__))


def _report_exception(exc: BaseException, scope: rewrite.LocalScope) -> None:
    tb = _strip_runner_frames(exc.__traceback__)
    tb = _strip_import_frames(tb) or tb
    _strip_chained_import_frames(exc)
    if isinstance(exc, (tf1.LegacyAPIError, tf1.LegacyImportError)):
        tb = _strip_refusing_frames(tb) or tb
    exc.with_traceback(tb)
    try:
        sys.excepthook(type(exc), exc, tb)
    except Exception:  # a broken user excepthook must not hide the error
        traceback.print_exception(type(exc), exc, tb)
    hint = _legacy_hint(exc, scope)
    if hint is not None:
        _error(hint)


def _execute(code: types.CodeType, module: types.ModuleType, scope: rewrite.LocalScope) -> int:
    """Run the script's code in ``module``; the exit status Python would give."""
    try:
        exec(code, module.__dict__)
    except SystemExit as exc:
        return _exit_code(exc)
    except KeyboardInterrupt as exc:
        _report_exception(exc, scope)
        return 130
    except BaseException as exc:  # the script's failure becomes its exit status
        _report_exception(exc, scope)
        return EXIT_FAILURE
    return 0


def _load_script(script: str) -> tuple[Path | None, str | None]:
    """(absolute path, source) of the script, or (None, None) after reporting why not."""
    path = Path(script)
    if not path.exists():
        _error(f"cannot run {script}: no such file")
        return None, None
    if not path.is_file():
        _error(f"cannot run {script}: not a file")
        return None, None
    path = path.resolve()
    try:
        return path, rewrite.read_source(path)
    except OSError as exc:
        _error(f"cannot read {script}: {exc.strerror or exc}")
    except SyntaxError as err:
        _error(_format_syntax_error(err))
    return None, None


def run(script: str, args: Sequence[str] = (), python2: bool = False, allow_pickle: bool = False) -> int:
    """Run ``script`` unchanged with ``args`` as its arguments; returns its exit status.

    ``allow_pickle`` (``--allow-pickle``) makes the script's own ``np.load`` calls
    default to ``allow_pickle=True``, as before NumPy 1.16.3 (for files the user trusts).

    Python 2 modules are translated (``python2=True``: every local module is
    Python 2). Exit status 2 (and a message on stderr naming file and line) if
    the script does not exist or is neither valid Python 3 nor translatable
    Python 2; 1 if a thread of the script died of an exception, even when the
    main thread ended normally.
    """
    path, source = _load_script(script)
    if path is None or source is None:
        return EXIT_USAGE
    mode = True if python2 else None
    try:
        code, result = rewrite.compile_legacy(source, str(path), mode, top_level=True)
    except SyntaxError as err:
        _error(_format_syntax_error(err, rewrite.LocalScope(path.parent)))
        return EXIT_USAGE
    installation = install(path.parent, rewrite.script_scope(path), mode)
    installation.helpers.numpy.allow_pickle = allow_pickle
    module_syntax_is_python2 = _warn_about_local_modules(path, installation.scope, mode)
    if mode is None and _ran_under_python2(result, module_syntax_is_python2):
        _treat_modules_as_python2(installation)
        if not result.python2:  # compiled as Python 3 before its modules were seen
            code, result = rewrite.compile_legacy(source, str(path), mode, top_level=True, py2_process=True)
    _prepare_tensorflow(installation.scope)
    _legacy_numpy_printing()
    endings = thread_endings.ThreadEndings()
    endings.install()
    threads = _ThreadFailures(installation.scope, endings)
    threading.excepthook = threads.hook
    module = _main_module(path, rewrite.injected_globals(result, installation.helpers))
    sys.argv = [script, *args]
    _put_script_folder_first(path.parent)
    sys.modules["__main__"] = module
    try:
        status = _execute(code, module, installation.scope)
        return threads.final_status(status)
    finally:
        _flush_streams()


def _legacy_numpy_printing() -> None:
    """Print NumPy scalars as NumPy 1 did (``[0]``, not ``[np.int64(0)]``), as old logs show."""
    import numpy as np
    if int(np.__version__.split(".")[0]) >= 2:
        np.set_printoptions(legacy="1.25")


class _ThreadFailures:
    """A ``threading.excepthook`` that prints a thread's uncaught exception and remembers it."""

    def __init__(self, scope: rewrite.LocalScope, endings: thread_endings.ThreadEndings) -> None:
        self._scope = scope
        self._endings = endings
        self._lock = threading.Lock()
        self.names: list[str] = []

    def hook(self, args: threading.ExceptHookArgs) -> None:
        """Print the traceback (file and line) as Python does, plus the legacy hint; note the thread.

        A TF1 input thread cancelled by the session's close (or ended by its
        input or a stopped coordinator) is printed as Python prints it and not
        counted: TensorFlow 1.x scripts ended that way with status 0.
        """
        if args.exc_type is SystemExit:
            return  # as Python's own hook: a thread calling sys.exit() just ends
        name = args.thread.name if args.thread is not None else "<unknown>"
        if self._endings.is_normal_end(args.exc_value):
            threading.__excepthook__(args)
            _error(f"thread {name!r} ended with {args.exc_type.__name__} after the session was closed or "
                   "the coordinator stopped: the normal end of a TF1 input thread, not counted as a failure")
            _flush_streams()
            return
        with self._lock:
            self.names.append(name)
        threading.__excepthook__(args)
        if args.exc_value is not None:
            hint = _legacy_hint(args.exc_value, self._scope)
            if hint is not None:
                _error(hint)
        _flush_streams()

    def final_status(self, status: int) -> int:
        """The run's exit status: 1 instead of 0 if a thread has failed.

        Threads still running are waited for by Python's own exit (which first
        lets thread pools shut down); :meth:`_fail_late`, an ``atexit`` function,
        runs after that and exits with status 1 if one of them failed.
        """
        if status != 0:
            return status
        if self.names:
            self._report()
            return EXIT_FAILURE
        atexit.register(self._fail_late)
        return status

    def _report(self) -> None:
        names = ", ".join(repr(n) for n in self.names)
        _error(f"exit status {EXIT_FAILURE}: uncaught exception in thread {names} (traceback above)")

    def _fail_late(self) -> None:
        """After Python has joined the script's threads: exit with status 1 if one failed."""
        if self.names:
            self._report()
            _flush_streams()
            startup_log.restore_stderr()  # os._exit skips the atexit function that would
            os._exit(EXIT_FAILURE)  # the only way to change the status once exit has begun


def _put_script_folder_first(folder: Path) -> None:
    """``sys.path[0]`` is the script's folder, as for ``python script.py`` (not the runner's)."""
    if sys.path:
        sys.path[0] = str(folder)
    else:
        sys.path.insert(0, str(folder))


def _flush_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
