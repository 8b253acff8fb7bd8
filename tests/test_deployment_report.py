"""`dptheory report`: Markdown and LaTeX (compiled with pdflatex) of every bound for one setting,
with figures through the plots contract, and clear errors that write nothing."""

import re
import types

import pytest

from dptheory import plots
from dptheory import deployment_report as report_module
from dptheory.cli import main
from tests.oracles.pdflatex import compile_tex
from tests.presentation.test_latex import assert_clean_log

EPS0, N, DELTA = 1.0, 1000, 1e-6
_COMPUTED = {}


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(autouse=True)
def computed_once(monkeypatch):
    """The report's numbers computed once per setting for the whole module (the real
    computation, remembered: it takes seconds)."""
    real = report_module.compute

    def remembered(eps0, n, delta):
        key = (float(eps0), float(n), float(delta))
        if key not in _COMPUTED:
            _COMPUTED[key] = real(eps0, n, delta)
        return _COMPUTED[key]

    monkeypatch.setattr(report_module, "compute", remembered)


@pytest.fixture
def recorded_figures(monkeypatch):
    """The figures contract (dptheory.plots.FIGURES and render, owned by the figures helper)
    replaced by a recorder that draws a real one-line figure with matplotlib, so that the
    report's calls can be checked and its LaTeX compiled with the figures included."""
    calls = []

    def render(name, path, **params):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        calls.append((name, path.suffix, params))
        fig, ax = plt.subplots(figsize=(3, 2))
        ax.plot([0, 1], [0, 1])
        fig.savefig(path)
        plt.close(fig)
        return path

    figures = {"amplification-vs-n": types.SimpleNamespace(defaults={"eps0": 1.0, "delta": 1e-6, "ns": None}),
               "rdp-curves": types.SimpleNamespace(defaults={"eps0": 1.0, "n": 1000, "orders": None})}
    monkeypatch.setattr(plots, "FIGURES", figures, raising=False)
    monkeypatch.setattr(plots, "render", render, raising=False)
    return calls


def _numbers(md, method):
    row = next(line for line in md.splitlines() if line.startswith(f"| {method} |"))
    return [c.strip() for c in row.strip("|").split("|")]


def test_report_markdown_latex_and_figures(tmp_path, capsys, recorded_figures, monkeypatch):
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    out = tmp_path / "report"
    code, printed, _ = run(capsys, "report", "--eps0", str(EPS0), "--n", str(N), "--delta", str(DELTA), "-o", str(out))
    assert code == 0 and "report.tex" in printed
    assert sorted(p.name for p in out.iterdir()) == [
        "amplification-vs-n.pdf", "amplification-vs-n.png", "rdp-curves.pdf", "rdp-curves.png",
        "report.bib", "report.md", "report.tex"]
    assert list(work.iterdir()) == []  # nothing outside the output directory
    # each figure rendered as PNG (Markdown) and PDF (LaTeX), given the parameters it takes
    assert sorted(recorded_figures) == sorted([
        ("amplification-vs-n", ".png", {"eps0": EPS0, "delta": DELTA}),
        ("amplification-vs-n", ".pdf", {"eps0": EPS0, "delta": DELTA}),
        ("rdp-curves", ".png", {"eps0": EPS0, "n": N}), ("rdp-curves", ".pdf", {"eps0": EPS0, "n": N})])

    md = (out / "report.md").read_text()
    # every method of the comparison, its kind and status, its interval rounded outwards
    results = report_module.compute(EPS0, N, DELTA).shuffle  # compare()'s results, computed once
    assert {r.method for r in results} >= {"clones", "variation-ratio-lower", "blanket-bennett"}
    for r in results:
        cells = _numbers(md, r.method)
        d = r.as_dict()
        assert cells[1:3] == [d["kind"], d["status"]]
        if d["applicable"]:
            assert float(cells[3]) <= d["lower"] and float(cells[4]) >= d["upper"]
    # the best proven lower bound beside the upper bounds, in math
    assert re.search(r"- \$\\epsilon \\geq [0-9.]+\$ by [a-z-]+ \((lower|exact), proven\)", md)
    assert re.search(r"- \$\\epsilon \\leq [0-9.]+\$ by ", md)
    assert md.startswith(r"# Privacy amplification by shuffling: $\epsilon_0 = 1$, $n = 1000$, $\delta = 10^{-6}$")
    assert "above lower" in md and "## RDP route" in md and "girgis-upper-1" in md
    gdp = md.split("## Gaussian (GDP) approximation")[1].split("##")[0]
    assert "chen-gdp" in gdp and "not a bound" in gdp and "approximation" in gdp
    assert "![" in md and "(amplification-vs-n.png)" in md

    tex = (out / "report.tex").read_text()
    assert r"\includegraphics[width=\linewidth]{amplification-vs-n.pdf}" in tex
    assert r"\cite{" in tex and r"\bibliography{report}" in tex
    assert r"\title{Privacy amplification by shuffling: $\epsilon_0 = 1$, $n = 1000$, $\delta = 10^{-6}$}" in tex
    assert r"\item $\epsilon \leq " in tex and "resizebox" not in tex
    # a note with math is typeset as math, once (it was escaped, and printed twice)
    assert r"\textbackslash{}" not in tex and r"\$" not in tex
    assert_clean_log(compile_tex(out / "report.tex"))


