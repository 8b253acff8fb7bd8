"""``dptheory compare FIRST SECOND``: the Delta-divergence in both directions, its symmetrisation,
the Blackwell verdict with its witness and the crossing points of two mechanisms (Kaissis et al.
2024; :mod:`dptheory.comparison`).

Mechanisms are strings of :mod:`dptheory.comparison.grammar` (``gaussian(mu=1)``,
``laplace(eps=1)^4``, ``rr(eps=1, k=3)``, ``sgm(sigma=1, p=0.01, steps=1000)``,
``shuffle(eps0=1, n=1000)``, ``pp()``, ``bnp()``).
"""

from __future__ import annotations

import textwrap

from .output import WIDTH, emit_json, fmt_bound, table

HELP = "Delta-divergence, Blackwell dominance and crossings of two mechanisms"


def add_parser(sub) -> None:
    from ..comparison.grammar import GRAMMAR, known

    p = sub.add_parser("compare", help=HELP,
                       description=f"{HELP}. Mechanism grammar: {GRAMMAR}. Known mechanisms: {known()}.")
    p.add_argument("first", help='first mechanism, e.g. "gaussian(mu=1)"')
    p.add_argument("second", help='second mechanism, e.g. "laplace(eps=1)"')
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.add_argument("--plot", metavar="FILE", help="draw the trade-off and Bayes error curves to FILE (png/pdf)")
    p.add_argument("--tol", type=float, default=1e-11, help="width of the certified intervals (default 1e-11)")
    p.set_defaults(func=run)


def _kind_note(first, second):
    """Delta(f || g) is non-decreasing in f and non-increasing in g: a lower-bound curve in the first
    slot gives a lower bound of Delta, in the second an upper bound."""
    from ..results import Kind, Status

    def kind(first_kind, second_kind):
        if first_kind == "exact" and second_kind == "exact":
            return Kind.EXACT, Status.PROVEN, ""
        if first_kind == "lower" and second_kind == "exact":
            return Kind.LOWER, Status.PROVEN, "the first curve is a certified lower bound: a lower bound on Delta"
        if first_kind == "exact" and second_kind == "lower":
            return Kind.UPPER, Status.PROVEN, "the second curve is a certified lower bound: an upper bound on Delta"
        return Kind.APPROXIMATION, Status.NOT_A_BOUND, "both curves are lower bounds: Delta between the bounds"

    return kind(first.kind, second.kind), kind(second.kind, first.kind)


def compare(first_text: str, second_text: str, tol: float = 1e-11) -> dict:
    """Everything ``dptheory compare`` prints, as a dict of Results and plain data."""
    from ..comparison import dominance, parse_mechanism

    first, second = parse_mechanism(first_text), parse_mechanism(second_text)
    f, g = first.tradeoff(), second.tradeoff()
    dom = dominance(f, g, divergence_tol=tol)
    (kf, sf, nf), (kb, sb, nb) = _kind_note(first, second)
    fw = dom.forward.replace(kind=kf, status=sf, note="; ".join(x for x in (dom.forward.note, nf) if x),
                             method="delta-forward")
    bw = dom.backward.replace(kind=kb, status=sb, note="; ".join(x for x in (dom.backward.note, nb) if x),
                              method="delta-backward")
    from ..results import Kind, Result, Status

    exact = first.exact and second.exact
    sym = Result("delta-divergence-symmetric", max(fw.lower, bw.lower), max(fw.upper, bw.upper),
                 Kind.EXACT if exact else Kind.APPROXIMATION, Status.PROVEN if exact else Status.NOT_A_BOUND,
                 "delta-symmetric", "Kaissis et al. (2024), Definition 3",
                 "" if exact else "computed on lower-bound curves")
    note = "" if exact else "verdict and witness concern the curves compared (lower bounds for: " + ", ".join(
        m.name for m in (first, second) if not m.exact) + ")"
    return {"first": first.name, "second": second.name,
            "first_curve": first.kind, "second_curve": second.kind,
            "delta_forward": fw, "delta_backward": bw, "delta_symmetric": sym,
            "verdict": dom.verdict, "witness": dom.witness,
            "crossings": {"prior": dom.crossings, "alpha": dom.alpha_crossings},
            "note": note, "_curves": (f, g)}


