"""Corollary 4.3 of Wang, Su, Ye, Shokri, Su (2023), corrected: delta(epsilon) of n shuffled
eps0-LDP users from the count pair (P0, Q0).

``delta(eps) = min(1 + f_Shuffle*(-e^eps), (e^eps0 - e^eps)_+/(e^eps0 + 1))`` with
``1 + f_Shuffle*(-e^eps) = (1 - 2w) H_{e^eps~}(P0 || Q0)``, ``e^eps~ = (e^eps - 2w)/(1 - 2w)``: the
conjugate is attained at the threshold t_y = (1 - 2w)/(e^eps - 2w) (the catalogue formula
``shuffle-fdp-threshold``, :data:`THRESHOLD`), not where the printed chord slope puts it
(:func:`corollary_4_3_printed_delta`, refuted; docs/errata.md#wang2023-corollary-4-3).

* :func:`shuffle_delta`: the certified upper bound; float64 by a bucketed sum over the clone count
  located at the summand's peak (:func:`_log_h0`, about the same cost at every n and epsilon;
  the bucket bounds and tails of :mod:`dptheory.shuffle.binomial_sums`), or an mpmath sum by
  recurrences in the count (:func:`_delta_mp`);
* the second term is the delta of eps0-DP (:func:`_eps0_dp_log_delta`).

The knots of T(P0, Q0) (Proposition 4.1): :mod:`dptheory.shuffle.fdp.proposition_4_1`; the pair:
:mod:`dptheory.shuffle.fdp.pair`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np

from ... import rounding, validate
from ...formula import Formula, Parts, register
from ...precision import binom_logpmf, mp_adaptive, mp_binom_cdf, mp_binom_pmf, mp_binom_sf
from ...results import Enclosure, Kind, Result, Status
from .. import clones
from ..binomial_sums import log_binom_range, log_hockey_stick_binary_count, refine_buckets
from ..clones import INPUT_RTOL
from ..pairs import CountPair
from .pair import (_U, DEFAULT_REDUCTION, REFUTED_COR_4_3, SOURCE, SOURCE_COR_4_3, SOURCE_EPS0_DP, _check,
                   _mp_params, clone_probability, status, weights)
from .proposition_4_1 import _floors, proposition_4_1


# ---------------------------------------------------------------------- formula


def _closed_forms() -> dict[str, Parts]:
    """The sympy expression of this module's formula, built on first use."""
    import sympy as sp

    from ...symbols import eps, eps0

    w = 1 / (sp.exp(eps0) + 1)
    return {"shuffle-fdp-threshold": Parts((1 - 2 * w) / (sp.exp(eps) - 2 * w), (eps0, eps), (eps >= 0,))}


THRESHOLD = register(Formula(
    name="shuffle-fdp-threshold", build=_closed_forms, kind=Kind.EXACT, status=Status.PROVEN,
    source=SOURCE_COR_4_3, lhs=r"t_y",
    erratum="the printed $t_y$ is located with the chord slope $l(t)$; the slope of $f_{\\mathrm{Shuffle}}$ on the "
            "$P_0$-segment of threshold $t$ is $-2w - (1-2w)/t$, which gives this closed form "
            "(docs/errata.md#wang2023-corollary-4-3)",
    description="$P_0$-threshold at which $1 + f_{\\mathrm{Shuffle}}^*(-e^{\\epsilon})$ is attained: the knot "
                "$\\alpha_0(t_y)$ of Corollary 4.3",
))


# ----------------------------------------------------- the pair as a count pair


