"""``python -m compat check``: the static prediction of what the runner does, file by file.

* :mod:`compat.checker.check` - walks the script and its own modules (with the
  runner's own source rewrite and tables) and reports every legacy construct
  as rewritten / bridged / compat.v1 / fallback / conditional / unsupported;
* :mod:`compat.surfaces.fallbacks` - the script's own alternatives around a
  construct: ``try: ... except ImportError:``, branches for another Python
  version, and branches an option of the script selects.

May import: :mod:`compat.rules`, :mod:`compat.runner.rewrite` (the static
parts), :mod:`compat.tf1.namespace` (its classifiers), :mod:`compat.contrib`.
Never :mod:`compat.runner.run`: checking runs nothing of the script.
"""
