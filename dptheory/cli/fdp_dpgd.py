"""``dptheory fdp dpgd``: the trade-off function of one DP-GD step with a random initialisation
(Wang et al. 2023, Thm 5.1 with the normalisation fixed; Examples D.1-D.3), certified: a
piecewise-linear lower bound, the curve's enclosure on a grid of alpha, and delta(epsilon)
upper bounds from the lower bound.
"""

from __future__ import annotations

import argparse

import numpy as np

from ..validate import DomainError
from .output import emit_json, fmt_bound, fmt_positive, table

HELP = "f-DP of one DP-GD step with random initialization (Wang et al. 2023, Thm 5.1)"


def add_parser(sub) -> None:
    p = sub.add_parser("dpgd", help=HELP, description=HELP + ". The mean gap mu_I given the initialisation "
                       "I ~ N(0,1): D.1 (a - I)/sigma, D.2 clip(a - I, -c, c)/sigma, D.3 sigmoid(M|I|)/sigma, "
                       "constant mu.", formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--example", choices=["D.1", "D.2", "D.3", "constant"], default="D.1")
    p.add_argument("--a", type=float, default=0.7, help="the slope a of the linear model (D.1, D.2)")
    p.add_argument("--c", type=float, default=1.5, help="the clipping norm c (D.2)")
    p.add_argument("--M", type=float, default=1.0, help="the bound M on |x y| (D.3)")
    p.add_argument("--sigma", type=float, default=1.0, help="noise standard deviation (D.1-D.3)")
    p.add_argument("--mu", type=float, default=1.0, help="the constant gap (constant)")
    p.add_argument("--epsilon", default="0,0.5,1,2", help="comma-separated epsilons for delta(epsilon)")
    p.add_argument("--show", type=int, default=11, help="number of alpha values of the printed curve")
    p.add_argument("--points", type=int, default=201, help="number of thresholds t (tangent lines)")
    p.add_argument("--cells", type=int, default=20000, help="equal-mass cells of the integrals")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _gap(args):
    from ..mixtures import dpgd

    if args.example == "D.1":
        return dpgd.least_squares(args.a, args.sigma)
    if args.example == "D.2":
        return dpgd.clipped_least_squares(args.a, args.c, args.sigma)
    if args.example == "D.3":
        return dpgd.logistic(args.M, args.sigma)
    return dpgd.constant(args.mu)


def compute(args) -> dict:
    from .. import validate
    from ..mixtures import STATEMENTS, dpgd
    from ..results import Result

    try:
        epsilons = [float(v) for v in args.epsilon.split(",") if v.strip()]
    except ValueError:
        raise DomainError(f"--epsilon = {args.epsilon!r} is invalid: must be comma-separated real numbers") from None
    for e in epsilons:
        validate.real("--epsilon", e)
    show = validate.integer("--show", args.show, low=2, high=10001)
    f = dpgd.dpgd_tradeoff(_gap(args), points=args.points, cells=args.cells)
    st = STATEMENTS["dpgd"]
    grid = np.linspace(0.0, 1.0, show)
    a, b = f.knots()
    profile = []
    for e in epsilons:
        lo, hi = f.log_delta_enclosure(e)
        # delta of a lower bound on the trade-off function: an upper bound on delta(epsilon)
        profile.append({"epsilon": e, "delta": Result.from_log(
            "delta", lo, hi, kind="upper", status=st.status, method=st.name, source=st.source,
            note="delta of the certified lower bound on the trade-off curve", params={"epsilon": e})})
    return {**st.as_dict(), "example": args.example, "params": dict(f.gap.params),
            "max_error": f.max_error, "knots": [[float(x), float(y)] for x, y in zip(a, b)],
            "curve": f.curve(grid), "profile": profile}


def run(args) -> int:
    data = compute(args)
    if args.json:
        emit_json(data)
        return 0
    params = ", ".join(f"{k} = {v:g}" for k, v in data["params"].items())
    print(f"Thm 5.1, example {data['example']} ({params})  [kind {data['kind']}, status {data['status']}]")
    curve = data["curve"]
    table([{"alpha": fmt_bound(float(x)), "beta_lower": fmt_bound(float(lo), "down"),
            "beta_upper": fmt_bound(float(hi), "up")} for x, lo, hi in zip(curve.grid, curve.lower, curve.upper)],
          ["alpha", "beta_lower", "beta_upper"])
    print(f"\nbeta_lower is a certified lower bound on T(X, Y); the curve of Thm 5.1 lies in "
          f"[beta_lower, beta_upper] (largest gap {data['max_error']:.2g}; {len(data['knots'])} knots)\n")
    table([{"epsilon": r["epsilon"], "delta_upper": fmt_positive(r["delta"].upper, r["delta"].log_upper, "up")}
           for r in data["profile"]], ["epsilon", "delta_upper"])
    print(f"\nsource: {data['source']}")
    return 0
