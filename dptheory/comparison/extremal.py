"""The extremal mechanisms M_PP (perfectly private) and M_BNP (blatantly non-private) and the
identities of Kaissis et al. (2024), Lemmas 2-5.

* M_PP: f(alpha) = 1 - alpha, R(pi) = min(pi, 1 - pi), delta(eps) = max(0, 1 - e^eps) (the
  paper's delta_PP = 0 holds for eps >= 0 only: for eps < 0, delta(eps) >= 1 - e^eps for every
  mechanism, and the profile of R_PP through R(pi) = (1 - pi)(1 - delta(logit pi)) is 1 - e^eps).
* M_BNP: f = 0 on (0, 1] (with f(0) = 1 in the paper; as a piecewise-linear function its vertical
  drop at 0 evaluates to 0), R = 0, delta = 1. A formal limit: it violates mutual absolute
  continuity (the paper's standing assumption, Appendix A).

Lemma 2: M >= M_PP and M_BNP >= M for every M.
Lemma 3: Delta(M_PP || M) = TV/2 = delta(0)/2 (the max of min(pi, 1 - pi) - R(pi) is at 1/2 even
for asymmetric f, by the 1-Lipschitz property of R: pi - R(pi) does not decrease on [0, 1/2]
and 1 - pi - R(pi) does not increase on [1/2, 1]; dptheory: the paper's argument, that both are
largest at 1/2, does not imply it).
Lemma 4: Delta(M || M_BNP) = R* = alpha*, the fixed point of a symmetric f (R* = R(1/2)).
Lemma 5: Delta(M_PP || M) + Delta(M || M_BNP) = 1/2.
"""

from __future__ import annotations

from .. import tradeoff
from ..results import Kind, Result, Status
from .divergence import delta_divergence

SOURCE = "Kaissis et al. (2024), Section 3.4"


def perfectly_private() -> tradeoff.PiecewiseLinear:
    """The trade-off function of M_PP: 1 - alpha (identical output distributions)."""
    return tradeoff.from_pmfs([1.0], [1.0])


def blatantly_non_private() -> tradeoff.PiecewiseLinear:
    """The trade-off function of M_BNP: disjoint supports, f = 0 on (0, 1], R = 0."""
    return tradeoff.from_pmfs([1.0, 0.0], [0.0, 1.0])


def lemma3(f) -> tuple[Result, float]:
    """(Delta(M_PP || M), delta(0)/2): the two sides of Lemma 3."""
    return delta_divergence(perfectly_private(), f), 0.5 * float(f.delta(0.0))


def lemma4(f) -> tuple[Result, float, float]:
    """(Delta(M || M_BNP), R(1/2), alpha*): the three members of Lemma 4 (alpha* only equals the
    others for a symmetric f)."""
    return delta_divergence(f, blatantly_non_private()), float(f.bayes_error(0.5)), float(f.fixed_point())


def lemma5(f) -> Result:
    """Delta(M_PP || M) + Delta(M || M_BNP), certified (Lemma 5 says it is 1/2)."""
    a = delta_divergence(perfectly_private(), f)
    b = delta_divergence(f, blatantly_non_private())
    from .. import rounding

    return Result("delta-divergence-sum", rounding.down(a.lower + b.lower), rounding.up(a.upper + b.upper),
                  Kind.EXACT, Status.PROVEN, "lemma-5", "Kaissis et al. (2024), Lemma 5")
