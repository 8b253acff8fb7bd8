"""Figures of Wang, Su et al. (2023), mixtures and f-DP: Figure 4 (Example F.3: the exact
trade-off function of a subsampled Gaussian pair against the bounds of Lemma 3.1 and Lemma 6.3)
and Figure 3b (Lemma 3.1 is not tight: Example F.4's indistinguishable mixtures)."""

from __future__ import annotations

import numpy as np

from .. import validate
from ..plots import Panel, Plot, Series
from .labels import ALPHA, BETA


def wang_su_figure_4(mu=1.0, w=1 / 3, points=201) -> Plot:
    """Wang, Su et al. (2023), Figure 4 ("Example F.3 with mu = 1 and w = 1/3"): T(P_0, w P_0 +
    (1-w) Q_0) for P_0 = N(0, 1), Q_0 = N(mu, 1): the exact curve w Id + (1-w) G_mu (derived here:
    docs/errata.md#derived-example-f3), the bound of Lemma 3.1 and the bound of Lemma 6.3
    (Proposition E.1), C(w Id + (1-w) G_mu) (both lower bounds, by
    :mod:`dptheory.mixtures.advanced`)."""
    from ..mixtures import advanced

    m = validate.nonnegative("mu", mu)
    wv = validate.real("w", w, low=0.0, high=1.0, high_open=True)
    a = np.linspace(0.0, 1.0, validate.points("points", points))
    exact = advanced.example_f3_exact(m, wv, a)
    l31 = advanced.example_f3_lemma31(m, wv, a)
    l63 = advanced.example_f3_lemma63(m, wv, a)
    series = [Series("exact $w\\,\\mathrm{Id} + (1-w)\\,G_\\mu$", a, exact, "exact", "proven", "example-f3-exact"),
              Series("Lemma 6.3 (Proposition E.1)", a, l63, "lower", "proven", "example-f3-lemma63"),
              Series("Lemma 3.1 (joint concavity)", a, l31, "lower", "proven", "example-f3-lemma31"),
              Series("Id (no information)", a, 1 - a, "exact", "proven", "identity")]
    gap = float(np.max(l63 - l31))
    notes = [f"Largest gap between Lemma 6.3 and Lemma 3.1: {gap:.3g} (the paper: Lemma 6.3 is \"slightly tighter\"); "
             f"largest gap between the exact curve and Lemma 6.3: {float(np.max(exact - l63)):.3g}."]
    return Plot([Panel(f"Example F.3: $\\mu = {m:g}$, $w = {wv:.4g}$", ALPHA, BETA, series)], notes)


def wang_su_figure_3b(eps=1.0, points=201) -> Plot:
    """Wang, Su et al. (2023), Figure 3b ("Lemma 3.1 is not tight"): Example F.4, the mixtures
    P/2 + Q/2 and Q/2 + P/2 are the same distribution (trade-off Id), while Lemma 3.1 gives the
    infimal convolution of T(P, Q) and T(Q, P); Proposition 6.4 with w = 1/2 is sharp. The main
    text with the figure's parameters is not available: P, Q = binary randomized response at
    ``eps`` (chosen here)."""
    from ..mixtures import advanced

    e = validate.real("eps", eps, low=0.0, low_open=True)
    p = np.array([np.exp(e), 1.0]) / (1 + np.exp(e))
    out = advanced.example_f4(p, p[::-1])
    a = np.linspace(0.0, 1.0, validate.points("points", points))
    series = [Series("exact (Id: the two mixtures are equal)", a, np.asarray(out["exact"](a), dtype=float), "exact",
                     "proven", "example-f4-exact"),
              Series("Proposition 6.4, $w = 1/2$", a, np.asarray(out["prop64"](a), dtype=float), "lower", "proven",
                     "example-f4-prop64"),
              Series("Lemma 3.1 (joint concavity)", a, np.asarray(out["lemma31"](a), dtype=float), "lower", "proven",
                     "example-f4-lemma31")]
    return Plot([Panel(f"Example F.4: $P, Q$ = randomized response, $\\varepsilon = {e:g}$", ALPHA, BETA, series)])
