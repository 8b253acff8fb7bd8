"""Joint concavity (Wang et al. 2023, Lemma 3.1, Props B.1, B.2, 6.1) and its F-divergence
consequences (Prop. 3.3, Cors B.5, B.6, Prop. B.7), against exact Neyman-Pearson on the explicit
mixture distributions and direct divergence sums."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dptheory import divergences as dv
from dptheory import tradeoff as tf
from dptheory.mixtures import concavity as cc
from dptheory.mixtures import fdivergence as fd
from dptheory.mixtures import joint_concavity_bound, mixture_tradeoff
from tests.conftest import raises_naming

GRID = np.linspace(0.0, 1.0, 401)


@st.composite
def mixtures(draw, max_components=3, max_size=5, positive=False):
    """Weights and pmf pairs on one common support."""
    m = draw(st.integers(1, max_components))
    size = draw(st.integers(2, max_size))
    elems = st.floats(1e-4, 1.0) if positive else st.one_of(st.just(0.0), st.floats(1e-4, 1.0))

    def vec():
        v = np.array(draw(st.lists(elems, min_size=size, max_size=size)))
        if v.sum() == 0:
            v[draw(st.integers(0, size - 1))] = 1.0
        return v / v.sum()

    raw = np.array(draw(st.lists(st.floats(0.01, 1.0), min_size=m, max_size=m)))
    return raw / raw.sum(), [(vec(), vec()) for _ in range(m)]


def _is_tradeoff(f, tol=1e-12):
    y = f(GRID)
    assert np.all(np.diff(y) <= tol), "not non-increasing"
    assert np.all(y <= 1 - GRID + tol) and np.all(y >= -tol)
    slopes = np.diff(y) / np.diff(GRID)
    assert np.all(np.diff(slopes) >= -1e-7 * (1 + np.abs(slopes[1:]))), "not convex"


@settings(max_examples=60, deadline=None, derandomize=True)
@given(mixtures())
def test_joint_concavity_bound_is_below_the_exact_mixture(mix):
    w, pairs = mix
    exact = mixture_tradeoff(w, pairs)
    bound = joint_concavity_bound(w, [tf.from_pmfs(p, q) for p, q in pairs])
    assert np.all(bound(GRID) <= exact(GRID) + 1e-12)
    _is_tradeoff(bound)
    _is_tradeoff(exact)
    # the bound is T(P_I, Q_I): Neyman-Pearson on the joint law of (observation, index)
    joint = tf.from_pmfs(*cc.joint_pmfs(w, pairs))
    assert np.max(np.abs(bound(GRID) - joint(GRID))) < 1e-12
    # the exact mixture: Neyman-Pearson on an independent brute-force sum of the pmfs
    p = sum(wi * a for wi, (a, _) in zip(w, pairs))
    q = sum(wi * b for wi, (_, b) in zip(w, pairs))
    assert np.max(np.abs(exact(GRID) - tf.from_pmfs(p / p.sum(), q / q.sum())(GRID))) < 1e-12


@settings(max_examples=30, deadline=None, derandomize=True)
@given(mixtures(max_size=4))
def test_symmetric_components_give_a_symmetric_bound(mix):
    """Prop. 3.2: if every T(P_i, Q_i) is symmetric, so is the Lemma 3.1 bound."""
    w, pairs = mix
    sym = [(p, p[::-1].copy()) for p, _ in pairs]
    fs = [tf.from_pmfs(p, q) for p, q in sym]
    assert all(f.symmetric for f in fs)
    bound = joint_concavity_bound(w, fs)
    assert bound.symmetric
    assert np.all(bound(GRID) <= mixture_tradeoff(w, sym)(GRID) + 1e-12)


def test_gaussian_components_against_mpmath_neyman_pearson():
    """Mixture of (N(0,1), N(mu_i,1)): the exact T(P_w, Q_w) is a threshold test on x (the
    likelihood ratio sum_i w_i e^{mu_i x - mu_i^2/2} is increasing); the infimal convolution of
    the G_mu_i is below it, and Prop. B.2's common-threshold points lie on the bound."""
    w, mus = [0.25, 0.75], [0.5, 2.0]
    bound = joint_concavity_bound(w, [tf.Gaussian(m) for m in mus])
    assert bound.symmetric
    with mpmath.workdps(40):
        for c in [-1.0, 0.0, 0.7, 1.5, 3.0]:
            alpha = mpmath.ncdf(-c)
            beta = sum(wi * mpmath.ncdf(c - m) for wi, m in zip(w, mus))
            assert bound(float(alpha)) <= float(beta) + 1e-15
    ts = np.array([0.2, 0.5, 1.0, 2.0, 5.0])
    a, b = cc.common_threshold_points(w, [tf.Gaussian(m) for m in mus], ts)
    # the bound at alpha(t) is beta(t): the inf-convolution is attained at the common threshold
    assert np.max(np.abs(bound(a) - b)) < 1e-9
    # and the slope there is -t (convention S), by a central difference on the bound
    h = 1e-5
    slope = (bound(a + h) - bound(a - h)) / (2 * h)
    assert np.max(np.abs(slope + ts) / ts) < 1e-3


