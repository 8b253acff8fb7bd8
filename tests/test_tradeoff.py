"""Trade-off functions: closed forms against the pmfs they come from, conversions against the
divergences of the pmfs, structural properties, and the symmetrization erratum."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from scipy import stats

from dptheory import divergences as dv, tradeoff as tf
from dptheory.mechanisms import RR_TRADEOFF, RandomizedResponse
from tests.conftest import pmf_pairs, raises_naming, random_pmf

GRID = np.linspace(0.0, 1.0, 401)


@pytest.mark.parametrize("eps0,k", [(0.5, 2), (1.0, 3), (2.0, 5), (4.0, 10)])
def test_rr_tradeoff_from_pmfs_equals_closed_form(eps0, k):
    f = RandomizedResponse(eps0, k).tradeoff()
    closed = RR_TRADEOFF.numpy()(eps0, k, GRID)
    assert np.allclose(f(GRID), closed, atol=1e-14)


@pytest.mark.parametrize("eps,delta", [(0.0, 0.0), (1.0, 0.0), (0.7, 0.05), (3.0, 0.2)])
def test_dp_tradeoff_equals_its_closed_form(eps, delta):
    f = tf.dp(eps, delta)
    assert np.allclose(f(GRID), tf.DP_TRADEOFF(eps, delta, GRID), atol=1e-14)
    fm = tf.dp(eps, delta, digits=40)
    assert abs(fm(mpmath.mpf("0.3")) - tf.DP_TRADEOFF.mpmath(40)(eps, delta, mpmath.mpf("0.3"))) < 1e-30


def test_gaussian_against_scipy_and_mpmath():
    for mu in (0.1, 1.0, 3.0):
        g = tf.gaussian(mu)
        # independent: scipy's normal distribution object
        ref = stats.norm.cdf(stats.norm.isf(GRID[1:-1]) - mu)
        assert np.allclose(g(GRID[1:-1]), ref, rtol=1e-12, atol=1e-15)
        gm = tf.gaussian(mu, digits=50)
        for a in ("1e-30", "0.25", "0.999"):
            A = mpmath.mpf(a)
            with mpmath.workdps(50):
                exact = mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * A - 1) - mu)
            assert abs(gm(A) - exact) < mpmath.mpf(10) ** -40


def test_laplace_tradeoff_against_scipy_quantiles():
    for mu in (0.3, 1.0, 2.5):
        f = tf.laplace(mu)
        a = GRID[1:-1]
        ref = stats.laplace.cdf(stats.laplace.isf(a) - mu)  # Kaissis et al. B.3 code
        assert np.allclose(f(a), ref, atol=1e-14)


def test_laplace_profile_and_renyi_against_numerical_integrals():
    mu = 1.2
    f = tf.laplace(mu)
    from scipy import integrate

    for e in (0.0, 0.4, 1.0):
        num = integrate.quad(lambda x: max(0.0, 0.5 * math.exp(-abs(x)) - math.exp(e) * 0.5 * math.exp(-abs(x - mu))),
                             -40, 40, points=[0, mu], limit=200)[0]
        assert math.isclose(f.delta(e), num, rel_tol=1e-8, abs_tol=1e-12)
    for lam in (1.5, 2.0, 5.0):
        num = integrate.quad(lambda x: (0.5 * math.exp(-abs(x))) ** lam * (0.5 * math.exp(-abs(x - mu))) ** (1 - lam),
                             -60, 60, points=[0, mu], limit=200)[0]
        assert math.isclose(f.renyi(lam), math.log(num) / (lam - 1), rel_tol=1e-8)


def test_gaussian_conversions_match_closed_forms():
    mu = 1.3
    g = tf.gaussian(mu)
    assert math.isclose(g.f_divergence(dv.GENERATORS["kl"]), mu * mu / 2, rel_tol=1e-9)
    assert math.isclose(g.f_divergence(dv.GENERATORS["total-variation"]), 2 * stats.norm.cdf(mu / 2) - 1, rel_tol=1e-9)
    assert math.isclose(g.renyi(3.0), 3 * mu * mu / 2)
    # profile closed form = 1 + sup_a(-e^eps a - G(a)), the supremum found numerically
    from scipy import optimize

    for e in (0.0, 0.5, 2.0):
        res = optimize.minimize_scalar(lambda a: math.exp(e) * a + g(a), bounds=(0, 1), method="bounded",
                                       options={"xatol": 1e-12})
        assert math.isclose(1 - res.fun, g.delta(e), rel_tol=1e-9)
        assert math.isclose(1 + g.conjugate(-math.exp(e)), g.delta(e), rel_tol=1e-12)
    assert math.isclose(g(g.fixed_point()), g.fixed_point(), rel_tol=1e-12)
    # Bayes error closed form against a brute-force minimum over a fine grid
    a = np.linspace(0, 1, 200001)
    for prior in (0.2, 0.5, 0.8):
        brute = np.min(prior * a + (1 - prior) * g(a))
        assert abs(g.bayes_error(prior) - brute) < 1e-9
    assert tf.gdp_compose(3.0, 4.0) == 5.0
    assert g.compose(tf.gaussian(0.0)).mu == mu


@given(pmf_pairs())
@settings(max_examples=80, deadline=None)
def test_from_pmfs_is_a_tradeoff_function(pair):
    p, q = pair
    f = tf.from_pmfs(p, q)
    vals = f(GRID)
    assert np.all(np.diff(vals) <= 1e-12)                       # non-increasing
    assert np.all(vals <= 1 - GRID + 1e-12)                     # f(a) <= 1 - a
    assert np.all(np.diff(vals, 2) >= -1e-9)                    # convex
    assert np.all((vals >= -1e-12) & (vals <= 1 + 1e-12))


@given(pmf_pairs())
@settings(max_examples=80, deadline=None)
def test_conversions_from_f_equal_divergences_of_the_pmfs(pair):
    p, q = pair
    f = tf.from_pmfs(p, q)
    eps = np.array([-0.3, 0.0, 0.5, 1.5])
    # orientation: 1 + T(P,Q)*(-e^eps) = H_{e^eps}(Q||P)
    assert np.allclose(f.delta(eps), dv.hockey_stick(q, p, eps), atol=1e-12)
    assert np.allclose(1 + f.conjugate(-np.exp(eps)), dv.hockey_stick(q, p, eps), atol=1e-12)
    r_f, r_pq = f.renyi(2.5), dv.renyi(p, q, 2.5)
    assert (math.isinf(r_f) and math.isinf(r_pq)) or math.isclose(r_f, r_pq, rel_tol=1e-9, abs_tol=1e-12)
    gen = dv.GENERATORS["squared-hellinger"]
    assert math.isclose(f.f_divergence(gen), dv.f_divergence(p, q, gen), rel_tol=1e-9, abs_tol=1e-12)
    # T(Q, P) = T(P, Q)^{-1}, and the inverse is an involution
    g = tf.from_pmfs(q, p)
    assert np.allclose(f.inverse()(GRID), g(GRID), atol=1e-12)
    assert np.allclose(f.inverse().inverse()(GRID), f(GRID), atol=1e-12)


@given(pmf_pairs())
@settings(max_examples=60, deadline=None)
def test_conjugate_is_the_brute_force_supremum_and_bayes_error_the_minimum(pair):
    p, q = pair
    f = tf.from_pmfs(p, q)
    a = np.concatenate([GRID, f.knots_alpha])
    fa = f(a)
    for y in (-5.0, -1.0, -0.2, 0.3):
        assert abs(f.conjugate(y) - np.max(y * a - fa)) < 1e-12
    for prior in (0.1, 0.5, 0.9):
        assert abs(f.bayes_error(prior) - np.min(prior * a + (1 - prior) * fa)) < 1e-12
    x = f.fixed_point()
    assert abs(f(x) - x) < 1e-12


@given(pmf_pairs())
@settings(max_examples=80, deadline=None)
def test_symmetrization_is_symmetric_convex_and_keeps_the_profile(pair):
    p, q = pair
    f = tf.from_pmfs(p, q)
    c = f.symmetrize()
    vals = c(GRID)
    assert np.allclose(c.inverse()(GRID), vals, atol=1e-9)      # symmetric
    assert np.all(np.diff(vals, 2) >= -1e-9)                    # convex
    assert np.all(vals <= 1 - GRID + 1e-12)
    x_bar, f_x_bar = f.steep_end()
    lower_env = np.minimum(f(GRID), f.inverse()(GRID))
    if x_bar <= f_x_bar:  # C(f) = min(f, f^-1)**: below both, and the largest convex such function
        assert np.all(vals <= lower_env + 1e-12)
        # and the largest convex one: its conjugate equals the envelope's, whose supremum is
        # attained at a knot of f or f^-1
        xs = np.concatenate([f.knots_alpha, f.inverse().knots_alpha])
        env = np.minimum(f(xs), f.inverse()(xs))
        for y in (-4.0, -1.5, -1.0, -0.5, 0.0):
            assert abs(c.conjugate(y) - np.max(y * xs - env)) < 1e-12
    else:                 # C(f) = max(f, f^-1)
        assert np.allclose(vals, np.maximum(f(GRID), f.inverse()(GRID)), atol=1e-9)


def test_symmetrization_erratum_middle_piece():
    """Wang et al. 2023, eq. (3): the printed middle piece x_bar - f(x_bar) - x is wrong;
    the corrected x_bar + f(x_bar) - x is continuous with f at x_bar and with f^-1 at f(x_bar)."""
    f = tf.from_pmfs([0.05, 0.15, 0.3, 0.5], [0.45, 0.3, 0.15, 0.1])  # asymmetric pair
    steep = [(a, b) for a, b in zip(f.p_mass, f.q_mass) if b > a]
    x_bar = sum(a for a, _ in steep)
    f_x_bar = float(f(x_bar))
    assert x_bar <= f_x_bar
    c = f.symmetrize()
    xs = np.linspace(x_bar, f_x_bar, 9)
    corrected = x_bar + f_x_bar - xs
    printed = x_bar - f_x_bar - xs
    assert np.allclose(c(xs), corrected, atol=1e-12)
    assert not np.allclose(c(xs), printed, atol=1e-3)
    assert printed[0] < 0                     # the printed piece is negative at x_bar
    assert abs(corrected[0] - f_x_bar) < 1e-15 and abs(corrected[-1] - float(f.inverse()(f_x_bar))) < 1e-12


def test_symmetrization_of_shuffle_like_mixture_matches_known_identity():
    # C(2w Id) = max(2w - x, 0) (Wang et al. 2023, digest §4.4): Id is the pair (1, 0) / (1, 0)
    w = 0.3
    # x -> 2w (1 - x) is the trade-off of P = (0, 1), Q = (1 - 2w, 2w)
    f = tf.from_pmfs([0.0, 1.0], [1 - 2 * w, 2 * w])
    assert np.allclose(f(GRID), 2 * w * (1 - GRID), atol=1e-12)
    c = f.symmetrize()
    assert np.allclose(c(GRID), np.maximum(2 * w - GRID, 0.0), atol=1e-12)


def test_vertical_and_flat_parts_and_infinite_renyi():
    f = tf.from_pmfs([0.5, 0.5, 0.0], [0.0, 0.5, 0.5])
    assert math.isclose(f(0.0), 0.5)          # vertical drop: Q-mass where P has none
    assert f(0.75) == 0.0                     # flat after z_f = 0.5
    assert f.renyi(2.0) == math.inf           # z_f < 1
    assert math.isfinite(f.inverse().renyi(2.0)) is False


def test_mpmath_piecewise_linear_agrees_with_float():
    rng = np.random.default_rng(3)
    p, q = random_pmf(rng, 6), random_pmf(rng, 6)
    f, fm = tf.from_pmfs(p, q), tf.from_pmfs(p, q, digits=50)
    for a in (0.0, 0.1, 0.5, 0.93):
        assert abs(float(fm(a)) - f(a)) < 1e-14
    assert abs(float(fm.delta(0.7)) - f.delta(0.7)) < 1e-15
    assert abs(float(fm.renyi(3.0)) - f.renyi(3.0)) < 1e-13
    assert abs(float(fm.bayes_error(0.4)) - f.bayes_error(0.4)) < 1e-14
    assert abs(float(fm.conjugate(-2.0)) - f.conjugate(-2.0)) < 1e-14


def test_from_knots_validates():
    f = tf.from_knots([0.0, 0.2, 1.0], [0.8, 0.2, 0.0])
    assert math.isclose(f(0.1), 0.5)
    with raises_naming("knot", "1 - alpha"):
        tf.from_knots([0.0, 0.5], [1.0, 0.9])
    with raises_naming("convex"):
        tf.from_knots([0.0, 0.3, 0.6], [1.0, 0.6, 0.0])
    with raises_naming("alpha[0]"):
        tf.from_knots([0.1, 1.0], [0.5, 0.0])


def test_bad_inputs():
    with raises_naming("alpha", "[0, 1]"):
        tf.gaussian(1.0)(1.5)
    with raises_naming("mu"):
        tf.gaussian(-1.0)
    with raises_naming("epsilon"):
        tf.dp(-1.0)
    with raises_naming("delta", "[0, 1]"):
        tf.dp(1.0, 1.5)
    with raises_naming("p", "sums to"):
        tf.from_pmfs([0.2, 0.2], [0.5, 0.5])


@pytest.mark.parametrize("eps0,k,delta", [(2.0, 3, 1e-13), (0.5, 2, 1e-15), (8.0, 20, 1e-12), (1.0, 4, 1e-3)])
def test_piecewise_linear_epsilon_encloses_the_exact_inverse_near_the_kink(eps0, k, delta):
    """For tiny delta the root sits just below log(p/q) of one atom, where that atom's term
    cancels: the bracket comes from a certified enclosure, and contains the exact inverse
    log(e^eps0 - delta (e^eps0 + k - 1))."""
    f = RandomizedResponse(eps0, k).tradeoff()
    res = f.epsilon(delta)
    p, q = RandomizedResponse(eps0, k).pmfs()
    with mpmath.workdps(60):
        # the canonical pair holds float masses: the exact inverse of their hockey-stick divergence
        ps = [mpmath.mpf(v) for v in p]
        qs = [mpmath.mpf(v) for v in q]
        ratio = ps[0] / qs[0]
        # the largest-ratio atom alone is positive near the root: p0 - e^eps q0 = delta
        ref = mpmath.log((ps[0] - mpmath.mpf(delta)) / qs[0])
        assert ref > mpmath.log(max(a / b for a, b in zip(ps, qs) if a / b < ratio))
    assert res.lower <= ref <= res.upper, (res.lower, res.upper, ref)


def test_gaussian_log_delta_enclosure_and_mu_zero():
    g = tf.gaussian(1.0)
    lo, hi = g.log_delta_enclosure(40.0)
    with mpmath.workdps(80):
        x = mpmath.mpf(40)
        ref = mpmath.log(mpmath.ncdf(-x + mpmath.mpf(0.5)) - mpmath.exp(x) * mpmath.ncdf(-x - mpmath.mpf(0.5)))
    assert lo <= ref <= hi
    # mu = 0: identical distributions, delta(eps) = (1 - e^eps)_+ and epsilon(delta) = 0
    z = tf.gaussian(0.0)
    assert z.delta(0.5) == 0.0 and math.isclose(z.delta(-1.0), 1 - math.exp(-1.0), rel_tol=1e-15)
    assert z.epsilon(1e-6).upper == 0.0
