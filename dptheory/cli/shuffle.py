"""``dptheory shuffle``: every bound on the central (epsilon, delta) of n shuffled users."""

from __future__ import annotations

from .. import validate
from ..shuffle import randomizers as rz
from ..shuffle.binomial_sums import N_MAX
from ..shuffle.methods import METHODS, RTOL_MIN
from ..shuffle.summary import shuffle_report
from .. import tables
from . import add_latex_options, emit, no_effect, print_latex_table
from ..presentation.numbers import fmt
from ..presentation.rows import answer, result_rows
from ..presentation.text import WIDTH, lines, notes, table, table_width, wrapped


def add_parser(sub) -> None:
    p = sub.add_parser("shuffle", help="privacy amplification by shuffling: epsilon(delta) or delta(epsilon), every method")
    p.add_argument("--eps0", type=float, default=1.0, help="local epsilon of the randomizer (default 1)")
    p.add_argument("--n", type=float, default=1e6, help=f"number of users (default 1e6; the numerical methods support n <= {N_MAX:.0e}, the closed "
                   "forms any n)")
    p.add_argument("--delta", type=float, default=1e-8, help="target delta (default 1e-8)")
    p.add_argument("--epsilon", type=float, help="report delta at this epsilon instead of epsilon at --delta")
    p.add_argument("--randomizer", default="general", choices=sorted(rz.REGISTRY),
                   help="local randomizer (default: any eps0-LDP randomizer)")
    p.add_argument("--d", type=float, help="domain size (grr, unary-encoding, subset-selection)")
    p.add_argument("--k", type=float, help="subset size (subset-selection)")
    p.add_argument("--l", type=float, help="hash range (local-hash)")
    p.add_argument("--methods", help=f"comma-separated subset of: {', '.join(METHODS)}")
    p.add_argument("--rtol", type=float, default=validate.EPSILON_RTOL, help=f"relative width of the epsilon brackets (default "
                   f"{validate.EPSILON_RTOL:g}, at least {RTOL_MIN:g})")
    p.add_argument("--json", action="store_true")
    add_latex_options(p, "table", "tab:shuffle-general-eps0-1-n-1e6-delta-1e-8")
    p.set_defaults(func=run)


#: the options that only shape the --latex table
LATEX_ONLY = ("sig", "textwidth", "label", "bib")


def check_options(args) -> None:
    """Reject an option given where it has no effect (exit status 2, naming it and why)."""
    at_epsilon = args.epsilon is not None
    no_effect(args, {
        "delta": "with --epsilon the command reports delta at that epsilon (--delta is the target of "
                 "epsilon(delta), the default mode)" if at_epsilon else None,
        "rtol": "--rtol is the relative width of the epsilon brackets of epsilon(delta); delta(epsilon) "
                "(--epsilon) does not search" if at_epsilon else None,
        **{name: "it shapes the --latex table only" for name in LATEX_ONLY if not args.latex},
        "latex": "--json prints the JSON document only; give one of --json and --latex" if args.json else None,
    })


def run(args) -> int:
    check_options(args)
    methods = validate.name_list("methods", args.methods, METHODS) if args.methods is not None else None
    epsilon = validate.epsilon("epsilon", args.epsilon) if args.epsilon is not None else None
    rep = shuffle_report(args.randomizer, validate.n("n", args.n), delta=None if epsilon is not None else args.delta,
                         epsilon=epsilon, methods=methods, rtol=validate.rtol("rtol", args.rtol),
                         eps0=validate.eps0("eps0", args.eps0), d=args.d, k=args.k, l=args.l)
    if args.json:
        emit(args, rep, {"methods": methods or list(METHODS)}
             | ({"delta": None, "rtol": None} if epsilon is not None else {"epsilon": None}))
        return 0
    prm = rep.parameters
    setting = {k: prm[k] for k in ("delta", "epsilon") if k in prm}
    if args.latex:
        print_latex_table(tables.shuffle_table(rep.results, rep.quantity, prm, setting, label=args.label,
                                               sig=validate.count("sig", args.sig, high=17),
                                               textwidth=validate.real("textwidth", args.textwidth, low=100.0,
                                                                       high=2000.0)), args.bib)
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

