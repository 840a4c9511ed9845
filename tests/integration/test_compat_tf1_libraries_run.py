"""TF1-era libraries installed from the package index, run under the compat runner.

A session-scoped fixture installs each library's last TF1 release (``pip install
--no-deps --target DIR/site-packages``, plus only the pure-Python packages it
imports; never an old TensorFlow) once; each test runs a small script in the
library's own style with ``PYTHONPATH`` naming that folder and checks the values
against NumPy: a fitted linear model against least squares, a layer's output
against its own weights. If the index cannot be reached the fixture fails with
pip's message (bounded by a timeout), it does not hang.

The folder is a ``pip install --target`` folder not named ``site-packages``, so the
runner must tell the installed packages from the script's own code by their
``*.dist-info`` records. TensorLayer's ``tl.files.save_npz`` saves a ragged list
(NumPy 1's object array) that ``load_npz`` reads back under ``--allow-pickle``.
tensorflow-hub 0.15.0's ``hub.Module`` (TF1 hub format, exported and loaded again)
needs ``tf.compat.v1.estimator``, which the runner serves. PrettyTensor 0.7.4 enters
its scopes through TF 1.7's ``variable_scope._VARSCOPE_KEY``. keras-contrib was
never released to PyPI (MISSING_PACKAGES says so) and is not run here. One
notebook runs every library in the ``tf1-compat`` kernel.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.helpers.scripts import RUN_TIMEOUT, quiet_env, write

#: name==version and the pure-Python packages each library imports at the top (the rest of the stack is the project's).
LIBRARIES: tuple[str, ...] = (
    "tflearn==0.5.0",
    "dm-sonnet==1.36", "semantic-version==2.10.0", "contextlib2==21.6.0",
    "tensorpack==0.9.9", "msgpack==1.1.2", "msgpack-numpy==0.4.8", "tabulate==0.9.0",
    "tensorlayer==1.11.1", "progressbar2==4.5.0", "python-utils==3.9.1", "lxml==6.0.2",
    "tensorflow-hub==0.15.0",  # the last release with hub.Module (0.16 removed it)
    "prettytensor==0.7.4", "six==1.17.0",  # not its enum34: that backport would hide Python 3's enum
)
PIP_TIMEOUT = 300

@pytest.fixture(scope="session")
def tf1_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ``site-packages`` folder holding :data:`LIBRARIES`, installed once per test session."""
    site = tmp_path_factory.mktemp("tf1_libraries") / "pip_target"
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile",
               "--disable-pip-version-check", "--timeout", "30", "--retries", "2", "--target", str(site), *LIBRARIES]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"pip install of {' '.join(LIBRARIES)} took over {PIP_TIMEOUT} s (is the package index reachable?)")
    if done.returncode != 0:
        pytest.fail(f"pip install of {' '.join(LIBRARIES)} failed (is the package index reachable?):\n{done.stderr}")
    return site


