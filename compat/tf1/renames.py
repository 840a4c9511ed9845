"""The TensorFlow 0.x -> 1.0 rename table, as data.

TensorFlow 1.0 renamed many ops and reordered the arguments of a few (its
upgrade script ``tf_upgrade.py`` and the 1.0 release notes list them). Each
:class:`Rename` row says what an old name is under the compat runner:

* ``target``: a ``tf.compat.v1`` name that computes the same thing with the
  same arguments (``tf.mul`` is ``tf.compat.v1.multiply``);
* ``adapter``: a function of :mod:`compat.tf1.tf0_ops` that takes the old
  arguments (``tf.batch_matmul(x, y, adj_x, adj_y)``), or accepts both the old
  and the 1.0 call of a name that 1.0 kept (``tf.concat``, ``tf.split``);
* ``refusal``: what to use instead, for old names no function can bridge.

The TF1 namespace (:func:`compat.tf1.namespace.tf1_namespace`) serves the rows, nested
ones (``tf.train.SummaryWriter``, ``tf.nn.*``, ``tf.contrib.deprecated.*``)
through overlay modules that add the names and forward everything else to
``tf.compat.v1`` (the real modules are not modified); ``python -m compat
check`` (:func:`compat.tf1.namespace.classify_tf_attribute`) reports them. Importing this
module imports nothing heavy.
"""
from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compat.surfaces.modules import new_module
from compat.tf1 import tf0_ops

__all__ = [
    "CONTRIB_NN_REPLACEMENTS",
    "CONTRIB_OVERLAYS",
    "KEYWORD_RENAMES",
    "OVERLAY_PREFIXES",
    "RENAMES",
    "Rename",
    "bridged_action",
    "by_name",
    "contrib_modules",
    "contrib_overlay_message",
    "namespace_attributes",
    "refusal_message",
    "resolve",
]


@dataclass(frozen=True)
class Rename:
    """One pre-1.0 name and where the compat runner sends it.

    Attributes:
        old: the old name below ``tf``, dotted (``"train.SummaryWriter"``).
        new: what it is now, for messages (``"tf.compat.v1.summary.FileWriter"``).
        description: one line on what changed.
        target: the ``tf.compat.v1`` attribute path served as is, if any.
        adapter: the function served instead, if any.
        refusal: for names that cannot be bridged, what to use instead.
        old_call: for names 1.0 kept with new arguments, how ``check`` spots a
            pre-1.0 call: ``"int_first"`` (an integer literal first),
            ``"int_second"`` (an integer literal second), ``"positional"`` (any
            positional argument), ``"bool_list"`` (a list
            of True/False second), ``"keyword:<name>"`` (that keyword), ``"dtype"``
            (only the argument types tell, at run time); None otherwise.
    """

    old: str
    new: str
    description: str
    target: str | None = None
    adapter: Callable[..., Any] | None = None
    refusal: str | None = None
    old_call: str | None = None

    @property
    def kept_in_1_0(self) -> bool:
        """True if TensorFlow 1.x still had this name (with new arguments): only old calls are legacy."""
        return self.old_call is not None


_RENAMED = "renamed in TensorFlow 1.0"


def _rename(old: str, new: str, description: str = _RENAMED) -> Rename:
    return Rename(old=old, new=f"tf.compat.v1.{new}", description=description, target=new)


_BATCH_LINALG = {
    "batch_matrix_diag": "matrix_diag", "batch_matrix_diag_part": "matrix_diag_part",
    "batch_matrix_band_part": "matrix_band_part", "batch_matrix_set_diag": "matrix_set_diag",
    "batch_matrix_transpose": "matrix_transpose", "batch_matrix_determinant": "matrix_determinant",
    "batch_matrix_inverse": "matrix_inverse", "batch_cholesky": "cholesky",
    "batch_cholesky_solve": "cholesky_solve", "batch_matrix_solve": "matrix_solve",
    "batch_matrix_triangular_solve": "matrix_triangular_solve", "batch_matrix_solve_ls": "matrix_solve_ls",
    "batch_self_adjoint_eig": "self_adjoint_eig", "batch_self_adjoint_eigvals": "self_adjoint_eigvals",
    "batch_fft": "fft", "batch_ifft": "ifft", "batch_fft2d": "fft2d", "batch_ifft2d": "ifft2d",
    "batch_fft3d": "fft3d", "batch_ifft3d": "ifft3d",
}

