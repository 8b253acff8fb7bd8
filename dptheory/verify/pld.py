"""Checks of the privacy-loss-distribution accountant (:mod:`dptheory.pld`,
:mod:`dptheory.subsampled`, :mod:`dptheory.shuffle.rounds`). Their status is the one their
Results carry (no catalogue formula states it apart from them), for the composed shuffle rounds
the module's (:func:`dptheory.shuffle.rounds.status`).

* ``PLD.from_pmfs(p, q).self_compose(T).delta(eps)`` of k-ary randomized response: pessimistic
  (upper) and optimistic (lower) against the exact hockey-stick sum of the T-fold product;
* ``SubsampledGaussian(sigma, p).delta(eps)`` (upper) against the exact divergence of the Poisson
  subsampled Gaussian pair, both directions (add/remove neighbours);
* ``rounds_delta(eps0, n, rounds, eps)`` (upper) against the exact delta of the shuffled binary RR
  run ``rounds`` times on the same pair of datasets (a lower end of the composed delta).
"""

from __future__ import annotations

from ..mechanisms import RandomizedResponse
from ..pld import PLD
from ..results import Kind
from ..shuffle import rounds as shuffle_rounds
from ..subsampled import SubsampledGaussian
from . import evaluations, oracles
from .registry import CLOSED_FORM, FINITE_SUM, ROUNDS, register_check, result_status


def _rr_cases(quick: bool) -> list[dict]:
    grid = [(1.0, 2, 3, 0.5)] if quick else [(e, k, t, x) for e in (0.5, 1.0, 2.0) for k in (2, 4)
                                             for t in (1, 3, 6) for x in (0.0, 0.5, 2.0)]
    return [{"label": f"rr eps0={e} k={k} T={t} eps={x}", "eps0": e, "k": k, "rounds": t, "epsilon": x}
            for e, k, t, x in grid]


def _rr_pld(case: dict, pessimistic: bool):
    p, q = RandomizedResponse(case["eps0"], case["k"]).pmfs()
    return PLD.from_pmfs(p, q, pessimistic=pessimistic).self_compose(case["rounds"]).delta(case["epsilon"])


def _rr_oracle(case: dict, digits: int):
    return oracles.rr_composed_delta(case["eps0"], case["k"], case["rounds"], case["epsilon"], digits)


register_check("pld/pessimistic delta (randomized response)", kind=Kind.UPPER,
               status=result_status(lambda c: _rr_pld(c, True)), cases=_rr_cases, bound=lambda c: _rr_pld(c, True),
               oracle=_rr_oracle, source="privacy loss distribution, pessimistic discretisation, composed T times",
               oracle_kind=FINITE_SUM)

register_check("pld/optimistic delta (randomized response)", kind=Kind.LOWER,
               status=result_status(lambda c: _rr_pld(c, False)), cases=_rr_cases, bound=lambda c: _rr_pld(c, False),
               oracle=_rr_oracle, source="privacy loss distribution, optimistic discretisation, composed T times",
               oracle_kind=FINITE_SUM)


def _sgm_cases(quick: bool) -> list[dict]:
    grid = [(1.0, 0.1, 1.0)] if quick else [(s, p, e) for s in (0.7, 1.0, 2.0) for p in (0.01, 0.1, 0.5)
                                            for e in (0.1, 1.0, 3.0)]
    return [{"label": f"sigma={s} p={p} eps={e}", "sigma": s, "p": p, "epsilon": e} for s, p, e in grid]


def _sgm(case: dict):
    return SubsampledGaussian(case["sigma"], case["p"]).delta(case["epsilon"])


register_check("pld/subsampled gaussian delta", kind=Kind.UPPER, status=result_status(_sgm), cases=_sgm_cases,
               bound=_sgm,
               oracle=lambda c, digits: oracles.subsampled_gaussian_delta(c["sigma"], c["p"], c["epsilon"], digits),
               source="Poisson-subsampled Gaussian mechanism (add and remove neighbours), privacy loss distribution",
               oracle_kind=CLOSED_FORM)


def _rounds_cases(quick: bool) -> list[dict]:
    grid = [(1.0, 3, 2, 0.5)] if quick else [(e, n, t, x) for e in (0.5, 1.0, 2.0) for n in (2, 3, 4)
                                             for t in (2, 3) for x in (0.1, 0.5, 1.0)]
    return [{"label": f"binary-rr eps0={e} n={n} T={t} eps={x}", "eps0": e, "n": n, "rounds": t, "epsilon": x}
            for e, n, t, x in grid]


register_check("pld/shuffle rounds delta", kind=Kind.UPPER, status=lambda c: shuffle_rounds.status(),
               cases=_rounds_cases,
               bound=lambda c: shuffle_rounds.rounds_delta(c["eps0"], c["n"], c["rounds"], c["epsilon"]),
               oracle=lambda c, digits: oracles.composed_delta_lower("binary-rr", c["eps0"], c["n"], c["rounds"],
                                                                     c["epsilon"], digits),
               source="T shuffled rounds on the clone pair of Feldman, McMillan, Talwar (2021), Theorem 3.1, "
                      "privacy loss distribution",
               oracle_kind=ROUNDS,
               # the same quantity: the T-fold clone pair (enumerated), which the PLD bounds within its
               # grid's discretisation (interval 1e-4: well below 1e-3 relative on these cases)
               accuracy=lambda c, digits, value=None: evaluations.clone_pair(c["eps0"], c["n"], digits).product(
                   c["rounds"]).delta(c["epsilon"]),
               accuracy_rtol=1e-3, accuracy_name="delta of the T-fold clone pair, enumerated")
