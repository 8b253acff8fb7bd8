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
from .divergence import DEFAULT_TOL, delta_between

VERDICTS = ("first", "second", "equal", "neither", "undecided")


def certainly_zero(res: Result) -> bool:
    """The certified interval is {0}: Delta = 0 exactly."""
    return res.upper == 0.0


def certainly_positive(res: Result) -> bool:
    """The certified interval excludes 0 (in log space too: a value far below the float range)."""
    return res.lower > 0.0 or (res.log_lower is not None and res.log_lower > -math.inf)


def _show(res: Result) -> str:
    if res.upper > 0 or res.log_upper is None:
        return f"{res.upper:.3g}"
    return f"e^{res.log_upper:.6g}"


def verdict(forward: Result, backward: Result) -> tuple[str, str]:
    """The Blackwell verdict that the certified intervals of Delta(first || second) and
    Delta(second || first) support (Theorem 1: M >= M~ iff Delta(M || M~) = 0), and a sentence.

    "equal" only when both are certified 0; "first" (the first dominates) when Delta(first ||
    second) is certified 0 (equivalence then stays open unless the other is 0 too); "neither"
    when both are certified positive; "undecided" when an interval reaches down to 0 without
    being {0} at the working precision (its upper end is said).
    """
    fz, fp = certainly_zero(forward), certainly_positive(forward)
    bz, bp = certainly_zero(backward), certainly_positive(backward)
    if fz and bz:
        return "equal", "both Deltas are 0: the mechanisms are equivalent (equal trade-off functions)"
    if fz:
        tail = "" if bp else (f"; whether they are equivalent is undecided at this precision "
                              f"(Delta(second || first) <= {_show(backward)})")
        return "first", "the first mechanism Blackwell-dominates the second (it is less private everywhere)" + tail
    if bz:
        tail = "" if fp else (f"; whether they are equivalent is undecided at this precision "
                              f"(Delta(first || second) <= {_show(forward)})")
        return "second", "the second mechanism Blackwell-dominates the first (it is less private everywhere)" + tail
    if fp and bp:
        return "neither", "neither dominates: each is strictly more vulnerable somewhere (the curves cross)"
    if fp:
        return "undecided", ("the first does not dominate (Delta(first || second) > 0); whether the second does is "
                             f"undecided at this precision: Delta(second || first) <= {_show(backward)}")
    if bp:
        return "undecided", ("the second does not dominate (Delta(second || first) > 0); whether the first does is "
                             f"undecided at this precision: Delta(first || second) <= {_show(forward)}")
    return "undecided", (f"undecided at this precision: Delta(first || second) <= {_show(forward)}, "
                         f"Delta(second || first) <= {_show(backward)}")


@dataclasses.dataclass(frozen=True)
class Dominance:
    """The Blackwell comparison of two mechanisms.

    ``verdict``: ``"first"`` (the first dominates: it is less private, Delta(first || second) =
    0), ``"second"``, ``"equal"`` (equivalent mechanisms), ``"neither"`` (the curves cross) or
    ``"undecided"`` (an interval straddles 0 at the working precision; ``detail`` says which).
    ``forward`` = Delta(first || second), ``backward`` = Delta(second || first).
    ``witness``: for each direction with a certainly positive Delta, the prior and epsilon where
    the other mechanism is strictly more vulnerable, the excess of Bayes error, and, for two
    exact curves, the alpha and the two trade-off values there (see the module text).
    ``crossings``: priors where the Bayes error curves certainly change order (located to about
    1e-9; informational); ``alpha_crossings``: type I errors where exact trade-off curves cross
    (None when a curve is known only through bounds).
    """

    verdict: str
    forward: Result
    backward: Result
    witness: dict
    crossings: list
    alpha_crossings: list | None
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "verdict_detail": self.detail, "forward": self.forward.as_dict(),
                "backward": self.backward.as_dict(), "witness": self.witness, "crossings": self.crossings,
                "alpha_crossings": self.alpha_crossings}


def _clean(v) -> float:
    """A float for a person: no negative zero."""
    return float(v) + 0.0