def _tilde(e0: float, epsilon: float):
    """(eps~_lo, eps~_hi) enclosing eps~ = log((e^eps - 2w)/(1 - 2w)) = log1p(expm1(eps)/tanh(eps0/2))."""
    th = math.tanh(e0 / 2.0)
    th_lo, th_hi = rounding.down(th, rel_err=2 * _U), rounding.up(th, rel_err=2 * _U)
    if epsilon < 700.0:
        em = math.expm1(epsilon)
        lo = math.log1p(em / th_hi)
        hi = math.log1p(em / th_lo)
        return rounding.down(lo, rel_err=6 * _U), rounding.up(hi, rel_err=6 * _U)
    # e^eps~ = e^eps (1 - 2w e^-eps) / th, and 2w e^-eps < e^-700
    base_lo = epsilon - math.log(th_hi)
    base_hi = epsilon - math.log(th_lo)
    size = 8 * _U * (epsilon + abs(math.log(th_lo)) + 1)
    return rounding.down(base_lo, abs_err=size + 1e-300), rounding.up(base_hi, abs_err=size)


def _p0q0_pair(e0: float, nn: int, reduction=DEFAULT_REDUCTION) -> CountPair:
    """(P0, Q0) as a count pair: the victim's message is of type 0 under P0 and type 1 under Q0,
    n - 1 fair clones each present with the reduction's clone probability."""

    def spec():
        _, _, Q = _mp_params(e0, reduction)
        return Q, mpmath.mpf(1), mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(1) / 2

    return CountPair(nn - 1, clone_probability(e0, reduction), 1.0, 0.0, input_rtol=INPUT_RTOL, exact=spec)


#: up to this many counts the float64 sum takes every count as its own bucket (no gap)
POINTWISE_MAX = 2048

#: bucket budget of the float64 delta (see :func:`_log_h0`)
BUCKET_BUDGET = 800

#: half-width of the window of buckets around the summand's peak, in standard deviations
PEAK_SDS = 8.5


# ------------------------------------------------------------------ float64 sum


def _chernoff_outer(N: int, q: float, lg: float, a: int, b: int) -> float:
    """log of an upper bound on sum_{a <= m <= b} P(C = m - 1) h(m), C ~ Bin(N, q), with
    h(m) = H_gamma(1 + B || B), B ~ Bin(m - 1, 1/2), gamma = e^lg (-inf for an empty range).

    h(m) <= P(B > theta m - 1), theta = gamma/(1 + gamma) (the positive terms of
    sum_k (p(k-1) - gamma p(k))_+ have k > theta m), and by Chernoff, for lam >= 0,
    P(B >= theta m - 1) <= e^{lam} (2/(1 + e^lam)) rho^m with rho = e^{-lam theta} (1 + e^lam)/2.
    Then sum_m Bin(m-1; N, q) rho^m = rho (1 - q + q rho)^N P(Bin(N, q') in [a-1, b-1]),
    q' = q rho/(1 - q + q rho) (exponential tilting), summed by the certified binomial range.
    lam = log(theta/(1 - theta)), the Chernoff optimum. Every float step is rounded outwards;
    the rounding of q and q' (the clone probability is within INPUT_RTOL of the pair's, q' a few
    ulps more) moves (1 - q + q rho)^N and the range probability by at most a factor
    e^{4 (INPUT_RTOL + 8 u) N (1 + q/(1-q))}, which is added."""
    if b < a:
        return -math.inf
    g = math.exp(lg)
    theta = rounding.down(g / (1.0 + g), rel_err=4 * _U)
    lam = max(math.log(theta) - math.log1p(-theta), 0.0) if theta > 0.5 else 0.0
    log_c = lam + math.log(2.0) - math.log1p(math.exp(lam))
    log_rho = -lam * theta + math.log1p(math.exp(lam)) - math.log(2.0)
    rho = math.exp(log_rho)
    mix = math.log1p(q * math.expm1(log_rho))
    q_t = q * rho / (1.0 - q + q * rho)
    lw, lerr = log_binom_range(np.array([a - 1.0]), np.array([b - 1.0]), N, q_t)
    lw, lerr = float(lw[0]), float(lerr[0])
    if lw == -math.inf:
        return -math.inf
    total = log_c + log_rho + N * mix + float(np.logaddexp(lw, lerr))
    slack = (16 * _U * (abs(log_c) + abs(log_rho) * 2 + N * abs(mix) + abs(lw) + 4)
             + 4 * (INPUT_RTOL + 8 * _U) * N * (1.0 + max(q, q_t) / max(1.0 - max(q, q_t), 1e-300)) + 1e-12)
    return float(rounding.up(total, abs_err=slack))


