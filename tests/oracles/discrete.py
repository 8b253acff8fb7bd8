"""Divergences of a pair of finite distributions, as certified intervals (``mpmath.iv``).

Written from the definitions, for the other oracles and their tests (never from dptheory's code).
``p`` and ``q`` are sequences of probabilities on one finite space, entry by entry (each an exact
number or an interval: see :func:`tests.oracles.certified.interval`). Every function returns an
``iv`` interval that contains the exact value for every point of the input intervals: the sums are
interval sums, so they carry their own rounding error; no truncation happens here.

Definitions (P, Q the two distributions, gamma = e^epsilon, lambda > 1):

- hockey-stick divergence  H_gamma(P||Q) = sum_i max(p_i - gamma q_i, 0);
- Renyi divergence  D_lambda(P||Q) = log(sum_{p_i > 0} p_i^lambda q_i^(1 - lambda)) / (lambda - 1),
  infinite when some p_i > 0 = q_i (Renyi 1961; Mironov 2017, Definition 3);
- Kullback-Leibler divergence  KL(P||Q) = sum_{p_i > 0} p_i log(p_i / q_i), the limit of
  D_lambda as lambda -> 1;
- total variation  TV = sum_i max(p_i - q_i, 0) = H_1(P||Q);
- trade-off function  T(P, Q)(alpha) = inf{beta_phi : alpha_phi <= alpha} (Dong, Roth, Su 2022,
  Definition 2.1), computed by the duality T(P, Q)(alpha) = sup_{g >= 0} (1 - g alpha -
  H_g(Q||P)): for any test phi of level alpha_phi <= alpha, beta_phi = 1 - E_Q phi >= 1 - g E_P phi
  - H_g(Q||P), with equality for the Neyman-Pearson test at threshold g. On a finite space the
  supremum is attained at g = 0 or at a likelihood ratio q_i/p_i (the objective is concave and
  piecewise linear in g), so no ordering of the atoms is needed;
- Bayes error (Kaissis et al. 2024, eq. (1)-(2))  R(pi) = min_alpha pi alpha + (1 - pi) T(alpha)
  = sum_i min(pi p_i, (1 - pi) q_i) (per outcome, reject H0 or not, whichever costs less).
"""

from __future__ import annotations

import mpmath
from mpmath import iv

from tests.oracles.certified import clip_nonnegative, hi, imax, interval, lo, positive_part


def _pair(p, q):
    p = [interval(v) for v in p]
    q = [interval(v) for v in q]
    if len(p) != len(q):
        raise ValueError(f"p and q must have the same length, got {len(p)} and {len(q)}")
    return p, q


def hockey_stick(p, q, epsilon):
    """Enclosure of H_{e^epsilon}(P||Q) = sum_i max(p_i - e^epsilon q_i, 0) (real epsilon)."""
    p, q = _pair(p, q)
    gamma = iv.exp(interval(epsilon))
    total = iv.mpf(0)
    for pi, qi in zip(p, q):
        total += positive_part(pi - gamma * qi)
    return total


def total_variation(p, q):
    """Enclosure of TV(P, Q) = sum_i max(p_i - q_i, 0) (= H_1(P||Q))."""
    p, q = _pair(p, q)
    total = iv.mpf(0)
    for pi, qi in zip(p, q):
        total += positive_part(pi - qi)
    return total


