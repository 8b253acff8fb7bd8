"""What ``dptheory shuffle`` reports: every method's certified interval, and first the answer a
practitioner came for, the tightest proven upper bound, the best proven lower bound and the gap
between them (epsilon at a delta, or delta at an epsilon), in one object with one ``as_dict``.

The gap is taken in log space, so that it exists for delta far below the float range (an upper
bound of 1e-33373 against a lower bound of 1e-37511 is a gap of a factor 1e4138, not "none").
"""

from __future__ import annotations

import dataclasses

from .. import validate
from ..results import Result, gap, gap_ratio, log_gap
from . import randomizers as rz
from .methods import Summary, compare, summarize


@dataclasses.dataclass(frozen=True)
class ShuffleReport:
    """The results of every method for one setting, and their summary.

    ``upper``/``lower``: the tightest proven upper bound and the best proven lower bound (an exact
    value is both), or None; ``log_gap``: log(upper end of ``upper`` / lower end of ``lower``)
    (None if either is missing or the lower end is 0); ``gap``: that ratio minus 1 where it is a
    float (None beyond)."""

    quantity: str
    parameters: dict
    results: tuple
    upper: Result | None
    lower: Result | None

    @property
    def log_gap(self) -> float | None:
        return log_gap(self.upper, self.lower)

    @property
    def gap(self) -> float | None:
        return gap(self.upper, self.lower)

    @property
    def gap_ratio(self) -> float | None:
        return gap_ratio(self.upper, self.lower)

    @property
    def summary(self) -> Summary:
        return Summary(self.upper, self.lower)

    def as_dict(self) -> dict:
        return {"parameters": self.parameters,
                "summary": {"upper": self.upper.as_dict() if self.upper else None,
                            "lower": self.lower.as_dict() if self.lower else None,
                            "gap": self.gap, "log_gap": self.log_gap},
                "results": [r.as_dict() for r in self.results]}


def build_randomizer(name: str = "general", **parameters) -> rz.Randomizer:
    """The randomizer called ``name`` in :data:`dptheory.shuffle.randomizers.REGISTRY`, from the
    parameters its factory needs (``eps0``, ``d``, ``k``, ``l``); a parameter it does not take
    must be None (a value given for it would have no effect: DomainError)."""
    if name not in rz.REGISTRY:
        raise validate.DomainError(f"randomizer = {name!r} is invalid: must be one of {sorted(rz.REGISTRY)}")
    factory, needed = rz.REGISTRY[name]
    for p, value in parameters.items():
        if value is not None and p not in needed:
            users = sorted(other for other, (_, takes) in rz.REGISTRY.items() if p in takes)
            raise validate.DomainError(
                f"{p} = {value:g} has no effect: randomizer {name!r} takes only {', '.join(needed)}"
                + (f" ({p} is a parameter of {', '.join(users)})" if users else ""))
    missing = [p for p in needed if parameters.get(p) is None]
    if missing:
        raise validate.DomainError(f"randomizer {name!r} needs {', '.join('--' + p for p in missing)}")
    return factory(*(parameters[p] for p in needed))


def shuffle_report(randomizer, n, *, delta=None, epsilon=None, methods=None, rtol: float = validate.EPSILON_RTOL,
                   **randomizer_parameters) -> ShuffleReport:
    """Every method's bound on the central privacy of n shuffled users of ``randomizer`` (a
    :class:`~dptheory.shuffle.randomizers.Randomizer`, or a name of the registry with its
    parameters, :func:`build_randomizer`): epsilon at ``delta`` (default 1e-8 when neither is
    given), or delta at ``epsilon`` (:func:`dptheory.shuffle.methods.compare`), with the tightest
    proven upper bound, the best proven lower bound (:func:`dptheory.shuffle.methods.summarize`)
    and the gap between them."""
    if isinstance(randomizer, str):
        randomizer = build_randomizer(randomizer, **randomizer_parameters)
    nn = validate.integer("n", n, low=1)
    if epsilon is not None:
        results = compare(randomizer, nn, epsilon=epsilon, methods=methods)
        quantity, setting = "delta", {"epsilon": float(epsilon)}
    else:
        d = 1e-8 if delta is None else delta
        results = compare(randomizer, nn, delta=d, methods=methods, rtol=rtol)
        quantity, setting = "epsilon", {"delta": float(d)}
    summary = summarize(results)
    parameters = {"randomizer": randomizer.name, "eps0": randomizer.eps0, "p": randomizer.p,
                  "beta": randomizer.beta, "q": randomizer.q, "n": nn, **setting}
    return ShuffleReport(quantity, parameters, tuple(results), summary.upper, summary.lower)
