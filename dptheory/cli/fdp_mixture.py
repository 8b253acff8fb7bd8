"""``dptheory fdp mixture``: the f-DP of a mixture of pairs given by the user.

Parses the components, calls :func:`dptheory.mixtures.summary.mixture_report` and prints: the
Lemma 3.1 (joint concavity) lower bound ``T(P_I, Q_I)`` and, when every component is given by its
pmfs, the exact trade-off function ``T(P_w, Q_w)`` of the mixture, both as knots; Proposition 6.1's
tightness check; and at each epsilon both directions of the hockey-stick divergence,
``H(P_w||Q_w)`` and ``H(Q_w||P_w)``, and their maximum (the (epsilon, delta) guarantee of the
pair), exact and by the Corollary B.5 upper bound, each labelled.
"""

from __future__ import annotations

import argparse

from ..validate import DomainError
from . import emit
from ..presentation.numbers import fmt_bound, fmt_positive, short
from ..presentation.text import table

HELP = "f-DP of a mixture of pairs given as pmfs: exact and joint-concavity trade-off curves"


def _floats(option: str, text: str) -> list[float]:
    from ..validate import number_list

    return number_list(option, text)


def _pair(text: str):
    parts = text.split(":")
    if len(parts) != 2:
        raise DomainError(f"--pair = {text!r} is invalid: must be P:Q, two comma-separated pmfs (e.g. 0.5,0.5:0.2,0.8)")
    return _floats("--pair", parts[0]), _floats("--pair", parts[1])


def _curve(text: str):
    knots = [_floats("--curve", k) for k in text.split(";") if k.strip()]
    if not knots or any(len(k) != 2 for k in knots):
        raise DomainError(f"--curve = {text!r} is invalid: must be knots alpha,beta;alpha,beta;... from (0, beta_0)")
    return [k[0] for k in knots], [k[1] for k in knots]


def add_parser(sub) -> None:
    p = sub.add_parser("mixture", help=HELP, description=HELP + ". Components: the --pair options in order, "
                       "then the --curve options in order; one weight per component.",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--weights", required=True, help="mixture weights w_i >= 0 summing to 1, e.g. 0.3,0.7")
    p.add_argument("--pair", action="append", default=[], metavar="P:Q",
                   help="a component given by its pmfs on a common support, e.g. 0.5,0.5:0.2,0.8 (repeatable)")
    p.add_argument("--curve", action="append", default=[], metavar="KNOTS",
                   help="a component given by (a lower bound on) its trade-off function, knots "
                   "alpha,beta;alpha,beta;... starting at alpha = 0 (repeatable; no exact mixture then)")
    p.add_argument("--epsilon", default="0,0.5,1", help="comma-separated epsilons for delta(epsilon)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _cell(res) -> str:
    """An enclosure [lower, upper] (one number where both ends print the same), never 0 for a
    positive quantity."""
    lo, hi = fmt_positive(res.lower, res.log_lower, "down"), fmt_positive(res.upper, res.log_upper, "up")
    return hi if lo == hi else f"[{lo}, {hi}]"


def run(args) -> int:
    from ..mixtures.summary import DIRECTIONS, mixture_report

    weights, pairs, curves = _floats("--weights", args.weights), [_pair(t) for t in args.pair], [_curve(t) for t in args.curve]
    epsilons = _floats("--epsilon", args.epsilon)
    report = mixture_report(weights, pairs, curves, epsilons, pair_name="--pair", curve_name="--curve")
    data = report.as_dict()
    if args.json:
        emit(args, data, {"weights": weights, "pair": [{"P": p, "Q": q} for p, q in pairs],
                          "curve": [{"alpha": a, "beta": b} for a, b in curves], "epsilon": epsilons})
        return 0
    blocks = [("joint-concavity lower bound T(P_I, Q_I)", data["bound"])]
    if data["exact"] is not None:
        blocks.append(("exact trade-off function T(P_w, Q_w)", data["exact"]))
    for title, block in blocks:
        print(f"{title}  [kind {block['kind']}, status {block['status']}]")
        table([{"alpha": fmt_bound(a), "beta": fmt_bound(b)} for a, b in block["knots"]], ["alpha", "beta"])
        print(f"source: {block['source']}\n")
    if data["tight"] is not None:
        t = data["tight"]
        print(f"Proposition 6.1: Lemma 3.1 is {'tight' if t['tight'] else 'not tight'} here "
              f"(largest gap between the privacy-loss CDFs: {short(t['cdf_gap'], 3)})\n")
    if not data["profile"]:
        return 0
    exact = data["exact"] is not None
    sections = ([("exact", "delta of the mixture, exact [kind exact]")] if exact else []) + [
        ("bound", "delta of the mixture, Corollary B.5 upper bound sum_i w_i delta_i [kind upper]")]
    for key, title in sections:
        print(title + ":")
        rows = [{"epsilon": r["epsilon"], "H(P||Q)": _cell(r[f"delta_{key}_PQ"]), "H(Q||P)": _cell(r[f"delta_{key}_QP"]),
                 "pair (max)": _cell(r[f"delta_{key}_pair"])} for r in data["profile"]]
        table(rows, ["epsilon", "H(P||Q)", "H(Q||P)", "pair (max)"])
        print()
    print(f"H(P||Q) = {DIRECTIONS['PQ']}; H(Q||P) = {DIRECTIONS['QP']}; pair (max) = {DIRECTIONS['pair']}")
    print(f"upper bound: {data['profile'][0]['delta_bound'].source}")
    return 0
