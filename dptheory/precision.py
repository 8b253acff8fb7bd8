"""Log-space arithmetic, mpmath precision control, and binomial probabilities in log space.

Float64 helpers are vectorised over numpy arrays. The binomial log-pmf uses Loader's saddle
point form (C. Loader, *Fast and accurate computation of binomial probabilities*, 2000): it stays
accurate for n up to 1e15, where ``gammaln(n+1) - gammaln(k+1) - ...`` loses every digit.
Binomial tails use the regularized incomplete beta function and, where that underflows, the
log-pmf times the tail ratio computed by a continued fraction, so that tails far below 1e-308
still come back as accurate logarithms.
"""

from __future__ import annotations

import contextlib
import math
from typing import Callable, Iterator

import mpmath
import numpy as np
from scipy import special

LOG_2PI = math.log(2.0 * math.pi)



def binom_tail_rtol(n):
    """Relative error bound of a float64 binomial tail or pmf with n trials.

    Float64 cannot place a threshold k among n ~ 1e12 trials to better than an ulp of n, which in
    standard deviations is about 1e-16 sqrt(n); the error of a tail probability (scipy's betainc,
    or the continued fraction here) grows accordingly: about 1e-10 relative at n = 1e10 and 1e-9 at
    n = 1e12. The bound below is 10 to 100 times the largest error observed against mpmath on the
    grid of tests/test_precision.py, for tails down to 40 standard deviations.
    """
    n = np.asarray(n, dtype=float)
    return 1e-12 + 4e-14 * np.sqrt(np.maximum(n, 1.0))

#: Below this value a float64 tail from betainc is recomputed in log space.
_TAIL_FLOOR = 1e-280


# ---------------------------------------------------------------------------
# log-space arithmetic


def logsumexp(values, axis=None):
    """log(sum(exp(values))) without overflow; -inf for an empty or all -inf input."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return -np.inf
    with np.errstate(divide="ignore"):
        return special.logsumexp(arr, axis=axis)


def log1mexp(x):
    """log(1 - exp(x)) for x <= 0, accurate near 0 and for very negative x."""
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(x > -math.log(2.0), np.log(-np.expm1(x)), np.log1p(-np.exp(x)))
    return out if out.ndim else float(out)


def logsubexp(a, b):
    """log(exp(a) - exp(b)) for a >= b (returns -inf when a == b)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    with np.errstate(invalid="ignore"):
        out = np.where(np.isneginf(b), a, a + log1mexp(np.minimum(b - a, 0.0)))
    return out if out.ndim else float(out)


def logaddexp(a, b):
    """log(exp(a) + exp(b))."""
    return np.logaddexp(a, b)


def round_up(x, ulps: int = 4):
    """Move ``x`` up by a few units in the last place (pessimistic rounding for upper bounds)."""
    x = np.asarray(x, dtype=float)
    out = x.copy()
    for _ in range(ulps):
        out = np.nextafter(out, np.inf)
    return out if out.ndim else float(out)


def inflate(x, rtol: float = 1e-10):
    """x (1 + rtol), rounded up: an upper bound computed in float64 to a relative error below
    ``rtol`` (gammaln, log-sum-exp and log1p each contribute ~1e-15 per term), made safe."""
    return round_up(np.asarray(x, dtype=float) * (1 + rtol))


def round_down(x, ulps: int = 4):
    """Move ``x`` down by a few units in the last place (pessimistic rounding for lower bounds)."""
    x = np.asarray(x, dtype=float)
    out = x.copy()
    for _ in range(ulps):
        out = np.nextafter(out, -np.inf)
    return out if out.ndim else float(out)


# ---------------------------------------------------------------------------
# mpmath precision


@contextlib.contextmanager
def mp_digits(digits: int) -> Iterator[None]:
    """Evaluate the enclosed block with mpmath at ``digits`` decimal digits."""
    with mpmath.workdps(int(digits)):
        yield


