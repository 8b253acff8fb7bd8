"""The exact worst case of shuffled binary randomized response (dptheory/shuffle/exact_rr.py)
against independent computations: the enumeration oracle of tests/oracles/exact_shuffle.py
(mpmath, every histogram, every dataset) at small n, a user-by-user float convolution over every
dataset (no threshold form, no branch and bound) at moderate n, and the 60-digit path."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from dptheory.shuffle import exact_rr, methods as M, randomizers as R
from dptheory.validate import DomainError
from tests.oracles.exact_shuffle import ShuffleOracle, pmfs_of


def _user_by_user(n: int, eps0: float, epsilon: float):
    """max over every dataset (c others hold 1) and both directions of the hockey-stick sum of the
    count of ones, each law built by convolving the users' Bernoulli laws one at a time (float64):
    (largest value, its c, the list of values per c of the first direction)."""
    q = 1 / (1 + math.exp(eps0))
    p = 1 - q
    g = math.exp(epsilon)
    m = n - 1
    per_c = []
    for c in range(m + 1):
        law = np.ones(1)
        for bit in [0] * (m - c) + [1] * c:
            one = p if bit else q
            law = np.convolve(law, [1 - one, one])
        p0 = np.convolve(law, [p, q])
        p1 = np.convolve(law, [q, p])
        per_c.append(max(np.maximum(p0 - g * p1, 0).sum(), np.maximum(p1 - g * p0, 0).sum()))
    k = int(np.argmax(per_c))
    return per_c[k], k, per_c


@pytest.mark.parametrize("n", [2, 3, 5, 8])
@pytest.mark.parametrize("eps0", [0.5, 2.0])
def test_encloses_the_enumeration_oracle(n, eps0):
    rz = R.binary_rr(eps0)
    oracle = ShuffleOracle(pmfs_of("binary-rr", eps0), n, dps=30)
    eng = exact_rr.BinaryRR(*exact_rr.rr_parameters(rz)[:2], n, exact_rr.rr_parameters(rz)[2])
    for frac in (0.0, 0.1, 0.5, 0.9):
        e = frac * eps0
        lo, hi, _, _, _ = eng.search(e)
        o_lo, o_hi = oracle.delta(e)
        assert lo <= o_hi * (1 + 1e-12) and o_lo <= hi * (1 + 1e-12), (n, eps0, e, lo, hi, o_lo, o_hi)
        assert hi - lo <= 1e-9 * max(hi, 1e-300) + 1e-300


def _check_exhaustive(n, eps0s, fracs):
    for eps0 in eps0s:
        rz = R.binary_rr(eps0)
        eng = exact_rr.engine(rz, n)
        for frac in fracs:
            e = frac * eps0
            value, _, per_c = _user_by_user(n, eps0, e)
            lo, hi, c, _, _ = eng.search(e)
            tol = 1e-9 * value + 1e-15
            assert lo - tol <= value <= hi + tol, (n, eps0, e, lo, value, hi)
            # the reported dataset attains the maximum (up to the float error of the brute force)
            assert max(per_c[c], per_c[n - 1 - c]) >= value - 2 * tol
            assert hi - lo <= 1e-6 * hi + 1e-15


def test_every_dataset_small_n():
    """The worst dataset is not always all others on one value (n = 50, eps0 = 4, epsilon = 0.04:
    23 others hold 1): the search finds the maximum over every dataset."""
    _check_exhaustive(50, [0.5, 1.0, 4.0], [0.01, 0.1, 0.5])
    value, c, _ = _user_by_user(50, 4.0, 0.04)
    assert 0 < c < 48
    lo, hi, c_found, _, _ = exact_rr.engine(R.binary_rr(4.0), 50).search(0.04)
    assert lo <= value * (1 + 1e-9) and value <= hi * (1 + 1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("n", [200, 500])
def test_every_dataset_exhaustive(n):
    _check_exhaustive(n, [0.5, 1.0, 2.0, 4.0], [0.01, 0.05, 0.2, 0.6])


def test_mp_path_matches_enumeration_oracle():
    n, eps0, e = 6, 1.0, 0.3
    oracle = ShuffleOracle(pmfs_of("binary-rr", eps0), n, dps=40)
    best = max(exact_rr.delta_dataset_mp(R.binary_rr(eps0), n, c, e, digits=40) for c in range(n))
    o_lo, o_hi = oracle.delta(e)
    with mpmath.workdps(60):
        assert o_lo * (1 - mpmath.mpf(10) ** -30) <= best <= o_hi * (1 + mpmath.mpf(10) ** -30)


@pytest.mark.parametrize("c", [0, 3, 1999])
def test_mp_path_within_float_enclosure(c):
    n, eps0, e = 2000, 1.0, 0.12
    eng = exact_rr.engine(R.binary_rr(eps0), n)
    law = eng.law(c, 1e-40)
    coeffs = eng._coefficients(e)
    lo, hi = eng.lower_bound(law, coeffs), eng.upper_bound(law, coeffs)
    v = exact_rr.delta_dataset_mp(R.binary_rr(eps0), n, c, e, digits=60)
    assert lo <= v <= hi
    assert hi - lo <= 1e-8 * hi


def test_worst_case_mp_within_float_search():
    n, eps0, e = 1000, 1.0, 0.12
    rz = R.binary_rr(eps0)
    v, c = exact_rr.worst_case_mp(rz, n, e, digits=60)
    lo, hi, _, _, _ = exact_rr.engine(rz, n).search(e)
    assert lo <= v <= hi


def test_exact_method_between_proven_bounds():
    rz = R.binary_rr(1.0)
    n = 2000
    exact = M.epsilon(rz, n, 1e-6, "exact")
    upper = M.epsilon(rz, n, 1e-6, "variation-ratio")
    lower = M.epsilon(rz, n, 1e-6, "variation-ratio-lower")
    assert lower.lower <= exact.upper and exact.lower <= upper.upper
    assert exact.upper - exact.lower <= 2e-3 * exact.upper


def test_general_class_lower_bound_is_binary_rr_exact():
    n = 1000
    low = M.epsilon(R.general_ldp(1.0), n, 1e-6, "binary-rr-exact-lower")
    exact = M.epsilon(R.binary_rr(1.0), n, 1e-6, "exact")
    assert low.kind.value == "lower"
    assert low.upper <= exact.upper * (1 + 1e-12)
    assert low.upper <= M.epsilon(R.general_ldp(1.0), n, 1e-6, "variation-ratio").upper


def test_not_binary_rr_is_refused():
    with pytest.raises(DomainError, match="not binary"):
        exact_rr.engine(R.grr(1.0, 3), 100)


def test_epsilon_mp_inside_the_float_bracket_and_inverts_the_profile():
    n, eps0, d = 300, 1.0, 1e-6
    rz = R.binary_rr(eps0)
    e, c = exact_rr.epsilon_mp(rz, n, d, digits=40)
    bracket = M.epsilon(rz, n, d, "exact", rtol=1e-6)
    assert bracket.lower <= e <= bracket.upper
    # the brute force over every dataset, just below and just above the 40-digit epsilon
    below, _, _ = _user_by_user(n, eps0, float(e) * (1 - 1e-7))
    above, _, _ = _user_by_user(n, eps0, float(e) * (1 + 1e-7))
    assert below > d > above


def test_epsilon_names_a_dataset_attaining_its_lower_end():
    """The dataset an epsilon(delta) answer names (the one the inversion certified at its lower
    end) has delta(lower end) >= delta, by the 40-digit path."""
    import re

    n, d = 300, 1e-6
    rz = R.binary_rr(1.0)
    res = M.epsilon(rz, n, d, "exact", rtol=1e-6)
    text = res.params["attained_by"]
    found = re.search(r"(\d+) of the other", text)
    c = 0 if "all hold 0" in text else n - 1 if "all hold 1" in text else int(found.group(1))
    v = exact_rr.delta_dataset_mp(rz, n, c, res.lower, digits=40)
    assert v >= d * (1 - 1e-12)


def test_one_outcome_lower_end_is_below_the_dataset_it_comes_from():
    """The one-outcome bound (one term of dataset c = 0) against that dataset's whole divergence at
    30 digits (delta_dataset_mp), where the float search still ranks datasets (n = 5000,
    eps = 0.6: delta about e^-606) and it is below the search's certified upper end."""
    rz = R.binary_rr(1.0)
    eng = exact_rr.engine(rz, 5000)
    one = eng.log_lower_one_outcome(0.6)
    dataset = float(mpmath.log(exact_rr.delta_dataset_mp(rz, 5000, 0, 0.6, digits=30)))
    assert one is not None and one <= dataset <= eng.log_delta(0.6).log_upper
    assert dataset - one < math.log(8.0)  # one term of a sum whose terms fall geometrically