def _log_h0(pair: CountPair, lg_lo: float, lg_hi: float, rtol: float) -> tuple[Enclosure, float]:
    """Certified enclosure of log H_gamma(P0 || Q0) over gamma in [e^lg_lo, e^lg_hi] (the upper
    end at lg_lo, the lower end at lg_hi: H is non-increasing in gamma), and the relative width
    aimed at.

    H = sum_m w(m) h(m) over the total count m = 1 + C, w the law of m, h non-increasing (one
    more fair clone is a post-processing). Only the mass that matters is bucketed: the peak m*
    of w(m) h(m) is located on a few coarse grids of single counts; over m* +- PEAK_SDS sd (sd of
    the tilted binomial, sqrt(m* (1 - m*/(n+1))) + 1) the sum is bucketed with the certified
    bounds of :meth:`~dptheory.shuffle.pairs.CountPair._bucket_bounds` (the bucket's weight times
    h at its two ends), with widths that grow like w0 e^{x^2/(4 sd^2)} away from m* (they minimise
    the number of buckets for a given first-order gap c sum_b W_b width_b, c the slope of log h
    at m*: w0 = G/(2 sqrt(2) c) gives a gap of about G = rtol/2), capped where c width = 1/2;
    the two outer ranges are bounded from above by a Chernoff bound on h summed as a tilted
    binomial (:func:`_chernoff_outer`; relative size about sqrt(m*) e^{-PEAK_SDS^2/2}) and from
    below by 0. Where that needs more than :data:`BUCKET_BUDGET` buckets -- far in the tail,
    |log delta| large against sqrt(n) (below about e^-1000 at n = 1e7), where h(m) is not smooth
    at the scale of one count (lattice effects of the floor in its threshold) -- every width is
    scaled up to fit the budget and the relative width grows accordingly (log delta still to
    within a few units). So the cost does not grow with n or epsilon. A few rounds of
    :func:`~dptheory.shuffle.binomial_sums.refine_buckets` finish where the model of the summand was off.
    Up to :data:`POINTWISE_MAX` counts every count is its own bucket."""
    top = pair.others + 1
    outer = [-math.inf]

    def bounds(ma, mb):
        """Per bucket (log hi, log lo, -inf): the bucket's weight W (relative error r) times h
        at its ends, every error folded into the end it widens -- W (1 + r)(h(ma) + e) above,
        W (1 - r)(h(mb) - e) below (h(ma) >> h(mb) in a wide bucket, so an error of the upper
        end must not be taken off the lower one). The pseudo-bucket [0, 0] is the outer ranges'
        bound (upper only)."""
        pseudo = np.asarray(ma) == 0
        ma, mb = np.where(pseudo, 1.0, ma), np.where(pseudo, 1.0, mb)
        lw, lw_err = pair._log_weights(ma, mb)
        shape = np.shape(ma)
        one, zero, half = np.ones(shape), np.zeros(shape), np.full(shape, 0.5)
        l_hi, e_hi = log_hockey_stick_binary_count(one, zero, ma - 1.0, half, lg_lo)
        l_lo, e_lo = log_hockey_stick_binary_count(one, zero, mb - 1.0, half, lg_hi)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            rel = np.exp(lw_err - lw)
            hi = lw + np.log1p(rel) + np.logaddexp(l_hi, e_hi)
            core = np.where(e_lo < l_lo, l_lo + np.log(-np.expm1(np.minimum(e_lo - l_lo, 0.0))), -np.inf)
            lo = np.where(rel < 1, lw + np.log1p(-np.minimum(rel, 1.0)) + core, -np.inf)
        hi = np.where(np.isneginf(lw), -np.inf, hi)
        lo = np.where(np.isneginf(lw) | np.isnan(lo), -np.inf, lo)
        hi = np.where(pseudo, outer[0], hi)
        lo = np.where(pseudo, -np.inf, lo)
        return hi, lo, np.full(shape, -np.inf)

    if top <= POINTWISE_MAX:
        m = np.arange(1, top + 1, dtype=float)
        enc, _, _ = refine_buckets(bounds, m, m, rtol, max_rounds=0)
        return enc, rtol
    N, q = pair.others, pair.clone_prob

    def log_h(m):
        m = np.asarray(m, dtype=float)
        out, _ = log_hockey_stick_binary_count(np.ones(m.shape), np.zeros(m.shape), m - 1.0, np.full(m.shape, 0.5), lg_lo)
        return out

    def log_f(m):
        return binom_logpmf(np.asarray(m, dtype=float) - 1.0, N, q) + log_h(m)

    mean, sd0 = N * q + 1, math.sqrt(N * q * (1 - q)) + 1
    grid = np.unique(np.clip(np.round(np.concatenate([
        np.geomspace(1, top, 48), np.linspace(1, top, 24),
        np.linspace(mean - 60 * sd0, mean + 8 * sd0, 48)])), 1, top))
    for _ in range(6):
        f = log_f(grid)
        j = int(np.argmax(f))
        lo, hi = grid[max(j - 1, 0)], grid[min(j + 1, len(grid) - 1)]
        if hi - lo <= 64:
            break
        grid = np.unique(np.round(np.linspace(lo, hi, 49)))
    m_star = float(grid[int(np.argmax(log_f(grid)))])
    sd = math.sqrt(m_star * max(1.0 - m_star / top, 1.0 / top)) + 1.0
    m_lo = max(1.0, math.floor(m_star - PEAK_SDS * sd))
    m_hi = min(float(top), math.ceil(m_star + PEAK_SDS * sd))
    a, b = max(m_lo, m_star - round(sd)), min(m_hi, m_star + round(sd))
    lh = log_h([a, b])
    c = max(float(lh[0] - lh[1]) / (b - a), 1e-300) if b > a else 1e-300
    # Bucket widths over the window. (A) w0 e^{x^2/(4 sd^2)}, at least 1 and at most 1/(2c):
    # a first-order gap of about rtol/2; past the budget w0 is scaled by the least k that fits
    # (a gap of about k rtol/2). (B) where that gap would exceed 1/4 (far tail), v + x^2/(4 c sd^2):
    # a bucket spans a factor e^{c width} of h while the summand falls like e^{-x^2/(2 sd^2)}, so
    # each over-states its share by at most about e^{c v} e^{-x^2/(4 sd^2)}, v the least that
    # fits the budget (about 4 pi^2 c sd^2 / budget^2).
    w0 = (rtol / 2) / (2 * math.sqrt(2) * c)
    x = np.linspace(m_lo - m_star, m_hi + 1 - m_star, 4001)
    growth = np.exp(np.minimum(x * x / (4 * sd * sd), 700.0))
    top_width = max(1.0, 0.5 / c)

    def cumulative(width):
        return np.concatenate([[0.0], np.cumsum(np.diff(x) * 2 / (width[1:] + width[:-1]))])

    def count_a(k):
        return cumulative(np.clip(k * w0 * growth, 1.0, top_width))

    cum, k = count_a(1.0), 1.0
    if cum[-1] > BUCKET_BUDGET and cumulative(np.full(x.shape, top_width))[-1] <= BUCKET_BUDGET:
        lo_k, hi_k = 1.0, 2.0
        while count_a(hi_k)[-1] > BUCKET_BUDGET:
            lo_k, hi_k = hi_k, 2 * hi_k
        for _ in range(16):
            mid = math.sqrt(lo_k * hi_k)
            lo_k, hi_k = (mid, hi_k) if count_a(mid)[-1] > BUCKET_BUDGET else (lo_k, mid)
        cum, k = count_a(hi_k), hi_k
    limited = cum[-1] > BUCKET_BUDGET or k > 1.0
    if cum[-1] > BUCKET_BUDGET or k * rtol > 0.5:
        v = max(1.0, 4 * math.pi**2 * c * sd * sd / BUCKET_BUDGET**2)
        while True:
            cum = cumulative(np.maximum(v + x * x / (4 * c * sd * sd), 1.0))
            if cum[-1] <= BUCKET_BUDGET:
                break
            v *= 1.25
    edges = np.interp(np.arange(0.0, float(cum[-1]), 1.0), cum, x) + m_star
    edges = np.unique(np.clip(np.round(np.concatenate([edges, [m_lo, m_hi + 1]])), m_lo, m_hi + 1))
    ma, mb = np.append(edges[:-1], 0.0), np.append(edges[1:] - 1, 0.0)
    outer[0] = float(np.logaddexp(_chernoff_outer(N, q, lg_lo, 1, int(m_lo) - 1),
                                  _chernoff_outer(N, q, lg_lo, int(m_hi) + 1, top)))
    # within the budget a few refinement rounds correct the model of the summand; past it the
    # enclosure is taken as it is
    enc, _, _ = refine_buckets(bounds, ma, mb, rtol, max_rounds=0 if limited else 4)
    return enc, (max(rtol, enc.relative_width()) if limited else rtol)


