"""``dptheory shuffle``: every bound on the central (epsilon, delta) of n shuffled users."""

from __future__ import annotations

from ..shuffle import randomizers as rz
from ..shuffle.methods import METHODS
from ..shuffle import report
from ..shuffle.report import shuffle_report
from .. import latex as tex
from .output import (WIDTH, emit_json, fmt, fmt_bound, fmt_positive, latex_table, lines, notes, result_rows, table,
                     table_width, wrapped)


def add_parser(sub) -> None:
    p = sub.add_parser("shuffle", help="privacy amplification by shuffling: epsilon(delta) or delta(epsilon), every method")
    p.add_argument("--eps0", type=float, default=1.0, help="local epsilon of the randomizer (default 1)")
    p.add_argument("--n", type=float, default=1e6, help="number of users (default 1e6)")
    p.add_argument("--delta", type=float, default=1e-8, help="target delta (default 1e-8)")
    p.add_argument("--epsilon", type=float, help="report delta at this epsilon instead of epsilon at --delta")
    p.add_argument("--randomizer", default="general", choices=sorted(rz.REGISTRY),
                   help="local randomizer (default: any eps0-LDP randomizer)")
    p.add_argument("--d", type=float, help="domain size (grr, unary-encoding, subset-selection)")
    p.add_argument("--k", type=float, help="subset size (subset-selection)")
    p.add_argument("--l", type=float, help="hash range (local-hash)")
    p.add_argument("--methods", help=f"comma-separated subset of: {', '.join(METHODS)}")
    p.add_argument("--rtol", type=float, default=1e-3, help="relative width of the epsilon brackets (default 1e-3)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--latex", action="store_true", help="print the numbers as a booktabs table (needs only the "
                   "booktabs and graphicx packages)")
    p.add_argument("--label", help="LaTeX label of the --latex table (default: from the parameters, "
                   "e.g. tab:shuffle-general-eps0-1-n-1e6-delta-1e-8)")
    p.set_defaults(func=run)


def run(args) -> int:
    methods = [m.strip() for m in args.methods.split(",") if m.strip()] if args.methods else None
    rep = shuffle_report(args.randomizer, args.n, delta=None if args.epsilon is not None else args.delta,
                         epsilon=args.epsilon, methods=methods, rtol=args.rtol,
                         eps0=args.eps0, d=args.d, k=args.k, l=args.l)
    if args.json:
        emit_json(rep.as_dict())
        return 0
    prm = rep.parameters
    setting = {k: prm[k] for k in ("delta", "epsilon") if k in prm}
    if args.latex:
        print(latex_results(rep.results, rep.quantity, prm, setting, label=args.label))
        return 0
    given = ", ".join(f"{k} = {float(v)!r}" for k, v in setting.items())
    eps0 = "" if prm["eps0"] is None else f"eps0 = {float(prm['eps0'])!r}, "
    lines([f"{prm['randomizer']}: {eps0}n = {prm['n']}, {given}",
           f"  variation-ratio parameters: p = {fmt(float(prm['p']))}, beta = {fmt(float(prm['beta']))}, "
           f"q = {fmt(float(prm['q']))}", ""])
    lines(answer(rep))
    print()
    rows = result_rows(rep.results)
    print(f"{rep.quantity}: certified interval [lower, upper] of each method")
    columns = ["method", "kind", "status", "lower", "upper", "seconds"]
    if table_width(rows, columns) > WIDTH:  # the seconds go below the table
        table(rows, columns[:-1])
        timed = [f"{r['method']} {r['seconds']}" for r in rows if r.get("seconds")]
        if timed:
            print()
            wrapped("seconds: " + ", ".join(timed), indent="", subsequent="  ")
    else:
        table(rows, columns)
    notes(rows, "note", "notes:")
    notes(rows, "source", "sources:")
    return 0


def answer(summary, quantity: str | None = None) -> list[str]:
    """The lines a practitioner came for: the tightest proven upper bound, the best proven lower
    bound (an exact value is both) and the gap between them (a percentage, or for a delta far
    apart the factor, from its logarithm). ``summary``: a
    :class:`~dptheory.shuffle.report.ShuffleReport`, or any object with ``upper`` and ``lower``
    Results and the ``quantity``."""
    quantity = quantity or summary.quantity
    upper, lower = summary.upper, summary.lower
    out = []
    for label, res, end, direction in (("<=", upper, "upper", "up"), (">=", lower, "lower", "down")):
        if res is None:
            out.append(f"  no proven {end} bound applies here")
            continue
        shown = fmt_positive(getattr(res, end), getattr(res, "log_" + end), direction)
        out.append(f"  {quantity} {label} {shown}   {res.method} ({res.kind}, {res.status})")
    log_ratio, ratio_minus_1 = report.log_gap(upper, lower), report.gap(upper, lower)
    if log_ratio is not None:
        if ratio_minus_1 is not None and ratio_minus_1 < 100:
            out.append(f"  gap: the upper bound is {fmt_bound(100 * ratio_minus_1, 'up')}% above the lower bound")
        else:
            factor = fmt_positive(report.gap_ratio(upper, lower), log_ratio, "up")
            out.append(f"  gap: the upper bound is {factor} times the lower bound")
    elif upper is not None and lower is not None:
        out.append("  gap: not stated (the lower bound is 0)")
    return out


def latex_results(results, quantity: str, parameters: dict, setting: dict, *, label: str | None = None) -> str:
    """The results as a booktabs table: method, kind, status and the certified interval
    [lower, upper] of ``quantity`` (lower ends rounded down, upper ends up; "n/a" for a method
    that does not apply), with the setting (``parameters`` of the report) in the caption; its label
    is ``label`` or one derived from the setting (:func:`dptheory.latex.label`)."""
    if label is None:
        label = tex.label(f"tab:shuffle-{parameters['randomizer']}", eps0=parameters["eps0"], n=parameters["n"],
                          **setting)
    rows = result_rows(results)
    given = ", ".join(f"${tex.quantity(k)} = {tex.fmt_float(float(v))}$" for k, v in setting.items())
    eps0 = "" if parameters["eps0"] is None else f", $\\epsilon_0 = {tex.fmt_float(float(parameters['eps0']))}$"
    caption = (f"Shuffle amplification of {tex.escape(parameters['randomizer'])}{eps0}, "
               f"$n = {tex.fmt_float(float(parameters['n']))}$, "
               f"{given}: certified interval of ${tex.quantity(quantity)}$ for each method "
               "(lower end rounded down, upper end rounded up).")
    return latex_table(rows, ["method", "kind", "status", "lower", "upper"], caption=caption, label=label)
