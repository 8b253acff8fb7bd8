"""Delta-divergence (Kaissis et al. 2024, Definition 1, Corollary 1): certified intervals against
independent computations (mpmath closed forms, a brute-force Definition-1 search written here),
the three routes, the metric properties and the Figure 3 numbers."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dptheory import tradeoff as T
from dptheory.comparison import (delta_divergence, delta_divergence_definition, delta_divergence_from_profiles,
                                 levy_distance, symmetric_delta)
from dptheory.comparison import bayes_error as be
from dptheory.comparison import closed_forms as cf
from dptheory.mechanisms import RandomizedResponse
from dptheory.validate import DomainError

from tests.conftest import pmf_pairs, random_pmf


@pytest.fixture(autouse=True)
def _mpmath_digits():
    """mpmath precision for this module's oracles, restored afterwards (it is global state)."""
    with mpmath.workdps(50):
        yield



def mp_phi(x):
    return mpmath.ncdf(x)


def mp_gauss_R(mu, pi):
    """R_min of G_mu at 50 digits from its definition as a minimum over alpha (mpmath findroot on
    the first-order condition f'(alpha) = -pi/(1-pi), i.e. z = mu/2 + logit(pi)/mu)."""
    pi, mu = mpmath.mpf(pi), mpmath.mpf(mu)
    lam = mpmath.log(pi / (1 - pi))
    z = mu / 2 + lam / mu  # Phi^{-1}(1 - alpha)
    alpha = 1 - mp_phi(z)
    return pi * alpha + (1 - pi) * mp_phi(z - mu)


def contains(res, value, slack=0.0):
    return res.lower - slack <= value <= res.upper + slack


# ------------------------------------------------------------------ Figure 3 (Section 5)
def test_figure3_numbers_from_closed_forms():
    """Figure 3: Delta(G_1 || Lap_1) = 0.005 and Delta(Lap_1 || G_1) = 0.034 as printed; the exact
    values Phi(-1/2) - e^{-1/2}/2 and 1/(1+e) - R_G1(1/(1+e)) (digest §4.3) at 50 digits."""
    g, lap = T.gaussian(1.0), T.laplace(1.0)
    fw, bw = delta_divergence(g, lap), delta_divergence(lap, g)
    exact_fw = mp_phi(-0.5) - mpmath.exp(-0.5) / 2
    p = 1 / (1 + mpmath.e)
    exact_bw = p - mp_gauss_R(1, p)
    assert contains(fw, float(exact_fw)) and contains(bw, float(exact_bw))
    assert fw.upper - fw.lower < 1e-10 and bw.upper - bw.lower < 1e-10
    assert f"{fw.upper:.3f}" == "0.005" and f"{bw.upper:.3f}" == "0.034"  # the paper's printed numbers
    assert abs(fw.params["prior"] - 0.5) < 1e-6 and abs(bw.params["prior"] - float(p)) < 1e-6


def test_paper_grid_method_underestimates():
    """Appendix B.3's grid (pis = linspace(0, 1, N), a bounded minimiser at each pi) reproduced on a
    coarse grid: the digest's raw 0.0341330939 at N = 1e4 is below the exact 0.0341385466; the
    grid's shortfall is at most 1/(N-1) (R is 1-Lipschitz)."""
    from scipy.optimize import minimize_scalar
    from scipy.stats import laplace, norm

    def rmin(f, n):
        return np.array([minimize_scalar(lambda a: p * a + (1 - p) * f(a), bounds=(0, 1)).fun
                         for p in np.linspace(0, 1, n)])

    n = 201
    fg = lambda a: norm.cdf(norm.isf(a) - 1.0)  # noqa: E731  (the paper's oracles)
    fl = lambda a: laplace.cdf(laplace.isf(a) - 1.0)  # noqa: E731
    grid_bw = float(np.max(rmin(fl, n) - rmin(fg, n)))
    ours = delta_divergence(T.laplace(1.0), T.gaussian(1.0))
    assert grid_bw <= ours.upper + 1e-5  # the bounded minimiser errs by ~xatol
    assert ours.lower - grid_bw <= 1 / (n - 1) + 1e-5
    assert 0.0341330939 < ours.lower  # the digest's rerun of B.3 at N = 1e4 is an underestimate


# ------------------------------------------------------------------ closed forms within a family
@pytest.mark.parametrize("mu1,mu2", [(0.5, 1.0), (1.0, 3.0), (2.0, 0.7), (0.01, 0.02), (4.0, 6.0), (0.0, 1.0)])
def test_gaussian_pairs_match_closed_form(mu1, mu2):
    res = delta_divergence(T.gaussian(mu1), T.gaussian(mu2), method="numeric")
    assert contains(delta_divergence(T.gaussian(mu1), T.gaussian(mu2)), float(max(0, mp_phi(-mu1 / 2) - mp_phi(-mu2 / 2))))
    exact = max(mpmath.mpf(0), mp_phi(-mpmath.mpf(mu1) / 2) - mp_phi(-mpmath.mpf(mu2) / 2))
    assert contains(res, float(exact))
    assert res.upper - res.lower < 1e-10
    assert abs(float(cf.DELTA_GAUSSIAN(mu1, mu2)) - float(exact)) < 1e-15


