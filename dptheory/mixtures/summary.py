"""The f-DP of one user-given mixture of pairs, everything at once (what ``dptheory fdp mixture``
prints): :func:`mixture_report`.

The components are pairs (P_i, Q_i) given by their pmfs on one common support and/or trade-off
functions f_i given by knots (a lower bound on T(P_i, Q_i)); the mixture is P_w = sum_i w_i P_i,
Q_w = sum_i w_i Q_i (Wang, Su, Ye, Shokri, Su, NeurIPS 2023).

**Both directions of the hockey-stick divergence.** For f = T(P, Q),
``1 + f*(-e^eps) = H_{e^eps}(Q || P)`` (the reversed order: docs/errata.md#derived-conjugate-orientation), and
``H_{e^eps}(P || Q)`` is the same functional of the inverse f^{-1} = T(Q, P). A mechanism whose
neighbouring datasets give the pair in either order is (eps, delta)-DP with
``delta = max(H(P_w || Q_w), H(Q_w || P_w))``: the report gives both directions and their
maximum, each labelled, for the exact mixture (pmfs only) and for the Corollary B.5 bound
``H(P_w || Q_w) <= sum_i w_i H(P_i || Q_i)`` (each direction from f_i or f_i^{-1}: if
f_i <= T(P_i, Q_i) then f_i^{-1} <= T(Q_i, P_i)).
"""

from __future__ import annotations

import dataclasses

from .. import validate
from ..results import Result
from ..tradeoff import PiecewiseLinear, from_knots, from_pmfs
from . import concavity, fdivergence
from .statements import STATEMENTS

#: the labels of the two directions and of their maximum, as they appear in the JSON and text
DIRECTIONS = {
    "PQ": "H_{e^eps}(P_w || Q_w)",
    "QP": "H_{e^eps}(Q_w || P_w) = 1 + T(P_w, Q_w)*(-e^eps)",
    "pair": "max of both directions: the (eps, delta) guarantee of the pair",
}


def _knots(f) -> list[list[float]]:
    a, b = f.knots()
    return [[float(x), float(y)] for x, y in zip(a, b)]


def _max(a: Result, b: Result, method: str) -> Result:
    """The larger of two delta enclosures (the guarantee over both orders of the pair)."""
    lo = max(a.log_lower, b.log_lower)
    hi = max(a.log_upper, b.log_upper)
    return Result.from_log("delta", lo, hi, kind=a.kind, status=a.status, method=method, source=a.source,
                           note=f"{DIRECTIONS['pair']}; {a.note}".rstrip("; "), params={**a.params, "direction": "pair"})


def _directed(res: Result, direction: str) -> Result:
    return res.replace(params={**res.params, "direction": direction},
                       note=f"{DIRECTIONS[direction]}" + (f"; {res.note}" if res.note else ""))


@dataclasses.dataclass(frozen=True)
class MixtureReport:
    """What :func:`mixture_report` computed: ``bound`` (the joint-concavity lower bound
    T(P_I, Q_I)), ``exact`` (T(P_w, Q_w), None when a component is given by a curve), ``tight``
    (Proposition 6.1's check: (tight, largest gap of the privacy-loss CDFs), or None), ``profile`` (one
    dict per epsilon: ``exact`` and ``bound`` each a dict direction -> Result for the directions
    "PQ", "QP" and "pair", see :data:`DIRECTIONS`). :meth:`as_dict` is the JSON form."""

    weights: tuple
    bound: object
    exact: PiecewiseLinear | None
    tight: tuple | None
    profile: tuple

    def as_dict(self) -> dict:
        rows = []
        for entry in self.profile:
            row = {"epsilon": entry["epsilon"], "directions": dict(DIRECTIONS)}
            for key in ("exact", "bound"):
                if entry.get(key) is not None:
                    for direction, res in entry[key].items():
                        row[f"delta_{key}_{direction}"] = res
            # the pair's guarantee, and (kept for existing readers) the Corollary B.5 bound of H(Q||P)
            row["delta"] = entry["exact"]["pair"] if entry.get("exact") else None
            row["delta_bound"] = entry["bound"]["pair"]
            rows.append(row)
        return {
            "weights": list(self.weights),
            "bound": {**STATEMENTS["joint-concavity"].as_dict(), "knots": _knots(self.bound)},
            "exact": None if self.exact is None else {**STATEMENTS["mixture-exact"].as_dict(),
                                                      "knots": _knots(self.exact)},
            "tight": None if self.tight is None else {**STATEMENTS["lemma31-tightness"].as_dict(),
                                                      "tight": self.tight[0], "cdf_gap": self.tight[1]},
            "profile": rows,
        }


def mixture_report(weights, pairs=(), curves=(), epsilons=(), *, pair_name: str = "pairs",
                   curve_name: str = "curves") -> MixtureReport:
    """The f-DP of the mixture of the components ``pairs`` ((p_i, q_i) pmfs on one common
    support) followed by ``curves`` ((alphas, betas) knots of a trade-off function, from
    alpha = 0), with one weight per component: the Lemma 3.1 bound, the exact T(P_w, Q_w) and
    Proposition 6.1's check (pairs only), and at each epsilon both directions of the hockey-stick
    divergence and their maximum, exact (pairs only) and by Corollary B.5.

    Bad input raises :class:`~dptheory.validate.DomainError` naming the parameter
    (``pair_name[i]``, ``curve_name[i]``, ``weights[i]``, ``epsilon``).
    """
    w = concavity.check_weights(weights)
    pairs, curves = list(pairs), list(curves)
    if len(pairs) + len(curves) != len(w):
        raise validate.DomainError(
            f"weights has {len(w)} entries but {len(pairs) + len(curves)} components were given ({pair_name} and "
            f"{curve_name}): one weight per component is needed")
    checked = concavity.check_pairs(pairs, len(pairs), pair_name) if pairs else []
    comps = [from_pmfs(p, q) for p, q in checked]
    for i, (alphas, betas) in enumerate(curves):
        try:
            comps.append(from_knots(alphas, betas))
        except validate.DomainError as exc:
            raise validate.DomainError(f"{curve_name}[{i}] is not a trade-off function: {exc}") from None
    eps = [validate.real("epsilon", e) for e in epsilons]
    bound = concavity.joint_concavity_bound(w, comps)
    exact = concavity.mixture_tradeoff(w, checked) if not curves else None
    tight = concavity.lemma31_is_tight(w, checked) if exact is not None else None
    inverses = [f.inverse() for f in comps]
    st = STATEMENTS["mixture-exact"]
    profile = []
    for e in eps:
        entry: dict = {"epsilon": e}
        qp = _directed(fdivergence.hockey_stick_bound(w, comps, e), "QP")
        pq = _directed(fdivergence.hockey_stick_bound(w, inverses, e), "PQ")
        entry["bound"] = {"PQ": pq, "QP": qp, "pair": _max(pq, qp, qp.method)}
        if exact is not None:
            directed = {}
            for direction, f in (("QP", exact), ("PQ", exact.inverse())):
                lo, hi = f.log_delta_enclosure(e)
                directed[direction] = Result.from_log(
                    "delta", lo, hi, kind=st.kind, status=st.status, method=st.name, source=st.source,
                    note=DIRECTIONS[direction], params={"epsilon": e, "direction": direction})
            directed["pair"] = _max(directed["PQ"], directed["QP"], st.name)
            entry["exact"] = directed
        profile.append(entry)
    return MixtureReport(tuple(float(x) for x in w), bound, exact, tight, tuple(profile))
