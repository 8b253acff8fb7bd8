"""f-DP of mixture mechanisms (Wang, Su, Ye, Shokri, Su, NeurIPS 2023; its errata: docs/errata.md).

:mod:`.concavity`
    joint concavity (Lemma 3.1, Propositions B.1, B.2, Corollary B.3) in the common-threshold sense, the
    exact trade-off function of a mixture (:func:`mixture_tradeoff`), Proposition 6.1's tightness check.
:mod:`.fdivergence`
    the F-divergence consequences (Proposition 3.3, Corollaries B.5, B.6, Proposition B.7).
:mod:`.advanced`
    advanced joint concavity (Lemmas 6.2, 6.3, Propositions 6.4, E.1), Examples F.3, F.4.
:mod:`.dpgd`
    one step of DP-GD with random initialisation (Theorem 5.1, Examples D.1-D.3), certified.
:mod:`.statements`
    every result with its kind, status and source (printed erroneous forms: status refuted).
"""

from .concavity import (InfimalConvolution, common_threshold_points, different_weights_bound,
                        joint_concavity_bound, lemma31_is_tight, mixture_tradeoff,
                        pointwise_combination_printed)
from .statements import STATEMENTS, Statement

__all__ = ["InfimalConvolution", "STATEMENTS", "Statement", "common_threshold_points",
           "different_weights_bound", "dpgd_tradeoff", "joint_concavity_bound", "lemma31_is_tight",
           "mixture_tradeoff", "pointwise_combination_printed"]


def __getattr__(name):
    if name == "dpgd_tradeoff":
        from .dpgd import dpgd_tradeoff

        return dpgd_tradeoff
    raise AttributeError(name)
