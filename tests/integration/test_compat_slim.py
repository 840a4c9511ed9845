"""Keras 2 for ``tf.layers`` and ``tf.keras``; ``tf.contrib.slim``, ``layers``, ``framework``, ``training``.

Scripts run under ``python -m compat run`` in a subprocess (the Keras switch
must precede TensorFlow's import, so it needs a fresh process); values are
checked against NumPy and against the data the test wrote. The bridge's
installation, the ``check`` classification and the Keras switch's rules are
checked in process.
"""
from __future__ import annotations

import importlib
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers.scripts import write

from compat.checker import check
from compat.contrib import slim as slim_bridge
from compat.keras2 import legacy_keras
from compat.runner import run as runner
from compat.tf1 import namespace as tf1

TIMEOUT = 240


def compat_run(script: Path, env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    env.pop(legacy_keras.ENV_VAR, None)  # the runner's own choice unless a test sets it
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "compat", "run", script.name], cwd=script.parent,
                          env=env, capture_output=True, text=True, timeout=TIMEOUT)


def last_json(result: subprocess.CompletedProcess) -> Any:
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


X = np.random.RandomState(0).rand(2, 5, 5, 3).astype(np.float32)
BN_BATCH = np.array([[1.0, 2.0, -1.0], [3.0, 0.0, 1.0], [5.0, 2.0, 2.0], [7.0, 4.0, 6.0]], np.float32)


def conv_valid_constant(x: np.ndarray, size: int, filters: int, weight: float, bias: float) -> np.ndarray:
    """A VALID convolution whose kernel is ``weight`` everywhere, in NumPy."""
    n, h, w, _ = x.shape
    out = np.empty((n, h - size + 1, w - size + 1, filters), np.float64)
    for i in range(h - size + 1):
        for j in range(w - size + 1):
            window = x[:, i:i + size, j:j + size, :].astype(np.float64).sum(axis=(1, 2, 3))
            out[:, i, j, :] = (weight * window + bias)[:, None]
    return out


def test_importing_the_new_modules_changes_nothing(tmp_path: Path) -> None:
    code = textwrap.dedent("""
        import os, sys
        before = list(sys.meta_path)
        import compat.contrib.slim, compat.contrib.hparams, compat.keras2.legacy_keras
        assert sys.meta_path == before, sys.meta_path
        for name in ("tensorflow", "tf_slim", "tf_keras", "tensorflow.contrib", "tensorflow.contrib.slim"):
            assert name not in sys.modules, name
        assert "TF_USE_LEGACY_KERAS" not in os.environ
        print("clean")
    """)
    env = {k: v for k, v in os.environ.items() if k != legacy_keras.ENV_VAR}
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "clean"


# --------------------------------------------------------------------------
# Keras 2: tf.layers and tf.keras (one subprocess)
# --------------------------------------------------------------------------

TF_LAYERS_SCRIPT = """
    import json
    import numpy as np
    import tensorflow as tf

    x = tf.constant(np.random.RandomState(0).rand(2, 5, 5, 3).astype(np.float32))
    y = tf.layers.conv2d(x, 2, 3, kernel_initializer=tf.constant_initializer(0.5),
                         bias_initializer=tf.constant_initializer(0.25))
    d = tf.layers.dense(tf.layers.flatten(y), 4, kernel_initializer=tf.constant_initializer(0.1))
    t = tf.layers.conv2d_transpose(x, 1, 2, strides=2, kernel_initializer=tf.constant_initializer(1.0))
    mp = tf.layers.max_pooling2d(x, 2, 2)
    dr = tf.layers.dropout(x, 0.5, training=False)
    bn_in = tf.placeholder(tf.float32, [4, 3])
    bn = tf.layers.batch_normalization(bn_in, training=True, momentum=0.9)
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    moving_mean = [v for v in tf.global_variables() if v.name == "batch_normalization/moving_mean:0"][0]
    k = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")(tf.constant([[1., 2.]]))
    batch = np.array([[1, 2, -1], [3, 0, 1], [5, 2, 2], [7, 4, 6]], np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        yv, dv, tv, mpv, drv, kv = sess.run([y, d, t, mp, dr, k])
        bnv, _ = sess.run([bn, updates], {bn_in: batch})
        mm = sess.run(moving_mean)
    print(json.dumps({"conv": yv.tolist(), "dense": dv.tolist(), "transpose": tv.tolist(),
                      "maxpool": mpv.tolist(), "dropout": drv.tolist(), "keras": kv.tolist(),
                      "bn": bnv.tolist(), "moving_mean": mm.tolist(), "n_updates": len(updates),
                      "keras_module": tf.keras.layers.Dense.__module__}))
"""


