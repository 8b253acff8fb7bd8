"""Gaussian DP profile: float64 values as scipy rounds them, certified log-space enclosures and
certified inversion, all against mpmath references written here (not the toolkit's formula)."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dptheory import profile
from tests.conftest import raises_naming
from tests.oracles.nearest import nearest

MUS = [1e-3, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 20.0, 100.0]
EPS = [-3.0, -0.5, 0.0, 1e-6, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 100.0, 1000.0]


def _mp_log_delta(mu, e):
    """log delta at 60+ digits from mpmath's ncdf, written so that nothing cancels but the
    difference itself (which 120 working digits cover: it loses about log10(eps / mu^2) digits):
    log Phi(a) + log(1 - e^eps Phi(b) / Phi(a)), with log Phi(a) = log1p(-Phi(-a)) for a > 0
    (delta = 1 - 1e-230 has a log of -1e-230, not 0)."""
    with mpmath.workdps(120):
        m, x = mpmath.mpf(mu), mpmath.mpf(e)
        a, b = -x / m + m / 2, -x / m - m / 2
        la = mpmath.log1p(-mpmath.ncdf(-a)) if a > 0 else mpmath.log(mpmath.ncdf(a))
        ratio = mpmath.exp(x + mpmath.log(mpmath.ncdf(b)) - mpmath.log(mpmath.ncdf(a)))
        return la + mpmath.log1p(-ratio)


def _mp_delta(mu, e):
    with mpmath.workdps(120):
        return mpmath.exp(_mp_log_delta(mu, e))


def _mp_epsilon(mu, delta, start):
    """inf{eps >= 0: delta_mu(eps) <= delta} at 60 digits (Newton/secant from ``start``)."""
    with mpmath.workdps(60):
        target = mpmath.log(mpmath.mpf(delta))
        if _mp_log_delta(mu, 0) <= target:
            return mpmath.mpf(0)
        return mpmath.findroot(lambda x: _mp_log_delta(mu, x) - target, mpmath.mpf(start), tol=mpmath.mpf(10) ** -50)


@pytest.mark.parametrize("mu", MUS)
def test_gdp_log_delta_enclosure_contains_mpmath(mu):
    lo, hi = profile.gdp_log_delta_enclosure(mu, np.array(EPS))
    mid = profile.gdp_log_delta(mu, np.array(EPS))
    for e, l, h, m in zip(EPS, lo, hi, mid):
        if e / mu > 3e4:
            continue  # mpmath reference too slow
        ref = _mp_log_delta(mu, e)
        assert l <= ref <= h, (mu, e, l, h, ref)
        assert l <= m <= h


@given(st.floats(-4.0, 2.5), st.floats(-4.0, 3.5), st.booleans())
@settings(max_examples=300, deadline=None)
def test_gdp_log_delta_enclosure_is_certified_on_random_points(log_mu, log_ratio, negative):
    mu = 10.0 ** log_mu
    e = mu * 10.0 ** log_ratio * (-1 if negative else 1)
    if e > 1400 * max(mu, 1):
        return
    lo, hi = profile.gdp_log_delta_enclosure(mu, e)
    ref = _mp_log_delta(mu, e)
    assert lo <= ref <= hi, (mu, e, lo, hi, ref)


def _mp_delta_100(mu, e):
    """delta at 100 digits from mpmath's ncdf (the cancellation costs at most ~40 of them here)."""
    with mpmath.workdps(140):
        m, x = mpmath.mpf(mu), mpmath.mpf(e)
        return mpmath.ncdf(-x / m + m / 2) - mpmath.exp(x) * mpmath.ncdf(-x / m - m / 2)


