"""Log-space arithmetic, mpmath precision control, and binomial probabilities in log space.

The library's routine is used wherever it is as accurate as a hand-written one over the range the
toolkit needs (n up to 1e15, p from 1e-12 to 1 - 1e-12, thresholds 40 standard deviations into
either tail, tails far below 1e-308): ``numpy.logaddexp`` and ``mpmath.binomial`` for the
mpmath pmf.
A routine is written here only where tests/test_precision.py shows the library's losing accuracy
in that range; each says which test, where and by how much:

* :func:`log1mexp`, :func:`logsubexp` (scipy's ``logsumexp(..., b=[1, -1])`` cancels);
* :func:`binom_logpmf` with :func:`stirlerr` and :func:`bd0`, Loader's saddle point form
  (C. Loader, *Fast and accurate computation of binomial probabilities*, 2000):
  ``scipy.stats.binom.logpmf`` (a difference of ``gammaln``) loses every digit at n = 1e15, and
  ``scipy.stats.binom.pmf`` (Boost) underflows below 1e-308;
* the tails :func:`binom_logsf`, :func:`binom_logcdf`, :func:`binom_sf`, :func:`binom_cdf` and
  :func:`binom_log_mills`: scipy has no log-space binomial tail and ``betainc`` underflows to 0
  below 1e-308, so the far tail is the log-pmf times the tail ratio of a continued fraction
  (:func:`_cf_tail_ratio`), and the tail near the mean a Gauss-Legendre quadrature of the
  incomplete beta integral (:func:`_quadrature_log_tail`). ``betainc`` was used near the mean until
  it was measured to be half the import time of ``dptheory shuffle`` (scipy.special, 0.25 s);
  the quadrature is within 0.005 of :func:`binom_tail_rtol` where it is used;
* :func:`mp_binom_sf`, :func:`mp_binom_cdf` (``mpmath.betainc`` does not converge at n = 1e6) and
  :func:`mp_adaptive` (``mpmath.autoprec`` is fooled by the cancellation it is used for).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from . import rounding
from .lazy_import import mpmath

LOG_2PI = math.log(2.0 * math.pi)



def binom_tail_rtol(n):
    """Relative error bound of a float64 binomial tail or pmf with n trials.

    Applies to :func:`binom_sf`, :func:`binom_cdf`, :func:`binom_logpmf`, :func:`binom_logsf`,
    :func:`binom_logcdf` and :func:`binom_log_mills` (for the log functions: the absolute error of
    the log), for p in [1e-12, 1 - 1e-12] and thresholds up to 40 standard deviations from the
    mean (further out a log of magnitude L carries an extra 4 eps L: its float64 representation).

    Float64 cannot place a threshold k among n ~ 1e12 trials to better than an ulp of n, which in
    standard deviations is about 1e-16 sqrt(n), so the error grows like sqrt(n); at small n it is
    a few ulps of a log near -800 (a tail 40 standard deviations out). The bound is at least 5
    times the largest error observed against mpmath at 50 digits on the grid of
    tests/test_precision.py (n from 1 to 1e15, p from 1e-12 to 1 - 1e-12, thresholds from -40 to
    40 standard deviations): the largest ratio error/bound there is 0.18, the log-pmf's at
    n = 1e4, 40 standard deviations out (9e-13 in a log of -827, 8 ulps); the tails, by
    quadrature, reach 0.05. Off that grid the log-pmf reached 0.47 (n = 3e4, p = 1/2, 40 standard
    deviations out), inside the bound but not 5 times inside.
    A 10-fold margin would need 1e-11 + 8e-14 sqrt(n), which widens the certified sums of
    shuffle/variation_ratio.py beyond what tests/shuffle/test_variation_ratio.py asserts at n = 2.
    """
    n = np.asarray(n, dtype=float)
    return 1e-12 + 4e-14 * np.sqrt(np.maximum(n, 1.0))



# ---------------------------------------------------------------------------
# log-space arithmetic


def logsumexp(values, axis=None):
    """log(sum(exp(values))) along ``axis`` (None: all), without overflow: the largest terms m are
    taken out and the rest added by log1p, ``m + log1p(k - 1 + sum_{v < m} exp(v - m))`` (k the
    number of terms equal to m), within a few ulps. -inf for an empty or all -inf input, +inf if a
    term is +inf, NaN if one is NaN.

    The same values as ``scipy.special.logsumexp`` (tests/test_precision.py compares them), at a
    fraction of its cost per call on the small arrays of the count-pair sums, which call it
    thousands of times per curve.
    """
    a = np.asarray(values, dtype=float)
    if axis is None:
        a = a.ravel()
        axis = 0
    if a.shape[axis] == 0:
        out = np.full(np.delete(a.shape, axis), -np.inf)
        return out if out.ndim else -math.inf
    m = a.max(axis=axis, keepdims=True)
    with np.errstate(under="ignore", over="ignore", invalid="ignore"):
        shift = m if np.all(np.isfinite(m)) else np.where(np.isfinite(m), m, 0.0)
        top = a == m
        rest = np.where(top, 0.0, np.exp(a - shift)).sum(axis=axis, keepdims=True)
        out = m + np.log1p(rest + (np.count_nonzero(top, axis=axis).reshape(m.shape) - 1))
        if shift is not m:  # all -inf: -inf; a +inf: +inf; (a NaN propagates through max)
            out = np.where(np.isinf(m), m, out)
    out = np.squeeze(out, axis=axis)
    return out if out.ndim else float(out)


#: log(exp(a) + exp(b)), numpy's (vectorised).
logaddexp = np.logaddexp


def _special():
    """scipy.special, imported on first use (0.3-0.5 s): the GDP profile, which imports this
    module, never needs it."""
    from scipy import special

    return special


def log1mexp(x):
    """log(1 - exp(x)) for x <= 0, accurate near 0 and for very negative x.

    Mächler's two-branch form (*Accurately computing log(1 - exp(-|a|))*, 2012). Kept because the
    library's way, ``scipy.special.logsumexp([0, x], b=[1, -1])``, cancels:
    ``test_log1mexp_is_kept_because_scipy_logsumexp_cancels`` shows it returning -inf at
    x = -1e-20 (truth -46.05) and a relative error of 4e-9 at x = -1e-10.
    """
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(x > -math.log(2.0), np.log(-np.expm1(x)), np.log1p(-np.exp(x)))
    return out if out.ndim else float(out)


def logsubexp(a, b):
    """log(exp(a) - exp(b)) for a >= b (returns -inf when a == b).

    ``a + log1mexp(b - a)``; kept for the same reason as :func:`log1mexp` (scipy's signed
    ``logsumexp`` cancels when b is close to a).
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    with np.errstate(invalid="ignore"):
        out = np.where(np.isneginf(b), a, a + log1mexp(np.minimum(b - a, 0.0)))
    return out if out.ndim else float(out)


