"""One unchanged 2017–2019-style script using scikit-image, h5py, networkx, imageio and librosa
the old way, run under ``python -m compat run`` (the five library surfaces of ``compat/*_legacy/``).

The script prints what it computed; the test compares with the old formulas computed here
(PSNR with 0.16's data range, reflect-padded RMS frames, h5py 2's ``str``, a GIF's frame
delays in hundredths of a second), and ``compat check`` of the same file reports each use.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.helpers.scripts import compat_run, quiet_env, write

SCRIPT = '''
import json
import sys

import h5py
import imageio
import librosa
import networkx as nx
import numpy as np
from skimage.measure import compare_psnr, compare_ssim
from skimage import transform

rng = np.random.RandomState(0)
hr = rng.rand(32, 32, 3)
sr = np.clip(hr + 0.05 * rng.randn(32, 32, 3), 0, 1)
out = {"psnr": compare_psnr(hr, sr), "ssim": compare_ssim(hr, sr, multichannel=True),
       "rescaled": list(transform.rescale(hr, 0.5, multichannel=True).shape)}

f = h5py.File("weights.h5")  # h5py 2: read/write, created when missing
f["layer_names"] = u"dense_1"
f["kernel"] = np.arange(6.0).reshape(2, 3)
f.close()
f = h5py.File("weights.h5")
out["mode"] = f.mode
out["name"] = f["layer_names"].value
out["name_type"] = type(f["layer_names"].value).__name__
out["kernel_sum"] = float(f["kernel"].value.sum())
f.close()

g = nx.Graph()
g.add_path([0, 1, 2, 3])
g.add_edge(10, 11)
out["components"] = sorted(len(c) for c in nx.connected_component_subgraphs(g))
out["degree_1"] = g.degree(1)
out["matrix_type"] = type(nx.to_numpy_matrix(g)).__name__

frames = [np.full((4, 4, 3), v, dtype=np.uint8) for v in (0, 255)]
imageio.mimsave("anim.gif", frames, duration=0.25)

y = np.sin(np.arange(4096) / 7.0).astype(np.float32)
out["rmse"] = librosa.feature.rmse(y, frame_length=512, hop_length=256)[0].tolist()
librosa.output.write_wav("tone.wav", y, 8000)
out["stft_shape"] = list(librosa.stft(y, 256).shape)
print("RESULT " + json.dumps(out))
'''


def rms_frames(y: np.ndarray, frame_length: int, hop_length: int) -> list[float]:
    padded = np.pad(y.astype(np.float64), frame_length // 2, mode="reflect")
    count = 1 + (len(padded) - frame_length) // hop_length
    return [float(np.sqrt(np.mean(padded[i * hop_length:i * hop_length + frame_length] ** 2))) for i in range(count)]


@pytest.mark.timeout(300)
def test_an_old_script_using_five_libraries_runs_unchanged(tmp_path: Path) -> None:
    script = write(tmp_path / "old_eval.py", SCRIPT)
    result = compat_run(script)
    assert result.returncode == 0, result.stderr[-3000:]
    line = next(text for text in result.stdout.splitlines() if text.startswith("RESULT "))
    found = json.loads(line[len("RESULT "):])

    rng = np.random.RandomState(0)
    hr = rng.rand(32, 32, 3)
    sr = np.clip(hr + 0.05 * rng.randn(32, 32, 3), 0, 1)
    assert found["psnr"] == pytest.approx(10 * np.log10(1.0 / np.mean((hr - sr) ** 2)), rel=1e-10)
    assert 0.5 < found["ssim"] < 1.0 and found["rescaled"] == [16, 16, 3]
    assert found["mode"] == "r+" and found["name"] == "dense_1" and found["name_type"] == "str"
    assert found["kernel_sum"] == 15.0
    assert found["components"] == [2, 4] and found["degree_1"] == 2 and found["matrix_type"] == "matrix"
    from PIL import Image
    with Image.open(tmp_path / "anim.gif") as gif:
        assert gif.info["duration"] == 250 and gif.info.get("loop") == 0
    y = np.sin(np.arange(4096) / 7.0).astype(np.float32)
    np.testing.assert_allclose(found["rmse"], rms_frames(y, 512, 256), rtol=2e-5)
    import scipy.io.wavfile
    rate, samples = scipy.io.wavfile.read(tmp_path / "tone.wav")
    assert rate == 8000 and samples.dtype == np.float32 and np.array_equal(samples, y)
    assert found["stft_shape"] == [129, 1 + 4096 // 64]

    check = subprocess.run([sys.executable, "-m", "compat", "check", str(script)], cwd=tmp_path, env=quiet_env(),
                           capture_output=True, text=True, timeout=120, check=False)
    for construct in ("compare_psnr", "multichannel", "h5py.File('weights.h5')", ".value", "g.add_path",
                      "nx.connected_component_subgraphs", "nx.to_numpy_matrix", "imageio.mimsave('anim.gif'",
                      "librosa.feature.rmse", "librosa.output.write_wav", "librosa.stft(y, 256)"):
        assert construct in check.stdout, (construct, check.stdout[-3000:])