_SUMMARIES: dict[str, tuple[Callable[..., Any], str]] = {
    "scalar_summary": (tf0_ops.scalar_summary, "summary.scalar"),
    "image_summary": (tf0_ops.image_summary, "summary.image"),
    "audio_summary": (tf0_ops.audio_summary, "summary.audio"),
    "histogram_summary": (tf0_ops.histogram_summary, "summary.histogram"),
    "merge_summary": (tf0_ops.merge_summary, "summary.merge"),
    "merge_all_summaries": (tf0_ops.merge_all_summaries, "summary.merge_all"),
}

_FLIPPED: dict[str, Callable[..., Any]] = {
    "deprecated_flipped_softmax_cross_entropy_with_logits": tf0_ops.flipped_softmax_cross_entropy_with_logits,
    "deprecated_flipped_sparse_softmax_cross_entropy_with_logits":
        tf0_ops.flipped_sparse_softmax_cross_entropy_with_logits,
    "deprecated_flipped_sigmoid_cross_entropy_with_logits": tf0_ops.flipped_sigmoid_cross_entropy_with_logits,
}


def _summary_rows() -> list[Rename]:
    rows = []
    for old, (adapter, new) in _SUMMARIES.items():
        description = ("pre-1.0 summary op: tags are used as given (tf.summary.* would prefix the name "
                       "scope and replace characters such as spaces)")
        rows.append(Rename(old=old, new=f"tf.compat.v1.{new}", description=description, adapter=adapter))
        rows.append(Rename(old=f"contrib.deprecated.{old}", new=f"tf.compat.v1.{new}",
                           description="TensorFlow 1.x alias of the " + description, adapter=adapter))
    return rows


def _cross_entropy_rows() -> list[Rename]:
    rows = [
        Rename(old="nn.softmax_cross_entropy_with_logits",
               new="tf.compat.v1.nn.softmax_cross_entropy_with_logits(labels=..., logits=...)",
               description="pre-1.0 positional order (logits, labels, dim, name); 1.x took keywords only, "
                           "today's positional order is (labels, logits)",
               adapter=tf0_ops.softmax_cross_entropy_with_logits, old_call="positional"),
        Rename(old="nn.sparse_softmax_cross_entropy_with_logits",
               new="tf.compat.v1.nn.sparse_softmax_cross_entropy_with_logits(labels=..., logits=...)",
               description="pre-1.0 positional order (logits, labels, name); 1.x took keywords only",
               adapter=tf0_ops.sparse_softmax_cross_entropy_with_logits, old_call="positional"),
        Rename(old="nn.sigmoid_cross_entropy_with_logits",
               new="tf.compat.v1.nn.sigmoid_cross_entropy_with_logits(labels=..., logits=...)",
               description="pre-1.0 positional order (logits, targets, name) and keyword targets= "
                           "(now labels=); 1.x took keywords only",
               adapter=tf0_ops.sigmoid_cross_entropy_with_logits, old_call="positional"),
    ]
    for old, adapter in _FLIPPED.items():
        new = old.replace("deprecated_flipped_", "")
        rows.append(Rename(old=f"contrib.nn.{old}", new=f"tf.compat.v1.nn.{new}(labels=..., logits=...)",
                           description="TensorFlow 1.x alias keeping the pre-1.0 order (logits, labels)",
                           adapter=adapter))
    return rows


def _contrib_nn_rows() -> list[Rename]:
    """``tf.contrib.nn`` ops of TensorFlow 1.x, written in :mod:`compat.contrib._nn_extras`."""
    from compat.contrib import _nn_extras
    news = {"alpha_dropout": "tf.keras.layers.AlphaDropout", "conv1d_transpose": "tf.nn.conv1d_transpose",
            "nth_element": "tf.sort or tf.math.top_k", "scaled_softplus": "alpha * tf.nn.softplus(x / alpha)",
            "sampled_sparse_softmax_loss": "tf.nn.sampled_softmax_loss (num_true=1)"}
    return [Rename(old=f"contrib.nn.{name}", new=new, description="TensorFlow 1.x contrib op, written on today's ops",
                   adapter=getattr(_nn_extras, name)) for name, new in news.items()]


