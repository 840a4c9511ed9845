"""The Python 3 standard library of 2016-2019 for the script's own code: names removed in Python 3.7-3.13
(:mod:`compat.stdlib.removed`, :mod:`compat.stdlib.rewrite`), and behaviour changed under names that
remain: generators ending on ``StopIteration`` (:mod:`compat.stdlib.generators`, PEP 479), ``async``
/ ``await`` as names (:mod:`compat.stdlib.keywords`), ``random`` (:mod:`compat.stdlib.random_legacy`),
regular expressions' global flags (:mod:`compat.stdlib.regex_flags`)."""
