"""The comparison notion: the Delta-divergence of Kaissis et al. (2024) between two mechanisms, on
the one protocol of :mod:`dptheory.protocol` (notion ``"comparison"``, subject :class:`Pair`;
quantity ``"delta-divergence"``, evaluated at nothing: ``at`` is None).

* ``closed-form``: within one family (Gaussian, Laplace, k-ary randomized response) and for the
  extremal mechanisms, decided from the parameters and the closed forms
  (:func:`dptheory.comparison.closed_forms.family_delta`; Kaissis et al. (2024), Lemma 2, Lemma
  B.2, and the closed forms derived here);
* ``certified``: from the mechanisms' certified trade-off curves alone
  (:func:`dptheory.comparison.curves.numerical`): the interval [Delta(f_lo || g_hi),
  Delta(f_hi || g_lo)] (Definition 1, Corollary 1), exact where both curves are certified from
  both sides, a lower or upper bound otherwise;
* ``auto``: what ``dptheory compare`` does, the closed form where it decides, else the certified
  computation (:func:`dptheory.comparison.divergence.delta_between`).
"""

from __future__ import annotations

import dataclasses

from .. import protocol
from ..results import Kind, NotApplicable, Status
from .curves import numerical
from .divergence import SOURCE, delta_between, exact_decision


@dataclasses.dataclass(frozen=True)
class Pair:
    """Two mechanisms to compare: mechanism strings (:func:`~dptheory.comparison.parse_mechanism`)
    or parsed mechanisms; Delta(first || second) is computed."""

    first: object
    second: object

    def __post_init__(self) -> None:
        from .grammar import parse_mechanism

        for side in ("first", "second"):
            value = getattr(self, side)
            if isinstance(value, str):
                object.__setattr__(self, side, parse_mechanism(value))

    def curves(self):
        return self.first.curves(), self.second.curves()

    def params(self) -> dict:
        return {"first": getattr(self.first, "name", str(self.first)),
                "second": getattr(self.second, "name", str(self.second))}


def _closed_why_not(subject: Pair) -> str | None:
    a, b = subject.curves()
    if not (a.closed_forms and b.closed_forms) or exact_decision(a.family, b.family) is None:
        return "no closed form decides this pair (two mechanisms of one family, or an extremal one, are needed)"
    return None


def _closed(subject: Pair, at, **options):
    a, b = subject.curves()
    decided = exact_decision(a.family, b.family)
    if decided is None:
        raise NotApplicable("closed-form: no closed form decides this pair")
    return decided


def _certified(subject: Pair, at, *, tol: float = 1e-6, **options):
    a, b = subject.curves()
    return delta_between(numerical(a), numerical(b), tol=tol)


def _auto(subject: Pair, at, *, tol: float = 1e-6, **options):
    a, b = subject.curves()
    return delta_between(a, b, tol=tol)


def _proven(subject):
    return Status.PROVEN, ""


#: every method of the notion, in the order of the tables
COMPARISON_METHODS = protocol.Registry("comparison", [
    protocol.FunctionMethod(notion="comparison", name="closed-form", kind=Kind.EXACT, source=SOURCE,
                            why_not_fn=_closed_why_not, status_fn=_proven, functions={"delta-divergence": _closed},
                            title="Closed form", fixed_kind=False),
    protocol.FunctionMethod(notion="comparison", name="certified", kind=Kind.EXACT, source=SOURCE,
                            status_fn=_proven, functions={"delta-divergence": _certified},
                            title="Certified curves", fixed_kind=False),
    protocol.FunctionMethod(notion="comparison", name="auto", kind=Kind.EXACT, source=SOURCE,
                            status_fn=_proven, functions={"delta-divergence": _auto},
                            title="Closed form, else certified curves", fixed_kind=False),
], subject="Pair(first, second)")
