"""Figures of f-DP: the trade-off curve of shuffling (Wang et al. 2023) and the comparison of two
mechanisms by their trade-off and Bayes error curves (Kaissis et al. 2024, Figure 3)."""

from __future__ import annotations

import dataclasses

import numpy as np

from .. import validate
from ..plots import Panel, Plot, Ruler, Series
from .labels import ALPHA, BAYES, BETA, EPS0, PRIOR, fmt


def shuffle_tradeoff(eps0=2.0, n=50, points=61, reduction="stronger-clones") -> list[Panel]:
    """The certified lower bound max(C(f_Shuffle), f_{eps0,0}) of the shuffled eps0-LDP mechanism
    (Wang et al. 2023, Theorem 4.2 as an inequality) on the pair of ``reduction``, the exact curves
    of the stronger-clone pair (Feldman, McMillan, Talwar 2023) and of the clone pair (Feldman,
    McMillan, Talwar 2021; the pair whose RDP Chen, Cao, Ge compute) for n <= their exact limit,
    and the GDP curve that best describes it (an approximation); statuses from
    :func:`dptheory.shuffle.fdp.status`."""
    from .. import tradeoff
    from ..shuffle import fdp

    eps0, n = validate.eps0("eps0", eps0), validate.n("n", n)
    xs = np.linspace(0.0, 1.0, validate.points("points", points))
    curve = fdp.shuffle_tradeoff(eps0, n, reduction=reduction)
    series = [Series(f"$C(f_{{\\mathrm{{Shuffle}}}})$, Theorem 4.2 ({reduction})", xs, np.asarray(curve(xs), dtype=float),
                     "lower", fdp.status(reduction)[0].value, f"shuffle-tradeoff:{reduction}")]
    if n <= fdp.EXACT_MAX_N:
        series.append(Series("$T(P,Q)$ of the stronger-clone pair (Feldman et al. 2023)", xs, fdp.pq_tradeoff(eps0, n)(xs),
                             "lower", fdp.status("stronger-clones")[0].value, "pq-tradeoff:stronger-clones"))
        series.append(Series("$T(P,Q)$ of the clone pair (Feldman et al. 2021)", xs,
                             fdp.pq_tradeoff(eps0, n, reduction="clones")(xs), "lower", fdp.status("clones")[0].value,
                             "pq-tradeoff:clones"))
    mu = fdp.gdp_fit(curve).upper  # an approximation (a Result labelled "not a bound")
    series.append(Series(f"$G_\\mu$, $\\mu = {mu:.4g}$ (GDP fit)", xs, tradeoff.gaussian(mu)(xs), "approximation",
                         "not a bound", "gdp-fit"))
    series.append(Series("Id (no information)", xs, 1 - xs, "exact", "proven", "identity"))
    return [Panel(f"f-DP of shuffling: {fmt(EPS0, eps0)}, $n = {n}$", ALPHA, BETA, series)]


def comparison(first="gaussian(mu=1)", second="laplace(eps=1)", points=101) -> Plot:
    """Kaissis et al. (2024), Figure 3 (for the defaults: the Gaussian mechanism G_1 and the Laplace
    mechanism with b = 1): the two trade-off curves and Bayes error curves R_min(pi), with rulers
    where Delta is attained in each direction (the certified Delta and its prior from
    :func:`dptheory.comparison.compare`, as ``dptheory compare`` prints them)."""
    from ..comparison import compare

    report = compare(first, second)
    trade, bayes = report.panels(validate.points("points", points))
    rulers, values = [], []
    for res, (a, b), name in ((report.forward, (0, 1), "first‖second"), (report.backward, (1, 0), "second‖first")):
        pi = res.params.get("prior")
        if pi is None or not np.isfinite(res.upper):
            continue
        lo_a = report.curves[a].enclosure().bounds(np.array([pi]))[0][0]
        lo_b = report.curves[b].enclosure().bounds(np.array([pi]))[0][0]
        sym = "\\Delta(" + ("\\mathrm{first}\\|\\mathrm{second}" if a == 0 else "\\mathrm{second}\\|\\mathrm{first}") + ")"
        rulers.append(Ruler(float(pi), float(min(lo_a, lo_b)), float(max(lo_a, lo_b)), f"${sym} = {res.upper:.3g}$"))
        values.append(f"Δ({name}) = {res.upper:.4g} at π = {pi:.4g} ({res.kind}, {res.status})")
    trade = dataclasses.replace(trade, title=f"trade-off functions: first = {first}, second = {second}", xlabel=ALPHA,
                                ylabel=BETA)
    bayes = dataclasses.replace(bayes, title="Bayes error functions; rulers: where Δ is attained", xlabel=PRIOR,
                                ylabel=BAYES, rulers=tuple(rulers))
    notes = ["Rulers: " + "; ".join(values) + "."]
    crossings = report.dominance.crossings
    if crossings:
        notes.append("The Bayes error curves cross at π = " + ", ".join(f"{c:.4g}" for c in crossings)
                     + ": neither mechanism Blackwell-dominates the other.")
    return Plot([trade, bayes], notes)
