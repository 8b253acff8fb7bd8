"""``dptheory fdp mixture`` and ``dptheory fdp dpgd`` (the sub-subcommand modules, run through
their own add_parser, as dptheory/cli/fdp.py does)."""

import argparse
import json

import numpy as np

from dptheory import divergences as dv
from dptheory import tradeoff as tf
from dptheory.cli import fdp_dpgd, fdp_mixture
from dptheory.validate import DomainError


def run(argv, capsys):
    """Parse and run like dptheory.cli.main: DomainError -> exit status 2 and a message."""
    parser = argparse.ArgumentParser(prog="dptheory fdp")
    sub = parser.add_subparsers(dest="fdp_command")
    fdp_mixture.add_parser(sub)
    fdp_dpgd.add_parser(sub)
    args = parser.parse_args(argv)
    try:
        status = int(args.func(args) or 0)
    except DomainError as exc:
        print(f"dptheory fdp {argv[0]}: error: {exc}")
        status = 2
    out = capsys.readouterr().out
    return status, out


PAIRS = ["--pair", "0.5,0.5,0:0.2,0.3,0.5", "--pair", "0.1,0.2,0.7:0.6,0.3,0.1"]


def test_mixture_json_bound_below_exact_and_deltas(capsys):
    status, out = run(["mixture", "--weights", "0.3,0.7", *PAIRS, "--epsilon", "0,0.5", "--json"], capsys)
    assert status == 0
    data = json.loads(out)["results"]
    assert data["bound"]["kind"] == "lower" and data["bound"]["status"] == "proven" and data["bound"]["source"]
    assert data["exact"]["kind"] == "exact"
    bound = tf.from_knots(*zip(*data["bound"]["knots"]))
    exact = tf.from_knots(*zip(*data["exact"]["knots"]))
    xs = np.linspace(0, 1, 201)
    assert np.all(bound(xs) <= exact(xs) + 1e-12)
    # both directions of the exact mixture's hockey-stick divergence, from the pmfs directly,
    # and the pair's guarantee: their maximum; each below its Corollary B.5 bound
    p = 0.3 * np.array([0.5, 0.5, 0]) + 0.7 * np.array([0.1, 0.2, 0.7])
    q = 0.3 * np.array([0.2, 0.3, 0.5]) + 0.7 * np.array([0.6, 0.3, 0.1])
    comps = [(np.array([0.5, 0.5, 0]), np.array([0.2, 0.3, 0.5])), (np.array([0.1, 0.2, 0.7]), np.array([0.6, 0.3, 0.1]))]
    for row in data["profile"]:
        e = row["epsilon"]
        direct = {"PQ": dv.hockey_stick(p, q, e), "QP": dv.hockey_stick(q, p, e)}
        direct["pair"] = max(direct.values())
        for d, value in direct.items():
            exact, bound = row[f"delta_exact_{d}"], row[f"delta_bound_{d}"]
            assert exact["lower"] <= value <= exact["upper"], (e, d)
            assert value <= bound["upper"] and bound["kind"] == "upper" and exact["kind"] == "exact"
            assert exact["params"]["direction"] == d and d in row["directions"]
        # Corollary B.5 per direction: sum_i w_i H(P_i || Q_i), computed from the components directly
        for d, (a, b) in {"PQ": (0, 1), "QP": (1, 0)}.items():
            want = sum(wi * dv.hockey_stick(c[a], c[b], e) for wi, c in zip((0.3, 0.7), comps))
            assert row[f"delta_bound_{d}"]["lower"] <= want * (1 + 1e-12) + 1e-15
            assert want <= row[f"delta_bound_{d}"]["upper"] * (1 + 1e-12) + 1e-15
        assert row["delta"] == row["delta_exact_pair"]
    # at eps = 0.5 the directions differ: H(P||Q) = 0.127..., H(Q||P) = 0.117...
    half = data["profile"][1]
    assert half["delta_exact_PQ"]["lower"] > half["delta_exact_QP"]["upper"]
    assert data["tight"]["tight"] is False


