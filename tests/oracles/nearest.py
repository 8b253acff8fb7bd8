"""The float nearest to an mpmath number, by Python's exact rational arithmetic: an oracle for the
toolkit's correctly rounded float functions, independent of its own rounding code."""

from __future__ import annotations

from fractions import Fraction

import mpmath


def nearest(value) -> float:
    """The float nearest to ``value`` (ties to even): ``int / int`` (``float(Fraction)``) is
    correctly rounded in Python, subnormals included."""
    man, exp = (int(v) for v in mpmath.mpf(value).man_exp)
    if man.bit_length() + exp < -1076:
        return 0.0  # below 2^-1076, a quarter of the smallest subnormal
    return float(Fraction(man << exp) if exp >= 0 else Fraction(man, 1 << -exp))
