"""Renyi divergence of the count pairs (dptheory.shuffle.pair_renyi) against mpmath atom sums."""

import math

import mpmath
import numpy as np
import pytest

from dptheory.results import Curve
from dptheory.shuffle import clones, pair_renyi, rdp
from dptheory.shuffle.pair_renyi import mp_renyi_moment, renyi, renyi_curve
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


def test_pair_renyi_rtol_is_the_width_of_the_divergence_at_high_orders():
    """At high orders the excess sum P^lam Q^(1-lam) - 1 is huge and the refinement stops on the
    width of the divergence, not of the excess: the enclosure still holds the 50-digit atom sum
    and its relative width is at most rtol (plus rounding)."""
    for e0, n, order in [(1.0, 100, 60.0), (2.0, 150, 30.5), (0.5, 200, 200.0)]:
        pair = clones.clone_pair(e0, n)
        ref = mpmath.log(mp_renyi_moment(pair, order, 50)) / (order - 1)
        assert ref * (order - 1) > 5  # the excess is above e^5: the two rules differ here
        for rtol in (1e-2, 1e-4):
            lo, hi = renyi(pair, order, rtol=rtol)
            assert lo <= ref <= hi
            assert (hi - lo) <= rtol * hi * (1 + 1e-9)
        (lo_c,), (hi_c,) = renyi_curve(pair, [order], rtol=1e-3)
        assert lo_c <= ref <= hi_c and hi_c - lo_c <= 1e-3 * hi_c * (1 + 1e-9)


@pytest.mark.parametrize("e0,n,order,stronger", [(1.0, 300, 2.0, False), (0.5, 250, 5.0, False),
                                                 (2.0, 300, 3.0, True)])
def test_bucketed_conditional_sum_encloses_the_atom_sum(monkeypatch, e0, n, order, stronger):
    """The bucketed conditional excess (Jensen below, the chord above, on buckets of counts) is
    used for wide binomials only; forced on here at small n, its enclosure of the divergence holds
    the 30-digit sum over every atom, and is of the width asked."""
    monkeypatch.setattr(pair_renyi, "_MIN_SD", 2.0)
    pair_renyi._count_buckets.cache_clear()
    pair = clones.stronger_clone_pair(e0, n) if stronger else clones.clone_pair(e0, n)
    ref = mpmath.log(mp_renyi_moment(pair, order, 30)) / (order - 1)
    used = []
    original = pair_renyi._log_renyi_conditionals_bucketed
    monkeypatch.setattr(pair_renyi, "_log_renyi_conditionals_bucketed",
                        lambda *a, **k: used.append(1) or original(*a, **k))
    lo, hi = renyi(pair, order, rtol=1e-3)
    assert used and lo <= ref <= hi and hi - lo <= 1e-3 * hi * (1 + 1e-9)
    pair_renyi._count_buckets.cache_clear()


def test_bucketed_conditional_sum_against_the_window_at_large_j():
    """At j = 1e6 (both paths apply) the bucketed enclosure of one conditional excess contains the
    term-by-term window sum and is narrower than rtol / 4; at j = 4e11 it is still that narrow.
    The bucketed sums come as (orders, problems): both orders in one call."""
    th = math.e / (1 + math.e)
    lams = [2.0, 64.0]
    lo, hi = pair_renyi._log_renyi_conditionals_bucketed([th], [1 - th], [10**6], 0.5, lams,
                                                         pair_renyi._bucket_step(1e-3))
    far_lo, far_hi = pair_renyi._log_renyi_conditionals_bucketed([th], [1 - th], [4 * 10**11], 0.5, lams,
                                                                 pair_renyi._bucket_step(1e-3))
    assert lo.shape == hi.shape == (2, 1)
    for i, lam in enumerate(lams):
        value, err = pair_renyi._log_renyi_conditionals(np.array([th]), np.array([1 - th]), np.array([1e6]), 0.5,
                                                        lam, 1e-6)
        assert lo[i, 0] <= value[0] and np.logaddexp(value[0], err[0]) <= hi[i, 0]
        assert -math.expm1(lo[i, 0] - hi[i, 0]) <= 1e-3 / 4
        assert -math.expm1(far_lo[i, 0] - far_hi[i, 0]) <= 1e-3 / 4


@pytest.mark.parametrize("make", [clones.clone_pair, clones.stronger_clone_pair, rdp.rr_pair],
                         ids=["clone", "stronger-clone", "rr"])
@pytest.mark.parametrize("n", [3, 10, 200])
def test_pair_renyi_at_eps0_50_encloses_the_mpmath_atom_sum(make, n):
    """At eps0 = 50, 1/(1 + e^-50) rounds to 1: a type-0 probability of 1 is a valid pair (it
    used to end in 'math domain error'); the enclosure holds the 70-digit atom sum."""
    pair = make(50.0, n)
    for order in (1.5, 2.0, 8.0):
        lo, hi = renyi(pair, order, rtol=1e-6)
        exact = float(mpmath.log(mp_renyi_moment(pair, order)) / (order - 1))
        assert lo <= exact <= hi and hi - lo <= 1e-5 * exact, (order, lo, exact, hi)


