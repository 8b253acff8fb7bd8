"""``dptheory fdp dpgd``: the trade-off function of one DP-GD step with a random initialisation
(Wang et al. 2023, Theorem 5.1 with the normalisation fixed; Examples D.1-D.3), certified: a
piecewise-linear lower bound, the curve's enclosure on a grid of alpha, and delta(epsilon)
upper bounds from the lower bound.
"""

from __future__ import annotations

import argparse

from ..presentation.json_output import emit_json
from ..presentation.numbers import fmt_bound, fmt_positive, short
from ..presentation.text import table

HELP = "f-DP of one DP-GD step with random initialization (Wang et al. 2023, Theorem 5.1)"


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


def compute(args) -> dict:
    from ..mixtures import dpgd
    from ..validate import value_list

    epsilons = value_list("--epsilon", args.epsilon, _no_range, "comma-separated real numbers")
    gap = dpgd.example_gap(args.example, a=args.a, c=args.c, M=args.M, sigma=args.sigma, mu=args.mu)
    return dpgd.dpgd_report(gap, epsilons, show=args.show, points=args.points, cells=args.cells,
                            example=args.example)


def _no_range(a, b, extra):
    raise ValueError


def run(args) -> int:
    data = compute(args)
    if args.json:
        emit_json(data)
        return 0
    params = ", ".join(f"{k} = {short(v)}" for k, v in data["params"].items())
    print(f"Theorem 5.1, example {data['example']} ({params})  [kind {data['kind']}, status {data['status']}]")
    curve = data["curve"]
    table([{"alpha": fmt_bound(float(x)), "beta_lower": fmt_bound(float(lo), "down"),
            "beta_upper": fmt_bound(float(hi), "up")} for x, lo, hi in zip(curve.grid, curve.lower, curve.upper)],
          ["alpha", "beta_lower", "beta_upper"])
    print(f"\nbeta_lower is a certified lower bound on T(X, Y); the curve of Theorem 5.1 lies in "
          f"[beta_lower, beta_upper] (largest gap {short(data['max_error'], 2)}; {len(data['knots'])} knots)\n")
    table([{"epsilon": r["epsilon"], "delta_upper": fmt_positive(r["delta"].upper, r["delta"].log_upper, "up")}
           for r in data["profile"]], ["epsilon", "delta_upper"])
    print(f"\nsource: {data['source']}")
    return 0
