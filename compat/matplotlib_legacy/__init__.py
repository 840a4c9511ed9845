"""Matplotlib names and arguments that 2016–2020 plotting code used and Matplotlib 3.x removed
(``cm.get_cmap``, ``hist(normed=)``, ``fig.gca(projection=)``, ``mlab.normpdf``, ``tostring_rgb``, ...):
the table is :mod:`compat.matplotlib_legacy.removed`, :mod:`compat.matplotlib_legacy.patches` applies it."""
