"""What to do about a failure of the script's own code that the runner recognises.

When an uncaught exception ends the script (or one of its threads), the runner
prints one more line, ``compat: FILE:LINE: ...``, if the failure is one of the
constructs below; each says what to do. :func:`hint_for` tries them in order.
Importing this module imports nothing heavy.

* a binary file read in text mode (``open(path).read()``) in a module the runner
  reads as Python 3: Python 2 read bytes there, so ``--py2`` runs it (or open the
  file with ``'rb'``); ``tf.gfile`` text reads return the bytes instead of raising
  (TF <= 1.0's behaviour, :mod:`compat.tf1_behaviour.gfile`), so this is ``open``'s;
* TF2-style eager code in the TF1 script: iterating a ``tf.data.Dataset`` in
  Python, ``tensor.numpy()``; the runner runs TF1 graph mode;
* TensorFlow 2's own module reached around the runner
  (``importlib.import_module("tensorflow")``, ``__import__``, ``sys.modules``),
  which lacks TF1 names such as ``tf.placeholder``;
* the MNIST tutorial reader without its four local files (nothing is downloaded);
* a placeholder that must be fed although the script fed a tensor computed from it
  (TF1 allowed feeding any tensor; TensorFlow 2's graph optimizer may fold it away);
* a third-party package the script imports that is not installed: what to install
  (its name on PyPI when it differs from the module's), and for the libraries that
  only ever ran on TensorFlow 1 (``prettytensor``, ``tflearn``, Sonnet 1, ...) the
  release the runner serves as TensorFlow 1 code (:mod:`compat.tf1_libraries`), or why
  it cannot (:data:`MISSING_PACKAGES`).
"""
from __future__ import annotations

import sys
from collections.abc import Callable

__all__ = ["MISSING_PACKAGES", "hint_for", "missing_package_hint"]

Recogniser = Callable[[BaseException], "str | None"]


def _binary_read_as_text(exc: BaseException) -> str | None:
    if not isinstance(exc, UnicodeDecodeError):
        return None
    return ("a binary file was read in text mode ('r'): under Python 2 that read the file's bytes "
            "(tf.gfile text reads give the bytes under the runner, as TF <= 1.0 did; open() does not). "
            "If this code was written for Python 2, run it with `python -m compat run --py2 SCRIPT` "
            "(every local module is then Python 2); otherwise open the file with 'rb'")


_EAGER_ONLY = (
    "only supported inside of tf.function or when eager execution is enabled",
    "object has no attribute 'numpy'",
    "is only supported in eager mode",
    "is not iterable when eager execution is not enabled",
    "only supports Python-style iteration in eager mode",
)


def _eager_code_in_graph_mode(exc: BaseException) -> str | None:
    text = str(exc)
    if not isinstance(exc, (RuntimeError, AttributeError, TypeError)) or not any(m in text for m in _EAGER_ONLY):
        return None
    return ("TensorFlow 2 eager code (a Python loop over a tf.data.Dataset, tensor.numpy()) in a script the "
            "runner runs in TF1 graph mode: fetch values with sess.run(...) and iterate a dataset with "
            "tf.compat.v1.data.make_one_shot_iterator(dataset).get_next(); or, if the script is TF2 code, "
            "run it with plain python")


def _real_tensorflow_module(exc: BaseException) -> str | None:
    if not isinstance(exc, AttributeError) or getattr(exc, "name", None) is None:
        return None
    real = sys.modules.get("tensorflow")
    if real is None or getattr(exc, "obj", None) is not real:
        return None
    name = exc.name
    return (f"this code reached TensorFlow 2's own module (through importlib.import_module('tensorflow'), "
            f"__import__ or sys.modules), which has no tf.{name}: the runner gives the TF1 namespace to "
            f"`import tensorflow as tf` statements; import it that way, or use tf.compat.v1.{name}")


def _mnist_files_missing(exc: BaseException) -> str | None:
    if not isinstance(exc, FileNotFoundError) or "MNIST file" not in str(exc):
        return None
    return f"the MNIST reader needs its four local files: {exc}"


