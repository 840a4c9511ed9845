"""``compat.matplotlib_legacy``: what Matplotlib 3.x removed, with the old semantics, and ``compat check``'s view.

The old functions are checked against independent computations (the Gaussian
formulas written out, ``np.histogram``, today's colormap registry, the canvas
buffer), and the patches against the real Matplotlib: added only where missing,
wrapped only where the installed value refuses the old call, and undone to the
very objects Matplotlib had (identity checks). Everything runs on the Agg backend.
"""
from __future__ import annotations

import ast
import importlib
import math
import types
from collections.abc import Iterator

import matplotlib

matplotlib.use("Agg")  # before pyplot: no window, the same everywhere

import matplotlib.backend_bases  # noqa: E402
import matplotlib.backends.backend_agg  # noqa: E402
import matplotlib.cm  # noqa: E402
import matplotlib.colors  # noqa: E402
import matplotlib.figure  # noqa: E402
import matplotlib.mlab  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.style  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.axes._base import _AxesBase  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

from compat.matplotlib_legacy import removed  # noqa: E402
from compat.matplotlib_legacy import uses as matplotlib_uses  # noqa: E402
from compat.matplotlib_legacy.patches import MatplotlibPatches  # noqa: E402


def load_patched_modules(patches: MatplotlibPatches) -> list[types.ModuleType]:
    """Import every module the patches name (as a script would) and apply them, as the runner does."""
    modules = [importlib.import_module(name) for name in sorted(patches.modules)]
    for module in modules:
        patches.apply(module)
    return modules


@pytest.fixture
def patched() -> Iterator[MatplotlibPatches]:
    patches = MatplotlibPatches()
    load_patched_modules(patches)
    yield patches
    patches.undo()
    plt.close("all")


# --------------------------------------------------------------------------
# mlab
# --------------------------------------------------------------------------

def test_normpdf_is_the_gaussian_density() -> None:
    x = np.linspace(-3.0, 5.0, 17)
    mu, sigma = 1.0, 1.5
    expected = [math.exp(-((v - mu) ** 2) / (2 * sigma ** 2)) / (sigma * math.sqrt(2 * math.pi)) for v in x]
    np.testing.assert_allclose(removed.normpdf(x, mu, sigma), expected, rtol=1e-13)
    assert removed.normpdf(0.0, 0.0, 1.0) == pytest.approx(1 / math.sqrt(2 * math.pi))


def test_bivariate_normal_is_the_correlated_gaussian_density() -> None:
    X, Y = np.meshgrid(np.linspace(-2, 2, 5), np.linspace(-1, 3, 5))  # noqa: N806
    sx, sy, mx, my, sxy = 1.2, 0.7, 0.3, 1.0, 0.25
    covariance = np.array([[sx ** 2, sxy], [sxy, sy ** 2]])
    inverse = np.linalg.inv(covariance)
    d = np.stack([X - mx, Y - my], axis=-1)
    quadratic = np.einsum("...i,ij,...j->...", d, inverse, d)
    expected = np.exp(-quadratic / 2) / (2 * np.pi * np.sqrt(np.linalg.det(covariance)))
    np.testing.assert_allclose(removed.bivariate_normal(X, Y, sx, sy, mx, my, sxy), expected, rtol=1e-12)
    # Defaults: the standard normal, 1 / (2 pi) at the origin.
    assert removed.bivariate_normal(0.0, 0.0) == pytest.approx(1 / (2 * np.pi))


def test_frange_includes_the_endpoint_unless_closed_is_0() -> None:
    np.testing.assert_allclose(removed.frange(3), [0.0, 1.0, 2.0, 3.0])
    np.testing.assert_allclose(removed.frange(3, closed=0), [0.0, 1.0, 2.0])
    np.testing.assert_allclose(removed.frange(1, 6.5, npts=5), [1.0, 2.375, 3.75, 5.125, 6.5])
    np.testing.assert_allclose(removed.frange(-2, 2, 0.5), np.linspace(-2, 2, 9))


def test_find_gives_the_flat_indices_of_true() -> None:
    np.testing.assert_array_equal(removed.find(np.array([[0, 3], [0, 5]]) > 1), [1, 3])
    assert removed.find([False, False]).size == 0


# --------------------------------------------------------------------------
# colormaps
# --------------------------------------------------------------------------

def test_get_cmap_resamples_like_the_registry(patched: MatplotlibPatches) -> None:
    values = np.arange(5)
    got = plt.cm.get_cmap("viridis", 5)
    np.testing.assert_array_equal(got(values), matplotlib.colormaps["viridis"].resampled(5)(values))
    assert got.N == 5
    unsampled = matplotlib.cm.get_cmap("plasma")
    np.testing.assert_array_equal(unsampled(np.linspace(0, 1, 7)), matplotlib.colormaps["plasma"](np.linspace(0, 1, 7)))
    with matplotlib.rc_context({"image.cmap": "magma"}):
        assert matplotlib.cm.get_cmap().name == "magma"
    own = matplotlib.colors.ListedColormap(["r", "g"])
    assert matplotlib.cm.get_cmap(own, 9) is own  # a Colormap is returned as it is


