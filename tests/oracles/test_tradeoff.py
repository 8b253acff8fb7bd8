"""Checks of the trade-off, Bayes-error and Delta-divergence oracles against closed forms, the
papers' lemmas and printed numbers (never against dptheory's code)."""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
from mpmath import mpf

from tests.oracles import mixtures
from tests.oracles import tradeoff as T
from tests.oracles.certified import inside


def random_knots(rng: random.Random, size: int, symmetric: bool = False):
    w = [Fraction(rng.randint(1, 12)) for _ in range(size)]
    v = [Fraction(rng.randint(1, 12)) for _ in range(size)]
    p, q = [x / sum(w) for x in w], [x / sum(v) for x in v]
    if symmetric:                       # the pair (p + q mirrored) is symmetric: T(P, Q) = T(Q, P)
        p, q = [x / 2 for x in p + q], [x / 2 for x in q + p]
    return mixtures.tradeoff_knots(p, q)


def rr_knots(E: Fraction, k: int = 2):
    """Randomized response with e^eps0 = E rational, by Neyman-Pearson on its two rows."""
    z = E + k - 1
    p = [E / z, 1 / z] + [1 / z] * (k - 2)
    q = [1 / z, E / z] + [1 / z] * (k - 2)
    return mixtures.tradeoff_knots(p, q)


# ----------------------------------------------------------------------------- curves


@pytest.mark.parametrize("mu,alpha", [(1, "0.3"), (0.5, "0.01"), (3, "0.9"), (1, "1e-80"), (2, "0.999999")])
def test_gaussian_curve(mu, alpha):
    """G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu) through mpmath's erfinv at 200 digits (another route
    to the quantile)."""
    with mpmath.workdps(200):
        a = mpf(alpha)
        want = mpmath.ncdf(mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * a) - mu)
    assert inside(want, T.gaussian_tradeoff(mu, alpha, digits=50))


def test_gaussian_curve_is_symmetric_and_ordered():
    """G_mu is its own inverse, and decreasing in mu (Kaissis et al. 2024, Lemma B.2)."""
    for a in ("0.05", "0.3", "0.7"):
        lo, hi = T.gaussian_tradeoff(1.5, a, digits=40)
        back_lo = T.gaussian_tradeoff(1.5, hi, digits=40)[0]
        back_hi = T.gaussian_tradeoff(1.5, lo, digits=40)[1]
        assert back_lo <= mpf(a) <= back_hi
        assert T.gaussian_tradeoff(2, a, digits=30)[1] < T.gaussian_tradeoff(1.5, a, digits=30)[0]
    assert inside(mpf("0.7"), T.gaussian_tradeoff(0, "0.3", digits=30))


@pytest.mark.parametrize("eps", [0.5, 1, 3])
def test_laplace_curve_pieces(eps):
    """Dong, Roth, Su 2022 (Laplace mechanism): 1 - e^eps alpha below e^-eps/2, e^-eps/(4 alpha) up to
    1/2, e^-eps (1 - alpha) above; the curve is its own inverse."""
    with mpmath.workdps(80):
        e = mpf(eps)
        for a in (mpf("0.001"), mpmath.exp(-e) / 4, mpmath.exp(-e) / 2 * mpf("1.1"), mpf("0.4"), mpf("0.5"),
                  mpf("0.8")):
            if a < mpmath.exp(-e) / 2:
                want = 1 - mpmath.exp(e) * a
            elif a <= mpf(1) / 2:
                want = mpmath.exp(-e) / (4 * a)
            else:
                want = mpmath.exp(-e) * (1 - a)
            lo, hi = T.laplace_tradeoff(eps, a, digits=60)
            assert inside(want, (lo, hi)), a
            assert inside(a, (T.laplace_tradeoff(eps, hi, 60)[0], T.laplace_tradeoff(eps, lo, 60)[1]))


def test_laplace_profile_from_the_curve():
    """delta(eps') = sup over alpha of 1 - f(alpha) - e^eps' alpha: a grid maximum of the curve is
    below the Laplace profile 1 - e^((eps' - eps)/2) and close to it."""
    eps, eps2 = mpf(1), mpf("0.3")
    with mpmath.workdps(40):
        want = 1 - mpmath.exp((eps2 - eps) / 2)
        g = mpmath.exp(eps2)
        best = max(1 - T.laplace_tradeoff(eps, a, 30)[0] - g * a for a in mpmath.linspace(0, 1, 801))
    assert best <= want + mpf(10) ** -25 and want - best <= mpf(10) ** -5