def renyi_moment(p, q, order):
    """Enclosure of sum_{p_i > 0} p_i^lambda q_i^(1 - lambda), lambda = ``order`` > 1 (an interval
    with upper end +inf if some q_i may be 0 where p_i > 0; (+inf, +inf) if certainly so)."""
    p, q = _pair(p, q)
    lam = interval(order)
    if not lo(lam) > 1:
        raise ValueError(f"order must be > 1, got {order}")
    total = iv.mpf(0)
    unbounded = False
    for pi, qi in zip(p, q):
        if hi(pi) == 0:
            continue                       # p_i = 0: no contribution
        if hi(qi) == 0:
            if lo(pi) > 0:
                return iv.mpf(["inf", "inf"])  # P is not absolutely continuous w.r.t. Q
            unbounded = True
            continue
        if lo(qi) <= 0:
            unbounded = True
            continue
        if lo(pi) <= 0:
            # p^lam q^(1-lam) = p (p/q)^(lam-1) is increasing in p >= 0
            top = iv.mpf(hi(pi)) * (iv.mpf(hi(pi)) / qi) ** (lam - 1)
            total += iv.mpf([0, hi(top)])
            continue
        total += iv.exp(lam * iv.log(pi) + (1 - lam) * iv.log(qi))
    if unbounded:
        total = iv.mpf([lo(total), "inf"])
    return total


def renyi_from_moment(moment, order):
    """D_lambda = log(moment) / (lambda - 1), interval in, interval out. (For distributions the
    moment is >= 1, so D >= 0; no clipping is done here, so that inputs which do not sum exactly to
    1 get the value of the formula.)"""
    lam = interval(order)
    if mpmath.isinf(lo(moment)):
        return iv.mpf(["inf", "inf"])
    if mpmath.isinf(hi(moment)):
        return iv.mpf([lo(iv.log(iv.mpf(lo(moment))) / (lam - 1)), "inf"])
    return iv.log(moment) / (lam - 1)


def renyi(p, q, order):
    """Enclosure of the Renyi divergence D_lambda(P||Q), lambda = ``order`` > 1."""
    return renyi_from_moment(renyi_moment(p, q, order), order)


def kl(p, q):
    """Enclosure of KL(P||Q) = sum_{p_i > 0} p_i log(p_i/q_i) (``inf`` if P is not << Q)."""
    p, q = _pair(p, q)
    total = iv.mpf(0)
    for pi, qi in zip(p, q):
        if hi(pi) == 0:
            continue
        if hi(qi) == 0 and lo(pi) > 0:
            return iv.mpf(["inf", "inf"])
        if lo(pi) <= 0 or lo(qi) <= 0:
            raise ValueError("kl: an entry's enclosure touches 0; give exact zeros")
        total += pi * (iv.log(pi) - iv.log(qi))
    return clip_nonnegative(total)


def tradeoff(p, q, alpha):
    """Enclosure of T(P, Q)(alpha) for alpha in [0, 1], by the duality in the module docstring:
    the maximum over g in {0} and the ratios q_i/p_i of 1 - g alpha - H_g(Q||P)."""
    p, q = _pair(p, q)
    alpha = interval(alpha)
    candidates = [iv.mpf(0)] + [qi / pi for pi, qi in zip(p, q) if lo(pi) > 0]
    values = []
    for g in candidates:
        h = iv.mpf(0)
        for pi, qi in zip(p, q):
            h += positive_part(qi - g * pi)
        values.append(1 - g * alpha - h)
    return clip_nonnegative(imax(*values))


def bayes_error(p, q, prior):
    """Enclosure of R(pi) = sum_i min(pi p_i, (1 - pi) q_i), pi = ``prior`` in [0, 1]."""
    p, q = _pair(p, q)
    pi = interval(prior)
    total = iv.mpf(0)
    for a, b in zip(p, q):
        x, y = pi * a, (1 - pi) * b
        total += iv.mpf([min(lo(x), lo(y)), min(hi(x), hi(y))])
    return total


def rr_rows(eps0, k: int = 2):
    """k-ary randomized response (report the input w.p. e^eps0/(e^eps0 + k - 1), each other value
    w.p. 1/(e^eps0 + k - 1); Warner 1965, Kairouz, Oh, Viswanath 2014), as a callable that builds
    the interval rows at the working precision of the oracle that evaluates it."""
    if k < 2:
        raise ValueError(f"k must be >= 2, got {k}")

    def rows():
        big = iv.exp(interval(eps0))
        z = big + (k - 1)
        return [[big / z if x == y else 1 / z for y in range(k)] for x in range(k)]

    return rows
