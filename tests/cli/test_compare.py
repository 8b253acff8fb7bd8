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


def _png_size(path):
    """(width, height) from the PNG signature and IHDR chunk."""
    import struct

    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def test_plot_draws_the_comparison_curves_and_its_numbers(capsys, tmp_path, monkeypatch):
    """``--plot`` draws what the comparison computed: the two exact trade-off functions (against
    G_1 from scipy's normal quantiles and f_{1,0} = max(0, 1 - e alpha, (1 - alpha)/e) in closed
    form), the two Bayes error functions (against min over a fine alpha grid of
    pi alpha + (1 - pi) f(alpha), Kaissis et al. 2024, eq. (2)), a title with the two Delta of the
    JSON output, whose values are the largest gaps between the drawn Bayes curves (Corollary 1);
    the PNG is 9.2 inches wide at 110 dpi with both curves' colours in both panels."""
    import numpy as np
    from matplotlib import image
    from scipy import stats

    from dptheory import plots

    drawn = []
    real_draw = plots.draw
    monkeypatch.setattr(plots, "draw", lambda panels, path, **kw: (drawn.append(list(panels)), real_draw(panels, path, **kw))[1])
    path = tmp_path / "cmp.png"
    code, _, _ = run(capsys, "compare", "gaussian(mu=1)", "rr(eps=1)", "--plot", str(path))
    assert code == 0 and len(drawn) == 1
    trade, bayes = drawn[0]
    data = _json(capsys, "gaussian(mu=1)", "rr(eps=1)")
    curves = {s.label: s for s in trade.series}
    a = np.asarray(curves["gaussian(mu=1)"].x, dtype=float)
    gauss = stats.norm.cdf(stats.norm.ppf(1 - a) - 1.0)
    rr = np.maximum.reduce([np.zeros_like(a), 1 - math.e * a, (1 - a) / math.e])
    assert np.allclose(curves["gaussian(mu=1)"].y, gauss, atol=1e-12)
    assert np.allclose(curves["rr(eps=1, k=2)"].y, rr, atol=1e-12)
    assert np.array_equal(curves["Id (no information)"].y, 1 - a)
    # R(pi) = min_alpha pi alpha + (1 - pi) f(alpha): for G_1 at alpha = Phi(-z), where
    # phi(z - 1)/phi(z) = pi/(1 - pi), z = logit(pi) + 1/2; for f_{1,0} at one of its knots
    pis = np.asarray(bayes.series[0].x, dtype=float)
    with np.errstate(divide="ignore"):
        z = np.log(pis) - np.log1p(-pis) + 0.5
    exact = {"gaussian(mu=1)": np.nan_to_num(pis * stats.norm.cdf(-z) + (1 - pis) * stats.norm.cdf(z - 1.0)),
             "rr(eps=1, k=2)": np.minimum.reduce([pis, 1 - pis, np.full_like(pis, 1 / (1 + math.e))])}
    r = {}
    for s in bayes.series:
        assert np.array_equal(s.x, pis) and np.allclose(s.y, exact[s.label], rtol=0, atol=1e-12), s.label
        r[s.label] = np.asarray(s.y, dtype=float)
    forward, backward = data["delta_forward"], data["delta_backward"]
    assert f"Delta = {forward['upper']:.3g} (first||second), {backward['upper']:.3g} (second||first)" in bayes.title
    gap_fw = np.max(r["gaussian(mu=1)"] - r["rr(eps=1, k=2)"])
    gap_bw = np.max(r["rr(eps=1, k=2)"] - r["gaussian(mu=1)"])
    assert forward["lower"] - 1e-12 <= gap_fw <= forward["upper"] + 1e-12  # attained at pi = 1/2, on the grid
    # the best backward prior (1/(1 + e)) is off the grid: each R is 1-Lipschitz, so the largest drawn
    # gap is within twice the half grid step of Delta
    half_step = 0.5 * (pis[1] - pis[0])
    assert backward["upper"] - 2 * half_step <= gap_bw <= backward["upper"] + 1e-12
    width, height = _png_size(path)
    assert width == 1012 and 400 < height < 600  # two panels, the legend and key under them
    pixels = image.imread(path)[..., :3]
    for color in plots._pyplot().get_cmap("tab10").colors[:2]:  # one colour per curve, across both panels
        near = np.all(np.abs(pixels - np.array(color)) < 0.02, axis=-1)
        assert near[:, :506].sum() > 200 and near[:, 506:].sum() > 200


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