#: Every pre-1.0 name the runner knows, in the order of TensorFlow 1.0's upgrade table.
RENAMES: tuple[Rename, ...] = (
    # NumPy-matching names
    _rename("mul", "multiply"),
    _rename("sub", "subtract"),
    _rename("neg", "negative"),
    _rename("inv", "reciprocal", "renamed in TensorFlow 1.0 (not a matrix inverse)"),
    _rename("listdiff", "setdiff1d"),
    _rename("list_diff", "setdiff1d"),
    _rename("select", "where", "renamed in TensorFlow 1.0; the TF1 where(condition, x, y) is the same op"),
    _rename("pack", "stack"),
    _rename("unpack", "unstack"),
    _rename("concat_v2", "concat", "the 0.12 name of the 1.0 concat(values, axis)"),
    _rename("complex_abs", "abs", "merged into tf.abs in TensorFlow 1.0"),
    # Variables
    _rename("all_variables", "global_variables"),
    _rename("initialize_all_variables", "global_variables_initializer"),
    _rename("initialize_variables", "variables_initializer"),
    _rename("initialize_local_variables", "local_variables_initializer"),
    _rename("VARIABLES", "GraphKeys.GLOBAL_VARIABLES", "the collection key 'variables', renamed in 1.0"),
    Rename(old="op_scope", new="tf.compat.v1.name_scope(name, default_name, values)",
           description="replaced in 1.0 by name_scope with the arguments reordered; "
                       "tf.compat.v1.op_scope keeps the old order", target="op_scope"),
    # Batched linear algebra and FFT: the plain ops take batches since 1.0
    *(_rename(old, new, "the plain op takes batches since TensorFlow 1.0") for old, new in _BATCH_LINALG.items()),
    Rename(old="batch_matmul", new="tf.compat.v1.matmul(x, y, adjoint_a=adj_x, adjoint_b=adj_y)",
           description="merged into matmul; its 3rd/4th arguments adj_x/adj_y are matmul's adjoint_a/adjoint_b",
           adapter=tf0_ops.batch_matmul),
    Rename(old="batch_svd", new="tf.compat.v1.svd(tensor, full_matrices=..., compute_uv=...)",
           description="merged into svd, whose 2nd/3rd arguments were swapped (compute_uv, full_matrices)",
           adapter=tf0_ops.batch_svd),
    # Summaries
    *_summary_rows(),
    _rename("train.SummaryWriter", "summary.FileWriter"),
    # Images
    Rename(old="image.per_image_whitening", new="tf.compat.v1.image.per_image_standardization",
           description="renamed in 1.0; served with the pre-1.0 definition (float32 cast, no rescaling "
                       "of integer images, 3-D images only)", adapter=tf0_ops.per_image_whitening),
    Rename(old="image.resize_images", new="tf.compat.v1.image.resize_images(images, [height, width])",
           description="0.11 form resize_images(images, new_height, new_width, method) accepted",
           adapter=tf0_ops.resize_images, old_call="int_second"),
    # Initializers: functions before 1.0, classes since
    Rename(old="zeros_initializer", new="tf.compat.v1.zeros_initializer()",
           description="a function of the shape before 1.0, a class since; both calls work",
           adapter=tf0_ops.zeros_initializer),
    Rename(old="ones_initializer", new="tf.compat.v1.ones_initializer()",
           description="a function of the shape before 1.0, a class since; both calls work",
           adapter=tf0_ops.ones_initializer),
    # Reordered arguments of names 1.0 kept
    Rename(old="concat", new="tf.compat.v1.concat(values, axis)",
           description="pre-1.0 order concat(concat_dim, values) and keyword concat_dim= accepted",
           adapter=tf0_ops.concat, old_call="int_first"),
    Rename(old="split", new="tf.compat.v1.split(value, num_or_size_splits, axis)",
           description="pre-1.0 order split(split_dim, num_split, value) and keywords split_dim=/num_split= "
                       "accepted", adapter=tf0_ops.split, old_call="int_first"),
    *(Rename(old=name, new=f"tf.compat.v1.{name}(indices, values, dense_shape)",
             description="the keyword shape= of TF <= 0.12 (dense_shape since 1.0) accepted",
             adapter=getattr(tf0_ops, name), old_call="keyword:shape")
      for name in ("SparseTensor", "SparseTensorValue")),
    Rename(old="sparse_split", new="tf.compat.v1.sparse_split(sp_input=, num_split=, axis=)",
           description="pre-1.0 positional order (split_dim, num_split, sp_input); 1.x took keywords only",
           adapter=tf0_ops.sparse_split, old_call="positional"),
    Rename(old="sparse_concat", new="tf.compat.v1.sparse_concat(axis, sp_inputs)",
           description="pre-1.0 keyword concat_dim= accepted without axis",
           adapter=tf0_ops.sparse_concat, old_call="keyword:concat_dim"),
    Rename(old="reverse", new="tf.compat.v1.reverse(tensor, axis)",
           description="pre-1.0 boolean dims vector (one entry per dimension) accepted and turned into "
                       "axis indices", adapter=tf0_ops.reverse, old_call="bool_list"),
    *_cross_entropy_rows(),
    *_contrib_nn_rows(),
    Rename(old="nn.nce_loss", new="tf.compat.v1.nn.nce_loss(weights, biases, labels, inputs, ...)",
           description="pre-1.0 order (weights, biases, inputs, labels, ...) accepted: float inputs "
                       "before integer labels are swapped", adapter=tf0_ops.nce_loss, old_call="dtype"),
    Rename(old="nn.sampled_softmax_loss",
           new="tf.compat.v1.nn.sampled_softmax_loss(weights, biases, labels, inputs, ...)",
           description="pre-1.0 order (weights, biases, inputs, labels, ...) accepted: float inputs "
                       "before integer labels are swapped", adapter=tf0_ops.sampled_softmax_loss,
           old_call="dtype"),
    # RNNs: moved to tf.contrib.rnn in 1.0, back in tf.nn as static_* in 1.2
    _rename("nn.rnn", "nn.static_rnn", "renamed static_rnn (tf.contrib.rnn in 1.0, tf.nn since 1.2)"),
    _rename("nn.bidirectional_rnn", "nn.static_bidirectional_rnn",
            "renamed static_bidirectional_rnn (tf.contrib.rnn in 1.0, tf.nn since 1.2)"),
    _rename("nn.state_saving_rnn", "nn.static_state_saving_rnn",
            "renamed static_state_saving_rnn (tf.contrib.rnn in 1.0, tf.nn since 1.2)"),
    Rename(old="nn.seq2seq", new="tf.keras.layers (attention: tf.keras.layers.Attention)",
           description="moved to tf.contrib.legacy_seq2seq in 1.0 and removed with tf.contrib in 2.0",
           refusal="tf.keras.layers (RNN, LSTM, Attention) or the tensorflow_addons package (tfa.seq2seq)"),
)

