"""The report of one deployment setting: every bound on its central (epsilon, delta), as Markdown
and LaTeX, with figures, for a researcher to attach to a paper (``dptheory report``).

For n users of an eps0-LDP randomizer (any; the worst case) shuffled, at a target delta:

1. every (epsilon, delta) method of :func:`dptheory.shuffle.methods.compare`: its kind, proof
   status and certified interval, the tightest proven upper bound and the best proven lower bound
   (or exact value) beside them, and how far each upper bound is above that lower bound;
2. the RDP route: every RDP method's epsilon at delta (:func:`dptheory.shuffle.rdp.epsilons`)
   and its RDP curve at a few orders (:func:`dptheory.shuffle.rdp.rdp_curves`);
3. the Gaussian (GDP) approximations of Chen, Cao, Ge (2024), labelled as approximations, not
   bounds;
4. figures through :func:`dptheory.plots.render` (``amplification-vs-n``, ``rdp-curves``).

Every number is an end of a certified interval rounded outwards for display (lower ends down,
upper ends up; an approximation to nearest); the LaTeX tables give every number of a column the
same significant figures (``sig``) in one notation. The files are ``report.md``, ``report.tex``,
``report.bib`` and the figures, all inside the output directory; nothing is written elsewhere.
"""

from __future__ import annotations

import dataclasses
import pathlib
from typing import Any, Sequence

from . import validate
from .presentation import latex as tex
from .presentation import markdown as md
from .presentation.cells import Missing, Number
from .presentation.citations import cite_keys
from .presentation.numbers import SIG
from .presentation.rows import answer_parts, curve_rows, epsilon_rows, result_rows
from .results import Inapplicable, Kind, Result, Status

#: figures of the report: (name in dptheory.plots.FIGURES, caption)
FIGURES = (
    ("amplification-vs-n", "Central $\\epsilon$ against the number of users $n$, every method, upper and lower "
                           "bounds."),
    ("rdp-curves", "RDP curves of the shuffle model: upper and lower bounds against the order $\\lambda$."),
)

#: Renyi orders of the report's RDP table
REPORT_ORDERS = (2, 4, 8, 16, 32, 64)


@dataclasses.dataclass
class Report:
    """The numbers of a report (what :func:`markdown` and :func:`latex_document` lay out)."""

    eps0: float
    n: int
    delta: float
    shuffle: list
    summary: Any
    rdp_epsilons: list
    rdp_curves: list
    gdp: list


def compute(eps0, n, delta) -> Report:
    """Every number of the report for eps0-LDP randomizers, n users, target ``delta``."""
    from .shuffle import rdp as shuffle_rdp
    from .shuffle import randomizers as rz
    from .shuffle.methods import compare, summarize

    e0 = validate.eps0("eps0", eps0)
    nn = validate.n("n", n)
    d = validate.delta("delta", delta)
    factory, _ = rz.REGISTRY["general"]
    results = compare(factory(e0), nn, delta=d)
    return Report(e0, nn, d, results, summarize(results), shuffle_rdp.epsilons(e0, nn, d),
                  shuffle_rdp.rdp_curves(e0, nn, list(REPORT_ORDERS)), gdp_approximations(e0, nn, d))


def gdp_approximations(eps0: float, n: int, delta: float) -> list[Result]:
    """epsilon at ``delta`` of the mu-GDP approximations of the shuffled mechanism (Chen, Cao, Ge
    2024, Theorem 2, and the toolkit's refined Gaussian limit): central-limit approximations,
    kind ``approximation``, status ``not a bound``; mu in ``params``."""
    from .profile import gdp_epsilon
    from .shuffle.rdp import CHEN_GDP, CHEN_GDP_REFINED

    out = []
    for slug, formula in (("chen-gdp", CHEN_GDP), ("chen-gdp-refined", CHEN_GDP_REFINED)):
        try:
            mu = float(formula(eps0, n))
        except validate.ConditionError as exc:  # outside the formula's domain (n = 1): not applicable
            out.append(Inapplicable(slug, Kind.APPROXIMATION, Status.NOT_A_BOUND, formula.source, str(exc)))
            continue
        r = gdp_epsilon(mu, delta)
        out.append(Result("epsilon", r.lower, r.upper, Kind.APPROXIMATION, Status.NOT_A_BOUND, slug, formula.source,
                          "a central-limit approximation, not a bound", params={"mu": mu, "delta": delta}))
    return out


# ------------------------------------------------------------------------------ rows
def _setting(report: Report) -> dict:
    return {"eps0": report.eps0, "n": report.n, "delta": report.delta}