def test_exact_lower_end_is_positive_where_delta_underflows():
    """n = 2e4, eps = 0.3: delta is about e^-702, below the search's floor (1e-300), where its
    lower end is 0; the enclosure's lower end is the one-outcome bound (was -inf: the command
    printed 0 for a positive delta)."""
    eng = exact_rr.engine(R.binary_rr(1.0), 20000)
    enc = eng.log_delta(0.3)
    assert -720.0 < enc.log_lower <= enc.log_upper
    assert enc.log_lower < math.log(1e-300)


@pytest.mark.slow
def test_one_outcome_lower_end_far_below_the_float_range_against_50_digits():
    """n = 2e4, eps = 0.3: the bound below the c = 0 dataset's divergence at 50 digits."""
    rz = R.binary_rr(1.0)
    one = exact_rr.engine(rz, 20000).log_lower_one_outcome(0.3)
    dataset = float(mpmath.log(exact_rr.delta_dataset_mp(rz, 20000, 0, 0.3, digits=50)))
    assert one is not None and one <= dataset and dataset - one < math.log(8.0)


@pytest.mark.parametrize("rz, expected", [
    (R.binary_rr(1.0), True), (R.binary_rr(0.01), True), (R.grr(1.0, 2), True),
    (R.binary_rr(40.0), False),  # p rounds to 1 in float64
    (R.grr(1.0, 3), False), (R.unary_encoding(1.0, 2), False), (R.general_ldp(1.0), False),
])
def test_is_binary_rr_is_the_test_of_rr_parameters(rz, expected):
    """The applicability of the binary randomized-response methods reads the float pmfs only;
    rr_parameters, which also measures the pmfs' rounding with mpmath, is None exactly where
    is_binary_rr is False."""
    assert exact_rr.is_binary_rr(rz) is expected
    assert (exact_rr.rr_parameters(rz) is not None) is expected
    if expected:
        q, p, rel = exact_rr.rr_parameters(rz)
        assert (q, p) == (rz.pmfs[0][1], rz.pmfs[0][0]) and 0 <= rel < 1e-15
