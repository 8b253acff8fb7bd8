"""Renyi DP of the shuffle model (Girgis et al. 2021; Chen, Cao, Ge 2024): upper bounds >= exact
>= lower bounds, errata, mpmath agreement, approximations measured, bad input."""

import math

import mpmath
import numpy as np
import pytest

from dptheory import composition, rdp as rdp_module
from dptheory.results import Curve, Kind, Status
from dptheory.shuffle import clones, pair_renyi, randomizers as R, rdp
from dptheory.shuffle.pair_renyi import mp_renyi_moment, renyi, renyi_curve
from dptheory.validate import ConditionError, DomainError
from tests.conftest import raises_naming

ORDERS = np.array([1.5, 2.0, 3.0, 5.0, 10.0, 30.0])
INT_ORDERS = np.array([2, 3, 5, 10, 30])


def _uppers(e0, n, orders):
    out = {
        "girgis-upper-1": rdp.interpolate(lambda k: rdp.upper_1(e0, n, k), orders),
        "girgis-upper-1-mixture": rdp.interpolate(lambda k: rdp.upper_1_mixture(e0, n, k), orders),
        "girgis-upper-2": rdp.upper_2(e0, n, orders),
        "erlingsson-rdp": rdp.erlingsson(e0, n, orders),
        "chen-exact": rdp.clone_pair_rdp(e0, n, orders, rtol=1e-5).upper,
    }
    return out


def _random_ldp(seed, eps0):
    rng = np.random.default_rng(seed)
    m = np.exp(eps0 * rng.uniform(size=(3, 3)) / 2)
    return R.from_pmfs(m / m.sum(axis=1, keepdims=True))


@pytest.mark.parametrize("rz", [R.binary_rr(0.5), R.binary_rr(2.0), R.grr(1.0, 3), _random_ldp(0, 1.5), _random_ldp(1, 1.0)],
                         ids=lambda r: r.name)
def test_upper_bounds_dominate_the_exact_rdp_by_enumeration(rz):
    for n in (2, 3, 5):
        exact = rdp.exact_rdp(rz, n, ORDERS)
        for name, values in _uppers(rz.eps0, n, ORDERS).items():
            assert np.all(values >= exact * (1 - 1e-9)), (rz.name, n, name, values, exact)


@pytest.mark.parametrize("n", [2, 4, 6])
def test_lower_bound_is_the_exact_rdp_of_binary_rr_on_its_datasets(n):
    e0 = 1.2
    lo = rdp.lower_bound(e0, n, ORDERS, both_directions=True, rtol=1e-10).lower
    exact = rdp.exact_rdp(R.binary_rr(e0), n, ORDERS)
    assert np.all(lo <= exact * (1 + 1e-9))  # a lower bound on the worst case over datasets
    cor35 = rdp.COROLLARY_3_5.numpy()(e0, n, INT_ORDERS)
    lb_int = rdp.lower_bound(e0, n, INT_ORDERS, both_directions=False, rtol=1e-10).lower
    assert np.all(cor35 <= lb_int * (1 + 1e-9))  # equal at order 2


@pytest.mark.parametrize("e0", [0.1, 1.0, 3.0])
@pytest.mark.parametrize("n", [100, 10**4, 10**6])
def test_upper_at_least_lower_on_a_grid(e0, n):
    lo = rdp.lower_bound(e0, n, ORDERS, rtol=1e-5).lower
    for name, values in _uppers(e0, n, ORDERS).items():
        assert np.all(values >= lo * (1 - 1e-9)), (e0, n, name)


def test_printed_theorem_3_3_fails_against_the_exact_value():
    """Girgis et al. Theorem 3.3 as printed, (eps0-1)^2/n and 8 eps0, is below the exact RDP of
    shuffled binary randomized response; the corrected form is above it."""
    for e0, n, order in [(1.0, 10**4, 4.0), (2.0, 10**4, 4.0), (0.9, 10**5, 10.0)]:
        exact_lo = rdp.lower_bound(e0, n, [order], rtol=1e-8).lower
        printed = rdp.UPPER_2_PRINTED(e0, n, order)
        corrected = rdp.upper_2(e0, n, [order])[0]
        assert printed < exact_lo[0] <= corrected
    assert rdp.UPPER_2_PRINTED(1.0, 10**4, 4.0) < 1e-150  # (eps0 - 1)^2 vanishes at eps0 = 1


