"""``dptheory gdp``: the privacy profile of mu-GDP, or its inverse."""

from __future__ import annotations

import mpmath

from .. import profile, validate
from .output import emit_json, table


def add_parser(sub) -> None:
    p = sub.add_parser("gdp", help="Gaussian DP: delta(epsilon) or epsilon(delta) for mu-GDP")
    p.add_argument("--mu", type=float, default=1.0, help="GDP parameter (default 1)")
    p.add_argument("--epsilon", type=float, help="print delta at this epsilon")
    p.add_argument("--delta", type=float, default=1e-6, help="print epsilon at this delta (default 1e-6)")
    p.add_argument("--compose", type=int, default=1, help="number of compositions T (mu -> sqrt(T) mu)")
    p.add_argument("--digits", type=int, help="evaluate with mpmath at this many digits")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args) -> int:
    t = validate.integer("compose", args.compose, low=1)
    mu = validate.positive("mu", args.mu) * t**0.5
    if args.epsilon is not None:
        logd = profile.gdp_log_delta(mu, args.epsilon, digits=args.digits)
        row = {"method": "gdp", "kind": "exact", "mu": mu, "epsilon": args.epsilon,
               "log_delta": float(logd), "delta": mpmath.nstr(mpmath.exp(logd), 15) if args.digits else float(mpmath.exp(logd)),
               "source": profile.GDP_DELTA.source}
        cols = ["method", "kind", "mu", "epsilon", "delta", "log_delta", "source"]
    else:
        res = profile.gdp_epsilon(mu, args.delta, digits=args.digits)
        row = {"method": "gdp", "kind": "exact", "mu": mu, "delta": args.delta,
               "epsilon_lower": res.lower, "epsilon_upper": res.upper, "source": res.source}
        cols = ["method", "kind", "mu", "delta", "epsilon_lower", "epsilon_upper", "source"]
    if args.json:
        emit_json([row])
    else:
        table([row], cols)
    return 0
