"""Renyi DP of the shuffle model: the bounds of Girgis et al. (CCS 2021) and Chen, Cao, Ge
(ICASSP 2024), exact values, conversions to (epsilon, delta), and the SGD accountant of Chen et al.

One module per job:

* :mod:`.formulas`: the published closed forms, their errata and status (the one place);
* :mod:`.girgis`: Girgis et al.'s upper bounds (and Erlingsson et al.'s), values at orders;
* :mod:`.lower`: Theorem 3.4's lower bound (exact RDP of shuffled binary RR on its datasets);
* :mod:`.clone_pairs`: the exact RDP of the clone pairs (Chen et al. Theorem 1, corrected);
* :mod:`.enumeration`: the exact RDP of a finite randomizer by enumeration (small n);
* :mod:`.methods`: every method by name, as a :class:`~dptheory.results.Curve` (composed T times);
* :mod:`.conversion`: each method's (epsilon, delta) by Lemma 2.1 at the best order;
* :mod:`.accountant`: Chen et al.'s shuffled SGD;
* :mod:`.composed`: the composed comparisons of Girgis et al. Figures 3-5.
"""

from .accountant import shuffled_sgd_epsilon
from .clone_pairs import clone_pair_rdp, clone_pair_tradeoff, theorem_1_printed_law_rdp
from .composed import fmt_kov_epsilon, rdp_route_epsilon
from .conversion import epsilon, epsilons
from .enumeration import exact_rdp
from .formulas import (CHEN_GDP, CHEN_GDP_REFINED, CHEN_RDP, COROLLARY_3_2, COROLLARY_3_5, ERLINGSSON_RDP,
                       UPPER_1, UPPER_2, UPPER_2_PRINTED)
from .girgis import corollary_3_2, erlingsson, nbar, upper_1, upper_1_mixture, upper_2
from .lower import binomial_central_moments, lower_bound, lower_bound_moments, rr_pair
from .methods import RDP_METHODS, RdpMethod, compose, rdp_curve, rdp_curves
from .orders import interpolate

__all__ = [
    "CHEN_GDP", "CHEN_GDP_REFINED", "CHEN_RDP", "COROLLARY_3_2", "COROLLARY_3_5", "ERLINGSSON_RDP", "NBAR",
    "RDP_METHODS", "RdpMethod", "UPPER_1", "UPPER_2", "UPPER_2_PRINTED", "binomial_central_moments",
    "clone_pair_rdp", "clone_pair_tradeoff", "compose", "corollary_3_2", "epsilon", "epsilons", "erlingsson",
    "exact_rdp", "fmt_kov_epsilon", "interpolate", "lam_int", "lower_bound", "lower_bound_moments", "nbar",
    "rdp_curve", "rdp_curves", "rdp_route_epsilon", "rr_pair", "shuffled_sgd_epsilon", "theorem_1_printed_law_rdp",
    "upper_1", "upper_1_mixture", "upper_2",
]


def __getattr__(name):
    if name in ("NBAR", "lam_int"):
        from . import formulas

        return getattr(formulas, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
