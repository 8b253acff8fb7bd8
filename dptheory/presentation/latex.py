"""LaTeX for a paper: text with inline math, numbers, booktabs tables, displayed formulas,
documents and citations.

* :func:`text` writes text with inline ``$math$`` as LaTeX: the math kept, the rest escaped.
* :func:`table` lays out rows of cells (:mod:`.cells`) as a booktabs table: every numeric column
  in one notation with a fixed number of significant figures (:func:`dptheory.presentation.
  numbers.column`), each end rounded towards its direction; a missing value as "n/a" with a
  lettered note giving the reason below the table; a method cell (:class:`Cited`) with its
  ``\\cite``. A table wider than the text is split into blocks of columns by the caller
  (:func:`column_blocks`); nothing is ever shrunk.
* :func:`equation` typesets a displayed formula (``equation``, or ``multline`` for one broken over
  lines by :func:`dptheory.presentation.notation.display_lines`), with a ``\\label``.
* :func:`document` wraps a body into a complete document that pdflatex compiles, with a
  bibliography of the cited keys (:mod:`.citations`).

The packages used are those of a base TeX Live (texlive-latex-base and -recommended): amsmath,
amssymb, booktabs; the documents use the default Computer Modern fonts. A table or fragment
pasted into a paper needs only the packages named in its first comment line.
"""

from __future__ import annotations

import dataclasses
import pathlib
import re
from typing import Any, Sequence

from .cells import Missing, Number, split_math
from .citations import bibliography, cite_keys
from .numbers import SIG, Formatted, column, fmt, fmt_bound, fmt_positive, scaled_column

#: the packages :func:`document` loads (a fragment of formulas needs them in the including document)
PACKAGES = ("amsmath", "amssymb", "booktabs", "graphicx")
#: the packages a table of :func:`table` needs (its first line says so)
TABLE_PACKAGES = ("booktabs",)
#: the text width (pt) a table pasted into a paper must fit by default: the standard article class
#: at 10 pt (345 pt); a two-column paper has about 240 pt, the documents dptheory writes 453 pt
TEXTWIDTH = 345.0
#: the text width of the documents :func:`document` writes (an 11 pt article with 2.5 cm margins)
DOCUMENT_TEXTWIDTH = 453.0
#: the width (pt) of an average character of a table in \\small (10 pt Computer Modern), and of the
#: separation between two columns (2 \\tabcolsep)
_CHARACTER_PT, _SEPARATION_PT = 5.0, 12.0


# ------------------------------------------------------------------------------ text
_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
            "<": r"\textless{}", ">": r"\textgreater{}", "§": r"\S{}"}
_UNICODE = {"ε": r"$\epsilon$", "δ": r"$\delta$", "μ": r"$\mu$", "λ": r"$\lambda$", "α": r"$\alpha$",
            "β": r"$\beta$", "Φ": r"$\Phi$", "Δ": r"$\Delta$", "≤": r"$\leq$", "≥": r"$\geq$",
            "→": r"$\to$", "↔": r"$\leftrightarrow$", "≈": r"$\approx$", "×": r"$\times$", "−": "-",
            "–": "--", "—": "---", "’": "'", "“": "``", "”": "''", "é": r"\'e", "è": r"\`e", "ö": r'\"o',
            "ü": r'\"u', "ä": r'\"a', "√": r"$\surd$", "∞": r"$\infty$", "·": r"$\cdot$"}


def escape(plain_text: str) -> str:
    """Plain text as LaTeX text: the special characters escaped, common Unicode symbols (Greek
    letters, inequalities, dashes) typeset; any other non-ASCII character becomes ``?`` so that
    pdflatex never stops on it. Use :func:`text` for text that holds inline math."""
    out = []
    for ch in str(plain_text):
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif ch in _UNICODE:
            out.append(_UNICODE[ch])
        elif ord(ch) > 127:
            out.append("?")
        else:
            out.append(ch)
    return "".join(out)


