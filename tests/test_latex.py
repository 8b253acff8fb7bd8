"""LaTeX in the papers' notation (dptheory.latex), merged validity conditions, BibTeX keys, and
documents that pdflatex compiles."""

import itertools
import math
import re

import mpmath
import pytest
import sympy as sp
from scipy import stats

from dptheory import catalogue, formula, latex, profile
from dptheory import symbols as S
from dptheory.results import Curve, Kind, Status
from tests.oracles.pdflatex import compile_tex

GDP_DELTA_PAPER = (r"\Phi\left(- \frac{\epsilon}{\mu} + \frac{\mu}{2}\right) - e^{\epsilon} "
                   r"\Phi\left(- \frac{\epsilon}{\mu} - \frac{\mu}{2}\right)")


def test_gdp_delta_prints_as_the_paper():
    """Issue 12: gdp-delta printed nested erfc with sqrt(2) factors; Dong, Roth, Su write
    Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)."""
    f = catalogue.get("gdp-delta")
    text = f.latex()
    assert text == r"\delta_\mu(\epsilon) = " + GDP_DELTA_PAPER
    assert "erfc" not in text and "sqrt" not in text and r"\Phi" in text


def _phi_modules():
    """Independent numeric meanings of the printed Phi and Phi^-1: scipy's normal distribution."""
    return [{"NormalCDF": lambda z: stats.norm.cdf(float(z)), "NormalQuantile": lambda u: stats.norm.ppf(float(u))},
            "mpmath"]


@pytest.mark.parametrize("name, point", [
    ("gdp-delta", {"mu": 1.3, "epsilon": 0.7}),
    ("gdp-tradeoff", {"mu": 0.8, "alpha": 0.2}),
    ("gdp-bayes-error", {"mu": 2.0, "pi_prior": 0.3}),
    ("gdp-fixed-point", {"mu": 1.7}),
])
def test_paper_notation_is_the_same_function(name, point):
    """The Phi form printed equals the toolkit's erfc form, Phi evaluated by scipy (not erfc)."""
    f = catalogue.get(name)
    rewritten = latex.paper_notation(f.expr)
    assert not rewritten.has(sp.erfc) and not rewritten.has(sp.erfcinv) and not rewritten.has(sp.erf)
    values = [point[s.name] for s in f.params]
    printed = sp.lambdify(f.params, rewritten, modules=_phi_modules())(*values)
    with mpmath.workdps(30):
        exact = f.mpmath(30)(*values)
    assert math.isclose(float(printed), float(exact), rel_tol=1e-12)


def test_binomials_named_functions_and_phi_inverse():
    assert r"\binom{\lambda}{2}" in catalogue.get("girgis-corollary-3.2").latex()
    assert r"\Phi^{-1}\left(\alpha\right)" in catalogue.get("gdp-tradeoff").latex()
    assert r"\max\left(" in catalogue.get("dp-tradeoff").latex()
    x = sp.Symbol("x", real=True)
    # erf and erfinv are rewritten too: erf(x / sqrt 2) = 2 Phi(x) - 1
    assert latex.to_latex(sp.erf(x / sp.sqrt(2))) == r"2 \Phi\left(x\right) - 1"
    assert latex.to_latex(sp.sqrt(2) * sp.erfinv(2 * x - 1)) == r"\Phi^{-1}\left(x\right)"
    # a leading positive term, at the top level only
    assert latex.to_latex(sp.exp(x) - sp.erfc(x)).startswith("e^{x}")


@pytest.mark.parametrize("name, expected", [
    ("gdp-delta", [r"\mu > 0"]),
    ("rdp-to-dp", [r"\rho \geq 0", r"\lambda > 1", r"0 < \delta < 1"]),
    ("efmrtt19", [r"0 \leq \epsilon_{0} \leq \frac{1}{2}", r"n \in \{1000, 1001, \dots\}",
                  r"0 < \delta \leq \frac{1}{100}"]),
    ("beta-hadamard", [r"\epsilon_{0} \geq 0", r"K \in \{1, 2, \dots\}", r"s \in \{1, 2, \dots\}", "s < K"]),
])
def test_conditions_are_merged_into_their_simplest_set(name, expected):
    """Issue 12: gdp-delta listed "mu >= 0" and "mu > 0" as two lines."""
    assert catalogue.get(name).conditions_latex() == expected


