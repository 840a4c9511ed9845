"""Python 2 modules of the script: recognised, translated with fissix, run with Python 2 semantics.

* :mod:`compat.py2.translate` - which modules are Python 2, and their in-memory
  translation (line numbers kept);
* :mod:`compat.py2.runtime` - what translated modules call at run time
  (Python 2 division, byte-reading text files, ``round``, ``print``);
* :mod:`compat.py2.text` - TensorFlow's strings (``Example`` values, ``sess.run``
  results, ``py_func`` arguments) as Python 2 text; :mod:`compat.py2.pickle2` -
  Python 2 pickles' ``str`` likewise;
* :mod:`compat.py2.tabs` - indentation mixing tabs and spaces, read as Python 2 read it.
"""
