"""SciPy <= 1.2 names that old scripts use: ``scipy.misc`` (:mod:`compat.scipy_legacy.misc`) and
``scipy.ndimage.imread`` (:mod:`compat.scipy_legacy.ndimage`), faithful to SciPy 1.2's ``pilutil``."""
