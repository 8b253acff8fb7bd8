"""dptheory.shuffle.rdp.enumeration: the exact RDP of a finite randomizer's shuffled histogram,
against the count distributions of shuffled binary randomized response written here in mpmath
(a different computation: convolutions of the users' Bernoulli reports, not the histograms of
dptheory.shuffle.exact)."""

import math

import mpmath
import numpy as np
import pytest

from dptheory import validate
from dptheory.shuffle import randomizers as rz
from dptheory.shuffle.rdp.enumeration import exact_rdp


def _mp_count_pmf(probs):
    """pmf of the number of ones among independent Bernoulli(probs) reports."""
    pmf = [mpmath.mpf(1)]
    for p in probs:
        pmf = [(pmf[i] if i < len(pmf) else 0) * (1 - p) + (pmf[i - 1] * p if i >= 1 else 0) for i in range(len(pmf) + 1)]
    return pmf


def _mp_worst_renyi(eps0, n, order):
    """max over the other users' bits (ones of them at 1) and both directions of
    D_order(count | victim 0 || count | victim 1), binary randomized response, at 40 digits."""
    with mpmath.workdps(40):
        keep = mpmath.exp(mpmath.mpf(eps0)) / (mpmath.exp(mpmath.mpf(eps0)) + 1)
        lam = mpmath.mpf(order)
        best = mpmath.mpf(0)
        for ones in range(n):
            others = [keep] * ones + [1 - keep] * (n - 1 - ones)
            p = _mp_count_pmf(others + [1 - keep])  # the victim holds 0: reports 1 w.p. 1 - keep
            q = _mp_count_pmf(others + [keep])
            for a, b in ((p, q), (q, p)):
                moment = mpmath.fsum(x**lam * y ** (1 - lam) for x, y in zip(a, b) if x > 0)
                best = max(best, mpmath.log(moment) / (lam - 1))
        return best


@pytest.mark.parametrize("eps0,n", [(0.5, 2), (1.0, 3), (2.0, 5), (0.3, 8)])
def test_exact_rdp_of_binary_rr_matches_the_count_distributions(eps0, n):
    orders = np.array([1.5, 2.0, 3.0, 8.0, 32.0])
    got = exact_rdp(rz.binary_rr(eps0), n, orders)
    for order, value in zip(orders, got):
        ref = _mp_worst_renyi(eps0, n, order)
        assert math.isclose(value, float(ref), rel_tol=1e-10), (eps0, n, order, value, ref)


def test_exact_rdp_is_at_most_eps0_and_grows_with_the_order():
    """Shuffling an eps0-LDP randomizer is eps0-DP, so every Renyi divergence is at most eps0;
    and D_lambda is non-decreasing in lambda."""
    got = exact_rdp(rz.grr(1.5, 3), 4, [1.5, 2.0, 4.0, 16.0, 256.0])
    assert np.all(np.diff(got) >= -1e-12) and np.all(got <= 1.5 * (1 + 1e-12)) and got[0] > 0


def test_exact_rdp_refuses_an_enumeration_too_large():
    with pytest.raises(validate.DomainError, match="too large for exact enumeration"):
        exact_rdp(rz.grr(1.0, 8), 40, [2.0], max_datasets=100)
