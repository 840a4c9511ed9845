"""Names old scripts imported from TensorFlow's internal modules: present under the runner, values checked."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest


@pytest.mark.timeout(300)
def test_new_checkpoint_reader_and_linear_under_the_runner(tmp_path: Path) -> None:
    (tmp_path / "script.py").write_text(textwrap.dedent("""
        import numpy as np
        import tensorflow as tf
        from tensorflow.python import pywrap_tensorflow
        from tensorflow.python.ops.rnn_cell_impl import _linear

        x = tf.placeholder(tf.float32, [2, 3])
        with tf.variable_scope("proj"):
            y = _linear([x, 2 * x], 4, bias=True)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            path = saver.save(sess, "model.ckpt")
            np.save("out.npy", sess.run(y, {x: np.arange(6.0).reshape(2, 3)}))
        reader = pywrap_tensorflow.NewCheckpointReader(path)
        print(sorted(reader.get_variable_to_shape_map().items()))
    """))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    result = subprocess.run([sys.executable, "-m", "compat", "run", "script.py"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "[('proj/bias', [4]), ('proj/kernel', [6, 4])]"
    import tensorflow as tf
    reader = tf.train.load_checkpoint(str(tmp_path / "model.ckpt"))
    x = np.arange(6.0).reshape(2, 3)
    expected = np.concatenate([x, 2 * x], axis=1) @ reader.get_tensor("proj/kernel") + reader.get_tensor("proj/bias")
    np.testing.assert_allclose(np.load(tmp_path / "out.npy"), expected, rtol=1e-5)


def test_every_addition_names_a_provider_that_exists_and_is_removed_again() -> None:
    # In a process of its own: the providers import tf_keras, after which this process's
    # tf.compat.v1 would be another module object than the one other tests patch.
    code = textwrap.dedent("""
        import importlib
        from compat.tf1 import deep_modules
        remove = deep_modules.add_missing_names()
        for module_name, names in deep_modules.DEEP_ADDITIONS.items():
            module = importlib.import_module(module_name)
            for name in names:
                assert callable(getattr(module, name)) or isinstance(getattr(module, name), type), (module_name, name)
        remove()
        assert not hasattr(importlib.import_module("tensorflow.python.pywrap_tensorflow"), "NewCheckpointReader")
        print("ok")
    """)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="-1")
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=240)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-3000:]
