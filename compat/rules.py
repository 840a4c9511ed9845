"""Every rename, bridge and refusal of the compat runner, as data: what ``run`` applies and ``check`` reports.

One table per kind of legacy construct, and the messages built from them:

* TensorFlow 0.x names (TensorFlow 1.0's rename table): :data:`RENAMES` and
  :data:`KEYWORD_RENAMES`, kept in :mod:`compat.tf1.renames` (a cohesive table whose
  adapters are code in :mod:`compat.tf1.tf0_ops`) and re-exported here;
* ``tf.contrib``: the ``tf.contrib.data`` functions provided
  (:data:`CONTRIB_DATA_PROVIDED`) or forwarded (:data:`CONTRIB_DATA_FROM_V1`),
  the modules served from ``tf_slim`` (:data:`FACADES`, :data:`DEEP_MODULES`,
  :data:`EMPTY_PACKAGES`) and the TF1 names they lack (:data:`SLIM_MOVED`), the
  refused submodules with their replacements (:data:`CONTRIB_REPLACEMENTS`,
  :func:`contrib_message`) and removed TensorFlow modules (:data:`REMOVED_TF_MODULES`);
* modules that no longer exist and are served (:data:`TUTORIAL_MODULES`,
  :data:`LEGACY_MODULE_DESCRIPTIONS`);
* ``scipy.misc`` names forwarded (:data:`SCIPY_MISC_MOVED`) or refused
  (:data:`SCIPY_MISC_REPLACEMENTS`, :func:`scipy_misc_message`);
* removed NumPy aliases (:data:`NUMPY_REMOVED`);
* Python 2 builtins, modules and dict methods bridged (:data:`PY2_BUILTINS`,
  :data:`PY2_MODULES`, :data:`DICT_METHODS`) or refused
  (:data:`PY2_BUILTINS_UNSUPPORTED`, :data:`PY2_MODULES_UNSUPPORTED`);
* TensorFlow 1 dataset members (:data:`DATASET_V1_MEMBERS`);
* the runner's exit statuses.

How a rule reaches ``run``: the runtime modules read these tables when they
build what the script gets (:mod:`compat.tf1.namespace` the TF1 namespace and
``tf.contrib``, :mod:`compat.contrib.slim` the ``tf_slim`` modules,
:mod:`compat.tutorials.legacy_modules` the tutorial modules, :mod:`compat.runner.run` the
``scipy.misc`` module and the import finder, :mod:`compat.runner.rewrite` the source
rewrite of NumPy and Python 2 names), and raise the messages built here.
How it reaches ``check``: :mod:`compat.checker.check` classifies what it finds in the
source with the same tables and messages (through the static classifiers
:func:`compat.tf1.namespace.classify_tf_attribute`, :func:`compat.contrib.slim.classify_module`
and :func:`compat.runner.rewrite.transform`); it never imports :mod:`compat.runner.run`.
A rule added here is therefore applied and reported alike
(``tests/integration/test_compat_rules.py`` checks each table against both sides).

Importing this module imports nothing heavy (no TensorFlow, NumPy or SciPy)
and changes nothing.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

from compat.tf1.renames import (
    CONTRIB_NN_REPLACEMENTS,
    CONTRIB_OVERLAYS,
    KEYWORD_RENAMES,
    OVERLAY_PREFIXES,
    RENAMES,
    Rename,
    bridged_action,
    by_name,
    contrib_overlay_message,
    refusal_message,
)

__all__ = [
    "CONTRIB_DATA_FROM_V1",
    "CONTRIB_DATA_PROVIDED",
    "CONTRIB_NN_REPLACEMENTS",
    "CONTRIB_OVERLAYS",
    "CONTRIB_REPLACEMENTS",
    "PARTIAL_CONTRIB_PACKAGES",
    "DATASET_V1_MEMBERS",
    "DEEP_MODULES",
    "DICT_METHODS",
    "EMPTY_PACKAGES",
    "EXIT_FAILURE",
    "EXIT_USAGE",
    "FACADES",
    "KEYWORD_RENAMES",
    "LEARN_DATASETS",
    "LEGACY_MODULE_DESCRIPTIONS",
    "MNIST_MODEL",
    "MNIST_READER",
    "NDIMAGE_IMREAD_ACTION",
    "NUMPY_REMOVED",
    "OVERLAY_PREFIXES",
    "PY2_BUILTINS",
    "PY2_BUILTINS_UNSUPPORTED",
    "PY2_MODULES",
    "PY2_MODULES_UNSUPPORTED",
    "REMOVED_TF_MODULES",
    "RENAMES",
    "SCIPY_MISC_MOVED",
    "SCIPY_MISC_REPLACEMENTS",
    "SLIM_MOVED",
    "TUTORIAL_MODULES",
    "FacadeSpec",
    "Rename",
    "bridged_action",
    "by_name",
    "contrib_data_message",
    "contrib_message",
    "contrib_overlay_message",
    "describe_legacy_module",
    "refusal_message",
    "removed_module_message",
    "scipy_misc_bridged_names",
    "scipy_misc_message",
]

# --------------------------------------------------------------------------
# Exit statuses
# --------------------------------------------------------------------------

#: Exit status for an uncaught exception in the script.
EXIT_FAILURE = 1
#: Exit status for the runner's own errors: bad usage, missing script, syntax error.
EXIT_USAGE = 2


# --------------------------------------------------------------------------
# tf.contrib and removed TensorFlow modules
# --------------------------------------------------------------------------

#: ``tf.contrib.data`` functions implemented here, with what they became.
CONTRIB_DATA_PROVIDED: dict[str, str] = {
    "unbatch": "Dataset.unbatch()",
    "map_and_batch": "Dataset.map(...).batch(...)",
    "shuffle_and_repeat": "Dataset.shuffle(...).repeat(...)",
    "parallel_interleave": "Dataset.interleave(..., num_parallel_calls=cycle_length)",
    "batch_and_drop_remainder": "Dataset.batch(batch_size, drop_remainder=True)",
    "padded_batch_and_drop_remainder": "Dataset.padded_batch(..., drop_remainder=True)",
    "sliding_window_batch": "Dataset.window(size, shift, stride, drop_remainder=True) with each window batched",
    "assert_element_shape": "Dataset.map with tf.ensure_shape on each component",
    "sloppy_interleave": "Dataset.interleave(..., num_parallel_calls=cycle_length, deterministic=False)",
    "read_batch_features": "tf.compat.v1.data.experimental.make_batched_features_dataset(...) through a "
                           "one-shot iterator",
    "LMDBDataset": "a tf.data generator dataset of (key, value) pairs read with the lmdb package",
    "reduce_dataset": "Dataset.reduce(reducer.init_func(0), reducer.reduce_func)",
}

#: ``tf.contrib.data`` classes of TF 1.2-1.3 that live on in ``tf.compat.v1.data``.
CONTRIB_DATA_FROM_V1: tuple[str, ...] = (
    "Dataset", "TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset", "Iterator",
)

#: ``tf.contrib`` packages the runner serves only in part: the package imports, the
#: names it lists work, its other names raise naming the replacement.
PARTIAL_CONTRIB_PACKAGES: dict[str, str] = {
    "learn": "tf.contrib.learn is provided for its Estimators (fit/evaluate/predict, SKCompat, the DNN and linear "
             "models, monitors), its queue readers, datasets (local files), Experiment / learn_runner / RunConfig "
             "and preprocessing (compat.contrib.learn); its other names raise, naming tf.estimator or tf.keras",
}

#: What replaced each ``tf.contrib`` submodule the runner does not provide.
CONTRIB_REPLACEMENTS: dict[str, str] = {
    # slim, layers, framework and training are served from tf_slim (compat.contrib.slim);
    # these name what to use for the TF1 names tf_slim lacks.
    "layers": "tf.compat.v1.layers or tf.keras.layers",
    "slim": "tf.compat.v1 or tf.keras",
    "framework": "tf.compat.v1 (nest: tf.nest; checkpoint utilities: tf.train)",
    "training": "tf.compat.v1.train",
    "learn": "tf.keras (tf.estimator was removed in TensorFlow 2.16)",
    "rnn": "tf.compat.v1.nn.rnn_cell or tf.keras.layers (LSTM, GRU, RNN)",
    "cudnn_rnn": "tf.keras.layers.LSTM / GRU (they use cuDNN when possible)",
    "legacy_seq2seq": "tf.keras.layers",
    "seq2seq": "the tensorflow_addons package (tfa.seq2seq, no longer maintained)",
    "crf": "the tensorflow_addons package (tfa.text.crf)",
    "opt": "tf.keras.optimizers or tf.compat.v1.train optimizers",
    "losses": "tf.compat.v1.losses or tf.keras.losses",
    "metrics": "tf.compat.v1.metrics or tf.keras.metrics",
    "image": "tf.image (rotate, transform: tf.keras.layers.RandomRotation or tensorflow_addons)",
    "distributions": "the tensorflow_probability package (tfp.distributions)",
    "bayesflow": "the tensorflow_probability package",
    "summary": "tf.compat.v1.summary or tf.summary",
    "tensorboard": "the tensorboard package (plugins.projector is provided: compat.contrib.tensorboard)",
    "keras": "tf.keras",
    "lookup": "tf.lookup",
    "quantize": "the tensorflow_model_optimization package",
    "predictor": "tf.saved_model.load",
    "eager": "tf.compat.v1 (eager execution is the TF2 default; the runner disables it)",
    "gan": "the tensorflow_gan package",
    "tpu": "tf.compat.v1.tpu or tf.distribute.TPUStrategy",
    "distribute": "tf.distribute",
    "nccl": "tf.distribute",
    "checkpoint": "tf.train.Checkpoint",
    "memory_stats": "tf.config.experimental.get_memory_info",
    "util": "tf.compat.v1 (make_tensor_proto, make_ndarray: tf.make_tensor_proto, tf.make_ndarray)",
    "staging": "tf.data prefetch (Dataset.prefetch)",
    "factorization": "scikit-learn (KMeans and KMeansClustering are provided: compat.contrib.factorization)",
    # Refused after weighing how much TF1 code used them (docs/contrib.md).
    "cloud": "tensorflow_io (BigQuery) or the google-cloud-bigtable client",
    "constrained_optimization": "the tensorflow_constrained_optimization package",
    "copy_graph": "tf.compat.v1.train.import_meta_graph / tf.graph_util.import_graph_def into the other graph",
    "ffmpeg": "tf.audio.decode_wav, or ffmpeg / librosa in Python before the input pipeline",
    "graph_editor": "build the graph as wanted (tf.compat.v1.graph_util for GraphDefs; "
                    "gradient checkpointing: tf.recompute_grad)",
    "grid_rnn": "tf.keras.layers.RNN over a custom cell (grid LSTMs have no TensorFlow 2 equivalent)",
    "labeled_tensor": "plain tensors with named dimensions kept in Python (the package was never continued)",
    "linear_optimizer": "tf.keras linear models (SDCA was removed with tf.estimator)",
    "model_pruning": "the tensorflow_model_optimization package (tfmot.sparsity.keras)",
    "periodic_resample": "tf.reshape / tf.transpose of the periodic dimension",
    "receptive_field": "compute receptive fields by hand from the layers' kernel sizes and strides",
    "remote_fused_graph": "nothing in TensorFlow 2 (Hexagon remote graphs were removed)",
    "rpc": "tf.distribute.experimental.rpc or a gRPC client outside the graph",
    "saved_model": "tf.keras.models.save_model / tf.keras.models.load_model",
    "solvers": "tf.linalg (lstsq, solve) or tf.linalg.experimental.conjugate_gradient",
    "specs": "tf.keras.Sequential (the specs mini-language was never continued)",
    "stat_summarizer": "tf.compat.v1.profiler",
    "tensor_forest": "the tensorflow_decision_forests package",
    "timeseries": "tf.keras sequence models or the statsmodels package",
    "hooks": "tf.compat.v1.train hooks",
}

#: TensorFlow 1 modules (not under contrib) that no longer exist.
REMOVED_TF_MODULES: dict[str, str] = {
    "tensorflow.examples.tutorials": "tf.keras.datasets (e.g. tf.keras.datasets.mnist.load_data())",
    "tensorflow.models": "the tensorflow/models repository or tf.keras.applications",
}


def contrib_message(path: str) -> str:
    """Why ``tf.contrib.<path>`` is not available and what replaced it.

    Args:
        path: the dotted name under ``tf.contrib``, e.g. ``"slim"`` or ``"layers.conv2d"``.
    """
    head = path.split(".")[0]
    where = f"tf.contrib.{path}"
    replacement = CONTRIB_REPLACEMENTS.get(head)
    if replacement is not None:
        return (f"{where} is not provided by the compat runner (tf.contrib was removed in "
                f"TensorFlow 2); use {replacement}")
    from compat.contrib import HAND_WIRED, bridged_modules  # light: lists module files, imports none
    provided = sorted({*HAND_WIRED - {"hparams"}, "layers", "framework", "training", "deprecated", "nn",
                       *bridged_modules()})
    return (f"{where} is not provided by the compat runner (tf.contrib was removed in "
            "TensorFlow 2, and no replacement is known here); the tf.contrib modules provided are "
            f"{', '.join(provided)}")


def removed_module_message(fullname: str) -> str | None:
    """The message for an import of a removed TensorFlow module, or None if it is not one."""
    if describe_legacy_module(fullname) is not None:
        return None
    if fullname.startswith("tensorflow.contrib.data."):
        return contrib_data_message(fullname[len("tensorflow.contrib.data."):])
    if fullname.startswith("tensorflow.contrib.") and fullname != "tensorflow.contrib.data":
        return contrib_message(fullname[len("tensorflow.contrib."):])
    for prefix, replacement in REMOVED_TF_MODULES.items():
        if fullname == prefix or fullname.startswith(prefix + "."):
            return (f"{fullname} no longer exists in TensorFlow 2 and is not provided by the "
                    f"compat runner; use {replacement}")
    return None


def contrib_data_message(name: str) -> str:
    """Why ``tf.contrib.data.<name>`` is not available."""
    return (f"tf.contrib.data.{name} is not provided by the compat runner and has no "
            "tf.data.experimental counterpart; see the tf.data.Dataset methods")

# --------------------------------------------------------------------------
# tf.contrib modules served from tf_slim
# --------------------------------------------------------------------------

#: Old module paths (and everything below them) and the module that serves them now.
#: The longest matching prefix wins.
DEEP_MODULES: dict[str, str] = {
    "tensorflow.contrib.slim": "tf_slim",
    "tensorflow.contrib.slim.python.slim": "tf_slim",
    "tensorflow.contrib.layers.python.layers": "tf_slim.layers",
    "tensorflow.contrib.framework.python.ops": "tf_slim.ops",
    # The framework modules tf_slim does not have, which TF 1.x code imported by path: the
    # speech_commands tutorial's ``from ...ops import audio_ops as contrib_audio`` (decode_wav,
    # encode_wav, audio_spectrogram, mfcc: the ops TF 1.x's module re-exported), and the ops
    # TF 1.x moved from contrib into core.
    "tensorflow.contrib.framework.python.ops.audio_ops": "tensorflow.python.ops.gen_audio_ops",
    "tensorflow.contrib.framework.python.ops.sort_ops": "tensorflow.python.ops.sort_ops",
    "tensorflow.contrib.framework.python.ops.critical_section_ops": "tensorflow.python.ops.critical_section_ops",
    "tensorflow.contrib.framework.python.framework.checkpoint_utils": "tensorflow.python.training.checkpoint_utils",
    "tensorflow.contrib.training.python.training.training": "tf_slim.training.training",
    "tensorflow.contrib.training.python.training.evaluation": "tf_slim.training.evaluation",
    "tensorflow.contrib.training.python.training.hparam": "compat.contrib.hparams",
    # The TF 1.15 source paths of the queue pipelines, served from tf1_pipelines.inputs.
    "tensorflow.contrib.training.python.training.bucket_ops": "tf1_pipelines.inputs.bucketing",
    "tensorflow.contrib.training.python.training.sequence_queueing_state_saver":
        "tf1_pipelines.inputs.sequence_state",
    "tensorflow.contrib.training.python.training.sampling_ops": "tf1_pipelines.inputs.sampling",
    "tensorflow.contrib.training.python.training.resample": "tf1_pipelines.inputs.sampling",
    "tensorflow.contrib.training.python.training.feeding_queue_runner": "tf1_pipelines.inputs.feeding_queue",
    # TensorFlow's tf.layers normalization module (used by slim.batch_norm) lazily imports
    # tf_keras.legacy_tf_layers.normalization, which tf_keras 2.21 has under tf_keras.src.
    "tf_keras.legacy_tf_layers": "tf_keras.src.legacy_tf_layers",
}

#: Package levels of the old deep paths that hold nothing themselves.
EMPTY_PACKAGES: frozenset[str] = frozenset({
    "tensorflow.contrib.slim.python",
    "tensorflow.contrib.layers.python",
    "tensorflow.contrib.framework.python",
    "tensorflow.contrib.framework.python.framework",
    "tensorflow.contrib.training.python",
    "tensorflow.contrib.training.python.training",
})

#: Names of TensorFlow's internal modules that were TF1 classes under TF 1.x and are TF2 ones
#: today: ``from MODULE import NAME`` in the script's own code -> the TF1 namespace's attribute.
#: TF 1.x's ``dataset_ops`` and ``readers`` ended with ``Dataset = DatasetV1`` (and the
#: ``*DatasetV1`` readers), and ``tensorflow.python.data`` re-exported them, so the
#: ``from tensorflow.python.data import Dataset`` of Google's ML Crash Course notebooks had
#: ``make_one_shot_iterator``; today that import is ``DatasetV2``, which lacks it.
DEEP_TF1_IMPORTS: dict[tuple[str, str], str] = {
    **{(module, "Dataset"): "data.Dataset"
       for module in ("tensorflow.python.data", "tensorflow.python.data.ops.dataset_ops")},
    **{(module, name): f"data.{name}"
       for module in ("tensorflow.python.data", "tensorflow.python.data.ops.readers")
       for name in ("TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset")},
}

_FEATURE_COLUMNS = ("tf.compat.v1.feature_column (feature columns) or Keras preprocessing layers "
                    "(tf.keras.layers.Hashing, StringLookup, Discretization, ...)")

#: TF1 names of the served ``tf.contrib`` modules that ``tf_slim`` does not have, with what to use.
SLIM_MOVED: dict[str, dict[str, str]] = {
    # compat.contrib._slim_extras serves the other TF1 names tf_slim lacks (old feature columns, nest, ...).
    "layers": {
        **{name: _FEATURE_COLUMNS for name in (
            "scattered_embedding_column", "parse_feature_columns_from_sequence_examples",
            "sequence_input_from_feature_columns")},
        "multi_class_target": "a loss computed directly (tf.compat.v1.losses)",
        "regression_target": "a loss computed directly (tf.compat.v1.losses)",
    },
    "framework": {
        "fuse_op": "nothing (graph-rewriting helper of TF 1.x; TensorFlow 2's grappler fuses ops itself)",
        "load_variable_slot_initializer": "tf.train.Checkpoint with the optimizer tracked (slots restore with it)",
    },
    # The queue pipelines of tf.contrib.training (bucket, the samplers, the state saver,
    # FeedingQueueRunner) are served from tf1_pipelines.inputs (compat.contrib._slim_extras).
    "training": {
        "batch_sequences_by_sequence_length": "tf.data.Dataset.padded_batch",
        "FailureTolerator": "a try/except around the training step that retries the errors wanted",
        "GreedyLoadBalancingStrategy": "tf.distribute strategies (variables are placed by the strategy)",
        "RandomStrategy": "tf.distribute strategies (variables are placed by the strategy)",
        "byte_size_load_fn": "tf.distribute strategies (variables are placed by the strategy)",
    },
}


@dataclass(frozen=True)
class FacadeSpec:
    """How one ``tf.contrib.<name>`` module is served.

    Attributes:
        name: the name under ``tf.contrib``.
        sources: the ``tf_slim`` modules whose public names it serves, first wins.
        everything: serve every public attribute of ``sources[0]`` (``slim`` re-exported
            all of its parts), not only the functions and constants defined in ``tf_slim``.
        submodules: the package whose submodules are its submodules (``slim.nets``).
        extras: (name, module) pairs: names served from this package's own modules.
        also: where its other served names come from, for messages ("" when nowhere else).
    """

    name: str
    sources: tuple[str, ...]
    everything: bool = False
    submodules: str | None = None
    extras: tuple[tuple[str, str], ...] = ()
    also: str = ""

    @property
    def label(self) -> str:
        """Where the names come from, for messages."""
        parts = ["the tf_slim package", *(["compat.contrib.hparams"] if self.extras else []),
                 *([self.also] if self.also else [])]
        return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


#: The ``tf.contrib`` modules served here.
FACADES: dict[str, FacadeSpec] = {
    "slim": FacadeSpec("slim", ("tf_slim",), everything=True, submodules="tf_slim"),
    "layers": FacadeSpec("layers", ("tf_slim.layers",)),
    "framework": FacadeSpec("framework", ("tf_slim.ops.arg_scope", "tf_slim.ops.variables")),
    "training": FacadeSpec("training", ("tf_slim.training.training", "tf_slim.training.evaluation"),
                           extras=(("HParams", "compat.contrib.hparams"), ("parse_values", "compat.contrib.hparams")),
                           also="tf1_pipelines.inputs (the queue pipelines)"),
}

# --------------------------------------------------------------------------
# Modules that no longer exist, served by the runner
# --------------------------------------------------------------------------

#: The compat modules serving the MNIST tutorial reader and model.
MNIST_READER = "compat.tutorials.mnist_input_data"
MNIST_MODEL = "compat.tutorials.mnist_model"

#: ``tensorflow.examples`` module names and the compat module (or None: a package) serving each.
TUTORIAL_MODULES: dict[str, str | None] = {
    "tensorflow.examples": None,
    "tensorflow.examples.tutorials": None,
    "tensorflow.examples.tutorials.mnist": None,
    "tensorflow.examples.tutorials.mnist.input_data": MNIST_READER,
    "tensorflow.examples.tutorials.mnist.mnist": MNIST_MODEL,
}

#: The ``tf.contrib.learn`` datasets module path, as the MNIST reader imported it.
LEARN_DATASETS = "tensorflow.contrib.learn.python.learn.datasets"

_LEARN_BASE = ("the CSV loaders, load_iris, load_boston and the Dataset/Datasets tuples, served from "
               "compat.contrib._learn_datasets (local files only)")
_LEARN_TEXT_DATASETS = "load_dbpedia from local CSV files, served from compat.contrib._learn_datasets"

LEGACY_MODULE_DESCRIPTIONS: dict[str, str] = {
    "tensorflow.examples.tutorials.mnist": "the MNIST tutorial package, served by the runner "
                                           "(input_data: compat.tutorials.mnist_input_data, "
                                           "mnist: compat.tutorials.mnist_model)",
    "tensorflow.examples.tutorials.mnist.input_data": "the MNIST reader, served from compat.tutorials.mnist_input_data "
                                                      "(reads the four .gz files; no download)",
    "tensorflow.examples.tutorials.mnist.mnist": "the MNIST tutorial model, served from compat.tutorials.mnist_model",
    f"{LEARN_DATASETS}.mnist": "the MNIST reader, served from compat.tutorials.mnist_input_data (no download)",
    "tensorflow.contrib.learn.datasets.mnist": "the MNIST reader, served from compat.tutorials.mnist_input_data "
                                               "(no download)",
    f"{LEARN_DATASETS}.base": _LEARN_BASE,
    "tensorflow.contrib.learn.datasets.base": _LEARN_BASE,
    f"{LEARN_DATASETS}.text_datasets": _LEARN_TEXT_DATASETS,
    "tensorflow.contrib.learn.datasets.text_datasets": _LEARN_TEXT_DATASETS,
    "tensorflow.contrib.learn.preprocessing": "VocabularyProcessor and friends, served from compat.contrib._learn_text",
    "tensorflow.contrib.learn.python.learn.preprocessing": "VocabularyProcessor and friends, served from "
                                                           "compat.contrib._learn_text",
    "tensorflow.contrib.deprecated": "the pre-1.0 summary ops, served by compat.tf1.renames",
    "tensorflow.contrib.nn": "the deprecated_flipped_* losses, served by compat.tf1.renames",
}


def describe_legacy_module(fullname: str) -> str | None:
    """What the runner serves for module (or attribute path) ``fullname``; None if it serves nothing.

    ``tensorflow.contrib.learn.datasets.mnist.read_data_sets`` is described by
    its module; bare packages on the way (``tensorflow.examples``) are not
    legacy constructs by themselves and give None.
    """
    parts = fullname.split(".")
    for length in range(len(parts), 0, -1):
        description = LEGACY_MODULE_DESCRIPTIONS.get(".".join(parts[:length]))
        if description is not None:
            return description
    return None

# --------------------------------------------------------------------------
# scipy.misc and scipy.ndimage
# --------------------------------------------------------------------------

#: ``scipy.misc`` names that moved elsewhere in SciPy, with their new home.
SCIPY_MISC_MOVED: dict[str, str] = {
    "comb": "scipy.special.comb",
    "factorial": "scipy.special.factorial",
    "factorial2": "scipy.special.factorial2",
    "factorialk": "scipy.special.factorialk",
    "logsumexp": "scipy.special.logsumexp",
    "pade": "scipy.interpolate.pade",
}

#: ``scipy.misc`` names the runner does not provide, with what to use instead.
SCIPY_MISC_REPLACEMENTS: dict[str, str] = {
    "imshow": "matplotlib.pyplot.imshow",
    "face": "scipy.datasets.face() (needs the pooch package and a download) or skimage.data",
    "ascent": "scipy.datasets.ascent() (needs the pooch package and a download) or skimage.data",
    "electrocardiogram": "scipy.datasets.electrocardiogram() (needs the pooch package and a download)",
    "lena": "skimage.data.astronaut() (lena was removed from SciPy in 0.17)",
    "derivative": "numpy.gradient or scipy.differentiate.derivative (a different API)",
    "central_diff_weights": "numpy.gradient (scipy.misc.central_diff_weights was removed)",
    "info": "numpy.info",
    "source": "inspect.getsource",
    "who": "nothing (scipy.misc.who was removed)",
}

#: What the runner does about ``scipy.ndimage.imread``.
NDIMAGE_IMREAD_ACTION = ("removed in SciPy 1.2; the runner adds it as compat.scipy_legacy.ndimage.imread "
                         "(scipy.misc.imread semantics)")


def scipy_misc_bridged_names() -> tuple[str, ...]:
    """The ``scipy.misc`` functions that :mod:`compat.scipy_legacy.misc` re-implements.

    Its ``__all__`` is the one list of them; this imports that module (NumPy,
    Pillow) when called, never on import.
    """
    bridge = importlib.import_module("compat.scipy_legacy.misc")
    return tuple(getattr(bridge, "__all__", ()))


def scipy_misc_message(name: str) -> str:
    """Why ``scipy.misc.<name>`` is not available and what to use instead."""
    replacement = SCIPY_MISC_REPLACEMENTS.get(name)
    if replacement is not None:
        return f"scipy.misc.{name} is not provided by the compat runner; use {replacement}"
    return (f"scipy.misc.{name} is not provided by the compat runner (scipy.misc was emptied in "
            "SciPy 1.10); only the image helpers of SciPy 1.2 and the functions that moved to "
            "scipy.special are provided")

# --------------------------------------------------------------------------
# NumPy
# --------------------------------------------------------------------------

#: NumPy names removed in NumPy 1.24 / 2.0 / 2.4, with what the rewrite uses instead
#: (:mod:`compat.runner.rewrite` holds the values).
NUMPY_REMOVED: dict[str, str] = {
    "float": "float",
    "int": "int",
    "object": "object",
    "str": "str",
    "unicode": "str",
    "complex": "complex",
    "NaN": "numpy.nan",
    "Inf": "numpy.inf",
    "Infinity": "numpy.inf",
    "infty": "numpy.inf",
    "PINF": "numpy.inf",
    "NINF": "-numpy.inf",
    "float_": "numpy.float64",
    "complex_": "numpy.complex128",
    "string_": "numpy.bytes_",
    "unicode_": "numpy.str_",
    "product": "numpy.prod",
    "cumproduct": "numpy.cumprod",
    "alltrue": "numpy.all",
    "sometrue": "numpy.any",
    "round_": "numpy.round",
    "trapz": "numpy.trapezoid",
    "asscalar": "ndarray.item()",
    "in1d": "numpy.isin(numpy.ravel(a), b)",
    "msort": "numpy.sort(a, axis=0)",
}

# --------------------------------------------------------------------------
# Python 2
# --------------------------------------------------------------------------

#: Python 2 builtins made available (as module globals) where a module uses them.
PY2_BUILTINS: dict[str, str] = {
    "xrange": "range",
    "raw_input": "input",
    "unicode": "str",
    "basestring": "str",
    "long": "int",
    "unichr": "chr",
    "reduce": "functools.reduce",
    "reload": "importlib.reload",
    "intern": "sys.intern",
}

#: Python 2 builtins the runner does not bridge, with what to write instead.
PY2_BUILTINS_UNSUPPORTED: dict[str, str] = {
    "execfile": "exec(open(path).read())",
    "file": "open(...)",
    "cmp": "(a > b) - (a < b)",
    "apply": "f(*args, **kwargs)",
    "buffer": "memoryview(...)",
    "coerce": "explicit conversion",
}

#: Python 2 standard modules imported under their Python 3 name.
PY2_MODULES: dict[str, str] = {
    "cPickle": "pickle",
    "Queue": "queue",
    "ConfigParser": "configparser",
    "__builtin__": "builtins",
    "urlparse": "urllib.parse",
}

#: Python 2 standard modules without a drop-in Python 3 module.
PY2_MODULES_UNSUPPORTED: dict[str, str] = {
    "StringIO": "io.StringIO (text) or io.BytesIO (bytes)",
    "cStringIO": "io.StringIO (text) or io.BytesIO (bytes)",
    "urllib2": "urllib.request",
    "httplib": "http.client",
    "commands": "subprocess",
    "Tkinter": "tkinter",
}

#: dict methods of Python 2 that are rewritten, with their Python 3 spelling.
DICT_METHODS: dict[str, str] = {
    "iteritems": "iter(d.items())",
    "itervalues": "iter(d.values())",
    "iterkeys": "iter(d.keys())",
    "has_key": "key in d",
}

# --------------------------------------------------------------------------
# TensorFlow 1 datasets
# --------------------------------------------------------------------------

#: Members of TensorFlow 1 datasets that TensorFlow 2 datasets lack, with their TensorFlow 2 spelling.
DATASET_V1_MEMBERS: dict[str, str] = {
    "make_one_shot_iterator": "tf.compat.v1.data.make_one_shot_iterator(dataset)",
    "make_initializable_iterator": "tf.compat.v1.data.make_initializable_iterator(dataset)",
    "output_types": "tf.compat.v1.data.get_output_types(dataset)",
    "output_shapes": "tf.compat.v1.data.get_output_shapes(dataset)",
    "output_classes": "tf.compat.v1.data.get_output_classes(dataset)",
}
