"""``compat.librosa_legacy``: librosa 0.6–0.9 names and positional calls, with their old values.

``rmse`` is checked against ``sqrt(mean(frame**2))`` of the reflect-padded signal (0.6.3's
``rms``), ``write_wav`` against the WAV header scipy writes for a float32 signal and the
samples read back, the positional calls against the same calls with keywords.
"""
from __future__ import annotations

import ast
import csv
import importlib
import inspect
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import librosa as librosa_module
import numpy as np
import pytest
import scipy.io.wavfile
import scipy.sparse

from compat.errors import LegacyAPIError
from compat.librosa_legacy.surface import SURFACE
from compat.librosa_legacy.uses import POSITIONAL
from compat.surfaces import as_use
from compat.surfaces.table_patches import TablePatches

#: Typed Any: the old names and calls exist only while the table is applied.
librosa: Any = librosa_module

MODULES = ("librosa", "librosa.core", "librosa.feature", "librosa.effects", "librosa.filters", "librosa.util")
SIGNAL = np.sin(2 * np.pi * 440 * np.arange(8192) / 22050).astype(np.float32) * np.linspace(0.1, 0.9, 8192,
                                                                                            dtype=np.float32)


@pytest.fixture
def patched() -> Iterator[TablePatches]:
    assert SURFACE.patches is not None
    patches = SURFACE.patches()
    for name in MODULES:
        patches.apply(importlib.import_module(name))
    yield patches
    patches.undo()