@pytest.mark.parametrize("eps0,k", [(1, 2), (0.5, 3), (2, 6)])
def test_rr_curve(eps0, k):
    """k-RR: knots (0,1), (1/Z, (k-1)/Z), ((k-1)/Z, 1/Z), (1,0), Z = e^eps0 + k - 1 (Neyman-Pearson by
    hand: reject on x' first, then the k - 2 others, then x); f_{eps0,0} for k = 2."""
    with mpmath.workdps(80):
        E = mpmath.exp(mpf(eps0))
        Z = E + k - 1
        knots = [(mpf(0), mpf(1)), (1 / Z, (k - 1) / Z), ((k - 1) / Z, 1 / Z), (mpf(1), mpf(0))]
        for a in (mpf(0), 1 / Z / 3, 1 / Z, mpf(1) / 2 / Z + mpf(1) / 2 * (k - 1) / Z, (k - 1) / Z, mpf("0.9"), mpf(1)):
            for (a0, b0), (a1, b1) in zip(knots, knots[1:]):
                if a0 <= a <= a1 and a1 > a0:
                    want = b0 + (b1 - b0) * (a - a0) / (a1 - a0)
                    break
            assert inside(want, T.rr_tradeoff(eps0, k, a, digits=60)), a
        if k == 2:
            a = mpf("0.1")
            assert inside(max(0, 1 - E * a, (1 - a) / E), T.rr_tradeoff(eps0, 2, a, 60))


# ----------------------------------------------------------------------------- Bayes errors


@pytest.mark.parametrize("mu,prior", [(1, "0.5"), (0.5, "0.2"), (2.5, "0.93")])
def test_gaussian_bayes_error(mu, prior):
    """The closed form is the minimum of pi alpha + (1 - pi) G_mu(alpha): no grid point is below it,
    and the best grid point is close."""
    lo, hi = T.gaussian_bayes_error(mu, prior, digits=40)
    with mpmath.workdps(30):
        pi = mpf(prior)
        grid = [pi * a + (1 - pi) * T.gaussian_tradeoff(mu, a, 20)[0] for a in mpmath.linspace(mpf("1e-6"), 1 - mpf("1e-6"), 120)]
        best = min(grid)
    assert lo <= best + mpf(10) ** -18 and best - hi <= mpf(10) ** -2


def test_gaussian_bayes_error_at_one_half_is_the_fixed_point():
    """Kaissis et al. 2024, Lemma 4: R(1/2) = alpha* (the fixed point), Phi(-mu/2) for G_mu."""
    with mpmath.workdps(80):
        want = mpmath.ncdf(-mpf("1.7") / 2) / 1
    # R_min at 1/2 is (alpha* + G(alpha*))/2 = alpha*
    assert inside(want, T.gaussian_bayes_error("1.7", "0.5", digits=60))


@pytest.mark.parametrize("eps", [0.4, 1, 2.5])
def test_laplace_bayes_error(eps):
    """Against the minimum over a grid, and min(pi, 1 - pi, e^(-eps/2) sqrt(pi (1 - pi))) (derived
    here from the three pieces)."""
    with mpmath.workdps(60):
        e = mpf(eps)
        for prior in (mpf("0.05"), mpf(1) / (1 + mpmath.exp(e)), mpf("0.3"), mpf("0.5"), mpf("0.85")):
            want = min(prior, 1 - prior, mpmath.exp(-e / 2) * mpmath.sqrt(prior * (1 - prior)))
            lo, hi = T.laplace_bayes_error(eps, prior, digits=50)
            assert lo <= want * (1 + mpf(10) ** -45) and want <= hi * (1 + mpf(10) ** -45), prior


@pytest.mark.parametrize("seed", range(4))
def test_pl_bayes_error_is_the_discrete_one(seed):
    """min over the knots of pi alpha + (1 - pi) beta = sum_x min(pi p(x), (1 - pi) q(x)) (reject x or
    not, outcome by outcome): two routes, exact."""
    rng = random.Random(seed)
    w = [Fraction(rng.randint(0, 9)) for _ in range(5)]
    v = [Fraction(rng.randint(1, 9)) for _ in range(5)]
    w[0] += 1
    p, q = [x / sum(w) for x in w], [x / sum(v) for x in v]
    knots = mixtures.tradeoff_knots(p, q)
    for prior in (Fraction(0), Fraction(1, 7), Fraction(1, 2), Fraction(5, 6), Fraction(1)):
        assert T.bayes_error_pl(knots, prior) == sum(min(prior * a, (1 - prior) * b) for a, b in zip(p, q))


# ----------------------------------------------------------------------------- Delta, exact


