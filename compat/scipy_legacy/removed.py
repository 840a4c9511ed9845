"""SciPy names that 2016–2020 code called and today's SciPy has removed, with their old semantics.

:data:`REMOVED` maps a SciPy module to the names it lost and what each one was.
The compat runner adds a name to the real module (once that module is loaded)
only where the module lacks it, and takes it away again when the script ends,
so SciPy's own code, which never uses them, is unaffected. :data:`REPLACED`
lists names SciPy still has but whose old calls it now refuses (``interp2d``
raises on construction, ``pinv`` lost ``cond``/``rcond``): the runner puts the
old behaviour in their place for the script's run and puts SciPy's back after.
Importing this module imports NumPy only.

Each function follows the documented behaviour of the last SciPy that had it,
and where SciPy kept the computation under a new name it is called (the new
name is in :attr:`Removed.replacement`, which the runner's messages and
``compat check`` show).
"""
from __future__ import annotations

import importlib
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from compat.surfaces.table_patches import Removed, Replaced, accepts, const, wrapper

__all__ = ["REMOVED", "REPLACED", "Removed", "Replaced", "numpy_aliases", "top_level_removed"]


def _attr(dotted: str) -> Callable[[], Any]:
    module, _, name = dotted.rpartition(".")
    return lambda: getattr(importlib.import_module(module), name)


# --------------------------------------------------------------------------
# scipy: the NumPy functions SciPy re-exported at its top level
# --------------------------------------------------------------------------

#: Old ``scipy.sqrt(-1)`` was ``1j``: SciPy's top level took these from ``numpy.lib.scimath``.
_SCIMATH = ("sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh")


def numpy_aliases(present: Callable[[str], bool]) -> dict[str, Removed]:
    """The names old ``scipy`` re-exported from NumPy (``scipy.zeros``, ``scipy.pi``, ``scipy.rand``,
    ``scipy.ifft``, scimath's ``scipy.sqrt``) that ``present`` says the running SciPy lacks."""
    names: dict[str, Removed] = {}
    for name in dir(np):
        value = getattr(np, name, None)
        if name.startswith("_") or value is None or type(value).__name__ == "module":
            continue
        names[name] = Removed(f"numpy.{name}", const(value))
    names.update({name: Removed(f"numpy.random.{name}", const(getattr(np.random, name)))
                  for name in ("rand", "randn")})
    names.update({name: Removed(f"numpy.fft.{name}", const(getattr(np.fft, name)))
                  for name in ("ifft", "fftfreq", "fftshift", "ifftshift")})
    names.update({name: Removed(f"numpy.emath.{name} (complex results for negative input)",
                                const(getattr(np.emath, name))) for name in _SCIMATH})
    return {name: entry for name, entry in names.items() if not present(name)}


def top_level_removed(scipy: types.ModuleType) -> dict[str, Removed]:
    """:func:`numpy_aliases` for the loaded ``scipy`` package: a name is present if the package
    holds it or it is one of the subpackages it loads on first access (``scipy.fft``, ``scipy.linalg``)."""
    submodules = frozenset(getattr(scipy, "submodules", ()) or getattr(scipy, "__all__", ()))
    return numpy_aliases(lambda attr: attr in scipy.__dict__ or attr in submodules)


# --------------------------------------------------------------------------
# scipy.integrate
# --------------------------------------------------------------------------

def simps(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1, even: str = "avg") -> Any:
    """``scipy.integrate.simps``: composite Simpson's rule along ``axis``.

    An odd number of samples is Simpson's rule throughout, as ``simpson`` does today.
    For an even number, ``even`` chose as SciPy <= 1.10 did: ``'first'`` is Simpson's
    rule on the first N-1 samples plus a trapezoid on the last interval, ``'last'``
    the trapezoid on the first interval plus Simpson's rule on the rest, ``'avg'`` (the
    default) the mean of the two. Today's ``simpson`` uses another correction there.
    """
    from scipy.integrate import simpson
    y = np.asarray(y)
    count = y.shape[axis]
    if count % 2 == 1 or count < 2:
        return simpson(y, x=x, dx=dx, axis=axis)
    if even not in ("avg", "first", "last"):
        raise ValueError(f"simps: even must be 'avg', 'last' or 'first', got {even!r}")

    def part(start: int, stop: int) -> Any:
        return np.take(y, range(start, stop), axis=axis)

    def spacing(first: int, second: int) -> Any:
        if x is None:
            return dx
        xs = np.asarray(x)
        return np.take(xs, second, axis=axis if xs.ndim > 1 else -1) - np.take(
            xs, first, axis=axis if xs.ndim > 1 else -1)

    def xs_part(start: int, stop: int) -> Any:
        if x is None:
            return None
        xs = np.asarray(x)
        return np.take(xs, range(start, stop), axis=axis if xs.ndim > 1 else -1)

    def simpson_on(start: int, stop: int) -> Any:
        if stop - start < 3:  # two samples: no Simpson panel, only the trapezoid counts
            return 0.0
        return simpson(part(start, stop), x=xs_part(start, stop), dx=dx, axis=axis)

    results = []
    if even in ("avg", "first"):
        last = 0.5 * spacing(count - 2, count - 1) * (part(count - 1, count) + part(count - 2, count - 1))
        results.append(simpson_on(0, count - 1) + np.squeeze(last, axis=axis))
    if even in ("avg", "last"):
        first = 0.5 * spacing(0, 1) * (part(1, 2) + part(0, 1))
        results.append(simpson_on(1, count) + np.squeeze(first, axis=axis))
    return sum(results) / len(results)


