"""Dominating pairs of count distributions, and their hockey-stick divergence at any n.

Every reduction of shuffling used here (the clones of Feldman, McMillan, Talwar 2021 and 2023, the
variation-ratio pair of Wang et al. 2024, and the lower-bound pairs of Wang et al. Thm 5.1) has the
same shape, which :class:`CountPair` describes:

* N other users each contribute a *clone* with probability ``clone_prob`` (type 0 with probability
  ``clone_bias``, else type 1), and nothing otherwise;
* the victim contributes a message with probability ``victim_prob``, the same under both
  hypotheses; given that it does, the message is of type 0 with probability ``theta_p`` under P
  and ``theta_q`` under Q;
* the observation is the pair of counts (a, b) of type-0 and type-1 messages.

**Exact decomposition** (derived here; it is what makes every n cost the same). The total count
K = a + b has the same law under P and Q (K = C + V, C ~ Bin(N, s), V ~ Bern(v)), and it is observed,
so ``H_gamma(P||Q) = sum_m P(K=m) h(m)`` with h(m) the divergence of the conditional pair given
K = m. Given K = m the victim is present with probability pi_m (the same under P and Q), so the
conditional pair is "one message of type 0 with probability pi_m theta + (1 - pi_m) rho, plus
m - 1 independent clones" -- a binary pair observed through a binomial count, whose divergence is a
difference of two binomial tails (:func:`_log_psi`, O(1) with the incomplete beta function).

**Certified sums.** h(m) = Psi(pi_m, m - 1) where Psi is non-decreasing in pi (lowering pi mixes the
victim's message with a fresh clone: a post-processing) and non-increasing in the number of
clones (adding one is a post-processing), and pi_m is non-decreasing in m. So on a bucket
m in [m_a, m_b], ``Psi(pi_{m_a}, m_b - 1) <= h(m) <= Psi(pi_{m_b}, m_a - 1)``: a handful of
adaptively refined buckets gives rigorous lower and upper sums, whatever n is. Rounding errors of
the tails and bucket weights (:func:`dptheory.precision.binom_tail_rtol`) are added to the
enclosure, so the returned interval contains the exact divergence of the pair.
"""

from __future__ import annotations

import dataclasses
import math

import mpmath
import numpy as np

from .. import validate
from ..results import Enclosure
from ..precision import (binom_cdf, binom_log_mills, binom_logcdf, binom_logpmf, binom_logsf, binom_sf,
                         binom_tail_rtol, log1mexp, logsumexp, mp_binom_pmf, mp_binom_sf)

_NEG_INF = -np.inf
#: relative error allowed for the elementary float operations around a tail (A1, A0, gamma, ...)
_ARITH_RTOL = 1e-14


