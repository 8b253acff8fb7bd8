"""Checks of the shuffle model's (epsilon, delta) bounds: every method of
:data:`dptheory.shuffle.methods.METHODS` against exact enumeration of the shuffled randomizer.

Two families of cases:

* **small n** (delta at given epsilon, and epsilon at given delta): binary randomized response
  and GRR on 3 options, n up to 8, against :class:`~dptheory.verify.oracles.Enumeration` (every
  pair of neighbouring datasets, at the given digits): both ends of the exact value, so upper,
  lower and exact methods are all checked;
* **large n** (epsilon at given delta): binary randomized response at n = 1e3 ... 1e5 against the
  exact epsilon of one pair of neighbouring datasets
  (:class:`~dptheory.verify.oracles.RRSingleDataset`), a lower end of the true epsilon: upper
  bounds only. The closed forms apply only here.

* **moderate n** (n = 100): binary randomized response, against the one-pair oracle (a lower
  end), where the pairs the numerical methods compute can still be enumerated.

The status of a method is the library's for the case's randomizer (``Method.status``, the one
``dptheory shuffle`` shows): the variation-ratio bound is proven for binary RR and refuted for GRR
on 3 options, and reported on two rows, each saying for which randomizer where the status differs
from the method's status for a general eps0-LDP randomizer (unproven: the formula catalogue's).

**Accuracy** (the second oracle, :mod:`dptheory.verify.evaluations`): each method's own quantity
evaluated independently in mpmath: the clone, stronger-clone, variation-ratio and labelled pairs'
divergence by direct enumeration of their pmfs (small and moderate n), the closed forms of the
papers (Theorems 4.2 and 4.3 of Wang et al. 2024, Feldman, McMillan, Talwar 2021, eq. (1),
Erlingsson et al. 2019) and the privacy blanket's Hoeffding and Bennett bounds written again from
their formulas (for a closed form: a transcription check). A bound 1% too low is caught there even
where it is far from the true worst case.
"""

from __future__ import annotations

from ..results import Kind
from ..shuffle import methods as shuffle_methods
from ..shuffle import randomizers
from . import evaluations, oracles
from .registry import ENUMERATION, ONE_PAIR, register_check

_RANDOMIZERS = {"binary-rr": lambda e0: randomizers.binary_rr(e0), "grr3": lambda e0: randomizers.grr(e0, 3)}

SMALL_QUICK = [("binary-rr", 1.0, n) for n in (2, 3, 5)] + [("binary-rr", 2.0, 4), ("grr3", 1.0, 2), ("grr3", 1.0, 3)]
SMALL_FULL = ([("binary-rr", e0, n) for e0 in (0.5, 1.0, 2.0, 4.0) for n in (2, 3, 4, 5, 6, 8)]
              + [("grr3", e0, n) for e0 in (0.5, 1.0, 2.0) for n in (2, 3, 4, 5)])
EPSILONS_QUICK = (0.05, 0.3, 0.7)
EPSILONS_FULL = (0.0, 0.02, 0.1, 0.3, 0.5, 0.7, 1.0, 1.5)

LARGE_QUICK = [(0.5, 10**4, 1e-6), (1.0, 10**4, 1e-6), (0.5, 10**5, 1e-8)]
LARGE_FULL = [(e0, n, d) for e0 in (0.25, 0.5, 1.0, 2.0) for n in (10**3, 10**4, 10**5) for d in (1e-6, 1e-9)]


def randomizer(case: dict):
    return _RANDOMIZERS[case["randomizer"]](case["eps0"])


def small_cases(quick: bool) -> list[dict]:
    return [{"label": f"{rz} eps0={e0} n={n} eps={e}", "randomizer": rz, "eps0": e0, "n": n, "epsilon": e}
            for rz, e0, n in (SMALL_QUICK if quick else SMALL_FULL)
            for e in (EPSILONS_QUICK if quick else EPSILONS_FULL) if e < e0]


