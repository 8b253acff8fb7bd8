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

**Accuracy** (the second oracle, :mod:`dptheory.verify.evaluations`): each method's own quantity
evaluated independently: Girgis et al.'s closed forms (Theorems 3.1, 3.3, Corollary 3.2, the
mixture sum, Erlingsson et al.'s bound as their eq. (9) quotes it) written again in mpmath (a transcription check), with Remark 2's interpolation
at real orders; the Renyi divergence of the clone, stronger-clone and Theorem 3.4 pairs by direct
enumeration (small and moderate n); the conversions at the order each result reports, from an
independent RDP value (Gaussian: lam mu^2/2; randomized response: the finite sum).
"""

from __future__ import annotations

import math

from .. import catalogue, mechanisms
from .. import rdp as rdp_module
from ..results import Kind
from ..shuffle import rdp as shuffle_rdp
from . import evaluations, oracles
from .registry import CLOSED_FORM, ENUMERATION, FINITE_SUM, ONE_PAIR, register_check

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


def _moderate(quick: bool) -> list[dict]:
    """n = 100, where the pairs can be enumerated for the second oracle; soundness by one pair."""
    orders = [2.0, 4.0, 8.5] if quick else [2.0, 3.0, 4.0, 8.5, 16.0]
    return [{"label": f"binary-rr eps0={e0} n={n}", "eps0": e0, "n": n, "orders": orders, "oracle": "one pair"}
            for e0, n in ([(1.0, 100)] if quick else [(0.5, 100), (1.0, 100), (2.0, 200)])]


def _large(quick: bool) -> list[dict]:
    orders = [2.0, 3.0, 4.0] if quick else [2.0, 3.0, 4.0, 6.0, 8.0, 16.0]
    return [{"label": f"binary-rr eps0={e0} n={n:.0e}", "eps0": e0, "n": n, "orders": orders, "oracle": "one pair"}
            for e0, n in (LARGE_QUICK if quick else LARGE_FULL)]


def _rdp_cases(kind: Kind):
    def cases(quick: bool) -> list[dict]:
        return _small(quick) + (_moderate(quick) + _large(quick) if kind is Kind.UPPER else [])
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


def rdp_oracle_kind(case: dict):
    return ENUMERATION if case["oracle"] == "enumeration" else ONE_PAIR


#: the input a parameter-dependent RDP status is for (Girgis et al.'s Corollary 3.2 is proven
#: where the library checks that it dominates Theorem 3.1 at the case's eps0 and n)
RDP_SCOPE = "at these eps0, n"


#: the mixture sum costs O(n lam) mpmath operations: evaluated up to this product
MIXTURE_BUDGET = 2_000_000


def _integer_form(form):
    """A closed form at integer orders, at real orders by Remark 2."""
    return lambda e0, n, order, digits: evaluations.remark_2(lambda k: form(e0, n, k, digits), order)


def _mixture(e0, n, order, digits):
    if n * math.ceil(order) > MIXTURE_BUDGET:
        return None
    return evaluations.remark_2(lambda k: evaluations.girgis_mixture(e0, n, k, digits), order)


def _pair_renyi(pair_of, both: bool = False):
    def form(e0, n, order, digits):
        if n - 1 > evaluations.MAX_OTHERS:
            return None
        pair = pair_of(e0, n, digits)
        lo, hi = pair.renyi(order)
        if both:
            lo2, hi2 = pair.reversed().renyi(order)
            lo, hi = max(lo, lo2), max(hi, hi2)
        return lo, hi
    return form


#: slug -> (the method's RDP at one order, evaluated independently (None where not evaluated),
#: the relative accuracy the method states for its values)
RDP_FORMS = {
    "girgis-upper-1": (_integer_form(evaluations.girgis_theorem_3_1), 1e-9),
    "girgis-upper-1-mixture": (_mixture, 2e-3),  # the upper end of a bucket enclosure of width 1e-3
    "girgis-upper-2": (evaluations.girgis_theorem_3_3, 1e-9),
    "girgis-corollary-3.2": (lambda e0, n, o, d: evaluations.girgis_corollary_3_2(e0, n, int(o), d), 1e-9),
    "erlingsson-rdp": (evaluations.erlingsson_rdp, 1e-9),
    "chen-exact": (_pair_renyi(evaluations.clone_pair), 0.0),
    "stronger-clones": (_pair_renyi(evaluations.stronger_clone_pair), 0.0),
    "girgis-lower": (_pair_renyi(evaluations.rr_lower_pair), 0.0),
    "exact": (_pair_renyi(evaluations.rr_lower_pair, both=True), 0.0),
}


def _rdp_accuracy(slug: str):
    form, _ = RDP_FORMS[slug]

    def accuracy(case: dict, digits: int, value=None):
        values = [form(case["eps0"], case["n"], o, digits) for o in case["orders"]]
        return None if any(v is None for v in values) else values
    return accuracy


for _slug, _m in shuffle_rdp.RDP_METHODS.items():
    if _m.kind is Kind.APPROXIMATION:
        continue
    # the status: the method's (RDP_METHODS), or the one its Curve carries at the case's parameters
    register_check(f"shuffle-rdp/{_slug}", kind=_m.kind, status=_m, scope=RDP_SCOPE, cases=_rdp_cases(_m.kind),
                   bound=_rdp_bound(_slug), oracle=rdp_oracle, oracle_kind=rdp_oracle_kind, source=_m.source,
                   accuracy=_rdp_accuracy(_slug), accuracy_rtol=RDP_FORMS[_slug][1],
                   accuracy_name="the method's RDP, evaluated independently")


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


def _converted(rdp_at, target: str):
    """The second oracle of a conversion: the conversion formulas at the order the result reports
    (its ``params["order"]``), applied to the RDP there evaluated independently (``rdp_at(case,
    order, digits)``). Any order gives a valid bound, so checking the one chosen is enough to catch
    a wrong value."""
    def accuracy(case: dict, digits: int, value=None):
        if not hasattr(value, "params") or "order" not in value.params:
            return None
        order = float(value.params["order"])
        rdp = rdp_at(case, order, digits)
        if rdp is None:
            return None
        if target == "epsilon":
            return evaluations.rdp_to_epsilon(rdp, order, case["delta"], digits)
        return evaluations.rdp_to_delta(rdp, order, case["epsilon"], digits)
    return accuracy


def _register_conversion(name: str, *, rdp_at, target: str, accuracy_rtol: float, **kwargs):
    register_check(name, accuracy=_converted(rdp_at, target), accuracy_rtol=accuracy_rtol,
                   accuracy_name="the conversion at the reported order, of an independent RDP value", **kwargs)


def _gaussian_rdp(case: dict, order: float, digits: int):
    """lam mu^2 / 2 with mu = 1/sigma (the Gaussian mechanism's RDP, Mironov 2017, Proposition 7)."""
    import mpmath

    with mpmath.workdps(digits + oracles.GUARD):
        v = mpmath.mpf(order) / (2 * mpmath.mpf(case["sigma"]) ** 2)
        return v, v


_register_conversion(
    "rdp-to-dp/epsilon (gaussian)", kind=Kind.UPPER, status=catalogue.get("rdp-to-dp"), cases=_gaussian_cases,
    bound=lambda c: rdp_module.epsilon_from_rdp(mechanisms.GaussianMechanism(c["sigma"]).rdp(_orders()), c["delta"]),
    oracle=lambda c, digits: oracles.gaussian_epsilon(1 / c["sigma"], c["delta"], digits),
    source="Balle et al. (2020), Theorem 21; Mironov (2017), Proposition 3: the conversion of the exact Gaussian "
           "RDP curve",
    oracle_kind=CLOSED_FORM,
    rdp_at=_gaussian_rdp, target="epsilon", accuracy_rtol=1e-12)

_register_conversion(
    "rdp-to-dp/delta (gaussian)", kind=Kind.UPPER, status=catalogue.get("rdp-to-delta"), cases=_gaussian_delta_cases,
    bound=lambda c: rdp_module.delta_from_rdp(mechanisms.GaussianMechanism(c["sigma"]).rdp(_orders()), c["epsilon"]),
    oracle=lambda c, digits: oracles.gaussian_delta(1 / c["sigma"], c["epsilon"], digits),
    source="Balle et al. (2020), Theorem 21; Mironov (2017), Proposition 3 (delta direction)",
    oracle_kind=CLOSED_FORM,
    rdp_at=_gaussian_rdp, target="delta", accuracy_rtol=1e-12)


def _rr_cases(quick: bool) -> list[dict]:
    grid = [(1.0, 2, 1e-6), (3.0, 4, 1e-3)] if quick else [(e, k, d) for e in (0.5, 1.0, 3.0) for k in (2, 4)
                                                            for d in (1e-2, 1e-6)]
    return [{"label": f"rr eps0={e} k={k} delta={d:g}", "eps0": e, "k": k, "delta": d} for e, k, d in grid]


_register_conversion(
    "rdp-to-dp/epsilon (randomized response)", kind=Kind.UPPER, status=catalogue.get("rdp-to-dp"), cases=_rr_cases,
    bound=lambda c: rdp_module.epsilon_from_rdp(mechanisms.RandomizedResponse(c["eps0"], c["k"]).rdp(_orders()),
                                                c["delta"]),
    oracle=lambda c, digits: oracles.rr_epsilon(c["eps0"], c["k"], c["delta"], digits),
    source="Balle et al. (2020), Theorem 21; Mironov (2017), Proposition 3: the conversion of the exact RR RDP "
           "curve",
    oracle_kind=FINITE_SUM,
    rdp_at=lambda c, order, digits: oracles.rr_renyi(c["eps0"], c["k"], order, digits), target="epsilon",
    accuracy_rtol=1e-12)


# ----------------------------------------------------------------------------- shuffle RDP -> DP


def _shuffle_dp_cases(quick: bool) -> list[dict]:
    grid = ([(1.0, 100, 1e-3), (1.0, 10**4, 1e-6), (0.5, 10**5, 1e-8)] if quick else
            [(e, n, d) for e in (0.5, 1.0, 2.0) for n in (100, 10**3, 10**4, 10**5) for d in (1e-3, 1e-6, 1e-9)]
            + [(0.25, 10**6, 1e-8)])
    return [{"label": f"binary-rr eps0={e} n={n:.0e} delta={d:g}", "eps0": e, "n": n, "delta": d} for e, n, d in grid]


def _shuffle_dp_bound(slug: str):
    def bound(case: dict):
        return shuffle_rdp.epsilon(slug, case["eps0"], case["n"], case["delta"])
    return bound


def _shuffle_dp_oracle(case: dict, digits: int):
    return oracles.rr_single_dataset(case["eps0"], case["n"], digits).epsilon(case["delta"], case["eps0"])


def _shuffle_rdp_at(slug: str):
    form, _ = RDP_FORMS[slug]
    return lambda case, order, digits: form(case["eps0"], case["n"], order, digits)


for _slug, _m in shuffle_rdp.RDP_METHODS.items():
    if _m.kind is not Kind.UPPER:
        continue
    # the RDP values converted are upper ends of the curves (bucket width 1e-3 for the numerical ones)
    _register_conversion(f"shuffle-rdp-to-dp/{_slug}", kind=Kind.UPPER, status=_m, scope=RDP_SCOPE,
                         cases=_shuffle_dp_cases, bound=_shuffle_dp_bound(_slug), oracle=_shuffle_dp_oracle,
                         source=_m.source + "; converted by Lemma 2.1 of Girgis et al. (2021) at the best order",
                         oracle_kind=ONE_PAIR,
                         rdp_at=_shuffle_rdp_at(_slug), target="epsilon",
                         accuracy_rtol=max(RDP_FORMS[_slug][1], 2e-3 if RDP_FORMS[_slug][1] == 0 else 1e-9))
