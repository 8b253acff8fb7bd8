"""Everything ``dptheory fdp shuffle`` shows at once (:func:`fdp_report`): the certified trade-off
curve (:mod:`dptheory.shuffle.fdp.tradeoff`), delta at each epsilon
(:mod:`dptheory.shuffle.fdp.delta`), the delta of composed rounds
(:func:`dptheory.shuffle.rounds.rounds_deltas`) and the Gaussian description
(:mod:`dptheory.shuffle.fdp.gdp_fit`), as a :class:`ShuffleFdpReport` with one JSON form.
"""

from __future__ import annotations

import dataclasses
import math

from ... import tradeoff, validate
from ...results import Result, Status
from .. import clones
from .delta import shuffle_delta
from .gdp_fit import asymptotic_mu, gdp_fit
from .pair import DEFAULT_REDUCTION, SOURCE_THM_4_2, _check, status
from .proposition_4_1 import EXACT_MAX_N, MP_EXACT_MAX_N
from .tradeoff import GRID_LINES, shuffle_tradeoff


def _log_or_none(x) -> float | None:
    """A log end for JSON: the number, or None where the end is 0 (log -inf)."""
    return None if x is None or x == -math.inf else float(x)


@dataclasses.dataclass(frozen=True)
class ShuffleFdpReport:
    """Everything ``dptheory fdp shuffle`` shows, computed by :func:`fdp_report`.

    ``curve`` is the certified lower bound on the trade-off function (:func:`shuffle_tradeoff`),
    ``profile`` one entry per epsilon: ``delta`` (a :class:`~dptheory.results.Result`, upper
    bound, :func:`shuffle_delta`) and ``rounds`` (the composed rounds, or None;
    :func:`dptheory.shuffle.rounds.rounds_delta`), ``values`` the curve at the requested alphas,
    ``gdp`` the closest G_mu (an approximation) and ``asymptotic_mu``. :meth:`as_dict` is the
    JSON form: ``knots`` (a list of [alpha, beta]), ``kind``, ``status`` (with ``status_note``:
    the pair's, :func:`status`), ``source``, ``note``,
    ``profile`` (objects with ``epsilon``, ``delta`` = the upper end, ``delta_lower``,
    ``log_delta_upper`` and ``log_delta_lower`` -- a number, or null where that end is 0 --,
    ``kind``, ``status``, ``method``, ``source``, ``note``, and with rounds ``rounds``,
    ``rounds_delta``, ``rounds_result``), ``values``, ``gdp``, ``parameters``.
    """

    parameters: dict
    curve: tradeoff.PiecewiseLinear
    curve_status: Status
    status_note: str
    curve_note: str
    profile: tuple
    values: tuple
    gdp: Result
    asymptotic_mu: float

    @property
    def knots(self) -> list:
        a, b = self.curve.knots()
        return [[float(x), float(y)] for x, y in zip(a, b)]

    def as_dict(self) -> dict:
        profile = []
        for entry in self.profile:
            res: Result = entry["delta"]
            row = {"epsilon": entry["epsilon"], "delta": res.upper, "delta_lower": res.lower,
                   "log_delta_upper": _log_or_none(res.log_upper), "log_delta_lower": _log_or_none(res.log_lower),
                   "kind": str(res.kind), "status": str(res.status), "method": res.method, "source": res.source,
                   "note": res.note, "bound": res.params.get("bound")}
            if "value" in res.params:
                row["delta_value"] = res.params["value"]
            if entry.get("rounds") is not None:
                composed: Result = entry["rounds"]
                row.update(rounds=self.parameters["rounds"], rounds_delta=composed.upper,
                           rounds_result={**composed.as_dict(), "log_lower": _log_or_none(composed.log_lower),
                                          "log_upper": _log_or_none(composed.log_upper)})
            profile.append(row)
        return {"parameters": dict(self.parameters), "knots": self.knots, "kind": "lower",
                "status": str(self.curve_status), "status_note": self.status_note, "source": SOURCE_THM_4_2,
                "note": self.curve_note,
                "profile": profile, "values": [dict(v) for v in self.values],
                "gdp": {**self.gdp.as_dict(), "asymptotic_mu": self.asymptotic_mu}}


def fdp_report(eps0, n, epsilons=(), *, alphas=(), rounds=None, digits=None, reduction=None,
                   rounds_reduction=None) -> ShuffleFdpReport:
    """The f-DP of n shuffled eps0-LDP users at once: the certified trade-off curve
    (:func:`shuffle_tradeoff`, with mpmath for n <= :data:`MP_EXACT_MAX_N` when ``digits``), its
    values at ``alphas``, delta at each epsilon (:func:`shuffle_delta`), the delta of ``rounds``
    composed rounds (:func:`dptheory.shuffle.rounds.rounds_delta`, if given), and the GDP mu
    closest to the curve (:func:`gdp_fit`, an approximation) with its asymptotic value.

    ``reduction`` (default: the paper's "stronger-clones", unproven for a general eps0-LDP
    randomizer) chooses the pair of the single round; ``rounds_reduction`` that of the composed
    rounds (default ``reduction`` if given, else the proven "clones"). Bad input raises
    :class:`~dptheory.validate.DomainError` naming the parameter.
    """
    from .. import rounds as rounds_module

    e0, nn = _check(eps0, n)
    epsilons = [validate.real("epsilon", e, low=0.0) for e in epsilons]
    alphas = [validate.real("alpha", a, low=0.0, high=1.0) for a in alphas]
    digits = validate.digits(digits)
    T = None if rounds is None else validate.integer("rounds", rounds, low=1, high=rounds_module.ROUNDS_MAX)
    red = clones.reduction(DEFAULT_REDUCTION if reduction is None else reduction)
    rounds_red = clones.reduction(rounds_module.DEFAULT_REDUCTION if rounds_reduction is None and reduction is None
                                  else (reduction if rounds_reduction is None else rounds_reduction))
    curve_digits = digits if digits is not None and nn <= MP_EXACT_MAX_N else None
    curve = shuffle_tradeoff(e0, nn, digits=curve_digits, reduction=red)
    st, why = status(red)
    how = ("exact max(C(f_Shuffle), f_{eps0,0}) up to rounding" if nn <= EXACT_MAX_N or curve_digits is not None
           else f"envelope of {GRID_LINES} lines 1 - delta(eps) - e^eps alpha, their reflections and f_{{eps0,0}}")
    note = ("knots of a certified lower bound on the trade-off function of the shuffled mechanism (Theorem 4.2 "
            f"holds as T(P,Q) >= C(f_Shuffle)); {how}")
    composed = (rounds_module.rounds_deltas(e0, nn, T, epsilons, reduction=rounds_red) if T is not None and epsilons
                else [None] * len(epsilons))
    profile = [{"epsilon": e, "delta": shuffle_delta(e0, nn, e, digits=digits, reduction=red), "rounds": r}
               for e, r in zip(epsilons, composed)]
    values = tuple({"alpha": a, "beta": float(curve(a))} for a in alphas)
    parameters = {"eps0": e0, "n": nn, "digits": digits, "rounds": T, "reduction": red,
                  "rounds_reduction": rounds_red if T is not None else None}
    return ShuffleFdpReport(parameters, curve, st, why, note, tuple(profile), values, gdp_fit(curve),
                            asymptotic_mu(e0, nn, red))
