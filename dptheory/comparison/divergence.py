"""The Delta-divergence between mechanisms (Kaissis et al. 2024, Definition 1) and its
symmetrisation (Definition 3), certified.

Definition 1: Delta(M || M~) = inf{kappa >= 0 : f(alpha + kappa) - kappa <= f~(alpha) for all
alpha}, with f extended by 1 left of 0 and by 0 right of 1. Corollary 1: Delta(M || M~) =
max_pi (R(pi) - R~(pi)), R the Bayes error functions. In privacy profiles (derived here from
Theorem 2's clause (2) and the infimum of Definition 1): Delta = max{0, sup_eps (delta~(eps) -
delta(eps)) / (1 + e^eps)}.

Three routes, each returning a certified :class:`~dptheory.results.Result`:

* :func:`delta_divergence` (Corollary 1, the default): for two piecewise-linear curves the
  difference of Bayes errors is linear between the union of their kinks, so the maximum over
  that union (a merge of two sorted lists) is exact, up to a few ulps; otherwise a
  branch-and-bound over pi certifies an interval: at the grid points the difference is enclosed
  by the Bayes error enclosures; inside a cell R~ is above its chord (concave) and R is below
  the extensions of its neighbouring secants and below min(pi, 1 - pi), so every cell has a
  certified upper bound; cells are bisected until the upper bound is within ``tol`` of the
  best lower bound. The result is never a grid underestimate.
* :func:`delta_divergence_from_profiles`: the same maximisation, R from delta(eps) through
  R(pi) = (1 - pi)(1 - delta(logit pi)), i.e. the profile form above with pi = sigmoid(eps).
* :func:`delta_divergence_definition`: Definition 1 itself, bisection on kappa with an exact
  feasibility check for piecewise-linear curves (h(alpha) = f(alpha + kappa) - kappa - f~(alpha)
  is linear between the knots of f~ and the shifted knots of f); smooth curves are first
  sandwiched between piecewise-linear curves (:func:`sandwich`).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .. import rounding, tradeoff, validate
from ..hull import lower_hull
from ..inverse import bisect_monotone
from ..results import Kind, Result, Status
from . import bayes_error as be

EPS = rounding.EPS
SOURCE = "Kaissis et al. (2024), Definition 1, Corollary 1"
SOURCE_SYM = "Kaissis et al. (2024), Definition 3, Corollary 2"

#: a cell whose upper bound is not within tol of the best lower bound is cut into this many
SPLIT = 8

#: default width of a certified interval for curves that are not piecewise linear
DEFAULT_TOL = 1e-11
#: default cap on the grid points of the branch-and-bound (the interval is returned wider if hit:
#: two identical smooth curves need a fine grid everywhere; 1e5 points take about 0.3 s)
DEFAULT_MAX_POINTS = 100_000


@dataclasses.dataclass(frozen=True)
class Maximisation:
    """max_pi (R_f(pi) - R_g(pi)) enclosed in [lower, upper]; ``argmax``: the prior where the
    certified lower end is attained (the witness of a positive Delta); ``points``: the size of
    the final grid; ``exact``: linear between the grid points (no refinement was needed)."""

    lower: float
    upper: float
    argmax: float
    points: int
    exact: bool


def _max_min_lines(a, b, h):
    """For each row: max over t in [0, h] of min_k (a_k + b_k t), and a t attaining it.

    The minimum of lines is concave and piecewise linear, so its maximum is at t = 0, t = h or
    where two lines cross; every candidate is evaluated (one line: the better end)."""
    k = a.shape[1]
    if k == 1:
        end = a[:, 0] + b[:, 0] * h
        right = end > a[:, 0]
        return np.where(right, end, a[:, 0]), np.where(right, h, 0.0)
    cands = [np.zeros_like(h), h]
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(k):
            for j in range(i + 1, k):
                db = b[:, i] - b[:, j]
                t = np.where(db != 0, (a[:, j] - a[:, i]) / db, 0.0)
                cands.append(np.clip(np.where(np.isfinite(t), t, 0.0), 0.0, h))
    t_all = np.stack(cands, axis=1)                                   # (cells, candidates)
    vals = a[:, None, 0] + b[:, None, 0] * t_all
    for i in range(1, k):
        vals = np.minimum(vals, a[:, None, i] + b[:, None, i] * t_all)
    best = np.argmax(vals, axis=1)
    rows = np.arange(len(h))
    return vals[rows, best], t_all[rows, best]


def _cell_upper(x, flo, fhi, glo, ef: be.BayesEnclosure):
    """Certified upper bound of max (R_f - R_g) on each cell [x_i, x_{i+1}], and where in the
    cell it is attained: R_f is below the minimum of ``ef``'s upper lines; R_g (concave) is
    above the chord of its lower ends."""
    h = np.diff(x)
    a, b = ef.lines(x, flo, fhi)
    with np.errstate(divide="ignore", invalid="ignore"):
        gs = np.where(h > 0, (glo[1:] - glo[:-1]) / h, 0.0)
    a = a - glo[:-1, None]
    b = b - gs[:, None]
    best, t = _max_min_lines(a, b, h)
    scale = 1.0 + np.max(np.abs(a), axis=1) + np.max(np.abs(b), axis=1) * h
    return rounding.up(best, 64 * EPS * scale), t


def maximise_difference(ef: be.BayesEnclosure, eg: be.BayesEnclosure, *, tol: float = DEFAULT_TOL,
                        max_points: int = DEFAULT_MAX_POINTS, initial: int = 33) -> Maximisation:
    """Certified max over pi in [0, 1] of R_f(pi) - R_g(pi), from two Bayes error enclosures.

    Branch and bound: the lower end is the best grid value of (lower end of R_f) - (upper end of
    R_g); each cell has a certified upper bound (:func:`_cell_upper`). A cell is refined (cut in
    :data:`SPLIT` pieces, plus the point where its bound is attained) while its bound exceeds both
    the best lower end and its endpoints' upper values by more than ``tol``/2: refining cannot
    bring it below the latter, which is where the enclosures themselves are wide (curves known
    through bounds). Stops when the interval is narrower than ``tol``, when no cell is worth
    refining, or at ``max_points``.
    """
    tol = validate.positive("tol", tol)
    x = np.unique(np.concatenate([np.linspace(0.0, 1.0, initial), ef.breakpoints, eg.breakpoints]))
    x = x[(x >= 0) & (x <= 1)]
    flo, fhi = ef.bounds(x)
    glo, ghi = eg.bounds(x)
    exact = True
    while True:
        low = flo - ghi
        best_low = max(0.0, float(np.max(low)))
        cu, t_best = _cell_upper(x, flo, fhi, glo, ef)
        floor = np.maximum(fhi[:-1] - glo[:-1], fhi[1:] - glo[1:])
        cu = np.maximum(cu, np.maximum(low[:-1], low[1:]))
        top = float(np.max(cu))
        if top - best_low <= tol:
            break
        split = (cu > np.maximum(best_low, floor) + tol / 2) & (np.diff(x) > 4 * EPS * np.maximum(x[1:], 1e-300))
        room = (max_points - len(x)) // SPLIT
        if not np.any(split) or room <= 0:
            break
        exact = False
        if int(np.sum(split)) > room:  # near the cap: refine the worst cells only
            worst = np.argsort(-np.where(split, cu, -np.inf), kind="stable")[:room]
            split = np.zeros_like(split)
            split[worst] = True
        lo_x, hi_x = x[:-1][split], x[1:][split]
        mids = np.concatenate([lo_x + (hi_x - lo_x) * (j / SPLIT) for j in range(1, SPLIT)] + [lo_x + t_best[split]])
        mids = np.unique(mids[(mids > 0) & (mids < 1)])
        mlo, mhi = ef.bounds(mids)
        nlo, nhi = eg.bounds(mids)
        order = np.argsort(np.concatenate([x, mids]), kind="stable")
        x = np.concatenate([x, mids])[order]
        flo, fhi = np.concatenate([flo, mlo])[order], np.concatenate([fhi, mhi])[order]
        glo, ghi = np.concatenate([glo, nlo])[order], np.concatenate([ghi, nhi])[order]
    if best_low > 0:
        arg = float(x[int(np.argmax(low))])
    else:  # no positive lower end: where the upper end is attained (informational)
        i = int(np.argmax(cu))
        arg = float(x[i] + t_best[i])
    return Maximisation(best_low, max(top, best_low), arg, len(x), exact)


def _merged_order(a, b):
    """Stable merge of two ascending arrays (a first at ties): the positions, in O(n) (the sort
    finds the two runs)."""
    both = np.concatenate([a, b])
    return both, np.argsort(both, kind="stable")


def maximise_difference_exact(f: tradeoff.PiecewiseLinear, g: tradeoff.PiecewiseLinear) -> Maximisation:
    """max_pi (R_f - R_g) for two piecewise-linear curves: the difference is linear between the
    union of their kinks, so the maximum sits at one of them. Linear time: the kinks of each
    curve are already sorted (its canonical pair is sorted by likelihood ratio), the two lists
    are merged, and each curve's Bayes error at every merged kink is read off its knots at the
    index the merge gives (the number of its own kinks above the point).

    Error: each R carries :func:`bayes_error.pl_abs_err` (the knots' cumulative sums); a kink
    q/(p + q) is within 2 EPS of the true one and R_f - R_g is 2-Lipschitz.
    """
    kf, kg = be.pl_kinks_ascending(f), be.pl_kinks_ascending(g)
    both, order = _merged_order(kf, kg)
    pts = both[order]
    from_f = order < len(kf)
    below_f = np.cumsum(from_f)            # kinks of f at or below each point
    below_g = np.cumsum(~from_f)
    rf = be.pl_bayes_error_at(f, pts, len(kf) - below_f)
    rg = be.pl_bayes_error_at(g, pts, len(kg) - below_g)
    d = rf - rg
    k = int(np.argmax(d)) if len(d) else 0
    m = float(d[k]) if len(d) else 0.0
    m = max(m, 0.0)  # at pi in {0, 1} both vanish
    err = be.pl_abs_err(f) + be.pl_abs_err(g) + 8 * EPS
    arg = float(pts[k]) if len(d) and d[k] > 0 else 0.5
    return Maximisation(max(0.0, rounding.down(m, err)), max(0.0, rounding.up(m, err)), arg, len(pts), True)


def _both_pl(f, g) -> bool:
    return isinstance(f, tradeoff.PiecewiseLinear) and isinstance(g, tradeoff.PiecewiseLinear)


def _check(name, f):
    if not isinstance(f, tradeoff.TradeOff):
        raise validate.DomainError(f"{name} = {f!r} is invalid: must be a trade-off function "
                                   "(dptheory.tradeoff.TradeOff: Gaussian, Laplace, PiecewiseLinear, ...)")
    return f


def _maximise(f, g, tol, max_points) -> Maximisation:
    if _both_pl(f, g):
        return maximise_difference_exact(f, g)
    return maximise_difference(be.enclosure(f), be.enclosure(g), tol=tol, max_points=max_points)


def family_key(f) -> tuple | None:
    """The family key of a trade-off function (:func:`closed_forms.dominates`): ``("gaussian",
    mu, 1)``, ``("laplace", mu, 1)``, ``("pp",)`` (f = 1 - alpha), ``("bnp",)`` (R = 0: every
    segment vertical or flat), else None."""
    if isinstance(f, tradeoff.Gaussian) and f.digits is None:
        return ("pp",) if f.mu == 0 else ("gaussian", float(f.mu), 1)
    if isinstance(f, tradeoff.Laplace):
        return ("pp",) if f.mu == 0 else ("laplace", float(f.mu), 1)
    if isinstance(f, tradeoff.PiecewiseLinear):
        p = np.asarray(f.p_mass, dtype=float)
        q = np.asarray(f.q_mass, dtype=float)
        if len(p) == 1 and p[0] == q[0]:
            return ("pp",)
        if np.all((p == 0) | (q == 0)):
            return ("bnp",)
    return None


def _zero(source: str, note: str) -> Result:
    return Result("delta-divergence", 0.0, 0.0, Kind.EXACT, Status.PROVEN, "delta-divergence-exact-zero", source, note,
                  params={"prior": 0.5, "epsilon": 0.0})


def exact_decision(key_f: tuple | None, key_g: tuple | None) -> Result | None:
    """Delta decided without numerics: Lemma 2 (M >= M_PP: Delta(M || M_PP) = 0; M_BNP >= M:
    Delta(M_BNP || M) = 0), the orders of the parametric families and their closed forms
    (:func:`closed_forms.family_delta`)."""
    from . import closed_forms as cf

    if key_g is not None and key_g[0] == "pp":
        return _zero("Kaissis et al. (2024), Lemma 2", "0 exactly: every mechanism dominates M_PP (Lemma 2)")
    if key_f is not None and key_f[0] == "bnp":
        return _zero("Kaissis et al. (2024), Lemma 2", "0 exactly: M_BNP dominates every mechanism (Lemma 2)")
    if key_f is not None and key_g is not None:
        return cf.family_delta(key_f, key_g)
    return None


def _same_curve(f, g) -> bool:
    """Two piecewise-linear curves with the same canonical pair (the same function, exactly)."""
    if not _both_pl(f, g) or f.digits is not None or g.digits is not None:
        return False
    return bool(np.array_equal(np.asarray(f.p_mass, float), np.asarray(g.p_mass, float))
                and np.array_equal(np.asarray(f.q_mass, float), np.asarray(g.q_mass, float)))


#: the largest number of segments for which a piecewise-linear pair whose float Delta is within
#: rounding of 0 is decided exactly in rational arithmetic
EXACT_ZERO_MAX_SEGMENTS = 2000


def pl_delta_is_zero(f: tradeoff.PiecewiseLinear, g: tradeoff.PiecewiseLinear) -> bool:
    """Whether Delta(f || g) = 0 exactly for two piecewise-linear curves, in rational arithmetic
    on their float masses (the curves are exactly the functions of those masses): R_f - R_g is
    linear between the union of the kinks q/(p + q), so it is <= 0 everywhere iff it is at
    every kink (Corollary 1)."""
    from fractions import Fraction

    def parts(c):
        p = [Fraction(float(v)) for v in c.p_mass]
        q = [Fraction(float(v)) for v in c.q_mass]
        # the knots as PiecewiseLinear defines them: cumulative sums, kept in the unit square
        alpha = [Fraction(0)]
        for v in p:
            alpha.append(alpha[-1] + v)
        beta = [Fraction(0)]
        for v in reversed(q):
            beta.append(beta[-1] + v)
        beta = beta[::-1]
        alpha = [min(a, Fraction(1)) for a in alpha]
        beta = [min(b, Fraction(1)) for b in beta]
        kinks = [b / (a + b) for a, b in zip(p, q) if a + b > 0]
        return alpha, beta, kinks

    def bayes_at(alpha, beta, kinks, points):
        """R at each point (ascending): the minimising knot index falls as pi rises; the objective
        is convex in the index, so a pointer walking down from the last knot finds it."""
        out, j = [], len(alpha) - 1
        for pi in points:
            while j > 0 and pi * alpha[j - 1] + (1 - pi) * beta[j - 1] <= pi * alpha[j] + (1 - pi) * beta[j]:
                j -= 1
            # the pointer only moves down: a minimum further down is found by continuing the walk
            out.append(pi * alpha[j] + (1 - pi) * beta[j])
        return out

    fa, fb, fk = parts(f)
    ga, gb, gk = parts(g)
    points = sorted(set(fk) | set(gk) | {Fraction(1, 2)})
    rf = bayes_at(fa, fb, fk, points)
    rg = bayes_at(ga, gb, gk, points)
    return all(a <= b for a, b in zip(rf, rg))


def delta_divergence(f, g, *, tol: float = DEFAULT_TOL, max_points: int = DEFAULT_MAX_POINTS,
                     method: str = "auto") -> Result:
    """Delta(M || M~) = max_pi (R_f(pi) - R_g(pi)) between the trade-off functions f and g.

    Source: Kaissis et al. (2024), Definition 1 and Corollary 1 (pi multiplies alpha, eq. (1)).
    The Result is about the two curves given: ``exact`` means exact for f and g (an interval
    of a few ulps for two piecewise-linear curves, of width at most ``tol`` otherwise, wider only
    if ``max_points`` is reached; always valid). When f or g is only a bound of a mechanism's
    trade-off function, compare the mechanisms with :func:`delta_between` instead, which uses
    both certified sides and labels the result. ``params`` holds the maximising prior
    ``prior``, its ``epsilon = logit(prior)`` (Theorem 2 clause (2)) and the grid size.

    Parameters
    ----------
    f, g : dptheory.tradeoff.TradeOff
        Trade-off functions (of the first and second mechanism).
    tol : float
        Target width of the interval for curves that are not piecewise linear.
    method : {"auto", "curves", "numeric"}
        "auto" decides exactly where it can: closed forms within the Gaussian and Laplace
        families (:func:`exact_decision`), Lemma 2 for M_PP and M_BNP, and 0 for two equal
        piecewise-linear curves or, in rational arithmetic, two ordered ones; "curves" the same
        without closed forms and Lemma 2 (only computations on the two curves); "numeric"
        always maximises the difference of Bayes errors.
    """
    f, g = _check("f", f), _check("g", g)
    if method not in ("auto", "curves", "numeric"):
        raise validate.DomainError(f"method = {method!r} is invalid: must be 'auto', 'curves' or 'numeric'")
    validate.positive("tol", tol)
    if method != "numeric" and _same_curve(f, g):
        return _zero(SOURCE, "the same piecewise-linear function: kappa = 0 satisfies Definition 1")
    if method == "auto":
        decided = exact_decision(family_key(f), family_key(g))
        if decided is not None:
            return decided
    m = _maximise(f, g, tol, max_points)
    if (method != "numeric" and m.exact and m.lower == 0 and _both_pl(f, g)
            and max(len(f.p_mass), len(g.p_mass)) <= EXACT_ZERO_MAX_SEGMENTS and pl_delta_is_zero(f, g)):
        return _zero(SOURCE, "0 exactly: R_f <= R_g at every kink, in rational arithmetic (Theorem 1)")
    return _result(m, Kind.EXACT, "delta-divergence", _enclosure_note(f, g))


def _result(m: Maximisation, kind: Kind, method: str, note: str = "", source: str = SOURCE, **params) -> Result:
    eps = None
    if 0 < m.argmax < 1:
        eps = float(np.log(m.argmax) - np.log1p(-m.argmax))
    return Result("delta-divergence", m.lower, m.upper, kind, Status.PROVEN, method, source, note,
                  params={"prior": m.argmax, "epsilon": eps, "grid_points": int(m.points), **params})


def _enclosure_note(f, g) -> str:
    notes = {be.enclosure(c).note for c in (f, g) if isinstance(c, tradeoff.TradeOff)
             and not isinstance(c, (tradeoff.PiecewiseLinear, tradeoff.Gaussian, tradeoff.Laplace))}
    return "; ".join(sorted(notes))


def delta_between(first, second, *, tol: float = DEFAULT_TOL, max_points: int = DEFAULT_MAX_POINTS) -> Result:
    """Delta(M || M~) between two mechanisms known through certified curves, with its kind.

    ``first`` and ``second`` are :class:`~dptheory.comparison.curves.CertifiedCurves` or parsed
    mechanisms (:func:`~dptheory.comparison.parse_mechanism`, whose ``curves()`` gives them).
    Delta(f || g) is non-decreasing in f and non-increasing in g (Kaissis et al. 2024,
    Corollary 1: it is max_pi (R_f - R_g), and R is monotone in f), so the true value lies in
    [Delta(f_lo || g_hi), Delta(f_hi || g_lo)]: that interval is returned, from the maximisation
    over the two Bayes error enclosures. Its kind (:func:`curves.delta_kind`) is ``exact`` when
    both mechanisms have certified lower and upper curves (or exact ones), ``lower`` or
    ``upper`` when a side is missing. Decided exactly without numerics: the same mechanism twice,
    Lemma 2 (M_PP, M_BNP) and pairs within one closed-form family (Gaussian, Laplace, k-ary
    randomized response), unless a curve is :func:`curves.numerical` (then only computations on
    the curves decide).
    """
    from .curves import CertifiedCurves, delta_kind

    cf_, cg_ = (c if isinstance(c, CertifiedCurves) else c.curves() for c in (first, second))
    validate.positive("tol", tol)
    closed = cf_.closed_forms and cg_.closed_forms
    if cf_.identity is not None and cf_.identity == cg_.identity:
        return _zero(SOURCE, f"0 exactly: the same mechanism ({cf_.name}) twice")
    decided = exact_decision(cf_.family, cg_.family) if closed else None
    if decided is not None:
        return decided
    if cf_.exact is not None and cg_.exact is not None:
        return delta_divergence(cf_.exact, cg_.exact, tol=tol, max_points=max_points,
                                method="auto" if closed else "curves")
    kind, why = delta_kind(cf_, cg_)
    m = maximise_difference(cf_.enclosure(), cg_.enclosure(), tol=tol, max_points=max_points)
    note = why or "the interval [Delta(f_lo || g_hi), Delta(f_hi || g_lo)] from certified bounds of the curves"
    return _result(m, kind, "delta-divergence-bounds", note,
                   "Kaissis et al. (2024), Definition 1, Corollary 1; Delta monotone in both curves")


def delta_divergence_from_profiles(delta_f, delta_g, *, abs_err: float | None = None, breakpoints=(),
                                   tol: float = DEFAULT_TOL, max_points: int = DEFAULT_MAX_POINTS) -> Result:
    """Delta(M || M~) = max{0, sup_eps (delta~(eps) - delta(eps)) / (1 + e^eps)} from the privacy
    profiles (derived here from Theorem 2, clause (2), and Definition 1: see the module text).

    ``delta_f``, ``delta_g``: trade-off functions (their certified profile enclosures
    ``log_delta_enclosure`` are used: the error is the library's, not the caller's) or plain
    vectorised functions of epsilon on the whole real line, which need ``abs_err``, the absolute
    error of their values (a DomainError otherwise: certification cannot rest on an unstated
    error). The supremum is taken in pi = e^eps/(1 + e^eps), where (1 - pi)(delta~ - delta) =
    R(pi) - R~(pi) is a difference of concave 1-Lipschitz functions, by the certified
    maximisation of :func:`delta_divergence`.
    """
    encs = []
    for name, fn in (("delta_f", delta_f), ("delta_g", delta_g)):
        if isinstance(fn, tradeoff.TradeOff):
            encs.append(be.from_certified_profile(fn, breakpoints))
        elif callable(fn):
            if abs_err is None:
                raise validate.DomainError(f"abs_err = None is invalid for the plain function {name}: give the "
                                           "absolute error of its values (>= 0), or pass a trade-off function")
            encs.append(be.from_profile(fn, abs_err, breakpoints))
        else:
            raise validate.DomainError(f"{name} = {fn!r} is invalid: must be a trade-off function or a function "
                                       "of epsilon")
    m = maximise_difference(encs[0], encs[1], tol=tol, max_points=max_points)
    return _result(m, Kind.EXACT, "delta-divergence-profile", "route: privacy profiles",
                   "Kaissis et al. (2024), Theorem 2, clause (2), with Definition 1 (profile form derived here)")


def symmetric_delta(f, g, *, tol: float = DEFAULT_TOL, max_points: int = DEFAULT_MAX_POINTS) -> Result:
    """Delta<->(M, M~) = max(Delta(M || M~), Delta(M~ || M)) = ||R - R~||_inf (Kaissis et al.
    2024, Definition 3, Corollary 2: a metric on mechanisms up to equivalence; Lemma B.1: the Levy
    distance between the CDFs f(1 - x) and f~(1 - x)). ``f``, ``g``: trade-off functions, or
    mechanisms / certified curves (then through :func:`delta_between`)."""
    if isinstance(f, tradeoff.TradeOff) and isinstance(g, tradeoff.TradeOff):
        fw = delta_divergence(f, g, tol=tol, max_points=max_points)
        bw = delta_divergence(g, f, tol=tol, max_points=max_points)
    else:
        fw = delta_between(f, g, tol=tol, max_points=max_points)
        bw = delta_between(g, f, tol=tol, max_points=max_points)
    return symmetric_from(fw, bw)


def symmetric_from(fw: Result, bw: Result) -> Result:
    """Delta<-> from the two directions: the maximum of the two intervals (Definition 3). Its
    kind: exact if both are; a lower end is informative if either direction's is, an upper end
    only if both directions' are."""
    lo_ok = {Kind.EXACT, Kind.LOWER}
    hi_ok = {Kind.EXACT, Kind.UPPER}
    lower_ok = fw.kind in lo_ok or bw.kind in lo_ok
    upper_ok = fw.kind in hi_ok and bw.kind in hi_ok
    kind = Kind.EXACT if lower_ok and upper_ok else Kind.UPPER if upper_ok else Kind.LOWER
    hi = fw if fw.upper >= bw.upper else bw
    note = "; ".join(dict.fromkeys(n for n in (fw.note, bw.note) if n))
    logs = [r.log_upper if r.log_upper is not None else (math.log(r.upper) if r.upper > 0 else -math.inf)
            for r in (fw, bw)]
    log_lows = [r.log_lower if r.log_lower is not None else (math.log(r.lower) if r.lower > 0 else -math.inf)
                for r in (fw, bw)]
    return Result("delta-divergence-symmetric", max(fw.lower, bw.lower), max(fw.upper, bw.upper), kind,
                  Status.PROVEN, "delta-divergence-symmetric", SOURCE_SYM, note,
                  params={"prior": hi.params.get("prior"), "forward": [fw.lower, fw.upper],
                          "backward": [bw.lower, bw.upper]},
                  log_lower=max(log_lows), log_upper=max(logs))


# ---------------------------------------------------------------- Definition 1, directly
def _pl_arrays(f: tradeoff.PiecewiseLinear):
    a = np.asarray(f.knots_alpha, dtype=float)
    b = np.asarray(f.knots_beta, dtype=float)
    return a, b


def _pl_eval_ext(a, b, x):
    """f(x) with f = 1 left of 0 and 0 right of 1 (Definition 1's extension); the vertical drop
    at 0 (two knots at alpha = 0) evaluates to the lower knot, as ``np.interp`` does."""
    out = np.interp(x, a, b)
    out = np.where(x < 0, 1.0, out)
    return np.where(x > 1, 0.0, out)


def _excess(fa, fb, ga, gb, kappa: float) -> float:
    """max over alpha in [0, 1] of f(alpha + kappa) - kappa - g(alpha): h is linear between the
    knots of g and the knots of f shifted by -kappa, so its maximum is at one of them."""
    pts = np.concatenate([ga, fa - kappa, [0.0, 1.0, 1.0 - kappa]])
    pts = pts[(pts >= 0) & (pts <= 1)]
    h = _pl_eval_ext(fa, fb, pts + kappa) - kappa - np.interp(pts, ga, gb)
    # the vertical drop of g at 0 makes g(0) = 1 (its upper value): f(kappa) - kappa <= 1 always
    return float(np.max(h))


def _definition_pl(f: tradeoff.PiecewiseLinear, g: tradeoff.PiecewiseLinear, tol: float = 1e-15):
    fa, fb = _pl_arrays(f)
    ga, gb = _pl_arrays(g)
    margin = 16 * EPS
    if _excess(fa, fb, ga, gb, 0.0) <= 0:
        return 0.0, rounding.up(0.0, margin)
    # Delta(M || M~) <= Delta(M || M_BNP) = alpha* <= 1/2 (Lemma 4; Delta falls in M~); the excess is
    # non-increasing in kappa, decided exactly at each kappa: a plain bisection (dptheory.inverse:
    # the epsilon(delta) inverter searches a log delta profile, not a feasibility threshold)
    lo, hi = bisect_monotone(lambda kappa: _excess(fa, fb, ga, gb, kappa) <= 0, 0.0, 0.5, tol=tol)
    # an error m in h moves the feasibility threshold by at most m (h falls at rate >= 1 in kappa)
    return max(0.0, rounding.down(lo, margin)), rounding.up(hi, margin)


def sandwich(f, points: int = 8000) -> tuple[tradeoff.PiecewiseLinear, tradeoff.PiecewiseLinear]:
    """Piecewise-linear trade-off functions (lower, upper) with lower <= f <= upper.

    Upper: the lower convex hull of (alpha_i, f(alpha_i) rounded up), which lies above f by
    convexity. Lower: the upper envelope of the supporting lines (R(pi) - pi alpha)/(1 - pi) of
    Kaissis et al. (2024), eq. (4), from certified lower ends of R, moved down by its rounding
    error, and clipped at 0. A piecewise-linear f is returned as both.
    """
    if isinstance(f, tradeoff.PiecewiseLinear):
        return f, f
    enc = be.enclosure(f)
    u = np.linspace(-8.0, 8.0, points)
    # the corners of f (the optimal alphas on either side of each kink of R) are sampled too: a
    # chord across a corner, or a supporting line missing it, costs first order
    brk = enc.breakpoints[(enc.breakpoints > 0) & (enc.breakpoints < 1)]
    near = np.concatenate([brk * (1 - 1e-12), brk * (1 + 1e-12)])
    try:
        corners = np.asarray(enc.argmin_alpha(near), dtype=float).ravel()
    except validate.DomainError:
        corners = np.zeros(0)
    alphas = np.unique(np.concatenate([[0.0, 1.0], 1.0 / (1.0 + np.exp(-u)), np.linspace(0, 1, points // 4),
                                       corners[np.isfinite(corners)]]))
    vals = np.asarray(f(alphas), dtype=float)
    up_vals = np.minimum(rounding.up(vals, be.CLOSED_FORM_ABS_ERR + 4 * EPS), 1.0 - alphas)
    up_vals = np.maximum(up_vals, 0.0)
    hx, hy = lower_hull(list(alphas), list(up_vals))
    upper = tradeoff.from_knots(hx, hy, tol=1e-15)
    # lower: lines l_k(alpha) = c_k - s_k alpha, c_k = R_lo(pi_k)/(1 - pi_k), s_k = pi_k/(1 - pi_k)
    pis = np.unique(np.concatenate([1.0 / (1.0 + np.exp(-u)), [0.0], brk]))
    r_lo, _ = enc.bounds(pis)
    c = r_lo / (1.0 - pis)
    s = pis / (1.0 - pis)
    order = np.argsort(-s, kind="stable")  # steepest first
    c, s = c[order], s[order]
    slack = 8 * EPS * (1.0 + float(np.max(np.abs(c))) + float(np.max(s)))
    lower = _lower_from_lines(c, s, slack)
    return lower, upper


def _lower_from_lines(c, s, slack) -> tradeoff.PiecewiseLinear:
    """A piecewise-linear trade-off function below the upper envelope of the lines c_k - s_k alpha
    (s_k >= 0 decreasing in k) and 0.

    Knots at the computed crossings of consecutive envelope lines, valued at the smaller of the
    two lines there minus ``slack`` (their rounding): consecutive knots lie on or below the line
    they share, so every chord lies below the envelope whatever the crossings' rounding."""
    # keep the lines that appear on the envelope (convex hull trick, slopes -s increasing)
    lines: list[tuple[float, float]] = []
    for ci, si in zip(c, s):
        while lines:
            c0, s0 = lines[-1]
            if si == s0:
                if ci >= c0:
                    lines.pop()
                    continue
                break
            if len(lines) >= 2:
                c1, s1 = lines[-2]
                # x where line -1 overtakes -2, and where the new one overtakes -1
                x01 = (c1 - c0) / (s1 - s0)
                x0n = (c0 - ci) / (s0 - si)
                if x0n <= x01:
                    lines.pop()
                    continue
            break
        if not lines or si != lines[-1][1]:
            lines.append((ci, si))
    lines.append((0.0, 0.0))
    ks_a, ks_b = [0.0], [max(0.0, rounding.down(min(1.0, max(ci for ci, _ in lines)), slack))]
    for (c0, s0), (c1, s1) in zip(lines, lines[1:]):
        if s0 == s1:
            continue
        x = (c0 - c1) / (s0 - s1)
        if not (0 < x < 1):
            continue
        v = min(c0 - s0 * x, c1 - s1 * x) - slack
        ks_a.append(x)
        ks_b.append(max(0.0, v))
    ks_a.append(1.0)
    ks_b.append(0.0)
    ka, kb = np.array(ks_a), np.array(ks_b)
    order = np.argsort(ka, kind="stable")
    ka, kb = ka[order], np.minimum.accumulate(kb[order])
    kb = np.minimum(kb, 1.0 - ka)
    hx, hy = lower_hull(list(ka), list(kb))
    return tradeoff.from_knots(hx, hy, tol=1e-15)


def delta_divergence_definition(f, g, *, points: int = 8000) -> Result:
    """Delta(M || M~) by Definition 1: the smallest kappa with f(alpha + kappa) - kappa <= f~(alpha)
    for all alpha, by bisection on kappa (Kaissis et al. 2024, Definition 1), with
    :func:`dptheory.inverse.bisect_monotone`: the condition is a feasibility check, monotone in
    kappa and decided exactly at each kappa, not a log delta profile for the epsilon(delta)
    inverter.

    Exact for piecewise-linear curves; other curves are replaced by piecewise-linear sandwiches
    (:func:`sandwich`, ``points`` samples) and, Delta being non-decreasing in f and
    non-increasing in f~, the interval is [Delta(f_lower || g_upper), Delta(f_upper || g_lower)].
    """
    f, g = _check("f", f), _check("g", g)
    if _both_pl(f, g):
        lo, hi = _definition_pl(f, g)
        note = ""
    else:
        fl, fu = sandwich(f, points)
        gl, gu = sandwich(g, points)
        lo = _definition_pl(fl, gu)[0]
        hi = _definition_pl(fu, gl)[1]
        note = f"piecewise-linear sandwiches with {points} samples"
    return Result("delta-divergence", lo, max(lo, hi), Kind.EXACT, Status.PROVEN, "delta-divergence-definition",
                  "Kaissis et al. (2024), Definition 1", note)


# ---------------------------------------------------------------- Levy distance (Lemma B.1)
def levy_distance(f, g, *, tol: float = 1e-13) -> Result:
    """The Levy distance between W and W' with CDFs F_W(x) = f(1 - x), F_W'(x) = g(1 - x), from its
    own definition (eq. (32)): the smallest lambda with F_W(x - lambda) - lambda <= F_W'(x) <=
    F_W(x + lambda) + lambda for all x, for piecewise-linear f, g (both inequalities are linear
    between the CDFs' knots and the shifted knots, so they are checked exactly); by bisection on
    lambda (:func:`dptheory.inverse.bisect_monotone`: the check holds for every lambda above the
    distance and is decided exactly at each point; the epsilon(delta) inverter, which interpolates
    a log delta profile, does not apply).
    Lemma B.1 (Kaissis et al. 2024) says it equals Delta<->."""
    if not _both_pl(f, g):
        raise validate.DomainError("levy_distance needs two piecewise-linear trade-off functions")
    fa, fb = _pl_arrays(f)
    ga, gb = _pl_arrays(g)
    # CDF knots: F_W(x) = f(1 - x), x = 1 - alpha
    wx, wy = (1.0 - fa)[::-1], fb[::-1]
    vx, vy = (1.0 - ga)[::-1], gb[::-1]

    def cdf(xk, yk, x):
        out = np.interp(x, xk, yk)
        return np.where(x < 0, 0.0, np.where(x >= 1, 1.0, out))

    def ok(lam: float) -> bool:
        pts = np.concatenate([vx, wx + lam, wx - lam, [0.0, 1.0]])
        pts = np.concatenate([pts, *rounding.neighbours(pts)])  # either side of every breakpoint
        left = cdf(wx, wy, pts - lam) - lam <= cdf(vx, vy, pts) + 8 * EPS
        right = cdf(vx, vy, pts) <= cdf(wx, wy, pts + lam) + lam + 8 * EPS
        return bool(np.all(left) and np.all(right))

    lo, hi = (0.0, 0.0) if ok(0.0) else bisect_monotone(ok, 0.0, 1.0, tol=tol)
    return Result("levy-distance", max(0.0, rounding.down(lo, 16 * EPS)), rounding.up(hi, 16 * EPS), Kind.EXACT,
                  Status.PROVEN, "levy-distance", "Kaissis et al. (2024), Lemma B.1, eq. (32)")
