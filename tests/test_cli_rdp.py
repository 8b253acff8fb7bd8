"""``dptheory rdp``: the RDP curves per method, composition, the (epsilon, delta) conversion, and
bad input."""

import json

import numpy as np
import pytest

from dptheory import rdp as rdp_module
from dptheory.shuffle import rdp
from tests.test_cli import run

ARGS = ["rdp", "--eps0", "1", "--n", "1e4", "--orders", "2..6,8,16", "--json"]


def test_curves_json_keys_and_order_of_bounds(capsys):
    code, out, _ = run(capsys, *ARGS)
    rows = json.loads(out)
    assert code == 0
    slugs = {r["method"] for r in rows}
    assert {"girgis-upper-1", "girgis-upper-2", "girgis-lower", "exact", "chen-gdp", "chen-exact"} <= slugs
    valued = [r for r in rows if r["order"] is not None]
    for r in valued:
        assert {"method", "kind", "order", "rdp", "source"} <= set(r)
        assert r["kind"] in ("upper", "lower", "exact", "approximation")
    for order in (2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 16.0):
        here = [r for r in valued if r["order"] == order]
        uppers = [r["rdp"] for r in here if r["kind"] == "upper" and r["status"] == "proven"]
        lowers = [r["rdp"] for r in here if r["kind"] == "lower"]
        assert uppers and lowers and min(uppers) >= max(lowers)
    # the closed forms match the library (same code path, different entry)
    ub2 = {r["order"]: r["rdp"] for r in valued if r["method"] == "girgis-upper-2"}
    assert np.allclose([ub2[o] for o in (2.0, 8.0)], rdp.upper_2(1.0, 10**4, [2.0, 8.0]), rtol=1e-14)


def test_compositions_scale_the_curve(capsys):
    one = json.loads(run(capsys, *ARGS, "--methods", "girgis-upper-2,chen-gdp")[1])
    five = json.loads(run(capsys, *ARGS, "--methods", "girgis-upper-2,chen-gdp", "--compositions", "5")[1])
    for a, b in zip(one, five):
        assert a["method"] == b["method"] and a["order"] == b["order"]
        assert b["rdp"] == pytest.approx(5 * a["rdp"], rel=1e-14)


def test_delta_conversion(capsys):
    code, out, _ = run(capsys, "rdp", "--eps0", "1", "--n", "1e4", "--compositions", "100", "--delta", "1e-6",
                       "--methods", "girgis-upper-1,chen-exact,girgis-lower,chen-gdp", "--json")
    rows = {r["method"]: r for r in json.loads(out)}
    assert code == 0
    for r in rows.values():
        assert {"method", "kind", "order", "epsilon", "delta", "source"} <= set(r) and r["delta"] == 1e-6
    # a converted lower bound on RDP is not a lower bound on epsilon
    assert rows["girgis-lower"]["kind"] == "approximation" and rows["girgis-lower"]["status"] is None
    assert rows["girgis-lower"]["epsilon"] <= rows["chen-exact"]["epsilon"] <= rows["girgis-upper-1"]["epsilon"]
    # the order search is no worse (to 1e-3) than a dense grid of integer orders, and the result is
    # the conversion at the order it reports
    dense = np.arange(2, 1001, dtype=float)
    grid_eps = rdp_module.to_dp(dense, 100 * rdp.upper_1(1.0, 10**4, dense), 1e-6)
    assert rows["girgis-upper-1"]["epsilon"] <= grid_eps * (1 + 1e-3)
    o = rows["chen-exact"]["order"]
    at = rdp_module.to_dp([o], [100 * rdp.clone_pair_rdp(1.0, 10**4, [o], rtol=1e-3)[1][0]], 1e-6)
    assert rows["chen-exact"]["epsilon"] == pytest.approx(at, rel=1e-3)


def test_delta_conversion_warns_at_the_grid_edge(capsys):
    code, out, _ = run(capsys, "rdp", "--eps0", "1", "--n", "1e4", "--orders", "2..4", "--delta", "1e-8",
                       "--methods", "girgis-upper-2")
    assert code == 0 and "largest order tried (4)" in out


def test_table_output(capsys):
    code, out, _ = run(capsys, "rdp", "--eps0", "1", "--n", "1e4", "--orders", "2,4")
    assert code == 0 and "girgis-upper-1" in out and "approximation" in out and "notes:" in out


@pytest.mark.parametrize("argv,fragment", [
    (["--orders", "1..3"], "orders"),
    (["--orders", "two"], "orders = 'two'"),
    (["--orders", "4..2"], "orders"),
    (["--eps0", "0"], "eps0 = 0.0"),
    (["--n", "1"], "n = 1"),
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