def _merged_predicate(f):
    """A float predicate of the parameters: every merged range and joint condition holds."""
    ranges, joint = formula.merged_conditions(f.params, f.all_conditions())
    # plain symbols: "mu >= 0" would already be True for the nonnegative mu
    plain = [sp.Dummy(s.name, real=True) for s in f.params]
    swap = dict(zip(f.params, plain))
    parts = [ranges[sym].as_relational(x) for sym, x in zip(f.params, plain)] + [c.subs(swap) for c in joint]
    tests = [sp.lambdify(plain, part, modules="math") for part in parts]

    def holds(*values):
        try:  # the ranges first: a joint condition may be undefined outside them
            return all(bool(t(*values)) for t in tests)
        except (ValueError, ZeroDivisionError):
            return False

    return holds


@pytest.mark.parametrize("name", ["gdp-delta", "rdp-to-dp", "efmrtt19", "beta-hadamard", "beta-privunit",
                                  "clones-closed-form", "girgis-corollary-3.2", "dp-tradeoff"])
def test_merged_domain_is_the_domain_the_checks_use(name):
    """The merged conditions describe exactly the parameters Formula.holds accepts (which uses the
    conditions and assumptions as given), on a grid crossing every boundary."""
    f = catalogue.get(name)
    grid = {True: [1, 2, 999, 1000], False: [-1.0, 0.0, 0.004, 0.5, 1.0, 2.0]}
    axes = [grid[bool(s.is_integer)] for s in f.params]
    merged = _merged_predicate(f)
    checked = 0
    for combo in itertools.islice(itertools.product(*axes), 150):
        assert bool(merged(*combo)) == f.holds(*combo), (name, combo)
        checked += 1
    assert checked > 5


# ------------------------------------------------------------------------------ citations
_YEAR = re.compile(r"(19|20)\d\d")


def _all_sources():
    from dptheory.shuffle import rdp as shuffle_rdp
    from dptheory.shuffle.methods import METHODS

    sources = {f.name: f.source for f in catalogue.catalogue().values()}
    for slug, method in METHODS.items():
        src = getattr(method, "source", None)
        if isinstance(src, str):
            sources[f"shuffle:{slug}"] = src
    for slug, method in shuffle_rdp.RDP_METHODS.items():
        sources[f"rdp:{slug}"] = method.source
    return sources


def test_every_source_naming_a_paper_has_a_bibtex_entry():
    """A source that names a paper (an author and a year) cites at least one key, and every key
    cited has an entry in references.bib (so that a document's bibliography resolves)."""
    keys = set(latex.known_keys())
    assert len(keys) == len(latex.known_keys())  # each key once
    missing = []
    for name, source in _all_sources().items():
        cited = latex.cite_keys(source)
        assert set(cited) <= keys, (name, cited)
        if _YEAR.search(source) and not cited:
            missing.append((name, source))
    assert not missing, missing


def test_cite_keys_of_known_sources():
    assert latex.cite_keys("Dong, Roth, Su (2022), Corollary 2.13") == ["dong2022gaussian"]
    assert latex.cite_keys("Wang et al. (2024), Table 1 (Feldman et al. 2023); rate") == [
        "wang2024variation", "feldman2023stronger"]
    assert latex.cite_keys("dptheory: Gaussian limit of the mixed clone pair") == []
    assert "\\cite{girgis2021renyi}" in latex.cite("Girgis, Data, Diggavi, Suresh, Kairouz (CCS 2021), Theorem 3.1")


