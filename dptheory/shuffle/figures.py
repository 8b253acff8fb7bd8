"""Data of Wang et al. (2024), Figures 1 and 2: amplification ratios eps0 / eps of shuffled subset
selection and optimal local hashing, by every method.

The paper does not state delta, the subset size k or the rounding of l. Here delta = 0.01 / n (as
in its Table 5), k = max(1, floor(d / (e^eps0 + 1))) (the optimal subset size of Wang et al. 2016)
and l = round(e^eps0 + 1); the functions take them as arguments.
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate
from . import randomizers as R
from .methods import METHODS, NotApplicable
from ..validate import ConditionError

FIGURE_METHODS = ("variation-ratio", "variation-ratio-labelled", "stronger-clones", "clones",
                  "blanket-hoeffding", "blanket-bennett", "efmrtt19")


def optimal_subset_size(eps0: float, d: int) -> int:
    return max(1, min(d - 1, int(math.floor(d / (math.exp(eps0) + 1)))))


def mechanism(name: str, eps0: float, d: int):
    """The randomizer of Figure 1 (``subset``) or Figure 2 (``local-hash``)."""
    if name == "subset":
        return R.subset_selection(eps0, d, optimal_subset_size(eps0, d))
    if name == "local-hash":
        return R.optimal_local_hash(eps0)
    raise validate.DomainError(f"name = {name!r} is invalid: must be 'subset' or 'local-hash'")


def amplification(name: str, n: int, d: int, eps0_grid, delta=None,
                  methods=FIGURE_METHODS, rtol: float = 1e-3) -> list[dict]:
    """Rows {eps0, method, epsilon (upper end), ratio = eps0/epsilon, kind, status} for the grid.

    The "existing" baselines use the general eps0-LDP class (the privacy blanket with the generic
    constants), as in the paper's "privacy-blanket,general" curve.
    """
    n = validate.integer("n", n, low=2)
    delta = 0.01 / n if delta is None else validate.delta("delta", delta)
    rows = []
    for e0 in np.atleast_1d(eps0_grid):
        rz = mechanism(name, float(e0), d)
        for slug in methods:
            target = rz if slug.startswith("variation-ratio") or slug == "stronger-clones" else R.general_ldp(float(e0))
            try:
                res = METHODS[slug].epsilon(target, n, delta, rtol)
            except (NotApplicable, ConditionError, ArithmeticError):
                continue
            rows.append({"eps0": float(e0), "method": slug, "epsilon": res.upper, "ratio": float(e0) / res.upper
                         if res.upper > 0 else math.inf, "kind": str(res.kind), "status": str(res.status),
                         "randomizer": rz.name})
    return rows


def savings(rows: list[dict], method: str = "variation-ratio", baselines=("stronger-clones", "clones",
                                                                            "blanket-hoeffding", "blanket-bennett",
                                                                            "efmrtt19")) -> dict[float, float]:
    """Per eps0: 1 - eps(method) / min eps(existing baselines): the budget the method saves."""
    out = {}
    for e0 in sorted({r["eps0"] for r in rows}):
        here = {r["method"]: r["epsilon"] for r in rows if r["eps0"] == e0}
        best = min(here[b] for b in baselines if b in here)
        out[e0] = 1 - here[method] / best
    return out