def _eps0_dp_log_delta(e0: float, eps: float) -> tuple[float, float]:
    """(log lower, log upper) of (e^eps0 - e^eps)_+/(e^eps0 + 1) = -expm1(eps - eps0)/(1 + e^-eps0),
    the delta of eps0-DP (randomized response, the trade-off function f_{eps0,0}): the shuffled
    mechanism is eps0-DP, so this bounds its delta too."""
    if eps >= e0:
        return -math.inf, -math.inf
    v = -math.expm1(eps - e0) / (1.0 + math.exp(-e0))
    lv = math.log(v)
    size = 8 * _U * (1 + abs(lv)) + 8 * _U * abs(eps - e0) / max(-math.expm1(eps - e0), 1e-300) * 2
    return rounding.down(lv, abs_err=size), rounding.up(lv, abs_err=size)


def _combine(log_lo: float, log_up: float, e0: float, eps: float, reduction, note: str, params: dict,
             method: str = "shuffle-fdp") -> Result:
    """min(Corollary 4.3, eps0-DP) as one Result, labelled with the reduction's status."""
    st, why = status(reduction)
    dp_lo, dp_up = _eps0_dp_log_delta(e0, eps)
    which = "Corollary 4.3" if log_up <= dp_up else "eps0-DP"
    lo, up = min(log_lo, dp_lo), min(log_up, dp_up, 0.0)  # a hockey-stick divergence is at most 1
    text = (f"min(Corollary 4.3 = (1 - 2w) H_{{e^eps~}}(P0||Q0), eps0-DP bound (e^eps0 - e^eps)_+/(e^eps0 + 1)); "
            f"the {which} bound is the smaller here; pair: {reduction} (q = {'e^-eps0' if reduction == 'clones' else '2/(e^eps0+1)'})"
            + (f"; {why}" if st is not Status.PROVEN else "") + (f"; {note}" if note else ""))
    res = Result.from_log("delta", min(lo, up), up, kind=Kind.UPPER, status=st, method=method,
                           source=f"{SOURCE_COR_4_3}; {clones.reduction_source(reduction)}; {SOURCE_EPS0_DP}",
                           note=text, params={**params, "reduction": reduction, "bound": which,
                                              "cor43_log_upper": log_up, "eps0_dp_log_upper": dp_up})
    # delta <= 1 exactly (the rounding of e^0 upwards must not lift it above)
    return res if res.upper <= 1.0 else res.replace(upper=1.0, lower=min(res.lower, 1.0))


