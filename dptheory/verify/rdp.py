"""Checks of the Renyi-DP bounds of the shuffle model and of the RDP -> (epsilon, delta) route.

* Every RDP method of :data:`dptheory.shuffle.rdp.RDP_METHODS` that is a bound: upper bounds
  against a lower end of the true worst-case RDP (the Renyi divergence of shuffled binary
  randomized response, maximised over every pair of neighbouring datasets at small n; one pair at
  large n), lower bounds (the RDP of shuffled binary RR on particular datasets) against the
  upper end of the exact maximum over datasets of binary RR, at small n.
* The RDP -> DP conversions (:func:`dptheory.rdp.epsilon_from_rdp`,
  :func:`dptheory.rdp.delta_from_rdp`) applied to exact RDP curves (Gaussian, randomized
  response), against the mechanisms' exact profiles: the conversion must never give less than
  the direct computation.
* The same route applied to the shuffle RDP bounds (:func:`dptheory.shuffle.rdp.epsilon`),
  against the exact epsilon of one pair of datasets of shuffled binary RR.
"""

from __future__ import annotations


from .. import mechanisms
from .. import rdp as rdp_module
from ..results import Kind, Status
from ..shuffle import rdp as shuffle_rdp
from . import oracles
from .registry import register_check

SMALL_QUICK = [(1.0, 3), (1.0, 8), (2.0, 5)]
SMALL_FULL = [(e0, n) for e0 in (0.25, 0.5, 1.0, 2.0, 4.0) for n in (2, 3, 5, 8, 12)]
LARGE_QUICK = [(0.5, 10**4), (1.0, 10**3)]
LARGE_FULL = [(e0, n) for e0 in (0.25, 0.5, 1.0, 2.0) for n in (10**3, 10**4, 10**5)]
ORDERS_QUICK = (2.0, 4.0, 8.5)
ORDERS_FULL = (1.5, 2.0, 3.0, 4.0, 6.0, 8.5, 16.0, 32.0)


def _small(quick: bool) -> list[dict]:
    orders = list(ORDERS_QUICK if quick else ORDERS_FULL)
    return [{"label": f"binary-rr eps0={e0} n={n}", "eps0": e0, "n": n, "orders": orders, "oracle": "enumeration"}
            for e0, n in (SMALL_QUICK if quick else SMALL_FULL)]


def _large(quick: bool) -> list[dict]:
    orders = [2.0, 3.0, 4.0] if quick else [2.0, 3.0, 4.0, 6.0, 8.0, 16.0]
    return [{"label": f"binary-rr eps0={e0} n={n:.0e}", "eps0": e0, "n": n, "orders": orders, "oracle": "one pair"}
            for e0, n in (LARGE_QUICK if quick else LARGE_FULL)]


def _rdp_cases(kind: Kind):
    def cases(quick: bool) -> list[dict]:
        return _small(quick) + (_large(quick) if kind is Kind.UPPER else [])
    return cases


def _rdp_bound(slug: str):
    def bound(case: dict):
        return shuffle_rdp.rdp_curve(slug, case["eps0"], case["n"], case["orders"], rtol=1e-6)
    return bound


def rdp_oracle(case: dict, digits: int):
    """An enclosure of the worst-case RDP of shuffled binary RR at each order of the case."""
    if case["oracle"] == "enumeration":
        exact = oracles.enumeration("binary-rr", case["eps0"], case["n"], digits)
    else:
        exact = oracles.rr_single_dataset(case["eps0"], case["n"], digits)
    return [exact.renyi(o) for o in case["orders"]]


for _slug, _m in shuffle_rdp.RDP_METHODS.items():
    if _m.kind is Kind.APPROXIMATION:
        continue
    register_check(f"shuffle-rdp/{_slug}", kind=_m.kind, status=_m.status, cases=_rdp_cases(_m.kind),
                   bound=_rdp_bound(_slug), oracle=rdp_oracle, source=_m.source,
                   oracle_name="Renyi divergence of shuffled binary RR: every dataset pair (small n), one pair (large n)")


# ----------------------------------------------------------------------------- RDP -> DP


def _gaussian_cases(quick: bool) -> list[dict]:
    sigmas = (0.5, 2.0) if quick else (0.3, 0.5, 1.0, 2.0, 5.0, 20.0)
    deltas = (1e-6,) if quick else (1e-3, 1e-6, 1e-10, 1e-30)
    return [{"label": f"gaussian sigma={s} delta={d:g}", "sigma": s, "delta": d} for s in sigmas for d in deltas]


