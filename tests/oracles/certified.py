"""Certified arithmetic shared by the oracles: mpmath's interval context, a certified normal CDF and
its inverse, outward rounding, and a precision loop.

How the oracles are certified. Every oracle computes its quantity in ``mpmath.iv``, mpmath's
interval arithmetic: each elementary operation (+, -, *, /, exp, log, sqrt, powers, cos, ...)
returns an interval that contains the exact result of the operation on every point of its
operands, so the final interval contains the exact quantity, whatever the cancellation. Truncated
sums and quadratures add a rigorous bound on what they leave out (each oracle says how in its
docstring). The one function ``mpmath.iv`` lacks is the normal CDF: :func:`ncdf` evaluates
``mpmath.erfc`` (not an interval function) at 30 more bits than the working precision and widens
the result by a relative ``2^-(p+15)`` (the halving and the widening done at the higher precision,
not rounded back: an mpf bound rounded to nearest at the working precision could cross the true
value); this assumes that mpmath's erfc is accurate to
``2^(10-P)`` relative at ``P`` bits, which it is by construction (it works with guard bits and
checks convergence), but it is an assumption, not a proof.

Arguments are taken exactly where they are exact numbers: an ``int``, a ``float`` (a binary
rational), a ``Fraction`` (enclosed by an interval division), an mpmath ``mpf`` (exact), a decimal
``str`` such as ``"0.1"`` (enclosed: "0.1" is not a binary number), or an interval (kept).
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from fractions import Fraction

import mpmath
from mpmath import iv, libmp, mp, mpf

#: extra working bits beyond the requested digits
GUARD_BITS = 40
LOG2_10 = math.log2(10)
IVTYPE = type(iv.mpf(0))


def bits_for(digits: int) -> int:
    """Working precision (bits) for a result of ``digits`` decimal digits."""
    return int(math.ceil(digits * LOG2_10)) + GUARD_BITS


@contextmanager
def working_precision(prec: int):
    """Set both ``mpmath.mp`` and ``mpmath.iv`` to ``prec`` bits (restored on exit)."""
    old_iv, old_mp = iv.prec, mp.prec
    iv.prec = prec
    mp.prec = prec
    try:
        yield
    finally:
        iv.prec, mp.prec = old_iv, old_mp


def interval(x):
    """An ``iv`` interval that contains the exact number ``x`` (see the module docstring)."""
    if isinstance(x, IVTYPE):
        return x
    if isinstance(x, bool):
        raise TypeError("a bool is not a number here")
    if isinstance(x, Fraction):
        return iv.mpf(x.numerator) / iv.mpf(x.denominator)
    if isinstance(x, (tuple, list)) and len(x) == 2:
        return iv.mpf([lo(interval(x[0])), hi(interval(x[1]))])
    if isinstance(x, (int, float, str)) or isinstance(x, type(mpf(0))):
        return iv.mpf(x)
    raise TypeError(f"cannot enclose {x!r} ({type(x).__name__})")


def lo(x) -> mpf:
    """Lower end of an interval, as an (exact) mpf."""
    return mp.make_mpf(x._mpi_[0])


def hi(x) -> mpf:
    """Upper end of an interval, as an (exact) mpf."""
    return mp.make_mpf(x._mpi_[1])


def hull(*xs):
    """The smallest interval that contains every interval in ``xs``."""
    return iv.mpf([min(lo(x) for x in xs), max(hi(x) for x in xs)])


def imax(*xs):
    """Interval of max(x_1, ...) over every point of the operands."""
    return iv.mpf([max(lo(x) for x in xs), max(hi(x) for x in xs)])


def imin(*xs):
    """Interval of min(x_1, ...) over every point of the operands."""
    return iv.mpf([min(lo(x) for x in xs), min(hi(x) for x in xs)])


def positive_part(x):
    """Interval of max(x, 0). Also used to drop the negative part of an enclosure of a quantity
    known to be >= 0 (:func:`clip_nonnegative`)."""
    return iv.mpf([max(lo(x), 0), max(hi(x), 0)])


clip_nonnegative = positive_part


# ----------------------------------------------------------------------------- the normal CDF


def _half_erfc_bound(t: mpf, prec: int, upper: bool) -> mpf:
    """A bound (above if ``upper``) on erfc(t)/2 for an exact mpf ``t``. Everything after the erfc
    call is done at the higher precision, where it is exact (the halving) or rounds by far less
    than the margin; the result is an exact mpf, kept as it is by ``iv.mpf``."""
    if mpmath.isinf(t):
        return mpf(0) if t > 0 else mpf(1)
    with mp.workprec(prec + 30):
        v = mp.erfc(t)
        margin = mpf(2) ** -(prec + 15)
        return (v * (1 + margin) if upper else v * (1 - margin)) / 2


def ncdf(x):
    """Certified enclosure of the standard normal CDF Phi over the interval ``x`` (Phi is
    increasing: [Phi(lo x) rounded down, Phi(hi x) rounded up]), Phi(x) = erfc(-x/sqrt 2)/2 with
    the argument enclosed by interval arithmetic."""
    x = interval(x)
    prec = iv.prec
    old = iv.prec
    iv.prec = prec + 30
    try:
        t = -x / iv.sqrt(2)
    finally:
        iv.prec = old
    # erfc decreases: the lower end of Phi comes from the upper end of t
    low = _half_erfc_bound(hi(t), prec, upper=False)
    high = _half_erfc_bound(lo(t), prec, upper=True)
    return iv.mpf([max(low, 0), min(high, 1)])


def nsf(x):
    """Certified enclosure of the normal survival function 1 - Phi(x) = Phi(-x)."""
    return ncdf(-interval(x))


def npdf(x):
    """Enclosure of the standard normal density."""
    x = interval(x)
    return iv.exp(-x * x / 2) / iv.sqrt(2 * iv.pi)


def inverse_nsf(alpha):
    """An interval that contains the z with 1 - Phi(z) = alpha, for every alpha in the interval
    ``alpha`` (inside (0, 1)). An mpmath estimate (erfinv, then Newton steps) is certified by
    checking 1 - Phi(z_lo) >= alpha >= 1 - Phi(z_hi) with :func:`nsf` (1 - Phi decreases), the
    bracket being widened until the check passes."""
    alpha = interval(alpha)
    a_lo, a_hi = lo(alpha), hi(alpha)
    if not (a_lo > 0 and a_hi < 1):
        raise ValueError(f"alpha must lie in (0, 1), got [{a_lo}, {a_hi}]")
    prec = iv.prec
    extra = int(abs(mpmath.log(min(a_lo, 1 - a_hi), 2))) + 40
    with mp.workprec(prec + extra):
        a = (a_lo + a_hi) / 2
        z = mp.sqrt(2) * mp.erfinv(1 - 2 * a)
        for _ in range(3):  # Newton on 1 - Phi(z) = a
            z += (mp.ncdf(-z) - a) / mp.npdf(z)
        z0 = +z
    width = (abs(z0) + 1) * mpf(2) ** -(prec - 8)
    for _ in range(60):
        z_lo, z_hi = z0 - width, z0 + width
        if lo(nsf(z_lo)) >= a_hi and hi(nsf(z_hi)) <= a_lo:
            return iv.mpf([z_lo, z_hi])
        width *= 16
    raise ArithmeticError("could not certify the inverse normal CDF")


# ----------------------------------------------------------------------------- results


def outward(x, digits: int):
    """``(lower, upper)``: the ends of the interval ``x`` rounded outwards to ``digits`` decimal
    digits (as many bits), as mpmath numbers."""
    p = int(math.ceil(digits * LOG2_10)) + 1
    a, b = x._mpi_
    return (mp.make_mpf(libmp.mpf_pos(a, p, libmp.round_floor)),
            mp.make_mpf(libmp.mpf_pos(b, p, libmp.round_ceiling)))


def inside(value, enclosure) -> bool:
    """``lower <= value <= upper`` for an enclosure ``(lower, upper)`` (exact comparisons)."""
    return enclosure[0] <= value <= enclosure[1]


def narrow(x, digits: int) -> bool:
    """The interval is exact to ``digits`` digits: relative width at most 10^-digits (an
    interval with an infinite end, or the point 0, counts as narrow)."""
    a, b = lo(x), hi(x)
    if mpmath.isinf(a) or mpmath.isinf(b):
        return True
    if a == b:
        return True
    scale = max(abs(a), abs(b))
    return (b - a) <= scale * mpf(10) ** -digits


def enclose(compute, digits: int = 50, *, nonnegative: bool = False, max_bits: int | None = None):
    """Run ``compute()`` (which returns an interval) at a working precision for ``digits`` digits,
    doubling the precision until the interval is :func:`narrow` or ``max_bits`` is reached, and
    return its ends rounded outwards (see :func:`outward`). The result is an enclosure in every
    case; only its width depends on the precision reached. ``nonnegative``: the quantity is known
    to be >= 0, so a negative lower end is raised to 0."""
    prec = bits_for(digits)
    cap = max_bits or 4 * prec + 600
    while True:
        with working_precision(prec):
            value = compute()
        if nonnegative:
            value = clip_nonnegative(value)
        if narrow(value, digits) or prec >= cap:
            return outward(value, digits)
        prec = min(2 * prec, cap)


def to_fraction(x: mpf) -> Fraction:
    """The exact rational value of a finite mpf."""
    man, exp = x.man_exp
    man, exp = int(man), int(exp)
    return Fraction(man << exp) if exp >= 0 else Fraction(man, 1 << -exp)


def fraction_bounds(x) -> tuple[Fraction, Fraction]:
    """``(lower, upper)`` Fractions of an interval's ends."""
    return to_fraction(lo(x)), to_fraction(hi(x))