def run_with(site: Path, script: Path, *options: str) -> dict[str, Any]:
    """``python -m compat run script`` with ``site`` on ``PYTHONPATH`` (as :func:`tests.helpers.scripts.compat_run`
    runs it, with that variable); the JSON the script printed after ``RESULT``."""
    env = dict(quiet_env(), PYTHONPATH=str(site))
    done = subprocess.run([sys.executable, "-m", "compat", "run", *options, str(script)], cwd=script.parent, env=env,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    # TFLearn's progress display writes terminal escapes before the line: read from the marker on.
    line = done.stdout[done.stdout.rindex("RESULT ") + len("RESULT "):].splitlines()[0]
    result: dict[str, Any] = json.loads(line)
    assert not list(site.rglob("*.pyc")), "the runner wrote bytecode next to the installed files"
    return result


def least_squares(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Weights and bias (last row) of the least-squares fit of ``y`` on ``x`` (float64)."""
    design = np.hstack([x, np.ones((len(x), 1))]).astype(np.float64)
    return np.linalg.lstsq(design, y.astype(np.float64), rcond=None)[0]


@pytest.mark.timeout(PIP_TIMEOUT + RUN_TIMEOUT + 30)
def test_tflearn_linear_regression_matches_least_squares(tf1_site: Path, tmp_path: Path) -> None:
    script = write(tmp_path / "tflearn_linear.py", """
        import json
        import numpy as np
        import tflearn

        X = np.linspace(-1, 1, 64).reshape(-1, 1).astype(np.float32)
        Y = (3.0 * X - 0.5 + 0.1 * np.sin(7 * X)).astype(np.float32)
        net = tflearn.input_data(shape=[None, 1])
        dense = tflearn.fully_connected(net, 1, activation='linear')
        net = tflearn.regression(dense, optimizer='sgd', loss='mean_square', learning_rate=0.5)
        model = tflearn.DNN(net)
        # shuffle=False: TFLearn 0.5's feeding thread reads the index array while the next epoch's shuffle
        # rewrites it in place (a race of its own, under TF 1.x too), so one run in several drifts from the fit.
        model.fit(X, Y, n_epoch=200, batch_size=64, show_metric=False, snapshot_epoch=False, shuffle=False)
        print("RESULT", json.dumps({"W": model.get_weights(dense.W).ravel().tolist(),
                          "b": model.get_weights(dense.b).ravel().tolist(),
                          "pred": np.ravel(model.predict(X)).tolist()}))
        """)
    result = run_with(tf1_site, script)
    x = np.linspace(-1, 1, 64).reshape(-1, 1).astype(np.float32)
    y = (3.0 * x - 0.5 + 0.1 * np.sin(7 * x)).astype(np.float32)
    w, b = least_squares(x, y).ravel()
    assert result["W"][0] == pytest.approx(w, abs=2e-3) and result["b"][0] == pytest.approx(b, abs=2e-3)
    np.testing.assert_allclose(result["pred"], (x * result["W"][0] + result["b"][0]).ravel(), atol=1e-5)


@pytest.mark.timeout(PIP_TIMEOUT + RUN_TIMEOUT + 30)
def test_sonnet1_modules_compute_from_their_own_weights(tf1_site: Path, tmp_path: Path) -> None:
    script = write(tmp_path / "sonnet_modules.py", """
        import json
        import numpy as np
        import sonnet as snt
        import tensorflow as tf

        class Head(snt.AbstractModule):
            def __init__(self, name="head"):
                super(Head, self).__init__(name=name)

            def _build(self, inputs):
                return tf.nn.sigmoid(snt.Linear(2, name="out")(inputs))

        x = tf.placeholder(tf.float32, [None, 3])
        mlp = snt.nets.MLP([4, 5], activation=tf.nn.relu)
        head = Head()
        y = head(mlp(x))
        data = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0 - 0.4
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out = sess.run(y, {x: data})
            weights = sess.run(mlp.get_variables() + head.get_variables())
        print("RESULT", json.dumps({"out": out.tolist(), "data": data.tolist(),
                          "weights": [w.tolist() for w in weights],
                          "names": [v.op.name for v in mlp.get_variables() + head.get_variables()]}))
        """)
    result = run_with(tf1_site, script)
    assert result["names"] == ["mlp/linear_0/w", "mlp/linear_0/b", "mlp/linear_1/w", "mlp/linear_1/b",
                               "head/out/w", "head/out/b"]
    w0, b0, w1, b1, w2, b2 = (np.asarray(w, np.float64) for w in result["weights"])
    data = np.asarray(result["data"], np.float64)
    hidden = np.maximum(data @ w0 + b0, 0) @ w1 + b1  # MLP: no activation after the last layer by default
    expected = 1 / (1 + np.exp(-(hidden @ w2 + b2)))
    np.testing.assert_allclose(result["out"], expected, rtol=1e-5, atol=1e-6)


@pytest.mark.timeout(PIP_TIMEOUT + RUN_TIMEOUT + 30)
def test_tensorpack_simple_trainer_fits_least_squares(tf1_site: Path, tmp_path: Path) -> None:
    script = write(tmp_path / "tensorpack_linear.py", """
        import json
        import numpy as np
        import tensorflow as tf
        from tensorpack import *
        from tensorpack.dataflow import DataFromList

        rng = np.random.RandomState(0)
        X = rng.randn(64, 2).astype(np.float32)
        Y = (X @ np.array([[2.0], [-1.0]], np.float32) + 0.5 + 0.05 * rng.randn(64, 1)).astype(np.float32)
        found = {}

        class Model(ModelDesc):
            def inputs(self):
                return [tf.placeholder(tf.float32, (None, 2), 'x'), tf.placeholder(tf.float32, (None, 1), 'y')]

            def build_graph(self, x, y):
                pred = FullyConnected('fc', x, 1, activation=tf.identity)
                return tf.reduce_mean(tf.square(pred - y), name='cost')

            def optimizer(self):
                return tf.train.GradientDescentOptimizer(0.3)

        class Grab(Callback):
            def _trigger_epoch(self):
                found['W'], found['b'] = self.trainer.sess.run(['fc/W:0', 'fc/b:0'])

        dataflow = BatchData(DataFromList([[x, y] for x, y in zip(X, Y)], shuffle=False), 64)
        config = TrainConfig(model=Model(), dataflow=dataflow, callbacks=[Grab()], max_epoch=150, steps_per_epoch=1)
        launch_train_with_config(config, SimpleTrainer())
        print("RESULT", json.dumps({"W": found['W'].ravel().tolist(), "b": found['b'].ravel().tolist(),
                          "X": X.tolist(), "Y": Y.tolist()}))
        """)
    result = run_with(tf1_site, script)
    fit = least_squares(np.asarray(result["X"]), np.asarray(result["Y"])).ravel()
    np.testing.assert_allclose([*result["W"], *result["b"]], fit, atol=2e-3)


@pytest.mark.timeout(PIP_TIMEOUT + RUN_TIMEOUT + 30)
def test_tensorlayer1_dense_network_computes_from_its_weights_and_round_trips_through_npz(
        tf1_site: Path, tmp_path: Path) -> None:
    # tl.files.save_npz saves the ragged list of weights (NumPy 1's object array); load_npz reads it back
    # under --allow-pickle, as on NumPy 1.16.3 and later.
    script = write(tmp_path / "tensorlayer_dense.py", """
        import json
        import numpy as np
        import tensorflow as tf
        import tensorlayer as tl

        x = tf.placeholder(tf.float32, [None, 4], name="x")
        net = tl.layers.InputLayer(x, name="input")
        net = tl.layers.DenseLayer(net, n_units=3, act=tf.nn.tanh, name="dense1")
        net = tl.layers.DropoutLayer(net, keep=0.5, is_fix=True, is_train=False, name="drop")
        net = tl.layers.DenseLayer(net, n_units=2, act=tf.identity, name="out")
        data = (np.arange(8, dtype=np.float32).reshape(2, 4) - 3.0) / 4.0
        with tf.Session() as sess:
            tl.layers.initialize_global_variables(sess)
            out = sess.run(net.outputs, {x: data})
            params = sess.run(net.all_params)
            tl.files.save_npz(net.all_params, name="model.npz", sess=sess)
            tl.layers.initialize_global_variables(sess)  # new random weights
            fresh = sess.run(net.all_params)
            tl.files.assign_params(sess, tl.files.load_npz(name="model.npz"), net)
            restored = sess.run(net.all_params)
        print("RESULT", json.dumps({"out": out.tolist(), "data": data.tolist(), "params": [p.tolist() for p in params],
                                    "names": [p.name for p in net.all_params], "fresh": [p.tolist() for p in fresh],
                                    "restored": [p.tolist() for p in restored]}))
        """)
    result = run_with(tf1_site, script, "--allow-pickle")
    assert result["names"] == ["dense1/W:0", "dense1/b:0", "out/W:0", "out/b:0"]
    w0, b0, w1, b1 = (np.asarray(p, np.float64) for p in result["params"])
    expected = np.tanh(np.asarray(result["data"], np.float64) @ w0 + b0) @ w1 + b1  # dropout off at inference
    np.testing.assert_allclose(result["out"], expected, rtol=1e-5, atol=1e-6)
    assert not np.allclose(result["fresh"][0], result["params"][0])  # the reload had something to undo
    for got, want in zip(result["restored"], result["params"]):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    with np.load(tmp_path / "model.npz", allow_pickle=True) as stored:
        assert stored["params"].dtype == object and [p.shape for p in stored["params"]] == [(4, 3), (3,), (3, 2), (2,)]


#: One cell per library: a layer of 3 tanh units on ``data``, its output against NumPy from the layer's own
#: weights (``diffs[library]``, the largest absolute difference).
NOTEBOOK_CELLS = (
    """import json
import numpy as np
import tensorflow as tf
data = np.array([[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, 1.0]], np.float32)
diffs = {}""",
    """import tflearn
with tf.Graph().as_default():
    dense = tflearn.fully_connected(tflearn.input_data(shape=[None, 4]), 3, activation='tanh')
    model = tflearn.DNN(dense)
    out, w, b = model.predict(data), model.get_weights(dense.W), model.get_weights(dense.b)
diffs['tflearn'] = float(np.abs(out - np.tanh(data @ w + b)).max())""",
    """import tensorlayer as tl
with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 4])
    net = tl.layers.DenseLayer(tl.layers.InputLayer(x, name='in'), n_units=3, act=tf.nn.tanh, name='d')
    with tf.Session() as sess:
        tl.layers.initialize_global_variables(sess)
        out, (w, b) = sess.run(net.outputs, {x: data}), sess.run(net.all_params)
