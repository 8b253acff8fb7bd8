"""``dptheory rdp``: Renyi DP of the shuffle model, by every method, and its (epsilon, delta) conversion."""

from __future__ import annotations

from .. import validate
from ..shuffle import rdp as shuffle_rdp
from ..shuffle.pair_renyi import RENYI_N_MAX
from ..shuffle.rdp.methods import RTOL_FINE_N_MAX, RTOL_MIN, RTOL_MIN_SMALL_N
from ..rdp import parse_orders
from .. import tables
from . import add_latex_options, emit, no_effect, print_latex_table
from .shuffle import LATEX_ONLY
from ..presentation import latex as tex
from ..presentation.rows import curve_rows, epsilon_rows
from ..presentation.numbers import fmt_bound
from ..presentation.text import table, wide_table, wrapped

DEFAULT_ORDERS = "2,3,4,5,6,8,10,12,16,20,24,32,48,64"


def add_parser(sub) -> None:
    p = sub.add_parser("rdp", help="Renyi DP of the shuffle model: every bound, exact values, conversion to (epsilon, delta)")
    p.add_argument("--eps0", type=float, default=1.0, help="local epsilon (default 1)")
    p.add_argument("--n", type=float, default=1e6, help=f"number of users (default 1e6; the exact divergences support n <= {RENYI_N_MAX:.0e}, the "
                   "closed forms any n)")
    p.add_argument("--orders", help=f"Renyi orders, e.g. 2..64 or 2..64:0.5 or 2,4,8 (default {DEFAULT_ORDERS}; "
                   "with --delta, a search over orders up to 1e4)")
    p.add_argument("--compositions", default="1", help="number T of adaptive compositions (default 1)")
    p.add_argument("--delta", type=float, help="convert each curve to epsilon at this delta (Lemma 2.1)")
    p.add_argument("--methods", help=f"comma-separated subset of: {', '.join(shuffle_rdp.RDP_METHODS)}")
    p.add_argument("--rtol", type=float, default=validate.RENYI_RTOL, help=f"relative width of the exact divergences (default "
                   f"{validate.RENYI_RTOL:g}, at least {RTOL_MIN:g}; "
                   f"{RTOL_MIN_SMALL_N:g} for n <= {RTOL_FINE_N_MAX:g})")
    p.add_argument("--json", action="store_true")
    add_latex_options(p, "tables", "tab:shuffle-rdp-eps0-1-n-1e6-T-1")
    p.set_defaults(func=run)


def run(args) -> int:
    no_effect(args, {**{name: "it shapes the --latex tables only" for name in LATEX_ONLY if not args.latex},
                     "latex": "--json prints the JSON document only; give one of --json and --latex" if args.json
                     else None})
    validate.eps0("eps0", args.eps0)
    n = validate.n("n", args.n)
    T = validate.count("compositions", args.compositions)
    methods = (validate.name_list("methods", args.methods, shuffle_rdp.RDP_METHODS)
               if args.methods is not None else None)
    validate.rtol("rtol", args.rtol)
    sig = validate.count("sig", args.sig, high=17)
    width = validate.real("textwidth", args.textwidth, low=100.0, high=2000.0)
    if args.delta is not None:
        orders = parse_orders(args.orders) if args.orders is not None else None
        out = shuffle_rdp.epsilons(args.eps0, n, args.delta, methods, compositions=T, orders=orders, rtol=args.rtol)
        if args.json:
            emit(args, out, {"n": n, "compositions": T, "methods": methods or list(shuffle_rdp.RDP_METHODS),
                             "orders": None if orders is None else [float(o) for o in orders]})
            return 0
        rows = epsilon_rows(out)
        if args.latex:
            label = args.label or tex.label("tab:shuffle-rdp-epsilon", eps0=args.eps0, n=n, T=T, delta=args.delta)
            print_latex_table(tables.rdp_epsilon_table(out, {"eps0": args.eps0, "n": n, "T": T, "delta": args.delta},
                                                       sig=sig, label=label, textwidth=width), args.bib)
            return 0
        print(f"shuffle RDP -> (epsilon, delta): eps0 = {args.eps0}, n = {n}, T = {T}, delta = {args.delta}\n")
        table(rows, ["method", "kind", "status", "epsilon", "order"])
        _notes(out)
        return 0
    orders = parse_orders(args.orders if args.orders is not None else DEFAULT_ORDERS)
    # upper rows above the RDP of eps0-DP are shown capped, with a note (the library's default is
    # the paper's value)
    curves = shuffle_rdp.rdp_curves(args.eps0, n, orders, methods, rtol=args.rtol, compositions=T, cap=True)
    if args.json:
        emit(args, curves, {"n": n, "compositions": T, "methods": methods or list(shuffle_rdp.RDP_METHODS),
                            "orders": [float(o) for o in orders]})
        return 0
    rows, columns = curve_rows(curves, orders)
    kinds = [{"method": c.method, "kind": str(c.kind), "status": str(c.status)} for c in curves]
    if args.latex:
        label = args.label or tex.label("tab:shuffle-rdp", eps0=args.eps0, n=n, T=T)
        print_latex_table(tables.rdp_curve_table(curves, orders, {"eps0": args.eps0, "n": n, "T": T}, label=label, sig=sig,
                                                 textwidth=width), args.bib)
        return 0
    print(f"shuffle RDP: eps0 = {args.eps0}, n = {n}, T = {T}  (rows: orders; columns: methods)\n")
    wide_table(rows, columns)
    print()
    table(kinds, ["method", "kind", "status"])
    _notes(curves)
    return 0


def _notes(results) -> None:
    """Sources and notes below the table, wrapped to the terminal width."""
    print("\nsources and notes:")
    for r in results:
        d = r.as_dict()
        wrapped(f"{d['method']}: {d['source']}" + (f"; {d['note']}" if d.get("note") else ""))