def _log_psi(thp, thq, j, rho, log_gamma):
    """log H_gamma(X + B || Y + B) with X ~ Bern(thp), Y ~ Bern(thq), B ~ Bin(j, rho) (vectorised).

    Returns (log value, log of an absolute error bound). The likelihood ratio of the count a is
    monotone in a, so the divergence is the sum over a >= k of
    ``(thp - gamma thq) B(a-1) + ((1-thp) - gamma (1-thq)) B(a)`` for a threshold k located in
    closed form (the best of k-1, k, k+1 is kept, so rounding in its location cannot lose mass).
    Summed, it is ``A1 B(k-1) - (gamma - 1) S(k) = B(k) [A1 x_k - (gamma - 1) R(k)]`` with
    x_k = B(k-1)/B(k) and R the binomial Mills ratio S(k)/B(k); in this form the error of the
    tail is multiplied by (gamma - 1), not by the tail itself.
    """
    thp, thq, j, rho = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (thp, thq, j, rho)))
    thp, thq, j, rho = (v.copy() for v in (thp, thq, j, rho))
    lg = float(log_gamma)
    gamma = math.exp(lg)
    gm1 = math.expm1(lg)
    flip = thp < thq
    thp[flip], thq[flip], rho[flip] = 1 - thp[flip], 1 - thq[flip], 1 - rho[flip]
    out = np.full(thp.shape, _NEG_INF)
    err = np.full(thp.shape, _NEG_INF)
    equal = thp == thq
    whole = max(0.0, -gm1)  # sum of (P - gamma Q) over all atoms
    log_whole = math.log(whole) if whole > 0 else _NEG_INF
    out[equal] = log_whole
    with np.errstate(divide="ignore", invalid="ignore"):
        r_inf = np.where(thq > 0, thp / np.where(thq > 0, thq, 1.0), np.inf)
        r_zero = (1 - thp) / (1 - thq)
        # gamma at the largest ratio thp/thq to rounding: P(a) - gamma Q(a) = A1 B(a-1) + A0 B(a)
        # with A1 = thp - gamma thq within rounding of 0, so the divergence is at most A1+ + A0+
        slack = 4 * np.finfo(float).eps * (thp + gamma * thq)
        boundary = ~equal & (np.abs(thp - gamma * thq) <= slack)
        a0_pos = np.maximum((1 - thp) - gamma * (1 - thq), 0.0)
    err[boundary] = np.log(slack[boundary] + a0_pos[boundary])
    live = ~equal & ~boundary & (gamma < r_inf)
    everything = live & (gamma < r_zero)
    out[everything] = log_whole
    mid = live & ~everything
    if np.any(mid):
        tp, tq, jj, rr = thp[mid], thq[mid], j[mid], rho[mid]
        a1 = tp - gamma * tq
        a0 = a1 + gm1
        xs = a0 / a1
        a_star = xs * rr * (jj + 1) / ((1 - rr) + xs * rr)
        k0 = np.floor(a_star) + 1
        la1 = np.log(a1)
        best = np.full(tp.shape, _NEG_INF)
        best_err = np.full(tp.shape, _NEG_INF)
        # B and R at the highest candidate, then downwards: R(k-1) = 1 + R(k) / x_k (stable)
        k_hi = np.clip(k0 + 1.0, 1.0, jj)
        lb = binom_logpmf(k_hi, jj, rr)
        lr, rel = binom_log_mills(k_hi, jj, rr)
        for step in range(4):
            k = k_hi - step
            valid = k >= 1
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                lx = np.log(k * (1 - rr)) - np.log((jj - k + 1) * rr)  # log x_k = log B(k-1)/B(k)
                first = np.exp(la1 + lx)
                second = gm1 * np.exp(lr)
                bracket = first - second
                log_val = np.where(valid & (bracket > 0), lb + np.log(np.abs(bracket)), _NEG_INF)
                scale = np.abs(second) * (rel + _ARITH_RTOL) + (np.abs(first) + np.abs(bracket)) * _ARITH_RTOL * (1 + np.abs(lb))
                tol = lb + np.log(scale)
            better = log_val > best
            best = np.where(better, log_val, best)
            best_err = np.where(better | (best_err == _NEG_INF), tol, best_err)
            # the sum from k+1 = j+1 on (empty tail): A1 B(j)
            if step == 0:
                at_top = k_hi >= jj
                top_val = la1 + lb
                with np.errstate(invalid="ignore"):
                    better = at_top & (top_val > best)
                best = np.where(better, top_val, best)
                best_err = np.where(better, top_val + math.log(_ARITH_RTOL) + np.log1p(np.abs(lb)), best_err)
            # move to k - 1
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                lr = np.log1p(np.exp(lr - lx))
                lb = lb + lx
        out[mid] = best
        err[mid] = best_err
    return out, err