diffs['tensorlayer'] = float(np.abs(out - np.tanh(data @ w + b)).max())""",
    """import sonnet as snt
with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 4])
    lin = snt.Linear(3)
    y = tf.nn.tanh(lin(x))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out, w, b = sess.run([y, lin.w, lin.b], {x: data})
diffs['sonnet'] = float(np.abs(out - np.tanh(data @ w + b)).max())""",
    """import prettytensor as pt
with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 4])
    y = pt.wrap(x).fully_connected(3, activation_fn=tf.nn.tanh, name='fc')
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out, w, b = sess.run([y, 'fc/weights:0', 'fc/bias:0'], {x: data})
diffs['prettytensor'] = float(np.abs(out - np.tanh(data @ w + b)).max())""",
    """from tensorpack.models import FullyConnected
with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None, 4])
    y = FullyConnected('fc', x, 3, activation=tf.nn.tanh)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out, w, b = sess.run([y, 'fc/W:0', 'fc/b:0'], {x: data})
diffs['tensorpack'] = float(np.abs(out - np.tanh(data @ w + b)).max())""",
    """import tensorflow_hub as hub
kernel = np.array([[1.0, 0.5, -1.0], [2.0, 0.0, 0.25], [3.0, -2.0, 1.0], [4.0, 1.0, 0.0]], np.float32)
def module_fn():
    x = tf.placeholder(tf.float32, [None, 4])
    w = tf.get_variable('w', initializer=tf.constant(kernel))
    hub.add_signature(inputs=x, outputs=tf.nn.tanh(tf.matmul(x, w)))