#: a path of the toolkit (a page of docs/ with its anchor, derivations/script.py, dptheory.module.NAME) in text
_PATH = re.compile(r"\b(?:docs|derivations|tests|benchmarks|dptheory)[/.][\w./#\-\[\]']+[\w\]]")


def _path(path: str) -> str:
    """A path in typewriter type, breakable after its separators (it may be longer than a line)."""
    out = []
    for ch in path:
        out.append(escape(ch))
        if ch in "/#.-_":
            out.append(r"\allowbreak{}")
    return r"\texttt{%s}" % "".join(out)


def text(source: str) -> str:
    """Text with inline math between ``$`` signs (the toolkit's notes, sources, errata and
    descriptions) as LaTeX: the math kept as it is, paths of the toolkit in typewriter type
    (breakable), the rest escaped (:func:`escape`)."""
    out = []
    for is_math, piece in split_math(str(source)):
        if is_math:
            out.append(f"${piece}$")
            continue
        piece = piece.replace(r"\$", "$")
        pos = 0
        for m in _PATH.finditer(piece):
            out.append(escape(piece[pos:m.start()]) + _path(m.group(0)))
            pos = m.end()
        out.append(escape(piece[pos:]))
    return "".join(out)


@dataclasses.dataclass(frozen=True)
class Cited:
    """A table cell naming something with the papers it comes from: ``name`` (text with inline
    math) followed by ``\\cite`` of ``keys`` in LaTeX, and by nothing elsewhere."""

    name: str
    keys: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.name


def cite(source: str) -> str:
    """The source as LaTeX text followed by ``\\cite{...}`` of the papers it names."""
    keys = cite_keys(source)
    return text(source) + (r"~\cite{%s}" % ",".join(keys) if keys else "")


# ------------------------------------------------------------------------------ numbers
_NUMBER = re.compile(r"^\s*([-+]?)(\d+(?:\.\d*)?|\.\d+)(?:[eE]([-+]?\d+))?\s*$")


def number(formatted: str) -> str:
    """A formatted number as LaTeX: ``"1.5e-08"`` -> ``$1.5\\times 10^{-8}$``, ``"inf"`` ->
    ``$\\infty$``; the digits are kept as given (the caller rounded them, outwards for bounds)."""
    s = str(formatted).strip()
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
    if float(mantissa) == 1 and "." not in mantissa:
        return f"${sign}10^{{{int(exponent)}}}$"
    return f"${sign}{mantissa}\\times 10^{{{int(exponent)}}}$"


def math_number(formatted: str) -> str:
    """:func:`number` without the ``$`` signs (for use inside math)."""
    tex = number(formatted)
    return tex[1:-1] if tex.startswith("$") and tex.endswith("$") else tex


def is_number(formatted: str) -> bool:
    """True when ``formatted`` is a number :func:`number` typesets (digits with an optional exponent)."""
    return bool(_NUMBER.match(str(formatted))) or str(formatted).strip() in ("inf", "+inf", "-inf")


def fmt_float(value: float) -> str:
    """A parameter as a short LaTeX number (6 significant digits, to nearest; 1e6 as 10^{6})."""
    if value == float("inf"):
        return r"\infty"
    return math_number(f"{float(value):.6g}")


def formatted_number(cell: Formatted) -> str:
    """A number of :func:`dptheory.presentation.numbers.column` as LaTeX."""
    if cell.word:
        return {"inf": r"$\infty$", "-inf": r"$-\infty$", "-": "--"}.get(cell.word, cell.word)
    if cell.exponent is None:
        return f"${cell.mantissa}$" if cell.mantissa.startswith("-") else cell.mantissa
    return f"${cell.mantissa}\\times 10^{{{cell.exponent}}}$"


_QUANTITY = {"epsilon": r"\epsilon", "delta": r"\delta", "rdp": r"\epsilon(\lambda)", "mu": r"\mu",
             "beta": r"\beta", "tradeoff": r"f(\alpha)", "order": r"\lambda", "alpha": r"\alpha",
             "eps0": r"\epsilon_0", "n": "n", "T": "T", "lam": r"\lambda", "sigma": r"\sigma", "q": "q",
             "p": "p", "rounds": "T", "compositions": "T", "steps": "T"}