@pytest.mark.parametrize("e1,e2", [(0.5, 1.0), (2.0, 1.0), (0.1, 3.0), (1.0, 1.0)])
def test_laplace_and_rr_pairs_match_closed_forms(e1, e2):
    lap = delta_divergence(T.laplace(e1), T.laplace(e2), method="numeric")
    assert contains(delta_divergence(T.laplace(e1), T.laplace(e2)), max(0.0, 0.5 * (math.exp(-e1 / 2) - math.exp(-e2 / 2))))
    assert contains(lap, max(0.0, 0.5 * (math.exp(-e1 / 2) - math.exp(-e2 / 2))), 1e-15)
    rr = delta_divergence(RandomizedResponse(e1).tradeoff(), RandomizedResponse(e2).tradeoff())
    exact = max(0.0, 1 / (1 + math.exp(e1)) - 1 / (1 + math.exp(e2)))
    assert contains(rr, exact, 1e-15) and rr.upper - rr.lower < 1e-13
    assert abs(cf.DELTA_RR(e1, e2) - exact) < 1e-15
    assert abs(cf.DELTA_LAPLACE(e1, e2) - max(0.0, 0.5 * (math.exp(-e1 / 2) - math.exp(-e2 / 2)))) < 1e-15


# ------------------------------------------------------------------ brute force (Definition 1)
def brute_force_lower(f, g, alphas, iterations=40):
    """A lower bound on Delta(f || g) from Definition 1 alone: kappa < Delta as soon as some alpha
    of the grid has f(alpha + kappa) - kappa > g(alpha) + 1e-12; the largest such kappa is found by
    bisection (infeasibility on the grid is monotone in kappa)."""
    ga = g(alphas)

    def violated(k):
        shifted = alphas + k
        fa = np.where(shifted > 1, 0.0, f(np.minimum(shifted, 1.0)))
        return np.max(fa - k - ga) > 1e-12

    lo, hi = 0.0, 0.5
    if not violated(lo):
        return 0.0
    for _ in range(iterations):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if violated(mid) else (lo, mid)
    return lo


@pytest.mark.parametrize("pair", ["gauss-lap", "lap-gauss", "rr-gauss", "gauss-rr3"])
def test_against_brute_force_definition(pair):
    g1, lap1 = T.gaussian(1.0), T.laplace(1.0)
    rr, rr3 = RandomizedResponse(1.5).tradeoff(), RandomizedResponse(1.0, 3).tradeoff()
    f, g = {"gauss-lap": (g1, lap1), "lap-gauss": (lap1, g1), "rr-gauss": (rr, g1), "gauss-rr3": (g1, rr3)}[pair]
    alphas = np.linspace(0, 1, 100001)
    brute = brute_force_lower(lambda a: np.asarray(f(a), float), lambda a: np.asarray(g(a), float), alphas)
    ours = delta_divergence(f, g)
    assert brute <= ours.upper
    assert ours.lower - brute < 1e-4  # the alpha grid (step 1e-5) misses the worst alpha by a little


# ------------------------------------------------------------------ three routes agree
@settings(max_examples=25, deadline=None, derandomize=True)
@given(pmf_pairs(min_size=2, max_size=6, allow_zeros=False), pmf_pairs(min_size=2, max_size=6, allow_zeros=False))
def test_three_routes_agree_piecewise_linear(pair1, pair2):
    f, g = T.from_pmfs(*pair1), T.from_pmfs(*pair2)
    bayes = delta_divergence(f, g)
    definition = delta_divergence_definition(f, g)
    profile = delta_divergence_from_profiles(f.delta, g.delta, abs_err=1e-14, tol=1e-10)
    for a, b in ((bayes, definition), (bayes, profile), (definition, profile)):
        assert a.lower <= b.upper + 1e-12 and b.lower <= a.upper + 1e-12
    assert bayes.upper - bayes.lower < 1e-13


@pytest.mark.parametrize("f,g", [(T.gaussian(1.0), T.laplace(1.0)), (T.laplace(1.0), T.gaussian(1.0)),
                                 (T.gaussian(0.5), T.laplace(2.0)), (T.laplace(0.3), T.gaussian(2.0))])
