"""Standalone Keras 2 code (``import keras``, 2017-2019) under the runner, served from tf_keras."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers.scripts import compat_run, write

SCRIPT = """
    import json
    import numpy as np
    from keras.models import Sequential
    from keras.layers import Dense
    from keras.layers.merge import concatenate
    from keras.engine.topology import Layer
    from keras.utils.np_utils import to_categorical
    from keras.optimizers import SGD
    from keras import backend as K
    from keras.backend import tensorflow_backend

    x = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [2.0, 1.0]], dtype=np.float32)
    y = np.array([[1.0], [2.0], [0.0], [-1.0]], dtype=np.float32)
    model = Sequential()
    model.add(Dense(1, input_dim=2, use_bias=False, kernel_initializer="zeros"))
    model.compile(loss="mse", optimizer=SGD(lr=0.1))
    model.fit(x, y, epochs=1, batch_size=4, shuffle=False, verbose=0)
    print(json.dumps({
        "kernel": model.get_weights()[0].ravel().tolist(),
        "lr": float(K.get_value(model.optimizer.lr)),
        "one_hot": to_categorical([0, 2], 3).tolist(),
        "layer": issubclass(Dense, Layer),
        "concat": callable(concatenate),
        "backend": K.backend(),
        "session": tensorflow_backend.get_session() is not None,
    }))
"""


@pytest.mark.timeout(300)
def test_keras2_script_trains_with_its_learning_rate(tmp_path: Path) -> None:
    result = compat_run(write(tmp_path / "train.py", SCRIPT), timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    x = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [2.0, 1.0]])
    y = np.array([1.0, 2.0, 0.0, -1.0])
    gradient = 2.0 / len(x) * x.T @ (x @ np.zeros(2) - y)  # d/dw mean((xw - y)^2) at w = 0
    np.testing.assert_allclose(out["kernel"], -0.1 * gradient, rtol=1e-5)
    assert out["lr"] == pytest.approx(0.1)
    assert out["one_hot"] == [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    assert out["layer"] and out["concat"] and out["backend"] == "tensorflow" and out["session"]


KERAS1_SCRIPT = """
    import json
    import numpy as np
    from keras import backend as K
    from keras.models import Sequential, load_model
    from keras.layers import Convolution2D, MaxPooling2D, Dropout, Flatten, Dense
    from keras.callbacks import Callback

    K.set_image_dim_ordering('tf')
    np.random.seed(0)
    x = np.random.rand(8, 6, 6, 1).astype('float32')
    y = np.eye(2)[np.arange(8) % 2].astype('float32')

    model = Sequential()
    model.add(Convolution2D(4, 3, 3, border_mode='same', input_shape=(6, 6, 1), init='he_normal', name='conv'))
    model.add(MaxPooling2D(pool_size=(2, 2), border_mode='valid', name='pool'))
    model.add(Dropout(p=0.25, name='drop'))
    model.add(Flatten())
    model.add(Dense(output_dim=2, activation='softmax', name='out'))
    model.compile(loss='categorical_crossentropy', optimizer='sgd')
    history = model.fit(x, y, nb_epoch=2, batch_size=4, verbose=0)

    class Batches(object):  # an iterator with batch_size, as ImageDataGenerator.flow returns
        batch_size = 4
        def __iter__(self):
            return self
        def __next__(self):
            return x[:4], y[:4]
        next = __next__

    class Count(Callback):
        def on_train_begin(self, logs=None):
            self.batches = 0
        def on_batch_end(self, batch, logs=None):
            self.batches += 1

    count = Count()
    model.fit_generator(Batches(), samples_per_epoch=8, nb_epoch=1, verbose=0, callbacks=[count])
    model.save('model.h5')
    loaded = load_model('model.h5')
    config = {layer.name: layer.get_config() for layer in model.layers}
    print(json.dumps({
        "output_shape": list(model.output_shape),
        "epochs": len(history.history['loss']),
        "generator_batches": count.batches,
        "conv": [config['conv'][k] for k in ('kernel_size', 'padding', 'data_format')],
        "pool": [config['pool'][k] for k in ('pool_size', 'padding')],
        "rate": config['drop']['rate'],
        "units": config['out']['units'],
        "ordering": [K.image_dim_ordering(), K.image_data_format()],
        "same_prediction": bool(np.allclose(loaded.predict(x), model.predict(x))),
    }))
"""


@pytest.mark.timeout(300)
def test_keras1_arguments_under_the_runner(tmp_path: Path) -> None:
    result = compat_run(write(tmp_path / "keras1.py", KERAS1_SCRIPT), timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["output_shape"] == [None, 2] and out["epochs"] == 2 and out["units"] == 2
    assert out["generator_batches"] == 2  # Keras 2.x: samples_per_epoch 8 // batch_size 4 steps
    assert out["conv"] == [[3, 3], "same", "channels_last"] and out["pool"] == [[2, 2], "valid"]
    assert out["rate"] == 0.25 and out["ordering"] == ["tf", "channels_last"] and out["same_prediction"]
    assert "Update your `Conv2D` call to the Keras 2 API: `Conv2D(4, (3, 3)" in result.stderr
