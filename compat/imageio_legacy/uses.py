"""The imageio 2 calls whose meaning changed, in one module, for ``compat check``; imageio is not imported."""
from __future__ import annotations

import ast

from compat.imageio_legacy.removed import is_gif
from compat.library_legacy.uses import Uses, finder
from compat.surfaces.source_pass import short

__all__ = ["USES", "find_uses"]

_WRITERS = ("mimsave", "mimwrite", "get_writer")


def _gif_write(node: ast.Call, full: str | None) -> tuple[str, str] | None:
    """A ``mimsave``/``mimwrite``/``get_writer`` of a ``.gif`` name (or ``format='GIF'``)."""
    if full is None or full.rpartition(".")[2] not in _WRITERS or not node.args:
        return None
    target = node.args[0]
    name = target.value if isinstance(target, ast.Constant) else None
    format_ = next((k.value.value for k in node.keywords
                    if k.arg == "format" and isinstance(k.value, ast.Constant)), None)
    if not (isinstance(name, str) or format_) or not is_gif(name, format_):
        return None  # a target only known at run time: the runner still converts it, check cannot tell
    return (short(node), "imageio >= 2.28 takes a GIF's duration= in milliseconds and loops it once; the runner "
                         "gives the script's call imageio 2's seconds, fps=10 and loop=0")


USES = Uses(
    library="imageio",
    roots=("imageio",),
    keywords={"imread": {"as_gray": "mode='F'"}},
    call=_gif_write,
)

#: The surface's ``uses`` hook.
find_uses = finder(USES)
