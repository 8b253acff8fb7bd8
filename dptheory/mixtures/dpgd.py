"""One step of DP-GD with a random initialisation (Wang et al. 2023, Theorem 5.1, Examples D.1-D.3).

Given the initialisation ``I ~ N(0, 1)``, the two outputs are Gaussians with unit variance and
normalised mean gap ``mu_I``; the Lemma 3.1 (continuous index) lower bound on ``T(X, Y)`` is the
curve, for ``t`` real (convention LL, slope ``-e^{-t}`` at the point ``t``),

    alpha(t) = E_I[ Phi(t / |mu_I| - |mu_I| / 2) ],   beta(t) = E_I[ Phi(-t / |mu_I| - |mu_I| / 2) ].

Erratum (docs/errata.md#wang2023-theorem-5-1): the printed integrals weight by ``e^{-I^2/2}`` without the
``1/sqrt(2 pi)`` (so the printed ``alpha(+inf) = sqrt(2 pi)``); kept as
:func:`dpgd_alpha_printed` (status refuted). The two sign cases of the printed form collapse to
the ``|mu_I|`` form above. At ``mu_I = 0`` the ratio is 1: the limits ``1[t > 0]`` (1/2 at 0).

Certification. Both integrals are ``A(t) = E[g_t(|mu_I|)]`` with ``g_t(m) = Phi(t/m - m/2)``
(``beta(t) = A(-t)``). The line is cut into cells of equal Gaussian mass (plus the kinks of
``mu_I``); on each cell ``|mu_I|`` is monotone, so its range is given by the cell ends, and the
range of ``g_t`` over it is exact (``t/m - m/2`` is monotone in m for ``t >= 0`` and has one
maximum at ``m = sqrt(-2t)`` otherwise). Summing mass x minimum and mass x maximum encloses
``A(t)``. A convex trade-off function lies above each tangent, and the tangent at ``t`` has slope
``-e^{-t}``, so ``beta_low + e^{-t} alpha_low - e^{-t} x`` is below the curve for every x: the
maximum of these lines is a certified piecewise-linear lower bound (:func:`dpgd_tradeoff`).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

import mpmath
import numpy as np
from scipy import integrate, special

from .. import rounding, validate
from ..hull import envelope_below
from ..results import Curve
from ..tradeoff import PiecewiseLinear, from_knots
from .statements import statement


@dataclasses.dataclass(frozen=True)
class MeanGap:
    """The normalised mean gap ``mu_I`` of the two outputs given the initialisation ``I``.

    ``signed(I)`` is vectorised (numpy) and ``signed_mp(I)`` is its mpmath version; ``|signed|``
    is monotone between consecutive ``kinks``.
    """

    name: str
    signed: Callable[[np.ndarray], np.ndarray]
    signed_mp: Callable
    kinks: tuple[float, ...]
    params: dict

    def magnitude(self, values) -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):
            return np.abs(self.signed(np.asarray(values, dtype=float)))


def least_squares(a, sigma=1.0) -> MeanGap:
    """Example D.1: least squares without clipping, ``mu_I = (a - I) / sigma`` (the loss is read as
    ``(1/2) sum (y_i - theta x_i)^2`` so that the gradient gap is ``a - I``;
    docs/errata.md#wang2023-examples-d)."""
    av = validate.real("a", a)
    s = validate.positive("sigma", sigma)
    return MeanGap("least-squares", lambda i: (av - i) / s, lambda i: (av - i) / s, (av,), {"a": av, "sigma": s})


def clipped_least_squares(a, c, sigma=1.0) -> MeanGap:
    """Example D.2: least squares with gradient clipping at ``c``: ``mu_I = clip(a - I, -c, c) / sigma``."""
    av = validate.real("a", a)
    cv = validate.positive("c", c)
    s = validate.positive("sigma", sigma)
    return MeanGap("clipped-least-squares", lambda i: np.clip(av - i, -cv, cv) / s,
                   lambda i: max(min(av - i, cv), -cv) / s, (av - cv, av, av + cv), {"a": av, "c": cv, "sigma": s})


def logistic(M, sigma=1.0) -> MeanGap:
    """Example D.3: logistic loss with ``|x y| <= M``: ``mu_I = 1 / (1 + e^{-M |I|}) / sigma``
    ("softmax" read as the sigmoid; the gradient's factor ``x y`` is not included, as in the
    example; docs/errata.md#wang2023-examples-d)."""
    mv = validate.positive("M", M)
    s = validate.positive("sigma", sigma)
    return MeanGap("logistic", lambda i: special.expit(mv * np.abs(i)) / s,
                   lambda i: 1 / (1 + mpmath.exp(-mv * abs(i))) / s, (0.0,), {"M": mv, "sigma": s})


def constant(mu) -> MeanGap:
    """A constant gap ``mu_I = mu``: the curve is ``G_mu`` (a check of the construction)."""
    m = validate.nonnegative("mu", mu)
    return MeanGap("constant", lambda i: np.full(np.shape(i), m), lambda i: mpmath.mpf(m), (), {"mu": m})


EXAMPLES = {"D.1": least_squares, "D.2": clipped_least_squares, "D.3": logistic, "constant": constant}


# ------------------------------------------------------------------------------ enclosure
@dataclasses.dataclass(frozen=True)
class _Cells:
    mass: np.ndarray
    m_lo: np.ndarray
    m_hi: np.ndarray
    mass_err: float


def _cells(gap: MeanGap, cells: int) -> _Cells:
    k = np.arange(1, cells)
    edges = special.ndtri(k / cells)
    edges = np.unique(np.concatenate([edges, [e for e in gap.kinks if math.isfinite(e)]]))
    edges = np.concatenate([[-np.inf], edges, [np.inf]])
    # Gaussian mass of each cell, from the tail that is not close to 1
    lo, hi = edges[:-1], edges[1:]
    mass = np.where(hi <= 0, special.ndtr(hi) - special.ndtr(lo), special.ndtr(-lo) - special.ndtr(-hi))
    with np.errstate(invalid="ignore", over="ignore"):
        m_edges = gap.magnitude(edges)
    # the magnitude at +-inf: its limit (inf for an unbounded gap)
    m_edges = np.where(np.isnan(m_edges), np.inf, m_edges)
    m_a, m_b = m_edges[:-1], m_edges[1:]
    # |mu| is computed in float: widen its range by a few ulps
    m_lo = np.maximum(np.minimum(m_a, m_b) * (1 - 8 * rounding.EPS), 0.0)
    m_hi = np.maximum(m_a, m_b) * (1 + 8 * rounding.EPS)
    mass_err = 4 * rounding.EPS * len(mass)
    return _Cells(mass, m_lo, m_hi, mass_err)


def _u(t: float, m: np.ndarray) -> np.ndarray:
    """t/m - m/2 with the limits at m = 0 and m = inf."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = t / m - m / 2
    if t > 0:
        zero = np.inf
    elif t < 0:
        zero = -np.inf
    else:
        zero = 0.0
    out = np.where(m == 0, zero, out)
    return np.where(np.isinf(m), -np.inf, out)


def _enclose_a(t: float, cells: _Cells) -> tuple[float, float, float]:
    """(lower, estimate, upper) of A(t) = E[Phi(t/|mu_I| - |mu_I|/2)]."""
    u_lo_m, u_hi_m = _u(t, cells.m_lo), _u(t, cells.m_hi)
    if t >= 0:
        u_min, u_max = u_hi_m, u_lo_m
    else:
        m_star = np.clip(math.sqrt(-2 * t), cells.m_lo, cells.m_hi)
        u_max = _u(t, m_star)
        u_min = np.minimum(u_lo_m, u_hi_m)
    # the argument errs by a few ulps of its magnitude; Phi's slope is at most 0.4
    slack = 4 * rounding.EPS * np.where(np.isfinite(u_min), np.abs(u_min), 0.0)
    g_lo = special.ndtr(u_min - slack) * (1 - 4 * rounding.EPS)
    slack = 4 * rounding.EPS * np.where(np.isfinite(u_max), np.abs(u_max), 0.0)
    g_hi = np.minimum(special.ndtr(u_max + slack) * (1 + 4 * rounding.EPS), 1.0)
    n = len(cells.mass)
    lower = math.fsum((cells.mass * g_lo).tolist())
    upper = math.fsum((cells.mass * g_hi).tolist())
    err = cells.mass_err + (n + 4) * rounding.EPS
    return (max(rounding.down(lower, err), 0.0), 0.5 * (lower + upper), min(rounding.up(upper, err), 1.0))


def dpgd_enclosure(gap: MeanGap, thresholds, *, cells: int = 20000) -> dict[str, np.ndarray]:
    """Certified enclosures of ``alpha(t)`` and ``beta(t)`` of Theorem 5.1 (normalised) at each t.

    Returns arrays ``alpha_lower, alpha_upper, beta_lower, beta_upper`` (and ``t``).
    """
    if not isinstance(gap, MeanGap):
        raise validate.DomainError(f"gap = {gap!r} is invalid: must be a MeanGap (least_squares, ...)")
    ts = np.atleast_1d(validate.real_array("thresholds", thresholds))
    n = validate.integer("cells", cells, low=10, high=10**7)
    cs = _cells(gap, n)
    a = np.array([_enclose_a(float(t), cs) for t in ts])
    b = np.array([_enclose_a(-float(t), cs) for t in ts])
    return {"t": ts, "alpha_lower": a[:, 0], "alpha_upper": a[:, 2], "beta_lower": b[:, 0], "beta_upper": b[:, 2]}


# ------------------------------------------------------------------------------ the curve
class DPGDTradeOff(PiecewiseLinear):
    """A certified piecewise-linear lower bound on the Theorem 5.1 curve (hence on ``T(X, Y)``),
    with ``upper_curve`` (a piecewise-linear upper bound on the Theorem 5.1 curve) and
    ``max_error`` (the largest vertical gap between the two)."""

    gap: MeanGap
    upper_curve: PiecewiseLinear
    max_error: float
    enclosure: dict

    def curve(self, alpha_grid) -> Curve:
        """The Theorem 5.1 curve at ``alpha_grid`` as a certified :class:`Curve` (quantity "beta":
        the curve lies in [lower, upper]; kind lower: it is a lower bound on T(X, Y))."""
        a = validate.real_array("alpha", alpha_grid, low=0.0, high=1.0)
        st = statement("dpgd")
        return Curve("beta", "alpha", a, np.minimum(self(a), self.upper_curve(a)), self.upper_curve(a),
                     st.kind, st.status, st.name, st.source, st.note, dict(self.gap.params, example=self.gap.name))


def dpgd_tradeoff(gap: MeanGap, *, points: int = 201, cells: int = 20000, t_max: float | None = None) -> DPGDTradeOff:
    """Theorem 5.1 (normalised): a certified piecewise-linear lower bound on the trade-off function
    of one DP-GD step with initialisation ``I ~ N(0, 1)`` and normalised mean gap ``gap``.

    Parameters
    ----------
    gap : MeanGap
        :func:`least_squares` (Example D.1), :func:`clipped_least_squares` (D.2),
        :func:`logistic` (D.3) or :func:`constant`.
    points : int
        Number of thresholds t (tangent lines) on ``[-t_max, t_max]`` (sinh-spaced).
    cells : int
        Number of equal-mass cells of the integrals (the enclosure width is about 4 / cells).
    t_max : float, optional
        Largest |t|; by default doubled from 1 until alpha(-t_max) < 1e-9 (at most 512).

    Returns
    -------
    DPGDTradeOff
        A :class:`PiecewiseLinear` below the Theorem 5.1 curve everywhere (its ``delta`` is an
        upper bound on the privacy profile), with ``upper_curve`` and ``max_error``.
    """
    k = validate.points("points", points)
    n = validate.integer("cells", cells, low=10, high=10**7)
    cs = _cells(gap, n)
    if t_max is None:
        tm = 1.0
        while tm < 512.0 and _enclose_a(-tm, cs)[2] > 1e-9:  # e^{tm} stays finite
            tm *= 2
    else:
        tm = validate.real("t_max", t_max, low=0.0, high=700.0, low_open=True)
    # sinh spacing: dense near t = 0 (the middle of the curve), sparse in the tails
    ts = np.sinh(np.linspace(-math.asinh(tm), math.asinh(tm), k))
    ts = 0.5 * (ts - ts[::-1])  # exactly antisymmetric, so that beta(t) = A(-t) is A reversed
    enc = np.array([_enclose_a(float(t), cs) for t in ts])  # A(t); beta(t) = A(-t)
    a_lo, a_hi = enc[:, 0], enc[:, 2]
    b_lo, b_hi = a_lo[::-1], a_hi[::-1]
    scale = np.exp(-ts)
    intercepts = rounding.down(b_lo + scale * a_lo, abs_err=4 * rounding.EPS * (1 + 2 * scale))
    xs, ys = envelope_below(-scale, intercepts)  # every segment under one tangent line
    ys = np.minimum(ys, 1.0 - xs)  # lowering a lower bound is sound
    lower = from_knots(xs, ys)
    # upper bound on the curve: the chord through (alpha_upper, beta_upper)
    ua = np.concatenate([[0.0], a_hi, [1.0]])
    ub = np.concatenate([[1.0], b_hi, [0.0]])
    order = np.argsort(ua, kind="stable")
    ua, ub = ua[order], ub[order]
    ub = np.minimum.accumulate(ub)
    grid = np.unique(np.concatenate([xs, ua]))
    upper_vals = np.interp(grid, ua, ub)
    max_error = float(np.max(upper_vals - lower(grid)))
    out = DPGDTradeOff(lower.p_mass, lower.q_mass, _checked=True)
    out.gap = gap
    # the chord through upper points, kept as knots (not necessarily convex: a plain interpolant)
    out.upper_curve = _Interpolant(ua, ub)
    out.max_error = rounding.up(max_error)
    out.enclosure = {"t": ts, "alpha_lower": a_lo, "alpha_upper": a_hi, "beta_lower": b_lo, "beta_upper": b_hi}
    return out


class _Interpolant:
    """Linear interpolation through knots (an upper bound on a convex curve through points below)."""

    def __init__(self, xs, ys):
        self.xs, self.ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)

    def __call__(self, alpha):
        a = validate.real_array("alpha", alpha, low=0.0, high=1.0)
        out = np.interp(a, self.xs, self.ys)
        return out if np.ndim(out) else float(out)


# ------------------------------------------------------------------------------ oracles
def dpgd_alpha_mpmath(gap: MeanGap, t, digits: int = 30):
    """``alpha(t) = E[Phi(t/|mu_I| - |mu_I|/2)]`` by mpmath quadrature at ``digits`` digits, split at
    the kinks of ``mu_I`` (an independent check of :func:`dpgd_enclosure`). ``beta(t)`` is
    ``dpgd_alpha_mpmath(gap, -t)``."""
    d = validate.digits(digits)
    tv = validate.real("t", t)
    with mpmath.workdps(d):
        T = mpmath.mpf(tv)

        def integrand(i):
            m = abs(gap.signed_mp(i))
            if m == 0:
                g = mpmath.mpf(1) if T > 0 else (mpmath.mpf(0.5) if T == 0 else mpmath.mpf(0))
            else:
                g = mpmath.ncdf(T / m - m / 2)
            return g * mpmath.npdf(i)

        pts = [-mpmath.inf] + [mpmath.mpf(k) for k in sorted(gap.kinks)] + [mpmath.inf]
        return mpmath.quad(integrand, pts)


def dpgd_alpha_printed(gap: MeanGap, t) -> float:
    """``alpha(t)`` of Theorem 5.1 **as printed** (status refuted): the two sign cases
    ``int_{mu_w <= 0} Phi(t_w) e^{-w^2/2} dw + int_{mu_w > 0} Phi(-t_w) e^{-w^2/2} dw`` with
    ``t_w = -t/mu_w + mu_w/2``, without the ``1/sqrt(2 pi)`` (so ``alpha(+inf) = sqrt(2 pi)``).
    By scipy quadrature (not certified: it serves the erratum test)."""
    tv = validate.real("t", t)

    def integrand(w):
        mu = float(gap.signed(np.array([w]))[0])
        if mu == 0:
            return (1.0 if tv > 0 else 0.5 if tv == 0 else 0.0) * math.exp(-w * w / 2)
        tw = -tv / mu + mu / 2
        return float(special.ndtr(tw if mu <= 0 else -tw)) * math.exp(-w * w / 2)

    pts = sorted(gap.kinks)
    edges = [-40.0] + [p for p in pts if -40 < p < 40] + [40.0]
    return math.fsum(integrate.quad(integrand, lo, hi, epsabs=1e-13, epsrel=1e-12, limit=400)[0]
                     for lo, hi in zip(edges, edges[1:]))


EXAMPLES = ("D.1", "D.2", "D.3", "constant")


def example_gap(example: str, *, a=0.7, c=1.5, M=1.0, sigma=1.0, mu=1.0) -> MeanGap:
    """The mean gap of Example D.1 (least squares: slope ``a``), D.2 (clipped at ``c``), D.3
    (logistic, ``M``) with noise ``sigma``, or a ``constant`` gap ``mu``."""
    if example == "D.1":
        return least_squares(a, sigma)
    if example == "D.2":
        return clipped_least_squares(a, c, sigma)
    if example == "D.3":
        return logistic(M, sigma)
    if example == "constant":
        return constant(mu)
    raise validate.DomainError(f"example = {example!r} is invalid: must be one of {', '.join(EXAMPLES)}")


def dpgd_report(gap: MeanGap, epsilons=(), *, show: int = 11, points: int = 201, cells: int = 20000,
                example: str | None = None) -> dict:
    """What ``dptheory fdp dpgd`` prints: the statement (kind, status, source), the certified
    lower bound's knots and largest gap to its upper companion, the Theorem 5.1 curve enclosed on
    ``show`` equally spaced alphas (a :class:`Curve`), and at each epsilon an upper bound on
    delta(epsilon) (a :class:`Result`: delta of a lower bound on the trade-off function bounds
    the true delta from above). ``example``: the label shown (default: the gap's name)."""
    from ..results import Result

    eps = [validate.real("epsilon", e) for e in epsilons]
    n_show = validate.integer("show", show, low=2, high=10001)
    f = dpgd_tradeoff(gap, points=points, cells=cells)
    st = statement("dpgd")
    profile = []
    for e in eps:
        lo, hi = f.log_delta_enclosure(e)
        profile.append({"epsilon": e, "delta": Result.from_log(
            "delta", lo, hi, kind="upper", status=st.status, method=st.name, source=st.source,
            note="delta of the certified lower bound on the trade-off curve", params={"epsilon": e})})
    a, b = f.knots()
    return {**st.as_dict(), "example": example or gap.name, "params": dict(gap.params), "max_error": f.max_error,
            "knots": [[float(x), float(y)] for x, y in zip(a, b)], "curve": f.curve(np.linspace(0.0, 1.0, n_show)),
            "profile": profile}
