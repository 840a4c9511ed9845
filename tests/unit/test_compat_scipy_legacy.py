"""``compat.scipy_legacy.removed`` and ``.patches``: SciPy's removed names, with their old values.

Each function is checked against an independent computation (Simpson's weights
written out, binomial sums, closed forms, NumPy), and the patches against real
SciPy modules: added only where missing, taken away again, SciPy's own values
never hidden.
"""
from __future__ import annotations

import collections
import math
import types

import numpy as np
import pytest
import scipy.integrate
import scipy.linalg
import scipy.signal
import scipy.sparse

from compat.scipy_legacy import removed
from compat.scipy_legacy.patches import ScipyPatches


def simpson_weights(count: int) -> np.ndarray:
    """Composite Simpson's weights 1, 4, 2, 4, ..., 4, 1 (over 3) for an odd ``count``."""
    weights = np.ones(count)
    weights[1:-1:2], weights[2:-1:2] = 4, 2
    return weights / 3


# --------------------------------------------------------------------------
# scipy.integrate
# --------------------------------------------------------------------------

def test_simps_odd_is_simpsons_rule_and_exact_for_cubics() -> None:
    x = np.linspace(0.0, 2.0, 7)
    y = x ** 3 - x
    h = x[1] - x[0]
    assert removed.simps(y, x) == pytest.approx(h * simpson_weights(7) @ y)
    assert removed.simps(y, dx=h) == pytest.approx(2.0 ** 4 / 4 - 2.0)


@pytest.mark.parametrize("even", ["avg", "first", "last"])
def test_simps_even_count_follows_the_old_even_rule(even: str) -> None:
    x = np.linspace(0.0, 1.0, 6)
    y = np.exp(x)
    h = x[1] - x[0]
    first = h * simpson_weights(5) @ y[:5] + h * (y[4] + y[5]) / 2  # Simpson, then a trapezoid
    last = h * (y[0] + y[1]) / 2 + h * simpson_weights(5) @ y[1:]
    expected = {"first": first, "last": last, "avg": (first + last) / 2}[even]
    assert removed.simps(y, x, even=even) == pytest.approx(expected, rel=1e-12)
    rows = np.stack([y, 2 * y])  # along an axis of a 2-D array
    np.testing.assert_allclose(removed.simps(rows, dx=h, axis=1, even=even), [expected, 2 * expected])


def test_simps_two_samples_is_the_trapezoid_and_bad_even_is_named() -> None:
    assert removed.simps([1.0, 3.0], dx=0.5) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="even must be 'avg', 'last' or 'first', got 'middle'"):
        removed.simps([1.0, 2.0, 3.0, 4.0], even="middle")


def test_quadrature_converges_to_the_integral() -> None:
    value, error = removed.quadrature(np.cos, 0.0, 1.0)
    assert value == pytest.approx(math.sin(1.0), abs=1e-10)
    assert error < 1.49e-8
    value, _ = removed.quadrature(lambda t, k: t ** k, 0.0, 2.0, args=(3,), vec_func=False)
    assert value == pytest.approx(4.0)


# --------------------------------------------------------------------------
# scipy.signal
# --------------------------------------------------------------------------

def test_ricker_peak_and_zero_crossings() -> None:
    wave = removed.ricker(21, 3.0)
    assert wave[10] == pytest.approx(2 / (math.sqrt(9.0) * math.pi ** 0.25))
    assert wave[7] == pytest.approx(0.0, abs=1e-15) and wave[13] == pytest.approx(0.0, abs=1e-15)  # t = +-a
    np.testing.assert_allclose(wave, wave[::-1])


def test_morlet2_has_unit_energy_and_morlet_is_centred() -> None:
    wave = removed.morlet2(2001, s=20.0, w=5.0)
    assert np.sum(np.abs(wave) ** 2) == pytest.approx(1.0, rel=1e-6)
    old = removed.morlet(101, w=5.0)
    assert old[50] == pytest.approx((1 - math.exp(-12.5)) * math.pi ** -0.25)