@pytest.mark.timeout(TIMEOUT + 30)
def test_tf_layers_and_tf_keras_work_as_in_tf1(tmp_path: Path) -> None:
    # Before: `conv2d is not available with Keras 3.` under the runner.
    out = last_json(compat_run(write(tmp_path / "layers_script.py", TF_LAYERS_SCRIPT)))
    conv = conv_valid_constant(X, 3, 2, 0.5, 0.25)
    np.testing.assert_allclose(out["conv"], conv, rtol=1e-5)
    np.testing.assert_allclose(out["dense"], np.repeat(0.1 * conv.reshape(2, -1).sum(1, keepdims=True), 4, 1),
                               rtol=1e-5)
    # A 2x2 kernel of ones with stride 2 copies each pixel's channel sum into a 2x2 block.
    transpose = np.repeat(np.repeat(X.sum(axis=3, keepdims=True), 2, axis=1), 2, axis=2)
    np.testing.assert_allclose(out["transpose"], transpose, rtol=1e-5)
    np.testing.assert_allclose(out["maxpool"], X[:, :4, :4, :].reshape(2, 2, 2, 2, 2, 3).max(axis=(2, 4)))
    np.testing.assert_array_equal(out["dropout"], X)
    np.testing.assert_allclose(out["keras"], [[3.0, 3.0]])
    mean, var = BN_BATCH.mean(0), BN_BATCH.var(0)
    np.testing.assert_allclose(out["bn"], (BN_BATCH - mean) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-5)
    assert out["n_updates"] == 2
    np.testing.assert_allclose(out["moving_mean"], 0.1 * mean, rtol=1e-5)  # momentum 0.9, from 0
    assert out["keras_module"].startswith("tf_keras."), "tf.keras is Keras 2 under the runner"


@pytest.mark.timeout(TIMEOUT + 30)
def test_an_explicit_keras_choice_is_respected(tmp_path: Path) -> None:
    script = write(tmp_path / "keras3.py", """
        import tensorflow as tf
        print(tf.keras.layers.Dense.__module__)
        tf.layers.conv2d(tf.zeros([1, 4, 4, 1]), 1, 3)
    """)
    result = compat_run(script, env_extra={legacy_keras.ENV_VAR: "0"})
    assert result.returncode == 1
    assert result.stdout.strip().startswith("keras.")
    assert "not available with Keras 3" in result.stderr


def test_select_legacy_keras_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "tensorflow", raising=False)
    env: dict[str, str] = {}
    assert legacy_keras.select_legacy_keras(env) == "1" and env == {"TF_USE_LEGACY_KERAS": "1"}
    env = {"TF_USE_LEGACY_KERAS": "0"}
    assert legacy_keras.select_legacy_keras(env) == "0" and env == {"TF_USE_LEGACY_KERAS": "0"}
    monkeypatch.setitem(sys.modules, "tensorflow", object())
    env = {}
    assert legacy_keras.select_legacy_keras(env) is None and env == {}, "too late once TF is imported"


# --------------------------------------------------------------------------
# tf.contrib.slim, layers, framework, training (one subprocess)
# --------------------------------------------------------------------------

