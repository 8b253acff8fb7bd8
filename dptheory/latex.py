"""LaTeX output: formulas in the papers' notation, booktabs tables, compilable documents, citations.

* :func:`to_latex` prints a sympy expression as a paper would: the standard normal CDF as
  :math:`\\Phi(\\cdot)` and its quantile as :math:`\\Phi^{-1}(\\cdot)` (the toolkit's expressions
  write them with ``erfc``/``erfcinv``, exact in the tails; the printer rewrites them back),
  binomial coefficients as :math:`\\binom{n}{k}`, named functions (``\\max``, ``\\log``,
  ``\\lfloor\\cdot\\rfloor``) as such, and a leading positive term first.
* :func:`booktabs` lays out a table with the booktabs rules; numbers in ``1.2e-08`` form become
  :math:`1.2\\times 10^{-8}`.
* :func:`document` wraps a body into a complete document that pdflatex compiles, with a
  bibliography of the cited keys from :func:`bibliography_path` (``dptheory/references.bib``).
* :func:`cite_keys` maps a formula's or a result's ``source`` text to the BibTeX keys of the
  papers it names (:data:`CITATIONS`: one line per paper).

The packages used are those of a base TeX Live (texlive-latex-base and -recommended): amsmath,
amssymb, booktabs, graphicx, geometry; the documents use the default Computer Modern fonts (no
lmodern, which only arrives through apt's Recommends). Wide formulas and tables are shrunk to the
line width (never enlarged) by plain box code (:func:`fit`), with no macro of the toolkit's own,
so that a table or fragment pasted into any paper compiles with the standard packages named in
its first comment line.
"""

from __future__ import annotations

import functools
import math
import pathlib
import re
from typing import Iterable, Sequence

#: (pattern, BibTeX key): a source text that matches the pattern cites the key. The patterns are
#: the ways the toolkit's sources name each paper (author list and year). One line per paper.
CITATIONS: tuple[tuple[str, str], ...] = (
    (r"Wang et al\.?,? \(?2024|Wang, Peng", "wang2024variation"),
    (r"Wang et al\.?,? \(?2023|Wang, Su, Ye|Unified Enhancement", "wang2023unified"),
    (r"Chen, Cao, Ge|Chen et al\.?,? \(?2024", "chen2024renyi"),
    (r"Girgis", "girgis2021renyi"),
    (r"Kaissis", "kaissis2024beyond"),
    (r"Feldman, McMillan, Talwar \(?2021|Feldman et al\.?,? \(?202[12]", "feldman2021hiding"),
    (r"Feldman, McMillan, Talwar \(?2023|Feldman et al\.?,? \(?2023", "feldman2023stronger"),
    (r"Erlingsson", "erlingsson2019amplification"),
    (r"Dong, Roth, Su|Dong et al\.?,? \(?2022", "dong2022gaussian"),
    (r"Mironov", "mironov2017renyi"),
    (r"Balle et al\.?,? \(?2020", "balle2020hypothesis"),
    (r"Balle et al\.?,? \(?2019|Balle et al\.\)|constants as implemented by Balle|Balle, Bell", "balle2019privacy"),
    (r"Kairouz et al\.?,? \(?2014", "kairouz2014extremal"),
    (r"Kairouz, Oh, Viswanath,? \(?2015", "kairouz2015composition"),
    (r"Kairouz, Oh, Viswanath(?!,? \(?2015)", "kairouz2016extremal"),
    (r"Duchi et al\.?,? \(?2013", "duchi2013local"),
    (r"Cheu and Zhilyaev", "cheu2022differentially"),
)

#: the packages :func:`document` loads (a fragment of formulas needs them in the including document)
PACKAGES = ("amsmath", "amssymb", "booktabs", "graphicx")
#: the packages a table of :func:`booktabs` needs (its first line says so)
TABLE_PACKAGES = ("booktabs", "graphicx")


