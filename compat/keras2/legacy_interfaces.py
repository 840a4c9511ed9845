"""Keras 1 arguments and names, accepted the way standalone Keras 2.0-2.3 accepted them.

Keras 2.0-2.3 kept the Keras 1 API working through ``keras/legacy/interfaces.py``:
a layer built with Keras 1 arguments (``Dense(output_dim=64, init='normal')``,
``Convolution2D(32, 3, 3, border_mode='same')``, ``Dropout(p=0.5)``) was
converted to the Keras 2 call and a ``UserWarning`` said so ("Update your
`Dense` call to the Keras 2 API: ..."); ``model.fit(nb_epoch=)``,
``fit_generator(samples_per_epoch=, nb_epoch=, ...)`` and
``Model(input=, output=)`` likewise. 2016-2018 code relies on it; ``tf_keras``
(the Keras 2 the runner serves for ``import keras``) has none of it.

This module holds the conversion tables of Keras 2.2 (:data:`LAYER_INTERFACES`,
:data:`MODEL_INTERFACE`, :data:`GENERATOR_INTERFACE`) and builds the classes
:mod:`compat.keras2` serves to standalone ``keras`` in their place
(:func:`legacy_class`): a subclass of the ``tf_keras`` class, with the same
name, module and ``get_config``, whose ``__init__`` converts the arguments, and
for which ``isinstance`` and ``issubclass`` answer as for the ``tf_keras``
class (so layers a loaded model holds are instances of the served class).
``tf.keras`` is not changed: TensorFlow 1's ``tf.keras`` never had these
interfaces.

Importing this module imports nothing heavy: ``tf_keras`` is imported when a
class is first wrapped.
"""
from __future__ import annotations

import importlib
import numbers
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BACKEND_NAMES", "DIM_ORDERING", "GENERATOR_INTERFACE", "KERAS1_LAYER_NAMES", "LAYER_ALIASES",
           "LAYER_INTERFACES", "MODEL_INTERFACE", "MODEL_METHOD_KEYWORDS", "Interface", "atrous_convolution",
           "convert", "image_dim_ordering", "legacy_class", "legacy_value", "set_image_dim_ordering"]

Args = tuple[Any, ...]
Kwargs = dict[str, Any]
#: (old name, new name) pairs a preprocessor converted, and notes to add to the warning.
Converted = list[tuple[str, str]]
#: ``(args, kwargs) -> (args, kwargs, converted, notes)``; ``args`` without ``self``.
Preprocessor = Callable[[Args, Kwargs], tuple[Args, Kwargs, Converted, list[str]]]

#: Keras 1 ``dim_ordering`` values -> Keras 2 ``data_format`` (``'default'``: the backend's setting).
DIM_ORDERING: dict[str, str | None] = {"tf": "channels_last", "th": "channels_first", "default": None}
_DIM_VALUES: Mapping[str, Mapping[Any, Any]] = {"dim_ordering": DIM_ORDERING}


@dataclass(frozen=True)
class Interface:
    """How one Keras 2.2 class or method accepted its Keras 1 arguments.

    Attributes:
        positional: the positional arguments it accepted (more raise ``TypeError``,
            as a Keras 1 positional order would otherwise be misread); None: unchecked.
        renames: (Keras 1 keyword, Keras 2 keyword), applied after ``values``.
        values: Keras 1 keyword -> {Keras 1 value: Keras 2 value}.
        preprocess: the conversions a rename cannot express (``nb_row, nb_col`` -> ``kernel_size``).
        handled: Keras 1 keywords ``preprocess`` converts or drops (for ``compat check``).
    """

    positional: tuple[str, ...] | None = None
    renames: tuple[tuple[str, str], ...] = ()
    values: Mapping[str, Mapping[Any, Any]] = field(default_factory=dict)
    preprocess: Preprocessor | None = None
    handled: tuple[str, ...] = ()

    @property
    def old_keywords(self) -> dict[str, str]:
        """Each Keras 1 keyword -> what it becomes (for reports)."""
        converted = {old: new for old, new in self.renames}
        converted.update({old: "converted as Keras 2.x did" for old in self.handled if old not in converted})
        return converted