SLIM_SCRIPT = """
    import json
    import numpy as np
    import tensorflow as tf
    import tensorflow.contrib.slim as slim
    from tensorflow.contrib import slim as slim_from
    from tensorflow.contrib import layers, framework, training
    from tensorflow.contrib.slim.nets import resnet_v1, vgg, inception
    from tensorflow.contrib.slim.python.slim.data import dataset_data_provider, tfexample_decoder
    from tensorflow.contrib.slim.python.slim.nets import vgg as deep_vgg
    from tensorflow.contrib.layers.python.layers import layers as layers_lib
    from tensorflow.contrib.framework.python.ops import arg_scope as arg_scope_lib
    from tensorflow.contrib.training.python.training import hparam
    from tensorflow.contrib.layers import xavier_initializer, variance_scaling_initializer, l2_regularizer
    from tensorflow.contrib.framework import get_or_create_global_step, get_variables_to_restore

    same = [slim is slim_from, slim is tf.contrib.slim, layers is tf.contrib.layers,
            slim.nets.resnet_v1 is resnet_v1, deep_vgg is vgg,
            dataset_data_provider is slim.dataset_data_provider,
            tfexample_decoder is slim.tfexample_decoder, layers.conv2d is slim.conv2d is layers_lib.conv2d,
            layers.batch_norm is slim.batch_norm, layers.optimize_loss is slim.optimize_loss,
            framework.arg_scope is slim.arg_scope is arg_scope_lib.arg_scope,
            framework.add_arg_scope is slim.add_arg_scope, hparam.HParams is training.HParams,
            callable(xavier_initializer()), callable(variance_scaling_initializer()),
            callable(layers.instance_norm), callable(framework.assign_from_checkpoint_fn)]
    refused = {}
    for owner, name in [(layers, "scattered_embedding_column"), (framework, "fuse_op"),
                        (tf.contrib.rnn, "GridLSTMCell"),
                        (layers, "no_such_layer")]:
        try:
            getattr(owner, name)
        except AttributeError as exc:
            refused[name] = str(exc)
    hp = tf.contrib.training.HParams(lr=0.1, sizes=[2, 3]).parse("lr=0.5,sizes=[4,5,6]")

    x = tf.constant(np.random.RandomState(0).rand(2, 5, 5, 3).astype(np.float32))
    with slim.arg_scope([slim.conv2d], padding="VALID", activation_fn=None,
                        weights_initializer=tf.constant_initializer(0.5),
                        biases_initializer=tf.constant_initializer(0.25)):
        y = slim.conv2d(x, 2, [3, 3], scope="conv")
        same_padded = slim.conv2d(x, 2, [3, 3], padding="SAME", scope="conv_same")
    bn_in = tf.placeholder(tf.float32, [4, 3])
    bn = slim.batch_norm(bn_in, decay=0.9, is_training=True, scope="bn")
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    moving_mean = slim.get_variables("bn/moving_mean")[0]
    fc = slim.fully_connected(slim.flatten(y), 3, activation_fn=None,
                              weights_initializer=tf.constant_initializer(0.01),
                              weights_regularizer=l2_regularizer(0.5), scope="fc")
    logits = tf.constant([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
    onehot = tf.constant([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    ce = slim.losses.softmax_cross_entropy(logits, onehot)
    total = slim.losses.get_total_loss()
    size, nbytes = slim.model_analyzer.analyze_vars(slim.get_model_variables(), print_info=False)
    step = get_or_create_global_step()
    batch = np.array([[1, 2, -1], [3, 0, 1], [5, 2, 2], [7, 4, 6]], np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        yv, sv, fcv, cev, tv = sess.run([y, same_padded, fc, ce, total])
        with tf.control_dependencies(updates):
            bn_out = tf.identity(bn)
        bnv = sess.run(bn_out, {bn_in: batch})
        mm = sess.run(moving_mean)
    print(json.dumps({"same": same, "refused": refused, "hp": hp.values(), "conv": yv.tolist(),
                      "same_shape": list(sv.shape), "fc": fcv.tolist(), "ce": float(cev),
                      "total": float(tv), "bn": bnv.tolist(), "moving_mean": mm.tolist(),
                      "n_updates": len(updates), "size": int(size), "bytes": int(nbytes),
                      "restore": sorted(v.op.name for v in get_variables_to_restore())}))
"""