def test_get_cmap_names_an_unknown_colormap_and_the_replacement() -> None:
    with pytest.raises(ValueError, match=r"'no-such-map' is not a known colormap.*matplotlib\.colormaps\[name\]"):
        removed.get_cmap("no-such-map")


def test_register_cmap_then_get_cmap(patched: MatplotlibPatches) -> None:
    cmap = matplotlib.colors.ListedColormap([[0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 0.0, 1.0]], name="compat_blue_red")
    try:
        matplotlib.cm.register_cmap(cmap=cmap)
        np.testing.assert_array_equal(matplotlib.cm.get_cmap("compat_blue_red")([0, 1]), cmap([0, 1]))
        with pytest.warns(UserWarning, match="compat_blue_red"):  # registering again replaces, with a warning
            matplotlib.cm.register_cmap("compat_blue_red", cmap.reversed())
        np.testing.assert_array_equal(matplotlib.cm.get_cmap("compat_blue_red")([0]), [[1.0, 0.0, 0.0, 1.0]])
    finally:
        matplotlib.colormaps.unregister("compat_blue_red")


# --------------------------------------------------------------------------
# Axes: hist(normed=), axisbg, hold, colour cycle, box-forced
# --------------------------------------------------------------------------

DATA = np.array([0.1, 0.4, 0.45, 1.2, 1.3, 1.31, 2.5, 2.6, 3.9, 4.0, 4.0])


def bar_heights(patches: object) -> np.ndarray:
    return np.array([bar.get_height() for bar in patches])  # type: ignore[attr-defined]


def test_hist_normed_is_density(patched: MatplotlibPatches) -> None:
    density, edges = np.histogram(DATA, bins=6, density=True)
    ax = plt.figure().add_subplot(111)
    heights, bins, bars = ax.hist(DATA, bins=6, normed=True)
    np.testing.assert_allclose(heights, density)
    np.testing.assert_allclose(bar_heights(bars), density)
    np.testing.assert_allclose(bins, edges)
    counts, _, _ = ax.hist(DATA, bins=6, normed=False)
    np.testing.assert_array_equal(counts, np.histogram(DATA, bins=6)[0])
    # pyplot.hist passes density=False itself: normed=True still wins.
    plt.figure()
    heights, _, _ = plt.hist(DATA, 6, normed=1)
    np.testing.assert_allclose(heights, density)
    with pytest.raises(ValueError, match=r"density=True, normed=True.*today: density=True"):
        ax.hist(DATA, density=True, normed=True)


def test_hist2d_normed_is_density(patched: MatplotlibPatches) -> None:
    ax = plt.figure().add_subplot(111)
    counts, _, _, _ = ax.hist2d(DATA, DATA[::-1], bins=3, normed=True)
    expected, _, _ = np.histogram2d(DATA, DATA[::-1], bins=3, density=True)
    np.testing.assert_allclose(counts, expected)


def test_axisbg_and_axis_bgcolor_are_facecolor(patched: MatplotlibPatches) -> None:
    fig = plt.figure()
    red, green = matplotlib.colors.to_rgba("r"), matplotlib.colors.to_rgba("g")
    assert fig.add_subplot(221, axisbg="r").get_facecolor() == red
    assert fig.add_axes((0.6, 0.6, 0.3, 0.3), axis_bgcolor="g").get_facecolor() == green
    assert plt.subplot(223, axisbg="g").get_facecolor() == green
    assert plt.axes((0.1, 0.1, 0.2, 0.2), axisbg="r").get_facecolor() == red
    with pytest.raises(TypeError, match=r"axisbg='r' and facecolor='g'.*today: facecolor="):
        fig.add_subplot(224, axisbg="r", facecolor="g")
    ax = fig.add_subplot(224)
    ax.set_axis_bgcolor("b")
    assert ax.get_axis_bgcolor() == ax.get_facecolor() == matplotlib.colors.to_rgba("b")


def test_hold_is_a_no_op_and_always_on(patched: MatplotlibPatches) -> None:
    ax = plt.figure().add_subplot(111)
    assert plt.hold(True) is None and ax.hold(False) is None and plt.gcf().hold() is None
    assert ax.ishold() is True and plt.ishold() is True
    ax.plot([0, 1])
    ax.plot([1, 0])
    assert len(ax.lines) == 2  # plotting adds, as with hold on