def test_infimal_convolution_conjugate_is_the_weighted_sum():
    fs = [tf.Gaussian(1.0), tf.dp(0.5, 0.01)]
    bound = cc.InfimalConvolution([0.4, 0.6], fs)
    for y in [-5.0, -1.0, -0.3]:
        # brute force sup_x (x y - g(x)) over a fine grid is below the exact conjugate
        xs = np.linspace(0, 1, 401)
        brute = float(np.max(xs * y - bound(xs)))
        assert brute <= bound.conjugate(y) + 1e-9
        assert brute >= bound.conjugate(y) - 1e-2


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.data())
def test_different_weights_bound_is_below_the_exact(data):
    """Prop. B.1 (common-threshold reading), against NP on P_w and Q_w'."""
    size = data.draw(st.integers(2, 4))
    vec = st.lists(st.floats(1e-3, 1.0), min_size=size, max_size=size)
    ps = [np.array(data.draw(vec)) for _ in range(2)]
    qs = [np.array(data.draw(vec)) for _ in range(2)]
    ps = [v / v.sum() for v in ps]
    qs = [v / v.sum() for v in qs]
    w1 = data.draw(st.floats(0.0, 1.0))
    v1 = data.draw(st.floats(0.0, 1.0))
    w, v = np.array([w1, 1 - w1]), np.array([v1, 1 - v1])
    mat = [[tf.from_pmfs(ps[i], qs[j]) for j in range(2)] for i in range(2)]
    bound = cc.different_weights_bound(w, v, mat)
    exact = tf.from_pmfs(w[0] * ps[0] + w[1] * ps[1], v[0] * qs[0] + v[1] * qs[1])
    assert np.all(bound(GRID) <= exact(GRID) + 1e-12)


def test_different_weights_coupling_has_the_printed_coefficients():
    """m = 2: min(w_1, w_1'), min(w_2, w_2'), (w_2' - min) on (P_1, Q_2), (w_1' - min) on (P_2, Q_1)."""
    w, v = [0.7, 0.3], [0.4, 0.6]
    pi = cc.maximal_diagonal_coupling(w, v)
    assert pi[0, 0] == pytest.approx(0.4) and pi[1, 1] == pytest.approx(0.3)
    assert pi[0, 1] == pytest.approx(0.6 - 0.3) and pi[1, 0] == pytest.approx(0.0)
    assert np.allclose(pi.sum(axis=1), w) and np.allclose(pi.sum(axis=0), v)


