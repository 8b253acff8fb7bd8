"""Special functions that float64 or mpmath lack in the accuracy the toolkit needs.

These are the numeric counterparts that :func:`sympy.lambdify` maps sympy functions to, so that
formulas generated from sympy expressions stay accurate in the tails, and the normal tail
functions of the Gaussian DP profile. The float64 functions here use only numpy and ``math``:
``dptheory gdp`` does not pay the import of scipy.special (0.3-0.5 s), which the generated
formulas (:func:`numpy_modules`) still use.
"""

from __future__ import annotations

import math

import numpy as np

from .lazy_import import mpmath
from .rounding import EPS


def mp_erfcinv(x):
    """Inverse complementary error function at the current mpmath precision.

    ``mpmath.erfinv(1 - x)`` loses every digit of a tiny ``x``; here the equation
    ``log erfc(y) = log x`` is solved by Newton's method instead.
    """
    x = mpmath.mpf(x)
    if x <= 0 or x >= 2:
        if x == 0:
            return mpmath.inf
        if x == 2:
            return -mpmath.inf
        raise ValueError(f"erfcinv argument {x} outside [0, 2]")
    if x > 1:
        return -mp_erfcinv(2 - x)
    if x > mpmath.mpf("0.25"):
        return mpmath.erfinv(1 - x)
    guess = _erfc_inverse_guess(float(x)) if float(x) > 1e-300 else math.sqrt(-float(mpmath.log(x)))
    target = mpmath.log(x)
    y = mpmath.mpf(guess)
    for _ in range(200):
        # d/dy log erfc(y) = -2 exp(-y^2) / (sqrt(pi) erfc(y))
        ly = mpmath.log(mpmath.erfc(y))
        slope = -2 * mpmath.exp(-y * y) / (mpmath.sqrt(mpmath.pi) * mpmath.erfc(y))
        step = (ly - target) / slope
        y -= step
        if abs(step) <= abs(y) * mpmath.mpf(10) ** (-mpmath.mp.dps - 2):
            break
    return y


def _erfc_inverse_guess(x: float) -> float:
    """A starting point for Newton's method: erfc^-1(x) = -Phi^-1(x / 2) / sqrt 2."""
    from statistics import NormalDist

    return -NormalDist().inv_cdf(x / 2) / math.sqrt(2.0)


#: relative error bound of :func:`mills` for x >= 0 (the name is that of the scaled erfcx it is):
#: 7 EPS measured against mpmath on 3000 points over [0, 1e5] (tests/test_special.py), times 9
ERFCX_RTOL = 64 * EPS

#: relative error bound of :func:`log_ndtr`: measured against mpmath on 3000 points over
#: [-1e5, 8] (tests/test_special.py), with a margin of more than 3
LOG_NDTR_RTOL = 256 * EPS

_SQRT_2PI = math.sqrt(2.0 * math.pi)
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
#: below it Q(x) = erfc(x/sqrt 2)/2 (argument error amplified by at most 2y + 1); above it the
#: continued fraction of the Mills ratio, truncated after _CF_TERMS terms, is within 2e-21
#: relative of R(x) (the truncation error falls with x: 2e-21 at x = 3, 8e-28 at x = 4, against
#: mpmath at 40 digits; tests/test_special.py), far below an ulp
_CF_FROM, _CF_TERMS = 3.0, 80
_erfc = np.frompyfunc(math.erfc, 1, 1)


def _half_square(x):
    """x^2 / 2 as an unevaluated sum hi + lo (Dekker's exact product): exp(-x^2/2) from it is
    within a few ulps, where exp of the rounded x^2/2 is off by x^2/2 ulps."""
    x = np.asarray(x, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        c = 134217729.0 * x  # 2^27 + 1: Veltkamp's split x = xh + xl, each half of the bits
        xh = c - (c - x)
        xh = np.where(np.isfinite(xh), xh, x)
        xl = x - xh
        hi = x * x
        lo = ((xh * xh - hi) + 2.0 * xh * xl) + xl * xl
        lo = np.where(np.isfinite(hi), lo, 0.0)
    return 0.5 * hi, 0.5 * lo


def _mills_cf(x):
    """R(x) by Laplace's continued fraction 1/(x + 1/(x + 2/(x + 3/(x + ...)))), x >= _CF_FROM,
    evaluated backwards (positive terms: every step adds at most an ulp of relative error)."""
    t = np.zeros_like(x)
    for k in range(_CF_TERMS, 0, -1):
        t = k / (x + t)
    return 1.0 / (x + t)


def _log_phi(x):
    """log phi(x) = -x^2/2 - log(2 pi)/2, the square exact (see :func:`_half_square`)."""
    hi, lo = _half_square(x)
    return (-_HALF_LOG_2PI - lo) - hi


def log_ndtr(x):
    """log Phi(x) in float64, within :data:`LOG_NDTR_RTOL` relative for every x (no underflow:
    log phi(x) + log R(-x) below -3; log1p(-Q(x)) above 0, a subnormal -0.0 from about x = 38)."""
    x = np.asarray(x, dtype=float)
    out = np.empty(x.shape)
    with np.errstate(under="ignore", divide="ignore", over="ignore", invalid="ignore"):
        far = x <= -_CF_FROM
        if np.any(far):
            y = -x[far]
            out[far] = _log_phi(y) + np.log(_mills_cf(y))
        near = ~far & (x < 0)
        if np.any(near):
            out[near] = np.log(0.5 * _erfc(-x[near] / math.sqrt(2.0)).astype(float))
        right = ~far & ~near
        if np.any(right):
            out[right] = np.log1p(-_upper_tail(x[right]))
        out = np.where(np.isnan(x), np.nan, out)
    return out if out.ndim else float(out)


def _upper_tail(x):
    """Q(x) = 1 - Phi(x) for x >= 0 (0.0 or a subnormal where that is the truth)."""
    out = np.empty(x.shape)
    cf = x >= _CF_FROM
    if np.any(cf):
        hi, lo = _half_square(x[cf])
        with np.errstate(under="ignore"):
            # |lo| > 1 only where hi > 2^52 and exp(-hi) is 0: the clip keeps exp(-lo) finite
            out[cf] = np.exp(-hi) * np.exp(-np.clip(lo, -1.0, 1.0)) * _mills_cf(x[cf]) / _SQRT_2PI
    if np.any(~cf):
        out[~cf] = 0.5 * _erfc(x[~cf] / math.sqrt(2.0)).astype(float)
    return out


def mills(x):
    """R(x) = (1 - Phi(x)) / phi(x) = sqrt(pi/2) erfcx(x / sqrt 2) for x >= 0, within
    :data:`ERFCX_RTOL` relative (the continued fraction from x = 3, erfc and an exact square below)."""
    x = np.asarray(x, dtype=float)
    out = np.empty(x.shape)
    cf = x >= _CF_FROM
    if np.any(cf):
        out[cf] = _mills_cf(x[cf])
    small = ~cf
    if np.any(small):
        hi, lo = _half_square(x[small])
        q = 0.5 * _erfc(x[small] / math.sqrt(2.0)).astype(float)
        out[small] = q * _SQRT_2PI * np.exp(hi) * np.exp(lo)
    return out if out.ndim else float(out)


def numpy_modules() -> list:
    """The ``modules`` of :func:`sympy.lambdify` for the float64 versions of formulas (scipy's
    special functions, imported here: only where sympy is imported too)."""
    from scipy import special

    return [{"erfcinv": special.erfcinv, "erfc": special.erfc, "erf": special.erf}, "scipy", "numpy"]


MPMATH_MODULES = [{"erfcinv": mp_erfcinv}, "mpmath"]
