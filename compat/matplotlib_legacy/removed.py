"""Matplotlib names and arguments that 2016–2020 code used and Matplotlib 3.x removed, with their old semantics.

:data:`REMOVED` maps an owner - a module (``"matplotlib.cm"``) or a class of a
module (``"matplotlib.axes:Axes"``) - to the names it lost and what each one
was. The compat runner adds a name to the real owner (once its module is
loaded) only where the owner lacks it, and takes it away again when the script
ends. :data:`REPLACED` lists names Matplotlib still has whose old calls it now
refuses (``hist(normed=True)``, ``fig.gca(projection='3d')``,
``matplotlib.use('Agg', warn=False)``): for the script's run the runner puts a
wrapper in their place that turns the old call into today's, and puts
Matplotlib's own value back afterwards. Importing this module imports NumPy
only; Matplotlib is imported when a function runs.

Each function follows the documented behaviour of the last Matplotlib that had
it; the modern spelling is in :attr:`Removed.replacement`, which ``compat
check`` shows. The tables at the end (:data:`MODULE_ALIASES`, :data:`OLD_KEYWORDS`,
:data:`OLD_VALUES`) are what ``compat check`` reads to find uses without
running the script.
"""
from __future__ import annotations

import importlib
import inspect
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from compat.surfaces.table_patches import WRAPPER_MARK, Removed, Replaced, accepts, const, wrapper

__all__ = ["MODULE_ALIASES", "OLD_KEYWORDS", "OLD_VALUES", "REMOVED", "REPLACED", "Removed", "Replaced",
           "WRAPPER_MARK", "old_seaborn_style"]