def test_lemma31_tightness_check_prop_6_1():
    """Prop. 6.1: disjoint supports give equality (and equal PLDs); Example F.4 does not."""
    w = [0.3, 0.7]
    p1, q1 = np.array([0.5, 0.5, 0, 0]), np.array([0.2, 0.8, 0, 0])
    p2, q2 = np.array([0, 0, 0.3, 0.7]), np.array([0, 0, 0.6, 0.4])
    tight, gap = cc.lemma31_is_tight(w, [(p1, q1), (p2, q2)])
    assert tight and gap < 1e-12
    bound = joint_concavity_bound(w, [tf.from_pmfs(p1, q1), tf.from_pmfs(p2, q2)])
    assert np.max(np.abs(bound(GRID) - mixture_tradeoff(w, [(p1, q1), (p2, q2)])(GRID))) < 1e-12
    p, q = np.array([0.6, 0.3, 0.1]), np.array([0.1, 0.3, 0.6])
    tight, gap = cc.lemma31_is_tight([0.5, 0.5], [(p, q), (q, p)])
    assert not tight and gap > 0.1


@settings(max_examples=40, deadline=None, derandomize=True)
@given(mixtures(max_components=2, max_size=3))
def test_tightness_check_agrees_with_comparing_the_functions(mix):
    w, pairs = mix
    tight, _ = cc.lemma31_is_tight(w, pairs)
    exact = mixture_tradeoff(w, pairs)
    bound = joint_concavity_bound(w, [tf.from_pmfs(p, q) for p, q in pairs])
    xs = np.unique(np.concatenate([GRID, exact.knots_alpha, bound.knots_alpha]))
    equal = np.max(np.abs(exact(xs) - bound(xs))) < 1e-9
    assert tight == equal


# ------------------------------------------------------------------------------ divergences
@settings(max_examples=30, deadline=None, derandomize=True)
@given(mixtures(positive=True))
def test_f_divergence_hockey_stick_and_renyi_bounds_hold(mix):
    w, pairs = mix
    fs = [tf.from_pmfs(p, q) for p, q in pairs]
    pw, qw = cc.mixture_pmfs(w, pairs)
    for name in ["total-variation", "kl", "chi-squared", "squared-hellinger", "length"]:
        gen = dv.GENERATORS[name]
        res = fd.f_divergence_bound(w, fs, gen)
        direct = dv.f_divergence(pw, qw, gen)
        assert direct <= res.upper * (1 + 1e-12) + 1e-15, name
        per_component = math.fsum(wi * dv.f_divergence(p, q, gen) for wi, (p, q) in zip(w, pairs))
        assert res.lower <= per_component * (1 + 1e-9) + 1e-15 and per_component <= res.upper * (1 + 1e-9) + 1e-15
    for eps in [-0.5, 0.0, 0.3, 1.0, 3.0]:
        res = fd.hockey_stick_bound(w, fs, eps)
        # f = T(P, Q) has delta(eps) = H_{e^eps}(Q || P)
        assert dv.hockey_stick(qw, pw, eps) <= res.upper * (1 + 1e-12) + 1e-300
        assert res.kind == "upper" and res.status == "proven"
    for lam in [1.5, 2.0, 5.0]:
        res = fd.renyi_bound(w, fs, lam)
        assert dv.renyi(pw, qw, lam) <= res.upper + 1e-12


def test_hockey_stick_bound_with_gaussian_components():
    """Cor. B.5 with continuous components: the mixture (N(0,1), sum w_i N(mu_i,1)), delta by
    mpmath quadrature of (q - e^eps p)_+."""
    w, mus = [0.5, 0.5], [0.5, 1.5]
    res = fd.hockey_stick_bound(w, [tf.Gaussian(m) for m in mus], 1.0)
    with mpmath.workdps(30):
        g = mpmath.e

        def integrand(x):
            q = sum(wi * mpmath.npdf(x, m) for wi, m in zip(w, mus))
            return max(q - g * mpmath.npdf(x), 0)

        exact = mpmath.quad(integrand, [-mpmath.inf, 0, 1, 2, 3, mpmath.inf])
    assert float(exact) <= res.upper