#: Keyword arguments TensorFlow 1.0 renamed (its upgrade script's keyword table): old -> new, per function.
#: ``tf.compat.v1`` still accepts every old keyword except ``concat_dim``, ``split_dim`` and
#: ``num_split``, which the ``concat``/``split`` adapters of :mod:`compat.tf1.tf0_ops` accept
#: (``adj_x``/``adj_y`` are ``batch_matmul``'s own arguments, see its row).
KEYWORD_RENAMES: dict[str, dict[str, str]] = {
    "batch_matmul": {"adj_x": "adjoint_a", "adj_y": "adjoint_b"},
    "count_nonzero": {"reduction_indices": "axis"},
    **{f"reduce_{op}": {"reduction_indices": "axis"}
       for op in ("all", "any", "max", "mean", "min", "prod", "sum", "logsumexp", "join")},
    "expand_dims": {"dim": "axis"},
    "argmax": {"dimension": "axis"},
    "argmin": {"dimension": "axis"},
    "sparse_concat": {"concat_dim": "axis"},
    "sparse_split": {"split_dim": "axis"},
    "sparse_reduce_sum": {"reduction_axes": "axis"},
    "sparse_reduce_sum_sparse": {"reduction_axes": "axis"},
    "reverse_sequence": {"seq_dim": "seq_axis", "batch_dim": "batch_axis"},
    "squeeze": {"squeeze_dims": "axis"},
    "split": {"split_dim": "axis", "num_split": "num_or_size_splits"},
    "concat": {"concat_dim": "axis"},
}

#: What replaced the ``tf.contrib.nn`` names the runner does not provide.
CONTRIB_NN_REPLACEMENTS: dict[str, str] = {
    "rank_sampled_softmax_loss": "tf.nn.sampled_softmax_loss",
}

#: The ``tf.contrib`` modules that hold only this table's rows (other names are refused).
CONTRIB_OVERLAYS: tuple[str, ...] = ("contrib.deprecated", "contrib.nn")

#: The ``tf.<prefix>`` modules served as overlays with added names.
OVERLAY_PREFIXES: tuple[str, ...] = ("nn", "train", "image")

_BY_NAME: dict[str, Rename] = {row.old: row for row in RENAMES}


def by_name(dotted: str) -> Rename | None:
    """The row for ``dotted`` (a name below ``tf``, e.g. ``"train.SummaryWriter"``), or None."""
    return _BY_NAME.get(dotted)


def bridged_action(row: Rename) -> str:
    """What ``python -m compat check`` says the runner does for a bridged row."""
    if row.target is not None:
        detail = "" if row.description == _RENAMED else f" ({row.description})"
        return f"renamed op, bridged to {row.new}{detail}"
    adapter = getattr(row.adapter, "__name__", "?")
    owner = getattr(row.adapter, "__module__", "compat.tf1.tf0_ops")
    return f"served as {owner}.{adapter}: {row.description}; today's spelling: {row.new}"


