"""The registry of verified bounds and of printed-formula errata: one line per entry.

A **check** is a bound of the toolkit with the oracle that can contradict it and the grid of
cases to try::

    register_check("gdp/delta", kind=Kind.EXACT, status=profile.GDP_DELTA, cases=GDP_CASES,
                   bound=gdp_delta_bound, oracle=gdp_delta_oracle, oracle_kind=CLOSED_FORM,
                   source="Dong, Roth, Su (2022), Corollary 2.13")

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
* ``oracle_kind``: what the oracle computes, an :class:`Oracle` (or ``oracle_kind(case)`` where it
  depends on the case): the report names it on every row and detail line, and a one-sided oracle
  (a lower end of the exact value) is never presented as the exact value.
* ``kind``: ``upper`` (violated when the bound's upper end is below the oracle's lower end),
  ``lower`` (violated when the bound's lower end is above the oracle's upper end) or ``exact``
  (violated when the two enclosures are disjoint).
* ``status``: where the proof status comes from: the library object that defines the bound (a
  :class:`~dptheory.formula.Formula` of the catalogue, an RDP method, a statement: anything with
  a ``status`` attribute), or ``status(case)`` asking it at the case (``lambda case:
  METHODS[slug].status(randomizer)``), returning a Status or ``(Status, note)``. A check never
  states a status of its own: a bare Status is refused. Where the bound returns a Result or a
  Curve, the status it carries (the library's status at these parameters, what ``dptheory
  shuffle`` and ``dptheory rdp`` show) is the one reported and checked. Only a violation by a
  case whose status is ``proven`` fails the run.
* ``general``: the status the library gives the bound for a general input (what ``dptheory
  formula`` and ``dptheory shuffle`` list), in the same forms; by default ``status``. Where a
  case's status differs from it, the row says for which input: ``scope(case)`` (a string or a
  function of the case, such as the randomizer's name).
* ``rtol``: the accuracy the bound states for itself when it returns bare floats (a correctly
  rounded float: a few ulps); a certified Result needs 0.
* ``accuracy(case, digits, value)`` (optional; ``value`` is what ``bound`` returned, for the
  parameters it reports, such as the order a conversion chose), the second oracle: an
  independent evaluation of THE SAME quantity the method computes (the clone pair's divergence
  by direct enumeration of its pmfs, a closed form written again from the paper, which for a
  closed form is a transcription check; :mod:`dptheory.verify.evaluations`), an enclosure (or
  one per value), or None where it is not evaluated (n too large to enumerate). The bound's
  interval, widened by ``accuracy_rtol`` relative (the width the method states for itself: its
  bucket or bracket tolerance), must meet it: a bound a little too low (or high) is caught even
  where it is far from the true worst case. Violated accuracy counts as a violation.

An **erratum** pairs a published formula as printed with the corrected form the toolkit uses,
and an oracle both are compared with (:func:`register_erratum`).

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


# ----------------------------------------------------------------------------- what an oracle is

#: an oracle that encloses the exact value from both sides
BOTH = "both"
#: an oracle that gives a lower end of the exact value only (it can refute an upper bound, never confirm it)
LOWER_END = "lower end"
#: the formula under test evaluated again: it shows what the paper derives, not that the bound holds
TRANSCRIPTION_CHECK = "transcription"


@dataclasses.dataclass(frozen=True)
class Oracle:
    """What an oracle computes: ``tag``, a short name for the tables; ``text``, the sentence that
    explains it below them; ``sides``: :data:`BOTH` (an enclosure of the exact value),
    :data:`LOWER_END` (a lower end of it only) or :data:`TRANSCRIPTION_CHECK` (the formula the
    paper derives, evaluated again: a transcription check, never evidence that a bound holds)."""

    tag: str
    text: str
    sides: str = BOTH

    def __post_init__(self):
        if self.sides not in (BOTH, LOWER_END, TRANSCRIPTION_CHECK):
            raise DomainError(f"sides = {self.sides!r} is invalid: must be {BOTH!r}, {LOWER_END!r} "
                              f"or {TRANSCRIPTION_CHECK!r}")

    @property
    def two_sided(self) -> bool:
        """True when the oracle encloses the exact value (both ends)."""
        return self.sides == BOTH


ENUMERATION = Oracle("enum", "exact enumeration of the shuffled output over every pair of neighbouring datasets "
                             "(small n), both ends of the exact value")
ONE_PAIR = Oracle("one-pair", "the exact value on one pair of neighbouring datasets of shuffled binary randomized "
                              "response: a lower end of the worst case only", LOWER_END)
ROUNDS = Oracle("rounds", "the shuffled output run T times on one pair of neighbouring datasets (enumerated), the "
                          "largest over the pairs: a lower end of the composed worst case only", LOWER_END)
CLOSED_FORM = Oracle("closed", "the exact value's closed form (normal tails, the definition), in mpmath; inverted by "
                               "bisection where epsilon is checked")
QUADRATURE = Oracle("quad", "mpmath quadrature of the densities, enclosed by 100 times its error estimate")
FINITE_SUM = Oracle("sum", "the exact value as a finite sum over the outcomes (hockey-stick, Renyi, Neyman-Pearson), "
                           "in mpmath")
SEARCH = Oracle("search", "a supremum evaluated at the best point a search finds: a lower end of the exact value "
                          "only", LOWER_END)
ENVELOPE = Oracle("envelope", "an enclosure of the convex envelope min{f, f^-1}** from its definition (below: a "
                              "line of slope -1 under f and f^-1; above: a chord)")
TRANSCRIPTION = Oracle("transcription", "the formula the paper derives, re-evaluated in mpmath: a transcription "
                                        "check, which confirms the reading of the paper and nothing about the bound",
                       TRANSCRIPTION_CHECK)


# ----------------------------------------------------------------------------- status sources


def _status_source(name: str, value, what: str = "status"):
    """A status source as given (a library object with a ``status``, or a function of the case);
    a bare Status is refused: a check takes its status from the library, never states one."""
    if value is None or isinstance(value, (Status, str)):
        raise DomainError(f"{what} = {value!r} of {name!r} is invalid: must be the library object that defines the "
                          "bound (a Formula of dptheory.catalogue, an RDP method, anything with a status) or a "
                          "function of the case that asks it (lambda case: METHODS[slug].status(randomizer))")
    if isinstance(getattr(value, "status", None), Status) or callable(value) or callable(getattr(value, "status_why", None)):
        return value
    raise DomainError(f"{what} = {value!r} of {name!r} is invalid: it has no status and is not callable")


def resolve_status(source, case: dict) -> tuple[Status, str]:
    """(status, note) of a status source at a case: the object's ``status`` (and ``note`` or
    ``description``), or what the function returns (a Status, or a (Status, note) pair)."""
    fixed = getattr(source, "status", None)
    if isinstance(fixed, Status):
        return fixed, str(getattr(source, "note", "") or "")
    if callable(getattr(source, "status_why", None)):  # a method of dptheory.protocol whose status is its own
        status, why = source.status_why(None)
        return status, why
    out = source(case)
    if isinstance(out, tuple):
        return Status(out[0]), str(out[1])
    return Status(out), ""


def result_status(bound: Callable[[dict], Any]) -> Callable[[dict], tuple]:
    """The status source of a bound whose library object is the Result it returns (no catalogue
    formula or method states its status apart from it): that Result's status and note."""
    def source(case: dict) -> tuple:
        value = bound(case)
        return value.status, getattr(value, "note", "") or ""
    return source


