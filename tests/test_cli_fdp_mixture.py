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
    data = json.loads(out)
    assert data["bound"]["kind"] == "lower" and data["bound"]["status"] == "proven" and data["bound"]["source"]
    assert data["exact"]["kind"] == "exact"
    bound = tf.from_knots(*zip(*data["bound"]["knots"]))
    exact = tf.from_knots(*zip(*data["exact"]["knots"]))
    xs = np.linspace(0, 1, 201)
    assert np.all(bound(xs) <= exact(xs) + 1e-12)
    # the exact mixture's delta = H_{e^eps}(Q_w || P_w), computed here from the pmfs directly
    p = 0.3 * np.array([0.5, 0.5, 0]) + 0.7 * np.array([0.1, 0.2, 0.7])
    q = 0.3 * np.array([0.2, 0.3, 0.5]) + 0.7 * np.array([0.6, 0.3, 0.1])
    for row in data["profile"]:
        direct = dv.hockey_stick(q, p, row["epsilon"])
        assert row["delta"]["lower"] <= direct <= row["delta"]["upper"]
        assert direct <= row["delta_bound"]["upper"] and row["delta_bound"]["kind"] == "upper"
    assert data["tight"]["tight"] is False


def test_mixture_text_and_curve_components(capsys):
    status, out = run(["mixture", "--weights", "0.5,0.5", "--pair", "0.6,0.4:0.4,0.6",
                       "--curve", "0,1;0.2,0.5;0.5,0.2;1,0"], capsys)
    assert status == 0
    assert "joint-concavity lower bound" in out and "exact trade-off" not in out
    assert "delta_bound_upper" in out


def test_mixture_bad_input_exits_2_naming_the_parameter(capsys):
    cases = [
        (["--weights=-0.2,1.2", *PAIRS], "weights[0]"),
        (["--weights", "0.3,0.3", *PAIRS], "sum to 1"),
        (["--weights", "0.3,0.7", "--pair", "0.5,0.6:0.5,0.5", "--pair", "0.5,0.5:0.5,0.5"], "sums to"),
        (["--weights", "0.5,0.5", "--pair", "0.5,0.5:0.5,0.5", "--curve", "0,1;0.5,0.2;0.6,0.4;1,0"], "beta"),
        (["--weights", "0.5,0.5", "--pair", "0.5,0.5:0.5,0.5"], "one weight per component"),
        (["--weights", "1", "--pair", "0.5,x:0.5,0.5"], "--pair"),
        (["--weights", "1", "--pair", "0.5,0.5:0.5,0.5", "--epsilon", "nan"], "epsilon"),
    ]
    for argv, fragment in cases:
        status, out = run(["mixture", *argv], capsys)
        assert status == 2, argv
        assert fragment in out, (argv, out)
        assert "nan" not in out.split("error:")[0]


def test_dpgd_json_and_text(capsys):
    status, out = run(["dpgd", "--example", "constant", "--mu", "1", "--points", "61", "--cells", "2000",
                       "--epsilon", "0.5,1", "--json"], capsys)
    assert status == 0
    data = json.loads(out)
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
    for argv, fragment in [(["--example", "D.1", "--sigma", "0"], "sigma"),
                           (["--example", "D.2", "--c", "-1"], "c ="),
                           (["--cells", "3"], "cells"),
                           (["--epsilon", "a"], "--epsilon")]:
        status, out = run(["dpgd", *argv], capsys)
        assert status == 2 and fragment in out, (argv, out)
