"""What ``dptheory shuffle`` reports: every method's certified interval, and first the answer a
practitioner came for, the tightest proven upper bound, the best proven lower bound and the gap
between them (epsilon at a delta, or delta at an epsilon), in one object with one ``as_dict``.

The gap is taken in log space, so that it exists for delta far below the float range (an upper
bound of 1e-33373 against a lower bound of 1e-37511 is a gap of a factor 1e4138, not "none").
"""

from __future__ import annotations

import dataclasses
import math

from .. import validate
from ..results import Result
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
    def summary(self) -> Summary:
        return Summary(self.upper, self.lower)

    def as_dict(self) -> dict:
        return {"parameters": self.parameters,
                "summary": {"upper": self.upper.as_dict() if self.upper else None,
                            "lower": self.lower.as_dict() if self.lower else None,
                            "gap": self.gap, "log_gap": self.log_gap},
                "results": [r.as_dict() for r in self.results]}


def log_gap(upper: Result | None, lower: Result | None) -> float | None:
    """log(upper end of ``upper`` / lower end of ``lower``), from their log ends where they have
    them (a delta far below the float range); None if either is missing or the lower end is 0."""
    if upper is None or lower is None:
        return None
    log_up, log_low = _log_end(upper, "upper"), _log_end(lower, "lower")
    if log_low == -math.inf or log_up == -math.inf:
        return None
    return max(log_up - log_low, 0.0)


def gap(upper: Result | None, lower: Result | None) -> float | None:
    """upper / lower - 1 of the two conservative ends, where it is a float (None where
    :func:`log_gap` is None or above 700)."""
    value = log_gap(upper, lower)
    if value is None or value > 700:
        return None
    return math.expm1(value)


def gap_ratio(upper: Result | None, lower: Result | None) -> float | None:
    """upper / lower of the two conservative ends (inf above the float range: :func:`log_gap`
    then gives its logarithm); None where :func:`log_gap` is None."""
    value = log_gap(upper, lower)
    if value is None:
        return None
    return math.inf if value > 700 else math.exp(value)


def _log_end(res: Result, end: str) -> float:
    """The log of a Result's end: its log end where it has one (delta), else log of the end."""
    log_value = getattr(res, "log_" + end, None)
    if log_value is not None:
        return float(log_value)
    value = getattr(res, end)
    return math.log(value) if value > 0 else -math.inf


def build_randomizer(name: str = "general", **parameters) -> rz.Randomizer:
    """The randomizer called ``name`` in :data:`dptheory.shuffle.randomizers.REGISTRY`, from the
    parameters its factory needs (``eps0``, ``d``, ``k``, ``l``); the others are ignored."""
    if name not in rz.REGISTRY:
        raise validate.DomainError(f"randomizer = {name!r} is invalid: must be one of {sorted(rz.REGISTRY)}")
    factory, needed = rz.REGISTRY[name]
    missing = [p for p in needed if parameters.get(p) is None]
    if missing:
        raise validate.DomainError(f"randomizer {name!r} needs {', '.join('--' + p for p in missing)}")
    return factory(*(parameters[p] for p in needed))


def shuffle_report(randomizer, n, *, delta=None, epsilon=None, methods=None, rtol: float = 1e-3,
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
