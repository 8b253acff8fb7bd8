"""``dptheory fdp shuffle``: the f-DP of n shuffled eps0-LDP users (Wang et al. 2023, §4).

Prints the knots of the certified lower bound C(f_Shuffle) on the trade-off function
(:func:`dptheory.shuffle.fdp.shuffle_tradeoff`), delta(epsilon) by Corollary 4.3 with the
corrected t_y (:func:`dptheory.shuffle.fdp.shuffle_delta`), optionally composed over T rounds
(:func:`dptheory.shuffle.rounds.rounds_delta`), and the GDP mu closest to the curve (an
approximation, not a bound).
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate
from .output import emit_json, fmt, fmt_positive, table

HELP = "f-DP of shuffling: trade-off curve, delta(epsilon) and a GDP description (Wang et al. 2023)"

#: knots shown in the text output (all of them with --json)
SHOWN_KNOTS = 21


def add_parser(sub) -> None:
    p = sub.add_parser("shuffle", help=HELP)
    p.add_argument("--eps0", type=float, default=1.0, help="local epsilon of the randomizer (default 1)")
    p.add_argument("--n", type=float, default=1000, help="number of users (default 1000)")
    p.add_argument("--epsilon", default="0.1,0.2,0.5,1",
                   help="comma-separated epsilons for delta(epsilon) (default 0.1,0.2,0.5,1)")
    p.add_argument("--alpha", help="comma-separated type I errors at which to print the curve")
    p.add_argument("--rounds", type=int, help="also delta(epsilon) of T composed rounds (PLD, upper bound)")
    p.add_argument("--digits", type=int, help="delta with mpmath at this many digits")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--plot", metavar="FILE", help="draw the trade-off curve to FILE (PNG or PDF)")
    p.set_defaults(func=run)


def _numbers(name: str, text: str | None) -> list[float]:
    if text is None:
        return []
    values = []
    for part in str(text).split(","):
        part = part.strip()
        if not part:
            continue
        try:
            values.append(float(part))
        except ValueError:
            raise validate.DomainError(f"{name} = {part!r} is invalid: must be a comma-separated list of numbers") from None
    return values


def run(args) -> int:
    from ..shuffle import fdp

    eps0 = validate.real("eps0", args.eps0, low=0.0, low_open=True)
    n = validate.integer("n", args.n, low=1)
    epsilons = [validate.real("epsilon", e, low=0.0) for e in _numbers("epsilon", args.epsilon)]
    alphas = [validate.real("alpha", a, low=0.0, high=1.0) for a in _numbers("alpha", args.alpha)]
    digits = validate.digits(args.digits)
    rounds = None if args.rounds is None else validate.integer("rounds", args.rounds, low=1)

    curve_digits = digits if digits is not None and n <= fdp.MP_EXACT_MAX_N else None
    curve = fdp.shuffle_tradeoff(eps0, n, digits=curve_digits)
    ka, kb = curve.knots()
    knots = [[float(a), float(b)] for a, b in zip(ka, kb)]
    fit = fdp.gdp_fit(curve)
    asymptotic = fdp.asymptotic_mu(eps0, n)
    profile = []
    for e in epsilons:
        res = fdp.shuffle_delta(eps0, n, e, digits=digits)
        entry = {"epsilon": e, "delta": res.upper, "delta_lower": res.lower,
                 "log_delta_upper": res.log_upper, "log_delta_lower": res.log_lower,
                 "kind": str(res.kind), "status": str(res.status), "method": res.method, "source": res.source}
        if "value" in res.params:
            entry["delta_value"] = res.params["value"]
        if rounds is not None:
            from ..shuffle.rounds import rounds_delta  # helper "pld" (contract)

            composed = rounds_delta(eps0, n, rounds, e)
            entry.update(rounds=rounds, rounds_delta=composed.upper, rounds_result=composed.as_dict())
        profile.append(entry)
    values = [{"alpha": a, "beta": float(curve(a))} for a in alphas]
    parameters = {"eps0": eps0, "n": n, "digits": digits, "rounds": rounds}
    note = ("knots of a certified lower bound on the trade-off function of the shuffled mechanism "
            "(Thm 4.2 holds as T(P,Q) >= C(f_Shuffle)); "
            + ("exact C(f_Shuffle) up to rounding" if n <= fdp.EXACT_MAX_N or curve_digits is not None
               else f"envelope of {fdp.GRID_LINES} lines 1 - delta(eps) - e^eps alpha and their reflections"))
    if args.json:
        emit_json({"parameters": parameters, "knots": knots, "kind": "lower", "status": "proven",
                   "source": fdp.SOURCE_THM_4_2, "note": note, "profile": profile, "values": values,
                   "gdp": {**fit.as_dict(), "asymptotic_mu": asymptotic}})
        return 0
    if args.plot:
        _plot(args.plot, curve, fit.value, eps0, n)
        print(f"wrote {args.plot}")
        return 0
    print(f"f-DP of n = {n} shuffled users of an eps0 = {eps0!r} local randomizer")
    print(f"trade-off curve: {len(knots)} knots; {note}")
    idx = np.unique(np.linspace(0, len(knots) - 1, min(SHOWN_KNOTS, len(knots))).astype(int))
    rows = [{"alpha": fmt(knots[i][0]), "beta": fmt(knots[i][1])} for i in idx]
    if len(idx) < len(knots):
        print(f"  ({len(idx)} of them; --json prints all)")
    table(rows, ["alpha", "beta"])
    if values:
        print("\ncurve at the requested alpha (lower bound on the trade-off function):")
        table([{"alpha": fmt(v["alpha"]), "beta": fmt(v["beta"])} for v in values], ["alpha", "beta"])
    if profile:
        print("\ndelta(epsilon), Corollary 4.3 with the corrected t_y (upper bound, proven):")
        rows, columns = [], ["epsilon", "delta_lower", "delta_upper"]
        for entry in profile:
            row = {"epsilon": fmt(entry["epsilon"]),
                   "delta_lower": fmt_positive(entry["delta_lower"], entry["log_delta_lower"], "down"),
                   "delta_upper": fmt_positive(entry["delta"], entry["log_delta_upper"], "up")}
            if rounds is not None:
                res = entry["rounds_result"]
                row["rounds_delta_upper"] = fmt_positive(res["upper"], res.get("log_upper"), "up")
            rows.append(row)
        if rounds is not None:
            columns.append("rounds_delta_upper")
            print(f"  (rounds_delta_upper: {rounds} composed rounds)")
        table(rows, columns)
        if digits is not None:
            for entry in profile:
                print(f"  delta({entry['epsilon']!r}) = {entry.get('delta_value')}")
    mu_line = (f"\nGDP description: mu = {fmt(fit.value)} (approximation, not a bound; sup distance "
               f"{fmt(fit.params['sup_distance'])}); asymptotic mu = tanh(eps0/2) 2/sqrt((n-1) q) = "
               f"{fmt(asymptotic) if math.isfinite(asymptotic) else 'inf'}")
    print(mu_line)
    print(f"\nsources: {fdp.SOURCE_THM_4_2}; {fdp.SOURCE_COR_4_3}")
    return 0


def _plot(path, curve, mu, eps0, n) -> None:
    """The curve, with (n <= EXACT_MAX_N) the exact T(P, Q) of the same pair (the stronger-clone
    and worst-case variation-ratio pair) and Chen et al.'s exact curve (clones e^-eps0)."""
    from .. import plots, tradeoff
    from ..shuffle import fdp

    xs = np.linspace(0.0, 1.0, 201)
    curves = {"C(f_Shuffle), Thm 4.2 (certified lower bound)": (xs, np.asarray(curve(xs), dtype=float))}
    if n <= fdp.EXACT_MAX_N:
        curves["T(P,Q) exact: stronger clones = variation ratio"] = (xs, fdp.pq_tradeoff(eps0, n)(xs))
        curves["Chen et al. exact curve: clones e^-eps0"] = (
            xs, fdp.pq_tradeoff(eps0, n, clone_prob=math.exp(-eps0))(xs))
    curves[f"G_mu, mu = {mu:.4g} (approximation)"] = (xs, tradeoff.gaussian(mu)(xs))
    curves["Id (no information)"] = (xs, 1 - xs)
    plots.line_panels({f"f-DP of shuffling: eps0 = {eps0:g}, n = {n}": ("alpha", curves)}, path, logy=False)
