"""The Blackwell dominance conditions (dptheory.comparison.conditions) against the numerical verdict
of compare (Kaissis et al. 2024, Theorem 1: M ⪰ M~ iff Delta(M || M~) = 0), on random parameter
pairs (hypothesis).

The oracle is compare on the mechanisms' certified curves stripped of every closed form
(curves.numerical): the branch-and-bound over the difference of Bayes errors, or the exact
maximum over the kinks of two piecewise-linear curves. Where a condition holds, the certified
Delta(first || second) must reach 0 (and be at most RESOLUTION wide); where it fails, Delta > 0
must be certified. The draws stay where the numerics resolve the answer: parameters either equal
or apart by a relative 1e-5 at least, fixed points (computed from the curves' Bayes errors) apart
by 1e-7 at least; a filter never looks at the condition under test.
"""

import math

import numpy as np
import pytest

from dptheory.presentation.cells import plain
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from dptheory import catalogue, tradeoff
from dptheory.comparison import compare, conditions as C, parse_mechanism
from dptheory.comparison import bayes_error as be
from dptheory.comparison.blackwell import certainly_positive, certainly_zero
from dptheory.comparison.curves import numerical
from dptheory.mechanisms import RandomizedResponse
from dptheory.results import Kind, Status
from dptheory.validate import ConditionError, DomainError

#: the certified Delta of a pair whose condition holds is [0, at most this]: the numerical route
#: encloses the exact 0 of two equal smooth curves in an interval of width up to about 3e-8 (its
#: grid cap); what the check rests on is that the interval reaches 0
RESOLUTION = 1e-6

SETTINGS = settings(max_examples=15, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.filter_too_much])


def numeric(text):
    return numerical(parse_mechanism(text).curves())


def delta(first, second):
    """compare's certified Delta(first || second), without closed forms."""
    return compare(numeric(first), numeric(second)).forward


def agrees(holds, fw):
    if holds:
        return not certainly_positive(fw) and fw.upper <= RESOLUTION
    return certainly_positive(fw)


def fixed_point(text):
    """alpha* = R_min(1/2) (Lemma 4), from the curve's Bayes error (not from a condition)."""
    return float(parse_mechanism(text).tradeoff().bayes_error(0.5))


def apart(a, b, rel=1e-5):
    return a == b or abs(a - b) >= rel * max(abs(a), abs(b))


def pair_of(low, high):
    """Two parameters: equal, near (relative 1e-5 .. 1e-2), or independent."""
    base = st.floats(low, high)
    near = st.tuples(base, st.floats(1e-5, 1e-2), st.sampled_from([-1, 1])).map(
        lambda t: (t[0], min(high, t[0] * (1 + t[2] * t[1]))))
    return st.one_of(base.map(lambda x: (x, x)), near, st.tuples(base, base))


def flip(condition, args, low, high):
    """Where ``condition(*args(t))`` changes value for t in [low, high] (bisection in log t, the
    condition a black box), or None if it has one value at both ends: the boundary the draws
    straddle, found from the condition under test itself, not from a retyped copy."""
    lo, hi = math.log(low), math.log(high)
    at_lo = condition(*args(low))
    if condition(*args(high)) == at_lo:
        return None
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        if condition(*args(math.exp(mid))) == at_lo:
            lo = mid
        else:
            hi = mid
    return math.exp(0.5 * (lo + hi))


#: a relative distance from a boundary, and a side
OFFSET = st.tuples(st.floats(1e-5, 0.3), st.sampled_from([-1, 1])).map(lambda t: 1 + t[1] * t[0])


def mech(name, value):
    return f"{name}({'mu' if name == 'gaussian' else 'eps'}={value!r})"


# ------------------------------------------------------------------ within one family
@pytest.mark.parametrize("condition,family,low,high", [
    (C.BLACKWELL_GAUSSIAN, "gaussian", 0.02, 6.0),
    (C.BLACKWELL_LAPLACE, "laplace", 0.01, 6.0),
    (C.BLACKWELL_RR, "rr", 0.01, 6.0),
])
def test_one_parameter_family_condition_is_compares_verdict(condition, family, low, high):
    @SETTINGS
    @given(pair_of(low, high))
    def run(pair):
        x, y = pair
        assume(apart(x, y))
        assert agrees(condition(x, y), delta(mech(family, x), mech(family, y))), (x, y)

    run()