def test_gdp_delta_float_is_correctly_rounded():
    """Defect 2: gdp_delta(0.5, 50) raised Underflow, and so did gdp_delta(1, 37.9167...), whose
    value 2.708e-308 is a normal double; the float path was then off by up to 36,432 ulps (at
    mu = 0.0027, cancellation). It returns the float nearest the truth (0.0 or a subnormal below
    the float range), equal to mpmath's value at 100 digits rounded to nearest, on the audit's
    points and on a seeded grid of 2,000 points (mu 1e-3 .. 100, epsilon -5 mu .. 60 mu + 40)."""
    audit = [(0.5, 50.0), (1.0, 37.91679741675928), (0.002726707775188423, 0.09716826348521652),
             (1.0, 38.1), (1.0, 38.3), (1.0, 38.55), (1.0, 40.0)]
    rng = np.random.default_rng(20261124)
    mus = 10.0 ** rng.uniform(-3, 2, 2000)
    eps = mus * rng.uniform(-5, 60, 2000) + rng.choice([0.0, 40.0], 2000, p=[0.8, 0.2])
    points = audit + list(zip(mus.tolist(), eps.tolist()))
    got = {}
    for mu in sorted({mu for mu, _ in points}):
        es = [e for m, e in points if m == mu]
        for e, v in zip(es, np.atleast_1d(profile.gdp_delta(mu, np.array(es)))):
            got[(mu, e)] = float(v)
    truth = {(mu, e): nearest(_mp_delta_100(mu, e)) for mu, e in points}
    wrong = [(mu, e, got[(mu, e)], truth[(mu, e)]) for mu, e in points if got[(mu, e)] != truth[(mu, e)]]
    assert not wrong, wrong[:5]
    assert got[(0.5, 50.0)] == 0.0 and 2.2e-308 < got[(1.0, 37.91679741675928)]
    assert 0 < got[(1.0, 38.55)] < 2.2e-308
    assert sum(0 < v < 2.2e-308 for v in got.values()) >= 10  # the subnormal range is exercised
    # scalars and arrays agree
    assert profile.gdp_delta(1.0, 1.0) == profile.gdp_delta(1.0, np.array([1.0]))[0]


def test_log_delta_and_mpmath_serve_values_below_the_float_range():
    log_d = profile.gdp_log_delta(1.0, 45.0)
    assert log_d < -990  # delta ~ 1e-434
    assert abs(log_d - float(_mp_log_delta(1.0, 45.0))) < 1e-10
    res = profile.gdp_delta_result(1.0, 40.0)
    ref = _mp_log_delta(1.0, 40.0)
    assert res.log_lower <= ref <= res.log_upper and res.upper > 0 and res.lower == 0.0
    assert res.log_upper - res.log_lower < 1e-9
    with_digits = profile.gdp_delta_result(1.0, 40.0, digits=30)
    assert mpmath.almosteq(mpmath.mpf(with_digits.params["value"]), _mp_delta(1.0, 40.0), rel_eps=1e-28)


@given(st.floats(-3.0, 2.0), st.floats(-3.0, 3.0))
@settings(max_examples=60, deadline=None)
def test_gdp_delta_result_encloses_the_60_digit_value(log_mu, log_ratio):
    mu = 10.0 ** log_mu
    e = mu * 10.0 ** log_ratio
    if e > 1400 * max(mu, 1):
        return
    res = profile.gdp_delta_result(mu, e)
    ref = _mp_delta(mu, e)
    assert res.log_lower <= _mp_log_delta(mu, e) <= res.log_upper
    assert res.lower <= ref <= res.upper
    assert res.log_upper - res.log_lower <= profile.FLOAT_WIDTH_LIMIT * 10


def test_gdp_digits_path_matches_independent_mpmath():
    val = profile.gdp_delta(0.7, 2.0, digits=50)
    ref = _mp_delta(0.7, 2.0)
    assert abs(val - ref) < ref * mpmath.mpf(10) ** -45
    lv = profile.gdp_log_delta(0.7, [1.0, 3.0], digits=40)
    assert len(lv) == 2 and abs(lv[1] - _mp_log_delta(0.7, 3.0)) < mpmath.mpf(10) ** -35


EPSILON_CASES = [(mu, delta) for mu in (0.05, 0.1, 0.3, 0.5, 1.0, 2.0, 5.0, 7.0)
                 for delta in (0.3, 1e-2, 1e-6, 1e-10, 1e-50, 1e-300)]


@pytest.mark.parametrize("mu,delta", EPSILON_CASES)
def test_gdp_epsilon_float_bracket_contains_the_60_digit_root(mu, delta):
    """`dptheory gdp --epsilon` (float path) was off by up to 4.8e-14, below the truth in 10 of 27
    cases: the bracket now contains the exact root."""
    res = profile.gdp_epsilon(mu, delta)
    ref = _mp_epsilon(mu, delta, res.upper)
    assert res.lower <= ref <= res.upper, (res.lower, res.upper, ref)
    assert res.relative_width() < 1e-8


