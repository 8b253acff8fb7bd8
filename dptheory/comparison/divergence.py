"""The Delta-divergence between mechanisms (Kaissis et al. 2024, Definition 1) and its
symmetrisation (Definition 3), certified.

Definition 1: Delta(M || M~) = inf{kappa >= 0 : f(alpha + kappa) - kappa <= f~(alpha) for all
alpha}, with f extended by 1 left of 0 and by 0 right of 1. Corollary 1: Delta(M || M~) =
max_pi (R(pi) - R~(pi)), R the Bayes error functions. The digest's privacy-profile form (§2,
Corollary 1 [D]): Delta = max{0, sup_eps (delta~(eps) - delta(eps)) / (1 + e^eps)}.

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
  R(pi) = (1 - pi)(1 - delta(logit pi)), i.e. the digest's profile formula with pi = sigmoid(eps).
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
    """max_pi (R_f(pi) - R_g(pi)) enclosed in [lower, upper]; the grid at the end, with the
    enclosure of the difference at each point, and the best point (``argmax``)."""

    lower: float
    upper: float
    argmax: float
    grid: np.ndarray
    diff_lower: np.ndarray
    diff_upper: np.ndarray
    exact: bool


def _cell_upper(x, flo, fhi, glo):
    """Certified upper bound of max (R_f - R_g) on each cell [x_i, x_{i+1}] (see module text)."""
    n = len(x)
    h = np.diff(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        s_left = np.ones(n - 1)
        if n > 2:
            s_left[1:] = np.minimum((fhi[1:-1] - flo[:-2]) / (x[1:-1] - x[:-2]), 1.0)
        s_right = -np.ones(n - 1)
        if n > 2:
            s_right[:-1] = np.maximum((flo[2:] - fhi[1:-1]) / (x[2:] - x[1:-1]), -1.0)
        gs = (glo[1:] - glo[:-1]) / h
    s_left = np.where(np.isfinite(s_left), s_left, 1.0)
    s_right = np.where(np.isfinite(s_right), s_right, -1.0)
    gs = np.where(np.isfinite(gs), gs, 0.0)
    # lines a + b t on t in [0, h], minus the chord glo_i + gs t of R_g
    a = np.stack([fhi[:-1], fhi[1:] - s_right * h, x[:-1], 1.0 - x[:-1]], axis=1) - glo[:-1, None]
    b = np.stack([s_left, s_right, np.ones(n - 1), -np.ones(n - 1)], axis=1) - gs[:, None]
    # max_t min_k (a_k + b_k t) <= each line's maximum on [0, h] ...
    best = np.min(a + np.maximum(b, 0.0) * h[:, None], axis=1)
    # ... and <= the crossing value of any increasing line with any decreasing one
    for j in range(4):
        for k in range(4):
            if j == k:
                continue
            bj, bk = b[:, j], b[:, k]
            ok = (bj > 0) & (bk < 0)
            with np.errstate(divide="ignore", invalid="ignore"):
                cross = (a[:, j] * (-bk) + a[:, k] * bj) / (bj - bk)
            best = np.where(ok, np.minimum(best, cross), best)
    scale = 1.0 + np.max(np.abs(a), axis=1) + np.max(np.abs(b), axis=1) * h
    return rounding.up(best, 64 * EPS * scale)


def maximise_difference(ef: be.BayesEnclosure, eg: be.BayesEnclosure, *, tol: float = DEFAULT_TOL,
                        max_points: int = DEFAULT_MAX_POINTS, initial: int = 33) -> Maximisation:
    """Certified max over pi in [0, 1] of R_f(pi) - R_g(pi), from two Bayes error enclosures."""
    tol = validate.positive("tol", tol)
    x = np.unique(np.concatenate([np.linspace(0.0, 1.0, initial), ef.breakpoints, eg.breakpoints]))
    x = x[(x >= 0) & (x <= 1)]
    flo, fhi = ef.bounds(x)
    glo, ghi = eg.bounds(x)
    while True:
        low = flo - ghi
        best_low = max(0.0, float(np.max(low)))
        cu = np.maximum(_cell_upper(x, flo, fhi, glo), np.maximum(low[:-1], low[1:]))
        top = float(np.max(cu))
        if top - best_low <= tol:
            break
        split = (cu > best_low + tol / 2) & (np.diff(x) > 4 * EPS * np.maximum(x[1:], 1e-300))
        room = (max_points - len(x)) // (SPLIT - 1)
        if not np.any(split) or room <= 0:
            break
        if int(np.sum(split)) > room:  # near the cap: refine the worst cells only
            worst = np.argsort(-np.where(split, cu, -np.inf), kind="stable")[:room]
            split = np.zeros_like(split)
            split[worst] = True
        lo_x, hi_x = x[:-1][split], x[1:][split]
        mids = np.concatenate([lo_x + (hi_x - lo_x) * (j / SPLIT) for j in range(1, SPLIT)])
        mids = mids[(mids > 0) & (mids < 1)]
        mlo, mhi = ef.bounds(mids)
        nlo, nhi = eg.bounds(mids)
        order = np.argsort(np.concatenate([x, mids]), kind="stable")
        x = np.concatenate([x, mids])[order]
        flo, fhi = np.concatenate([flo, mlo])[order], np.concatenate([fhi, mhi])[order]
        glo, ghi = np.concatenate([glo, nlo])[order], np.concatenate([ghi, nhi])[order]
    k = int(np.argmax(low))
    upper_cells = np.concatenate([cu, [0.0]])
    return Maximisation(best_low, max(top, best_low), float(x[k]), x, low, np.maximum(upper_cells, low), False)


def maximise_difference_exact(f: tradeoff.PiecewiseLinear, g: tradeoff.PiecewiseLinear) -> Maximisation:
    """max_pi (R_f - R_g) for two piecewise-linear curves: the difference is linear between the
    union of their kinks, so the maximum sits at one of them (a merge of two sorted lists).

    Error: each R carries :func:`bayes_error.pl_abs_err` (the knots' cumulative sums); a kink
    q/(p + q) is within 2 EPS of the true one and R_f - R_g is 2-Lipschitz.
    """
    x = np.unique(np.concatenate([[0.0, 0.5, 1.0], be.pl_breakpoints(f), be.pl_breakpoints(g)]))
    d = be.pl_bayes_error(f, x) - be.pl_bayes_error(g, x)
    k = int(np.argmax(d))
    m = float(d[k])
    err = be.pl_abs_err(f) + be.pl_abs_err(g) + 8 * EPS
    lo = np.maximum(rounding.down(d, err), -1.0)
    hi = rounding.up(d, err)
    return Maximisation(max(0.0, rounding.down(m, err)), max(0.0, rounding.up(m, err)), float(x[k]), x, lo, hi, True)


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


def _closed_form(f, g) -> Result | None:
    """Delta within the Gaussian or the Laplace family by its closed form (digest §5.3-5.4; the
    Gaussian one derived in derivations/delta_divergence_gaussian.py), maximiser pi = 1/2."""
    from scipy import special

    from . import closed_forms as cf

    if isinstance(f, tradeoff.Gaussian) and isinstance(g, tradeoff.Gaussian):
        v = float(special.ndtr(-f.mu / 2) - special.ndtr(-g.mu / 2))
        formula = cf.DELTA_GAUSSIAN
    elif isinstance(f, tradeoff.Laplace) and isinstance(g, tradeoff.Laplace):
        v = 0.5 * (math.exp(-f.mu / 2) - math.exp(-g.mu / 2))
        formula = cf.DELTA_LAPLACE
    else:
        return None
    err = be.CLOSED_FORM_ABS_ERR
    lo, hi = max(0.0, rounding.down(v, err)), max(0.0, rounding.up(v, err))
    return Result("delta-divergence", lo, hi, Kind.EXACT, Status.PROVEN, "delta-divergence-closed-form",
                  formula.source, f"closed form {formula.name}", params={"prior": 0.5, "epsilon": 0.0})


def delta_divergence(f, g, *, tol: float = DEFAULT_TOL, max_points: int = DEFAULT_MAX_POINTS,
                     method: str = "auto") -> Result:
    """Delta(M || M~) = max_pi (R_f(pi) - R_g(pi)) for trade-off functions f of M and g of M~.

    Source: Kaissis et al. (2024), Definition 1 and Corollary 1 (pi multiplies alpha, eq. (1)).
    Exact (kind ``exact``, interval of a few ulps) for two piecewise-linear curves; otherwise a
    certified interval of width at most ``tol`` (wider only if ``max_points`` is reached; the
    interval is always valid). ``params`` holds the maximising prior ``prior``, its
    ``epsilon = logit(prior)`` (Theorem 2 clause (2)) and the number of grid points.

    Parameters
    ----------
    f, g : dptheory.tradeoff.TradeOff
        Trade-off functions (of the first and second mechanism).
    tol : float
        Target width of the interval for curves that are not piecewise linear.
    method : {"auto", "numeric"}
        "auto" uses the closed forms within the Gaussian and the Laplace families and returns 0 for
        one curve against itself; "numeric" always maximises the difference of Bayes errors.
    """
    f, g = _check("f", f), _check("g", g)
    if method not in ("auto", "numeric"):
        raise validate.DomainError(f"method = {method!r} is invalid: must be 'auto' or 'numeric'")
    validate.positive("tol", tol)
    if method == "auto":
        if f is g:
            return Result("delta-divergence", 0.0, 0.0, Kind.EXACT, Status.PROVEN, "delta-divergence", SOURCE,
                          "the same curve: kappa = 0 satisfies Definition 1", params={"prior": 0.5, "epsilon": 0.0})
        closed = _closed_form(f, g)
        if closed is not None:
            return closed
    m = _maximise(f, g, tol, max_points)
    return _result(m, f, g, "delta-divergence")


def _result(m: Maximisation, f, g, method: str, note: str = "", source: str = SOURCE) -> Result:
    eps = None
    if 0 < m.argmax < 1:
        eps = float(np.log(m.argmax) - np.log1p(-m.argmax))
    notes = [n for n in (note, "" if m.exact else _enclosure_note(f, g)) if n]
    return Result("delta-divergence", m.lower, m.upper, Kind.EXACT, Status.PROVEN, method, source,
                  "; ".join(notes), params={"prior": m.argmax, "epsilon": eps, "grid_points": int(len(m.grid))})


def _enclosure_note(f, g) -> str:
    notes = {be.enclosure(c).note for c in (f, g) if isinstance(c, tradeoff.TradeOff)
             and not isinstance(c, (tradeoff.PiecewiseLinear, tradeoff.Gaussian, tradeoff.Laplace))}
    return "; ".join(sorted(notes))


def delta_divergence_from_profiles(delta_f, delta_g, *, abs_err: float = 0.0, breakpoints=(),
                                   tol: float = DEFAULT_TOL, max_points: int = DEFAULT_MAX_POINTS) -> Result:
    """Delta(M || M~) = max{0, sup_eps (delta~(eps) - delta(eps)) / (1 + e^eps)} from the privacy
    profiles (digest §2, Corollary 1 [D]; Theorem 2 clause (2)).

    ``delta_f``, ``delta_g`` are vectorised functions of epsilon on the whole real line (for a
    trade-off function ``f``, ``f.delta``), known to ``abs_err`` each. The supremum is taken in the
    variable pi = e^eps/(1 + e^eps), where (1 - pi)(delta~ - delta) = R(pi) - R~(pi) is a
    difference of concave 1-Lipschitz functions, by the certified maximisation of
    :func:`delta_divergence`.
    """
    ef = be.from_profile(delta_f, abs_err, breakpoints)
    eg = be.from_profile(delta_g, abs_err, breakpoints)
    m = maximise_difference(ef, eg, tol=tol, max_points=max_points)
    return _result(m, None, None, "delta-divergence-profile", "route: privacy profiles",
                   "Kaissis et al. (2024), Theorem 2 clause (2); digest §2 Corollary 1 [D]")


def symmetric_delta(f, g, *, tol: float = DEFAULT_TOL, max_points: int = DEFAULT_MAX_POINTS) -> Result:
    """Delta<->(M, M~) = max(Delta(M || M~), Delta(M~ || M)) = ||R - R~||_inf (Kaissis et al.
    2024, Definition 3, Corollary 2: a metric on mechanisms up to equivalence; Lemma B.1: the Levy
    distance between the CDFs f(1 - x) and f~(1 - x))."""
    fw = delta_divergence(f, g, tol=tol, max_points=max_points)
    bw = delta_divergence(g, f, tol=tol, max_points=max_points)
    hi = fw if fw.upper >= bw.upper else bw
    note = "; ".join(dict.fromkeys(n for n in (fw.note, bw.note) if n))
    return Result("delta-divergence-symmetric", max(fw.lower, bw.lower), max(fw.upper, bw.upper), Kind.EXACT,
                  Status.PROVEN, "delta-divergence-symmetric", SOURCE_SYM, note,
                  params={"prior": hi.params["prior"], "forward": [fw.lower, fw.upper],
                          "backward": [bw.lower, bw.upper]})


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
    lo, hi = 0.0, 0.5  # Delta <= alpha* <= 1/2 (digest §2)
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        if _excess(fa, fb, ga, gb, mid) <= 0:
            hi = mid
        else:
            lo = mid
    # an error m in h moves the feasibility threshold by at most m (h falls at rate >= 1 in kappa)
    return max(0.0, rounding.down(lo, margin)), rounding.up(hi, margin)


def sandwich(f, points: int = 2000) -> tuple[tradeoff.PiecewiseLinear, tradeoff.PiecewiseLinear]:
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
    alphas = np.unique(np.concatenate([[0.0, 1.0], 1.0 / (1.0 + np.exp(-u)), np.linspace(0, 1, points // 4)]))
    vals = np.asarray(f(alphas), dtype=float)
    up_vals = np.minimum(rounding.up(vals, be.CLOSED_FORM_ABS_ERR + 4 * EPS), 1.0 - alphas)
    up_vals = np.maximum(up_vals, 0.0)
    hx, hy = tradeoff._lower_hull(list(alphas), list(up_vals))
    upper = tradeoff.from_knots(hx, hy, tol=1e-15)
    # lower: lines l_k(alpha) = c_k - s_k alpha, c_k = R_lo(pi_k)/(1 - pi_k), s_k = pi_k/(1 - pi_k)
    pis = np.unique(np.concatenate([1.0 / (1.0 + np.exp(-u)), [0.0]]))
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
    hx, hy = tradeoff._lower_hull(list(ka), list(kb))
    return tradeoff.from_knots(hx, hy, tol=1e-15)


def delta_divergence_definition(f, g, *, points: int = 2000) -> Result:
    """Delta(M || M~) by Definition 1: the smallest kappa with f(alpha + kappa) - kappa <= f~(alpha)
    for all alpha, by bisection on kappa (Kaissis et al. 2024, Definition 1).

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
    between the CDFs' knots and the shifted knots, so they are checked exactly); by bisection.
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
        pts = np.concatenate([pts, np.nextafter(pts, -np.inf), np.nextafter(pts, np.inf)])
        left = cdf(wx, wy, pts - lam) - lam <= cdf(vx, vy, pts) + 8 * EPS
        right = cdf(vx, vy, pts) <= cdf(wx, wy, pts + lam) + lam + 8 * EPS
        return bool(np.all(left) and np.all(right))

    lo, hi = 0.0, 1.0
    if ok(0.0):
        hi = 0.0
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return Result("levy-distance", max(0.0, rounding.down(lo, 16 * EPS)), rounding.up(hi, 16 * EPS), Kind.EXACT,
                  Status.PROVEN, "levy-distance", "Kaissis et al. (2024), Lemma B.1, eq. (32)")
