"""``dptheory shuffle``: every bound on the central (epsilon, delta) of n shuffled users."""

from __future__ import annotations

from .. import validate
from ..shuffle import randomizers as rz
from ..shuffle.methods import METHODS, compare, summarize
from .output import emit_json, fmt_positive, result_row, table


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
        emit_json({"parameters": parameters, "summary": summary.as_dict(),
                   "results": [r.as_dict() for r in results]})
        return 0
    print(f"{randomizer.name}: eps0 = {randomizer.eps0}, p = {randomizer.p:.6g}, beta = {randomizer.beta:.6g}, "
          f"q = {randomizer.q:.6g}; n = {n}; "
          + (f"epsilon = {args.epsilon}" if args.epsilon is not None else f"delta = {args.delta}"))
    for label, res, end in (("<=", summary.upper, "upper"), (">=", summary.lower, "lower")):
        if res is not None:
            shown = fmt_positive(getattr(res, end), getattr(res, "log_" + end))
            print(f"  {quantity} {label} {shown}  ({res.method}, {res.kind}, {res.status})")
    if summary.gap is not None:
        print(f"  gap: the upper bound is {summary.gap:.3g} above the lower bound (relative)")
    print()
    lo, hi = f"{quantity}_lower", f"{quantity}_upper"
    rows = [result_row(r, lower_key=lo, upper_key=hi) for r in results]
    table(rows, ["method", "kind", "status", lo, hi, "seconds"])
    notes = [f"  {r['method']}: {r['note']}" for r in rows if r.get("note")]
    notes += [f"  {r.method}: {r.source}" for r in results]
    print()
    print("notes and sources:")
    print("\n".join(notes))
    return 0
