"""The command line: every subcommand runs, --json is valid, bad input exits 2 with a message."""

import json
import math

import pytest

from dptheory.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_formula_latex_and_list(capsys):
    code, out, _ = run(capsys, "formula", "gdp-delta", "--latex")
    assert code == 0 and out.startswith("\\begin{equation}\\label{eq:gdp-delta}\n\\delta_\\mu(\\epsilon) =")
    assert r"\mu > 0" in out
    code, out, _ = run(capsys, "formula", "--json")
    names = [row["name"] for row in json.loads(out)["results"]]
    assert "rr-renyi" in names and "gdp-delta" in names
    code, out, _ = run(capsys, "formula", "rdp-to-dp")
    assert "Lemma 2.1" in out and "kind:       upper" in out


def test_gdp_json(capsys):
    code, out, _ = run(capsys, "gdp", "--mu", "1", "--delta", "1e-5", "--json")
    row = json.loads(out)["results"][0]
    assert code == 0 and row["quantity"] == "epsilon" and row["lower"] <= row["upper"]
    code, out, _ = run(capsys, "gdp", "--mu", "0.5", "--epsilon", "1", "--compose", "4", "--json")
    assert json.loads(out)["results"][0]["params"]["composed_mu"] == 1.0


def test_mechanism_tables(capsys):
    code, out, _ = run(capsys, "mechanism", "rr", "--eps0", "1", "--k", "4")
    assert code == 0 and "randomized-response-profile" in out
    code, out, _ = run(capsys, "mechanism", "gaussian", "--sigma", "2", "--json")
    data = json.loads(out)["results"]
    assert data["epsilon"][1]["upper"] >= data["epsilon"][0]["upper"]


@pytest.mark.parametrize("argv,fragment", [
    (["gdp", "--mu", "-1"], "mu = -1.0"),
    (["gdp", "--delta", "2"], "delta = 2.0"),
    (["mechanism", "rr", "--k", "1.5"], "k = 1.5"),
    (["formula", "nope"], "unknown"),
    (["mechanism", "rr", "--orders", "1,2"], "orders"),
])
def test_bad_input_exits_2_with_a_message(capsys, argv, fragment):
    code, _, err = run(capsys, *argv)
    assert code == 2 and fragment in err


def test_closed_pipe_is_not_a_traceback():
    """`dptheory gdp --json | head -c 10`: the reader closes the pipe early; exit quietly."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "dptheory", "gdp", "--mu", "1", "--delta", "1e-5",
                             "--compose", "1", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # nobody reads: the first write raises BrokenPipeError
    err = proc.stderr.read().decode()
    proc.wait()
    assert proc.returncode == 0 and "Traceback" not in err, err


# ------------------------------------------------------------------------------- start-up
def _modules_after(code):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_help_lists_every_subcommand_without_importing_them():
    import dptheory.cli as cli

    loaded = _modules_after(
        "import sys, contextlib, io\nfrom dptheory.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try: main(['--help'])\n    except SystemExit: pass\n"
        "print(*[m for m in sys.modules if m.split('.')[0] in ('numpy', 'scipy', 'sympy') or m.startswith('dptheory.cli.')])")
    assert not loaded, loaded
    assert list(cli.SUBCOMMANDS) == ["shuffle", "rdp", "gdp", "mechanism", "formula", "fdp", "compare", "latex", "report", "verify", "plot", "sweep"]


def test_a_float_command_imports_only_what_it_needs():
    """`dptheory gdp` imports neither sympy nor the other subcommands' engines."""
    loaded = _modules_after(
        "import sys, contextlib, io\nfrom dptheory.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    main(['gdp', '--mu', '1', '--delta', '1e-6'])\n"
        "print(*sys.modules)")
    assert "dptheory.cli.gdp" in loaded
    assert not loaded & {"sympy", "dptheory.shuffle", "dptheory.tradeoff", "dptheory.cli.rdp",
                         "dptheory.cli.shuffle", "dptheory.catalogue"}, loaded