@SETTINGS
@given(pair_of(0.02, 3.0), st.integers(1, 20), st.integers(1, 20))
def test_composed_gaussian_condition_is_compares_verdict(pair, t1, t2):
    x, y = pair
    assume((x == y and t1 == t2) or apart(x * math.sqrt(t1), y * math.sqrt(t2)))
    fw = delta(f"gaussian(mu={x!r})^{t1}", f"gaussian(mu={y!r})^{t2}")
    assert agrees(C.BLACKWELL_GAUSSIAN_COMPOSED(x, t1, y, t2), fw), (x, t1, y, t2)


@SETTINGS
@given(pair_of(0.05, 5.0), st.integers(2, 8), st.integers(2, 8))
def test_k_ary_rr_condition_is_compares_verdict(pair, k1, k2):
    x, y = pair
    first, second = f"rr(eps={x!r}, k={k1})", f"rr(eps={y!r}, k={k2})"
    assume(apart(x, y, 1e-4) and (x == y and k1 == k2 or abs(fixed_point(first) - fixed_point(second)) >= 1e-7))
    assert agrees(C.BLACKWELL_RR_K(x, y, k1, k2), delta(first, second)), (first, second)


# ------------------------------------------------------------------ across families
@pytest.mark.parametrize("condition,first,second", [
    (C.BLACKWELL_GAUSSIAN_LAPLACE, "gaussian", "laplace"),
    (C.BLACKWELL_GAUSSIAN_RR, "gaussian", "rr"),
    (C.BLACKWELL_LAPLACE_RR, "laplace", "rr"),
])
def test_fixed_point_conditions_are_compares_verdict(condition, first, second):
    """Where these fail, Delta >= alpha*_first - alpha*_second (pi = 1/2): draws with the two fixed
    points (from the curves' Bayes errors) at least 1e-7 apart are resolved."""
    @SETTINGS
    @given(st.floats(0.02, 8.0), st.floats(0.01, 8.0))
    def run(a, b):
        m1, m2 = mech(first, a), mech(second, b)
        assume(abs(fixed_point(m1) - fixed_point(m2)) >= 1e-7)
        assert agrees(condition(a, b), delta(m1, m2)), (m1, m2)

    run()


def across_boundary(condition, args, low, high, offset, mechanisms):
    """The varied parameter at ``offset`` (relative) from where ``condition(*args(t))`` flips for
    t in [low, high] (:func:`flip`), against compare on ``mechanisms(t)``."""
    edge = flip(condition, args, low, high)
    assume(edge is not None)
    t = edge * offset
    first, second = mechanisms(t)
    assert agrees(condition(*args(t)), delta(first, second)), (first, second)


@pytest.mark.parametrize("condition,first,second", [
    (C.BLACKWELL_GAUSSIAN_LAPLACE, "gaussian", "laplace"),
    (C.BLACKWELL_GAUSSIAN_RR, "gaussian", "rr"),
    (C.BLACKWELL_LAPLACE_RR, "laplace", "rr"),
])
def test_fixed_point_conditions_on_both_sides_of_their_boundary(condition, first, second):
    """The first parameter at a relative distance 1e-5 .. 0.3 from where the condition flips."""
    @SETTINGS
    @given(st.floats(0.01, 8.0), OFFSET)
    def run(b, offset):
        across_boundary(condition, lambda a: (a, b), 1e-3, 50.0, offset, lambda a: (mech(first, a), mech(second, b)))

    run()


@SETTINGS
@given(st.floats(0.05, 5.0), st.integers(2, 8), st.integers(2, 8), OFFSET)
def test_k_ary_rr_condition_on_both_sides_of_its_boundary(e1, k1, k2, offset):
    across_boundary(C.BLACKWELL_RR_K, lambda e2: (e1, e2, k1, k2), 1e-3, 20.0, offset,
                    lambda e2: (f"rr(eps={e1!r}, k={k1})", f"rr(eps={e2!r}, k={k2})"))


