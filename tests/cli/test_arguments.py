"""Every argument has an effect, one rule per quantity, and one JSON envelope (issue: robust at
every argument). Each test runs the command in-process and asserts the exit status and message."""

from __future__ import annotations

import json
import math

import pytest

from dptheory.cli import main


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


# ----------------------------------------------------------------- an argument with no effect
NO_EFFECT = [
    (["shuffle", "--delta", "1e-6", "--epsilon", "0.1"], "--delta"),
    (["shuffle", "--epsilon", "0.1", "--rtol", "1e-2"], "--rtol"),
    (["shuffle", "--sig", "3"], "--sig"),
    (["shuffle", "--json", "--latex"], "--latex"),
    (["shuffle", "--randomizer", "general", "--d", "7"], "d = 7"),
    (["shuffle", "--randomizer", "binary-rr", "--d", "7", "--k", "3", "--l", "9"], "d = 7"),
    (["shuffle", "--randomizer", "grr", "--d", "3", "--k", "2"], "k = 2"),
    (["shuffle", "--randomizer", "local-hash", "--l", "4", "--d", "3"], "d = 3"),
    (["rdp", "--label", "tab:x"], "--label"),
    (["rdp", "--textwidth", "200"], "--textwidth"),
    (["gdp", "--epsilon", "1", "--delta", "1e-6"], "--delta"),
    (["mechanism", "gaussian", "--eps0", "3"], "--eps0"),
    (["mechanism", "gaussian", "--k", "7"], "--k"),
    (["mechanism", "gaussian", "--scale", "2"], "--scale"),
    (["mechanism", "laplace", "--sigma", "5"], "--sigma"),
    (["mechanism", "rr", "--sigma", "3"], "--sigma"),
    (["mechanism", "rr", "--sensitivity", "2"], "--sensitivity"),
    (["fdp", "dpgd", "--example", "D.1", "--c", "99"], "--c"),
    (["fdp", "dpgd", "--example", "D.1", "--M", "7"], "--M"),
    (["fdp", "dpgd", "--example", "constant", "--sigma", "2"], "--sigma"),
    (["fdp", "shuffle", "--plot", "x.png", "--epsilon", "0.1"], "--epsilon"),
    (["formula", "--latex"], "--latex"),
    (["formula", "gdp-delta", "--latex", "--json"], "--latex"),
    (["plot", "--list", "--out", "x.png"], "--out"),
    (["sweep", "shuffle", "--eps0", "1", "--n", "10", "--epsilon", "0.1", "--rtol", "0.01", "-o", "x.csv"], "--rtol"),
]


@pytest.mark.parametrize("argv,name", NO_EFFECT)
def test_an_argument_with_no_effect_is_an_error(capsys, tmp_path, monkeypatch, argv, name):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and name in err and "no effect" in err, (argv, err)
    assert not out and not list(tmp_path.iterdir())


EMPTY_ITEMS = [
    (["shuffle", "--methods", ""], "methods"),
    (["shuffle", "--methods", ","], "methods"),
    (["shuffle", "--methods", "clones,,exact"], "methods"),
    (["shuffle", "--epsilon", ""], "epsilon"),
    (["rdp", "--orders", "2,,4"], "orders"),
    (["rdp", "--methods", ""], "methods"),
    (["rdp", "--methods", "chen-exact,"], "methods"),
    (["mechanism", "rr", "--orders", "2,"], "orders"),
    (["fdp", "shuffle", "--epsilon", "0.1,,0.2"], "epsilon"),
    (["fdp", "shuffle", "--epsilon", ""], "epsilon"),
    (["fdp", "shuffle", "--alpha", ","], "alpha"),
    (["fdp", "mixture", "--weights", "0.5,,0.5", "--pair", "0.5,0.5:0.2,0.8"], "weights"),
    (["fdp", "mixture", "--weights", "1", "--pair", "0.5,0.5:0.2,0.8", "--epsilon", ","], "epsilon"),
    (["fdp", "mixture", "--weights", "1", "--pair", "0.5,,0.5:0.2,0.8"], "pair"),
    (["fdp", "dpgd", "--epsilon", ""], "epsilon"),
    (["fdp", "dpgd", "--epsilon", "0,,1"], "epsilon"),
    (["verify", "--only", ","], "only"),
    (["verify", "--only", ""], "only"),
    (["sweep", "shuffle", "--eps0", "1,", "--n", "10", "-o", "x.csv"], "eps0"),
    (["sweep", "rdp", "--eps0", "1", "--n", "10,,100", "-o", "x.csv"], "n"),
]