def test_printed_chen_theorem_1_law_is_non_conservative():
    """Chen et al. Theorem 1 prints D ~ Bern(e^-eps0); that pair's RDP is below the exact RDP of
    shuffled binary randomized response (so it is no upper bound); the corrected pair is above."""
    e0, n, order = 1.0, 10**4, 4.0
    printed = rdp.theorem_1_printed_law_rdp(e0, n, [order])[0]
    exact_lo = rdp.lower_bound(e0, n, [order], rtol=1e-8).lower
    corrected = rdp.clone_pair_rdp(e0, n, [order], rtol=1e-8).lower[0]
    assert printed < exact_lo[0] < corrected


def test_chen_theorem_1_knots_give_the_direct_divergence():
    """The corrected Theorem 1: the RDP from the trade-off function's knots (Lemma A.1) equals the
    divergence of the pair by the count-pair engine and by the mpmath atom sum."""
    e0, n = 0.8, 12
    f = rdp.clone_pair_tradeoff(e0, n)
    assert f.symmetric
    pair = clones.clone_pair(e0, n)
    for order in (1.5, 4.0, 20.0):
        via_f = f.renyi(order)
        lo, hi = renyi(pair, order, rtol=1e-12)
        ref = mpmath.log(mp_renyi_moment(pair, order, 50)) / (order - 1)
        assert lo <= ref <= hi
        assert abs(via_f - float(ref)) < 1e-12 * float(ref)


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


def test_girgis_bounds_agree_with_their_formulas_at_50_digits():
    for e0, n, order in [(0.1, 10**4, 2), (0.1, 10**4, 10), (3.0, 10**4, 100), (1.0, 1000, 7), (0.5, 10**6, 50)]:
        ref = rdp.UPPER_1.mpmath(50)(e0, n, order)
        # the float64 value is an upper bound on the 50-digit one, inflated by at most 1e-10 relative
        assert float(ref) <= rdp.upper_1(e0, n, [order])[0] <= float(ref) * (1 + 2e-10)
    for e0, n, order in [(0.1, 10**4, 2.5), (3.0, 10**4, 100.0), (1.0, 10**6, 1.1)]:
        ref = rdp.UPPER_2.mpmath(50)(e0, n, order)
        assert float(ref) <= rdp.upper_2(e0, n, [order])[0] <= float(ref) * (1 + 2e-10)


@pytest.mark.parametrize("e0,n,order", [(0.1, 1000, 5), (3.0, 1000, 5), (1.0, 500, 20), (0.5, 3000, 12)])
def test_lower_bound_moment_formula_matches_the_exact_sum_at_50_digits(e0, n, order):
    """Theorem 3.4 with exact binomial central moments (cumulant recursion, mpmath 50 digits)
    equals the direct sum; the digest's independent values 0.043417 (eps0 3) and 0.021154 (eps0 1)."""
    c = rdp.lower_bound(e0, n, [order], both_directions=False, rtol=1e-12)
    lo, hi = c.lower, c.upper
    moments = rdp.lower_bound_moments(e0, n, order, digits=50)
    assert lo[0] * (1 - 1e-12) <= moments <= hi[0] * (1 + 1e-12)
    if (e0, n, order) == (3.0, 1000, 5):
        assert abs(float(moments) - 0.043417) < 5e-7
        assert abs(rdp.lower_bound(e0, n, [order]).upper[0] - 0.048593) < 5e-7  # the other direction