# ---------------------------------------------------------------------------
# mpmath precision


def mp_adaptive(fn: Callable[[], mpmath.mpf], digits: int, *, max_guard: int = 2000) -> mpmath.mpf:
    """Evaluate ``fn`` until two working precisions agree to ``digits`` significant digits.

    ``fn`` is re-run at ``digits + guard`` decimal digits with a growing guard, so sums that
    cancel catastrophically (a difference of two nearly equal tails) still come back with the
    requested number of correct digits. The returned value carries ``digits`` digits.

    Kept instead of ``mpmath.autoprec``: that starts 3 digits above the target and stops when two
    runs agree, so ``test_mp_adaptive_is_kept_because_autoprec_is_fooled`` shows it returning
    0 for (1 + 1e-40) - 1 at 20 digits; a 15-digit guard doubled until agreement does not.
    """
    guard = 15
    with mpmath.workdps(digits + guard):
        prev = fn()
    while True:
        guard = guard * 2
        if guard > max_guard:
            raise ArithmeticError(
                f"mpmath evaluation did not stabilise at {digits} digits within {max_guard} guard digits"
            )
        with mpmath.workdps(digits + guard):
            cur = fn()
            if cur == prev:
                break
            scale = max(abs(cur), abs(prev))
            if scale == 0 or abs(cur - prev) <= scale * mpmath.mpf(10) ** (-(digits + 2)):
                break
            prev = cur
    with mpmath.workdps(digits):
        return +cur


# ---------------------------------------------------------------------------
# correct rounding to nearest (the float a float function returns)

#: 1074 log 2: x / 2^-1074 = exp(log x + _LOG_TINY_INV), the subnormal grid in units
_LOG_TINY_INV = 1074 * math.log(2.0)


def nearest_from_log_enclosure(log_lower, log_upper) -> np.ndarray:
    """The float nearest to x (ties to even) for every x with log x in [log_lower, log_upper],
    where that is one float and x is below the normal range (0.0 or a subnormal); NaN elsewhere.

    Below 2^-1022 the floats are the multiples k 2^-1074: x / 2^-1074 = exp(log x + 1074 log 2)
    is computed for both ends, widened by 1e-12 relative (the sum carries at most 2^-52 (|log x| +
    745) ~ 2e-13, the constant and exp a few ulps), and the nearest integer k is decided when
    both ends round to it. Above 2^-1022 a log enclosure of float64 width cannot decide the
    rounding (its error is many ulps of x): the caller evaluates there with mpmath
    (:func:`mp_nearest`)."""
    lo = np.atleast_1d(np.asarray(log_lower, dtype=float))
    hi = np.atleast_1d(np.asarray(log_upper, dtype=float))
    out = np.full(lo.shape, np.nan)
    small = hi + _LOG_TINY_INV < 52 * math.log(2.0) - 1.0  # x < 2^-1022 / e: subnormal or 0
    if np.any(small):
        with np.errstate(under="ignore", over="ignore"):
            t_lo = np.exp(lo[small] + _LOG_TINY_INV) * (1 - 1e-12)
            t_hi = np.exp(hi[small] + _LOG_TINY_INV) * (1 + 1e-12)
        k_lo, k_hi = np.floor(t_lo + 0.5), np.floor(t_hi + 0.5)
        # both ends in [k - 1/2, k + 1/2], strictly inside (a tie is left to the caller)
        decided = (k_lo == k_hi) & (t_lo > k_lo - 0.5) & (t_hi < k_hi + 0.5)
        vals = np.where(decided, np.ldexp(k_lo, -1074), np.nan)
        out[small] = vals
    return out


def _float_bits(x: float) -> int:
    import struct

    return struct.unpack("<q", struct.pack("<d", x))[0]


