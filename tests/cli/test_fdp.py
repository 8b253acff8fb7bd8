"""``dptheory fdp`` and ``dptheory fdp shuffle``: output, JSON shape, errors, lazy imports."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import mpmath
import pytest

from dptheory.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _cor43(eps0, n, epsilon):
    """(1 - 2w) H_{e^eps~}(P0||Q0) by direct summation over i and k (mpmath, 40 digits)."""
    with mpmath.workdps(40):
        E = mpmath.exp(eps0)
        w = 1 / (E + 1)
        g = (mpmath.exp(epsilon) - 2 * w) / (1 - 2 * w)
        total = mpmath.mpf(0)
        for i in range(n):
            wi = mpmath.binomial(n - 1, i) * (2 * w) ** i * (1 - 2 * w) ** (n - 1 - i)
            pk = [mpmath.binomial(i, k) / 2**i for k in range(i + 1)] + [mpmath.mpf(0)]
            total += wi * mpmath.fsum(max(0, pk[k] - g * pk[k + 1]) for k in range(i + 1))
        return (1 - 2 * w) * total


def test_help_texts_agree_with_the_modules():
    import dptheory.cli as cli
    from dptheory.cli import fdp

    assert cli.SUBCOMMANDS["fdp"] == fdp.HELP
    present = [name for name in fdp.SUBCOMMANDS
               if importlib.util.find_spec(f"dptheory.cli.fdp_{name}") is not None]
    assert "shuffle" in present
    for name in present:
        assert importlib.import_module(f"dptheory.cli.fdp_{name}").HELP == fdp.SUBCOMMANDS[name], name


def test_fdp_shuffle_imports_no_other_fdp_module():
    code = ("import sys, contextlib, io\nfrom dptheory.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['fdp', 'shuffle', '--n', '20', '--epsilon', '0.5'])\n"
            "print(*sys.modules)")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())
    assert "dptheory.cli.fdp_shuffle" in loaded
    assert not loaded & {"dptheory.cli.fdp_mixture", "dptheory.cli.fdp_dpgd", "dptheory.cli.shuffle"}


def test_text_output_prints_knots_delta_and_a_labelled_gdp_mu(capsys):
    code, out, _ = run(capsys, "fdp", "shuffle", "--eps0", "1", "--n", "20", "--epsilon", "0.1,0.5", "--alpha", "0.3")
    assert code == 0
    assert "knots" in out and "approximation, not a bound" in out
    ref = float(_cor43(1.0, 20, 0.5))
    row = next(line.split() for line in out.splitlines() if line.startswith("0.5 "))
    lower, upper = float(row[1]), float(row[2])
    assert lower <= ref <= upper and upper / ref - 1 < 1e-2


def test_json_object_has_the_documented_keys(capsys):
    code, out, _ = run(capsys, "fdp", "shuffle", "--eps0", "1", "--n", "30", "--epsilon", "0.1,0.2", "--json")
    assert code == 0
    data = json.loads(out)["results"]
    assert {"knots", "kind", "source", "profile"} <= set(data)
    assert data["kind"] == "lower"
    knots = data["knots"]
    assert knots[0] == [0.0, 1.0] and knots[-1] == [1.0, 0.0]
    assert all(len(k) == 2 for k in knots)
    assert all(a1 >= a0 and b1 <= b0 for (a0, b0), (a1, b1) in zip(knots, knots[1:]))
    assert [p["epsilon"] for p in data["profile"]] == [0.1, 0.2]
    for entry in data["profile"]:
        ref = float(_cor43(1.0, 30, entry["epsilon"]))
        assert entry["delta_lower"] <= ref <= entry["delta"]
        # the paper's stronger-clone pair: unproven for a general eps0-LDP randomizer
        assert entry["kind"] == "upper" and entry["status"] == "unproven" and "withdrawn" in entry["note"]
        # one convention for the log ends: a number, or null where the end is 0
        assert all(isinstance(entry[k], float) for k in ("log_delta_upper", "log_delta_lower"))
    assert data["status"] == "unproven" and "withdrawn" in data["status_note"]
    assert data["gdp"]["kind"] == "approximation" and data["gdp"]["status"] == "not a bound"
    # the knots are a lower bound: no knot above the symmetric curve's own reflection + rounding
    for a, b in knots:
        assert b <= 1 - a + 1e-15


def test_reduction_clones_is_the_proven_pair_and_stronger_clones_is_labelled_unproven_in_the_header(capsys):
    """The status comes from one place (clones.reduction_status): --reduction clones gives the
    FMT21 pair (clone probability e^-eps0), proven; the default is the paper's pair, unproven."""
    from dptheory.shuffle.clones import clone_pair

    code, out, _ = run(capsys, "fdp", "shuffle", "--n", "300", "--epsilon", "0.2", "--reduction", "clones", "--json")
    doc = json.loads(out)
    data = doc["results"]
    assert code == 0 and data["status"] == "proven" and doc["parameters"]["reduction"] == "clones"
    entry = data["profile"][0]
    assert entry["status"] == "proven"
    lo, _ = clone_pair(1.0, 300).delta(0.2)  # the exact delta of the FMT21 pair is below Cor. 4.3 on it
    assert entry["delta"] >= lo
    code, out, _ = run(capsys, "fdp", "shuffle", "--n", "300", "--epsilon", "0.2")
    assert "pair: stronger-clones" in out and "status unproven" in out and "--reduction clones" in out


