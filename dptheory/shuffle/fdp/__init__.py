"""f-DP of shuffling (Wang, Su, Ye, Shokri, Su, NeurIPS 2023, Section 4 and Appendix C).

For n users of an eps0-LDP local randomizer, the shuffled output of two neighbouring datasets
is a post-processing of a pair (their Appendix C, by the clone reduction of Feldman, McMillan,
Talwar)

    P = (1 - w) P0 + w Q0,   Q = (1 - w) Q0 + w P0,   w = 1 / (e^eps0 + 1),
    (A + 1, C - A) ~ P0,   (A, C - A + 1) ~ Q0,   A ~ Bin(C, 1/2),   C ~ Bin(n - 1, q),

with the clone probability q of a *reduction* (:data:`REDUCTIONS`, a parameter):

* ``"stronger-clones"`` (the default, the paper's pair): q = 2/(e^eps0 + 1), Feldman, McMillan,
  Talwar (2023). Its general proof was withdrawn (arXiv erratum to Lemma 3.5): for a general
  eps0-LDP randomizer every result built on it is **unproven** (proven only where the
  stronger-clone decomposition exists, e.g. binary randomized response;
  :func:`dptheory.shuffle.clones.stronger_clone_status`, the one place that decides it);
* ``"clones"``: q = e^-eps0, Feldman, McMillan, Talwar (2021, Theorem 3.1), **proven** for every
  eps0-LDP randomizer (this is the pair of Chen, Cao, Ge 2024, Proposition 1).

Everything below holds for either q (the paper's arguments use only the mixture structure).

* **Proposition 4.1 (corrected)**: the exact trade-off function T(P0, Q0) at its knots,
  ``alpha0(t) = sum_i w_i F_i(s_i(t))``, ``beta0(t) = sum_i w_i (1 - F_i(s_i(t) + 1))`` with
  ``s_i(t) = floor((t i - 1)/(t + 1))`` (:func:`proposition_4_1`, integer floors; the formula
  ``shuffle-fdp-prop-4.1-beta``), and all its knots at once by sorting the atoms
  (:func:`p0q0_tradeoff`). Erratum: the paper prints ``beta_i^0 = F_i(F_i^{-1}(alpha_i^0) + 1)``,
  dropping the "1 -" (:func:`proposition_4_1_printed` and ``shuffle-fdp-prop-4.1-beta-printed``,
  refuted: off by up to 1).
* **Theorem 4.2, as an inequality**: ``T(P, Q) >= C(f_Shuffle)`` with
  ``f_Shuffle = 2w Id + (1 - 2w) T(P0, Q0)`` and C the symmetrization. The paper's proof claims
  C(T(P, Q)) = C(f_Shuffle); that equality is false (a gap of 0.053 at n = 8;
  docs/errata.md#wang2023-theorem-4-2).
  :func:`shuffle_tradeoff` returns a certified lower bound on max(C(f_Shuffle), f_{eps0,0}) as a
  :class:`~dptheory.tradeoff.PiecewiseLinear` (the shuffled mechanism is also eps0-DP, the
  trade-off f_{eps0,0} of randomized response: a post-processing of the victim's eps0-LDP report).
* **Corollary 4.3, with the corrected t_y**: ``delta(eps) = 1 + f_Shuffle*(-e^eps)
  = (1 - 2w) H_{e^eps~}(P0 || Q0)`` with ``e^eps~ = (e^eps - 2w)/(1 - 2w)``, i.e. the threshold
  ``t_y = (1 - 2w)/(e^eps - 2w)`` (docs/errata.md#wang2023-corollary-4-3; the formula
  ``shuffle-fdp-threshold``),
  combined with the eps0-DP bound ``(e^eps0 - e^eps)_+/(e^eps0 + 1)`` by a minimum
  (:func:`shuffle_delta`; both are upper bounds, so is their minimum; delta = 0 for eps >= eps0).
  Erratum: the paper locates t_y with the slope l(t) of a chord, which gives too small (even
  negative) delta (:func:`corollary_4_3_printed_delta`, refuted; not a closed form: an infimum
  over the jump thresholds, so it is a function, not a catalogue formula).

Where each result lives (``dptheory.shuffle.fdp.<name>`` reaches every public name below):

* :mod:`~dptheory.shuffle.fdp.pair`: the pair, its reductions (:data:`REDUCTIONS`), the weights
  and the status of each reduction (:func:`status`, :func:`clone_probability`, :func:`weights`);
* :mod:`~dptheory.shuffle.fdp.proposition_4_1`: Proposition 4.1 (:func:`proposition_4_1`,
  :func:`proposition_4_1_printed`, :func:`p0q0_tradeoff`, :func:`pq_tradeoff`,
  :func:`f_shuffle_knots`; formulas :data:`PROP_4_1_BETA`, :data:`PROP_4_1_BETA_PRINTED`);
* :mod:`~dptheory.shuffle.fdp.tradeoff`: Theorem 4.2 as a certified line envelope
  (:func:`shuffle_tradeoff`; the envelope itself is :func:`dptheory.hull.envelope_below`);
* :mod:`~dptheory.shuffle.fdp.delta`: Corollary 4.3, the count-pair delta (:func:`shuffle_delta`,
  :func:`corollary_4_3_printed_delta`; formula :data:`THRESHOLD`);
* :mod:`~dptheory.shuffle.fdp.gdp_fit`: the Gaussian description (:func:`gdp_fit`,
  :func:`asymptotic_mu`), approximations;
* :mod:`~dptheory.shuffle.fdp.summary`: the report of ``dptheory fdp shuffle`` (:func:`fdp_report`).

The certified sums over the clone count are those of :mod:`dptheory.shuffle.binomial_sums`.
"""