def test_digest_values_of_the_mixture_variant():
    """Digest seed-004 §4.3 (independent computation): n = 1e4, eps0 = 3: 0.0358 / 0.0703 at lam 2,
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


def test_real_orders_by_interpolation_are_valid():
    e0, n = 1.0, 4
    real = np.array([1.3, 2.5, 3.7, 6.2])
    interp = rdp.interpolate(lambda k: rdp.upper_1(e0, n, k), real)
    exact = rdp.exact_rdp(R.binary_rr(e0), n, real)
    assert np.all(interp >= exact)
    ints = np.array([2.0, 3.0, 7.0])
    assert np.allclose(rdp.interpolate(lambda k: rdp.upper_1(e0, n, k), ints), rdp.upper_1(e0, n, ints))


def test_corollary_3_2_condition_and_certification():
    c = rdp.corollary_3_2(0.5, 10**6, [2, 3])
    assert c.status is Status.PROVEN and np.all(c.upper >= rdp.upper_1(0.5, 10**6, [2, 3]))
    with pytest.raises(ConditionError, match=r"\\lambda"):
        rdp.corollary_3_2(2.0, 10**4, [10])
    # digest seed-004 §4.5: n = 145, tiny eps0 satisfies the condition yet the simplified form is
    # below Theorem 3.1 there, so it is not certified
    assert rdp.corollary_3_2(1e-6, 145, [2]).status is Status.UNPROVEN


def test_chen_approximations_measured_against_the_exact_pair():
    """Corollary 2 is loose by about coth^2(eps0/2); the refined Gaussian limit tanh(eps0/2) mu is
    within 1% of the exact RDP of the pair at n = 1e4 (digest seed-001 §5.6: 0.6%)."""
    n, order = 10**4, 4.0
    for e0 in (0.5, 1.0, 2.0, 4.0):
        exact_hi = rdp.clone_pair_rdp(e0, n, [order], rtol=1e-8).upper
        cor2 = rdp.CHEN_RDP(e0, n, order)
        refined = rdp_module.gdp_to_rdp(float(rdp.CHEN_GDP_REFINED(e0, n)), order)
        ratio = cor2 / exact_hi[0]
        assert abs(ratio / (1 / math.tanh(e0 / 2) ** 2) - 1) < 0.01, (e0, ratio)
        assert abs(refined / exact_hi[0] - 1) < 0.01
    # digest: q = e^-1, eps0 = 1: exact 4.6442e-4, asymptotic 4.6444e-4
    hi = rdp.clone_pair_rdp(1.0, 10**4, [4.0], rtol=1e-8).upper
    assert abs(hi[0] - 4.6442e-4) < 1e-8


def test_poisson_subsampling_bound_dominates_the_exact_subsampled_gaussian():
    """Zhu and Wang's general bound, applied to the Gaussian mechanism's RDP a/(2 s^2), is above the
    exact Poisson-subsampled Gaussian RDP, sum_k C(a,k)(1-g)^(a-k) g^k e^{(k^2-k)/(2 s^2)}
    (Mironov, Talwar, Zhang 2019, integer orders; computed here at 50 digits)."""
    for sigma, g in [(1.0, 0.01), (2.0, 0.1), (0.8, 0.05)]:
        for a in (2, 3, 8, 20):
            bound = composition.poisson_subsampled_rdp(lambda l: l / (2 * sigma**2), a, g)
            with mpmath.workdps(50):
                s = mpmath.fsum(mpmath.binomial(a, k) * (1 - mpmath.mpf(g)) ** (a - k) * mpmath.mpf(g) ** k
                                * mpmath.exp((k * k - k) / (2 * mpmath.mpf(sigma) ** 2)) for k in range(a + 1))
                exact_v = float(mpmath.log(s) / (a - 1))
            assert exact_v <= bound + 1e-15
            assert bound <= a / (2 * sigma**2)


def test_kov_matches_dp_accounting_test_vectors():
    """KOV Theorem 3.3 as in dp_accounting's advanced_composition tests:
    (eps, delta, k, total_delta) -> 30, 22, 20, None, None."""
    cases = [((1, 0, 30, 0), 30), ((1, 0.001, 30, 0.06), 22), ((1, 0.001, 30, 0.1), 20), ((1, 0.2, 1, 0.1), None),
             ((1, 0.01, 30, 0.26), None)]
    for args, expected in cases:
        got = composition.kov_optimal_epsilon(*args)
        assert (got is None and expected is None) or math.isclose(got, expected)
    eps_closed, _ = composition.kov_closed_form(1.0, 0.001, 30, 0.05)
    assert eps_closed >= composition.kov_optimal_epsilon(1.0, 0.001, 30, 1 - (1 - 0.001) ** 30 * 0.95)
    assert composition.subsample_dp(1.0, 1e-5, 0.01) == pytest.approx((math.log1p(0.01 * math.expm1(1.0)), 1e-7))


def test_shuffled_sgd_accountant():
    """Chen et al.'s accountant: its Gaussian approximations are labelled "not a bound" (they were
    "proven" before), Theorem 3's epsilon is the mu-GDP epsilon at mu = sqrt(T) 2 e^(eps0/2) /
    sqrt(m - 1) solved at 50 digits, and each certified route is Lemma 2.1 at the order it reports,
    recomputed from the closed form at 50 digits."""
    rows = {r.method: r for r in rdp.shuffled_sgd_epsilon(1.0, 100, 50, 1e-5)}
    for slug in ("chen-theorem-3", "chen-gdp-refined"):
        assert rows[slug].kind is Kind.APPROXIMATION and rows[slug].status is Status.NOT_A_BOUND
    certified = [r for r in rows.values() if r.kind is Kind.UPPER]
    assert {r.method for r in certified} == {"chen-exact", "girgis-upper-1", "girgis-upper-2"}
    assert all(r.status is Status.PROVEN for r in certified)
    assert rows["chen-exact"].upper <= min(rows["girgis-upper-1"].upper, rows["girgis-upper-2"].upper)
    with mpmath.workdps(50):
        mu = mpmath.sqrt(50) * 2 * mpmath.exp(mpmath.mpf(0.5)) / mpmath.sqrt(99)
        gap = lambda e: (mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)
                         - mpmath.mpf(1e-5))
        ref = mpmath.findroot(gap, 12)
    assert rows["chen-theorem-3"].lower <= ref <= rows["chen-theorem-3"].upper
    route = rows["girgis-upper-2"]
    o = route.params["order"]
    with mpmath.workdps(50):
        rho_T = 50 * rdp.UPPER_2.mpmath(50)(1.0, 100, o)
        ref2 = rho_T + mpmath.log((o - 1) / mpmath.mpf(o)) - (mpmath.log(mpmath.mpf(1e-5)) + mpmath.log(o)) / (o - 1)
    assert ref2 <= route.upper <= ref2 * (1 + 1e-9)


def test_large_orders_do_not_overflow():
    """e^{eps0 lam} = e^{10000} and Gamma(lam/2) overflow float64; every routine stays finite and
    the closed forms match their 50-digit values."""
    e0, n, order = 5.0, 10**5, 2000
    ub1 = rdp.upper_1(e0, n, [order])[0]
    ref1 = float(rdp.UPPER_1.mpmath(50)(e0, n, order))
    assert math.isfinite(ub1) and ref1 <= ub1 <= ref1 * (1 + 2e-10)
    ub2 = rdp.upper_2(e0, n, [float(order)])[0]
    ref2 = float(rdp.UPPER_2.mpmath(50)(e0, n, order))
    assert math.isfinite(ub2) and ref2 <= ub2 <= ref2 * (1 + 2e-10)
    mix = rdp.upper_1_mixture(e0, n, [order])[0]
    lo = rdp.lower_bound(e0, n, [float(order)], rtol=1e-6).lower
    pair = rdp.clone_pair_rdp(e0, n, [float(order)], rtol=1e-4)
    pair_lo, pair_hi = pair.lower, pair.upper
    # every value is finite, ordered, and below the pure-DP ceiling eps0 lam / (lam - 1)
    assert 0 < lo[0] <= pair_lo[0] <= pair_hi[0] <= min(mix, ub1) <= e0 * order / (order - 1) * (1 + 1e-12)


def test_bad_inputs():
    with raises_naming("orders", "(1, inf)"):
        rdp.upper_2(1.0, 100, [1.0])
    with raises_naming("orders", "integer"):
        rdp.upper_1(1.0, 100, [2.5])
    with raises_naming("eps0", "[0, inf)"):
        rdp.upper_1(-1.0, 100, [2])
    with raises_naming("n", "[1, inf]"):
        rdp.upper_2(1.0, 0, [2.0])
    with raises_naming("nbar_mode"):
        rdp.upper_1(1.0, 100, [2], nbar_mode="round")
    with raises_naming("blocks", "[2, inf]"):
        rdp.shuffled_sgd_epsilon(1.0, 1, 10, 1e-5)
    with pytest.raises(DomainError, match="integer"):
        rdp.COROLLARY_3_5(1.0, 100, 2.5)


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
    term-by-term window sum and is narrower than rtol / 4; at j = 4e11 it is still that narrow."""
    th = math.e / (1 + math.e)
    for lam in (2.0, 64.0):
        lo, hi = pair_renyi._log_renyi_conditionals_bucketed([th], [1 - th], [10**6], 0.5, [lam],
                                                             pair_renyi._bucket_step(1e-3))
        value, err = pair_renyi._log_renyi_conditionals(np.array([th]), np.array([1 - th]), np.array([1e6]), 0.5,
                                                        lam, 1e-6)
        assert lo[0] <= value[0] and np.logaddexp(value[0], err[0]) <= hi[0]
        assert -math.expm1(lo[0] - hi[0]) <= 1e-3 / 4
        lo, hi = pair_renyi._log_renyi_conditionals_bucketed([th], [1 - th], [4 * 10**11], 0.5, [lam],
                                                             pair_renyi._bucket_step(1e-3))
        assert -math.expm1(lo[0] - hi[0]) <= 1e-3 / 4


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
