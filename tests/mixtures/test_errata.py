"""Errata of Wang et al. 2023 (digest spec/seed-000-mixture-fdp.md): each printed form fails
against an exact computation and the corrected form holds."""

import math

import numpy as np

from dptheory import divergences as dv
from dptheory import tradeoff as tf
from dptheory.mixtures import STATEMENTS, joint_concavity_bound, mixture_tradeoff
from dptheory.mixtures import advanced as adv
from dptheory.mixtures import concavity as cc
from dptheory.mixtures import fdivergence as fd

GRID = np.linspace(0.0, 1.0, 401)


def test_lemma_3_1_pointwise_reading_is_refuted():
    """Digest §2.1: f_1 = Id (P_1 = Q_1), f_2 = 0 (P_2, Q_2 disjoint), equal weights."""
    pairs = [(np.array([1.0, 0, 0]), np.array([1.0, 0, 0])), (np.array([0, 1.0, 0]), np.array([0, 0, 1.0]))]
    exact = mixture_tradeoff([0.5, 0.5], pairs)
    fs = [tf.from_pmfs(p, q) for p, q in pairs]
    printed = cc.pointwise_combination_printed([0.5, 0.5], fs)
    assert exact(0.4) == 0.1 + 0 * exact(0.4) or abs(exact(0.4) - 0.1) < 1e-15  # max(0, 1/2 - alpha)
    assert printed(0.4) > exact(0.4) + 0.1
    assert np.all(joint_concavity_bound([0.5, 0.5], fs)(GRID) <= exact(GRID) + 1e-15)
    assert STATEMENTS["joint-concavity-pointwise"].status == "refuted"


def test_prop_b2_printed_indicator_gives_the_wrong_side():
    """Digest §2.3: with the printed alpha_i(t) = P_i[q_i/p_i < t] the point (alpha, beta) of
    G_mu is off the curve; the intended P_i[q_i/p_i > t] puts it on (slope -t)."""
    from scipy import special

    mu, t = 1.0, 2.0
    c = math.log(t) / mu + mu / 2  # q/p = e^{mu x - mu^2/2} equals t at x = c
    printed_alpha = special.ndtr(c)          # P[q/p < t] under N(0,1)
    corrected_alpha = special.ndtr(-c)       # P[q/p > t]
    beta = special.ndtr(c - mu)              # Q[q/p <= t]
    g = tf.Gaussian(mu)
    assert abs(g(corrected_alpha) - beta) < 1e-15
    assert abs(g(printed_alpha) - beta) > 0.1
    a, b = cc.common_threshold_points([1.0], [g], [t])
    assert abs(a[0] - corrected_alpha) < 1e-15 and abs(b[0] - beta) < 1e-15


def test_f_at_zero_printed_definition_is_refuted():
    """Digest §1.8 typo 4: F(0) = lim F(s)/s gives +inf for the length generator when f(0) < 1;
    F(0) = lim F(s) gives the length of the graph (Prop. B.7)."""
    p, q = [0.5, 0.5, 0.0], [0.0, 0.5, 0.5]
    f = tf.from_pmfs(p, q)
    a, b = f.knots()
    polyline = math.fsum(math.hypot(x1 - x0, y1 - y0) for x0, x1, y0, y1 in zip(a, a[1:], b, b[1:]))
    assert fd.f_divergence_printed_f0(f, fd.LENGTH) == math.inf
    assert abs(dv.f_divergence(p, q, fd.LENGTH) - polyline) < 1e-14
    assert abs(fd.length(f) - polyline) < 1e-14


def test_lemma_6_3_corollary_eta_gamma_w_is_refuted():
    """Digest §2.17: w = 1/2, Q_0 = Q_1 = P_0 = R, P_1 disjoint from R."""
    R, P1 = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    P, Q = 0.5 * R + 0.5 * P1, R
    exact = tf.from_pmfs(P, Q)  # max(0, 1 - 2 alpha)
    printed = adv.lemma63_corollary_printed(0.5, tf.from_pmfs(R, Q), tf.from_pmfs(P1, Q))
    assert abs(exact(0.4) - 0.2) < 1e-15
    assert abs(printed(0.4) - 0.3) < 1e-15
    assert printed(0.4) > exact(0.4)


