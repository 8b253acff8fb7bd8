"""Advanced joint concavity (Wang et al. 2023, Lemmas 6.2, 6.3, Props 6.4, E.1) and Examples
F.3, F.4, against exact Neyman-Pearson on the explicit mixtures and mpmath quadrature."""

import math

import mpmath
import numpy as np
import pytest

from dptheory import divergences as dv
from dptheory import tradeoff as tf
from dptheory.mixtures import advanced as adv
from tests.conftest import raises_naming, random_pmf

GRID = np.linspace(0.0, 1.0, 401)


def _mixing(rng, w):
    gamma, eta = rng.uniform(0, w), rng.uniform(w, 1)
    return (eta, gamma) if rng.random() < 0.5 else (gamma, eta)


def test_lemma62_bounds_the_hockey_stick_divergence():
    rng = np.random.default_rng(62)
    for _ in range(40):
        p0, q0, p1, q1 = (random_pmf(rng, 4) for _ in range(4))
        w = rng.uniform(0.05, 0.95)
        gamma, eta = _mixing(rng, w)
        P, Q = (1 - w) * p0 + w * p1, (1 - w) * q0 + w * q1
        for eps in [-0.5, 0.0, 0.4, 1.5]:
            res = adv.lemma62_bound(w, p0, q0, p1, q1, eps, gamma, eta)
            assert dv.hockey_stick(P, Q, eps) <= res.upper
            assert res.kind == "upper" and res.status == "proven"


def test_lemma62_scalings_solve_equations_9_and_10():
    w, gamma, eta = 0.3, 0.1, 0.8
    k0, k1 = adv.lemma62_scalings(w, gamma, eta)
    assert (1 - w) * k0 + w * k1 == pytest.approx(1.0, rel=1e-15)
    assert (1 - w) * gamma * k0 + w * eta * k1 == pytest.approx(w, rel=1e-15)


def test_lemma63_bound_is_below_the_exact_mixture():
    rng = np.random.default_rng(63)
    checked = 0
    for _ in range(60):
        p0, p1, q0, q1 = (random_pmf(rng, 3) for _ in range(4))
        # symmetric lower bounds f_ij = min{T, T^-1}** <= T(P_i, Q_j)
        f = [[adv.symmetric_lower(tf.from_pmfs(p, q)) for q in (q0, q1)] for p in (p0, p1)]
        assert all(np.min(tf.from_pmfs(p, q)(GRID) - f[i][j](GRID)) >= -1e-12
                   for i, p in enumerate((p0, p1)) for j, q in enumerate((q0, q1)))
        w = rng.uniform(0.05, 0.95)
        gamma, eta = _mixing(rng, w)
        P, Q = (1 - w) * p0 + w * p1, (1 - w) * q0 + w * q1
        F = adv.lemma63_function(w, f, gamma, eta)
        bound = adv.advanced_joint_concavity_bound(w, f, gamma, eta)
        assert np.all(F(GRID) <= tf.from_pmfs(Q, P)(GRID) + 1e-12)
        assert np.all(bound(GRID) <= tf.from_pmfs(P, Q)(GRID) + 1e-12)
        assert bound.symmetric
        checked += 1
    assert checked == 60


def test_prop_6_4_and_e_1_are_below_the_exact_trade_off():
    rng = np.random.default_rng(64)
    for _ in range(30):
        p0 = random_pmf(rng, 4)
        q0 = p0[::-1].copy()  # T(P_0, Q_0) symmetric
        f0 = tf.from_pmfs(p0, q0)
        w = rng.uniform(0.0, 0.5)
        P, Q = (1 - w) * p0 + w * q0, (1 - w) * q0 + w * p0
        bound = adv.swapped_mixture_bound(w, f0)
        assert np.all(bound(GRID) <= tf.from_pmfs(P, Q)(GRID) + 1e-12)
        assert bound.symmetric
        # Prop. E.1: P = (1-w) R + w P_1, Q = (1-w) R + w Q_1, R a mixture of P_1 and Q_1 (so
        # that T(P_1, R) >= T(P_1, Q_1)), f_1 a symmetric lower bound on T(P_1, Q_1)
        p1, q1 = random_pmf(rng, 4), random_pmf(rng, 4)
        lam = rng.uniform()
        r = lam * p1 + (1 - lam) * q1
        w = rng.uniform(0.01, 0.99)
        bound = adv.subsampling_mixture_bound(w, adv.symmetric_lower(tf.from_pmfs(p1, q1)))
        exact = tf.from_pmfs((1 - w) * r + w * p1, (1 - w) * r + w * q1)
        assert np.all(bound(GRID) <= exact(GRID) + 1e-12)


