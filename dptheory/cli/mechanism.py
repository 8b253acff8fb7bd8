"""``dptheory mechanism``: the three views of a basic mechanism."""

from __future__ import annotations

import numpy as np

from .. import mechanisms, rdp, validate
from .output import emit_json, table


def add_parser(sub) -> None:
    p = sub.add_parser("mechanism", help="Gaussian, Laplace or randomized response: epsilon(delta) and RDP")
    p.add_argument("name", choices=["gaussian", "laplace", "rr"])
    p.add_argument("--sigma", type=float, default=1.0, help="Gaussian noise scale")
    p.add_argument("--scale", type=float, default=1.0, help="Laplace noise scale")
    p.add_argument("--sensitivity", type=float, default=1.0)
    p.add_argument("--eps0", type=float, default=1.0, help="randomized response epsilon")
    p.add_argument("--k", type=float, default=2, help="randomized response: number of options")
    p.add_argument("--delta", type=float, default=1e-6)
    p.add_argument("--orders", default="2,4,8,16,32", help="comma-separated Renyi orders")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def _mechanism(args):
    if args.name == "gaussian":
        return mechanisms.GaussianMechanism(args.sigma, args.sensitivity)
    if args.name == "laplace":
        return mechanisms.LaplaceMechanism(args.scale, args.sensitivity)
    return mechanisms.RandomizedResponse(args.eps0, validate.integer("k", args.k, low=2))


def run(args) -> int:
    mech = _mechanism(args)
    try:
        orders = np.array([float(v) for v in args.orders.split(",")])
    except ValueError:
        raise validate.DomainError(f"orders = {args.orders!r} is invalid: must be comma-separated numbers > 1") from None
    res = mech.epsilon(args.delta)
    curve = np.atleast_1d(mech.rdp(orders))
    rows = [{"method": f"{mech.name}-profile", "kind": "exact", "delta": args.delta,
             "epsilon_lower": res.lower, "epsilon_upper": res.upper}]
    via_rdp = rdp.to_dp(orders, curve, args.delta)
    rows.append({"method": f"{mech.name}-rdp-conversion", "kind": "upper", "delta": args.delta,
                 "epsilon_lower": None, "epsilon_upper": via_rdp})
    if args.json:
        emit_json({"epsilon": rows, "rdp": [{"order": float(o), "rdp": float(v)} for o, v in zip(orders, curve)]})
        return 0
    table(rows, ["method", "kind", "delta", "epsilon_lower", "epsilon_upper"])
    print()
    table([{"order": float(o), "rdp": float(v)} for o, v in zip(orders, curve)], ["order", "rdp"])
    return 0