# -- preprocessors (the rules of Keras 2.2's keras/legacy/interfaces.py) -------------------------------------


def _is_int(value: object) -> bool:
    # Keras 2 tested `isinstance(x, int)`; NumPy integers (kernel_size[0] of an array) are taken too.
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_no_keras2_keywords(kwargs: Kwargs) -> None:
    """``Conv2D(32, 3, 3, padding=...)``: a Keras 2 call's integer ``strides`` or a Keras 1 kernel? Keras 2 refused."""
    if any(keyword in kwargs for keyword in ("padding", "strides", "data_format")):
        raise ValueError("It seems that you are using the Keras 2 API and you are passing both `kernel_size` and "
                         "`strides` as integer positional arguments. For safety reasons, this is disallowed. "
                         "Pass `strides` as a keyword argument instead.")


def _conv2d_kernel(args: Args, kwargs: Kwargs) -> tuple[Args, Kwargs, Converted, list[str]]:
    """Keras 1 ``Convolution2D(nb_filter, nb_row, nb_col)`` -> ``Conv2D(filters, (nb_row, nb_col))``."""
    done: Converted = [("nb_row, nb_col", "kernel_size")]
    if len(args) > 3:
        raise TypeError("Layer can receive at most 3 positional arguments.")
    if len(args) == 3 and _is_int(args[1]) and _is_int(args[2]):
        _check_no_keras2_keywords(kwargs)
        return (args[0], (args[1], args[2])), kwargs, done, []
    if len(args) == 2 and _is_int(args[1]) and "nb_col" in kwargs:
        return (args[0], (args[1], kwargs.pop("nb_col"))), kwargs, done, []
    if len(args) in (0, 1) and "nb_row" in kwargs and "nb_col" in kwargs:
        kernel = (kwargs.pop("nb_row"), kwargs.pop("nb_col"))
        if args:
            return (args[0], kernel), kwargs, done, []
        kwargs["kernel_size"] = kernel
        return args, kwargs, done, []
    return args, kwargs, [], []


def _conv3d_kernel(args: Args, kwargs: Kwargs) -> tuple[Args, Kwargs, Converted, list[str]]:
    """Keras 1 ``Convolution3D(nb_filter, kernel_dim1, kernel_dim2, kernel_dim3)`` -> ``Conv3D(filters, (d1, d2, d3))``.
    """
    done: Converted = [("kernel_dim1, kernel_dim2, kernel_dim3", "kernel_size")]
    names = ("kernel_dim1", "kernel_dim2", "kernel_dim3")
    if len(args) > 4:
        raise TypeError("Layer can receive at most 4 positional arguments.")
    given = len(args) - 1  # kernel dimensions given positionally
    if len(args) == 4 and all(_is_int(a) for a in args[1:]):
        return (args[0], tuple(args[1:])), kwargs, done, []
    if len(args) == 3 and _is_int(args[1]) and _is_int(args[2]):
        _check_no_keras2_keywords(kwargs)
    if 1 <= given <= 2 and all(_is_int(a) for a in args[1:]) and all(n in kwargs for n in names[given:]):
        kernel = (*args[1:], *(kwargs.pop(n) for n in names[given:]))
        return (args[0], kernel), kwargs, done, []
    if len(args) <= 1 and all(n in kwargs for n in names):
        kernel = tuple(kwargs.pop(n) for n in names)
        if args:
            return (args[0], kernel), kwargs, done, []
        kwargs["kernel_size"] = kernel
        return args, kwargs, done, []
    return args, kwargs, [], []


def _input_dim_to_shape(args: Args, kwargs: Kwargs) -> tuple[Args, Kwargs, Converted, list[str]]:
    """Keras 1 ``input_dim`` (and ``input_length``) of a sequence layer -> ``input_shape=(input_length, input_dim)``."""
    if "input_dim" not in kwargs:
        return args, kwargs, [], []
    length = kwargs.pop("input_length", None)
    kwargs["input_shape"] = (length, kwargs.pop("input_dim"))
    return args, kwargs, [("input_dim, input_length", "input_shape")], []


