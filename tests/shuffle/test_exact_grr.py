"""The worst case of shuffled generalized randomized response (dptheory/shuffle/exact_grr.py)
against independent computations: the enumeration oracle of tests/oracles/exact_shuffle.py
(mpmath, every histogram, every pair of datasets) at small n, the library's enumeration of every
dataset (dptheory/shuffle/exact.py: another dynamic programme, symmetry orbits, no branch and
bound) at moderate n, and the 50-digit value of the reported dataset."""

from __future__ import annotations

import mpmath
import pytest

from dptheory.shuffle import exact, exact_grr, methods as M, randomizers as R
from dptheory.validate import DomainError
from tests.oracles.exact_shuffle import ShuffleOracle, pmfs_of


@pytest.mark.parametrize("n", [3, 5])
@pytest.mark.parametrize("eps0", [0.5, 2.0])
def test_grr3_encloses_the_enumeration_oracle(n, eps0):
    oracle = ShuffleOracle(pmfs_of("grr", eps0, d=3), n, dps=30)
    eng = exact_grr.GRR(R.grr(eps0, 3), n)
    for frac in (0.0, 0.2, 0.6):
        e = frac * eps0
        lo, hi, _ = eng.search(e)
        o_lo, o_hi = oracle.delta(e)
        assert lo <= o_hi * (1 + 1e-12) and o_lo <= hi * (1 + 1e-12), (n, eps0, e, lo, hi, o_lo, o_hi)
        assert hi - lo <= 1e-9 * hi + 1e-300


def _against_enumeration(k, n, eps0s, fracs):
    for eps0 in eps0s:
        rz = R.grr(eps0, k)
        eng = exact_grr.GRR(rz, n)
        enum = exact.engine(rz, n)
        for frac in fracs:
            e = frac * eps0
            lo, hi, counts = eng.search(e)
            e_lo, _, e_hi, a, b = enum.evaluate(e)
            assert lo <= e_hi and e_lo <= hi, (k, n, eps0, e, lo, hi, e_lo, e_hi, counts, a, b)
            assert hi - lo <= 1e-6 * hi


def test_grr3_every_dataset_moderate_n():
    """GRR on 3 options: the search (every dataset) agrees with the enumeration of every dataset."""
    _against_enumeration(3, 14, [0.5, 1.0, 4.0], [0.02, 0.2, 0.6])


def test_concentrated_arrangement_is_the_worst_small_n():
    """GRR on k > 3 options: the largest delta over every dataset (enumeration) lies in the
    search's interval (the worst concentrated dataset, the worst augmented experiment), which is
    exact here: the worst dataset has the others' values outside the victim's two on one value."""
    _against_enumeration(4, 9, [0.5, 2.0], [0.05, 0.3, 0.7])


@pytest.mark.slow
@pytest.mark.parametrize("k, n", [(4, 13), (5, 10), (6, 8)])
def test_concentrated_arrangement_is_the_worst(k, n):
    _against_enumeration(k, n, [0.5, 1.0, 2.0, 4.0], [0.02, 0.1, 0.3, 0.6, 0.9])


@pytest.mark.slow
def test_grr3_every_dataset_n40():
    _against_enumeration(3, 40, [0.5, 1.0, 2.0], [0.05, 0.3, 0.7])


def test_reported_dataset_at_50_digits():
    """The worst dataset's value at 50 digits (the library's mpmath enumeration of that one pair,
    from the exact pmfs) lies in the search's enclosure."""
    _reported_dataset_at_50_digits(16, 1.0, 0.4)


def _reported_dataset_at_50_digits(n, eps0, e):
    """The search's enclosure (lo, hi) at epsilon ``e``, after checking that it holds the 50-digit
    value of the dataset it reports."""
    rz = R.grr(eps0, 3)
    lo, hi, counts = exact_grr.GRR(rz, n).search(e)
    a, b = exact_grr.worst_dataset(counts, n, 3)
    v = exact.delta(rz, a, b, e, digits=50)
    with mpmath.workdps(50):
        assert mpmath.mpf(lo) <= v <= mpmath.mpf(hi)
    return lo, hi


def test_exact_method_between_proven_bounds_and_names_the_dataset():
    rz = R.grr(1.0, 3)
    n = M.GRR_SEARCH_FROM
    exact_res = M.epsilon(rz, n, 1e-6, "exact", rtol=1e-4)
    upper = M.epsilon(rz, n, 1e-6, "stronger-clones")
    lower = M.epsilon(rz, n, 1e-6, "variation-ratio-lower")
    assert lower.lower <= exact_res.upper and exact_res.lower <= upper.upper
    assert exact_res.upper - exact_res.lower <= 2e-4 * exact_res.upper
    assert f"of the other {n - 1} users" in exact_res.params["attained_by"]


def test_general_class_lower_bound_is_grr_worst_dataset():
    n = M.GRR_SEARCH_FROM
    low = M.epsilon(R.general_ldp(1.0), n, 1e-6, "grr-exact-lower")
    ex = M.epsilon(R.grr(1.0, 3), n, 1e-6, "exact")
    assert low.kind.value == "lower"
    assert low.upper <= ex.upper * (1 + 1e-12)
    assert low.upper <= M.epsilon(R.general_ldp(1.0), n, 1e-6, "stronger-clones").upper
    assert "3 options" in low.params["attained_by"]


def test_not_grr_is_refused():
    with pytest.raises(DomainError, match="not generalized"):
        exact_grr.engine(R.binary_rr(1.0), 10)


@pytest.mark.slow
@pytest.mark.parametrize("eps0, e", [(1.0, 0.3), (2.0, 1.0)])
def test_reported_dataset_at_50_digits_n100(eps0, e):
    lo, hi = _reported_dataset_at_50_digits(100, eps0, e)
    assert hi - lo <= 1e-6 * hi