def test_three_routes_agree_closed_forms(f, g):
    bayes = delta_divergence(f, g)
    profile = delta_divergence_from_profiles(f.delta, g.delta, abs_err=1e-12, tol=1e-9)
    definition = delta_divergence_definition(f, g, points=1500)
    assert profile.lower <= bayes.upper + 1e-12 and bayes.lower <= profile.upper + 1e-12
    assert definition.lower <= bayes.lower and bayes.upper <= definition.upper  # sandwiches are bounds
    assert definition.upper - definition.lower < 5e-3


def test_profile_route_certifies_by_itself():
    """Trade-off functions are taken with their own certified profile enclosures; a plain function
    of epsilon needs its error stated (abs_err = 0.0 was the silent default)."""
    g, lap = T.gaussian(1.0), T.laplace(1.0)
    res = delta_divergence_from_profiles(g, lap, tol=1e-9)
    exact = float(mp_phi(-0.5) - mpmath.exp(-0.5) / 2)
    assert res.lower <= exact <= res.upper and res.upper - res.lower < 1e-8
    with pytest.raises(DomainError, match="abs_err"):
        delta_divergence_from_profiles(g.delta, lap.delta)


def test_definition_route_is_tight_on_smooth_curves():
    """Definition 1 through piecewise-linear sandwiches that include the curves' corners: Lap_1 ||
    G_1 is enclosed to 1e-7 (it was 2.1e-4 wide: the sandwich missed the Laplace corner where
    the maximum sits) around the exact 1/(1+e) - R_G1(1/(1+e)) (digest §4.3)."""
    res = delta_divergence_definition(T.laplace(1.0), T.gaussian(1.0))
    p = 1 / (1 + mpmath.e)
    assert contains(res, float(p - mp_gauss_R(1, p))) and res.upper - res.lower < 1e-7


def test_sandwich_brackets_the_curve():
    from dptheory.comparison.divergence import sandwich

    for f in (T.gaussian(1.0), T.laplace(2.0), T.gaussian(3.0)):
        lo, hi = sandwich(f, 800)
        a = np.linspace(0, 1, 5001)
        assert np.all(np.asarray(lo(a)) <= np.asarray(f(a)) + 1e-15)
        assert np.all(np.asarray(hi(a)) >= np.asarray(f(a)) - 1e-15)


# ------------------------------------------------------------------ metric properties
def curves():
    rr = st.builds(lambda e, k: RandomizedResponse(e, k).tradeoff(), st.floats(0.05, 4), st.integers(2, 4))
    gauss = st.builds(T.gaussian, st.floats(0.05, 4))
    lap = st.builds(T.laplace, st.floats(0.05, 4))
    pl = pmf_pairs(min_size=2, max_size=5, allow_zeros=False).map(lambda pq: T.from_pmfs(*pq).symmetrize())
    return st.one_of(rr, gauss, lap, pl)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(curves(), curves(), curves())
def test_metric_properties(f, g, h):
    d_fg, d_gh, d_fh = delta_divergence(f, g), delta_divergence(g, h), delta_divergence(f, h)
    for d in (d_fg, d_gh, d_fh):
        assert 0 <= d.lower <= d.upper <= 0.5
    assert delta_divergence(f, f).upper == 0  # Delta(M || M) = 0
    assert delta_divergence(f, f, method="numeric").upper < 1e-6  # the numeric route: grid capped
    assert d_fh.lower <= d_fg.upper + d_gh.upper + 1e-12  # Lemma B.3
    s_fg, s_gf = symmetric_delta(f, g), symmetric_delta(g, f)
    assert s_fg.lower == s_gf.lower and s_fg.upper == s_gf.upper  # Corollary 2: symmetric
    assert symmetric_delta(f, h).lower <= s_fg.upper + symmetric_delta(g, h).upper + 1e-12
    # Delta <= min(alpha*, delta~(0)/2) (digest §5.8)
    assert d_fg.lower <= float(f.bayes_error(0.5)) + 1e-9


@settings(max_examples=20, deadline=None, derandomize=True)
@given(pmf_pairs(min_size=2, max_size=5, allow_zeros=False), pmf_pairs(min_size=2, max_size=5, allow_zeros=False))
def test_lemma1_and_levy_distance(pair1, pair2):
    """Lemma 1's sandwich (7) holds at Delta<->, and Lemma B.1: Delta<-> is the Levy distance
    (computed from its own definition (32))."""
    f, g = T.from_pmfs(*pair1), T.from_pmfs(*pair2)
    sym = symmetric_delta(f, g)
    lev = levy_distance(f, g)
    assert lev.lower <= sym.upper + 1e-12 and sym.lower <= lev.upper + 1e-12
    d = sym.upper
    a = np.linspace(0, 1, 2001)

    def ext(c, x):
        return np.where(x < 0, 1.0, np.where(x > 1, 0.0, np.asarray(c(np.clip(x, 0, 1)), float)))

    assert np.all(ext(f, a + d) - d <= np.asarray(g(a)) + 1e-12)
    assert np.all(np.asarray(g(a)) <= ext(f, a - d) + d + 1e-12)


