"""imageio 2 calls whose meaning imageio 2.28 and later changed, for the script's own calls.

Facts from imageio's changelog and the 2.9 sources (``plugins/pillowmulti.py``, ``plugins/pillow.py``):

* Up to 2.27, an animated GIF was written by the legacy Pillow GIF writer: ``duration``
  in *seconds* (one number or one per frame), ``fps=10`` when no duration was given
  (0.1 s a frame) and ``loop=0`` (loop forever) by default. 2.28 ("Expose v3 plugins
  via v2 API") writes GIFs with the v3 Pillow plugin, which passes ``duration`` to
  Pillow in *milliseconds*, has no frame rate and no loop by default (the GIF plays
  once). The script's ``mimsave``/``mimwrite``/``get_writer`` of a GIF get the old units
  and defaults back; calls from other libraries keep today's.
* ``imread(uri, as_gray=True)`` converted the image to a float32 'F' image (ITU-R 601-2
  luma, unrounded); the v3 Pillow plugin refuses ``as_gray`` and names ``mode='F'``.
* The top-level ``imageio.imread``/``mimread``/... still work and only warn; nothing to give back.

Importing this module imports the standard library only; imageio is imported when a row is used.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from compat.library_legacy.callers import called_from_script
from compat.surfaces.table_patches import Replaced, wrapper

__all__ = ["OLD_GIF_FPS", "REPLACED", "gif_keywords", "is_gif"]

#: The legacy GIF writer's frame rate when no duration was given.
OLD_GIF_FPS = 10.0

_GIF_FORMATS = frozenset({"gif", ".gif", "gif-pil"})


def is_gif(uri: Any, format: Any = None) -> bool:  # noqa: A002 - imageio's name
    """True if a write of ``uri`` (a path or name) with ``format`` makes a GIF."""
    if format is not None:
        return str(format).lower() in _GIF_FORMATS
    if isinstance(uri, (str, os.PathLike)):
        return os.fspath(uri).lower().endswith(".gif")
    return False


def gif_keywords(kwargs: dict[str, Any]) -> dict[str, Any]:
    """imageio <= 2.27's GIF keywords in today's units: ``duration`` seconds -> milliseconds
    (a list per frame), ``fps`` (default 10) -> ``1000 / fps`` ms when no duration, ``loop=0``."""
    kwargs = dict(kwargs)
    fps = kwargs.pop("fps", None)
    duration = kwargs.pop("duration", None)
    if duration is None:
        rate = OLD_GIF_FPS if fps is None else float(fps)
        if rate <= 0:
            raise ValueError(f"GIF writer: fps={fps!r} must be positive")
        kwargs["duration"] = 1000.0 / rate
    elif isinstance(duration, (list, tuple)):
        kwargs["duration"] = [1000.0 * float(d) for d in duration]
    else:
        kwargs["duration"] = 1000.0 * float(duration)
    loop = float(kwargs.pop("loop", 0))
    kwargs["loop"] = 0 if loop <= 0 or loop == float("inf") else int(loop)
    return kwargs


def _old_gif_writer(current: Callable[..., Any]) -> Callable[..., Any]:
    """``mimsave``/``mimwrite``/``get_writer`` with the old GIF units for the script's own calls."""
    # Where ``format`` comes positionally: mimwrite(uri, ims, format), get_writer(uri, format).
    format_position = 0 if current.__name__ == "get_writer" else 1

    def call(uri: Any, *args: Any, **kwargs: Any) -> Any:
        format_ = kwargs.get("format", args[format_position] if len(args) > format_position else None)
        if called_from_script() and is_gif(uri, format_):
            kwargs = gif_keywords(kwargs)
        return current(uri, *args, **kwargs)
    return wrapper(current, call)


def _old_imread(current: Callable[..., Any]) -> Callable[..., Any]:
    """``imread`` accepting ``as_gray=True``: the image as a float32 'F' image (after ``pilmode``, if given)."""
    def imread(uri: Any, *args: Any, **kwargs: Any) -> Any:
        if not kwargs.pop("as_gray", False):
            return current(uri, *args, **kwargs)
        if kwargs.get("pilmode") is None:
            kwargs["pilmode"] = "F"
            return current(uri, *args, **kwargs)
        import numpy as np
        from PIL import Image
        return np.asarray(Image.fromarray(np.asarray(current(uri, *args, **kwargs))).convert("F"))
    return wrapper(current, imread)


def _v3_era(current: Any) -> bool:
    """True for imageio >= 2.28 (its v2 functions write GIFs through the v3 Pillow plugin)."""
    import imageio
    major, minor = (int(part) for part in str(imageio.__version__).split(".")[:2])
    return (major, minor) >= (2, 28)


def _entries() -> dict[str, Replaced]:
    gif = Replaced("duration= in milliseconds, loop=0 (imageio >= 2.28)", _v3_era, _old_gif_writer)
    return {"mimsave": gif, "mimwrite": gif, "get_writer": gif,
            "imread": Replaced("imread(uri, mode='F')", _v3_era, _old_imread)}


#: owner -> name -> when imageio's own value has the new behaviour, and the wrapper that gives the old one.
REPLACED: dict[str, dict[str, Replaced]] = {"imageio": _entries(), "imageio.v2": _entries()}
