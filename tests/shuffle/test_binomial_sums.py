"""dptheory.shuffle.binomial_sums: each certified helper against an mpmath computation at 50
digits of the same quantity by its definition (a sum over the atoms)."""

import math

import mpmath
import numpy as np
import pytest

from dptheory.shuffle import binomial_sums as bs



@pytest.fixture(autouse=True)
def _fifty_digits():
    with mpmath.workdps(50):
        yield


def _mp_pmf(k, n, s):
    if k < 0 or k > n:
        return mpmath.mpf(0)
    return mpmath.binomial(n, k) * mpmath.mpf(s) ** k * (1 - mpmath.mpf(s)) ** (n - k)


def test_log_mul_adds_logs_and_keeps_zero_times_anything_zero():
    out = bs.log_mul(np.array([0.5, -np.inf, -np.inf, 2.0]), np.array([1.25, np.inf, 3.0, -np.inf]))
    assert out[0] == 1.75
    assert np.all(np.isneginf(out[1:]))


@pytest.mark.parametrize("n, s", [(10, 0.3), (200, 0.02), (1000, 0.5), (5000, 0.9)])
def test_log_binom_range_encloses_the_exact_probability(n, s):
    rng = np.random.default_rng(n)
    lo = rng.integers(0, n + 1, 12)
    hi = np.minimum(lo + rng.integers(0, n // 3 + 2, 12), n)
    lo = np.concatenate([lo, [0, 0, n, n * s // 1]])
    hi = np.concatenate([hi, [n, 0, n, n * s // 1 + 3]])
    out, err = bs.log_binom_range(lo.astype(float), hi.astype(float), n, s)
    for a, b, v, e in zip(lo, hi, out, err):
        exact = mpmath.fsum(_mp_pmf(k, n, s) for k in range(int(a), int(b) + 1))
        gap = abs(mpmath.exp(v) - exact) if v > -math.inf else exact
        assert gap <= mpmath.exp(e) * (1 + 1e-9), (a, b, v, e, exact)


def _mp_binary_count_delta(thp, thq, j, rho, gamma):
    """sum_a (P(a) - gamma Q(a))_+ with P = Bern(thp) + Bin(j, rho), Q = Bern(thq) + Bin(j, rho)."""
    thp, thq, gamma = (mpmath.mpf(x) for x in (thp, thq, gamma))
    total = mpmath.mpf(0)
    for a in range(j + 2):
        b1, b0 = _mp_pmf(a - 1, j, rho), _mp_pmf(a, j, rho)
        p = thp * b1 + (1 - thp) * b0
        q = thq * b1 + (1 - thq) * b0
        total += max(p - gamma * q, 0)
    return total


@pytest.mark.parametrize("thp, thq, j, rho, log_gamma", [
    (0.9, 0.1, 30, 0.5, 0.4), (0.1, 0.9, 30, 0.5, 0.4),  # relabelled (thp < thq)
    (0.7, 0.3, 200, 0.02, 0.05), (0.99, 0.01, 60, 0.97, 2.0), (0.6, 0.4, 0, 0.5, 0.1),  # no clones
    (0.8, 0.2, 50, 0.0, 0.3), (0.8, 0.2, 50, 0.3, 0.0), (0.8, 0.2, 50, 0.3, 5.0),  # point mass, gamma = 1, past r_inf
    (0.5, 0.5, 20, 0.4, 0.2), (0.75, 0.25, 400, 0.5, 0.01)])
def test_log_hockey_stick_binary_count_encloses_the_sum_over_atoms(thp, thq, j, rho, log_gamma):
    out, err = bs.log_hockey_stick_binary_count(np.array([thp]), np.array([thq]), np.array([float(j)]),
                                                np.array([rho]), log_gamma)
    exact = _mp_binary_count_delta(thp, thq, j, rho, mpmath.exp(log_gamma))
    value = mpmath.exp(out[0]) if out[0] > -math.inf else mpmath.mpf(0)
    bound = mpmath.exp(err[0]) if err[0] > -math.inf else mpmath.mpf(0)
    assert abs(value - exact) <= bound + exact * 1e-12 + mpmath.mpf(10) ** -300, (value, exact, bound)


def test_log_monotone_binomial_sum_encloses_the_exact_sum():
    n, s = 3000, 0.2
    enc = bs.log_monotone_binomial_sum(lambda m: -np.asarray(m, dtype=float) / 50.0, n, s, rtol=1e-6)
    exact = mpmath.log(mpmath.fsum(_mp_pmf(m, n, s) * mpmath.exp(-mpmath.mpf(m) / 50) for m in range(n + 1)))
    assert enc.log_lower <= exact <= enc.log_upper
    assert enc.log_upper - enc.log_lower < 1e-5


def test_refine_buckets_narrows_a_coarse_enclosure_and_keeps_the_sum_inside():
    n, s = 500, 0.5
    f = lambda m: -0.01 * np.asarray(m, dtype=float) ** 1.2  # noqa: E731 (non-increasing)

    def bounds(ma, mb):
        lw, lerr = bs.log_binom_range(ma, mb, n, s)
        return bs.log_mul(lw, f(ma)), bs.log_mul(lw, f(mb)), bs.log_mul(lerr, f(ma) + 1e-12)

    edges = bs.bucket_edges(0, n, n * s, math.sqrt(n * s * (1 - s)))
    ma, mb = edges[:-1].astype(float), (edges[1:] - 1).astype(float)
    coarse, _, _ = bs.refine_buckets(bounds, ma, mb, 1e-6, max_rounds=0)
    fine, _, _ = bs.refine_buckets(bounds, ma, mb, 1e-6)
    exact = mpmath.log(mpmath.fsum(_mp_pmf(m, n, s) * mpmath.exp(-0.01 * mpmath.mpf(m) ** 1.2) for m in range(n + 1)))
    assert coarse.log_lower <= exact <= coarse.log_upper
    assert fine.log_lower <= exact <= fine.log_upper
    assert fine.log_upper - fine.log_lower < min(1e-5, coarse.log_upper - coarse.log_lower)
