"""dptheory.shuffle.rdp.girgis against independent computations (the cross-method tests are in test_shuffle_rdp.py)."""

import math

import mpmath
import numpy as np
import pytest

from dptheory.results import Status
from dptheory.shuffle import rdp
from dptheory.validate import ConditionError



def test_printed_theorem_3_3_fails_against_the_exact_value():
    """Girgis et al. Theorem 3.3 as printed, (eps0-1)^2/n and 8 eps0, is below the exact RDP of
    shuffled binary randomized response; the corrected form is above it."""
    for e0, n, order in [(1.0, 10**4, 4.0), (2.0, 10**4, 4.0), (0.9, 10**5, 10.0)]:
        exact_lo = rdp.lower_bound(e0, n, [order], rtol=1e-8).lower
        printed = rdp.UPPER_2_PRINTED(e0, n, order)
        corrected = rdp.upper_2(e0, n, [order])[0]
        assert printed < exact_lo[0] <= corrected
    assert rdp.UPPER_2_PRINTED(1.0, 10**4, 4.0) < 1e-150  # (eps0 - 1)^2 vanishes at eps0 = 1


def test_girgis_bounds_agree_with_their_formulas_at_50_digits():
    for e0, n, order in [(0.1, 10**4, 2), (0.1, 10**4, 10), (3.0, 10**4, 100), (1.0, 1000, 7), (0.5, 10**6, 50)]:
        ref = rdp.UPPER_1.mpmath(50)(e0, n, order)
        # the float64 value is an upper bound on the 50-digit one, inflated by at most 1e-10 relative
        assert float(ref) <= rdp.upper_1(e0, n, [order])[0] <= float(ref) * (1 + 2e-10)
    for e0, n, order in [(0.1, 10**4, 2.5), (3.0, 10**4, 100.0), (1.0, 10**6, 1.1)]:
        ref = rdp.UPPER_2.mpmath(50)(e0, n, order)
        assert float(ref) <= rdp.upper_2(e0, n, [order])[0] <= float(ref) * (1 + 2e-10)


def test_mixture_variant_against_independent_values():
    """Values computed independently of the toolkit (docs/errata.md#derived-girgis-mixture):
    n = 1e4, eps0 = 3: 0.0358 / 0.0703 at lam 2,
    0.736 / 0.962 at lam 10, 1.276 / 2.402 at lam 100; eps0 = 0.1, lam 10: 5.65e-6 / 1.14e-5."""
    for e0, order, mix, ub1 in [(3.0, 2, 0.0358, 0.0703), (3.0, 10, 0.736, 0.962), (3.0, 100, 1.276, 2.402),
                                (0.1, 10, 5.65e-6, 1.14e-5)]:
        assert abs(rdp.upper_1_mixture(e0, 10**4, [order])[0] - mix) <= 0.005 * mix
        assert abs(rdp.upper_1(e0, 10**4, [order])[0] - ub1) <= 0.005 * ub1


def _mp_mixture(e0, n, order, digits=40):
    """The mixture variant summed term by term at 40 digits: sum over every clone count m of
    Bin(m; n-1, e^-eps0) min(e^{eps0 lam} - 1, B_3.7(m + 1, lam) - 1) (Theorem 3.7)."""
    with mpmath.workdps(digits):
        e0 = mpmath.mpf(e0)
        q = mpmath.exp(-e0)
        s2h, s2 = mpmath.sinh(e0 / 2) ** 2, mpmath.sinh(e0) ** 2
        total = mpmath.mpf(0)
        for m in range(n):
            k = m + 1
            b = mpmath.binomial(order, 2) * 4 * s2h / k + mpmath.fsum(
                mpmath.binomial(order, i) * i * mpmath.gamma(mpmath.mpf(i) / 2) * (2 * s2 / k) ** (mpmath.mpf(i) / 2)
                for i in range(3, order + 1))
            w = mpmath.binomial(n - 1, m) * q**m * (1 - q) ** (n - 1 - m)
            total += w * min(mpmath.exp(e0 * order) - 1, b)
        return mpmath.log1p(total) / (order - 1)


@pytest.mark.parametrize("e0,n,order", [(1.0, 400, 2), (1.0, 400, 12), (3.0, 300, 40), (0.5, 1500, 150)])
def test_mixture_variant_bucket_sum_encloses_the_term_by_term_sum(e0, n, order):
    exact = float(_mp_mixture(e0, n, order))
    got = rdp.upper_1_mixture(e0, n, [order])[0]
    assert exact <= got <= exact * (1 + 2e-3)