def quadrature(func: Callable[..., Any], a: float, b: float, args: Any = (), tol: float = 1.49e-8,
               rtol: float = 1.49e-8, maxiter: int = 50, vec_func: bool = True,
               miniter: int = 1) -> tuple[float, float]:
    """``scipy.integrate.quadrature``: Gaussian quadrature of growing order until two orders agree.

    Returns ``(value, difference of the last two orders)``; warns, as SciPy did, when
    ``maxiter`` is reached first.
    """
    import warnings

    from scipy.integrate import fixed_quad
    if not isinstance(args, tuple):
        args = (args,)
    call = func if vec_func else np.vectorize(lambda t, *rest: func(t, *rest))
    value, error = np.inf, np.inf
    for order in range(max(miniter, 1), max(miniter + 1, maxiter + 1)):
        new = fixed_quad(call, a, b, args, order)[0]
        error = abs(new - value)
        value = new
        if error < tol or error < rtol * abs(value):
            break
    else:
        warnings.warn(f"maxiter ({maxiter}) exceeded. Latest difference = {error:e}", stacklevel=2)
    return value, error


# --------------------------------------------------------------------------
# scipy.signal: wavelets
# --------------------------------------------------------------------------

def ricker(points: int, a: float) -> np.ndarray:
    """``scipy.signal.ricker``: the Mexican-hat wavelet of width ``a`` on ``points`` samples centred at 0,
    ``2 / (sqrt(3 a) pi^(1/4)) (1 - t^2/a^2) exp(-t^2 / (2 a^2))``; float64, shape (points,)."""
    amplitude = 2 / (np.sqrt(3 * a) * np.pi ** 0.25)
    t = np.arange(0, points) - (points - 1.0) / 2
    return amplitude * (1 - (t / a) ** 2) * np.exp(-(t ** 2) / (2 * a ** 2))


def morlet(M: int, w: float = 5.0, s: float = 1.0, complete: bool = True) -> np.ndarray:  # noqa: N803 - SciPy's name
    """``scipy.signal.morlet``: the complex Morlet wavelet on ``M`` samples of [-2 pi s, 2 pi s]; complex128."""
    t = np.linspace(-s * 2 * np.pi, s * 2 * np.pi, M)
    wave = np.exp(1j * w * t)
    if complete:
        wave = wave - np.exp(-0.5 * w ** 2)
    return wave * np.exp(-0.5 * t ** 2) * np.pi ** (-0.25)


def morlet2(M: int, s: float, w: float = 5) -> np.ndarray:  # noqa: N803 - SciPy's name
    """``scipy.signal.morlet2``: the Morlet wavelet of width ``s`` centred on ``M`` samples, unit energy."""
    t = np.arange(0, M) - (M - 1.0) / 2
    t = t / s
    return np.exp(1j * w * t) * np.exp(-0.5 * t ** 2) * np.pi ** (-0.25) * np.sqrt(1 / s)


def cwt(data: Any, wavelet: Callable[..., np.ndarray], widths: Any, dtype: Any = None,
        **kwargs: Any) -> np.ndarray:
    """``scipy.signal.cwt``: row i is ``data`` convolved ('same') with the conjugated, reversed
    ``wavelet(min(10 w, len(data)), w)`` of ``widths[i]``; shape (len(widths), len(data))."""
    data = np.asarray(data)
    if dtype is None:
        dtype = np.complex128 if np.asarray(wavelet(1, widths[0], **kwargs)).dtype.char in "FDG" else np.float64
    output = np.empty((len(widths), len(data)), dtype=dtype)
    for index, width in enumerate(widths):
        points = min(10 * width, len(data))
        kernel = np.conj(wavelet(points, width, **kwargs)[::-1])
        output[index] = np.convolve(data, kernel, mode="same")
    return output


