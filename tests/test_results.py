"""Invariants of the result model (dptheory/results.py): Result, Curve, Inapplicable, Enclosure.

Linear ends derived from log ends are checked against mpmath at 50 digits.
"""

from __future__ import annotations

import json
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from mpmath import mpf

from dptheory.results import Curve, Enclosure, Inapplicable, Kind, NotApplicable, Result, Status
from dptheory.validate import DomainError

FIELDS = dict(kind=Kind.UPPER, status=Status.PROVEN, method="m", source="a paper, Thm 1")
RESULT_KEYS = {"method", "quantity", "kind", "status", "applicable", "lower", "upper", "source", "note"}


def result(lower, upper, **changes):
    return Result("delta", lower, upper, **{**FIELDS, **changes})


# ----------------------------------------------------------------------------- Result


@pytest.mark.parametrize("lower, upper", [(2.0, 1.0), (1e-300, 0.0), (0.0, -1e-300), (math.inf, 1.0)])
def test_empty_interval_raises(lower, upper):
    with pytest.raises(ArithmeticError, match="empty"):
        result(lower, upper)


@pytest.mark.parametrize("name", ["lower", "upper", "log_lower", "log_upper"])
def test_nan_end_raises(name):
    ends = dict(lower=0.1, upper=0.2, log_lower=math.log(0.1), log_upper=math.log(0.2))
    ends[name] = math.nan
    with pytest.raises(ArithmeticError, match="nan"):
        Result("delta", ends.pop("lower"), ends.pop("upper"), **FIELDS, **ends)


def test_empty_log_interval_raises():
    with pytest.raises(ArithmeticError):
        Result("delta", 0.0, 1.0, **FIELDS, log_lower=-1.0, log_upper=-2.0)


def test_a_point_interval_and_numpy_ends_are_accepted():
    r = result(np.float64(0.25), np.float64(0.25))
    assert r.lower == r.upper == 0.25 and type(r.lower) is float and r.width == 0


@given(a=st.floats(-1e4, 700.0), b=st.floats(-1e4, 700.0))
@settings(max_examples=300)
def test_from_log_rounds_outwards(a, b):
    lo_log, hi_log = min(a, b), max(a, b)
    r = Result.from_log("delta", lo_log, hi_log, **FIELDS)
    assert r.log_lower == lo_log and r.log_upper == hi_log
    with mpmath.workdps(50):
        assert mpf(r.lower) <= mpmath.exp(mpf(lo_log)), (lo_log, r.lower)
        assert r.upper == math.inf or mpf(r.upper) >= mpmath.exp(mpf(hi_log)), (hi_log, r.upper)
    assert r.upper > 0 and r.lower >= 0          # a positive upper end never becomes 0


def test_from_log_of_zero_and_of_underflow():
    zero = Result.from_log("delta", -math.inf, -math.inf, **FIELDS)
    assert zero.lower == zero.upper == 0.0
    tiny = Result.from_log("delta", -900.0, -800.0, **FIELDS)
    assert tiny.lower == 0.0 and 0 < tiny.upper <= 1e-320


def test_value_is_the_conservative_end():
    assert result(0.1, 0.3).value == 0.3
    assert result(0.1, 0.3, kind=Kind.LOWER).value == 0.1
    assert math.isclose(result(0.1, 0.3, kind=Kind.EXACT).value, 0.2)


def test_as_dict_keys_and_json():
    r = result(0.1, 0.3, note="n", params={"n": 10})
    d = r.as_dict()
    assert RESULT_KEYS <= set(d) and d["applicable"] is True
    assert (d["kind"], d["status"], d["lower"], d["upper"], d["params"]) == ("upper", "proven", 0.1, 0.3, {"n": 10})
    assert "log_upper" not in d
    logged = Result.from_log("delta", -800.0, -700.0, **FIELDS).as_dict()
    assert logged["log_lower"] == -800.0 and logged["log_upper"] == -700.0 and logged["upper"] > 0
    assert json.loads(json.dumps(d)) == d


def test_replace_keeps_the_invariants():
    r = result(0.1, 0.3)
    assert r.replace(note="x").note == "x"
    with pytest.raises(ArithmeticError):
        r.replace(lower=0.5)


