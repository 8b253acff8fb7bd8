"""Checks of the Delta-divergence (helper "comparison": :mod:`dptheory.comparison`), written
against its contract; the lead adds this module to
:data:`~dptheory.verify.registry.CHECK_MODULES` after the merge.

``delta_divergence(G_mu, G_mu~)`` of two Gaussian trade-off functions: its upper end must not be
below Delta = max{0, sup_eps (delta_mu~(eps) - delta_mu(eps)) / (1 + e^eps)} (Kaissis et al.,
Corollary 1 with Theorem 2, clause 2; digest seed-003), evaluated with mpmath at the best epsilon
found (a lower end).
"""

from __future__ import annotations

from .. import tradeoff
from ..comparison import delta_divergence
from ..results import Kind, Status
from . import oracles
from .registry import register_check


def _cases(quick: bool) -> list[dict]:
    grid = [(1.0, 2.0), (0.5, 0.5)] if quick else [(a, b) for a in (0.25, 0.5, 1.0, 2.0) for b in (0.25, 0.5, 1.0, 2.0, 4.0)]
    return [{"label": f"mu={a} mu~={b}", "mu": a, "mu_tilde": b} for a, b in grid]


register_check("comparison/delta-divergence (gaussian)", kind=Kind.UPPER, status=Status.PROVEN, cases=_cases,
               bound=lambda c: delta_divergence(tradeoff.gaussian(c["mu"]), tradeoff.gaussian(c["mu_tilde"])),
               oracle=lambda c, digits: oracles.gaussian_delta_divergence_lower(c["mu"], c["mu_tilde"], digits),
               source="Kaissis et al., Definition 1 (contract comparison.delta_divergence)",
               oracle_name="sup over epsilon of the privacy-profile form, mpmath (a lower end)")
