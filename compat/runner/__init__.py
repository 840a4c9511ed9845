"""``python -m compat run``: the runner's installation in its own process, and what it runs.

* :mod:`compat.runner.run` - :func:`~compat.runner.run.run`: installs the finders,
  the TF1 namespace and TensorFlow's graph mode, runs the script, sets the exit status;
* :mod:`compat.runner.rewrite` - the import-time source rewrite of the script's own modules;
* :mod:`compat.runner.local_imports` - which files are the script's own (found statically);
* :mod:`compat.runner.hints` - the ``compat: FILE:LINE:`` line for failures it recognises;
* :mod:`compat.runner.thread_endings` - which thread endings are TF1's normal end;
* :mod:`compat.surfaces.modules`, :mod:`~compat.runner.startup_log`,
  :mod:`~compat.keras2.legacy_keras`, :mod:`~compat.old_defaults.deterministic_protobuf` - plumbing.

The runner is the only part of ``compat`` that changes global state, and only in
the process that runs the script.
"""
