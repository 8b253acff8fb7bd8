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
    p.add_argument("--orders", default=DEFAULT_ORDERS, help=f"Renyi orders, e.g. 2..64 (default {DEFAULT_ORDERS})")
    p.add_argument("--compositions", type=float, default=1, help="number T of adaptive compositions (default 1)")
    p.add_argument("--delta", type=float, help="convert each curve to epsilon at this delta (Lemma 2.1)")
    p.add_argument("--methods", help=f"comma-separated subset of: {', '.join(shuffle_rdp.RDP_METHODS)}")
    p.add_argument("--rtol", type=float, default=1e-3, help="relative width of the exact divergences (default 1e-3)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args) -> int:
    orders = parse_orders(args.orders)
    n = validate.integer("n", args.n, low=2)
    T = validate.integer("compositions", args.compositions, low=1)
    methods = [m.strip() for m in args.methods.split(",")] if args.methods else None
    rows = shuffle_rdp.rdp_curves(args.eps0, n, orders, methods, rtol=validate.real("rtol", args.rtol, low=0.0, low_open=True, high=1.0))
    for r in rows:
        if r["order"] is not None:
            r["lower"] *= T
            r["upper"] *= T
            r["rdp"] = r["upper"] if r["kind"] != "lower" else r["lower"]
    if args.delta is not None:
        d = validate.delta("delta", args.delta)
        out = []
        for slug in dict.fromkeys(r["method"] for r in rows):
            mine = [r for r in rows if r["method"] == slug and r["order"] is not None]
            base = next(r for r in rows if r["method"] == slug)
            if not mine:
                out.append({"method": slug, "kind": base["kind"], "status": base["status"], "epsilon": None,
                            "delta": d, "order": None, "source": base["source"], "note": base["note"]})
                continue
            o = np.array([r["order"] for r in mine])
            values = np.array([r["rdp"] for r in mine])
            eps, best = rdp_module.to_dp_with_order(o, values, d)
            kind, note = base["kind"], base["note"]
            if kind == "lower":
                # converting a lower bound on RDP does not give a lower bound on epsilon
                kind, note = "approximation", "the best epsilon an RDP-route bound could give (not a lower bound on epsilon)"
            out.append({"method": slug, "kind": kind, "status": base["status"], "epsilon": float(eps), "delta": d,
                        "order": best, "source": base["source"] + (f", composed {T} times" if T > 1 else "")
                        + "; Lemma 2.1 of Girgis et al.", "note": note})
        if args.json:
            emit_json(out)
        else:
            print(f"shuffle RDP -> (epsilon, delta): eps0 = {args.eps0}, n = {n}, T = {T}, delta = {d}\n")
            table(out, ["method", "kind", "status", "epsilon", "order", "source"])
        return 0
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