def _log_binom_range(lo, hi, n, s):
    """log P[lo <= Bin(n, s) <= hi] and log of an absolute error bound (vectorised, integers)."""
    lo, hi = np.broadcast_arrays(np.asarray(lo, dtype=float), np.asarray(hi, dtype=float))
    lo = np.maximum(lo, 0.0)
    hi = np.minimum(hi, n)
    out = np.full(lo.shape, _NEG_INF)
    err = np.full(lo.shape, _NEG_INF)
    tau = float(binom_tail_rtol(n))
    valid = lo <= hi
    single = valid & (lo == hi)
    if np.any(single):
        out[single] = binom_logpmf(lo[single], n, s)
        err[single] = out[single] + math.log(tau)
    median = n * s
    upper = valid & ~single & (lo > median)
    if np.any(upper):
        a, _ = binom_logsf(lo[upper], n, s)
        b, _ = binom_logsf(hi[upper] + 1, n, s)
        with np.errstate(invalid="ignore"):
            out[upper] = np.where(b < a, a + log1mexp(np.minimum(b - a, 0.0)), _NEG_INF)
        err[upper] = a + math.log(2 * tau)
    lower = valid & ~single & ~upper & (hi < median)
    if np.any(lower):
        a, _ = binom_logcdf(hi[lower], n, s)
        b, _ = binom_logcdf(lo[lower] - 1, n, s)
        with np.errstate(invalid="ignore"):
            out[lower] = np.where(b < a, a + log1mexp(np.minimum(b - a, 0.0)), _NEG_INF)
        err[lower] = a + math.log(2 * tau)
    central = valid & ~single & ~upper & ~lower
    if np.any(central):
        below = binom_cdf(lo[central] - 1, n, s)
        above = binom_sf(hi[central] + 1, n, s)
        with np.errstate(divide="ignore"):
            out[central] = np.log1p(-(below + above))
        err[central] = math.log(2 * tau + 1e-16)
    return out, err


def _lmul(log_a, log_b):
    """log(a b) for a, b >= 0 given in logs, with 0 times anything (even inf) = 0: a bucket of
    zero weight contributes nothing, whatever its conditional bound."""
    with np.errstate(invalid="ignore"):
        out = np.add(log_a, log_b)
    return np.where(np.isneginf(log_a) | np.isneginf(log_b), -np.inf, out)


def _totals(lhi, llo, lerr, base=_NEG_INF):
    """(log lower, log upper) of a bucketed sum: sum of the bucket bounds plus ``base`` (exact),
    the float64 errors added to the upper side and taken off the lower."""
    total_err = float(logsumexp(lerr))
    up = float(np.logaddexp(logsumexp(np.append(lhi, base)), total_err))
    core = float(logsumexp(np.append(llo, base)))
    low = core + float(log1mexp(min(total_err - core, 0.0))) if total_err < core else -math.inf
    return low, up


def refine_buckets(bounds, ma, mb, rtol: float, *, base: float = _NEG_INF, max_rounds: int = 60, done=None):
    """Certified enclosure of a sum over integer buckets [ma, mb] whose terms are monotone within
    each bucket: ``bounds(ma, mb)`` gives (log hi, log lo, log err) per bucket. The buckets holding
    90% of the gap are split in four until the relative width is at most ``rtol`` (or every bucket
    is a single point); ``done(log lower, log upper)``, if given, replaces that stopping rule (for
    sums whose final quantity is a function of the sum, see
    :func:`dptheory.shuffle.pair_renyi.renyi_width_rule`).
    Returns (Enclosure, ma, mb), the final buckets for reuse."""
    if done is None:
        done = lambda lower, upper: -math.expm1(lower - upper) <= rtol  # noqa: E731
    lhi, llo, lerr = bounds(ma, mb)
    for _ in range(max_rounds):
        lower, upper = _totals(lhi, llo, lerr, base)
        if upper == -math.inf or (lower > -math.inf and done(lower, upper)):
            break
        with np.errstate(invalid="ignore"):
            gap = np.where(lhi > llo, lhi + log1mexp(np.minimum(llo - lhi, 0.0)), -np.inf)
        gap = np.where(mb > ma, gap, -np.inf)
        if not np.any(np.isfinite(gap)):
            break
        order_ = np.argsort(-gap)
        cum = np.logaddexp.accumulate(gap[order_])
        count = int(np.searchsorted(cum, cum[-1] + math.log(0.9))) + 1
        chosen = [i for i in order_[:count] if np.isfinite(gap[i])]
        keep = np.ones(len(ma), dtype=bool)
        keep[chosen] = False
        new_a, new_b = [], []
        for i in chosen:
            a_, b_ = ma[i], mb[i]
            pieces = 4 if b_ - a_ >= 3 else int(b_ - a_ + 1)
            cuts = np.unique(np.floor(np.linspace(a_, b_ + 1, pieces + 1)))
            new_a.extend(cuts[:-1])
            new_b.extend(cuts[1:] - 1)
        na, nb = np.array(new_a), np.array(new_b)
        nhi, nlo, nerr = bounds(na, nb)
        ma, mb = np.concatenate([ma[keep], na]), np.concatenate([mb[keep], nb])
        lhi, llo, lerr = np.concatenate([lhi[keep], nhi]), np.concatenate([llo[keep], nlo]), np.concatenate([lerr[keep], nerr])
    lower, upper = _totals(lhi, llo, lerr, base)
    if math.isnan(lower) or math.isnan(upper):
        raise FloatingPointError("bucketed sum gave NaN: a bucket bound is undefined (please report)")
    return Enclosure(lower, upper), ma, mb