def _forget_bias_init(kwargs: Kwargs) -> tuple[Converted, list[str]]:
    """Keras 1 ``forget_bias_init='one'`` -> ``unit_forget_bias=True``; any other value was dropped."""
    if "forget_bias_init" not in kwargs:
        return [], []
    if kwargs.pop("forget_bias_init") == "one":
        kwargs["unit_forget_bias"] = True
        return [("forget_bias_init='one'", "unit_forget_bias=True")], []
    return [], ["the `forget_bias_init` argument has been ignored; use `unit_forget_bias=True` "
                "to initialize with ones"]


def _recurrent(args: Args, kwargs: Kwargs) -> tuple[Args, Kwargs, Converted, list[str]]:
    """LSTM / GRU / SimpleRNN: ``forget_bias_init`` and ``input_dim``/``input_length``."""
    done, notes = _forget_bias_init(kwargs)
    args, kwargs, shape_done, _ = _input_dim_to_shape(args, kwargs)
    return args, kwargs, done + shape_done, notes


def _convlstm2d(args: Args, kwargs: Kwargs) -> tuple[Args, Kwargs, Converted, list[str]]:
    done, notes = _forget_bias_init(kwargs)
    args, kwargs, kernel_done, _ = _conv2d_kernel(args, kwargs)
    return args, kwargs, done + kernel_done, notes


def _separable_conv2d(args: Args, kwargs: Kwargs) -> tuple[Args, Kwargs, Converted, list[str]]:
    """Keras 1 ``init`` initialised both kernels of a separable convolution."""
    done: Converted = []
    if "init" in kwargs:
        kwargs["depthwise_initializer"] = kwargs["pointwise_initializer"] = kwargs.pop("init")
        done.append(("init", "depthwise_initializer, pointwise_initializer"))
    args, kwargs, kernel_done, _ = _conv2d_kernel(args, kwargs)
    return args, kwargs, done + kernel_done, []


def _deconv2d(args: Args, kwargs: Kwargs) -> tuple[Args, Kwargs, Converted, list[str]]:
    """Keras 1 ``Deconvolution2D(..., output_shape)``: Keras 2 computes the shape, so it was dropped."""
    done: Converted = []
    if len(args) == 4 and isinstance(args[3], tuple):
        args = args[:-1]
        done.append(("output_shape", "(dropped: computed from the input)"))
    if "output_shape" in kwargs:
        kwargs.pop("output_shape")
        done.append(("output_shape", "(dropped: computed from the input)"))
    args, kwargs, kernel_done, _ = _conv2d_kernel(args, kwargs)
    return args, kwargs, done + kernel_done, []


def _batchnorm(args: Args, kwargs: Kwargs) -> tuple[Args, Kwargs, Converted, list[str]]:
    """Keras 1 ``mode=0`` is Keras 2's only batch normalization; ``mode=1``/``2`` were refused."""
    if args:
        raise TypeError("The `BatchNormalization` layer does not accept positional arguments. "
                        "Use keyword arguments instead.")
    if "mode" not in kwargs:
        return args, kwargs, [], []
    if kwargs.pop("mode") != 0:
        raise TypeError("The `mode` argument of `BatchNormalization` no longer exists. "
                        "`mode=1` and `mode=2` are no longer supported.")
    return args, kwargs, [("mode=0", "(dropped: the only mode)")], []


def _embedding(args: Args, kwargs: Kwargs) -> tuple[Args, Kwargs, Converted, list[str]]:
    """Keras 1 ``Embedding(dropout=)`` was dropped by Keras 2 (not applied), with a warning."""
    if "dropout" not in kwargs:
        return args, kwargs, [], []
    kwargs.pop("dropout")
    return args, kwargs, [], ["the `dropout` argument is no longer supported in `Embedding` and is ignored; "
                              "apply a `keras.layers.SpatialDropout1D` layer right after the `Embedding` "
                              "layer to get the same behavior"]


def _padding_dict(padding: object) -> object:
    """Keras 1 ``{'top_pad': ..., 'left_pad': ...}`` -> ``((top, bottom), (left, right))``; other values as given."""
    keys = {"top_pad", "bottom_pad", "left_pad", "right_pad"}
    if not isinstance(padding, dict) or not set(padding) <= keys:
        return padding
    return ((padding.get("top_pad", 0), padding.get("bottom_pad", 0)),
            (padding.get("left_pad", 0), padding.get("right_pad", 0)))


