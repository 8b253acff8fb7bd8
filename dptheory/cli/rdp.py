"""``dptheory rdp``: Renyi DP of the shuffle model, by every method, and its (epsilon, delta) conversion."""

from __future__ import annotations

import numpy as np

from .. import rdp as rdp_module, validate
from ..shuffle import rdp as shuffle_rdp
from .output import emit_json, table

DEFAULT_ORDERS = "2,3,4,5,6,8,10,12,16,20,24,32,48,64"


def parse_orders(text: str) -> np.ndarray:
    """'2..64' (integers), '2..64:0.5' (a step), or a comma-separated list; pieces may be mixed."""
    out: list[float] = []
    for piece in text.split(","):
        piece = piece.strip()
        if not piece:
            continue
        try:
            if ".." in piece:
                rng, _, step = piece.partition(":")
                a, b = (float(v) for v in rng.split(".."))
                st = float(step) if step else 1.0
                if st <= 0 or b < a:
                    raise ValueError
                out.extend(np.arange(a, b + st / 2, st).tolist())
            else:
                out.append(float(piece))
        except ValueError:
            raise validate.DomainError(
                f"orders = {text!r} is invalid: use a list like 2,4,8 or a range like 2..64 (orders > 1)") from None
    return validate.real_array("orders", np.unique(out), low=1.0, low_open=True)


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
    p.set_defaults(func=run)


def _rdp_value(row: dict) -> float:
    """The curve's value at an order: its lower end for a lower bound, else its upper end."""
    return row["lower"] if row["kind"] == "lower" else row["upper"]


def _convert(args, n: int, T: int, orders, methods) -> list[dict]:
    """One row per method: the RDP curve composed T times, converted by Lemma 2.1 at the best
    order (over --orders when given, else by :func:`dptheory.rdp.to_dp_search`)."""
    d = validate.delta("delta", args.delta)
    out = []
    guess = None
    if orders is None:
        # the refined Gaussian limit is nearly the clone pair's RDP and costs nothing: its best
        # order is where the exact curves are searched first (each large order costs seconds)
        mu = float(shuffle_rdp.CHEN_GDP_REFINED(args.eps0, n))
        gauss = lambda o: (o, T * rdp_module.gdp_to_rdp(mu, o))
        guess = rdp_module.to_dp_search(gauss, d)[1]
    for slug in methods or shuffle_rdp.RDP_METHODS:
        info = {}

        def curve(o, slug=slug, info=info):
            rows = shuffle_rdp.rdp_curves(args.eps0, n, o, [slug], rtol=args.rtol)
            # describe the method by the first evaluation that gave values (its note says which
            # orders its conditions allow), else by the first row
            if rows[0]["order"] is not None and not info.get("valid"):
                info["base"], info["valid"] = rows[0], True
            info.setdefault("base", rows[0])
            mine = [r for r in rows if r["order"] is not None]
            return np.array([r["order"] for r in mine]), T * np.array([_rdp_value(r) for r in mine])

        try:
            if orders is not None:
                kept, values = curve(orders)
                if not kept.size:
                    raise validate.DomainError("no order")
                eps, best = rdp_module.to_dp_with_order(kept, values, d)
                top = float(kept.max())
            else:
                integer = shuffle_rdp.RDP_METHODS[slug].integer_orders if slug in shuffle_rdp.RDP_METHODS else False
                eps, best = rdp_module.to_dp_search(curve, d, integer=integer, around=guess)
                top = 1e4
        except validate.DomainError:
            base = info.get("base") or shuffle_rdp.rdp_curves(args.eps0, n, [2.0], [slug])[0]
            out.append({"method": slug, "kind": base["kind"], "status": base["status"], "epsilon": None,
                        "delta": d, "order": None, "source": base["source"], "note": base["note"]})
            continue
        base = info["base"]
        kind, status, note = base["kind"], base["status"], base["note"]
        if kind == "lower":
            # converting a lower bound on RDP does not give a lower bound on epsilon
            kind, status = "approximation", None
            note = "the best epsilon an RDP-route bound could give (not a lower bound on epsilon)"
        if best >= top:
            note = (note + "; " if note else "") + (f"the optimum is at the largest order tried ({best:g}): "
                                                    "higher --orders may give a smaller epsilon")
        out.append({"method": slug, "kind": kind, "status": status, "epsilon": float(eps), "delta": d,
                    "order": best, "source": base["source"] + (f", composed {T} times" if T > 1 else "")
                    + "; Lemma 2.1 of Girgis et al.", "note": note})
    return out


def run(args) -> int:
    validate.real("eps0", args.eps0, low=0.0, low_open=True)
    n = validate.integer("n", args.n, low=2)
    T = validate.integer("compositions", args.compositions, low=1)
    methods = [m.strip() for m in args.methods.split(",")] if args.methods else None
    validate.real("rtol", args.rtol, low=0.0, low_open=True, high=1.0)
    if args.delta is not None:
        out = _convert(args, n, T, parse_orders(args.orders) if args.orders is not None else None, methods)
        if args.json:
            emit_json(out)
        else:
            print(f"shuffle RDP -> (epsilon, delta): eps0 = {args.eps0}, n = {n}, T = {T}, delta = {args.delta}\n")
            table(out, ["method", "kind", "status", "epsilon", "order", "source"])
            notes = [f"  {r['method']}: {r['note']}" for r in out if r.get("note")]
            if notes:
                print("\nnotes:")
                print("\n".join(notes))
        return 0
    orders = parse_orders(args.orders if args.orders is not None else DEFAULT_ORDERS)
    rows = shuffle_rdp.rdp_curves(args.eps0, n, orders, methods, rtol=args.rtol)
    for r in rows:
        if r["order"] is not None:
            r["lower"] *= T
            r["upper"] *= T
            r["rdp"] = _rdp_value(r)
    if args.json:
        emit_json([{"method": r["method"], "kind": r["kind"], "status": r["status"], "order": r["order"],
                    "rdp": r.get("rdp"), "rdp_lower": r["lower"], "rdp_upper": r["upper"], "source": r["source"],
                    "note": r["note"]} for r in rows])
        return 0
    print(f"shuffle RDP: eps0 = {args.eps0}, n = {n}, T = {T}  (rows: orders; columns: methods)\n")
    slugs = list(dict.fromkeys(r["method"] for r in rows))
    grid = []
    for o in orders:
        line = {"order": float(o)}
        for r in rows:
            if r["order"] == float(o):
                line[r["method"]] = r["rdp"]
        grid.append(line)
    table(grid, ["order"] + slugs)
    print()
    info = {}
    for r in rows:
        info.setdefault(r["method"], r)
    table([{"method": s, "kind": info[s]["kind"], "status": info[s]["status"], "source": info[s]["source"]} for s in slugs],
          ["method", "kind", "status", "source"])
    notes = [f"  {s}: {info[s]['note']}" for s in slugs if info[s].get("note")]
    if notes:
        print("\nnotes:")
        print("\n".join(notes))
    return 0