from .delta import (BUCKET_BUDGET, PEAK_SDS, POINTWISE_MAX, THRESHOLD, corollary_4_3_printed_delta,
                    shuffle_delta)
from .gdp_fit import asymptotic_mu, gdp_fit
from .pair import (DEFAULT_REDUCTION, REDUCTIONS, REFUTED_COR_4_3, REFUTED_PROP_4_1, SOURCE, SOURCE_COR_4_3,
                   SOURCE_EPS0_DP, SOURCE_PROP_4_1, SOURCE_PROP_4_1_PRINTED, SOURCE_THM_4_2, clone_probability,
                   status, weights)
from .proposition_4_1 import (EXACT_MAX_N, MP_EXACT_MAX_N, PROP_4_1_BETA, PROP_4_1_BETA_PRINTED, f_shuffle_knots,
                              p0q0_tradeoff, pq_tradeoff, proposition_4_1, proposition_4_1_printed)
from .summary import ShuffleFdpReport, fdp_report
from .tradeoff import GRID_LINES, PRUNE_MASS, shuffle_tradeoff

__all__ = [
    "BUCKET_BUDGET", "DEFAULT_REDUCTION", "EXACT_MAX_N", "GRID_LINES", "MP_EXACT_MAX_N", "PEAK_SDS", "POINTWISE_MAX",
    "PROP_4_1_BETA", "PROP_4_1_BETA_PRINTED", "PRUNE_MASS", "REDUCTIONS", "REFUTED_COR_4_3", "REFUTED_PROP_4_1",
    "SOURCE", "SOURCE_COR_4_3", "SOURCE_EPS0_DP", "SOURCE_PROP_4_1", "SOURCE_PROP_4_1_PRINTED", "SOURCE_THM_4_2",
    "THRESHOLD", "ShuffleFdpReport", "asymptotic_mu", "clone_probability", "corollary_4_3_printed_delta",
    "f_shuffle_knots", "fdp_report", "gdp_fit", "p0q0_tradeoff", "pq_tradeoff", "proposition_4_1",
    "proposition_4_1_printed", "shuffle_delta", "shuffle_tradeoff", "status", "weights",
]