@SETTINGS
@given(st.floats(0.02, 3.0), st.integers(1, 20), st.integers(1, 20), OFFSET)
def test_composed_gaussian_condition_on_both_sides_of_its_boundary(x, t1, t2, offset):
    across_boundary(C.BLACKWELL_GAUSSIAN_COMPOSED, lambda y: (x, t1, y, t2), 1e-3, 50.0, offset,
                    lambda y: (f"gaussian(mu={x!r})^{t1}", f"gaussian(mu={y!r})^{t2}"))


@SETTINGS
@given(pair_of(0.01, 6.0))
def test_rr_against_laplace_condition_is_compares_verdict(pair):
    x, y = pair
    assume(apart(x, y, 1e-4))
    assert agrees(C.BLACKWELL_RR_LAPLACE(x, y), delta(f"rr(eps={x!r})", f"laplace(eps={y!r})")), (x, y)


@pytest.mark.parametrize("condition,family", [(C.BLACKWELL_LAPLACE_GAUSSIAN, "laplace"),
                                              (C.BLACKWELL_RR_GAUSSIAN, "rr")])
def test_no_pure_dp_mechanism_dominates_a_gaussian(condition, family):
    """mu = 0 is the boundary; Delta(pure || G_mu) falls like Phi(-eps/mu) as mu -> 0, so the draws
    keep eps/mu <= 4 (resolved in floating point)."""
    @SETTINGS
    @given(st.floats(0.05, 2.0), st.one_of(st.just(0.0), st.floats(0.25, 5.0)))
    def run(e, scale):
        mu = scale * e
        assume(mu == 0 or mu >= e / 4)
        assert agrees(condition(e, mu), delta(mech(family, e), mech("gaussian", mu))), (e, mu)

    run()


SYMMETRIC = st.one_of(st.floats(0.05, 4.0).map(lambda v: f"gaussian(mu={v!r})"),
                      st.floats(0.05, 4.0).map(lambda v: f"laplace(eps={v!r})"),
                      st.tuples(st.floats(0.05, 4.0), st.integers(2, 6)).map(lambda t: f"rr(eps={t[0]!r}, k={t[1]})"))


@SETTINGS
@given(SYMMETRIC, st.floats(0.01, 5.0))
def test_symmetric_mechanism_against_rr_is_compares_verdict(text, e):
    star = fixed_point(text)
    assume(abs(star - 1 / (1 + math.exp(e))) >= 1e-7)
    assert agrees(C.BLACKWELL_SYMMETRIC_RR(star, e), delta(text, f"rr(eps={e!r})")), (text, e)


@SETTINGS
@given(st.floats(0.05, 5.0), st.floats(0.05, 5.0), st.integers(2, 5), st.sampled_from(["laplace", "rr", "gaussian"]))
def test_rr_dominates_exactly_the_pure_dp_mechanisms(e, v, k, family):
    """delta_M(eps) from the mechanisms' own profiles: exactly 0 from their eps on (Laplace, k-ary
    randomized response), positive for a Gaussian (drawn with mu >= eps/3: resolved)."""
    if family == "laplace":
        text, d = f"laplace(eps={v!r})", tradeoff.laplace(v).delta(e)
    elif family == "rr":
        text, d = f"rr(eps={v!r}, k={k})", RandomizedResponse(v, k).delta(e)
    else:
        v = max(v, e / 3)
        text, d = f"gaussian(mu={v!r})", tradeoff.gaussian(v).delta(e)
    assume(family == "gaussian" or apart(e, v, 1e-4))
    assert agrees(C.BLACKWELL_RR_PURE_DP(e, float(d)), delta(f"rr(eps={e!r})", text)), (e, text)


# ------------------------------------------------------------------ Theorem 1's clauses
ANY = st.one_of(SYMMETRIC, st.floats(0.05, 3.0).map(lambda v: f"rr(eps={v!r})"))