def _delta_float(e0: float, nn: int, eps: float, rtol: float, reduction=DEFAULT_REDUCTION) -> Result:
    """Corollary 4.3 in float64, and its minimum with the eps0-DP bound (see :func:`shuffle_delta`)."""
    _, th = weights(e0)
    params = {"eps0": e0, "n": nn, "epsilon": eps}
    if eps >= e0:
        return _combine(-math.inf, 0.0, e0, eps, reduction, "", params)
    lo_t, hi_t = _tilde(e0, eps)
    pair = _p0q0_pair(e0, nn, reduction)
    enc, aim = _log_h0(pair, lo_t, hi_t, rtol)  # H0 is non-increasing: eps~_lo gives the upper end
    log_th_hi = rounding.log_up(rounding.up(th, rel_err=2 * _U))
    log_th_lo = rounding.log_down(rounding.down(th, rel_err=2 * _U))
    log_up = rounding.up(enc.log_upper + log_th_hi, abs_err=2 * _U * (abs(enc.log_upper) + abs(log_th_hi)))
    ll = enc.log_lower
    log_lo = rounding.down(ll + log_th_lo, abs_err=4 * _U * (abs(ll) + abs(log_th_lo))) if ll > -math.inf else -math.inf
    if enc.log_upper == -math.inf:
        log_up = -math.inf
    note = "" if aim <= rtol else f"far tail: relative width aimed at {aim:.2g} (bucket budget), not rtol = {rtol:g}"
    return _combine(min(log_lo, log_up), log_up, e0, eps, reduction, note, {**params, "aimed_rtol": aim})