# --------------------------------------------------------------------------
# scipy.linalg, scipy.stats, scipy.special, scipy.spatial.distance
# --------------------------------------------------------------------------

def _rank_cutoff(a: np.ndarray, cond: float | None, rcond: float | None) -> float:
    """The relative singular-value cutoff of SciPy <= 1.6's ``pinv``/``pinv2``: ``cond`` or ``rcond``,
    else 1e3 eps (float32) or 1e6 eps (float64) of ``a``'s type."""
    if rcond is not None:
        return float(rcond)
    if cond is not None:
        return float(cond)
    single = a.dtype.char in "fF"
    return float((1e3 if single else 1e6) * np.finfo(np.float32 if single else np.float64).eps)


def pinv2(a: Any, cond: float | None = None, rcond: float | None = None, return_rank: bool = False,
          check_finite: bool = True) -> Any:
    """``scipy.linalg.pinv2``: the pseudo-inverse from the SVD, singular values below
    ``cutoff x largest`` dropped (cutoff: ``cond``/``rcond``, else 1e3/1e6 machine eps)."""
    from scipy.linalg import pinv
    a = np.asarray_chkfinite(a) if check_finite else np.asarray(a)
    return pinv(a, atol=0.0, rtol=_rank_cutoff(a, cond, rcond), return_rank=return_rank,
                check_finite=False)


def itemfreq(a: Any) -> np.ndarray:
    """``scipy.stats.itemfreq``: rows ``(value, count)`` of the sorted distinct values of ``a``, shape (k, 2)."""
    items, inverse = np.unique(a, return_inverse=True)
    counts = np.bincount(inverse.ravel())
    return np.array([items, counts]).T


def binom_test(x: Any, n: int | None = None, p: float = 0.5, alternative: str = "two-sided") -> float:
    """``scipy.stats.binom_test``: the p-value of ``x`` successes in ``n`` trials; ``x`` may be
    ``[successes, failures]`` with ``n`` None."""
    from scipy.stats import binomtest
    values = np.atleast_1d(np.asarray(x)).astype(int)
    if values.size == 2 and n is None:
        successes, trials = int(values[0]), int(values.sum())
    elif values.size == 1 and n is not None:
        successes, trials = int(values[0]), int(n)
    else:
        raise ValueError(f"binom_test: x must be an integer with n, or [successes, failures] without n; "
                         f"got x of size {values.size} and n={n!r}")
    return float(binomtest(successes, trials, p=p, alternative=alternative).pvalue)


def sph_harm(m: Any, n: Any, theta: Any, phi: Any) -> Any:
    """``scipy.special.sph_harm(m, n, theta, phi)``: theta the azimuth, phi the polar angle;
    today ``sph_harm_y(n, m, polar, azimuth)``."""
    from scipy.special import sph_harm_y
    return sph_harm_y(n, m, phi, theta)


def wminkowski(u: Any, v: Any, p: float, w: Any) -> float:
    """``scipy.spatial.distance.wminkowski``: ``(sum |w_i (u_i - v_i)|^p)^(1/p)``."""
    difference = np.abs(np.asarray(w, dtype=float) * (np.asarray(u, dtype=float) - np.asarray(v, dtype=float)))
    return float(np.sum(difference ** p) ** (1.0 / p))


def kulsinski(u: Any, v: Any, w: Any = None) -> float:
    """``scipy.spatial.distance.kulsinski`` of two boolean vectors: ``(TF + FT - TT + n) / (TF + FT + n)``."""
    u, v = np.asarray(u, dtype=bool), np.asarray(v, dtype=bool)
    weights = np.ones(u.shape) if w is None else np.asarray(w, dtype=float)
    n = weights.sum()
    tt = (weights * (u & v)).sum()
    tf = (weights * (u & ~v)).sum()
    ft = (weights * (~u & v)).sum()
    return float((tf + ft - tt + n) / (tf + ft + n))


def matching(u: Any, v: Any, w: Any = None) -> float:
    """``scipy.spatial.distance.matching``: the (weighted) share of positions where two boolean vectors differ."""
    u, v = np.asarray(u, dtype=bool), np.asarray(v, dtype=bool)
    weights = np.ones(u.shape) if w is None else np.asarray(w, dtype=float)
    return float((weights * (u != v)).sum() / weights.sum())


