"""Clone reductions of Feldman, McMillan, Talwar: the 2021 clones (clone probability e^-eps0) and
the 2023 "stronger" clones (clone probability 2/(e^eps0 + 1)).

FMT21 (FOCS 2021, arXiv 2012.12803): for any eps0-DP local randomizers, the shuffled output of two
neighbouring datasets is a post-processing of
``P = (A + D, C - A + 1 - D)``, ``Q = (A + 1 - D, C - A + D)`` with C ~ Bin(n-1, e^-eps0),
A ~ Bin(C, 1/2), D ~ Bern(e^eps0/(e^eps0 + 1)). Its divergence is computed exactly
(:class:`~dptheory.shuffle.pairs.CountPair`). The authors' public implementation uses the same
interval endpoint twice in its upper-bound mode (``max(deltaq_upperc, deltaq_upperc)``), which
returns a value below the exact one (0.17279 instead of 0.17542 for n = 1e5, eps0 = 4, delta =
1e-6); nothing of that code is reused here.

FMT23 (SODA 2023, arXiv 2208.04591): the same pair with C ~ Bin(n-1, 2/(e^eps0 + 1)). Its erratum
withdraws the general claim (Lemma 3.5 fails for some randomizers): it is proven only where the
stronger-clone decomposition exists (:func:`dptheory.shuffle.variation_ratio.stronger_clone_condition`).
"""

from __future__ import annotations

import math

from .. import validate
from ..formula import Formula, Parts, register
from ..lazy_import import mpmath
from ..results import Kind, Status
from .pairs import CountPair


def _closed_forms() -> dict[str, Parts]:
    """The sympy expressions of this module's formulas, built on first use (sympy is slow to import)."""
    import sympy as sp

    from ..symbols import delta, eps0, n

    _E = sp.exp(eps0)

    return {
        "clones-closed-form": Parts(
            sp.log(1 + (_E - 1) / (_E + 1) * (8 * sp.sqrt(_E * sp.log(4 / delta)) / sp.sqrt(n) + 8 * _E / n)),
            (eps0, n, delta),
            (delta < 1, eps0 <= sp.log(n / (16 * sp.log(4 / delta)))),
        ),
    }


CLOSED_FORM = register(Formula(
    name="clones-closed-form",
    build=_closed_forms,
    kind=Kind.UPPER,
    status=Status.PROVEN,
    source="Feldman, McMillan, Talwar (2021), eq. (1) / Theorem 3.1",
    erratum=(r"condition taken as $\epsilon_0 \leq \log(n / (16 \log(4/\delta)))$ as in the authors' code, "
             r"stricter than the printed $\log(2/\delta)$, which a 2026 report says is a typo "
             "(apple/ml-shuffling-amplification#1)"),
    lhs=r"\epsilon",
    description="closed-form clone bound for $\\epsilon_0$-DP local randomizers",
))

SOURCE_2021 = "Feldman, McMillan, Talwar (2021), Theorem 3.1 (numerical, exact divergence of the clone pair)"
SOURCE_2023 = "Feldman, McMillan, Talwar (2023), Theorem 3.2 (stronger clones)"

#: the clone reductions of the shuffled eps0-LDP protocol, by name: "clones" (FMT21, clone
#: probability e^-eps0) and "stronger-clones" (FMT23, clone probability 2/(e^eps0 + 1))
REDUCTIONS = ("clones", "stronger-clones")

#: why the stronger-clone pair is not proven for a general eps0-LDP randomizer
STRONGER_UNPROVEN = ("general proof withdrawn (Feldman, McMillan, Talwar 2023, erratum to Lemma 3.5): proven only "
                     "for randomizers with the stronger-clone decomposition (e.g. binary randomized response); "
                     "no counterexample is known")


