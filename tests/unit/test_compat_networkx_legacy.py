"""``compat.networkx_legacy``: networkx 1.x–2.x graph methods and functions, with their old values.

Values are checked against what the old functions were documented to return, computed
here by hand or with today's networkx functions named in the migration guide.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import networkx
import numpy as np
import pytest
import scipy.sparse

from compat.errors import LegacyAPIError
from compat.library_legacy.callers import remember_scope
from compat.networkx_legacy.surface import SURFACE
from compat.surfaces import Context, as_use
from compat.surfaces.table_patches import TablePatches

#: Typed Any: the old names exist only while the table is applied.
nx: Any = networkx


@pytest.fixture
def patched() -> Iterator[TablePatches]:
    assert SURFACE.patches is not None
    patches = SURFACE.patches()
    patches.apply(networkx)
    yield patches
    patches.undo()


def graph() -> Any:
    g = nx.Graph()
    g.add_path([1, 2, 3, 4])
    g.add_cycle([10, 11, 12])
    g.add_star([20, 21, 22])
    g.add_edge(4, 4)
    g.node[1]["colour"] = "red"
    return g


def test_graph_methods_of_1x(patched: TablePatches) -> None:
    g = graph()
    assert sorted(g.edges()) == [(1, 2), (2, 3), (3, 4), (4, 4), (10, 11), (10, 12), (11, 12), (20, 21), (20, 22)]
    assert g.node[1] == {"colour": "red"} and g.edge[1][2] == {}
    iterator = g.nodes_iter(data=True)
    assert not isinstance(iterator, list) and dict(iterator)[1] == {"colour": "red"}
    assert sorted(g.edges_iter(2)) == [(2, 1), (2, 3)]
    assert sorted(g.neighbors_iter(2)) == [1, 3]
    assert dict(g.degree_iter([1, 2])) == {1: 1, 2: 2}
    assert {n: sorted(nbrs) for n, nbrs in g.adjacency_iter()}[20] == [21, 22]
    assert g.adjacency_list()[0] == [2]  # node 1's neighbours, in node order
    assert g.nodes_with_selfloops() == [4] and g.selfloop_edges() == [(4, 4)] and g.number_of_selfloops() == 1
    assert type(g.fresh_copy()) is nx.Graph and len(g.fresh_copy()) == 0
    d = nx.DiGraph([(1, 2), (1, 3), (3, 2)])
    assert sorted(d.successors_iter(1)) == [2, 3] and sorted(d.predecessors_iter(2)) == [1, 3]
    assert sorted(d.in_edges_iter(2)) == [(1, 2), (3, 2)] and dict(d.out_degree_iter())[1] == 2


def test_component_subgraphs_are_copies_of_each_component(patched: TablePatches) -> None:
    g = graph()
    subgraphs = sorted(nx.connected_component_subgraphs(g), key=min)
    assert [sorted(s.nodes()) for s in subgraphs] == [[1, 2, 3, 4], [10, 11, 12], [20, 21, 22]]
    subgraphs[0].add_node(99)
    assert 99 not in g  # a copy, as copy=True gave
    blocks = sorted(sorted(b.edges()) for b in nx.biconnected_component_subgraphs(nx.Graph(g.edges())))
    assert [(10, 11), (10, 12), (11, 12)] in blocks
    d = nx.DiGraph([(1, 2), (2, 1), (2, 3)])
    assert sorted(sorted(s) for s in nx.strongly_connected_component_subgraphs(d)) == [[1, 2], [3]]


def test_matrices_of_2x(patched: TablePatches) -> None:
    g = nx.Graph()
    g.add_weighted_edges_from([(0, 1, 2.0), (1, 2, 3.0)])
    expected = np.array([[0, 2, 0], [2, 0, 3], [0, 3, 0]], dtype=float)
    matrix = nx.to_numpy_matrix(g)
    assert isinstance(matrix, np.matrix) and np.array_equal(matrix, expected)
    assert sorted(nx.from_numpy_matrix(matrix).edges(data="weight")) == [(0, 1, 2.0), (1, 2, 3.0)]
    sparse = nx.to_scipy_sparse_matrix(g)
    assert scipy.sparse.isspmatrix_csr(sparse) and np.array_equal(sparse.toarray(), expected)
    vector = np.ones(3)
    # a sparse *matrix*: `*` is the matrix product, as networkx < 3 gave the script
    assert np.array_equal(nx.adjacency_matrix(g) * vector, expected @ vector)
    assert np.array_equal(nx.adj_matrix(g).toarray(), expected)
    assert sorted(nx.from_scipy_sparse_matrix(sparse).edges()) == [(0, 1), (1, 2)]


def test_info_is_networkx_24s_text(patched: TablePatches) -> None:
    g = nx.path_graph(3)
    assert nx.info(g) == ("Name: \nType: Graph\nNumber of nodes: 3\nNumber of edges: 2\n"
                          "Average degree:   1.3333")
    assert nx.info(g, 1) == "Node 1 has the following properties:\nDegree: 2\nNeighbors: 0 2"
    d = nx.DiGraph([(0, 1)])
    assert nx.info(d).endswith("Average in degree:   0.5000\nAverage out degree:   0.5000")


def test_gpickle_refused_unless_the_run_allows_pickle(patched: TablePatches, tmp_path: Path) -> None:
    path = tmp_path / "g.gpickle"
    with pytest.raises(LegacyAPIError, match=r"pickle\.dump.*--allow-pickle"):
        nx.write_gpickle(nx.path_graph(3), path)
    undo = remember_scope(Context(scope=None, helpers=None, options={"allow_pickle": True}))
    try:
        nx.write_gpickle(nx.path_graph(3), path)
        assert sorted(nx.read_gpickle(path).edges()) == [(0, 1), (1, 2)]
    finally:
        undo()
    with pytest.raises(LegacyAPIError, match=r"pickle\.load"):
        nx.read_gpickle(path)


def test_undo_gives_networkx_its_own_objects_back() -> None:
    assert SURFACE.patches is not None
    adjacency = nx.adjacency_matrix
    patches = SURFACE.patches()
    patches.apply(networkx)
    assert hasattr(nx.Graph, "node") and nx.adjacency_matrix is not adjacency
    patches.undo()
    assert not hasattr(nx.Graph, "node") and not hasattr(nx.DiGraph, "successors_iter")
    assert not hasattr(nx, "to_numpy_matrix") and nx.adjacency_matrix is adjacency


def test_compat_check_reports_each_use() -> None:
    assert SURFACE.uses is not None
    tree = ast.parse("import networkx as nx\n"
                     "G = nx.Graph()\n"
                     "G.add_path([1, 2, 3])\n"
                     "for c in nx.connected_component_subgraphs(G): pass\n"
                     "print(G.node[1], list(G.edges_iter()))\n"
                     "from networkx import to_numpy_matrix\n")
    found = sorted((u.node.lineno if isinstance(u.node, (ast.stmt, ast.expr)) else 0, u.construct)
                   for u in map(as_use, SURFACE.uses(tree)))
    assert found == [(3, "G.add_path"), (4, "nx.connected_component_subgraphs"), (5, "G.edges_iter"),
                     (5, "G.node"), (6, "networkx.to_numpy_matrix")]
    assert list(SURFACE.uses(ast.parse("x = tree.node[0]\n"))) == []  # no networkx import: nothing
