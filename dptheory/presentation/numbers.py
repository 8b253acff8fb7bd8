"""Numbers for a person: rounded outwards, never 0 for a positive quantity, one notation per column.

* :func:`fmt_bound` rounds to a number of significant digits towards a direction (``"up"`` for
  the upper end of a certified interval, ``"down"`` for a lower end): the decimal digits are those
  of the exact binary value, so that an upper end printed is never below the certified one.
* :func:`fmt_positive` shows a non-negative quantity below the float range (or rounded to a
  subnormal, or above the range) from its logarithm, in scientific notation: never 0 when it is
  positive.
* :func:`fmt` is a terminal cell: None as "-", floats with :data:`DIGITS` significant digits.
* :func:`column` formats a column of numbers for a table in a paper: one notation for the whole
  column (fixed or scientific) and the same number of significant figures in every cell, each
  cell rounded towards its own direction.
"""

from __future__ import annotations

import dataclasses
import decimal
import math
from typing import Any, Sequence

from .cells import Missing, Number
from .digits import special_text

#: significant digits shown on a terminal
DIGITS = 6
#: significant figures of a column of a table in a paper (``--sig``)
SIG = 4

_UP, _DOWN = "up", "down"
_FIXED_RANGE = (1e-4, 1e5)


def fmt(value: Any) -> str:
    """A terminal cell: None as "-", floats with :data:`DIGITS` significant digits (to nearest),
    a :class:`~.cells.Number` rounded towards its direction, a :class:`~.cells.Missing` as "n/a",
    text with inline math as plain text, anything else as str."""
    if value is None:
        return "-"
    if isinstance(value, Number):
        return fmt_positive(value.value, value.log, value.direction)
    if isinstance(value, Missing):
        return "n/a"
    if isinstance(value, float):
        special = special_text(value)
        if special is not None:
            return special
        if _FIXED_RANGE[0] <= abs(value) < _FIXED_RANGE[1]:
            return f"{value:.{DIGITS}g}"
        return f"{value:.{DIGITS - 1}e}"
    if isinstance(value, str):
        from .cells import plain

        return plain(value)
    return str(value)


def short(value: float, digits: int = DIGITS) -> str:
    """A parameter or a coordinate for a person, to nearest in its shortest form (``%g``):
    ``0.5``, ``1e-05``, ``0.418539``; not for the ends of a certified interval (:func:`fmt_bound`)."""
    return f"{float(value):.{digits}g}"


def _rounded(value: float, digits: int, direction: str | None) -> decimal.Decimal:
    """``value`` rounded to ``digits`` significant digits towards ``direction``, exactly."""
    exact = decimal.Decimal(float(value))
    mode = {_UP: decimal.ROUND_CEILING, _DOWN: decimal.ROUND_FLOOR}.get(direction, decimal.ROUND_HALF_EVEN)
    quantum = decimal.Decimal(1).scaleb(exact.adjusted() - digits + 1)
    rounded = exact.quantize(quantum, rounding=mode)
    if rounded != 0 and rounded.adjusted() > exact.adjusted():  # 9.99... rounded up to 10.0
        quantum = decimal.Decimal(1).scaleb(rounded.adjusted() - digits + 1)
        rounded = rounded.quantize(quantum, rounding=mode)
    return rounded