def test_report_without_figures_needs_no_plots(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(plots, "render", None, raising=False)  # never called with --no-figures
    out = tmp_path / "r"
    code, _, _ = run(capsys, "report", "--eps0", str(EPS0), "--n", str(N), "--delta", str(DELTA), "-o", str(out),
                     "--no-figures")
    assert code == 0 and sorted(p.name for p in out.iterdir()) == ["report.bib", "report.md", "report.tex"]
    assert "includegraphics" not in (out / "report.tex").read_text()


@pytest.mark.parametrize("argv, words", [
    (["--eps0", "-1"], "eps0"),
    (["--delta", "2"], "delta"),
    (["--n", "0"], "n"),
])
def test_bad_parameters_exit_2_and_write_nothing(tmp_path, capsys, argv, words):
    out = tmp_path / "r"
    code, _, err = run(capsys, "report", *argv, "-o", str(out), "--no-figures")
    assert code == 2 and words in err and not out.exists()


def test_unwritable_output_directory_exits_2(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    for target, words in ((tmp_path / "a" / "b", "does not exist"), (blocker, "not a directory")):
        code, _, err = run(capsys, "report", "--n", "1e4", "-o", str(target), "--no-figures")
        assert code == 2 and words in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_report_with_the_real_figures(tmp_path):
    """The figures through the real registry (dptheory.plots): the amplification figure spans two
    decades of n either side of the report's n, and every figure is drawn (not blank)."""
    import matplotlib.image

    calls = []
    real_render = plots.render

    def spy(name, path, **params):
        calls.append((name, params))
        return real_render(name, path, **params)

    report_module_plots = plots
    original = report_module_plots.render
    report_module_plots.render = spy
    try:
        written = report_module.build(1.0, 10**4, 1e-6, tmp_path / "r")
    finally:
        report_module_plots.render = original
    names = {p.name for p in written}
    assert {"amplification-vs-n.png", "rdp-curves.png", "report.tex", "report.md"} <= names
    amplification = dict(calls)["amplification-vs-n"]
    assert amplification["n"] == "1e2..1e6" and amplification["eps0"] == 1.0
    for png in ("amplification-vs-n.png", "rdp-curves.png"):
        assert matplotlib.image.imread(tmp_path / "r" / png).std() > 0
    assert "amplification-vs-n.pdf" in (tmp_path / "r" / "report.tex").read_text()


def test_a_method_that_does_not_apply_says_why_once_in_math(tmp_path, capsys):
    """The efmrtt19 note showed the literal text `$\\epsilon_{0} \\leq \\frac{1}{2}$` (escaped),
    "eps0=1.0, n=1000000.0", and appeared twice (in the notes and the sources). Now its reason is
    the table's lettered note, once, its condition and values in math."""
    out = tmp_path / "r"
    code, _, _ = run(capsys, "report", "--eps0", str(EPS0), "--n", str(N), "--delta", str(DELTA), "-o", str(out),
                     "--no-figures")
    tex = (out / "report.tex").read_text()
    assert code == 0 and tex.count("efmrtt19 does not hold at") == 1
    assert r"condition $\epsilon_{0} \leq \frac{1}{2}$ fails" in tex and r"$n = 1000$" in tex
    assert "n=1000.0" not in tex and "eps0=1.0" not in tex
