"""Certified Bayes error functions R_min(pi) of trade-off functions.

R_min(pi) = min_{alpha in [0,1]} (pi alpha + (1 - pi) f(alpha)) (Kaissis et al. 2024, eq. (2),
pi multiplying alpha as printed; the digest's §6 item 16 notes that the convention is immaterial
for symmetric f). It is concave, 1-Lipschitz, R(0) = R(1) = 0 and R(pi) <= min(pi, 1 - pi).

:func:`enclosure` gives, for any supported trade-off function, a vectorised function
``pi -> (lower, upper)`` that encloses R_min(pi) with every float error accounted for, the
breakpoints where R_min has a kink (the knots of a piecewise-linear R), and the minimising
alpha (the witness of Theorem 1 clause 1). Supported:

* :class:`~dptheory.tradeoff.PiecewiseLinear`: exact, R(pi) = min over knots of
  pi a_k + (1 - pi) b_k; the function is its canonical pair (masses p_j, q_j), the knots their
  cumulative sums (rounding error at most n EPS); the kinks of R are at q_j/(p_j + q_j);
* :class:`~dptheory.tradeoff.Gaussian`: the closed form of the digest §1.10
  (``GAUSSIAN_BAYES_ERROR``), evaluated with ``scipy.special.ndtr``;
* :class:`~dptheory.tradeoff.Laplace`: min{pi, 1 - pi, e^{-mu/2} sqrt(pi (1 - pi))}
  (digest §1.11, formula ``laplace-bayes-error``), kinks at 1/(1 + e^mu) and e^mu/(1 + e^mu);
* any other :class:`~dptheory.tradeoff.TradeOff`: its own ``bayes_error`` (the convex
  conjugate), trusted to ``rounding.CLOSED_FORM_RTOL`` absolute; the note of a result says so;
* the privacy-profile route: R(pi) = (1 - pi)(1 - delta(logit pi)) (digest §5.2 item 4) from
  any function delta(epsilon) with an absolute error.
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
    alpha, whether the enclosure is exact up to rounding, and a note on its error model."""

    bounds: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
    breakpoints: np.ndarray
    argmin_alpha: Callable[[np.ndarray], np.ndarray]
    piecewise_linear: bool
    note: str = ""


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
    (digest §1.10; 0 at pi in {0, 1}; min(pi, 1 - pi) at mu = 0)."""
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
    """The optimal alpha(pi) = Phi(-mu/2 - logit(pi)/mu) of G_mu (digest §1.10)."""
    pi = np.asarray(pi, dtype=float)
    if mu == 0:
        return np.where(pi < 0.5, 1.0, 0.0)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        return special.ndtr(-mu / 2 - logit(pi) / mu)


def laplace_bayes_error(mu: float, pi: np.ndarray) -> np.ndarray:
    """min{pi, 1 - pi, e^{-mu/2} sqrt(pi (1 - pi))} (digest §1.11)."""
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
    whole real line, known to ``abs_err`` (digest §5.2 item 4; Theorem 2's clauses (2) and (3)
    are the same statement under pi = e^eps/(1 + e^eps))."""
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
