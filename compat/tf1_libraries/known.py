"""The installed libraries known to be TensorFlow 1 code, and what each needs.

A library is listed when its releases for TensorFlow 1 do not say so in their
metadata (TFLearn, PrettyTensor and tensorpack declare no ``tensorflow``
requirement at all) or when a later release of the same package is TensorFlow 2
code (``below``: only releases before that version are served as legacy code).
Facts are from each package's metadata on PyPI and its source.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["KNOWN_LIBRARIES", "KnownLibrary", "by_module"]


@dataclass(frozen=True)
class KnownLibrary:
    """One TF1-era library.

    Attributes:
        module: its top-level import name (``tflearn``).
        distribution: its name on PyPI (``tflearn``, ``dm-sonnet``).
        last_tf1_release: the last release written for TensorFlow 1 (what to install).
        below: releases from this version on are not TF1 code ("" when none are).
        note: what the runner does or lacks for it, for messages.
    """

    module: str
    distribution: str
    last_tf1_release: str
    below: str = ""
    note: str = ""


KNOWN_LIBRARIES: tuple[KnownLibrary, ...] = (
    KnownLibrary("tflearn", "tflearn", "0.5.0",
                 note="its last release (2020) still imports TensorFlow 1 internals (nest.is_sequence)"),
    KnownLibrary("tensorlayer", "tensorlayer", "1.11.1", below="2",
                 note="2.x is a TensorFlow 2 library with another API"),
    KnownLibrary("sonnet", "dm-sonnet", "1.36", below="2",
                 note="Sonnet 2 is a TensorFlow 2 library with another API"),
    KnownLibrary("prettytensor", "prettytensor", "0.7.4"),
    KnownLibrary("tensorpack", "tensorpack", "0.9.9", below="0.10",
                 note="0.10 and later run on TensorFlow 2 through tf.compat.v1 by themselves"),
    # Never released to PyPI (setup.py of keras-team/keras-contrib says 2.0.8): served when installed from git.
    KnownLibrary("keras_contrib", "keras-contrib", "2.0.8",
                 note="never released to PyPI; its repository is archived"),
)


def by_module(module: str) -> KnownLibrary | None:
    """The known library whose top-level module is ``module`` (dotted names: their top level), or None."""
    top = module.split(".")[0]
    return next((lib for lib in KNOWN_LIBRARIES if lib.module == top), None)
