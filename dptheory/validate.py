"""Argument checks shared by the whole toolkit.

Every check raises :class:`DomainError` (a :class:`ValueError`) whose message names the
parameter, the value it received and the range it accepts. Nothing is clamped or coerced
silently: a float that is meant to be an integer must be integral (``1e6`` is accepted for
``n``, ``1.5`` is not).
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .lazy_import import mpmath


class DomainError(ValueError):
    """A parameter lies outside the range where a quantity is defined or a result holds."""


class ConditionError(DomainError):
    """A closed form was evaluated where one of its validity conditions fails."""


def _show(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return np.array2string(value, threshold=8)
    if isinstance(value, np.generic):  # a numpy scalar reads as the number, not np.float64(...)
        value = value.item()
    if isinstance(value, str):  # a number typed on the command line reads as the number: n = 0
        try:
            float(value)
            return value.strip()
        except ValueError:
            pass  # not a number: shown quoted, as typed
    return repr(value)


def _to_float(name: str, value: Any) -> float:
    if isinstance(value, bool):
        raise DomainError(f"{name} = {value!r} is invalid: must be a real number, not a boolean")
    if isinstance(value, (numbers.Real, np.floating, np.integer)):
        return float(value)
    if isinstance(value, mpmath.mpf):
        return float(value)
    try:
        return float(value)
    except (TypeError, ValueError):
        raise DomainError(f"{name} = {_show(value)} is invalid: must be a real number") from None


def _range_text(low, high, low_open, high_open) -> str:
    if low is None and high is None:
        return "any real number"
    left = "(" if low_open or low is None else "["
    right = ")" if high_open or high is None else "]"
    lo = "-inf" if low is None else f"{low:g}"
    hi = "inf" if high is None else f"{high:g}"
    return f"in {left}{lo}, {hi}{right}"


def real(
    name: str,
    value: Any,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    allow_inf: bool = False,
) -> float:
    """Return ``value`` as a float after checking it is a real number in the given range."""
    x = _to_float(name, value)
    if math.isnan(x):
        where = "" if low is None and high is None else " " + _range_text(low, high, low_open, high_open)
        raise DomainError(f"{name} = nan is invalid: must be a real number{where}")
    if math.isinf(x) and not allow_inf:
        raise DomainError(f"{name} = {x} is invalid: must be finite, {_range_text(low, high, low_open, high_open)}")
    bad = (
        (low is not None and (x < low or (low_open and x == low)))
        or (high is not None and (x > high or (high_open and x == high)))
    )
    if bad:
        raise DomainError(f"{name} = {_show(value)} is invalid: must be {_range_text(low, high, low_open, high_open)}")
    return x


def positive(name: str, value: Any, *, allow_inf: bool = False) -> float:
    """A real number > 0."""
    return real(name, value, low=0.0, low_open=True, allow_inf=allow_inf)


def nonnegative(name: str, value: Any, *, allow_inf: bool = False) -> float:
    """A real number >= 0."""
    return real(name, value, low=0.0, allow_inf=allow_inf)


def probability(name: str, value: Any, *, open_low: bool = False, open_high: bool = False) -> float:
    """A number in [0, 1], with either end optionally excluded."""
    return real(name, value, low=0.0, high=1.0, low_open=open_low, high_open=open_high)


def delta(name: str, value: Any) -> float:
    """A privacy parameter delta in the open interval (0, 1)."""
    return probability(name, value, open_low=True, open_high=True)


def output_file(path, suffixes=None):
    """The file an output is to be written to (a :class:`pathlib.Path`), checked before any work is
    done: its ending one of ``suffixes`` (any where None), not a directory, in an existing directory
    where it may be written."""
    import os
    import pathlib

    p = pathlib.Path(path)
    if suffixes is not None and p.suffix.lower() not in suffixes:
        raise DomainError(f"output = '{p}' is invalid: the file name must end in {' or '.join(suffixes)}")
    if p.is_dir():
        raise DomainError(f"output = '{p}' is invalid: it is a directory, give a file name")
    parent = p.parent if str(p.parent) else pathlib.Path(".")
    if not parent.is_dir():
        raise DomainError(f"output = '{p}' is not writable: directory '{parent}' does not exist")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise DomainError(f"output = '{p}' is not writable: permission denied")
    return p


def integer(name: str, value: Any, *, low: int | None = None, high: int | None = None) -> int:
    """An integer (an integral float such as ``1e6`` is accepted) within ``[low, high]``."""
    if isinstance(value, bool):
        raise DomainError(f"{name} = {value!r} is invalid: must be an integer")
    if isinstance(value, (numbers.Integral, np.integer)):
        k = int(value)
    else:
        x = _to_float(name, value)
        if not math.isfinite(x) or x != math.floor(x):
            rng = f" >= {low}" if low is not None else ""
            raise DomainError(f"{name} = {_show(value)} is invalid: must be an integer{rng}")
        k = int(x)
    if (low is not None and k < low) or (high is not None and k > high):
        lo = "-inf" if low is None else str(low)
        hi = "inf" if high is None else str(high)
        # 0.0 reads as 0; 1e30 as 1e+30, not as its 31 digits
        shown = ((str(k) if abs(k) < 10**16 else f"{float(k):g}") if isinstance(value, (float, np.floating))
                 else _show(value))
        raise DomainError(f"{name} = {shown} is invalid: must be an integer in [{lo}, {hi}]")
    return k


def order(name: str, value: Any, *, integer_only: bool = False, allow_inf: bool = False) -> float:
    """A Renyi order lambda > 1 (an integer >= 2 when ``integer_only``)."""
    if integer_only:
        return float(integer(name, value, low=2))
    return real(name, value, low=1.0, low_open=True, allow_inf=allow_inf)


#: the range of ``digits`` everywhere (library and command line): below 15 an mpmath evaluation
#: is less precise than float64; at 1000 the slowest command (``dptheory gdp --delta``, a root
#: search over an mpmath profile) answers in about 1.5 s on one core, at 3000 in about 8 s and at
#: 10000 in about two minutes
DIGITS_MIN, DIGITS_MAX = 15, 1000


def digits(value: Any) -> int | None:
    """The number of decimal digits for an mpmath evaluation (an integer in
    [:data:`DIGITS_MIN`, :data:`DIGITS_MAX`]), or None for float64."""
    if value is None:
        return None
    try:
        return integer("digits", value, low=DIGITS_MIN, high=DIGITS_MAX)
    except DomainError as exc:
        raise DomainError(f"{exc} (fewer digits than 15 are less precise than float64; more than "
                          f"{DIGITS_MAX} can take minutes)") from None


# --------------------------------------------------------------------- one rule per quantity
# Each quantity that several commands or functions take is checked here, once: the command line
# and the Python entry points call these, so that a value is accepted or rejected the same way
# everywhere (the range in the message is the one rule).

def n(name: str, value: Any) -> int:
    """A number of users: an integer >= 1 (``1e6`` is accepted). One user is valid: the shuffled
    mechanism of one user is the eps0-LDP randomizer itself; a method that needs more users says
    it does not apply."""
    return integer(name, value, low=1)


#: the largest local epsilon: e^(2 eps0), which the closed forms square, stays in the float64
#: range (it overflows from eps0 = 355 on); no shuffle bound is of use that far. The smallest:
#: the pairs' float parameters (p = e^eps0 and p/(p - 1)) lose a factor 1/eps0 of their precision,
#: and below 1e-16 p rounds to 1 (every method already answers 0 at eps0 = 1e-6, n >= 2)
EPS0_MIN, EPS0_MAX = 1e-6, 300.0
#: the range of a positive GDP parameter mu (and of sensitivity/sigma) where delta(epsilon) and
#: epsilon(delta) are computed for every epsilon up to :data:`EPSILON_MAX` (at mu = 1e-8 and
#: epsilon = 1e10 the profile's cancellation defeats its mpmath fallback)
MU_MIN, MU_MAX = 1e-6, 1e6
#: the largest central epsilon at which delta is asked (delta is below e^-1e9 there for every
#: mechanism of the toolkit but a GDP one with mu near :data:`MU_MAX`)
EPSILON_MAX = 1e10
#: the largest Renyi order given by a user, and the most orders in one list: the search of
#: ``dptheory rdp --delta`` goes up to 1e4, and the exact divergences at order 1e6 take minutes
ORDER_MAX, ORDERS_MAX_COUNT = 1e4, 10000


def eps0(name: str, value: Any) -> float:
    """The local epsilon of a randomizer in the shuffle model (every ``--eps0`` of shuffle, rdp,
    fdp shuffle, sweep, report and compare's ``shuffle(eps0=)``): a real number in
    [:data:`EPS0_MIN`, :data:`EPS0_MAX`]. eps0 = 0 is a randomizer whose output does not depend on
    its input, which nothing here needs to bound. (Randomized response as a mechanism of its own, ``mechanism
    rr`` and compare's ``rr(eps=)``, takes eps0 >= 0 without this bound: 0 is the perfectly
    private mechanism, as mu = 0 is for the Gaussian one.)"""
    return real(name, value, low=EPS0_MIN, high=EPS0_MAX)


def epsilon(name: str, value: Any) -> float:
    """A central epsilon at which delta is asked: a real number in [0, :data:`EPSILON_MAX`]."""
    return real(name, value, low=0.0, high=EPSILON_MAX)


def mu(name: str, value: Any) -> float:
    """A Gaussian DP parameter: 0 (two identical distributions, delta(epsilon) = 0 for every
    epsilon >= 0) or a real number in [:data:`MU_MIN`, :data:`MU_MAX`]."""
    m = real(name, value, low=0.0, high=MU_MAX)
    if 0 < m < MU_MIN:
        raise DomainError(f"{name} = {_show(value)} is invalid: must be 0 or in [{MU_MIN:g}, {MU_MAX:g}] "
                          f"(below {MU_MIN:g} the profile is not computed reliably; mu = 0 is exact)")
    return m


def sigma(name: str, value: Any) -> float:
    """A noise scale (a standard deviation or a Laplace scale): a finite real number > 0."""
    return real(name, value, low=0.0, low_open=True)


def count(name: str, value: Any, *, low: int = 1, high: int | None = None) -> int:
    """A number of compositions, rounds, steps, points or workers: an integer >= ``low`` (``1e6``
    and the string ``"1e6"`` are accepted)."""
    return integer(name, value, low=low, high=high)


#: the default relative width of a certified epsilon(delta) bracket of the shuffle model, and of an
#: exact Renyi divergence of it: one value for the Python functions and for the commands' --rtol
#: (``shuffle``, ``rdp``, ``sweep``), so that the same call gives the same answer in the same time
#: either way (every method at n = 1e6 answers in seconds at 1e-3; the clone pair's RDP curve at
#: 1e-6 took about a minute)
EPSILON_RTOL = RENYI_RTOL = 1e-3


#: the most points of a computed curve (a figure's alpha grid, DP-GD's thresholds): each point is
#: an evaluation, and 1e5 of them take seconds; 1e9 would need gigabytes
POINTS_MAX = 100_001


def points(name: str, value: Any, *, low: int = 3, high: int = POINTS_MAX) -> int:
    """A number of points of a computed curve: an integer in [``low``, ``high``] (at most
    :data:`POINTS_MAX`; a curve whose points are costly evaluations sets a smaller ``high``)."""
    return integer(name, value, low=low, high=min(high, POINTS_MAX))


def rtol(name: str, value: Any) -> float:
    """A relative tolerance (the relative width of a certified bracket): a real number in (0, 1]."""
    return real(name, value, low=0.0, low_open=True, high=1.0)


def real_array(name: str, value: Any, *, low: float | None = None, high: float | None = None,
               low_open: bool = False, high_open: bool = False, allow_inf: bool = False) -> np.ndarray:
    """A float64 array (scalars allowed) with every entry in the given range."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise DomainError(f"{name} = {_show(value)} is invalid: must be real numbers") from None
    if np.isnan(arr).any():
        raise DomainError(f"{name} contains nan: every entry must be {_range_text(low, high, low_open, high_open)}")
    if not allow_inf and np.isinf(arr).any():
        raise DomainError(f"{name} = {_show(value)} is invalid: entries must be finite")
    bad = np.zeros(arr.shape, dtype=bool)
    if low is not None:
        bad |= (arr < low) | ((arr == low) if low_open else False)
    if high is not None:
        bad |= (arr > high) | ((arr == high) if high_open else False)
    if bad.any():
        first = float(arr[bad].flat[0])
        raise DomainError(
            f"{name} has an entry {first!r} outside the valid range: every entry must be "
            f"{_range_text(low, high, low_open, high_open)}"
        )
    return arr


def pmf(name: str, value: Any, *, tol: float = 1e-9) -> np.ndarray:
    """A probability vector: 1-D, entries >= 0, summing to 1 within ``tol``."""
    arr = real_array(name, value, low=0.0)
    if arr.ndim != 1 or arr.size == 0:
        raise DomainError(f"{name} must be a non-empty 1-D probability vector, got shape {arr.shape}")
    total = math.fsum(arr.tolist())
    if abs(total - 1.0) > tol:
        raise DomainError(f"{name} sums to {total!r}: a probability vector must sum to 1 (tolerance {tol:g})")
    return arr


def pmf_pair(p: Any, q: Any, *, tol: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """Two probability vectors on the same support."""
    a = pmf("p", p, tol=tol)
    b = pmf("q", q, tol=tol)
    if a.shape != b.shape:
        raise DomainError(f"p and q must have the same support length, got {a.size} and {b.size}")
    return a, b


def mp_pmf(name: str, value: Any, *, tol: mpmath.mpf | float | None = None) -> list:
    """A probability vector as a list of mpf at the current mpmath precision.

    Entries may be floats (taken exactly), strings, fractions or mpf. The sum must be 1 within
    ``tol`` (default ``1e-9``, loose enough for float inputs).
    """
    try:
        items = [mpmath.mpf(v) if not isinstance(v, mpmath.mpf) else v for v in np.ravel(np.asarray(value, dtype=object))]
    except (TypeError, ValueError):
        raise DomainError(f"{name} = {_show(value)} is invalid: must be real numbers") from None
    if not items:
        raise DomainError(f"{name} must be a non-empty probability vector")
    for v in items:
        if mpmath.isnan(v) or mpmath.isinf(v) or v < 0:
            raise DomainError(f"{name} has an entry {v} outside the valid range: every entry must be in [0, inf)")
    total = mpmath.fsum(items)
    limit = mpmath.mpf(1e-9) if tol is None else mpmath.mpf(tol)
    if abs(total - 1) > limit:
        raise DomainError(f"{name} sums to {mpmath.nstr(total, 17)}: a probability vector must sum to 1 (tolerance {mpmath.nstr(limit, 3)})")
    return items


def value_list(name: str, text: str, expand_range, grammar: str) -> list[float]:
    """The numbers of a command-line list: comma-separated pieces, each a number or a range
    ``a..b`` or ``a..b:x``, expanded by ``expand_range(a, b, x_text)`` (``x_text`` "" when
    absent; it raises ValueError for a range it rejects). Raises DomainError naming ``name``,
    the text and ``grammar`` for anything else, or for an empty list."""
    values: list[float] = []
    pieces = str(text).split(",")
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            if len(pieces) > 1:  # "0.1,,0.2" or "2,": an item missing, not a value to skip silently
                raise DomainError(f"{name} = {text!r} is invalid: an empty item; use {grammar}")
            continue
        try:
            if ".." in piece:
                rng, _, extra = piece.partition(":")
                a_text, _, b_text = rng.partition("..")
                values.extend(expand_range(float(a_text), float(b_text), extra))
            else:
                values.append(float(piece))
        except ValueError:
            raise DomainError(f"{name} = {text!r} is invalid: use {grammar}") from None
    if not values:
        raise DomainError(f"{name} = {text!r} is invalid: no value given; use {grammar}")
    return values


def number_list(name: str, text) -> list[float]:
    """A comma-separated list of numbers (no ranges): DomainError naming ``name`` for an empty
    list, an empty item or a piece that is not a number."""
    def no_range(a, b, extra):
        raise ValueError("no range here")

    return value_list(name, str(text), no_range, "a comma-separated list of numbers such as 0.1,0.2")


def name_list(name: str, text, known) -> list[str]:
    """The names of a comma-separated list (``--methods clones,exact``): DomainError naming
    ``name`` for an empty list or an empty item (a name left out by a stray comma is not "every
    one"); whether each name is known is left to the registry that reads them."""
    names = [m.strip() for m in str(text).split(",")]
    if not all(names):
        what = "an empty item" if any(names) else "no name given"
        raise DomainError(f"{name} = {str(text)!r} is invalid: {what}; give comma-separated names among "
                          f"{', '.join(known)}")
    return names
