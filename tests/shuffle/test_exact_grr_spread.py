"""GRR on k > 3 options over every dataset (dptheory/shuffle/exact_grr.py): the augmented
experiment bounds every spread of the others' values outside the victim's two, and the search's
interval [worst concentrated dataset, worst augmented family] holds the worst case over every
dataset. Checked against the independent oracle of tests/oracles/grr_spread.py (mpmath, every
count vector of the others, every output histogram over the k values; the augmented experiment
from its definition)."""

from __future__ import annotations

import mpmath
import pytest

from dptheory.results import Kind
from dptheory.shuffle import exact_grr, methods as M, randomizers as R
from tests.oracles.grr_spread import SpreadOracle, every_pair, spreads

TOL = 1e-12


def _check_channel_and_search(k, n, eps0, fracs):
    """Every dataset's exact delta <= the augmented experiment of its (c1, c2, M) (oracle); the
    library's augmented experiment encloses the oracle's; the worst case over every dataset lies
    in the search's interval, which is exact (ends within 1e-9) at these sizes."""
    oracle = SpreadOracle(eps0, k, n)
    eng = exact_grr.GRR(R.grr(eps0, k), n)
    for frac in fracs:
        e = frac * eps0
        for c1, c2, m in every_pair(k, n):
            a_lo, a_hi = oracle.aug_delta(c1, c2, m, e)
            lib_lo, lib_hi = eng.hockey(eng.aug_law((c1, c2, m)), e)
            assert lib_lo <= a_hi * (1 + TOL) and a_lo <= lib_hi * (1 + TOL), (k, n, eps0, e, c1, c2, m)
            for spread in spreads(m, k):
                d_lo, _ = oracle.dataset_delta((c1, c2, *spread), e)
                assert d_lo <= a_hi, (k, n, eps0, e, c1, c2, spread, d_lo, a_hi)
        w_lo, w_hi, where = oracle.worst(e)
        lo, hi, counts = eng.search(e)
        assert lo <= w_hi * (1 + TOL) and w_lo <= hi * (1 + TOL), (k, n, eps0, e, lo, hi, w_lo, w_hi, where)
        assert hi - lo <= 1e-9 * hi + 1e-300, (k, n, eps0, e, lo, hi)


def test_every_spread_below_the_augmented_experiment_k4():
    _check_channel_and_search(4, 4, 1.0, [0.3])


@pytest.mark.slow
@pytest.mark.parametrize("k, n", [(4, 6), (5, 5), (6, 5)])
@pytest.mark.parametrize("eps0", [0.5, 2.0, 4.0])
def test_every_spread_below_the_augmented_experiment(k, n, eps0):
    _check_channel_and_search(k, n, eps0, [0.02, 0.2, 0.5, 0.8])


def test_augmented_equals_concentrated_where_the_victims_values_are_free_oracle():
    """With no other user on the victim's two values (c1 = c2 = 0) the augmented experiment and
    the concentrated dataset have the same delta: they differ only where every message lands
    outside values 1 and 2, where both laws agree between the two datasets. The same holds with
    no other user outside them (M = 0)."""
    oracle = SpreadOracle(1.5, 5, 5)
    for e in (0.05, 0.4, 1.0):
        for c1, c2, m in [(0, 0, 4), (3, 1, 0), (4, 0, 0)]:
            a_lo, a_hi = oracle.aug_delta(c1, c2, m, e)
            d_lo, d_hi = oracle.dataset_delta((c1, c2, m, 0, 0), e)
            assert mpmath.almosteq(a_lo, d_lo, rel_eps=1e-30) and mpmath.almosteq(a_hi, d_hi, rel_eps=1e-30)
    # elsewhere it can be strictly larger (the channel's price: 9% here)
    a_lo, _ = oracle.aug_delta(0, 2, 2, 1.05)
    _, d_hi = oracle.dataset_delta((0, 2, 2, 0, 0), 1.05)
    assert a_lo > 1.05 * d_hi


@pytest.mark.parametrize("k, eps0", [(4, 0.5), (6, 2.0), (8, 1.0)])
def test_augmented_equals_concentrated_where_the_victims_values_are_free(k, eps0):
    eng = exact_grr.GRR(R.grr(eps0, k), 30)
    for counts in [(0, 0, 29), (29, 0, 0), (20, 9, 0)]:
        for frac in (0.05, 0.3, 0.7):
            lo, hi = eng.hockey(eng.law(counts), frac * eps0)
            a_lo, a_hi = eng.hockey(eng.aug_law(counts), frac * eps0)
            assert a_lo <= hi and lo <= a_hi and a_hi - a_lo <= 1e-9 * a_hi, (counts, frac, lo, hi, a_lo, a_hi)


def test_augmented_experiment_built_with_every_message_is_the_dataset():
    """The direct formula of the augmented experiment with every message kept is the concentrated
    dataset's law, built user by user over four classes (another dynamic programme)."""
    eng = exact_grr.GRR(R.grr(1.0, 6), 12)
    for c1, c2, m in [(3, 2, 6), (0, 0, 11), (2, 5, 4)]:
        others = eng.law((c1, c2, m)).others
        for v in range(2):
            dp = eng._add(others, eng.rows[v])
            direct = eng._augment(eng._add(eng._a_others(c1, c2), eng.a_rows[v]), m, conc=True)
            for (h1, h2, a3), value in zip(zip(*dp.nonzero()), dp[dp.nonzero()]):
                assert direct[h1, h1 + h2, a3] == pytest.approx(value, rel=1e-12, abs=1e-300)
            assert direct.sum() == pytest.approx(1.0, rel=1e-12)


def test_exact_row_for_k_above_3():
    """The exact row for GRR on 5 options beyond the enumeration (the search): exact (the two ends
    meet), every dataset, the worst one named."""
    n = M.GRR_SEARCH_FROM_LARGE_K + 1
    res = M.epsilon(R.grr(1.0, 5), n, 1e-3, "exact", rtol=1e-4)
    assert res.kind is Kind.EXACT and res.upper - res.lower <= 2e-4 * res.upper
    assert "not pinned down" not in res.note
    assert f"of the other {n - 1} users" in res.params["attained_by"]
    low = M.epsilon(R.grr(1.0, 5), n, 1e-3, "grr-exact-lower")
    assert low.lower <= res.upper


@pytest.mark.slow
@pytest.mark.parametrize("k", [4, 5, 6, 7, 8])
def test_exact_row_k4_to_8_at_n40(k):
    res = M.epsilon(R.grr(1.0, k), 40, 1e-6, "exact", rtol=1e-5)
    assert res.kind is Kind.EXACT and res.upper - res.lower <= 2e-5 * res.upper
    assert "not pinned down" not in res.note
    upper = M.epsilon(R.grr(1.0, k), 40, 1e-6, "stronger-clones")
    lower = M.epsilon(R.grr(1.0, k), 40, 1e-6, "variation-ratio-lower")
    assert lower.lower <= res.upper and res.lower <= upper.upper


def test_open_interval_is_labelled(monkeypatch):
    """Where the two ends do not meet the row says so (forced here: a width of 1e-15 counts as open)."""
    monkeypatch.setattr(M, "GRR_OPEN_WIDTH", 1e-15)
    res = M.delta(R.grr(1.0, 5), 12, 0.3, "exact")
    assert "not pinned down" in res.note and "two-sided" in res.note