@settings(max_examples=20, deadline=None, derandomize=True)
@given(ANY, ANY)
def test_clauses_fail_at_the_witness_and_hold_when_dominating(first, second):
    """Where compare certifies Delta(first || second) > 0, each clause fails at its witness (alpha,
    epsilon = logit(pi), pi; the certified Delta); where Delta <= RESOLUTION, each clause holds at
    every point of a grid (the Bayes errors as certified enclosures)."""
    a, b = parse_mechanism(first).tradeoff(), parse_mechanism(second).tradeoff()
    report = compare(numeric(first), numeric(second))
    fw = report.forward
    assume(certainly_positive(fw) or fw.upper <= RESOLUTION)
    if certainly_positive(fw):
        w = report.dominance.witness["second_more_vulnerable"]
        x, e, p = w["alpha"], w["epsilon"], w["prior"]
        assert not C.BLACKWELL_TRADEOFF(float(a(x)), float(b(x)))
        assert not C.BLACKWELL_PROFILE(float(a.delta(e)), float(b.delta(e)))
        assert not C.BLACKWELL_BAYES_ERROR(be.enclosure(a).bounds(np.array([p]))[0][0],
                                           be.enclosure(b).bounds(np.array([p]))[1][0])
        assert not C.BLACKWELL_DELTA_DIVERGENCE(fw.lower)
    else:
        priors = np.linspace(0.0, 1.0, 501)
        assert np.all(C.BLACKWELL_BAYES_ERROR(be.enclosure(a).bounds(priors)[0], be.enclosure(b).bounds(priors)[1]))
        if certainly_zero(fw):
            assert C.BLACKWELL_DELTA_DIVERGENCE(fw.upper)


def test_clause_formulas_take_arrays():
    alphas = np.linspace(0.01, 0.99, 99)
    out = C.BLACKWELL_TRADEOFF(tradeoff.gaussian(2.0)(alphas), tradeoff.gaussian(1.0)(alphas))
    assert out.dtype == bool and out.shape == alphas.shape and out.all()
    assert not C.BLACKWELL_TRADEOFF(tradeoff.gaussian(1.0)(alphas), tradeoff.gaussian(2.0)(alphas)).any()


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("condition,args,fragment", [
    (C.BLACKWELL_GAUSSIAN, (-1.0, 1.0), "mu1 = -1, mu2 = 1: condition mu1 >= 0 fails"),
    (C.BLACKWELL_GAUSSIAN, (1.0, float("nan")), "mu2 = nan: condition mu2 >= 0"),
    (C.BLACKWELL_LAPLACE, (1.0, -0.5), "eps2 = -0.5: condition eps2 >= 0"),
    (C.BLACKWELL_RR_K, (1.0, 0.5, 2.5, 2), "k1 = 2.5, k2 = 2: condition k1 in Z (an integer)"),
    (C.BLACKWELL_RR_K, (1.0, 0.5, 3, 1), "k2 = 1: condition k2 >= 2"),
    (C.BLACKWELL_GAUSSIAN_COMPOSED, (1.0, 0, 1.0, 1), "T1 = 0, mu2 = 1, T2 = 1: condition T1 > 0"),
    (C.BLACKWELL_TRADEOFF, (1.5, 0.2), "f_alpha = 1.5, f~_alpha = 0.2: condition f_alpha <= 1"),
    (C.BLACKWELL_BAYES_ERROR, (0.2, 0.7), "R~_pi = 0.7: condition R~_pi <= 1/2"),
    (C.BLACKWELL_SYMMETRIC_RR, (0.6, 1.0), "alpha_star = 0.6, eps = 1: condition alpha_star <= 1/2"),
    (C.BLACKWELL_RR_PURE_DP, (1.0, -1e-3), "delta_eps = -0.001: condition delta_eps >= 0"),
])
def test_bad_input_is_a_clear_error(condition, args, fragment):
    with pytest.raises(ConditionError, match="does not hold at") as err:
        condition(*args)
    # the message is text with inline math: as a terminal shows it (the parameter, its value, the condition)
    assert fragment in plain(str(err.value)) and condition.name in str(err.value)
    assert issubclass(ConditionError, DomainError)
    with pytest.raises(ConditionError):
        condition.mpmath(30)(*args)


def test_unknown_parameter_names_the_parameters():
    with pytest.raises(DomainError, match="unknown parameter 'sigma'.*mu_1"):
        C.BLACKWELL_GAUSSIAN(sigma=1.0, mu_2=1.0)


