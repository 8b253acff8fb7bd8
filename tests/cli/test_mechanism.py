"""``dptheory mechanism``: prints the certified Results and Curve of mechanisms.report."""

import json

import mpmath
import pytest

from dptheory.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_rr_rdp_is_printed_as_a_certified_interval(capsys):
    """`dptheory mechanism rr --eps0 0.1 --k 4 --orders 2` was labelled exact and 3.8e-14 below the
    truth: the JSON now carries the curve's certified ends, which enclose the 60-digit value."""
    code, out, _ = run(capsys, "mechanism", "rr", "--eps0", "0.1", "--k", "4", "--orders", "2", "--json")
    data = json.loads(out)["results"]
    with mpmath.workdps(60):
        E = mpmath.exp(mpmath.mpf(0.1))
        ref = mpmath.log((E**2 + E**-1 + 2) / (E + 3))  # order 2, k = 4
        d0 = mpmath.mpf(1e-6)
        eps_ref = mpmath.log(E - d0 * (E + 3))
    curve = data["rdp"]
    assert code == 0 and curve["kind"] == "exact" and curve["order"] == [2.0]
    assert curve["lower"][0] <= ref <= curve["upper"][0]
    exact, via = data["epsilon"]
    assert exact["lower"] <= eps_ref <= exact["upper"]
    assert via["kind"] == "upper" and via["params"]["order"] == 2.0 and via["upper"] >= exact["upper"]
    code, out, _ = run(capsys, "mechanism", "rr", "--eps0", "0.1", "--k", "4", "--orders", "2")
    assert code == 0 and "rdp_lower" in out and "rdp-to-dp" in out


@pytest.mark.parametrize("argv", [["rr", "--eps0", "1", "--k", "4"], ["gaussian", "--sigma", "0.7"],
                                  ["laplace", "--scale", "2"], ["rr", "--eps0", "0.1", "--k", "1000", "--orders", "2,3,1e4"]])
def test_mechanism_output_fits_80_columns_with_the_order_on_its_row(capsys, argv):
    """The epsilon table was 112 wide and its order wrapped onto a line of its own."""
    from dptheory.cli import main

    assert main(["mechanism", *argv]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 80
    via_rdp = next(line for line in lines if line.startswith("rdp-to-dp"))
    assert via_rdp.split()[-1].replace(".", "").replace("e+", "").isdigit()  # the order ends the row
