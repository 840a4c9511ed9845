"""The networkx surface: the graph methods and functions networkx 2.0–3.0 removed, while a script runs."""
from __future__ import annotations

from compat.library_legacy.callers import remember_scope
from compat.networkx_legacy.uses import find_uses
from compat.surfaces import Surface
from compat.surfaces.table_patches import TablePatches

__all__ = ["SURFACE", "make_patches"]


def make_patches() -> TablePatches:
    """The networkx table for one run (:mod:`compat.networkx_legacy.removed`)."""
    from compat.networkx_legacy import removed
    return TablePatches(removed.REMOVED, removed.REPLACED)


SURFACE = Surface(
    name="networkx_legacy",
    summary="networkx 1.x-2.x: G.node, G.edges_iter(), G.add_path, connected_component_subgraphs, "
            "to_numpy_matrix, nx.info, adjacency_matrix as a sparse matrix; gpickle refused unless --allow-pickle",
    patches=make_patches,
    before_tensorflow=remember_scope,
    uses=find_uses,
)
