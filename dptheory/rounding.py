"""The one rounding policy: upper ends of certified intervals round up, lower ends round down.

Every certified interval in the toolkit passes its ends through these functions, so that an
``upper`` bound is never below the quantity it bounds because of the last floating-point step.

The policy
----------
* A float computation that the caller knows to be within ``abs_err + rel_err |x|`` of the truth
  is widened by that error; the widening itself is rounded outwards, and then moved
  :data:`ULPS` units in the last place further, which covers the rounding of the final
  operation that produced ``x`` (IEEE arithmetic is correctly rounded: half an ulp; the
  elementary functions of libm used here, ``exp``, ``log``, ``log1p``, ``expm1``, are within
  one ulp).
* ``exp`` of a log-space end: :func:`exp_up` never returns 0 for a finite log value (the
  smallest subnormal is returned instead: an upper bound rounded down to 0 is the worst bug a
  bound can have), :func:`exp_down` returns 0 below the float range.
* An mpmath value becomes a float by directed rounding (:func:`mp_up`, :func:`mp_down`).
* A float that is only known to be the nearest to a real is enclosed by its two
  :func:`neighbours`.

There is no other rounding helper in the package: a tolerance on a float result is passed here
as ``abs_err``/``rel_err``.
"""

from __future__ import annotations

import math

import numpy as np

from .lazy_import import mpmath

#: units in the last place added outside every error bound (the final operation's rounding)
ULPS = 2

#: float64 unit roundoff
EPS = float(np.finfo(float).eps)

_TINY = 5e-324  # smallest positive subnormal


def _step(x, direction: float, ulps: int):
    out = x
    for _ in range(ulps):
        out = np.nextafter(out, direction)
    return out


