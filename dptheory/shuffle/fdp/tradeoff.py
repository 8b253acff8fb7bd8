"""Theorem 4.2 of Wang, Su, Ye, Shokri, Su (2023), as an inequality: a certified lower bound on the
trade-off function of n shuffled eps0-LDP users, max(C(f_Shuffle), f_{eps0,0}).

``f_Shuffle = 2w Id + (1 - 2w) T(P0, Q0)`` with T(P0, Q0) exact (Proposition 4.1 corrected:
:mod:`dptheory.shuffle.fdp.proposition_4_1`), C the symmetrization (the paper's equality
C(T(P, Q)) = C(f_Shuffle) is false: docs/errata.md#wang2023-theorem-4-2), and f_{eps0,0} the
trade-off function of eps0-DP (Dong, Roth, Su 2022, Proposition 2.5).

The bound is the upper envelope of supporting lines ``y = c + s x`` whose intercepts are
certified from below (:func:`_envelope`, by :func:`dptheory.hull.envelope_below`): each segment
lies under one of the lines, so floating-point error in the vertices cannot lift it above the
true function. At small n the lines are the tangents at every knot of f_Shuffle
(:func:`_exact_lines`; the result is C(f_Shuffle) itself, lowered by the rounding error); at
large n they are the lines ``1 - delta(eps) - e^eps x`` of a grid of eps (:func:`_grid_lines`),
with delta from Corollary 4.3 (:mod:`dptheory.shuffle.fdp.delta`), and their reflections; the
two lines of f_{eps0,0} are always added (:func:`_rr_lines`).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from ... import rounding, tradeoff, validate
from ...hull import envelope_below, upper_envelope_lines
from .. import clones
from .delta import _delta_float
from .gdp_fit import asymptotic_mu
from .pair import _U, DEFAULT_REDUCTION, _check, _mp_params, clone_probability, weights
from .proposition_4_1 import EXACT_MAX_N, MP_EXACT_MAX_N, _atoms_float, _atoms_mp, _limit


#: segments of T(P0, Q0) with less mass than this get no tangent line (float64 path)
PRUNE_MASS = 1e-15

#: number of epsilon values whose lines make the trade-off function above EXACT_MAX_N
GRID_LINES = 32


# --------------------------------------------------------------------- envelope


def _envelope(slopes, intercepts, digits=None) -> tradeoff.PiecewiseLinear:
    """A lower bound on every trade-off function f with f(x) >= c_j + s_j x for all j.

    ``slopes`` < 0 (finite), ``intercepts`` certified from below. The knots are those of
    :func:`dptheory.hull.envelope_below` (float64: each vertex below both adjacent lines, the
    polyline cut where it meets y = 0, room left for the cumulative sums of
    :class:`~dptheory.tradeoff.PiecewiseLinear`), or with ``digits`` of :func:`_envelope_mp`.
    """
    if digits is not None:
        return _envelope_mp(slopes, intercepts, digits)
    xs, ys = envelope_below(slopes, intercepts)
    p_mass = np.concatenate([[0.0], np.diff(xs), [max(1.0 - xs[-1], 0.0)]])
    q_mass = np.concatenate([[max(1.0 - ys[0], 0.0)], np.maximum(-np.diff(ys), 0.0), [0.0]])
    return tradeoff.PiecewiseLinear(p_mass, q_mass)


def _envelope_mp(slopes, intercepts, digits):
    """:func:`_envelope` with mpmath: the lines of :func:`dptheory.hull.upper_envelope_lines`,
    every vertex taken below both its lines by a margin of 10^-(digits + 5) (the working
    precision is ``digits + 15`` digits: its rounding is far below the margin, so no directed
    float rounding is needed, unlike :func:`dptheory.hull.envelope_below`)."""
    work = digits + 15
    with mpmath.workdps(work):
        margin = mpmath.mpf(10) ** (-(digits + 5))
        kept = [(mpmath.mpf(sv), mpmath.mpf(cv)) for sv, cv in zip(slopes, intercepts) if cv > 0]
        dedup = list(zip(*upper_envelope_lines([sv for sv, _ in kept], [cv for _, cv in kept])))
        zero, one = mpmath.mpf(0), mpmath.mpf(1)
        xs, ys = [zero], [dedup[0][1] * (1 - margin)]
        prev = zero
        end = len(dedup) - 1
        for j in range(len(dedup) - 1):
            (s1, c1), (s2, c2) = dedup[j], dedup[j + 1]
            x = min(max((c1 - c2) / (s2 - s1), prev), one)
            y = min(c1 + s1 * x, c2 + s2 * x) - margin * (1 + c1 + c2)
            if y <= 0:
                end = j
                break
            xs.append(x)
            ys.append(y)
            prev = x
        s_e, c_e = dedup[end]
        root = max(min(c_e / -s_e * (1 - margin), one), xs[-1])
        if root > xs[-1]:
            xs.append(root)
            ys.append(zero)
        else:
            ys[-1] = zero
        p_mass = [zero] + [b - a for a, b in zip(xs, xs[1:])] + [max(one - xs[-1], zero)]
        q_mass = [max(one - ys[0], zero)] + [max(a - b, zero) for a, b in zip(ys, ys[1:])] + [zero]
        keep = [j for j in range(len(p_mass)) if p_mass[j] > 0 or q_mass[j] > 0]
        p_mass, q_mass = [p_mass[j] for j in keep], [q_mass[j] for j in keep]
    # kept at the working precision (rounding the masses to ``digits`` would move the knots by
    # more than the margin), in hull order: the segments are sorted by slope already
    return tradeoff.PiecewiseLinear(p_mass, q_mass, digits=work, _checked=True)


def _reflect(slopes, intercepts):
    """Reflections about the diagonal of lines y = c + s x (s < 0): y = c/|s| - x/|s|; the new
    slope is rounded towards 0, which (for a symmetric f, whose intercept c(sigma) is
    non-decreasing in |sigma|) keeps the line under f; the intercept is rounded down."""
    s = np.asarray(slopes, dtype=float)
    c = np.asarray(intercepts, dtype=float)
    inv = -1.0 / np.abs(s)
    inv = rounding.up(inv, ulps=1)  # towards zero (inv < 0): |new slope| <= 1/|s|
    return inv, rounding.down(c * np.abs(inv), rel_err=2 * _U)


# ------------------------------------------------------------------------ lines


def _exact_lines(e0: float, nn: int, qc: float):
    """Tangent lines of f_Shuffle along every segment of slope <= -1 (P0-threshold t <= 1),
    intercepts certified from below (float64)."""
    w, th = weights(e0)
    ratios, p_grp, q_grp, rel, absolute = _atoms_float(e0, nn, qc)
    alpha = np.concatenate([[0.0], np.cumsum(p_grp)])
    beta0 = np.concatenate([np.cumsum(q_grp[::-1])[::-1], [0.0]])
    alpha = np.minimum(alpha, 1.0)
    bsh = 2 * w * (1 - alpha) + th * beta0
    # segment j: knot j -> knot j + 1. Segments lighter than PRUNE_MASS are left out (fewer
    # lines: a lower envelope, by at most the mass left out in a run of them)
    seg = np.nonzero((ratios > 0) & (ratios <= 1.0) & (p_grp + q_grp > PRUNE_MASS))[0]
    t = ratios[seg]
    slope = -(2 * w + th / t)
    slope = rounding.down(slope, ulps=1)
    m = len(alpha)
    cands = []
    for off in (-1, 0, 1, 2):
        k = np.clip(seg + off, 0, m - 1)
        cands.append(bsh[k] - slope * alpha[k])
    c = np.min(np.vstack(cands), axis=0)
    err = (rel + 16 * _U) * (2 + 2 * c) + absolute * (2 + np.abs(slope))
    c = rounding.down(c, abs_err=err)
    # the line of slope -1 (always a supporting line of C(f); the only one at n = 1)
    c1 = float(np.min(bsh + alpha))
    c1 = rounding.down(c1, abs_err=(rel + 16 * _U) * 4 + 2 * absolute)
    return np.append(slope, -1.0), np.append(c, c1)


def _rr_lines(e0: float):
    """The two lines of f_{eps0,0} = max(0, 1 - e^eps0 x, e^-eps0 (1 - x)), the trade-off
    function of eps0-DP (Dong, Roth, Su 2022, Proposition 2.5): the shuffled mechanism is eps0-DP. The
    first with its slope rounded down (steeper: lower on [0, 1]); the second as c (1 - x) with
    c <= e^-eps0 (its slope -c exactly, so it ends at (1, 0))."""
    steep = rounding.down(-math.exp(e0), rel_err=2 * _U)
    if not math.isfinite(steep):
        steep = -np.finfo(float).max
    c = rounding.down(math.exp(-e0), rel_err=2 * _U)
    return np.array([steep, -c]), np.array([1.0, c])


def _grid_lines(e0: float, nn: int, rtol: float, reduction):
    """Lines 1 - delta(eps) - e^eps x on a grid of eps >= 0, delta certified from above."""
    mu = asymptotic_mu(e0, nn, reduction)
    top = min(10 * mu + mu * mu, 60.0, e0)
    eps = np.linspace(0.0, top, GRID_LINES)
    slopes = -np.exp(eps)
    cs = []
    for sl in slopes:
        e_lo = max(rounding.log_down(-sl), 0.0)
        res = _delta_float(e0, nn, e_lo, rtol, reduction)
        cs.append(rounding.down(1.0 - res.upper, abs_err=_U))
    return slopes, np.array(cs)


def _exact_lines_mp(e0: float, nn: int, digits: int, reduction):
    keys, p_grp, q_grp = _atoms_mp(e0, nn, digits, reduction)
    with mpmath.workdps(digits + 15):
        w, th, _ = _mp_params(e0, reduction)
        alpha = [mpmath.mpf(0)]
        for v in p_grp:
            alpha.append(alpha[-1] + v)
        beta0 = [mpmath.mpf(0)]
        for v in reversed(q_grp):
            beta0.append(beta0[-1] + v)
        beta0 = beta0[::-1]
        bsh = [2 * w * (1 - a) + th * b for a, b in zip(alpha, beta0)]
        slopes, cs = [], []
        for j, key in enumerate(keys):
            if key is None or key == 0 or key > 1:
                continue
            sl = -(2 * w + th * key.denominator / key.numerator)
            c = min(bsh[k] - sl * alpha[k] for k in (j, j + 1))  # exact slope: the segment's ends
            slopes.append(sl)
            cs.append(c * (1 - mpmath.mpf(10) ** (-(digits + 6))))
        slopes.append(mpmath.mpf(-1))
        cs.append(min(b + a for a, b in zip(alpha, bsh)) * (1 - mpmath.mpf(10) ** (-(digits + 6))))
        return slopes, cs


# -------------------------------------------------------------------- trade-off


def shuffle_tradeoff(eps0, n, *, digits=None, reduction=DEFAULT_REDUCTION) -> tradeoff.PiecewiseLinear:
    """A certified lower bound on the trade-off function of n shuffled eps0-LDP users.

    It is max(C(f_Shuffle), f_{eps0,0}): C(f_Shuffle) the symmetrization of
    ``f_Shuffle = 2w Id + (1 - 2w) T(P0, Q0)`` (Theorem 4.2, which holds as the inequality
    ``T(P, Q) >= C(f_Shuffle)``; the equality of the paper's proof is false), with T(P0, Q0)
    exact (Proposition 4.1 corrected), and f_{eps0,0} the trade-off function of eps0-DP (the shuffled
    mechanism is a post-processing of the victim's eps0-LDP report; it matters at small n):

    * n <= :data:`EXACT_MAX_N` (float64) or :data:`MP_EXACT_MAX_N` (``digits``): the upper
      envelope of the tangents of f_Shuffle along all its segments of slope <= -1 and their
      reflections, which is C(f_Shuffle) itself, lowered by the computation's own error bound;
    * larger n: the envelope of the lines ``1 - delta(eps) - e^eps alpha`` and their
      reflections on :data:`GRID_LINES` values of eps >= 0, with delta from
      :func:`shuffle_delta` (certified from above). A lower bound on C(f_Shuffle), exact at the
      points where those lines touch it (Dong, Roth, Su 2022, Proposition 2.12);
    * always the two lines of f_{eps0,0}.

    Status: that of the reduction's pair (:func:`status`; ``"stronger-clones"``, the default and
    the paper's, is unproven for a general eps0-LDP randomizer, ``"clones"`` is proven).
    Domain: eps0 > 0, n >= 1 integer. Source: Wang et al. (2023), Proposition 4.1, Theorem 4.2.
    """
    e0, nn = _check(eps0, n)
    red = clones.reduction(reduction)
    digits = validate.digits(digits)
    if digits is not None:
        _limit(nn, MP_EXACT_MAX_N, "n (with digits)")
        s, c = _exact_lines_mp(e0, nn, digits, red)
        with mpmath.workdps(digits + 15):
            rs = [1 / sv for sv in s]
            rc = [cv / -sv for sv, cv in zip(s, c)]
            E = mpmath.exp(mpmath.mpf(e0))
            rr_s, rr_c = [-E, -1 / E], [mpmath.mpf(1), 1 / E]
        return _envelope_mp(list(s) + rs + rr_s, list(c) + rc + rr_c, digits)
    if nn <= EXACT_MAX_N:
        s, c = _exact_lines(e0, nn, clone_probability(e0, red))
    else:
        s, c = _grid_lines(e0, nn, 1e-2, red)
    steep = s < -1.0
    rs, rc = _reflect(s[steep], c[steep])
    rr_s, rr_c = _rr_lines(e0)
    return _envelope(np.concatenate([s, rs, rr_s]), np.concatenate([c, rc, rr_c]))
