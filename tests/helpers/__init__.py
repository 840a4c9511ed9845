"""Helpers shared by the test files (``tests/`` is on ``sys.path`` through
``tests/conftest.py``): ``from helpers.scripts import write``.

* :mod:`helpers.scripts`: writing a script into a test folder, running it under
  ``python -m compat``;
* :mod:`helpers.record_builders`: tiny record files of every record-reading pipeline.
"""