@pytest.mark.parametrize("argv,name", EMPTY_ITEMS)
def test_an_empty_list_item_is_an_error(capsys, tmp_path, monkeypatch, argv, name):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and name in err and "Traceback" not in err, (argv, err)


# ------------------------------------------------------------------- one rule per quantity
def test_one_user_is_valid_everywhere(capsys):
    """n = 1: the shuffled mechanism of one user is the eps0-LDP randomizer; every command takes
    it, and a method that needs more users says it does not apply."""
    code, out, _ = run(capsys, "shuffle", "--n", "1", "--methods", "clones,exact")
    assert code == 0
    code, out, _ = run(capsys, "rdp", "--n", "1", "--orders", "2,4")
    assert code == 0 and "not applicable" in out
    code, out, _ = run(capsys, "rdp", "--n", "1", "--delta", "1e-6", "--methods", "chen-exact,chen-gdp-refined")
    assert code == 0 and "n/a" in out
    code, out, _ = run(capsys, "fdp", "shuffle", "--n", "1", "--epsilon", "0.5")
    assert code == 0
    # the shuffled randomizer of one user is eps0-DP and no better: delta(0.5) > 0 at eps0 = 1
    code, out, _ = run(capsys, "compare", "shuffle(eps0=1, n=1)", "gaussian(mu=1)", "--json")
    assert code == 0 and json.loads(out)["results"]["first"] == "shuffle(eps0=1, n=1)"
    from dptheory.shuffle.summary import shuffle_report

    assert shuffle_report("general", 1, methods=["exact"], eps0=1.0).parameters["n"] == 1