@pytest.mark.parametrize("eps0", ["28.14", "30", "50"])
def test_large_eps0_gives_a_result_not_a_traceback(capsys, eps0):
    """Regression: eps0 = 30, n = 100 ended in an IndexError in _envelope (no line above 0)."""
    code, out, err = run(capsys, "fdp", "shuffle", "--eps0", eps0, "--n", "100", "--epsilon", "0.1", "--json")
    assert code == 0 and "Traceback" not in err
    data = json.loads(out)["results"]
    assert data["knots"][0] == [0.0, 1.0] and data["knots"][-1] == [1.0, 0.0]
    assert 0 < data["profile"][0]["delta"] <= 1


def test_delta_is_zero_at_and_above_eps0(capsys):
    """Regression (Cor. 4.3 ignored that the shuffled mechanism is eps0-DP): eps0 = 1, n = 2,
    epsilon = 1000 printed 0.338; delta is exactly 0 for epsilon >= eps0."""
    code, out, _ = run(capsys, "fdp", "shuffle", "--eps0", "1", "--n", "2", "--epsilon", "1000,1", "--json")
    assert code == 0
    for entry in json.loads(out)["results"]["profile"]:
        assert entry["delta"] == 0.0 and entry["delta_lower"] == 0.0 and entry["bound"] == "eps0-DP"
        assert entry["log_delta_upper"] is None and entry["log_delta_lower"] is None


def test_lower_end_is_never_printed_as_zero_below_a_positive_upper_end(capsys):
    """Regression: delta_lower printed 0 where the lower end is not computed; now it is computed,
    or '-' where it is not resolved (far tail)."""
    code, out, _ = run(capsys, "fdp", "shuffle", "--eps0", "1", "--n", "1e7", "--epsilon", "0.5")
    row = next(line.split() for line in out.splitlines() if line.startswith("0.5 "))
    assert row[1] != "0" and row[2] != "0" and "e-" in row[2]
    code, out, _ = run(capsys, "fdp", "shuffle", "--eps0", "4", "--n", "1e12", "--epsilon", "0.5")
    row = next(line.split() for line in out.splitlines() if line.startswith("0.5 "))
    assert row[1] != "0" and row[2] != "0"


def test_integer_parameters_are_shown_as_integers_in_messages(capsys):
    code, _, err = run(capsys, "fdp", "shuffle", "--n", "0")
    assert code == 2 and "n = 0 is invalid" in err and "0.0" not in err


