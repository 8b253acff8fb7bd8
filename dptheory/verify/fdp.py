"""Checks of the f-DP of shuffling (:mod:`dptheory.shuffle.fdp`; Wang, Su, Ye, Shokri, Su 2023,
Proposition 4.1, Theorem 4.2 and Corollary 4.3, as the toolkit corrects them: docs/errata.md).
Their status is the module's (:func:`dptheory.shuffle.fdp.status`): the pair uses the stronger
clone probability, whose general proof was withdrawn (unproven for a general eps0-LDP randomizer).

* ``shuffle_tradeoff(eps0, n)``, a certified lower bound on the trade-off function of the
  shuffled eps0-LDP mechanism: never above the exact trade-off function of shuffled binary
  randomized response (smallest over every pair of neighbouring datasets, by enumeration), which
  is at least the worst case over eps0-LDP randomizers;
* ``shuffle_delta(eps0, n, epsilon)``, an upper bound on delta: never below the exact delta of
  shuffled binary RR (enumeration at small n, one pair of datasets at large n).
"""

from __future__ import annotations

from ..results import Kind
from ..shuffle import fdp
from . import evaluations, oracles
from .registry import ENUMERATION, ONE_PAIR, register_check

SMALL_QUICK = [(1.0, 3), (2.0, 5)]
SMALL_FULL = [(e0, n) for e0 in (0.5, 1.0, 2.0, 4.0) for n in (2, 3, 5, 8)]
ALPHAS = [0.0, 0.01, 0.1, 0.3, 0.6, 0.9]


def _tradeoff_cases(quick: bool) -> list[dict]:
    return [{"label": f"binary-rr eps0={e0} n={n}", "eps0": e0, "n": n, "alphas": ALPHAS}
            for e0, n in (SMALL_QUICK if quick else SMALL_FULL)]


def _delta_cases(quick: bool) -> list[dict]:
    # n = 2 at eps = 0.5: the eps0-DP bound is the smaller one (its minimum with Corollary 4.3 is checked)
    small = [{"label": f"binary-rr eps0={e0} n={n} eps={e}", "eps0": e0, "n": n, "epsilon": e}
             for e0, n in (SMALL_QUICK + [(1.0, 2)] if quick else SMALL_FULL) for e in (0.1, 0.5)
             if e < e0 and (n > 2 or e == 0.5 or not quick)]
    moderate = [{"label": "binary-rr eps0=1.0 n=100 eps=0.3", "eps0": 1.0, "n": 100, "epsilon": 0.3, "large": True}]
    large = moderate + [{"label": f"binary-rr eps0={e0} n={n:.0e} eps={e}", "eps0": e0, "n": n, "epsilon": e, "large": True}
             for e0, n, e in ([(1.0, 10**4, 0.05)] if quick else [(0.5, 10**4, 0.02), (1.0, 10**4, 0.05),
                                                                   (1.0, 10**5, 0.02)])]
    return small + large


def _delta_oracle(case: dict, digits: int):
    if case.get("large"):
        return oracles.rr_single_dataset(case["eps0"], case["n"], digits).delta(case["epsilon"])
    return oracles.enumeration("binary-rr", case["eps0"], case["n"], digits).delta(case["epsilon"])


register_check(
    "shuffle-fdp/tradeoff", kind=Kind.LOWER, status=lambda case: fdp.status(), cases=_tradeoff_cases,
    bound=lambda c: [float(v) for v in fdp.shuffle_tradeoff(c["eps0"], c["n"])(c["alphas"])],
    oracle=lambda c, digits: [oracles.enumeration_tradeoff("binary-rr", c["eps0"], c["n"], a, digits)
                              for a in c["alphas"]],
    source="Wang, Su, Ye, Shokri, Su (2023), Proposition 4.1 (corrected) and Theorem 4.2 as an inequality",
    oracle_kind=ENUMERATION,
    accuracy=lambda c, digits, value=None: [evaluations.shuffle_fdp_tradeoff(c["eps0"], c["n"], a, digits)
                                            for a in c["alphas"]],
    accuracy_rtol=1e-9, accuracy_name="C(f_Shuffle) from the enumerated pair (P0, Q0)")

register_check(
    "shuffle-fdp/delta", kind=Kind.UPPER, status=lambda case: fdp.status(), cases=_delta_cases,
    bound=lambda c: fdp.shuffle_delta(c["eps0"], c["n"], c["epsilon"]), oracle=_delta_oracle,
    source="Wang, Su, Ye, Shokri, Su (2023), Corollary 4.3 with the corrected t_y, and the eps0-DP bound",
    oracle_kind=lambda c: ONE_PAIR if c.get("large") else ENUMERATION,
    accuracy=lambda c, digits, value=None: (evaluations.shuffle_fdp_delta(c["eps0"], c["n"], c["epsilon"], digits)
                                            if c["n"] - 1 <= evaluations.MAX_OTHERS else None),
    accuracy_rtol=1e-9,
    accuracy_name="min((1 - 2w) H(P0 || Q0) at the corrected t_y, the pair enumerated; the eps0-DP bound)")
