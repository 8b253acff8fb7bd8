"""DP-GD with random initialisation (Wang et al. 2023, Thm 5.1, Examples D.1-D.3): the certified
curve against mpmath quadrature, the closed form G_mu for a constant gap, and the normalisation
erratum."""

import math

import mpmath
import numpy as np
import pytest

from dptheory import tradeoff as tf
from dptheory.mixtures import dpgd
from tests.conftest import raises_naming

GAPS = [dpgd.least_squares(0.7), dpgd.clipped_least_squares(0.7, 1.5), dpgd.logistic(2.0, sigma=0.5)]


def test_constant_gap_reproduces_g_mu():
    f = dpgd.dpgd_tradeoff(dpgd.constant(1.0), points=101, cells=4000)
    xs = np.linspace(0, 1, 501)
    g = tf.Gaussian(1.0)(xs)
    assert np.all(f(xs) <= g + 1e-15)
    assert np.all(f.upper_curve(xs) >= g - 1e-15)
    assert np.max(g - f(xs)) <= f.max_error
    assert f.max_error < 5e-3


@pytest.mark.parametrize("gap", GAPS, ids=lambda g: g.name)
def test_enclosure_and_curve_against_mpmath(gap):
    f = dpgd.dpgd_tradeoff(gap, points=101, cells=4000)
    ts = [-1.5, 0.0, 0.4]
    enc = dpgd.dpgd_enclosure(gap, ts, cells=4000)
    for k, t in enumerate(ts):
        a = dpgd.dpgd_alpha_mpmath(gap, t, digits=20)
        b = dpgd.dpgd_alpha_mpmath(gap, -t, digits=20)
        assert enc["alpha_lower"][k] <= a <= enc["alpha_upper"][k]
        assert enc["beta_lower"][k] <= b <= enc["beta_upper"][k]
        assert enc["alpha_upper"][k] - enc["alpha_lower"][k] < 5e-3
        # the point (alpha(t), beta(t)) of the Thm 5.1 curve is above the certified lower bound
        assert f(float(a)) <= b
        assert f.upper_curve(float(a)) >= b - 1e-15
    xs = np.linspace(0, 1, 201)
    y = f(xs)
    assert np.all(np.diff(y) <= 1e-15) and np.all(y <= 1 - xs + 1e-15)
    # the curve is symmetric (beta(t) = alpha(-t)): the lower bound is within max_error of its inverse
    assert np.max(np.abs(y - f.inverse()(xs))) <= f.max_error + 1e-12
    curve = f.curve(xs)
    assert curve.kind == "lower" and curve.status == "proven" and np.all(curve.lower <= curve.upper)


def test_delta_is_an_upper_bound_on_the_expected_gaussian_profile():
    """delta(eps) of the Thm 5.1 curve = E_I[delta_{|mu_I|}(eps)] (digest §4.6), by mpmath; the
    certified lower trade-off function gives an upper bound."""
    gap = dpgd.clipped_least_squares(0.7, 1.5)
    f = dpgd.dpgd_tradeoff(gap, points=101, cells=4000)
    with mpmath.workdps(20):
        for eps in [0.2, 1.0]:
            def integrand(i):
                m = abs(gap.signed_mp(i))
                if m == 0:
                    return mpmath.mpf(0)
                d = mpmath.ncdf(-eps / m + m / 2) - mpmath.e**eps * mpmath.ncdf(-eps / m - m / 2)
                return d * mpmath.npdf(i)

            exact = mpmath.quad(integrand, [-mpmath.inf, -0.8, 0.7, 2.2, mpmath.inf])
            assert exact <= f.delta(eps) <= exact + 0.02


def test_printed_normalisation_is_refuted():
    """Digest §2.12 typo 13: without 1/sqrt(2 pi) the printed alpha(+inf) is sqrt(2 pi) > 1; the
    printed sign cases divided by sqrt(2 pi) agree with the |mu_I| form."""
    gap = dpgd.least_squares(0.7)
    printed = dpgd.dpgd_alpha_printed(gap, 60.0)
    assert printed > 2.5 and abs(printed - math.sqrt(2 * math.pi)) < 1e-6
    assert dpgd.dpgd_alpha_mpmath(gap, 60.0, digits=15) <= 1
    for t in [-0.5, 0.3]:
        assert dpgd.dpgd_alpha_printed(gap, t) / math.sqrt(2 * math.pi) == pytest.approx(
            float(dpgd.dpgd_alpha_mpmath(gap, t, digits=20)), abs=1e-9)


def test_bad_input():
    with raises_naming("sigma", "(0, inf)"):
        dpgd.least_squares(0.5, sigma=0.0)
    with raises_naming("c"):
        dpgd.clipped_least_squares(0.5, -1.0)
    with raises_naming("cells", "[10"):
        dpgd.dpgd_tradeoff(dpgd.constant(1.0), cells=3)
    with raises_naming("alpha", "[0, 1]"):
        dpgd.dpgd_tradeoff(dpgd.constant(1.0), points=11, cells=100).curve([0.5, 1.5])


def test_report_of_a_constant_gap_bounds_the_gaussian_delta_from_above():
    """With a constant gap mu the two outputs are N(0, 1) and N(mu, 1): T(X, Y) = G_mu, whose
    delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Dong, Roth, Su 2022, Cor. 2.13),
    here in mpmath at 40 digits. The report's delta is an upper bound, close to it."""
    import mpmath

    from dptheory.mixtures.dpgd import dpgd_report, example_gap

    rep = dpgd_report(example_gap("constant", mu=1.0), [0.0, 0.5, 1.0], show=5, example="constant")
    assert rep["example"] == "constant" and len(rep["curve"].grid) == 5
    with mpmath.workdps(40):
        for row in rep["profile"]:
            e, mu = mpmath.mpf(row["epsilon"]), mpmath.mpf(1)
            exact = mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)
            assert row["delta"].upper >= exact
            assert row["delta"].upper <= exact * (1 + 1e-2)


def test_unknown_example_is_named():
    from dptheory.mixtures.dpgd import example_gap
    from dptheory.validate import DomainError

    with pytest.raises(DomainError, match="example = 'D.9'.*D.1, D.2, D.3, constant"):
        example_gap("D.9")