def test_mixture_reports_both_directions_regression(capsys):
    """Regression: --weights 1 --pair 0.5,0.5:1,0 --epsilon 1 printed 0 and 0 (only H(Q||P));
    H_e(P||Q) = (0.5 - e 0)_+ + (0.5 - e 1)_+ = 0.5 (hand computation), and the pair's delta is 0.5."""
    status, out = run(["mixture", "--weights", "1", "--pair", "0.5,0.5:1,0", "--epsilon", "1", "--json"], capsys)
    row = json.loads(out)["results"]["profile"][0]
    for key in ("delta_exact_PQ", "delta_exact_pair", "delta_bound_PQ", "delta_bound_pair"):
        assert row[key]["lower"] <= 0.5 <= row[key]["upper"] and row[key]["upper"] - 0.5 < 1e-9, key
    assert row["delta_exact_QP"]["upper"] == 0.0
    status, out = run(["mixture", "--weights", "1", "--pair", "0.5,0.5:1,0", "--epsilon", "1"], capsys)
    assert "H(P||Q)" in out and "H(Q||P)" in out and "pair (max)" in out


def test_mixture_text_and_curve_components(capsys):
    status, out = run(["mixture", "--weights", "0.5,0.5", "--pair", "0.6,0.4:0.4,0.6",
                       "--curve", "0,1;0.2,0.5;0.5,0.2;1,0"], capsys)
    assert status == 0
    assert "joint-concavity lower bound" in out and "exact trade-off" not in out
    assert "Corollary B.5 upper bound" in out and "exact [kind exact]" not in out


def test_mixture_bad_input_exits_2_naming_the_parameter(capsys):
    cases = [
        (["--weights=-0.2,1.2", *PAIRS], "weights[0]"),
        (["--weights", "0.3,0.3", *PAIRS], "sum to 1"),
        (["--weights", "0.3,0.7", "--pair", "0.5,0.6:0.5,0.5", "--pair", "0.5,0.5:0.5,0.5"], "sums to"),
        (["--weights", "0.5,0.5", "--pair", "0.5,0.5:0.5,0.5", "--curve", "0,1;0.5,0.2;0.6,0.4;1,0"], "beta"),
        (["--weights", "1", "--curve", "0,1;0.5,1.5;1,0"], "entry 1.5 outside"),
        (["--weights", "1", "--pair", "1.5,-0.5:0.5,0.5"], "entry -0.5 outside"),
        (["--weights", "0.5,0.5", "--pair", "0.5,0.5:0.5,0.5"], "one weight per component"),
        (["--weights", "1", "--pair", "0.5,x:0.5,0.5"], "--pair"),
        (["--weights", "1", "--pair", "0.5,0.5:0.5,0.5", "--epsilon", "nan"], "epsilon"),
    ]
    for argv, fragment in cases:
        status, out = run(["mixture", *argv], capsys)
        assert status == 2, argv
        assert fragment in out, (argv, out)
        assert "nan" not in out.split("error:")[0]
        assert "np.float64" not in out  # regression: numpy reprs in the messages


def test_dpgd_json_and_text(capsys):
    status, out = run(["dpgd", "--example", "constant", "--mu", "1", "--points", "61", "--cells", "2000",
                       "--epsilon", "0.5,1", "--json"], capsys)
    assert status == 0
    data = json.loads(out)["results"]
    assert data["kind"] == "lower" and data["status"] == "proven" and data["source"]
    lower = tf.from_knots(*zip(*data["knots"]))
    xs = np.linspace(0, 1, 101)
    assert np.all(lower(xs) <= tf.Gaussian(1.0)(xs) + 1e-15)
    for row in data["profile"]:
        assert row["delta"]["kind"] == "upper"
        assert tf.Gaussian(1.0).delta(row["epsilon"]) <= row["delta"]["upper"]
    status, out = run(["dpgd", "--example", "D.3", "--M", "2", "--points", "41", "--cells", "1000"], capsys)
    assert status == 0 and "beta_lower" in out and "delta_upper" in out


def test_dpgd_bad_input_exits_2(capsys):
    status, out = run(["dpgd", "--example", "D.1", "--a", "nan"], capsys)
    # regression: "must be a real number any real number"
    assert status == 2 and "a = nan is invalid: must be a real number" in out and "any real number" not in out
    for argv, fragment in [(["--example", "D.1", "--sigma", "0"], "sigma"),
                           (["--example", "D.2", "--c", "-1"], "c ="),
                           (["--cells", "3"], "cells"),
                           (["--epsilon", "a"], "--epsilon")]:
        status, out = run(["dpgd", *argv], capsys)
        assert status == 2 and fragment in out, (argv, out)