def small_epsilon_cases(quick: bool) -> list[dict]:
    """epsilon(delta) at small n, against the enumeration's epsilon (both ends): the inverter's path."""
    grid = ([("binary-rr", 1.0, 3, 1e-2), ("grr3", 1.0, 3, 1e-2)] if quick else
            [(rz, e0, n, d) for rz, e0, n in SMALL_FULL if n <= 5 for d in (1e-1, 1e-2, 1e-4)])
    return [{"label": f"{rz} eps0={e0} n={n} delta={d:g}", "randomizer": rz, "eps0": e0, "n": n, "delta": d,
             "small": True} for rz, e0, n, d in grid]


def large_cases(quick: bool) -> list[dict]:
    return [{"label": f"binary-rr eps0={e0} n={n:.0e} delta={d:g}", "randomizer": "binary-rr", "eps0": e0, "n": n,
             "delta": d} for e0, n, d in (LARGE_QUICK if quick else LARGE_FULL)]


MODERATE_QUICK = [(1.0, 100, 0.3, 1e-3)]
MODERATE_FULL = [(e0, n, e, d) for e0 in (0.5, 1.0, 2.0) for n in (50, 100, 200) for e, d in ((e0 * 0.3, 1e-3),)]


def moderate_cases(quick: bool) -> list[dict]:
    """Binary RR at n = 50 ... 200: delta at an epsilon and epsilon at a delta, with the one-pair
    oracle for soundness and the enumerated pairs for accuracy."""
    out = []
    for e0, n, e, d in (MODERATE_QUICK if quick else MODERATE_FULL):
        out.append({"label": f"binary-rr eps0={e0} n={n} eps={e:g}", "randomizer": "binary-rr", "eps0": e0, "n": n,
                    "epsilon": e, "moderate": True})
        out.append({"label": f"binary-rr eps0={e0} n={n} delta={d:g}", "randomizer": "binary-rr", "eps0": e0, "n": n,
                    "delta": d, "moderate": True})
    return out


def _cases_for(method):
    def cases(quick: bool) -> list[dict]:
        if method.closed_epsilon is not None:
            return large_cases(quick)
        if method.kind is not Kind.UPPER:
            return small_cases(quick) + small_epsilon_cases(quick)
        return small_cases(quick) + small_epsilon_cases(quick) + moderate_cases(quick) + large_cases(quick)
    return cases


def _bound(slug: str):
    def bound(case: dict):
        m = shuffle_methods.METHODS[slug]
        rz = randomizer(case)
        if "epsilon" in case:
            return m.delta(rz, case["n"], case["epsilon"])
        return m.epsilon(rz, case["n"], case["delta"])
    return bound


def oracle_kind(case: dict):
    """Exact enumeration at small n (both ends), one pair of datasets at moderate and large n
    (a lower end)."""
    if case.get("moderate") or ("epsilon" not in case and not case.get("small")):
        return ONE_PAIR
    return ENUMERATION


def oracle(case: dict, digits: int):
    """Both ends of the exact delta (enumeration, small n), or a lower end of the exact delta or
    epsilon (one pair of neighbouring datasets of binary RR, moderate and large n)."""
    if case.get("moderate") and "epsilon" in case:
        return oracles.rr_single_dataset(case["eps0"], case["n"], digits).delta(case["epsilon"])
    if "epsilon" in case:
        return oracles.enumeration(case["randomizer"], case["eps0"], case["n"], digits).delta(case["epsilon"])
    if case.get("small"):
        return oracles.enumeration(case["randomizer"], case["eps0"], case["n"], digits).epsilon(case["delta"])
    return oracles.rr_single_dataset(case["eps0"], case["n"], digits).epsilon(case["delta"], case["eps0"])


# ----------------------------------------------------------------------------- accuracy: the same quantity


def _pair_quantity(pair_of):
    """The second oracle of a method that computes a pair's divergence: ``pair_of(case, digits)``
    gives (factor, pair) by enumeration; delta at epsilon, or epsilon at delta (bisection up to
    eps0, beyond which the shuffled output's likelihood ratio never goes). None at large n."""
    def accuracy(case: dict, digits: int, value=None):
        if case["n"] - 1 > evaluations.MAX_OTHERS:
            return None
        factor, pair = pair_of(case, digits)
        if "epsilon" in case:
            lo, hi = pair.delta(case["epsilon"])
            return factor * lo, factor * hi
        if factor != 1:  # epsilon of factor * H: bisection on the scaled divergence
            return oracles._invert(lambda e: tuple(factor * x for x in pair.delta(e)), case["delta"],
                                   case["eps0"] + 1e-9)
        return pair.epsilon(case["delta"], case["eps0"] + 1e-9)
    return accuracy