# ------------------------------------------------------------------- mpmath sum


def _mp_delta0_sum(e0: float, nn: int, eps: float, i_lo: int, i_hi: int, reduction=DEFAULT_REDUCTION):
    """sum_{i_lo <= i <= i_hi} w_i h_i(gamma) at the working precision, by exact recurrences in
    i from the mode (no tail evaluated twice): h_i = gamma p_i(k) - (gamma - 1) S_i(k),
    k = floor((gamma i - 1)/(gamma + 1)) + 1 the first positive term of
    sum_k (p_i(k) - gamma p_i(k+1))_+."""
    W, th, Q = _mp_params(e0, reduction)
    g = 1 + mpmath.expm1(mpmath.mpf(eps)) / th  # e^eps~
    half = mpmath.mpf(1) / 2

    def kstar(i):
        return int(mpmath.floor((g * i - 1) / (g + 1))) + 1

    start = min(max(int(round((nn - 1) * float(Q))), i_lo), i_hi)
    k0 = kstar(start)
    S0, p0 = mp_binom_sf(k0, start, half), mp_binom_pmf(k0, start, half)
    w0 = mp_binom_pmf(start, nn - 1, Q)
    odds = Q / (1 - Q) if Q < 1 else None
    total = w0 * (g * p0 - (g - 1) * S0)
    # upwards
    i, k, S, p, w = start, k0, S0, p0, w0
    while i < i_hi:
        pk1 = p * k / (i - k + 1) if k >= 1 else mpmath.mpf(0)  # p_i(k - 1)
        S = S + pk1 / 2 if k >= 1 else mpmath.mpf(1)
        p = (p + pk1) / 2
        w = w * (nn - 1 - i) / (i + 1) * odds
        i += 1
        kn = kstar(i)
        while k < kn:
            S = S - p
            p = p * (i - k) / (k + 1)
            k += 1
        total += w * (g * p - (g - 1) * S)
    # downwards
    i, k, S, p, w = start, k0, S0, p0, w0
    while i > i_lo:
        pkm1 = p * 2 * k / i  # p_{i-1}(k - 1)
        S = S - pkm1 / 2
        p = p * 2 * (i - k) / i  # p_{i-1}(k)
        w = w * i / (nn - i) / odds
        i -= 1
        kn = kstar(i)
        if k > kn:
            S, p, k = S + pkm1, pkm1, k - 1
        while k > kn:
            p = p * k / (i - k + 1)  # p_i(k - 1)
            S = S + p
            k -= 1
        total += w * (g * p - (g - 1) * S)
    return total