def bayes_route(f, g) -> Fraction:
    """Kaissis et al. 2024, Corollary 1: Delta(f||g) = max over pi of R_f(pi) - R_g(pi). Both R are
    concave piecewise linear in pi with breakpoints where -pi/(1 - pi) is a segment slope s, i.e.
    pi = -s/(1 - s); the difference is piecewise linear between the union of those points, so its
    maximum is at one of them (or at 0, 1)."""
    pis = {Fraction(0), Fraction(1)}
    for knots in (f, g):
        for (a0, b0), (a1, b1) in zip(knots, knots[1:]):
            s = (b1 - b0) / (a1 - a0)
            pis.add(-s / (1 - s))
    return max(T.bayes_error_pl(f, pi) - T.bayes_error_pl(g, pi) for pi in pis)


@pytest.mark.parametrize("seed", range(10))
def test_definition_equals_bayes_route(seed):
    rng = random.Random(seed)
    sym = seed % 2 == 0
    f, g = random_knots(rng, rng.randint(2, 4), sym), random_knots(rng, rng.randint(2, 4), sym)
    d = T.delta_divergence_pl(f, g)
    assert d == bayes_route(f, g), seed
    assert T.delta_divergence_pl_bruteforce(f, g, d)
    if d > 0:
        assert not T.delta_divergence_pl_bruteforce(f, g, d - Fraction(1, 10 ** 20))


def test_extremal_mechanisms():
    """Kaissis et al. 2024, Lemmas 3-5: Delta(PP||M) = TV/2, Delta(M||BNP) = alpha* (the fixed point),
    their sum 1/2, with PP the curve 1 - alpha and BNP the curve 0 (disjoint supports: f(0) = 0)."""
    pp = [(Fraction(0), Fraction(1)), (Fraction(1), Fraction(0))]
    bnp = [(Fraction(0), Fraction(0)), (Fraction(1), Fraction(0))]
    for E in (Fraction(2), Fraction(7, 3), Fraction(11)):
        f = rr_knots(E, 2)
        tv = (E - 1) / (E + 1)
        fixed = 1 / (E + 1)
        assert T.delta_divergence_pl(pp, f) == tv / 2
        assert T.delta_divergence_pl(f, bnp) == fixed
        assert T.delta_divergence_pl(pp, f) + T.delta_divergence_pl(f, bnp) == Fraction(1, 2)
        assert T.delta_divergence_pl(f, pp) == 0 and T.delta_divergence_pl(bnp, f) == 0


def test_blackwell_order_and_rr_family():
    """f <= g pointwise gives Delta(f||g) = 0 (Kaissis et al. 2024, Theorem 1); between two RR curves
    the shift runs along the diagonal from one fixed point to the other: 1/(1 + E1) - 1/(1 + E2)
    (derived here: both curves are symmetric and kinked on the diagonal)."""
    for E1, E2 in ((Fraction(2), Fraction(5)), (Fraction(3, 2), Fraction(9)), (Fraction(4), Fraction(4))):
        f, g = rr_knots(E1), rr_knots(E2)
        assert T.delta_divergence_pl(g, f) == 0
        assert T.delta_divergence_pl(f, g) == 1 / (1 + E1) - 1 / (1 + E2)
        assert T.symmetric_delta_divergence_pl(f, g) == 1 / (1 + E1) - 1 / (1 + E2)


def test_triangle_inequality():
    """Kaissis et al. 2024, Lemma B.3."""
    rng = random.Random(42)
    for _ in range(15):
        a, b, c = (random_knots(rng, rng.randint(2, 4), True) for _ in range(3))
        assert T.delta_divergence_pl(a, c) <= T.delta_divergence_pl(a, b) + T.delta_divergence_pl(b, c)


def test_theorem_2_profiles():
    """Kaissis et al. 2024, Theorem 2 (1 <=> 2): with D = Delta(f||g), delta_f(eps) + D (1 + e^eps) >=
    delta_g(eps) for every eps, checked exactly at rational g = e^eps through 1 + f*(-g), with equality
    somewhere on the grid being possible but never a violation."""
    rng = random.Random(5)
    for _ in range(8):
        f, g = random_knots(rng, 3, True), random_knots(rng, 3, True)
        d = T.delta_divergence_pl(f, g)
        for gamma in (Fraction(1), Fraction(3, 2), Fraction(4), Fraction(1, 2), Fraction(17, 5)):
            assert mixtures.conjugate_profile(f, gamma) + d * (1 + gamma) >= mixtures.conjugate_profile(g, gamma)