@pytest.mark.timeout(TIMEOUT + 30)
def test_contrib_slim_layers_framework_training(tmp_path: Path) -> None:
    # Before: `import tensorflow.contrib.slim as slim` and tf.contrib.training.HParams were refused.
    out = last_json(compat_run(write(tmp_path / "slim_script.py", SLIM_SCRIPT)))
    assert out["same"] == [True] * len(out["same"])
    assert "tf.compat.v1.feature_column" in out["refused"]["scattered_embedding_column"]
    assert "grappler" in out["refused"]["fuse_op"]
    assert "grid LSTMs are not provided" in out["refused"]["GridLSTMCell"]
    assert "tf_slim package, which serves tf.contrib.layers, has no no_such_layer" in (
        out["refused"]["no_such_layer"])
    assert out["hp"] == {"lr": 0.5, "sizes": [4, 5, 6]}
    # arg_scope's defaults applied (VALID, no activation, constant initializers), and overridable.
    conv = conv_valid_constant(X, 3, 2, 0.5, 0.25)
    np.testing.assert_allclose(out["conv"], conv, rtol=1e-5)
    assert out["same_shape"] == [2, 5, 5, 2]
    np.testing.assert_allclose(out["fc"], np.repeat(0.01 * conv.reshape(2, -1).sum(1, keepdims=True), 3, 1),
                               rtol=1e-5)
    # slim.batch_norm: moving mean after one update with decay 0.9 from zeros; output normalised
    # with the batch's biased variance and epsilon 0.001.
    mean, var = BN_BATCH.mean(0), BN_BATCH.var(0)
    assert out["n_updates"] == 2
    np.testing.assert_allclose(out["moving_mean"], 0.1 * mean, rtol=1e-5)
    np.testing.assert_allclose(out["bn"], (BN_BATCH - mean) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-5)
    # Losses: mean softmax cross entropy; the total adds the L2 penalty 0.5 * sum(w**2) / 2.
    logits = np.array([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
    log_softmax = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    ce = -np.mean([log_softmax[0, 0], log_softmax[1, 2]])
    assert out["ce"] == pytest.approx(ce, rel=1e-5)
    assert out["total"] == pytest.approx(ce + 0.5 * (18 * 3 * 0.01 ** 2) / 2, rel=1e-5)
    # Model variables: two convolutions of 3*3*3*2 + 2, batch_norm's beta, moving mean and
    # moving variance 3*3, fully_connected 18*3 + 3; float32.
    assert out["size"] == 2 * 56 + 9 + 57 and out["bytes"] == 4 * (2 * 56 + 9 + 57)
    assert out["restore"] == sorted(["conv/weights", "conv/biases", "conv_same/weights", "conv_same/biases",
                                     "bn/beta", "bn/moving_mean", "bn/moving_variance", "fc/weights",
                                     "fc/biases", "global_step"])


# --------------------------------------------------------------------------
# slim's dataset / decoder / data provider on a TFRecord file of real images
# --------------------------------------------------------------------------

def photograph_crops() -> list[np.ndarray]:
    """Three 12x16 RGB crops of scikit-image's astronaut photograph."""
    from skimage import data as skimage_data
    photo = skimage_data.astronaut()
    return [np.ascontiguousarray(photo[y:y + 12, x:x + 16]) for y, x in [(100, 200), (180, 220), (300, 40)]]


def write_image_records(path: Path, images: list[np.ndarray], labels: list[int]) -> None:
    import tensorflow as tf
    from PIL import Image
    with tf.io.TFRecordWriter(str(path)) as writer:
        for image, label in zip(images, labels):
            buffer = io.BytesIO()
            Image.fromarray(image).save(buffer, format="PNG")
            feature = {
                "image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(value=[buffer.getvalue()])),
                "image/format": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"png"])),
                "image/class/label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
            }
            example = tf.train.Example(features=tf.train.Features(feature=feature))
            writer.write(example.SerializeToString())


