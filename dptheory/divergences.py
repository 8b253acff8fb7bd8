"""Divergences between two discrete distributions on the same support.

Each function has a float64 path (log space, vectorised over the divergence parameter) and an
mpmath path, selected with ``digits``. The mpmath path re-evaluates at growing working precision
until the requested number of digits is stable (:func:`dptheory.precision.mp_adaptive`), so a
tiny hockey-stick divergence that is a difference of nearly equal masses still has every digit
right.

Conventions (Dong, Roth, Su 2022, Appendix B; Wang et al. 2023, erratum on F(0)):
``D_F(P||Q) = sum_{p,q>0} q F(p/q) + F(0) Q[p=0] + tau_F P[q=0]`` with ``F(0) = lim_{s->0+} F(s)``
and ``tau_F = lim_{s->inf} F(s)/s``.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import mpmath
import numpy as np

from . import rounding, validate
from .precision import log1mexp, logsumexp, mp_adaptive


def _float_pair(p, q):
    return validate.pmf_pair(p, q)


def _mp_pair(p, q):
    a = validate.mp_pmf("p", p)
    b = validate.mp_pmf("q", q)
    if len(a) != len(b):
        raise validate.DomainError(f"p and q must have the same support length, got {len(a)} and {len(b)}")
    return a, b


def _vectorised(values, fn):
    arr = np.asarray(values, dtype=float)
    out = np.array([fn(v) for v in arr.ravel()], dtype=float).reshape(arr.shape)
    return out if out.ndim else float(out)


# ---------------------------------------------------------------------------- hockey-stick


def log_hockey_stick(p, q, epsilon):
    """log H_{e^epsilon}(P||Q) in float64 (``-inf`` when the divergence is exactly 0).

    Every term ``p_i - e^epsilon q_i`` is formed as ``log p_i + log(1 - e^{epsilon + log q_i - log p_i})``,
    so divergences far below the float64 range are returned as accurate logarithms.
    """
    p, q = _float_pair(p, q)
    eps = validate.real_array("epsilon", epsilon, allow_inf=False)
    with np.errstate(divide="ignore"):
        lp = np.log(p)
        lq = np.log(q)
    support = p > 0
    lp, lq = lp[support], lq[support]

    def one(e):
        gap = e + lq - lp  # log of (e^eps q / p)
        pos = gap < 0
        if not pos.any():
            return -np.inf
        return float(logsumexp(lp[pos] + log1mexp(gap[pos])))

    return _vectorised(eps, one)


def log_hockey_stick_enclosure(p, q, epsilon):
    """Certified float64 enclosure ``(lower, upper)`` of log H_{e^epsilon}(P||Q), vectorised.

    The masses are taken as exact. Each term p_i (1 - e^{g_i}), g_i = epsilon + log q_i - log p_i,
    is enclosed from the error of g_i (three roundings and two logs: at most
    2 EPS (|epsilon| + |log q_i| + |log p_i|) + EPS |g_i|) propagated through log(1 - e^g) at
    both ends of its interval: where g_i cancels (e^epsilon q_i close to p_i) the term's
    enclosure widens instead of being wrong, and a term whose sign is undecided contributes
    [0, its largest value]. The sums add (n + 2) EPS plus EPS |max| (scipy's logsumexp
    subtracts the maximum; each exp, the sum and the log are within an ulp); then both ends are
    rounded outwards.
    """
    eps_arr = validate.real_array("epsilon", epsilon, allow_inf=False)
    p, q = _float_pair(p, q)
    support = p > 0
    with np.errstate(divide="ignore"):
        lp = np.log(p[support])
        lq = np.log(q[support])
    n = int(support.sum())
    EPS = rounding.EPS

    def one(e):
        with np.errstate(invalid="ignore"):
            gap = e + lq - lp
            err = np.where(np.isfinite(lq), 2 * EPS * (abs(e) + np.abs(lq) + np.abs(lp)) + EPS * np.abs(gap), 0.0)
            low_gap, high_gap = gap - err, gap + err
            sure = high_gap < 0      # the term is positive
            maybe = low_gap < 0      # the term may be positive
            t_lo = lp[sure] + log1mexp(high_gap[sure])
            t_hi = lp[maybe] + log1mexp(low_gap[maybe])
            t_lo = t_lo - EPS * (2 * np.abs(lp[sure]) + 2 * np.abs(t_lo - lp[sure]))
            t_hi = t_hi + EPS * (2 * np.abs(lp[maybe]) + 2 * np.abs(t_hi - lp[maybe]))
        lo = float(logsumexp(t_lo)) if t_lo.size else -math.inf
        hi = float(logsumexp(t_hi)) if t_hi.size else -math.inf
        if math.isfinite(lo):
            lo = rounding.down(lo, (n + 2) * EPS + EPS * abs(lo))
        if math.isfinite(hi):
            hi = rounding.up(hi, (n + 2) * EPS + EPS * abs(hi))
        return lo, hi

    flat = np.atleast_1d(eps_arr).astype(float)
    pairs = [one(e) for e in flat]
    lo = np.array([a for a, _ in pairs]).reshape(eps_arr.shape)
    hi = np.array([b for _, b in pairs]).reshape(eps_arr.shape)
    return (lo, hi) if eps_arr.ndim else (float(lo), float(hi))


def hockey_stick(p, q, epsilon, digits=None):
    """Hockey-stick divergence H_{e^epsilon}(P||Q) = sum_i max(p_i - e^epsilon q_i, 0).

    Parameters
    ----------
    p, q : array_like
        Probability vectors on the same support.
    epsilon : float or array_like
        Any real number (vectorised in the float64 path).
    digits : int, optional
        Compute with mpmath at this many decimal digits (returns mpf). Only the sum is carried at
        this precision: float inputs are taken as the exact numbers they are, so the result is
        the divergence of the float pmfs, whose own rounding (up to an ulp per entry, more for
        pmfs computed in float64) is not undone. For the divergence of a mechanism at
        ``digits`` digits, give pmfs computed at that precision (mpmath numbers or strings), or
        use the mechanism's own path (e.g. :func:`dptheory.shuffle.exact_rr.delta_dataset_mp`
        for shuffled binary randomized response, from its definition).

    Returns
    -------
    float, ndarray or mpf
        The divergence of the given pmfs (exact up to rounding). It is the smallest delta for
        which P and Q are (epsilon, delta)-close in this direction (Balle et al. 2018).
    """
    digits = validate.digits(digits)
    if digits is None:
        out = np.exp(log_hockey_stick(p, q, epsilon))
        return out if np.ndim(out) else float(out)
    pm, qm = _mp_pair(p, q)
    eps_values = np.asarray(epsilon, dtype=object)

    def one(e):
        validate.real("epsilon", e)

        def fn():
            g = mpmath.exp(mpmath.mpf(e))
            return mpmath.fsum(max(a - g * b, 0) for a, b in zip(pm, qm))

        return mp_adaptive(fn, digits)

    if eps_values.ndim == 0:
        return one(epsilon)
    return np.array([one(e) for e in eps_values.ravel()], dtype=object).reshape(eps_values.shape)


# ---------------------------------------------------------------------------- Renyi


def renyi(p, q, order, digits=None):
    """Renyi divergence D_lambda(P||Q) = log(sum_i p_i^lambda q_i^(1-lambda)) / (lambda - 1).

    Parameters
    ----------
    order : float or array_like
        Real orders lambda > 1, or ``inf`` (the max divergence log max p/q).
    digits : int, optional
        mpmath precision.

    Returns ``inf`` when P puts mass where Q has none.
    """
    digits = validate.digits(digits)
    if digits is None:
        p, q = _float_pair(p, q)
        lam = validate.real_array("order", order, low=1.0, low_open=True, allow_inf=True)
        support = p > 0
        if np.any(q[support] == 0):
            return _vectorised(lam, lambda _: np.inf)
        lp = np.log(p[support])
        lq = np.log(q[support])

        def one(lv):
            if np.isinf(lv):
                return float(np.max(lp - lq))
            return float(logsumexp(lv * lp + (1.0 - lv) * lq) / (lv - 1.0))

        return _vectorised(lam, one)
    pm, qm = _mp_pair(p, q)
    orders = np.asarray(order, dtype=object)

    def one_mp(lv):
        validate.order("order", lv, allow_inf=True)
        if any(a > 0 and b == 0 for a, b in zip(pm, qm)):
            return mpmath.inf

        def fn():
            if mpmath.isinf(mpmath.mpf(lv)):
                return max(mpmath.log(a / b) for a, b in zip(pm, qm) if a > 0)
            L = mpmath.mpf(lv)
            total = mpmath.fsum(a**L * b ** (1 - L) for a, b in zip(pm, qm) if a > 0)
            return mpmath.log(total) / (L - 1)

        return mp_adaptive(fn, digits)

    if orders.ndim == 0:
        return one_mp(order)
    return np.array([one_mp(v) for v in orders.ravel()], dtype=object).reshape(orders.shape)


# ---------------------------------------------------------------------------- F-divergences


@dataclasses.dataclass(frozen=True, eq=False)
class Generator:
    """The convex generator F of an F-divergence, as a sympy expression in ``s = p/q``.

    ``F(0)`` and ``tau = lim F(s)/s`` are derived symbolically (limits), and the numpy and
    mpmath versions of F are generated from the expression.
    """

    name: str
    expr: sp.Expr
    #: F(0) and tau_F, for generators (Max, Abs) whose limits sympy cannot take
    f0: sp.Expr | None = None
    tau: sp.Expr | None = None

    @functools.cached_property
    def at_zero(self) -> float:
        """F(0) = lim_{s -> 0+} F(s) (Wang et al. 2023, Appendix B.3, corrected from lim F(s)/s:
        docs/errata.md#wang2023-f-at-zero)."""
        sp, S = _sympy()
        return float(self.f0 if self.f0 is not None else sp.limit(self.expr, S, 0, "+"))

    @functools.cached_property
    def slope_at_infinity(self) -> float:
        """tau_F = lim_{s -> inf} F(s)/s."""
        sp, S = _sympy()
        return float(self.tau if self.tau is not None else sp.limit(self.expr / S, S, sp.oo))

    @functools.cached_property
    def _np(self):
        sp, S = _sympy()
        return sp.lambdify(S, self.expr, modules=["scipy", "numpy"])

    @functools.cached_property
    def _mp(self):
        sp, S = _sympy()
        return sp.lambdify(S, self.expr, modules="mpmath")

    def __call__(self, values):
        with np.errstate(all="ignore"):
            out = np.asarray(self._np(np.asarray(values, dtype=float)), dtype=float)
        return np.broadcast_to(out, np.shape(values)).copy() if out.ndim == 0 and np.ndim(values) else out

    def mp(self, value):
        return self._mp(value)


def _sympy():
    """sympy and the symbol s = p/q, imported on first use (the float paths never need them)."""
    import sympy as sp

    from .symbols import s as S

    return sp, S


def generator(name: str, expr, f0=None, tau=None) -> Generator:
    """An F-divergence generator from a sympy expression in :data:`dptheory.symbols.s`."""
    sp, _ = _sympy()
    return Generator(name, sp.sympify(expr), f0, tau)


def _generators() -> dict[str, Generator]:
    sp, S = _sympy()
    return {
        "total-variation": generator("total-variation", sp.Abs(S - 1) / 2, sp.Rational(1, 2), sp.Rational(1, 2)),
        "kl": generator("kl", S * sp.log(S)),
        "chi-squared": generator("chi-squared", (S - 1) ** 2),
        "squared-hellinger": generator("squared-hellinger", (sp.sqrt(S) - 1) ** 2),
        "length": generator("length", sp.sqrt(1 + S**2)),
    }


def __getattr__(name: str):
    # GENERATORS (the named generators) is built on first use: it needs sympy
    if name == "GENERATORS":
        globals()["GENERATORS"] = value = _generators()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def hockey_stick_generator(epsilon) -> Generator:
    """F(s) = max(s - e^epsilon, 0)."""
    sp, S = _sympy()
    gamma = sp.exp(sp.nsimplify(epsilon))
    return generator(f"hockey-stick({epsilon})", sp.Max(S - gamma, 0), 0, 1)


def power_generator(order) -> Generator:
    """F(s) = (s^lambda - lambda (s - 1) - 1) / (lambda (lambda - 1)), whose divergence is
    (exp((lambda - 1) D_lambda) - 1) / (lambda (lambda - 1)) (Wang et al. 2023, Appendix B.3)."""
    sp, S = _sympy()
    lam = sp.nsimplify(order)
    return generator(f"power({order})", (S**lam - lam * (S - 1) - 1) / (lam * (lam - 1)))


def f_divergence(p, q, gen: Generator, digits=None):
    """D_F(P||Q) = sum_{p,q>0} q F(p/q) + F(0) Q[p=0] + tau_F P[q=0]."""
    digits = validate.digits(digits)
    if not isinstance(gen, Generator):
        raise validate.DomainError(f"gen = {gen!r} is invalid: must be a divergences.Generator")
    if digits is None:
        p, q = _float_pair(p, q)
        both = (p > 0) & (q > 0)
        total = float(np.sum(q[both] * gen(p[both] / q[both])))
        q_only = float(np.sum(q[(p == 0)]))
        p_only = float(np.sum(p[(q == 0)]))
        if q_only > 0:
            total += gen.at_zero * q_only
        if p_only > 0:
            total += gen.slope_at_infinity * p_only
        return total
    pm, qm = _mp_pair(p, q)

    def fn():
        terms = [b * gen.mp(a / b) for a, b in zip(pm, qm) if a > 0 and b > 0]
        q_only = mpmath.fsum(b for a, b in zip(pm, qm) if a == 0)
        p_only = mpmath.fsum(a for a, b in zip(pm, qm) if b == 0)
        if q_only > 0:
            terms.append(mpmath.mpf(gen.at_zero) * q_only)
        if p_only > 0:
            terms.append(mpmath.mpf(gen.slope_at_infinity) * p_only)
        return mpmath.fsum(terms)

    return mp_adaptive(fn, digits)


def total_variation(p, q, digits=None):
    """Total variation distance (1/2) sum_i |p_i - q_i| = H_1(P||Q)."""
    digits = validate.digits(digits)
    if digits is None:
        p, q = _float_pair(p, q)
        return 0.5 * math.fsum(np.abs(p - q).tolist())
    pm, qm = _mp_pair(p, q)
    return mp_adaptive(lambda: mpmath.fsum(abs(a - b) for a, b in zip(pm, qm)) / 2, digits)


def kl(p, q, digits=None):
    """Kullback-Leibler divergence sum_i p_i log(p_i / q_i) (``inf`` if P is not << Q)."""
    digits = validate.digits(digits)
    if digits is None:
        p, q = _float_pair(p, q)
        support = p > 0
        if np.any(q[support] == 0):
            return math.inf
        ps, qs = p[support], q[support]
        return float(math.fsum((ps * (np.log(ps) - np.log(qs))).tolist()))
    pm, qm = _mp_pair(p, q)
    if any(a > 0 and b == 0 for a, b in zip(pm, qm)):
        return mpmath.inf
    return mp_adaptive(lambda: mpmath.fsum(a * mpmath.log(a / b) for a, b in zip(pm, qm) if a > 0), digits)
