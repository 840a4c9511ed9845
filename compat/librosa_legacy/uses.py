"""The uses of removed librosa names and old positional calls in one module, for ``compat check``.

librosa is not imported: the calls whose parameters became keyword-only are known by
name from :data:`POSITIONAL`, the number of positional parameters each still takes
(``tests/unit/test_compat_librosa_legacy.py`` checks it against the installed librosa), and
the calls that padded with ``'reflect'`` up to 0.8 (:data:`compat.librosa_legacy.removed.REFLECT_PADDED`).
"""
from __future__ import annotations

import ast

from compat.library_legacy.uses import Uses, finder
from compat.librosa_legacy import removed
from compat.surfaces.source_pass import short

__all__ = ["POSITIONAL", "USES", "find_uses"]

#: Function name -> how many arguments it still takes positionally (librosa >= 0.10).
POSITIONAL: dict[str, int] = {
    **dict.fromkeys(("mel", "melspectrogram", "mfcc", "rms", "get_duration", "onset_strength", "beat_track",
                     "chroma_stft", "spectral_centroid", "onset_detect", "fft_frequencies", "tempo"), 0),
    **dict.fromkeys(("load", "resample", "stft", "istft", "pitch_shift", "time_stretch", "trim", "split",
                     "amplitude_to_db", "power_to_db", "zero_crossing_rate", "frame", "magphase", "cqt",
                     "griffinlim", "fix_length", "normalize", "frames_to_time", "time_to_frames", "hz_to_mel",
                     "mel_to_hz", "db_to_amplitude", "preemphasis", "hpss", "harmonic", "percussive", "delta",
                     "stack_memory", "pad_center", "mel_frequencies", "specshow", "waveshow"), 1),
    "remix": 2,
}


def _old_call(node: ast.Call, full: str | None) -> tuple[str, str] | None:
    """A call of a librosa function with more positional arguments than it takes today, or of one
    that padded with ``'reflect'`` up to 0.8 and gives no ``pad_mode``."""
    if full is None or not full.startswith("librosa."):
        return None
    name = full.rpartition(".")[2]
    takes = POSITIONAL.get(name)
    given = sum(1 for argument in node.args if not isinstance(argument, ast.Starred))
    if takes is not None and given > takes:
        return (short(node), f"librosa >= 0.10 takes only {takes} positional argument(s) in {name}(); the runner "
                             f"passes the others as keywords in signature order, as librosa 0.9 did")
    keywords = {k.arg for k in node.keywords}
    if (name in removed.REFLECT_PADDED or (name == "mfcc" and "S" not in keywords)) and "pad_mode" not in keywords \
            and None not in keywords:
        return (short(node), "librosa >= 0.9 pads with zeros by default, 0.8 with 'reflect'; the runner gives the "
                             "script's call pad_mode='reflect'")
    return None


USES = Uses(
    library="librosa",
    roots=("librosa",),
    removed={**{module: {name: entry.replacement for name, entry in names.items()}
                for module, names in removed.REMOVED.items()},
             "librosa.output": removed.OUTPUT_NAMES},
    call=_old_call,
)

#: The surface's ``uses`` hook.
find_uses = finder(USES)
