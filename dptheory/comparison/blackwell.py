"""Blackwell dominance with a witness (Kaissis et al. 2024, Theorem 1) and approximate dominance
(Definition 2, Theorem 2).

M >= M~ ("M Blackwell dominates M~": M is less private) iff f <= f~ pointwise (clause 1) iff
delta(eps) >= delta~(eps) for every real eps (clause 2) iff R(pi) <= R~(pi) for every prior pi
(clause 3), i.e. iff Delta(M || M~) = 0. When the curves cross neither dominates, and the witness
is where each one is strictly more vulnerable: a prior pi with R(pi) > R~(pi), the same point as
eps = logit(pi) with delta~(eps) > delta(eps) (clause 2), and alpha, the optimal type I error of
f~ at pi, with f(alpha) > f~(alpha) (clause 1: R(pi) <= pi alpha + (1 - pi) f(alpha) and
R~(pi) = pi alpha + (1 - pi) f~(alpha)).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
from scipy import optimize

from .. import tradeoff, validate
from ..results import Result
from . import bayes_error as be
from .divergence import DEFAULT_TOL, delta_divergence

#: a Delta at most this is taken as 0 when stating a verdict (the certified intervals are kept)
VERDICT_TOL = 1e-9

VERDICTS = ("first", "second", "equal", "neither")


@dataclasses.dataclass(frozen=True)
class Dominance:
    """The Blackwell comparison of two mechanisms.

    ``verdict``: ``"first"`` (the first dominates: it is less private, Delta(first || second) = 0),
    ``"second"``, ``"equal"`` (equivalent mechanisms) or ``"neither"`` (the curves cross).
    ``forward`` = Delta(first || second), ``backward`` = Delta(second || first).
    ``witness``: for each direction with a positive Delta, the prior, epsilon and alpha where the
    other mechanism is strictly more vulnerable (see the module text), with the excess.
    ``crossings``: priors where the Bayes error curves cross; ``alpha_crossings``: type I errors
    where the trade-off curves cross (both located numerically, to about 1e-9; informational).
    """

    verdict: str
    forward: Result
    backward: Result
    witness: dict
    crossings: list
    alpha_crossings: list
    tol: float

    def as_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "forward": self.forward.as_dict(), "backward": self.backward.as_dict(),
                "witness": self.witness, "crossings": self.crossings, "alpha_crossings": self.alpha_crossings,
                "tol": self.tol}


def _witness(first, second, res: Result, tol: float):
    """Where ``second`` is strictly more vulnerable than ``first`` (Delta(first || second) > 0)."""
    if res.lower <= tol:
        return None
    pi = float(res.params["prior"])
    eps = math.log(pi) - math.log1p(-pi)
    alpha = float(np.asarray(be.enclosure(second).argmin_alpha(np.array([pi])), dtype=float).ravel()[0])
    return {"prior": pi, "epsilon": eps, "alpha": alpha, "excess": res.lower,
            "first_tradeoff": float(first(alpha)), "second_tradeoff": float(second(alpha))}


def bayes_crossings(f, g, points: int = 4097) -> list[float]:
    """Priors in (0, 1) where R_f - R_g changes sign (certainly: both neighbours' enclosures have
    opposite signs), located by bisection on the float values."""
    ef, eg = be.enclosure(f), be.enclosure(g)
    x = np.unique(np.concatenate([np.linspace(0, 1, points)[1:-1], ef.breakpoints, eg.breakpoints]))
    x = x[(x > 0) & (x < 1)]
    flo, fhi = ef.bounds(x)
    glo, ghi = eg.bounds(x)
    pos = flo - ghi > 0
    neg = fhi - glo < 0
    sign = np.where(pos, 1, np.where(neg, -1, 0))
    idx = np.nonzero(sign != 0)[0]
    out = []

    def d(p):
        a, _ = ef.bounds(np.array([p]))
        b, _ = eg.bounds(np.array([p]))
        return float(a[0] - b[0])

    for i, j in zip(idx, idx[1:]):
        if sign[i] != sign[j]:
            try:
                out.append(float(optimize.brentq(d, x[i], x[j], xtol=1e-13)))
            except ValueError:
                out.append(float(0.5 * (x[i] + x[j])))
    return out


def tradeoff_crossings(f, g, points: int = 4097) -> list[float]:
    """Type I errors alpha in (0, 1) where f - g changes sign (grid plus bisection; points where
    the two are within 1e-12 of each other count as neither sign)."""
    u = np.linspace(-12, 12, points)
    x = np.unique(np.concatenate([1 / (1 + np.exp(-u)), np.linspace(0, 1, points)[1:-1]]))
    d = np.asarray(f(x), dtype=float) - np.asarray(g(x), dtype=float)
    sign = np.where(d > 1e-12, 1, np.where(d < -1e-12, -1, 0))
    idx = np.nonzero(sign != 0)[0]
    out = []
    for i, j in zip(idx, idx[1:]):
        if sign[i] != sign[j]:
            try:
                out.append(float(optimize.brentq(lambda a: float(f(a)) - float(g(a)), x[i], x[j], xtol=1e-13)))
            except ValueError:
                out.append(float(0.5 * (x[i] + x[j])))
    return out


def dominance(f, g, *, tol: float = VERDICT_TOL, divergence_tol: float = DEFAULT_TOL) -> Dominance:
    """Which of M >= M~, M~ >= M holds (Kaissis et al. 2024, Theorem 1), with witnesses.

    ``f``, ``g`` are the trade-off functions of the first and second mechanism. A Delta whose
    certified upper end is at most ``tol`` counts as 0; the Deltas themselves are returned as
    certified Results (``forward``, ``backward``).
    """
    tol = validate.nonnegative("tol", tol)
    fw = delta_divergence(f, g, tol=divergence_tol)
    bw = delta_divergence(g, f, tol=divergence_tol)
    f_zero, b_zero = fw.upper <= tol, bw.upper <= tol
    if f_zero and b_zero:
        verdict = "equal"
    elif f_zero:
        verdict = "first"
    elif b_zero:
        verdict = "second"
    else:
        verdict = "neither"
    witness = {"second_more_vulnerable": _witness(f, g, fw, tol), "first_more_vulnerable": _witness(g, f, bw, tol)}
    return Dominance(verdict, fw, bw, witness, bayes_crossings(f, g), tradeoff_crossings(f, g), tol)


def approximately_dominates(f, g, bound: float) -> bool:
    """M >=_D M~ (Definition 2): Delta(M || M~) <= D. True when the certified upper end is at most
    D, False when the lower end exceeds it; a DomainError when the interval straddles D."""
    d = validate.nonnegative("bound", bound)
    res = delta_divergence(f, g)
    if res.upper <= d:
        return True
    if res.lower > d:
        return False
    raise validate.DomainError(f"bound = {d!r} lies inside the certified interval [{res.lower}, {res.upper}] of Delta")


def theorem2_excess(f, g, bound: float, *, alphas=None, epsilons=None, priors=None) -> dict[str, float]:
    """The largest violation of each clause of Theorem 2 at ``D = bound`` on grids (a check, not
    a proof): (1) max_alpha f(alpha + D) - D - f~(alpha); (2) max_eps delta~(eps) - delta(eps)
    - D (1 + e^eps); (3) max_pi R(pi) - R~(pi) - D. All are <= 0 iff Delta <= D (on the grids)."""
    d = validate.nonnegative("bound", bound)
    alphas = np.linspace(0, 1, 20001) if alphas is None else np.asarray(alphas, dtype=float)
    epsilons = np.linspace(-8, 8, 20001) if epsilons is None else np.asarray(epsilons, dtype=float)
    priors = np.linspace(0, 1, 20001) if priors is None else np.asarray(priors, dtype=float)
    shifted = alphas + d
    fa = np.where(shifted > 1, 0.0, np.asarray(f(np.minimum(shifted, 1.0)), dtype=float))
    c1 = float(np.max(fa - d - np.asarray(g(alphas), dtype=float)))
    c2 = float(np.max(np.asarray(g.delta(epsilons)) - np.asarray(f.delta(epsilons)) - d * (1 + np.exp(epsilons))))
    rf = be.enclosure(f).bounds(priors)[0]
    rg = be.enclosure(g).bounds(priors)[1]
    c3 = float(np.max(rf - rg - d))
    return {"tradeoff": c1, "profile": c2, "bayes": c3}


def is_tradeoff(f) -> bool:
    return isinstance(f, tradeoff.TradeOff)
