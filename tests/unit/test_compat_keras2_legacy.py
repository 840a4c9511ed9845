"""Keras 1 arguments and names served to standalone ``keras`` (compat.keras2.legacy_interfaces), as Keras 2.x took them.

Each layer built with Keras 1 arguments through the served classes must have
the config of the same layer built with Keras 2 arguments; model methods must
take ``nb_epoch`` and ``samples_per_epoch`` with Keras 2.x's meaning.
"""
from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tf_keras

from compat.keras2 import keras2_module, legacy_interfaces  # noqa: E402

KERAS = keras2_module("keras")
assert KERAS is not None
LAYERS: Any = keras2_module("keras.layers")
MODELS: Any = keras2_module("keras.models")
BACKEND: Any = keras2_module("keras.backend")
REAL: Any = importlib.import_module("tf_keras.api._v1.keras.layers")  # what tf.compat.v1.keras gives


def _config(layer: Any) -> dict[str, Any]:
    config = dict(layer.get_config())
    config.pop("name", None)
    return config


def _built_with_warning(build: Callable[[], Any], *expected: str) -> Any:
    """``build()``, checking that one UserWarning names the Keras 2 API and each of ``expected``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        layer = build()
    messages = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    assert any("Keras 2 API" in m or "deprecated" in m for m in messages), messages
    for text in expected:
        assert any(text in m for m in messages), (text, messages)
    return layer


# Keras 1 call -> the same layer in Keras 2 arguments (on tf_keras's own class), and old names the warning names.
CASES: list[tuple[str, Callable[[], Any], Callable[[], Any], tuple[str, ...]]] = [
    ("Dense", lambda: LAYERS.Dense(output_dim=64, init="glorot_uniform", W_regularizer=tf_keras.regularizers.l2(0.01),
                                   b_regularizer=tf_keras.regularizers.l1(0.5), bias=True),
     lambda: REAL.Dense(64, kernel_initializer="glorot_uniform", kernel_regularizer=tf_keras.regularizers.l2(0.01),
                        bias_regularizer=tf_keras.regularizers.l1(0.5), use_bias=True),
     ("`output_dim` -> `units`", "`W_regularizer` -> `kernel_regularizer`")),
    ("Convolution2D", lambda: LAYERS.Convolution2D(32, 3, 5, border_mode="same", subsample=(2, 2), dim_ordering="tf",
                                                   init="he_normal"),
     lambda: REAL.Conv2D(32, (3, 5), padding="same", strides=(2, 2), data_format="channels_last",
                         kernel_initializer="he_normal"),
     ("`nb_row, nb_col` -> `kernel_size`", "`border_mode` -> `padding`", "`subsample` -> `strides`")),
    ("Convolution2D th", lambda: LAYERS.Convolution2D(nb_filter=8, nb_row=2, nb_col=2, dim_ordering="th"),
     lambda: REAL.Conv2D(filters=8, kernel_size=(2, 2), data_format="channels_first"),
     ("`dim_ordering` -> `data_format`",)),
    ("Convolution1D", lambda: LAYERS.Convolution1D(nb_filter=6, filter_length=3, subsample_length=2,
                                                   border_mode="valid", input_dim=5, input_length=10),
     lambda: REAL.Conv1D(6, 3, strides=2, padding="valid", input_shape=(10, 5)),
     ("`filter_length` -> `kernel_size`",)),
    ("Convolution3D", lambda: LAYERS.Convolution3D(4, 2, 3, 3, border_mode="same"),
     lambda: REAL.Conv3D(4, (2, 3, 3), padding="same"), ("kernel_size",)),
    ("MaxPooling2D", lambda: LAYERS.MaxPooling2D(pool_size=(2, 2), border_mode="valid", dim_ordering="tf"),
     lambda: REAL.MaxPooling2D(pool_size=(2, 2), padding="valid", data_format="channels_last"), ("border_mode",)),
    ("MaxPooling1D", lambda: LAYERS.MaxPooling1D(pool_length=3, stride=1),
     lambda: REAL.MaxPooling1D(pool_size=3, strides=1), ("`pool_length` -> `pool_size`",)),
    ("Dropout", lambda: LAYERS.Dropout(p=0.5), lambda: REAL.Dropout(0.5), ("`p` -> `rate`",)),
    ("LSTM", lambda: LAYERS.LSTM(output_dim=8, dropout_W=0.1, dropout_U=0.2, inner_init="orthogonal",
                                 init="glorot_normal", inner_activation="sigmoid", consume_less="mem",
                                 forget_bias_init="one"),
     lambda: REAL.LSTM(8, dropout=0.1, recurrent_dropout=0.2, recurrent_initializer="orthogonal",
                       kernel_initializer="glorot_normal", recurrent_activation="sigmoid", implementation=1,
                       unit_forget_bias=True),
     ("`dropout_U` -> `recurrent_dropout`", "`consume_less` -> `implementation`")),
    ("GRU", lambda: LAYERS.GRU(output_dim=4, U_regularizer=tf_keras.regularizers.l2(0.1)),
     lambda: REAL.GRU(4, recurrent_regularizer=tf_keras.regularizers.l2(0.1)), ("`U_regularizer`",)),
    ("Embedding", lambda: LAYERS.Embedding(100, 8, init="uniform", W_regularizer=tf_keras.regularizers.l2(0.1),
                                           dropout=0.2),
     lambda: REAL.Embedding(100, 8, embeddings_initializer="uniform",
                            embeddings_regularizer=tf_keras.regularizers.l2(0.1)),
     ("`init` -> `embeddings_initializer`", "SpatialDropout1D")),
    ("BatchNormalization", lambda: LAYERS.BatchNormalization(mode=0, beta_init="zero", gamma_init="one", axis=1),
     lambda: REAL.BatchNormalization(beta_initializer="zero", gamma_initializer="one", axis=1),
     ("`beta_init` -> `beta_initializer`",)),
    ("UpSampling2D", lambda: LAYERS.UpSampling2D(size=(2, 2), dim_ordering="th"),
     lambda: REAL.UpSampling2D((2, 2), data_format="channels_first"), ("dim_ordering",)),
    ("ZeroPadding2D", lambda: LAYERS.ZeroPadding2D(padding={"top_pad": 1, "left_pad": 2}, dim_ordering="tf"),
     lambda: REAL.ZeroPadding2D(((1, 0), (2, 0)), data_format="channels_last"), ("no longer accepts a dict",)),
    ("Cropping2D", lambda: LAYERS.Cropping2D(((1, 1), (2, 2)), dim_ordering="th"),
     lambda: REAL.Cropping2D(((1, 1), (2, 2)), data_format="channels_first"), ("dim_ordering",)),
    ("GlobalAveragePooling2D", lambda: LAYERS.GlobalAveragePooling2D(dim_ordering="th"),
     lambda: REAL.GlobalAveragePooling2D(data_format="channels_first"), ("dim_ordering",)),
    ("SeparableConvolution2D", lambda: LAYERS.SeparableConvolution2D(8, 3, 3, init="he_uniform", border_mode="same"),
     lambda: REAL.SeparableConv2D(8, (3, 3), depthwise_initializer="he_uniform", pointwise_initializer="he_uniform",
                                  padding="same"), ("depthwise_initializer",)),
    ("Deconvolution2D", lambda: LAYERS.Deconvolution2D(3, 3, 3, output_shape=(None, 14, 14, 3), subsample=(2, 2)),
     lambda: REAL.Conv2DTranspose(3, (3, 3), strides=(2, 2)), ("`output_shape`",)),
    ("AtrousConvolution2D", lambda: LAYERS.AtrousConvolution2D(4, 3, 3, atrous_rate=(2, 2), border_mode="same"),
     lambda: REAL.Conv2D(4, (3, 3), dilation_rate=(2, 2), padding="same"), ("dilation_rate",)),
    ("AtrousConvolution1D", lambda: LAYERS.AtrousConvolution1D(4, 3, atrous_rate=2),
     lambda: REAL.Conv1D(4, 3, dilation_rate=2), ("dilation_rate",)),
    ("GaussianNoise", lambda: LAYERS.GaussianNoise(sigma=0.3), lambda: REAL.GaussianNoise(0.3), ("`sigma`",)),
]


@pytest.mark.parametrize(("name", "keras1", "keras2", "named"), CASES, ids=[c[0] for c in CASES])
def test_keras1_layer_has_the_keras2_layers_config(name: str, keras1: Callable[[], Any], keras2: Callable[[], Any],
                                                   named: tuple[str, ...]) -> None:
    old = _built_with_warning(keras1, *named)
    new = keras2()
    assert _config(old) == _config(new)
    assert isinstance(old, type(new)) and type(old).__name__ == type(new).__name__


def test_served_classes_stand_for_the_tf_keras_classes() -> None:
    assert LAYERS.Dense is not REAL.Dense and issubclass(LAYERS.Dense, REAL.Dense)
    assert isinstance(REAL.Dense(3), LAYERS.Dense) and issubclass(REAL.Conv2D, LAYERS.Convolution2D)
    assert LAYERS.Convolution2D is LAYERS.Conv2D and LAYERS.Dense.__module__ == REAL.Dense.__module__
    assert keras2_module("keras.layers.core").Dense is LAYERS.Dense  # type: ignore[union-attr]
    assert KERAS.layers is LAYERS and KERAS.models is MODELS

    class Scaled(LAYERS.Dense):  # a script's own layer, built with Keras 1 arguments through super()
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(output_dim=2, **kwargs)

    assert Scaled().units == 2 and not isinstance(REAL.Dense(3), Scaled)


@pytest.mark.parametrize(("path", "names"), [
    ("keras.layers.normalization", ("BatchNormalization",)),
    ("keras.layers.advanced_activations", ("LeakyReLU", "PReLU", "ELU")),
    ("keras.layers.recurrent", ("LSTM", "GRU", "SimpleRNN")),
    ("keras.layers.embeddings", ("Embedding",)),
    ("keras.layers.wrappers", ("TimeDistributed", "Bidirectional")),
    ("keras.layers.local", ("LocallyConnected2D",)),
    ("keras.layers.convolutional_recurrent", ("ConvLSTM2D",)),
])
def test_keras2_0_layer_modules_give_the_served_layers(path: str, names: tuple[str, ...]) -> None:
    # Keras 2.0-2.2's modules by kind of layer; the classes are the ones `keras.layers` serves.
    module = keras2_module(path)
    assert module is not None
    for name in names:
        assert getattr(module, name) is getattr(LAYERS, name), name


def test_tf_keras_itself_is_unchanged() -> None:
    import tensorflow as tf
    assert REAL.Dense is tf_keras.layers.Dense and not hasattr(tf_keras.backend, "set_image_dim_ordering")
    with pytest.raises(TypeError):
        REAL.Dense(output_dim=3)
    assert tf.compat.v1.keras.layers is not LAYERS


def test_keras2_rejections_are_kept() -> None:
    with pytest.raises(TypeError, match="Stick to the latter"):
        LAYERS.Dense(units=3, output_dim=4)
    with pytest.raises(TypeError, match="mode"):
        LAYERS.BatchNormalization(mode=2)
    with pytest.raises(ValueError, match="strides"):
        LAYERS.Conv2D(8, 3, 3, padding="same")  # Keras 1 kernel or Keras 2 kernel_size and strides?
    with pytest.raises(TypeError, match="positional"):
        LAYERS.Dense(3, "relu")


def test_image_dim_ordering() -> None:
    before = BACKEND.image_data_format()
    try:
        BACKEND.set_image_dim_ordering("th")
        assert BACKEND.image_data_format() == "channels_first" and BACKEND.image_dim_ordering() == "th"
        BACKEND.set_image_dim_ordering("tf")
        assert BACKEND.image_data_format() == "channels_last" and BACKEND.image_dim_ordering() == "tf"
        with pytest.raises(ValueError):
            BACKEND.set_image_dim_ordering("channels_last")
    finally:
        BACKEND.set_image_data_format(before)


def _tiny_model() -> Any:
    model = MODELS.Sequential()
    model.add(LAYERS.Dense(output_dim=1, input_dim=2))
    model.compile(loss="mse", optimizer="sgd")
    return model


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return rng.normal(size=(8, 2)).astype("float32"), rng.normal(size=(8, 1)).astype("float32")


def test_fit_with_nb_epoch() -> None:
    x, y = _data()
    with pytest.warns(UserWarning, match="`nb_epoch` argument in `fit` has been renamed `epochs`"):
        history = _tiny_model().fit(x, y, nb_epoch=2, batch_size=4, verbose=0)
    assert len(history.history["loss"]) == 2


class _Batches:
    """An endless generator of batches; with ``batch_size`` like the iterators of ImageDataGenerator.flow."""

    def __init__(self, batch_size: int | None) -> None:
        if batch_size is not None:
            self.batch_size = batch_size
        self._x, self._y = _data()

    def __iter__(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        return self

    def __next__(self) -> tuple[np.ndarray, np.ndarray]:
        return self._x[:4], self._y[:4]


class _CountBatches(tf_keras.callbacks.Callback):  # type: ignore[misc]
    def __init__(self) -> None:
        super().__init__()
        self.batches: list[int] = []

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        self.batches.append(0)

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        self.batches[-1] += 1


@pytest.mark.parametrize(("batch_size", "steps"), [(4, 3), (None, 12)])
def test_fit_generator_samples_per_epoch(batch_size: int | None, steps: int) -> None:
    """Keras 2.x: steps_per_epoch = samples_per_epoch // generator.batch_size if it has one, else the same number."""
    counter = _CountBatches()
    with pytest.warns(UserWarning, match="samples_per_epoch"):
        history = _tiny_model().fit_generator(_Batches(batch_size), samples_per_epoch=12, nb_epoch=2, verbose=0,
                                              callbacks=[counter], max_q_size=2, nb_worker=1, pickle_safe=False)
    assert len(history.history["loss"]) == 2
    assert counter.batches == [steps, steps]


