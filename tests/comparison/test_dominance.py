"""Blackwell dominance with witnesses (Kaissis et al. 2024, Theorems 1-2), extremal mechanisms and
Lemmas 2-5."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dptheory import tradeoff as T
from dptheory.comparison import approximately_dominates, dominance, parse_mechanism
from dptheory.comparison import blackwell, extremal
from dptheory.comparison.divergence import delta_divergence
from dptheory.mechanisms import RandomizedResponse
from dptheory.validate import DomainError


@pytest.fixture(autouse=True)
def _mpmath_digits():
    """mpmath precision for this module's oracles, restored afterwards (it is global state)."""
    with mpmath.workdps(30):
        yield


@pytest.mark.parametrize("a,b", [(0.5, 1.0), (1.0, 3.0), (2.5, 0.3)])
def test_gaussians_are_totally_ordered(a, b):
    """Lemma B.2: the larger mu dominates (is less private)."""
    d = dominance(T.gaussian(a), T.gaussian(b))
    assert d.verdict == ("second" if b > a else "first")
    assert d.crossings == [] and d.alpha_crossings == []


@pytest.mark.parametrize("family", ["laplace", "rr"])
def test_one_parameter_families_are_ordered(family):
    """Laplace curves and randomized-response mechanisms are totally ordered in eps: the order is
    decided exactly (the reverse Delta is certified 0, not merely small)."""
    make = T.laplace if family == "laplace" else (lambda e: parse_mechanism(f"rr(eps={e})"))
    assert dominance(make(0.5), make(2.0)).verdict == "second"
    assert dominance(make(2.0), make(0.5)).verdict == "first"
    assert dominance(make(1.0), make(1.0)).verdict == "equal"


def test_raw_piecewise_linear_curves_are_not_claimed_equal():
    """Two randomized-response curves given as bare piecewise-linear functions: the reverse Delta
    is within rounding of 0 but their float masses are not exactly ordered, so the verdict says
    undecided (with the bound) rather than claiming dominance it cannot certify; the mechanisms
    themselves (parsed) are decided."""
    f, g = RandomizedResponse(0.3, 3).tradeoff(), RandomizedResponse(0.6, 3).tradeoff()
    d = dominance(f, g)
    assert d.verdict in ("second", "undecided")
    assert d.backward.upper < 1e-13 and d.forward.lower > 0.05
    if d.verdict == "undecided":
        assert "undecided at this precision" in d.detail
    assert dominance(parse_mechanism("rr(eps=0.3, k=3)"), parse_mechanism("rr(eps=0.6, k=3)")).verdict == "second"


def test_extremal_mechanisms_lemma2():
    """Lemma 2: every mechanism dominates M_PP and is dominated by M_BNP."""
    for f in (T.gaussian(1.0), T.laplace(0.3), RandomizedResponse(2.0, 3).tradeoff()):
        assert dominance(f, extremal.perfectly_private()).verdict == "first"
        assert dominance(extremal.blatantly_non_private(), f).verdict == "first"


def mp_gauss(mu, a):
    """G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu) at 30 digits (Dong, Roth, Su 2022)."""
    a = mpmath.mpf(a)
    return mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * a - 1) - mu)


def mp_laplace(eps, a):
    """The Laplace trade-off F(F^{-1}(1 - alpha) - eps), F the Laplace(0, 1) CDF, at 30 digits
    (the paper's oracle laplace.cdf(laplace.isf(alpha) - mu), Appendix B.3)."""
    a = mpmath.mpf(a)
    q = 1 - a
    x = mpmath.log(2 * q) if q < mpmath.mpf(1) / 2 else -mpmath.log(2 * (1 - q))  # F^{-1}(q)
    y = x - eps
    return mpmath.exp(y) / 2 if y < 0 else 1 - mpmath.exp(-y) / 2