def fit(content: str) -> str:
    """LaTeX that typesets ``content`` (horizontal material) at its natural width, or shrunk to
    the line width when it is wider (never enlarged): scratch box 0 in a group and graphicx's
    ``\\resizebox``, no macro to define, so that it compiles wherever graphicx is loaded."""
    return ("\\begingroup\\sbox0{%\n" + content + "}%\n"
            "\\ifdim\\wd0>\\linewidth\\resizebox{\\linewidth}{!}{\\usebox0}\\else\\usebox0\\fi\\endgroup")


# ------------------------------------------------------------------------------ formulas
@functools.lru_cache(maxsize=None)
def _notation():
    """The sympy classes of the paper notation, built on first use (sympy is imported lazily:
    the numeric commands that print booktabs tables never need it)."""
    import sympy as sp
    from sympy.printing.latex import LatexPrinter

    class NormalCDF(sp.Function):
        """The standard normal CDF, for printing only (the toolkit evaluates the erfc form)."""

        nargs = 1

    class NormalQuantile(sp.Function):
        """The standard normal quantile, for printing only."""

        nargs = 1

    named = (NormalCDF, NormalQuantile)

    def _linear(arg):
        # distribute numeric factors over sums, nothing else (no log or power expansion)
        return sp.expand(arg, deep=False, log=False, power_exp=False, power_base=False, multinomial=False)

    def rewrite(expr):
        """erfc, erf, erfcinv and erfinv written with Phi and Phi^{-1}."""
        if not isinstance(expr, sp.Basic):
            return expr
        return expr.replace(
            sp.erfc, lambda u: 2 * NormalCDF(_linear(-sp.sqrt(2) * u))
        ).replace(
            sp.erf, lambda u: 2 * NormalCDF(_linear(sp.sqrt(2) * u)) - 1
        ).replace(
            sp.erfcinv, lambda v: -NormalQuantile(_linear(v / 2)) / sp.sqrt(2)
        ).replace(
            sp.erfinv, lambda v: NormalQuantile(_linear((v + 1) / 2)) / sp.sqrt(2)
        )

    class PaperPrinter(LatexPrinter):
        """sympy's LaTeX printer with the papers' notation (see the module docstring)."""

        _root = None

        def doprint(self, expr):
            self._root = expr
            return super().doprint(expr)

        def _print_NormalCDF(self, expr, exp=None):
            tex = r"\Phi\left(%s\right)" % self._print(expr.args[0])
            return tex if exp is None else r"%s^{%s}" % (tex, exp)

        def _print_NormalQuantile(self, expr, exp=None):
            tex = r"\Phi^{-1}\left(%s\right)" % self._print(expr.args[0])
            return tex if exp is None else r"\left(%s\right)^{%s}" % (tex, exp)

        def _print_Symbol(self, expr, style="plain"):
            if expr.name == "pi_prior":
                return r"\pi"
            return super()._print_Symbol(expr, style=style)

        def _print_Mul(self, expr):
            # coefficients before the function applications: e^{eps} Phi(x), not Phi(x) e^{eps}
            phis = [a for a in expr.args if isinstance(a, named)]
            if not phis or len(phis) == len(expr.args):
                return super()._print_Mul(expr)
            rest = sp.Mul(*[a for a in expr.args if not isinstance(a, named)])
            tail = " ".join(self._print(a) for a in sorted(phis, key=sp.default_sort_key))
            if rest == 1:
                return tail
            if rest == -1:
                return "- " + tail
            head = self._print(rest)
            if rest.is_Add:
                head = r"\left(%s\right)" % head
            return f"{head} {tail}"

        def _print_Add(self, expr, order=None):
            terms = list(self._as_ordered_terms(expr, order=order))
            if expr is self._root and terms[0].could_extract_minus_sign():
                # a displayed formula starts with a positive term, as a paper prints it
                for i, term in enumerate(terms):
                    if not term.could_extract_minus_sign():
                        terms = [term] + terms[:i] + terms[i + 1:]
                        break
            tex = ""
            for i, term in enumerate(terms):
                if i > 0 and term.could_extract_minus_sign():
                    tex += " - "
                    term = -term
                elif i > 0:
                    tex += " + "
                term_tex = self._print(term)
                if self._needs_add_brackets(term):
                    term_tex = r"\left(%s\right)" % term_tex
                tex += term_tex
            return tex

    return rewrite, PaperPrinter