def invert_decreasing(delta_of, target, *, start=1, limit=2 ** 20):
    """An interval that contains eps(target) = inf{eps >= 0 : delta(eps) <= target}, for a
    non-increasing function known through an interval oracle ``delta_of(eps)`` (eps an exact mpf).

    Certified by bisection on the oracle's ends alone: every eps with lower end of delta(eps) >
    target is below eps(target) (delta is non-increasing), every eps with upper end of delta(eps) <=
    target is at or above it. Two bisections, one per end, each to the working precision. The upper
    end is +inf when no such eps is found up to ``limit`` (doubling from ``start``)."""
    t = interval(target)
    t_lo, t_hi = lo(t), hi(t)
    prec = iv.prec
    zero = mpf(0)
    if hi(delta_of(zero)) <= t_lo:
        return iv.mpf([0, 0])
    b = mpf(start)
    while not hi(delta_of(b)) <= t_lo:
        b *= 2
        if b > limit:
            b = None
            break
    top = b if b is not None else mpf(limit)
    a, c = zero, top
    for _ in range(prec + 64):
        if c - a <= abs(c) * mpf(2) ** -prec:
            break
        m = (a + c) / 2
        if lo(delta_of(m)) > t_hi:
            a = m
        else:
            c = m
    if b is None:
        return iv.mpf([a, "inf"])
    a2, c2 = a, b
    for _ in range(prec + 64):
        if c2 - a2 <= abs(c2) * mpf(2) ** -prec:
            break
        m = (a2 + c2) / 2
        if hi(delta_of(m)) <= t_lo:
            c2 = m
        else:
            a2 = m
    return iv.mpf([a, c2])