def test_figure3_crossings_and_witness():
    """Gaussian(1) and Laplace(1) cross: the Bayes error curves at 0.4185393766 and 0.5814606234
    (digest §4.3); each witness satisfies the three clauses of Theorem 1 strictly, and its two
    trade-off values are those of the named mechanisms (mpmath evaluations written here: at the
    second witness, alpha = 0.691462, G_1 = 0.0668072 and Lap_1 = 0.113505; a swap of the two
    values was a bug)."""
    g, lap = T.gaussian(1.0), T.laplace(1.0)
    d = dominance(g, lap)
    assert d.verdict == "neither"
    assert np.allclose(d.crossings, [0.4185393766, 0.5814606234], atol=1e-9)
    for key, more_private, less_private in (("second_more_vulnerable", g, lap), ("first_more_vulnerable", lap, g)):
        w = d.witness[key]
        assert more_private(w["alpha"]) > less_private(w["alpha"])                     # clause 1
        assert less_private.delta(w["epsilon"]) > more_private.delta(w["epsilon"])       # clause 2
        assert more_private.bayes_error(w["prior"]) > less_private.bayes_error(w["prior"])  # clause 3
        # the values are keyed by mechanism: first = Gaussian, second = Laplace
        assert w["first_tradeoff"] == pytest.approx(float(mp_gauss(1, w["alpha"])), abs=1e-12)
        assert w["second_tradeoff"] == pytest.approx(float(mp_laplace(1, w["alpha"])), abs=1e-12)
    w = d.witness["first_more_vulnerable"]
    assert w["alpha"] == pytest.approx(0.691462, abs=1e-6)
    assert w["first_tradeoff"] == pytest.approx(0.0668072, abs=1e-7) and w["second_tradeoff"] == pytest.approx(0.113505, abs=1e-6)


@pytest.mark.parametrize("eps,mu", [(1.0, 1.0), (2.0, 1.5), (0.5, 0.5), (0.5, 0.7)])
def test_rr_against_gaussian_crossings(eps, mu):
    """RR(eps) against G_mu: where the trade-off curves cross, found here by mpmath on the closed
    forms (1 - e^eps alpha on [0, 1/(1+e^eps)], e^-eps (1 - alpha) after). They cross iff RR's
    fixed point 1/(1+e^eps) is below G_mu's, Phi(-mu/2); otherwise G_mu dominates."""
    rr, g = RandomizedResponse(eps).tradeoff(), T.gaussian(mu)
    d = dominance(parse_mechanism(f"rr(eps={eps})"), parse_mechanism(f"gaussian(mu={mu})"))
    G = lambda a: mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * a - 1) - mu)  # noqa: E731
    E = mpmath.e ** eps
    knot = 1 / (1 + E)
    expected = []
    for piece, lo, hi in ((lambda a: 1 - E * a, mpmath.mpf(1e-12), knot), (lambda a: (1 - a) / E, knot, 1 - mpmath.mpf(1e-12))):
        xs = [lo + (hi - lo) * i / 400 for i in range(401)]
        vals = [piece(x) - G(x) for x in xs]
        for x0, x1, v0, v1 in zip(xs, xs[1:], vals, vals[1:]):
            if v0 * v1 < 0:
                expected.append(float(mpmath.findroot(lambda a: piece(a) - G(a), (x0, x1), solver="anderson")))
    assert len(d.alpha_crossings) == len(expected)
    assert np.allclose(d.alpha_crossings, expected, atol=1e-8)
    cross = 1 / (1 + math.exp(eps)) < float(mpmath.ncdf(-mu / 2))
    assert d.verdict == ("neither" if cross else "second") and (len(expected) > 0) == cross


