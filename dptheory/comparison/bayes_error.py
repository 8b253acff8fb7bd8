"""Certified Bayes error functions R_min(pi) of trade-off functions.

R_min(pi) = min_{alpha in [0,1]} (pi alpha + (1 - pi) f(alpha)) (Kaissis et al. 2024, eq. (2),
pi multiplying alpha as printed; for a symmetric f the convention is immaterial: R(pi) =
R(1 - pi)). It is concave, 1-Lipschitz, R(0) = R(1) = 0 and R(pi) <= min(pi, 1 - pi).

:func:`enclosure` gives, for any supported trade-off function, a vectorised function
``pi -> (lower, upper)`` that encloses R_min(pi) with every float error accounted for, the
breakpoints where R_min has a kink (the knots of a piecewise-linear R), and the minimising
alpha (the witness of Theorem 1 clause 1). Supported:

* :class:`~dptheory.tradeoff.PiecewiseLinear`: exact, R(pi) = min over knots of
  pi a_k + (1 - pi) b_k; the function is its canonical pair (masses p_j, q_j), the knots their
  cumulative sums (rounding error at most n EPS); the kinks of R are at q_j/(p_j + q_j);
* :class:`~dptheory.tradeoff.Gaussian`: the closed form ``gdp-bayes-error`` (derived here,
  derivations/delta_divergence_gaussian.py), evaluated with ``scipy.special.ndtr``;
* :class:`~dptheory.tradeoff.Laplace`: min{pi, 1 - pi, e^{-mu/2} sqrt(pi (1 - pi))}
  (formula ``laplace-bayes-error``, derived here: derivations/delta_divergence_laplace.py), kinks
  at 1/(1 + e^mu) and e^mu/(1 + e^mu);
* any other :class:`~dptheory.tradeoff.TradeOff`: its own ``bayes_error`` (the convex
  conjugate), trusted to ``rounding.CLOSED_FORM_RTOL`` absolute; the note of a result says so;
* the privacy-profile route: R(pi) = (1 - pi)(1 - delta(logit pi)) (derived here from eq. (2)
  and eq. (25), delta(eps) = 1 + f*(-e^eps): R(pi) = -(1 - pi) f*(-pi/(1 - pi)); checked in
  derivations/blackwell_dominance.py) from any function delta(epsilon) with an absolute error;
* a privacy loss distribution (:func:`pld_enclosure`): a pessimistic PLD is a pair whose
  trade-off function lies below the mechanism's, so its Bayes error is a certified LOWER end;
  an optimistic one (losses rounded down) gives a profile below the mechanism's at every
  epsilon, hence, by R(pi) = pi (1 - H_{(1-pi)/pi}(P || Q)), a certified UPPER end;
* :func:`combine` (a lower end from one curve, an upper end from another: the enclosure of a
  mechanism known through a lower and an upper bound of its trade-off function) and
  :func:`minimum` (R of min(f, g)** is min(R_f, R_g): the add/remove symmetrisation).

Every enclosure also says how to bound R from above inside a cell between two of its grid
points (``upper_lines``): the chord of its upper end where R is linear between its breakpoints
(piecewise-linear curves, PLDs), the extensions of the neighbouring secants where it is merely
concave, the components' chords for a minimum; the caps pi and 1 - pi always.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

import numpy as np
from scipy import special

from .. import rounding, tradeoff, validate

EPS = rounding.EPS

#: absolute error of the float64 Bayes error of G_mu and of the Laplace curve (a handful of
#: correctly rounded operations on numbers in [0, 1] and ``ndtr``, whose absolute error is below
#: 2e-16 on the reals: tests/test_comparison_bayes.py measures both against mpmath at 50 digits,
#: maximal errors below 4e-16; the bound is 64 EPS)
CLOSED_FORM_ABS_ERR = 64 * EPS



@dataclasses.dataclass(frozen=True)
class BayesEnclosure:
    """R_min of one curve: ``bounds(pi) -> (lower, upper)`` (arrays), its kinks, the minimising
    alpha, whether R is linear between its breakpoints (``piecewise_linear``), a note on its
    error model, and ``upper_lines(x, lo, hi) -> (a, b)``: for each cell [x_i, x_{i+1}] of a grid
    containing the breakpoints, lines a_k + b_k t (t = pi - x_i, arrays of shape (cells, k))
    whose minimum bounds R from above on the cell (default: :func:`secant_lines`, valid for any
    concave R; :func:`chord_lines` where R is linear between the breakpoints)."""

    bounds: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
    breakpoints: np.ndarray
    argmin_alpha: Callable[[np.ndarray], np.ndarray]
    piecewise_linear: bool
    note: str = ""
    upper_lines: Callable | None = None

    def lines(self, x, lo, hi):
        """The lines bounding R from above on each cell of the grid x (see the class text)."""
        fn = self.upper_lines or (chord_lines if self.piecewise_linear else secant_lines)
        return fn(x, lo, hi)


def secant_lines(x, lo, hi):
    """Lines above a concave R on each cell [x_i, x_{i+1}], from its enclosure at the grid: the
    extension of the secant of the cell to the left (its slope is at least the cell's, and it is
    computed from the upper end at x_i and the lower end at x_{i-1}, so it is an upper bound of
    the true secant's slope) and of the cell to the right. Slopes are clipped to [-1, 1] (R is
    1-Lipschitz)."""
    n = len(x)
    h = np.diff(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        s_left = np.ones(n - 1)
        if n > 2:
            s_left[1:] = np.minimum((hi[1:-1] - lo[:-2]) / (x[1:-1] - x[:-2]), 1.0)
        s_right = -np.ones(n - 1)
        if n > 2:
            s_right[:-1] = np.maximum((lo[2:] - hi[1:-1]) / (x[2:] - x[1:-1]), -1.0)
    s_left = np.where(np.isfinite(s_left), s_left, 1.0)
    s_right = np.where(np.isfinite(s_right), s_right, -1.0)
    # with the caps pi and 1 - pi (R <= min(pi, 1 - pi))
    a = np.stack([hi[:-1], hi[1:] - s_right * h, x[:-1], 1.0 - x[:-1]], axis=1)
    b = np.stack([s_left, s_right, np.ones_like(h), -np.ones_like(h)], axis=1)
    return a, b


def chord_lines(x, lo, hi):
    """The chord of the upper end on each cell: R is linear between consecutive grid points when
    the grid contains every breakpoint (piecewise-linear R)."""
    h = np.diff(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        b = np.where(h > 0, (hi[1:] - hi[:-1]) / h, 0.0)
    return hi[:-1, None], b[:, None]


def logit(pi: np.ndarray) -> np.ndarray:
    """log(pi / (1 - pi)) (inf at 1, -inf at 0)."""
    with np.errstate(divide="ignore"):
        return np.log(pi) - np.log1p(-pi)


# ------------------------------------------------------------------------ piecewise linear
def _pl_parts(f: tradeoff.PiecewiseLinear):
    """Knots (alpha_k, beta_k) and the kink q_j/(p_j + q_j) of R for each segment, from the masses
    of the canonical pair (sorted by likelihood ratio, so the kinks decrease; differences of the
    knots would lose them where a cumulative sum is near 1)."""
    a = np.asarray(f.knots_alpha, dtype=float)
    b = np.asarray(f.knots_beta, dtype=float)
    p = np.asarray(f.p_mass, dtype=float)
    q = np.asarray(f.q_mass, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        brk = np.where(p + q > 0, q / (p + q), np.nan)
    return a, b, brk


def pl_abs_err(f: tradeoff.PiecewiseLinear) -> float:
    """Absolute error of R_min of a piecewise-linear f evaluated from its knots: the knots are
    cumulative sums of the n masses (error <= n EPS), and pi a + (1 - pi) b adds four roundings."""
    return (len(f.p_mass) + 8) * EPS


def pl_bayes_error(f: tradeoff.PiecewiseLinear, pi: np.ndarray) -> np.ndarray:
    """R_min(pi) = min_k (pi a_k + (1 - pi) b_k) of a piecewise-linear f, float64.

    The minimising knot is located by binary search on the kinks and confirmed among its two
    neighbours (the objective is convex in k, so a local minimum is the global one).
    """
    a, b, brk = _pl_parts(f)
    pi = np.asarray(pi, dtype=float)
    k = _pl_index(brk, pi, len(a))
    best = np.full(pi.shape, np.inf)
    for shift in (-1, 0, 1):
        j = np.clip(k + shift, 0, len(a) - 1)
        best = np.minimum(best, pi * a[j] + (1.0 - pi) * b[j])
    return best


def _pl_index(brk: np.ndarray, pi: np.ndarray, n_knots: int) -> np.ndarray:
    """Index of the knot minimising pi a_k + (1 - pi) b_k (up to one position)."""
    valid = ~np.isnan(brk)
    idx = np.nonzero(valid)[0]
    keys = -brk[valid]  # increasing
    pos = np.searchsorted(keys, -pi, side="left")
    # pos segments (in order) have kink above pi: the minimiser is after them
    out = np.where(pos < len(idx), idx[np.minimum(pos, len(idx) - 1)], n_knots - 1)
    return out


def _float_pl(f: tradeoff.PiecewiseLinear) -> tradeoff.PiecewiseLinear:
    if f.digits is None:
        return f
    return tradeoff.PiecewiseLinear(np.asarray(f.p_mass, dtype=float), np.asarray(f.q_mass, dtype=float))


def pl_kinks_ascending(f: tradeoff.PiecewiseLinear) -> np.ndarray:
    """The kinks q_j/(p_j + q_j) of R_min, one per segment, in increasing order (the segments
    are sorted by likelihood ratio, so this is the reversed list; no sort)."""
    f = _float_pl(f)
    p = np.asarray(f.p_mass, dtype=float)
    q = np.asarray(f.q_mass, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        brk = np.where(p + q > 0, q / (p + q), 0.0)
    return brk[::-1]


def pl_bayes_error_at(f: tradeoff.PiecewiseLinear, pi: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """R_min(pi) = min_k (pi a_k + (1 - pi) b_k) when ``taken`` (the number of segments whose
    kink is above pi) locates the minimising knot; its two neighbours are tried too (the float
    kinks may misplace it by one)."""
    f = _float_pl(f)
    a = np.asarray(f.knots_alpha, dtype=float)
    b = np.asarray(f.knots_beta, dtype=float)
    best = np.full(np.shape(pi), np.inf)
    for shift in (-1, 0, 1):
        j = np.clip(taken + shift, 0, len(a) - 1)
        best = np.minimum(best, pi * a[j] + (1.0 - pi) * b[j])
    return best


def _pl_argmin(f: tradeoff.PiecewiseLinear, pi: np.ndarray) -> np.ndarray:
    a, b, brk = _pl_parts(f)
    pi = np.asarray(pi, dtype=float)
    k = _pl_index(brk, pi, len(a))
    cands = np.stack([np.clip(k + s, 0, len(a) - 1) for s in (-1, 0, 1)])
    vals = pi * a[cands] + (1.0 - pi) * b[cands]
    return a[cands[np.argmin(vals, axis=0), np.arange(pi.size)]] if pi.ndim else a[cands[np.argmin(vals)]]


def pl_breakpoints(f: tradeoff.PiecewiseLinear) -> np.ndarray:
    """The kinks pi_k = db/(da + db) of R_min, one per segment of f, increasing."""
    brk = _pl_parts(f)[2]
    brk = brk[~np.isnan(brk)]
    return np.unique(np.clip(brk, 0.0, 1.0))


# ------------------------------------------------------------------------ closed forms
def gaussian_bayes_error(mu: float, pi: np.ndarray) -> np.ndarray:
    """R_min of G_mu: pi Phi(-mu/2 - l/mu) + (1 - pi) Phi(-mu/2 + l/mu), l = logit pi
    (derivations/delta_divergence_gaussian.py; 0 at pi in {0, 1}; min(pi, 1 - pi) at mu = 0)."""
    pi = np.asarray(pi, dtype=float)
    if mu == 0:
        return np.minimum(pi, 1.0 - pi)
    lam = logit(pi)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        x = -mu / 2 - lam / mu
        y = -mu - x  # the same alpha's beta: G_mu(Phi(x)) = Phi(-x - mu)
        out = pi * special.ndtr(x) + (1.0 - pi) * special.ndtr(y)
    return np.where((pi <= 0) | (pi >= 1), 0.0, out)


def gaussian_argmin(mu: float, pi: np.ndarray) -> np.ndarray:
    """The optimal alpha(pi) = Phi(-mu/2 - logit(pi)/mu) of G_mu (where G_mu'(alpha) = -pi/(1 - pi):
    derivations/delta_divergence_gaussian.py)."""
    pi = np.asarray(pi, dtype=float)
    if mu == 0:
        return np.where(pi < 0.5, 1.0, 0.0)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        return special.ndtr(-mu / 2 - logit(pi) / mu)


def laplace_bayes_error(mu: float, pi: np.ndarray) -> np.ndarray:
    """min{pi, 1 - pi, e^{-mu/2} sqrt(pi (1 - pi))} (derivations/delta_divergence_laplace.py)."""
    pi = np.asarray(pi, dtype=float)
    return np.minimum(np.minimum(pi, 1.0 - pi), math.exp(-mu / 2) * np.sqrt(pi * (1.0 - pi)))


def laplace_argmin(mu: float, pi: np.ndarray) -> np.ndarray:
    """Optimal alpha of the Laplace curve at prior pi: on the 1/(4 alpha) branch the slope
    -e^{-mu}/(4 alpha^2) equals -pi/(1 - pi); outside the branch the ends 0 or 1, and the kinks
    e^{-mu}/2 and 1/2 where the slope has a jump."""
    pi = np.asarray(pi, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        inner = 0.5 * math.exp(-mu / 2) * np.sqrt((1.0 - pi) / pi)
    lo, hi = 0.5 * math.exp(-mu), 0.5
    out = np.clip(inner, lo, hi)
    out = np.where(pi >= math.exp(mu) / (1 + math.exp(mu)), 0.0, out)
    out = np.where(pi <= 1 / (1 + math.exp(mu)), 1.0, out)
    return out


def _generic_argmin(f: tradeoff.TradeOff, pi: np.ndarray) -> np.ndarray:
    from scipy import optimize

    pi = np.atleast_1d(np.asarray(pi, dtype=float))
    out = []
    for p in pi:
        res = optimize.minimize_scalar(lambda x: p * x + (1 - p) * float(f(x)), bounds=(0.0, 1.0), method="bounded",
                                       options={"xatol": 1e-12})
        cands = [(p * x + (1 - p) * float(f(x)), x) for x in (0.0, 1.0, float(res.x))]
        out.append(min(cands)[1])
    return np.array(out)


# ------------------------------------------------------------------------ dispatch
def _widen(fn: Callable[[np.ndarray], np.ndarray], err: float):
    def bounds(pi):
        v = fn(pi)
        pi = np.asarray(pi, dtype=float)
        cap = np.minimum(pi, 1.0 - pi)  # exact in float64 (Sterbenz for pi >= 1/2)
        lo = np.minimum(np.maximum(rounding.down(v, err), 0.0), cap)
        hi = np.minimum(rounding.up(v, err), cap)  # R <= min(pi, 1 - pi)
        return lo, np.maximum(hi, lo)
    return bounds


def enclosure(f) -> BayesEnclosure:
    """The certified Bayes error function of a trade-off function ``f`` (see the module text)."""
    if isinstance(f, tradeoff.PiecewiseLinear):
        if f.digits is not None:
            f = tradeoff.PiecewiseLinear(np.asarray(f.p_mass, dtype=float), np.asarray(f.q_mass, dtype=float))
        return BayesEnclosure(_widen(lambda p: pl_bayes_error(f, p), pl_abs_err(f)), pl_breakpoints(f),
                              lambda p: _pl_argmin(f, p), True, "piecewise linear: exact up to rounding")
    if isinstance(f, tradeoff.Gaussian):
        mu = f.mu
        return BayesEnclosure(_widen(lambda p: gaussian_bayes_error(mu, p), CLOSED_FORM_ABS_ERR), np.array([0.5]),
                              lambda p: gaussian_argmin(mu, p), False, "G_mu: closed form")
    if isinstance(f, tradeoff.Laplace):
        mu = f.mu
        kinks = np.array([1 / (1 + math.exp(mu)), 0.5, math.exp(mu) / (1 + math.exp(mu))])
        return BayesEnclosure(_widen(lambda p: laplace_bayes_error(mu, p), CLOSED_FORM_ABS_ERR), kinks,
                              lambda p: laplace_argmin(mu, p), False, "Laplace: closed form")
    if isinstance(f, tradeoff.TradeOff):
        err = rounding.CLOSED_FORM_RTOL
        return BayesEnclosure(_widen(lambda p: np.asarray(f.bayes_error(p), dtype=float), err), np.array([0.5]),
                              lambda p: _generic_argmin(f, p), False,
                              f"{type(f).__name__}: its bayes_error (convex conjugate) trusted to {err:g}")
    raise validate.DomainError(f"f = {f!r} is invalid: must be a dptheory.tradeoff.TradeOff")


def from_profile(delta_fn: Callable[[np.ndarray], np.ndarray], abs_err: float, breakpoints=(),
                 note: str = "privacy profile") -> BayesEnclosure:
    """R_min(pi) = (1 - pi)(1 - delta(logit pi)) from a privacy profile ``delta_fn`` defined on the
    whole real line, known to ``abs_err`` (derived here, see the module text; Theorem 2's clauses
    (2) and (3) are the same statement under pi = e^eps/(1 + e^eps))."""
    err = validate.nonnegative("abs_err", abs_err)

    def value(pi):
        pi = np.asarray(pi, dtype=float)
        inner = (pi > 0) & (pi < 1)
        out = np.zeros_like(pi)
        if np.any(inner):
            p = pi[inner]
            out[inner] = (1.0 - p) * (1.0 - np.asarray(delta_fn(logit(p)), dtype=float))
        return out

    def argmin(pi):
        raise validate.DomainError("the privacy-profile route gives no optimal alpha")

    return BayesEnclosure(_widen(value, err + 4 * EPS), np.asarray(breakpoints, dtype=float), argmin, False, note)


# ------------------------------------------------------------------------ privacy loss distributions
#: absolute slack of PLD-based enclosures for the kinks' own rounding (a kink 1/(1 + e^l) is
#: within a few ulps of the true one; R changes slope by at most 2 there)
PLD_KINK_SLACK = 16 * EPS


def _cap(pi):
    return np.minimum(pi, 1.0 - pi)


def pld_enclosure(pld) -> BayesEnclosure:
    """One end of the Bayes error of the trade-off function T(P, Q) a PLD stands for.

    With masses m_i at losses l_i = log(P/Q) (Q-mass m_i e^{-l_i}) the Bayes error of the pair
    is R(pi) = sum_i min(pi m_i, (1 - pi) m_i e^{-l_i}) = pi (1 - H_{(1-pi)/pi}(P || Q))
    (Kaissis et al. 2024, eq. (2); the optimal test rejects where the loss is below
    logit((1 - pi)/pi)); it is linear in pi between the kinks 1/(1 + e^{l_i}).

    * A **pessimistic** PLD (:class:`dptheory.pld.PLD`) is the PLD of a pair dominating the
      mechanism's: its Bayes error is a certified LOWER end of the mechanism's. The upper end
      returned is the trivial min(pi, 1 - pi).
    * An **optimistic** PLD gives, at every epsilon, a privacy profile below the mechanism's; in
      R(pi) = pi (1 - H) = pi (1 - M) + sum_i min(pi m_i, (1 - pi) m_i e^{-l_i}) (M the held
      mass, the +inf atom included) that is a certified UPPER end (and the trade-off function
      it stands for lies above the mechanism's). The lower end returned is 0.

    Error model (the PLD's): held masses within ``rel_error`` relatively plus absolute errors
    e_i with sum e_i <= ``abs_error`` at tilt 0; every weight min(pi, (1 - pi) e^{-l}) and
    pi - that weight is in [0, pi], so the absolute errors move R by at most pi * abs_error
    (a tilted error model would weigh errors at very negative losses without bound: the PLD must
    have tilt 0). The float sums add (n + 8) ulps relatively, each kink a few ulps
    (:data:`PLD_KINK_SLACK`).
    """
    if pld.tilt != 0:
        raise validate.DomainError(f"tilt = {pld.tilt!r} is invalid here: the Bayes error of a PLD is certified for "
                                   "tilt 0 (build the PLD with tilt=0.0)")
    lm_all = np.asarray(pld.log_mass, dtype=float)
    keep = np.isfinite(lm_all)
    l = ((pld.offset + np.arange(len(lm_all))) * pld.interval)[keep]
    lm = lm_all[keep]
    n = len(lm)
    m = np.exp(lm)
    q = np.exp(lm - l)
    a_cum = np.concatenate([[0.0], np.cumsum(m)])                 # A_J = sum_{i<J} m_i
    b_cum = np.concatenate([np.cumsum(q[::-1])[::-1], [0.0]])     # B_J = sum_{i>=J} q_i
    inf_mass = math.exp(pld.log_inf_mass) if pld.log_inf_mass > -math.inf else 0.0
    total = float(a_cum[-1]) + inf_mass
    kinks_desc = special.expit(-l)                                  # decreasing in i
    kinks = kinks_desc[::-1].copy()
    big = float(np.max(np.abs(lm), initial=0.0) + np.max(np.abs(lm - l), initial=0.0))
    rho = EPS * (4 + big) + (n + 8) * EPS                           # relative error of A, B, M
    r, e_abs, e_inf = float(pld.rel_error), float(pld.abs_error), float(pld.inf_error)
    pessimistic = bool(pld.pessimistic)

    def index(pi):
        """J(pi) = #{i: kink_i >= pi}: the losses below logit((1 - pi)/pi) are rejected."""
        return n - np.searchsorted(kinks, pi, side="left")

    def value(pi):
        pi = np.asarray(pi, dtype=float)
        j = index(pi)
        best = np.full(pi.shape, np.inf)
        for shift in (-1, 0, 1):  # the minimum over J; the float kinks may misplace J by one
            jj = np.clip(j + shift, 0, n)
            best = np.minimum(best, pi * a_cum[jj] + (1.0 - pi) * b_cum[jj])
        return best, j

    if pessimistic:
        def bounds(pi):
            pi = np.asarray(pi, dtype=float)
            v, _ = value(pi)
            lo = v * (1.0 - r - rho) - pi * e_abs - PLD_KINK_SLACK
            lo = np.clip(rounding.down(lo), 0.0, None)
            cap = _cap(pi)
            return np.minimum(lo, cap), cap

        def argmin(pi):
            _, j = value(np.asarray(pi, dtype=float))
            return a_cum[np.clip(j, 0, n)]

        note = f"pessimistic PLD (interval {pld.interval:g}): a lower end"
    else:
        def bounds(pi):
            pi = np.asarray(pi, dtype=float)
            v, _ = value(pi)
            held = np.maximum(pi * total - v - rho * (pi * total + v) - 4 * EPS, 0.0)  # sum m (pi - w) + pi m_inf
            hi = pi - (1.0 - r) * held + pi * (e_abs + e_inf) + PLD_KINK_SLACK
            cap = _cap(pi)
            hi = np.minimum(rounding.up(hi), cap)
            return np.zeros_like(pi), hi

        def argmin(pi):
            _, j = value(np.asarray(pi, dtype=float))
            return np.clip(1.0 - total + a_cum[np.clip(j, 0, n)], 0.0, 1.0)

        note = f"optimistic PLD (interval {pld.interval:g}): an upper end"
    brk = np.concatenate([kinks, [0.5]])
    return BayesEnclosure(bounds, brk, argmin, True, note)


def combine(lower: BayesEnclosure | None, upper: BayesEnclosure | None) -> BayesEnclosure:
    """The enclosure of a mechanism's R from the lower end of ``lower`` (the Bayes error of a
    curve below its trade-off function) and the upper end of ``upper`` (of a curve above it);
    None: the trivial ends 0 (M_BNP) and min(pi, 1 - pi) (M_PP, Lemma 2)."""
    parts = [e for e in (lower, upper) if e is not None]
    brk = np.unique(np.concatenate([e.breakpoints for e in parts] + [np.array([0.5])]))

    def bounds(pi):
        pi = np.asarray(pi, dtype=float)
        lo = lower.bounds(pi)[0] if lower is not None else np.zeros_like(pi)
        hi = upper.bounds(pi)[1] if upper is not None else _cap(pi)
        return lo, np.maximum(hi, lo)

    def lines(x, lo, hi):
        if upper is None:
            return chord_lines(x, lo, hi)
        ulo, uhi = upper.bounds(x)
        return upper.lines(x, ulo, np.maximum(uhi, hi))

    def argmin(pi):
        return (upper or lower).argmin_alpha(pi)

    pl = upper.piecewise_linear if upper is not None else True
    note = "; ".join(e.note for e in parts if e.note)
    return BayesEnclosure(bounds, brk, argmin, pl, note, lines)


def minimum(first: BayesEnclosure, second: BayesEnclosure) -> BayesEnclosure:
    """R of min(f, g)** (the largest convex function below both) is min(R_f, R_g): used for the
    add/remove symmetrisation min(f, f^-1)** of a mechanism whose two neighbouring directions
    are computed separately (dp_accounting's add/remove convention). Between grid points
    containing both sets of breakpoints the minimum of the two components' upper lines bounds it
    from above."""
    brk = np.unique(np.concatenate([first.breakpoints, second.breakpoints]))

    def bounds(pi):
        a_lo, a_hi = first.bounds(pi)
        b_lo, b_hi = second.bounds(pi)
        lo, hi = np.minimum(a_lo, b_lo), np.minimum(a_hi, b_hi)
        return lo, np.maximum(hi, lo)

    def lines(x, lo, hi):
        out_a, out_b = [], []
        for e in (first, second):
            elo, ehi = e.bounds(x)
            a, b = e.lines(x, elo, ehi)
            out_a.append(a)
            out_b.append(b)
        return np.concatenate(out_a, axis=1), np.concatenate(out_b, axis=1)

    def argmin(pi):
        pi = np.asarray(pi, dtype=float)
        pick = first.bounds(pi)[1] <= second.bounds(pi)[1]
        return np.where(pick, first.argmin_alpha(pi), second.argmin_alpha(pi))

    return BayesEnclosure(bounds, brk, argmin, False, "; ".join(dict.fromkeys(e.note for e in (first, second))), lines)


def from_certified_profile(f, breakpoints=(), note: str = "") -> BayesEnclosure:
    """R_min(pi) = (1 - pi)(1 - delta(logit pi)) from the certified privacy profile of a
    trade-off function (its ``log_delta_enclosure``, one epsilon at a time): the error is the
    library's own."""

    def bounds(pi):
        pi = np.asarray(pi, dtype=float)
        flat = np.atleast_1d(pi)
        lo = np.zeros_like(flat)
        hi = np.zeros_like(flat)
        for i, p in enumerate(flat):
            if not 0 < p < 1:
                continue
            eps = math.log(p) - math.log1p(-p)
            d_lo, d_hi = f.log_delta_enclosure(eps)
            # R = (1 - pi)(1 - delta): decreasing in delta
            lo[i] = (1.0 - p) * -math.expm1(d_hi) if d_hi < 0 else 0.0
            hi[i] = (1.0 - p) * -math.expm1(d_lo) if d_lo > -math.inf else 1.0 - p
        cap = _cap(flat)
        lo = np.minimum(np.maximum(rounding.down(lo, 0.0, 4 * EPS), 0.0), cap)
        hi = np.minimum(rounding.up(hi, 0.0, 4 * EPS), cap)
        return lo.reshape(pi.shape), np.maximum(hi, lo).reshape(pi.shape)

    def argmin(pi):
        raise validate.DomainError("the privacy-profile route gives no optimal alpha")

    return BayesEnclosure(bounds, np.unique(np.concatenate([np.asarray(breakpoints, dtype=float), [0.5]])), argmin,
                          False, note or f"certified privacy profile of {type(f).__name__}")
