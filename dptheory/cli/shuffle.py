"""``dptheory shuffle``: every bound on the central (epsilon, delta) of n shuffled users."""

from __future__ import annotations

from .. import validate
from ..shuffle import randomizers as rz
from ..shuffle.methods import METHODS, compare, summarize
from .. import latex as tex
from .output import emit_json, fmt, fmt_positive, latex_table, lines, notes, result_rows, table


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


def build_randomizer(args):
    factory, needed = rz.REGISTRY[args.randomizer]
    values = []
    for name in needed:
        value = getattr(args, name, None)
        if value is None:
            raise validate.DomainError(f"randomizer {args.randomizer!r} needs --{name}")
        values.append(value)
    return factory(*values)


def run(args) -> int:
    randomizer = build_randomizer(args)
    n = validate.integer("n", args.n, low=1)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()] if args.methods else None
    if args.epsilon is not None:
        results = compare(randomizer, n, epsilon_value=args.epsilon, methods=methods)
        quantity, setting = "delta", {"epsilon": args.epsilon}
    else:
        results = compare(randomizer, n, delta_value=args.delta, methods=methods, rtol=args.rtol)
        quantity, setting = "epsilon", {"delta": args.delta}
    summary = summarize(results)
    parameters = {"randomizer": randomizer.name, "eps0": randomizer.eps0, "p": randomizer.p,
                  "beta": randomizer.beta, "q": randomizer.q, "n": n, **setting}
    if args.json:
        emit_json({"parameters": parameters, "summary": summary, "results": results})
        return 0
    if args.latex:
        print(latex_results(results, quantity, randomizer, n, setting, label=args.label))
        return 0
    given = ", ".join(f"{k} = {float(v)!r}" for k, v in setting.items())
    eps0 = "" if randomizer.eps0 is None else f"eps0 = {float(randomizer.eps0)!r}, "
    lines([f"{randomizer.name}: {eps0}n = {n}, {given}",
           f"  variation-ratio parameters: p = {fmt(float(randomizer.p))}, beta = {fmt(float(randomizer.beta))}, "
           f"q = {fmt(float(randomizer.q))}", ""])
    lines(answer(summary, quantity))
    print()
    rows = result_rows(results)
    print(f"{quantity}: certified interval [lower, upper] of each method")
    table(rows, ["method", "kind", "status", "lower", "upper", "seconds"])
    notes(rows, "note", "notes:")
    notes(rows, "source", "sources:")
    return 0


def answer(summary, quantity: str) -> list[str]:
    """The lines a practitioner came for: the tightest proven upper bound, the best proven lower
    bound (an exact value is both) and the gap between them."""
    out = []
    for label, res, end, direction in (("<=", summary.upper, "upper", "up"), (">=", summary.lower, "lower", "down")):
        if res is None:
            out.append(f"  no proven {end} bound applies here")
            continue
        shown = fmt_positive(getattr(res, end), getattr(res, "log_" + end), direction)
        out.append(f"  {quantity} {label} {shown}   {res.method} ({res.kind}, {res.status})")
    if summary.gap is not None:
        out.append(f"  gap: the upper bound is {100 * summary.gap:.3g}% above the lower bound")
    return out


def latex_results(results, quantity: str, randomizer, n: int, setting: dict, *, label: str | None = None) -> str:
    """The results as a booktabs table: method, kind, status and the certified interval
    [lower, upper] of ``quantity`` (lower ends rounded down, upper ends up; "n/a" for a method
    that does not apply), with the setting in the caption; its label is ``label`` or one derived
    from the setting (:func:`dptheory.latex.label`)."""
    if label is None:
        label = tex.label(f"tab:shuffle-{randomizer.name}", eps0=randomizer.eps0, n=n, **setting)
    rows = result_rows(results)
    given = ", ".join(f"${tex.quantity(k)} = {tex.fmt_float(float(v))}$" for k, v in setting.items())
    eps0 = "" if randomizer.eps0 is None else f", $\\epsilon_0 = {tex.fmt_float(float(randomizer.eps0))}$"
    caption = (f"Shuffle amplification of {tex.escape(randomizer.name)}{eps0}, $n = {tex.fmt_float(float(n))}$, "
               f"{given}: certified interval of ${tex.quantity(quantity)}$ for each method "
               "(lower end rounded down, upper end rounded up).")
    return latex_table(rows, ["method", "kind", "status", "lower", "upper"], caption=caption, label=label)
