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
upper ends up; an approximation to nearest). The files are ``report.md``, ``report.tex``,
``report.bib`` and the figures, all inside the output directory; nothing is written elsewhere.
"""

from __future__ import annotations

import dataclasses
import pathlib
from typing import Any, Sequence

from . import latex as tex
from . import validate
from .results import Kind, Result, Status

#: figures of the report: (name in dptheory.plots.FIGURES, caption)
FIGURES = (
    ("amplification-vs-n", "Central epsilon against the number of users n, every method, upper and lower bounds."),
    ("rdp-curves", "RDP curves of the shuffle model: upper and lower bounds against the order."),
)

#: Renyi orders of the report's RDP table
REPORT_ORDERS = (2, 4, 8, 16, 32, 64)


@dataclasses.dataclass
class Report:
    """The numbers of a report (what :func:`build` lays out)."""

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

    e0 = validate.real("eps0", eps0, low=0.0, low_open=True)
    nn = validate.integer("n", n, low=2)
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
        mu = float(formula(eps0, n))
        r = gdp_epsilon(mu, delta)
        out.append(Result("epsilon", r.lower, r.upper, Kind.APPROXIMATION, Status.NOT_A_BOUND, slug, formula.source,
                          "a central-limit approximation, not a bound", params={"mu": mu, "delta": delta}))
    return out


# ------------------------------------------------------------------------------ tables
def _shuffle_rows(report: Report) -> list[dict]:
    """Rows of the (epsilon, delta) table, with each upper bound's distance to the best proven
    lower bound (upper end over lower end, minus one)."""
    from .cli.output import result_rows

    rows = result_rows(report.shuffle)
    best = report.summary.lower
    for row, r in zip(rows, report.shuffle):
        above = None
        if best is not None and isinstance(r, Result) and r.kind is Kind.UPPER and best.lower > 0:
            above = f"{100 * (r.upper / best.lower - 1):.3g}%"
        row["above lower"] = above
    return rows


def _rdp_rows(report: Report):
    """The RDP -> (epsilon, delta) rows, and the RDP curves transposed: one row per method (its
    kind and status, then its value at each order of :data:`REPORT_ORDERS`), and the columns."""
    from .cli.rdp import curve_rows, epsilon_rows

    by_order, columns = curve_rows(report.rdp_curves, REPORT_ORDERS)
    kinds = {c.method: (str(c.kind), str(c.status)) for c in report.rdp_curves}
    orders = [f"order {o:g}" for o in REPORT_ORDERS]
    rows = [{"method": m, "kind": kinds[m][0], **{label: row.get(m) for label, row in zip(orders, by_order)}}
            for m in columns[1:]]
    return epsilon_rows(report.rdp_epsilons), (rows, ["method", "kind"] + orders)


def _gdp_rows(report: Report) -> list[dict]:
    from .cli.output import fmt

    return [{"method": r.method, "kind": str(r.kind), "status": str(r.status), "mu": fmt(r.params["mu"]),
             "epsilon": fmt(0.5 * (r.lower + r.upper))} for r in report.gdp]


def _answer(report: Report) -> list[str]:
    from .cli.shuffle import answer

    return [line.strip() for line in answer(report.summary, "epsilon")]


def _sources(report: Report) -> dict[str, str]:
    """method -> source, for every method of every table (RDP and GDP rows marked as such)."""
    out: dict[str, str] = {}
    for suffix, results in (("", report.shuffle), (" (RDP)", report.rdp_epsilons), (" (GDP)", report.gdp)):
        for r in results:
            out.setdefault(r.method + suffix, r.source)
    return out


def _notes(report: Report) -> dict[str, str]:
    out: dict[str, str] = {}
    for r in report.shuffle:
        note = r.as_dict().get("note")
        if note:
            out[r.method] = note
    return out


def markdown_table(rows: Sequence[dict], columns: Sequence[str]) -> str:
    """A GitHub-flavoured Markdown table of the rows (cells formatted as on the command line)."""
    from .cli.output import fmt

    def cell(v):
        return fmt(v).replace("|", "\\|")

    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(cell(r.get(c)) for c in columns) + " |" for r in rows]
    return "\n".join(lines) + "\n"


SHUFFLE_COLUMNS = ["method", "kind", "status", "lower", "upper", "above lower"]
RDP_COLUMNS = ["method", "kind", "status", "epsilon", "order"]
GDP_COLUMNS = ["method", "kind", "status", "mu", "epsilon"]
READING = ("Every number is a certified interval [lower, upper] of the method's value, its lower end "
           "rounded down and its upper end rounded up. Kind: an upper or lower bound on the true epsilon, "
           "an exact value, or an approximation (not a bound). Status: proven; unproven (no valid proof "
           "known); refuted (an exact computation contradicts it). \"above lower\" is how far an upper "
           "bound is above the best proven lower bound.")


def markdown(report: Report, figures: Sequence[tuple[str, str]] = ()) -> str:
    """The report as Markdown (``figures``: (file name, caption) pairs, relative to the report)."""
    version = _version()
    rdp_eps, (curve_rows, curve_columns) = _rdp_rows(report)
    parts = [f"# Privacy amplification by shuffling: eps0 = {report.eps0:g}, n = {report.n}, delta = {report.delta:g}\n",
             f"Generated by dptheory {version} for any eps0-LDP local randomizer (the worst case). {READING}\n",
             "## Answer\n", "\n".join(f"- {line}" for line in _answer(report)) + "\n",
             "## Every method: epsilon at delta\n", markdown_table(_shuffle_rows(report), SHUFFLE_COLUMNS),
             "## RDP route: epsilon at delta from each RDP bound (Lemma 2.1 of Girgis et al.)\n",
             markdown_table(rdp_eps, RDP_COLUMNS),
             "RDP epsilon(lambda) of each method (upper bounds rounded up, lower bounds down, approximations to "
             "nearest):\n",
             markdown_table(curve_rows, curve_columns)]
    if report.gdp:
        parts += ["## Gaussian (GDP) approximation (not a bound)\n", markdown_table(_gdp_rows(report), GDP_COLUMNS)]
    if figures:
        parts.append("## Figures\n")
        parts += [f"![{caption}]({name})\n\n*{caption}*\n" for name, caption in figures]
    parts.append("## Sources and notes\n")
    notes = _notes(report)
    parts.append("\n".join(f"- **{m}**: {s}" + (f" Note: {notes[m]}" if m in notes else "")
                           for m, s in _sources(report).items()) + "\n")
    return "\n".join(parts)


def latex_document(report: Report, figures: Sequence[tuple[str, str]] = ()) -> tuple[str, list[str]]:
    """The report as a LaTeX document and the BibTeX keys it cites (``figures``: (file name,
    caption) pairs, relative to the report)."""
    from .cli.output import latex_table

    setting = (f"$\\epsilon_0 = {tex.fmt_float(report.eps0)}$, $n = {tex.fmt_float(report.n)}$, "
               f"$\\delta = {tex.fmt_float(report.delta)}$")
    rdp_eps, (curve_rows, curve_columns) = _rdp_rows(report)
    body = [f"Generated by dptheory {tex.escape(_version())} for any $\\epsilon_0$-LDP local randomizer "
            f"(the worst case), {setting}. {tex.escape(READING)}\n",
            "\\section*{Answer}", "\\begin{itemize}"]
    body += [f"\\item {tex.escape(line)}" for line in _answer(report)]
    body += ["\\end{itemize}\n", "\\section*{Every method}",
             latex_table(_shuffle_rows(report), SHUFFLE_COLUMNS, caption=f"Certified $\\epsilon$ at {setting}.",
                         floating=False, label="tab:report-shuffle"),
             "\\section*{RDP route}",
             latex_table(rdp_eps, RDP_COLUMNS, caption=f"$\\epsilon$ from each RDP bound (Lemma 2.1 of "
                         f"Girgis et al.), best order, at {setting}.", floating=False, label="tab:report-rdp"),
             latex_table(curve_rows, curve_columns,
                         headers=["method", "kind"] + [f"$\\lambda = {o}$" for o in REPORT_ORDERS],
                         caption="RDP $\\epsilon(\\lambda)$ of each method (upper bounds rounded up, lower "
                         "bounds down, approximations to nearest).", floating=False, label="tab:report-rdp-curves")]
    if report.gdp:
        body += ["\\section*{Gaussian (GDP) approximation}",
                 latex_table(_gdp_rows(report), GDP_COLUMNS, caption="$\\mu$-GDP approximations of the shuffled "
                             "mechanism and their $\\epsilon$ at $\\delta$: approximations, not bounds.",
                             floating=False, label="tab:report-gdp")]
    for i, (name, caption) in enumerate(figures):
        body += ["\\begin{figure}[htbp]", "\\centering",
                 f"\\includegraphics[width=\\linewidth]{{{name}}}",
                 f"\\caption{{{tex.escape(caption)}}}", f"\\label{{fig:report-{i}}}", "\\end{figure}"]
    body += ["\\section*{Sources and notes}", "\\begin{description}"]
    keys: list[str] = []
    notes = _notes(report)
    for method, source in _sources(report).items():
        note = f" Note: {tex.escape(notes[method])}" if method in notes else ""
        body.append(f"\\item[{tex.escape(method)}] {tex.cite(source)}.{note}")
        keys += [k for k in tex.cite_keys(source) if k not in keys]
    body.append("\\end{description}")
    title = f"Privacy amplification by shuffling: eps0 = {report.eps0:g}, n = {report.n}, delta = {report.delta:g}"
    return tex.document("\n".join(body), title=title, bib_keys=keys, bib_name="report"), keys


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


def build(eps0, n, delta, directory, *, figures: bool = True) -> list[pathlib.Path]:
    """Compute the report and write ``report.md``, ``report.tex`` (+ ``report.bib``) and, with
    ``figures``, the figures into ``directory`` (created if its parent exists). Returns the paths
    written. Raises :class:`~dptheory.validate.DomainError` for bad parameters or a directory that
    cannot be written."""
    target = tex.writable_path(directory, suffix=None, directory=True)
    report = compute(eps0, n, delta)  # validates the parameters before anything is written
    try:
        target.mkdir(exist_ok=True)
    except OSError as exc:
        raise validate.DomainError(f"output: cannot create {str(directory)!r}: {exc.strerror or exc}") from exc
    written: list[pathlib.Path] = []
    png, pdf = _render_figures(report, target) if figures else ([], [])
    written += [target / name for name, _ in png + pdf]
    md = target / "report.md"
    try:
        md.write_text(markdown(report, png), encoding="utf-8")
    except OSError as exc:
        raise validate.DomainError(f"output: cannot write {str(md)!r}: {exc.strerror or exc}") from exc
    written.append(md)
    text, keys = latex_document(report, pdf)
    written += tex.write_tex(target / "report.tex", text, keys)
    return written