def nearest_float(value) -> float:
    """The float nearest to an mpmath number (ties to even), in every range, subnormals included
    (``float(mpf)`` rounds twice there: 2^-1075 (1 + 2^-60) gives 0.0 instead of 2^-1074)."""
    v = mpmath.mpf(value) if not isinstance(value, mpmath.mpf) else value
    if mpmath.isnan(v):
        raise ArithmeticError("rounding a NaN: the computation that produced it is out of its domain")
    c = float(v)
    if math.isinf(c):
        return c
    with mpmath.workprec(2200):  # floats and the midpoints between them are exact at 2200 bits
        for _ in range(8):
            below, above = rounding.neighbours(c)
            low_mid = (mpmath.mpf(c) + mpmath.mpf(below)) / 2
            high_mid = (mpmath.mpf(c) + mpmath.mpf(above)) / 2 if math.isfinite(above) else mpmath.inf
            if v < low_mid:
                c = below
            elif v > high_mid:
                c = above
            elif v == low_mid and _float_bits(c) & 1:
                c = below
            elif v == high_mid and _float_bits(c) & 1:
                c = above
            else:
                return c
    raise ArithmeticError(f"nearest_float did not settle at {mpmath.nstr(v, 20)}")  # pragma: no cover


def mp_nearest(fn: Callable[[], mpmath.mpf], digits: int = 20, *, max_digits: int = 2000) -> float:
    """The float nearest to the quantity ``fn()`` computes with mpmath, correctly rounded.

    ``fn`` is evaluated at ``digits`` and ``digits + 12`` decimal digits; the error of the second
    is taken as at most their difference plus 10^(3 - digits - 12) of its size (mpmath's
    functions are accurate to a few units of the working precision: a cancellation shows as a
    difference between the two). Where the interval so obtained straddles the midpoint between
    two floats, the digits are doubled (a value on a midpoint to ``max_digits`` digits is rounded
    as it stands)."""
    while True:
        with mpmath.workdps(digits):
            first = fn()
        with mpmath.workdps(digits + 12):
            value = fn()
            err = abs(value - first) + abs(value) * mpmath.mpf(10) ** (3 - digits - 12)
            low, high = nearest_float(value - err), nearest_float(value + err)
        if low == high or digits > max_digits:
            return nearest_float(value) if low != high else low
        digits *= 2


# ---------------------------------------------------------------------------
# binomial probabilities, float64

_SFERR_HALVES = np.array([
    0.0,
    0.1534264097200273452913848,
    0.0810614667953272582196702,
    0.0548141210519176538961390,
    0.0413406959554092940938221,
    0.03316287351993628748511048,
    0.02767792568499833914878929,
    0.02374616365629749597132920,
    0.02079067210376509311152277,
    0.01848845053267318523077934,
    0.01664469118982119216319487,
    0.01513497322191737887351255,
    0.01387612882307074799874573,
    0.01281046524292022692424986,
    0.01189670994589177009505572,
    0.01110455975820691732662991,
    0.010411265261972096497478567,
    0.009799416126158803298389475,
    0.009255462182712732917728637,
    0.008768700134139385462952823,
    0.008330563433362871256469318,
    0.007934114564314020547248100,
    0.007573675487951840794972024,
    0.007244554301320383179543912,
    0.006942840107209529865664152,
    0.006665247032707682442354394,
    0.006408994188004207068439631,
    0.006171712263039457647532867,
    0.005951370112758847735624416,
    0.005746216513010115682023589,
    0.005554733551962801371038690,
])


