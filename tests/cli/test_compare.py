"""``dptheory compare``: text, JSON, plot and errors."""

import json
import math

import mpmath
import pytest

from dptheory.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_keys_and_figure3_values(capsys):
    code, out, _ = run(capsys, "compare", "gaussian(mu=1)", "laplace(eps=1)", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("delta_forward", "delta_backward", "delta_symmetric", "verdict", "witness"):
        assert key in data
    fw = float(mpmath.ncdf(-0.5) - mpmath.exp(-0.5) / 2)
    assert data["delta_forward"]["lower"] <= fw <= data["delta_forward"]["upper"]
    assert data["delta_backward"]["lower"] <= 0.0341385466091 <= data["delta_backward"]["upper"] + 1e-13
    assert data["delta_symmetric"]["upper"] == data["delta_backward"]["upper"]
    assert data["verdict"] == "neither"
    assert data["witness"]["second_more_vulnerable"]["prior"] == pytest.approx(0.5, abs=1e-6)
    # the second witness: alpha = Phi(-1/2 + 1) where G_1 = 0.0668072 and Lap_1 = 0.113505 (the paper's
    # oracles evaluated with mpmath in test_comparison_dominance.py; they were printed swapped)
    w = data["witness"]["first_more_vulnerable"]
    g = float(mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(w["alpha"]) - 1) - 1))
    assert w["first_tradeoff"] == pytest.approx(g, abs=1e-12) and w["first_tradeoff"] < w["second_tradeoff"]
    assert data["crossings"]["prior"] == pytest.approx([0.4185393766, 0.5814606234], abs=1e-9)
    assert data["delta_forward"]["kind"] == "exact" and data["delta_forward"]["status"] == "proven"


def test_text_output(capsys):
    code, out, _ = run(capsys, "compare", "gaussian(mu=1)", "gaussian(mu=2)")
    assert code == 0
    assert "verdict: second" in out
    row = next(line for line in out.splitlines() if line.startswith("Delta(first || second)"))
    lo, hi = map(float, row.split()[3:5])
    exact = float(mpmath.ncdf(-0.5) - mpmath.ncdf(-1))
    assert lo <= exact <= hi  # printed ends are rounded outwards
    assert all(len(line) <= 80 for line in out.splitlines())


def test_composed_and_extremal(capsys):
    code, out, _ = run(capsys, "compare", "rr(eps=0.5)^4", "pp()", "--json")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "first" and data["first"] == "rr(eps=0.5, k=2)^4"
    # Lemma 3: Delta(M_PP || M) = TV/2, TV of RR(0.5)^4 from its pmfs (binomial, enumerated here)
    p = math.exp(0.5) / (1 + math.exp(0.5))
    pm = [math.comb(4, j) * p**j * (1 - p) ** (4 - j) for j in range(5)]
    tv = 0.5 * sum(abs(a - b) for a, b in zip(pm, pm[::-1]))
    assert data["delta_backward"]["lower"] - 1e-12 <= tv / 2 <= data["delta_backward"]["upper"] + 1e-12


@pytest.mark.parametrize("argv", [("gauss(mu=1)", "laplace(eps=1)"), ("gaussian(mu=1)", "laplace(eps=-1)"),
                                  ("gaussian(mu=1)", "rr(eps=1")])
def test_malformed_mechanism_exits_2(capsys, argv):
    code, out, err = run(capsys, "compare", *argv)
    assert code == 2 and out == ""
    assert "dptheory compare: error:" in err


def test_malformed_message_lists_grammar(capsys):
    code, _, err = run(capsys, "compare", "gaussian(mu=1)", "foo()")
    assert code == 2 and "Grammar:" in err
    assert "sgm(sigma=..., p=..., grid=(optional))" in err and "shuffle(eps0=..., n=..., grid=(optional))" in err


def test_plot(capsys, tmp_path):
    path = tmp_path / "cmp.png"
    code, _, _ = run(capsys, "compare", "gaussian(mu=1)", "rr(eps=1)", "--plot", str(path))
    assert code == 0 and path.exists() and path.stat().st_size > 1000


def _json(capsys, first, second):
    code, out, _ = run(capsys, "compare", first, second, "--json")
    assert code == 0
    return json.loads(out)


@pytest.mark.parametrize("first,second,exact", [
    # 1/(1+e^30) - 1/(1+e^31) (digest §5.4 closed form, evaluated with mpmath here)
    ("rr(eps=30)", "rr(eps=31)", lambda: 1 / (1 + mpmath.exp(30)) - 1 / (1 + mpmath.exp(31))),
    # Phi(-20) - Phi(-20.5) (digest §5.3)
    ("gaussian(mu=40)", "gaussian(mu=41)", lambda: mpmath.ncdf(-20) - mpmath.ncdf(-20.5)),
    ("gaussian(mu=1)", "gaussian(mu=1.000000001)", lambda: mpmath.ncdf(-0.5) - mpmath.ncdf(-mpmath.mpf(1.000000001) / 2)),  # the float parameter
])
def test_tiny_positive_deltas_are_not_called_equal(capsys, first, second, exact):
    """Regression (the absolute verdict tolerance 1e-9 called these pairs "equal"): the first Delta
    is positive and contains the exact value, the reverse is certified 0, and the verdict says the
    second dominates."""
    with mpmath.workdps(40):
        value = float(exact())
    data = _json(capsys, first, second)
    fw, bw = data["delta_forward"], data["delta_backward"]
    assert fw["lower"] <= value <= fw["upper"] and fw["lower"] > 0
    assert bw["lower"] == bw["upper"] == 0.0
    assert data["verdict"] == "second"


def test_shuffle_against_gaussian_is_not_called_dominated(capsys):
    """Regression: shuffle(eps0=1, n=1000) is known only through a lower bound of its trade-off
    function; Delta(second || first) is an upper bound reaching down to 0, so the second's
    dominance is undecided (it was stated as a fact), while Delta(first || second) > 0 rules out
    the first's."""
    data = _json(capsys, "shuffle(eps0=1, n=1000)", "gaussian(mu=0.3)")
    assert data["verdict"] == "undecided" and "undecided at this precision" in data["verdict_detail"]
    assert data["delta_forward"]["lower"] > 0.05 and data["delta_forward"]["kind"] == "lower"
    assert data["delta_backward"]["kind"] == "upper" and data["delta_backward"]["lower"] == 0
    assert data["first_curve"] == "lower"


def test_no_negative_zero_and_composed_laplace_is_bounded(capsys):
    """Regression: laplace(eps=1)^100000 printed f_second = -0 and took 66 s (a 5e7-point grid):
    the grid is coarsened to the composed loss's spread, the interval still contains the truth
    (R* of the composition is below 1e-300: Delta(second || first) = R*_G1 = Phi(-1/2), Lemma 4
    with the composition's R* = 0 up to its own bound)."""
    code, out, _ = run(capsys, "compare", "laplace(eps=1)^100000", "gaussian(mu=1)")
    assert code == 0 and "-0 " not in out and "= -0" not in out
    data = _json(capsys, "laplace(eps=1)^100000", "gaussian(mu=1)")
    bw = data["delta_backward"]
    assert bw["lower"] <= float(mpmath.ncdf(-0.5)) <= bw["upper"]
    assert data["first_curve"] == "bounds"
