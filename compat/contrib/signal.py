"""``tf.contrib.signal``: signal processing, which moved to ``tf.signal`` unchanged."""
from __future__ import annotations

from compat.contrib._forward import forwarding_getattr

#: TF 1.15 name -> where it lives today.
FORWARDS: dict[str, str] = {
    **{name: f"tensorflow.signal.{name}" for name in (
        "frame", "hamming_window", "hann_window", "inverse_stft", "inverse_stft_window_fn",
        "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms", "overlap_and_add", "stft")},
}

#: TF 1.15 names not provided, with what to use instead.
REFUSED: dict[str, str] = {

}

__getattr__ = forwarding_getattr("signal", FORWARDS, REFUSED)