def quantity(name: str) -> str:
    """The LaTeX symbol of a quantity, axis or parameter name (``"epsilon"`` -> ``\\epsilon``)."""
    return _QUANTITY.get(name, r"\mathrm{%s}" % escape(name))


def setting(params: dict) -> str:
    """Parameters as inline math, ``$\\epsilon_0 = 1$, $n = 10^{6}$, $\\delta = 10^{-8}$``."""
    return ", ".join(f"${quantity(k)} = {fmt_float(float(v))}$" for k, v in params.items() if v is not None)


# ------------------------------------------------------------------------------ tables
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _is_numeric(cells: Sequence[Any]) -> bool:
    numbers = [c for c in cells if isinstance(c, (Number, float, int)) and not isinstance(c, bool)]
    return bool(numbers) and all(c is None or isinstance(c, (Number, Missing, float, int)) for c in cells)


def _cell_text(cell: Any, keys: list[str]) -> str:
    if cell is None:
        return ""
    if isinstance(cell, Cited):
        for k in cell.keys:
            if k not in keys:
                keys.append(k)
        return text(cell.name) + (r"~\cite{%s}" % ",".join(cell.keys) if cell.keys else "")
    if isinstance(cell, Missing):
        return "n/a"
    return text(str(cell))


_NARROW = set("iljtfr.,:;-()[]'1! ")


def _estimated_width(tex: str) -> float:
    """A rough width of LaTeX in average characters of its font (about 5 pt in \\small): narrow
    letters, digits one and punctuation at 0.6, commands as one character, ``\\cite`` as four."""
    s = re.sub(r"\\cite\{([^}]*)\}", lambda m: "[" + "00, " * (m.group(1).count(",") + 1) + "]", tex)
    s = re.sub(r"\\times 10\^\{(-?\d+)\}", "xxx10xx", s)  # the sign with its spaces, the base, the exponent
    s = re.sub(r"\\[A-Za-z]+", "x", s)
    s = re.sub(r"[{}$~\\]", "", s)
    return sum(0.6 if ch in _NARROW else 1.0 for ch in s)


@dataclasses.dataclass(frozen=True)
class TableText:
    """What :func:`table_body` lays out: the tabular(s), the notes below them, the keys cited."""

    tabulars: list[str]
    notes: list[str]
    keys: list[str]


def column_blocks(columns: Sequence[str], widths: dict[str, float], *, fixed: int = 1,
                  textwidth: float = TEXTWIDTH) -> list[list[str]]:
    """``columns`` split into blocks that fit ``textwidth`` points (``widths``: each column's
    estimated width in characters; each block repeats the first ``fixed`` columns, the row
    labels), as a wide table is printed in a paper: one block when it fits."""
    def pt(cols):
        return sum(widths[c] * _CHARACTER_PT + _SEPARATION_PT for c in cols)

    lead = list(columns[:fixed])
    blocks: list[list[str]] = []
    current: list[str] = []
    for c in columns[fixed:]:
        if current and pt(lead + current + [c]) > textwidth:
            blocks.append(lead + current)
            current = []
        current.append(c)
    blocks.append(lead + current)
    return blocks


def cited_keys(source: str) -> list[str]:
    """The BibTeX keys LaTeX ``source`` cites (every ``\\cite{...}``), each once, in order."""
    keys: list[str] = []
    for group in re.findall(r"\\cite\{([^}]*)\}", source):
        for key in group.split(","):
            if key.strip() and key.strip() not in keys:
                keys.append(key.strip())
    return keys


