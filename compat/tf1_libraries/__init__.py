"""Installed libraries written for TensorFlow 1.x, served as legacy code (a legacy surface).

Many TF1-era projects are built on a library of their time (TFLearn, TensorLayer 1.x,
Sonnet 1, PrettyTensor, tensorpack 0.9) that is itself TensorFlow 1 code, installed in
``site-packages``. The runner serves such a package as it serves the script's own
modules: its source goes through :func:`compat.runner.rewrite.compile_legacy` in memory
(the TF1 namespace for its ``import tensorflow``, NumPy 1's names, the old standard
library), and the names TensorFlow's internal modules lost since 1.15 are put back
(:data:`compat.tf1.deep_modules.DEEP_ADDITIONS`).

* :mod:`compat.tf1_libraries.known`: the libraries known to be TF1-only, with their last
  release and what the runner needs for them;
* :mod:`compat.tf1_libraries.recognise`: which installed packages are legacy (metadata,
  known list, ``--legacy-package``);
* :mod:`compat.tf1_libraries.finder`: the import finder that hands their modules to the
  rewriting loader;
* :mod:`compat.tf1_libraries.follow`: ``compat check`` following imports into them;
* :mod:`compat.tf1_libraries.surface`: the declared :class:`compat.surfaces.Surface`.

Importing this package imports the standard library only and changes nothing.
"""