_VERDICT = {"first": "the first mechanism Blackwell-dominates the second (it is less private everywhere)",
            "second": "the second mechanism Blackwell-dominates the first (it is less private everywhere)",
            "equal": "the mechanisms are equivalent (equal trade-off functions)",
            "neither": "neither dominates: the curves cross"}


def run(args) -> int:
    out = compare(args.first, args.second, args.tol)
    curves = out.pop("_curves")
    if args.plot:
        plot(curves, out, args.plot)
    if args.json:
        emit_json(out)
        return 0
    print(f"first:  {out['first']}  ({out['first_curve']} trade-off function)")
    print(f"second: {out['second']}  ({out['second_curve']} trade-off function)\n")
    rows = []
    for label, key in (("Delta(first || second)", "delta_forward"), ("Delta(second || first)", "delta_backward"),
                       ("Delta<-> (symmetric)", "delta_symmetric")):
        r = out[key]
        rows.append({"quantity": label, "lower": fmt_bound(r.lower, "down"), "upper": fmt_bound(r.upper, "up"),
                     "kind": str(r.kind), "at prior": r.params.get("prior")})
    table(rows, ["quantity", "lower", "upper", "kind", "at prior"])
    def say(text, indent=""):
        print(textwrap.fill(text, width=WIDTH, initial_indent=indent, subsequent_indent=indent + "    ",
                            break_on_hyphens=False))

    print()
    say(f"verdict: {out['verdict']}: {_VERDICT[out['verdict']]}")
    for key, text in (("second_more_vulnerable", "second more vulnerable"), ("first_more_vulnerable", "first more vulnerable")):
        w = out["witness"][key]
        if w:
            say(f"{text}: prior {w['prior']:.6g} (epsilon {w['epsilon']:.6g}), alpha {w['alpha']:.6g}: "
                f"f_first = {w['first_tradeoff']:.6g}, f_second = {w['second_tradeoff']:.6g}; "
                f"Bayes error excess >= {fmt_bound(w['excess'], 'down')}", "  ")
    cp = ", ".join(f"{x:.6g}" for x in out["crossings"]["prior"]) or "none"
    ca = ", ".join(f"{x:.6g}" for x in out["crossings"]["alpha"]) or "none"
    say(f"crossings: Bayes error curves at prior {cp}; trade-off curves at alpha {ca}")
    if out["note"]:
        say(f"note: {out['note']}")
    print("\nsource: Kaissis et al. (2024), Definition 1, Corollary 1, Theorem 1")
    return 0


def plot(curves, out, path) -> None:
    """Trade-off functions and Bayes error functions of the two mechanisms, side by side."""
    import numpy as np

    from ..comparison import bayes_error as be
    from ..plots import _pyplot

    plt = _pyplot()
    f, g = curves
    a = np.linspace(0, 1, 801)
    fig, axes = plt.subplots(1, 2, figsize=(9, 4))
    for curve, label in ((f, out["first"]), (g, out["second"])):
        axes[0].plot(a, np.asarray(curve(a), dtype=float), label=label)
        axes[1].plot(a, be.enclosure(curve).bounds(a)[0], label=label)
    axes[0].plot(a, 1 - a, ":", color="grey")
    axes[0].set_xlabel("alpha")
    axes[0].set_ylabel("beta = f(alpha)")
    axes[0].set_title("trade-off functions")
    axes[1].set_xlabel("prior pi")
    axes[1].set_ylabel("R_min(pi)")
    axes[1].set_title(f"Bayes error; Delta = {out['delta_forward'].upper:.3g} / {out['delta_backward'].upper:.3g}")
    for x in out["crossings"]["prior"]:
        axes[1].axvline(x, color="grey", lw=0.5)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