def _zeropadding2d(args: Args, kwargs: Kwargs) -> tuple[Args, Kwargs, Converted, list[str]]:
    note = ["the `padding` argument no longer accepts a dict: use `padding=((top_pad, bottom_pad), "
            "(left_pad, right_pad))`"]
    if isinstance(kwargs.get("padding"), dict):
        converted = _padding_dict(kwargs["padding"])
        if converted is not kwargs["padding"]:
            kwargs["padding"] = converted
            return args, kwargs, [], note
    elif len(args) == 1 and isinstance(args[0], dict):
        converted = _padding_dict(args[0])
        if converted is not args[0]:
            return (converted,), kwargs, [], note
    return args, kwargs, [], []


# -- the tables ---------------------------------------------------------------------------------------------

#: Keras 1 weight arguments of Dense and the convolutions.
_WEIGHTS: tuple[tuple[str, str], ...] = (
    ("init", "kernel_initializer"), ("W_regularizer", "kernel_regularizer"), ("b_regularizer", "bias_regularizer"),
    ("W_constraint", "kernel_constraint"), ("b_constraint", "bias_constraint"), ("bias", "use_bias"))
_CONV: tuple[tuple[str, str], ...] = (("nb_filter", "filters"), ("subsample", "strides"),
                                      ("border_mode", "padding"), ("dim_ordering", "data_format"))
_FILTERS = ("filters", "kernel_size")
_POOL = ("pool_size", "strides", "padding")
_RECURRENT: tuple[tuple[str, str], ...] = (
    ("output_dim", "units"), ("init", "kernel_initializer"), ("inner_init", "recurrent_initializer"),
    ("inner_activation", "recurrent_activation"), ("W_regularizer", "kernel_regularizer"),
    ("b_regularizer", "bias_regularizer"), ("U_regularizer", "recurrent_regularizer"),
    ("dropout_W", "dropout"), ("dropout_U", "recurrent_dropout"), ("consume_less", "implementation"))

_CONVLSTM: tuple[tuple[str, str], ...] = (
    ("init", "kernel_initializer"), ("inner_init", "recurrent_initializer"), ("W_regularizer", "kernel_regularizer"),
    ("U_regularizer", "recurrent_regularizer"), ("b_regularizer", "bias_regularizer"),
    ("inner_activation", "recurrent_activation"), ("dropout_W", "dropout"), ("dropout_U", "recurrent_dropout"),
    ("bias", "use_bias"))

_POOLING_2D_3D = Interface(_POOL, (("border_mode", "padding"), ("dim_ordering", "data_format")), _DIM_VALUES)
_POOLING_1D = Interface(_POOL, (("pool_length", "pool_size"), ("stride", "strides"), ("border_mode", "padding")))
_GLOBAL_POOLING = Interface(None, (("dim_ordering", "data_format"),), _DIM_VALUES)
_DIM_ONLY = (("dim_ordering", "data_format"),)
_RECURRENT_INTERFACE = Interface(("units",), _RECURRENT, {"consume_less": {"cpu": 0, "mem": 1, "gpu": 2}},
                                 _recurrent, ("forget_bias_init",))

