"""networkx names that 1.x–2.x code called and networkx 2.0, 2.4 and 3.0 removed, with their old semantics.

Facts from networkx's "Migration guide from 1.X to 2.0" and the 2.4 and 3.0 release notes:

* 2.0 removed the ``_iter`` methods (``nodes_iter``, ``edges_iter``, ``neighbors_iter``,
  ``adjacency_iter``, ``degree_iter``, ``successors_iter``, ...: today the methods
  without ``_iter``, which return views or iterators) and ``G.edge`` (``G.adj``);
  1.x's ``adjacency_list()`` went with them.
* 2.4 removed ``G.node`` (``G.nodes``), ``G.add_path/add_cycle/add_star``,
  ``G.nodes_with_selfloops/selfloop_edges/number_of_selfloops`` (the ``nx.`` functions),
  ``G.fresh_copy`` and ``nx.connected_component_subgraphs`` with the weakly,
  strongly, biconnected and attracting variants (``G.subgraph(c).copy()`` for each
  component).
* 3.0 removed ``to_numpy_matrix``/``from_numpy_matrix`` (``to_numpy_array``/
  ``from_numpy_array``), ``to_scipy_sparse_matrix``/``from_scipy_sparse_matrix``
  (``*_sparse_array``), ``adj_matrix``, ``nx.info`` (``str(G)``) and
  ``read_gpickle``/``write_gpickle`` (``pickle``), and ``adjacency_matrix`` returns a
  SciPy sparse *array* (``A * x`` is elementwise) where it returned a sparse matrix.

Importing this module imports the standard library only; networkx, NumPy and SciPy are
imported when a row is used.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Any

from compat.errors import LegacyAPIError
from compat.library_legacy.callers import called_from_script, run_option
from compat.surfaces.table_patches import Removed, Replaced, const, wrapper

__all__ = ["METHODS", "REMOVED", "REPLACED"]


def _nx() -> Any:
    return importlib.import_module("networkx")


# --------------------------------------------------------------------------
# Graph methods (removed in 2.0 and 2.4)
# --------------------------------------------------------------------------

def nodes_iter(self: Any, data: Any = False) -> Iterator[Any]:
    """``G.nodes_iter(data=False)``: an iterator over the nodes (``(node, attrs)`` with ``data``)."""
    return iter(self.nodes(data=data))


def edges_iter(self: Any, nbunch: Any = None, data: Any = False, **kwargs: Any) -> Iterator[Any]:
    """``G.edges_iter(nbunch=None, data=False)``: an iterator over the edges."""
    return iter(self.edges(nbunch, data=data, **kwargs))


def neighbors_iter(self: Any, n: Any) -> Iterator[Any]:
    """``G.neighbors_iter(n)``: an iterator over the neighbours of ``n``."""
    return iter(self.neighbors(n))


def adjacency_iter(self: Any) -> Iterator[Any]:
    """``G.adjacency_iter()``: ``(node, neighbour dict)`` for each node."""
    return iter(self.adj.items())


def adjacency_list(self: Any) -> list[list[Any]]:
    """``G.adjacency_list()``: the list of each node's neighbours, in node order."""
    return [list(neighbours) for _, neighbours in self.adjacency()]


def degree_iter(self: Any, nbunch: Any = None, weight: Any = None) -> Iterator[Any]:
    """``G.degree_iter(nbunch=None, weight=None)``: ``(node, degree)`` pairs."""
    return iter(self.degree(nbunch, weight=weight))