def bucket_edges(start: int, top: int, mean: float, sd: float, central: int = 32) -> np.ndarray:
    """Bucket edges over the integers start .. top (the last edge is top + 1) for a count with
    this mean and sd: doubling steps below the bulk (12 sd), ``central`` buckets across it, one
    bucket above (refinement splits whatever matters)."""
    lo = max(start, int(mean - 12 * sd))
    hi = min(top, int(mean + 12 * sd) + 1)
    edges = {start, top + 1}
    m = max(start, 1)
    while m < lo:
        edges.add(m)
        m *= 2
    edges.update(np.unique(np.round(np.linspace(lo, hi, central + 1))).astype(int).tolist())
    return np.array(sorted(x for x in edges if start <= x <= top + 1), dtype=np.int64)


def log_monotone_binomial_sum(log_f, n: int, s: float, *, rtol: float = 1e-6, f_rtol: float = 1e-12,
                              done=None) -> Enclosure:
    """Certified enclosure of log sum_{m=0}^{n} Bin(m; n, s) f(m) for f non-increasing in m;
    ``log_f`` is vectorised and f is computed to a relative error below ``f_rtol``; ``done`` as in
    :func:`refine_buckets`."""
    def bounds(ma, mb):
        lw, lw_err = _log_binom_range(ma, mb, n, s)
        f_hi, f_lo = log_f(ma), log_f(mb)
        slack = math.log(f_rtol)
        err = np.logaddexp(_lmul(lw_err, f_hi), _lmul(lw, f_hi + slack))
        return _lmul(lw, f_hi), _lmul(lw, f_lo), err

    edges = bucket_edges(0, n, n * s, math.sqrt(n * s * (1 - s)) + 1.0)
    enc, _, _ = refine_buckets(bounds, edges[:-1].astype(float), (edges[1:] - 1).astype(float), rtol, done=done)
    return enc


