"""``dptheory rdp``: the RDP curves per method, composition, the (epsilon, delta) conversion, and
bad input."""

import json

import mpmath
import numpy as np
import pytest

from dptheory import rdp as rdp_module
from dptheory.shuffle import rdp
from tests.cli.test_main import run

ARGS = ["rdp", "--eps0", "1", "--n", "1e4", "--orders", "2..6,8,16", "--json"]


def _curves(out):
    return {c["method"]: c for c in json.loads(out)["results"]}


def test_curves_json_keys_and_order_of_bounds(capsys):
    code, out, _ = run(capsys, *ARGS)
    curves = _curves(out)
    assert code == 0
    assert {"girgis-upper-1", "girgis-upper-2", "girgis-lower", "exact", "chen-gdp", "chen-exact"} <= set(curves)
    valued = {m: c for m, c in curves.items() if c["applicable"]}
    for c in valued.values():
        assert {"method", "quantity", "axis", "kind", "status", "order", "lower", "upper", "source", "note"} <= set(c)
        assert c["quantity"] == "rdp" and c["axis"] == "order"
    assert curves["girgis-corollary-3.2"]["applicable"] is False
    assert curves["chen-gdp"]["status"] == "not a bound" and curves["chen-gdp"]["kind"] == "approximation"
    for order in (2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 16.0):
        at = lambda c, key: c[key][c["order"].index(order)]
        uppers = [at(c, "upper") for c in valued.values() if c["kind"] == "upper" and c["status"] == "proven"]
        lowers = [at(c, "lower") for c in valued.values() if c["kind"] == "lower"]
        assert uppers and lowers and min(uppers) >= max(lowers)


def _theorem_3_3(e0, n, order):
    """Girgis et al. Theorem 3.3 (corrected) at 50 digits, written out here."""
    with mpmath.workdps(50):
        E = mpmath.exp(mpmath.mpf(e0))
        nbar = mpmath.floor((n - 1) / (2 * E)) + 1
        lam = mpmath.mpf(order)
        return mpmath.log(mpmath.exp(lam**2 * (E - 1) ** 2 / nbar) + mpmath.exp(e0 * lam - (n - 1) / (8 * E))) / (lam - 1)


def test_compositions_scale_the_curve(capsys):
    """T compositions: T times the closed form (50 digits), rounded up, at every order."""
    five = _curves(run(capsys, *ARGS, "--methods", "girgis-upper-2,chen-gdp", "--compositions", "5")[1])
    c = five["girgis-upper-2"]
    for order, upper in zip(c["order"], c["upper"]):
        ref = 5 * _theorem_3_3(1.0, 10**4, order)
        assert ref <= upper <= ref * (1 + 1e-9)
    assert "composed 5 times" in c["source"] and c["params"]["compositions"] == 5


def test_delta_conversion(capsys):
    code, out, _ = run(capsys, "rdp", "--eps0", "1", "--n", "1e4", "--compositions", "100", "--delta", "1e-6",
                       "--methods", "girgis-upper-1,chen-exact,girgis-lower,chen-gdp", "--json")
    rows = {r["method"]: r for r in json.loads(out)["results"]}
    assert code == 0
    for r in rows.values():
        assert {"method", "quantity", "kind", "status", "lower", "upper", "source", "params"} <= set(r)
        assert r["quantity"] == "epsilon" and r["params"]["delta"] == 1e-6
    # a converted lower bound on RDP is not a lower bound on epsilon
    assert rows["girgis-lower"]["kind"] == "approximation" and rows["girgis-lower"]["status"] == "not a bound"
    assert rows["girgis-lower"]["upper"] <= rows["chen-exact"]["upper"] <= rows["girgis-upper-1"]["upper"]
    # the order search is no worse (to 1e-3) than a dense grid of integer orders, and the result is
    # the conversion at the order it reports
    dense = np.arange(2, 1001, dtype=float)
    grid_eps = rdp_module.epsilon_from_rdp(dense, 100 * rdp.upper_1(1.0, 10**4, dense), 1e-6).upper
    assert rows["girgis-upper-1"]["upper"] <= grid_eps * (1 + 1e-3)
    o = rows["chen-exact"]["params"]["order"]
    at = rdp_module.epsilon_from_rdp([o], [100 * rdp.clone_pair_rdp(1.0, 10**4, [o], rtol=1e-3).upper[0]], 1e-6).upper
    assert rows["chen-exact"]["upper"] == pytest.approx(at, rel=1e-3)


