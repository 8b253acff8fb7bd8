"""dptheory.plots: every registered figure renders (small parameters) and is not blank; the data
drawn is the library's own (upper bounds above lower bounds); registration is one line; bad
input is a DomainError that writes nothing."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("matplotlib")
import matplotlib.image  # noqa: E402

from dptheory import plots  # noqa: E402
from dptheory.plots import FIGURES, Panel, Series, register, render  # noqa: E402
from dptheory.shuffle import randomizers as R  # noqa: E402
from dptheory.shuffle.methods import compare  # noqa: E402
from dptheory.validate import DomainError  # noqa: E402

from tests.figures.small import SLOW_RENDER, SMALL  # noqa: E402


def coloured_pixels(path) -> int:
    """Pixels of a colour (not white, grey or black): the lines drawn, not the axes and text."""
    img = matplotlib.image.imread(str(path))[..., :3]
    return int(np.count_nonzero(img.max(axis=-1) - img.min(axis=-1) > 0.25))


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_RENDER else n for n in FIGURES])
def test_every_figure_renders_and_is_not_blank(name, tmp_path):
    path = render(name, tmp_path / f"{name}.png", **SMALL.get(name, {}))
    img = matplotlib.image.imread(str(path))
    assert img.ndim == 3 and img.shape[0] > 100 and img.shape[1] > 100
    assert float(np.var(img)) > 0
    assert coloured_pixels(path) > 20, "no line was drawn"


def test_the_paper_figures_are_registered():
    assert {"amplification-vs-n", "amplification-vs-eps0", "rdp-curves", "wang-figure-1", "wang-figure-2",
            "girgis-figure-2", "chen-figure-3"} <= set(FIGURES)
    for fig in FIGURES.values():
        assert fig.description and callable(fig.function())


def test_a_blank_figure_is_detected(tmp_path):
    """The not-blank check can fail: axes without data have no coloured pixel."""
    path = plots.draw([Panel("empty", "x", "y", [])], tmp_path / "e.png")
    assert coloured_pixels(path) == 0


def test_amplification_data_is_the_library_results():
    panels = FIGURES["amplification-vs-n"].panels(**SMALL["amplification-vs-n"])
    (panel,) = panels
    lines = {s.label: s for s in panel.series}
    assert set(lines) == {"clones", "variation-ratio-lower", "efmrtt19"}
    assert lines["clones"].kind == "upper" and lines["variation-ratio-lower"].kind == "lower"
    for j, n in enumerate(lines["clones"].x):
        direct = {r.method: r for r in compare(R.general_ldp(0.5), n, delta=1e-8,
                                               methods=["clones", "variation-ratio-lower"])}
        assert lines["clones"].y[j] == direct["clones"].upper
        assert lines["variation-ratio-lower"].y[j] == direct["variation-ratio-lower"].lower
        # a proven upper bound lies above a proven lower bound, and the band joins them
        assert lines["variation-ratio-lower"].y[j] <= lines["clones"].y[j]
        bx, lo, hi, _ = panel.band
        assert lo[j] == lines["variation-ratio-lower"].y[j] and hi[j] == lines["clones"].y[j]
    # efmrtt19 needs n >= 1000 and eps0 <= 1/2: it applies at both points
    assert all(math.isfinite(v) for v in lines["efmrtt19"].y)


def test_rdp_curves_upper_above_lower():
    (panel,) = FIGURES["rdp-curves"].panels(eps0="1", n=1000, orders="2,4,8,16")
    lines = {s.method: s for s in panel.series}
    upper, lower = lines["girgis-upper-1"], lines["girgis-lower"]
    assert (upper.kind, lower.kind) == ("upper", "lower")
    assert np.all(np.asarray(upper.y) >= np.asarray(lower.y))
    assert lines["chen-gdp"].kind == "approximation" and lines["chen-gdp"].status == "not a bound"


def test_wang_figure_marks_the_refuted_reduction():
    (panel,) = FIGURES["wang-figure-1"].panels(**SMALL["wang-figure-1"])
    status = {s.label: s.status for s in panel.series}
    assert status == {"variation-ratio": "refuted", "clones": "proven"}


def test_register_is_one_line(tmp_path):
    def squares(k=3):
        return [Panel("squares", "x", "x^2", [Series("x^2", list(range(k)), [x * x for x in range(k)], "exact")])]

    try:
        register("test-squares", "squares, for the test", squares, k=4)
        assert FIGURES["test-squares"].defaults == {"k": 4}
        assert plots.convert("test-squares", "k", "5") == 5
        path = render("test-squares", tmp_path / "s.pdf", k=5)
        assert path.read_bytes().startswith(b"%PDF")
    finally:
        FIGURES.pop("test-squares", None)


def test_a_figure_function_may_draw_its_own_matplotlib_figure(tmp_path):
    def own():
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots()
        ax.plot([0, 1], [0, 1], color="red")
        return fig

    try:
        register("test-own", "a figure drawn by its function", own)
        assert coloured_pixels(render("test-own", tmp_path / "o.png")) > 0
    finally:
        FIGURES.pop("test-own", None)


def test_bad_input(tmp_path):
    with pytest.raises(DomainError, match="figure = 'nope' is unknown: must be one of amplification-vs-n"):
        render("nope", tmp_path / "x.png")
    with pytest.raises(DomainError, match="has no parameter colour"):
        render("chen-figure-3", tmp_path / "x.png", colour="red")
    with pytest.raises(DomainError, match=r"must end in \.png or \.pdf"):
        render("chen-figure-3", tmp_path / "x.jpg")
    with pytest.raises(DomainError, match="does not exist"):
        render("chen-figure-3", tmp_path / "no" / "x.png")
    with pytest.raises(DomainError, match="n = '1e5..1e3' is invalid"):
        render("amplification-vs-n", tmp_path / "x.png", n="1e5..1e3")
    with pytest.raises(DomainError, match="eps0 = 'x'"):
        plots.convert("chen-figure-3", "eps0", "x")
    assert list(tmp_path.iterdir()) == []


def test_derivation_helpers_still_draw(tmp_path):
    rows = [{"eps0": e, "method": m, "ratio": r, "status": s}
            for e in (1.0, 2.0) for m, r, s in (("a", 2.0 * e, "proven"), ("b", 3.0 * e, "refuted"))]
    plots.amplification_panels({("subset", 10**4, 16): rows}, str(tmp_path / "a.png"))
    plots.line_panels({"t": ("n", {"u (upper)": ([1, 10], [1.0, 0.1]), "v (approximation)": ([1, 10], [2.0, 0.2])})},
                      str(tmp_path / "l.png"))
    assert coloured_pixels(tmp_path / "a.png") > 0 and coloured_pixels(tmp_path / "l.png") > 0


def test_fdp_figures_data():
    """shuffle-tradeoff: the certified C(f_Shuffle) lies below the exact curve of its pair
    (Theorem 4.2 as an inequality) and below Id; delta-divergence: Kaissis et al.'s Figure 3 numbers
    (0.005 and 0.034) in the title, and the two Bayes error curves cross (neither dominates)."""
    (panel,) = FIGURES["shuffle-tradeoff"].panels()
    by = {s.method_name: np.asarray(s.y, dtype=float) for s in panel.series}
    lower, pair = by["shuffle-tradeoff:stronger-clones"], by["pq-tradeoff:stronger-clones"]
    assert np.all(lower <= pair + 1e-12) and np.all(lower <= by["identity"] + 1e-12)
    assert not any("Chen" in s.label for s in panel.series)  # the clone pair is Feldman et al.'s
    trade, bayes = FIGURES["delta-divergence"].panels()
    assert [r.label for r in bayes.rulers] == [r"$\Delta(\mathrm{first}\|\mathrm{second}) = 0.00527$",
                                               r"$\Delta(\mathrm{second}\|\mathrm{first}) = 0.0341$"]
    r1, r2 = (np.asarray(s.y, dtype=float) for s in bayes.series[:2])
    assert np.any(r1 > r2 + 1e-6) and np.any(r2 > r1 + 1e-6)


def test_the_docs_show_the_commands_own_output(capsys):
    """docs/sweeps-and-figures.md's `plot --list` output and unknown-figure message omitted
    shuffle-tradeoff and delta-divergence: the docs now show what the commands print."""
    import pathlib

    from dptheory.cli import main

    docs = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "sweeps-and-figures.md").read_text()
    assert main(["plot", "--list"]) == 0
    listing = capsys.readouterr().out
    assert "$ dptheory plot --list\n" + listing in docs
    assert main(["plot", "nope"]) == 2
    message = capsys.readouterr().err.strip()
    assert "$ dptheory plot nope\n" + message + "\n" in docs
    for name in FIGURES:
        assert name in listing and name in message