def test_evaluate_and_predict_generator_val_samples() -> None:
    """``val_samples`` became ``steps``, the same number (now of batches), as in Keras 2.x."""
    model = _tiny_model()
    with pytest.warns(UserWarning, match="`val_samples` -> `steps`"):
        predictions = model.predict_generator(_Batches(4), val_samples=3)
    assert predictions.shape == (12, 1)
    with pytest.warns(UserWarning, match="`val_samples` -> `steps`"):
        loss = model.evaluate_generator(_Batches(4), val_samples=2)
    assert np.isfinite(loss)


def test_generator_methods_refuse_keras1_positional_order() -> None:
    with pytest.raises(TypeError, match="positional"):
        _tiny_model().fit_generator(_Batches(4), 12, 2, 0)


def test_model_input_output_and_save_round_trip(tmp_path: Path) -> None:
    inputs = LAYERS.Input(shape=(6, 6, 1))
    conv = LAYERS.Convolution2D(2, 3, 3, border_mode="same", name="conv")(inputs)
    outputs = LAYERS.Dense(output_dim=1, name="out")(LAYERS.Flatten()(conv))
    with pytest.warns(UserWarning, match="`input` -> `inputs`"):
        model = MODELS.Model(input=inputs, output=outputs)
    assert isinstance(model, MODELS.Model) and isinstance(model, tf_keras.Model)
    assert type(model).__name__ == "Functional"
    model.compile(loss="mse", optimizer="sgd")
    path = tmp_path / "model.h5"
    model.save(str(path))
    loaded = MODELS.load_model(str(path))
    assert [_config(a) for a in loaded.layers] == [_config(b) for b in model.layers]
    assert isinstance(loaded.get_layer("conv"), LAYERS.Convolution2D)
    x = np.ones((2, 6, 6, 1), dtype="float32")
    np.testing.assert_allclose(loaded.predict(x), model.predict(x), rtol=1e-6)
    assert len(loaded.fit(x, np.zeros((2, 1)), nb_epoch=2, verbose=0).history["loss"]) == 2  # served class again


