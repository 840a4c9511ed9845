"""What the surfaces of the libraries beside TensorFlow share (``skimage_legacy``, ``h5py_legacy``,
``networkx_legacy``, ``imageio_legacy``, ``librosa_legacy``): whether a call comes from the script's
own files (:mod:`compat.library_legacy.callers`), so that an old default or an old argument order
applies to the script's calls only, and one static finder of their uses for ``compat check``
(:mod:`compat.library_legacy.uses`). Importing it imports the standard library only."""
