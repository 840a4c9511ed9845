"""librosa names that 0.6–0.9 code called and today's librosa has removed, with their old semantics.

Facts from librosa's changelog and the 0.6.3 / 0.7.2 / 0.9.2 sources:

* ``feature.rmse`` was renamed ``feature.rms`` in 0.6.3 and removed in 0.7.0. From
  samples it was ``sqrt(mean(frame**2))`` per frame, the signal first made mono and
  padded by ``frame_length // 2`` with ``pad_mode='reflect'`` (today's ``rms`` pads
  with zeros by default); from a spectrogram ``S``, ``sqrt(mean(|S|**2))`` over the
  frequency axis (0.7 changed that normalisation).
* ``output`` (``write_wav``, ``times_csv``, ``annotation``) was removed in 0.8.0.
  0.7's ``write_wav(path, y, sr, norm=False)`` checked the buffer (a floating-point,
  finite, 1-D or 2-D, Fortran-contiguous array), peak-normalised it only with ``norm``,
  transposed a (2, n) stereo buffer and wrote it with ``scipy.io.wavfile.write``: a
  float32 signal became a 32-bit IEEE-float WAV, unscaled (today ``soundfile.write``).
* ``util.roll_sparse`` was removed in 0.8.0 (``numpy.roll`` on dense input);
  ``util.example_audio_file`` and ``display.waveplot`` in 0.10.0 (``librosa.example``,
  which downloads its recordings, and ``display.waveshow``).
* 0.9.0 made most parameters keyword-only; 0.9.1 accepted positional ones again
  with a ``FutureWarning``, mapping them onto the parameters in signature order;
  0.10.0 refuses them. The runner maps them as 0.9.1 did (``librosa.load(path, 22050)``,
  ``resample(y, 22050, 16000)``, ``stft(y, 2048)``, ``filters.mel(22050, 2048)``).

Importing this module imports NumPy only; librosa and SciPy are imported when a row is used.
"""
from __future__ import annotations

import functools
import importlib
import inspect
import types
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from compat.errors import LegacyAPIError
from compat.library_legacy.callers import called_from_script
from compat.library_legacy.lazy import PerModuleTable
from compat.surfaces.table_patches import Removed, Replaced, const, wrapper

__all__ = ["KEYWORD_ONLY_MODULES", "REMOVED", "REPLACED", "SERVED_MODULES", "rmse", "roll_sparse", "write_wav"]


def _parameter_error(message: str) -> Exception:
    """librosa's ``ParameterError`` (a ValueError) with ``message``."""
    return importlib.import_module("librosa.util.exceptions").ParameterError(message)


# --------------------------------------------------------------------------
# feature.rmse (removed in 0.7.0)
# --------------------------------------------------------------------------

def rmse(y: Any = None, S: Any = None, frame_length: int = 2048, hop_length: int = 512,  # noqa: N803
         center: bool = True, pad_mode: str = "reflect") -> np.ndarray:
    """``librosa.feature.rmse`` as of 0.6: per frame, ``sqrt(mean(frame**2))`` of the mono signal padded
    by ``frame_length // 2`` (``pad_mode='reflect'``), or ``sqrt(mean(|S|**2))`` over the rows of ``S``;
    shape (1, frames), the input's float dtype. Today ``librosa.feature.rms`` (zero padding by default)."""
    if y is not None and S is not None:
        raise _parameter_error("rmse: either y or S should be input, not both")
    if y is not None:
        librosa = importlib.import_module("librosa")
        y = librosa.to_mono(np.asarray(y))
        return np.asarray(librosa.feature.rms(y=y, frame_length=frame_length, hop_length=hop_length, center=center,
                                              pad_mode=pad_mode, dtype=y.dtype))
    if S is not None:
        return np.sqrt(np.mean(np.abs(np.asarray(S)) ** 2, axis=0, keepdims=True))
    raise _parameter_error("rmse: either y or S must be input")


# --------------------------------------------------------------------------
# output (removed in 0.8.0)
# --------------------------------------------------------------------------

def _valid_stereo_audio(y: Any) -> None:
    """0.7's ``util.valid_audio(y, mono=False)``: a floating, finite, 1-D or 2-D, Fortran-contiguous array."""
    if not isinstance(y, np.ndarray):
        raise _parameter_error(f"write_wav: audio data must be of type numpy.ndarray, got {type(y).__name__}")
    if not np.issubdtype(y.dtype, np.floating):
        raise _parameter_error(f"write_wav: audio data must be floating-point, got dtype {y.dtype}")
    if y.ndim not in (1, 2):
        raise _parameter_error(f"write_wav: audio data must have shape (samples,) or (channels, samples), "
                               f"got shape {y.shape}")
    if not np.isfinite(y).all():
        raise _parameter_error("write_wav: audio buffer is not finite everywhere")
    if not y.flags["F_CONTIGUOUS"]:
        raise _parameter_error("write_wav: audio buffer is not Fortran-contiguous; use numpy.asfortranarray")