def _shuffle_rows(report: Report) -> list[dict]:
    """Rows of the (epsilon, delta) table, with each upper bound's distance to the best proven
    lower bound (upper end over lower end, minus one, in percent, rounded up)."""
    rows = result_rows(report.shuffle)
    best = report.summary.lower
    for row, r in zip(rows, report.shuffle):
        above = None
        if best is not None and isinstance(r, Result) and r.kind is Kind.UPPER and best.lower > 0:
            above = Number(100 * (r.upper / best.lower - 1), "up")
        row["above lower (%)"] = above
    return rows


def _rdp_rows(report: Report) -> tuple[list[dict], list[dict], list[str]]:
    """The RDP -> (epsilon, delta) rows, and the RDP curves transposed: one row per method (its
    kind, then its value at each order of :data:`REPORT_ORDERS`), and their columns."""
    by_order, columns = curve_rows(report.rdp_curves, REPORT_ORDERS)
    kinds = {c.method: str(c.kind) for c in report.rdp_curves}
    orders = [f"order {o:g}" for o in REPORT_ORDERS]
    rows = [{"method": m, "kind": kinds[m], **{label: row.get(m) for label, row in zip(orders, by_order)}}
            for m in columns[1:]]
    return epsilon_rows(report.rdp_epsilons), rows, ["method", "kind"] + orders


def _gdp_rows(report: Report) -> list[dict]:
    return [{"method": r.method, "kind": str(r.kind), "status": str(r.status), "mu": Number(r.params["mu"]),
             "epsilon": Number(0.5 * (r.lower + r.upper))} if isinstance(r, Result) else
            {"method": r.method, "kind": str(r.kind), "status": str(r.status), "mu": "n/a", "epsilon": "n/a"}
            for r in report.gdp]


def _sources(report: Report) -> dict[str, tuple[str, str]]:
    """method -> (source, note), each method once (RDP and GDP rows marked as such); the note of
    a method that does not apply is its table's n/a note, not repeated here."""
    out: dict[str, tuple[str, str]] = {}
    for suffix, results in (("", report.shuffle), (" (RDP)", report.rdp_epsilons), (" (GDP)", report.gdp)):
        for r in results:
            d = r.as_dict()
            note = d.get("note", "") if d.get("applicable", True) else ""
            out.setdefault(r.method + suffix, (r.source, note))
    return out


SHUFFLE_COLUMNS = ["method", "kind", "status", "lower", "upper", "above lower (%)"]
RDP_COLUMNS = ["method", "kind", "status", "epsilon", "order"]
GDP_COLUMNS = ["method", "kind", "status", "mu", "epsilon"]
READING = ("Every number is a certified interval [lower, upper] of the method's value, its lower end "
           "rounded down and its upper end rounded up. Kind: an upper or lower bound on the true $\\epsilon$, "
           "an exact value, or an approximation (not a bound). Status: proven; unproven (no valid proof "
           "known); refuted (an exact computation contradicts it). \"above lower\" is how far an upper "
           "bound is above the best proven lower bound.")


def title(report: Report) -> str:
    """The report's title, text with inline math."""
    return (f"Privacy amplification by shuffling: ${tex.quantity('eps0')} = {tex.fmt_float(report.eps0)}$, "
            f"$n = {tex.fmt_float(report.n)}$, $\\delta = {tex.fmt_float(report.delta)}$")


def _answer_items(report: Report) -> list[str]:
    """The answer lines as text with inline math: "$\\epsilon \\leq 0.003515$ by
    variation-ratio-labelled (upper, proven)", and the gap."""
    items = []
    for line, parts in answer_parts(report.summary, "epsilon"):
        if "relation" in parts:
            relation = "\\leq" if parts["relation"] == "<=" else "\\geq"
            items.append(f"$\\epsilon {relation} {tex.math_number(parts['value'])}$ by {parts['method']} "
                         f"({parts['kind']}, {parts['status']})")
        elif "attained_by" in parts:
            items.append(f"attained by {parts['attained_by']}")
        elif parts.get("continued"):
            continue
        elif parts.get("gap_unit") == "%":
            items.append(f"gap: the upper bound is {parts['gap']}% above the lower bound")
        elif parts.get("gap_unit") == "times":
            items.append(f"gap: the upper bound is ${tex.math_number(parts['gap'])}$ times the lower bound")
        else:
            items.append(line.strip())
    return items