def _closed_quantity(form):
    """The second oracle of a closed form in epsilon: ``form(case, digits)`` its enclosure (the
    large-n cases, epsilon at delta; the toolkit's delta at epsilon of a closed form is its
    inverse, checked through the epsilon cases)."""
    def accuracy(case: dict, digits: int, value=None):
        if "delta" not in case:
            return None
        return form(case, digits)
    return accuracy


def _vr_params(case):
    return evaluations.ldp_parameters(case["randomizer"], case["eps0"])


def _blanket(bound: str):
    def accuracy(case: dict, digits: int, value=None):
        args = (bound, case["randomizer"], case["eps0"], case["n"])
        if "epsilon" in case:
            return evaluations.blanket_delta(*args, case["epsilon"], digits)
        return evaluations.blanket_epsilon(*args, case["delta"], digits)
    return accuracy


#: slug -> (second oracle, the relative accuracy the method states for its own interval)
ACCURACY = {
    "variation-ratio": (_pair_quantity(lambda c, d: (1, evaluations.variation_ratio_pair(
        c["randomizer"], c["eps0"], c["n"], d))), 0.0),
    "variation-ratio-labelled": (_pair_quantity(lambda c, d: evaluations.labelled_pair(
        c["randomizer"], c["eps0"], c["n"], d)), 0.0),
    "clones": (_pair_quantity(lambda c, d: (1, evaluations.clone_pair(c["eps0"], c["n"], d))), 0.0),
    "stronger-clones": (_pair_quantity(lambda c, d: (1, evaluations.stronger_clone_pair(c["eps0"], c["n"], d))), 0.0),
    "variation-ratio-analytic": (_closed_quantity(lambda c, d: evaluations.theorem_4_2(
        *_vr_params(c), c["n"], c["delta"], d)), 1e-9),
    "variation-ratio-asymptotic": (_closed_quantity(lambda c, d: evaluations.theorem_4_3(
        *_vr_params(c), c["n"], c["delta"], d)), 1e-9),
    "clones-closed-form": (_closed_quantity(lambda c, d: evaluations.fmt21_epsilon(c["eps0"], c["n"], c["delta"], d)),
                           1e-9),
    "efmrtt19": (_closed_quantity(lambda c, d: evaluations.erlingsson_epsilon(c["eps0"], c["n"], c["delta"], d)), 1e-9),
    "blanket-hoeffding": (_blanket("hoeffding"), 1e-9),
    "blanket-bennett": (_blanket("bennett"), 1e-9),
}


def _status(slug: str):
    """The library's status of the method for the case's randomizer, with its reason."""
    return lambda case: shuffle_methods.METHODS[slug].status_fn(randomizer(case))


def _general(slug: str):
    """The method's status for a general eps0-LDP randomizer (what ``dptheory shuffle`` and the
    formula catalogue show without a named randomizer)."""
    return lambda case: shuffle_methods.METHODS[slug].status(randomizers.general_ldp(case["eps0"]))


for _slug, _method in shuffle_methods.METHODS.items():
    if _method.kind is Kind.APPROXIMATION:
        continue
    _accuracy, _accuracy_rtol = ACCURACY.get(_slug, (None, 0.0))
    register_check(f"shuffle/{_slug}", kind=_method.kind, status=_status(_slug), general=_general(_slug),
                   scope=lambda case: case["randomizer"], cases=_cases_for(_method),
                   bound=_bound(_slug), oracle=oracle, oracle_kind=oracle_kind, source=_method.source,
                   accuracy=_accuracy, accuracy_rtol=_accuracy_rtol,
                   accuracy_name="" if _accuracy is None else "the method's own quantity, evaluated independently")
