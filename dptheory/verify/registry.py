"""The registry of verified bounds and of printed-formula errata: one line per entry.

A **check** is a bound of the toolkit with the oracle that can contradict it and the grid of
cases to try::

    register_check("gdp/delta", kind=Kind.EXACT, status=Status.PROVEN, cases=GDP_CASES,
                   bound=gdp_delta_bound, oracle=gdp_delta_oracle, source="Dong, Roth, Su (2022), Cor 2.13")

* ``cases``: a list of cases, or ``cases(quick) -> list`` (a smaller grid for ``--quick``). A case
  is a dict of plain values (it is sent to worker processes); an optional ``"label"`` names it in
  the report.
* ``bound(case)``: the toolkit's value, as a :class:`~dptheory.results.Result`, a
  :class:`~dptheory.results.Curve`, a ``(lower, upper)`` pair, a float, or a sequence of them.
  Raising :class:`~dptheory.results.NotApplicable` or
  :class:`~dptheory.validate.ConditionError` (or returning an
  :class:`~dptheory.results.Inapplicable`) marks the case "not applicable": it is counted, not
  checked.
* ``oracle(case, digits)``: an enclosure ``(lower, upper)`` of the true quantity (mpmath numbers
  or floats; ``upper = inf`` where only a lower end is known), or a sequence of enclosures
  matching the bound's values (for a Curve: one per order of ``case["orders"]``). It must be
  computed independently of the code under test (:mod:`dptheory.verify.oracles`).
* ``kind``: ``upper`` (violated when the bound's upper end is below the oracle's lower end),
  ``lower`` (violated when the bound's lower end is above the oracle's upper end) or ``exact``
  (violated when the two enclosures are disjoint).
* ``status``: a :class:`~dptheory.results.Status`, or ``status(case) -> Status`` where it depends
  on the case (the variation-ratio bound is proven for some randomizers, refuted for others).
  Only a violation by a case whose status is ``proven`` fails the run.
* ``rtol``: the accuracy the bound states for itself when it returns bare floats (a correctly
  rounded float: a few ulps); a certified Result needs 0.
* ``accuracy(case, digits, value)`` (optional; ``value`` is what ``bound`` returned, for the
  parameters it reports, such as the order a conversion chose), the second oracle: an independent evaluation of THE SAME
  quantity the method computes (the clone pair's divergence by direct enumeration of its pmfs,
  a closed form written again from the paper; :mod:`dptheory.verify.evaluations`), an enclosure
  (or one per value), or None where it is not evaluated (n too large to enumerate). The bound's
  interval, widened by ``accuracy_rtol`` relative (the width the method states for itself: its
  bucket or bracket tolerance), must meet it: a bound a little too low (or high) is caught even
  where it is far from the true worst case. Violated accuracy counts as a violation.

An **erratum** pairs a published formula as printed with the corrected form the toolkit uses,
and the exact value both claim to bound (:func:`register_erratum`).

Checks for other parts of the toolkit join the same way: a module that calls
``register_check`` at import time, listed in :data:`CHECK_MODULES`.
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any, Callable, Sequence

from ..results import Kind, Status
from ..validate import DomainError

#: the modules whose import registers the toolkit's checks and errata (one per area)
CHECK_MODULES = ("dptheory.verify.shuffle", "dptheory.verify.rdp", "dptheory.verify.gdp",
                 "dptheory.verify.mechanisms", "dptheory.verify.tradeoff", "dptheory.verify.errata",
                 "dptheory.verify.fdp", "dptheory.verify.comparison", "dptheory.verify.pld")


@dataclasses.dataclass(frozen=True)
class Check:
    """One bound of the toolkit, its oracle and its case grid (see the module docstring)."""

    name: str
    kind: Kind
    status: Status | Callable[[dict], Status]
    cases: Sequence[dict] | Callable[[bool], Sequence[dict]]
    bound: Callable[[dict], Any]
    oracle: Callable[[dict, int], Any]
    source: str
    rtol: float = 0.0
    oracle_name: str = ""
    accuracy: Callable[[dict, int, Any], Any] | None = None
    accuracy_rtol: float = 0.0
    accuracy_name: str = ""

    def grid(self, quick: bool) -> list[dict]:
        return list(self.cases(quick) if callable(self.cases) else self.cases)

    def status_of(self, case: dict) -> Status:
        return self.status(case) if callable(self.status) else self.status


@dataclasses.dataclass(frozen=True)
class Erratum:
    """A printed formula, its correction and the exact value both claim to bound.

    ``claim``: ``"upper"`` (the form claims to be at least the exact value: it fails when below
    the exact value's lower end) or ``"lower"``. With ``within``, the form also fails when it is
    more than ``within`` times the exact value's upper end: a bound that does not approach the
    quantity it bounds is not the theorem's bound (a misprint of that kind is harmless for
    soundness; the table says which failure it is). ``status`` is the corrected form's: a
    corrected form labelled proven that fails makes the run fail.
    """

    name: str
    printed: Callable[[dict], Any]
    corrected: Callable[[dict], Any]
    exact: Callable[[dict, int], Any]
    cases: Sequence[dict] | Callable[[bool], Sequence[dict]]
    source: str
    claim: str = "upper"
    within: float | None = None
    status: Status = Status.PROVEN
    note: str = ""
    rtol: float = 0.0

    def grid(self, quick: bool) -> list[dict]:
        return list(self.cases(quick) if callable(self.cases) else self.cases)


#: every registered check, by name, in registration order
CHECKS: dict[str, Check] = {}
#: every registered erratum, by name
ERRATA: dict[str, Erratum] = {}


def _kind(kind) -> Kind:
    k = Kind(kind)
    if k is Kind.APPROXIMATION:
        raise DomainError(f"kind = {kind!r} is invalid: an approximation is not a bound and has nothing to verify; "
                          "must be 'upper', 'lower' or 'exact'")
    return k


def register_check(name: str, *, kind, status, cases, bound, oracle, source: str, rtol: float = 0.0,
                   oracle_name: str = "", accuracy=None, accuracy_rtol: float = 0.0, accuracy_name: str = "") -> Check:
    """Register one bound with its oracle (and, optionally, its second oracle ``accuracy``) and
    case grid (see the module docstring); returns it. Registering a name again replaces the entry
    (a module reloaded, or a test)."""
    if not callable(status):
        status = Status(status)
    check = Check(name, _kind(kind), status, cases, bound, oracle, source, float(rtol), oracle_name,
                  accuracy, float(accuracy_rtol), accuracy_name)
    CHECKS[name] = check
    return check


def register_erratum(name: str, *, printed, corrected, exact, cases, source: str, claim: str = "upper",
                     within: float | None = None, status=Status.PROVEN, note: str = "", rtol: float = 0.0) -> Erratum:
    """Register a printed formula next to its correction and the exact value they claim to bound
    (see :class:`Erratum`; ``rtol``: the stated accuracy of forms that return bare floats); returns it."""
    if claim not in ("upper", "lower"):
        raise DomainError(f"claim = {claim!r} is invalid: must be 'upper' or 'lower'")
    erratum = Erratum(name, printed, corrected, exact, cases, source, claim, within, Status(status), note, float(rtol))
    ERRATA[name] = erratum
    return erratum


def load() -> None:
    """Import every module of :data:`CHECK_MODULES` (each registers its checks once)."""
    for module in CHECK_MODULES:
        importlib.import_module(module)