PROVIDER_SCRIPT = """
    import numpy as np
    import tensorflow as tf
    slim = tf.contrib.slim

    keys_to_features = {
        "image/encoded": tf.FixedLenFeature((), tf.string, default_value=""),
        "image/format": tf.FixedLenFeature((), tf.string, default_value="jpeg"),
        "image/class/label": tf.FixedLenFeature([], tf.int64, default_value=-1),
    }
    items_to_handlers = {
        "image": slim.tfexample_decoder.Image(),
        "label": slim.tfexample_decoder.Tensor("image/class/label"),
    }
    decoder = slim.tfexample_decoder.TFExampleDecoder(keys_to_features, items_to_handlers)
    dataset = slim.dataset.Dataset(data_sources="photos.tfrecord", reader=tf.TFRecordReader,
                                   decoder=decoder, num_samples=3, items_to_descriptions={})
    provider = slim.dataset_data_provider.DatasetDataProvider(dataset, num_readers=1, shuffle=False,
                                                              num_epochs=1)
    image, label = provider.get(["image", "label"])
    images, labels = [], []
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        try:
            while True:
                i, l = sess.run([image, label])
                images.append(i)
                labels.append(l)
        except tf.errors.OutOfRangeError:
            pass
        coord.request_stop()
        coord.join(threads)
    np.savez("decoded.npz", images=np.stack(images), labels=np.array(labels))
"""


@pytest.mark.timeout(TIMEOUT + 30)
def test_dataset_decoder_and_data_provider_read_what_was_written(tmp_path: Path) -> None:
    images, labels = photograph_crops(), [3, 7, 11]
    write_image_records(tmp_path / "photos.tfrecord", images, labels)
    result = compat_run(write(tmp_path / "provider.py", PROVIDER_SCRIPT))
    assert result.returncode == 0, result.stderr[-3000:]
    with np.load(tmp_path / "decoded.npz") as decoded:
        assert decoded["labels"].tolist() == labels
        np.testing.assert_array_equal(decoded["images"], np.stack(images))
        assert decoded["images"].dtype == np.uint8


# --------------------------------------------------------------------------
# In process: installation, classification
# --------------------------------------------------------------------------

def test_bridge_supplies_tf_slim_gaps_only_while_installed(tmp_path: Path) -> None:
    import tensorflow as tf
    import tf_keras
    from tensorflow.python.ops import cond, control_flow_ops
    assert not hasattr(control_flow_ops, "cond"), "TensorFlow moved it; the bridge supplies it"
    meta_path = list(sys.meta_path)
    with runner.install(tmp_path):
        import tensorflow.contrib.slim as slim  # the statement old scripts use
        import tf_keras.legacy_tf_layers.normalization as normalization
        from tensorflow.contrib.slim.python.slim.data import tfexample_decoder
        assert tfexample_decoder is importlib.import_module("tf_slim.data.tfexample_decoder")
        assert slim.tfexample_decoder is tfexample_decoder
        assert control_flow_ops.cond is cond.cond
        assert normalization is importlib.import_module("tf_keras.src.legacy_tf_layers.normalization")
        with pytest.raises(ImportError, match="tf_slim package, which serves tf.contrib.slim, has no nothi"):
            from tensorflow.contrib.slim import nothing  # noqa: F401
        with pytest.raises(ImportError, match=r"tf.contrib.graph_editor is not provided"):
            import tensorflow.contrib.graph_editor  # noqa: F401
    assert sys.meta_path == meta_path
    assert not hasattr(control_flow_ops, "cond")
    assert "tensorflow.contrib.slim" not in sys.modules
    assert "tf_keras.legacy_tf_layers" not in sys.modules and "legacy_tf_layers" not in vars(tf_keras)
    assert tf.__dict__.get("contrib") is None


def test_contrib_facades_without_the_runner() -> None:
    contrib = tf1.contrib_modules()["tensorflow.contrib"]
    assert contrib.training is slim_bridge.contrib_facade("training")
    assert contrib.training.HParams(a=2).a == 2
    # The queue pipelines come from tf1_pipelines.inputs; the parameter-server placement helpers are refused.
    assert contrib.training.bucket_by_sequence_length.__module__ == "tf1_pipelines.inputs.bucketing"
    with pytest.raises(tf1.LegacyAPIError, match="tf.distribute strategies"):
        contrib.training.GreedyLoadBalancingStrategy  # noqa: B018
    with pytest.raises(tf1.LegacyAPIError, match="grappler"):
        contrib.framework.fuse_op  # noqa: B018
    assert contrib.framework.list_variables.__name__ == "list_variables"  # served from TensorFlow
    assert "arg_scope" in dir(contrib.framework) and "conv2d" in contrib.layers.__all__


