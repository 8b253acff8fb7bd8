"""Checks of the trade-off functions (:mod:`dptheory.tradeoff`): the Neyman-Pearson trade-off of
discrete pairs and its privacy profile through the convex conjugate, and the Laplace trade-off
function, against mpmath computations from the definitions."""

from __future__ import annotations

import mpmath

from .. import tradeoff as tradeoff_module
from ..mixtures.statements import statement
from ..results import Kind
from . import oracles
from .registry import CLOSED_FORM, FINITE_SUM, register_check

#: the status of T(P, Q) of a discrete pair by Neyman-Pearson: the library's statement of the exact
#: trade-off function of explicit pmfs (what ``dptheory fdp mixture`` shows for it)
NEYMAN_PEARSON = statement("mixture-exact")

#: a float function of the toolkit that is not a certified interval: its stated accuracy
FLOAT_RTOL = 1e-12

#: discrete pairs (P, Q): asymmetric, with zeros on either side, and a near-tie of ratios
PAIRS = {
    "asymmetric": ([0.05, 0.15, 0.3, 0.5], [0.45, 0.3, 0.15, 0.1]),
    "zeros": ([0.5, 0.3, 0.2, 0.0], [0.0, 0.2, 0.3, 0.5]),
    "rr-3": ([0.576, 0.212, 0.212], [0.212, 0.576, 0.212]),
    "near-tie": ([0.25, 0.25, 0.25, 0.25], [0.25 + 1e-9, 0.25 - 1e-9, 0.3, 0.2]),
}


def _pair_cases(quick: bool) -> list[dict]:
    names = ["asymmetric", "zeros"] if quick else list(PAIRS)
    alphas = [0.0, 0.1, 0.55] if quick else [0.0, 1e-6, 0.05, 0.1, 0.25, 0.5, 0.55, 0.8, 1.0]
    return [{"label": f"{name} alpha={a:g}", "pair": name, "alpha": a} for name in names for a in alphas]


def _pair_delta_cases(quick: bool) -> list[dict]:
    names = ["asymmetric", "zeros"] if quick else list(PAIRS)
    epsilons = [0.0, 0.7] if quick else [-0.5, 0.0, 0.1, 0.7, 1.5, 4.0]
    return [{"label": f"{name} eps={e:g}", "pair": name, "epsilon": e} for name in names for e in epsilons]


def _mp_pair(name: str):
    """The pair at the working precision, each normalised to sum 1 exactly (the floats of a
    pmf may sum to 1 only within a few ulps; the distribution they stand for sums to 1)."""
    p, q = ([mpmath.mpf(v) for v in x] for x in PAIRS[name])
    sp, sq = mpmath.fsum(p), mpmath.fsum(q)
    return [v / sp for v in p], [v / sq for v in q]


def _pair_tradeoff_oracle(case: dict, digits: int):
    with mpmath.workdps(digits + oracles.GUARD):
        p, q = _mp_pair(case["pair"])
        return oracles.tradeoff_value(p, q, case["alpha"], mpmath.mpf(10) ** -(digits + 5))


def _pair_delta_oracle(case: dict, digits: int):
    """For f = T(P, Q), 1 + f*(-e^eps) = H_{e^eps}(Q || P) (Dong, Roth, Su 2022, Proposition 2.12)."""
    with mpmath.workdps(digits + oracles.GUARD):
        p, q = _mp_pair(case["pair"])
        return oracles._hockey(q, p, mpmath.exp(mpmath.mpf(case["epsilon"])), mpmath.mpf(10) ** -(digits + 5))


def _laplace_cases(quick: bool) -> list[dict]:
    grid = ([(1.0, 0.1), (1.0, 0.6)] if quick else
            [(m, a) for m in (0.1, 1.0, 4.0) for a in (0.0, 1e-4, 0.01, 0.2, 0.5, 0.7, 0.99, 1.0)])
    return [{"label": f"mu={m} alpha={a:g}", "mu": m, "alpha": a} for m, a in grid]


def _laplace_oracle(case: dict, digits: int):
    """T(Lap(0, 1), Lap(mu, 1))(alpha) = F(F^-1(1 - alpha) - mu), F the Laplace cdf: the
    likelihood ratio increases with x, so the most powerful test rejects above a threshold."""
    with mpmath.workdps(digits + oracles.GUARD):
        a, m = mpmath.mpf(case["alpha"]), mpmath.mpf(case["mu"])
        if a == 0:
            return mpmath.mpf(1), mpmath.mpf(1)
        if a == 1:
            return mpmath.mpf(0), mpmath.mpf(0)
        u = 1 - a
        t = mpmath.log(2 * u) if u < mpmath.mpf(1) / 2 else -mpmath.log(2 * (1 - u))
        x = t - m
        v = mpmath.exp(x) / 2 if x < 0 else 1 - mpmath.exp(-x) / 2
        err = 100 * mpmath.mpf(10) ** -(digits + oracles.GUARD) * (1 + abs(t) + m)
        return max(mpmath.mpf(0), v - err), v + err


register_check("tradeoff/from-pmfs", kind=Kind.EXACT, status=NEYMAN_PEARSON, cases=_pair_cases, rtol=FLOAT_RTOL,
               bound=lambda c: float(tradeoff_module.from_pmfs(*PAIRS[c["pair"]])(c["alpha"])),
               oracle=_pair_tradeoff_oracle, source="Neyman-Pearson lemma (Dong, Roth, Su 2022, Proposition 2.2)",
               oracle_kind=FINITE_SUM)

register_check("tradeoff/from-pmfs delta via the conjugate", kind=Kind.EXACT, status=NEYMAN_PEARSON,
               cases=_pair_delta_cases, rtol=FLOAT_RTOL,
               bound=lambda c: float(tradeoff_module.from_pmfs(*PAIRS[c["pair"]]).delta(c["epsilon"])),
               oracle=_pair_delta_oracle, source="Dong, Roth, Su (2022), Proposition 2.12", oracle_kind=FINITE_SUM)

register_check("tradeoff/laplace", kind=Kind.EXACT, status=tradeoff_module.LAPLACE_TRADEOFF, cases=_laplace_cases,
               rtol=FLOAT_RTOL, bound=lambda c: float(tradeoff_module.laplace(c["mu"])(c["alpha"])),
               oracle=_laplace_oracle, source=tradeoff_module.LAPLACE_TRADEOFF.source, oracle_kind=CLOSED_FORM)