def paper_notation(expr):
    """``expr`` with erfc/erf/erfcinv/erfinv rewritten as the normal CDF Phi and its quantile
    (unevaluated sympy functions ``NormalCDF``/``NormalQuantile``: for display only)."""
    rewrite, _ = _notation()
    return rewrite(expr)


def to_latex(expr) -> str:
    """LaTeX of a sympy expression (or relational) in the papers' notation.

    The normal CDF prints as ``\\Phi(...)`` (``erfc(-x/\\sqrt 2)/2`` in the toolkit's
    expressions), its quantile as ``\\Phi^{-1}(...)``, binomial coefficients as ``\\binom``;
    a sum starts with a positive term. The expression itself is not changed.
    """
    rewrite, printer = _notation()
    return printer().doprint(rewrite(expr))


# ------------------------------------------------------------------------------ text and numbers
_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
            "<": r"\textless{}", ">": r"\textgreater{}", "§": r"\S{}"}
_UNICODE = {"ε": r"$\epsilon$", "δ": r"$\delta$", "μ": r"$\mu$", "λ": r"$\lambda$", "α": r"$\alpha$",
            "β": r"$\beta$", "Φ": r"$\Phi$", "Δ": r"$\Delta$", "≤": r"$\leq$", "≥": r"$\geq$",
            "→": r"$\to$", "↔": r"$\leftrightarrow$", "≈": r"$\approx$", "×": r"$\times$", "−": "-",
            "–": "--", "—": "---", "’": "'", "“": "``", "”": "''", "é": r"\'e", "è": r"\`e", "ö": r'\"o',
            "ü": r'\"u', "ä": r'\"a', "√": r"$\surd$", "∞": r"$\infty$", "·": r"$\cdot$"}


def escape(text: str) -> str:
    """Plain text as LaTeX text: the special characters escaped, common Unicode symbols (Greek
    letters, inequalities, dashes) typeset; any other non-ASCII character becomes ``?`` so that
    pdflatex never stops on it."""
    out = []
    for ch in str(text):
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif ch in _UNICODE:
            out.append(_UNICODE[ch])
        elif ord(ch) > 127:
            out.append("?")
        else:
            out.append(ch)
    return "".join(out)


_NUMBER = re.compile(r"^\s*([-+]?)(\d+(?:\.\d*)?|\.\d+)(?:[eE]([-+]?\d+))?\s*$")


def number(text: str) -> str:
    """A formatted number as LaTeX: ``"1.5e-08"`` -> ``$1.5\\times 10^{-8}$``, ``"inf"`` ->
    ``$\\infty$``; the digits are kept as given (the caller rounded them, outwards for bounds)."""
    s = str(text).strip()
    if s in ("inf", "+inf"):
        return r"$\infty$"
    if s == "-inf":
        return r"$-\infty$"
    m = _NUMBER.match(s)
    if not m:
        return s
    sign, mantissa, exponent = m.groups()
    sign = "-" if sign == "-" else ""
    if exponent is None:
        return f"${sign}{mantissa}$" if sign else mantissa
    if float(mantissa) == 1:
        return f"${sign}10^{{{int(exponent)}}}$"
    return f"${sign}{mantissa}\\times 10^{{{int(exponent)}}}$"


def is_number(text: str) -> bool:
    """True when ``text`` is a number :func:`number` typesets (digits with an optional exponent)."""
    return bool(_NUMBER.match(str(text))) or str(text).strip() in ("inf", "+inf", "-inf")


