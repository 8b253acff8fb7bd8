"""Girgis et al. (CCS 2021): the upper bounds on the Renyi DP of the shuffle model (Theorems 3.1 and
3.3, corrected; Corollary 3.2), the mixture variant of their lemmas, and Erlingsson et al.'s bound
as they quote it. Values at the orders given, rounded up (:mod:`dptheory.rounding`); their
formulas, errata and status are in :mod:`.formulas`.

Numerics are in log space: no e^{eps0 lam} or Gamma(i/2) is formed, and the moment excess is
accumulated directly so that an RDP of 1e-12 keeps its digits.

Where the results used here live: the closed forms, errata and status in :mod:`.formulas`; the
certified binomial bucket weights and refinement in :mod:`dptheory.shuffle.binomial_sums`; the
conversion of these curves to (epsilon, delta) (Girgis et al. 2021, Lemma 2.1) in
:mod:`dptheory.rdp` (:func:`dptheory.rdp.epsilon_from_rdp`).
"""

from __future__ import annotations

import functools
import math

import mpmath
import numpy as np

from ... import rounding, validate
from ...precision import log1mexp, logsumexp
from ...results import Curve, Kind, Status
from ..pair_renyi import excess_to_renyi, renyi_width_rule
from ..binomial_sums import bucket_edges, log_binom_range, log_mul, refine_buckets
from .formulas import COROLLARY_3_2, ERLINGSSON_RDP
from .orders import check


def nbar(eps0_value: float, n_value: int, gamma: float = 0.5) -> int:
    """floor((1 - gamma) (n - 1) / e^eps0) + 1, with the floor taken at 50 digits (a float that
    rounds up past an integer would make the bound unsound)."""
    with mpmath.workdps(50):
        return int(mpmath.floor((1 - mpmath.mpf(gamma)) * (n_value - 1) / mpmath.exp(mpmath.mpf(eps0_value)))) + 1




def _log_sinh2(x: float) -> float:
    """log sinh(x)^2 without overflow."""
    if x == 0:
        return -math.inf
    return 2 * (x + math.log(-math.expm1(-2 * x)) - math.log(2.0)) if x > 0 else _log_sinh2(-x)


#: orders up to which the B_3.7 sum is taken over every i (below it a window saves nothing)
_B37_FULL_ORDERS = 256
#: how far (in nats) below the largest term the window of the B_3.7 sum extends on each side
_B37_WINDOW_NATS = 40.0
#: the geometric bound on the terms left out must be below e^-this of the window's sum
_B37_TAIL_NATS = 36.0


def _log_b37_coefficients(order: int, i: np.ndarray) -> np.ndarray:
    """log(binom(lam, i) i Gamma(i/2)) elementwise. scipy's ``gammaln`` (within a few ulps, as
    glibc's lgamma): the log binomial loses a few ulps of lgamma(lam + 1), an absolute error of
    the log of a term that is a relative error below 1e-11 of the term for orders up to 1e4."""
    gammaln = _special_gammaln()
    return gammaln(order + 1.0) - gammaln(i + 1.0) - gammaln(order - i + 1.0) + np.log(i) + gammaln(i / 2)


@functools.lru_cache(maxsize=None)
def _full_b37_coefficients(order: int) -> np.ndarray:
    """:func:`_log_b37_coefficients` at i = 3..lam, for the orders summed in full (at most
    :data:`_B37_FULL_ORDERS`; kept: the mixture sum evaluates one order at hundreds of buckets)."""
    return _log_b37_coefficients(order, np.arange(3, order + 1, dtype=float))


def _log_b37_terms(order: int, i: np.ndarray, log_x: np.ndarray) -> np.ndarray:
    """log(binom(lam, i) i Gamma(i/2) x^{i/2}) elementwise (``i`` and ``log_x`` broadcast)."""
    return _log_b37_coefficients(order, i) + (i / 2) * log_x


def _special_gammaln():
    from scipy.special import gammaln

    return gammaln


