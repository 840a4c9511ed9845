"""Standalone Keras 2 code (``import keras``, 2017-2019) under the runner, served from tf_keras."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

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
    (tmp_path / "train.py").write_text(textwrap.dedent(SCRIPT))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    result = subprocess.run([sys.executable, "-m", "compat", "run", "train.py"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    x = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [2.0, 1.0]])
    y = np.array([1.0, 2.0, 0.0, -1.0])
    gradient = 2.0 / len(x) * x.T @ (x @ np.zeros(2) - y)  # d/dw mean((xw - y)^2) at w = 0
    np.testing.assert_allclose(out["kernel"], -0.1 * gradient, rtol=1e-5)
    assert out["lr"] == pytest.approx(0.1)
    assert out["one_hot"] == [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    assert out["layer"] and out["concat"] and out["backend"] == "tensorflow" and out["session"]