def test_rounds_at_huge_n_stay_below_one_and_show_no_internal_message(capsys):
    """Regression: at n = 1e12, eps0 = 4 the composed rounds printed 1.24e+39 (T = 100), exited 2
    with "abs_error = inf is invalid" (T = 1000) and 0.0623 (T = 2): the bucket weights' error was
    taken as absolute at the largest tilted loss. Now a relative error of the masses; the
    one-round delta there is about 1e-492807766, so the composed one is tiny as well."""
    for rounds, top in (("2", 1e-30), ("100", 1e-30), ("1000", 1e-6)):
        code, out, err = run(capsys, "fdp", "shuffle", "--eps0", "4", "--n", "1e12", "--epsilon", "0.5",
                             "--rounds", rounds, "--json")
        assert code == 0 and "abs_error" not in err, err
        entry = json.loads(out)["results"]["profile"][0]
        assert 0 < entry["rounds_delta"] <= top and entry["rounds_result"]["status"] == "proven"


def test_digits_prints_the_mpmath_value(capsys):
    code, out, _ = run(capsys, "fdp", "shuffle", "--n", "40", "--epsilon", "0.3", "--digits", "30")
    assert code == 0
    with mpmath.workdps(40):
        shown = mpmath.mpf(out.split("delta(0.3) = ")[1].split()[0])
        ref = _cor43(1.0, 40, 0.3)
        assert abs(shown - ref) < ref * mpmath.mpf(10) ** -28


def test_delta_below_the_float_range_is_not_printed_as_zero(capsys):
    code, out, _ = run(capsys, "fdp", "shuffle", "--n", "100000", "--epsilon", "0.5")
    assert code == 0
    row = next(line.split() for line in out.splitlines() if line.startswith("0.5 "))
    assert row[2] != "0" and "e-" in row[2]


def test_plot_writes_a_png(tmp_path, capsys):
    path = tmp_path / "curve.png"
    code, out, _ = run(capsys, "fdp", "shuffle", "--n", "50", "--plot", str(path))
    assert code == 0 and path.stat().st_size > 1000
    assert path.read_bytes()[:4] == b"\x89PNG"


def test_rounds_composes_through_the_pld(capsys):
    """--rounds T: delta(epsilon) of T composed rounds (dptheory.shuffle.rounds, a PLD of the
    clone pair), printed beside the one-round value: composing can only raise delta, and the
    command prints what the library computes."""
    from dptheory.shuffle.rounds import rounds_delta

    code, out, _ = run(capsys, "fdp", "shuffle", "--n", "200", "--epsilon", "0.5", "--rounds", "3", "--json")
    assert code == 0
    entry = json.loads(out)["results"]["profile"][0]
    assert entry["rounds"] == 3
    assert entry["delta"] <= entry["rounds_delta"] <= 1
    assert entry["rounds_delta"] == rounds_delta(1.0, 200, 3, 0.5).upper
    assert entry["rounds_result"]["kind"] == "upper"


@pytest.mark.parametrize("argv,name", [
    (["--eps0", "0"], "eps0"),
    (["--eps0", "-1"], "eps0"),
    (["--eps0", "nan"], "eps0"),
    (["--n", "0"], "n"),
    (["--n", "2.5"], "n"),
    (["--alpha", "1.5"], "alpha"),
    (["--alpha", "-0.1"], "alpha"),
    (["--epsilon", "-0.1"], "epsilon"),
    (["--epsilon", "x"], "epsilon"),
    (["--rounds", "0"], "rounds"),
    (["--digits", "2"], "digits"),
    (["--rounds", "x"], "rounds"),
])
def test_bad_input_exits_2_naming_the_parameter(capsys, argv, name):
    code, out, err = run(capsys, "fdp", "shuffle", "--n", "10", *argv)
    assert code == 2
    assert err.startswith("dptheory fdp shuffle: error: ") and f"{name} = " in err
    assert "Traceback" not in err and "nan" not in out


def test_unknown_fdp_command_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["fdp", "nothing"])
    assert exc.value.code == 2


def test_module_entry_point_shows_no_traceback():
    res = subprocess.run([sys.executable, "-m", "dptheory", "fdp", "shuffle", "--eps0", "-2"],
                         capture_output=True, text=True)
    assert res.returncode == 2 and "Traceback" not in res.stderr and "eps0" in res.stderr