def _delta_mp(e0: float, nn: int, eps: float, digits: int, reduction=DEFAULT_REDUCTION) -> Result:
    """Corollary 4.3 with mpmath: (1 - 2w) sum_i w_i h_i over a window of i, the rest bounded by the
    binomial tails of C (h_i in [0, 1], non-increasing in i), the sum evaluated until two working
    precisions agree (:func:`dptheory.precision.mp_adaptive`); then its minimum with the
    eps0-DP bound, in mpmath."""
    params = {"eps0": e0, "n": nn, "epsilon": eps, "digits": digits}
    if eps >= e0:
        return _combine(-math.inf, -math.inf, e0, eps, reduction, f"mpmath, {digits} digits",
                        {**params, "value": "0"})
    with mpmath.workdps(30):
        _, _, Q = _mp_params(e0, reduction)
        mean, sd = (nn - 1) * float(Q), math.sqrt((nn - 1) * float(Q) * (1 - float(Q)))
    k_sd = math.sqrt(2 * math.log(10) * (digits + 20)) + 5
    while True:
        i_lo = max(0, int(mean - k_sd * sd) - 10)
        i_hi = min(nn - 1, int(mean + k_sd * sd) + 10)
        value = mp_adaptive(lambda: _mp_delta0_sum(e0, nn, eps, i_lo, i_hi, reduction), digits + 5)
        with mpmath.workdps(digits + 20):
            _, th, Q = _mp_params(e0, reduction)
            below = mp_binom_cdf(i_lo - 1, nn - 1, Q) if i_lo > 0 else mpmath.mpf(0)
            above = mp_binom_sf(i_hi + 1, nn - 1, Q) if i_hi < nn - 1 else mpmath.mpf(0)
            omitted = below + above  # h <= 1
            if value == 0 or omitted <= value * mpmath.mpf(10) ** (-digits) or (i_lo == 0 and i_hi == nn - 1):
                break
        k_sd *= 1.6
    with mpmath.workdps(digits + 20):
        rel = mpmath.mpf(10) ** (-(digits + 2))
        hi = th * (value * (1 + rel) + omitted)
        lo = th * value * (1 - rel)
        E = mpmath.exp(mpmath.mpf(e0))
        dp = (E - mpmath.exp(mpmath.mpf(eps))) / (E + 1)  # the eps0-DP bound
        shown = mpmath.nstr(min(th * value, dp), digits)
        log_hi = rounding.mp_up(mpmath.log(hi)) if hi > 0 else -math.inf
        log_lo = rounding.mp_down(mpmath.log(lo)) if lo > 0 else -math.inf
    return _combine(log_lo, log_hi, e0, eps, reduction, f"mpmath, {digits} digits", {**params, "value": shown})


# ------------------------------------------------------------------------ delta


def shuffle_delta(eps0, n, epsilon, *, digits=None, rtol: float = 1e-3, reduction=DEFAULT_REDUCTION) -> Result:
    """delta(epsilon) of n shuffled eps0-LDP users: Corollary 4.3 (corrected t_y), combined with
    the eps0-DP bound; an upper bound.

    ``delta(eps) = min(1 + f_Shuffle*(-e^eps), (e^eps0 - e^eps)_+/(e^eps0 + 1))`` with
    ``1 + f_Shuffle*(-e^eps) = (1 - 2w) H_{e^eps~}(P0 || Q0)``, ``e^eps~ = (e^eps - 2w)/(1 - 2w)``,
    w = 1/(e^eps0 + 1): the conjugate is attained at the P0-threshold t_y = (1 - 2w)/(e^eps - 2w),
    not where the printed chord slope l(t) puts it. The second term is the delta of eps0-DP
    (the shuffled mechanism is a post-processing of the victim's eps0-LDP report): it makes
    delta 0 for eps >= eps0, and is the smaller one at small n; a minimum of two upper bounds is
    an upper bound. The hockey-stick divergence of (P0, Q0) is a certified bucketed sum over the
    clone count (:func:`_log_h0`: float64, about the same cost at every n and epsilon; relative
    width ``rtol``, wider only far in the tail, see there), or with ``digits`` an mpmath sum by
    recurrences in i (:func:`_delta_mp`). The Result carries log_lower/log_upper: below the
    float range use them.

    ``reduction`` chooses the pair (:data:`REDUCTIONS`): the default, the paper's
    "stronger-clones", is **unproven** for a general eps0-LDP randomizer (the general proof of
    Feldman, McMillan, Talwar 2023 was withdrawn); "clones" (FMT 2021, q = e^-eps0) is proven.
    The status of the Result says which (:func:`status`).

    Domain: eps0 > 0, n >= 1, epsilon >= 0. Source: Wang et al. (2023), Corollary 4.3; the erratum
    on t_y: docs/errata.md#wang2023-corollary-4-3.
    """
    e0, nn = _check(eps0, n)
    eps = validate.real("epsilon", epsilon, low=0.0)
    digits = validate.digits(digits)
    rtol = validate.real("rtol", rtol, low=0.0, low_open=True, high=1.0)
    red = clones.reduction(reduction)
    if digits is not None:
        return _delta_mp(e0, nn, eps, digits, red)
    return _delta_float(e0, nn, eps, rtol, red)


