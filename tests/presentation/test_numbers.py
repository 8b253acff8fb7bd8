"""Numbers for a person (dptheory.presentation.numbers): rounded towards their direction, never 0
for a positive quantity, and a column in one notation with fixed significant figures."""

import math
from decimal import Decimal

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from dptheory.presentation.cells import Missing, Number
from dptheory.presentation.numbers import column


def test_fmt_bound_rounds_towards_its_direction():
    import random
    from decimal import Decimal

    from dptheory.presentation.numbers import fmt_bound

    rng = random.Random(9)
    for _ in range(2000):
        v = 10 ** rng.uniform(-320, 300) * rng.uniform(1, 10)
        up, down, near = (Decimal(fmt_bound(v, d)) for d in ("up", "down", None))
        exact = Decimal(v)
        assert down <= exact <= up, v
        assert up - down <= exact * Decimal("1.1e-5") and down <= near <= up, v


def test_fmt_positive_never_prints_0_for_a_positive_quantity():
    import mpmath

    from dptheory.presentation.numbers import fmt_positive

    for log_value in (-745.2, -800.0, -2302.6, -1e5):
        with mpmath.workdps(40):
            exact = mpmath.exp(mpmath.mpf(log_value))  # independent: the value itself, at 40 digits
        up, down = fmt_positive(0.0, log_value, "up"), fmt_positive(0.0, log_value, "down")
        assert up != "0" and down != "0"
        assert mpmath.mpf(down) <= exact <= mpmath.mpf(up), (log_value, down, up)
        assert mpmath.mpf(up) / mpmath.mpf(down) < 1 + 1e-4
    assert fmt_positive(0.0, float("-inf")) == "0"


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.floats(1e-300, 1e300), st.sampled_from(["up", "down", None])), min_size=1, max_size=8),
       st.integers(1, 8))
def test_a_column_has_one_notation_and_sig_figures_rounded_outwards(cells, sig):
    shown = column([Number(v, d) for v, d in cells], sig)
    fixed = [f.exponent is None for f in shown]
    assert all(fixed) or not any(fixed)  # one notation per column
    for (v, d), f in zip(cells, shown):
        digits = f.mantissa.lstrip("-").replace(".", "").lstrip("0")
        assert len(digits) == sig or (f.exponent is None and len(digits.rstrip("0")) <= sig)
        value = Decimal(f.mantissa) * (Decimal(10) ** f.exponent if f.exponent is not None else 1)
        exact = Decimal(v)
        if d == "up":
            assert value >= exact
        elif d == "down":
            assert value <= exact
        assert abs(value - exact) <= exact * Decimal(10) ** (1 - sig) * 1, (v, d, f)


def test_column_words_and_log_values():
    shown = column([Number(0.0), Number(math.inf, "up"), Missing("why"), None, Number(0.0, "up", -2000.0)], 4)
    assert [f.word for f in shown[:4]] == ["0", "inf", "n/a", "-"]
    m, e = shown[4].mantissa, shown[4].exponent
    with mpmath.workdps(30):
        assert mpmath.mpf(m) * mpmath.mpf(10) ** e >= mpmath.exp(-2000) and e == -869
    with pytest.raises(ValueError):
        column([Number(1.0)], 0)


def test_fixed_column_keeps_its_trailing_zeros():
    shown = column([Number(0.5, "up"), Number(0.0050116, "down"), Number(12.0)], 4)
    assert [f.mantissa for f in shown] == ["0.5000", "0.005011", "12.00"]
