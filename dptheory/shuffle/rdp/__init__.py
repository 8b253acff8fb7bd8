"""Renyi DP of the shuffle model: the bounds of Girgis et al. (CCS 2021) and Chen, Cao, Ge
(ICASSP 2024), exact values, conversions to (epsilon, delta), and the SGD accountant of Chen et al.

One module per job:

* :mod:`.formulas`: the published closed forms, their errata and status (the one place);
* :mod:`.girgis`: Girgis et al.'s upper bounds (and Erlingsson et al.'s), values at orders;
* :mod:`.lower`: Theorem 3.4's lower bound (exact RDP of shuffled binary RR on its datasets);
* :mod:`.clone_pairs`: the exact RDP of the clone pairs (Chen et al. Theorem 1, corrected);
* :mod:`.enumeration`: the exact RDP of a finite randomizer by enumeration (small n);
* :mod:`.methods`: every method by name, as a :class:`~dptheory.results.Curve` (composed T times);
* :mod:`.conversion`: each method's (epsilon, delta) by Lemma 2.1 at the best order (the lemma
  itself is implemented in :mod:`dptheory.rdp`, :func:`dptheory.rdp.epsilon_from_rdp`);
* :mod:`.accountant`: Chen et al.'s shuffled SGD;
* :mod:`.composed`: the composed comparisons of Girgis et al. Figures 3-5.

Each name of ``__all__`` is imported from its module on first use, so that a command that needs
one method (``dptheory rdp --methods girgis-upper-1``) does not import the others (the accountant
and the composed comparisons pull in the amplification methods and scipy).
"""

import importlib

#: public name -> the module of this package that defines it
_WHERE = {
    "shuffled_sgd_epsilon": "accountant",
    **dict.fromkeys(("clone_pair_rdp", "clone_pair_tradeoff", "theorem_1_printed_law_rdp"), "clone_pairs"),
    **dict.fromkeys(("fmt_kov_epsilon", "rdp_route_epsilon"), "composed"),
    "epsilon_of": "conversion",
    "exact_rdp": "enumeration",
    **dict.fromkeys(("CHEN_GDP", "CHEN_GDP_REFINED", "CHEN_RDP", "COROLLARY_3_2", "COROLLARY_3_5", "ERLINGSSON_RDP",
                     "NBAR", "UPPER_1", "UPPER_2", "UPPER_2_PRINTED", "lam_int"), "formulas"),
    **dict.fromkeys(("corollary_3_2", "erlingsson", "nbar", "upper_1", "upper_1_mixture", "upper_2"), "girgis"),
    **dict.fromkeys(("binomial_central_moments", "lower_bound", "lower_bound_moments", "rr_pair"), "lower"),
    **dict.fromkeys(("RDP_METHODS", "RdpMethod", "compose", "epsilon", "epsilons", "rdp_curve", "rdp_curves"),
                    "methods"),
    "interpolate": "orders",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