# ------------------------------------------------------------------------------ tables
def booktabs(header: list[str], rows: list[list[str]], *, caption: str | None = None,
             label: str | None = None, floating: bool = True) -> str:
    """A booktabs table (``\\toprule``, ``\\midrule``, ``\\bottomrule``).

    Cells are LaTeX source (pass plain text through :func:`escape`); a cell that is a number in
    ``1.2e-08`` form is typeset as :math:`1.2\\times 10^{-8}` (:func:`number`). Columns whose
    cells are all numbers are right-aligned, the others left-aligned. With a caption or a label
    the table is a ``table`` float (with ``floating=False`` it stays where it is, its caption
    above it as a numbered "Table n:" line); a table wider than the line is shrunk to it
    (:func:`fit`). Needs the packages booktabs and graphicx, and nothing else: the first line is a
    comment that says so.
    """
    if any(len(r) != len(header) for r in rows):
        raise ValueError("booktabs: every row needs as many cells as the header")
    numeric = [all(is_number(r[i]) or r[i] in ("-", "", "n/a") for r in rows) and any(is_number(r[i]) for r in rows)
               for i in range(len(header))]
    spec = "".join("r" if num else "l" for num in numeric)
    body = [r"\begin{tabular}{%s}" % spec, r"\toprule",
            " & ".join(header) + r" \\", r"\midrule"]
    for r in rows:
        body.append(" & ".join(number(c) if is_number(c) else c for c in r) + r" \\")
    body += [r"\bottomrule", r"\end{tabular}"]
    tabular = "\n".join(body)
    fitted = fit(tabular)
    note = f"% dptheory table: needs \\usepackage{{{','.join(TABLE_PACKAGES)}}} (standard LaTeX packages)\n"
    if caption is None and label is None:
        return note + "\\begin{center}\n" + fitted + "\n\\end{center}\n"
    if not floating:
        head = r"\refstepcounter{table}" + (r"\label{%s}" % label if label else "")
        if caption is not None:
            head += r"\tablename~\thetable: %s" % caption
        return (note + "\\begin{center}\n\\begin{minipage}{\\linewidth}\\centering\n" + head + "\\\\[4pt]\n"
                + fitted + "\n\\end{minipage}\n\\end{center}\n")
    lines = [note.rstrip("\n"), r"\begin{table}[htbp]", r"\centering"]
    if caption is not None:
        lines.append(r"\caption{%s}" % caption)
    if label is not None:
        lines.append(r"\label{%s}" % label)
    lines += [fitted, r"\end{table}"]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ documents
def bibliography_path() -> pathlib.Path:
    """The BibTeX file of the papers the toolkit cites (shipped as package data)."""
    return pathlib.Path(__file__).with_name("references.bib")


@functools.lru_cache(maxsize=None)
def _bib_entries() -> dict[str, str]:
    text = bibliography_path().read_text(encoding="utf-8")
    entries = {}
    for m in re.finditer(r"@\w+\{([^,\s]+),.*?\n\}", text, flags=re.S):
        entries[m.group(1)] = m.group(0)
    return entries


def known_keys() -> list[str]:
    """The keys of :func:`bibliography_path`."""
    return list(_bib_entries())


def cite_keys(source: str) -> list[str]:
    """The BibTeX keys of the papers a ``source`` text names (:data:`CITATIONS`), in order of
    appearance, each once; an empty list for a source that names none (a derivation of the
    toolkit's own)."""
    found = []
    for pattern, key in CITATIONS:
        m = re.search(pattern, source)
        if m:
            found.append((m.start(), key))
    keys = []
    for _, key in sorted(found):
        if key not in keys:
            keys.append(key)
    return keys


def cite(source: str) -> str:
    """The source as LaTeX text followed by ``\\cite{...}`` of the papers it names."""
    keys = cite_keys(source)
    text = escape(source)
    return text + (r"~\cite{%s}" % ",".join(keys) if keys else "")


def bibliography(keys: Iterable[str]) -> str:
    """The BibTeX entries of ``keys`` (each once, in the given order)."""
    entries = _bib_entries()
    out, seen = [], set()
    for key in keys:
        if key in seen:
            continue
        if key not in entries:
            raise KeyError(f"no BibTeX entry {key!r} in {bibliography_path()}")
        seen.add(key)
        out.append(entries[key])
    return "\n\n".join(out) + ("\n" if out else "")