def test_overview_help_agrees_with_each_subcommand():
    import argparse

    import dptheory.cli as cli

    for name, text in cli.SUBCOMMANDS.items():
        parser = cli.build_parser(name)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        helps = {c.dest: c.help for c in sub._choices_actions}
        assert helps[name] == text, name


def test_bare_command_with_options_runs_the_default_job(capsys):
    code, out, _ = run(capsys, "--eps0", "0.5", "--n", "1000", "--delta", "1e-3", "--methods", "clones")
    assert code == 0 and out.startswith("general: eps0 = 0.5, n = 1000, delta = 0.001")


# ------------------------------------------------------------------------------- shuffle layout
def test_shuffle_answer_comes_first_and_fits_80_columns(capsys):
    code, out, _ = run(capsys, "shuffle")
    lines = out.splitlines()
    assert code == 0 and max(len(line) for line in lines) <= 80
    table_at = next(i for i, line in enumerate(lines) if line.startswith("method"))
    head = "\n".join(lines[:table_at])
    # the default job's answer (issue 9): upper by variation-ratio-labelled, lower by variation-ratio-lower
    assert "epsilon <= 0.00501" in head and "variation-ratio-labelled (upper, proven)" in head
    assert "epsilon >= 0.00410" in head and "variation-ratio-lower (lower, proven)" in head
    assert "gap:" in head and "unproven" not in head
    assert "source" not in lines[table_at] and out.index("sources:") > table_at


def test_small_n_table_and_notes_fit_80_columns(capsys):
    code, out, _ = run(capsys, "shuffle", "--eps0", "0.5", "--n", "10", "--delta", "1e-3")
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 80
    code, out, _ = run(capsys, "formula")
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 80
    assert "not a bound" in out and "refuted" in out


def test_printed_bounds_are_rounded_outwards(capsys):
    """A printed upper bound is never below the certified upper end (nor a lower bound above the
    lower end): the text and --json of one run are compared digit by digit."""
    from decimal import Decimal

    argv = ["shuffle", "--eps0", "1", "--n", "1e5", "--delta", "1e-6", "--methods",
            "clones,variation-ratio-labelled,variation-ratio-lower"]
    _, text, _ = run(capsys, *argv)
    _, raw, _ = run(capsys, *argv, "--json")
    summary = json.loads(raw)["summary"]
    shown_upper = text.split("epsilon <= ")[1].split()[0]
    shown_lower = text.split("epsilon >= ")[1].split()[0]
    assert Decimal(shown_upper) >= Decimal(summary["upper"]["upper"])
    assert Decimal(shown_lower) <= Decimal(summary["lower"]["lower"])






