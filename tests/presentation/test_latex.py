"""LaTeX for a paper (dptheory.presentation.latex): text with inline math, numbers, booktabs tables
with one notation and fixed significant figures per column, documents that pdflatex compiles, and
the Jupyter displays of results and curves."""

import re

import mpmath
import pytest

from dptheory import catalogue, profile
from dptheory.presentation import latex
from dptheory.presentation.cells import Missing, Number
from dptheory.results import Curve, Kind, Status
from tests.oracles.pdflatex import compile_tex

GDP_DELTA_PAPER = (r"\Phi\left(\frac{\mu}{2} - \frac{\epsilon}{\mu}\right) - e^{\epsilon} "
                   r"\Phi\left(- \frac{\epsilon}{\mu} - \frac{\mu}{2}\right)")


def test_escape_and_numbers():
    assert latex.escape("a_b & 50% #1 §2 ~x^2 {y}") == (r"a\_b \& 50\% \#1 \S{}2 \textasciitilde{}x"
                                                        r"\textasciicircum{}2 \{y\}")
    assert latex.escape("ε ≤ 1") == r"$\epsilon$ $\leq$ 1"
    assert latex.number("1.5e-08") == r"$1.5\times 10^{-8}$"
    assert latex.number("1e+06") == r"$10^{6}$"
    assert latex.number("0.25") == "0.25" and latex.number("n/a") == "n/a"


def test_text_keeps_inline_math_and_escapes_the_rest():
    """A note with math (what a condition's failure says) is typeset as math, not escaped
    (the report showed the literal text "$\\epsilon_{0} \\leq \\frac{1}{2}$")."""
    note = r"efmrtt19 does not hold at $\epsilon_0 = 1$: condition $\epsilon_{0} \leq \frac{1}{2}$ fails (50% off)"
    out = latex.text(note)
    assert r"$\epsilon_{0} \leq \frac{1}{2}$" in out and r"$\epsilon_0 = 1$" in out
    assert r"50\% off" in out and r"\$" not in out
    assert latex.text(r"costs \$5") == r"costs \$5"


def _table_rows():
    return [
        {"method": latex.Cited("clones", ("feldman2021hiding",)), "kind": "upper",
         "lower": Number(0.0050116, "down"), "upper": Number(0.00501236, "up")},
        {"method": "exact", "kind": "exact", "lower": Missing("too many datasets at $n = 10^6$"),
         "upper": Missing("too many datasets at $n = 10^6$")},
        {"method": "lower", "kind": "lower", "lower": Number(0.0341385, "down"), "upper": Number(0.0341386, "up")},
    ]


def test_table_one_notation_and_fixed_significant_figures_per_column():
    """Every number of a column has the same significant figures in one notation, each end rounded
    outwards (a lower end down, an upper end up); an n/a cell carries a lettered note with the reason;
    a method cell cites its paper; nothing is shrunk."""
    text = latex.table(_table_rows(), ["method", "kind", "lower", "upper"], caption="C", label="tab:x", sig=4)
    lines = text.splitlines()
    assert lines[0].startswith("% dptheory table: needs") and "graphicx" not in lines[0]
    assert lines[1].startswith("% cites: feldman2021hiding")
    assert lines[2] == r"\begin{table}[htbp]" and r"\caption{C}" in text and r"\label{tab:x}" in text
    assert r"\begin{tabular}{llrr}" in text and "resizebox" not in text
    order = [text.index(k) for k in (r"\toprule", r"\midrule", r"\bottomrule")]
    assert order == sorted(order)
    assert r"clones~\cite{feldman2021hiding} & upper & 0.005011 & 0.005013 \\" in text
    assert r"lower & lower & 0.03413 & 0.03414 \\" in text
    assert r"n/a$^{\mathrm{a}}$" in text and r"$^{\mathrm{a}}$\,too many datasets at $n = 10^6$" in text
    sci = latex.table([{"m": "a", "v": Number(1.5e-8, "up")}, {"m": "b", "v": Number(0.25, "up")}], ["m", "v"], sig=3)
    assert r"$1.50\times 10^{-8}$" in sci and r"$2.50\times 10^{-1}$" in sci  # one notation in the column


def test_a_wide_table_is_split_into_blocks_that_repeat_the_row_labels():
    rows = [{"method": f"m{i}", **{f"c{j}": Number(0.123456 + j, "up") for j in range(14)}} for i in range(3)]
    text = latex.table(rows, ["method"] + [f"c{j}" for j in range(14)], caption="wide", label="tab:w")
    assert text.count(r"\begin{tabular}") >= 2 and "resizebox" not in text
    for block in text.split(r"\begin{tabular}")[1:]:
        assert "m0" in block and "m2" in block