def _view_iter(view: str) -> Callable[..., Iterator[Any]]:
    """A DiGraph ``<view>_iter(nbunch=None, data=False)`` method: an iterator over ``G.<view>(...)``."""
    def method(self: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
        return iter(getattr(self, view)(*args, **kwargs))
    method.__name__ = f"{view}_iter"
    method.__doc__ = f"``G.{view}_iter(...)``: an iterator over ``G.{view}(...)``."
    return method


def _function_method(name: str, as_list: bool = False) -> Callable[..., Any]:
    """``G.<name>(...)``: ``nx.<name>(G, ...)`` (a list where 1.x returned one)."""
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        found = getattr(_nx(), name)(self, *args, **kwargs)
        return list(found) if as_list else found
    method.__name__ = name
    method.__doc__ = f"``G.{name}(...)``: ``networkx.{name}(G, ...)``."
    return method


def fresh_copy(self: Any) -> Any:
    """``G.fresh_copy()``: an empty graph of the same class."""
    return self.__class__()


#: Graph methods: name -> (replacement, value).
_GRAPH_METHODS: dict[str, tuple[str, Any]] = {
    "node": ("G.nodes", property(lambda self: self.nodes)),
    "edge": ("G.adj", property(lambda self: self.adj)),
    "nodes_iter": ("G.nodes()", nodes_iter),
    "edges_iter": ("G.edges()", edges_iter),
    "neighbors_iter": ("G.neighbors(n)", neighbors_iter),
    "adjacency_iter": ("G.adj.items()", adjacency_iter),
    "adjacency_list": ("[list(nbrs) for n, nbrs in G.adjacency()]", adjacency_list),
    "degree_iter": ("G.degree()", degree_iter),
    "add_path": ("networkx.add_path(G, nodes)", _function_method("add_path")),
    "add_cycle": ("networkx.add_cycle(G, nodes)", _function_method("add_cycle")),
    "add_star": ("networkx.add_star(G, nodes)", _function_method("add_star")),
    "nodes_with_selfloops": ("networkx.nodes_with_selfloops(G)", _function_method("nodes_with_selfloops", True)),
    "selfloop_edges": ("networkx.selfloop_edges(G)", _function_method("selfloop_edges", True)),
    "number_of_selfloops": ("networkx.number_of_selfloops(G)", _function_method("number_of_selfloops")),
    "fresh_copy": ("G.__class__()", fresh_copy),
}

_DIGRAPH_VIEWS = ("successors", "predecessors", "in_edges", "out_edges", "in_degree", "out_degree")


# --------------------------------------------------------------------------
# Module-level functions (removed in 2.4 and 3.0)
# --------------------------------------------------------------------------

def _component_subgraphs(components: str) -> Callable[..., Iterator[Any]]:
    """``nx.<kind>_component_subgraphs(G, copy=True)``: a generator of the subgraph of each component
    (a copy unless ``copy=False``)."""
    def subgraphs(G: Any, copy: bool = True) -> Iterator[Any]:  # noqa: N803 - networkx's name
        for nodes in getattr(_nx(), components)(G):
            graph = G.subgraph(nodes)
            yield graph.copy() if copy else graph
    subgraphs.__name__ = components.replace("components", "component_subgraphs")
    return subgraphs


def _biconnected_component_subgraphs(G: Any, copy: bool = True) -> Iterator[Any]:  # noqa: N803
    """``nx.biconnected_component_subgraphs(G, copy=True)``: the subgraph on each biconnected component's edges."""
    for edges in _nx().biconnected_component_edges(G):
        graph = G.edge_subgraph(edges)
        yield graph.copy() if copy else graph


def to_numpy_matrix(G: Any, nodelist: Any = None, dtype: Any = None, order: Any = None,  # noqa: N803
                    multigraph_weight: Any = sum, weight: str = "weight", nonedge: float = 0.0) -> Any:
    """``nx.to_numpy_matrix``: ``numpy.asmatrix(nx.to_numpy_array(...))`` (a ``numpy.matrix``)."""
    import numpy as np
    return np.asmatrix(_nx().to_numpy_array(G, nodelist=nodelist, dtype=dtype, order=order,
                                            multigraph_weight=multigraph_weight, weight=weight, nonedge=nonedge))


def from_numpy_matrix(A: Any, parallel_edges: bool = False, create_using: Any = None) -> Any:  # noqa: N803
    """``nx.from_numpy_matrix``: ``nx.from_numpy_array(numpy.asarray(A), ...)``."""
    import numpy as np
    return _nx().from_numpy_array(np.asarray(A), parallel_edges=parallel_edges, create_using=create_using)


def _as_sparse_matrix(array: Any, format: str = "csr") -> Any:  # noqa: A002 - networkx's name
    """A SciPy sparse *matrix* (``*`` the matrix product, as networkx < 3 returned) of ``array``."""
    import scipy.sparse
    return scipy.sparse.csr_matrix(array).asformat(format)


def to_scipy_sparse_matrix(G: Any, nodelist: Any = None, dtype: Any = None, weight: str = "weight",  # noqa: N803
                           format: str = "csr") -> Any:  # noqa: A002 - networkx's name
    """``nx.to_scipy_sparse_matrix``: ``nx.to_scipy_sparse_array(...)`` as a sparse matrix."""
    return _as_sparse_matrix(_nx().to_scipy_sparse_array(G, nodelist=nodelist, dtype=dtype, weight=weight), format)


def from_scipy_sparse_matrix(A: Any, parallel_edges: bool = False, create_using: Any = None,  # noqa: N803
                             edge_attribute: str = "weight") -> Any:
    """``nx.from_scipy_sparse_matrix``: ``nx.from_scipy_sparse_array``."""
    return _nx().from_scipy_sparse_array(A, parallel_edges=parallel_edges, create_using=create_using,
                                         edge_attribute=edge_attribute)


def adj_matrix(G: Any, nodelist: Any = None, dtype: Any = None, weight: str = "weight") -> Any:  # noqa: N803
    """``nx.adj_matrix``: the adjacency matrix as a SciPy sparse matrix."""
    return to_scipy_sparse_matrix(G, nodelist=nodelist, dtype=dtype, weight=weight)


def info(G: Any, n: Any = None) -> str:  # noqa: N803 - networkx's name
    """``nx.info(G, n=None)``: networkx 2.4's summary text (name, type, node and edge counts, average
    degree to 4 places), or one node's degree and neighbours."""
    if n is not None:
        if n not in G:
            raise _nx().NetworkXError(f"node {n} not in graph")
        return (f"Node {n} has the following properties:\nDegree: {G.degree(n)}\nNeighbors: "
                + " ".join(str(neighbour) for neighbour in G.neighbors(n)))
    text = (f"Name: {G.name}\nType: {type(G).__name__}\nNumber of nodes: {G.number_of_nodes()}\n"
            f"Number of edges: {G.number_of_edges()}\n")
    count = G.number_of_nodes()
    if count:
        if G.is_directed():
            text += f"Average in degree: {sum(d for _, d in G.in_degree()) / count:8.4f}\n"
            text += f"Average out degree: {sum(d for _, d in G.out_degree()) / count:8.4f}"
        else:
            text += f"Average degree: {sum(d for _, d in G.degree()) / count:8.4f}"
    return text


_PICKLE_MESSAGE = ("networkx.{name} was removed in networkx 3.0 (a pickle file can run code when it is read); "
                   "use pickle.{call} on a file you trust, or run with --allow-pickle to let the script's "
                   "{name} use pickle for files you trust")


def read_gpickle(path: Any) -> Any:
    """``nx.read_gpickle(path)``: refused (pickle) unless the run allows pickle (``--allow-pickle``)."""
    if not run_option("allow_pickle", False):
        raise LegacyAPIError(_PICKLE_MESSAGE.format(name="read_gpickle", call="load(open(path, 'rb'))"))
    import pickle
    with open(path, "rb") as handle:
        return pickle.load(handle)  # noqa: S301 - the user allowed pickle for this run


def write_gpickle(G: Any, path: Any, protocol: int = -1) -> None:  # noqa: N803
    """``nx.write_gpickle(G, path)``: refused with ``read_gpickle`` (its files are only read back by pickle)."""
    if not run_option("allow_pickle", False):
        raise LegacyAPIError(_PICKLE_MESSAGE.format(name="write_gpickle", call="dump(G, open(path, 'wb'))"))
    import pickle
    with open(path, "wb") as handle:
        pickle.dump(G, handle, protocol)


def _old_adjacency_matrix(current: Callable[..., Any]) -> Callable[..., Any]:
    """``nx.adjacency_matrix`` returning a sparse matrix to the script's own calls (networkx < 3)."""
    def adjacency_matrix(*args: Any, **kwargs: Any) -> Any:
        found = current(*args, **kwargs)
        return _as_sparse_matrix(found) if called_from_script() else found
    return wrapper(current, adjacency_matrix)


def _returns_array(current: Any) -> bool:
    """True if the installed ``adjacency_matrix`` is networkx 3's (it returns a sparse array)."""
    return int(str(_nx().__version__).split(".")[0]) >= 3


# --------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------

_MODULE_FUNCTIONS: dict[str, tuple[str, Any]] = {
    "connected_component_subgraphs": ("(G.subgraph(c).copy() for c in networkx.connected_components(G))",
                                      _component_subgraphs("connected_components")),
    "weakly_connected_component_subgraphs": ("(G.subgraph(c).copy() for c in "
                                             "networkx.weakly_connected_components(G))",
                                             _component_subgraphs("weakly_connected_components")),
    "strongly_connected_component_subgraphs": ("(G.subgraph(c).copy() for c in "
                                               "networkx.strongly_connected_components(G))",
                                               _component_subgraphs("strongly_connected_components")),
    "attracting_component_subgraphs": ("(G.subgraph(c).copy() for c in networkx.attracting_components(G))",
                                       _component_subgraphs("attracting_components")),
    "biconnected_component_subgraphs": ("(G.edge_subgraph(e).copy() for e in "
                                        "networkx.biconnected_component_edges(G))", _biconnected_component_subgraphs),
    "to_numpy_matrix": ("networkx.to_numpy_array", to_numpy_matrix),
    "from_numpy_matrix": ("networkx.from_numpy_array", from_numpy_matrix),
    "to_scipy_sparse_matrix": ("networkx.to_scipy_sparse_array", to_scipy_sparse_matrix),
    "from_scipy_sparse_matrix": ("networkx.from_scipy_sparse_array", from_scipy_sparse_matrix),
    "adj_matrix": ("networkx.adjacency_matrix", adj_matrix),
    "info": ("str(G)", info),
    "read_gpickle": ("pickle.load (refused unless --allow-pickle)", read_gpickle),
    "write_gpickle": ("pickle.dump (refused unless --allow-pickle)", write_gpickle),
}

#: owner (``module`` or ``module:Class``) -> removed name -> what it was.
REMOVED: dict[str, dict[str, Removed]] = {
    "networkx": {name: Removed(replacement, const(value)) for name, (replacement, value) in _MODULE_FUNCTIONS.items()},
    "networkx:Graph": {name: Removed(replacement, const(value), receiver="graph")
                       for name, (replacement, value) in _GRAPH_METHODS.items()},
    "networkx:DiGraph": {f"{view}_iter": Removed(f"G.{view}()", const(_view_iter(view)), receiver="graph")
                         for view in _DIGRAPH_VIEWS},
}

#: owner -> name -> when networkx's own value has the new behaviour, and the wrapper that gives the old one.
REPLACED: dict[str, dict[str, Replaced]] = {
    "networkx": {"adjacency_matrix": Replaced("networkx.adjacency_matrix(G) (a sparse array today)",
                                              _returns_array, _old_adjacency_matrix)},
}

#: The removed methods ``compat check`` looks for on any object of a module importing networkx.
METHODS: dict[str, str] = {
    **{name: replacement for name, (replacement, _) in _GRAPH_METHODS.items() if name not in ("node", "edge")},
    **{f"{view}_iter": f"G.{view}()" for view in _DIGRAPH_VIEWS},
}