def test_classify_served_contrib_names() -> None:
    bridged = [["contrib", "slim"], ["contrib", "slim", "conv2d"], ["contrib", "slim", "nets"],
               ["contrib", "layers", "batch_norm"], ["contrib", "layers", "xavier_initializer"],
               ["contrib", "framework", "arg_scope"], ["contrib", "framework", "get_or_create_global_step"],
               ["contrib", "training", "HParams"]]
    for parts in bridged:
        assert tf1.classify_tf_attribute(parts).status == "bridged", parts
    assert tf1.classify_tf_attribute(["contrib", "layers", "real_valued_column"]).status == "bridged"
    for parts, text in [(["contrib", "layers", "scattered_embedding_column"], "feature_column"),
                        (["contrib", "framework", "fuse_op"], "grappler"),
                        (["contrib", "rnn", "GridLSTMCell"], "grid LSTMs")]:
        verdict = tf1.classify_tf_attribute(parts)
        assert verdict.status == "unsupported" and text in verdict.action, parts


def test_check_reports_slim_as_bridged(tmp_path: Path) -> None:
    write(tmp_path / "train.py", """
        import tensorflow as tf
        import tensorflow.contrib.slim as slim
        from tensorflow.contrib import layers
        from tensorflow.contrib.slim.nets import resnet_v1
        from tensorflow.contrib.slim.python.slim.data import tfexample_decoder
        from tensorflow.contrib.training.python.training import hparam
        from tensorflow.contrib.slim.python.slim.nothing_here import x
        import tensorflow.contrib.rnn as rnn

        net = tf.contrib.layers.conv2d
        hp = tf.contrib.training.HParams(lr=0.1)
        scope = tf.contrib.framework.arg_scope
        col = tf.contrib.layers.scattered_embedding_column
        cell = tf.contrib.rnn.GridLSTMCell
    """)
    report = check.check_script(tmp_path / "train.py")
    status = {f.construct: f.status for f in report.findings}
    for construct in ["import tensorflow.contrib.slim", "from tensorflow.contrib import layers",
                      "from tensorflow.contrib.slim.nets import ...",
                      "from tensorflow.contrib.slim.python.slim.data import ...",
                      "from tensorflow.contrib.training.python.training import ...",
                      "tf.contrib.layers.conv2d", "tf.contrib.training.HParams",
                      "tf.contrib.framework.arg_scope"]:
        assert status[construct] == "bridged", construct
    unsupported = {(f.line, f.construct) for f in report.unsupported}
    assert unsupported == {(7, "from tensorflow.contrib.slim.python.slim.nothing_here import ..."),
                           (13, "tf.contrib.layers.scattered_embedding_column"),
                           (14, "tf.contrib.rnn.GridLSTMCell")}


@pytest.mark.timeout(TIMEOUT + 30)
def test_check_command_sees_tf_layers_as_the_runner_does(tmp_path: Path) -> None:
    write(tmp_path / "model.py", """
        import tensorflow as tf
        net = tf.layers.conv2d
        bn = tf.layers.batch_normalization
    """)
    env = {k: v for k, v in os.environ.items() if k != legacy_keras.ENV_VAR}
    env.update(TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    result = subprocess.run([sys.executable, "-m", "compat", "check", "model.py"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
    assert "model.py:2:6: compat.v1: tf.layers.conv2d -> works as tf.compat.v1.layers.conv2d" in result.stdout
    assert "0 cannot be handled" in result.stdout


@pytest.mark.timeout(TIMEOUT + 30)
def test_served_contrib_modules_work_when_the_script_has_its_own_compat(tmp_path: Path) -> None:
    write(tmp_path / "project" / "compat.py", "VALUE = 42\n")
    write(tmp_path / "project" / "main.py", """
        import tensorflow as tf
        import compat
        print(compat.VALUE, tf.contrib.slim.conv2d.__module__, tf.contrib.training.HParams(a=3).a)
    """)
    env = {k: v for k, v in os.environ.items() if k != legacy_keras.ENV_VAR}
    env.update(TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    result = subprocess.run([sys.executable, "-m", "compat", "run", "project/main.py"], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["42", "tf_slim.layers.layers", "3"]
