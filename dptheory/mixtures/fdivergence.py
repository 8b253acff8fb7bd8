"""F-divergence consequences of joint concavity (Wang et al. 2023, Proposition 3.3, Corollaries B.5, B.6,
Proposition B.7).

Orientation: for ``f = T(P, Q)``, ``f.delta(epsilon) = 1 + f*(-e^epsilon) = H_{e^epsilon}(Q||P)``
and ``f.renyi(order) = D_order(P||Q)``, ``f.f_divergence(F) = D_F(P||Q)`` (see
:mod:`dptheory.tradeoff`). The bounds below take the component trade-off functions ``f_i`` and
bound the same quantity of the mixture ``T(P_w, Q_w)``.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

from .. import divergences, rounding, validate
from ..precision import logsumexp
from ..results import Result
from ..symbols import s as S
from ..tradeoff import PiecewiseLinear
from .concavity import check_tradeoffs, check_weights
from .statements import statement

#: relative error allowed for one component's float conversion (closed forms, quadrature at
#: epsrel 1e-12, or a float sum over the canonical pair)
COMPONENT_RTOL = 1e-10


def _labelled(name: str, quantity: str, lower, upper, params, **extra) -> Result:
    st = statement(name)
    return Result(quantity, lower, upper, st.kind, st.status, name, st.source, st.note, params, **extra)


def f_divergence_bound(weights, tradeoffs, gen: divergences.Generator) -> Result:
    """Proposition 3.3: ``D_F(P_w || Q_w) <= sum_i w_i D_F(P_i || Q_i) = sum_i w_i l_F(f_i)``.

    An upper bound (kind upper) on the F-divergence of the mixture from the component trade-off
    functions (or lower bounds on them: ``l_F`` is non-increasing in ``f``). The float value of
    each ``l_F(f_i)`` is widened by :data:`COMPONENT_RTOL`.
    """
    w = check_weights(weights)
    fs = check_tradeoffs(tradeoffs, len(w))
    if not isinstance(gen, divergences.Generator):
        raise validate.DomainError(f"gen = {gen!r} is invalid: must be a divergences.Generator")
    terms = [float(f.f_divergence(gen)) for f in fs]
    if any(math.isinf(t) for t in terms):
        return _labelled("f-divergence-joint-convexity", "f-divergence", -math.inf, math.inf,
                         {"generator": gen.name})
    total = math.fsum(wi * t for wi, t in zip(w, terms))
    scale = math.fsum(wi * abs(t) for wi, t in zip(w, terms))
    err = COMPONENT_RTOL * scale + (len(w) + 2) * rounding.EPS * scale
    return _labelled("f-divergence-joint-convexity", "f-divergence", rounding.down(total, err),
                     rounding.up(total, err), {"generator": gen.name})


def hockey_stick_bound(weights, tradeoffs, epsilon) -> Result:
    """Corollary B.5: ``delta_mix(epsilon) <= sum_i w_i delta_i(epsilon)`` where ``delta_i`` is the
    privacy profile ``1 + f_i*(-e^epsilon)`` of component i, i.e. the hockey-stick divergence
    ``H_{e^epsilon}`` of the mixture is at most the mixture of the components' (any real epsilon;
    the paper states gamma = e^epsilon >= 1). Certified from each component's
    ``log_delta_enclosure``; a quantity "delta" with log ends.
    """
    w = check_weights(weights)
    fs = check_tradeoffs(tradeoffs, len(w))
    e = validate.real("epsilon", epsilon)
    los, his = [], []
    for wi, f in zip(w, fs):
        if wi == 0:
            continue
        lo, hi = f.log_delta_enclosure(e)
        los.append(math.log(wi) + lo)
        his.append(math.log(wi) + hi)
    n = len(his)
    log_lo = float(logsumexp(los)) if any(math.isfinite(v) for v in los) else -math.inf
    log_hi = float(logsumexp(his)) if any(math.isfinite(v) for v in his) else -math.inf
    slack = (n + 4) * rounding.EPS * (1 + abs(log_hi) if math.isfinite(log_hi) else 1)
    if math.isfinite(log_lo):
        log_lo = rounding.down(log_lo, slack + (n + 4) * rounding.EPS * abs(log_lo))
    if math.isfinite(log_hi):
        log_hi = rounding.up(log_hi, slack)
    st = statement("hockey-stick-joint-convexity")
    return Result.from_log("delta", log_lo, log_hi, kind=st.kind, status=st.status,
                           method=st.name, source=st.source, note=st.note, params={"epsilon": e})


def renyi_bound(weights, tradeoffs, order) -> Result:
    """Corollary B.6: ``exp((lam-1) R_lam(P_w||Q_w)) <= sum_i w_i exp((lam-1) R_lam(P_i||Q_i))``,
    returned as an upper bound on ``R_lam(P_w||Q_w)`` (``inf`` if a component has ``z_f < 1``).
    Each component's float Renyi divergence is widened by :data:`COMPONENT_RTOL`.
    """
    w = check_weights(weights)
    fs = check_tradeoffs(tradeoffs, len(w))
    lam = validate.order("order", order)
    rs = [float(f.renyi(lam)) for f in fs]
    params = {"order": lam}
    if any(math.isinf(r) and wi > 0 for r, wi in zip(rs, w)):
        return _labelled("renyi-joint-convexity", "rdp", 0.0, math.inf, params)
    logs = [math.log(wi) + (lam - 1) * r for wi, r in zip(w, rs) if wi > 0]
    err = [COMPONENT_RTOL * (lam - 1) * abs(r) + 4 * rounding.EPS * (1 + abs(v))
           for r, v, wi in zip(rs, logs, w) if wi > 0]
    lo = float(logsumexp([v - e for v, e in zip(logs, err)])) / (lam - 1)
    hi = float(logsumexp([v + e for v, e in zip(logs, err)])) / (lam - 1)
    slack = 8 * rounding.EPS * (1 + abs(hi))
    return _labelled("renyi-joint-convexity", "rdp", max(rounding.down(lo, slack), 0.0), rounding.up(hi, slack), params)


# ------------------------------------------------------------------------------ Proposition B.7
LENGTH = divergences.GENERATORS["length"]


def length(f: PiecewiseLinear) -> float:
    """Proposition B.7: the length of the graph of ``f`` from ``(0, 1)`` to ``(1, 0)`` (vertical drop
    and flat part included), which equals ``l_F(f) = D_F(P||Q)`` with ``F(y) = sqrt(1 + y^2)``.

    Erratum (docs/errata.md#wang2023-f-at-zero): ``F(0) = lim_{s->0} F(s) = 1``, not ``lim F(s)/s`` (see
    :func:`f_divergence_printed_f0`).
    """
    if not isinstance(f, PiecewiseLinear) or f.digits is not None:
        raise validate.DomainError("length: f must be a float PiecewiseLinear trade-off function")
    return math.fsum(math.hypot(float(a), float(b)) for a, b in zip(f.p_mass, f.q_mass))


def f_at_zero_printed(gen: divergences.Generator) -> float:
    """``F(0)`` as printed in Appendix B.3, ``lim_{s->0} F(s)/s`` (status refuted: the definition of an
    F-divergence weights ``Q[p = 0]`` by ``lim F(s)``)."""
    return float(sp.limit(gen.expr / S, S, 0, "+"))


def f_divergence_printed_f0(f: PiecewiseLinear, gen: divergences.Generator) -> float:
    """``l_F(f)`` with the printed ``F(0)`` (status refuted; :func:`f_at_zero_printed`)."""
    if not isinstance(f, PiecewiseLinear) or f.digits is not None:
        raise validate.DomainError("f must be a float PiecewiseLinear trade-off function")
    p, q = f.p_mass, f.q_mass
    both = (p > 0) & (q > 0)
    total = float(np.sum(q[both] * gen(p[both] / q[both])))
    q_only = float(np.sum(q[p == 0]))
    p_only = float(np.sum(p[q == 0]))
    if q_only > 0:
        total += f_at_zero_printed(gen) * q_only
    if p_only > 0:
        total += gen.slope_at_infinity * p_only
    return total

