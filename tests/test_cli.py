"""The command line: every subcommand runs, --json is valid, bad input exits 2 with a message."""

import json

import pytest

from dptheory.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_formula_latex_and_list(capsys):
    code, out, _ = run(capsys, "formula", "gdp-delta", "--latex")
    assert code == 0 and out.startswith(r"\delta_\mu(\epsilon) =") and r"\mu > 0" in out
    code, out, _ = run(capsys, "formula", "--json")
    names = [row["name"] for row in json.loads(out)]
    assert "rr-renyi" in names and "gdp-delta" in names
    code, out, _ = run(capsys, "formula", "rdp-to-dp")
    assert "Lemma 2.1" in out and "kind:       upper" in out


def test_gdp_json(capsys):
    code, out, _ = run(capsys, "gdp", "--mu", "1", "--delta", "1e-5", "--json")
    row = json.loads(out)[0]
    assert code == 0 and row["quantity"] == "epsilon" and row["lower"] <= row["upper"]
    code, out, _ = run(capsys, "gdp", "--mu", "0.5", "--epsilon", "1", "--compose", "4", "--json")
    assert json.loads(out)[0]["params"]["composed_mu"] == 1.0


def test_mechanism_tables(capsys):
    code, out, _ = run(capsys, "mechanism", "rr", "--eps0", "1", "--k", "4")
    assert code == 0 and "randomized-response-profile" in out
    code, out, _ = run(capsys, "mechanism", "gaussian", "--sigma", "2", "--json")
    data = json.loads(out)
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