def _scope(value) -> Callable[[dict], str]:
    if value is None:
        return lambda case: ""
    if callable(value):
        return value
    return lambda case, text=str(value): text


@dataclasses.dataclass(frozen=True)
class Check:
    """One bound of the toolkit, its oracle and its case grid (see the module docstring)."""

    name: str
    kind: Kind
    status: Any
    cases: Sequence[dict] | Callable[[bool], Sequence[dict]]
    bound: Callable[[dict], Any]
    oracle: Callable[[dict, int], Any]
    source: str
    oracle_kind: Oracle | Callable[[dict], Oracle]
    general: Any = None
    scope: Callable[[dict], str] = dataclasses.field(default=lambda case: "")
    rtol: float = 0.0
    accuracy: Callable[[dict, int, Any], Any] | None = None
    accuracy_rtol: float = 0.0
    accuracy_name: str = ""

    def grid(self, quick: bool) -> list[dict]:
        return list(self.cases(quick) if callable(self.cases) else self.cases)

    def status_of(self, case: dict) -> tuple[Status, str]:
        """(status, note) the library gives the bound at this case (before it runs)."""
        return resolve_status(self.status, case)

    def general_of(self, case: dict) -> Status:
        """The status the library gives the bound for a general input."""
        return resolve_status(self.general if self.general is not None else self.status, case)[0]

    def oracle_of(self, case: dict) -> Oracle:
        return self.oracle_kind if isinstance(self.oracle_kind, Oracle) else self.oracle_kind(case)


