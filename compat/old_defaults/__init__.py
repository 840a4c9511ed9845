"""Process-wide defaults of the TF1 era that old scripts' outputs depend on, set while a script runs:
protobuf's ``SerializeToString()`` deterministic (:mod:`compat.old_defaults.deterministic_protobuf`: the
script's exports have the same bytes in every run) and NumPy 1's printing of scalars (``[0]``, not
``[np.int64(0)]``, as the original logs show). Declared in :mod:`compat.old_defaults.surface`."""
