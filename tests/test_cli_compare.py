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
    assert code == 2 and "Grammar:" in err and "sgm(sigma=..., p=...)" in err and "shuffle(eps0=..., n=...)" in err


def test_plot(capsys, tmp_path):
    path = tmp_path / "cmp.png"
    code, _, _ = run(capsys, "compare", "gaussian(mu=1)", "rr(eps=1)", "--plot", str(path))
    assert code == 0 and path.exists() and path.stat().st_size > 1000
