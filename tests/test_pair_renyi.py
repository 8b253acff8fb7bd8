"""Renyi divergence of the count pairs (dptheory.shuffle.pair_renyi) against mpmath atom sums."""

import math

import mpmath
import pytest

from dptheory.shuffle.pair_renyi import mp_renyi_moment, renyi
from dptheory.shuffle.pairs import CountPair


def _mp_renyi(pair, lam, digits=40):
    with mpmath.workdps(digits):
        return float(mpmath.log(mp_renyi_moment(pair, lam, digits)) / (lam - 1))


@pytest.mark.parametrize("lam", [2.0, 7.5])
def test_enclosure_contains_the_exact_divergence(lam):
    pair = CountPair(60, 0.3, 0.8, 0.2)
    lo, hi = renyi(pair, lam, rtol=1e-8)
    exact = _mp_renyi(pair, lam)
    assert lo <= exact <= hi and hi - lo <= 1e-6 * exact


@pytest.mark.parametrize("lam", [2.0, 5.0])
def test_theta_rtol_counts_every_pair_within_it(lam):
    """The enclosure stands for every pair whose thetas are within theta_rtol of the floats: the
    pairs with thetas moved apart (largest divergence) and together (smallest) lie inside it.
    Before the Renyi path counted theta_rtol, the upper end was the nominal pair's value, below
    the moved-apart pair's divergence by about 1e-5 relative here."""
    r = 1e-5
    pair = CountPair(40, 0.4, 0.7, 0.3, theta_rtol=r)
    lo, hi = renyi(pair, lam, rtol=1e-9)
    apart = CountPair(40, 0.4, 0.7 * (1 + r), 0.3 * (1 - r))
    together = CountPair(40, 0.4, 0.7 * (1 - r), 0.3 * (1 + r))
    d_apart, d_together = _mp_renyi(apart, lam), _mp_renyi(together, lam)
    assert d_together < _mp_renyi(CountPair(40, 0.4, 0.7, 0.3), lam) < d_apart
    assert lo <= d_together and d_apart <= hi
    assert hi - lo <= 10 * (d_apart - d_together)


def test_equal_thetas_within_their_error_give_a_zero_lower_end():
    pair = CountPair(30, 0.5, 0.5 + 1e-9, 0.5, theta_rtol=1e-6)
    lo, hi = renyi(pair, 3.0, rtol=1e-6)
    assert lo == 0.0 and hi > 0.0
