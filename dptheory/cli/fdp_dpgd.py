"""``dptheory fdp dpgd``: the trade-off function of one DP-GD step with a random initialisation
(Wang et al. 2023, Theorem 5.1 with the normalisation fixed; Examples D.1-D.3), certified: a
piecewise-linear lower bound, the curve's enclosure on a grid of alpha, and delta(epsilon)
upper bounds from the lower bound.
"""

from __future__ import annotations

import argparse

from . import emit, no_effect
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
    p.add_argument("--show", type=float, default=11, help="number of alpha values of the printed curve")
    p.add_argument("--points", type=float, default=201, help="number of thresholds t (tangent lines)")
    p.add_argument("--cells", type=float, default=20000, help="equal-mass cells of the integrals")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


#: example -> the options its mean gap reads
PARAMETERS = {"D.1": ("a", "sigma"), "D.2": ("a", "c", "sigma"), "D.3": ("M", "sigma"), "constant": ("mu",)}


def compute(args) -> dict:
    from .. import validate
    from ..mixtures import dpgd

    takes = PARAMETERS[args.example]
    no_effect(args, {name: f"example {args.example} reads {', '.join('--' + t for t in takes)}"
                     for other in PARAMETERS.values() for name in other if name not in takes})
    epsilons = [validate.epsilon("epsilon", e) for e in validate.number_list("--epsilon", args.epsilon)]
    gap = dpgd.example_gap(args.example, **{name: getattr(args, name) for name in takes})
    return dpgd.dpgd_report(gap, epsilons, show=validate.count("show", args.show, low=2),
                            points=validate.count("points", args.points, low=2),
                            cells=validate.count("cells", args.cells, low=2), example=args.example)


def run(args) -> int:
    data = compute(args)
    if args.json:
        takes = PARAMETERS[args.example]
        emit(args, data, {"epsilon": [r["epsilon"] for r in data["profile"]]},
             omit=[name for other in PARAMETERS.values() for name in other if name not in takes])
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