#: Keras 2.2's legacy interface of each layer class, by class name.
LAYER_INTERFACES: dict[str, Interface] = {
    "Dense": Interface(("units",), (("output_dim", "units"), *_WEIGHTS)),
    "Dropout": Interface(("rate", "noise_shape", "seed"), (("p", "rate"),)),
    "SpatialDropout1D": Interface(("rate",), (("p", "rate"),)),
    "SpatialDropout2D": Interface(("rate",), (("p", "rate"), *_DIM_ONLY), _DIM_VALUES),
    "SpatialDropout3D": Interface(("rate",), (("p", "rate"), *_DIM_ONLY), _DIM_VALUES),
    "GaussianDropout": Interface(("rate",), (("p", "rate"),)),
    "GaussianNoise": Interface(("stddev",), (("sigma", "stddev"),)),
    "PReLU": Interface(("alpha_initializer",), (("init", "alpha_initializer"),)),
    "Embedding": Interface(("input_dim", "output_dim"),
                           (("init", "embeddings_initializer"), ("W_regularizer", "embeddings_regularizer"),
                            ("W_constraint", "embeddings_constraint")), preprocess=_embedding, handled=("dropout",)),
    "MaxPooling1D": _POOLING_1D, "AveragePooling1D": _POOLING_1D,
    "MaxPooling2D": _POOLING_2D_3D, "AveragePooling2D": _POOLING_2D_3D,
    "MaxPooling3D": _POOLING_2D_3D, "AveragePooling3D": _POOLING_2D_3D,
    "GlobalAveragePooling2D": _GLOBAL_POOLING, "GlobalMaxPooling2D": _GLOBAL_POOLING,
    "GlobalAveragePooling3D": _GLOBAL_POOLING, "GlobalMaxPooling3D": _GLOBAL_POOLING,
    "UpSampling1D": Interface(("size",), (("length", "size"),)),
    "UpSampling2D": Interface(("size",), _DIM_ONLY, _DIM_VALUES),
    "UpSampling3D": Interface(("size",), _DIM_ONLY, _DIM_VALUES),
    "ZeroPadding2D": Interface(("padding",), _DIM_ONLY, _DIM_VALUES, _zeropadding2d),
    "ZeroPadding3D": Interface(("padding",), _DIM_ONLY, _DIM_VALUES),
    "Cropping2D": Interface(("cropping",), _DIM_ONLY, _DIM_VALUES),
    "Cropping3D": Interface(("cropping",), _DIM_ONLY, _DIM_VALUES),
    "Conv1D": Interface(_FILTERS, (("nb_filter", "filters"), ("filter_length", "kernel_size"),
                                   ("subsample_length", "strides"), ("border_mode", "padding"), *_WEIGHTS),
                        preprocess=_input_dim_to_shape),
    "Conv2D": Interface(_FILTERS, (*_CONV, *_WEIGHTS), _DIM_VALUES, _conv2d_kernel, ("nb_row", "nb_col")),
    "Conv2DTranspose": Interface(_FILTERS, (*_CONV, *_WEIGHTS), _DIM_VALUES, _deconv2d,
                                 ("nb_row", "nb_col", "output_shape")),
    "SeparableConv2D": Interface(_FILTERS, (*_CONV, ("b_regularizer", "bias_regularizer"),
                                            ("b_constraint", "bias_constraint"), ("bias", "use_bias")),
                                 _DIM_VALUES, _separable_conv2d, ("nb_row", "nb_col", "init")),
    "Conv3D": Interface(_FILTERS, (*_CONV, *_WEIGHTS), _DIM_VALUES, _conv3d_kernel,
                        ("kernel_dim1", "kernel_dim2", "kernel_dim3")),
    "ConvLSTM2D": Interface(_FILTERS, (*_CONV, *_CONVLSTM), _DIM_VALUES, _convlstm2d,
                            ("nb_row", "nb_col", "forget_bias_init")),
    "SimpleRNN": _RECURRENT_INTERFACE, "GRU": _RECURRENT_INTERFACE, "LSTM": _RECURRENT_INTERFACE,
    "BatchNormalization": Interface((), (("beta_init", "beta_initializer"), ("gamma_init", "gamma_initializer")),
                                    preprocess=_batchnorm, handled=("mode",)),
    "InputLayer": Interface(None, (("input_dtype", "dtype"),)),
}

#: Keras 1 layer names Keras 2.2 still exported, and the class each names (added where tf_keras lacks them).
LAYER_ALIASES: dict[str, str] = {"Deconvolution2D": "Conv2DTranspose", "Deconv2D": "Conv2DTranspose",
                                 "Deconvolution3D": "Conv3DTranspose", "Deconv3D": "Conv3DTranspose"}
