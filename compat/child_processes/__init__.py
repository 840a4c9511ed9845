"""Child processes of the script (``multiprocessing`` with spawn or forkserver,
``ProcessPoolExecutor``) run under the runner as the script does: :mod:`compat.child_processes.spawned`,
declared in :mod:`compat.child_processes.surface`."""
