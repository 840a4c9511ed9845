"""Shared fixtures: small folders of real photographs, and a private data home."""
from __future__ import annotations

import os

import imageio.v3 as iio
import pytest

from tf1_pipelines import sample_data


@pytest.fixture(autouse=True, scope="session")
def _private_data_home(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Default data folders go to a temporary home, never the user's cache."""
    os.environ["TF1_PIPELINES_DATA"] = str(tmp_path_factory.mktemp("data_home"))


@pytest.fixture(scope="session")
def two_photos_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    """PNGs of chelsea (300x451) and coffee (400x600): 24 + 40 = 64 seed-000 patches."""
    folder = tmp_path_factory.mktemp("two_photos")
    for index, name in enumerate(("chelsea", "coffee"), start=1):
        iio.imwrite(folder / f"{index:04d}.png", sample_data.load_photograph(name))
    return str(folder)