def test_json_comes_from_as_dict(capsys):
    from dptheory.results import Inapplicable, Kind, Result, Status

    code, out, _ = run(capsys, "shuffle", "--eps0", "1", "--n", "1e5", "--methods", "clones,exact", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == {"command", "version", "parameters", "summary", "results"}
    keys = set(Result("epsilon", 0.1, 0.2, Kind.UPPER, Status.PROVEN, "m", "s").as_dict())
    assert keys <= set(data["results"][0])
    inapplicable = set(Inapplicable("m", Kind.EXACT, Status.PROVEN, "s", "r", params={"n": 1}).as_dict())
    assert set(data["results"][1]) == inapplicable and data["results"][1]["applicable"] is False




def test_shuffle_delta_answer_states_the_gap_and_fits_80_columns(capsys):
    """--epsilon at n = 1e6 (delta ~ 1e-33373 against 1e-37511): the answer states the gap from
    the logarithms (it used to print no gap line: the lower end underflows to 0), and the table
    fits 80 columns without a seconds cell wrapped onto a line of its own."""
    argv = ["shuffle", "--eps0", "1", "--n", "1e6", "--epsilon", "0.5"]
    code, out, _ = run(capsys, *argv)
    lines = out.splitlines()
    assert code == 0 and max(len(line) for line in lines) <= 80
    table_at = next(i for i, line in enumerate(lines) if line.startswith("method"))
    head = "\n".join(lines[:table_at])
    assert "delta <= " in head and "delta >= " in head and "gap: the upper bound is 1.3" in head
    assert "e+4138 times the lower bound" in head
    assert not any(line.strip() and line.strip().replace(".", "").isdigit() for line in lines)
    _, raw, _ = run(capsys, *argv, "--json")
    summary = json.loads(raw)["summary"]
    assert summary["gap"] is None  # beyond the float range: the log says it
    expected = summary["upper"]["log_upper"] - summary["lower"]["log_lower"]
    assert abs(summary["log_gap"] - expected) <= 1e-12 * expected and 9527 < expected < 9529


@pytest.mark.parametrize("argv", [
    ["shuffle", "--n", "1e4", "--methods", ""], ["shuffle", "--n", "1e4", "--methods", ","],
    ["shuffle", "--n", "1e4", "--methods", "clones,"], ["rdp", "--n", "1e4", "--methods", ""],
    ["fdp", "shuffle", "--epsilon", "0.1,,0.2"], ["rdp", "--n", "1e4", "--orders", "2,,4"],
])
def test_an_empty_list_item_is_an_error_not_every_method(capsys, argv):
    """`--methods ""` and `--methods ,` ran every method, `--orders 2,,4` dropped the gap: an empty
    item is a mistake, named with the parameter (exit 2)."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out and argv[-2].lstrip("-") in err and "Traceback" not in err


def test_a_positive_delta_is_never_shown_as_0(capsys):
    """At eps0 = 1, n = 1000, epsilon = 0.999999 delta is about 9e-143: every applicable row has a
    positive lower end (log_lower finite in JSON), and the summary's lower line is not 0 (it said
    "delta >= 0" with 0 in nine rows)."""
    argv = ["shuffle", "--eps0", "1", "--n", "1000", "--epsilon", "0.999999", "--methods",
            "variation-ratio-labelled,variation-ratio-lower,binary-rr-exact-lower"]
    code, out, _ = run(capsys, *argv, "--json")
    doc = json.loads(out)
    rows = [r for r in doc["results"] if r.get("applicable", True)]
    assert code == 0 and len(rows) == 3
    assert all(math.isfinite(r["log_lower"]) and r["log_lower"] > -400 for r in rows), rows
    assert doc["summary"]["lower"]["lower"] > 8.9e-143


def test_shuffle_command_imports_neither_sympy_nor_scipy():
    """The default `dptheory shuffle` (every method) imports no scipy: scipy.optimize (0.15-0.35 s)
    was loaded for one bounded minimisation in the blanket bounds, now
    :func:`dptheory.inverse.golden_minimum`, and scipy.special (0.25 s, half the command's time) for
    the float binomial tails, now a quadrature in dptheory.precision; sympy is never built for float
    evaluations."""
    loaded = _modules_after(
        "import sys, contextlib, io\nfrom dptheory.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['shuffle', '--eps0', '1', '--n', '1e6', '--delta', '1e-6'])\n"
        "print(*sys.modules)")
    assert "dptheory.shuffle.blanket" in loaded and "dptheory.shuffle.binomial_sums" in loaded
    heavy = {m for m in loaded if m.split(".")[0] in ("sympy", "scipy")}
    assert not heavy, sorted(heavy)


def test_default_shuffle_command_does_not_import_mpmath():
    """The bare `dptheory shuffle` (every method, at its default parameters) computes in float64
    only: mpmath (about 0.1 s to import) is imported by dptheory.lazy_import on first use, and no
    method reaches an mpmath path there (the applicability of binary-rr-exact-lower tests the
    float pmfs only, dptheory.shuffle.exact_rr.is_binary_rr)."""
    loaded = _modules_after(
        "import sys, contextlib, io\nfrom dptheory.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n    main(['shuffle'])\n"
        "assert 'binary-rr-exact-lower' in out.getvalue() and 'stronger-clones' in out.getvalue()\n"
        "print(*sys.modules)")
    assert "dptheory.shuffle.exact_rr" in loaded and "dptheory.shuffle.variation_ratio" in loaded
    assert not {m for m in loaded if m.split(".")[0] in ("mpmath", "sympy")}, sorted(m for m in loaded if "mpmath" in m)