def _takes_keywords(function: Any) -> bool:
    """True if ``function`` takes any argument besides ``self`` (``gca`` lost its keywords in 3.6)."""
    try:
        return any(name != "self" for name in inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return True


# --------------------------------------------------------------------------
# matplotlib.cm (get_cmap, register_cmap: removed in 3.9)
# --------------------------------------------------------------------------

def get_cmap(name: Any = None, lut: int | None = None) -> Any:
    """``matplotlib.cm.get_cmap``: the colormap named ``name`` (default ``rcParams['image.cmap']``),
    resampled to ``lut`` entries when ``lut`` is given; a :class:`~matplotlib.colors.Colormap`
    passed as ``name`` is returned as it is (``lut`` ignored, as Matplotlib <= 3.8 did)."""
    import matplotlib
    from matplotlib import colors
    if name is None:
        name = matplotlib.rcParams["image.cmap"]
    if isinstance(name, colors.Colormap):
        return name
    try:
        cmap = matplotlib.colormaps[name]
    except KeyError:
        raise ValueError(f"get_cmap: {name!r} is not a known colormap name "
                         f"(today: matplotlib.colormaps[name]; list(matplotlib.colormaps) names them)") from None
    return cmap if lut is None else cmap.resampled(lut)


def register_cmap(name: str | None = None, cmap: Any = None, *, override_builtin: bool = False) -> None:
    """``matplotlib.cm.register_cmap``: add ``cmap`` under ``name`` (default ``cmap.name``).

    Registering a name again replaces that colormap with a warning, as Matplotlib
    3.4–3.8 did. A built-in colormap is never replaced: today's registry refuses it
    even with ``override_builtin=True`` (ValueError).
    """
    import matplotlib
    if name is None:
        name = getattr(cmap, "name", None)
        if name is None:
            raise ValueError(f"register_cmap: give a name or a Colormap, got cmap={cmap!r} "
                             f"(today: matplotlib.colormaps.register(cmap, name=name))")
    registry = matplotlib.colormaps
    # force=True replaces (and warns about) a registered colormap; the registry refuses built-in ones.
    registry.register(cmap, name=name, force=name in registry)


# --------------------------------------------------------------------------
# matplotlib.mlab (removed in 3.1, deprecated in 2.2)
# --------------------------------------------------------------------------

def normpdf(x: Any, *args: Any) -> Any:
    """``mlab.normpdf(x, mu, sigma)``: the normal density ``exp(-(x - mu)^2 / (2 sigma^2)) / (sqrt(2 pi) sigma)``."""
    mu, sigma = args
    return 1.0 / (np.sqrt(2 * np.pi) * sigma) * np.exp(-0.5 * (1.0 / sigma * (np.asarray(x) - mu)) ** 2)


def bivariate_normal(X: Any, Y: Any, sigmax: float = 1.0, sigmay: float = 1.0,  # noqa: N803 - mlab's names
                     mux: float = 0.0, muy: float = 0.0, sigmaxy: float = 0.0) -> Any:
    """``mlab.bivariate_normal``: the bivariate Gaussian density at ``(X, Y)`` (arrays of one shape), with
    correlation ``rho = sigmaxy / (sigmax sigmay)`` (``sigmaxy`` is the covariance)."""
    xmu = np.asarray(X) - mux
    ymu = np.asarray(Y) - muy
    rho = sigmaxy / (sigmax * sigmay)
    z = xmu ** 2 / sigmax ** 2 + ymu ** 2 / sigmay ** 2 - 2 * rho * xmu * ymu / (sigmax * sigmay)
    denominator = 2 * np.pi * sigmax * sigmay * np.sqrt(1 - rho ** 2)
    return np.exp(-z / (2 * (1 - rho ** 2))) / denominator


def frange(xini: float, xfin: float | None = None, delta: float | None = None, **kw: Any) -> np.ndarray:
    """``mlab.frange([start,] stop[, step], closed=1, npts=None)``: floats from ``start`` (default 0) by
    ``step`` (default 1), the endpoint included unless ``closed=0``; ``npts`` fixes the number of points
    (and overrides ``step``). ``frange(3)`` is ``[0, 1, 2, 3]``."""
    endpoint = kw.get("closed", 1) != 0
    if xfin is None:  # frange(stop): start is 0, as with range()
        xini, xfin = 0.0, xini + 0.0
    if delta is None:
        delta = 1.0
    if "npts" in kw:
        npts = kw["npts"]
        delta = (xfin - xini) / (npts - endpoint)
    else:
        # The nearest count: the last point may be up to delta/2 beyond xfin, as mlab's was.
        npts = int(np.round((xfin - xini) / delta)) + endpoint
    return np.arange(npts) * delta + xini


def find(condition: Any) -> np.ndarray:
    """``mlab.find``: the indices where ``ravel(condition)`` is true."""
    return np.nonzero(np.ravel(condition))[0]


# --------------------------------------------------------------------------
# hold (removed in 3.0: hold was always on from then), colour cycle, background colour
# --------------------------------------------------------------------------

def hold(*args: Any, **kwargs: Any) -> None:
    """``plt.hold`` / ``Axes.hold`` / ``Figure.hold``: a no-op. Matplotlib 3.0 removed the hold state and
    kept the behaviour of ``hold(True)``, its long-time default; ``hold(False)`` (clear the axes before the
    next plot) is not emulated: call ``ax.cla()`` / ``plt.clf()``."""


def ishold(*args: Any) -> bool:
    """``plt.ishold()`` / ``Axes.ishold()``: True, hold being always on since Matplotlib 3.0."""
    return True


def set_color_cycle(self: Any, clist: Iterable[Any]) -> None:
    """``Axes.set_color_cycle(clist)``: the colours of later plot calls, ``set_prop_cycle(color=clist)``."""
    self.set_prop_cycle(color=list(clist))


def set_axis_bgcolor(self: Any, color: Any) -> None:
    """``Axes.set_axis_bgcolor(color)``: ``set_facecolor(color)``."""
    self.set_facecolor(color)


def get_axis_bgcolor(self: Any) -> Any:
    """``Axes.get_axis_bgcolor()``: ``get_facecolor()``."""
    return self.get_facecolor()


# --------------------------------------------------------------------------
# Canvas: tostring_rgb (removed in 3.10), tostring_argb, window titles (removed in 3.6)
# --------------------------------------------------------------------------

def tostring_rgb(self: Any) -> bytes:
    """``FigureCanvasAgg.tostring_rgb()``: the rendered image as RGB bytes, row by row (height x width x 3).

    Like the old method, it reads the last rendering: call ``canvas.draw()`` first.
    """
    return np.asarray(self.buffer_rgba())[..., :3].tobytes()


def tostring_argb(self: Any) -> bytes:
    """``FigureCanvasAgg.tostring_argb()``: the rendered image as ARGB bytes (after ``canvas.draw()``)."""
    return np.asarray(self.buffer_rgba())[..., [3, 0, 1, 2]].tobytes()


def set_window_title(self: Any, title: str) -> None:
    """``FigureCanvasBase.set_window_title(title)``: the figure manager's, if the canvas has a manager."""
    if getattr(self, "manager", None) is not None:
        self.manager.set_window_title(title)


def get_window_title(self: Any) -> str | None:
    """``FigureCanvasBase.get_window_title()``: the figure manager's title, None without a manager."""
    manager = getattr(self, "manager", None)
    return None if manager is None else manager.get_window_title()


# --------------------------------------------------------------------------
# Wrappers of names Matplotlib kept (REPLACED)
# --------------------------------------------------------------------------

def _old_use(current: Callable[..., Any]) -> Callable[..., Any]:
    """``matplotlib.use(backend, warn=..., force=...)``: ``warn`` (removed in 3.3) is accepted and ignored."""
    def use(backend: str, warn: Any = None, force: bool | None = None) -> Any:
        # force is passed on only when given, so today's default applies otherwise.
        return current(backend) if force is None else current(backend, force=force)
    return wrapper(current, use)


def _old_normed(current: Callable[..., Any]) -> Callable[..., Any]:
    """``Axes.hist`` / ``hist2d`` accepting ``normed=`` (removed in 3.1): it is ``density=``."""
    def method(self: Any, *args: Any, normed: Any = None, **kwargs: Any) -> Any:
        if normed is not None:
            if kwargs.get("density"):
                # Matplotlib 2.1–3.0 refused both; pyplot.hist always passes density=False, which is no conflict.
                raise ValueError(f"{current.__name__}: give density= or the old normed=, not both "
                                 f"(got density={kwargs['density']!r}, normed={normed!r}); "
                                 f"today: density={bool(normed)!r}")
            kwargs["density"] = bool(normed)
        return current(self, *args, **kwargs)
    return wrapper(current, method)


def _old_axes_init(current: Callable[..., Any]) -> Callable[..., Any]:
    """Axes construction (``add_subplot``, ``add_axes``, ``plt.subplot``, ``plt.axes``, ...) accepting
    ``axisbg=`` / ``axis_bgcolor=`` (removed in 2.2): they are ``facecolor=``."""
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N807 - it is the __init__ it wraps
        for old in ("axisbg", "axis_bgcolor"):
            if old not in kwargs:
                continue
            color = kwargs.pop(old)
            if kwargs.get("facecolor") is not None:
                raise TypeError(f"Axes: {old}={color!r} and facecolor={kwargs['facecolor']!r} are aliases; "
                                f"give one (today: facecolor=)")
            kwargs["facecolor"] = color
        current(self, *args, **kwargs)
    return wrapper(current, __init__)


def _old_adjustable(current: Callable[..., Any]) -> Callable[..., Any]:
    """``set_adjustable`` (and so ``set_aspect(adjustable=)`` and ``Axes(adjustable=)``) accepting
    ``'box-forced'`` (removed in 3.1): since 2.2 ``'box'`` does what it did, shared axes included."""
    def set_adjustable(self: Any, adjustable: str, *args: Any, **kwargs: Any) -> Any:
        return current(self, "box" if adjustable == "box-forced" else adjustable, *args, **kwargs)
    return wrapper(current, set_adjustable)


def _old_figure_gca(current: Callable[..., Any]) -> Callable[..., Any]:
    """``Figure.gca(**kwargs)`` (keywords removed in 3.6), as Matplotlib <= 3.3 did it: the current axes
    if they were made with these projection keywords, else a new ``add_subplot(1, 1, 1, **kwargs)``."""
    def gca(self: Any, **kwargs: Any) -> Any:
        if not kwargs:
            return current(self)
        axes = current(self) if self.axes else None
        if axes is not None:
            if _made_with(self, axes, kwargs):
                return axes
            warnings.warn("Requested projection is different from current axis projection, creating new "
                          "axis with requested projection.", stacklevel=2)
        return self.add_subplot(1, 1, 1, **kwargs)
    return wrapper(current, gca)


def _made_with(figure: Any, axes: Any, kwargs: dict[str, Any]) -> bool:
    """True if ``axes`` were created with the projection class and keywords ``kwargs`` ask for
    (the comparison ``pyplot.subplot`` makes to reuse axes)."""
    process = getattr(figure, "_process_projection_requirements", None)
    made = getattr(axes, "_projection_init", None)
    if process is None or made is None:
        return False  # cannot tell: a new Axes, as old Matplotlib made for any mismatch
    return bool(made == process(**kwargs))


def _old_pyplot_gca(current: Callable[..., Any]) -> Callable[..., Any]:
    """``pyplot.gca(**kwargs)``: ``gcf().gca(**kwargs)`` (with :func:`_old_figure_gca`'s semantics)."""
    def gca(**kwargs: Any) -> Any:
        if not kwargs:
            return current()
        return importlib.import_module("matplotlib.pyplot").gcf().gca(**kwargs)
    return wrapper(current, gca)


def old_seaborn_style(style: Any) -> Any:
    """The style name Matplotlib >= 3.6 has for an old seaborn one (``'seaborn-whitegrid'`` ->
    ``'seaborn-v0_8-whitegrid'``), in a name or a list of names; anything else unchanged."""
    if isinstance(style, str):
        if style.startswith("seaborn") and not style.startswith("seaborn-v0_8"):
            renamed = "seaborn-v0_8" + style[len("seaborn"):]
            library = importlib.import_module("matplotlib.style").library
            return renamed if renamed in library and style not in library else style
        return style
    if isinstance(style, list):
        return [old_seaborn_style(item) for item in style]
    return style


def _needs_seaborn_names(current: Callable[..., Any]) -> bool:
    """True if the installed styles lack the old seaborn names (renamed in 3.6, removed in 3.8)."""
    library = importlib.import_module("matplotlib.style").library
    return "seaborn-whitegrid" not in library and "seaborn-v0_8-whitegrid" in library


def _old_style_use(current: Callable[..., Any]) -> Callable[..., Any]:
    """``matplotlib.style.use`` (and so ``style.context``) accepting the old seaborn style names."""
    def use(style: Any) -> Any:
        return current(old_seaborn_style(style))
    return wrapper(current, use)


# --------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------

_MLAB: dict[str, Removed] = {
    "normpdf": Removed("scipy.stats.norm.pdf(x, mu, sigma)", const(normpdf)),
    "bivariate_normal": Removed("scipy.stats.multivariate_normal(...).pdf", const(bivariate_normal)),
    "frange": Removed("numpy.arange / numpy.linspace (frange includes the endpoint)", const(frange)),
    "find": Removed("numpy.nonzero(numpy.ravel(condition))[0]", const(find)),
}

_HOLD: dict[str, Removed] = {
    "hold": Removed("no call: hold is always on; clear with cla()/clf()", const(hold)),
    "ishold": Removed("no call: hold is always on", const(ishold)),
}

#: owner (``module`` or ``module:Class``) -> removed name -> what it was.
REMOVED: dict[str, dict[str, Removed]] = {
    "matplotlib.cm": {
        "get_cmap": Removed("matplotlib.colormaps[name] (.resampled(lut))", const(get_cmap)),
        "register_cmap": Removed("matplotlib.colormaps.register(cmap, name=name)", const(register_cmap)),
    },
    "matplotlib.mlab": _MLAB,
    # Old pylab re-exported these mlab functions and pyplot's hold.
    "matplotlib.pylab": {**_MLAB, **_HOLD},
    "matplotlib.pyplot": _HOLD,
    "matplotlib.axes:Axes": {
        **_HOLD,
        "set_color_cycle": Removed("ax.set_prop_cycle(color=colors)", const(set_color_cycle)),
        "set_axis_bgcolor": Removed("ax.set_facecolor(color)", const(set_axis_bgcolor)),
        "get_axis_bgcolor": Removed("ax.get_facecolor()", const(get_axis_bgcolor)),
    },
    "matplotlib.figure:Figure": {"hold": _HOLD["hold"]},
    "matplotlib.backends.backend_agg:FigureCanvasAgg": {
        "tostring_rgb": Removed("numpy.asarray(canvas.buffer_rgba())[..., :3]", const(tostring_rgb)),
        "tostring_argb": Removed("numpy.asarray(canvas.buffer_rgba()) (RGBA order)", const(tostring_argb)),
    },
    "matplotlib.backend_bases:FigureCanvasBase": {
        "set_window_title": Removed("fig.canvas.manager.set_window_title(title)", const(set_window_title),
                                    receiver="canvas"),
        "get_window_title": Removed("fig.canvas.manager.get_window_title()", const(get_window_title),
                                    receiver="canvas"),
    },
}

#: owner -> name -> when Matplotlib's own value refuses the old call, and the wrapper that accepts it.
REPLACED: dict[str, dict[str, Replaced]] = {
    "matplotlib": {
        "use": Replaced("matplotlib.use(backend) (warn= removed)", lambda current: not accepts(current, "warn"),
                        _old_use),
    },
    "matplotlib.style": {
        "use": Replaced("the 'seaborn-v0_8-...' style names", _needs_seaborn_names, _old_style_use),
    },
    "matplotlib.pyplot": {
        "gca": Replaced("plt.subplot(projection=...) / plt.axes(...)", lambda current: not _takes_keywords(current),
                        _old_pyplot_gca),
    },
    "matplotlib.axes:Axes": {
        name: Replaced("density=", lambda current: not accepts(current, "normed"), _old_normed)
        for name in ("hist", "hist2d")
    },
    "matplotlib.axes._base:_AxesBase": {
        "__init__": Replaced("facecolor=", lambda current: not accepts(current, "axisbg"), _old_axes_init),
        # Always wrapped: only 'box-forced' is changed, which every Matplotlib >= 3.1 refuses.
        "set_adjustable": Replaced("adjustable='box'", lambda current: True, _old_adjustable),
    },
    "matplotlib.figure:Figure": {
        "gca": Replaced("fig.add_subplot(projection=...)", lambda current: not _takes_keywords(current),
                        _old_figure_gca),
    },
}

# --------------------------------------------------------------------------
# What `compat check` reads
# --------------------------------------------------------------------------

#: Module paths reached through another module's attribute (``plt.cm`` is ``matplotlib.cm``).
MODULE_ALIASES: dict[str, str] = {
    "pylab": "matplotlib.pylab",
    "matplotlib.pyplot.cm": "matplotlib.cm",
    "matplotlib.pylab.cm": "matplotlib.cm",
    "matplotlib.pyplot.style": "matplotlib.style",
    "matplotlib.pylab.style": "matplotlib.style",
    "matplotlib.pylab.mlab": "matplotlib.mlab",
}

_AXISBG = {"axisbg": "facecolor= (the runner passes it as facecolor)",
           "axis_bgcolor": "facecolor= (the runner passes it as facecolor)"}
_NORMED = {"normed": "density= (the runner passes normed as density)"}

#: Call -> old keyword -> what the runner does. A call is ``.method`` (any receiver) or a module
#: function's full name; ``*`` is any keyword.
OLD_KEYWORDS: dict[str, dict[str, str]] = {
    ".hist": _NORMED,
    ".hist2d": _NORMED,
    ".add_subplot": _AXISBG,
    ".add_axes": _AXISBG,
    ".subplot": _AXISBG,
    ".axes": _AXISBG,
    ".gca": {"*": "gca() with keywords: the runner returns the current axes if they match, "
                  "else a new add_subplot(1, 1, 1, **kwargs), as Matplotlib <= 3.3 did"},
    "matplotlib.use": {"warn": "the runner accepts and ignores warn= (removed in Matplotlib 3.3)"},
}

#: Call -> (positional index or None, keyword) of an argument whose old string values the runner
#: maps, the test of such a value, and what the runner does.
OLD_VALUES: dict[str, tuple[int | None, str, Callable[[str], bool], str]] = {
    ".set_aspect": (None, "adjustable", lambda value: value == "box-forced",
                    "adjustable='box-forced' (removed in 3.1): the runner passes 'box'"),
    ".set_adjustable": (0, "adjustable", lambda value: value == "box-forced",
                        "'box-forced' (removed in 3.1): the runner passes 'box'"),
    "matplotlib.style.use": (0, "style", lambda value: value.startswith("seaborn")
                             and not value.startswith("seaborn-v0_8"),
                             "old seaborn style name: the runner uses 'seaborn-v0_8-...' (renamed in 3.6)"),
    "matplotlib.style.context": (0, "style", lambda value: value.startswith("seaborn")
                                 and not value.startswith("seaborn-v0_8"),
                                 "old seaborn style name: the runner uses 'seaborn-v0_8-...' (renamed in 3.6)"),
}