def table_body(rows: Sequence[dict], columns: Sequence[str], *, headers: Sequence[str] | None = None,
               sig: int = SIG, fixed: int = 1, textwidth: float = TEXTWIDTH,
               shared: bool = False, scaled: bool = False) -> TableText:
    """The tabular(s) of ``rows`` (see :func:`table`): one per block of columns that fits
    ``textwidth``, the lettered notes of the missing values, and the cited keys. With ``shared``,
    the numeric columns (one quantity at several points) share one notation."""
    header = list(headers) if headers is not None else [escape(c) for c in columns]
    keys: list[str] = []
    reasons: list[str] = []
    rendered: dict[str, list[str]] = {}
    numeric = {c: _is_numeric([r.get(c) for r in rows]) for c in columns}
    together = {}
    heads = dict(zip(columns, header))
    if shared:
        numbers_of = [c for c in columns if numeric[c]]
        flat = column([r.get(c) for c in numbers_of for r in rows], sig)
        together = {c: flat[i * len(rows):(i + 1) * len(rows)] for i, c in enumerate(numbers_of)}
    for c in columns:
        cells = [r.get(c) for r in rows]
        if numeric[c]:
            if c in together:
                formatted = together[c]
            elif scaled:
                formatted, power = scaled_column(cells, sig)
                if power is not None:
                    heads[c] = f"{heads[c]} $(10^{{{power}}})$"
            else:
                formatted = column(cells, sig)
            texts = [formatted_number(f) for f in formatted]
        else:
            texts = [_cell_text(cell, keys) for cell in cells]
        for i, cell in enumerate(cells):
            if isinstance(cell, Missing) and cell.reason:
                if cell.reason not in reasons:
                    reasons.append(cell.reason)
                letter = _LETTERS[reasons.index(cell.reason) % len(_LETTERS)]
                texts[i] = f"n/a$^{{\\mathrm{{{letter}}}}}$"
        rendered[c] = texts
    widths = {c: max([_estimated_width(heads[c])] + [_estimated_width(t) for t in rendered[c]]) for c in columns}
    tabulars = []
    for block in column_blocks(columns, widths, fixed=fixed, textwidth=textwidth):
        spec = "".join("r" if numeric[c] else "l" for c in block)
        lines = [r"\begin{tabular}{%s}" % spec, r"\toprule", " & ".join(heads[c] for c in block) + r" \\",
                 r"\midrule"]
        lines += [" & ".join(rendered[c][i] for c in block) + r" \\" for i in range(len(rows))]
        lines += [r"\bottomrule", r"\end{tabular}"]
        tabulars.append("\n".join(lines))
    notes = [f"$^{{\\mathrm{{{_LETTERS[i % len(_LETTERS)]}}}}}$\\,{text(reason)}" for i, reason in enumerate(reasons)]
    return TableText(tabulars, notes, keys)