def test_prop_6_4_pointwise_intermediate_is_refuted():
    """Digest §2.14: n = 1, eps0 = 1: randomized response; 2w(1 - 0.9) > f_{eps0,0}(0.9)."""
    eps0 = 1.0
    w = 1 / (math.exp(eps0) + 1)
    p0, q0 = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    f0 = tf.from_pmfs(p0, q0)  # T = 0, symmetric
    P, Q = (1 - w) * p0 + w * q0, (1 - w) * q0 + w * p0
    exact = tf.from_pmfs(P, Q)
    printed = adv.swapped_mixture_pointwise_printed(w, f0)
    assert printed(0.9) > exact(0.9) + 0.01
    assert abs(exact(0.9) - tf.dp(eps0)(0.9)) < 1e-15
    assert np.all(adv.swapped_mixture_bound(w, f0)(GRID) <= exact(GRID) + 1e-15)


def test_lemma_6_3_symmetrised_in_the_max_case_is_not_a_bound():
    """Found here (not in the digest): C(F) = max{F, F^-1} when x_bar > F(x_bar) is not below
    T(P, Q) for symmetric f_ij = C(T(P_i, Q_j)) <= T(P_i, Q_j); min{F, F^-1}** (what
    advanced_joint_concavity_bound returns) is."""
    def unit(v):
        v = np.array(v)
        return v / v.sum()

    P0, P1 = unit([0.10872195, 0.36413494, 0.00459661, 0.52254651]), unit([0.63951011, 0.31520582, 0.01177201, 0.03351207])
    Q0, Q1 = unit([0.00190672, 0.08623922, 0.84253532, 0.06931874]), unit([0.03114624, 0.22778117, 0.73504962, 0.00602298])
    w, gamma, eta = 0.545705822640981, 0.9547459882584117, 0.40279700543786395
    f = [[tf.from_pmfs(p, q).symmetrize() for q in (Q0, Q1)] for p in (P0, P1)]
    for i, p in enumerate((P0, P1)):
        for j, q in enumerate((Q0, Q1)):
            assert f[i][j].symmetric and np.min(tf.from_pmfs(p, q)(GRID) - f[i][j](GRID)) >= -1e-12
    exact = tf.from_pmfs((1 - w) * P0 + w * P1, (1 - w) * Q0 + w * Q1)
    F = adv.lemma63_function(w, f, gamma, eta)
    x_bar, f_bar = F.steep_end()
    assert x_bar > f_bar + 1e-3  # genuinely the max case, not a float tie at slope -1
    assert np.min(exact(GRID) - F.symmetrize()(GRID)) < -0.01
    assert np.all(adv.advanced_joint_concavity_bound(w, f, gamma, eta)(GRID) <= exact(GRID) + 1e-12)
    assert STATEMENTS["lemma63-max-case"].status == "refuted"


def test_prop_e_1_with_a_bound_on_t_p1_q1_only_is_refuted():
    """P = (1-w) R + w P_1, Q = (1-w) R + w Q_1 with T(P_1, Q_1) symmetric but R far from P_1:
    C((1-w) Id + w T(P_1, Q_1)) is above T(P, Q). With R a mixture of P_1 and Q_1 (so that
    T(P_1, R) >= T(P_1, Q_1)) the bound holds."""
    r = np.array([0.00574031, 0.22885225, 0.53119968, 0.23420775])
    p1 = np.array([0.97634623, 0.00536867, 0.0056136, 0.0126715])
    r, p1 = r / r.sum(), p1 / p1.sum()
    q1 = p1[::-1].copy()
    w = 0.24556944567219205
    f1 = tf.from_pmfs(p1, q1)
    assert f1.symmetric
    bound = adv.subsampling_mixture_bound(w, f1)
    assert np.min(tf.from_pmfs((1 - w) * r + w * p1, (1 - w) * r + w * q1)(GRID) - bound(GRID)) < -1e-3
    r = 0.3 * p1 + 0.7 * q1
    assert np.all(bound(GRID) <= tf.from_pmfs((1 - w) * r + w * p1, (1 - w) * r + w * q1)(GRID) + 1e-12)
    assert STATEMENTS["prop-e1-printed"].status == "refuted"