# --------------------------------------------------------------------------
# scipy.sparse: the properties of the matrix classes
# --------------------------------------------------------------------------

def _dense(matrix: Any) -> np.ndarray:
    """``spmatrix.A``: ``matrix.toarray()``."""
    return matrix.toarray()


def _hermitian(matrix: Any) -> Any:
    """``spmatrix.H``: the conjugate transpose, a sparse matrix."""
    return matrix.conjugate().transpose()


# --------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------

_WINDOWS = ("barthann", "bartlett", "blackman", "blackmanharris", "bohman", "boxcar", "chebwin", "cosine",
            "exponential", "flattop", "gaussian", "general_gaussian", "hamming", "hann", "kaiser", "nuttall",
            "parzen", "triang", "tukey", "dpss", "general_cosine", "general_hamming")

#: module -> removed name -> what it was (the top-level NumPy names: :func:`numpy_aliases`).
REMOVED: dict[str, dict[str, Removed]] = {
    "scipy.integrate": {
        "simps": Removed("scipy.integrate.simpson", const(simps)),
        "trapz": Removed("scipy.integrate.trapezoid", _attr("scipy.integrate.trapezoid")),
        "cumtrapz": Removed("scipy.integrate.cumulative_trapezoid", _attr("scipy.integrate.cumulative_trapezoid")),
        "quadrature": Removed("scipy.integrate.quad", const(quadrature)),
    },
    "scipy.signal": {
        **{name: Removed(f"scipy.signal.windows.{name}", _attr(f"scipy.signal.windows.{name}"))
           for name in _WINDOWS},
        "hanning": Removed("scipy.signal.windows.hann", _attr("scipy.signal.windows.hann")),
        "ricker": Removed("PyWavelets (the 'mexh' wavelet)", const(ricker)),
        "morlet": Removed("PyWavelets", const(morlet)),
        "morlet2": Removed("PyWavelets", const(morlet2)),
        "cwt": Removed("PyWavelets (pywt.cwt)", const(cwt)),
    },
    "scipy.linalg": {
        "pinv2": Removed("scipy.linalg.pinv", const(pinv2)),
        "triu": Removed("numpy.triu", const(np.triu)),
        "tril": Removed("numpy.tril", const(np.tril)),
    },
    "scipy.stats": {
        "itemfreq": Removed("numpy.unique(a, return_counts=True)", const(itemfreq)),
        "binom_test": Removed("scipy.stats.binomtest(k, n, p).pvalue", const(binom_test)),
    },
    "scipy.special": {
        "sph_harm": Removed("scipy.special.sph_harm_y(n, m, polar, azimuth)", const(sph_harm)),
    },
    # The properties the sparse matrix classes lost (a class owner: "module:Class").
    "scipy.sparse:spmatrix": {
        "A": Removed("matrix.toarray()", const(property(_dense))),
        "H": Removed("matrix.conjugate().transpose()", const(property(_hermitian))),
    },
    "scipy.spatial.distance": {
        "wminkowski": Removed("scipy.spatial.distance.minkowski(u, v, p, w=w**p)", const(wminkowski)),
        "kulsinski": Removed("scipy.spatial.distance.kulczynski1 (another formula)", const(kulsinski)),
        "matching": Removed("scipy.spatial.distance.hamming", const(matching)),
    },
}


def _old_pinv(current: Callable[..., Any]) -> Callable[..., Any]:
    """``scipy.linalg.pinv`` accepting SciPy <= 1.6's ``cond``/``rcond`` (a relative cutoff, as in ``pinv2``)."""
    def pinv(a: Any, cond: float | None = None, rcond: float | None = None, *args: Any, **kwargs: Any) -> Any:
        if cond is None and rcond is None:
            return current(a, *args, **kwargs)
        matrix = np.asarray(a)
        return current(matrix, *args, **{"atol": 0.0, "rtol": _rank_cutoff(matrix, cond, rcond), **kwargs})
    return wrapper(current, pinv)


#: Names SciPy kept but whose old calls it refuses: module -> name -> wrapper entry.
REPLACED: dict[str, dict[str, Replaced]] = {
    "scipy.linalg": {"pinv": Replaced("scipy.linalg.pinv(a, atol=0, rtol=cond)",
                                      lambda current: not accepts(current, "cond"), _old_pinv)},
}
