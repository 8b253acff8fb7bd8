"""``dptheory fdp shuffle``: the f-DP of n shuffled eps0-LDP users (Wang et al. 2023, §4).

Parses the options, calls :func:`dptheory.shuffle.fdp.fdp_report` (or, with ``--plot``,
:func:`dptheory.plots.render`) and prints: the knots of the certified lower bound on the
trade-off function, delta(epsilon) (Corollary 4.3 with the corrected t_y, combined with the
eps0-DP bound), optionally composed over T rounds, and the GDP mu closest to the curve (an
approximation, not a bound).
"""

from __future__ import annotations

from .. import validate
from ..presentation.json_output import emit_json
from ..presentation.cells import plain
from ..presentation.numbers import fmt, fmt_positive, short
from ..shuffle.clones import CLONE_PROBABILITY
from ..presentation.text import table

HELP = "f-DP of shuffling: trade-off curve, delta(epsilon) and a GDP description (Wang et al. 2023)"

#: knots shown in the text output (all of them with --json)
SHOWN_KNOTS = 21

def add_parser(sub) -> None:
    p = sub.add_parser("shuffle", help=HELP)
    p.add_argument("--eps0", default="1", help="local epsilon of the randomizer (default 1)")
    p.add_argument("--n", default="1000", help="number of users (default 1000; 1e12 is accepted)")
    p.add_argument("--epsilon", default="0.1,0.2,0.5,1",
                   help="comma-separated epsilons for delta(epsilon) (default 0.1,0.2,0.5,1)")
    p.add_argument("--alpha", help="comma-separated type I errors at which to print the curve")
    p.add_argument("--rounds", help="also delta(epsilon) of T composed rounds (PLD, upper bound)")
    p.add_argument("--digits", help="delta with mpmath at this many digits")
    p.add_argument("--reduction", choices=("stronger-clones", "clones"),
                   help="the pair: stronger-clones (the paper's, clone probability 2/(e^eps0+1); unproven for a "
                        "general eps0-LDP randomizer, the default for one round) or clones (Feldman, McMillan, "
                        "Talwar 2021, e^-eps0; proven, the default for --rounds)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--plot", metavar="FILE", help="draw the trade-off curve to FILE (PNG or PDF)")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.plot:
        from .. import plots

        path = plots.render("shuffle-tradeoff", args.plot, eps0=validate.real("eps0", args.eps0),
                            n=validate.integer("n", args.n, low=1), reduction=args.reduction or "stronger-clones")
        print(f"wrote {path}")
        return 0
    from ..shuffle.fdp import fdp_report

    report = fdp_report(args.eps0, args.n, validate.number_list("epsilon", args.epsilon),
                        alphas=validate.number_list("alpha", args.alpha) if args.alpha is not None else (),
                        rounds=args.rounds, digits=args.digits, reduction=args.reduction)
    data = report.as_dict()
    if args.json:
        emit_json(data)
        return 0
    par = data["parameters"]
    red = par["reduction"]
    print(f"f-DP of n = {par['n']} shuffled users of an eps0 = {short(par['eps0'])} local randomizer")
    print(plain(f"pair: {red} (clone probability {CLONE_PROBABILITY[red]}), status {data['status']}"
                + ("" if data["status"] == "proven" else f": {data['status_note']}; --reduction clones gives the proven "
                   "pair of Feldman, McMillan, Talwar (2021)")))
    knots = data["knots"]
    print(f"trade-off curve: {len(knots)} knots; {data['note']}")
    step = max(1, (len(knots) - 1) // (SHOWN_KNOTS - 1))
    shown = sorted(set(range(0, len(knots), step)) | {len(knots) - 1})
    if len(shown) < len(knots):
        print(f"  ({len(shown)} of them; --json prints all)")
    table([{"alpha": fmt(knots[i][0]), "beta": fmt(knots[i][1])} for i in shown], ["alpha", "beta"])
    if data["values"]:
        print("\ncurve at the requested alpha (lower bound on the trade-off function):")
        table([{"alpha": fmt(v["alpha"]), "beta": fmt(v["beta"])} for v in data["values"]], ["alpha", "beta"])
    if data["profile"]:
        print(f"\ndelta(epsilon): min(Corollary 4.3 with the corrected t_y, the eps0-DP bound), an upper bound "
              f"({data['profile'][0]['status']}); delta_lower '-' where the lower end is not resolved:")
        rows, columns = [], ["epsilon", "delta_lower", "delta_upper", "bound"]
        for entry in data["profile"]:
            row = {"epsilon": fmt(entry["epsilon"]), "delta_upper": fmt_positive(entry["delta"], entry["log_delta_upper"], "up"),
                   "delta_lower": _lower(entry["delta_lower"], entry["log_delta_lower"], entry["delta"]),
                   "bound": entry["bound"]}
            if "rounds_result" in entry:
                res = entry["rounds_result"]
                row["rounds_delta_upper"] = fmt_positive(res["upper"], res.get("log_upper"), "up")
            rows.append(row)
        if par["rounds"] is not None:
            columns.append("rounds_delta_upper")
            res = data["profile"][0]["rounds_result"]
            print(f"  (rounds_delta_upper: {par['rounds']} composed rounds, PLD of the {par['rounds_reduction']} pair, "
                  f"status {res['status']}; a value of 1 means the error bound reaches 1: delta <= 1 only)")
        table(rows, columns)
        if par["digits"] is not None:
            for entry in data["profile"]:
                print(f"  delta({short(entry['epsilon'])}) = {entry.get('delta_value')}")
    gdp = data["gdp"]
    asym = gdp["asymptotic_mu"]
    print(f"\nGDP description: mu = {fmt(gdp['upper'])} (approximation, not a bound; sup distance "
          f"{fmt(gdp['params']['sup_distance'])}); asymptotic mu = tanh(eps0/2) 2/sqrt((n-1) q) = "
          f"{fmt(asym) if asym != float('inf') else 'inf'}")
    print(plain(f"\nsources: {data['source']}; {data['profile'][0]['source'] if data['profile'] else ''}"))
    return 0


def _lower(value, log_value, upper) -> str:
    """The lower end: '-' where it is not resolved (0 below a positive upper end), never 0 for
    a positive quantity; 0 where delta is exactly 0."""
    if (value == 0 and log_value is None) and upper > 0:
        return "-"
    return fmt_positive(value, log_value if log_value is not None else float("-inf"), "down")