def stronger_clone_status(pmfs=None) -> tuple[Status, str]:
    """Proof status (and note) of the stronger-clone pair for a randomizer with these pmfs (rows:
    inputs); ``None`` stands for a general eps0-LDP randomizer. The one place that decides it
    (the shuffle methods, the f-DP of shuffling and the composed rounds all ask here): proven
    where the decomposition exists (:func:`dptheory.shuffle.variation_ratio.stronger_clone_condition`),
    unproven otherwise."""
    if pmfs is not None:
        from .variation_ratio import stronger_clone_condition

        if stronger_clone_condition(pmfs):
            return Status.PROVEN, "the stronger-clone decomposition exists for these pmfs"
    return Status.UNPROVEN, STRONGER_UNPROVEN


#: the clone probability of each reduction's pair (text with inline math)
CLONE_PROBABILITY = {"stronger-clones": "$2/(e^{\\epsilon_0} + 1)$", "clones": "$e^{-\\epsilon_0}$"}


def reduction(name) -> str:
    """The reduction's name, checked (one of :data:`REDUCTIONS`)."""
    if name not in REDUCTIONS:
        raise validate.DomainError(f"reduction = {name!r} is invalid: must be one of {', '.join(REDUCTIONS)}")
    return name


def reduction_status(name, pmfs=None) -> tuple[Status, str]:
    """Proof status (and note) of a clone reduction for a general eps0-LDP randomizer (``pmfs``
    None) or for one with these pmfs: the 2021 clones are proven for every eps0-LDP randomizer."""
    if reduction(name) == "clones":
        return Status.PROVEN, r"Feldman, McMillan, Talwar (2021), Theorem 3.1: any $\epsilon_0$-LDP randomizer"
    return stronger_clone_status(pmfs)


def reduction_source(name) -> str:
    return SOURCE_2021 if reduction(name) == "clones" else SOURCE_2023


def clone_probability(eps0_value, name) -> float:
    """The clone probability of a reduction, to an ulp or two: e^-eps0 ("clones") or
    2/(e^eps0 + 1) = 2 e^-eps0/(1 + e^-eps0) ("stronger-clones", no overflow)."""
    e0 = validate.eps0("eps0", eps0_value)
    t = math.exp(-e0)
    return t if reduction(name) == "clones" else 2.0 * t / (1.0 + t)


def mp_clone_probability(E, name):
    """The same in mpmath, from E = e^eps0 at the working precision."""
    return 1 / E if reduction(name) == "clones" else 2 / (E + 1)


#: error of the float parameters against the pair at eps0 (exp, one addition, one division and
#: a complement: a few ulps each; relative for the clone probability, absolute for the thetas)
INPUT_RTOL = 8 * 2.0**-52


def _thetas(e0: float) -> tuple[float, float]:
    """e^eps0/(e^eps0 + 1) and 1/(e^eps0 + 1), each to a few ulps (the second not as 1 - the first,
    which loses its digits for large eps0)."""
    t = math.exp(-e0)
    return 1.0 / (1.0 + t), t / (1.0 + t)


def _exact(e0: float, stronger: bool):
    """mpmath parameters of the pair at the working precision (eps0 is the float, exactly)."""
    def spec():
        E = mpmath.exp(mpmath.mpf(e0))
        prob = 2 / (E + 1) if stronger else 1 / E
        return prob, E / (E + 1), 1 / (E + 1), mpmath.mpf(1), mpmath.mpf(1) / 2
    return spec


def clone_pair(eps0_value, n_value) -> CountPair:
    """The 2021 clone pair for n users of an eps0-DP local randomizer."""
    e0 = validate.eps0("eps0", eps0_value)
    nn = validate.integer("n", n_value, low=1)
    thp, thq = _thetas(e0)
    return CountPair(nn - 1, math.exp(-e0), thp, thq, input_rtol=INPUT_RTOL, theta_rtol=INPUT_RTOL, exact=_exact(e0, False))


def stronger_clone_pair(eps0_value, n_value) -> CountPair:
    """The 2023 stronger-clone pair (clone probability 2/(e^eps0 + 1))."""
    e0 = validate.eps0("eps0", eps0_value)
    nn = validate.integer("n", n_value, low=1)
    thp, thq = _thetas(e0)
    return CountPair(nn - 1, 2.0 * thq, thp, thq, input_rtol=INPUT_RTOL, theta_rtol=INPUT_RTOL, exact=_exact(e0, True))
