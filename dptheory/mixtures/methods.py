"""The mixture notion: the (epsilon, delta) of a mixture of pairs, on the one protocol of
:mod:`dptheory.protocol` (notion ``"mixture"``, subject :class:`Mixture`). delta is the
guarantee of the pair, the larger of the two directions H(P_w || Q_w) and H(Q_w || P_w).

* ``exact``: the exact delta of the mixture pair (Neyman-Pearson on P_w, Q_w);
* ``joint-convexity``: Wang, Su, Ye, Shokri, Su (2023), Corollary B.5, the mixture of the
  components' deltas (an upper bound), in each direction.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .. import protocol
from ..results import Kind, Result, Status
from ..tradeoff import from_pmfs
from . import concavity, fdivergence
from .statements import STATEMENTS


@dataclasses.dataclass(frozen=True)
class Mixture:
    """A mixture of pairs: weights w_i (summing to 1) and pairs (P_i, Q_i) of pmfs on one finite
    support; the mixture pair is (sum_i w_i P_i, sum_i w_i Q_i)."""

    weights: tuple
    pairs: tuple

    def __post_init__(self) -> None:
        w = concavity.check_weights(self.weights)
        pairs = concavity.check_pairs(list(self.pairs), len(w), "pairs")
        object.__setattr__(self, "weights", tuple(float(x) for x in w))
        object.__setattr__(self, "pairs", tuple((np.asarray(p), np.asarray(q)) for p, q in pairs))

    def params(self) -> dict:
        return {"weights": list(self.weights), "components": len(self.weights)}


def _pair_delta(directions: dict[str, Result], method: str) -> Result:
    lo = max(r.log_lower for r in directions.values())
    hi = max(r.log_upper for r in directions.values())
    first = next(iter(directions.values()))
    return Result.from_log("delta", lo, hi, kind=first.kind, status=first.status, method=method, source=first.source,
                           note="the larger of H(P_w || Q_w) and H(Q_w || P_w): the guarantee of the pair",
                           params={"epsilon": first.params.get("epsilon")})


def _exact_delta(subject: Mixture, epsilon, **options) -> Result:
    st = STATEMENTS["mixture-exact"]
    f = concavity.mixture_tradeoff(subject.weights, subject.pairs)
    out = {}
    for direction, g in (("QP", f), ("PQ", f.inverse())):
        lo, hi = g.log_delta_enclosure(float(epsilon))
        out[direction] = Result.from_log("delta", lo, hi, kind=st.kind, status=st.status, method=st.name,
                                         source=st.source, params={"epsilon": float(epsilon)})
    return _pair_delta(out, "exact")


def _bound_delta(subject: Mixture, epsilon, **options) -> Result:
    comps = [from_pmfs(p, q) for p, q in subject.pairs]
    qp = fdivergence.hockey_stick_bound(subject.weights, comps, float(epsilon))
    pq = fdivergence.hockey_stick_bound(subject.weights, [f.inverse() for f in comps], float(epsilon))
    return _pair_delta({"QP": qp, "PQ": pq}, "joint-convexity")


def _statement_status(name: str):
    def status(subject) -> tuple[Status, str]:
        st = STATEMENTS[name]
        return Status(st.status), ""
    return status


#: every method of the notion, in the order of the tables
MIXTURE_METHODS = protocol.Registry("mixture", [
    protocol.FunctionMethod(notion="mixture", name="exact", kind=Kind.EXACT, source=STATEMENTS["mixture-exact"].source,
                            status_fn=_statement_status("mixture-exact"), functions={"delta": _exact_delta},
                            title="Exact mixture (Neyman-Pearson)"),
    protocol.FunctionMethod(notion="mixture", name="joint-convexity", kind=Kind.UPPER,
                            source=STATEMENTS["hockey-stick-joint-convexity"].source,
                            status_fn=_statement_status("hockey-stick-joint-convexity"),
                            functions={"delta": _bound_delta}, title="Joint convexity, Corollary B.5"),
], subject="Mixture(weights, pairs)")
