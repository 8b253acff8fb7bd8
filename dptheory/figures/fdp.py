"""Figures of f-DP: the trade-off curve of shuffling (Wang et al. 2023) and the comparison of two
mechanisms by their trade-off and Bayes error curves (Kaissis et al. 2024, Figure 3)."""

from __future__ import annotations

import numpy as np

from ..plots import Panel, Series


def shuffle_tradeoff(eps0=2.0, n=50, points=61, reduction="stronger-clones") -> list[Panel]:
    """The certified lower bound max(C(f_Shuffle), f_{eps0,0}) of the shuffled eps0-LDP mechanism
    (Theorem 4.2 as an inequality) on the pair of ``reduction``, the exact curve of the stronger-clone
    pair and Chen et al.'s clone curve (n <= their exact limit), and the GDP curve that best
    describes it (an approximation); statuses from :func:`dptheory.shuffle.fdp.status`."""
    from .. import tradeoff
    from ..shuffle import fdp

    eps0, n = float(eps0), int(float(n))
    xs = np.linspace(0.0, 1.0, int(points))
    curve = fdp.shuffle_tradeoff(eps0, n, reduction=reduction)
    series = [Series(f"C(f_Shuffle), Theorem 4.2 ({reduction})", xs, np.asarray(curve(xs), dtype=float), "lower",
                     fdp.status(reduction)[0].value)]
    if n <= fdp.EXACT_MAX_N:
        series.append(Series("T(P,Q) of the stronger-clone pair", xs, fdp.pq_tradeoff(eps0, n)(xs), "lower",
                             fdp.status("stronger-clones")[0].value))
        series.append(Series("Chen et al.: clone pair (e^-eps0)", xs,
                             fdp.pq_tradeoff(eps0, n, reduction="clones")(xs), "lower", fdp.status("clones")[0].value))
    mu = fdp.gdp_fit(curve).upper  # an approximation (a Result labelled "not a bound")
    series.append(Series(f"G_mu, mu = {mu:.4g}", xs, tradeoff.gaussian(mu)(xs), "approximation", "not a bound"))
    series.append(Series("Id (no information)", xs, 1 - xs, "exact", "proven"))
    return [Panel(f"f-DP of shuffling: eps0 = {eps0:g}, n = {n}", "type I error alpha", "type II error beta",
                  series)]


def comparison(first="gaussian(mu=1)", second="laplace(eps=1)", points=101) -> list[Panel]:
    """Two mechanisms' trade-off curves and Bayes error curves R_min(pi), with Delta both ways in
    the title (Kaissis et al. 2024, Figure 3, for the defaults): the panels of
    :func:`dptheory.comparison.compare`'s report, so that the figure shows the certified Delta of
    ``dptheory compare`` (from the lower and upper curves of a mechanism known through bounds)."""
    from ..comparison import compare

    return compare(first, second).panels(int(points))