# ------------------------------------------------------------------ exactness and speed shape
def test_piecewise_linear_is_a_merge_not_a_grid():
    """Two fine piecewise-linear curves (symmetrised random pairs with 400 atoms): the exact route
    equals the maximum over all pairs of kinks (the quadratic reference written here)."""
    rng = np.random.default_rng(5)
    f = T.from_pmfs(random_pmf(rng, 400), random_pmf(rng, 400))
    g = T.from_pmfs(random_pmf(rng, 300), random_pmf(rng, 300))
    res = delta_divergence(f, g)
    kinks = np.unique(np.concatenate([be.pl_breakpoints(f), be.pl_breakpoints(g)]))
    ra = np.min(kinks[:, None] * f.knots_alpha[None, :] + (1 - kinks[:, None]) * f.knots_beta[None, :], axis=1)
    rb = np.min(kinks[:, None] * g.knots_alpha[None, :] + (1 - kinks[:, None]) * g.knots_beta[None, :], axis=1)
    assert contains(res, float(np.max(ra - rb)), 1e-15)
    assert res.upper - res.lower < 1e-12


def test_kinks_from_masses_not_from_knot_differences():
    """Regression: for RR(0.1)^400 the last alpha-increments (1e-130) vanish in 1 - (cumulative
    sum), so kinks taken from knot differences were unsorted and R(1/2) came out as 1/2. Lemma 4
    gives Delta(M || M_BNP) = alpha*, computed here by the exact fixed point of the curve."""
    from dptheory.comparison import extremal, parse_mechanism

    f = parse_mechanism("rr(eps=0.1)^400").tradeoff()
    res = delta_divergence(f, extremal.blatantly_non_private())
    assert contains(res, float(f.fixed_point()), 1e-12)
    assert abs(res.upper - 0.158856841) < 1e-8


def test_bayes_error_enclosures_against_mpmath():
    """The float Bayes errors of G_mu and of the Laplace curve are within CLOSED_FORM_ABS_ERR of
    the 50-digit values (and the enclosures contain them)."""
    pis = np.concatenate([np.linspace(0, 1, 97), [1e-12, 1e-5, 1 - 1e-9, 0.3, 0.731]])
    worst = 0.0
    for mu in (0.01, 0.5, 1.0, 3.0, 12.0):
        lo, hi = be.enclosure(T.gaussian(mu)).bounds(pis)
        for p, a, b in zip(pis, lo, hi):
            ref = mpmath.mpf(0) if p in (0.0, 1.0) else mp_gauss_R(mu, p)
            worst = max(worst, abs(float(ref) - float(be.gaussian_bayes_error(mu, np.array([p]))[0])))
            assert a <= ref <= b
        lo, hi = be.enclosure(T.laplace(mu)).bounds(pis)
        for p, a, b in zip(pis, lo, hi):
            P = mpmath.mpf(p)
            ref = min(P, 1 - P, mpmath.exp(-mpmath.mpf(mu) / 2) * mpmath.sqrt(P * (1 - P)))
            assert a <= ref <= b
    assert worst < be.CLOSED_FORM_ABS_ERR / 8


def test_bad_input():
    with pytest.raises(DomainError, match="trade-off function"):
        delta_divergence(lambda a: 1 - a, T.gaussian(1.0))
    with pytest.raises(DomainError, match="tol"):
        delta_divergence(T.gaussian(1.0), T.laplace(1.0), tol=0.0)
    with pytest.raises(DomainError, match="abs_err"):
        delta_divergence_from_profiles(T.gaussian(1).delta, T.laplace(1).delta, abs_err=-1)


def test_bayes_error_formulas():
    """The registered Bayes error closed forms against independent evaluations: the Laplace one
    against the minimum over a fine alpha grid of the Laplace curve (it can only be above the
    true minimum, by at most the grid's effect), randomized response's against the exact
    piecewise-linear Bayes error of its pmfs, and TV(G_mu) against delta(0)."""
    a = np.linspace(0, 1, 200001)
    for mu in (0.3, 1.0, 2.5):
        lap = np.asarray(T.laplace(mu)(a))
        for p in (0.05, 0.3, 0.5, 0.8):
            grid = float(np.min(p * a + (1 - p) * lap))
            closed = float(cf.LAPLACE_BAYES_ERROR(mu, p))
            assert closed <= grid + 1e-15 and grid - closed < 1e-9
        rr = RandomizedResponse(mu).tradeoff()
        for p in (0.05, 0.3, 0.5, 0.8):
            assert abs(float(cf.RR_BAYES_ERROR(mu, p)) - float(be.pl_bayes_error(rr, np.array(p)))) < 1e-15
        assert abs(float(cf.GDP_TV(mu)) - float(T.gaussian(mu).delta(0.0))) < 1e-14
