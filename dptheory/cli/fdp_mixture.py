"""``dptheory fdp mixture``: the f-DP of a mixture of pairs given by the user.

Prints the Lemma 3.1 (joint concavity) lower bound ``T(P_I, Q_I)`` and, when every component is
given by its pmfs, the exact trade-off function ``T(P_w, Q_w)`` of the mixture (Neyman-Pearson
on the explicit distributions), both as knots; Prop. 6.1's tightness check; and at each
requested epsilon the exact delta of the mixture next to the Cor. B.5 upper bound
``sum_i w_i delta_i(epsilon)``.
"""

from __future__ import annotations

import argparse

from ..validate import DomainError
from .output import emit_json, fmt_bound, fmt_positive, table

HELP = "f-DP of a mixture of pairs given as pmfs: exact and joint-concavity trade-off curves"


def _floats(option: str, text: str) -> list[float]:
    try:
        return [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise DomainError(f"{option} = {text!r} is invalid: must be comma-separated real numbers") from None


def _pair(text: str):
    parts = text.split(":")
    if len(parts) != 2:
        raise DomainError(f"--pair = {text!r} is invalid: must be P:Q, two comma-separated pmfs (e.g. 0.5,0.5:0.2,0.8)")
    return _floats("--pair", parts[0]), _floats("--pair", parts[1])


def _curve(text: str):
    from .. import tradeoff

    knots = [_floats("--curve", k) for k in text.split(";") if k.strip()]
    if not knots or any(len(k) != 2 for k in knots):
        raise DomainError(f"--curve = {text!r} is invalid: must be knots alpha,beta;alpha,beta;... from (0, beta_0)")
    try:
        return tradeoff.from_knots([k[0] for k in knots], [k[1] for k in knots])
    except DomainError as exc:
        raise DomainError(f"--curve = {text!r} is not a trade-off function: {exc}") from None


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


def _knots(f) -> list[list[float]]:
    a, b = f.knots()
    return [[float(x), float(y)] for x, y in zip(a, b)]


def compute(weights_text: str, pair_texts, curve_texts, epsilon_text: str) -> dict:
    """Everything the command prints, as one JSON-able dict."""
    from ..mixtures import STATEMENTS, concavity, fdivergence
    from ..results import Result
    from ..tradeoff import from_pmfs

    weights = concavity.check_weights(_floats("--weights", weights_text))
    pairs = [_pair(t) for t in pair_texts]
    curves = [_curve(t) for t in curve_texts]
    if len(pairs) + len(curves) != len(weights):
        raise DomainError(f"--weights has {len(weights)} entries but {len(pairs) + len(curves)} components were "
                          "given (--pair and --curve): one weight per component is needed")
    if not len(weights):
        raise DomainError("--weights is empty: at least one component is needed")
    if pairs:
        pairs = concavity.check_pairs(pairs, len(pairs), "--pair")
    comps = [from_pmfs(p, q) for p, q in pairs] + curves
    bound = concavity.joint_concavity_bound(weights, comps)
    exact = concavity.mixture_tradeoff(weights, pairs) if not curves else None
    epsilons = _floats("--epsilon", epsilon_text)
    out: dict = {
        "weights": weights.tolist(),
        "bound": {**STATEMENTS["joint-concavity"].as_dict(), "knots": _knots(bound)},
        "exact": None if exact is None else {**STATEMENTS["mixture-exact"].as_dict(), "knots": _knots(exact)},
        "tight": None,
        "profile": [],
    }
    if exact is not None:
        tight, gap = concavity.lemma31_is_tight(weights, pairs)
        out["tight"] = {**STATEMENTS["lemma31-tightness"].as_dict(), "tight": tight, "cdf_gap": gap}
    st = STATEMENTS["mixture-exact"]
    for e in epsilons:
        row: dict = {"epsilon": e, "delta_bound": fdivergence.hockey_stick_bound(weights, comps, e)}
        if exact is not None:
            lo, hi = exact.log_delta_enclosure(e)
            row["delta"] = Result.from_log("delta", lo, hi, kind=st.kind, status=st.status, method=st.name,
                                           source=st.source, params={"epsilon": e})
        out["profile"].append(row)
    return out


def run(args) -> int:
    data = compute(args.weights, args.pair, args.curve, args.epsilon)
    if args.json:
        emit_json(data)
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
        print(f"Prop. 6.1: Lemma 3.1 is {'tight' if t['tight'] else 'not tight'} here "
              f"(largest gap between the privacy-loss CDFs: {t['cdf_gap']:.3g})\n")
    rows = []
    for r in data["profile"]:
        b = r["delta_bound"]
        row = {"epsilon": r["epsilon"], "delta_bound_upper": fmt_positive(b.upper, b.log_upper, "up")}
        if "delta" in r:
            d = r["delta"]
            lo, hi = fmt_positive(d.lower, d.log_lower, "down"), fmt_positive(d.upper, d.log_upper, "up")
            row["delta_exact"] = hi if lo == hi else f"[{lo}, {hi}]"
        rows.append(row)
    columns = ["epsilon"] + (["delta_exact"] if data["exact"] is not None else []) + ["delta_bound_upper"]
    table(rows, columns)
    print(f"\ndelta_bound_upper: {data['profile'][0]['delta_bound'].source}" if rows else "")
    return 0