def test_corollary_3_2_condition_and_certification():
    c = rdp.corollary_3_2(0.5, 10**6, [2, 3])
    # one status everywhere: the formula's (unproven); the note says it is at least Theorem 3.1 here
    assert c.status is Status.UNPROVEN and np.all(c.upper >= rdp.upper_1(0.5, 10**6, [2, 3]))
    assert "at least Theorem 3.1" in c.note
    with pytest.raises(ConditionError, match=r"\\lambda"):
        rdp.corollary_3_2(2.0, 10**4, [10])
    # Appendix A's proof needs n 'sufficiently large' (docs/errata.md#girgis2021-corollary-3-2):
    # n = 145, tiny eps0 satisfies the condition yet the simplified form is
    # below Theorem 3.1 there, so it is not certified
    assert rdp.corollary_3_2(1e-6, 145, [2]).status is Status.UNPROVEN


def test_corollary_3_2_condition_fast_check_matches_the_formula():
    """The float64 pre-check of lambda^4 e^(5 eps0) < n/9 agrees with the formula's exact check,
    at n on both sides of the edge for several orders."""
    from dptheory.shuffle.rdp.methods import _cor_3_2_holds

    o = np.arange(2, 40, dtype=float)
    for e0 in (0.3, 1.0):
        for lam in (2, 3, 10):
            edge = 9 * lam**4 * math.exp(5 * e0)
            for n in (math.floor(edge) - 1, math.floor(edge), math.ceil(edge), math.ceil(edge) + 1, 10**8):
                exact = [rdp.COROLLARY_3_2.holds(e0, n, int(k)) for k in o]
                assert _cor_3_2_holds(e0, n, o).tolist() == exact, (e0, n)


def _mp_b37_excess(e0, m, order, digits=50):
    """log(B_3.7(m, lam) - 1) of Theorem 3.7 summed over every i at ``digits`` digits."""
    with mpmath.workdps(digits):
        e0, m = mpmath.mpf(e0), mpmath.mpf(m)
        x = 2 * mpmath.sinh(e0) ** 2 / m
        total = mpmath.binomial(order, 2) * 4 * mpmath.sinh(e0 / 2) ** 2 / m + mpmath.fsum(
            mpmath.binomial(order, i) * i * mpmath.gamma(mpmath.mpf(i) / 2) * x ** (mpmath.mpf(i) / 2)
            for i in range(3, order + 1))
        return mpmath.log(total)


@pytest.mark.parametrize("e0,m,order", [(1.0, 3.7e5, 700), (1.0, 2e3, 700), (3.0, 1.0, 400), (0.1, 50.0, 600),
                                         (1.0, 3.7e5, 200)])
def test_b37_window_sum_against_the_full_sum_at_50_digits(e0, m, order):
    """The sum over i of Theorem 3.7, taken over a window around its largest term with geometric
    bounds on the rest, is an upper bound on the full sum at 50 digits within 1e-12 relative."""
    from dptheory.shuffle.rdp.girgis import _log_b37_excess

    exact = _mp_b37_excess(e0, m, order)
    got = float(_log_b37_excess(e0, m, order)[0])
    assert float(exact) - 1e-13 * abs(float(exact)) <= got <= float(exact) + 1e-12
    # with a cap below one of its terms, the value is the cap (the callers take the smaller)
    assert _log_b37_excess(e0, m, order, log_cap=float(exact) - 1.0)[0] == float(exact) - 1.0


def test_b37_window_work_per_order_follows_the_spread_of_the_terms_not_the_order():
    """The work of Theorem 3.7's sum at the clone counts of n = 1e6, eps0 = 1 (the bulk of
    Bin(n - 1, e^-1)): terms evaluated per count, against the lam - 2 of the full sum. It grows
    with the spread of the terms, about lam sqrt(x) (x = 2 sinh^2(eps0)/m, here sqrt(x) = 2.7e-3),
    not with lam."""
    from dptheory.shuffle.rdp.girgis import _log_b37_excess_counted

    m = np.linspace(3.6e5, 3.75e5, 40)
    per_count = {order: _log_b37_excess_counted(1.0, m, order)[1] / m.size for order in (257, 1024, 8192)}
    assert per_count[257] <= 40 and per_count[1024] <= 120 and per_count[8192] <= 500, per_count
    assert per_count[8192] <= 0.07 * (8192 - 2)
