"""The result model: what a number is (its kind), whether a published bound holds (its status),
certified intervals (:class:`Result`), curves of them (:class:`Curve`), and the record of a method
that does not apply (:class:`Inapplicable`).

A numerical routine never returns a bare float for a bound: it returns a :class:`Result` whose
``[lower, upper]`` interval encloses the exact value of the method's quantity, all of the
routine's own error (truncation, root finding, rounding) included. For an upper bound the
number to use is ``upper``; for a lower bound it is ``lower``. Quantities that may fall below
the float64 range (delta) also carry ``log_lower``/``log_upper``; ``upper`` is then rounded up to
a positive subnormal, never to 0 (:mod:`dptheory.rounding`).

Every result serialises through one ``as_dict``; the command line prints nothing else.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from typing import Any, Iterator

import numpy as np

from . import rounding
from .validate import DomainError


class Kind(str, enum.Enum):
    """What a returned number says about the true privacy parameter."""

    UPPER = "upper"                  #: the true value is at most this
    LOWER = "lower"                  #: the true value is at least this
    EXACT = "exact"                  #: this is the true value (up to the interval)
    APPROXIMATION = "approximation"  #: asymptotic or heuristic; no guarantee in either direction

    def __str__(self) -> str:
        return self.value


class Status(str, enum.Enum):
    """Proof status of a published bound."""

    PROVEN = "proven"      #: follows from a correct proof (the paper's, or the derivation cited)
    REFUTED = "refuted"    #: exact computation contradicts it; kept to reproduce published figures
    #: no valid proof is known (withdrawn by an erratum, or a combination of theorems whose
    #: hypotheses do not match); no counterexample is known either
    UNPROVEN = "unproven"
    #: not a bound at all (an asymptotic or heuristic approximation): nothing to prove
    NOT_A_BOUND = "not a bound"

    def __str__(self) -> str:
        return self.value


class NotApplicable(DomainError):
    """A method or closed form does not apply to these parameters; the message says which
    condition failed. Callers that compare methods turn it into an :class:`Inapplicable` row."""


def _float(value) -> float:
    return float(value)


def _conservative(kind: Kind, lower, upper):
    if kind is Kind.UPPER:
        return upper
    if kind is Kind.LOWER:
        return lower
    return 0.5 * (lower + upper)


@dataclasses.dataclass(frozen=True)
class Result:
    """A certified value: the method's quantity lies in ``[lower, upper]``.

    Attributes
    ----------
    quantity : str
        What was computed: ``"epsilon"``, ``"delta"``, ``"rdp"``, ``"tradeoff"``, ``"mu"``, ...
    lower, upper : float
        The certified enclosure of the method's exact value (directed rounding).
    kind : Kind
        How the method's value relates to the true privacy parameter.
    status : Status
        Whether the method is a proven bound.
    method, source, note : str
        A slug naming the method; the paper and result number (and erratum applied); anything a
        user must know to read the number.
    params : dict
        The parameters the value was computed at, and diagnostics (``seconds``, ``order``...).
    log_lower, log_upper : float, optional
        The enclosure in log space, for quantities that may be below the float range.
    """

    quantity: str
    lower: float
    upper: float
    kind: Kind
    status: Status
    method: str
    source: str
    note: str = ""
    params: dict = dataclasses.field(default_factory=dict)
    log_lower: float | None = None
    log_upper: float | None = None

    def __post_init__(self) -> None:
        for name in ("lower", "upper", "log_lower", "log_upper"):
            v = getattr(self, name)
            if v is not None:
                v = _float(v)
                object.__setattr__(self, name, v)
                if math.isnan(v):
                    raise ArithmeticError(f"{self.method}: result {name} is nan")
        if self.lower > self.upper:
            raise ArithmeticError(f"{self.method}: empty interval [{self.lower}, {self.upper}]")
        if self.log_lower is not None and self.log_upper is not None and self.log_lower > self.log_upper:
            raise ArithmeticError(f"{self.method}: empty log interval [{self.log_lower}, {self.log_upper}]")

    @classmethod
    def from_log(cls, quantity: str, log_lower: float, log_upper: float, **fields) -> "Result":
        """A result known in log space: the linear ends are rounded outwards from the logs."""
        return cls(quantity, rounding.exp_down(log_lower), rounding.exp_up(log_upper),
                   log_lower=float(log_lower), log_upper=float(log_upper), **fields)

    @property
    def value(self) -> float:
        """The conservative number for this kind: ``upper`` for an upper bound, ``lower`` for a
        lower bound, the midpoint otherwise."""
        return _conservative(self.kind, self.lower, self.upper)

    @property
    def width(self) -> float:
        return self.upper - self.lower

    def relative_width(self) -> float:
        scale = max(abs(self.lower), abs(self.upper))
        return 0.0 if scale == 0 else self.width / scale

    def replace(self, **changes) -> "Result":
        return dataclasses.replace(self, **changes)

    def _repr_latex_(self) -> str:
        """Jupyter display (:func:`dptheory.presentation.latex.result_latex`): the value with its kind, ends
        rounded outwards, then kind, status, method and source."""
        from .presentation.latex import result_latex

        return result_latex(self)

    def as_dict(self) -> dict[str, Any]:
        out = {
            "method": self.method,
            "quantity": self.quantity,
            "kind": str(self.kind),
            "status": str(self.status),
            "applicable": True,
            "lower": self.lower,
            "upper": self.upper,
        }
        if self.log_upper is not None:
            out["log_lower"] = self.log_lower
            out["log_upper"] = self.log_upper
        out.update(source=self.source, note=self.note)
        if self.params:
            out["params"] = dict(self.params)
        return out


@dataclasses.dataclass(frozen=True)
class Inapplicable:
    """A method that does not apply at these parameters, with the condition that failed."""

    method: str
    kind: Kind
    status: Status
    source: str
    reason: str
    params: dict = dataclasses.field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"method": self.method, "kind": str(self.kind), "status": str(self.status),
                "applicable": False, "source": self.source, "note": f"not applicable: {self.reason}",
                **({"params": dict(self.params)} if self.params else {})}


@dataclasses.dataclass(frozen=True, eq=False)
class Curve:
    """A certified curve: at each point ``grid[i]`` of the axis ``axis`` the quantity lies in
    ``[lower[i], upper[i]]``. The same fields as :class:`Result`, over arrays.

    Examples: an RDP curve (``axis="order"``, ``quantity="rdp"``), a privacy profile
    (``axis="epsilon"``, ``quantity="delta"``), a trade-off function (``axis="alpha"``,
    ``quantity="beta"``).
    """

    quantity: str
    axis: str
    grid: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    kind: Kind
    status: Status
    method: str
    source: str
    note: str = ""
    params: dict = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        grid = np.atleast_1d(np.asarray(self.grid, dtype=float))
        lower = np.atleast_1d(np.asarray(self.lower, dtype=float))
        upper = np.atleast_1d(np.asarray(self.upper, dtype=float))
        lower, upper = np.broadcast_to(lower, grid.shape).copy(), np.broadcast_to(upper, grid.shape).copy()
        if np.any(np.isnan(lower)) or np.any(np.isnan(upper)):
            raise ArithmeticError(f"{self.method}: curve contains nan")
        if np.any(lower > upper):
            i = int(np.argmax(lower > upper))
            raise ArithmeticError(f"{self.method}: empty interval at {self.axis} = {grid[i]}")
        for name, arr in (("grid", grid), ("lower", lower), ("upper", upper)):
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)

    def __len__(self) -> int:
        return len(self.grid)

    def __getitem__(self, i: int) -> Result:
        return Result(self.quantity, self.lower[i], self.upper[i], self.kind, self.status, self.method,
                      self.source, self.note, params={**self.params, self.axis: float(self.grid[i])})

    def __iter__(self) -> Iterator[Result]:
        return (self[i] for i in range(len(self)))

    @property
    def value(self) -> np.ndarray:
        """The conservative values for this kind (see :attr:`Result.value`)."""
        return _conservative(self.kind, self.lower, self.upper)

    def replace(self, **changes) -> "Curve":
        return dataclasses.replace(self, **changes)

    def _repr_latex_(self) -> str:
        """Jupyter display (:func:`dptheory.presentation.latex.curve_latex`): the certified interval at each
        point of the axis, ends rounded outwards."""
        from .presentation.latex import curve_latex

        return curve_latex(self)

    def as_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "quantity": self.quantity,
            "axis": self.axis,
            "kind": str(self.kind),
            "status": str(self.status),
            "applicable": True,
            self.axis: self.grid.tolist(),
            "lower": self.lower.tolist(),
            "upper": self.upper.tolist(),
            "source": self.source,
            "note": self.note,
            **({"params": dict(self.params)} if self.params else {}),
        }


@dataclasses.dataclass(frozen=True)
class Enclosure:
    """A certified enclosure ``[exp(log_lower), exp(log_upper)]`` of a non-negative quantity, in
    log space: the working form of divergence sums before they become a :class:`Result`."""

    log_lower: float
    log_upper: float

    @property
    def lower(self) -> float:
        return rounding.exp_down(self.log_lower)

    @property
    def upper(self) -> float:
        """Rounded up: a positive upper end never becomes 0."""
        return rounding.exp_up(self.log_upper)

    def relative_width(self) -> float:
        if self.log_upper == -math.inf:
            return 0.0
        if self.log_lower == -math.inf:
            return 1.0
        return -math.expm1(self.log_lower - self.log_upper)

    def result(self, quantity: str = "delta", **fields) -> Result:
        """The :class:`Result` of this enclosure. For a delta, the one place where the upper end is
        clipped to 1 (a hockey-stick divergence is at most 1, so min(1, bound) is still a bound),
        unless the lower end is above 1 too (a defect that must not be hidden)."""
        log_upper = self.log_upper
        if quantity == "delta" and self.log_lower <= 0.0:
            log_upper = min(log_upper, 0.0)
        return Result.from_log(quantity, self.log_lower, log_upper, **fields)


# ------------------------------------------------------------------------------ gaps
def log_end(res: Result, end: str) -> float:
    """The log of a result's ``end`` ("lower" or "upper"): its log end where it has one (a delta
    far below the float range), else the log of the end (-inf at 0)."""
    log_value = getattr(res, "log_" + end, None)
    if log_value is not None:
        return float(log_value)
    value = getattr(res, end)
    return math.log(value) if value > 0 else -math.inf


def log_gap(upper: Result | None, lower: Result | None) -> float | None:
    """log(upper end of ``upper`` / lower end of ``lower``), the distance between the tightest
    upper bound and the best lower bound, from their log ends where they have them (a delta far
    below the float range); None if either is missing or an end is 0."""
    if upper is None or lower is None:
        return None
    log_up, log_low = log_end(upper, "upper"), log_end(lower, "lower")
    if log_low == -math.inf or log_up == -math.inf:
        return None
    return max(log_up - log_low, 0.0)


def gap(upper: Result | None, lower: Result | None) -> float | None:
    """upper / lower - 1 of the two conservative ends, where it is a float (None where
    :func:`log_gap` is None or above 700)."""
    value = log_gap(upper, lower)
    if value is None or value > 700:
        return None
    return math.expm1(value)


def gap_ratio(upper: Result | None, lower: Result | None) -> float | None:
    """upper / lower of the two conservative ends (inf above the float range: :func:`log_gap`
    then gives its logarithm); None where :func:`log_gap` is None."""
    value = log_gap(upper, lower)
    if value is None:
        return None
    return math.inf if value > 700 else math.exp(value)