def _b37_sum(order: int, log_x: np.ndarray, log_cap: float = math.inf) -> tuple[np.ndarray, int]:
    """(log sum_{i=3}^{lam} binom(lam, i) i Gamma(i/2) x^{i/2} per x, number of terms evaluated).

    The terms are log-concave in i: the ratio of consecutive terms,
    rho(i) = (lam - i)/i Gamma((i+1)/2)/Gamma(i/2) sqrt(x), decreases in i, since
    d/di log rho = -1/(lam - i) - 1/i + (psi((i+1)/2) - psi(i/2))/2 < -1/(lam - i) (as
    psi(y + 1/2) - psi(y) < psi(y + 1) - psi(y) = 1/y). From orders above
    :data:`_B37_FULL_ORDERS` the sum is therefore taken over a window [a, b] holding the largest
    term, the terms outside it bounded by geometric series: sum_{i>b} <= t_b r/(1 - r) with
    r = t_{b+1}/t_b < 1, and sum_{i<a} <= t_a r'/(1 - r') with r' = t_{a-1}/t_a < 1. The bounds
    are added (the value is an upper bound on the sum, within e^-36 of it: far below the 1e-9
    relative error the callers allow, :data:`_F_RTOL`). The window starts around the peak of a
    Gaussian fit and doubles until both bounds are that small, so its width follows the spread of
    the terms (about sqrt(lam^2 x) terms), not lam. Where one term alone (the one at the peak of
    the fit) is at least ``log_cap``, the value is ``log_cap`` (the callers take the smaller of the
    sum and that cap) and no window is summed."""
    log_x = np.atleast_1d(np.asarray(log_x, dtype=float))
    if not np.all(np.isfinite(log_x)):  # x = 0 (eps0 = 0): every term is 0
        out = np.full(log_x.size, -np.inf)
        finite = np.isfinite(log_x)
        out[finite], count = _b37_sum(order, log_x[finite], log_cap) if finite.any() else (out[finite], 0)
        return out, count
    if order <= _B37_FULL_ORDERS:
        i = np.arange(3, order + 1, dtype=float)
        terms = _full_b37_coefficients(order)[:, None] + (i / 2)[:, None] * log_x[None, :]
        return logsumexp(terms, axis=0), i.size * log_x.size
    # the peak of a continuous fit, (lam - i) sqrt(x / (2 i)) = 1, and the curvature of log t there
    c = np.exp(log_x / 2) / math.sqrt(2.0)
    with np.errstate(over="ignore", divide="ignore"):
        u = 2 * order / (1 / c + np.sqrt(1 / c**2 + 4 * order))  # the positive root of u^2 + u/c - lam = 0
    centre = np.clip(np.rint(u * u), 3, order)
    curvature = 1 / np.maximum(order - centre, 1.0) + 1 / (2 * centre)
    half = np.ceil(np.sqrt(2 * _B37_WINDOW_NATS / curvature)) + 2
    out = np.empty(log_x.size)
    capped = _log_b37_terms(order, centre, log_x) >= log_cap  # one term: a lower bound on the sum
    out[capped] = log_cap
    todo = np.flatnonzero(~capped)
    count = log_x.size
    while todo.size:
        a = np.maximum(3.0, centre[todo] - half[todo])
        b = np.minimum(float(order), centre[todo] + half[todo])
        # each row's window [a, b] and one term on each side of it (for the ratios at its ends),
        # laid end to end
        lengths = (b - a).astype(np.int64) + 3
        starts = np.cumsum(lengths) - lengths
        i = np.repeat(a - 1 - starts, lengths) + np.arange(int(lengths.sum()), dtype=float)
        i = np.clip(i, 3, order)
        low = int(i.min())
        coefficients = _log_b37_coefficients(order, np.arange(low, int(i.max()) + 1, dtype=float))
        terms = coefficients[(i - low).astype(np.int64)] + (i / 2) * np.repeat(log_x[todo], lengths)
        count += int(lengths.sum())
        first, last = starts + 1, starts + lengths - 2
        window = terms.copy()
        window[starts] = window[starts + lengths - 1] = -np.inf
        peak = np.maximum.reduceat(window, starts)
        total = peak + np.log(np.add.reduceat(np.exp(window - np.repeat(peak, lengths)), starts))
        t_a, t_b = terms[first], terms[last]
        log_r_left = np.where(a > 3, terms[starts] - t_a, -np.inf)            # t_{a-1} / t_a
        log_r_right = np.where(b < order, terms[last + 1] - t_b, -np.inf)    # t_{b+1} / t_b
        tails = []
        ok = np.ones(todo.size, dtype=bool)
        for t_end, log_r in ((t_a, log_r_left), (t_b, log_r_right)):
            closed = np.isneginf(log_r)
            with np.errstate(divide="ignore"):
                tail = np.where(closed, -np.inf, t_end + log_r - np.log(-np.expm1(np.minimum(log_r, -1e-300))))
            ok &= closed | ((log_r < 0) & (tail <= total - _B37_TAIL_NATS))
            tails.append(tail)
        done = ok | ((a <= 3) & (b >= order))
        out[todo[done]] = logsumexp(np.vstack([total, *tails])[:, done], axis=0)
        # the rest: moved towards their largest term (outside the window where an end still
        # rises), twice as wide
        again = ~done
        centre[todo] = np.where(log_r_left >= 0, a, np.where(log_r_right >= 0, b, centre[todo]))
        half[todo[again]] *= 2
        todo = todo[again]
    return out, count