def _gaussian_delta_cases(quick: bool) -> list[dict]:
    sigmas = (0.5, 2.0) if quick else (0.3, 0.5, 1.0, 2.0, 5.0)
    epsilons = (1.0,) if quick else (0.1, 0.5, 1.0, 3.0, 10.0)
    return [{"label": f"gaussian sigma={s} eps={e}", "sigma": s, "epsilon": e} for s in sigmas for e in epsilons]


def _orders():
    return rdp_module.default_orders()


register_check(
    "rdp-to-dp/epsilon (gaussian)", kind=Kind.UPPER, status=Status.PROVEN, cases=_gaussian_cases,
    bound=lambda c: rdp_module.epsilon_from_rdp(mechanisms.GaussianMechanism(c["sigma"]).rdp(_orders()), c["delta"]),
    oracle=lambda c, digits: oracles.gaussian_epsilon(1 / c["sigma"], c["delta"], digits),
    source="Balle et al. (2020), Thm 21; Mironov (2017), Prop. 3: the conversion of the exact Gaussian RDP curve",
    oracle_name="exact epsilon(delta) of the Gaussian mechanism (mpmath)")

register_check(
    "rdp-to-dp/delta (gaussian)", kind=Kind.UPPER, status=Status.PROVEN, cases=_gaussian_delta_cases,
    bound=lambda c: rdp_module.delta_from_rdp(mechanisms.GaussianMechanism(c["sigma"]).rdp(_orders()), c["epsilon"]),
    oracle=lambda c, digits: oracles.gaussian_delta(1 / c["sigma"], c["epsilon"], digits),
    source="Balle et al. (2020), Thm 21; Mironov (2017), Prop. 3 (delta direction)",
    oracle_name="exact delta(epsilon) of the Gaussian mechanism (mpmath)")


def _rr_cases(quick: bool) -> list[dict]:
    grid = [(1.0, 2, 1e-6), (3.0, 4, 1e-3)] if quick else [(e, k, d) for e in (0.5, 1.0, 3.0) for k in (2, 4)
                                                            for d in (1e-2, 1e-6)]
    return [{"label": f"rr eps0={e} k={k} delta={d:g}", "eps0": e, "k": k, "delta": d} for e, k, d in grid]


register_check(
    "rdp-to-dp/epsilon (randomized response)", kind=Kind.UPPER, status=Status.PROVEN, cases=_rr_cases,
    bound=lambda c: rdp_module.epsilon_from_rdp(mechanisms.RandomizedResponse(c["eps0"], c["k"]).rdp(_orders()),
                                                c["delta"]),
    oracle=lambda c, digits: oracles.rr_epsilon(c["eps0"], c["k"], c["delta"], digits),
    source="Balle et al. (2020), Thm 21; Mironov (2017), Prop. 3: the conversion of the exact RR RDP curve",
    oracle_name="exact epsilon(delta) of k-ary randomized response (mpmath)")


# ----------------------------------------------------------------------------- shuffle RDP -> DP


def _shuffle_dp_cases(quick: bool) -> list[dict]:
    grid = [(1.0, 10**4, 1e-6), (0.5, 10**5, 1e-8)] if quick else [(e, n, d) for e in (0.5, 1.0, 2.0) for n in (10**3, 10**4, 10**5)
                                                for d in (1e-6, 1e-9)] + [(0.25, 10**6, 1e-8)]
    return [{"label": f"binary-rr eps0={e} n={n:.0e} delta={d:g}", "eps0": e, "n": n, "delta": d} for e, n, d in grid]


def _shuffle_dp_bound(slug: str):
    def bound(case: dict):
        return shuffle_rdp.epsilon(slug, case["eps0"], case["n"], case["delta"])
    return bound


def _shuffle_dp_oracle(case: dict, digits: int):
    return oracles.rr_single_dataset(case["eps0"], case["n"], digits).epsilon(case["delta"], case["eps0"])


for _slug, _m in shuffle_rdp.RDP_METHODS.items():
    if _m.kind is not Kind.UPPER:
        continue
    register_check(f"shuffle-rdp-to-dp/{_slug}", kind=Kind.UPPER, status=_m.status, cases=_shuffle_dp_cases,
                   bound=_shuffle_dp_bound(_slug), oracle=_shuffle_dp_oracle,
                   source=_m.source + "; converted by Lemma 2.1 at the best order",
                   oracle_name="exact epsilon of one dataset pair of shuffled binary RR (a lower end)")
