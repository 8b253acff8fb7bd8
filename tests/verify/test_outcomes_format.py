"""The report's numbers: enclosure ends rounded outwards from their exact binary values, as many
digits as the oracle certifies, and comparisons made at the oracles' precision."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal, localcontext

import mpmath
import pytest

from dptheory import verify
from dptheory.results import Status
from dptheory.verify import registry
from dptheory.presentation.digits import certified_digits, fmt_end, fmt_pair, show_pair


@pytest.mark.parametrize("x, digits, direction, text", [
    (0.25, 8, "up", "0.25"),                 # exact: nothing to round
    (-0.25, 8, "down", "-0.25"),             # the sign survives (mpmath's man_exp drops it)
    (1 / 3, 8, "up", "0.33333334"),
    (1 / 3, 8, "down", "0.33333333"),
    (-1 / 3, 8, "up", "-0.33333333"),        # up is towards +inf for a negative number too
    (-1 / 3, 8, "down", "-0.33333334"),
    (123456.789, 4, "up", "1.235e+05"),
    (2.5e-7, 3, None, "2.5e-07"),
    (0.0, 8, "up", "0"),
    (float("inf"), 8, "up", "inf"),
])
def test_fmt_end_rounds_outwards(x, digits, direction, text):
    assert fmt_end(x, digits, direction) == text


def test_fmt_end_keeps_an_mpf_at_its_own_precision():
    """An mpf computed at 60 digits is printed from its own bits, even outside the workdps."""
    with mpmath.workdps(60):
        third = mpmath.mpf(1) / 3
    text = fmt_end(third, 55, "down")
    assert text == "0." + "3" * 55
    with localcontext() as ctx:
        ctx.prec = 100
        assert Decimal(text) * 3 < 1  # below 1/3: rounded down
    tiny = mpmath.mpf("3.9089708e-343")  # below the float range: printed, never 0
    assert fmt_end(tiny, 8, "down").endswith("e-343") and fmt_end(tiny, 8, "down") != "0"


def test_certified_digits():
    with mpmath.workdps(70):
        x = mpmath.mpf(1) / 7
        assert certified_digits(x - mpmath.mpf(10) ** -40, x + mpmath.mpf(10) ** -40, 50) == 38
        assert certified_digits(x, x, 50) == 50                     # a point: the precision asked for
        assert certified_digits(x * (1 - mpmath.mpf(10) ** -3), x, 50) == 8  # never fewer than 8
        assert certified_digits(x, mpmath.inf, 60) == 8             # a lower end only: 8
    lo, hi = fmt_pair(mpmath.mpf(1) / 7 - 1e-12, mpmath.mpf(1) / 7 + 1e-12, 50)
    assert Decimal(lo) < Decimal(hi) and show_pair((lo, hi)) == f"[{lo}, {hi}]"
    assert show_pair(fmt_pair(0.1, 0.1, 50)) == "0.1"              # a float point: its shortest decimal


def test_comparison_at_the_oracles_precision(scratch_registry):
    """The float nearest 1/3 is below 1/3 by 2e-17: an upper bound equal to it is violated. The
    oracle's ends used to be rounded to a float before the comparison, which hid it."""

    def third(case, digits):
        with mpmath.workdps(digits + 10):
            v = mpmath.mpf(1) / 3
            return v - mpmath.mpf(10) ** -(digits + 5), v + mpmath.mpf(10) ** -(digits + 5)

    verify.register_check("test/third", kind="upper", status=lambda c: Status.PROVEN, cases=[{}],
                          bound=lambda c: 1 / 3, oracle=third, oracle_kind=verify.CLOSED_FORM, source="a test")
    (row,) = verify.run(quick=True, names=["test/third"]).rows
    assert row.violations == 1 and -1e-16 < row.worst_margin < 0
    case = row.violated_cases[0]
    assert case["bound"] == ("0.3333333333333333", "0.3333333333333333")
    assert case["oracle"][0] == "0." + "3" * 50 and case["oracle"][1] == "0." + "3" * 49 + "4"


def test_the_library_does_not_import_the_command_line():
    """Running verify, building its JSON and printing its tables import nothing of dptheory.cli (the
    tables are the presentation layer's)."""
    code = ("import sys, dptheory.verify as v; r = v.run(quick=True, names=['tradeoff/dp', 'wang-lemma-4.5']); "
            "r.as_dict(); import io; r.print(io.StringIO()); print('dptheory.cli' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "False"


def test_any_magnitude_is_printed_quickly_and_never_as_zero():
    """delta of mu-GDP at mu = 0.05, epsilon = 300 is about 10^-7817301 (the full grid has it):
    printed in scientific notation from the exact value, outwards, in no time."""
    import time

    with mpmath.workdps(60):
        x = mpmath.exp(-mpmath.mpf(18e6))
        y = x * (1 + mpmath.mpf(10) ** -55)
    start = time.perf_counter()
    lo, hi = fmt_pair(x, y, 50)
    assert time.perf_counter() - start < 1.0
    assert lo.endswith("e-7817301") and hi.endswith("e-7817301") and lo < hi
    assert lo.startswith("2.117100462855192546141084280629784531338283810897")  # exp(-1.8e7) at 100 digits
    assert fmt_end(mpmath.mpf("9.99999999999"), 3, "up") == "10" and fmt_end(99999.5, 5, "up") == "1e+05"
