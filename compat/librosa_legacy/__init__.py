"""librosa 0.6–0.9 names and calls that 2016–2020 audio code used and later releases removed
(``feature.rmse``, ``output.write_wav``, ``util.roll_sparse``, positional arguments made
keyword-only, ...), with their old semantics: the table is :mod:`compat.librosa_legacy.removed`,
:mod:`compat.librosa_legacy.surface` declares the surface, :mod:`compat.librosa_legacy.uses`
finds the uses for ``compat check``."""
