"""Log-space helpers and binomial probabilities against mpmath."""

import math

import mpmath
import numpy as np
import pytest

from dptheory import precision as pr


def test_log1mexp_and_logsubexp_against_mpmath():
    xs = np.array([-1e-20, -1e-10, -0.3, -0.69, -0.7, -5.0, -50.0, -800.0])
    with mpmath.workdps(40):
        ref = [float(mpmath.log(1 - mpmath.exp(mpmath.mpf(x)))) for x in xs]
    assert np.allclose(pr.log1mexp(xs), ref, rtol=1e-14, atol=0)
    assert pr.logsubexp(3.0, 3.0) == -math.inf
    assert math.isclose(pr.logsubexp(math.log(5.0), math.log(2.0)), math.log(3.0), rel_tol=1e-15)
    assert pr.round_up(1.0) > 1.0 > pr.round_down(1.0)


@pytest.mark.parametrize("k,n,p", [
    (3, 10, 0.3), (500, 1000, 0.5), (0, 10**6, 1e-3), (10**6, 10**6, 0.999),
    (700_000, 10**6, 0.5), (1, 10**12, 1e-12), (4 * 10**11, 10**12, 0.4), (17, 40, 0.9),
])
def test_binom_logpmf_against_mpmath(k, n, p):
    with mpmath.workdps(60):
        ref = mpmath.log(mpmath.binomial(n, k)) + k * mpmath.log(p) + (n - k) * mpmath.log(1 - mpmath.mpf(p))
    got = pr.binom_logpmf(k, n, p)
    assert abs(got - float(ref)) <= 2e-15 * max(1.0, abs(float(ref)))


def test_binom_logpmf_outside_support():
    assert pr.binom_logpmf(-1, 5, 0.3) == -math.inf
    assert pr.binom_logpmf(6, 5, 0.3) == -math.inf
    assert pr.binom_logpmf(0, 5, 0.0) == 0.0


def test_mp_tail_continued_fraction_matches_direct_sum():
    # n = 2500 uses the continued fraction; the direct sum is an independent computation
    n, p = 2500, 0.37
    with mpmath.workdps(40):
        for k in (900, 1000, 1100):
            direct = mpmath.fsum(pr.mp_binom_pmf(j, n, p) for j in range(k, n + 1))
            assert abs(pr.mp_binom_sf(k, n, p) - direct) <= direct * mpmath.mpf(10) ** -35
            lower = mpmath.fsum(pr.mp_binom_pmf(j, n, p) for j in range(0, k + 1))
            assert abs(pr.mp_binom_cdf(k, n, p) - lower) <= lower * mpmath.mpf(10) ** -35


GRID = [(n, p, z) for n in (1e3, 1e6, 1e8, 1e10, 1e12) for p in (0.5, 0.1) for z in (-3, 0.5, 2, 6, 15, 40)]


@pytest.mark.parametrize("n,p,z", GRID)
def test_binom_tails_within_documented_error(n, p, z):
    sd = math.sqrt(n * p * (1 - p))
    k = math.ceil(n * p + z * sd)
    if k > n:
        pytest.skip("threshold beyond n")
    with mpmath.workdps(30):
        ref_sf = pr.mp_binom_sf(k, n, p)
        ref_cdf = pr.mp_binom_cdf(k - 1, n, p)
    tol = float(pr.binom_tail_rtol(n))
    logsf, ok = pr.binom_logsf(k, n, p)
    assert ok
    assert abs(logsf - float(mpmath.log(ref_sf))) <= tol
    if ref_sf > 1e-300:
        assert abs(pr.binom_sf(k, n, p) - float(ref_sf)) <= tol * float(ref_sf)
    if ref_cdf > 1e-300:
        assert abs(pr.binom_cdf(k - 1, n, p) - float(ref_cdf)) <= tol * float(ref_cdf)
    logcdf, ok = pr.binom_logcdf(k - 1, n, p)
    assert abs(logcdf - float(mpmath.log(ref_cdf))) <= tol


def test_far_tail_below_float_range_is_returned_as_a_log():
    # P[Bin(1000, 1/2) >= 990] is about 1e-280 ... 1e-290; at 999 far below 1e-300
    with mpmath.workdps(40):
        ref = mpmath.log(pr.mp_binom_sf(999, 1000, 0.5))
    got, ok = pr.binom_logsf(999, 1000, 0.5)
    assert ok and float(ref) < -680
    assert abs(got - float(ref)) < 1e-12 * abs(float(ref))


def test_mp_adaptive_recovers_cancelled_digits():
    # (1 + 1e-40) - 1 needs more than 40 digits of working precision
    def fn():
        return (1 + mpmath.mpf(10) ** -40) - 1

    val = pr.mp_adaptive(fn, 20)
    assert abs(val / mpmath.mpf(10) ** -40 - 1) < mpmath.mpf(10) ** -19
