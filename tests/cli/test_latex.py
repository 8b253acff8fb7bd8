"""`dptheory latex`, `dptheory formula --latex`, and the --latex tables of `shuffle` and `rdp`:
the documents compile with pdflatex, errors exit 2 and write nothing, numbers are rounded
outwards, and the text tables fit 80 columns."""

import json
import math
import re
from decimal import Decimal

import pytest

from dptheory import catalogue
from dptheory.cli import main
from tests.oracles.pdflatex import compile_tex
from tests.presentation.test_latex import assert_clean_log


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_formula_latex_is_the_paper_form_with_one_merged_condition(capsys):
    """`dptheory formula gdp-delta --latex` printed nested erfc with sqrt(2) factors and two
    "where" lines, "mu >= 0" and "mu > 0". Now it prints what a paper pastes: a labelled equation
    in the papers' notation and its merged validity condition, once."""
    code, out, _ = run(capsys, "formula", "gdp-delta", "--latex")
    assert code == 0 and "erfc" not in out and "sqrt" not in out
    assert out.strip() == ("\\begin{equation}\\label{eq:gdp-delta}\n"
                           r"\delta_\mu(\epsilon) = \Phi\left(\frac{\mu}{2} - \frac{\epsilon}{\mu}\right) - "
                           r"e^{\epsilon} \Phi\left(- \frac{\epsilon}{\mu} - \frac{\mu}{2}\right)" + "\n"
                           "\\end{equation}\n\n\\noindent Valid for $\\mu > 0$.")
    assert out.count(r"\mu > 0") == 1 and r"\geq" not in out


def test_latex_document_of_every_formula_compiles(tmp_path, capsys, monkeypatch):
    """The whole catalogue: a document that pdflatex and bibtex compile without an error or an
    undefined citation, with the .bib beside it; nothing else is written (the working directory
    is another directory)."""
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    code, out, _ = run(capsys, "latex", "-o", str(out_dir / "bounds.tex"))
    assert code == 0 and _files(out_dir) == ["bounds.bib", "bounds.tex"] and _files(work) == []
    text = (out_dir / "bounds.tex").read_text()
    assert "erfc" not in text and r"\bibliography{bounds}" in text
    for f in catalogue.catalogue().values():
        assert r"\texttt{%s}" % f.name.replace("_", r"\_") in text
    assert text.count(r"\Phi\left(") >= 4  # gdp-delta (twice), gdp-tradeoff, gdp-bayes-error, ...
    cited = set(re.findall(r"\\cite\{([^}]*)\}", text))
    keys = {k for group in cited for k in group.split(",")}
    bib = (out_dir / "bounds.bib").read_text()
    assert keys and all(f"{{{k}," in bib for k in keys)
    assert "resizebox" not in text and r"\sloppy" not in text
    log = compile_tex(out_dir / "bounds.tex")
    assert_clean_log(log)


def test_latex_fragment_inputs_into_a_paper(tmp_path, capsys):
    code, _, _ = run(capsys, "latex", "gdp-delta", "rdp-to-dp", "--fragment", "-o", str(tmp_path / "frag.tex"))
    frag = (tmp_path / "frag.tex").read_text()
    assert code == 0 and r"\documentclass" not in frag and r"\begin{document}" not in frag
    assert r"\Phi\left(" in frag and r"\cite{dong2022gaussian}" in frag and "Valid for $\\mu > 0$" in frag
    paper = tmp_path / "paper.tex"
    paper.write_text("\\documentclass{article}\n\\usepackage{amsmath,amssymb,booktabs,graphicx}\n"
                     "\\begin{document}\n\\input{frag}\n\\bibliographystyle{plain}\n\\bibliography{frag}\n"
                     "\\end{document}\n")
    compile_tex(paper)


def test_unknown_formula_exits_2_with_the_known_names_and_writes_nothing(tmp_path, capsys):
    code, out, err = run(capsys, "latex", "gdp-delta", "no-such-formula", "-o", str(tmp_path / "x.tex"))
    assert code == 2 and "no-such-formula" in err and "gdp-delta" in err and "rdp-to-dp" in err
    assert _files(tmp_path) == []


