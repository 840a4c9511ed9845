"""h5py 2 behaviour that 2016–2020 code relied on and h5py 3 changed (``Dataset.value``, UTF-8
strings read as ``str``, ``File(name)`` opening read/write, ``new_vlen``, ...): the table is
:mod:`compat.h5py_legacy.removed`, :mod:`compat.h5py_legacy.surface` declares the surface,
:mod:`compat.h5py_legacy.uses` finds the uses for ``compat check``."""
