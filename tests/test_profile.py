"""Gaussian DP profile in log space against mpmath, and certified inversion."""

import math

import mpmath
import numpy as np
import pytest

from dptheory import profile
from tests.conftest import raises_naming

MUS = [1e-3, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 20.0, 100.0]
EPS = [-3.0, -0.5, 0.0, 1e-6, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 100.0, 1000.0]


def _mp_log_delta(mu, e):
    # independent of the toolkit's formula: mpmath's ncdf at a precision that covers the cancellation
    # the difference cancels about log10(eps / mu^2) digits; 100 digits cover the whole grid
    with mpmath.workdps(100):
        m, x = mpmath.mpf(mu), mpmath.mpf(e)
        d = mpmath.ncdf(-x / m + m / 2) - mpmath.exp(x) * mpmath.ncdf(-x / m - m / 2)
        return mpmath.log(d)


@pytest.mark.parametrize("mu", MUS)
def test_gdp_log_delta_float_within_documented_error(mu):
    got = profile.gdp_log_delta(mu, np.array(EPS))
    for e, g in zip(EPS, got):
        if e / mu > 3e4:
            continue  # mpmath reference too slow
        ref = float(_mp_log_delta(mu, e))
        assert abs(g - ref) <= profile.gdp_log_delta_error(ref), (mu, e, g, ref)


def test_gdp_delta_reaches_1e_minus_300_and_below():
    # delta = 1e-300 at mu = 1 needs epsilon near 37.4; the naive formula underflows there
    res = profile.gdp_epsilon(1.0, 1e-300)
    with mpmath.workdps(80):
        lo = mpmath.exp(_mp_log_delta(1.0, res.lower))
        hi = mpmath.exp(_mp_log_delta(1.0, res.upper))
    assert lo > mpmath.mpf("1e-300") >= hi
    # below the float range (where the naive formula returns 0): only the logarithm is returned
    log_d = profile.gdp_log_delta(1.0, 45.0)
    assert log_d < -990  # delta ~ 1e-434
    assert abs(log_d - float(_mp_log_delta(1.0, 45.0))) < 1e-10
    with pytest.raises(profile.Underflow, match="gdp_log_delta"):
        profile.gdp_delta(1.0, 45.0)


def test_gdp_digits_path_matches_independent_mpmath():
    val = profile.gdp_delta(0.7, 2.0, digits=50)
    with mpmath.workdps(70):
        m = mpmath.mpf(0.7)  # the binary value of the float 0.7 the toolkit receives
        ref = mpmath.ncdf(-2 / m + m / 2) - mpmath.exp(2) * mpmath.ncdf(-2 / m - m / 2)
    assert abs(val - ref) < ref * mpmath.mpf(10) ** -45
    lv = profile.gdp_log_delta(0.7, [1.0, 3.0], digits=40)
    assert len(lv) == 2 and abs(lv[1] - _mp_log_delta(0.7, 3.0)) < mpmath.mpf(10) ** -35


@pytest.mark.parametrize("mu,delta", [(0.5, 1e-5), (1.0, 1e-9), (3.0, 1e-2), (1.0, 1e-200)])
def test_gdp_epsilon_bracket_contains_the_root(mu, delta):
    res = profile.gdp_epsilon(mu, delta)
    assert res.lower <= res.upper and res.relative_width() < 1e-8
    assert float(_mp_log_delta(mu, res.lower)) > math.log(delta) >= float(_mp_log_delta(mu, res.upper))
    fine = profile.gdp_epsilon(mu, delta, digits=30)
    assert res.lower <= fine.upper and fine.lower <= res.upper


def test_bad_inputs():
    with raises_naming("mu", "(0, inf)"):
        profile.gdp_log_delta(0.0, 1.0)
    with raises_naming("delta", "(0, 1)"):
        profile.gdp_epsilon(1.0, 0.0)
    with raises_naming("epsilon"):
        profile.gdp_delta(1.0, float("nan"))