def test_the_five_digested_papers_are_in_the_bibliography():
    keys = set(latex.known_keys())
    assert {"wang2023unified", "chen2024renyi", "wang2024variation", "kaissis2024beyond",
            "girgis2021renyi"} <= keys
    assert latex.bibliography_path().name == "references.bib" and latex.bibliography_path().is_file()


# ------------------------------------------------------------------------------ text and tables
def test_escape_and_numbers():
    assert latex.escape("a_b & 50% #1 §2 ~x^2 {y}") == (r"a\_b \& 50\% \#1 \S{}2 \textasciitilde{}x"
                                                        r"\textasciicircum{}2 \{y\}")
    assert latex.escape("ε ≤ 1") == r"$\epsilon$ $\leq$ 1"
    assert latex.number("1.5e-08") == r"$1.5\times 10^{-8}$"
    assert latex.number("1e+06") == r"$10^{6}$"
    assert latex.number("0.25") == "0.25" and latex.number("n/a") == "n/a"


def test_booktabs_structure():
    text = latex.booktabs(["method", "upper"], [["a", "1.5e-08"], ["b", "n/a"]], caption="C", label="tab:x")
    lines = text.splitlines()
    assert lines[0].startswith("% dptheory table: needs")
    assert lines[1] == r"\begin{table}[htbp]" and r"\caption{C}" in text and r"\label{tab:x}" in text
    assert r"\begin{tabular}{lr}" in text
    order = [text.index(k) for k in (r"\toprule", r"\midrule", r"\bottomrule")]
    assert order == sorted(order)
    assert r"a & $1.5\times 10^{-8}$ \\" in text and r"b & n/a \\" in text
    with pytest.raises(ValueError):
        latex.booktabs(["a", "b"], [["only one"]])