def corollary_4_3_printed_delta(eps0, n, epsilon, *, reduction=DEFAULT_REDUCTION) -> Result:
    """Corollary 4.3 as printed: t_y = inf{t : -e^eps + 2w - (1 - 2w) l(t) <= 0} with the chord
    ratio ``l(t) = -sum_i w_i p_i(s_i + 1) / sum_i w_i p_i(s_i)``, and
    ``delta = 1 - e^eps alpha0(t_y) - 2w (1 - alpha0(t_y)) - (1 - 2w) beta0(t_y)``.

    Status refuted: the chord is steeper than the curve, so t_y is too large and delta too small
    (negative at n = 20, eps0 = 1, eps = 2; docs/errata.md#wang2023-corollary-4-3). Float64, exact floors, O(n)
    per threshold scanned: small n only (n <= 300). Kept for the erratum test.
    """
    e0, nn = _check(eps0, n)
    eps = validate.real("epsilon", epsilon, low=0.0)
    if nn > 300:
        raise validate.DomainError(f"n = {nn} is invalid here: the printed Corollary 4.3 is evaluated for n in [1, 300]")
    w, th = weights(e0)
    red = clones.reduction(reduction)
    i = np.arange(nn)
    lw = np.exp(binom_logpmf(i.astype(float), nn - 1, clone_probability(e0, red)))
    ts = sorted({Fraction(a, b) for b in range(1, nn + 1) for a in range(1, nn + 1 - b)})
    target = (math.exp(eps) - 2 * w) / th  # condition: |l(t)| <= target
    for t in ts:
        s = _floors(t, nn).astype(float)
        den = np.sum(lw * np.exp(binom_logpmf(s, i.astype(float), 0.5)))
        if den == 0:
            continue  # l(t) undefined: every s_i = -1
        num = np.sum(lw * np.exp(binom_logpmf(s + 1, i.astype(float), 0.5)))
        if num / den <= target:
            a0, b0 = proposition_4_1(e0, nn, t, reduction=red)
            value = 1 - math.exp(eps) * a0 - 2 * w * (1 - a0) - th * b0
            return Result("delta", value, value, Kind.UPPER, Status.REFUTED, "shuffle-fdp-printed",
                          f"{SOURCE}, Corollary 4.3 as printed", note=REFUTED_COR_4_3,
                          params={"eps0": e0, "n": nn, "epsilon": eps, "t_y": float(t), "reduction": red})
    # no threshold qualifies: t_y = inf (the infimum of an empty set), alpha0 = 1, beta0 = 0
    value = -math.expm1(eps)
    return Result("delta", value, value, Kind.UPPER, Status.REFUTED, "shuffle-fdp-printed",
                  f"{SOURCE}, Corollary 4.3 as printed", note=REFUTED_COR_4_3,
                  params={"eps0": e0, "n": nn, "epsilon": eps, "t_y": math.inf, "reduction": red})
