"""Mechanism comparison (Kaissis et al. 2024, "Beyond the calibration point"): the
Delta-divergence and its symmetrisation, Blackwell dominance with witnesses, extremal
mechanisms, PLRV moments and emergent dominance under composition, and a grammar of mechanisms.

Modules: :mod:`.bayes_error` (certified R_min), :mod:`.divergence` (Delta, Delta<->, Levy
distance), :mod:`.blackwell` (Blackwell dominance; not named dominance.py, which the function
``dominance`` of the contract would shadow), :mod:`.extremal`, :mod:`.plrv` (moments, Lemma 6, Theorem 3),
:mod:`.grammar` (``parse_mechanism``), :mod:`.closed_forms` (Formula objects), :mod:`.curves`
(what is certified about a mechanism's trade-off function: exact, or lower and upper bounds),
:mod:`.report` (``compare``: everything ``dptheory compare`` prints, as one object).
"""

from .divergence import (delta_between, delta_divergence, delta_divergence_definition, delta_divergence_from_profiles,
                         levy_distance, symmetric_delta)
from .blackwell import Dominance, approximately_dominates, dominance, verdict
from .curves import CertifiedCurves
from .grammar import parse_mechanism
from .summary import ComparisonReport, compare

__all__ = ["delta_divergence", "delta_between", "delta_divergence_definition", "delta_divergence_from_profiles",
           "levy_distance", "symmetric_delta", "Dominance", "dominance", "verdict", "approximately_dominates",
           "parse_mechanism", "CertifiedCurves", "ComparisonReport", "compare"]
