"""The ``tf1-compat`` kernel process: ``python -m compat.notebook.kernel -f CONNECTION_FILE``.

An ipykernel whose shell loads the ``compat`` extension at start
(:mod:`compat.notebook.extension`), so every cell runs as TensorFlow 1 era code.
TensorFlow's start-up notes are dropped from the kernel's stderr, and the
kernel leaves C-level output on its own stderr (the Jupyter server's terminal)
instead of copying it into the notebook, as kernels of 2016-2018 did.
"""
from __future__ import annotations

import sys

#: Options every ``tf1-compat`` kernel starts with (after the connection file).
KERNEL_OPTIONS: tuple[str, ...] = ("--ext=compat", "--IPKernelApp.capture_fd_output=False")


def main(argv: list[str] | None = None) -> None:
    """Start the kernel with ``argv`` (default: this process's arguments) plus :data:`KERNEL_OPTIONS`."""
    from compat.runner.startup_log import drop_tensorflow_startup_lines
    drop_tensorflow_startup_lines()  # before the extension imports TensorFlow
    from ipykernel import kernelapp
    args = list(sys.argv[1:] if argv is None else argv)
    kernelapp.launch_new_instance(argv=[*args, *(o for o in KERNEL_OPTIONS if o not in args)])


if __name__ == "__main__":
    main()