def test_delta_conversion_warns_at_the_grid_edge(capsys):
    code, out, _ = run(capsys, "rdp", "--eps0", "1", "--n", "1e4", "--orders", "2..4", "--delta", "1e-8",
                       "--methods", "girgis-upper-2")
    assert code == 0 and "largest order tried (4)" in out


def test_table_output(capsys):
    """The table prints each method's value at each order: Theorem 3.3's, checked against its
    50-digit value, and the labels of the approximation."""
    code, out, _ = run(capsys, "rdp", "--eps0", "1", "--n", "1e4", "--orders", "2,4")
    assert code == 0
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("order"))
    col = header.split().index("girgis-upper-2")
    row4 = next(line for line in lines if line.split() and line.split()[0] == "4")
    assert float(row4.split()[col]) == pytest.approx(float(_theorem_3_3(1.0, 10**4, 4)), rel=1e-5)
    assert any(line.split()[:3] == ["chen-gdp", "approximation", "not"] for line in lines if line.split())


@pytest.mark.parametrize("argv,fragment", [
    (["--orders", "1..3"], "orders"),
    (["--orders", "two"], "orders = 'two'"),
    (["--orders", "4..2"], "orders"),
    (["--eps0", "0"], "eps0 = 0.0"),
    (["--n", "0"], "n = 0"),
    (["--n", "10000.5"], "n = 10000.5"),
    (["--delta", "1.5"], "delta = 1.5"),
    (["--methods", "nope"], "method = 'nope'"),
    (["--compositions", "0"], "compositions = 0"),
    (["--rtol", "0"], "rtol = 0.0"),
])
def test_bad_input(capsys, argv, fragment):
    code, _, err = run(capsys, "rdp", "--orders", "2,3", *argv) if "--orders" not in argv else run(capsys, "rdp", *argv)
    assert code == 2 and fragment in err


def test_bad_eps0_with_delta_names_eps0(capsys):
    code, _, err = run(capsys, "rdp", "--eps0", "-1", "--delta", "1e-6")
    assert code == 2 and "eps0 = -1.0" in err


def _command_default(*argv):
    """The value of --rtol when ``argv`` does not give it, from the command's own parser."""
    from dptheory.cli import build_parser

    return build_parser(argv[0]).parse_args(list(argv)).rtol


def test_one_default_rtol_for_the_python_functions_and_the_commands():
    """A function and the command that calls it use the same default relative width: the README's
    ``clone_pair_rdp(1.0, 10**6, lam)`` answers as fast as ``dptheory rdp`` (it used 1e-6 against
    the command's 1e-3, a minute against two seconds)."""
    import inspect

    from dptheory import sweep
    from dptheory.shuffle import methods, summary

    renyi = _command_default("rdp")
    assert renyi == _command_default("sweep", "rdp", "--eps0", "1", "--n", "10", "-o", "x.csv")
    for fn in (rdp.clone_pair_rdp, rdp.lower_bound, rdp.rdp_curve, rdp.rdp_curves, rdp.epsilons, rdp.epsilon,
               rdp.epsilon_of, rdp.RdpMethod.rdp, rdp.RdpMethod.compute, rdp.RdpMethod.evaluate, sweep.rdp_sweep):
        assert inspect.signature(fn).parameters["rtol"].default == renyi, fn.__qualname__
    bracket = _command_default("shuffle")
    assert bracket == _command_default("sweep", "shuffle", "--eps0", "1", "--n", "10", "-o", "x.csv")
    for fn in (methods.epsilon, methods.compare, methods.Method.epsilon, summary.shuffle_report, sweep.shuffle_sweep):
        assert inspect.signature(fn).parameters["rtol"].default == bracket, fn.__qualname__