def test_renyi_bound_infinite_and_length():
    f0 = tf.from_pmfs([0.5, 0.5, 0.0], [0.0, 0.5, 0.5])  # f(0) < 1 and z_f < 1
    res = fd.renyi_bound([0.5, 0.5], [f0, tf.Gaussian(1.0)], 2.0)
    assert res.upper == math.inf
    # Prop. B.7: length of the graph, from the knots (vertical drop and flat part included)
    a, b = f0.knots()
    polyline = math.fsum(math.hypot(x1 - x0, y1 - y0) for x0, x1, y0, y1 in zip(a, a[1:], b, b[1:]))
    assert fd.length(f0) == pytest.approx(polyline, rel=1e-14)
    assert dv.f_divergence([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], fd.LENGTH) == pytest.approx(polyline, rel=1e-12)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(mixtures())
def test_length_of_mixture_is_at_most_the_mixture_of_lengths(mix):
    """Prop. 3.3 with F(y) = sqrt(1 + y^2) (Prop. B.7): len(T(P_w, Q_w)) <= sum_i w_i len(f_i)."""
    w, pairs = mix
    lhs = fd.length(mixture_tradeoff(w, pairs))
    rhs = math.fsum(wi * fd.length(tf.from_pmfs(p, q)) for wi, (p, q) in zip(w, pairs))
    assert lhs <= rhs * (1 + 1e-12)
    assert math.sqrt(2) - 1e-12 <= lhs <= 2 + 1e-12


# ------------------------------------------------------------------------------ bad input
def test_bad_input_names_the_parameter():
    p, q = [0.5, 0.5], [0.2, 0.8]
    with raises_naming("weights[0]", "[0, 1]"):
        mixture_tradeoff([-0.1, 1.1], [(p, q), (p, q)])
    with raises_naming("weights", "sum to 1"):
        mixture_tradeoff([0.3, 0.3], [(p, q), (p, q)])
    with raises_naming("weights[1]"):
        joint_concavity_bound([0.5, float("nan")], [tf.Gaussian(1), tf.Gaussian(1)])
    with raises_naming("pairs[1].q", "sum to 1"):
        mixture_tradeoff([0.5, 0.5], [(p, q), (p, [0.2, 0.7])])
    with raises_naming("pairs[1]", "support"):
        mixture_tradeoff([0.5, 0.5], [(p, q), ([1.0, 0, 0], [0, 0, 1.0])])
    with raises_naming("alpha", "[0, 1]"):
        joint_concavity_bound([0.5, 0.5], [tf.Gaussian(1), tf.Gaussian(2)])(1.5)
    with raises_naming("alpha", "[0, 1]"):
        joint_concavity_bound([0.5, 0.5], [tf.from_pmfs(p, q)] * 2)(-0.1)
    with raises_naming("tradeoffs"):
        joint_concavity_bound([0.5, 0.5], [tf.Gaussian(1)])
    with raises_naming("beta"):
        tf.from_knots([0.0, 0.5, 1.0], [1.0, 0.2, 0.4])  # a non-monotone user curve


@settings(max_examples=4, deadline=None, derandomize=True)
@given(st.floats(0.05, 0.95), st.floats(0.0, 3.0), st.floats(0.0, 2.0), st.floats(0.0, 0.2))
def test_infimal_convolution_is_a_symmetric_trade_off_function(w, mu, eps, delta):
    """The Lemma 3.1 bound of continuous and piecewise-linear symmetric components: convex,
    non-increasing, below 1 - alpha and symmetric (Prop. 3.2)."""
    fs = [tf.Gaussian(mu), tf.dp(eps, delta)]
    bound = joint_concavity_bound([w, 1 - w], fs)
    xs = np.linspace(0, 1, 51)
    y = bound(xs)
    assert np.all(np.diff(y) <= 1e-12) and np.all(y <= 1 - xs + 1e-12) and np.all(y >= 0)
    slopes = np.diff(y) / np.diff(xs)
    assert np.all(np.diff(slopes) >= -1e-6)
    assert bound.symmetric
    assert np.max(np.abs(y - bound.inverse()(xs))) < 1e-6
