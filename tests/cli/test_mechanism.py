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


def test_sgm_epsilon_is_a_certified_interval_with_the_rdp_route(capsys):
    """`dptheory mechanism sgm --delta`: the two-sided PLD interval of the true epsilon and the
    exact-RDP route above it; the JSON carries the same Results the text prints."""
    code, out, _ = run(capsys, "mechanism", "sgm", "--sigma", "1", "--q", "0.01", "--steps", "1000",
                       "--delta", "1e-5", "--json")
    data = json.loads(out)
    assert code == 0 and data["question"] == "epsilon" and data["params"]["q"] == 0.01
    pld, via = data["results"]
    assert pld["kind"] == "exact" and pld["method"] == "sgm-pld-two-sided"
    assert pld["lower"] <= pld["upper"] < via["upper"]
    # dp_accounting's PLD value (same grid, not certified) lies inside the certified interval
    assert pld["lower"] <= 1.828243645591767 <= pld["upper"]
    code, text, _ = run(capsys, "mechanism", "sgm", "--sigma", "1", "--q", "0.01", "--steps", "1000", "--delta", "1e-5")
    assert code == 0 and "sgm-pld-two-sided" in text and max(len(line) for line in text.splitlines()) <= 80


def test_sgm_delta_and_orders(capsys):
    code, out, _ = run(capsys, "mechanism", "sgm", "--sigma", "0.8", "--q", "0.001", "--steps", "10000",
                       "--epsilon", "3", "--json")
    pld, via = json.loads(out)["results"]
    assert code == 0 and pld["lower"] <= pld["upper"] <= 1.05 * pld["lower"] and pld["upper"] < 1e-12
    assert via["upper"] > pld["upper"]
    code, out, _ = run(capsys, "mechanism", "sgm", "--sigma", "1", "--q", "0.01", "--orders", "1.5,2,3", "--json")
    exact, general = json.loads(out)["curves"]
    assert exact["kind"] == "exact" and exact["order"] == [1.5, 2.0, 3.0]
    assert general["order"] == [2.0, 3.0] and general["upper"][1] > exact["upper"][2]
    for o, lo, hi in zip(exact["order"], exact["lower"], exact["upper"]):
        o_lo, o_hi = oracle_renyi(1.0, 0.01, o)
        assert lo <= o_lo and hi >= o_hi


def oracle_renyi(sigma, q, order):
    from tests.oracles import mechanisms as oracle

    return oracle.sgm_renyi(sigma, q, order, direction="both", digits=30)


@pytest.mark.parametrize("argv, named", [
    (["--sigma", "1", "--steps", "10", "--delta", "1e-5"], "q is missing"),
    (["--sigma", "1", "--q", "0", "--delta", "1e-5"], "q = 0"),
    (["--sigma", "1", "--q", "1.5", "--delta", "1e-5"], "q = 1.5"),
    (["--sigma", "0", "--q", "0.1", "--delta", "1e-5"], "sigma = 0"),
    (["--sigma", "1", "--q", "0.1", "--steps", "2.5", "--delta", "1e-5"], "steps = 2.5"),
    (["--sigma", "1", "--q", "0.1", "--delta", "1e-5", "--epsilon", "1"], "exactly one"),
    (["--sigma", "1", "--q", "0.1"], "exactly one"),
    (["--sigma", "1", "--q", "0.1", "--delta", "2"], "delta = 2"),
])
def test_sgm_bad_input_exits_2_naming_the_parameter(capsys, argv, named):
    code, _, err = run(capsys, "mechanism", "sgm", *argv)
    assert code == 2 and named in err
