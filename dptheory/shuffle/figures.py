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


# ------------------------------------------------------------------ multi-message protocols (Figures 3-4)
def cheu_zhilyaev_flip(eps_prime, n, delta) -> float | None:
    """The flip probability f at which Cheu and Zhilyaev (2022)'s analysis gives the global
    ``eps_prime`` for n users at ``delta``: the smaller root of f (1 - f) n = (33/5)
    ((e^eps' + 1)/(e^eps' - 1))^2 log(4/delta), the calibration of Wang et al. (2024), Section 7.2
    (Figure 3) in the authors' published code (the formula
    :data:`dptheory.shuffle.randomizers.CHEU_ZHILYAEV_FLIP`); None where no f in (0, 1/2)
    satisfies it (n at most four times the right-hand side: the original analysis gives no such
    eps' at this n)."""
    e = validate.real("eps_prime", eps_prime, low=0.0, low_open=True)
    nn = validate.integer("n", n, low=2)
    d = validate.delta("delta", delta)
    if not R.CHEU_ZHILYAEV_FLIP.holds(e, nn, d):
        return None
    return float(R.CHEU_ZHILYAEV_FLIP.numpy(check=False)(e, nn, d))


def balls_into_bins_messages(eps_prime, d, s, delta) -> int:
    """n = 32 log(2/delta) d / (eps'^2 s), rounded down: the number of messages at which Luo et al.
    (2022)'s analysis of balls-into-bins gives the global ``eps_prime`` (Wang et al. 2024, Figure 4's
    caption; the formula :data:`dptheory.shuffle.randomizers.BALLS_INTO_BINS_MESSAGES`), at least
    2 (the shuffle bounds need another message)."""
    e = validate.real("eps_prime", eps_prime, low=0.0, low_open=True)
    dd = validate.integer("d", d, low=1)
    ss = validate.integer("s", s, low=1, high=dd)
    de = validate.delta("delta", delta)
    return max(2, int(R.BALLS_INTO_BINS_MESSAGES.numpy(check=False)(e, dd, ss, de)))


#: the methods of Figures 3 and 4 (the paper's "variation-ratio", "variation-ratio,analytic",
#: "variation-ratio,asymptotic")
MULTI_METHODS = ("variation-ratio", "variation-ratio-analytic", "variation-ratio-asymptotic")
#: the finite p the paper's computation puts in the closed forms for balls-into-bins (p = infinity)
STAND_IN_P = 1e5


def multi_message(protocol: str, eps_prime: float, *, n=None, d=None, s=None, delta=None,
                  rtol: float = 1e-2) -> list[dict]:
    """Rows {eps_prime, method, epsilon, ratio = eps'/epsilon, kind, status, randomizer, note} of
    Wang et al. (2024), Figure 3 (``protocol="cheu-zhilyaev"``, n users, delta = 0.01/n unless
    given) or Figure 4 (``"balls-into-bins"``, d bins, s special bins, delta given, n from
    :func:`balls_into_bins_messages`). Cheu et al.: flip probability from :func:`cheu_zhilyaev_flip`
    (no rows where it has none), each user's message among n others (one blanket message per
    user). Balls-into-bins: the victim's message among the n messages; p = infinity, so Theorems
    4.2 and 4.3 (which need a finite p) are evaluated, as the paper's computation does, on the
    stand-in p = 1e5 with beta = (p-1)/(p+1): another randomizer, so those rows are unproven
    whatever the reduction's status."""
    import dataclasses

    e = validate.real("eps_prime", eps_prime, low=0.0, low_open=True)
    rows = []
    if protocol == "cheu-zhilyaev":
        nn = validate.integer("n", n, low=2)
        de = 0.01 / nn if delta is None else validate.delta("delta", delta)
        f = cheu_zhilyaev_flip(e, nn, de)
        if f is None:
            return []
        targets = {m: R.cheu_zhilyaev(f, 1) for m in MULTI_METHODS}
    elif protocol == "balls-into-bins":
        de = validate.delta("delta", delta)
        nn = balls_into_bins_messages(e, d, s, de)
        rz = R.balls_into_bins(d, s, 1)
        p = STAND_IN_P
        stand_in = dataclasses.replace(rz, name=f"{rz.name}, p = 1e5 stand-in", p=p, beta=(p - 1) / (p + 1))
        targets = {"variation-ratio": rz, "variation-ratio-analytic": stand_in, "variation-ratio-asymptotic": stand_in}
    else:
        raise validate.DomainError(f"protocol = {protocol!r} is invalid: must be 'cheu-zhilyaev' or 'balls-into-bins'")
    for slug, rz in targets.items():
        try:
            res = METHODS[slug].epsilon(rz, nn, de, rtol)
        except (NotApplicable, ConditionError, ArithmeticError):
            continue
        status = str(res.status)
        if rz.name.endswith("stand-in") and status == "proven":
            status = "unproven"
        rows.append({"eps_prime": e, "method": slug, "epsilon": res.upper, "ratio": e / res.upper, "kind": str(res.kind),
                     "status": status, "randomizer": rz.name, "n": nn, "delta": de})
    return rows