def stirlerr(n):
    """log(n!) - log(sqrt(2 pi n) (n/e)^n), the error of Stirling's formula, for n >= 0.

    Loader (2000): exact values at half-integers up to 15, the asymptotic series above. scipy has
    no counterpart; ``gammaln(n + 1) - (n + 0.5) log n + n - log(2 pi)/2`` cancels to nothing at
    large n (the reason :func:`binom_logpmf` is hand-written).
    """
    n = np.asarray(n, dtype=float)
    s0, s1, s2, s3, s4 = 1.0 / 12, 1.0 / 360, 1.0 / 1260, 1.0 / 1680, 1.0 / 1188
    if n.size and n.min() > 500:  # the large-n branch only (the usual case of the binomial sums)
        out = (s0 - s1 / (n * n)) / n
        return out if out.ndim else float(out)
    out = np.empty_like(n)
    small = n <= 15.0
    if np.any(small):
        ns = n[small]
        twice = 2.0 * ns
        exact_half = (twice == np.round(twice))
        vals = np.empty_like(ns)
        idx = np.round(twice).astype(int)
        vals[exact_half] = _SFERR_HALVES[idx[exact_half]]
        other = ~exact_half
        if np.any(other):
            no = ns[other]
            vals[other] = _special().gammaln(no + 1.0) - (no + 0.5) * np.log(no) + no - 0.5 * LOG_2PI
        out[small] = vals
    big = ~small
    if np.any(big):
        nb = n[big]
        nn = nb * nb
        vals = np.where(
            nb > 500, (s0 - s1 / nn) / nb,
            np.where(nb > 80, (s0 - (s1 - s2 / nn) / nn) / nb,
                     np.where(nb > 35, (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / nb,
                              (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / nb)))
        out[big] = vals
    return out if out.ndim else float(out)


def bd0(x, m):
    """x log(x/m) + m - x, computed without cancellation when x is close to m (x, m > 0).

    Loader's deviance term (2000), series in v = (x - m)/(x + m) for |v| < 0.1; no library has it.
    The series, (x - m) v + 2 x sum_j v^(2j+1) / (2j + 1), is summed by Horner's rule with as many
    terms as the largest |v| needs for its last one to fall below 2^-54 of the first.
    """
    x = np.asarray(x, dtype=float)
    m = np.asarray(m, dtype=float)
    x, m = np.broadcast_arrays(x, m)
    out = np.empty(x.shape, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        close = np.abs(x - m) < 0.1 * (x + m)
        if not close.all():
            far = ~close
            xf, mf = x[far], m[far]
            with np.errstate(over="ignore", under="ignore"):
                log_ratio = np.log(xf / mf)
            spill = np.isinf(log_ratio) & (xf > 0)  # x / m beyond the float range (subnormal m)
            log_ratio[spill] = np.log(xf[spill]) - np.log(mf[spill])
            out[far] = xf * log_ratio + mf - xf
        if np.any(close):
            xc, mc = (x, m) if close.all() else (x[close], m[close])
            v = (xc - mc) / (xc + mc)
            vv = v * v
            largest = float(vv.max())
            terms = 1 if largest == 0.0 else max(1, math.ceil(-54.0 * math.log(2.0) / math.log(largest)))
            acc = np.full(vv.shape, 1.0 / (2 * terms + 1))
            for j in range(terms - 1, 0, -1):
                acc = acc * vv + 1.0 / (2 * j + 1)
            series = (xc - mc) * v + 2.0 * xc * v * vv * acc
            if close.all():
                out = series
            else:
                out[close] = series
    return out if out.ndim else float(out)


def binom_logpmf(k, n, p, q=None):
    """log P[Bin(n, p) = k], accurate for huge n (Loader's saddle point form).

    ``q`` may be given as 1 - p when p is close to 1, to avoid losing its digits.
    Returns -inf outside 0 <= k <= n.

    Kept hand-written: ``test_binom_logpmf_is_kept_because_scipy_loses_accuracy`` shows
    ``scipy.stats.binom.logpmf`` (a difference of ``gammaln``) off by 2e-3 in the log at n = 1e12
    and by more than 1 at n = 1e15, and ``log(scipy.stats.binom.pmf)`` (Boost) 2 to 7 times less
    accurate than this form from n = 1e6 on, and -inf wherever the pmf is below 1e-308 (40
    standard deviations out, where the tails of :func:`binom_logsf` need it).
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    p = np.asarray(p, dtype=float)
    q = 1.0 - p if q is None else np.asarray(q, dtype=float)
    k, n, p, q = np.broadcast_arrays(k, n, p, q)
    out = np.full(k.shape, -np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        inside = (k >= 0) & (k <= n)
        zero_p = inside & (p == 0)
        out[zero_p & (k == 0)] = 0.0
        zero_q = inside & (q == 0)
        out[zero_q & (k == n)] = 0.0
        gen = inside & (p > 0) & (q > 0)
        lo = gen & (k == 0)
        # log q^n and log p^n from whichever of p, q is the small one (held exactly; the other
        # may be 1 minus it, rounded): log(1 - 1e-12) from p = 1 - 1e-12 loses four digits
        out[lo] = n[lo] * np.where(q[lo] > 0.5, np.log1p(-p[lo]), np.log(q[lo]))
        hi = gen & (k == n) & (k > 0)
        out[hi] = n[hi] * np.where(p[hi] > 0.5, np.log1p(-q[hi]), np.log(p[hi]))
        mid = gen & (k > 0) & (k < n)
        if np.any(mid):
            km, nm, pm, qm = k[mid], n[mid], p[mid], q[mid]
            # the three Stirling errors and the two deviances each in one vectorised call
            size = km.size
            st = stirlerr(np.concatenate([nm, km, nm - km]))
            dev = bd0(np.concatenate([km, nm - km]), np.concatenate([nm * pm, nm * qm]))
            lc = (st[:size] - st[size:2 * size] - st[2 * size:]
                  - dev[:size] - dev[size:])
            out[mid] = lc + 0.5 * (np.log(nm) - np.log(km) - np.log(nm - km) - LOG_2PI)
    return out if out.ndim else float(out)


def _cf_tail_ratio(a, b, x, y, max_iter=20000, tol=1e-15):
    """Continued fraction for I_x(a, b) / [x^a y^b / (a B(a, b))], valid for x < (a+1)/(a+b+2).

    The form of Didonato and Morris (1992) that Boost's ``ibeta`` uses for its far tails,
    I_x(a, b) = x^a y^b / (B(a, b) (b0 + a1/(b1 + a2/(b2 + ...)))) with
    a_m = (a+m-1)(a+b+m-1) m (b-m) x^2 / (a+2m-1)^2 and
    b_m = m + m (b-m) x / (a+2m-1) + (a+m)((a+1) y - (b-1) x + m (1+y)) / (a+2m+1),
    so the ratio is a / (b0 + ...). Its terms use ``y`` = 1 - x as given, not 1 - x rounded: the
    form of DLMF 8.17.22, in x alone, loses the digits of y when x = 1 - p is close to 1
    (``test_binom_logcdf_with_small_p``: 2e-5 off in the log of P[Bin(1e15, 1e-12) = 0], 17
    times :func:`binom_tail_rtol`). Modified Lentz algorithm, vectorised. Returns
    (value, converged).
    scipy exposes no ratio of this kind, only the tail itself (``betainc``), which underflows
    below 1e-308.
    """
    tiny = 1e-300
    a, b, x, y = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, b, x, y)))
    converged = np.zeros(a.shape, dtype=bool)
    # b0 = a ((a+1) y - (b-1) x) / (a+1)
    f = a * ((a + 1.0) * y - (b - 1.0) * x) / (a + 1.0)
    f = np.where(np.abs(f) < tiny, tiny, f)
    c = f.copy()
    d = np.zeros_like(a)
    for m in range(1, max_iter):
        den = a + 2.0 * m - 1.0
        am = (a + m - 1.0) * (a + b + m - 1.0) * m * (b - m) * x * x / (den * den)
        bm = (m + m * (b - m) * x / den
              + (a + m) * ((a + 1.0) * y - (b - 1.0) * x + m * (1.0 + y)) / (a + 2.0 * m + 1.0))
        d = bm + am * d
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = bm + am / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1.0 / d
        delta = c * d
        f = np.where(converged, f, f * delta)
        converged |= np.abs(delta - 1.0) < tol
        if m % 4 == 0 and converged.all():
            break
    return a / f, converged


#: Gauss-Legendre nodes of :func:`_quadrature_log_tail`. On a Gaussian spanning a drop of 50 on
#: both sides (the widest span :func:`_quadrature_span` returns) 48 nodes err by 3e-16, 40 nodes by
#: 2e-12 (and 1.4e-11 measured at n = 3e4, 12 standard deviations out); 48 nodes also integrate the
#: integrand, of degree n - 2 in t, exactly up to n = 97.
_GL_NODES = 48
#: ... and on a span with the integrand's top at one end (the tail away from the mode), where 24
#: nodes integrate an exponential or a half Gaussian dropping by 50 to 4e-15, and the integrand
#: exactly up to n = 49.
_GL_NODES_ONE_SIDED = 24
_gl_cache: dict = {}


def gauss_legendre(m: int):
    """Nodes and weights of the m-point Gauss-Legendre rule on [-1, 1]: Newton's method on the
    Legendre recurrence from Tricomi's first guesses (tests/test_precision.py compares them with
    mpmath's at 30 digits). Cached."""
    if m in _gl_cache:
        return _gl_cache[m]
    i = np.arange(1, m + 1)
    x = np.cos(np.pi * (i - 0.25) / (m + 0.5))
    for _ in range(5):  # the guesses are within 1e-4: Newton doubles the digits each time
        p0, p1 = np.ones_like(x), x.copy()
        for j in range(2, m + 1):
            p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
        x = x - p1 / (m * (x * p1 - p0) / (x * x - 1.0))
    p0, p1 = np.ones_like(x), x.copy()
    for j in range(2, m + 1):
        p0, p1 = p1, ((2 * j - 1) * x * p1 - (j - 1) * p0) / j
    dp = m * (x * p1 - p0) / (x * x - 1.0)
    weights = 2.0 / ((1.0 - x * x) * dp * dp)
    _gl_cache[m] = (x, weights)
    return x, weights


#: The quadrature of :func:`_quadrature_log_tail` covers the t where the integrand is within
#: e^-40 of its largest value; the rest, by log-concavity, is below 1e-17 of the tail ...
_QUAD_DROP = 40.0
#: ... and no more than this factor beyond it: a span whose drop is far beyond it leaves the mass
#: on a few nodes (drops of 78 and 126 left 2e-10 relative on 40 nodes at n = 1e3, p = 1/2, 20
#: standard deviations below the mean).
_QUAD_BAND = 1.25


def _log_drop(s, direction, top, top_bar, a, b):
    """phi(top) - phi(top + direction s) for phi(t) = a log t + b log(1 - t), with 1 - top given
    as ``top_bar`` (held where top is within rounding of 1), and its derivative in s."""
    with np.errstate(divide="ignore", invalid="ignore"):
        drop = -a * np.log1p(direction * s / top) - b * np.log1p(-direction * s / top_bar)
        slope = -a * direction / (top + direction * s) + b * direction / (top_bar - direction * s)
    return drop, slope


def _quadrature_span(step, limit, drop_at):
    """A step s in (0, limit] from the top of a log-concave integrand where its drop
    ``drop_at(s)`` (a pair: the drop and its derivative) is between :data:`_QUAD_DROP` and
    :data:`_QUAD_BAND` times it, or s = limit where the drop there is at most that (arrays).

    Newton's method toward the middle of the band (the drop is convex in s), kept inside the
    bracket found so far (else Newton's method in log(limit - s), for a drop that grows like the
    log of the gap to the limit, else bisection, doubling while no upper end is known); where the band
    is narrower than the float spacing, the bracket's wider end. A span whose drop is far beyond
    :data:`_QUAD_DROP` would leave the integrand's mass on a few nodes."""
    target = 0.5 * (1.0 + _QUAD_BAND) * _QUAD_DROP
    step = np.minimum(step, limit)
    drop, slope = drop_at(step)
    short = (drop < _QUAD_DROP) & (step < limit)
    long = drop > _QUAD_BAND * _QUAD_DROP
    if not (short.any() or long.any()):  # the usual case at large n: the first guess is in the band
        return step
    if short.any():
        # the band out of float reach (t^a with a small: the drop reaches it within an ulp of
        # the limit): the limit
        edge, _ = drop_at(limit * (1.0 - 1e-13))
        out_of_reach = short & (edge < _QUAD_DROP)
        step = np.where(out_of_reach, limit, step)
        short &= ~out_of_reach
        long &= ~out_of_reach
    below = np.zeros_like(step)
    above = np.full_like(step, np.inf)
    for _ in range(200):
        # a band narrower than the float spacing (the drop of t^a, small a, near t = 0): the
        # wider end, whose extra drop is that of a low-degree polynomial factor
        middle = 0.5 * (below + above)
        stuck = (short | long) & np.isfinite(above) & (
            (above - below <= 1e-13 * above) | (middle <= below) | (middle >= above))
        step = np.where(stuck, above, step)
        short &= ~stuck
        long &= ~stuck
        if not (short.any() or long.any()):
            return step
        below = np.where(short, step, below)
        above = np.where(long, step, above)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            newton = step + (target - drop) / slope
            # Newton in log(limit - s), where the drop grows like a log of the gap to the limit
            gap = limit - step
            newton_gap = limit - gap * np.exp(-(target - drop) / (slope * gap))
        fallback = np.where(np.isinf(above), 2.0 * step, 0.5 * (below + above))
        fallback = np.where(np.isfinite(newton_gap) & (newton_gap > below) & (newton_gap < above),
                            newton_gap, fallback)
        guess = np.where(np.isfinite(newton) & (newton > below) & (newton < above), newton, fallback)
        step = np.where(short | long, np.minimum(guess, limit), step)
        drop, slope = drop_at(step)
        short = (drop < _QUAD_DROP) & (step < limit)
        long = drop > _QUAD_BAND * _QUAD_DROP
    raise ArithmeticError("binomial tail quadrature: no span found")  # pragma: no cover


def _quadrature_log_tail(k, n, p, q):
    """log P[Bin(n, p) >= k] for 2 <= k <= n - 1 and 0 < p < 1 (arrays), by quadrature of
    P[Bin(n, p) >= k] = integral_0^p n P[Bin(n - 1, t) = k - 1] dt
    (the incomplete beta integral I_p(k, n - k + 1) with its density written as a binomial pmf).

    The integrand is log-concave with its top at t* = (k - 1)/(n - 1). It is integrated in the
    coordinate in which the top is at most 1/2 (t, or v = 1 - t over [q, 1] with the exponents
    swapped), so that no node's 1 - t is a difference near 1, and nodes next to the boundary p are
    counted from it with 1 - p as held. The span covers the t where the integrand is within
    :data:`_QUAD_DROP` of its largest value (:func:`_quadrature_span`), so the rest is below 1e-17
    of the integral; 48 Gauss-Legendre nodes on it (:data:`_GL_NODES`), 24 where the top is at an
    end of the span (:data:`_GL_NODES_ONE_SIDED`). The integrand is Loader's saddle-point form of
    the pmf (:func:`stirlerr`, :func:`bd0`) at every node; no library call. Each side of the
    span is measured from the top or the mode with its 1 - t, so that a region [q, 1] whose q
    rounds to 1 (p = 5e-131) keeps its width.
    """
    a, b, nn = k - 1.0, n - k, n - 1.0
    flip = a > b  # integrate over v = 1 - t in [q, 1]: exponents (b, a), boundary q
    alpha, beta = np.where(flip, b, a), np.where(flip, a, b)
    x, x_bar = np.where(flip, q, p), np.where(flip, p, q)
    mode, mode_bar = alpha / nn, beta / nn
    out_dir = np.where(flip, 1.0, -1.0)  # from the top away from the boundary x
    inside = np.where(flip, x < mode, x > mode)  # the region [0, x] or [x, 1] holds the mode
    top, top_bar = np.where(inside, mode, x), np.where(inside, mode_bar, x_bar)
    # slope and curvature of phi at the top, in units of the distance h to the nearer of 0 and 1
    h = np.minimum(top, top_bar)
    slope = np.abs(alpha * (h / top) - beta * (h / top_bar))
    curvature = alpha * (h / top) ** 2 + beta * (h / top_bar) ** 2
    outward = _quadrature_span(
        h * 2.0 * _QUAD_DROP / (slope + np.sqrt(slope * slope + 2.0 * curvature * _QUAD_DROP)),
        np.where(flip, top_bar, top),
        lambda s: _log_drop(s, out_dir, top, top_bar, alpha, beta))
    # from the mode toward x, where the region holds the mode (mode <= 1/2: no rounding near 1)
    to_x = np.where(inside, np.abs(x - mode), 0.0)
    toward = _quadrature_span(
        mode * np.sqrt(2.0 * _QUAD_DROP / (alpha + beta * (mode / mode_bar) ** 2)), to_x,
        lambda s: _log_drop(s, -out_dir, mode, mode_bar, alpha, beta)) if inside.any() else to_x
    # nodes counted from the end next to x (x itself where the span reaches it)
    at_x = ~inside | (toward >= to_x)
    reach = np.where(at_x, to_x, toward)
    anchor = np.where(at_x, x, mode - out_dir * toward)
    anchor_bar = np.where(at_x, x_bar, mode_bar + out_dir * toward)
    length = outward + reach
    # two-sided spans (the mode inside) take _GL_NODES nodes, one-sided ones _GL_NODES_ONE_SIDED
    pieces = []
    for group, m in ((inside, _GL_NODES), (~inside, _GL_NODES_ONE_SIDED)):
        if group.any():
            nodes, weights = gauss_legendre(m)
            s = length[group, None] * (0.5 + 0.5 * nodes[None, :])
            direction = out_dir[group, None]
            pieces.append((group, weights, anchor[group, None] + direction * s,
                           anchor_bar[group, None] - direction * s))
    # the deviances of every node in one call
    counts = [(piece[2].size, piece[2].shape) for piece in pieces]
    dev = bd0(np.concatenate([np.broadcast_to(alpha[g, None], t.shape).ravel() for g, _, t, _ in pieces]
                             + [np.broadcast_to(beta[g, None], t.shape).ravel() for g, _, t, _ in pieces]),
              np.concatenate([(nn[g, None] * t).ravel() for g, _, t, _ in pieces]
                             + [(nn[g, None] * tb).ravel() for g, _, _, tb in pieces]))
    half = sum(c for c, _ in counts)
    peak = np.empty(len(a))
    total = np.empty(len(a))
    start = 0
    for (group, weights, _, _), (count, shape) in zip(pieces, counts):
        log_f = -(dev[start:start + count] + dev[half + start:half + start + count]).reshape(shape)
        start += count
        peak[group] = log_f.max(axis=1)
        total[group] = np.exp(log_f - peak[group, None]) @ weights
    size = len(a)
    st = stirlerr(np.concatenate([nn, a, b]))
    const = (st[:size] - st[size:2 * size] - st[2 * size:]
             + 0.5 * (np.log(nn) - np.log(a) - np.log(b) - LOG_2PI))
    return np.log(n) + const + peak + np.log(total * 0.5 * length)


def _log_upper_tail(k, n, p, q):
    """log P[Bin(n, p) >= k] for 1 <= k <= n and 0 < p <= 1 (arrays; ``q`` = 1 - p as held, so
    that a lower tail, the upper tail of n - X ~ Bin(n, 1 - p), keeps p's digits).

    k = 1 and k = n in closed form (log(1 - q^n), n log p), every other threshold by quadrature
    (:func:`_quadrature_log_tail`), in log space also far below the float range, except where p
    or 1 - p is below :data:`_TINY_P` (the continued fraction, :func:`_cf_log_tail`).
    """
    out = np.zeros(k.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_q = np.where(q > 0.5, np.log1p(-p), np.log(q))
        log_p = np.where(p > 0.5, np.log1p(-q), np.log(p))
    todo = q > 0  # p = 1: the tail is 1
    first = todo & (k == 1)
    out[first] = log1mexp(n[first] * log_q[first])
    last = todo & (k == n) & (k > 1)
    out[last] = n[last] * log_p[last]
    middle = todo & (k > 1) & (k < n)
    # p or q near the bottom of the float range (subnormal: a span of nodes there is a few
    # representable numbers): the continued fraction, which converges at once for such a p
    tiny_p = middle & (p < _TINY_P)
    if np.any(tiny_p):
        out[tiny_p] = _cf_log_tail(k[tiny_p], n[tiny_p], p[tiny_p], q[tiny_p])
    tiny_q = middle & ~tiny_p & (q < _TINY_P)
    if np.any(tiny_q):
        nt = n[tiny_q]
        out[tiny_q] = log1mexp(_cf_log_tail(nt - k[tiny_q] + 1.0, nt, q[tiny_q], p[tiny_q]))
    middle &= ~(tiny_p | tiny_q)
    if np.any(middle):
        out[middle] = _quadrature_log_tail(k[middle], n[middle], p[middle], q[middle])
    return out


#: Below this p (or 1 - p) the tails take the continued fraction (:func:`_log_upper_tail`).
_TINY_P = 1e-280


def _cf_log_tail(k, n, p, q):
    """log P[Bin(n, p) >= k] as the log-pmf plus the log of the continued fraction's tail ratio
    (:func:`_cf_tail_ratio`), for k above (n + 3) p - 1."""
    ratio, converged = _cf_tail_ratio(k, n - k + 1.0, p, q)
    if not np.all(converged):  # pragma: no cover - a tiny p settles in a few steps
        raise ArithmeticError("binomial tail: continued fraction did not converge")
    return binom_logpmf(k, n, p, q) + np.log(q) + np.log(ratio)


def binom_sf(k, n, p):
    """P[Bin(n, p) >= k] in float64 (0 where it underflows; see :func:`binom_logsf`): the exp of
    :func:`binom_logsf`. Not ``scipy.special.bdtrc``:
    ``test_bdtr_bdtrc_lose_accuracy_at_large_n`` shows it off by 5e8 times
    :func:`binom_tail_rtol` at n = 1e8 and NaN from n = 1e10.
    """
    logs = binom_logsf(k, n, p)
    with np.errstate(under="ignore"):
        out = np.exp(logs)
    return out if np.ndim(out) else float(out)


def binom_cdf(k, n, p):
    """P[Bin(n, p) <= k] in float64: the exp of :func:`binom_logcdf` (not ``bdtr``, for the
    reason given in :func:`binom_sf`)."""
    logs = binom_logcdf(k, n, p)
    with np.errstate(under="ignore"):
        out = np.exp(logs)
    return out if np.ndim(out) else float(out)


def binom_logsf(k, n, p):
    """log P[Bin(n, p) >= k], accurate also where the tail is far below 1e-308.

    Computed here without a library call (:func:`_log_upper_tail`): quadrature of the incomplete
    beta integral within 6 standard deviations of the mean, the continued fraction of the tail
    ratio beyond. scipy has no log-space binomial tail, and ``betainc`` (like
    ``scipy.stats.binom.logsf``) is 0 below the float range, -inf in log
    (``test_library_tails_underflow_where_the_log_tail_is_needed``). The relative error of the
    tail (the absolute error of its log) is within :func:`binom_tail_rtol` (n).
    """
    return _log_tail(k, n, p, upper=True)


def _log_tail(k, n, p, *, upper: bool):
    """:func:`binom_logsf` (``upper``) or :func:`binom_logcdf`: the trivial ends, and inside them
    :func:`_log_upper_tail`; a lower tail is the upper tail of n - X ~ Bin(n, 1 - p) at n - k,
    with p and 1 - p both passed as held."""
    k = (np.ceil if upper else np.floor)(np.asarray(k, dtype=float))
    k, n, p = np.broadcast_arrays(k, np.asarray(n, dtype=float), np.asarray(p, dtype=float))
    if upper:
        out, mid = np.where(k <= 0, 0.0, -np.inf), (k > 0) & (k <= n) & (p > 0)
    else:
        out, mid = np.where(k >= n, 0.0, -np.inf), (k >= 0) & (k < n) & (p < 1)
    if np.any(mid):
        km, nm, pm = k[mid], n[mid], p[mid]
        out = out.copy()
        if upper:
            out[mid] = _log_upper_tail(km, nm, pm, 1.0 - pm)
        else:
            out[mid] = _log_upper_tail(nm - km, nm, 1.0 - pm, pm)
    return out if out.ndim else float(out)


def binom_log_mills(k, n, p):
    """log R(k) with R(k) = P[Bin(n, p) >= k] / P[Bin(n, p) = k], for 0 <= k <= n.

    The ratio is computed directly (continued fraction) where k is at least one standard
    deviation above the mean, and as a quotient of the tail and the pmf elsewhere, so that a
    difference such as ``A B(k) - c S(k)`` can be formed as ``B(k) (A - c R(k))`` without the
    tail's error being amplified. Returns (log R, relative error bound of R). No library
    computes this ratio.
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    p = np.asarray(p, dtype=float)
    k, n, p = np.broadcast_arrays(k, n, p)
    out = np.zeros(k.shape)
    sd = np.sqrt(n * p * (1 - p))
    # the continued fraction converges in a few dozen steps from about 6 sd above the mean
    far = (k >= n * p + 6 * sd + 1) & (k >= 1) & (k <= n)
    if np.any(far):
        kf, nf, pf = k[far], n[far], p[far]
        ratio, conv = _cf_tail_ratio(kf, nf - kf + 1.0, pf, 1.0 - pf)
        if not np.all(conv):
            raise ArithmeticError("binomial Mills ratio: continued fraction did not converge")
        out[far] = np.log1p(-pf) + np.log(ratio)
    near = ~far & (k <= n)
    if np.any(near):
        kn, nn, pn = k[near], n[near], p[near]
        logs = binom_logsf(kn, nn, pn)
        out[near] = logs - binom_logpmf(kn, nn, pn)
    return out, binom_tail_rtol(n)


def binom_logcdf(k, n, p):
    """log P[Bin(n, p) <= k], accurate also where the tail is far below 1e-308.

    The upper tail of n - X ~ Bin(n, 1 - p) at n - k, with 1 - p and p both held exactly
    (:func:`_log_upper_tail`, as in :func:`binom_logsf`).
    """
    return _log_tail(k, n, p, upper=False)


# ---------------------------------------------------------------------------
# binomial probabilities, mpmath


def mp_binom_pmf(k, n, p):
    """P[Bin(n, p) = k] at the current mpmath precision (integers k, n)."""
    k = int(k)
    n = int(n)
    if k < 0 or k > n:
        return mpmath.mpf(0)
    p = mpmath.mpf(p)
    return mpmath.binomial(n, k) * p**k * (1 - p) ** (n - k)


def _mp_cf_tail_ratio(a, b, x, max_iter=10**6):
    """mpmath continued fraction for I_x(a, b) / [x^a (1-x)^b / (a B(a, b))] (DLMF 8.17.22)."""
    tiny = mpmath.mpf(10) ** (-(mpmath.mp.dps + 50))
    eps = mpmath.mpf(10) ** (-(mpmath.mp.dps + 3))
    f = mpmath.mpf(1)
    c = mpmath.mpf(1)
    d = mpmath.mpf(0)
    for m in range(max_iter):
        for num in (-(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
                    (m + 1) * (b - m - 1) * x / ((a + 2 * m + 1) * (a + 2 * m + 2))):
            d = 1 + num * d
            if abs(d) < tiny:
                d = tiny
            c = 1 + num / c
            if abs(c) < tiny:
                c = tiny
            d = 1 / d
            step = c * d
            f *= step
        if abs(step - 1) < eps:
            return 1 / f
    raise ArithmeticError(f"binomial tail continued fraction did not converge in {max_iter} steps")


def _mp_upper_tail(k, n, p):
    """P[Bin(n, p) >= k] for 1 <= k <= n with k above the mean, by the continued fraction."""
    a = mpmath.mpf(k)
    b = mpmath.mpf(n - k + 1)
    return mp_binom_pmf(k, n, p) * (1 - p) * _mp_cf_tail_ratio(a, b, p)


def mp_binom_sf(k, n, p):
    """P[Bin(n, p) >= k] at the current mpmath precision (direct sum or continued fraction).

    Not ``mpmath.betainc``: its hypergeometric series raises ``NoConvergence`` already at
    n = 1e6, 40 standard deviations out (``test_mp_tails_are_kept_because_mpmath_betainc_fails``).
    """
    k = int(math.ceil(k))
    n = int(n)
    if k <= 0:
        return mpmath.mpf(1)
    if k > n:
        return mpmath.mpf(0)
    p = mpmath.mpf(p)
    if n <= 60:
        return mpmath.fsum(mp_binom_pmf(j, n, p) for j in range(k, n + 1))
    if k >= (n + 1) * p:
        return _mp_upper_tail(k, n, p)
    return 1 - mp_binom_cdf(k - 1, n, p)


def mp_binom_cdf(k, n, p):
    """P[Bin(n, p) <= k] at the current mpmath precision: the upper tail of n - X ~ Bin(n, 1 - p)
    at n - k (:func:`mp_binom_sf`; 1 - p is formed at the working precision)."""
    k = int(math.floor(k))
    return mp_binom_sf(int(n) - k, int(n), 1 - mpmath.mpf(p))