def test_example_f3_bounds_against_mpmath_neyman_pearson():
    """P_0 = N(0,1), Q_0 = N(mu,1), the pair (P_0, w P_0 + (1-w) Q_0), mu = 1, w = 1/3 (Fig. 4).
    Exact points by mpmath quadrature of the threshold test x > c (the likelihood ratio is
    increasing in x): both bounds are below, Lemma 6.3 above Lemma 3.1 (slightly tighter)."""
    mu, w = 1.0, 1 / 3
    l31 = adv.example_f3_lemma31(mu, w, GRID)
    l63 = adv.example_f3_lemma63(mu, w, GRID)
    exact = adv.example_f3_exact(mu, w, GRID)
    assert np.all(l31 <= l63 + 1e-13) and np.all(l63 <= exact + 1e-13)
    assert np.max(l63 - l31) > 0.01
    # the Lemma 3.1 closed form is the infimal convolution of w Id and (1-w) G_mu
    from dptheory.mixtures import concavity as cc

    inf_conv = cc.joint_concavity_bound([w, 1 - w], [cc.identity(), tf.Gaussian(mu)])
    xs = GRID[::8]
    assert np.max(np.abs(inf_conv(xs) - adv.example_f3_lemma31(mu, w, xs))) < 1e-9
    with mpmath.workdps(30):
        for c in [-2.0, -0.5, 0.3, 1.0, 2.5]:
            alpha = mpmath.quad(mpmath.npdf, [c, mpmath.inf])
            beta = mpmath.quad(lambda x: w * mpmath.npdf(x) + (1 - w) * mpmath.npdf(x, mu), [-mpmath.inf, c])
            a = float(alpha)
            assert abs(adv.example_f3_exact(mu, w, a, digits=30) - beta) < 1e-15  # a = alpha rounded to float
            assert adv.example_f3_exact(mu, w, a) == pytest.approx(float(beta), abs=1e-14)
            assert adv.example_f3_lemma63(mu, w, a) <= beta
            assert adv.example_f3_lemma31(mu, w, a) <= beta


def test_example_f4_indistinguishable_mixtures():
    p, q = np.array([0.6, 0.3, 0.1]), np.array([0.1, 0.2, 0.7])
    out = adv.example_f4(p, q)
    assert np.max(np.abs(out["exact"](GRID) - (1 - GRID))) < 1e-15
    assert np.max(np.abs(out["prop64"](GRID) - (1 - GRID))) < 1e-12
    assert np.min((1 - GRID) - out["lemma31"](GRID)) >= -1e-15
    assert np.max((1 - GRID) - out["lemma31"](GRID)) > 0.1  # Lemma 3.1 is loose here


def test_bad_input():
    f = tf.from_pmfs([0.5, 0.5], [0.2, 0.8]).symmetrize()
    with raises_naming("gamma", "eta < w < gamma"):
        adv.lemma63_function(0.5, [[f, f], [f, f]], 0.5, 0.5)
    with raises_naming("w", "(0, 1)"):
        adv.lemma62_scalings(1.2, 0.1, 0.9)
    with raises_naming("tradeoffs[0][1]", "symmetric"):
        adv.lemma63_function(0.5, [[f, tf.from_pmfs([0.5, 0.5], [0.2, 0.8])], [f, f]], 0.2, 0.8)
    with raises_naming("w", "[0, 0.5]"):
        adv.swapped_mixture_bound(0.7, f)
    with raises_naming("alpha", "[0, 1]"):
        adv.example_f3_lemma63(1.0, 0.3, 1.2)
    with raises_naming("mu"):
        adv.example_f3_exact(-1.0, 0.3, 0.2)
    assert math.isfinite(adv.example_f3_lemma31(1.0, 0.3, 0.0))


def test_prop_e_1_sound_at_a_float_tie_at_slope_minus_one():
    """(1-w) Id + w f_1 with a slope -1 segment whose q/p is 1 + 2^-52 after rounding: the C(.) of
    tradeoff.PiecewiseLinear.symmetrize takes its max{g, g^-1} branch there; the bound used
    here (min{g, g^-1}**) stays below the exact trade-off function."""
    rng = np.random.default_rng(5)
    seen_tie = False
    for _ in range(3):
        lam, w = rng.uniform(), rng.uniform(0.01, 0.99)
        p1, q1 = random_pmf(rng, 4), random_pmf(rng, 4)
        r = lam * p1 + (1 - lam) * q1
        f1 = adv.symmetric_lower(tf.from_pmfs(p1, q1))
        g = adv._with_identity(1 - w, f1)  # (1-w) Id + w f_1, the function C(.) is applied to
        ratios = g.q_mass / np.where(g.p_mass > 0, g.p_mass, 1.0)
        seen_tie |= bool(np.any((ratios > 1) & (ratios - 1 < 1e-12)))
        exact = tf.from_pmfs((1 - w) * r + w * p1, (1 - w) * r + w * q1)
        assert np.all(adv.subsampling_mixture_bound(w, f1)(GRID) <= exact(GRID) + 1e-12)
    assert seen_tie