@dataclasses.dataclass(frozen=True)
class Erratum:
    """A printed formula, its correction and the oracle both are compared with.

    ``claim``: ``"upper"`` (the form claims to be at least the exact value: it fails when below
    the oracle's lower end) or ``"lower"``. With ``within``, the form also fails when it is more
    than ``within`` times the oracle's upper end: a bound that does not approach the quantity it
    bounds is not the theorem's bound (a misprint of that kind is harmless for soundness; the
    table says which failure it is). ``oracle_kind`` says what the oracle is: against a
    transcription check (the formula the paper derives, evaluated again) a form "matches" or
    "differs", which says nothing about whether the bound holds. ``status`` is the corrected
    form's, from the library object that defines it (as for a check; an explicit Status only
    where no library object carries one): a corrected form labelled proven that fails makes the
    run fail.
    """

    name: str
    printed: Callable[[dict], Any]
    corrected: Callable[[dict], Any]
    oracle: Callable[[dict, int], Any]
    cases: Sequence[dict] | Callable[[bool], Sequence[dict]]
    source: str
    oracle_kind: Oracle
    claim: str = "upper"
    within: float | None = None
    status: Any = Status.PROVEN
    note: str = ""
    rtol: float = 0.0

    def grid(self, quick: bool) -> list[dict]:
        return list(self.cases(quick) if callable(self.cases) else self.cases)

    def status_of(self, case: dict) -> Status:
        if isinstance(self.status, Status):
            return self.status
        return resolve_status(self.status, case)[0]


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


def _oracle_kind(name: str, value):
    if isinstance(value, Oracle) or callable(value):
        return value
    raise DomainError(f"oracle_kind = {value!r} of {name!r} is invalid: must be an Oracle (registry.ENUMERATION, "
                      "ONE_PAIR, CLOSED_FORM, ...) or a function of the case returning one")


def register_check(name: str, *, kind, status, cases, bound, oracle, source: str, oracle_kind, general=None,
                   scope=None, rtol: float = 0.0, accuracy=None, accuracy_rtol: float = 0.0,
                   accuracy_name: str = "") -> Check:
    """Register one bound with its oracle (and, optionally, its second oracle ``accuracy``) and
    case grid (see the module docstring); returns it. Registering a name again replaces the entry
    (a module reloaded, or a test)."""
    check = Check(name, _kind(kind), _status_source(name, status), cases, bound, oracle, source,
                  _oracle_kind(name, oracle_kind), None if general is None else _status_source(name, general, "general"),
                  _scope(scope), float(rtol), accuracy, float(accuracy_rtol), accuracy_name)
    CHECKS[name] = check
    return check


def register_erratum(name: str, *, printed, corrected, oracle, cases, source: str, oracle_kind: Oracle, status,
                     claim: str = "upper", within: float | None = None, note: str = "", rtol: float = 0.0) -> Erratum:
    """Register a printed formula next to its correction and the oracle they are compared with
    (``oracle(case, digits)``, an enclosure, as for a check; see :class:`Erratum`; ``rtol``: the stated accuracy of forms that return bare floats); returns it."""
    if claim not in ("upper", "lower"):
        raise DomainError(f"claim = {claim!r} is invalid: must be 'upper' or 'lower'")
    if not isinstance(oracle_kind, Oracle):
        raise DomainError(f"oracle_kind = {oracle_kind!r} of {name!r} is invalid: must be an Oracle")
    status = Status(status) if isinstance(status, (Status, str)) else _status_source(name, status)
    erratum = Erratum(name, printed, corrected, oracle, cases, source, oracle_kind, claim, within, status, note,
                      float(rtol))
    ERRATA[name] = erratum
    return erratum


def load() -> None:
    """Import every module of :data:`CHECK_MODULES` (each registers its checks once)."""
    for module in CHECK_MODULES:
        importlib.import_module(module)
