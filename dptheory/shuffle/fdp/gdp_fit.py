"""The Gaussian description of the f-DP of shuffling: the GDP limit mu of T(P, Q) as n grows
(:func:`asymptotic_mu`, derived here: docs/errata.md#derived-chen-refined-limit) and the G_mu
closest to a computed trade-off curve in the sup norm (:func:`gdp_fit`). Both are
approximations (status "not a bound"): they describe a curve, they bound nothing.
"""

from __future__ import annotations

import math

import numpy as np

from ... import tradeoff
from ...results import Kind, Result, Status
from .pair import DEFAULT_REDUCTION, _check, clone_probability, weights


def asymptotic_mu(eps0, n, reduction=DEFAULT_REDUCTION) -> float:
    """tanh(eps0/2) 2 / sqrt((n - 1) q), q the clone probability: the GDP limit of T(P, Q)
    (derived here, docs/errata.md#derived-chen-refined-limit; an approximation, not a bound).
    inf for n = 1."""
    e0, nn = _check(eps0, n)
    _, th = weights(e0)
    qc = clone_probability(e0, reduction)
    if nn == 1 or qc == 0:
        return math.inf
    return th * 2.0 / math.sqrt((nn - 1) * qc)


def gdp_fit(curve: tradeoff.TradeOff) -> Result:
    """The mu whose G_mu is closest to ``curve`` in the sup norm over alpha (an approximation:
    status "not a bound"; the distance is in ``params["sup_distance"]``)."""
    from scipy import optimize

    if isinstance(curve, tradeoff.PiecewiseLinear):
        ka = np.asarray(curve.knots_alpha, dtype=float)
        if len(ka) > 2000:
            ka = ka[np.linspace(0, len(ka) - 1, 2000).astype(int)]
        grid = np.unique(np.concatenate([ka, np.linspace(0.0, 1.0, 401)]))
    else:
        grid = np.linspace(0.0, 1.0, 1001)
    fv = np.asarray(curve(grid), dtype=float)
    grid_in = grid[(grid > 0) & (grid < 1)]
    f_in = fv[(grid > 0) & (grid < 1)]

    def dist(mu):
        return float(np.max(np.abs(tradeoff.gaussian(mu)(grid_in) - f_in)))

    hi = 1.0
    while dist(hi) < dist(hi / 2) and hi < 64:
        hi *= 2
    res = optimize.minimize_scalar(dist, bounds=(0.0, hi), method="bounded", options={"xatol": 1e-10})
    mu = float(res.x)
    return Result("mu", mu, mu, Kind.APPROXIMATION, Status.NOT_A_BOUND, "gdp-fit",
                  "closest G_mu in the sup norm (Dong, Roth, Su 2022, Definition 2.4)",
                  note="describes the curve; not a bound in either direction",
                  params={"sup_distance": dist(mu)})