#: Every Keras 1 (and Keras 2) layer name with a legacy interface -> the class name in :data:`LAYER_INTERFACES`.
KERAS1_LAYER_NAMES: dict[str, str] = {
    **{name: name for name in LAYER_INTERFACES},
    **{f"Convolution{rank}D": f"Conv{rank}D" for rank in (1, 2, 3)},
    "SeparableConvolution2D": "SeparableConv2D", "Convolution2DTranspose": "Conv2DTranspose",
    "Deconvolution2D": "Conv2DTranspose", "Deconv2D": "Conv2DTranspose",
    "AtrousConvolution1D": "Conv1D", "AtrousConv1D": "Conv1D",
    "AtrousConvolution2D": "Conv2D", "AtrousConv2D": "Conv2D",
    **{f"{kind}Pool{rank}D": f"{kind}Pooling{rank}D" for kind in ("Max", "Average") for rank in (1, 2, 3)},
}
#: Backend functions of Keras 1 that Keras 2.x kept (served on ``keras.backend``).
BACKEND_NAMES = ("image_dim_ordering", "set_image_dim_ordering")

#: The served modules that get :data:`LAYER_ALIASES` and the ``AtrousConvolution`` functions.
ALIAS_MODULES = ("keras.layers", "keras.layers.convolutional", "keras.legacy.layers")

#: ``Model(input=..., output=...)`` (Keras 1) -> ``Model(inputs=..., outputs=...)``.
MODEL_INTERFACE = Interface(None, (("input", "inputs"), ("output", "outputs")))


def _generator_steps(args: Args, kwargs: Kwargs) -> tuple[Args, Kwargs, Converted, list[str]]:
    """Keras 1 ``samples_per_epoch`` counted samples; Keras 2's ``steps_per_epoch`` counts batches.

    Keras 2.x divided by the generator's ``batch_size`` when it had one (the
    iterators of ``ImageDataGenerator.flow``, ``keras.utils.Sequence`` subclasses
    that set it) and otherwise took the number unchanged, now as a number of
    batches, warning that the meaning changed. Only when ``steps_per_epoch`` was
    not also given positionally.
    """
    notes: list[str] = []
    done: Converted = []
    if len(args) < 2 and "samples_per_epoch" in kwargs:
        samples = kwargs.pop("samples_per_epoch")
        generator = args[0] if args else kwargs.get("generator")
        batch_size = getattr(generator, "batch_size", None)
        if batch_size is not None:
            kwargs["steps_per_epoch"] = samples // batch_size
            done.append(("samples_per_epoch", f"steps_per_epoch = samples_per_epoch // batch_size = "
                                              f"{samples} // {batch_size}"))
        else:
            kwargs["steps_per_epoch"] = samples
            done.append(("samples_per_epoch", "steps_per_epoch (the same number, now of batches: the "
                                              "generator has no `batch_size`)"))
    if {"samples_per_epoch", "val_samples", "nb_val_samples"} & set(kwargs) or done:
        notes.append("the Keras 2 argument `steps_per_epoch` is not the same as the Keras 1 argument "
                     "`samples_per_epoch`: it is the number of batches to draw from the generator at each epoch "
                     "(basically steps_per_epoch = samples_per_epoch / batch_size); similarly "
                     "`nb_val_samples` -> `validation_steps` and `val_samples` -> `steps` now count batches")
    return args, kwargs, done, notes


#: ``fit_generator`` / ``evaluate_generator`` / ``predict_generator``'s Keras 1 arguments.
GENERATOR_INTERFACE = Interface(
    ("generator", "steps_per_epoch", "epochs"),
    (("samples_per_epoch", "steps_per_epoch"), ("val_samples", "steps"), ("nb_epoch", "epochs"),
     ("nb_val_samples", "validation_steps"), ("nb_worker", "workers"), ("pickle_safe", "use_multiprocessing"),
     ("max_q_size", "max_queue_size")),
    preprocess=_generator_steps)

#: Model methods with Keras 1 arguments (for ``compat check``): method -> Keras 1 keyword -> Keras 2 keyword.
MODEL_METHOD_KEYWORDS: dict[str, dict[str, str]] = {
    "fit": {"nb_epoch": "epochs"},
    **{method: dict(GENERATOR_INTERFACE.renames)
       for method in ("fit_generator", "evaluate_generator", "predict_generator")},
}


# -- converting a call -----------------------------------------------------------------------------------------