def test_cwt_rows_are_convolutions_with_each_width() -> None:
    data = np.array([0.0, 1.0, 4.0, 2.0, -1.0, 3.0, 0.5, 2.0])

    def delta(points: int, width: float) -> np.ndarray:
        kernel = np.zeros(int(points))
        kernel[int(points) // 2] = 1.0
        return kernel

    np.testing.assert_allclose(removed.cwt(data, delta, [1]), [data])
    rows = removed.cwt(data, removed.ricker, [1, 2])
    assert rows.shape == (2, 8) and rows.dtype == np.float64
    for row, width in zip(rows, [1, 2], strict=True):
        kernel = removed.ricker(min(10 * width, len(data)), width)[::-1]
        shift = (len(kernel) - 1) // 2  # 'same': the middle of the full convolution
        expected = [sum(data[j] * kernel[i + shift - j]
                        for j in range(len(data)) if 0 <= i + shift - j < len(kernel))
                    for i in range(len(data))]
        np.testing.assert_allclose(row, expected, atol=1e-12)
    assert removed.cwt(data, removed.morlet2, [2]).dtype == np.complex128


# --------------------------------------------------------------------------
# scipy.linalg, scipy.stats, scipy.special, scipy.spatial.distance, scipy.sparse
# --------------------------------------------------------------------------

def test_pinv2_drops_small_singular_values_as_numpy_does() -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((5, 3)) @ rng.standard_normal((3, 4))  # rank 3
    np.testing.assert_allclose(removed.pinv2(a), np.linalg.pinv(a, rcond=1e6 * np.finfo(float).eps),
                               atol=1e-10)
    np.testing.assert_allclose(removed.pinv2(np.diag([4.0, 1e-3])), np.diag([0.25, 1000.0]))
    np.testing.assert_allclose(removed.pinv2(np.diag([4.0, 1e-3]), cond=1e-2), np.diag([0.25, 0.0]))
    old_pinv = removed.REPLACED["scipy.linalg"]["pinv"].make(scipy.linalg.pinv)
    np.testing.assert_allclose(old_pinv(np.diag([4.0, 1e-3]), rcond=1e-2), np.diag([0.25, 0.0]))
    np.testing.assert_allclose(old_pinv(np.diag([4.0, 2.0])), np.diag([0.25, 0.5]))


def test_itemfreq_and_binom_test() -> None:
    values = [3, 1, 3, 7, 3, 1]
    counts = collections.Counter(values)
    assert removed.itemfreq(values).tolist() == [[v, counts[v]] for v in sorted(counts)]
    tail = sum(math.comb(10, k) for k in range(4)) / 2 ** 10  # P(X <= 3), X ~ B(10, 1/2)
    assert removed.binom_test(3, 10) == pytest.approx(2 * tail)
    assert removed.binom_test([3, 7]) == pytest.approx(2 * tail)
    assert removed.binom_test(3, 10, alternative="less") == pytest.approx(tail)
    with pytest.raises(ValueError, match="got x of size 3 and n=None"):
        removed.binom_test([1, 2, 3])


def test_sph_harm_keeps_the_old_argument_order() -> None:
    azimuth, polar = 0.7, 0.5  # old order: (m, n, azimuth, polar)
    assert removed.sph_harm(0, 1, azimuth, polar) == pytest.approx(0.5 * math.sqrt(3 / math.pi) * math.cos(polar))
    expected = -0.5 * math.sqrt(3 / (2 * math.pi)) * math.sin(polar) * complex(math.cos(azimuth), math.sin(azimuth))
    assert removed.sph_harm(1, 1, azimuth, polar) == pytest.approx(expected)


def test_distances() -> None:
    u, v = [1, 0, 1, 1, 0], [1, 1, 0, 1, 0]
    assert removed.matching(u, v) == pytest.approx(2 / 5)
    tt, tf, ft, n = 2, 1, 1, 5
    assert removed.kulsinski(u, v) == pytest.approx((tf + ft - tt + n) / (tf + ft + n))
    assert removed.wminkowski([0, 0], [3, 1], 2, [1, 4]) == pytest.approx(5.0)


def test_sparse_matrix_properties() -> None:
    matrix = scipy.sparse.csr_matrix([[1, 2j], [0, 3]])
    properties = removed.REMOVED["scipy.sparse:spmatrix"]
    np.testing.assert_array_equal(properties["A"].make().fget(matrix), [[1, 2j], [0, 3]])
    np.testing.assert_array_equal(properties["H"].make().fget(matrix).toarray(), [[1, 0], [-2j, 3]])


def test_scipy_top_level_numpy_names_use_scimath() -> None:
    aliases = removed.numpy_aliases(lambda name: False)
    assert aliases["sqrt"].make()(-4) == 2j and aliases["log"].make()(-1) == pytest.approx(math.pi * 1j)
    assert aliases["zeros"].make() is np.zeros and aliases["rand"].make() is np.random.rand
    assert "linalg" not in aliases and "random" not in aliases  # modules are SciPy's own
    assert "zeros" not in removed.numpy_aliases(lambda name: name == "zeros")


# --------------------------------------------------------------------------
# The patches on real modules
# --------------------------------------------------------------------------

def test_patches_add_only_what_is_missing_and_undo_restores() -> None:
    module = types.ModuleType("scipy.integrate")
    module.trapz = own = object()  # type: ignore[attr-defined]
    patches = ScipyPatches(imread=lambda path: path)
    patches.apply(module)
    assert module.trapz is own  # type: ignore[attr-defined]
    assert module.simps is removed.simps  # type: ignore[attr-defined]
    patches.undo()
    assert not hasattr(module, "simps") and module.trapz is own  # type: ignore[attr-defined]


def test_patches_on_the_installed_scipy() -> None:
    patches = ScipyPatches(imread=lambda path: path)
    own_pinv = scipy.linalg.pinv
    try:
        for module in (scipy.signal, scipy.linalg, scipy.sparse, scipy):
            patches.apply(module)
        np.testing.assert_allclose(scipy.signal.hann(4), scipy.signal.windows.hann(4))  # type: ignore[attr-defined]
        assert scipy.sparse.csr_matrix([[1, 2]]).A.tolist() == [[1, 2]]
        np.testing.assert_allclose(scipy.linalg.pinv(np.diag([4.0, 1e-3]), cond=1e-2), np.diag([0.25, 0.0]))
        assert scipy.sqrt(-1) == 1j  # type: ignore[attr-defined]
        assert scipy.linalg.svd is not None and isinstance(scipy.linalg, types.ModuleType)
    finally:
        patches.undo()
    assert not hasattr(scipy.signal, "hann") and not hasattr(scipy, "sqrt")
    assert not hasattr(scipy.sparse.csr_matrix([[1]]), "A")
    assert scipy.linalg.pinv is own_pinv