def write_wav(path: Any, y: np.ndarray, sr: int, norm: bool = False) -> None:
    """``librosa.output.write_wav`` as of 0.7: ``y`` (checked as 0.7 did) written unscaled by
    ``scipy.io.wavfile.write`` in its own dtype (float32 -> a 32-bit IEEE-float WAV), peak-normalised
    to 1 first when ``norm``; a (2, n) stereo buffer is written as two channels. Today ``soundfile.write``."""
    import scipy.io.wavfile
    _valid_stereo_audio(y)
    wav = y
    if norm and np.issubdtype(y.dtype, np.floating):
        peak = np.max(np.abs(y))
        wav = y / peak if peak > np.finfo(y.dtype).tiny else y
    if wav.ndim > 1 and wav.shape[0] == 2:
        wav = wav.T
    scipy.io.wavfile.write(path, sr, wav)


def _csv_rows(path: Any, rows: list[list[str]], delimiter: str) -> None:
    import csv
    with open(path, "w", newline="") as handle:
        csv.writer(handle, delimiter=delimiter).writerows(rows)


def times_csv(path: Any, times: Any, annotations: Any = None, delimiter: str = ",", fmt: str = "%0.3f") -> None:
    """``librosa.output.times_csv``: one row per time (``fmt``), with its annotation when given."""
    if annotations is not None and len(annotations) != len(times):
        raise _parameter_error(f"times_csv: {len(annotations)} annotations for {len(times)} times")
    _csv_rows(path, [[fmt % t] + ([] if annotations is None else [annotations[i]]) for i, t in enumerate(times)],
              delimiter)


def annotation(path: Any, intervals: Any, annotations: Any = None, delimiter: str = ",",
               fmt: str = "%0.3f") -> None:
    """``librosa.output.annotation``: one row per interval (start, end in ``fmt``), with its annotation."""
    intervals = np.asarray(intervals)
    if annotations is not None and len(annotations) != len(intervals):
        raise _parameter_error(f"annotation: {len(annotations)} annotations for {len(intervals)} intervals")
    _csv_rows(path, [[fmt % start, fmt % end] + ([] if annotations is None else [annotations[i]])
                     for i, (start, end) in enumerate(intervals)], delimiter)


@functools.cache
def output_module() -> types.ModuleType:
    """``librosa.output`` (removed in 0.8.0): ``write_wav``, ``times_csv``, ``annotation`` as 0.7 had them."""
    module = types.ModuleType("librosa.output", "librosa.output (removed in librosa 0.8.0), served by the compat "
                                                "runner: write_wav, times_csv, annotation as librosa 0.7 had them.")
    module.__dict__.update(write_wav=write_wav, times_csv=times_csv, annotation=annotation,
                           __all__=["write_wav", "times_csv", "annotation"])
    return module


# --------------------------------------------------------------------------
# util, display
# --------------------------------------------------------------------------

def roll_sparse(x: Any, shift: int, axis: int = 0) -> Any:
    """``librosa.util.roll_sparse``: ``numpy.roll`` for dense input; a sparse matrix rolled along
    ``axis`` (0, 1 or -1), in its own format."""
    import scipy.sparse
    if not scipy.sparse.issparse(x):
        return np.roll(x, shift, axis=axis)
    if axis not in (0, 1, -1):
        raise _parameter_error(f"roll_sparse: axis must be one of (0, 1, -1), got {axis}")
    rolled = np.roll(x.toarray(), shift, axis=axis)
    return scipy.sparse.csr_matrix(rolled).asformat(x.format)


def example_audio_file() -> str:
    """``librosa.util.example_audio_file`` (removed in 0.10.0): refused, its recording is no longer bundled."""
    raise LegacyAPIError("librosa.util.example_audio_file() was removed in librosa 0.10 and its recording is no "
                         "longer installed with librosa; use librosa.example('vibeace') (downloads it once) or "
                         "a path to an audio file of your own")


def waveplot(y: Any, sr: float = 22050, max_points: float = 5e4, x_axis: str = "time", offset: float = 0.0,
             max_sr: float = 1000, ax: Any = None, **kwargs: Any) -> Any:
    """``librosa.display.waveplot`` (removed in 0.10.0): ``display.waveshow`` (``max_sr`` has no
    counterpart: waveshow adapts its resolution to the zoom)."""
    display = importlib.import_module("librosa.display")
    return display.waveshow(y, sr=sr, max_points=int(max_points), axis=x_axis, offset=offset, ax=ax, **kwargs)


# --------------------------------------------------------------------------
# Keyword-only parameters (0.10.0)
# --------------------------------------------------------------------------

#: The public modules whose functions' keyword-only parameters are accepted positionally again.
KEYWORD_ONLY_MODULES = ("librosa", "librosa.core", "librosa.beat", "librosa.decompose", "librosa.display",
                        "librosa.effects", "librosa.feature", "librosa.filters", "librosa.onset",
                        "librosa.segment", "librosa.sequence", "librosa.util")

#: Names of the ``librosa`` package that are submodules (``display`` would import Matplotlib).
_SUBMODULES = frozenset(name.rpartition(".")[2] for name in KEYWORD_ONLY_MODULES) | {"output"}


