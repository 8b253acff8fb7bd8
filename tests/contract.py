"""The one contract every method of every notion honours (dptheory.protocol), as an abstract test
that each notion subclasses, in the style of dp_accounting's ``privacy_accountant_test.py``.

A subclass names its notion and gives the cases: subjects (inside and outside the methods'
domains), the points each quantity is evaluated at, and an oracle, an enclosure of the true
quantity computed independently of the code under test (tests/oracles). The properties, for
every method of the notion's registry:

* coverage: every method applies to at least one subject of the cases and runs there;
* soundness: an upper bound's upper end is at least the oracle's lower end, a lower bound's lower
  end at most the oracle's upper end, an exact value's interval meets the oracle's (for every
  result labelled proven or unproven: an unproven bound the oracle contradicts must be relabelled
  refuted; a refuted one is kept to reproduce the papers' figures and not checked);
* monotonicity: epsilon(delta) non-increasing in delta, delta(epsilon) non-increasing in epsilon
  (compared as intervals: ``lower`` of the larger value <= ``upper`` of the smaller one);
* shape: a Result (or Curve) of the quantity asked, non-empty, NaN-free, the method's name and
  status for the subject, its kind the method's (or narrower, for a method whose kind depends on
  the subject);
* not applicable: outside its domain a method's ``run`` returns an Inapplicable with a reason,
  never an exception;
* independence of the call order: the same computations run in reverse order give the same
  intervals.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from dptheory import protocol
from dptheory.results import Curve, Inapplicable, Kind, Result, Status

#: the notions a subclass of :class:`NotionContract` covers (tests/test_contract_coverage.py
#: checks that every registry of dptheory.protocol has one)
COVERED: set[str] = set()


class NotionContract:
    """Subclass with ``notion`` set and the hooks below; pytest collects the subclass (its name
    starts with ``Test``)."""

    notion: str = ""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.notion:
            COVERED.add(cls.notion)

    # ------------------------------------------------------------------ hooks
    def subjects(self) -> list:
        """Subjects the methods are run on (each small enough for the oracle)."""
        raise NotImplementedError  # an abstract hook: every subclass defines it

    def outside(self) -> list:
        """Subjects outside some method's domain (Inapplicable expected there, not an exception)."""
        return []

    def points(self, subject, quantity: str) -> list:
        """The points ``quantity`` is evaluated at for ``subject`` (increasing)."""
        raise NotImplementedError  # an abstract hook: every subclass defines it

    def oracle(self, subject, quantity: str, at):
        """An enclosure (lower, upper) of the true ``quantity`` at ``at`` for ``subject`` (one per
        point for a curve), or None where the oracle does not reach."""
        raise NotImplementedError  # an abstract hook: every subclass defines it

    def options(self, method, quantity: str) -> dict:
        """Options passed to ``compute`` (tolerances)."""
        return {}

    # ------------------------------------------------------------------ helpers
    @property
    def registry(self) -> protocol.Registry:
        return protocol.registry(self.notion)

    def _runs(self):
        """(method, subject, quantity, at, result) of every applicable computation of the cases."""
        if not hasattr(type(self), "_cache"):
            type(self)._cache = {}
        cache = type(self)._cache
        if self.notion not in cache:
            rows = []
            for subject in self.subjects():
                for m in self.registry.values():
                    if not m.applies(subject):
                        continue
                    for quantity in m.quantities:
                        for at in self.points(subject, quantity):
                            rows.append((m, subject, quantity, at,
                                         m.run(subject, quantity, at, **self.options(m, quantity))))
            cache[self.notion] = rows
        return cache[self.notion]

    # ------------------------------------------------------------------ the properties
    def test_every_method_is_covered(self):
        ran = {m.name for m, *_, res in self._runs() if not isinstance(res, Inapplicable)}
        missing = [name for name in self.registry if name not in ran]
        assert not missing, f"{self.notion}: methods never run on a case: {missing}"

    def test_results_have_the_right_shape(self):
        for m, subject, quantity, at, res in self._runs():
            where = f"{self.notion}/{m.name} {quantity} at {at!r}"
            if isinstance(res, Inapplicable):
                assert res.reason and res.method == m.name, where
                continue
            assert isinstance(res, (Result, Curve)), where
            expected = {"rdp": "rdp"}.get(quantity, quantity)
            assert res.quantity == expected, (where, res.quantity)
            assert res.method == m.name and res.status is m.status_for(subject, quantity), (where, res.method, res.status)
            lows, highs = _ends(res)
            assert all(not math.isnan(x) for x in lows + highs), where
            assert all(lo <= hi for lo, hi in zip(lows, highs)), where
            if getattr(m, "fixed_kind", True):
                assert res.kind is m.kind_for(quantity), (where, res.kind)
            assert res.as_dict()["applicable"] is True

    def test_sound_against_the_oracle(self):
        checked = 0
        for m, subject, quantity, at, res in self._runs():
            if isinstance(res, Inapplicable) or res.kind is Kind.APPROXIMATION:
                continue
            if res.status not in (Status.PROVEN, Status.UNPROVEN):
                continue  # a refuted bound is kept to reproduce figures: its violations are known
            truth = self.oracle(subject, quantity, at)
            if truth is None:
                continue
            truths = truth if isinstance(res, Curve) else [truth]
            lows, highs = _ends(res)
            for lo, hi, (t_lo, t_hi) in zip(lows, highs, truths):
                where = f"{self.notion}/{m.name} ({res.kind}) {quantity} at {at!r}: [{lo}, {hi}] vs [{t_lo}, {t_hi}]"
                if res.kind in (Kind.UPPER, Kind.EXACT):
                    assert _mp(hi) >= _mp(t_lo), where
                if res.kind in (Kind.LOWER, Kind.EXACT):
                    assert _mp(lo) <= _mp(t_hi), where
                checked += 1
        assert checked > 0, f"{self.notion}: no result was checked against the oracle"

    def test_monotone(self):
        by_key: dict = {}
        for m, subject, quantity, at, res in self._runs():
            if quantity in ("epsilon", "delta") and isinstance(res, Result):
                by_key.setdefault((m.name, id(subject), quantity), []).append((at, res))
        for (name, _, quantity), rows in by_key.items():
            rows.sort(key=lambda r: r[0])
            for (a1, r1), (a2, r2) in zip(rows, rows[1:]):
                if a2 > a1:  # both quantities are non-increasing in their argument
                    assert _low(r2) <= _high(r1), f"{self.notion}/{name}: {quantity} increases from {a1} to {a2}"

    def test_not_applicable_is_a_record_not_an_exception(self):
        for subject in self.outside():
            for m in self.registry.values():
                for quantity in m.quantities:
                    for at in self.points(subject, quantity)[:1]:
                        res = m.run(subject, quantity, at, **self.options(m, quantity))
                        assert isinstance(res, (Result, Curve, Inapplicable))
        # a quantity the method does not compute is a record too
        for subject in self.subjects():
            for m in self.registry.values():
                other = [q for q in protocol.QUANTITIES if q not in m.quantities]
                if other:
                    res = m.run(subject, other[0], 1e-6)
                    assert isinstance(res, Inapplicable) and res.reason, (m.name, other[0])
                    if m.applies(subject):
                        assert "computes" in res.reason

    def test_independent_of_call_order(self):
        rows = [r for r in self._runs() if not isinstance(r[4], Inapplicable)][:12]
        for m, subject, quantity, at, res in reversed(rows):
            again = m.run(subject, quantity, at, **self.options(m, quantity))
            assert _ends(again) == _ends(res), f"{self.notion}/{m.name}: {quantity} at {at!r} changed on a rerun"


def _mp(x):
    """An exact mpmath number of a float, an mpf or a Fraction (the oracles' ends)."""
    if isinstance(x, Fraction):
        with mpmath.workdps(80):
            return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


def _ends(res) -> tuple[list, list]:
    if isinstance(res, Curve):
        return [float(x) for x in res.lower], [float(x) for x in res.upper]
    return [res.lower], [res.upper]


def _low(res: Result) -> float:
    return res.log_lower if res.log_lower is not None else (math.log(res.lower) if res.lower > 0 else -math.inf)


def _high(res: Result) -> float:
    return res.log_upper if res.log_upper is not None else (math.log(res.upper) if res.upper > 0 else -math.inf)
