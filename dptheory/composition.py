"""Composition and subsampling of (epsilon, delta)-DP guarantees, and Poisson-subsampled RDP.

* Kairouz, Oh, Viswanath (2015/2017), Theorem 3.3: the optimal k-fold composition of
  (eps, delta)-DP (as implemented by Google's dp_accounting ``advanced_composition``), and their
  closed form with slack delta_tilde (as in autodp / diffprivlib).
* Li, Qardaji, Su (2012): a mechanism run on a Poisson sample of rate gamma is
  (log(1 + gamma (e^eps - 1)), gamma delta)-DP (add/remove neighbours).
* Zhu, Wang (ICML 2019), general upper bound for Poisson-subsampled RDP (integer orders; the form of
  autodp's ``general_upperbound``): (1/(a-1)) log{(1-g)^{a-1}(a g - g + 1)
  + C(a,2) g^2 (1-g)^{a-2} e^{eps(2)} + 3 sum_{l=3}^{a} C(a,l)(1-g)^{a-l} g^l e^{(l-1) eps(l)}}.

The formulas were checked against those reference implementations (the paper bodies could not be
consulted); the tests check them against independent computations.
"""

from __future__ import annotations

import math

import numpy as np

from scipy import special

from . import validate
from .precision import logsumexp


def kov_optimal_epsilon(epsilon, delta, k, total_delta):
    """Smallest (k - 2i) eps with 1 - (1-delta)^k (1 - delta_i) <= total_delta (KOV Theorem 3.3);
    None when no i qualifies."""
    e = validate.nonnegative("epsilon", epsilon)
    d = validate.probability("delta", delta)
    kk = validate.integer("k", k, low=1)
    td = validate.probability("total_delta", total_delta)
    log_den = kk * math.log1p(math.exp(e))
    for i in range(kk // 2, -1, -1):
        if i == 0:
            delta_i = 0.0
        else:
            terms = []
            for l in range(i):
                # C(k,l) (e^{(k-l) eps} - e^{(k-2i+l) eps}) / (1+e^eps)^k, in logs
                hi, lo = (kk - l) * e, (kk - 2 * i + l) * e
                if hi == lo:
                    continue
                terms.append(special.gammaln(kk + 1) - special.gammaln(l + 1) - special.gammaln(kk - l + 1)
                             + hi + math.log(-math.expm1(lo - hi)) - log_den)
            delta_i = math.exp(float(logsumexp(terms))) if terms else 0.0
        if 1 - (1 - d) ** kk * (1 - delta_i) <= td:
            return (kk - 2 * i) * e
    return None


def kov_closed_form(epsilon, delta, k, slack):
    """(eps_total, delta_total) of KOV's closed form for k-fold composition with slack delta_tilde."""
    e = validate.nonnegative("epsilon", epsilon)
    d = validate.probability("delta", delta)
    kk = validate.integer("k", k, low=1)
    s = validate.probability("slack", slack, open_low=True)
    base = (math.exp(e) - 1) * e * kk / (math.exp(e) + 1)
    eps_total = min(kk * e,
                    base + e * math.sqrt(2 * kk * math.log(math.e + math.sqrt(kk * e * e) / s)),
                    base + e * math.sqrt(2 * kk * math.log(1 / s)))
    return eps_total, 1 - (1 - d) ** kk * (1 - s)


def subsample_dp(epsilon, delta, rate):
    """Li, Qardaji, Su (2012): (eps, delta) on a Poisson sample of rate gamma."""
    e = validate.nonnegative("epsilon", epsilon)
    d = validate.probability("delta", delta)
    g = validate.probability("rate", rate, open_low=True)
    return math.log1p(g * math.expm1(e)), g * d


def poisson_subsampled_rdp(rdp_at, order: int, rate) -> float:
    """Zhu and Wang (2019), general upper bound, at one integer order a >= 2.

    ``rdp_at(l)`` returns a valid RDP bound of the base mechanism at integer order l (2 <= l <= a),
    for add/remove neighbours.
    """
    a = validate.integer("order", order, low=2)
    g = validate.probability("rate", rate, open_low=True)
    if g == 1:
        return float(rdp_at(a))
    lg, l1g = math.log(g), math.log1p(-g)
    head = [(a - 1) * l1g + math.log1p((a - 1) * g),
            math.log(a * (a - 1) / 2) + 2 * lg + (a - 2) * l1g + float(rdp_at(2))]
    ls = np.arange(3, a + 1, dtype=float)  # the terms l = 3..a, vectorised (the same sum)
    values = np.fromiter((float(rdp_at(l)) for l in range(3, a + 1)), dtype=float, count=a - 2)
    tail = (math.log(3.0) + special.gammaln(a + 1) - special.gammaln(ls + 1) - special.gammaln(a - ls + 1)
            + (a - ls) * l1g + ls * lg + (ls - 1) * values)
    return float(logsumexp(np.concatenate([head, tail]))) / (a - 1)
