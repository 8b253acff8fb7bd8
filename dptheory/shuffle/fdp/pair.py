"""The pair (P0, Q0) of the f-DP of shuffling (Wang, Su, Ye, Shokri, Su 2023, Appendix C): its
reductions (clone probabilities), the weights w = 1/(e^eps0 + 1) and 1 - 2w, the proof status of
every result built on it, and the sources the other modules of :mod:`dptheory.shuffle.fdp` cite.

The clone probability and the status of each reduction are decided in one place,
:mod:`dptheory.shuffle.clones` (Feldman, McMillan, Talwar 2021, Theorem 3.1 and 2023, Lemma 3.5,
whose general proof was withdrawn); this module only reads them.
"""

from __future__ import annotations

import math

import mpmath

from ... import rounding, validate
from ...results import Status
from .. import clones
from ..binomial_sums import N_MAX


SOURCE = "Wang, Su, Ye, Shokri, Su (2023)"

SOURCE_PROP_4_1 = f"{SOURCE}, Proposition 4.1 (corrected: $1 - F_i$)"

SOURCE_PROP_4_1_PRINTED = f"{SOURCE}, Proposition 4.1 as printed ($\\beta_i^0 = F_i(F_i^{{-1}}(\\alpha_i^0) + 1)$)"

SOURCE_THM_4_2 = f"{SOURCE}, Theorem 4.2 (as an inequality $T(P,Q) \\geq C(f_{{\\mathrm{{Shuffle}}}})$), symmetrised"

SOURCE_COR_4_3 = f"{SOURCE}, Corollary 4.3 (corrected $t_y = (1-2w)/(e^{{\\epsilon}} - 2w)$)"

SOURCE_EPS0_DP = ("the shuffled mechanism is $\\epsilon_0$-DP (post-processing of the victim's "
                  "$\\epsilon_0$-LDP report)")

REFUTED_PROP_4_1 = ("printed $\\beta_i^0 = F_i(F_i^{-1}(\\alpha_i^0) + 1)$ drops the '$1 -$': off the exact "
                    "Neyman-Pearson knots by up to 1 (docs/errata.md#wang2023-proposition-4-1)")

REFUTED_COR_4_3 = ("printed t_y uses the chord slope l(t), not the slope -1/t: delta too small, even negative "
                   "(docs/errata.md#wang2023-corollary-4-3)")

#: the reductions (clone probabilities) the pair may be built with; see the module docstring
REDUCTIONS = clones.REDUCTIONS

#: the paper's pair
DEFAULT_REDUCTION = "stronger-clones"

_U = rounding.EPS / 2  # unit roundoff


# ------------------------------------------------------------------- parameters


def _check(eps0, n):
    e0 = validate.eps0("eps0", eps0)
    nn = validate.integer("n", n, low=1, high=N_MAX)  # the range of the certified binomial sums
    return e0, nn


def status(reduction=DEFAULT_REDUCTION) -> tuple[Status, str]:
    """Proof status (and note) of every result of this module built on the pair of ``reduction``
    for a general eps0-LDP randomizer (from :func:`dptheory.shuffle.clones.reduction_status`)."""
    return clones.reduction_status(reduction)


def clone_probability(eps0, reduction=DEFAULT_REDUCTION) -> float:
    """The clone probability q of the pair: 2/(e^eps0 + 1) or e^-eps0 (see :data:`REDUCTIONS`)."""
    return clones.clone_probability(eps0, reduction)


def weights(eps0) -> tuple[float, float]:
    """(w, 1 - 2w) = (1/(e^eps0 + 1), tanh(eps0/2)), each to an ulp or two (no cancellation)."""
    e0 = validate.eps0("eps0", eps0)
    t = math.exp(-e0)
    return t / (1.0 + t), math.tanh(e0 / 2.0)


def _mp_params(e0: float, reduction=DEFAULT_REDUCTION):
    """(w, 1 - 2w, q) in mpmath at the working precision (eps0 is the float, exactly)."""
    E = mpmath.exp(mpmath.mpf(e0))
    w = 1 / (E + 1)
    return w, (E - 1) / (E + 1), clones.mp_clone_probability(E, reduction)