def table(rows: Sequence[dict], columns: Sequence[str], *, headers: Sequence[str] | None = None,
          caption: str | None = None, label: str | None = None, sig: int = SIG, floating: bool = True,
          fixed: int = 1, note: str | None = None, textwidth: float = TEXTWIDTH,
          shared: bool = False, scaled: bool = False) -> str:
    """A booktabs table of ``rows`` (dicts of cells, :mod:`.cells`) with the given columns.

    Parameters
    ----------
    headers : sequence of str, optional
        LaTeX of the column headers (default: the column names, escaped).
    caption : str, optional
        LaTeX of the caption (text with inline math: pass it through :func:`text`).
    label : str, optional
        The ``\\label`` of the table.
    sig : int
        Significant figures of every number of a numeric column (one notation per column).
    floating : bool
        A ``table`` float (default); False keeps the table where it is, its caption above it as
        a numbered "Table n:" line.
    fixed : int
        How many leading columns label the rows (repeated in each block of a split table).
    note : str, optional
        LaTeX of a note below the table (before the notes of the missing values).
    shared : bool
        One notation for all the numeric columns (one quantity at several points), not one per
        column.
    scaled : bool
        A column that would be scientific is shown in fixed notation in units of a power of ten,
        named in its header (``(10^{-4})``), as papers print wide tables.

    textwidth : float
        The width (pt) the table must fit: :data:`TEXTWIDTH` (the standard article class) by
        default.

    A table wider than ``textwidth`` is split into blocks of columns one under the other, each
    repeating the row labels; nothing is shrunk. Needs the booktabs package (its first line says
    so) and, where a cell cites, the bibliography of the including document.
    """
    body = table_body(rows, columns, headers=headers, sig=sig, fixed=fixed, textwidth=textwidth, shared=shared,
                      scaled=scaled)
    tabulars = "\n\\\\[6pt]\n".join(body.tabulars) if len(body.tabulars) > 1 else body.tabulars[0]
    below = ([note] if note else []) + body.notes
    tail = ("\n\\par\\smallskip\n\\parbox{\\linewidth}{\\raggedright\\footnotesize " + "\\\\\n".join(below) + "}"
            if below else "")
    preamble = f"% dptheory table: needs \\usepackage{{{','.join(TABLE_PACKAGES)}}} (a standard LaTeX package)\n"
    keys = cited_keys(tabulars + (caption or "") + (note or ""))
    if keys:
        preamble += f"% cites: {', '.join(keys)} (BibTeX entries: --bib FILE writes them)\n"
    tabulars = "\\small\n" + tabulars
    if caption is None and label is None:
        return preamble + "\\begin{center}\n" + tabulars + tail + "\n\\end{center}\n"
    if not floating:
        head = r"\refstepcounter{table}" + (r"\label{%s}" % label if label else "")
        if caption is not None:
            head += r"\tablename~\thetable: %s" % caption
        return (preamble + "\\begin{center}\n\\begin{minipage}{\\linewidth}\\centering\n" + head + "\\\\[4pt]\n"
                + tabulars + tail + "\n\\end{minipage}\n\\end{center}\n")
    lines = [preamble.rstrip("\n"), r"\begin{table}[htbp]", r"\centering"]
    if caption is not None:
        lines.append(r"\caption{%s}" % caption)
    if label is not None:
        lines.append(r"\label{%s}" % label)
    lines += [tabulars + tail, r"\end{table}"]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ formulas
def equation(lines: Sequence[str], *, label: str | None = None, numbered: bool = True) -> str:
    """A displayed formula: one line as ``equation``, several (a formula broken where it is too
    wide for the line) as ``multline``; with its ``\\label``. ``lines`` are LaTeX math."""
    star = "" if numbered else "*"
    env = ("equation" if len(lines) == 1 else "multline") + star
    tag = f"\\label{{{label}}}" if label and numbered else ""
    body = " \\\\\n".join(lines)
    return f"\\begin{{{env}}}{tag}\n{body}\n\\end{{{env}}}\n"


# ------------------------------------------------------------------------------ documents
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
            shown = str(value)
        else:
            shown = f"{float(value):g}"
            mantissa, sep, exponent = shown.partition("e")
            if sep:
                shown = f"{mantissa}e{int(exponent)}"
        parts.append(f"{key}-{shown}")
    return re.sub(r"-+", "-", re.sub(r"[^A-Za-z0-9.:-]", "-", "-".join(parts))).strip("-")