def test_document_with_formula_table_and_citation_compiles(tmp_path):
    f = catalogue.get("gdp-delta")
    body = (latex.display(f.latex_with_conditions()) + "Source: " + latex.cite(f.source) + ".\n\n"
            + latex.booktabs(["method", "upper"], [["gdp", "1.5e-08"]], caption="A table.", label="tab:a")
            + "See Table~\\ref{tab:a}.\n")
    path = tmp_path / "doc.tex"
    latex.write_tex(path, latex.document(body, title="Test", bib_keys=f.bib_keys, bib_name="doc"), f.bib_keys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.bib", "doc.tex"]
    compile_tex(path)


# ------------------------------------------------------------------------------ Jupyter
def test_repr_latex_of_formula_result_and_curve():
    text = catalogue.get("gdp-delta")._repr_latex_()
    assert text.startswith("$") and text.endswith("$") and "$$" not in text
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


def test_integer_ranges():
    m = sp.Symbol("m", integer=True)
    f = formula.Formula("t-int", m + 1, (m,), kind=Kind.EXACT, source="test", conditions=(m < 5,))
    assert f.conditions_latex() == [r"m \in \mathbb{Z},\ m < 5"]
    f = formula.Formula("t-int2", m + 1, (m,), kind=Kind.EXACT, source="test", conditions=(m < 5, m >= -2))
    assert f.conditions_latex() == [r"m \in \{-2, \dots, 4\}"]
    x = sp.Symbol("x", real=True)
    assert formula.Formula("t-real", x, (x,), kind=Kind.EXACT, source="test").conditions_latex() == []


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
    assert "lmodern" not in text and "fontenc" not in text
    assert "dptfit" not in text and "dptfit" not in latex.booktabs(["a"], [["1"]], caption="c", label="tab:c")


def test_fit_shrinks_a_wide_box_and_keeps_a_narrow_one(tmp_path):
    """fit() without any macro: a formula wider than the line is scaled to it, a narrow one is not
    enlarged (the log's overfull-box warnings tell)."""
    wide = "+".join(["x_{%d}" % i for i in range(200)])
    body = latex.display(wide) + latex.display("x + y")
    path = tmp_path / "fit.tex"
    path.write_text("\\documentclass{article}\\usepackage{graphicx}\\begin{document}\n" + body + "\\end{document}\n")
    log = compile_tex(path)
    assert "Overfull \\hbox" not in log


def test_formula_with_named_parts_prints_as_the_paper():
    """Wang et al. (2024), Theorem 4.2 (digest seed-002 §2): epsilon = log(1 + F(Omega)) with F,
    Omega, alpha and r defined after it; it printed as one huge substituted expression. The named
    parts are only the display: the expression is the substituted one, identical to the definitions
    written out here."""
    from dptheory.shuffle import variation_ratio as vr

    f = vr.THEOREM_4_2
    assert f.latex() == r"\epsilon = \log{\left(F{\left(\Omega \right)} + 1 \right)}"
    names = [text.split(" = ")[0] for text in f.where_latex()]
    assert names[:4] == [r"F{\left(C \right)}", r"\Omega", r"\alpha", "r"]
    assert len(f.latex_with_conditions()) < 2000
    assert r"\Omega \geq s_{*}^{2}" in f.conditions_latex() and r"\Omega > 0" in f.conditions_latex()
    # the expression: Appendix F's F at C = Omega, written out from the digest
    beta, delta, n, p, q = f.params[1], f.params[4], f.params[3], f.params[0], f.params[2]
    alpha = beta / (p - 1)
    r = alpha * p / q
    ell = sp.log(4 / delta)
    omega = 2 * r * (n - 1) - sp.sqrt(sp.Min(6 * r, sp.Rational(1, 2)) * (n - 1) * ell)
    F = beta * (2 * sp.sqrt(omega * ell / 2) + 1) / (
        alpha * omega + beta * (omega / 2 - sp.sqrt(omega * ell / 2)) + (1 - alpha - alpha * p) * (n - 1 - omega) * r / (1 - 2 * r))
    point = {p: 3, beta: sp.Rational(1, 2), q: 3, n: 10**5, delta: sp.Rational(1, 10**6)}
    assert abs(sp.N((f.expr - sp.log(1 + F)).subs(point), 50)) < 1e-45
    assert float(f(3.0, 0.5, 3.0, 10**5, 1e-6)) == pytest.approx(float(sp.N(sp.log(1 + F).subs(point), 30)), rel=1e-12)


@pytest.mark.parametrize("name, dropped, kept", [
    ("berry-esseen-gamma", r"v_{2} > 0", r"v_{2} > v_{1}^{2}"),
])
def test_implied_conditions_are_not_typeset(name, dropped, kept):
    """berry-esseen-gamma listed v_2 > 0 beside v_2 > v_1^2 (implied, as v_1^2 >= 0)."""
    shown = catalogue.get(name).conditions_latex()
    assert dropped not in shown and kept in shown


def test_implication_check_is_sound():
    """An end is dropped only when a joint condition proves it; what sympy cannot decide stays."""
    x, y = sp.symbols("x y", real=True)
    pos = sp.Symbol("z", positive=True)
    cases = [
        ((x > 0, x > y**2), [r"x > y^{2}"]),                      # y^2 >= 0: x > 0 implied
        ((x > 0, x > y), [r"x > 0", r"x > y"]),                   # y may be negative: kept
        ((x > 0, y > 1, x >= y), [r"y > 1", r"x \geq y"]),        # x >= y > 1 > 0
        ((x > 0, y >= 0, x >= y), [r"x > 0", r"y \geq 0", r"x \geq y"]),   # x >= y >= 0 gives x >= 0 only
        ((x < 1, x < pos), [r"x < 1", r"x < z"]),                 # z may exceed 1: kept
    ]
    for conditions, expected in cases:
        syms = sorted(set().union(*(c.free_symbols for c in conditions)) - {pos}, key=str)
        f = formula.Formula("test", x, tuple(syms), kind="upper", source="a test", conditions=conditions)
        assert f.conditions_latex() == expected, (conditions, f.conditions_latex())