def test_bad_knots():
    with pytest.raises(ValueError, match="alpha = 0"):
        T.delta_divergence_pl([(Fraction(1, 2), 1), (1, 0)], [(0, 1), (1, 0)])
    with pytest.raises(ValueError, match="non-increasing"):
        T.delta_divergence_pl([(0, Fraction(1, 2)), (Fraction(1, 2), 1), (1, 0)], [(0, 1), (1, 0)])


# ----------------------------------------------------------------------------- Delta, curves


@pytest.mark.parametrize("mu,mu2", [(1, 2), (0.5, 0.8), (2, 1)])
def test_gaussian_delta_closed_form_against_chords(mu, mu2):
    """The closed form max(0, Phi(-mu/2) - Phi(-mu2/2)) lies in the bracket computed exactly on chord
    curves below and above both G's."""
    grid = T.unit_grid(120, 20)
    lo, hi = T.delta_divergence_bracket(lambda a: T.gaussian_tradeoff_interval(mu, a),
                                        lambda a: T.gaussian_tradeoff_interval(mu2, a), grid, 15)
    c_lo, c_hi = T.gaussian_delta_divergence(mu, mu2, digits=30)
    assert lo <= mixtures.as_fraction(float(c_lo)) + Fraction(1, 10 ** 15)
    assert mixtures.as_fraction(float(c_hi)) - Fraction(1, 10 ** 15) <= hi
    assert hi - lo <= Fraction(1, 10 ** 3)
    if mu >= mu2:
        assert c_hi == 0


def test_kaissis_figure_3():
    """Kaissis et al. 2024, Figure 3 (Gaussian sigma = 1 and Laplace b = 1, unit sensitivity):
    Delta(Gauss||Lap) printed 0.005 and Delta(Lap||Gauss) printed 0.034 (three decimals). The
    certified brackets round to the printed values."""
    grid = T.unit_grid(150, 20)
    g_below, g_above = T.chord_bracket(lambda a: T.gaussian_tradeoff_interval(1, a), grid, 15)
    l_below, l_above = T.chord_bracket(lambda a: T.laplace_tradeoff_interval(1, a), grid, 15)
    lo, hi = T.delta_divergence_pl(g_below, l_above), T.delta_divergence_pl(g_above, l_below)
    assert Fraction(45, 10000) <= lo <= hi < Fraction(55, 10000)
    lo, hi = T.delta_divergence_pl(l_below, g_above), T.delta_divergence_pl(l_above, g_below)
    assert Fraction(335, 10000) <= lo <= hi < Fraction(345, 10000)


def test_gaussian_bnp_is_the_fixed_point():
    """Kaissis et al. 2024, Lemma 4 on a smooth curve: Delta(G_mu||BNP) = Phi(-mu/2)."""
    bnp = blatantly_non_private
    grid = T.unit_grid(100, 20)
    lo, hi = T.delta_divergence_bracket(lambda a: T.gaussian_tradeoff_interval(1, a), bnp, grid, 15)
    with mpmath.workdps(40):
        want = mpmath.ncdf(-mpf(1) / 2)
    assert lo <= mixtures.as_fraction(float(want)) + Fraction(1, 10 ** 15)
    assert mixtures.as_fraction(float(want)) - Fraction(1, 10 ** 15) <= hi


def blatantly_non_private(alpha):
    """The BNP curve (Kaissis et al. 2024, Section 3.4): 1 at alpha = 0, 0 on (0, 1]."""
    from mpmath import iv
    return iv.mpf(1) if alpha == 0 else iv.mpf(0)


@pytest.mark.slow
def test_sweep_gaussian_delta_fine_chords():
    grid = T.unit_grid(1000, 40)
    for mu, mu2 in ((0.3, 0.35), (1, 1.2), (2, 3), (4, 5)):
        lo, hi = T.delta_divergence_bracket(lambda a: T.gaussian_tradeoff_interval(mu, a),
                                            lambda a: T.gaussian_tradeoff_interval(mu2, a), grid, 20)
        c_lo, c_hi = T.gaussian_delta_divergence(mu, mu2, digits=30)
        assert lo <= mixtures.as_fraction(float(c_lo)) + Fraction(1, 10 ** 15)
        assert mixtures.as_fraction(float(c_hi)) - Fraction(1, 10 ** 15) <= hi
        assert hi - lo <= Fraction(1, 10 ** 3)   # the chord error grows with the curvature (mu = 5: G'' ~ 300 at the contact)


@pytest.mark.slow
def test_sweep_definition_equals_bayes_route():
    rng = random.Random(77)
    for trial in range(200):
        f, g = random_knots(rng, rng.randint(2, 6)), random_knots(rng, rng.randint(2, 6))
        assert T.delta_divergence_pl(f, g) == bayes_route(f, g), trial