def test_set_color_cycle_sets_the_line_colours(patched: MatplotlibPatches) -> None:
    ax = plt.figure().add_subplot(111)
    ax.set_color_cycle(["r", "g"])
    lines = [ax.plot([0, i])[0] for i in range(3)]
    assert [line.get_color() for line in lines] == ["r", "g", "r"]


def test_box_forced_is_box(patched: MatplotlibPatches) -> None:
    fig = plt.figure()
    ax1 = fig.add_subplot(121)
    ax2 = fig.add_subplot(122, sharey=ax1)
    ax2.set_aspect("equal", adjustable="box-forced")
    ax1.set_adjustable("box-forced")
    assert ax1.get_adjustable() == ax2.get_adjustable() == "box"
    ax1.set_adjustable("datalim")
    assert ax1.get_adjustable() == "datalim"
    with pytest.raises(ValueError, match="'boxed' is not a valid value"):  # Matplotlib's own check remains
        ax1.set_adjustable("boxed")


# --------------------------------------------------------------------------
# Figure.gca / pyplot.gca with keywords
# --------------------------------------------------------------------------

def test_figure_gca_with_keywords_reuses_matching_axes_else_makes_new(patched: MatplotlibPatches) -> None:
    fig = plt.figure()
    polar = fig.gca(projection="polar")
    assert polar.name == "polar" and fig.axes == [polar]
    assert fig.gca(projection="polar") is polar  # matches: the current axes
    assert fig.gca() is polar
    with pytest.warns(UserWarning, match="Requested projection is different"):
        flat = fig.gca(projection="rectilinear")
    assert flat.name == "rectilinear" and fig.axes == [polar, flat]


def test_pyplot_gca_with_keywords(patched: MatplotlibPatches) -> None:
    plt.figure()
    ax = plt.gca(projection="3d")
    assert ax.name == "3d" and plt.gca() is ax and plt.gca(projection="3d") is ax


# --------------------------------------------------------------------------
# matplotlib.use, styles, canvas
# --------------------------------------------------------------------------

def test_use_accepts_and_ignores_warn(patched: MatplotlibPatches) -> None:
    matplotlib.use("Agg", warn=False)
    matplotlib.use("agg", True, force=True)  # positional warn, as in Matplotlib 2.x
    assert matplotlib.get_backend().lower() == "agg"


def test_old_seaborn_style_names_give_the_v0_8_styles(patched: MatplotlibPatches) -> None:
    assert removed.old_seaborn_style("seaborn-whitegrid") == "seaborn-v0_8-whitegrid"
    assert removed.old_seaborn_style(["seaborn", "ggplot"]) == ["seaborn-v0_8", "ggplot"]
    assert removed.old_seaborn_style("seaborn-v0_8-dark") == "seaborn-v0_8-dark"
    keys = ("axes.facecolor", "axes.grid", "grid.color", "axes.prop_cycle", "font.size")
    with plt.style.context("seaborn-v0_8-darkgrid"):
        expected = {key: matplotlib.rcParams[key] for key in keys}
    with plt.style.context("seaborn-darkgrid"):  # context calls style.use
        assert {key: matplotlib.rcParams[key] for key in keys} == expected
    with matplotlib.rc_context():
        matplotlib.style.use(["seaborn-darkgrid"])
        assert {key: matplotlib.rcParams[key] for key in keys} == expected


def test_tostring_rgb_is_the_rgb_of_the_buffer(patched: MatplotlibPatches) -> None:
    fig = plt.figure(figsize=(2, 1), dpi=50)
    fig.add_subplot(111).plot([0, 1], [1, 0], "r")
    fig.canvas.draw()
    rgba = np.asarray(fig.canvas.buffer_rgba())
    data = fig.canvas.tostring_rgb()
    assert data == rgba[..., :3].tobytes()
    image = np.frombuffer(data, dtype=np.uint8).reshape(fig.canvas.get_width_height()[::-1] + (3,))
    assert image.shape == (50, 100, 3)
    assert removed.tostring_argb(fig.canvas) == np.roll(rgba, 1, axis=-1).tobytes()


def test_canvas_window_title_goes_to_the_manager(patched: MatplotlibPatches) -> None:
    fig = plt.figure()
    fig.canvas.set_window_title("old title")
    assert fig.canvas.manager.get_window_title() == "old title" == fig.canvas.get_window_title()
    assert FigureCanvasAgg(matplotlib.figure.Figure()).get_window_title() is None  # no manager


# --------------------------------------------------------------------------
# The patches: only what is missing, and undone
# --------------------------------------------------------------------------