def _keyword_only(function: Any) -> tuple[str, ...] | None:
    """The parameter names in order, if ``function`` has keyword-only parameters and no ``*args``."""
    if not inspect.isfunction(function):
        return None
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return None
    kinds = {p.kind for p in parameters}
    if inspect.Parameter.KEYWORD_ONLY not in kinds or inspect.Parameter.VAR_POSITIONAL in kinds:
        return None
    return tuple(p.name for p in parameters if p.kind != inspect.Parameter.VAR_KEYWORD)


#: The functions whose ``pad_mode`` default was ``'reflect'`` up to 0.8 (0.9.0 made it ``'constant'``, zeros).
REFLECT_PADDED = frozenset({
    "stft", "cqt", "hybrid_cqt", "pseudo_cqt", "vqt", "griffinlim_cqt", "reassigned_spectrogram", "iirt",
    "griffinlim", "piptrack", "yin", "pyin", "spectral_centroid", "spectral_bandwidth", "spectral_contrast",
    "spectral_rolloff", "spectral_flatness", "rms", "poly_features", "chroma_stft", "melspectrogram", "mel_to_audio"})


def _old_padding(name: str, kwargs: dict[str, Any]) -> None:
    """Give a call of the script 0.8's ``pad_mode='reflect'`` where it gave none: for the functions of
    :data:`REFLECT_PADDED`, and for ``mfcc`` of a signal (its mel spectrogram was padded so)."""
    if "pad_mode" in kwargs:
        return
    if name in REFLECT_PADDED or (name == "mfcc" and kwargs.get("S") is None):
        kwargs["pad_mode"] = "reflect"


def _positional_wrapper(current: Callable[..., Any]) -> Callable[..., Any]:
    """``current`` accepting its keyword-only parameters positionally, in signature order (librosa 0.9.1's
    rule), and, for the script's own calls, padding with ``'reflect'`` where 0.8 did (:func:`_old_padding`)."""
    names = _keyword_only(current) or ()
    positional = sum(1 for p in inspect.signature(current).parameters.values()
                     if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD))

    function_name = current.__name__
    old_padding = function_name in REFLECT_PADDED or function_name == "mfcc"

    def call(*args: Any, **kwargs: Any) -> Any:
        if old_padding and called_from_script():
            _old_padding(function_name, kwargs)
        if len(args) <= positional:
            return current(*args, **kwargs)
        if len(args) > len(names):
            raise TypeError(f"{current.__name__}() takes at most {len(names)} arguments ({len(args)} given)")
        for name, value in zip(names[positional:], args[positional:]):
            if name in kwargs:
                raise TypeError(f"{current.__name__}() got multiple values for argument {name!r}")
            kwargs[name] = value
        return current(*args[:positional], **kwargs)
    return wrapper(current, call)


_POSITIONAL = Replaced("the same call with keywords (librosa >= 0.10 makes them keyword-only)",
                       lambda current: _keyword_only(current) is not None, _positional_wrapper)


def _wrap_keyword_only(name: str, value: Any) -> Any | None:
    """The positional wrapper of ``value`` if it is a function with keyword-only parameters, else None."""
    return _positional_wrapper(value) if _keyword_only(value) is not None else None


_KEYWORDS = "the same call with keywords (librosa >= 0.10 makes them keyword-only)"


def _positional_entry(module_name: str, name: str, value: Any) -> Replaced | None:
    """The positional wrapper entry of a loaded librosa function with keyword-only parameters, else None."""
    return _POSITIONAL if name not in _SUBMODULES and _keyword_only(value) is not None else None


# --------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------

#: owner -> removed name -> what it was.
REMOVED: dict[str, dict[str, Removed]] = {
    "librosa": {"output": Removed("soundfile.write(path, y, sr)", output_module)},
    "librosa.feature": {"rmse": Removed("librosa.feature.rms(y=y, pad_mode='reflect')", const(rmse))},
    "librosa.util": {
        "roll_sparse": Removed("numpy.roll (on dense arrays)", const(roll_sparse)),
        "example_audio_file": Removed("librosa.example('vibeace') (refused: no longer installed)",
                                      const(example_audio_file)),
    },
    "librosa.display": {"waveplot": Removed("librosa.display.waveshow", const(waveplot))},
}

#: Served whole: ``import librosa.output``.
SERVED_MODULES: dict[str, Callable[[], types.ModuleType]] = {"librosa.output": output_module}

#: owner -> name -> wrapper entry (computed per loaded module, so the list follows the installed librosa).
REPLACED: Mapping[str, Mapping[str, Replaced]] = PerModuleTable(
    KEYWORD_ONLY_MODULES, _positional_entry, lambda module, name, value: _wrap_keyword_only(name, value), _KEYWORDS)

#: The removed names inside the served module, for ``compat check``.
OUTPUT_NAMES: dict[str, str] = {"write_wav": "soundfile.write(path, y, sr)",
                                "times_csv": "csv.writer / numpy.savetxt", "annotation": "csv.writer / numpy.savetxt"}