def fmt_bound(value: float | None, direction: str | None = None, digits: int = DIGITS) -> str:
    """``value`` with ``digits`` significant digits, rounded towards ``direction`` (``"up"`` for
    the upper end of an interval, ``"down"`` for the lower end, None to nearest), trailing zeros
    dropped; scientific notation outside [1e-4, 1e5).

    The decimal digits are those of the exact binary value, so an upper end printed is never
    below the certified one.
    """
    if value is None or direction is None or not math.isfinite(value) or value == 0:
        return fmt(None if value is None else float(value))
    rounded = _rounded(value, digits, direction)
    if _FIXED_RANGE[0] <= abs(rounded) < _FIXED_RANGE[1]:
        text = format(rounded, "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    mantissa, _, exponent = format(rounded, f".{digits - 1}e").partition("e")
    return f"{mantissa}e{int(exponent):+03d}"


def fmt_positive(value: float | None, log_value: float | None = None, direction: str | None = None,
                 digits: int = DIGITS) -> str:
    """A non-negative quantity for a person. Below the float range (or rounded to a subnormal),
    or above it (``inf``), it is shown from its logarithm in scientific notation, never as 0
    when it is positive; the mantissa is rounded towards ``direction`` like :func:`fmt_bound`."""
    if value is None:
        return "-"
    if log_value is not None and math.isfinite(log_value) and (value == 0 or value < 1e-300 or value == math.inf):
        mantissa, exponent = from_log(log_value, direction, digits)
        return f"{mantissa}e{exponent:+03d}"
    if log_value is not None and log_value == -math.inf:
        return "0"
    return fmt_bound(float(value), direction, digits)


def from_log(log_value: float, direction: str | None, digits: int = DIGITS) -> tuple[str, int]:
    """exp(log_value) as (mantissa with ``digits`` significant digits, decimal exponent), computed
    from the logarithm and rounded towards ``direction``."""
    log10 = log_value / math.log(10.0)
    # the conversion to base 10 errs by a few ulps of |log10| (at most ~1e-13 relative here)
    slack = 1e-12 * max(1.0, abs(log10))
    if slack > 1e-6 and direction in (_UP, _DOWN):
        # |log10| above 1e6: the slack is applied to the exponent itself (as a factor of the
        # mantissa it would reach 1 near |log10| = 1e12 and turn the mantissa negative)
        log10 = log10 + slack if direction == _UP else log10 - slack
        slack = 0.0
    exponent = math.floor(log10)
    mantissa = 10 ** (log10 - exponent)
    scale = 10 ** (digits - 1)
    if direction == _UP:
        mantissa = math.ceil(mantissa * (1 + slack) * scale) / scale
    elif direction == _DOWN:
        mantissa = math.floor(mantissa * (1 - slack) * scale) / scale
    if mantissa >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    if mantissa < 1:
        mantissa, exponent = mantissa * 10, exponent - 1
    return f"{mantissa:.{digits - 1}f}", exponent


# ------------------------------------------------------------------------------ columns
@dataclasses.dataclass(frozen=True)
class Formatted:
    """A number of a column: ``mantissa`` (digits, with sign and decimal point) and ``exponent``
    (None in fixed notation), or a ``word`` ("0", "inf", "-inf", "n/a", "-")."""

    mantissa: str = ""
    exponent: int | None = None
    word: str = ""

    def plain(self) -> str:
        if self.word:
            return self.word
        return self.mantissa if self.exponent is None else f"{self.mantissa}e{self.exponent:+03d}"


def _decimal_of(cell: Number, sig: int) -> tuple[str, int] | str:
    """(digits of the mantissa, exponent) of a finite positive-or-negative cell rounded to ``sig``
    significant figures towards its direction, or a word."""
    value, log_value = cell.value, cell.log
    if value is None:
        return "-"
    if math.isnan(value):
        raise ValueError("a table cell is nan")
    if log_value is not None and math.isfinite(log_value) and (value == 0 or value < 1e-300 or value == math.inf):
        mantissa, exponent = from_log(log_value, cell.direction, sig)
        return mantissa, exponent
    if value == 0:
        return "0"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    rounded = _rounded(value, sig, cell.direction)
    sign, digits, exp = rounded.as_tuple()
    text = "".join(str(d) for d in digits)[:sig].ljust(sig, "0")
    exponent = rounded.adjusted()
    mantissa = text[0] + ("." + text[1:] if sig > 1 else "")
    return ("-" if sign else "") + mantissa, exponent


def column(cells: Sequence[Any], sig: int = SIG) -> list[Formatted]:
    """A column of numbers for a table in a paper: every :class:`~.cells.Number` (or float)
    with ``sig`` significant figures, rounded towards its own direction, all in one notation:
    fixed (``0.005012``, ``12.35``) when every non-zero value lies in [1e-3, 1e4), scientific
    (``5.012e-03``) otherwise. Zeros, infinities and missing values are words."""
    return scaled_column(cells, sig, scale=False)[0]


def scaled_column(cells: Sequence[Any], sig: int = SIG, *, scale: bool = True) -> tuple[list[Formatted], int | None]:
    """:func:`column`, and where it would be scientific, with ``scale``, the values in units of a
    power of ten ``10^E`` instead (returned beside them, for the column's header), so that the
    column stays in fixed notation: ``5.902``, ``64.19`` in units of ``10^-4``. The digits are the
    same (scaling by a power of ten is exact in decimal). A column whose values span more than five
    decades stays scientific (E is None)."""
    if not 1 <= sig <= 17:
        raise ValueError(f"sig = {sig!r} is invalid: must be an integer in [1, 17]")
    parsed: list[tuple[str, int] | str] = []
    for cell in cells:
        if isinstance(cell, Missing):
            parsed.append("n/a")
        elif cell is None:
            parsed.append("-")
        elif isinstance(cell, Number):
            parsed.append(_decimal_of(cell, sig))
        elif isinstance(cell, (int, float)):
            parsed.append(_decimal_of(Number(float(cell)), sig))
        else:
            raise TypeError(f"column: a cell of type {type(cell).__name__} is not a number")
    exponents = [p[1] for p in parsed if isinstance(p, tuple)]
    fixed = bool(exponents) and all(-3 <= e < 4 for e in exponents)
    shift = None
    if not fixed and scale and exponents and max(exponents) - min(exponents) <= 4:
        shift, fixed = min(exponents), True
    out = []
    for p in parsed:
        if isinstance(p, str):
            out.append(Formatted(word=p))
            continue
        mantissa, exponent = p
        if not fixed:
            out.append(Formatted(mantissa, exponent))
            continue
        if shift is not None:
            exponent -= shift
        sign = "-" if mantissa.startswith("-") else ""
        digits = mantissa.lstrip("-").replace(".", "")
        if exponent >= 0:
            whole, frac = digits[: exponent + 1].ljust(exponent + 1, "0"), digits[exponent + 1:]
            text = whole + ("." + frac if frac else "")
        else:
            text = "0." + "0" * (-exponent - 1) + digits
        out.append(Formatted(sign + text))
    return out, shift