def installed() -> dict[str, object]:
    """Matplotlib's own values of everything the patches replace."""
    return {
        "use": matplotlib.use, "style.use": matplotlib.style.use, "pyplot.gca": plt.gca,
        "hist": Axes.__dict__["hist"], "hist2d": Axes.__dict__["hist2d"], "init": _AxesBase.__dict__["__init__"],
        "set_adjustable": _AxesBase.__dict__["set_adjustable"], "tostring_argb": FigureCanvasAgg.tostring_argb,
        "pyplot.get_cmap": plt.get_cmap,
    }


def test_undo_restores_the_installed_objects_and_removes_the_added_names() -> None:
    before = installed()
    assert "gca" not in matplotlib.figure.Figure.__dict__  # inherited from FigureBase
    patches = MatplotlibPatches()
    load_patched_modules(patches)
    assert matplotlib.use is not before["use"] and Axes.__dict__["hist"] is not before["hist"]
    assert matplotlib.cm.get_cmap is removed.get_cmap and matplotlib.mlab.normpdf is removed.normpdf
    # Names Matplotlib 3.11 still has are left alone.
    assert FigureCanvasAgg.tostring_argb is before["tostring_argb"] and plt.get_cmap is before["pyplot.get_cmap"]
    patches.undo()
    after = installed()
    assert all(after[key] is before[key] for key in before), [k for k in before if after[k] is not before[k]]
    assert "gca" not in matplotlib.figure.Figure.__dict__
    for owner, name in [(matplotlib.cm, "get_cmap"), (matplotlib.mlab, "frange"), (plt, "hold"),
                        (Axes, "set_color_cycle"), (FigureCanvasAgg, "tostring_rgb"),
                        (matplotlib.backend_bases.FigureCanvasBase, "set_window_title")]:
        assert not hasattr(owner, name), name


def test_apply_is_idempotent_and_a_rebinding_survives_undo() -> None:
    before = installed()
    patches = MatplotlibPatches()
    load_patched_modules(patches)
    wrapped_hist = Axes.hist
    load_patched_modules(patches)  # again: nothing wrapped twice
    assert Axes.hist is wrapped_hist and getattr(Axes.hist, "__wrapped__", None) is before["hist"]
    patches.apply(types.ModuleType("matplotlib_unrelated"))  # not a patched module: nothing happens
    own = object()
    matplotlib.mlab.find = own  # the script's own value
    try:
        patches.undo()
        assert matplotlib.mlab.find is own
    finally:
        del matplotlib.mlab.find
    assert installed()["hist"] is before["hist"]


def test_every_removed_name_is_missing_from_the_installed_matplotlib() -> None:
    # The table holds only what Matplotlib lost (tostring_argb: added only where a version lacks it).
    still_there = {"tostring_argb"}
    for key, names in removed.REMOVED.items():
        module_name, _, class_name = key.partition(":")
        owner = importlib.import_module(module_name)
        owner = getattr(owner, class_name) if class_name else owner
        assert {name for name in names if hasattr(owner, name)} <= still_there, key


# --------------------------------------------------------------------------
# compat check
# --------------------------------------------------------------------------

def constructs(source: str) -> list[str]:
    return [construct for _, construct, _ in matplotlib_uses.bridged_uses(ast.parse(source))]


def test_check_finds_the_old_uses() -> None:
    source = (
        "import matplotlib\nmatplotlib.use('Agg', warn=False)\nimport matplotlib.pyplot as plt\n"
        "from matplotlib import mlab\nfrom matplotlib.mlab import normpdf\nimport pylab\n"
        "cmap = plt.cm.get_cmap('jet')\ny = mlab.bivariate_normal(1, 2)\nplt.hold(True)\n"
        "ax = plt.gca()\nax.hist([1], normed=True)\nax.set_axis_bgcolor('r')\nfig = plt.gcf()\n"
        "fig.canvas.set_window_title('t')\nfig.canvas.manager.set_window_title('t')\n"
        "fig.gca(projection='3d')\nplt.style.use('seaborn-dark')\nplt.style.use('seaborn-v0_8-dark')\n"
        "ax.set_aspect('equal', adjustable='box-forced')\nfig.add_subplot(111, axisbg='r')\n"
        "z = pylab.frange(3)\nplt.gca()\n"
    )
    assert constructs(source) == [
        "matplotlib.use('Agg', warn=False)", "matplotlib.mlab.normpdf", "plt.cm.get_cmap",
        "mlab.bivariate_normal", "plt.hold", "ax.hist([1], normed=True)", "ax.set_axis_bgcolor",
        "fig.canvas.set_window_title", "fig.gca(projection='3d')", "plt.style.use('seaborn-dark')",
        "ax.set_aspect('equal', adjustable='box-forced')", "fig.add_subplot(111, axisbg='r')", "pylab.frange",
    ]


def test_check_ignores_modules_without_matplotlib() -> None:
    assert constructs("import numpy as np\nnp.histogram([1], normed=True)\nx.hold(1)\nfig.gca(a=1)\n") == []