# ----------------------------------------------------------------------------- Inapplicable


def test_inapplicable_as_dict():
    row = Inapplicable("efmrtt19", Kind.UPPER, Status.PROVEN, "Erlingsson et al.", "n >= 1000 fails",
                       params={"n": 10})
    d = row.as_dict()
    assert d["applicable"] is False and d["note"] == "not applicable: n >= 1000 fails"
    assert {"method", "kind", "status", "source", "note"} <= set(d) and "upper" not in d
    assert d["params"] == {"n": 10} and json.loads(json.dumps(d)) == d


def test_not_applicable_is_a_domain_error():
    assert issubclass(NotApplicable, DomainError) and issubclass(NotApplicable, ValueError)


# ----------------------------------------------------------------------------- Curve


def curve(grid, lower, upper, **changes):
    return Curve("rdp", "order", grid, lower, upper, **{**FIELDS, **changes})


@given(lows=st.lists(st.floats(0.0, 10.0), min_size=1, max_size=8), data=st.data())
def test_curve_indexing_gives_results_with_the_axis_value(lows, data):
    widths = data.draw(st.lists(st.floats(0.0, 1.0), min_size=len(lows), max_size=len(lows)))
    grid = np.arange(2, 2 + len(lows), dtype=float)
    lower = np.array(lows)
    upper = lower + np.array(widths)
    c = curve(grid, lower, upper, params={"n": 7})
    assert len(c) == len(lows)
    items = list(c)
    for i, r in enumerate(items):
        assert isinstance(r, Result) and r == c[i]
        assert (r.lower, r.upper) == (lower[i], upper[i])
        assert r.params == {"n": 7, "order": grid[i]}
        assert (r.quantity, r.kind, r.status, r.method) == ("rdp", c.kind, c.status, c.method)
    assert np.array_equal(c.value, c.upper)


def test_curve_broadcasts_scalar_ends_and_is_read_only():
    c = curve([2.0, 3.0, 4.0], 0.0, [1.0, 2.0, 3.0])
    assert c.lower.shape == (3,) and np.all(c.lower == 0)
    with pytest.raises(ValueError):
        c.upper[0] = -1.0


def test_curve_rejects_nan_and_empty_intervals():
    with pytest.raises(ArithmeticError, match="nan"):
        curve([2.0, 3.0], [0.0, math.nan], [1.0, 1.0])
    with pytest.raises(ArithmeticError, match="order = 3"):
        curve([2.0, 3.0], [0.0, 2.0], [1.0, 1.0])


def test_curve_as_dict():
    c = curve([2.0, 3.0], [0.1, 0.2], [0.3, 0.4], params={"n": 5})
    d = c.as_dict()
    assert d["order"] == [2.0, 3.0] and d["lower"] == [0.1, 0.2] and d["upper"] == [0.3, 0.4]
    assert d["axis"] == "order" and d["applicable"] is True and d["params"] == {"n": 5}
    assert {"method", "quantity", "kind", "status", "source", "note"} <= set(d)
    assert json.loads(json.dumps(d)) == d


# ----------------------------------------------------------------------------- Enclosure


@given(a=st.floats(-2000.0, 0.0), b=st.floats(-2000.0, 0.0))
@settings(max_examples=300)
def test_enclosure_ends_are_directed_and_the_upper_never_0(a, b):
    """Issue 9, defect 4: the upper end of an enclosure whose log is below -745 was 0."""
    enc = Enclosure(min(a, b), max(a, b))
    with mpmath.workdps(50):
        assert mpf(enc.lower) <= mpmath.exp(mpf(enc.log_lower))
        assert mpf(enc.upper) >= mpmath.exp(mpf(enc.log_upper))
    assert enc.upper > 0
    r = enc.result("delta", **FIELDS)
    assert (r.lower, r.upper, r.log_lower, r.log_upper) == (enc.lower, enc.upper, enc.log_lower, enc.log_upper)


def test_enclosure_relative_width():
    assert Enclosure(-math.inf, -math.inf).relative_width() == 0.0
    assert Enclosure(-math.inf, -3.0).relative_width() == 1.0
    assert math.isclose(Enclosure(math.log(0.5), 0.0).relative_width(), 0.5)