def _fed_tensor_folded_away(exc: BaseException) -> str | None:
    # By class name: recognising the error must not import TensorFlow.
    if type(exc).__name__ != "InvalidArgumentError" or "You must feed a value for placeholder" not in str(exc):
        return None
    return ("if the feed_dict feeds a tensor computed from this placeholder rather than the placeholder itself "
            "(x = tf.transpose(x_placeholder), then feed_dict={x: ...}), TF1 allowed it, but TensorFlow 2's "
            "graph optimizer can fold that tensor away (a transpose of a transpose, in tf.nn.dynamic_rnn) and "
            "then needs the placeholder: feed the placeholder, or create the session with "
            "config.graph_options.rewrite_options.arithmetic_optimization = RewriterConfig.OFF "
            "(from tensorflow.core.protobuf.rewriter_config_pb2)")


#: Modules TF1-era projects imported that the runner's stack does not install -> what to do.
#: The PyPI name where it differs from the module's; the replacement where the library
#: was built on TensorFlow 1's internals.
MISSING_PACKAGES: dict[str, str] = {
    # The TF1-era libraries: the runner serves their last TF1 release as TensorFlow 1 code
    # (compat.tf1_libraries). --no-deps: their pins (numpy<1.16, tensorflow-probability<0.9, ...) would
    # replace the stack the runner runs on; the few pure-Python packages they import are named.
    "tflearn": ("TFLearn's last release, 0.5.0 (2020), is TensorFlow 1 code the runner serves as such: "
                "`pip install tflearn==0.5.0`"),
    "prettytensor": ("PrettyTensor's last release, 0.7.4 (2017), is TensorFlow 1 code the runner serves as such: "
                     "`pip install --no-deps prettytensor==0.7.4 six` (not its enum34, which would hide Python 3's "
                     "enum)"),
    "sonnet": ("Sonnet 1's last release, dm-sonnet 1.36, is TensorFlow 1 code the runner serves as such "
               "(Sonnet 2 has another API): `pip install --no-deps dm-sonnet==1.36 semantic-version contextlib2`"),
    "tensorlayer": ("TensorLayer 1.x's last release, 1.11.1, is TensorFlow 1 code the runner serves as such "
                    "(2.x has another API): `pip install --no-deps tensorlayer==1.11.1 progressbar2 python-utils "
                    "lxml`"),
    "tensorpack": ("tensorpack 0.9.9 (its last 0.9 release, TF1 trainers) is TensorFlow 1 code the runner serves "
                   "as such: `pip install --no-deps tensorpack==0.9.9 msgpack msgpack-numpy tabulate`"),
    "keras_contrib": ("keras-contrib 2.0.8 (Keras 2's community layers) was never released to PyPI and its "
                      "repository is archived: install it from that repository, `pip install --no-deps "
                      "git+https://github.com/keras-team/keras-contrib`; the runner serves it as TF1-era code "
                      "(its CRF layer, loss and metrics run on the served Keras 2)"),
    "gym": "`pip install gym` (gym 0.26 changed reset() and step(); the old API is gym<0.26)",
    "tensorflow_hub": ("`pip install tensorflow-hub==0.15.0`: its last release with hub.Module, which the runner "
                       "serves tf.compat.v1.estimator to (0.16 removed hub.Module)"),
    "tensorflow_datasets": "`pip install tensorflow-datasets`",
    "yaml": "`pip install PyYAML`",
    "bs4": "`pip install beautifulsoup4`",
    "dateutil": "`pip install python-dateutil`",
    "Crypto": "`pip install pycryptodome`",
    "attr": "`pip install attrs`",
}


def missing_package_hint(module: str) -> str | None:
    """What to do when the script imports ``module`` (dotted or not) and it is not installed, or None."""
    top = module.split(".")[0]
    advice = MISSING_PACKAGES.get(top)
    if advice is not None:
        return f"the script imports {top}, which is not installed: {advice}"
    return None


def _third_party_missing(exc: BaseException) -> str | None:
    if not isinstance(exc, ModuleNotFoundError) or not exc.name:
        return None
    return missing_package_hint(exc.name)


_RECOGNISERS: tuple[Recogniser, ...] = (
    _binary_read_as_text, _eager_code_in_graph_mode, _real_tensorflow_module, _mnist_files_missing,
    _fed_tensor_folded_away, _third_party_missing)


def hint_for(exc: BaseException) -> str | None:
    """What to do about ``exc``, raised in the script's own code, or None if it is not recognised."""
    for recognise in _RECOGNISERS:
        hint = recognise(exc)
        if hint is not None:
            return hint
    return None
