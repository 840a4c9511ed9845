"""Old notebooks under the compat runner: ``compat run NB.ipynb``, the ``tf1-compat`` kernel, ``%load_ext compat``.

* :mod:`compat.notebook.cells`: one cell's source to a rewritten tree (IPython
  magics and shell escapes first, then :func:`compat.runner.rewrite.parse_legacy`
  per cell, so Python 2 cells and Python 3 cells can be mixed);
* :mod:`compat.notebook.extension`: the IPython extension behind ``%load_ext compat``
  and the kernel (every later cell is compiled as the user's own TF1 code);
* :mod:`compat.notebook.kernelspec`: ``compat kernel install|uninstall`` and the
  in-process spec that ``compat run`` uses without installing anything;
* :mod:`compat.notebook.execute`: ``compat run NB.ipynb`` (nbclient, the original never written);
* :mod:`compat.notebook.check`: ``compat check NB.ipynb``, per cell;
* :mod:`compat.notebook.cli`: the command line of the three.

Importing this package imports nothing heavy and changes nothing.
"""
