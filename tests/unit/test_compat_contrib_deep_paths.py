"""Old deep module paths of ``tf.contrib.framework`` that ``tf_slim`` does not have, and ``tf.contrib.learn.ModeKeys``.

In process: the runner's import machinery (:func:`compat.runner.run.install`) is
installed for each test and removed after it. The speech_commands tutorial's
``from tensorflow.contrib.framework.python.ops import audio_ops as contrib_audio``
must give TF 1.x's WAV ops: a clip encoded and decoded again is compared with the
16-bit quantisation of the samples computed in NumPy.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tensorflow as tf

from compat.contrib import learn  # noqa: E402
from compat.runner import run as runner  # noqa: E402

V1 = tf.compat.v1


@pytest.fixture
def bridge(tmp_path: Path) -> Iterator[Any]:
    """The runner's import machinery, removed again after the test."""
    with runner.install(tmp_path) as installed:
        yield installed


def run_import(statement: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(statement, namespace)
    return namespace


def test_from_the_framework_ops_package_import_audio_ops(bridge: Any) -> None:
    names = run_import("from tensorflow.contrib.framework.python.ops import audio_ops as contrib_audio\n"
                       "from tensorflow.contrib.framework.python.ops import variables\n"
                       "import tensorflow.contrib.framework.python.ops.audio_ops as by_path\n")
    contrib_audio = names["contrib_audio"]
    assert contrib_audio is names["by_path"]
    assert callable(names["variables"].get_or_create_global_step)  # tf_slim's module, as before
    samples = np.sin(np.linspace(0, 20, 400)).astype(np.float32).reshape(-1, 1) * 0.8
    with tf.Graph().as_default():
        wav = contrib_audio.encode_wav(tf.constant(samples), 8000)
        decoded = contrib_audio.decode_wav(wav, desired_channels=1, desired_samples=500)
        spectrogram = contrib_audio.audio_spectrogram(decoded.audio, window_size=64, stride=32,
                                                      magnitude_squared=True)
        mfcc = contrib_audio.mfcc(spectrogram, decoded.sample_rate, dct_coefficient_count=10)
        with V1.Session() as session:
            audio, rate, coefficients = session.run([decoded.audio, decoded.sample_rate, mfcc])
    expected = np.clip(np.round(samples * 32767.0), -32768, 32767) / 32768.0
    np.testing.assert_allclose(audio[:400], expected, atol=1.0 / 32768)
    np.testing.assert_array_equal(audio[400:], 0.0)  # desired_samples pads with zeros, as in TF 1.x
    assert rate == 8000
    assert coefficients.shape == (1, 1 + (500 - 64) // 32, 10)


def test_other_framework_paths_are_tensorflows_own_modules(bridge: Any) -> None:
    names = run_import("from tensorflow.contrib.framework.python.ops import sort_ops, critical_section_ops\n"
                       "from tensorflow.contrib.framework.python.framework import checkpoint_utils\n")
    assert names["sort_ops"].sort is tf.sort
    assert names["critical_section_ops"].CriticalSection is tf.CriticalSection
    assert names["checkpoint_utils"].list_variables is tf.train.list_variables


def test_uninstall_removes_the_served_names(tmp_path: Path) -> None:
    with runner.install(tmp_path):
        run_import("from tensorflow.contrib.framework.python.ops import audio_ops")
        slim_ops = sys.modules["tf_slim.ops"]
        assert "audio_ops" in vars(slim_ops)
    assert "audio_ops" not in vars(slim_ops)
    assert "tensorflow.contrib.framework.python.ops.audio_ops" not in sys.modules
    assert "tf_slim.ops.audio_ops" not in sys.modules


def test_learn_mode_keys_are_tf1_contrib_learn_s() -> None:
    # tensorflow/nmt: `if mode == tf.contrib.learn.ModeKeys.INFER` (tf.estimator's class has PREDICT instead).
    keys = learn.ModeKeys
    assert (keys.TRAIN, keys.EVAL, keys.INFER) == ("train", "eval", "infer")
    # 'infer' is also tf.estimator.ModeKeys.PREDICT, so modes compare equal across both classes.
    assert not hasattr(keys, "PREDICT")
    keys.validate("infer")
    with pytest.raises(ValueError, match="Invalid mode predict"):
        keys.validate("predict")