def test_composition_preserves_order():
    """Torgersen: M >= M~ implies M^N >= M~^N (Gaussians and randomized response): the order is
    decided from the parameters; the numerical Delta of the composed curves agrees (it is within
    rounding of 0 in the dominated direction, positive in the other)."""
    for a, b in (("gaussian(mu=0.5)", "gaussian(mu=0.8)"), ("rr(eps=0.5)", "rr(eps=1)"), ("rr(eps=0.3, k=3)", "rr(eps=0.6, k=3)")):
        assert dominance(parse_mechanism(a), parse_mechanism(b)).verdict == "second"
        assert dominance(parse_mechanism(a + "^5"), parse_mechanism(b + "^5")).verdict == "second"
        numeric = delta_divergence(parse_mechanism(b + "^5").tradeoff(), parse_mechanism(a + "^5").tradeoff(),
                                   method="numeric")
        assert numeric.upper < 1e-12
        assert delta_divergence(parse_mechanism(a + "^5").tradeoff(), parse_mechanism(b + "^5").tradeoff()).lower > 1e-3


def test_theorem2_clauses_at_delta():
    """Theorem 2: at D = Delta all three clauses hold; at D = Delta - 1e-3 each fails somewhere."""
    for f, g in ((T.gaussian(1.0), T.laplace(1.0)), (T.laplace(1.0), T.gaussian(1.0)),
                 (RandomizedResponse(1.0).tradeoff(), T.gaussian(1.0))):
        res = delta_divergence(f, g)
        grids = {"alphas": np.linspace(0, 1, 4001), "epsilons": np.linspace(-6, 6, 4001),
                 "priors": np.linspace(0, 1, 4001)}
        ok = blackwell.theorem2_excess(f, g, res.upper, **grids)
        assert all(v <= 1e-9 for v in ok.values()), ok
        bad = blackwell.theorem2_excess(f, g, max(0.0, res.lower - 1e-3), **grids)
        assert all(v > 0 for v in bad.values()), bad
        assert approximately_dominates(f, g, res.upper) == "yes"
        assert approximately_dominates(f, g, res.lower - 1e-3) == "no"
        # inside the certified interval the answer is neither (it was a DomainError)
        assert approximately_dominates(f, g, 0.5 * (res.lower + res.upper)) in ("undecided", "yes")


def curves():
    rr = st.builds(lambda e, k: RandomizedResponse(e, k).tradeoff(), st.floats(0.05, 4), st.integers(2, 4))
    return st.one_of(rr, st.builds(T.gaussian, st.floats(0.05, 4)), st.builds(T.laplace, st.floats(0.05, 4)))


@settings(max_examples=12, deadline=None, derandomize=True)
@given(curves())
def test_lemmas_3_4_5(f):
    """Lemma 3: Delta(M_PP || M) = delta(0)/2; Lemma 4: Delta(M || M_BNP) = R(1/2) = alpha*
    (symmetric curves); Lemma 5: the two sum to 1/2."""
    d3, half_tv = extremal.lemma3(f)
    assert d3.lower - 1e-12 <= half_tv <= d3.upper + 1e-12
    d4, r_half, alpha_star = extremal.lemma4(f)
    assert d4.lower - 1e-12 <= r_half <= d4.upper + 1e-12
    assert abs(alpha_star - r_half) < 1e-9
    s = extremal.lemma5(f)
    assert s.lower - 1e-12 <= 0.5 <= s.upper + 1e-12


def test_lemma3_holds_for_an_asymmetric_curve():
    """Digest §6 item 8: the corrected argument makes Lemma 3 hold for asymmetric f as well."""
    f = T.from_pmfs([0.7, 0.2, 0.1], [0.1, 0.3, 0.6])
    assert not f.symmetric
    d3, half = extremal.lemma3(f)
    assert d3.lower - 1e-12 <= half <= d3.upper + 1e-12


def test_bad_input():
    with pytest.raises(DomainError, match="tol"):
        dominance(T.gaussian(1), T.laplace(2), divergence_tol=-1)
    with pytest.raises(DomainError, match="bound"):
        approximately_dominates(T.gaussian(1), T.gaussian(2), -0.1)
    with pytest.raises(DomainError, match="trade-off function"):
        dominance("gaussian", T.gaussian(2))
    assert math.isfinite(dominance(T.gaussian(1), T.gaussian(1)).forward.upper)