def test_unwritable_output_exits_2_with_a_clear_error(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for target, words in ((tmp_path / "missing" / "x.tex", "does not exist"),
                          (blocker / "x.tex", "is not a directory"),
                          (tmp_path / "x.pdf", "must end in .tex"),
                          (tmp_path / "dir.tex", "is a directory")):
        if target.name == "dir.tex":
            target.mkdir()
        code, _, err = run(capsys, "latex", "gdp-delta", "-o", str(target))
        assert code == 2 and words in err and "output" in err, err
    assert _files(tmp_path) == ["a-file", "dir.tex"]


# ------------------------------------------------------------------------------ --latex tables
def _table_rows(text, notion=None):
    """The body rows of a LaTeX table, citations dropped and (with ``notion``) the methods' titles
    mapped back to their names through the notion's registry."""
    from dptheory import protocol

    titles = {(m.title or m.name): m.name for m in protocol.registry(notion).values()} if notion else {}
    body = text.split(r"\midrule")[1].split(r"\bottomrule")[0]
    rows = [[c.strip() for c in line.rstrip("\\ ").split("&")] for line in body.strip().splitlines()]
    rows = [[re.sub(r"~\\cite\{[^}]*\}", "", c) for c in row] for row in rows]
    return [[titles.get(row[0], row[0])] + row[1:] for row in rows]


def _value(cell):
    """A number back from its LaTeX form ($1.5\\times 10^{-8}$, $10^{6}$, 0.25)."""
    cell = cell.strip("$")
    m = re.fullmatch(r"(?:([-0-9.]+)\\times )?10\^\{(-?\d+)\}", cell)
    if m:
        return float(f"{m.group(1) or '1'}e{m.group(2)}")
    return float(cell)


def test_shuffle_latex_table_encloses_the_certified_intervals(tmp_path, capsys):
    argv = ["shuffle", "--eps0", "1", "--n", "1e5", "--delta", "1e-8", "--methods", "clones,blanket-bennett,efmrtt19"]
    code, out, _ = run(capsys, *argv, "--latex")
    assert code == 0 and r"\toprule" in out and r"\bottomrule" in out and r"\caption{" in out
    code, js, _ = run(capsys, *argv, "--json")
    results = {r["method"]: r for r in json.loads(js)["results"]}
    rows = _table_rows(out, "shuffle")
    assert [r[0] for r in rows] == ["clones", "blanket-bennett", "efmrtt19"]
    assert "Clones~\\cite{feldman2021hiding}" in out  # named readably, cited
    for method, kind, status, lower, upper in rows:
        r = results[method]
        assert (kind, status) == (r["kind"], r["status"])
        if not r["applicable"]:
            assert lower == upper and lower.startswith("n/a$^")  # with a lettered note giving the reason
            continue
        assert _value(lower) <= r["lower"] and _value(upper) >= r["upper"]  # rounded outwards
    _compile_in_a_paper(tmp_path, out)


#: a paper: a table pasted into it must compile as it is, its citations resolved by the .bib that
#: --bib writes
PAPER = ("\\documentclass{article}\\usepackage{amsmath,booktabs}\\begin{document}"
         "\\input{sh.tex}\\bibliographystyle{plain}\\bibliography{sh}\\end{document}\n")


def _compile_in_a_paper(tmp_path, table: str) -> str:
    """Compile the snippet around ``table`` (written to sh.tex, the cited papers' entries to sh.bib
    as --bib writes them); no macro of the toolkit's may be needed, no label defined twice, no
    citation undefined."""
    from dptheory.presentation import latex

    (tmp_path / "sh.tex").write_text(table)
    latex.write_bib(tmp_path / "sh.bib", latex.cited_keys(table))
    paper = tmp_path / "paper.tex"
    paper.write_text(PAPER)
    log = compile_tex(paper)
    assert "multiply defined" not in log
    return log


def test_bib_writes_the_papers_a_table_cites(tmp_path, capsys):
    bib = tmp_path / "refs.bib"
    code, out, _ = run(capsys, "shuffle", "--eps0", "1", "--n", "1e5", "--methods", "clones,efmrtt19", "--latex",
                       "--bib", str(bib))
    assert code == 0 and bib.is_file()
    text = bib.read_text()
    assert "@" in text and "{feldman2021hiding," in text and "{erlingsson2019amplification," in text
    assert "% cites: feldman2021hiding" in out
    code, _, err = run(capsys, "shuffle", "--eps0", "1", "--n", "1e5", "--bib", str(bib))
    assert code == 2 and "--bib" in err and "--latex" in err


def test_latex_tables_need_only_standard_packages_and_say_which(tmp_path, capsys):
    """A `--latex` table wrapped its tabular in \\dptfit{...} without defining it: pdflatex stopped
    with "Undefined control sequence" in a paper. Now its first line names the packages it needs,
    and two tables of different settings (and the two of `rdp`) go into one paper without a label
    clash."""
    code, a, _ = run(capsys, "shuffle", "--eps0", "1", "--n", "1e5", "--delta", "1e-8", "--methods", "clones", "--latex")
    code_b, b, _ = run(capsys, "shuffle", "--eps0", "2", "--n", "1e5", "--delta", "1e-8", "--methods", "clones", "--latex")
    code_c, c, _ = run(capsys, "rdp", "--eps0", "1", "--n", "1e4", "--orders", "2,4", "--methods", "girgis-upper-2",
                       "--latex")
    assert code == code_b == code_c == 0
    for text in (a, b, c):
        assert text.splitlines()[0] == r"% dptheory table: needs \usepackage{booktabs} (a standard LaTeX package)"
        assert "dptfit" not in text
    labels = re.findall(r"\\label\{([^}]*)\}", a + b + c)
    assert len(labels) == 3 and len(set(labels)) == 3, labels
    assert "tab:shuffle-general-eps0-1-n-100000-delta-1e-8" in labels
    _compile_in_a_paper(tmp_path, a + b + c)
    code, d, _ = run(capsys, "shuffle", "--eps0", "1", "--n", "1e5", "--methods", "clones", "--latex",
                     "--label", "tab:mine")
    assert code == 0 and r"\label{tab:mine}" in d


def test_rdp_latex_tables_and_80_columns(tmp_path, capsys):
    """`dptheory rdp` printed a 169-column table; now every line fits 80 columns. The LaTeX table
    has one row per method (kind and status beside it) and one column per order, split into blocks
    of orders where they do not fit the text width (never shrunk); its values are the certified
    ends, rounded outwards (an upper bound up, a lower bound down)."""
    argv = ["rdp", "--eps0", "1", "--n", "1e4", "--orders", "2,4,8,16,32,64,128,256,512"]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 80
    code, js, _ = run(capsys, *argv, "--json")
    curves = {c["method"]: c for c in json.loads(js)["results"]}
    code, tex_out, _ = run(capsys, *argv, "--latex")
    assert code == 0 and tex_out.count(r"\begin{tabular}") >= 2 and "resizebox" not in tex_out
    checked = 0
    for block in tex_out.split(r"\begin{tabular}")[1:]:
        header = block.split(r"\toprule")[1].split(r"\midrule")[0].strip().rstrip("\\ ").split(" & ")
        assert header[:2] == ["method", "kind"]
        orders = [float(re.search(r"\\lambda = ([0-9.]+)", h).group(1)) for h in header[2:]]
        # a column in units of a power of ten names it in its header: "$\lambda = 2$ $(10^{-4})$"
        scales = [10.0 ** int(m.group(1)) if (m := re.search(r"\(10\^\{(-?\d+)\}\)", h)) else 1.0
                  for h in header[2:]]
        for row in _table_rows(r"\midrule" + block.split(r"\midrule")[1], "shuffle-rdp"):
            c = curves[row[0]]
            assert row[1] == {"approximation": "approx."}.get(c["kind"], c["kind"])
            for order, scale, cell in zip(orders, scales, row[2:]):
                if cell in ("-", "", "--"):
                    continue
                i = c["order"].index(order)
                # the decimal value shown, times the exact power of ten (no float rounding of the product)
                shown = Decimal(cell.strip("$")) * Decimal(10) ** round(math.log10(scale))
                if c["kind"] == "upper":
                    assert shown >= Decimal(c["upper"][i])
                elif c["kind"] == "lower":
                    assert shown <= Decimal(c["lower"][i])
                checked += 1
    assert checked > 30
    log = _compile_in_a_paper(tmp_path, tex_out)
    assert_clean_log(log)


def test_rdp_epsilon_table_fits_and_rounds_up(capsys):
    argv = ["rdp", "--eps0", "1", "--n", "1e4", "--delta", "1e-6", "--orders", "2,4,8,16,32",
            "--methods", "girgis-upper-1,girgis-upper-2,erlingsson-rdp,girgis-lower"]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 80
    code, js, _ = run(capsys, *argv, "--json")
    best = {r["method"]: r for r in json.loads(js)["results"]}
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("method"))
    shown = 0
    for line in lines[at + 2:]:
        if not line.strip():
            break
        method, *_, eps, order = line.split()
        assert float(eps) >= best[method]["upper"]  # the upper end, rounded up
        shown += 1
    assert shown == 4
    code, tex_out, _ = run(capsys, *argv, "--latex")
    rows = {r[0]: r for r in _table_rows(tex_out, "shuffle-rdp")}
    assert code == 0 and set(rows) == set(best)
    for method, r in best.items():
        assert _value(rows[method][3]) >= r["upper"]
