"""``dptheory shuffle``: every bound on the central (epsilon, delta) of n shuffled users."""

from __future__ import annotations

from .. import validate
from ..shuffle import METHODS, compare
from ..shuffle import randomizers as rz
from .output import emit_json, table


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
    methods = None
    if args.methods:
        methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    if args.epsilon is not None:
        validate.real("epsilon", args.epsilon, low=0.0)
        rows = compare(randomizer, n, epsilon_value=args.epsilon, methods=methods)
        out = []
        for r in rows:
            q = r.get("quantity", "delta")
            out.append({"method": r["method"], "kind": r["kind"], "status": r["status"],
                        f"{q}_lower": r.get("lower"), f"{q}_upper": r.get("upper"),
                        "seconds": r.get("seconds"), "source": r["source"], "note": r.get("note", "")})
        columns = ["method", "kind", "status", "delta_lower", "delta_upper", "seconds", "source"]
        if any("log_delta_upper" in r for r in out):
            columns[3:5] = ["delta_lower", "delta_upper", "log_delta_lower", "log_delta_upper"]
    else:
        validate.delta("delta", args.delta)
        rows = compare(randomizer, n, delta_value=args.delta, methods=methods, rtol=args.rtol)
        out = [{"method": r["method"], "kind": r["kind"], "status": r["status"],
                "epsilon_lower": r.get("lower"), "epsilon_upper": r.get("upper"),
                "seconds": r.get("seconds"), "source": r["source"], "note": r.get("note", "")} for r in rows]
        columns = ["method", "kind", "status", "epsilon_lower", "epsilon_upper", "seconds", "source"]
    if args.json:
        emit_json(out)
        return 0
    header = (f"{randomizer.name}: eps0 = {randomizer.eps0}, p = {randomizer.p:.6g}, beta = {randomizer.beta:.6g}, "
              f"q = {randomizer.q:.6g}; n = {n}; "
              + (f"epsilon = {args.epsilon}" if args.epsilon is not None else f"delta = {args.delta}"))
    print(header)
    print()
    table(out, columns)
    notes = [f"  {r['method']}: {r['note']}" for r in out if r.get("note")]
    if notes:
        print()
        print("notes:")
        print("\n".join(notes))
    return 0
