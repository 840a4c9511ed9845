"""NumPy 1 for the script's own code: every name NumPy 2 (and 1.20-1.24) removed, and old behaviour.

Add a removed NumPy name to the table of :mod:`compat.numpy1.removed`; the byte
helpers (``tostring`` / binary ``fromstring``) are :mod:`compat.numpy1.bytes_helpers`.
Imports nothing heavy; nothing here changes NumPy itself.
"""
