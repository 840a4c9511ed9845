"""networkx 1.x–2.x names that 2016–2020 code used and networkx 2.0–3.0 removed (``G.node``,
``G.edges_iter()``, ``G.add_path``, ``nx.connected_component_subgraphs``, ``nx.to_numpy_matrix``,
``nx.info``, ...), with their old semantics: the table is :mod:`compat.networkx_legacy.removed`,
:mod:`compat.networkx_legacy.surface` declares the surface, :mod:`compat.networkx_legacy.uses`
finds the uses for ``compat check``."""