# ------------------------------------------------------------------ the catalogue
def test_catalogue_lists_every_condition_with_kind_status_and_source():
    names = catalogue.names("blackwell")
    assert names == sorted(c.name for c in C.CONDITIONS)
    for name in names:
        f = catalogue.get(name)
        assert f is C.__dict__[name.upper().replace("-", "_")]
        assert f.kind is Kind.EXACT and f.status is Status.PROVEN and f.description
        assert "Kaissis et al. (2024)" in f.source
        assert any(w in f.source for w in ("Theorem", "Lemma", "Definition", "Corollary")), f.source
        for banned in ("digest", "seed-", "§", "Thm", "Prop.", "Cor.", "[D]"):
            assert banned not in f.source and banned not in f.description, (name, banned)
        assert "\\succeq" in f.latex() and "\\iff" in f.latex()
        assert all(getattr(c, "is_Relational", False) for c in f.conditions)
    # derived here, with the script, wherever the paper does not print the condition
    for name in names:
        source = catalogue.get(name).source
        printed = name in ("blackwell-tradeoff", "blackwell-profile", "blackwell-bayes-error",
                           "blackwell-delta-divergence", "blackwell-gaussian", "blackwell-gaussian-composed")
        assert printed or source.startswith("derived here (derivations/blackwell_dominance.py)"), name


def test_pasted_latex_is_the_statement():
    """The LaTeX with conditions a researcher pastes: the statement, the condition, and the domain
    of the parameters it shows (not the evaluation arguments of the clause formulas)."""
    assert C.BLACKWELL_GAUSSIAN.latex_with_conditions() == (
        r"G_{\mu_1} \succeq G_{\mu_2} \iff \mu_{1} \geq \mu_{2}, \quad \text{for } \mu_{1} \geq 0,\ \mu_{2} \geq 0")
    text = C.BLACKWELL_TRADEOFF.latex_with_conditions()
    assert text.startswith(r"\mathcal{M} \succeq \tilde{\mathcal{M}} \iff \forall \alpha \in [0, 1]:")
    assert "f_{\\alpha}" not in text and "where" not in text
    assert C.BLACKWELL_SYMMETRIC_RR.latex_with_conditions().endswith(r"\quad \text{for } \epsilon \geq 0")


# ------------------------------------------------------------------ compare's exact decisions
MECHANISM = st.one_of(
    st.tuples(st.floats(0.05, 4.0), st.integers(1, 4)).map(lambda t: f"gaussian(mu={t[0]!r})^{t[1]}"),
    st.floats(0.05, 4.0).map(lambda v: f"laplace(eps={v!r})"),
    st.tuples(st.floats(0.05, 4.0), st.integers(2, 4)).map(lambda t: f"rr(eps={t[0]!r}, k={t[1]})"))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(MECHANISM, MECHANISM)
def test_compares_exact_decisions_agree_with_its_numerics(first, second):
    """compare decides some pairs without numerics (the family orders, the closed-form Deltas, the
    catalogue conditions across families): each decision agrees with the numerical route on the
    same curves: an exact 0 is never certainly positive there, a certified positive Delta is
    positive there too, and the two intervals overlap."""
    exact = compare(first, second).forward
    num = delta(first, second)
    if certainly_zero(exact):
        assert not certainly_positive(num), (first, second, num)
    if certainly_positive(num):
        assert certainly_positive(exact), (first, second, exact)
    if certainly_positive(exact):
        assert not certainly_zero(num)
    assert exact.lower <= num.upper + 1e-15 and num.lower <= exact.upper + 1e-15, (first, second, exact, num)


@pytest.mark.parametrize("first,second,verdict", [
    ("gaussian(mu=3)", "laplace(eps=1)", "first"),          # Phi(-1.5) = 0.067 <= e^{-1/2}/2 = 0.303
    ("gaussian(mu=0.5)^9", "laplace(eps=1)", "first"),      # the same mechanism, composed
    ("rr(eps=1)", "laplace(eps=1)", "first"),               # Lap_1 is 1-DP
    ("rr(eps=1)", "laplace(eps=1.0000001)", "neither"),
    ("gaussian(mu=1)", "laplace(eps=1)", "neither"),        # Figure 3 of the paper
])
def test_compare_decides_cross_family_dominance_exactly(first, second, verdict):
    """Where a catalogue condition holds, compare certifies Delta = 0 exactly (the numerical route
    alone leaves it in [0, ~1e-14]: 'undecided')."""
    report = compare(first, second)
    assert report.verdict == verdict
    if verdict == "first":
        assert certainly_zero(report.forward) and "blackwell-" in report.forward.source
        assert compare(numeric(first), numeric(second)).verdict == "undecided"
