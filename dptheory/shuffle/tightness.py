"""How far each proven upper bound is from the exact epsilon(delta) of a shuffled randomizer.

For binary randomized response the exact value is the certified search of
:mod:`dptheory.shuffle.exact_rr` (every n); for generalized randomized response the enumeration
of :mod:`dptheory.shuffle.exact` (small n) or the search of :mod:`dptheory.shuffle.exact_grr`
(k = 3 up to n = 300, k > 3 up to n = 80: every dataset, the worst spread of the others' values
outside the victim's two bounded by the augmented experiment). Each row gives the exact enclosure, the dataset that
attains it, and for every proven upper bound the ratio of its upper end to the exact value's
lower end: an upper end of the ratio (upper bound / exact), never below the truth.
"""

from __future__ import annotations

import dataclasses

from ..results import Kind, Result, Status
from . import methods as M, randomizers as R


#: estimated seconds of the exact method beyond which a row of GRR uses the search's worst
#: concentrated dataset (a proven lower bound) instead
ENUMERATION_SECONDS = 120.0


@dataclasses.dataclass(frozen=True)
class TightnessRow:
    """One setting: the exact epsilon(delta) and each proven upper bound's ratio to it."""

    randomizer: str
    eps0: float
    n: int
    delta: float
    exact: Result
    attained_by: str
    #: method -> upper end of the method's epsilon
    uppers: dict
    #: method -> upper end of (upper bound / exact value)
    ratios: dict

    def as_dict(self) -> dict:
        return {"randomizer": self.randomizer, "eps0": self.eps0, "n": self.n, "delta": self.delta,
                "exact": [self.exact.lower, self.exact.upper], "attained_by": self.attained_by,
                "uppers": dict(self.uppers), "ratios": dict(self.ratios)}


def randomizer(name: str, eps0: float) -> R.Randomizer:
    """``binary-rr`` or ``grr(d)`` (generalized randomized response on d options)."""
    if name == "binary-rr":
        return R.binary_rr(eps0)
    if name.startswith("grr(") and name.endswith(")"):
        return R.grr(eps0, int(name[4:-1]))
    return R.REGISTRY[name][0](eps0)


def row(name: str, eps0: float, n: int, delta: float = 1e-6, methods=None, rtol: float = 1e-4) -> TightnessRow:
    """The exact epsilon(delta) of n shuffled users of randomizer ``name`` and every proven upper
    bound's ratio to it (``methods``: the upper bounds to run, default every registered one)."""
    rz = randomizer(name, eps0)
    subject = M.Shuffled(rz, n)
    # GRR where the exact method is too costly: the worst concentrated dataset the search finds (a
    # proven lower bound; the ratios are then upper ends all the same, since the true value is at
    # least this one)
    which = "exact"
    lower = M.METHODS["grr-exact-lower"]
    if lower.applies(subject) and (not M.METHODS["exact"].applies(subject)
                                   or M.METHODS["exact"].cost(subject) > ENUMERATION_SECONDS):
        which = "grr-exact-lower"
    exact = M.epsilon(rz, n, delta, which, rtol=rtol)
    names = [m.name for m in M.METHODS.values() if m.kind is Kind.UPPER] if methods is None else list(methods)
    uppers, ratios = {}, {}
    for res in M.compare(rz, n, delta=delta, methods=names, rtol=rtol):
        if isinstance(res, Result) and res.status is Status.PROVEN and res.kind is Kind.UPPER:
            uppers[res.method] = res.upper
            ratios[res.method] = res.upper / exact.lower if exact.lower > 0 else float("inf")
    # a star marks an exact column that is not the exact value: a proven lower bound, or an
    # enclosure whose two ends did not meet
    label = name if which == "exact" and "not pinned down" not in exact.note else name + "*"
    return TightnessRow(label, float(eps0), int(n), float(delta), exact, exact.params.get("attained_by", ""),
                        uppers, ratios)


def markdown(rows: list[TightnessRow], methods: list[str]) -> str:
    """The rows as a Markdown table: the exact epsilon and, per method, the upper end of
    upper bound / exact (a dash where the method does not apply or is not proven)."""
    head = "| randomizer | eps0 | n | exact epsilon | " + " | ".join(methods) + " |"
    rule = "|" + "---|" * (4 + len(methods))
    lines = [head, rule]
    for r in rows:
        cells = [f"{r.ratios[m]:.4f}" if m in r.ratios else "-" for m in methods]
        lines.append(f"| {r.randomizer} | {r.eps0:g} | {r.n:g} | [{r.exact.lower:.6g}, {r.exact.upper:.6g}] | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines)
