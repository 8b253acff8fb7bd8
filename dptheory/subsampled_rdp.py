"""Renyi DP of the Poisson-subsampled Gaussian mechanism: the exact value and the general bound.

One step releases ``sum_{i in batch} g(x_i) + N(0, sigma^2)`` (sensitivity 1, Poisson rate q).
Its Renyi divergence of order alpha under add/remove neighbours is

    rho(alpha) = log(A_alpha) / (alpha - 1),
    A_alpha = E_{z ~ N(0, sigma^2)}[(1 - q + q exp((2 z - 1) / (2 sigma^2)))^alpha],

the divergence of the "remove" pair D_alpha((1 - q) N(0, sigma^2) + q N(1, sigma^2) || N(0, sigma^2)),
which is at least that of the reversed ("add") pair (Mironov, Talwar, Zhang 2019, Section 3.3).

* **Integer orders** (Mironov, Talwar, Zhang 2019, Section 3.3, the binomial expansion):
  A_alpha = sum_k C(alpha, k) (1 - q)^(alpha - k) q^k exp((k^2 - k) / (2 sigma^2)). Since the same
  sum without the exponentials is 1, A_alpha - 1 = sum_{k >= 2} C(alpha, k) (1 - q)^(alpha - k) q^k
  expm1((k^2 - k) / (2 sigma^2)), a sum of positive terms: evaluated in log space it keeps a small
  relative error even where rho is tiny (large sigma, small q), and log A = log1p(A - 1).
* **Fractional orders** (the same paper, Section 3.3, the two series): split the integral at z0,
  where q e^{(2 z - 1)/(2 sigma^2)} = 1 - q, z0 = sigma^2 log(1/q - 1) + 1/2. Below it the
  generalised binomial series in x = q e^{...} / (1 - q) <= 1, above it in 1/x <= 1:

      A_1 = sum_i C(alpha, i) (1 - q)^(alpha - i) q^i e^{(i^2 - i)/(2 sigma^2)} Phi((z0 - i) / sigma),
      A_2 = sum_i C(alpha, i) (1 - q)^i q^(alpha - i) e^{(j^2 - j)/(2 sigma^2)} Phi((j - z0) / sigma),  j = alpha - i.

  **Certified truncation (derived here).** Term i of A_1 is (1 - q)^alpha C(alpha, i) E[x^i; z <= z0]:
  the expectation does not increase with i (x <= 1 there), |C(alpha, i + 1) / C(alpha, i)| =
  (i - alpha) / (i + 1) < 1 for i >= ceil(alpha), and the signs of C(alpha, i) alternate from
  i = ceil(alpha) on. So from there the series is alternating with non-increasing terms: the sum
  of the terms after the last one kept lies between 0 and the first term left out (likewise for
  A_2, with 1/x; docs/errata.md#derived-sgm-rdp-truncation). The split point itself is a float:
  the series are taken below the rounded-down z0 and above the rounded-up z0, and the sliver
  between them is bounded by its width times the largest value of the integrand there.

Every float operation is carried in an error bound, and the ends are rounded outwards
(:mod:`dptheory.rounding`); ``tests/test_subsampled_rdp.py`` checks both paths against a
certified quadrature of the defining integral at 50 digits (both directions) and against
dp_accounting's ``rdp_privacy_accountant`` at the integer orders 2..256.

The general upper bound of Zhu and Wang (2019), which holds for every base mechanism, is
:func:`zhu_wang_rdp`: equal at order 2, looser above (for the Gaussian base this module's exact
value is the one to use).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from . import rounding, validate
from .composition import poisson_subsampled_rdp
from .precision import logsumexp

_U = 2.0**-53
_NEG_INF = -math.inf

SOURCE = "Mironov, Talwar, Zhang (2019), Section 3.3 (Renyi DP of the sampled Gaussian mechanism)"
ZHU_WANG_SOURCE = "Zhu, Wang (2019), general upper bound for Poisson-subsampled RDP, Gaussian base alpha / (2 sigma^2)"

#: relative size of the first omitted series term at which the fractional series stop
SERIES_RTOL = 1e-15

#: most terms of each fractional series (the truncation bound covers any stop)
MAX_TERMS = 1 << 20

#: counts of series terms evaluated, for tests that count work (reset by the caller)
TERMS_EVALUATED = {"integer": 0, "fractional": 0}


def _log_expm1(x):
    """log(expm1(x)) for x >= 0 (-inf at 0), without overflow; relative error of x passes through
    with factor at most (1 + x)."""
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore", over="ignore"):
        return np.where(x > 30.0, x + np.log1p(-np.exp(-np.minimum(x, 700.0))), np.log(np.expm1(np.minimum(x, 30.0))))


def _log_moment_integer(sigma: float, q: float, alpha: int) -> tuple[float, float, float]:
    """(log A_alpha, log(A_alpha - 1), absolute error bound of both logs) at an integer order."""
    k = np.arange(2, alpha + 1, dtype=float)
    TERMS_EVALUATED["integer"] += len(k)
    g_a = special.gammaln(alpha + 1.0)
    g_k = special.gammaln(k + 1.0)
    g_r = special.gammaln(alpha - k + 1.0)
    lc = g_a - g_k - g_r
    lq, l1q = math.log(q), math.log1p(-q)
    s2 = 2.0 * sigma * sigma
    x = (k * k - k) / s2
    le = _log_expm1(x)
    a_part = (alpha - k) * l1q
    b_part = k * lq
    terms = lc + a_part + b_part + le
    # gammaln: 8 u of each value (tested against mpmath); products and sums a few ulps of each
    # part; log(expm1(x)) moves by (1 + x) times the relative error of x (3 u)
    err = (8 * _U * (abs(g_a) + np.abs(g_k) + np.abs(g_r) + 3) + 4 * _U * (np.abs(a_part) + np.abs(b_part))
           + 4 * _U * (1 + x) + 4 * _U * np.abs(terms))
    log_am1 = float(logsumexp(terms))
    e = float(np.max(err)) + 4 * _U * (len(k) + 8) + 4 * _U * abs(log_am1)
    log_a = float(np.log1p(np.exp(log_am1))) if log_am1 < 700 else log_am1 + math.log1p(math.exp(-log_am1))
    # log A = log1p(e^{log(A - 1)}) has slope (A - 1) / A <= 1 in log(A - 1)
    slope = math.exp(min(log_am1 - log_a + e, 0.0))
    return log_a, log_am1, e * slope * 1.01 + 4 * _U * abs(log_a)


def _log_abs_binom(alpha: float, i: np.ndarray):
    """log |C(alpha, i)| for a non-integer alpha and integers i >= 0, and its absolute error bound.
    Beyond alpha by the reflection formula, |Gamma(alpha - i + 1)| = pi / (|sin(pi f)| Gamma(i - alpha)),
    f = alpha - floor(alpha) (exact), so no Gamma is taken near its poles."""
    g_a = special.gammaln(alpha + 1.0)
    g_i = special.gammaln(i + 1.0)
    below = i <= alpha
    f = alpha - math.floor(alpha)
    log_sin = math.log(abs(math.sin(math.pi * f)))
    with np.errstate(invalid="ignore"):
        g_low = special.gammaln(np.where(below, alpha - i + 1.0, 1.0))
        g_high = special.gammaln(np.where(below, 1.0, i - alpha))
    val = np.where(below, g_a - g_i - g_low, g_a - g_i + g_high + log_sin - math.log(math.pi))
    err = 8 * _U * (abs(g_a) + np.abs(g_i) + np.abs(g_low) + np.abs(g_high) + abs(log_sin) + 4) + 4 * _U * np.abs(val)
    # i - alpha carries a relative error u: gammaln near 0 (about -log(i - alpha)) moves by 2 u
    err = err + 4 * _U * (1 + np.abs(g_high))
    return val, err


def _log_ndtr_err(z, dz):
    """log Phi(z) and its absolute error: scipy's relative error of Phi (see
    :func:`dptheory.subsampled.ndtr_rtol`, 16 u (1 + z^2)) plus the move of the log by an error dz
    of z (slope phi/Phi <= |z| + 1 for z < 0, <= 1 above)."""
    val = special.log_ndtr(z)
    return val, 2 * (16 * _U * (1 + z * z)) + (np.abs(np.minimum(z, 0.0)) + 1) * dz * 1.01


class _Series:
    """One of the two alternating series of a fractional order, summed in chunks in log space."""

    def __init__(self, alpha: float, term):
        self.alpha = alpha
        self.term = term                # term(i) -> (log |t_i|, sign, error of log)
        self.pos, self.neg, self.err_abs = [], [], []
        self.start = 0

    def add(self, count: int) -> tuple[float, float, float]:
        """Sum ``count`` more terms; returns (log of the positive part, log of the negative part,
        log |next term| + its error) for the stopping rule."""
        i = np.arange(self.start, self.start + count, dtype=float)
        TERMS_EVALUATED["fractional"] += count
        lt, sign, err = self.term(i)
        self.start += count
        with np.errstate(invalid="ignore"):
            self.pos.append(float(logsumexp(np.where(sign > 0, lt, _NEG_INF))))
            self.neg.append(float(logsumexp(np.where(sign < 0, lt, _NEG_INF))))
            # the terms' own errors, as an absolute error in log space: sum |t_i| expm1(err_i)
            self.err_abs.append(float(logsumexp(lt + np.log(np.expm1(err) * 1.01 + 1e-300))))
        nxt, _, nerr = self.term(np.array([float(self.start)]))
        return float(nxt[0]) + float(nerr[0]) + 1e-12

    def totals(self):
        return float(logsumexp(self.pos)), float(logsumexp(self.neg)), float(logsumexp(self.err_abs))


def _log_moment_fractional(sigma: float, q: float, alpha: float) -> tuple[float, float]:
    """Certified (lower, upper) of log A_alpha at a non-integer order alpha > 1, 0 < q < 1."""
    s = sigma
    s2 = 2.0 * s * s
    lq, l1q = math.log(q), math.log1p(-q)
    # z0 = sigma^2 log((1 - q) / q) + 1/2, with its error
    ratio = l1q - lq
    z0 = s * s * ratio + 0.5
    dz0 = 8 * _U * (s * s * (abs(l1q) + abs(lq) + abs(ratio)) + abs(z0) + 1)
    z_lo, z_hi = float(rounding.down(z0, dz0)), float(rounding.up(z0, dz0))

    def term1(i):
        lc, lc_err = _log_abs_binom(alpha, i)
        z = (z_lo - i) / s
        ln, ln_err = _log_ndtr_err(z, 4 * _U * (abs(z_lo) + i) / s + 4 * _U * np.abs(z))
        x = (i * i - i) / s2
        a_part, b_part = (alpha - i) * l1q, i * lq
        lt = lc + a_part + b_part + x + ln
        err = lc_err + ln_err + 4 * _U * (np.abs(a_part) + np.abs(b_part) + 2 * np.abs(x) + np.abs(lt) + 1)
        sign = np.where((i > alpha) & (np.mod(i - math.ceil(alpha), 2) == 1), -1.0, 1.0)
        return lt, sign, err

    def term2(i):
        lc, lc_err = _log_abs_binom(alpha, i)
        j = alpha - i
        z = (j - z_hi) / s
        ln, ln_err = _log_ndtr_err(z, 4 * _U * (np.abs(j) + abs(z_hi)) / s + 4 * _U * np.abs(z))
        x = (j * j - j) / s2
        a_part, b_part = i * l1q, j * lq
        lt = lc + a_part + b_part + x + ln
        err = lc_err + ln_err + 4 * _U * (np.abs(a_part) + np.abs(b_part) + 2 * np.abs(x) + np.abs(lt) + 1)
        sign = np.where((i > alpha) & (np.mod(i - math.ceil(alpha), 2) == 1), -1.0, 1.0)
        return lt, sign, err

    first = math.ceil(alpha) + 1
    series = [_Series(alpha, term1), _Series(alpha, term2)]
    nexts = [s_.add(first) for s_ in series]
    chunk = 64
    while True:
        pos = float(logsumexp([s_.totals()[0] for s_ in series]))
        if all(n <= pos + math.log(SERIES_RTOL) for n in nexts) or max(s_.start for s_ in series) >= MAX_TERMS:
            break
        nexts = [s_.add(chunk) if n > pos + math.log(SERIES_RTOL) else n for s_, n in zip(series, nexts)]
        chunk = min(2 * chunk, 1 << 14)
    pos_l, neg_l, err_l = zip(*(s_.totals() for s_ in series))
    p, n_, e = float(logsumexp(pos_l)), float(logsumexp(neg_l)), float(logsumexp(err_l))
    # remainders: between 0 and the first omitted term (whose sign alternates: bound by |term|)
    rem = float(logsumexp(list(nexts)))
    # the sliver (z_lo, z_hi]: there q e^{(2z - 1)/(2 s^2)} <= (1 - q) e^{width / s^2}, so the integrand
    # is at most (2 (1 - q))^alpha e^{alpha width / s^2} times the density <= 1/(s sqrt(2 pi))
    width = z_hi - z_lo
    sliver = (math.log(width) + alpha * (math.log(2.0) + l1q) + 1.01 * alpha * width / (s * s) + 1e-12
              - math.log(s) - 0.5 * math.log(2 * math.pi)) if width > 0 else _NEG_INF
    # sums of positive terms in log space: a few ulps per term and of the magnitudes
    fl = 8 * _U * (series[0].start + series[1].start + 8) + 8 * _U * (abs(p) + 1)
    upper_extra = float(logsumexp([e, rem, sliver, p + math.log(fl)]))
    lower_extra = float(logsumexp([e, rem, p + math.log(fl)]))
    # A lies in [P - N - extras, P - N + extras] (P, N: the positive and negative terms kept)
    top = float(logsumexp([p, upper_extra]))
    hi = top + math.log1p(-math.exp(n_ - top)) if n_ < top else _NEG_INF
    neg_total = float(logsumexp([n_, lower_extra]))
    lo = p + math.log1p(-math.exp(neg_total - p)) if neg_total < p else _NEG_INF
    # A >= 1 (Jensen: E[1 - q + q L] = 1) in any case
    lo = max(lo, 0.0)
    hi = max(hi, 0.0)
    return lo, max(hi, lo)


def log_moment(sigma, q, order) -> tuple[float, float]:
    """Certified (lower, upper) of log A_alpha (module text) for one order alpha > 1."""
    s = validate.positive("sigma", sigma)
    rate = validate.probability("q", q)
    a = validate.order("order", order)
    if rate == 0:
        return 0.0, 0.0
    if rate == 1:  # the Gaussian mechanism: A = exp(alpha (alpha - 1) / (2 sigma^2))
        v = a * (a - 1) / (2 * s * s)
        return float(rounding.down(v, rel_err=4 * _U)), float(rounding.up(v, rel_err=4 * _U))
    if a == math.floor(a) and a < 2.0**31:
        log_a, _, e = _log_moment_integer(s, rate, int(a))
        return float(rounding.down_nonneg(log_a, abs_err=e)), float(rounding.up(log_a, abs_err=e))
    lo, hi = _log_moment_fractional(s, rate, a)
    return float(rounding.down_nonneg(lo, rel_err=4 * _U)), float(rounding.up(hi, rel_err=4 * _U))


def sgm_rdp(sigma, q, orders) -> tuple[np.ndarray, np.ndarray]:
    """Certified (lower, upper) arrays of the exact RDP of one step of the Poisson-subsampled
    Gaussian mechanism (add/remove neighbours, sensitivity 1) at each order (Mironov, Talwar,
    Zhang 2019, Section 3.3; module text): rho(alpha) = log(A_alpha) / (alpha - 1)."""
    s = validate.positive("sigma", sigma)
    rate = validate.probability("q", q)
    o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
    lows, highs = np.empty(o.shape), np.empty(o.shape)
    for idx, a in enumerate(o.tolist()):
        lo, hi = log_moment(s, rate, a)
        lm1 = a - 1.0  # exact below 2, and within an ulp above
        lows[idx] = lo / lm1
        highs[idx] = hi / lm1
    return rounding.down_nonneg(lows, rel_err=4 * _U), rounding.up(highs, rel_err=4 * _U)


def zhu_wang_rdp(sigma, q, orders) -> np.ndarray:
    """The general upper bound of Zhu and Wang (2019) (:func:`dptheory.composition.poisson_subsampled_rdp`)
    applied to the Gaussian base curve alpha / (2 sigma^2), at integer orders >= 2, rounded up.
    An upper bound, looser than :func:`sgm_rdp` from order 3 (equal at order 2)."""
    s = validate.positive("sigma", sigma)
    rate = validate.probability("q", q, open_low=True)
    o = np.atleast_1d(validate.real_array("orders", orders, low=2.0))
    if np.any(o != np.floor(o)):
        bad = float(o[o != np.floor(o)][0])
        raise validate.DomainError(f"orders has an entry {bad!r} outside the valid range: the Zhu-Wang general "
                                   "bound needs integer orders >= 2")
    base = 1.0 / (2 * s * s)
    vals = np.array([poisson_subsampled_rdp(lambda l: l * base, int(a), rate) for a in o])
    # logsumexp of at most alpha terms of lgamma-sized parts: a relative 1e-12 covers it
    return rounding.up(vals, rel_err=1e-12, abs_err=1e-15)
