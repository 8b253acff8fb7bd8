import math

import numpy as np
import pytest

from dptheory import validate
from tests.conftest import raises_naming


def test_integer_accepts_integral_floats_and_rejects_others():
    assert validate.integer("n", 1e6, low=1) == 1_000_000
    with raises_naming("n", "1.5", "integer"):
        validate.integer("n", 1.5, low=1)
    with raises_naming("n", "[1, inf]"):
        validate.integer("n", 0, low=1)
    with raises_naming("n"):
        validate.integer("n", True)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -0.1, 1.0, 0.0])
def test_delta_must_be_in_open_unit_interval(value):
    with raises_naming("delta", "(0, 1)"):
        validate.delta("delta", value)


def test_real_names_range_and_rejects_strings():
    with raises_naming("eps0", "[0, inf)"):
        validate.nonnegative("eps0", -1)
    with raises_naming("mu", "real number"):
        validate.positive("mu", "abc")
    assert validate.real("x", np.float32(2.5)) == 2.5


def test_pmf_checks():
    assert validate.pmf("p", [0.5, 0.5]).sum() == 1.0
    with raises_naming("p", "sums to"):
        validate.pmf("p", [0.5, 0.6])
    with raises_naming("p", "outside the valid range"):
        validate.pmf("p", [1.5, -0.5])
    with raises_naming("p and q", "same support"):
        validate.pmf_pair([1.0], [0.5, 0.5])
    with raises_naming("p", "1-D"):
        validate.pmf("p", [[0.5, 0.5]])


def test_mp_pmf_and_order_and_digits():
    with raises_naming("q", "sums to"):
        validate.mp_pmf("q", ["0.5", "0.4"])
    with raises_naming("order", "(1, inf)"):
        validate.order("order", 1.0)
    assert validate.order("order", math.inf, allow_inf=True) == math.inf
    with raises_naming("lam", "integer"):
        validate.order("lam", 2.5, integer_only=True)
    with raises_naming("digits"):
        validate.digits(2)
    assert validate.digits(None) is None