def frames_rms(y: np.ndarray, frame_length: int, hop_length: int) -> np.ndarray:
    padded = np.pad(y.astype(np.float64), frame_length // 2, mode="reflect")
    count = 1 + (len(padded) - frame_length) // hop_length
    return np.array([[np.sqrt(np.mean(padded[i * hop_length:i * hop_length + frame_length] ** 2))
                      for i in range(count)]])


def test_rmse_is_06s_rms_with_reflect_padding(patched: TablePatches) -> None:
    found = librosa.feature.rmse(y=SIGNAL)
    assert found.dtype == np.float32 and found.shape == (1, 1 + len(SIGNAL) // 512)
    np.testing.assert_allclose(found, frames_rms(SIGNAL, 2048, 512), rtol=2e-5)
    # ibab/tensorflow-wavenet's reader: the signal positionally, a frame length
    np.testing.assert_allclose(librosa.feature.rmse(SIGNAL, frame_length=256), frames_rms(SIGNAL, 256, 512),
                               rtol=2e-5)
    spectrum = np.abs(np.random.default_rng(0).standard_normal((5, 7)))
    np.testing.assert_allclose(librosa.feature.rmse(S=spectrum), np.sqrt(np.mean(spectrum ** 2, axis=0))[None])


def test_write_wav_writes_07s_float_wav(patched: TablePatches, tmp_path: Path) -> None:
    path = tmp_path / "a.wav"
    librosa.output.write_wav(str(path), SIGNAL, 22050)
    header = path.read_bytes()[:36]
    format_tag, channels, rate = struct.unpack("<HHI", header[20:28])
    assert (format_tag, channels, rate, struct.unpack("<H", header[34:36])[0]) == (3, 1, 22050, 32)  # IEEE float
    rate, samples = scipy.io.wavfile.read(path)
    assert samples.dtype == np.float32 and np.array_equal(samples, SIGNAL)
    librosa.output.write_wav(str(path), SIGNAL, 22050, norm=True)
    np.testing.assert_allclose(scipy.io.wavfile.read(path)[1], SIGNAL / np.max(np.abs(SIGNAL)), rtol=1e-7)
    stereo = np.asfortranarray(np.stack([SIGNAL, -SIGNAL]))
    librosa.output.write_wav(str(path), stereo, 8000)
    rate, samples = scipy.io.wavfile.read(path)
    assert rate == 8000 and samples.shape == (len(SIGNAL), 2) and np.array_equal(samples[:, 1], -SIGNAL)
    with pytest.raises(librosa.util.exceptions.ParameterError, match="Fortran-contiguous"):
        librosa.output.write_wav(str(path), np.ascontiguousarray(stereo), 8000)
    with pytest.raises(librosa.util.exceptions.ParameterError, match="floating-point"):
        librosa.output.write_wav(str(path), (SIGNAL * 100).astype(np.int16), 8000)
    librosa.output.times_csv(str(tmp_path / "t.csv"), [0.5, 1.25], annotations=["a", "b"])
    with open(tmp_path / "t.csv", newline="") as handle:
        assert list(csv.reader(handle)) == [["0.500", "a"], ["1.250", "b"]]


def test_util_roll_sparse_and_example_audio_file(patched: TablePatches) -> None:
    dense = np.arange(12.0).reshape(3, 4) * (np.arange(12).reshape(3, 4) % 3 == 0)
    assert np.array_equal(librosa.util.roll_sparse(dense, 1, axis=1), np.roll(dense, 1, axis=1))
    rolled = librosa.util.roll_sparse(scipy.sparse.csc_matrix(dense), -2, axis=0)
    assert rolled.format == "csc" and np.array_equal(rolled.toarray(), np.roll(dense, -2, axis=0))
    with pytest.raises(LegacyAPIError, match=r"librosa\.example"):
        librosa.util.example_audio_file()


def test_keyword_only_parameters_accepted_in_signature_order(patched: TablePatches, tmp_path: Path) -> None:
    path = tmp_path / "tone.wav"
    scipy.io.wavfile.write(path, 22050, SIGNAL)
    y, sr = librosa.load(str(path), 11025)
    expected, expected_sr = librosa.load(str(path), sr=11025)
    assert sr == expected_sr == 11025 and np.array_equal(y, expected)
    assert np.array_equal(librosa.resample(SIGNAL, 22050, 8000),
                          librosa.resample(SIGNAL, orig_sr=22050, target_sr=8000))
    assert np.array_equal(librosa.stft(SIGNAL, 512, 128), librosa.stft(SIGNAL, n_fft=512, hop_length=128))
    assert np.array_equal(librosa.filters.mel(22050, 512, 40), librosa.filters.mel(sr=22050, n_fft=512, n_mels=40))
    assert np.array_equal(librosa.effects.time_stretch(SIGNAL, 2.0), librosa.effects.time_stretch(SIGNAL, rate=2.0))
    trimmed, index = librosa.effects.trim(SIGNAL, 20)
    assert np.array_equal(index, librosa.effects.trim(SIGNAL, top_db=20)[1])
    with pytest.raises(TypeError, match="multiple values for argument 'n_fft'"):
        librosa.stft(SIGNAL, 512, n_fft=1024)


def test_the_static_table_matches_the_installed_librosa() -> None:
    modules = [librosa, librosa.filters, librosa.effects, librosa.feature, librosa.util, librosa.beat, librosa.onset]
    for name, takes in POSITIONAL.items():
        if name in ("specshow", "waveshow"):
            continue  # librosa.display: checked by name only, it imports Matplotlib
        function = next(getattr(m, name) for m in modules if inspect.isfunction(getattr(m, name, None)))
        kinds = [p.kind for p in inspect.signature(function).parameters.values()]
        assert kinds.count(inspect.Parameter.POSITIONAL_OR_KEYWORD) == takes, name
        assert inspect.Parameter.KEYWORD_ONLY in kinds, name


def test_undo_gives_librosa_its_own_objects_back() -> None:
    assert SURFACE.patches is not None
    stft = librosa.stft
    patches = SURFACE.patches()
    for name in MODULES:
        patches.apply(importlib.import_module(name))
    assert librosa.stft is not stft and librosa.stft is librosa.stft and hasattr(librosa.feature, "rmse")
    assert librosa.feature.mfcc is librosa.feature.mfcc  # resolved lazily, wrapped once
    patches.undo()
    assert librosa.stft is stft and not hasattr(librosa.feature, "rmse") and "output" not in vars(librosa)
    assert not hasattr(librosa.feature.mfcc, "__compat_legacy_wrapper__")


def test_compat_check_reports_each_use() -> None:
    assert SURFACE.uses is not None
    tree = ast.parse("import librosa\n"
                     "from librosa import feature\n"
                     "y, sr = librosa.load(path, 16000)\n"
                     "e = feature.rmse(y, frame_length=2048)\n"
                     "librosa.output.write_wav('x.wav', y, sr)\n"
                     "m = librosa.filters.mel(sr=sr, n_fft=512)\n"
                     "s = librosa.stft(y, n_fft=512, pad_mode='constant')\n"
                     "c = librosa.cqt(y, sr=sr)\n")
    found = [(u.node.lineno if isinstance(u.node, (ast.stmt, ast.expr)) else 0, u.construct)
             for u in map(as_use, SURFACE.uses(tree))]
    assert found == [(3, "librosa.load(path, 16000)"), (4, "feature.rmse"), (5, "librosa.output.write_wav"),
                     (5, "librosa.output"), (8, "librosa.cqt(y, sr=sr)")]


def library_call(source: str, **names: Any) -> Any:
    """Evaluate ``source`` as code of an installed package would run it (its file in site-packages)."""
    return eval(compile(source, "/usr/lib/python3/site-packages/somelib/audio.py", "eval"), dict(names))  # noqa: S307


def test_the_scripts_spectra_are_reflect_padded_as_up_to_08(patched: TablePatches) -> None:
    import scipy.signal
    spectrum = librosa.stft(SIGNAL, n_fft=512)
    window = scipy.signal.get_window("hann", 512, fftbins=True)
    padded = np.pad(SIGNAL.astype(np.float64), 256, mode="reflect")
    np.testing.assert_allclose(spectrum[:, 0], np.fft.rfft(padded[:512] * window), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(spectrum[:, -1], np.fft.rfft(padded[-512:] * window), rtol=1e-4, atol=1e-4)
    # an installed library calling the same function keeps today's zero padding
    library = library_call("stft(y, n_fft=512)", stft=librosa.stft, y=SIGNAL)
    zeros = np.pad(SIGNAL.astype(np.float64), 256, mode="constant")
    np.testing.assert_allclose(library[:, 0], np.fft.rfft(zeros[:512] * window), rtol=1e-4, atol=1e-4)
    assert np.array_equal(librosa.feature.mfcc(y=SIGNAL, sr=22050),
                          library_call("mfcc(y=y, sr=22050, pad_mode='reflect')", mfcc=librosa.feature.mfcc,
                                       y=SIGNAL))
    assert np.array_equal(librosa.feature.melspectrogram(SIGNAL, 22050),  # 0.8's positional y, sr
                          library_call("m(y=y, sr=22050, pad_mode='reflect')", m=librosa.feature.melspectrogram,
                                       y=SIGNAL))


def test_display_waveplot_is_waveshow(patched: TablePatches) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    display = importlib.import_module("librosa.display")
    patched.apply(display)
    figure, axes = plt.subplots(2)
    try:
        old = librosa.display.waveplot(SIGNAL, sr=22050, ax=axes[0])
        new = display.waveshow(SIGNAL, sr=22050, ax=axes[1])
        assert type(old) is type(new)
        assert axes[0].get_xlim() == pytest.approx(axes[1].get_xlim())
        assert np.array_equal(old.steps.get_xydata(), new.steps.get_xydata())  # the same samples drawn
    finally:
        plt.close(figure)