@pytest.mark.parametrize("argv", [
    ["shuffle", "--eps0", "0"], ["rdp", "--eps0", "0"], ["fdp", "shuffle", "--eps0", "0"],
    ["compare", "shuffle(eps0=0, n=10)", "gaussian(mu=1)"],
    ["sweep", "shuffle", "--eps0", "0", "--n", "10", "-o", "x.csv"],
    ["report", "--eps0", "0", "-o", "r", "--no-figures"],
])
def test_eps0_zero_is_rejected_everywhere(capsys, tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    assert code == 2 and "= 0" in err and "[1e-06, 300]" in err, err


def test_eps0_zero_is_rejected_by_the_python_api():
    from dptheory import validate
    from dptheory.shuffle import randomizers
    from dptheory.shuffle.rdp import rdp_curves
    from dptheory.shuffle.summary import shuffle_report

    for make in (lambda: randomizers.general_ldp(0.0), lambda: randomizers.grr(0.0, 3), lambda: validate.eps0("eps0", 0),
                 lambda: shuffle_report("general", 10, eps0=0.0), lambda: rdp_curves(0.0, 10, [2.0]),
                 lambda: randomizers.general_ldp(301.0)):
        with pytest.raises(validate.DomainError, match=r"\[1e-06, 300\]"):
            make()


def test_randomized_response_as_a_mechanism_takes_eps0_zero_as_compare_does(capsys):
    """Randomized response as a mechanism of its own: eps0 = 0 is the perfectly private mechanism
    (as mu = 0 is for the Gaussian one), in `mechanism rr` and in compare's rr(eps=0) alike."""
    code, out, _ = run(capsys, "mechanism", "rr", "--eps0", "0", "--json")
    res = json.loads(out)["results"]["epsilon"][0]
    assert code == 0 and res["upper"] == 0.0
    code, out, _ = run(capsys, "compare", "rr(eps=0)", "pp()", "--json")
    assert code == 0 and json.loads(out)["results"]["delta_symmetric"]["upper"] == 0.0


def test_mu_zero_is_the_same_in_gdp_and_compare(capsys):
    """mu = 0: two identical distributions; gdp gives delta = 0 and epsilon = 0 (exact), as the
    trade-off function of compare does (Delta = 0 against itself)."""
    code, out, _ = run(capsys, "gdp", "--mu", "0", "--epsilon", "0.5", "--json")
    res = json.loads(out)["results"][0]
    assert code == 0 and res["lower"] == res["upper"] == 0.0 and res["kind"] == "exact"
    code, out, _ = run(capsys, "gdp", "--mu", "0", "--delta", "1e-6", "--json")
    res = json.loads(out)["results"][0]
    assert code == 0 and res["upper"] == 0.0
    from dptheory import tradeoff

    assert tradeoff.Gaussian(0.0).delta(0.5) == 0.0
    code, out, _ = run(capsys, "compare", "gaussian(mu=0)", "pp()", "--json")
    data = json.loads(out)["results"]
    assert code == 0 and data["delta_symmetric"]["upper"] == 0.0
    code, _, err = run(capsys, "gdp", "--mu", "-0.1")
    assert code == 2 and "mu" in err


@pytest.mark.parametrize("argv", [["gdp", "--epsilon", "-1"], ["shuffle", "--epsilon", "-0.1"],
                                  ["fdp", "shuffle", "--epsilon", "-0.1"], ["fdp", "dpgd", "--epsilon", "-1"]])
def test_negative_epsilon_is_rejected_everywhere(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and "epsilon = -" in err and "[0, 1e+10]" in err and not out, err


@pytest.mark.parametrize("argv", [
    ["gdp", "--compose", "1e6"], ["rdp", "--n", "1e3", "--orders", "2", "--compositions", "1e3"],
    ["fdp", "dpgd", "--epsilon", "1", "--show", "1e1", "--points", "1e2", "--cells", "1e3"],
    ["fdp", "shuffle", "--n", "100", "--epsilon", "0.5", "--rounds", "1e1"],
])
def test_counts_accept_1e6_notation(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 0 and out and not err, err


def test_gdp_compose_1e6_is_sqrt_t_mu(capsys):
    code, out, _ = run(capsys, "gdp", "--mu", "0.001", "--epsilon", "1", "--compose", "1e6", "--json")
    res = json.loads(out)["results"][0]
    # 1e6 compositions of 0.001-GDP is 1-GDP: delta(1) = Phi(-1/2) - e Phi(-3/2)
    phi = lambda x: 0.5 * math.erfc(-x / math.sqrt(2))
    assert res["lower"] <= phi(-0.5) - math.e * phi(-1.5) <= res["upper"] * (1 + 1e-12)


@pytest.mark.parametrize("argv", [["gdp", "--digits", "14"], ["gdp", "--digits", "1001"], ["gdp", "--digits", "100000"],
                                  ["fdp", "shuffle", "--digits", "14"], ["fdp", "shuffle", "--digits", "1001"],
                                  ["verify", "--digits", "14"], ["verify", "--digits", "1001"]])
def test_one_digits_range_everywhere(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and "[15, 1000]" in err, err


def test_digits_at_the_ends_answer(capsys):
    from dptheory import profile, validate

    assert (validate.DIGITS_MIN, validate.DIGITS_MAX) == (15, 1000)
    code, _, _ = run(capsys, "gdp", "--mu", "1", "--epsilon", "1", "--digits", "15")
    assert code == 0
    res = profile.gdp(1.0, delta=1e-6, digits=1000)  # about 1.5 s on one core
    assert res.lower <= res.upper < 5.0
    with pytest.raises(validate.DomainError):
        profile.gdp(1.0, delta=1e-6, digits=1001)


# ------------------------------------------------------ a formula's failure is not the user's
def test_subset_selection_at_large_d_answers(capsys):
    """beta of k-subset selection overflowed its float64 path at d = 1000, k = 500 (binomials
    near 1e299) and the command blamed the input; the formula now falls back to mpmath. The value
    is checked against the same beta with the binomial ratios cancelled by hand:
    C(d-2, k-2)/C(d-1, k-1) = (k-1)/(d-1) and C(d-1, k)/C(d-1, k-1) = (d-k)/k."""
    from dptheory.shuffle.randomizers import BETA

    e, d, k = math.e, 1000, 500
    expected = (e - 1) * (1 - (k - 1) / (d - 1)) / (e + (d - k) / k)
    assert BETA["subset-selection"](1.0, d, k) == pytest.approx(expected, rel=1e-13)
    code, out, err = run(capsys, "shuffle", "--randomizer", "subset-selection", "--d", "1000", "--k", "500",
                         "--n", "1e6", "--methods", "clones,variation-ratio-analytic")
    assert code == 0 and "beta = 0.23129" in out, err
    assert "not applicable" in out and "condition" in out  # outside its domain: the condition that failed


# ----------------------------------------------------------------------- files that are written
@pytest.mark.parametrize("argv", [
    ["compare", "gaussian(mu=1)", "laplace(eps=1)", "--plot", "/nonexistent/x.png"],
    ["compare", "gaussian(mu=1)", "laplace(eps=1)", "--plot", "x.txt"],
    ["plot", "amplification-vs-n", "--out", "/nonexistent/x.png"],
    ["plot", "amplification-vs-n", "--out", "x.txt"],
    ["fdp", "shuffle", "--plot", "/nonexistent/x.png"],
    ["fdp", "shuffle", "--plot", "x.txt"],
    ["latex", "-o", "/nonexistent/x.tex"],
    ["latex", "-o", "x.txt"],
    ["report", "-o", "/nonexistent/a/b", "--no-figures"],
    ["sweep", "shuffle", "--eps0", "1", "--n", "10", "-o", "/nonexistent/x.csv"],
    ["shuffle", "--n", "10", "--latex", "--bib", "/nonexistent/x.bib"],
    ["shuffle", "--n", "10", "--latex", "--bib", "x.txt"],
    ["rdp", "--n", "10", "--latex", "--bib", "/nonexistent/x.bib"],
])
def test_a_file_that_cannot_be_written_exits_2(capsys, tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    assert code == 2 and "output" in err and "Traceback" not in err, err
    assert not list(tmp_path.iterdir())


# ------------------------------------------------------------------------- one JSON envelope
ENVELOPES = [
    (["shuffle", "--n", "1000", "--methods", "clones", "--json"], {"rtol": 1e-3, "methods": ["clones"], "n": 1000}),
    (["shuffle", "--n", "1000", "--epsilon", "0.5", "--methods", "clones", "--json"], {"epsilon": 0.5}),
    (["rdp", "--n", "1000", "--orders", "2,4", "--methods", "chen-exact", "--json"],
     {"compositions": 1, "rtol": 1e-3, "orders": [2.0, 4.0]}),
    (["rdp", "--n", "1000", "--delta", "1e-6", "--methods", "girgis-upper-1", "--compositions", "10", "--json"],
     {"compositions": 10, "delta": 1e-6}),
    (["gdp", "--mu", "1", "--epsilon", "1", "--json"], {"mu": 1.0, "epsilon": 1.0, "digits": None, "compose": 1}),
    (["gdp", "--mu", "1", "--digits", "20", "--json"], {"digits": 20, "delta": 1e-6}),
    (["mechanism", "gaussian", "--sigma", "2", "--json"], {"sigma": 2.0, "sensitivity": 1.0, "delta": 1e-6}),
    (["mechanism", "rr", "--k", "3", "--json"], {"eps0": 1.0, "k": 3.0}),
    (["formula", "--json"], {}),
    (["formula", "gdp-delta", "--json"], {"name": "gdp-delta"}),
    (["fdp", "shuffle", "--n", "100", "--epsilon", "0.5", "--json"], {"n": 100, "epsilon": [0.5], "eps0": 1.0}),
    (["fdp", "mixture", "--weights", "1", "--pair", "0.5,0.5:0.2,0.8", "--json"],
     {"weights": [1.0], "pair": [{"P": [0.5, 0.5], "Q": [0.2, 0.8]}]}),
    (["fdp", "dpgd", "--epsilon", "1", "--points", "51", "--cells", "2000", "--json"],
     {"example": "D.1", "a": 0.7, "sigma": 1.0, "points": 51.0}),
    (["compare", "gaussian(mu=1)", "laplace(eps=1)", "--json"], {"first": "gaussian(mu=1)", "tol": 1e-11}),
    (["verify", "--quick", "--only", "gdp/delta", "--json"], {"digits": 50, "only": ["gdp/delta"]}),
]


@pytest.mark.parametrize("argv,expected", ENVELOPES)
def test_every_json_document_has_one_envelope_with_its_inputs(capsys, argv, expected):
    from dptheory import __version__

    code, out, _ = run(capsys, *argv)
    doc = json.loads(out)
    command = " ".join(argv[:2]) if argv[0] == "fdp" else argv[0]
    assert code == 0 and doc["command"] == command and doc["version"] == __version__
    assert list(doc)[:4] == ["command", "version", "parameters", "results"]
    for key, value in expected.items():
        assert doc["parameters"][key] == value, (key, doc["parameters"])
    if argv[:2] == ["mechanism", "gaussian"]:  # the other mechanisms' options are not its inputs
        assert not {"eps0", "k", "scale"} & set(doc["parameters"])
