"""Result types: what a number is (its kind), whether a published bound holds (its status),
and certified intervals.

A numerical routine never returns a bare float for a bound: it returns a :class:`Result` whose
``[lower, upper]`` interval encloses the exact value of the method's quantity, all of the
routine's own error (truncation, root finding, rounding) included. For an upper bound the
number to use is ``upper``; for a lower bound it is ``lower``.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from typing import Any


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

    def __str__(self) -> str:
        return self.value


@dataclasses.dataclass(frozen=True)
class Result:
    """A certified value: the quantity lies in ``[lower, upper]``.

    Attributes
    ----------
    quantity : str
        What was computed, for example ``"epsilon"``, ``"delta"``, ``"log_delta"``, ``"rdp"``.
    lower, upper : float
        The certified enclosure of the method's exact value.
    kind : Kind
        How the method's value relates to the true privacy parameter.
    status : Status
        Whether the method is a proven bound.
    method : str
        A short slug naming the method.
    source : str
        The paper and result number, and the erratum applied, if any.
    note : str
        Anything a user must know to read the number (validity limits, refutation reference).
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

    def __post_init__(self) -> None:
        if math.isnan(self.lower) or math.isnan(self.upper):
            raise ArithmeticError(f"{self.method}: result interval contains nan")
        if self.lower > self.upper:
            raise ArithmeticError(f"{self.method}: empty interval [{self.lower}, {self.upper}]")

    @property
    def value(self) -> float:
        """The conservative number for this kind: ``upper`` for an upper bound, ``lower`` for a
        lower bound, the midpoint otherwise."""
        if self.kind is Kind.UPPER:
            return self.upper
        if self.kind is Kind.LOWER:
            return self.lower
        return 0.5 * (self.lower + self.upper)

    @property
    def width(self) -> float:
        return self.upper - self.lower

    def relative_width(self) -> float:
        scale = max(abs(self.lower), abs(self.upper))
        return 0.0 if scale == 0 else self.width / scale

    def as_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "quantity": self.quantity,
            "kind": str(self.kind),
            "status": str(self.status),
            "lower": self.lower,
            "upper": self.upper,
            "source": self.source,
            "note": self.note,
            **({"params": self.params} if self.params else {}),
        }
