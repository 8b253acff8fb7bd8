"""``dptheory mechanism``: the three views of a basic mechanism (one call to
:func:`dptheory.mechanisms.report`; the numbers printed are its certified Results and Curve), and
``dptheory mechanism sgm``: DP-SGD accounting of the Poisson-subsampled Gaussian (one call to
:func:`dptheory.subsampled.sgm_report`)."""

from __future__ import annotations

from .. import mechanisms, subsampled, validate
from ..rdp import parse_orders
from . import emit, no_effect
from ..presentation.numbers import fmt, fmt_bound, fmt_positive
from ..presentation.text import table, wrapped


def add_parser(sub) -> None:
    p = sub.add_parser("mechanism", help="Gaussian, Laplace, randomized response or DP-SGD (sgm): epsilon(delta) and RDP")
    p.add_argument("name", choices=["gaussian", "laplace", "rr", "sgm"])
    p.add_argument("--sigma", type=float, default=1.0, help="Gaussian noise scale (gaussian, sgm; default 1)")
    p.add_argument("--scale", type=float, default=1.0, help="Laplace noise scale (laplace; default 1)")
    p.add_argument("--sensitivity", type=float, default=1.0, help="sensitivity (gaussian, laplace; default 1)")
    p.add_argument("--eps0", type=float, default=1.0, help="randomized response epsilon (rr; default 1; 0 is the "
                   "perfectly private mechanism, as mu = 0 for gaussian)")
    p.add_argument("--k", type=float, default=2, help="randomized response: number of options (rr; default 2)")
    p.add_argument("--q", type=float, help="sgm: Poisson sampling rate")
    p.add_argument("--steps", type=float, default=1, help="sgm: number of composed steps (default 1). With --delta or "
                   "--epsilon the PLD accounting needs one step's losses within 2^22 grid points and the composed "
                   "steps within 2^23 (e.g. sigma >= 0.2 at q = 0.01, and 1e4 steps at sigma = 0.5); beyond, the "
                   "input is refused with the reason. The exact RDP curve (--orders) takes any steps, with at most "
                   "5e6 terms over its orders (an order lambda costs about lambda)")
    p.add_argument("--delta", type=float, help="epsilon at this delta (default 1e-6; sgm: one of --delta, --epsilon, --orders)")
    p.add_argument("--epsilon", type=float, help="sgm: delta at this epsilon")
    p.add_argument("--orders", help=f"Renyi orders: a list like 2,4,8 or a range like 2..64 (default {DEFAULT_ORDERS})")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


#: mechanism -> the options it reads (besides --delta and --orders, which every one reads)
PARAMETERS = {"gaussian": ("sigma", "sensitivity"), "laplace": ("scale", "sensitivity"), "rr": ("eps0", "k"),
              "sgm": ("sigma", "q", "steps", "epsilon")}
DEFAULT_ORDERS = "2,4,8,16,32"


def run(args) -> int:
    takes = PARAMETERS[args.name]
    not_read = [name for other in PARAMETERS.values() for name in other if name not in takes]
    no_effect(args, {name: f"mechanism {args.name} takes {', '.join('--' + t for t in takes)}" for name in not_read})
    if args.name == "sgm":
        return run_sgm(args, not_read)
    mech = mechanisms.from_name(args.name, **{name: getattr(args, name) for name in takes})
    orders = parse_orders(DEFAULT_ORDERS if args.orders is None else args.orders)
    rep = mechanisms.report(mech, 1e-6 if args.delta is None else args.delta, orders)
    if args.json:
        emit(args, rep, {"orders": [float(o) for o in orders], "delta": 1e-6 if args.delta is None else args.delta},
             omit=not_read)
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


def run_sgm(args, not_read) -> int:
    if args.q is None:
        raise validate.DomainError("q is missing: dptheory mechanism sgm needs --q, the Poisson sampling rate in (0, 1]")
    steps = validate.integer("steps", args.steps, low=1)
    orders = None if args.orders is None else parse_orders(args.orders)
    rep = subsampled.sgm_report(args.sigma, args.q, steps, delta=args.delta, epsilon=args.epsilon, orders=orders)
    if args.json:
        emit(args, rep, {"steps": steps}, omit=not_read)
        return 0
    given = ", ".join(f"{k} = {fmt(v)}" for k, v in rep.params.items())
    wrapped(f"Poisson-subsampled Gaussian (DP-SGD): {given}", indent="", subsequent="  ")
    print()
    if rep.question == "rdp":
        exact = rep.curves[0]
        general = dict(zip(rep.curves[1].grid.tolist(), rep.curves[1].upper.tolist())) if len(rep.curves) > 1 else {}
        rows = [{"order": float(o), "rdp_lower": fmt_bound(float(lo), "down"), "rdp_upper": fmt_bound(float(hi), "up"),
                 "zhu_wang_upper": fmt_bound(general[float(o)], "up") if float(o) in general else None}
                for o, lo, hi in zip(exact.grid, exact.lower, exact.upper)]
        table(rows, ["order", "rdp_lower", "rdp_upper", "zhu_wang_upper"])
        print()
        wrapped(f"rdp: kind {exact.kind}, {exact.status}; {exact.source}", indent="", subsequent="  ")
        if general:
            wrapped(f"zhu_wang_upper: kind upper, proven; {rep.curves[1].source}", indent="", subsequent="  ")
        return 0
    q = rep.question
    rows = [{"method": r.method, "kind": str(r.kind), "status": str(r.status),
             f"{q}_lower": fmt_positive(r.lower, r.log_lower, "down"),
             f"{q}_upper": fmt_positive(r.upper, r.log_upper, "up"), "order": r.params.get("order")}
            for r in rep.results]
    table(rows, ["method", "kind", "status", f"{q}_lower", f"{q}_upper", "order"])
    print()
    for r in rep.results:
        wrapped(f"{r.method}: {r.note or r.source}", indent="", subsequent="  ")
    return 0