def _log_b37_excess(e0: float, m, order: int, log_cap: float = math.inf) -> np.ndarray:
    """log of min(B_3.7(m, lam) - 1, e^log_cap) (Theorem 3.7): binom(lam,2) 4 sinh^2(eps0/2)/m
    + sum_{i>=3} binom(lam,i) i Gamma(i/2) (2 sinh^2(eps0)/m)^{i/2}, vectorised in m; the sum over
    i is :func:`_b37_sum` (an upper bound within e^-36 relative; the error the callers allow is
    :data:`_F_RTOL`)."""
    return _log_b37_excess_counted(e0, m, order, log_cap)[0]


def _log_b37_excess_counted(e0: float, m, order: int, log_cap: float = math.inf) -> tuple[np.ndarray, int]:
    """(:func:`_log_b37_excess`, the number of terms of the sum over i evaluated): the count
    tests/shuffle/rdp/test_girgis.py bounds per order."""
    m = np.atleast_1d(np.asarray(m, dtype=float))
    first = math.log(order * (order - 1) / 2) + math.log(4.0) + _log_sinh2(e0 / 2) - np.log(m)
    if order < 3:
        return np.minimum(first, log_cap), 0
    rest, count = _b37_sum(int(order), math.log(2.0) + _log_sinh2(e0) - np.log(m), log_cap)
    return np.minimum(np.logaddexp(first, rest), log_cap), count


def upper_1(eps0_value, n_value, orders, *, nbar_mode: str = "floor") -> np.ndarray:
    """Theorem 3.1 (corrected) at integer orders, in log space. ``nbar_mode="unfloored"``
    reproduces the authors' code and Appendix A (slightly optimistic; not the theorem)."""
    e0, nn, o = check(eps0_value, n_value, orders, integer=True)
    if nbar_mode == "floor":
        m = float(nbar(e0, nn))
    elif nbar_mode == "unfloored":
        m = (nn - 1) / (2 * math.exp(e0)) + 1
    else:
        raise validate.DomainError(f"nbar_mode = {nbar_mode!r} is invalid: must be 'floor' or 'unfloored'")
    out = np.empty(o.shape)
    for k, order in enumerate(o.astype(int)):
        excess = float(_log_b37_excess(e0, m, order)[0]) if e0 > 0 else -math.inf
        chern = e0 * order - (nn - 1) / (8 * math.exp(e0))
        log_moment_excess = float(np.logaddexp(excess, chern))
        out[k] = excess_to_renyi(log_moment_excess, order)
    return rounding.up(out, rel_err=rounding.CLOSED_FORM_RTOL)


def upper_1_mixture(eps0_value, n_value, orders) -> np.ndarray:
    """A tighter bound from the same lemmas (derived here: docs/errata.md#derived-girgis-mixture):
    the moment is at most
    sum_m Bin(m; n-1, e^-eps0) min(e^{eps0 lam}, B_3.7(m + 1, lam)), instead of Theorem 3.1's
    Chernoff split. Integer orders. The sum is the upper end of a certified bucket enclosure
    (B_3.7 decreases in m: the bound at a bucket's first count is an upper bound on the bucket,
    at its last a lower bound; :func:`dptheory.shuffle.binomial_sums.refine_buckets`), so its cost does
    not grow with n or with the binomial's spread. The binomial weights of the buckets do not
    depend on the order: they are computed once for every order of the curve."""
    e0, nn, o = check(eps0_value, n_value, orders, integer=True)
    others, s = nn - 1, math.exp(-e0)
    weights = _BucketWeights(others, s)
    edges = bucket_edges(0, others, others * s, math.sqrt(others * s * (1 - s)) + 1.0)
    out = np.empty(o.shape)
    for k, order in enumerate(o.astype(int)):
        cap = float(log1mexp(-e0 * order)) + e0 * order  # log(e^{eps0 lam} - 1)

        def bounds(ma, mb, order=order, cap=cap):
            lw, lw_err = weights(ma, mb)
            f_first, f_last = np.split(_log_b37_excess(e0, np.concatenate([ma, mb]) + 1, order, cap), 2)
            # lgamma and the sum over i: a relative error well below _F_RTOL in the excess
            err = np.logaddexp(log_mul(lw_err, f_first), log_mul(lw, f_first + math.log(_F_RTOL)))
            return log_mul(lw, f_first), log_mul(lw, f_last), err

        enc, _, _ = refine_buckets(bounds, edges[:-1].astype(float), (edges[1:] - 1).astype(float), 1e-3,
                                   done=renyi_width_rule(order, 1e-3))
        out[k] = rounding.up(excess_to_renyi(enc.log_upper, order), rel_err=4 * rounding.EPS)
    return out


