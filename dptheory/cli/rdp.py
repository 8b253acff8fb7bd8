"""``dptheory rdp``: Renyi DP of the shuffle model, by every method, and its (epsilon, delta) conversion."""

from __future__ import annotations

from .. import validate
from ..results import Curve
from ..shuffle import rdp as shuffle_rdp
from ..rdp import parse_orders
from .. import latex as tex
from .output import emit_json, fmt_bound, latex_table, table, wide_table, wrapped

DEFAULT_ORDERS = "2,3,4,5,6,8,10,12,16,20,24,32,48,64"


def add_parser(sub) -> None:
    p = sub.add_parser("rdp", help="Renyi DP of the shuffle model: every bound, exact values, conversion to (epsilon, delta)")
    p.add_argument("--eps0", type=float, default=1.0, help="local epsilon (default 1)")
    p.add_argument("--n", type=float, default=1e6, help="number of users (default 1e6)")
    p.add_argument("--orders", help=f"Renyi orders, e.g. 2..64 or 2..64:0.5 or 2,4,8 (default {DEFAULT_ORDERS}; "
                   "with --delta, a search over orders up to 1e4)")
    p.add_argument("--compositions", type=float, default=1, help="number T of adaptive compositions (default 1)")
    p.add_argument("--delta", type=float, help="convert each curve to epsilon at this delta (Lemma 2.1)")
    p.add_argument("--methods", help=f"comma-separated subset of: {', '.join(shuffle_rdp.RDP_METHODS)}")
    p.add_argument("--rtol", type=float, default=1e-3, help="relative width of the exact divergences (default 1e-3)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--latex", action="store_true", help="print the numbers as booktabs tables (needs only the "
                   "booktabs and graphicx packages)")
    p.add_argument("--label", help="LaTeX label of the --latex table (default: from the parameters, "
                   "e.g. tab:shuffle-rdp-eps0-1-n-1e6-T-1; the methods table adds -methods)")
    p.set_defaults(func=run)


def run(args) -> int:
    validate.real("eps0", args.eps0, low=0.0, low_open=True)
    n = validate.integer("n", args.n, low=2)
    T = validate.integer("compositions", args.compositions, low=1)
    methods = [m.strip() for m in args.methods.split(",")] if args.methods else None
    validate.real("rtol", args.rtol, low=0.0, low_open=True, high=1.0)
    if args.delta is not None:
        orders = parse_orders(args.orders) if args.orders is not None else None
        out = shuffle_rdp.epsilons(args.eps0, n, args.delta, methods, compositions=T, orders=orders, rtol=args.rtol)
        if args.json:
            emit_json([r.as_dict() for r in out])
            return 0
        rows = epsilon_rows(out)
        if args.latex:
            print(latex_table(rows, ["method", "kind", "status", "epsilon", "order"], caption=(
                f"Shuffle RDP converted to $(\\epsilon, \\delta)$ (Lemma 2.1 of Girgis et al.): "
                f"$\\epsilon_0 = {tex.fmt_float(args.eps0)}$, $n = {tex.fmt_float(n)}$, $T = {T}$, "
                f"$\\delta = {tex.fmt_float(args.delta)}$; epsilon at the best order (upper ends rounded up)."),
                label=args.label or tex.label("tab:shuffle-rdp-epsilon", eps0=args.eps0, n=n, T=T, delta=args.delta)))
            return 0
        print(f"shuffle RDP -> (epsilon, delta): eps0 = {args.eps0}, n = {n}, T = {T}, delta = {args.delta}\n")
        table(rows, ["method", "kind", "status", "epsilon", "order"])
        _notes(out)
        return 0
    orders = parse_orders(args.orders if args.orders is not None else DEFAULT_ORDERS)
    curves = shuffle_rdp.rdp_curves(args.eps0, n, orders, methods, rtol=args.rtol, compositions=T)
    if args.json:
        emit_json([c.as_dict() for c in curves])
        return 0
    rows, columns = curve_rows(curves, orders)
    kinds = [{"method": c.method, "kind": str(c.kind), "status": str(c.status)} for c in curves]
    if args.latex:
        label = args.label or tex.label("tab:shuffle-rdp", eps0=args.eps0, n=n, T=T)
        print(latex_table(rows, columns, headers=[r"$\lambda$"] + [tex.escape(c) for c in columns[1:]], caption=(
            f"Shuffle RDP $\\epsilon(\\lambda)$ by method: $\\epsilon_0 = {tex.fmt_float(args.eps0)}$, "
            f"$n = {tex.fmt_float(n)}$, $T = {T}$ (an upper bound rounded up, a lower bound down, an "
            f"approximation to nearest; kinds in Table~\\ref{{{label}-methods}})."), label=label))
        print(latex_table(kinds, ["method", "kind", "status"], caption="Kind and proof status of each RDP method.",
                          label=f"{label}-methods"))
        return 0
    print(f"shuffle RDP: eps0 = {args.eps0}, n = {n}, T = {T}  (rows: orders; columns: methods)\n")
    wide_table(rows, columns)
    print()
    table(kinds, ["method", "kind", "status"])
    _notes(curves)
    return 0


def curve_rows(curves, orders) -> tuple[list[dict], list[str]]:
    """Rows (one per order) and columns (order, then one per method) of the RDP curves: each
    value is the certified end the method's kind calls for, rounded outwards (an upper bound up,
    a lower bound down; an approximation to nearest)."""
    found = [c for c in curves if isinstance(c, Curve)]
    values = {}
    for c in found:
        direction = {"upper": "up", "lower": "down"}.get(str(c.kind))
        values[c.method] = {float(x): fmt_bound(float(v), direction) for x, v in zip(c.grid.tolist(), c.value.tolist())}
    rows = [{"order": float(o), **{m: v.get(float(o)) for m, v in values.items()}} for o in orders]
    return rows, ["order"] + [c.method for c in found]


def epsilon_rows(results) -> list[dict]:
    """Table rows of the RDP -> (epsilon, delta) conversions: the upper end, rounded up."""
    return [_epsilon_row(r) for r in results]


def _epsilon_row(r) -> dict:
    d = r.as_dict()
    if not d["applicable"]:
        return {"method": d["method"], "kind": d["kind"], "status": d["status"], "epsilon": "n/a", "order": None}
    return {"method": d["method"], "kind": d["kind"], "status": d["status"], "epsilon": fmt_bound(d["upper"], "up"),
            "order": d["params"]["order"]}


def _notes(results) -> None:
    """Sources and notes below the table, wrapped to the terminal width."""
    print("\nsources and notes:")
    for r in results:
        d = r.as_dict()
        wrapped(f"{d['method']}: {d['source']}" + (f"; {d['note']}" if d.get("note") else ""))
