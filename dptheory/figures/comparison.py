"""Figures of Kaissis et al. (2024) drawn from closed forms: Figure 2 (the geometry of
Definition 1: shifting a trade-off curve by kappa = Delta restores dominance) and Figure 8 (the
lossless conversion between R_min and f, Appendix B.1). Figure 3 is ``delta-divergence``
(:mod:`dptheory.figures.fdp`)."""

from __future__ import annotations

import numpy as np

from .. import validate
from ..plots import Panel, Plot, Ruler, Series
from .labels import ALPHA, BAYES, BETA, PRIOR


def kaissis_figure_2(mu=1.0, b=1.0, points=401) -> Plot:
    """Kaissis et al. (2024), Figure 2: the trade-off curves of the Gaussian mechanism G_mu (f) and
    the Laplace mechanism with scale b and unit sensitivity (f~) cross, so neither dominates;
    f shifted left and down by kappa = Delta(f || f~) (Definition 1; from
    :func:`dptheory.comparison.compare`), alpha -> max(f(alpha + kappa) - kappa, 0), lies below f~.
    The paper states no parameters: those of its Figure 3 (mu = 1, b = 1), chosen here."""
    from .. import tradeoff
    from ..comparison import compare

    m = validate.real("mu", mu, low=0.0, low_open=True)
    bb = validate.real("b", b, low=0.0, low_open=True)
    report = compare(f"gaussian(mu={m!r})", f"laplace(eps={1 / bb!r})")
    kappa = report.forward.upper
    a = np.linspace(0.0, 1.0, validate.points("points", points))
    f, g = tradeoff.gaussian(m), tradeoff.laplace(1 / bb)
    shifted = np.where(a + kappa <= 1, np.maximum(f(np.minimum(a + kappa, 1.0)) - kappa, 0.0), 0.0)
    series = [Series(f"$f = G_{{{m:g}}}$ (Gaussian)", a, f(a), "exact", "proven", "gaussian"),
              Series(f"$\\tilde f$: Laplace, $b = {bb:g}$", a, g(a), "exact", "proven", "laplace"),
              Series(f"$f$ shifted by $\\kappa = \\Delta(f\\|\\tilde f) = {kappa:.3g}$", a, shifted, "exact", "proven",
                     "shifted-gaussian")]
    notes = [f"κ = Δ(f‖f~) = {kappa:.4g} ({report.forward.kind}, {report.forward.status}); the shifted curve lies below "
             f"f~ everywhere (largest excess {float(np.max(shifted - g(a))):.2g})."]
    return Plot([Panel("Definition 1: shifting $f$ by $\\kappa$ restores dominance", ALPHA, BETA, series)], notes)


def kaissis_figure_8(mu=1.0, lines=9, points=401) -> Plot:
    """Kaissis et al. (2024), Figure 8 (Appendix B.1): for G_mu, (a) R_min(pi) from f by eq. (2),
    each prior a supporting line of slope -pi/(1-pi); (b) f from R_min by eq. (4), the upper
    envelope of the lines alpha -> (R_min(pi) - pi alpha)/(1 - pi). R* = R_min(1/2) is marked."""
    from .. import tradeoff
    from ..comparison.bayes_error import gaussian_bayes_error

    m = validate.real("mu", mu, low=0.0, low_open=True)
    k = validate.integer("lines", lines, low=1, high=50)
    pis = np.linspace(0.0, 1.0, validate.points("points", points))
    a = pis
    f = tradeoff.gaussian(m)
    r = gaussian_bayes_error(m, pis)
    r_star = float(gaussian_bayes_error(m, np.array([0.5]))[0])
    panel_a = Panel(f"(a) $R_{{\\min}}$ from $f = G_{{{m:g}}}$ (eq. (2))", PRIOR, BAYES,
                    [Series(f"$R_{{\\min}}$ of $G_{{{m:g}}}$", pis, r, "exact", "proven", "bayes-error")],
                    rulers=(Ruler(0.5, 0.0, r_star, f"$R^* = {r_star:.4g}$"),))
    series = [Series(f"$f = G_{{{m:g}}}$", a, f(a), "exact", "proven", "gaussian")]
    for pi in np.linspace(0.0, 1.0, k + 2)[1:-1]:
        rp = float(gaussian_bayes_error(m, np.array([pi]))[0])
        y = (rp - pi * a) / (1 - pi)
        series.append(Series(f"line at $\\pi = {pi:.2f}$", a, np.where((y >= 0) & (y <= 1), y, np.nan), "lower",
                             "proven", f"supporting-line:{pi:.4g}"))
    alpha_star = float(f.inverse()(r_star)) if hasattr(f, "inverse") else r_star
    panel_b = Panel("(b) $f$ from $R_{\\min}$ (eq. (4)): the upper envelope of the lines", ALPHA, BETA, series,
                    rulers=(Ruler(alpha_star, 0.0, float(f(np.array([alpha_star]))[0]), f"$\\alpha^* = {alpha_star:.4g}$"),))
    return Plot([panel_a, panel_b], [f"R* = R_min(1/2) = {r_star:.6g} (the Bayes error of the uninformed adversary); "
                                     "each line lies below f (a lower bound) and touches it where its slope is -π/(1-π)."])


