"""The rounding policy (dptheory/rounding.py) against exact arithmetic.

``up``/``down`` are checked with :class:`fractions.Fraction` (every float is a rational, so the
widened value ``x + abs_err + rel_err |x|`` is known exactly); ``exp``/``log`` and the mpmath
conversions against mpmath at 50 digits. Nothing here compares with a number the module produced.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from mpmath import mpf

from dptheory import rounding

FINITE = st.floats(allow_nan=False, allow_infinity=False)
ERR = st.one_of(st.just(0.0), st.floats(0.0, 1e300), st.floats(0.0, 1e-6))
REL = st.one_of(st.just(0.0), st.floats(0.0, 1.0), st.floats(0.0, 1e-10))


def exact(x: float) -> Fraction:
    return Fraction(x)


def at_least(f: float, target: Fraction) -> bool:
    return f == math.inf or (math.isfinite(f) and Fraction(f) >= target)


def at_most(f: float, target: Fraction) -> bool:
    return f == -math.inf or (math.isfinite(f) and Fraction(f) <= target)


# ----------------------------------------------------------------------------- up / down


@given(x=FINITE, abs_err=ERR, rel_err=REL)
@settings(max_examples=400)
def test_up_covers_the_stated_error_exactly(x, abs_err, rel_err):
    target = exact(x) + exact(abs_err) + exact(rel_err) * abs(exact(x))
    assert at_least(rounding.up(x, abs_err, rel_err), target)
    assert at_least(rounding.up_nonneg(x, abs_err, rel_err), max(target, Fraction(0)))


@given(x=FINITE, abs_err=ERR, rel_err=REL)
@settings(max_examples=400)
def test_down_covers_the_stated_error_exactly(x, abs_err, rel_err):
    target = exact(x) - exact(abs_err) - exact(rel_err) * abs(exact(x))
    assert at_most(rounding.down(x, abs_err, rel_err), target)
    lowered = rounding.down_nonneg(x, abs_err, rel_err)
    assert lowered >= 0 and (lowered == 0 or at_most(lowered, target))


@given(x=FINITE)
def test_up_and_down_move_outwards_past_the_last_operation(x):
    """Even without a stated error the ends move (the final operation's rounding is covered):
    at least one ulp, and the two ends stay ordered."""
    u, d = rounding.up(x), rounding.down(x)
    assert u > x or u == math.inf
    assert d < x or d == -math.inf
    assert d < u


@given(xs=st.lists(FINITE, min_size=1, max_size=8), abs_err=ERR, rel_err=REL)
def test_vectorised_ends_equal_the_scalar_ones(xs, abs_err, rel_err):
    arr = np.array(xs)
    up, down = rounding.up(arr, abs_err, rel_err), rounding.down(arr, abs_err, rel_err)
    assert isinstance(up, np.ndarray) and up.shape == arr.shape
    for i, x in enumerate(xs):
        assert up[i] == rounding.up(x, abs_err, rel_err) and down[i] == rounding.down(x, abs_err, rel_err)


@given(x=st.one_of(FINITE, st.sampled_from([math.inf, -math.inf, 5e-324, -0.0])),
       abs_err=st.one_of(ERR, st.just(math.inf)), rel_err=st.one_of(REL, st.just(math.inf)),
       ulps=st.integers(1, 3))
def test_the_scalar_path_is_the_array_path(x, abs_err, rel_err, ulps):
    """Python floats take a path of their own (math.nextafter, ten times faster than 0-d
    arrays): it gives the array path's ends bit for bit, infinite errors and ulps included."""
    for fn in (rounding.up, rounding.down):
        got, ref = fn(x, abs_err, rel_err, ulps=ulps), fn(np.array([x]), abs_err, rel_err, ulps=ulps)[0]
        assert type(got) is float and (got == ref or (math.isnan(got) and math.isnan(ref)))
        assert math.copysign(1.0, got) == math.copysign(1.0, ref) or got != 0


def test_infinities_stay_on_their_side():
    assert rounding.up(math.inf) == math.inf and rounding.down(-math.inf) == -math.inf
    assert rounding.up(-math.inf) == -math.inf and rounding.down(math.inf) == math.inf
    assert rounding.up(1e308, abs_err=1e308) == math.inf
    assert rounding.down(-1e308, abs_err=1e308) == -math.inf


# ----------------------------------------------------------------------------- exp / log


LOGS = st.one_of(st.floats(-800.0, 720.0), st.floats(-746.0, -744.0), st.floats(-1e-8, 1e-8),
                 st.floats(-1e6, 1e6))


@given(log_x=LOGS)
@settings(max_examples=400)
def test_exp_up_is_at_least_the_true_exp_and_never_0(log_x):
    u = rounding.exp_up(log_x)
    assert u > 0
    with mpmath.workdps(50):
        assert u == math.inf or mpf(u) >= mpmath.exp(mpf(log_x)), (log_x, u)


@given(log_x=LOGS)
@settings(max_examples=400)
def test_exp_down_is_at_most_the_true_exp(log_x):
    d = rounding.exp_down(log_x)
    assert d >= 0
    with mpmath.workdps(50):
        assert mpf(d) <= mpmath.exp(mpf(log_x)), (log_x, d)


def test_exp_ends_at_the_edges_of_the_float_range():
    assert rounding.exp_up(-math.inf) == 0.0 and rounding.exp_down(-math.inf) == 0.0
    assert 0 < rounding.exp_up(-1e300) <= 1e-320      # positive, however small the truth
    assert rounding.exp_down(-1e300) == 0.0
    assert rounding.exp_up(710.0) == math.inf and rounding.exp_up(math.inf) == math.inf
    # an underflowing upper end of delta (issue 9, defect 4) is never rounded down to 0
    arr = rounding.exp_up(np.array([-750.0, -800.0, -math.inf]))
    assert arr[0] > 0 and arr[1] > 0 and arr[2] == 0


@given(x=st.one_of(st.floats(5e-324, 1e308), st.floats(1e-3, 1e3), st.floats(1 - 1e-9, 1 + 1e-9)))
@settings(max_examples=400)
def test_log_ends_are_directed(x):
    up, down = rounding.log_up(x), rounding.log_down(x)
    with mpmath.workdps(50):
        truth = mpmath.log(mpf(x))
        assert mpf(up) >= truth and mpf(down) <= truth, (x, up, down)


def test_log_of_zero_is_minus_infinity():
    assert rounding.log_up(0.0) == -math.inf and rounding.log_down(0.0) == -math.inf


# ----------------------------------------------------------------------------- mpmath -> float


def _mp_values():
    """mpmath numbers at 50 digits, inside and outside the float range (as strings: the value
    is made at 50 digits inside the test)."""
    mantissa = st.integers(1, 10**40)
    exponent = st.integers(-420, 420)
    sign = st.sampled_from(["", "-"])
    return st.tuples(sign, mantissa, exponent).map(lambda t: f"{t[0]}{t[1]}e{t[2] - 40}")


@given(text=_mp_values())
@settings(max_examples=400)
def test_mp_up_and_mp_down_are_directed_at_the_default_precision(text):
    """The conversion of a 50-digit number, called at mpmath's default precision (as a float
    path does after leaving ``workdps``): ``mp_up`` >= x and ``mp_down`` <= x, exactly."""
    with mpmath.workdps(50):
        x = mpf(text)
    up, down = rounding.mp_up(x), rounding.mp_down(x)
    with mpmath.workdps(50):
        assert up == math.inf or (math.isfinite(up) and mpf(up) >= x), (text, up)
        assert down == -math.inf or (math.isfinite(down) and mpf(down) <= x), (text, down)


@given(text=_mp_values())
@settings(max_examples=200)
def test_mp_up_and_mp_down_are_the_nearest_directed_floats(text):
    """Directed, and tight: the next float towards x is on the other side of x."""
    with mpmath.workdps(50):
        x = mpf(text)
        up, down = rounding.mp_up(x), rounding.mp_down(x)
        if math.isfinite(up):
            assert mpf(math.nextafter(up, -math.inf)) < x, (text, up)
        if math.isfinite(down):
            assert mpf(math.nextafter(down, math.inf)) > x, (text, down)


def test_mp_ends_outside_the_float_range():
    """Above the float range the lower end is the largest float (not inf); below it the upper
    end is the smallest positive subnormal (not 0)."""
    with mpmath.workdps(50):
        huge, tiny = mpf("1e400"), mpf("1e-400")
    assert rounding.mp_up(huge) == math.inf
    assert rounding.mp_down(huge) == np.finfo(float).max
    assert rounding.mp_up(-huge) == -np.finfo(float).max
    assert rounding.mp_down(-huge) == -math.inf
    assert rounding.mp_up(tiny) == 5e-324 and rounding.mp_down(tiny) == 0.0
    assert rounding.mp_down(-tiny) == -5e-324 and rounding.mp_up(-tiny) == 0.0


# ----------------------------------------------------------------------------- NaN


@pytest.mark.parametrize("fn", [rounding.up, rounding.down, rounding.up_nonneg, rounding.down_nonneg,
                                rounding.exp_up, rounding.exp_down, rounding.log_up, rounding.log_down],
                         ids=lambda f: f.__name__)
def test_nan_raises(fn):
    """Rounding a NaN is an error (the computation that produced it is out of its domain), for
    scalars and arrays alike: a NaN never leaves as an end of an interval."""
    with pytest.raises(ArithmeticError):
        fn(math.nan)
    with pytest.raises(ArithmeticError):
        fn(np.array([1.0, math.nan]))


@pytest.mark.parametrize("fn", [rounding.mp_up, rounding.mp_down], ids=lambda f: f.__name__)
def test_mp_nan_raises(fn):
    with pytest.raises(ArithmeticError):
        fn(mpf("nan"))


@pytest.mark.parametrize("fn", [rounding.log_up, rounding.log_down], ids=lambda f: f.__name__)
def test_log_of_a_negative_number_raises(fn):
    """log of a negative end is undefined: an error, not a NaN end."""
    with pytest.raises((ArithmeticError, ValueError)):
        fn(-1.0)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_neighbours_are_the_adjacent_floats(x):
    """(below, above) enclose x strictly, with no float between them and x (checked exactly with
    fractions: the midpoints between x and each neighbour are not floats)."""
    below, above = rounding.neighbours(x)
    assert below < x < above
    for side in (below, above):
        if math.isfinite(side):
            mid = (Fraction(side) + Fraction(x)) / 2
            assert float(mid) in (side, x)  # no float strictly between
    arr_below, arr_above = rounding.neighbours(np.array([x, x]))
    assert arr_below.tolist() == [below, below] and arr_above.tolist() == [above, above]


def test_neighbours_at_the_edges_of_the_float_range():
    top = float(np.finfo(float).max)
    assert rounding.neighbours(top) == (math.nextafter(top, 0.0), math.inf)
    assert rounding.neighbours(0.0) == (-5e-324, 5e-324)
    with pytest.raises(ArithmeticError):
        rounding.neighbours(math.nan)


def test_the_integer_step_is_nextafter():
    """The array path steps finite floats by their bits (rounding._next): the same floats as
    np.nextafter both ways, signed zeros, subnormals and the largest float included."""
    rng = np.random.default_rng(3)
    big = float(np.finfo(float).max)
    x = np.concatenate([rng.normal(size=20000) * 10.0 ** rng.integers(-320, 308, 20000),
                        [0.0, -0.0, 5e-324, -5e-324, 1e-310, -1e-310, big, -big, 2.2250738585072014e-308]])
    for direction in (math.inf, -math.inf):
        with np.errstate(over="ignore"):
            got, want = rounding._next(x, direction), np.nextafter(x, direction)
        assert np.array_equal(got, want) and np.array_equal(np.signbit(got), np.signbit(want))
