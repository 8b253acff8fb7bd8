"""Girgis et al. (CCS 2021), Theorem 3.4 and Section 8: lower bounds on the worst-case Renyi DP of
the shuffle model, from the exact RDP of shuffled binary randomized response on the theorem's
datasets (certified, any n) and by the theorem's moment formula (mpmath, integer orders)."""

from __future__ import annotations

import math

import mpmath
import numpy as np

from ... import validate
from ...results import Curve, Kind, Status
from ..pair_renyi import renyi_curve
from ..pairs import CountPair
from .formulas import GIRGIS
from .orders import check


def binomial_central_moments(n_value: int, p, imax: int, digits: int = 50) -> list:
    """mu_i = E[(k - n p)^i] for k ~ Bin(n, p), i = 0..imax, with mpmath (cumulant recursion:
    Bernoulli cumulants k_{j+1} = p(1-p) dk_j/dp, binomial kappa_j = n k_j,
    mu_r = sum_{j=2}^{r} binom(r-1, j-1) kappa_j mu_{r-j})."""
    import sympy as sp  # symbolic differentiation; imported here to keep sympy out of start-up

    t = sp.Symbol("t")
    poly = [t]
    for _ in range(imax):
        poly.append(sp.expand(t * (1 - t) * sp.diff(poly[-1], t)))
    with mpmath.workdps(digits + 20):
        P = mpmath.mpf(p)
        kappa = [mpmath.mpf(0)] + [n_value * mpmath.mpf(sp.lambdify(t, k_, "mpmath")(P)) for k_ in poly[:imax]]
        mu = [mpmath.mpf(1), mpmath.mpf(0)]
        for r in range(2, imax + 1):
            mu.append(mpmath.fsum(mpmath.binomial(r - 1, j - 1) * kappa[j] * mu[r - j] for j in range(2, r + 1)))
    return mu


def lower_bound_moments(eps0_value, n_value, order: int, digits: int = 50):
    """Theorem 3.4 by its moment formula, with exact central moments (mpmath; integer orders)."""
    e0 = validate.eps0("eps0", eps0_value)
    nn = validate.integer("n", n_value, low=1)
    k = validate.integer("order", order, low=2)
    with mpmath.workdps(digits + 20):
        E = mpmath.exp(mpmath.mpf(e0))
        p = 1 / (E + 1)
        mu = binomial_central_moments(nn, p, k, digits)
        c = (E * E - 1) / (nn * E)
        total = 1 + mpmath.fsum(mpmath.binomial(k, i) * c**i * mu[i] for i in range(2, k + 1))
        value = mpmath.log(total) / (k - 1)
    with mpmath.workdps(digits):
        return +value



def rr_pair(e0: float, n_value: int) -> CountPair:
    """The lower-bound datasets of Theorem 3.4 as a count pair: n - 1 users at 0 and the last at 1
    (P) or 0 (Q), binary randomized response; type 0 = a report of 1."""
    flip = 1.0 / (math.exp(e0) + 1.0)
    return CountPair(n_value - 1, 1.0, 1 - flip, flip, victim_prob=1.0, clone_bias=flip)


def lower_bound(eps0_value, n_value, orders, *, both_directions: bool = True, rtol: float = validate.RENYI_RTOL) -> Curve:
    """The exact RDP of shuffled binary randomized response on the datasets of Theorem 3.4
    (real orders), a certified :class:`Curve` (kind ``lower``: it is a lower bound on the
    worst-case RDP over eps0-LDP randomizers). With ``both_directions`` the larger of
    D(M(D')||M(D)) (the paper's direction) and D(M(D)||M(D')) is returned: both are lower bounds
    (derived here: docs/errata.md#derived-girgis-lower-both-directions)."""
    e0, nn, o = check(eps0_value, n_value, orders)
    pair = rr_pair(e0, nn)
    lows, highs = renyi_curve(pair, o, rtol=rtol)
    if both_directions:
        lo2, hi2 = renyi_curve(pair.reversed(), o, rtol=rtol)
        lows, highs = np.maximum(lows, lo2), np.maximum(highs, hi2)
    if both_directions:
        method, source = "exact", f"{GIRGIS}, Section 8: exact RDP of shuffled binary RR, both directions"
    else:
        method, source = "girgis-lower", f"{GIRGIS}, Theorem 3.4 (exact sum, real orders)"
    note = ("exact RDP of shuffled binary randomized response on the datasets of Theorem 3.4, "
            + ("both directions" if both_directions else "the paper's direction"))
    return Curve("rdp", "order", o, lows, highs, Kind.LOWER, Status.PROVEN, method, source, note,
                 params={"eps0": e0, "n": nn, "rtol": rtol})