def mp_adaptive(fn: Callable[[], mpmath.mpf], digits: int, *, max_guard: int = 2000) -> mpmath.mpf:
    """Evaluate ``fn`` until two working precisions agree to ``digits`` significant digits.

    ``fn`` is re-run at ``digits + guard`` decimal digits with a growing guard, so sums that
    cancel catastrophically (a difference of two nearly equal tails) still come back with the
    requested number of correct digits. The returned value carries ``digits`` digits.
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
    """log(n!) - log(sqrt(2 pi n) (n/e)^n), the error of Stirling's formula, for n >= 0."""
    n = np.asarray(n, dtype=float)
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
            vals[other] = special.gammaln(no + 1.0) - (no + 0.5) * np.log(no) + no - 0.5 * LOG_2PI
        out[small] = vals
    big = ~small
    if np.any(big):
        nb = n[big]
        nn = nb * nb
        s0, s1, s2, s3, s4 = 1.0 / 12, 1.0 / 360, 1.0 / 1260, 1.0 / 1680, 1.0 / 1188
        vals = np.where(
            nb > 500, (s0 - s1 / nn) / nb,
            np.where(nb > 80, (s0 - (s1 - s2 / nn) / nn) / nb,
                     np.where(nb > 35, (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / nb,
                              (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / nb)))
        out[big] = vals
    return out if out.ndim else float(out)


def bd0(x, m):
    """x log(x/m) + m - x, computed without cancellation when x is close to m (x, m > 0)."""
    x = np.asarray(x, dtype=float)
    m = np.asarray(m, dtype=float)
    x, m = np.broadcast_arrays(x, m)
    out = np.empty(x.shape, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        close = np.abs(x - m) < 0.1 * (x + m)
        far = ~close
        out[far] = x[far] * np.log(x[far] / m[far]) + m[far] - x[far]
        if np.any(close):
            xc, mc = x[close], m[close]
            v = (xc - mc) / (xc + mc)
            s = (xc - mc) * v
            ej = 2.0 * xc * v
            vv = v * v
            done = np.zeros(xc.shape, dtype=bool)
            for j in range(1, 1000):
                ej = ej * vv
                s1 = s + ej / (2 * j + 1)
                newly = (s1 == s) & ~done
                done |= newly
                s = np.where(done, s, s1)
                if done.all():
                    break
            out[close] = s
    return out if out.ndim else float(out)


def binom_logpmf(k, n, p, q=None):
    """log P[Bin(n, p) = k], accurate for huge n (Loader's saddle point form).

    ``q`` may be given as 1 - p when p is close to 1, to avoid losing its digits.
    Returns -inf outside 0 <= k <= n.
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
        out[lo] = n[lo] * np.log1p(-p[lo]) if np.all(q[lo] == 1.0 - p[lo]) else n[lo] * np.log(q[lo])
        hi = gen & (k == n) & (k > 0)
        out[hi] = n[hi] * np.log(p[hi])
        mid = gen & (k > 0) & (k < n)
        if np.any(mid):
            km, nm, pm, qm = k[mid], n[mid], p[mid], q[mid]
            lc = (stirlerr(nm) - stirlerr(km) - stirlerr(nm - km)
                  - bd0(km, nm * pm) - bd0(nm - km, nm * qm))
            out[mid] = lc + 0.5 * (np.log(nm) - np.log(km) - np.log(nm - km) - LOG_2PI)
    return out if out.ndim else float(out)


def _cf_tail_ratio(a, b, x, y, max_iter=20000, tol=1e-15):
    """Continued fraction for I_x(a, b) / [x^a y^b / (a B(a, b))], valid for x < (a+1)/(a+b+2).

    Modified Lentz algorithm (DLMF 8.17.22), vectorised; ``y`` = 1 - x is passed separately.
    Returns (value, converged).
    """
    tiny = 1e-300
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    x = np.asarray(x, dtype=float)
    converged = np.zeros(a.shape, dtype=bool)
    # modified Lentz on 1 + d1/(1 + d2/(1 + ...)); the ratio is its reciprocal
    f = np.ones_like(a)
    c = np.ones_like(a)
    d = np.zeros_like(a)
    for m in range(0, max_iter):
        # odd coefficient d_{2m+1}
        num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1.0 + num * d
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = 1.0 + num / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1.0 / d
        f = np.where(converged, f, f * c * d)
        # even coefficient d_{2m+2}
        mm = m + 1
        num = mm * (b - mm) * x / ((a + 2 * mm - 1) * (a + 2 * mm))
        d = 1.0 + num * d
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = 1.0 + num / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1.0 / d
        delta = c * d
        f = np.where(converged, f, f * delta)
        converged |= np.abs(delta - 1.0) < tol
        if m % 4 == 3 and converged.all():
            break
    return 1.0 / f, converged


def binom_sf(k, n, p):
    """P[Bin(n, p) >= k] in float64 (0 when it underflows; see :func:`binom_logsf`)."""
    k = np.ceil(np.asarray(k, dtype=float))
    n = np.asarray(n, dtype=float)
    p = np.asarray(p, dtype=float)
    k, n, p = np.broadcast_arrays(k, n, p)
    out = np.where(k <= 0, 1.0, 0.0)
    mid = (k > 0) & (k <= n)
    if np.any(mid):
        out = out.copy()
        out[mid] = special.betainc(k[mid], n[mid] - k[mid] + 1.0, p[mid])
    return out if out.ndim else float(out)


def binom_cdf(k, n, p):
    """P[Bin(n, p) <= k] in float64."""
    k = np.floor(np.asarray(k, dtype=float))
    n = np.asarray(n, dtype=float)
    p = np.asarray(p, dtype=float)
    k, n, p = np.broadcast_arrays(k, n, p)
    out = np.where(k >= n, 1.0, 0.0)
    mid = (k >= 0) & (k < n)
    if np.any(mid):
        out = out.copy()
        out[mid] = special.betaincc(k[mid] + 1.0, n[mid] - k[mid], p[mid])
    return out if out.ndim else float(out)


def binom_logsf(k, n, p):
    """log P[Bin(n, p) >= k], accurate also where the tail is far below 1e-308.

    Returns (value, converged): ``converged`` is False only where the continued fraction of the
    far tail did not settle; callers that need certified bounds use :func:`binom_logsf_bounds`.
    """
    k = np.ceil(np.asarray(k, dtype=float))
    n = np.asarray(n, dtype=float)
    p = np.asarray(p, dtype=float)
    k, n, p = np.broadcast_arrays(k, n, p)
    out = np.where(k <= 0, 0.0, -np.inf)
    ok = np.ones(k.shape, dtype=bool)
    mid = (k > 0) & (k <= n) & (p > 0)
    if np.any(mid):
        out = out.copy()
        km, nm, pm = k[mid], n[mid], p[mid]
        direct = special.betainc(km, nm - km + 1.0, pm)
        with np.errstate(divide="ignore"):
            vals = np.log(direct)
        far = direct < _TAIL_FLOOR
        if np.any(far):
            kf, nf, pf = km[far], nm[far], pm[far]
            ratio, conv = _cf_tail_ratio(kf, nf - kf + 1.0, pf, 1.0 - pf)
            vals[far] = binom_logpmf(kf, nf, pf) + np.log1p(-pf) + np.log(ratio)
            sub = np.ones(km.shape, dtype=bool)
            sub[far] = conv
            ok_mid = ok[mid]
            ok_mid &= sub
            ok[mid] = ok_mid
        out[mid] = vals
    if out.ndim == 0:
        return float(out), bool(ok)
    return out, ok


def binom_log_mills(k, n, p):
    """log R(k) with R(k) = P[Bin(n, p) >= k] / P[Bin(n, p) = k], for 0 <= k <= n.

    The ratio is computed directly (continued fraction) where k is at least one standard
    deviation above the mean, and as a quotient of the tail and the pmf elsewhere, so that a
    difference such as ``A B(k) - c S(k)`` can be formed as ``B(k) (A - c R(k))`` without the
    tail's error being amplified. Returns (log R, relative error bound of R).
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
        logs, _ = binom_logsf(kn, nn, pn)
        out[near] = logs - binom_logpmf(kn, nn, pn)
    return out, binom_tail_rtol(n)


def binom_logcdf(k, n, p):
    """log P[Bin(n, p) <= k]; see :func:`binom_logsf` (uses n - X ~ Bin(n, 1 - p))."""
    k = np.floor(np.asarray(k, dtype=float))
    n = np.asarray(n, dtype=float)
    return binom_logsf(n - k, n, 1.0 - np.asarray(p, dtype=float))


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
    """P[Bin(n, p) >= k] at the current mpmath precision (direct sum or continued fraction)."""
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
    """P[Bin(n, p) <= k] at the current mpmath precision."""
    k = int(math.floor(k))
    n = int(n)
    if k < 0:
        return mpmath.mpf(0)
    if k >= n:
        return mpmath.mpf(1)
    p = mpmath.mpf(p)
    if n <= 60:
        return mpmath.fsum(mp_binom_pmf(j, n, p) for j in range(0, k + 1))
    if n - k >= (n + 1) * (1 - p):
        return _mp_upper_tail(n - k, n, 1 - p)
    return 1 - mp_binom_sf(k + 1, n, p)