def refusal_message(row: Rename) -> str:
    """The error text for a row that cannot be bridged."""
    return (f"tf.{row.old} is not provided by the compat runner ({row.description}); "
            f"use {row.refusal}")


def contrib_overlay_message(prefix: str, attr: str) -> str:
    """The error text for ``tf.<prefix>.<attr>`` (prefix ``contrib.nn`` or ``contrib.deprecated``) not in the table."""
    if prefix == "contrib.nn":
        replacement = CONTRIB_NN_REPLACEMENTS.get(attr, "tf.nn or tf.keras.layers")
        return (f"tf.contrib.nn.{attr} is not provided by the compat runner (only the "
                f"deprecated_flipped_* losses and the ops of compat.contrib._nn_extras are); use {replacement}")
    return (f"tf.{prefix}.{attr} is not provided by the compat runner; "
            "it only held the pre-1.0 *_summary ops")


def resolve(row: Rename, v1: Any) -> Any:
    """The object served for ``row``: the adapter, or the ``tf.compat.v1`` attribute it names.

    Raises:
        ValueError: the row is a refusal (nothing is served for it).
    """
    if row.adapter is not None:
        return row.adapter
    if row.target is None:
        raise ValueError(f"tf.{row.old} is refused, nothing to resolve")
    value = v1
    for part in row.target.split("."):
        value = getattr(value, part)
    return value


def _overlay_module(name: str, doc: str, base: Any, added: dict[str, Any],
                    refuse: Callable[[str], str | None], error: type[Exception]) -> types.ModuleType:
    """A module with ``added`` names that forwards everything else to ``base`` (untouched)."""
    module = new_module(name, doc, is_package=True)
    module.__dict__.update(added)

    def __getattr__(attr: str) -> Any:
        message = refuse(attr)
        if message is not None:
            raise error(message)
        if base is None or attr.startswith("__"):
            raise AttributeError(f"module {name!r} has no attribute {attr!r}")
        return getattr(base, attr)

    def __dir__() -> list[str]:
        return sorted(set(dir(base) if base is not None else ()) | set(added))

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    module.__dir__ = __dir__  # type: ignore[method-assign]
    return module


def _rows_under(prefix: str) -> list[Rename]:
    return [row for row in RENAMES if row.old.startswith(prefix + ".") and "." not in row.old[len(prefix) + 1:]]


def _refuser(prefix: str) -> Callable[[str], str | None]:
    def refuse(attr: str) -> str | None:
        row = by_name(f"{prefix}.{attr}")
        return refusal_message(row) if row is not None and row.refusal is not None else None
    return refuse


def namespace_attributes(v1: Any, error: type[Exception]) -> dict[str, Any]:
    """The attributes the TF1 namespace adds to ``tf.compat.v1``: top-level rows and overlay modules.

    ``tf.nn``, ``tf.train`` and ``tf.image`` become overlays of the
    ``tf.compat.v1`` modules with this table's names added; ``error`` is raised
    for refused names.
    """
    attributes: dict[str, Any] = {}
    for row in RENAMES:
        if "." not in row.old and row.refusal is None:
            attributes[row.old] = resolve(row, v1)
    for prefix in OVERLAY_PREFIXES:
        added = {row.old.split(".")[1]: resolve(row, v1) for row in _rows_under(prefix) if row.refusal is None}
        attributes[prefix] = _overlay_module(
            f"tensorflow.{prefix}", f"tf.compat.v1.{prefix} plus the pre-1.0 names of compat.tf1.renames.",
            getattr(v1, prefix), added, _refuser(prefix), error)
    return attributes


def contrib_modules(error: type[Exception]) -> dict[str, types.ModuleType]:
    """``tensorflow.contrib.deprecated`` and ``tensorflow.contrib.nn`` module objects, by name.

    They hold this table's ``contrib.*`` rows; any other name raises ``error``
    naming its replacement.
    """
    def nn_refuse(attr: str) -> str | None:
        return None if attr.startswith("__") else contrib_overlay_message("contrib.nn", attr)

    def deprecated_refuse(attr: str) -> str | None:
        return None if attr.startswith("__") else contrib_overlay_message("contrib.deprecated", attr)

    modules = {}
    for prefix, refuse in zip(CONTRIB_OVERLAYS, (deprecated_refuse, nn_refuse), strict=True):
        added = {row.old.rsplit(".", 1)[1]: row.adapter for row in RENAMES if row.old.startswith(prefix + ".")}
        name = f"tensorflow.{prefix}"
        modules[name] = _overlay_module(name, f"tf.{prefix} as far as the compat runner provides it.",
                                        None, added, refuse, error)
    return modules