def _widening(arr, abs_err, rel_err):
    """abs_err + rel_err |x|, rounded up (each float operation moved one ulp outwards)."""
    rel = np.asarray(rel_err, dtype=float)
    absolute = np.asarray(abs_err, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = np.where(rel == 0, 0.0, np.nextafter(rel * np.abs(arr), np.inf))
        return np.where((absolute == 0) & (scaled == 0), 0.0, np.nextafter(absolute + scaled, np.inf))


_SUBNORMAL_BITS = np.int64(1)            # the bits of 5e-324
_NEG_SUBNORMAL_BITS = np.int64(-2**63 + 1)  # the bits of -5e-324


def _next(x, direction: float):
    """np.nextafter(x, direction) of a float64 array, by integer steps of its bits where every
    value is finite (a fraction of nextafter's cost): moving up adds 1 to the bits of a value
    with the sign bit clear and subtracts 1 from one with it set (the integer view of a negative
    float is -2^63 + its magnitude), both zeros go to the smallest subnormal; down mirrors it.
    From the largest finite float the step reaches the bits of the infinity, as nextafter does."""
    if not np.isfinite(x).all():
        return np.nextafter(x, direction)
    x = np.ascontiguousarray(x, dtype=np.float64)
    b = x.view(np.int64)
    sign = b >> 63  # -1 where the sign bit is set, else 0
    if direction > 0:
        out = b + 1 + 2 * sign
        zero = _SUBNORMAL_BITS
    else:
        out = b - 1 - 2 * sign
        zero = _NEG_SUBNORMAL_BITS
    zeros = x == 0
    if zeros.any():
        out[zeros] = zero
    return out.view(np.float64)


def _widening_finite(arr, abs_err, rel_err):
    """:func:`_widening` of a finite array with a scalar rel_err, or None where that does not
    apply: the same operations without the masks (a positive rel_err makes every scaled term at
    least the smallest subnormal, so the mask of zero terms is empty; a zero one with a scalar
    abs_err makes the widening a constant)."""
    if type(rel_err) not in _SCALAR_TYPES:
        return None
    r = float(rel_err)
    scalar_abs = type(abs_err) in _SCALAR_TYPES
    if r > 0:
        a = float(abs_err) if scalar_abs else np.asarray(abs_err, dtype=float)
        return _next(a + _next(r * np.abs(arr), np.inf), np.inf)
    if r == 0 and scalar_abs:
        a = float(abs_err)
        return np.full(arr.shape, 0.0 if a == 0 else math.nextafter(a, math.inf))
    return None


def _directed_finite(arr, abs_err, rel_err, ulps: int, direction: float):
    """:func:`up` (direction +inf) or :func:`down` (-inf) of an array, without the masks for NaN
    and infinities when it has none and the errors are scalars; None otherwise."""
    if arr.ndim == 0 or not np.isfinite(arr).all():
        return None
    with np.errstate(invalid="ignore", over="ignore"):
        w = _widening_finite(arr, abs_err, rel_err)
        if w is None:
            return None
        out = _next(arr + w if direction > 0 else arr - w, direction)
        for _ in range(ulps - 1):
            out = _next(out, direction)
        return out


def _scalars(*values) -> bool:
    """Whether every value is a Python (or numpy float64) scalar: the scalar path of :func:`up`
    and :func:`down` (the same operations in the same order on Python floats, which are IEEE
    doubles like numpy's; about ten times faster than 0-d arrays)."""
    return all(type(v) in _SCALAR_TYPES for v in values)


_SCALAR_TYPES = (float, int, np.float64)


def _scalar_rounded(x, abs_err, rel_err, ulps: int, direction: float) -> float:
    """:func:`up` (direction +inf) or :func:`down` (-inf) of scalars: :func:`_widening` and the
    steps, operation by operation, with math.nextafter."""
    x, a, r = float(x), float(abs_err), float(rel_err)
    if x != x:
        raise ArithmeticError("rounding a NaN: the computation that produced it is out of its domain")
    if math.isinf(x):
        return x
    scaled = 0.0 if r == 0 else math.nextafter(r * abs(x), math.inf)
    w = 0.0 if (a == 0 and scaled == 0) else math.nextafter(a + scaled, math.inf)
    out = math.nextafter(x + w if direction > 0 else x - w, direction)
    for _ in range(ulps - 1):
        out = math.nextafter(out, direction)
    return out


def up(x, abs_err=0.0, rel_err=0.0, *, ulps: int = ULPS):
    """A float >= every real within ``abs_err + rel_err |x|`` of ``x`` (vectorised).

    The widening is itself rounded outwards; infinities stay where they are.
    """
    if _scalars(x, abs_err, rel_err):
        return _scalar_rounded(x, abs_err, rel_err, ulps, math.inf)
    arr = np.asarray(x, dtype=float)
    fast = _directed_finite(arr, abs_err, rel_err, ulps, math.inf)
    if fast is not None:
        return fast
    _check_nan(arr)
    with np.errstate(invalid="ignore", over="ignore"):
        w = _widening(arr, abs_err, rel_err)
        out = np.where(np.isinf(arr), arr, _step(np.nextafter(arr + w, np.inf), np.inf, ulps - 1))
    return out if out.ndim else float(out)


def down(x, abs_err=0.0, rel_err=0.0, *, ulps: int = ULPS):
    """A float <= every real within ``abs_err + rel_err |x|`` of ``x`` (vectorised)."""
    if _scalars(x, abs_err, rel_err):
        return _scalar_rounded(x, abs_err, rel_err, ulps, -math.inf)
    arr = np.asarray(x, dtype=float)
    fast = _directed_finite(arr, abs_err, rel_err, ulps, -math.inf)
    if fast is not None:
        return fast
    _check_nan(arr)
    with np.errstate(invalid="ignore", over="ignore"):
        w = _widening(arr, abs_err, rel_err)
        out = np.where(np.isinf(arr), arr, _step(np.nextafter(arr - w, -np.inf), -np.inf, ulps - 1))
    return out if out.ndim else float(out)


def up_nonneg(x, abs_err=0.0, rel_err=0.0):
    """:func:`up` for a quantity known to be >= 0 (the result is >= 0 as well)."""
    return np.maximum(up(x, abs_err, rel_err), 0.0) if np.ndim(x) else max(up(x, abs_err, rel_err), 0.0)


def down_nonneg(x, abs_err=0.0, rel_err=0.0):
    """:func:`down` clipped at 0, for a quantity known to be >= 0 (clipping a lower end at a
    proven lower limit is sound)."""
    return np.maximum(down(x, abs_err, rel_err), 0.0) if np.ndim(x) else max(down(x, abs_err, rel_err), 0.0)


def exp_up(log_x):
    """exp of a log-space upper end, rounded up: never 0 for a finite argument; exactly 1 at 0
    (exp(0) = 1 is exact: a delta whose log is capped at 0 stays at most 1)."""
    arr = np.asarray(log_x, dtype=float)
    _check_nan(arr)
    with np.errstate(over="ignore", under="ignore"):
        out = _step(np.exp(arr), np.inf, ULPS)
    out = np.where(np.isneginf(arr), 0.0, np.where(arr == 0, 1.0, np.maximum(out, _TINY)))
    return out if out.ndim else float(out)


def exp_down(log_x):
    """exp of a log-space lower end, rounded down (0 below the float range; exactly 1 at 0)."""
    arr = np.asarray(log_x, dtype=float)
    _check_nan(arr)
    with np.errstate(over="ignore", under="ignore"):
        out = _step(np.exp(arr), -np.inf, ULPS)
    out = np.where(arr == 0, 1.0, np.maximum(out, 0.0))
    return out if out.ndim else float(out)


def neighbours(x):
    """(below, above): the largest float < ``x`` and the smallest float > ``x`` (vectorised).

    The enclosure of a real known only to round to ``x`` (the result of one correctly rounded
    operation, a float nearest to an exact value): it lies strictly between these two. Also the
    points on either side of a breakpoint, where a piecewise function is checked on both sides.
    At the edges of the float range the outer neighbour is an infinity.
    """
    arr = np.asarray(x, dtype=float)
    with np.errstate(over="ignore"):  # past the largest float: the infinity, as documented
        below, above = np.nextafter(arr, -np.inf), np.nextafter(arr, np.inf)
    if not np.all(below < above):  # only a NaN has no neighbours in order (one pass, no isnan)
        _check_nan(arr)
    return (below, above) if arr.ndim else (float(below), float(above))


def _log(x, direction: float):
    arr = np.asarray(x, dtype=float)
    _check_nan(arr)
    if np.any(arr < 0):
        raise ArithmeticError("log of a negative interval end: the computation that produced it is out of its domain")
    with np.errstate(divide="ignore"):
        out = np.log(arr)
    out = np.where(np.isfinite(out), _step(out, direction, ULPS), out)
    return out if out.ndim else float(out)


def log_up(x):
    """log of a non-negative upper end, rounded up (``-inf`` for 0)."""
    return _log(x, np.inf)


def log_down(x):
    """log of a non-negative lower end, rounded down (``-inf`` for 0)."""
    return _log(x, -np.inf)


_MAX = float(np.finfo(float).max)


def _mp(x):
    """x as an mpf, without rounding an mpf to the current working precision."""
    if isinstance(x, mpmath.mpf):
        value = x
    else:
        with mpmath.workprec(max(mpmath.mp.prec, 256)):
            value = mpmath.mpf(x)
    if mpmath.isnan(value):
        raise ArithmeticError("rounding a NaN: the computation that produced it is out of its domain")
    return value


def mp_up(x) -> float:
    """The smallest float >= the mpmath number ``x`` (``inf`` above the float range), whatever
    mpmath's working precision is when it is called."""
    x = _mp(x)
    f = float(x)
    if f == -math.inf:
        return -_MAX
    if math.isfinite(f) and mpmath.mpf(f) < x:  # comparisons of mpf values are exact
        f = math.nextafter(f, math.inf)
    return f


def mp_down(x) -> float:
    """The largest float <= the mpmath number ``x`` (``-inf`` below the float range)."""
    x = _mp(x)
    f = float(x)
    if f == math.inf:
        return _MAX
    if math.isfinite(f) and mpmath.mpf(f) > x:
        f = math.nextafter(f, -math.inf)
    return f


def _check_nan(arr) -> None:
    if np.any(np.isnan(arr)):
        raise ArithmeticError("rounding a NaN: the computation that produced it is out of its domain")


#: relative error of a closed form evaluated in float64 by its generated numpy function (a few
#: dozen correctly rounded operations and libm calls, none cancelling: each contributes at most
#: an ulp); results of closed forms are widened by it. Forms that cancel do not use it: they
#: are evaluated in log space or by mpmath.
CLOSED_FORM_RTOL = 1e-10