def markdown(report: Report, figures: Sequence[tuple[str, str]] = ()) -> str:
    """The report as Markdown (``figures``: (file name, caption) pairs, relative to the report);
    inline math is kept between ``$`` signs (GitHub renders it)."""
    rdp_eps, curve_rows_, curve_columns = _rdp_rows(report)
    answer = _answer_items(report)
    parts = [f"# {title(report)}\n",
             f"Generated by dptheory {_version()} for any $\\epsilon_0$-LDP local randomizer (the worst case). "
             f"{READING}\n",
             "## Answer\n", "\n".join(f"- {line}" for line in answer) + "\n",
             "## Every method: epsilon at delta\n", md.table(_shuffle_rows(report), SHUFFLE_COLUMNS),
             _markdown_notes(_shuffle_rows(report), SHUFFLE_COLUMNS),
             "## RDP route: epsilon at delta from each RDP bound (Lemma 2.1 of Girgis et al.)\n",
             md.table(rdp_eps, RDP_COLUMNS), _markdown_notes(rdp_eps, RDP_COLUMNS),
             "RDP $\\epsilon(\\lambda)$ of each method (upper bounds rounded up, lower bounds down, approximations "
             "to nearest):\n",
             md.table(curve_rows_, curve_columns)]
    if report.gdp:
        parts += ["## Gaussian (GDP) approximation (not a bound)\n", md.table(_gdp_rows(report), GDP_COLUMNS)]
    if figures:
        parts.append("## Figures\n")
        parts += [f"![{caption}]({name})\n\n*{caption}*\n" for name, caption in figures]
    parts.append("## Sources and notes\n")
    parts.append("\n".join(f"- **{m}**: {source}" + (f" Note: {note}" if note else "")
                           for m, (source, note) in _sources(report).items()) + "\n")
    return "\n".join(p for p in parts if p)


def _markdown_notes(rows: Sequence[dict], columns: Sequence[str]) -> str:
    """The reasons of the n/a cells, one line per method."""
    reasons = []
    for r in rows:
        for c in columns:
            cell = r.get(c)
            if isinstance(cell, Missing) and cell.reason and (r["method"], cell.reason) not in reasons:
                reasons.append((r["method"], cell.reason))
    return "".join(f"- n/a, {m}: {reason}\n" for m, reason in reasons)


def _cited(rows: Sequence[dict], sources: dict[str, str], notion: str | None = None) -> list[dict]:
    """The rows with the method cell as a :class:`~dptheory.presentation.latex.Cited` name: the
    title its notion's registry gives it (:mod:`dptheory.protocol`), else its slug."""
    from . import protocol

    registry = protocol.registry(notion) if notion else {}

    def name(method: str) -> str:
        return (registry[method].title or method) if method in registry else method

    return [{**r, "method": tex.Cited(name(r["method"]), tuple(cite_keys(sources.get(r["method"], ""))))} for r in rows]


