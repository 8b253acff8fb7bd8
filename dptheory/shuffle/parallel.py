"""Parallel composition in the shuffle model (Wang et al. 2024, Section 6, Theorem 6.1) and the
range-query instance of their Section 7.3.

Algorithm 2: each user samples one of K queries from a common distribution and answers it with an
eps0-LDP randomizer M_k. The result is eps0-LDP, with total variation at most the weighted mean of
the M_k's betas (Theorem 6.1), so all n users amplify together. With GRR on the d / 2^h nodes of
each level h of a dyadic hierarchy over d = 2^H values, chosen uniformly:

    beta = (1/H) sum_{h=0}^{H-1} (e^eps0 - 1) / (e^eps0 + d/2^h - 1).

The mean beta is below the worst case, so the paper's bound with it is a refuted reduction
(:mod:`dptheory.shuffle.variation_ratio`); the labelled pair with the maximum over beta' <= beta
remains proven.
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate
from ..formula import Formula, Parts, register
from ..results import Kind, Status
from .randomizers import BETA, Randomizer, general_ldp, grr


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use (sympy is slow to import)."""
    import sympy as sp

    from ..symbols import d, eps0

    _H = sp.Symbol("H", positive=True, integer=True)
    _h = sp.Symbol("h", nonnegative=True, integer=True)

    return {
        "beta-range-query": Parts(
            sp.Sum((sp.exp(eps0) - 1) / (sp.exp(eps0) + d / 2**_h - 1), (_h, 0, _H - 1)) / _H,
            (eps0, d, _H),
            (d >= 2 ** _H,),
        ),
    }


RANGE_QUERY_BETA = register(Formula(
    name="beta-range-query",
    build=_closed_forms,
    kind=Kind.EXACT,
    status=Status.PROVEN,
    source="Wang et al. (2024), Section 7.3 with Theorem 6.1",
    lhs=r"\bar\beta",
    description="mean total variation of hierarchical GRR for range queries",
))


def parallel(eps0_value, betas, weights=None, name: str = "parallel") -> Randomizer:
    """Algorithm 2 over eps0-LDP randomizers with the given betas, chosen with ``weights``
    (uniform by default): p = q = e^eps0 and beta = the weighted mean (Theorem 6.1)."""
    e0 = validate.eps0("eps0", eps0_value)
    b = validate.real_array("betas", betas, low=0.0, high=math.tanh(e0 / 2) * (1 + 1e-12))
    w = np.full(b.size, 1.0 / b.size) if weights is None else validate.pmf("weights", weights)
    if w.size != b.size:
        raise validate.DomainError(f"weights has {w.size} entries, betas {b.size}: they must match")
    return Randomizer(name, math.exp(e0), float(np.dot(w, b)), math.exp(e0), eps0=e0,
                      source="Wang et al. (2024), Theorem 6.1")


def range_query(eps0_value, d_value, approach: str = "advanced"):
    """Randomizer and population share of the range-query protocols of Section 7.3.

    approach: ``advanced`` (Theorem 6.1, all n users), ``basic`` (worst-case beta, all users),
    ``separate-best`` / ``separate-worst`` (n / H users per level, beta of GRR on d options / the
    worst case). Returns (randomizer, fraction of the n users each level's analysis sees).
    """
    e0 = validate.eps0("eps0", eps0_value)
    dd = validate.integer("d", d_value, low=2)
    levels = int(round(math.log2(dd)))
    if 2**levels != dd:
        raise validate.DomainError(f"d = {dd} is invalid: must be a power of 2")
    if approach == "advanced":
        betas = [float(BETA["grr"](e0, dd // 2**h)) for h in range(levels)]
        return parallel(e0, betas, name=f"range-query-advanced(d={dd})"), 1.0
    if approach == "basic":
        return general_ldp(e0), 1.0
    if approach == "separate-best":
        return Randomizer(f"range-query-separate(d={dd})", math.exp(e0), (math.exp(e0) - 1) / (math.exp(e0) + dd - 1),
                          math.exp(e0), eps0=e0, source="Wang et al. (2024), Section 7.3"), 1.0 / levels
    if approach == "separate-worst":
        return general_ldp(e0), 1.0 / levels
    raise validate.DomainError(
        f"approach = {approach!r} is invalid: must be 'advanced', 'basic', 'separate-best' or 'separate-worst'")


def algorithm_2_pmfs(eps0_value, d_value):
    """Exact output pmfs of Algorithm 2 for range queries (level tag, GRR answer), small d."""
    e0 = validate.eps0("eps0", eps0_value)
    dd = validate.integer("d", d_value, low=2)
    levels = int(round(math.log2(dd)))
    blocks = []
    for h in range(levels):
        size = 2**h
        options = dd // size
        g = grr(e0, options).pmfs
        block = np.array([g[x // size] for x in range(dd)]) / levels
        blocks.append(block)
    return np.hstack(blocks)
