"""The Python 3 standard library of 2016-2019 for the script's own code (names removed in Python 3.7-3.13)."""
