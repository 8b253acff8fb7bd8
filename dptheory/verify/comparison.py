"""Checks of the Delta-divergence (:mod:`dptheory.comparison`).

``delta_divergence(G_mu, G_mu~)`` of two Gaussian trade-off functions: its upper end must not be
below Delta = max{0, sup_eps (delta_mu~(eps) - delta_mu(eps)) / (1 + e^eps)} (the privacy-profile
form of Kaissis et al. (2024), Definition 1, by Theorem 2, clause (2); derived here), evaluated
with mpmath at the best epsilon found (a lower end). The status: the catalogue's Gaussian closed
form (``delta-divergence-gaussian``).
"""

from __future__ import annotations

from .. import catalogue, tradeoff
from ..comparison import delta_divergence
from ..results import Kind
from . import oracles
from .registry import SEARCH, register_check


def _cases(quick: bool) -> list[dict]:
    grid = [(1.0, 2.0), (0.5, 0.5)] if quick else [(a, b) for a in (0.25, 0.5, 1.0, 2.0) for b in (0.25, 0.5, 1.0, 2.0, 4.0)]
    return [{"label": f"mu={a} mu~={b}", "mu": a, "mu_tilde": b} for a, b in grid]


register_check("comparison/delta-divergence (gaussian)", kind=Kind.UPPER,
               status=catalogue.get("delta-divergence-gaussian"), cases=_cases,
               bound=lambda c: delta_divergence(tradeoff.gaussian(c["mu"]), tradeoff.gaussian(c["mu_tilde"])),
               oracle=lambda c, digits: oracles.gaussian_delta_divergence_lower(c["mu"], c["mu_tilde"], digits),
               source="Kaissis et al. (2024), Definition 1", oracle_kind=SEARCH)
