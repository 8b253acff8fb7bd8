"""``dptheory gdp``: prints the certified Result of profile.gdp, never 0 for a positive delta."""

import json
import math

import mpmath

from dptheory.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _mp_log_delta(mu, e):
    with mpmath.workdps(80):
        m, x = mpmath.mpf(mu), mpmath.mpf(e)
        return mpmath.log(mpmath.ncdf(-x / m + m / 2) - mpmath.exp(x) * mpmath.ncdf(-x / m - m / 2))


def test_delta_below_the_float_range_is_printed_from_its_logarithm(capsys):
    """Defect 3: `dptheory gdp --mu 1 --epsilon 40` printed `delta 0` (the value is 3.9e-343)."""
    ref = _mp_log_delta(1.0, 40.0)
    shown = f"{float(mpmath.exp(ref - math.floor(ref / mpmath.log(10)) * mpmath.log(10))):.5f}"  # mantissa
    code, out, _ = run(capsys, "gdp", "--mu", "1", "--epsilon", "40")
    assert code == 0 and f"{shown}e-343" in out, out
    lines = out.splitlines()
    header, row = lines[0].split(), lines[2].split()
    assert "0" not in [row[header.index("delta_lower")], row[header.index("delta_upper")]]
    code, out, _ = run(capsys, "gdp", "--mu", "1", "--epsilon", "40", "--digits", "30")
    with mpmath.workdps(40):
        value = mpmath.mpf(out.split("delta = ")[1].split()[0])
        assert abs(mpmath.log(value) - ref) < 1e-25


def test_json_is_the_result_as_dict(capsys):
    code, out, _ = run(capsys, "gdp", "--mu", "1", "--epsilon", "40", "--json")
    row = json.loads(out)[0]
    assert code == 0 and row["quantity"] == "delta" and row["kind"] == "exact" and row["status"] == "proven"
    assert row["upper"] > 0 and row["log_lower"] <= _mp_log_delta(1.0, 40.0) <= row["log_upper"]
    code, out, _ = run(capsys, "gdp", "--mu", "0.5", "--epsilon", "1", "--compose", "4", "--json")
    row = json.loads(out)[0]
    assert row["params"]["composed_mu"] == 1.0 and row["params"]["compositions"] == 4
    ref = mpmath.exp(_mp_log_delta(1.0, 1.0))
    assert row["lower"] <= ref <= row["upper"]


def test_epsilon_at_digits_encloses_the_exact_root(capsys):
    """`dptheory gdp --mu 1 --delta 1e-6 --digits 50` gave an epsilon_upper below the exact root."""
    code, out, _ = run(capsys, "gdp", "--mu", "1", "--delta", "1e-6", "--digits", "50", "--json")
    row = json.loads(out)[0]
    with mpmath.workdps(60):
        target = mpmath.log(mpmath.mpf(1e-6))
        ref = mpmath.findroot(lambda x: _mp_log_delta(1.0, x) - target, mpmath.mpf(row["upper"]))
    assert row["quantity"] == "epsilon" and row["lower"] <= ref <= row["upper"]