def _witness(first, second, res: Result, first_is_first: bool):
    """Where ``second`` is strictly more vulnerable than ``first`` (Delta(first || second) > 0,
    certified): the prior pi where the lower end of R_first - R_second is attained, epsilon =
    logit(pi) (clause 2: delta_second(eps) - delta_first(eps) = (R_first - R_second)(pi)/(1 - pi)
    > 0), and for exact curves the optimal type I error alpha of ``second`` at pi, where
    f_first(alpha) - f_second(alpha) >= (R_first - R_second)(pi)/(1 - pi) > 0 (clause 1).
    ``first_is_first``: whether ``first`` is the first mechanism of the comparison (the keys
    name mechanisms, not arguments)."""
    if not certainly_positive(res):
        return None
    pi = float(res.params["prior"])
    eps = math.log(pi) - math.log1p(-pi)
    out = {"prior": pi, "epsilon": eps, "excess": res.lower, "profile_excess": res.lower / (1.0 - pi),
           "alpha": None, "first_tradeoff": None, "second_tradeoff": None}
    if first.exact is not None and second.exact is not None:
        alpha = float(np.asarray(second.enclosure().argmin_alpha(np.array([pi])), dtype=float).ravel()[0])
        va, vb = _clean(first.exact(alpha)), _clean(second.exact(alpha))
        out["alpha"] = _clean(alpha)
        out["first_tradeoff"], out["second_tradeoff"] = (va, vb) if first_is_first else (vb, va)
    return out


def bayes_crossings(ef: be.BayesEnclosure, eg: be.BayesEnclosure, points: int = 4097) -> list[float]:
    """Priors in (0, 1) where R_f - R_g changes sign (certainly: both neighbours' enclosures have
    opposite signs), located by bisection on the midpoints of the enclosures (informational)."""
    if isinstance(ef, tradeoff.TradeOff):
        ef = be.enclosure(ef)
    if isinstance(eg, tradeoff.TradeOff):
        eg = be.enclosure(eg)
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
        a, b = ef.bounds(np.array([p]))
        c, e = eg.bounds(np.array([p]))
        return float(0.5 * (a[0] + b[0]) - 0.5 * (c[0] + e[0]))

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


def as_curves(m, name: str = ""):
    """A trade-off function, a parsed mechanism or CertifiedCurves, as CertifiedCurves."""
    from .curves import CertifiedCurves, exact
    from .divergence import family_key

    if isinstance(m, CertifiedCurves):
        return m
    if isinstance(m, tradeoff.TradeOff):
        return exact(name, m, family_key(m))
    if hasattr(m, "curves"):
        return m.curves()
    raise validate.DomainError(f"{m!r} is invalid: must be a trade-off function (dptheory.tradeoff.TradeOff), a "
                               "mechanism (parse_mechanism) or CertifiedCurves")


def dominance(first, second, *, divergence_tol: float = DEFAULT_TOL) -> Dominance:
    """Which of M >= M~, M~ >= M holds (Kaissis et al. 2024, Theorem 1), with witnesses.

    ``first``, ``second``: trade-off functions, parsed mechanisms or CertifiedCurves. The
    verdict follows from the certified intervals of the two Deltas (:func:`verdict`); curves
    known through bounds give wider intervals, never a wrong verdict.
    """
    a, b = as_curves(first, "first"), as_curves(second, "second")
    fw = delta_between(a, b, tol=divergence_tol)
    bw = delta_between(b, a, tol=divergence_tol)
    word, detail = verdict(fw, bw)
    witness = {"second_more_vulnerable": _witness(a, b, fw, True), "first_more_vulnerable": _witness(b, a, bw, False)}
    ea, eb = a.enclosure(), b.enclosure()
    alpha = tradeoff_crossings(a.exact, b.exact) if a.exact is not None and b.exact is not None else None
    return Dominance(word, fw, bw, witness, bayes_crossings(ea, eb), alpha, detail)


def approximately_dominates(first, second, bound: float) -> str:
    """M >=_D M~ (Definition 2: Delta(M || M~) <= D), as a three-way answer: "yes" when the
    certified upper end of Delta is at most D, "no" when its lower end exceeds D, "undecided"
    when D lies inside the certified interval. ``first``, ``second``: trade-off functions,
    mechanisms or CertifiedCurves."""
    d = validate.nonnegative("bound", bound)
    res = delta_between(as_curves(first, "first"), as_curves(second, "second"))
    if res.upper <= d:
        return "yes"
    if res.lower > d or (res.log_lower is not None and d == 0 and res.log_lower > -math.inf):
        return "no"
    return "undecided"


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