def _shown(value: object) -> str:
    """A value as Keras 2's warning showed it: strings quoted, arrays as ``array``, long values cut."""
    if isinstance(value, str):
        return f'"{value}"'
    text = "array" if type(value).__name__ == "ndarray" else str(value)
    return text if len(text) <= 10 else text[:10] + "..."


def _signature(name: str, args: Args, kwargs: Kwargs) -> str:
    shown = [_shown(a) for a in args] + [f"{k}={_shown(v)}" for k, v in kwargs.items()]
    return f"`{name}({', '.join(shown)})`"


def legacy_value(table: Mapping[Any, Any], value: object) -> tuple[bool, object]:
    """``(True, new value)`` if ``value`` is a key of ``table``, else ``(False, value)`` (unhashable values too)."""
    try:
        return (True, table[value]) if value in table else (False, value)
    except TypeError:
        return False, value


def convert(interface: Interface, name: str, args: Args, kwargs: Kwargs, stacklevel: int = 2) -> tuple[Args, Kwargs]:
    """The Keras 2 ``(args, kwargs)`` of a call of ``name`` (a class or method) made with Keras 1 arguments.

    Order as in Keras 2.2: the preprocessor, the positional check, value
    conversions, then renames. One ``UserWarning`` names the Keras 2 call and
    each old -> new name; a Keras 1 keyword given with its Keras 2 one raises
    ``TypeError``.
    """
    kwargs = dict(kwargs)
    done: Converted = []
    notes: list[str] = []
    if interface.preprocess is not None:
        args, kwargs, done, notes = interface.preprocess(tuple(args), kwargs)
    if interface.positional is not None and len(args) > len(interface.positional):
        raise TypeError(f"`{name}` can accept only {len(interface.positional)} positional arguments "
                        f"{interface.positional}, but you passed the following positional arguments: {list(args)}")
    for keyword, table in interface.values.items():
        if keyword in kwargs:
            _, kwargs[keyword] = legacy_value(table, kwargs[keyword])
    for old, new in interface.renames:
        if old in kwargs:
            if new in kwargs:
                raise TypeError(f"For the `{new}` argument, the layer received both the legacy keyword argument "
                                f"`{old}` and the Keras 2 keyword argument `{new}`. Stick to the latter!")
            kwargs[new] = kwargs.pop(old)
            done.append((old, new))
    if done or notes:
        renamed = "; ".join(f"Keras 1 `{old}` -> `{new}`" for old, new in done)
        details = "; ".join(filter(None, [renamed, *notes]))
        warnings.warn(f"Update your `{name}` call to the Keras 2 API: {_signature(name, args, kwargs)} ({details})",
                      UserWarning, stacklevel=stacklevel + 1)
    return tuple(args), kwargs


# -- the served classes ----------------------------------------------------------------------------------------

#: The attribute of a served class naming the tf_keras class it stands for.
_ORIGINAL = "_compat_keras2_original"


class _ServedMeta(type):
    """``isinstance``/``issubclass`` against a served class answer as for its tf_keras class.

    A model loaded from a file, or a layer made by tf_keras itself, is an
    instance of the tf_keras class, and Keras 2 code asks ``isinstance(layer,
    Dense)`` of them. Classes defined by the script (subclasses of a served
    class) are checked as usual.
    """

    def __instancecheck__(cls, instance: object) -> bool:
        original = cls.__dict__.get(_ORIGINAL)
        return isinstance(instance, original) if original is not None else type.__instancecheck__(cls, instance)

    def __subclasscheck__(cls, subclass: type) -> bool:
        original = cls.__dict__.get(_ORIGINAL)
        return issubclass(subclass, original) if original is not None else type.__subclasscheck__(cls, subclass)


_SERVED: dict[type, type] = {}


def _served_type(original: type, bases: tuple[type, ...], namespace: dict[str, Any]) -> type:
    """A subclass standing for ``original``: same name, module and qualified name (so saving writes the
    same ``class_name``), with the served metaclass."""
    metaclass: type = _ServedMeta
    if not issubclass(_ServedMeta, type(original)):  # a tf_keras class with its own metaclass: combine them
        metaclass = type("_ServedMeta", (_ServedMeta, type(original)), {})
    namespace.update({"__module__": original.__module__, "__qualname__": original.__qualname__,
                      "__doc__": original.__doc__, _ORIGINAL: original})
    served = metaclass(original.__name__, bases, namespace)
    _SERVED[original] = served
    return served