def preamble_note() -> str:
    """The comment a fragment starts with: what the including document must load."""
    return f"% dptheory fragment: needs \\usepackage{{{','.join(PACKAGES)}}} in the preamble (standard LaTeX packages)\n"


def label(prefix: str, **params) -> str:
    """A LaTeX label derived from parameters, so that two tables of one paper do not clash:
    ``label("tab:shuffle", eps0=1.0, n=10**6, delta=1e-8)`` is
    ``"tab:shuffle-eps0-1-n-1e6-delta-1e-8"``. Values are written in short form (``%g``, the
    exponent without "+" or leading zeros); any character other than letters, digits, ``.``,
    ``:`` and ``-`` becomes ``-``."""
    parts = [prefix]
    for key, value in params.items():
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            text = str(value)
        else:
            text = f"{float(value):g}"
            mantissa, sep, exponent = text.partition("e")
            if sep:
                text = f"{mantissa}e{int(exponent)}"
        parts.append(f"{key}-{text}")
    return re.sub(r"-+", "-", re.sub(r"[^A-Za-z0-9.:-]", "-", "-".join(parts))).strip("-")


def document(body: str, *, title: str | None = None, bib_keys: Sequence[str] = (),
             bib_name: str = "references") -> str:
    """A complete LaTeX document around ``body``, which pdflatex compiles.

    Parameters
    ----------
    body : str
        LaTeX of the content.
    title : str, optional
        Plain-text title (escaped).
    bib_keys : sequence of str
        The keys cited in ``body``; with any, the document ends with a bibliography read from
        ``{bib_name}.bib`` (write it with :func:`bibliography`), to be run through bibtex.
    bib_name : str
        The name of the .bib file, without the suffix (default ``references``).
    """
    lines = [r"\documentclass[11pt]{article}", r"\usepackage[margin=2.5cm]{geometry}"]
    lines += [r"\usepackage{%s}" % p for p in PACKAGES]
    if title:
        lines += [r"\title{%s}" % escape(title), r"\author{generated by dptheory}", r"\date{}"]
    lines += [r"\begin{document}", r"\sloppy"]
    if title:
        lines.append(r"\maketitle")
    lines.append(body.rstrip("\n"))
    if bib_keys:
        lines += [r"\bibliographystyle{plain}", r"\bibliography{%s}" % bib_name]
    lines.append(r"\end{document}")
    return "\n".join(lines) + "\n"


def display(tex: str) -> str:
    """A displayed formula, shrunk to the line width when wider."""
    return "\\begin{center}\n%s\n\\end{center}\n" % fit("$\\displaystyle %s$" % tex)


# ------------------------------------------------------------------------------ results
_QUANTITY = {"epsilon": r"\epsilon", "delta": r"\delta", "rdp": r"\epsilon(\lambda)", "mu": r"\mu",
             "beta": r"\beta", "tradeoff": r"f(\alpha)", "order": r"\lambda", "alpha": r"\alpha"}


def quantity(name: str) -> str:
    """The LaTeX symbol of a quantity or axis name (``"epsilon"`` -> ``\\epsilon``)."""
    return _QUANTITY.get(name, r"\mathrm{%s}" % escape(name))


def _math_number(text: str) -> str:
    tex = number(text)
    return tex[1:-1] if tex.startswith("$") and tex.endswith("$") else tex


def result_latex(result) -> str:
    """A :class:`~dptheory.results.Result` as LaTeX (for Jupyter): the value with its kind (an
    upper bound as ``\\leq``, a lower bound as ``\\geq``, an exact value as its enclosure, an
    approximation as ``\\approx``), then method, status and source. Ends rounded outwards."""
    from .cli.output import fmt_positive

    sym = quantity(result.quantity)
    lo = _math_number(fmt_positive(result.lower, result.log_lower, "down"))
    hi = _math_number(fmt_positive(result.upper, result.log_upper, "up"))
    kind = str(result.kind)
    if kind == "upper":
        value = f"{sym} \\leq {hi}"
    elif kind == "lower":
        value = f"{sym} \\geq {lo}"
    elif kind == "approximation":
        value = f"{sym} \\approx {hi if lo == hi else f'[{lo}, {hi}]'}"
    else:
        value = f"{sym} \\in [{lo}, {hi}]"
    label = f"{kind}, {result.status}; {result.method}; {result.source}"
    return f"${value}\\quad\\text{{({escape(label)})}}$"


