"""Checks of the basic mechanisms (Gaussian, Laplace, k-ary randomized response) and of the
(epsilon, delta)-DP trade-off function: profiles and RDP curves against mpmath sums and
quadrature of the densities."""

from __future__ import annotations

import mpmath

from .. import mechanisms, profile, tradeoff
from ..results import Kind
from . import oracles
from .registry import CLOSED_FORM, FINITE_SUM, QUADRATURE, register_check

FLOAT_RTOL = 1e-12


def _gaussian(quick: bool) -> list[dict]:
    grid = [(1.0, 1e-6)] if quick else [(s, d) for s in (0.2, 1.0, 5.0) for d in (1e-2, 1e-6, 1e-12)]
    return [{"label": f"sigma={s} delta={d:g}", "sigma": s, "delta": d} for s, d in grid]


def _laplace(quick: bool) -> list[dict]:
    grid = [(1.0, 1e-3)] if quick else [(b, d) for b in (0.5, 1.0, 4.0) for d in (1e-1, 1e-3, 1e-6)]
    return [{"label": f"scale={b} delta={d:g}", "scale": b, "delta": d} for b, d in grid]


def _laplace_rdp(quick: bool) -> list[dict]:
    scales = (1.0,) if quick else (0.5, 1.0, 4.0)
    orders = [2.0, 5.5] if quick else [1.5, 2.0, 5.5, 12.0]
    return [{"label": f"scale={b}", "scale": b, "orders": orders} for b in scales]


def _rr(quick: bool) -> list[dict]:
    grid = [(1.0, 2), (3.0, 5)] if quick else [(e, k) for e in (0.1, 1.0, 3.0, 8.0) for k in (2, 3, 10)]
    orders = [2.0, 7.5] if quick else [1.1, 2.0, 7.5, 30.0, 200.0]
    return [{"label": f"eps0={e} k={k}", "eps0": e, "k": k, "orders": orders} for e, k in grid]


def _rr_epsilon(quick: bool) -> list[dict]:
    grid = [(1.0, 2, 1e-3)] if quick else [(e, k, d) for e in (0.5, 2.0) for k in (2, 6) for d in (1e-1, 1e-4)]
    return [{"label": f"eps0={e} k={k} delta={d:g}", "eps0": e, "k": k, "delta": d} for e, k, d in grid]


def _dp_tradeoff(quick: bool) -> list[dict]:
    grid = ([(1.0, 0.0, 0.1), (1.0, 1e-3, 0.5)] if quick else
            [(e, d, a) for e in (0.0, 0.5, 2.0) for d in (0.0, 1e-3, 0.1) for a in (0.0, 0.05, 0.3, 0.7, 1.0)])
    return [{"label": f"eps={e} delta={d:g} alpha={a}", "epsilon": e, "delta": d, "alpha": a} for e, d, a in grid]


def _dp_tradeoff_oracle(case: dict, digits: int):
    """max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)} in mpmath (Dong, Roth, Su 2022, Proposition 2.5)."""
    with mpmath.workdps(digits + oracles.GUARD):
        e, d, a = (mpmath.mpf(case[k]) for k in ("epsilon", "delta", "alpha"))
        v = max(mpmath.mpf(0), 1 - d - mpmath.exp(e) * a, mpmath.exp(-e) * (1 - d - a))
        err = mpmath.mpf(10) ** -(digits + 5)
        return max(mpmath.mpf(0), v - err), v + err


# the statuses: each mechanism's closed form in the catalogue (the Gaussian mechanism with noise
# sigma is 1/sigma-GDP; its profile is the GDP profile)
register_check("mechanism/gaussian epsilon", kind=Kind.EXACT, status=profile.GDP_DELTA, cases=_gaussian,
               bound=lambda c: mechanisms.GaussianMechanism(c["sigma"]).epsilon(c["delta"]),
               oracle=lambda c, digits: oracles.gaussian_epsilon(1 / c["sigma"], c["delta"], digits),
               source=mechanisms.GaussianMechanism.source, oracle_kind=CLOSED_FORM)

register_check("mechanism/gaussian rdp", kind=Kind.EXACT, status=tradeoff.GAUSSIAN_RENYI, cases=_laplace_rdp,
               bound=lambda c: mechanisms.GaussianMechanism(c["scale"]).rdp(c["orders"]),
               oracle=lambda c, digits: [oracles.gaussian_renyi(1 / c["scale"], o, digits) for o in c["orders"]],
               source=mechanisms.GaussianMechanism.source, oracle_kind=QUADRATURE)

register_check("mechanism/laplace epsilon", kind=Kind.EXACT, status=tradeoff.LAPLACE_DELTA, cases=_laplace,
               bound=lambda c: mechanisms.LaplaceMechanism(c["scale"]).epsilon(c["delta"]),
               oracle=lambda c, digits: oracles.laplace_epsilon(1 / c["scale"], c["delta"], digits),
               source="the Laplace mechanism's privacy profile, derived here from the densities, inverted",
               oracle_kind=QUADRATURE)

register_check("mechanism/laplace rdp", kind=Kind.EXACT, status=tradeoff.LAPLACE_RENYI, cases=_laplace_rdp,
               bound=lambda c: mechanisms.LaplaceMechanism(c["scale"]).rdp(c["orders"]),
               oracle=lambda c, digits: [oracles.laplace_renyi(1 / c["scale"], o, digits) for o in c["orders"]],
               source=mechanisms.LaplaceMechanism.source, oracle_kind=QUADRATURE)

register_check("mechanism/randomized-response rdp", kind=Kind.EXACT, status=mechanisms.RR_RENYI, cases=_rr,
               bound=lambda c: mechanisms.RandomizedResponse(c["eps0"], c["k"]).rdp(c["orders"]),
               oracle=lambda c, digits: [oracles.rr_renyi(c["eps0"], c["k"], o, digits) for o in c["orders"]],
               source=mechanisms.RandomizedResponse.source, oracle_kind=FINITE_SUM)

register_check("mechanism/randomized-response epsilon", kind=Kind.EXACT, status=mechanisms.RR_DELTA,
               cases=_rr_epsilon,
               bound=lambda c: mechanisms.RandomizedResponse(c["eps0"], c["k"]).epsilon(c["delta"]),
               oracle=lambda c, digits: oracles.rr_epsilon(c["eps0"], c["k"], c["delta"], digits),
               source=mechanisms.RandomizedResponse.source, oracle_kind=FINITE_SUM)

register_check("tradeoff/dp", kind=Kind.EXACT, status=tradeoff.DP_TRADEOFF, cases=_dp_tradeoff, rtol=FLOAT_RTOL,
               bound=lambda c: float(tradeoff.dp(c["epsilon"], c["delta"])(c["alpha"])),
               oracle=_dp_tradeoff_oracle, source="Dong, Roth, Su (2022), Proposition 2.5", oracle_kind=CLOSED_FORM)