@dataclasses.dataclass(frozen=True)
class CountPair:
    """Two laws of the counts (a, b) of type-0 and type-1 messages; see the module docstring.

    Parameters
    ----------
    others : int
        N, the number of other users (or blanket messages).
    clone_prob : float
        Probability that another user contributes a clone message.
    theta_p, theta_q : float
        Probability that the victim's message is of type 0, under P and under Q.
    victim_prob : float
        Probability that the victim contributes a message at all (same under P and Q).
    clone_bias : float
        Probability that a clone is of type 0.
    """

    others: int
    clone_prob: float
    theta_p: float
    theta_q: float
    victim_prob: float = 1.0
    clone_bias: float = 0.5

    def __post_init__(self):
        object.__setattr__(self, "others", validate.integer("others", self.others, low=0))
        for name in ("clone_prob", "theta_p", "theta_q", "victim_prob", "clone_bias"):
            object.__setattr__(self, name, validate.probability(name, getattr(self, name)))

    # ------------------------------------------------------------------ structure
    def reversed(self) -> "CountPair":
        """The pair (Q, P)."""
        return dataclasses.replace(self, theta_p=self.theta_q, theta_q=self.theta_p)

    def _log_odds_present(self, m):
        """log(pi_m / (1 - pi_m)), pi_m = P[victim present | K = m]."""
        n, s, v = self.others, self.clone_prob, self.victim_prob
        m = np.asarray(m, dtype=float)
        with np.errstate(divide="ignore"):
            base = math.log(v) - math.log1p(-v) if 0 < v < 1 else (np.inf if v == 1 else -np.inf)
            if not np.isfinite(base):
                return np.full(m.shape, base)
            if s == 0:
                return np.where(m <= 1, np.where(m == 1, np.inf, -np.inf), np.nan)
            if s == 1:
                return np.where(m == n + 1, np.inf, np.where(m == n, -np.inf, np.nan))
            # Bin(m-1; n, s) / Bin(m; n, s) = m (1-s) / ((n-m+1) s)
            return base + np.log(m) + math.log1p(-s) - np.log(n - m + 1.0) - math.log(s)

    def _theta_given(self, m):
        lo = self._log_odds_present(m)
        with np.errstate(over="ignore"):
            pi = np.where(np.isposinf(lo), 1.0, np.where(np.isneginf(lo), 0.0, 1.0 / (1.0 + np.exp(-lo))))
        rho = self.clone_bias
        return pi * self.theta_p + (1 - pi) * rho, pi * self.theta_q + (1 - pi) * rho

    def _log_weights(self, ma, mb):
        """log P(ma <= K <= mb) and its error, K = C + V."""
        n, s, v = self.others, self.clone_prob, self.victim_prob
        terms, errs = [], []
        if v > 0:
            w, e = _log_binom_range(ma - 1, mb - 1, n, s)
            terms.append(w + math.log(v))
            errs.append(e + math.log(v))
        if v < 1:
            w, e = _log_binom_range(ma, mb, n, s)
            terms.append(w + math.log1p(-v))
            errs.append(e + math.log1p(-v))
        return logsumexp(np.vstack(terms), axis=0), logsumexp(np.vstack(errs), axis=0)

    # ------------------------------------------------------------------ float64, certified
    def _bucket_bounds(self, ma, mb, log_gamma):
        """(log weight, log hi, log lo, log err) of each bucket [ma, mb] (m >= 1)."""
        lw, lw_err = self._log_weights(ma, mb)
        tp_hi, tq_hi = self._theta_given(mb)
        tp_lo, tq_lo = self._theta_given(ma)
        rho = self.clone_bias
        l_hi, e_hi = _log_psi(tp_hi, tq_hi, ma - 1.0, rho, log_gamma)
        l_lo, e_lo = _log_psi(tp_lo, tq_lo, mb - 1.0, rho, log_gamma)
        # error: weight error times the upper Psi, plus weight times the Psi errors
        err = logsumexp(np.vstack([_lmul(lw_err, l_hi), _lmul(lw, e_hi), _lmul(lw, e_lo)]), axis=0)
        return lw, _lmul(lw, l_hi), _lmul(lw, l_lo), err

    def log_delta(self, epsilon, *, rtol: float = 1e-6, max_rounds: int = 60) -> Enclosure:
        """Certified enclosure of log H_{e^epsilon}(P||Q) (float64, any n).

        The buckets are refined until the enclosure's relative width is at most ``rtol`` (or every
        bucket is a single count, when the float64 error itself sets the width).
        """
        eps = validate.real("epsilon", epsilon)
        rtol = validate.real("rtol", rtol, low=0.0, low_open=True, high=1.0)
        n, s, v = self.others, self.clone_prob, self.victim_prob
        # m = 0: both laws are the point (0, 0)
        whole = max(0.0, -math.expm1(eps))
        log_zero_w = math.log1p(-v) + n * math.log1p(-s) if v < 1 and s < 1 else _NEG_INF
        if v == 1 and n == 0:
            log_zero_w = _NEG_INF
        base = log_zero_w + math.log(whole) if whole > 0 and log_zero_w > _NEG_INF else _NEG_INF
        edges = self._initial_edges()

        def bounds(ma, mb):
            return self._bucket_bounds(ma, mb, eps)[1:]

        enc, _, _ = refine_buckets(bounds, edges[:-1].astype(float), (edges[1:] - 1).astype(float), rtol,
                                   base=base, max_rounds=max_rounds)
        return enc

    def _initial_edges(self, central: int = 32) -> np.ndarray:
        """Bucket edges over m = 1 .. N+1 (the total count K = C + V)."""
        n, s, v = self.others, self.clone_prob, self.victim_prob
        return bucket_edges(1, n + 1, n * s + v, math.sqrt(n * s * (1 - s) + v * (1 - v)) + 1.0, central)

    def delta(self, epsilon, *, rtol: float = 1e-6) -> tuple[float, float]:
        """Certified (lower, upper) of H_{e^epsilon}(P||Q) in float64 (raises if below 1e-300)."""
        enc = self.log_delta(epsilon, rtol=rtol)
        if enc.log_upper > _NEG_INF and enc.log_upper < -690:
            from ..profile import Underflow

            raise Underflow("the divergence is below 1e-300: use log_delta or digits=...")
        return enc.lower, enc.upper

    # ------------------------------------------------------------------ mpmath
    def mp_delta(self, epsilon, digits: int = 50):
        """H_{e^epsilon}(P||Q) with mpmath (see :func:`mp_delta`); the pair's float parameters are
        taken as exact binary numbers."""
        return mp_delta(self.others, self.clone_prob, self.theta_p, self.theta_q, self.victim_prob,
                        self.clone_bias, epsilon, digits)


