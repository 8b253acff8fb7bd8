"""``dptheory compare FIRST SECOND``: the Delta-divergence in both directions, its symmetrisation,
the Blackwell verdict with its witness and the crossing points of two mechanisms (Kaissis et al.
2024). Parses the arguments, calls :func:`dptheory.comparison.summary.compare` and prints its
:class:`~dptheory.comparison.summary.ComparisonReport`.

Mechanisms are strings of :mod:`dptheory.comparison.grammar` (``gaussian(mu=1)``,
``laplace(eps=1)^4``, ``rr(eps=1, k=3)``, ``sgm(sigma=1, p=0.01, steps=1000, grid=1e-5)``,
``shuffle(eps0=1, n=1000)``, ``pp()``, ``bnp()``).
"""

from __future__ import annotations

import textwrap

from . import emit
from ..presentation.numbers import fmt_bound, fmt_positive, short
from ..presentation.text import WIDTH, table

HELP = "Delta-divergence, Blackwell dominance and crossings of two mechanisms"


def add_parser(sub) -> None:
    from ..comparison.grammar import GRAMMAR, known

    p = sub.add_parser("compare", help=HELP,
                       description=f"{HELP}. Mechanism grammar: {GRAMMAR}. Known mechanisms: {known()}.")
    p.add_argument("first", help='first mechanism, e.g. "gaussian(mu=1)"')
    p.add_argument("second", help='second mechanism, e.g. "laplace(eps=1)"')
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.add_argument("--plot", metavar="FILE", help="draw the trade-off and Bayes error curves to FILE (png/pdf)")
    p.add_argument("--tol", type=float, default=1e-11,
                   help="width of the certified intervals for exact curves (default 1e-11)")
    p.set_defaults(func=run)


def _say(text: str, indent: str = "") -> None:
    print(textwrap.fill(text, width=WIDTH, initial_indent=indent, subsequent_indent=indent + "    ",
                        break_on_hyphens=False))


def _witness_line(label: str, w: dict) -> str:
    head = f"{label}: prior {short(w['prior'])} (epsilon {short(w['epsilon'])})"
    excess = f"Bayes error excess >= {fmt_bound(w['excess'], 'down')}"
    if w.get("alpha") is None:
        return f"{head}: {excess}, privacy-profile excess >= {fmt_bound(w['profile_excess'], 'down')}"
    return (f"{head}, alpha {short(w['alpha'])}: f_first = {short(w['first_tradeoff'])}, "
            f"f_second = {short(w['second_tradeoff'])}; {excess}")


def run(args) -> int:
    from ..comparison.summary import CURVE_WORDS, compare

    if args.plot:
        from ..plots import output_path

        output_path(args.plot)  # before the computation: a path that cannot be written is exit status 2
    report = compare(args.first, args.second, tol=args.tol)
    if args.plot:
        from ..plots import draw

        draw(report.panels(), args.plot)
    if args.json:
        emit(args, report)
        return 0
    print(f"first:  {report.first}  ({CURVE_WORDS[report.first_curve]})")
    print(f"second: {report.second}  ({CURVE_WORDS[report.second_curve]})\n")
    rows = []
    for label, r in (("Delta(first || second)", report.forward), ("Delta(second || first)", report.backward),
                     ("Delta<-> (symmetric)", report.symmetric)):
        rows.append({"quantity": label, "lower": fmt_positive(r.lower, r.log_lower, "down"),
                     "upper": fmt_positive(r.upper, r.log_upper, "up"), "kind": str(r.kind),
                     "at prior": r.params.get("prior")})
    table(rows, ["quantity", "lower", "upper", "kind", "at prior"])
    print()
    d = report.dominance
    _say(f"verdict: {d.verdict}: {d.detail}")
    for key, label in (("second_more_vulnerable", "second more vulnerable"),
                       ("first_more_vulnerable", "first more vulnerable")):
        if d.witness[key]:
            _say(_witness_line(label, d.witness[key]), "  ")
    cp = ", ".join(short(x) for x in d.crossings) or "none"
    ca = "not computed (curves known through bounds)" if d.alpha_crossings is None else (
        ", ".join(short(x) for x in d.alpha_crossings) or "none")
    _say(f"crossings: Bayes error curves at prior {cp}; trade-off curves at alpha {ca}")
    if report.note:
        _say(f"note: {report.note}")
        for label, c in (("first", report.curves[0]), ("second", report.curves[1])):
            if c.kind != "exact":
                _say(f"{label}: {c.note}", "  ")
    for label, r in (("Delta(first || second)", report.forward), ("Delta(second || first)", report.backward)):
        if str(r.kind) != "exact":
            _say(f"{label} is {r.note}", "  ")
    print(f"\nsource: {report.as_dict()['source']}")
    return 0