def _sgm_profile(task):
    """(epsilons, upper deltas) of one SGM's privacy profile (an executor task)."""
    from ..subsampled import SubsampledGaussian

    sigma, p, steps, eps = task
    m = SubsampledGaussian(sigma, p, steps)
    return [m.delta(float(e)).upper for e in eps]


def kaissis_figure_1(first="0.485,0.01,1000", second="1.221,0.5,20", epsilon=4.0, points=25, workers=2) -> Plot:
    """Kaissis et al. (2024), Figure 1: the privacy profiles delta(eps) of two subsampled Gaussian
    mechanisms (sigma, p, steps) that satisfy the same (eps, delta) = (4, 0.08) (the profiles cross
    there) but otherwise offer different protection. The paper does not give sigma, p, N: chosen
    here, each sigma calibrated (to 3 digits) so that delta(4) is about 0.08. Each profile is a
    certified upper bound (PLD, pessimistic discretisation; :class:`dptheory.subsampled.SubsampledGaussian`)."""
    from .. import executor

    def parse(name, text):
        parts = [p.strip() for p in str(text).split(",")]
        if len(parts) != 3:
            raise validate.DomainError(f"{name} = {text!r} is invalid: write sigma,p,steps (e.g. 0.485,0.01,1000)")
        return (validate.real(f"{name} sigma", parts[0], low=0.0, low_open=True),
                validate.probability(f"{name} p", parts[1], open_low=True), validate.integer(f"{name} steps", parts[2], low=1))

    mechs = [parse("first", first), parse("second", second)]
    e_mark = validate.real("epsilon", epsilon, low=0.0)
    # each point is a certified delta of two composed PLDs (about 0.04 s): 500 take seconds
    eps = np.unique(np.concatenate([np.linspace(0.0, 8.0, validate.points("points", points, high=500)), [e_mark]]))
    deltas = executor.run_tasks(_sgm_profile, [(*m, eps) for m in mechs], workers=int(workers))
    series = [Series(f"SGM $\\sigma = {s:g}$, $p = {p:g}$, $N = {n}$", eps, d, "upper", "proven", f"sgm({s:g},{p:g},{n})")
              for (s, p, n), d in zip(mechs, deltas)]
    at = [float(d[int(np.flatnonzero(eps == e_mark)[0])]) for d in deltas]
    notes = [f"At ε = {e_mark:g}: δ = {at[0]:.4g} and {at[1]:.4g}; the profiles cross near there and differ elsewhere."]
    rulers = (Ruler(e_mark, min(at) / 3, max(at) * 3, f"$\\varepsilon = {e_mark:g}$, $\\delta \\approx {at[0]:.2g}$"),)
    return Plot([Panel("privacy profiles of two subsampled Gaussian mechanisms", "$\\varepsilon$",
                       "$\\delta(\\varepsilon)$ (upper bound)", series, yscale="log", rulers=rulers)], notes)
