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


def _table(out):
    """The header and the first row of the table printed (the line after the rule)."""
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("method"))
    return lines[at].split(), lines[at + 2].split()


def test_delta_below_the_float_range_is_printed_from_its_logarithm(capsys):
    """Defect 3: `dptheory gdp --mu 1 --epsilon 40` printed `delta 0` (the value is 3.9e-343).
    The printed ends enclose the exact value (the lower rounded down, the upper up)."""
    ref = _mp_log_delta(1.0, 40.0)
    code, out, _ = run(capsys, "gdp", "--mu", "1", "--epsilon", "40")
    header, row = _table(out)
    lower, upper = row[header.index("delta_lower")], row[header.index("delta_upper")]
    assert code == 0 and "0" not in (lower, upper) and lower.endswith("e-343") and upper.endswith("e-343")
    with mpmath.workdps(40):
        assert mpmath.log(mpmath.mpf(lower)) <= ref <= mpmath.log(mpmath.mpf(upper))
    code, out, _ = run(capsys, "gdp", "--mu", "1", "--epsilon", "40", "--digits", "30")
    with mpmath.workdps(40):
        value = mpmath.mpf(out.split("delta = ")[1].split()[0])
        assert abs(mpmath.log(value) - ref) < 1e-25


def test_printed_interval_encloses_the_exact_value_and_fits_80_columns(capsys):
    """The table printed rounds outwards (it rounded both ends to nearest: an upper end could be
    printed below the certified one) and fits 80 columns (it wrapped log_upper below the row)."""
    for argv, exact in ((["--mu", "1", "--epsilon", "1"], lambda: mpmath.exp(_mp_log_delta(1.0, 1.0))),
                        (["--mu", "2", "--epsilon", "3"], lambda: mpmath.exp(_mp_log_delta(2.0, 3.0)))):
        code, out, _ = run(capsys, "gdp", *argv)
        header, row = _table(out)
        assert code == 0 and max(len(line) for line in out.splitlines()) <= 80, out
        with mpmath.workdps(40):
            ref = exact()
            assert mpmath.mpf(row[header.index("delta_lower")]) <= ref <= mpmath.mpf(row[header.index("delta_upper")])
            assert float(row[header.index("log_lower")]) <= mpmath.log(ref) <= float(row[header.index("log_upper")])


def test_json_is_the_result_as_dict(capsys):
    code, out, _ = run(capsys, "gdp", "--mu", "1", "--epsilon", "40", "--json")
    row = json.loads(out)["results"][0]
    assert code == 0 and row["quantity"] == "delta" and row["kind"] == "exact" and row["status"] == "proven"
    assert row["upper"] > 0 and row["log_lower"] <= _mp_log_delta(1.0, 40.0) <= row["log_upper"]
    code, out, _ = run(capsys, "gdp", "--mu", "0.5", "--epsilon", "1", "--compose", "4", "--json")
    row = json.loads(out)["results"][0]
    assert row["params"]["composed_mu"] == 1.0 and row["params"]["compositions"] == 4
    ref = mpmath.exp(_mp_log_delta(1.0, 1.0))
    assert row["lower"] <= ref <= row["upper"]


def test_epsilon_at_digits_encloses_the_exact_root(capsys):
    """`dptheory gdp --mu 1 --delta 1e-6 --digits 50` gave an epsilon_upper below the exact root."""
    code, out, _ = run(capsys, "gdp", "--mu", "1", "--delta", "1e-6", "--digits", "50", "--json")
    row = json.loads(out)["results"][0]
    with mpmath.workdps(60):
        target = mpmath.log(mpmath.mpf(1e-6))
        ref = mpmath.findroot(lambda x: _mp_log_delta(1.0, x) - target, mpmath.mpf(row["upper"]))
    assert row["quantity"] == "epsilon" and row["lower"] <= ref <= row["upper"]
