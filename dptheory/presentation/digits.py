"""Decimal digits of an mpmath enclosure for a person: each end rounded outwards from its exact
binary value (an upper end never printed below the one computed), at the significant digits the
enclosure certifies, at any magnitude (a delta of 1e-10000 is printed, never 0).

Used where high-precision values are shown: ``dptheory verify``'s detail lines (the oracle's
enclosure at the digits it certifies) and its JSON.
"""

from __future__ import annotations

import math

from ..lazy_import import mpmath

#: the fewest significant digits an enclosure is shown with
MIN_DIGITS = 8


def _scaled(a, s: int, rounding: str) -> int:
    """``rounding`` ("floor", "ceil" or "nearest") of a 10^s for a positive mpf ``a``: in exact
    integer arithmetic (a = man 2^exp) where the powers stay small; beyond that (a delta of
    1e-10000) in mpmath at a precision well above the digits asked, the result pushed outwards by
    its possible error (a floor never above the exact one, a ceiling never below)."""
    man, exp = a.man_exp
    if abs(s) <= 4000 and abs(exp) <= 16000:
        num, den = man * 10 ** max(s, 0), 10 ** max(-s, 0)
        num, den = (num << exp, den) if exp >= 0 else (num, den << -exp)
        q, r = divmod(num, den)
        if rounding == "ceil":
            return q + (r > 0)
        if rounding == "nearest":
            return q + (2 * r > den or (2 * r == den and q % 2 == 1))
        return q
    prec = a.bc + 4 * len(str(abs(s))) + 256
    with mpmath.workprec(prec):
        t = a * mpmath.power(10, s)
        slack = mpmath.ldexp(t, 32 - prec)
        if rounding == "ceil":
            return int(mpmath.ceil(t + slack))
        if rounding == "nearest":
            return int(mpmath.nint(t))
        return int(mpmath.floor(t - slack))


def _significand(a, digits: int, rounding: str) -> tuple[int, int]:
    """(q, s): a positive mpf ``a`` rounded to ``digits`` significant digits is q 10^-s, q an
    integer of ``digits`` digits."""
    with mpmath.workprec(64):
        e10 = int(mpmath.floor(mpmath.log10(a)))  # may be one off near a power of ten: corrected below
    for _ in range(4):
        s = digits - 1 - e10
        low = _scaled(a, s, "floor")
        if low >= 10 ** digits:
            e10 += 1
        elif low < 10 ** (digits - 1):
            e10 -= 1
        else:
            break
    q = low if rounding == "floor" else _scaled(a, s, rounding)
    if q == 10 ** digits:  # rounded up to the next power of ten
        q, s = 10 ** (digits - 1), s - 1
    return q, s


def fmt_end(x, digits: int, direction: str | None = None) -> str:
    """``x`` (an mpf or a float) with ``digits`` significant digits, rounded towards
    ``direction`` (``"up"`` for an upper end, ``"down"`` for a lower end, None to nearest) from its
    exact binary value, so that a printed upper end is never below the one computed; trailing
    zeros dropped, scientific notation outside [1e-4, 1e5), any magnitude (never 0 for a positive
    number)."""
    v = _mp(x)
    special = special_text(v)
    if special is not None:
        return special
    negative = v < 0
    with mpmath.workprec(v.bc + 8):  # abs() rounds to the working precision: v's own bits here
        a = -v if negative else +v
    rounding = {None: "nearest", "up": "floor" if negative else "ceil", "down": "ceil" if negative else "floor"}[direction]
    q, s = _significand(a, digits, rounding)
    text, lead = str(q), digits - 1 - s  # the decimal exponent of the leading digit
    if -4 <= lead <= 4:
        if lead >= 0:
            whole, frac = text[:lead + 1].ljust(lead + 1, "0"), text[lead + 1:]
        else:
            whole, frac = "0", "0" * (-lead - 1) + text
        frac = frac.rstrip("0")
        body = whole + ("." + frac if frac else "")
    else:
        frac = text[1:].rstrip("0")
        body = text[0] + ("." + frac if frac else "") + f"e{lead:+03d}"
    return ("-" if negative else "") + body


def special_text(v) -> str | None:
    """How nan, inf, -inf and 0 (a float or an mpf) are shown, the same in every cell and
    interval end; None for any other number."""
    if v != v:
        return "nan"
    if v in (math.inf, -math.inf):
        return "inf" if v > 0 else "-inf"
    return "0" if v == 0 else None


def _mp(x):
    """x as an mpf without rounding it to the working precision (an mpf is kept as it is)."""
    return x if isinstance(x, mpmath.mpf) else mpmath.mpf(x)


def certified_digits(lower, upper, cap: int, floor: int = MIN_DIGITS) -> int:
    """The significant digits an enclosure [lower, upper] certifies, between ``floor`` and
    ``cap``: where its ends agree (the exact value is pinned down to them), ``cap`` for a point,
    ``floor`` for a one-sided enclosure (an end of the exact value only: more digits of it say
    nothing more about the exact value)."""
    lo, hi = _mp(lower), _mp(upper)
    if not (mpmath.isfinite(lo) and mpmath.isfinite(hi)):
        return floor
    if hi == lo or max(abs(lo), abs(hi)) == 0:
        return max(floor, cap)
    with mpmath.workprec(max(lo.bc, hi.bc, 53) + 64):  # the ends' own bits, not the working precision
        agree = int(mpmath.floor(-mpmath.log10(abs(hi - lo) / max(abs(lo), abs(hi)))))
    return max(floor, min(cap, agree))


def fmt_enclosure(lower, upper, cap: int) -> tuple[str, str]:
    """Both ends of an enclosure at the digits it certifies (at most ``cap``), rounded outwards."""
    k = certified_digits(lower, upper, cap)
    return fmt_end(lower, k, "down"), fmt_end(upper, k, "up")


def fmt_pair(lower, upper, cap: int) -> tuple[str, str]:
    """An enclosure as a detail line prints it: a point that is a float (a bound or a form that
    returns a float) as the shortest decimal that reads back as that float, another point at
    ``cap`` digits, and an interval at the digits it certifies (at most ``cap``), rounded outwards."""
    lo, hi = _mp(lower), _mp(upper)
    if lo == hi and mpmath.isfinite(lo):
        text = (repr(float(lo)) if lo != 0 else "0") if mpmath.mpf(float(lo)) == lo else fmt_end(lo, cap)
        return text, text
    return fmt_enclosure(lo, hi, cap)


def show_pair(pair) -> str:
    """"x" for a point, "[lower, upper]" otherwise."""
    return pair[0] if pair[0] == pair[1] else f"[{pair[0]}, {pair[1]}]"


def fmt_margin(x: float | None) -> str:
    if x is None:
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.2e}"