def document(body: str, *, title: str | None = None, bib_keys: Sequence[str] = (),
             bib_name: str = "references") -> str:
    """A complete LaTeX document around ``body``, which pdflatex compiles.

    Parameters
    ----------
    body : str
        LaTeX of the content.
    title : str, optional
        The title: text with inline math (:func:`text`).
    bib_keys : sequence of str
        The keys cited in ``body``; with any, the document ends with a bibliography read from
        ``{bib_name}.bib`` (write it with :func:`dptheory.presentation.citations.bibliography`),
        to be run through bibtex.
    bib_name : str
        The name of the .bib file, without the suffix (default ``references``).
    """
    lines = [r"\documentclass[11pt]{article}", r"\usepackage[margin=2.5cm]{geometry}"]
    lines += [r"\usepackage{%s}" % p for p in PACKAGES]
    if title:
        lines += [r"\title{%s}" % text(title), r"\author{generated by dptheory}", r"\date{}"]
    # a paragraph that cannot break without a gap a little wider than the normal one takes it
    # (long names and sources in typewriter type), instead of running into the margin
    lines += [r"\setlength{\emergencystretch}{3em}", r"\begin{document}"]
    if title:
        lines.append(r"\maketitle")
    lines.append(body.rstrip("\n"))
    if bib_keys:
        lines += [r"\bibliographystyle{plain}", r"\bibliography{%s}" % bib_name]
    lines.append(r"\end{document}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ results (Jupyter)
def result_latex(result) -> str:
    """A result as LaTeX (Jupyter): the value with its kind (an upper bound as ``\\leq``, a lower
    bound as ``\\geq``, an exact value as its enclosure, an approximation as ``\\approx``), then
    method, status and source. Ends rounded outwards."""
    sym = quantity(result.quantity)
    lo = math_number(fmt_positive(result.lower, result.log_lower, "down"))
    hi = math_number(fmt_positive(result.upper, result.log_upper, "up"))
    kind = str(result.kind)
    if kind == "upper":
        value = f"{sym} \\leq {hi}"
    elif kind == "lower":
        value = f"{sym} \\geq {lo}"
    elif kind == "approximation":
        value = f"{sym} \\approx {hi if lo == hi else f'[{lo}, {hi}]'}"
    else:
        value = f"{sym} \\in [{lo}, {hi}]"
    return f"${value}$ ({escape(kind)}, {escape(str(result.status))}; {escape(result.method)}; {text(result.source)})"


def curve_latex(curve, max_rows: int = 20) -> str:
    """A curve as a LaTeX array (Jupyter): the axis and the certified interval of the quantity at
    each point (lower ends rounded down, upper ends up); long curves show their first and last
    points."""
    n = len(curve)
    idx = list(range(n)) if n <= max_rows else list(range(max_rows // 2)) + [None] + list(range(n - max_rows // 2, n))
    rows = []
    for i in idx:
        if i is None:
            rows.append(r"\vdots & \vdots \\")
            continue
        x = math_number(fmt(float(curve.grid[i])))
        lo = math_number(fmt_bound(float(curve.lower[i]), "down"))
        hi = math_number(fmt_bound(float(curve.upper[i]), "up"))
        cell = lo if lo == hi else f"[{lo}, {hi}]"
        rows.append(f"{x} & {cell} \\\\")
    head = f"{quantity(curve.axis)} & {quantity(curve.quantity)} \\\\ \\hline"
    caption = f"{escape(curve.method)}: {escape(str(curve.kind))}, {escape(str(curve.status))}; {text(curve.source)}"
    return caption + "\n$$\\begin{array}{r|l}\n%s\n%s\n\\end{array}$$" % (head, "\n".join(rows))


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

    from ..validate import DomainError

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


def write_tex(path, source: str, bib_keys: Sequence[str] = ()) -> list[pathlib.Path]:
    """Write ``source`` to ``path`` (a ``.tex`` file) and, when keys are cited, their BibTeX
    entries to the sibling ``.bib`` (same stem), which the document's ``\\bibliography`` names.
    Nothing else is written. Returns the paths written.

    Raises :class:`~dptheory.validate.DomainError` for a path that cannot be written.
    """
    from ..validate import DomainError

    target = writable_path(path)
    bib_text = bibliography(bib_keys) if bib_keys else None
    written = []
    try:
        target.write_text(source, encoding="utf-8")
        written.append(target)
        if bib_text is not None:
            bib = target.with_suffix(".bib")
            bib.write_text(bib_text, encoding="utf-8")
            written.append(bib)
    except OSError as exc:
        raise DomainError(f"output: cannot write {str(path)!r}: {exc.strerror or exc}") from exc
    return written


def write_bib(path, keys: Sequence[str]) -> list[pathlib.Path]:
    """Write the BibTeX entries of ``keys`` to ``path`` (a ``.bib`` file); returns the path written.
    Raises :class:`~dptheory.validate.DomainError` for a path that cannot be written."""
    from ..validate import DomainError

    target = writable_path(path, suffix=".bib")
    try:
        target.write_text(bibliography(keys), encoding="utf-8")
    except OSError as exc:
        raise DomainError(f"output: cannot write {str(path)!r}: {exc.strerror or exc}") from exc
    return [target]