def _layer_class(original: type, interface: Interface) -> type:
    """``original`` with an ``__init__`` that converts Keras 1 arguments first."""
    cell: list[Any] = []

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        args, kwargs = convert(interface, type(self).__name__, args, kwargs)
        super(cell[0], self).__init__(*args, **kwargs)

    cell.append(_served_type(original, (original,), {"__init__": __init__}))
    return cell[0]


def _tf_keras_class(value: object) -> bool:
    return isinstance(value, type) and value.__module__.startswith("tf_keras.")


def legacy_class(value: object) -> object:
    """The class served to standalone ``keras`` for ``value``: a converting subclass for a tf_keras layer
    or model class of Keras 2.2's legacy interfaces, else ``value`` itself."""
    if not isinstance(value, type) or not _tf_keras_class(value):
        return value
    if value in _SERVED:
        return _SERVED[value]
    if value.__name__ in LAYER_INTERFACES and _is_layer(value):
        return _layer_class(value, LAYER_INTERFACES[value.__name__])
    if value.__module__.startswith("tf_keras.src.engine.") and value.__name__ in ("Model", "Sequential", "Functional"):
        # import_module, not `from compat.keras2 import ...`: this runs while TensorFlow loads, when a script
        # with its own `compat` package has had ours taken out of sys.modules, and a from-import of a new
        # submodule makes Python import the top-level `compat` again (ours, hiding the script's).
        legacy_models = importlib.import_module("compat.keras2.legacy_models")
        return legacy_models.model_class(value)
    return value


def _is_layer(value: type) -> bool:
    from tf_keras.src.engine.base_layer import Layer
    return issubclass(value, Layer)


# -- functions and names Keras 2.2 kept ------------------------------------------------------------------------


def atrous_convolution(rank: int, conv_class: type) -> Callable[..., Any]:
    """Keras 1 ``AtrousConvolution1D/2D(..., atrous_rate=r)``: Keras 2.2 built ``Conv1D/2D(..., dilation_rate=r)``."""
    name = f"AtrousConvolution{rank}D"

    def build(*args: Any, **kwargs: Any) -> Any:
        # Keras 2 set dilation_rate to atrous_rate or 1; a Keras 2 dilation_rate given instead is kept.
        kwargs["dilation_rate"] = kwargs.pop("atrous_rate", kwargs.get("dilation_rate", 1))
        warnings.warn(f"The `{name}` layer has been deprecated. Use instead the `Conv{rank}D` layer with the "
                      f"`dilation_rate` argument (Keras 1 `atrous_rate` -> `dilation_rate`).", UserWarning,
                      stacklevel=2)
        return conv_class(*args, **kwargs)

    build.__name__ = build.__qualname__ = name
    build.__doc__ = f"Keras 1's {name}: ``Conv{rank}D`` with ``dilation_rate=atrous_rate``."
    return build


def image_dim_ordering(backend: Any) -> Callable[[], str]:
    """Keras 2's ``image_dim_ordering()``: ``'th'`` for ``channels_first``, else ``'tf'``."""
    def image_dim_ordering() -> str:
        """Legacy getter for ``image_data_format``: ``'th'`` or ``'tf'``."""
        return "th" if backend.image_data_format() == "channels_first" else "tf"
    return image_dim_ordering


def set_image_dim_ordering(backend: Any) -> Callable[[str], None]:
    """Keras 2's ``set_image_dim_ordering(dim_ordering)``: sets ``image_data_format``."""
    def set_image_dim_ordering(dim_ordering: str) -> None:
        """Legacy setter for ``image_data_format``: ``'th'`` -> ``channels_first``, ``'tf'`` -> ``channels_last``."""
        if dim_ordering not in ("tf", "th"):
            raise ValueError("Unknown dim_ordering:", dim_ordering)
        backend.set_image_data_format(DIM_ORDERING[dim_ordering])
    return set_image_dim_ordering
