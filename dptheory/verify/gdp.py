"""Checks of Gaussian differential privacy: the privacy profile, its inverse, the trade-off
function, the profile through the trade-off function's convex conjugate (the f-DP view of the same
guarantee) and the RDP curve implied by mu-GDP, against mpmath."""

from __future__ import annotations

from .. import profile, tradeoff
from .. import rdp as rdp_module
from ..results import Kind
from . import oracles
from .registry import CLOSED_FORM, QUADRATURE, SEARCH, register_check

#: a float function of the toolkit that is not a certified interval: its stated accuracy
FLOAT_RTOL = 1e-12


def _delta_cases(quick: bool) -> list[dict]:
    grid = ([(0.5, 0.0), (1.0, 1.0), (1.0, 40.0), (3.0, 2.0)] if quick else
            [(m, e) for m in (0.05, 0.5, 1.0, 2.0, 5.0, 20.0) for e in (0.0, 0.1, 1.0, 5.0, 40.0, 300.0)])
    return [{"label": f"mu={m} eps={e}", "mu": m, "epsilon": e} for m, e in grid]


def _epsilon_cases(quick: bool) -> list[dict]:
    grid = ([(0.5, 1e-6), (2.0, 1e-3), (1.0, 1e-100)] if quick else
            [(m, d) for m in (0.05, 0.5, 1.0, 2.0, 5.0) for d in (0.5, 1e-3, 1e-6, 1e-12, 1e-100)])
    return [{"label": f"mu={m} delta={d:g}", "mu": m, "delta": d} for m, d in grid]


def _tradeoff_cases(quick: bool) -> list[dict]:
    grid = ([(1.0, 1e-6), (1.0, 0.3), (3.0, 0.05)] if quick else
            [(m, a) for m in (0.1, 1.0, 3.0, 6.0) for a in (1e-9, 1e-4, 0.05, 0.3, 0.5, 0.9, 0.999)])
    return [{"label": f"mu={m} alpha={a:g}", "mu": m, "alpha": a} for m, a in grid]


def _conjugate_cases(quick: bool) -> list[dict]:
    grid = ([(1.0, 0.5), (2.0, 3.0)] if quick else
            [(m, e) for m in (0.3, 1.0, 2.0, 4.0) for e in (0.0, 0.5, 1.0, 3.0, 8.0)])
    return [{"label": f"mu={m} eps={e}", "mu": m, "epsilon": e} for m, e in grid]


def _rdp_cases(quick: bool) -> list[dict]:
    mus = (1.0,) if quick else (0.1, 1.0, 3.0)
    orders = [1.5, 4.0] if quick else [1.25, 2.0, 4.0, 16.0]
    return [{"label": f"mu={m}", "mu": m, "orders": orders} for m in mus]


register_check("gdp/delta", kind=Kind.EXACT, status=profile.GDP_DELTA, cases=_delta_cases,
               bound=lambda c: profile.gdp_delta_result(c["mu"], c["epsilon"]),
               oracle=lambda c, digits: oracles.gaussian_delta(c["mu"], c["epsilon"], digits),
               source=profile.GDP_DELTA.source, oracle_kind=CLOSED_FORM)

register_check("gdp/epsilon", kind=Kind.EXACT, status=profile.GDP_DELTA, cases=_epsilon_cases,
               bound=lambda c: profile.gdp_epsilon(c["mu"], c["delta"]),
               oracle=lambda c, digits: oracles.gaussian_epsilon(c["mu"], c["delta"], digits),
               source="Dong, Roth, Su (2022), Corollary 2.13, inverted", oracle_kind=CLOSED_FORM)

register_check("gdp/tradeoff", kind=Kind.EXACT, status=tradeoff.GAUSSIAN_TRADEOFF, cases=_tradeoff_cases,
               bound=lambda c: float(tradeoff.gaussian(c["mu"])(c["alpha"])), rtol=FLOAT_RTOL,
               oracle=lambda c, digits: oracles.gaussian_tradeoff(c["mu"], c["alpha"], digits),
               source=tradeoff.GAUSSIAN_TRADEOFF.source, oracle_kind=CLOSED_FORM)

register_check("gdp/delta via the trade-off conjugate", kind=Kind.EXACT, status=profile.GDP_DELTA,
               cases=_conjugate_cases, rtol=FLOAT_RTOL,
               bound=lambda c: float(tradeoff.gaussian(c["mu"]).delta(c["epsilon"])),
               oracle=lambda c, digits: oracles.gaussian_delta_tradeoff_view(c["mu"], c["epsilon"], digits),
               source="Dong, Roth, Su (2022), Proposition 2.12: delta(eps) = 1 + f*(-e^eps)", oracle_kind=SEARCH)

register_check("gdp/rdp", kind=Kind.UPPER, status=rdp_module.GDP_RDP, cases=_rdp_cases,
               bound=lambda c: [(v, v) for v in rdp_module.gdp_to_rdp(c["mu"], c["orders"])],
               oracle=lambda c, digits: [oracles.gaussian_renyi(c["mu"], o, digits) for o in c["orders"]],
               source=rdp_module.GDP_RDP.source, oracle_kind=QUADRATURE)