@pytest.mark.parametrize("mu,delta", EPSILON_CASES)
def test_gdp_epsilon_digits_bracket_contains_the_60_digit_root(mu, delta):
    """`dptheory gdp --mu 1 --delta 1e-6 --digits 50` gave an epsilon_upper below the exact
    epsilon: the float log of delta is rounded, and the inverter certified against it."""
    res = profile.gdp_epsilon(mu, delta, digits=50)
    ref = _mp_epsilon(mu, delta, res.upper)
    assert res.lower <= ref <= res.upper, (res.lower, res.upper, ref)
    assert res.relative_width() <= 1e-13  # the float log of delta limits it


def test_composition_encloses_sqrt_t_mu():
    res = profile.gdp_epsilon(0.3, 1e-6, compositions=7)
    with mpmath.workdps(60):
        mu7 = mpmath.sqrt(7) * mpmath.mpf(0.3)
        target = mpmath.log(mpmath.mpf(1e-6))
        f = lambda x: mpmath.log(mpmath.ncdf(-x / mu7 + mu7 / 2) - mpmath.exp(x) * mpmath.ncdf(-x / mu7 - mu7 / 2)) - target
        ref = mpmath.findroot(f, mpmath.mpf(res.upper))
    assert res.lower <= ref <= res.upper
    lo, hi = profile.composed_mu(0.3, 7)
    assert lo <= mu7 <= hi and profile.composed_mu(0.3, 1) == (0.3, 0.3)
    d = profile.gdp_delta_result(0.3, 1.0, compositions=7)
    assert d.lower <= _mp_delta(float(hi), 1.0) and _mp_delta(float(lo), 1.0) <= d.upper
    assert d.params["compositions"] == 7


def test_gdp_command_function():
    eps_res = profile.gdp(1.0, delta=1e-6)
    assert eps_res.quantity == "epsilon" and eps_res.lower <= _mp_epsilon(1.0, 1e-6, eps_res.upper) <= eps_res.upper
    d_res = profile.gdp(0.5, epsilon=1.0, compositions=4)
    ref = _mp_delta(1.0, 1.0)
    assert d_res.quantity == "delta" and d_res.lower <= ref <= d_res.upper
    with raises_naming("compositions"):
        profile.gdp(1.0, delta=1e-6, compositions=0)


def test_bad_inputs():
    with raises_naming("mu", "(0, inf)"):
        profile.gdp_log_delta(0.0, 1.0)
    with raises_naming("delta", "(0, 1)"):
        profile.gdp_epsilon(1.0, 0.0)
    with raises_naming("epsilon"):
        profile.gdp_delta(1.0, float("nan"))


def test_large_mu_does_not_run_out_of_search_range():
    """epsilon(1e-10) of mu = 5e4 (T = 1e6 compositions of 50-GDP) is about 1.25e9, beyond the
    inverter's default limit of 1e6: the search limit comes from the Gaussian tail bound."""
    res = profile.gdp_epsilon(50.0, 1e-10, compositions=10**6)
    mu = 5e4
    with mpmath.workdps(60):
        target = mpmath.log(mpmath.mpf(1e-10))
        f = lambda x: mpmath.log(mpmath.ncdf(-x / mu + mpmath.mpf(mu) / 2) - mpmath.exp(x) * mpmath.ncdf(-x / mu - mpmath.mpf(mu) / 2)) - target
        ref = mpmath.findroot(f, mpmath.mpf(res.upper))
    assert res.lower <= ref <= res.upper


@pytest.mark.parametrize("mu,e", [(76.44214271482657, 3.331194297888853), (78.0762992429349, 79.34922579704222),
                                  (74.41003784622897, 341.35819210422915), (1e-6, -50.0)])
def test_enclosure_where_log_delta_is_subnormal_or_delta_is_one(mu, e):
    """delta = 1 - 1e-318: log delta is subnormal, and scipy's log_ndtr returns -0.0 from x = 38 on
    (the truth is -2.9e-316): the enclosure accounts for it."""
    lo, hi = profile.gdp_log_delta_enclosure(mu, e)
    ref = _mp_log_delta(mu, e)
    assert lo <= ref <= hi, (lo, hi, ref)