def test_pair_renyi_work_does_not_grow_with_n():
    """Every exact-pair curve at n = 1e12 in a few MB (it used to window the counts of a bucket
    with 1e12 - 1 clones: 24 million terms at eps0 = 50, MemoryError under a 2 GiB cap). The
    tracemalloc peak at n = 1e12 is bounded, and within a small factor of the one at n = 1e6."""
    import tracemalloc

    def peak(e0, n):
        tracemalloc.start()
        try:
            curves = rdp.rdp_curves(e0, n, [2.0, 8.0, 32.0], ["chen-exact", "stronger-clones", "exact"])
            assert all(isinstance(c, Curve) for c in curves)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    for e0 in (1.0, 15.0, 50.0):
        small, huge = peak(e0, 10**6), peak(e0, 10**12)
        assert huge < 32 << 20 and huge < 8 * max(small, 1 << 20), (e0, small, huge)


def test_curve_of_many_orders_encloses_the_mpmath_divergence_between_anchors():
    """A curve of more than _DIRECT_ORDERS orders is computed at anchors and enclosed in between
    by convexity of (lam - 1) D_lam: the enclosures at orders that are not anchors contain the
    40-digit atom sum, at a relative width of at most rtol."""
    pair = CountPair(60, 0.3, 0.8, 0.2)
    orders = np.arange(2.0, 202.0)
    rtol = 1e-3
    lo, hi = renyi_curve(pair, orders, rtol=rtol)
    anchors = orders[pair_renyi._anchor_mask(orders, 1.0 + pair_renyi._ANCHOR_SPACING * math.sqrt(rtol))]
    between = [float(orders[(orders >= start) & ~np.isin(orders, anchors)][0]) for start in (60.0, 130.0, 190.0)]
    for lam in between:
        k = int(lam - 2)
        exact = _mp_renyi(pair, lam)
        assert lo[k] <= exact <= hi[k] and hi[k] - lo[k] <= rtol * hi[k]


def test_interpolated_orders_enclose_a_convex_curve_and_fail_when_it_is_not_convex():
    """The enclosure between anchors holds for any curve with (lam - 1) D convex and D
    non-decreasing (here D = lam^2 exactly at the anchors), and is not a free pass: it misses a
    curve that is not convex between the anchors (a jump of D just above an anchor)."""
    anchors = np.array([2.0, 3.0, 5.0, 8.0, 12.0])
    d = anchors**2
    orders = np.array([2.5, 4.0, 6.0, 7.0, 11.0])
    lo, hi = pair_renyi._interpolated_orders(anchors, d, d, orders)
    assert np.all(lo <= orders**2) and np.all(orders**2 <= hi)
    jump = np.where(orders > 5.0, 200.0, orders**2)
    assert not np.all(jump <= hi)


def test_curve_of_many_orders_does_linear_work_in_fewer_anchors():
    """Work, not time: a curve of 1023 orders computes about 1 / (0.6 sqrt(rtol)) + log(1024 *
    0.6 sqrt(rtol)) / (0.6 sqrt(rtol)) orders directly (the anchors, and any order the convexity
    enclosure leaves wider than rtol), about 100 here, not every order; and its window sums share
    one table of counts per column across the orders."""
    pair = clones.clone_pair(1.0, 10**4)
    orders = np.arange(2.0, 1025.0)
    pair_renyi._WORK.update(table_counts=0, window_counts=0, direct_orders=0)
    lo, hi = renyi_curve(pair, orders, rtol=1e-2)
    assert 0 < pair_renyi._WORK["direct_orders"] <= 150 and pair_renyi._WORK["window_counts"] > 0
    assert pair_renyi._WORK["table_counts"] * 2 <= pair_renyi._WORK["window_counts"]
    assert np.all(hi - lo <= 1e-2 * hi) and np.all(lo > 0)
    for k in (0, 300, 701, 1022):
        d_lo, d_hi = renyi(pair, orders[k], rtol=1e-2)
        assert d_lo <= hi[k] and lo[k] <= d_hi


def test_window_sums_of_one_column_at_many_orders_share_one_table():
    """The order-free parts of the window terms of one (tp, tq, j) are computed once for all its
    orders (counted), and each order's sum equals that order computed alone within the error
    bounds."""
    orders = np.arange(40.0, 60.0)
    tps, tqs, js = (np.full(orders.size, v) for v in (0.7, 0.3, 20000.0))
    pair_renyi._WORK.update(table_counts=0, window_counts=0)
    value, err = pair_renyi._log_renyi_conditionals(tps, tqs, js, 0.4, orders, 1e-6)
    assert 0 < pair_renyi._WORK["table_counts"] * 10 <= pair_renyi._WORK["window_counts"]
    for k in (0, 19):
        alone, alone_err = pair_renyi._log_renyi_conditionals(tps[:1], tqs[:1], js[:1], 0.4, orders[k], 1e-6)
        assert abs(math.exp(value[k] - alone[0]) - 1.0) <= math.exp(err[k] - value[k]) + math.exp(alone_err[0] - alone[0])
