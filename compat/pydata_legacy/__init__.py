"""scikit-learn and pandas names that 2016–2020 code used and later releases removed (``TSNE(n_iter=)``,
``OneHotEncoder(sparse=)``, ``sklearn.cross_validation``, ``Imputer``, ``DataFrame.as_matrix``,
``.append``, ``.ix``, ``pd.rolling_mean``, ...), with their old semantics: the tables are
:mod:`compat.pydata_legacy.sklearn_removed` and :mod:`compat.pydata_legacy.pandas_removed`,
:mod:`compat.pydata_legacy.patches` applies them for the runner's process."""