def latex_document(report: Report, figures: Sequence[tuple[str, str]] = (), *,
                   sig: int = SIG) -> tuple[str, list[str]]:
    """The report as a LaTeX document and the BibTeX keys it cites (``figures``: (file name,
    caption) pairs, relative to the report); ``sig`` significant figures in every numeric
    column."""
    setting = tex.setting(_setting(report))
    rdp_eps, curve_rows_, curve_columns = _rdp_rows(report)
    method_sources = {r.method: r.source for r in list(report.shuffle) + list(report.rdp_epsilons) + list(report.gdp)}
    body = [f"Generated by dptheory {tex.escape(_version())} for any $\\epsilon_0$-LDP local randomizer "
            f"(the worst case), {setting}. {tex.text(READING)}\n",
            "\\section*{Answer}", "\\begin{itemize}"]
    body += [f"\\item {tex.text(item)}" for item in _answer_items(report)]
    shuffle_headers = ["method", "kind", "status", "lower", "upper", "above lower (\\%)"]
    body += ["\\end{itemize}\n", "\\section*{Every method}",
             tex.table(_cited(_shuffle_rows(report), method_sources, "shuffle"), SHUFFLE_COLUMNS, headers=shuffle_headers,
                       caption=f"Certified $\\epsilon$ at {setting}: the interval of each method, its lower end "
                       "rounded down and its upper end up.", floating=False, label="tab:report-shuffle", sig=sig,
                       textwidth=tex.DOCUMENT_TEXTWIDTH),
             "\\section*{RDP route}",
             tex.table(_cited(rdp_eps, method_sources, "shuffle-rdp"), RDP_COLUMNS,
                       headers=["method", "kind", "status", "$\\epsilon$", "order $\\lambda$"],
                       caption=f"$\\epsilon$ from each RDP bound (Lemma 2.1 of Girgis et al.~\\cite{{girgis2021renyi}}) "
                       f"at the best order, {setting}.", floating=False, label="tab:report-rdp", sig=sig,
                       textwidth=tex.DOCUMENT_TEXTWIDTH),
             tex.table(_cited(curve_rows_, {c.method: c.source for c in report.rdp_curves}, "shuffle-rdp"), curve_columns,
                       headers=["method", "kind"] + [f"$\\lambda = {o}$" for o in REPORT_ORDERS],
                       caption="RDP $\\epsilon(\\lambda)$ of each method (upper bounds rounded up, lower "
                       "bounds down, approximations to nearest).", floating=False, label="tab:report-rdp-curves",
                       sig=sig, fixed=2, shared=True, textwidth=tex.DOCUMENT_TEXTWIDTH)]
    if report.gdp:
        body += ["\\section*{Gaussian (GDP) approximation}",
                 tex.table(_cited(_gdp_rows(report), method_sources), GDP_COLUMNS,
                           headers=["method", "kind", "status", "$\\mu$", "$\\epsilon$"],
                           caption="$\\mu$-GDP approximations of the shuffled mechanism and their $\\epsilon$ at "
                           "$\\delta$: approximations, not bounds.", floating=False, label="tab:report-gdp", sig=sig,
                           textwidth=tex.DOCUMENT_TEXTWIDTH)]
    for i, (name, caption) in enumerate(figures):
        body += ["\\begin{figure}[htbp]", "\\centering",
                 f"\\includegraphics[width=\\linewidth]{{{name}}}",
                 f"\\caption{{{tex.text(caption)}}}", f"\\label{{fig:report-{i}}}", "\\end{figure}"]
    body += ["\\section*{Sources and notes}", "\\begin{description}"]
    keys: list[str] = []
    for method, (source, note) in _sources(report).items():
        shown = f" Note: {tex.text(note)}" if note else ""
        body.append(f"\\item[{tex.escape(method)}] {tex.cite(source.rstrip('.'))}.{shown}")
    body.append("\\end{description}")
    source_text = "\n".join(body)
    for key in ["girgis2021renyi"] + [k for s, _ in _sources(report).values() for k in cite_keys(s)]:
        if key not in keys:
            keys.append(key)
    return tex.document(source_text, title=title(report), bib_keys=keys, bib_name="report"), keys


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("dptheory")
    except Exception:  # not installed (a checkout): the version is not known
        return "(checkout)"


# ------------------------------------------------------------------------------ files
def _render_figures(report: Report, directory: pathlib.Path) -> tuple[list, list]:
    """Render the report's figures as PNG (for the Markdown) and PDF (for LaTeX) with
    :func:`dptheory.plots.render`, each given the report's parameters its defaults name."""
    from . import plots

    png, pdf = [], []
    for name, caption in FIGURES:
        figure = plots.FIGURES[name]
        setting = {"eps0": report.eps0, "n": report.n, "delta": report.delta}
        if name == "amplification-vs-n":  # a range of n: two decades either side of the report's
            low, high = max(10, report.n // 100), min(10**12, report.n * 100)
            setting["n"] = f"{low:.0e}..{high:.0e}".replace("e+0", "e").replace("e+", "e")
        params = {k: v for k, v in setting.items() if k in figure.defaults}
        for suffix, out in ((".png", png), (".pdf", pdf)):
            path = plots.render(name, directory / f"{name}{suffix}", **params)
            out.append((pathlib.Path(path).name, caption))
    return png, pdf


def build(eps0, n, delta, directory, *, figures: bool = True, sig: int = SIG) -> list[pathlib.Path]:
    """Compute the report and write ``report.md``, ``report.tex`` (+ ``report.bib``) and, with
    ``figures``, the figures into ``directory`` (created if its parent exists). Returns the paths
    written. Raises :class:`~dptheory.validate.DomainError` for bad parameters or a directory that
    cannot be written."""
    target = tex.writable_path(directory, suffix=None, directory=True)
    sig = validate.integer("sig", sig, low=1, high=17)
    report = compute(eps0, n, delta)  # validates the parameters before anything is written
    try:
        target.mkdir(exist_ok=True)
    except OSError as exc:
        raise validate.DomainError(f"output: cannot create {str(directory)!r}: {exc.strerror or exc}") from exc
    written: list[pathlib.Path] = []
    png, pdf = _render_figures(report, target) if figures else ([], [])
    written += [target / name for name, _ in png + pdf]
    md_path = target / "report.md"
    try:
        md_path.write_text(markdown(report, png), encoding="utf-8")
    except OSError as exc:
        raise validate.DomainError(f"output: cannot write {str(md_path)!r}: {exc.strerror or exc}") from exc
    written.append(md_path)
    source, keys = latex_document(report, pdf, sig=sig)
    written += tex.write_tex(target / "report.tex", source, keys)
    return written
