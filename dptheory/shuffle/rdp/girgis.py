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


@functools.lru_cache(maxsize=512)
def _b37_coefficients(order: int) -> np.ndarray:
    """log(binom(lam, i) i Gamma(i/2)) for i = 3..lam (cached: the mixture sum evaluates one order
    at hundreds of buckets). ``math.lgamma`` (glibc, within a few ulps, as scipy's gammaln):
    the log binomial loses a few ulps of lgamma(lam + 1), an absolute error of the log of the
    excess that is a relative error below 1e-12 of the excess for orders up to 1e4."""
    i = np.arange(3, order + 1, dtype=float)
    lg = np.frompyfunc(math.lgamma, 1, 1)
    return (math.lgamma(order + 1.0) - lg(i + 1).astype(float) - lg(order - i + 1).astype(float) + np.log(i)
            + lg(i / 2).astype(float))


def _log_b37_excess(e0: float, m, order: int) -> np.ndarray:
    """log of B_3.7(m, lam) - 1 (Theorem 3.7): binom(lam,2) 4 sinh^2(eps0/2)/m
    + sum_{i>=3} binom(lam,i) i Gamma(i/2) (2 sinh^2(eps0)/m)^{i/2}, vectorised in m."""
    m = np.atleast_1d(np.asarray(m, dtype=float))
    terms = [math.log(order * (order - 1) / 2) + math.log(4.0) + _log_sinh2(e0 / 2) - np.log(m)]
    if order >= 3:
        i = np.arange(3, order + 1, dtype=float)
        base = _b37_coefficients(int(order))
        log_x = math.log(2.0) + _log_sinh2(e0)
        terms.append((base[:, None] + (i / 2)[:, None] * (log_x - np.log(m))[None, :]))
        return logsumexp(np.vstack([terms[0][None, :], terms[1]]), axis=0)
    return terms[0]


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
            f_first = np.minimum(_log_b37_excess(e0, ma + 1, order), cap)
            f_last = np.minimum(_log_b37_excess(e0, mb + 1, order), cap)
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