def test_script_subclass_of_model_with_keras1_constructor() -> None:
    inputs = LAYERS.Input(shape=(2,))
    outputs = LAYERS.Dense(1)(inputs)

    class Net(MODELS.Model):
        def __init__(self) -> None:
            super().__init__(input=inputs, output=outputs)

    net = Net()
    assert net.output_shape == (None, 1)
    assert MODELS.Model.__bases__[-1] is tf_keras.Model  # the shared served class is left as it was


def test_interface_tables_hold_keras22_semantics() -> None:
    assert legacy_interfaces.DIM_ORDERING == {"tf": "channels_last", "th": "channels_first", "default": None}
    recurrent = legacy_interfaces.LAYER_INTERFACES["LSTM"]
    assert recurrent.values["consume_less"] == {"cpu": 0, "mem": 1, "gpu": 2}
    assert ("nb_val_samples", "validation_steps") in legacy_interfaces.GENERATOR_INTERFACE.renames


def test_compat_check_reports_keras1_uses_as_bridged() -> None:
    import ast

    from compat.keras2 import uses as keras1_uses
    source = ("from keras.layers import Convolution2D\nfrom keras import backend as K\nK.set_image_dim_ordering('tf')\n"
              "c = Convolution2D(32, 3, 3, border_mode='same')\nmodel.fit_generator(g, samples_per_epoch=10)\n")
    found = {construct for _, construct, _ in keras1_uses.bridged_uses(ast.parse(source))}
    assert found == {"set_image_dim_ordering", "Convolution2D(border_mode=...)", "Convolution2D(filters, n, n)",
                     "fit_generator(samples_per_epoch=...)"}
    assert keras1_uses.bridged_uses(ast.parse("import tensorflow as tf\ntf.keras.layers.Dense(output_dim=3)\n")) == []