with tf.Graph().as_default():
    y = hub.Module(hub.create_module_spec(module_fn))(tf.constant(data))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = sess.run(y)
diffs['hub'] = float(np.abs(out - np.tanh(data @ kernel)).max())""",
    "print('DIFFS ' + json.dumps(diffs, sort_keys=True))",
)


@pytest.mark.timeout(PIP_TIMEOUT + 2 * RUN_TIMEOUT + 30)
def test_every_library_in_one_notebook_under_the_kernel(tf1_site: Path, tmp_path: Path) -> None:
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook
    notebook = tmp_path / "tf1_libraries.ipynb"
    nbformat.write(new_notebook(cells=[new_code_cell(c) for c in NOTEBOOK_CELLS]), notebook)
    env = dict(quiet_env(), PYTHONPATH=str(tf1_site))
    env.pop("MPLBACKEND", None)
    done = subprocess.run([sys.executable, "-m", "compat", "run", str(notebook)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=2 * RUN_TIMEOUT, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    line = done.stdout[done.stdout.rindex("DIFFS ") + len("DIFFS "):].splitlines()[0]
    diffs = json.loads(line)
    assert sorted(diffs) == ["hub", "prettytensor", "sonnet", "tensorlayer", "tensorpack", "tflearn"]
    assert all(0 <= d < 1e-5 for d in diffs.values()), diffs


@pytest.mark.timeout(PIP_TIMEOUT + RUN_TIMEOUT + 30)
def test_prettytensor_tutorial_network_trains_and_computes_from_its_weights(tf1_site: Path, tmp_path: Path) -> None:
    # The shape of the Hvass-Labs tutorials' PrettyTensor network (conv, pool, flatten, fc, softmax_classifier).
    script = write(tmp_path / "prettytensor_net.py", """
        import json
        import numpy as np
        import tensorflow as tf
        import prettytensor as pt

        x = tf.placeholder(tf.float32, shape=[None, 8, 8, 1], name='x')
        y_true = tf.placeholder(tf.float32, shape=[None, 3], name='y_true')
        x_pretty = pt.wrap(x)
        with pt.defaults_scope(activation_fn=tf.nn.relu):
            y_pred, loss = x_pretty.\\
                conv2d(kernel=3, depth=4, name='layer_conv1').\\
                max_pool(kernel=2, stride=2).\\
                flatten().\\
                fully_connected(size=5, name='layer_fc1').\\
                softmax_classifier(num_classes=3, labels=y_true)
        optimizer = tf.train.AdamOptimizer(learning_rate=1e-2).minimize(loss)
        rng = np.random.RandomState(0)
        data = rng.rand(6, 8, 8, 1).astype(np.float32)
        labels = np.eye(3, dtype=np.float32)[[0, 1, 2, 0, 1, 2]]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            first = float(sess.run(loss, {x: data, y_true: labels}))
            for _ in range(20):
                sess.run(optimizer, {x: data, y_true: labels})
            last, pred = sess.run([loss, y_pred], {x: data, y_true: labels})
            weights = {v.op.name: sess.run(v).tolist() for v in tf.trainable_variables()}
        print("RESULT " + json.dumps({"first": first, "last": float(last), "pred": pred.tolist(),
                                      "data": data.tolist(), "labels": labels.tolist(), "weights": weights}))
        """)
    result = run_with(tf1_site, script)
    w = {name: np.asarray(value, np.float64) for name, value in result["weights"].items()}
    assert sorted(w) == ["fully_connected/bias", "fully_connected/weights", "layer_conv1/bias",
                         "layer_conv1/weights", "layer_fc1/bias", "layer_fc1/weights"]
    data = np.asarray(result["data"], np.float64)
    padded = np.pad(data, ((0, 0), (1, 1), (1, 1), (0, 0)))  # 'SAME' 3x3, stride 1
    conv = np.stack([np.stack([np.einsum("nabc,abco->no", padded[:, i:i + 3, j:j + 3, :], w["layer_conv1/weights"])
                               for j in range(8)], axis=1) for i in range(8)], axis=1) + w["layer_conv1/bias"]
    pooled = np.maximum(conv, 0).reshape(6, 4, 2, 4, 2, 4).max(axis=(2, 4)).reshape(6, -1)
    hidden = np.maximum(pooled @ w["layer_fc1/weights"] + w["layer_fc1/bias"], 0)
    logits = hidden @ w["fully_connected/weights"] + w["fully_connected/bias"]
    softmax = np.exp(logits - logits.max(axis=1, keepdims=True))
    softmax /= softmax.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(result["pred"], softmax, rtol=1e-5, atol=1e-6)
    cross_entropy = -(np.asarray(result["labels"]) * np.log(softmax)).sum(axis=1).mean()
    assert result["last"] == pytest.approx(cross_entropy, rel=1e-4)
    assert result["last"] < result["first"]  # the optimizer reached the variables PrettyTensor made


@pytest.mark.timeout(RUN_TIMEOUT + 30)
def test_legacy_package_flag_serves_an_unrecognised_package(tmp_path: Path) -> None:
    # Without the option this package fails on np.float (NumPy 2), and the runner's last line names the
    # option: tests/unit/test_compat_tf1_libraries.py checks that hint.
    site = tmp_path / "site-packages"
    write(site / "plainold" / "__init__.py", "import numpy as np\nVALUE = np.float(7) / 2\n")
    script = write(tmp_path / "uses_plainold.py", "import plainold\nprint('VALUE', plainold.VALUE)\n")
    served = subprocess.run([sys.executable, "-m", "compat", "run", "--legacy-package", "plainold", str(script)],
                            cwd=tmp_path, env=dict(quiet_env(), PYTHONPATH=str(site)), capture_output=True, text=True,
                            timeout=RUN_TIMEOUT, check=False)
    assert served.returncode == 0 and "VALUE 3.5" in served.stdout, served.stderr[-3000:]
    assert not list(site.rglob("*.pyc"))


@pytest.mark.timeout(PIP_TIMEOUT + RUN_TIMEOUT + 30)
def test_hub_module_exported_and_loaded_computes_its_signature(tf1_site: Path, tmp_path: Path) -> None:
    script = write(tmp_path / "hub_module.py", """
        import json
        import numpy as np
        import tensorflow as tf
        import tensorflow_hub as hub

        def module_fn():
            x = tf.placeholder(tf.float32, [None, 3])
            w = tf.get_variable("w", initializer=tf.constant([[1.0], [2.0], [3.0]]))
            hub.add_signature(inputs=x, outputs=tf.matmul(x, w) + 0.5)

        with tf.Graph().as_default():
            module = hub.Module(hub.create_module_spec(module_fn))
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                module.export("exported", sess)
        data = np.array([[1.0, 1.0, 1.0], [0.0, 1.0, -1.0], [2.0, -0.5, 0.25]], np.float32)
        with tf.Graph().as_default():
            module = hub.Module("exported")
            x = tf.placeholder(tf.float32, [None, 3])
            y = module(x)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                out = sess.run(y, {x: data})
        print("RESULT", json.dumps({"out": out.tolist(), "data": data.tolist()}))
        """)
    result = run_with(tf1_site, script)
    data = np.asarray(result["data"], np.float64)
    np.testing.assert_allclose(result["out"], data @ np.array([[1.0], [2.0], [3.0]]) + 0.5, rtol=1e-6)