def curve_latex(curve, max_rows: int = 20) -> str:
    """A :class:`~dptheory.results.Curve` as a LaTeX array (for Jupyter): the axis and the
    certified interval of the quantity at each point (lower ends rounded down, upper ends up);
    long curves show their first and last points."""
    from .cli.output import fmt, fmt_bound

    n = len(curve)
    idx = list(range(n)) if n <= max_rows else list(range(max_rows // 2)) + [None] + list(range(n - max_rows // 2, n))
    rows = []
    for i in idx:
        if i is None:
            rows.append(r"\vdots & \vdots \\")
            continue
        x = _math_number(fmt(float(curve.grid[i])))
        lo = _math_number(fmt_bound(float(curve.lower[i]), "down"))
        hi = _math_number(fmt_bound(float(curve.upper[i]), "up"))
        cell = lo if lo == hi else f"[{lo}, {hi}]"
        rows.append(f"{x} & {cell} \\\\")
    label = f"{curve.method}: {curve.kind}, {curve.status}; {curve.source}"
    head = f"{quantity(curve.axis)} & {quantity(curve.quantity)} \\\\ \\hline"
    return ("$$\\begin{array}{r|l}\n\\multicolumn{2}{l}{\\text{%s}} \\\\\n%s\n%s\n\\end{array}$$"
            % (escape(label), head, "\n".join(rows)))


def fmt_float(value: float) -> str:
    """A float as a short LaTeX number (6 significant digits, to nearest): for parameters."""
    if value == math.inf:
        return r"\infty"
    return _math_number(f"{value:.6g}")


# ------------------------------------------------------------------------------ files
def writable_path(path, *, suffix: str | None = ".tex", directory: bool = False) -> pathlib.Path:
    """``path`` checked before anything is written to it.

    For a file (``directory=False``): it must end in ``suffix`` and its directory must exist and
    be writable; neither it nor its ``.bib`` sibling may be a directory. For an output
    directory: it may exist (as a directory) or be created in an existing, writable parent.
    Raises :class:`~dptheory.validate.DomainError` (exit status 2 on the command line) naming the
    path and what is wrong.
    """
    import os

    from .validate import DomainError

    target = pathlib.Path(path)
    if suffix is not None and target.suffix != suffix:
        raise DomainError(f"output: {str(path)!r} must end in {suffix}")
    if directory and target.exists() and not target.is_dir():
        raise DomainError(f"output: cannot write into {str(path)!r}: it is not a directory")
    parent = target if directory and target.exists() else target.parent
    if parent.exists() and not parent.is_dir():
        raise DomainError(f"output: cannot write {str(path)!r}: {str(parent)!r} is not a directory")
    if not parent.is_dir():
        raise DomainError(f"output: cannot write {str(path)!r}: directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK):
        raise DomainError(f"output: cannot write {str(path)!r}: directory {str(parent)!r} is not writable")
    for existing in (target, target.with_suffix(".bib")) if not directory else ():
        if existing.is_dir():
            raise DomainError(f"output: cannot write {str(existing)!r}: it is a directory")
    return target


def write_tex(path, text: str, bib_keys: Sequence[str] = ()) -> list[pathlib.Path]:
    """Write ``text`` to ``path`` (a ``.tex`` file) and, when keys are cited, their BibTeX entries
    to the sibling ``.bib`` (same stem), which the document's ``\\bibliography`` names. Nothing
    else is written. Returns the paths written.

    Raises :class:`~dptheory.validate.DomainError` for a path that cannot be written.
    """
    from .validate import DomainError

    target = writable_path(path)
    bib_text = bibliography(bib_keys) if bib_keys else None
    written = []
    try:
        target.write_text(text, encoding="utf-8")
        written.append(target)
        if bib_text is not None:
            bib = target.with_suffix(".bib")
            bib.write_text(bib_text, encoding="utf-8")
            written.append(bib)
    except OSError as exc:
        raise DomainError(f"output: cannot write {str(path)!r}: {exc.strerror or exc}") from exc
    return written


def formulas_body(formulas, *, level: str = "subsection") -> tuple[str, list[str]]:
    """LaTeX of formulas (``dptheory latex``): for each, its description, the formula in the
    papers' notation, its validity conditions (merged, typeset once), kind, status, source with
    ``\\cite`` of the papers it names, and the erratum applied. Returns the body and the keys
    cited (each once)."""
    keys: list[str] = []
    parts = []
    for f in formulas:
        title = r"\texttt{%s}" % escape(f.name) + (f": {escape(f.description)}" if f.description else "")
        lines = [r"\%s*{%s}" % (level, title), display(f.latex())]
        names = f.where_latex()
        if names:
            lines.append(r"\noindent where")
            lines.extend(display(text) for text in names)
        conditions = f.conditions_latex()
        if not conditions:
            lines.append(r"\noindent\textbf{Valid for} all values of the parameters.\\")
        elif sum(len(c) for c in conditions) < 160:
            lines.append(r"\noindent\textbf{Valid for} $%s$.\\" % f.conditions_line())
        else:
            lines.append(r"\noindent\textbf{Valid for}")
            lines.append("\\begin{itemize}\n" + "\n".join(r"\item " + fit("$%s$" % c) for c in conditions)
                         + "\n\\end{itemize}")
        status = "" if f.status is None else f", {f.status}"
        lines.append(r"\textbf{Kind:} %s%s.\\" % (escape(str(f.kind)), escape(status)))
        lines.append(r"\textbf{Source:} %s." % cite(f.source))
        if f.erratum:
            lines[-1] += r"\\"
            lines.append(r"\textbf{Erratum:} %s." % escape(f.erratum.rstrip(".")))
        for key in cite_keys(f.source):
            if key not in keys:
                keys.append(key)
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts), keys


#: the paragraph a document of formulas starts with
FORMULAS_INTRO = ("Each closed form of the toolkit in the papers' notation, with the conditions under which it "
                  "holds, its kind (an upper or lower bound, an exact value, or an approximation that is not a "
                  "bound), its proof status and its source.")


def formulas_document(formulas, *, fragment: bool = False, bib_name: str = "references") -> tuple[str, list[str]]:
    """The LaTeX text of ``dptheory latex``: the formulas (:func:`formulas_body`) as a complete
    document (a section each, an introduction, a bibliography read from ``{bib_name}.bib``) or,
    with ``fragment``, as a fragment to ``\\input`` into a paper (a subsection each, after a
    comment naming the packages it needs and the .bib its citations come from). Returns the text
    and the BibTeX keys cited."""
    body, keys = formulas_body(formulas, level="subsection" if fragment else "section")
    if fragment:
        cites = f"% citations: \\cite keys from {bib_name}.bib\n" if keys else ""
        return preamble_note() + cites + body, keys
    return document(FORMULAS_INTRO + "\n\n" + body, title="Closed forms of dptheory", bib_keys=keys,
                    bib_name=bib_name), keys


def write_formulas(names: Sequence[str], path, *, fragment: bool = False) -> list[pathlib.Path]:
    """Write the formulas named (every formula of :func:`dptheory.catalogue.catalogue` when
    ``names`` is empty) to ``path`` (:func:`formulas_document`) and the cited papers' BibTeX
    entries to the .bib beside it; nothing else. Returns the paths written.

    Raises :class:`~dptheory.validate.DomainError` for an unknown name (listing the known ones)
    or a path that cannot be written, before anything is written."""
    from . import catalogue

    formulas = [catalogue.get(name) for name in names] if names else list(catalogue.catalogue().values())
    target = writable_path(path)
    text, keys = formulas_document(formulas, fragment=fragment, bib_name=target.stem)
    return write_tex(target, text, keys)
