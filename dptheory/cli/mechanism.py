"""``dptheory mechanism``: the three views of a basic mechanism (one call to
:func:`dptheory.mechanisms.report`; the numbers printed are its certified Results and Curve)."""

from __future__ import annotations

from .. import mechanisms
from ..rdp import parse_orders
from ..presentation.json_output import emit_json
from ..presentation.numbers import fmt, fmt_bound
from ..presentation.text import table, wrapped


def add_parser(sub) -> None:
    p = sub.add_parser("mechanism", help="Gaussian, Laplace or randomized response: epsilon(delta) and RDP")
    p.add_argument("name", choices=["gaussian", "laplace", "rr"])
    p.add_argument("--sigma", type=float, default=1.0, help="Gaussian noise scale")
    p.add_argument("--scale", type=float, default=1.0, help="Laplace noise scale")
    p.add_argument("--sensitivity", type=float, default=1.0)
    p.add_argument("--eps0", type=float, default=1.0, help="randomized response epsilon")
    p.add_argument("--k", type=float, default=2, help="randomized response: number of options")
    p.add_argument("--delta", type=float, default=1e-6)
    p.add_argument("--orders", default="2,4,8,16,32", help="Renyi orders: a list like 2,4,8 or a range like 2..64 (default 2,4,8,16,32)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args) -> int:
    mech = mechanisms.from_name(args.name, sigma=args.sigma, scale=args.scale, sensitivity=args.sensitivity,
                                eps0=args.eps0, k=args.k)
    rep = mechanisms.report(mech, args.delta, parse_orders(args.orders))
    if args.json:
        emit_json(rep.as_dict())
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