def test_document_with_formula_table_and_citation_compiles(tmp_path):
    """A document with a labelled equation, a formula broken over lines (multline), a table with an
    n/a note and citations compiles with no overfull box and no undefined reference."""
    f = catalogue.get("gdp-delta")
    long = catalogue.get("girgis-upper-1")
    body = (latex.equation(f.display_lines(), label="eq:gdp") + latex.equation(long.display_lines(), label="eq:ub1")
            + "Source: " + latex.cite(f.source) + ". See (\\ref{eq:gdp}), (\\ref{eq:ub1}) and Table~\\ref{tab:a}.\n\n"
            + latex.table(_table_rows(), ["method", "kind", "lower", "upper"], caption="A table.", label="tab:a"))
    keys = f.bib_keys + ["feldman2021hiding"]
    path = tmp_path / "doc.tex"
    latex.write_tex(path, latex.document(body, title=r"Test of $\mu$-GDP", bib_keys=keys, bib_name="doc"), keys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.bib", "doc.tex"]
    log = compile_tex(path)
    assert_clean_log(log)


def assert_clean_log(log: str, points: float = 1.0) -> None:
    """No overfull box wider than ``points``, no undefined reference or citation."""
    over = [float(m) for m in re.findall(r"Overfull \\hbox \(([0-9.]+)pt too wide\)", log)]
    assert all(x <= points for x in over), over
    assert "undefined" not in log.lower() or "Reference" not in log, log[-2000:]
    assert not re.search(r"(Reference|Citation) `[^']*' on page \d+ undefined", log)


def test_repr_latex_of_formula_result_and_curve():
    text = catalogue.get("gdp-delta")._repr_latex_()
    assert text.startswith("$") and "$$" not in text
    assert GDP_DELTA_PAPER in text and text.count(r"\mu > 0") == 1 and "proven" in text

    tiny = profile.gdp(1.0, epsilon=40.0)  # delta = 3.9e-343, below the float range
    text = tiny._repr_latex_()
    assert r"\times 10^{-343}" in text and r"\delta \in [" in text
    low, high = re.findall(r"([0-9.]+)\\times 10\^\{-343\}", text)
    with mpmath.workdps(40):
        m, x = mpmath.mpf(1), mpmath.mpf(40)
        exact = mpmath.ncdf(-x / m + m / 2) - mpmath.exp(x) * mpmath.ncdf(-x / m - m / 2)
        assert mpmath.mpf(low + "e-343") <= exact <= mpmath.mpf(high + "e-343")

    upper = tiny.replace(kind=Kind.UPPER)
    assert r"\delta \leq " in upper._repr_latex_()
    approx = tiny.replace(kind=Kind.APPROXIMATION, status=Status.NOT_A_BOUND)
    assert r"\approx" in approx._repr_latex_() and "not a bound" in approx._repr_latex_()

    curve = Curve("rdp", "order", [2.0, 3.0], [0.125, 0.25], [0.375, 0.5], Kind.UPPER, Status.PROVEN, "m", "src")
    text = curve._repr_latex_()
    assert r"\lambda & \epsilon(\lambda)" in text and "2 & [0.125, 0.375]" in text and "3 & [0.25, 0.5]" in text
    # ends rounded outwards: 0.11 is stored above 0.11, so its upper end shows as 0.110001
    text = Curve("rdp", "order", [2.0], [0.1], [0.11], Kind.UPPER, Status.PROVEN, "m", "src")._repr_latex_()
    assert "2 & [0.1, 0.110001]" in text
    long = Curve("rdp", "order", list(range(2, 60)), 0.1, 0.2, Kind.UPPER, Status.PROVEN, "m", "src")
    assert r"\vdots" in long._repr_latex_()


def test_labels_from_parameters_are_distinct_and_safe():
    a = latex.label("tab:shuffle-general", eps0=1.0, n=10**6, delta=1e-8)
    assert a == "tab:shuffle-general-eps0-1-n-1e6-delta-1e-8"
    assert latex.label("tab:shuffle-general", eps0=2.0, n=10**6, delta=1e-8) != a
    assert latex.label("tab:shuffle-grr(d=3)", eps0=0.5, n=1000) == "tab:shuffle-grr-d-3-eps0-0.5-n-1000"
    assert re.fullmatch(r"[A-Za-z0-9.:-]+", latex.label("tab:x", note="a b{c}", value=None))


def test_documents_use_only_the_packages_ci_installs():
    """.ci/run installs texlive-latex-base and texlive-latex-recommended only: lmodern (and the T1
    fonts it stands in for) came through apt's Recommends; the documents use Computer Modern."""
    text = latex.document("x")
    assert "lmodern" not in text and "fontenc" not in text and "resizebox" not in text
