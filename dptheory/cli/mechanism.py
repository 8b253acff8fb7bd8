"""``dptheory mechanism``: the three views of a basic mechanism (one call to
:func:`dptheory.mechanisms.report`; the numbers printed are its certified Results and Curve)."""

from __future__ import annotations

from .. import mechanisms
from ..rdp import parse_orders
from . import emit, no_effect
from ..presentation.numbers import fmt, fmt_bound
from ..presentation.text import table, wrapped


def add_parser(sub) -> None:
    p = sub.add_parser("mechanism", help="Gaussian, Laplace or randomized response: epsilon(delta) and RDP")
    p.add_argument("name", choices=["gaussian", "laplace", "rr"])
    p.add_argument("--sigma", type=float, default=1.0, help="Gaussian noise scale (gaussian; default 1)")
    p.add_argument("--scale", type=float, default=1.0, help="Laplace noise scale (laplace; default 1)")
    p.add_argument("--sensitivity", type=float, default=1.0, help="sensitivity (gaussian, laplace; default 1)")
    p.add_argument("--eps0", type=float, default=1.0, help="randomized response epsilon (rr; default 1; 0 is the "
                   "perfectly private mechanism, as mu = 0 for gaussian)")
    p.add_argument("--k", type=float, default=2, help="randomized response: number of options (rr; default 2)")
    p.add_argument("--delta", type=float, default=1e-6)
    p.add_argument("--orders", default="2,4,8,16,32", help="Renyi orders: a list like 2,4,8 or a range like 2..64 (default 2,4,8,16,32)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


#: mechanism -> the options it reads (besides --delta and --orders, which every one reads)
PARAMETERS = {"gaussian": ("sigma", "sensitivity"), "laplace": ("scale", "sensitivity"), "rr": ("eps0", "k")}


def run(args) -> int:
    takes = PARAMETERS[args.name]
    no_effect(args, {name: f"mechanism {args.name} takes {', '.join('--' + t for t in takes)}"
                     for other in PARAMETERS.values() for name in other if name not in takes})
    mech = mechanisms.from_name(args.name, **{name: getattr(args, name) for name in takes})
    orders = parse_orders(args.orders)
    rep = mechanisms.report(mech, args.delta, orders)
    if args.json:
        emit(args, rep, {"orders": [float(o) for o in orders]},
             omit=[name for other in PARAMETERS.values() for name in other if name not in takes])
        return 0
    first = rep.epsilon
    given = ", ".join(f"{k} = {fmt(v)}" for k, v in first.params.items() if k != "delta")
    print(f"{mech.name}: {given}; delta = {fmt(first.params['delta'])}\n")
    # the interval's ends rounded outwards: the lower down, the upper up
    rows = [{"method": r.method, "kind": str(r.kind), "status": str(r.status),
             "epsilon_lower": fmt_bound(r.lower, "down"), "epsilon_upper": fmt_bound(r.upper, "up"),
             "order": r.params.get("order")} for r in (rep.epsilon, rep.epsilon_via_rdp)]
    table(rows, ["method", "kind", "status", "epsilon_lower", "epsilon_upper", "order"])
    print()
    curve = rep.rdp
    table([{"order": float(o), "rdp_lower": fmt_bound(float(lo), "down"), "rdp_upper": fmt_bound(float(hi), "up")}
           for o, lo, hi in zip(curve.grid, curve.lower, curve.upper)], ["order", "rdp_lower", "rdp_upper"])
    print()
    wrapped(f"rdp: kind {curve.kind}, {curve.status}; {curve.source}", indent="", subsequent="  ")
    return 0