def mp_delta(others, clone_prob, theta_p, theta_q, victim_prob, clone_bias, epsilon, digits: int = 50):
    """Hockey-stick divergence of a count pair with mpmath parameters (mpf, strings or floats).

    The exact sum over every total count m whose weight matters at ``digits`` digits, walking out
    from the mean; returns (value, bound on the omitted mass). Each conditional term is the
    closed-form difference of two binomial tails (:func:`_mp_psi`).
    """
    digits = validate.digits(digits)
    eps = validate.real("epsilon", epsilon)
    n = validate.integer("others", others, low=0)
    with mpmath.workdps(digits + 20):
        gamma = mpmath.exp(mpmath.mpf(eps))
        S, V, R = mpmath.mpf(clone_prob), mpmath.mpf(victim_prob), mpmath.mpf(clone_bias)
        TP, TQ = mpmath.mpf(theta_p), mpmath.mpf(theta_q)

        def term(m):
            wp = V * mp_binom_pmf(m - 1, n, S) if m >= 1 else mpmath.mpf(0)
            wa = (1 - V) * mp_binom_pmf(m, n, S) if m <= n else mpmath.mpf(0)
            w = wp + wa
            if w == 0:
                return w, w
            if m == 0:
                return w, w * max(mpmath.mpf(0), 1 - gamma)
            pi = wp / w
            return w, w * _mp_psi(pi * TP + (1 - pi) * R, pi * TQ + (1 - pi) * R, m - 1, R, gamma)

        mean = int(round(float(n * S + V)))
        total = mpmath.mpf(0)
        seen = mpmath.mpf(0)
        cutoff = mpmath.mpf(10) ** (-(digits + 10))
        # walk outward from the mean; stop when the remaining mass (h <= 1) is negligible
        left, right = mean, mean + 1
        while left >= 0 or right <= n + 1:
            for m in ([left] if left >= 0 else []) + ([right] if right <= n + 1 else []):
                w, t = term(m)
                seen += w
                total += t
            left -= 1
            right += 1
            remaining = max(mpmath.mpf(0), 1 - seen)
            if total > 0 and remaining < cutoff * total:
                break
            if total == 0 and remaining < mpmath.mpf(10) ** (-(digits + 300)):
                break
        omitted = max(mpmath.mpf(0), 1 - seen)
    with mpmath.workdps(digits):
        return +total, +omitted


def _mp_psi(tp, tq, j, rho, gamma):
    """mpmath version of :func:`_log_psi` (value, not log)."""
    if tp < tq:
        tp, tq, rho = 1 - tp, 1 - tq, 1 - rho
    whole = max(mpmath.mpf(0), 1 - gamma)
    if tp == tq:
        return whole
    if tq > 0 and gamma >= tp / tq:
        return mpmath.mpf(0)
    if gamma < (1 - tp) / (1 - tq):
        return whole
    a1 = tp - gamma * tq
    a0 = gamma * (1 - tq) - (1 - tp)
    xs = a0 / a1
    a_star = xs * rho * (j + 1) / ((1 - rho) + xs * rho)
    k = int(mpmath.floor(a_star)) + 1
    return a1 * mp_binom_sf(k - 1, j, rho) - a0 * mp_binom_sf(k, j, rho)
