"""Seed 000's embedded data: the DIV2K-like folder of bundled photographs
(``0001.png`` .. ``0008.png``, built by :mod:`tf1_pipelines.data.sample_data`, which the
demo and the notebooks share) and the seed's patch records of it in the cache."""
from __future__ import annotations

from tf1_pipelines.data.sample_data import DIV2K_LIKE, div2k_like_dir

from .records import cached_records

__all__ = ["DIV2K_LIKE", "div2k_like_dir", "sample_records_dir"]


def sample_records_dir() -> str:
    """The folder of the seed's records (patch 96, 10 files) of the embedded
    photographs, as ``load_pipeline("div2k_sr")`` reads them; built on first use."""
    return cached_records()