#: relative error bound of the float64 B_3.7 excess (a few ulps per lgamma and per logsumexp term)
_F_RTOL = 1e-9


class _BucketWeights:
    """log P[a <= Bin(n, s) <= b] and its error bound per bucket [a, b], computed once
    (:func:`dptheory.shuffle.binomial_sums.log_binom_range`) and kept for the other orders."""

    def __init__(self, n: int, s: float) -> None:
        self.n, self.s, self.known = n, s, {}

    def __call__(self, ma, mb):
        keys = list(zip(ma.tolist(), mb.tolist()))
        missing = [key for key in dict.fromkeys(keys) if key not in self.known]
        if missing:
            a, b = (np.array(side, dtype=float) for side in zip(*missing))
            lw, lw_err = log_binom_range(a, b, self.n, self.s)
            self.known.update(zip(missing, zip(lw.tolist(), lw_err.tolist())))
        lw, lw_err = zip(*(self.known[key] for key in keys))
        return np.array(lw), np.array(lw_err)


def upper_2(eps0_value, n_value, orders) -> np.ndarray:
    """Theorem 3.3 (corrected), real orders > 1, in log space."""
    e0, nn, o = check(eps0_value, n_value, orders)
    m = nbar(e0, nn)
    quad = o**2 * math.expm1(e0) ** 2 / m
    chern = e0 * o - (nn - 1) / (8 * math.exp(e0))
    return rounding.up(np.logaddexp(quad, chern) / (o - 1), rel_err=rounding.CLOSED_FORM_RTOL)


def corollary_3_2(eps0_value, n_value, orders) -> Curve:
    """Corollary 3.2 as a :class:`Curve`: the printed condition lam^4 e^{5 eps0} < n/9 must hold
    (else ConditionError). Its status is the formula's, ``unproven`` (the Appendix A proof needs
    "n sufficiently large" and fails for tiny eps0, docs/errata.md#girgis2021-corollary-3-2); the
    note says whether it is at least Theorem 3.1 at these parameters, where it is a valid upper
    bound (and never the tightest one)."""
    e0, nn, o = check(eps0_value, n_value, orders, integer=True)
    fn = COROLLARY_3_2.numpy()
    values = rounding.up(np.atleast_1d(fn(e0, nn, o)), rel_err=rounding.CLOSED_FORM_RTOL)
    ub1 = upper_1(e0, nn, o)
    dominates = bool(np.all(values >= ub1))
    note = ("at least Theorem 3.1 at these parameters: a valid upper bound here, looser than Theorem 3.1"
            if dominates else "below Theorem 3.1 here, where the Appendix A proof needs n 'sufficiently large' "
            "(docs/errata.md#girgis2021-corollary-3-2)")
    return Curve("rdp", "order", o, values, values, Kind.UPPER, COROLLARY_3_2.status, "girgis-corollary-3.2",
                 COROLLARY_3_2.source, note, params={"eps0": e0, "n": nn})


def erlingsson(eps0_value, n_value, orders) -> np.ndarray:
    """Erlingsson et al. (2019), Remark 1, as quoted by Girgis et al. eq. (9), rounded up."""
    e0, nn, o = check(eps0_value, n_value, orders)
    return rounding.up(np.atleast_1d(ERLINGSSON_RDP.numpy(check=False)(e0, nn, o)), rel_err=rounding.CLOSED_FORM_RTOL)
