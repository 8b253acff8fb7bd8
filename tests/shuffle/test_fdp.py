"""f-DP of shuffling (Wang et al. 2023, Prop. 4.1, Thm 4.2, Cor. 4.3) against independent oracles.

The oracles here do not use dptheory.shuffle.fdp: the pair (P0, Q0) and (P, Q) is enumerated
atom by atom with mpmath at 40 digits (:func:`_pairs`), its Neyman-Pearson knots and
hockey-stick divergence are summed directly, and the exact delta of shuffled binary randomized
response comes from the enumeration oracle tests/oracles/exact_shuffle.py.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import mpmath
import numpy as np
import pytest

from dptheory import tradeoff
from dptheory.results import Kind, Status
from dptheory.shuffle import fdp
from dptheory.shuffle.fdp import tradeoff as fdp_tradeoff
from dptheory.shuffle.clones import clone_pair, stronger_clone_pair
from dptheory.shuffle import variation_ratio as vr
from dptheory.validate import DomainError

from tests.oracles.exact_shuffle import ShuffleOracle, grr_pmfs

DPS = 40


@lru_cache(maxsize=None)
def _pairs(eps0: float, n: int, clone_prob: str = "stronger"):
    """Atoms (a, b) of (P0, Q0) and (P, Q) with mpmath masses: {(a, b): (p0, q0, p, q)}."""
    with mpmath.workdps(DPS):
        E = mpmath.exp(mpmath.mpf(eps0))
        w = 1 / (E + 1)
        qc = 2 * w if clone_prob == "stronger" else 1 / E
        atoms = {}
        for i in range(n):
            wi = mpmath.binomial(n - 1, i) * qc**i * (1 - qc) ** (n - 1 - i)
            for a in range(i + 2):
                b = i + 1 - a
                p0 = wi * mpmath.binomial(i, a - 1) / 2**i if a >= 1 else mpmath.mpf(0)
                q0 = wi * mpmath.binomial(i, a) / 2**i if a <= i else mpmath.mpf(0)
                atoms[(a, b)] = (p0, q0, (1 - w) * p0 + w * q0, (1 - w) * q0 + w * p0)
        return atoms, w


def _np_knot(eps0, n, t: Fraction):
    """Neyman-Pearson knot of T(P0, Q0) at threshold t: reject P0 on {a/b <= t}."""
    atoms, _ = _pairs(eps0, n)
    with mpmath.workdps(DPS):
        alpha = mpmath.fsum(p0 for (a, b), (p0, q0, _, _) in atoms.items() if b > 0 and Fraction(a, b) <= t)
        beta = mpmath.fsum(q0 for (a, b), (p0, q0, _, _) in atoms.items() if b == 0 or Fraction(a, b) > t)
        return alpha, beta


def _hockey(eps0, n, gamma, which: str, clone_prob: str = "stronger"):
    """H_gamma(P0||Q0) (which = "0") or H_gamma(P||Q) (which = "PQ") by the atom sum."""
    atoms, _ = _pairs(eps0, n, clone_prob)
    with mpmath.workdps(DPS):
        g = mpmath.mpf(gamma)
        k = (0, 1) if which == "0" else (2, 3)
        return mpmath.fsum(max(mpmath.mpf(0), v[k[0]] - g * v[k[1]]) for v in atoms.values())


def _cor43_reference(eps0, n, epsilon):
    """(1 - 2w) H_{e^eps~}(P0||Q0), e^eps~ = (e^eps - 2w)/(1 - 2w), from the atoms."""
    _, w = _pairs(eps0, n)
    with mpmath.workdps(DPS):
        g = (mpmath.exp(mpmath.mpf(epsilon)) - 2 * w) / (1 - 2 * w)
        return (1 - 2 * w) * _hockey(eps0, n, g, "0")


def _grouped(eps0, n, k, clone_prob="stronger"):
    """Masses (components k, k + 1 of the atoms) summed per exact ratio a/b at DPS digits, so
    that from_pmfs has no equal ratios left to merge (it merges at mpmath's default precision)."""
    atoms, _ = _pairs(eps0, n, clone_prob)
    groups = {}
    with mpmath.workdps(DPS):
        for (a, b), v in atoms.items():
            key = Fraction(a, b) if b else None
            p, q = groups.get(key, (mpmath.mpf(0), mpmath.mpf(0)))
            groups[key] = (p + v[k], q + v[k + 1])
    return [g[0] for g in groups.values()], [g[1] for g in groups.values()]


def _exact_pq(eps0, n, clone_prob="stronger") -> tradeoff.PiecewiseLinear:
    return tradeoff.from_pmfs(*_grouped(eps0, n, 2, clone_prob), digits=DPS)


def _exact_p0q0(eps0, n) -> tradeoff.PiecewiseLinear:
    return tradeoff.from_pmfs(*_grouped(eps0, n, 0), digits=DPS)


def _symmetrized_f_shuffle(eps0, n) -> tradeoff.PiecewiseLinear:
    """C(2w Id + (1 - 2w) T(P0, Q0)) with the library's generic symmetrization (mpmath): the
    segments of f_Shuffle are those of T(P0, Q0) with drop 2w dx + (1 - 2w) dy."""
    _, w = _pairs(eps0, n)
    with mpmath.workdps(DPS):
        t0 = _exact_p0q0(eps0, n)
        q = [2 * w * a + (1 - 2 * w) * b for a, b in zip(t0.p_mass, t0.q_mass)]
        return tradeoff.PiecewiseLinear(list(t0.p_mass), q, digits=DPS).symmetrize()


def _rr_curve(eps0, xs):
    """f_{eps0,0}(x) = max(0, 1 - e^eps0 x, e^-eps0 (1 - x)) at xs, mpmath (the trade-off
    function of eps0-DP; Dong, Roth, Su 2022, Prop. 2.5)."""
    with mpmath.workdps(DPS):
        E = mpmath.exp(mpmath.mpf(eps0))
        return [max(mpmath.mpf(0), 1 - E * mpmath.mpf(float(x)), (1 - mpmath.mpf(float(x))) / E) for x in xs]


def _reference_bound(eps0, n, xs):
    """max(C(f_Shuffle), f_{eps0,0}) at xs (floats from mpmath): what shuffle_tradeoff bounds."""
    ref = _symmetrized_f_shuffle(eps0, n)
    with mpmath.workdps(DPS):
        c = ref([mpmath.mpf(float(x)) for x in xs])
        return np.array([float(max(a, b)) for a, b in zip(c, _rr_curve(eps0, xs))])


def _eval(f, xs):
    with mpmath.workdps(DPS):
        return np.array([float(v) for v in f([mpmath.mpf(float(x)) for x in xs])])


def _mp_gap(f, g, xs):
    """(min, max) of f - g at xs, both evaluated with mpmath at DPS digits (as floats)."""
    with mpmath.workdps(DPS):
        pts = [mpmath.mpf(float(x)) for x in xs]
        d = [a - b for a, b in zip(f(pts), g(pts))]
        return float(min(d)), float(max(d))


# ----------------------------------------------------------------------------- Proposition 4.1


@pytest.mark.parametrize("eps0,n", [(1.0, 8), (0.4, 12), (2.5, 7)])
def test_proposition_4_1_corrected_is_the_neyman_pearson_knot_and_the_printed_form_is_not(eps0, n):
    """Erratum (digest §2.9): beta_i^0 = 1 - F_i(s_i + 1); the printed F_i(s_i + 1) is off by up to 1."""
    worst = 0.0
    for t in sorted({Fraction(a, b) for b in range(1, n + 1) for a in range(1, n + 1 - b)} | {Fraction(0)}):
        ref_a, ref_b = _np_knot(eps0, n, t)
        a, b = fdp.proposition_4_1(eps0, n, (t.numerator, t.denominator))
        assert abs(a - float(ref_a)) < 1e-13 and abs(b - float(ref_b)) < 1e-13, t
        printed = fdp.proposition_4_1_printed(eps0, n, (t.numerator, t.denominator))
        assert printed.status is Status.REFUTED and printed.kind is Kind.EXACT and printed.quantity == "beta"
        pa, pb = float(printed.grid[0]), float(printed.upper[0])
        assert pa == a and printed.lower[0] <= pb
        worst = max(worst, abs(pb - float(ref_b)))
        ma, mb = fdp.proposition_4_1(eps0, n, t, digits=30)
        with mpmath.workdps(DPS):
            assert abs(ma - ref_a) < mpmath.mpf(10) ** -28 and abs(mb - ref_b) < mpmath.mpf(10) ** -28
    assert worst > 0.3  # the printed form is not a small perturbation


def test_proposition_4_1_at_a_float_threshold_uses_the_exact_binary_value():
    """t = 0.5 is exact; the floor at (t i - 1)/(t + 1) = integer must not drop by rounding."""
    assert fdp.proposition_4_1(1.0, 9, 0.5) == fdp.proposition_4_1(1.0, 9, (1, 2))
    a, b = _np_knot(1.0, 9, Fraction(1, 2))
    got = fdp.proposition_4_1(1.0, 9, 0.5)
    assert abs(got[0] - float(a)) < 1e-14 and abs(got[1] - float(b)) < 1e-14


@pytest.mark.parametrize("eps0,n", [(1.0, 1), (1.0, 9), (0.3, 25), (3.0, 16)])
def test_p0q0_tradeoff_is_the_neyman_pearson_function_of_the_pair(eps0, n):
    ref = _exact_p0q0(eps0, n)
    got = fdp.p0q0_tradeoff(eps0, n)
    xs = np.unique(np.concatenate([np.linspace(0, 1, 501), np.asarray(ref.knots_alpha, dtype=float)]))
    assert np.max(np.abs(got(xs) - _eval(ref, xs))) < 1e-12
    assert got.symmetric  # T(P0, Q0) is symmetric (digest §1.12)
    mp = fdp.p0q0_tradeoff(eps0, n, digits=30)
    lo, hi = _mp_gap(mp, ref, xs)
    assert max(-lo, hi) < 1e-25


def test_pq_tradeoff_agrees_with_the_clone_pairs_that_describe_the_same_pair():
    """T(P, Q) with clone probability 2w is the stronger-clone pair (FMT 2023) and the
    variation-ratio pair at the worst case beta = (p-1)/(p+1), q = p; with e^-eps0 it is the
    2021 clone pair (Chen et al.'s curve): their certified delta encloses 1 + T*(-e^eps)."""
    for eps0, n in [(1.0, 10), (2.0, 300)]:
        p = math.exp(eps0)
        for e in (0.05, 0.3, 0.8):
            ours = fdp.pq_tradeoff(eps0, n).delta(e)
            lo, hi = stronger_clone_pair(eps0, n).delta(e)
            assert lo * (1 - 1e-9) <= ours <= hi * (1 + 1e-9)
            enc = vr.log_delta(p, (p - 1) / (p + 1), p, n - 1, e)
            assert math.exp(enc.log_lower) * (1 - 1e-9) <= ours <= math.exp(enc.log_upper) * (1 + 1e-9)
            chen = fdp.pq_tradeoff(eps0, n, clone_prob=math.exp(-eps0)).delta(e)
            lo, hi = clone_pair(eps0, n).delta(e)
            assert lo * (1 - 1e-9) <= chen <= hi * (1 + 1e-9)
    # the exact curve with Text B's clone probability against the atom enumeration
    ref = _exact_pq(1.0, 9, "fmt21")
    xs = np.linspace(0, 1, 301)
    assert np.max(np.abs(fdp.pq_tradeoff(1.0, 9, clone_prob=math.exp(-1.0))(xs) - _eval(ref, xs))) < 1e-12


# ----------------------------------------------------------------------------- Theorem 4.2


@pytest.mark.parametrize("eps0,n", [(1.0, 1), (1.0, 2), (1.0, 8), (0.3, 20), (3.0, 30)])
def test_shuffle_tradeoff_is_max_of_symmetrized_f_shuffle_and_eps0_dp_lowered_by_its_error_only(eps0, n):
    """max(C(f_Shuffle), f_{eps0,0}): Thm 4.2's bound, and the eps0-DP curve (the shuffled
    mechanism is a post-processing of the victim's eps0-LDP report), which is larger at n = 1, 2."""
    ref = _symmetrized_f_shuffle(eps0, n)
    got = fdp.shuffle_tradeoff(eps0, n)
    xs = np.unique(np.concatenate([np.linspace(0, 1, 2001), np.asarray(ref.knots_alpha, dtype=float),
                                   got.knots_alpha]))
    want = _reference_bound(eps0, n, xs)
    gap = want - got(xs)
    assert gap.min() >= 0.0  # a lower bound
    assert gap.max() < 1e-9  # and tight
    mp = fdp.shuffle_tradeoff(eps0, n, digits=30)
    gap_mp = want - _eval(mp, xs)
    assert gap_mp.min() >= -1e-15 and gap_mp.max() < 1e-12
    if n == 1:  # randomized response itself: the bound is exact
        assert np.max(np.abs(got(xs) - np.array([float(v) for v in _rr_curve(eps0, xs)]))) < 1e-12


@pytest.mark.parametrize("eps0,n", [(1.0, 8), (0.5, 15), (2.0, 12)])
def test_theorem_4_2_holds_as_an_inequality_and_its_equality_is_refuted(eps0, n):
    """T(P, Q) >= C(f_Shuffle) everywhere (the bound is sound); the proof's equality
    C(T(P, Q)) = C(f_Shuffle) is false: T(P, Q) is symmetric and strictly above (digest §2.10:
    0.053 at n = 8, eps0 = 1)."""
    exact = _exact_pq(eps0, n)
    bound = fdp.shuffle_tradeoff(eps0, n)
    thm42 = _symmetrized_f_shuffle(eps0, n)  # C(f_Shuffle) itself (independent mpmath build)
    xs = np.unique(np.concatenate([np.linspace(0, 1, 4001), bound.knots_alpha,
                                   np.asarray(exact.knots_alpha, dtype=float)]))
    exact_xs = _eval(exact, xs)
    assert (exact_xs - bound(xs)).min() >= -1e-15
    assert exact.symmetric
    gap = exact_xs - _eval(thm42, xs)
    assert gap.min() >= -1e-15
    assert gap.max() > 0.005
    if (eps0, n) == (1.0, 8):
        assert abs(gap.max() - 0.053) < 0.002


def test_shuffle_tradeoff_is_a_trade_off_function_and_symmetric():
    for eps0, n in [(0.2, 50), (1.0, 400), (4.0, 60), (1.0, 5000)]:
        f = fdp.shuffle_tradeoff(eps0, n)
        a, b = f.knots()
        assert np.all(np.diff(a) >= 0) and np.all(np.diff(b) <= 0)
        slopes = f.slopes
        finite = np.isfinite(slopes)
        assert np.all(np.diff(slopes[finite]) >= 0)  # convex
        assert np.all(b <= 1 - a + 1e-15)
        inv = f.inverse()
        xs = np.unique(np.concatenate([a, inv.knots_alpha, np.linspace(0, 1, 1001)]))
        assert np.max(np.abs(f(xs) - inv(xs))) < 1e-9, (eps0, n)


def test_grid_envelope_at_large_n_lies_under_the_exact_curve():
    """Above EXACT_MAX_N the curve is an envelope of delta lines: compared at n = EXACT_MAX_N + 1
    with the exact construction forced through the same code path (all segment tangents)."""
    n = fdp.EXACT_MAX_N + 1
    s, c = fdp_tradeoff._exact_lines(1.0, n, fdp.clone_probability(1.0))
    steep = s < -1
    rs, rc = fdp_tradeoff._reflect(s[steep], c[steep])
    exact = fdp_tradeoff._envelope(np.concatenate([s, rs]), np.concatenate([c, rc]))
    grid = fdp.shuffle_tradeoff(1.0, n)
    xs = np.unique(np.concatenate([np.linspace(0, 1, 4001), grid.knots_alpha, exact.knots_alpha]))
    gap = exact(xs) - grid(xs)
    assert gap.min() >= -1e-9  # both are lower bounds: the exact one lowered by its error bound
    assert gap.max() < 0.01  # a usable description of the curve


# ----------------------------------------------------------------------------- Corollary 4.3


def _rr_delta(eps0, epsilon):
    """(e^eps0 - e^eps)_+/(e^eps0 + 1): the delta of eps0-DP (randomized response), mpmath."""
    with mpmath.workdps(DPS):
        E = mpmath.exp(mpmath.mpf(eps0))
        return max(mpmath.mpf(0), (E - mpmath.exp(mpmath.mpf(epsilon))) / (E + 1))


@pytest.mark.parametrize("eps0,n", [(1.0, 1), (1.0, 8), (0.3, 30), (2.0, 40)])
def test_shuffle_delta_encloses_the_conjugate_and_the_hockey_stick_of_the_pair(eps0, n):
    """Cor. 4.3: 1 + f_Shuffle*(-e^eps) = (1 - 2w) H_{e^eps~}(P0||Q0) (two independent ways);
    shuffle_delta is its minimum with the eps0-DP bound, labelled unproven (the paper's
    stronger-clone pair, general randomizer)."""
    ref_c = _symmetrized_f_shuffle(eps0, n)
    for e in (0.0, 0.05, 0.4, 1.5, 6.0):
        ref = _cor43_reference(eps0, n, e)
        want = min(ref, _rr_delta(eps0, e))
        res = fdp.shuffle_delta(eps0, n, e)
        assert res.kind is Kind.UPPER and res.status is Status.UNPROVEN and "withdrawn" in res.note
        assert res.lower <= float(want) * (1 + 1e-15) and float(want) <= res.upper * (1 + 1e-15), e
        assert res.upper <= float(want) * (1 + 2e-3) + 1e-300
        if e < 6.0:  # the Cor. 4.3 term itself (the eps0-DP term alone at eps >= eps0)
            assert res.params["cor43_log_upper"] >= float(mpmath.log(ref)) - 1e-12
        with mpmath.workdps(DPS):
            conj = ref_c.delta(e)  # H_{e^eps}(Q~||P~) of the canonical pair of C(f_Shuffle)
            assert abs(conj - ref) <= mpmath.mpf(10) ** -30 * (1 + abs(ref)) + mpmath.mpf(10) ** -35


@pytest.mark.parametrize("eps0,n", [(1.0, 2), (2.0, 6), (0.5, 10), (2.0, 20)])
def test_every_delta_is_above_the_exact_delta_of_shuffled_binary_randomized_response(eps0, n):
    oracle = ShuffleOracle(grr_pmfs(eps0, 2), n, dps=30)
    for e in (0.0, 0.1, 0.5, 1.0, 1.9):
        exact_lo, _ = oracle.delta(e)
        assert fdp.shuffle_delta(eps0, n, e).upper >= float(exact_lo), e
        assert float(fdp.shuffle_delta(eps0, n, e, digits=30).upper) >= float(exact_lo)
        assert fdp.shuffle_tradeoff(eps0, n).delta(e) >= float(exact_lo) * (1 - 1e-12)
        # and above the exact delta of the dominating pair (P, Q)
        with mpmath.workdps(DPS):  # gamma at the oracle's precision: at eps = eps0 the exact delta is 0
            gamma = mpmath.exp(mpmath.mpf(e))
        # (at eps = eps0 the exact delta is 0 and the 40-digit oracle leaves about 1e-40)
        assert fdp.shuffle_delta(eps0, n, e).upper >= float(_hockey(eps0, n, gamma, "PQ")) - 1e-35


@pytest.mark.parametrize("eps0,n,epsilon", [(2.0, 10, 0.5), (2.0, 20, 1.0), (3.0, 10, 1.0)])
def test_printed_corollary_4_3_is_refuted_by_shuffled_randomized_response(eps0, n, epsilon):
    """Erratum (digest §2.11): the chord slope l(t) puts t_y too far right; the printed delta is
    below the exact delta of shuffled binary randomized response (an eps0-LDP randomizer, so
    a valid bound must be above it), while the corrected one is above."""
    exact_lo, exact_hi = ShuffleOracle(grr_pmfs(eps0, 2), n, dps=30).delta(epsilon)
    printed = fdp.corollary_4_3_printed_delta(eps0, n, epsilon)
    assert printed.status is Status.REFUTED
    assert printed.upper < float(exact_lo)
    assert fdp.shuffle_delta(eps0, n, epsilon).upper >= float(exact_hi)


def test_printed_corollary_4_3_matches_the_digest_examples():
    """Digest §2.11 (n = 20, eps0 = 1): printed 9.48e-4 vs 4.48e-3 at eps = 1; -2.0e-4 (a
    negative delta) vs 1.20e-3 at eps = 2."""
    assert abs(fdp.corollary_4_3_printed_delta(1.0, 20, 1.0).upper - 9.48e-4) < 5e-6
    assert abs(fdp.corollary_4_3_printed_delta(1.0, 20, 2.0).upper + 2.0e-4) < 5e-6
    assert abs(float(_cor43_reference(1.0, 20, 1.0)) - 4.48e-3) < 5e-6
    assert abs(float(_cor43_reference(1.0, 20, 2.0)) - 1.20e-3) < 5e-6


def test_mpmath_path_against_the_atom_sum_and_the_float_path():
    for eps0, n, e in [(1.0, 30, 0.2), (0.7, 17, 0.0), (2.0, 25, 3.0), (1.0, 1, 0.3), (2.0, 25, 1.9)]:
        ref = min(_cor43_reference(eps0, n, e), _rr_delta(eps0, e))
        res = fdp.shuffle_delta(eps0, n, e, digits=35)
        with mpmath.workdps(DPS):
            value = mpmath.mpf(res.params["value"])
            assert abs(value - ref) <= abs(ref) * mpmath.mpf(10) ** -33
        assert res.lower <= float(ref) <= res.upper
    for n, e in [(1000, 0.1), (3000, 0.05)]:
        mp = fdp.shuffle_delta(1.0, n, e, digits=50)
        fl = fdp.shuffle_delta(1.0, n, e)
        assert fl.log_lower <= mp.log_upper and mp.log_lower <= fl.log_upper
        assert (mp.upper - mp.lower) <= 1e-14 * mp.upper  # the float rounding of a 50-digit value


def test_delta_at_huge_n_is_finite_monotone_and_below_the_float_range_in_logs():
    prev = 0.0
    for n in (10**5, 10**7, 10**9, 10**12):
        r = fdp.shuffle_delta(1.0, n, 0.01)
        assert math.isfinite(r.log_upper) and r.upper > 0  # never rounded to 0
        assert r.log_upper <= prev + 1e-9
        prev = r.log_upper
    # delta non-increasing in epsilon, at n = 1e7
    logs = [fdp.shuffle_delta(1.0, 10**7, e).log_upper for e in (0.001, 0.002, 0.004)]
    assert logs[0] >= logs[1] >= logs[2]
    # above the exact delta of the stronger-clone pair (T(P, Q) >= C(f_Shuffle))
    for e in (0.002, 0.005):
        assert fdp.shuffle_delta(1.0, 10**6, e).log_upper >= stronger_clone_pair(1.0, 10**6).log_delta(e).log_lower


def test_delta_below_the_float_range():
    r = fdp.shuffle_delta(1.0, 10**4, 0.9)
    assert r.log_upper < -745 and r.upper > 0  # a subnormal upper end, never 0
    mp = fdp.shuffle_delta(1.0, 10**4, 0.9, digits=30)
    assert mp.log_lower <= r.log_upper and r.log_lower <= mp.log_upper


# ----------------------------------------------------------------------------- GDP description, errors


def test_gdp_fit_is_labelled_an_approximation_and_near_the_asymptotic_mu():
    f = fdp.shuffle_tradeoff(1.0, 10**6)
    fit = fdp.gdp_fit(f)
    assert fit.kind is Kind.APPROXIMATION and fit.status is Status.NOT_A_BOUND
    assert abs(fit.value / fdp.asymptotic_mu(1.0, 10**6) - 1) < 0.05
    assert fit.params["sup_distance"] < 1e-4
    g = fdp.gdp_fit(tradeoff.gaussian(0.7))
    assert abs(g.value - 0.7) < 1e-6


@pytest.mark.parametrize("call", [
    lambda: fdp.shuffle_delta(0.0, 10, 0.1),
    lambda: fdp.shuffle_delta(-1.0, 10, 0.1),
    lambda: fdp.shuffle_delta(float("nan"), 10, 0.1),
    lambda: fdp.shuffle_delta(1.0, 0, 0.1),
    lambda: fdp.shuffle_delta(1.0, 2.5, 0.1),
    lambda: fdp.shuffle_delta(1.0, 10, -0.1),
    lambda: fdp.shuffle_tradeoff(1.0, 0),
    lambda: fdp.shuffle_tradeoff(1.0, 10)(1.5),
    lambda: fdp.shuffle_tradeoff(1.0, 10)(-0.1),
    lambda: fdp.shuffle_tradeoff(1.0, 10**4, digits=30),
    lambda: fdp.p0q0_tradeoff(1.0, 10**6),
    lambda: fdp.proposition_4_1(1.0, 10, -1.0),
    lambda: fdp.corollary_4_3_printed_delta(1.0, 10**4, 0.1),
    lambda: fdp.shuffle_delta(1.0, 10, 0.1, reduction="blanket"),
    lambda: fdp.shuffle_tradeoff(1.0, 10, reduction="clone"),
])
def test_bad_input_raises_domain_error(call):
    with pytest.raises(DomainError):
        call()


def _derivation(name):
    """A derivation script imported as a module (its directory on sys.path, for _derivation)."""
    import importlib.util
    import pathlib
    import sys

    root = pathlib.Path(__file__).resolve().parents[2] / "derivations"
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    spec = importlib.util.spec_from_file_location(f"derivation_{name}", root / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run_script(code_or_path, *, code=False):
    import os
    import pathlib
    import subprocess
    import sys

    root = pathlib.Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    argv = [sys.executable, "-c", code_or_path] if code else [sys.executable, str(root / "derivations" / code_or_path)]
    return subprocess.run(argv, capture_output=True, text=True, cwd=root, env=env)


SHUFFLE_CHECKS = {"weights", "threshold", "conjugate", "prop-4.1-knots", "prop-4.1-printed-off", "cor-4.3-value",
                  "printed-cor-4.3-too-small"}


def test_derivation_script_checks_the_library_and_passes():
    proc = _run_script("shuffle_tradeoff.py")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    names = {line[len("check "):-len(": ok")] for line in proc.stdout.splitlines()
             if line.startswith("check ") and line.endswith(": ok")}
    assert names == SHUFFLE_CHECKS and "all 7 checks ok" in proc.stdout
    assert "$$t_y = " in proc.stdout  # the registered formula printed as LaTeX


def test_derivation_checks_reject_planted_wrong_expressions_and_code():
    """Each check fails on a planted error (in the style of tests/test_derivations.py)."""
    import sympy as sp

    from dptheory.results import Result
    from dptheory.symbols import eps, eps0

    m = _derivation("shuffle_tradeoff")
    w = 1 / (sp.exp(eps0) + 1)
    assert m.check_threshold() and not m.check_threshold((1 - 2 * w) / (sp.exp(eps) + 2 * w))
    assert m.check_conjugate() and not m.check_conjugate((1 - 2 * w) / sp.exp(eps))
    assert not m.check_weights(lambda e: (1 / (math.exp(e) + 1), math.tanh(e)))
    # the printed formula is not the Neyman-Pearson knot; the corrected one is not "off"
    assert not m.check_prop_4_1(expr=fdp.PROP_4_1_BETA_PRINTED.expr)
    assert not m.check_printed_off(expr=fdp.PROP_4_1_BETA.expr)
    # library code with a planted bug: the printed knot, a halved delta, the corrected rule as "printed"
    printed_knots = lambda e0, n, t: (fdp.proposition_4_1_printed(e0, n, t).grid[0],  # noqa: E731
                                      fdp.proposition_4_1_printed(e0, n, t).upper[0])
    assert not m.check_prop_4_1(knot_fn=printed_knots)

    def halved(*args, **kwargs):
        r = fdp.shuffle_delta(*args, **kwargs)
        return Result("delta", r.lower / 2, r.upper / 2, r.kind, r.status, r.method, r.source)

    assert not m.check_cor43_value(delta_fn=halved)
    assert not m.check_printed_cor43(printed_fn=fdp.shuffle_delta)


def test_wrong_library_threshold_makes_the_script_exit_1():
    """End to end: the library's t_y formula replaced by a wrong expression before the script
    runs (as tests/test_derivations.py does for Chen's mu): its checks fail and it exits 1."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2] / "derivations"
    code = (
        "import runpy, sys, sympy as sp\n"
        f"sys.path.insert(0, {str(root)!r})\n"
        "from dptheory.formula import Parts\n"
        "from dptheory.shuffle.fdp import THRESHOLD\n"
        "from dptheory.symbols import eps, eps0\n"
        "w = 1 / (sp.exp(eps0) + 1)\n"
        "THRESHOLD.__dict__['_parts'] = Parts((1 - 2 * w) / sp.exp(eps), THRESHOLD.params, THRESHOLD.conditions)\n"
        f"runpy.run_path({str(root / 'shuffle_tradeoff.py')!r}, run_name='__main__')\n"
    )
    proc = _run_script(code, code=True)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "check threshold: FAILED" in proc.stdout and "check prop-4.1-knots: ok" in proc.stdout


# ----------------------------------------------------------------------------- shapes (hypothesis)

from hypothesis import HealthCheck, Phase, given, settings, strategies as st  # noqa: E402

from tests.oracles.exact_shuffle import add_message, other_laws  # noqa: E402

# reproducible draws (CI is not a lottery), like tests/shuffle/test_contract.py's FAST profile
SHAPES = settings(max_examples=20, deadline=None, derandomize=True,
                  phases=(Phase.explicit, Phase.reuse, Phase.generate),
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

EPS0 = st.floats(0.05, 50.0, allow_nan=False)


@SHAPES
@given(eps0=EPS0, n=st.one_of(st.integers(1, 60), st.integers(61, 1000), st.sampled_from([1500, 3000, 10**5, 10**9])),
       reduction=st.sampled_from(fdp.REDUCTIONS))
def test_shuffle_tradeoff_is_a_symmetric_trade_off_function_for_drawn_parameters(eps0, n, reduction):
    """Item 9: convex, non-increasing, between 0 and 1 - alpha, from (0, f(0) <= 1) to (1, 0),
    symmetric (C(f_Shuffle) and f_{eps0,0} are), no NaN -- for eps0 up to 50 and n up to 1e9."""
    f = fdp.shuffle_tradeoff(eps0, n, reduction=reduction)
    a, b = (np.asarray(v, dtype=float) for v in f.knots())
    assert not np.isnan(a).any() and not np.isnan(b).any()
    assert a[0] == 0.0 and a[-1] == 1.0 and b[-1] == 0.0 and 0.0 <= b[0] <= 1.0
    assert np.all(np.diff(a) >= 0) and np.all(np.diff(b) <= 0)
    slopes = np.asarray(f.slopes, dtype=float)
    finite = slopes[np.isfinite(slopes)]
    assert np.all(np.diff(finite) >= 0)  # convex
    assert np.all(b >= 0) and np.all(b <= 1 - a + 1e-15)
    xs = np.unique(np.concatenate([a, np.linspace(0, 1, 401)]))
    assert np.max(np.abs(f(xs) - f.inverse()(xs))) < 1e-9


@SHAPES
@given(eps0=EPS0, n=st.integers(1, 5), reduction=st.sampled_from(fdp.REDUCTIONS),
       fraction=st.floats(0.0, 1.2))
def test_lower_bound_is_below_the_exact_tradeoff_of_shuffled_binary_rr_for_drawn_parameters(eps0, n, reduction,
                                                                                             fraction):
    """Item 9: the certified curve is below the exact trade-off function of shuffled binary
    randomized response, for every pair of neighbouring datasets in both orders (enumerated at
    40 digits by the oracle; binary RR has the stronger-clone decomposition, so both reductions
    are proven for it), and delta above its exact delta, for eps0 up to 50."""
    pmfs = grr_pmfs(eps0, 2)
    f = fdp.shuffle_tradeoff(eps0, n, reduction=reduction)
    xs = np.unique(np.concatenate([np.asarray(f.knots_alpha, dtype=float), np.linspace(0, 1, 101)]))
    ours = f(xs)
    for _, law in other_laws(pmfs, n - 1):
        P, Q = add_message(law, pmfs[0]), add_message(law, pmfs[1])
        keys = sorted(set(P) | set(Q))
        for A, B in ((P, Q), (Q, P)):
            exact = tradeoff.from_pmfs([A.get(k, 0) for k in keys], [B.get(k, 0) for k in keys], digits=DPS)
            assert np.all(_eval(exact, xs) >= ours - 1e-14)
    e = fraction * eps0
    exact_lo, _ = ShuffleOracle(pmfs, n, dps=30).delta(e)
    assert fdp.shuffle_delta(eps0, n, e, reduction=reduction).upper >= float(exact_lo)


@pytest.mark.parametrize("eps0, n", [(28.14, 10), (30.0, 100), (50.0, 3), (50.0, 2000)])
def test_large_eps0_builds_a_curve_and_a_delta(eps0, n):
    """Regression (item 3): shuffle_tradeoff(28.14, 10) raised IndexError in _envelope (every
    tangent of f_Shuffle is below 0 there); now the envelope includes the lines of f_{eps0,0}."""
    f = fdp.shuffle_tradeoff(eps0, n)
    a, b = f.knots()
    assert a[0] == 0 and b[-1] == 0 and 1 - 1e-12 <= f(0.0) <= 1.0
    # at alpha = 0+ the bound is the eps0-DP line 1 - e^eps0 alpha (to rounding)
    x = 1e-30
    assert abs(float(f(x)) - (1 - math.exp(eps0) * x)) < 1e-9
    r = fdp.shuffle_delta(eps0, n, 0.1)
    assert 0 < r.upper <= 1


def test_printed_formulas_are_refuted_catalogue_entries_that_fail_against_neyman_pearson():
    """Item 10: the printed Prop. 4.1 is a catalogue Formula with status refuted, the corrected
    one proven; the generated numpy functions reproduce the Neyman-Pearson knots (corrected) and
    miss them (printed). Dyadic thresholds, so that the float floor is exact."""
    from dptheory import catalogue

    good, bad = catalogue.get("shuffle-fdp-prop-4.1-beta"), catalogue.get("shuffle-fdp-prop-4.1-beta-printed")
    assert good.status is Status.PROVEN and bad.status is Status.REFUTED and bad.kind is Kind.EXACT
    assert catalogue.get("shuffle-fdp-threshold").status is Status.PROVEN
    eps0, n = 1.0, 8
    worst = 0.0
    for t in (Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3, 2)):
        _, ref_b = _np_knot(eps0, n, t)
        assert abs(good.numpy()(eps0, n, float(t)) - float(ref_b)) < 1e-13
        worst = max(worst, abs(bad.numpy()(eps0, n, float(t)) - float(ref_b)))
    assert worst > 0.3
    # t_y: the conjugate of f_Shuffle at slope -e^eps is attained where -2w - (1-2w)/t = -e^eps
    w, th = fdp.weights(eps0)
    for e in (0.1, 1.0):
        t = catalogue.get("shuffle-fdp-threshold").numpy()(eps0, e)
        assert abs(-2 * w - th / t + math.exp(e)) < 1e-12
