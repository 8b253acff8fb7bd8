"""Renyi divergence of a count pair (:class:`~dptheory.shuffle.pairs.CountPair`), certified, at any n.

The Renyi *excess* sum_x P(x)^lam Q(x)^(1-lam) - 1 of a count pair has the same decomposition as its
hockey-stick divergence (:mod:`dptheory.shuffle.pairs`): it is the mixture over the total count m
of the excesses of the conditional pairs "one message of type 0 with probability theta, plus
m - 1 clones", and these are monotone in pi_m and in the number of clones (data processing), so
buckets of m give rigorous lower and upper sums (:func:`renyi_log_excess`).

The conditional excess of X + B against Y + B, B ~ Bin(j, rho), is computed

* for small j (or a strong tilt), over a window of counts a holding all but a provably negligible
  part of it (:func:`_log_renyi_conditionals`), and
* for large j, over buckets of counts (:func:`_log_renyi_conditionals_bucketed`): per count a the
  term is B(a) H(x_a) with x_a = B(a-1)/B(a) increasing in a and H convex (a perspective of
  t^lam - 1 - lam (t - 1) composed with an affine map), so on a bucket Jensen's inequality gives a
  lower bound and the chord of H an upper bound, both exact to second order in the bucket's width,
  and sum_bucket B(a) x_a = sum_bucket B(a-1) telescopes. Its cost does not grow with n: the
  divergence of a count pair lives within a few standard deviations of the mean.
"""

from __future__ import annotations

import functools
import math

import mpmath
import numpy as np

from .. import rounding, validate
from ..precision import binom_logcdf, binom_logpmf, binom_logsf, binom_tail_rtol, log1mexp, logsumexp, mp_binom_pmf
from ..results import Enclosure
from .binomial_sums import log_mul, refine_buckets
from .pairs import CountPair


def renyi_width_rule(lam: float, rtol: float):
    """Stopping rule for a bucketed Renyi *excess* (sum P^lam Q^(1-lam) - 1, in logs): stop when the
    divergence log(1 + excess) / (lam - 1) has relative width at most ``rtol``. Where the excess is
    large (high orders) this needs a far looser excess than a relative width of ``rtol`` on it:
    at excess e^10 a width of 1e-2 on the excess is 1e-3 on the divergence."""
    def done(log_lower: float, log_upper: float) -> bool:
        d_hi = excess_to_renyi(log_upper, lam)
        return d_hi == 0.0 or excess_to_renyi(log_lower, lam) >= (1.0 - rtol) * d_hi
    return done


def _series_terms(x_max: float) -> int:
    """The number of terms of the series of :func:`_log_phi` for |lam u| <= x_max < 0.05: the
    k-th term over the first is (lam^k - lam) |u|^(k-2) / k! * 2 / (lam^2 - lam)
    <= 2 (k - 1) |x|^(k-2) / k! (as lam^(k-1) - 1 <= (k - 1)(lam - 1) lam^(k-2)), so the terms
    after the K-th add at most 2 K x^(K-1) / (K + 1)! / (1 - x) relative: below 1e-18."""
    k = 2
    while 2 * k * x_max ** (k - 1) / (math.factorial(k + 1) * (1 - x_max)) > 1e-18:
        k += 1
    return k


def _log_phi(u, lam):
    """log phi(u), phi(u) = expm1(lam u) - lam expm1(u) >= 0 (the excess r^lam - 1 - lam (r - 1) at
    r = e^u), accurate near u = 0 (series) and for large lam u (no overflow); u and lam broadcast
    against each other (e.g. a row of points and a column of orders)."""
    u0 = np.asarray(u, dtype=float)
    lam0 = np.asarray(lam, dtype=float)
    u, lam = np.broadcast_arrays(u0, lam0)
    x = lam * u
    ax = np.abs(x)
    out = np.empty(x.shape)
    # |lam u| < 0.05: phi = u^2 sum_{k>=2} (lam^k - lam) u^(k-2) / k!, Horner with enough terms for
    # the largest |lam u| of the branch (:func:`_series_terms`); over the whole array in the
    # arguments' own shapes (a row of points, a column of orders) where most of it is in the branch
    small = ax < 0.05
    count = int(np.count_nonzero(small))
    if count:
        whole = 2 * count >= small.size
        us, ls = (u0, lam0) if whole else (u[small], lam[small])
        terms = _series_terms(float(ax[small].max()))
        # lam^k - lam = lam (lam - 1) g_(k-1), g_m = 1 + lam + ... + lam^(m-1): no cancellation for
        # lam near 1 (lam - 1 is exact below 2, Sterbenz), every operation on positive numbers
        base = ls * (ls - 1.0)
        g = np.ones_like(ls)
        coef = [None, None]
        for kk in range(2, terms + 1):
            coef.append(base * g / math.factorial(kk))
            g = 1.0 + ls * g
        acc = coef[terms]
        for kk in range(terms - 1, 1, -1):
            acc = acc * us + coef[kk]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            series = np.log(acc) + 2 * np.log(np.abs(us))
        out[small] = np.broadcast_to(series, x.shape)[small] if whole else series
    mid = ~small & (ax < 0.5)
    if np.any(mid):
        with np.errstate(divide="ignore"):
            out[mid] = np.log(np.expm1(x[mid]) - lam[mid] * np.expm1(u[mid]))
    big = x >= 0.5
    if np.any(big):
        ub, xb, lb = u[big], x[big], lam[big]
        with np.errstate(over="ignore", invalid="ignore"):
            corr = (1.0 + lb * np.expm1(ub)) * np.exp(-xb)
            out[big] = xb + np.log1p(-np.minimum(corr, 1.0))
    neg = x <= -0.5
    if np.any(neg):
        with np.errstate(divide="ignore"):
            out[neg] = np.log(np.expm1(x[neg]) - lam[neg] * np.expm1(u[neg]))
    return out


def _log_renyi_conditional(thp: float, thq: float, j: int, rho: float, order: float, rtol: float):
    """log of the Renyi *excess* sum_a P(a)^lam Q(a)^(1-lam) - 1 for X + B vs Y + B, with
    X ~ Bern(thp), Y ~ Bern(thq), B ~ Bin(j, rho), and a bound on what the window omits.

    The excess is sum_a Q(a) phi(log P(a)/Q(a)) with phi(u) = e^{lam u} - 1 - lam (e^u - 1) >= 0
    (the linear term sums to 0), so every term is non-negative: no cancellation even when the
    divergence is 1e-12. The window of counts grows until the omitted terms, at most
    R^(lam-1) P(outside) + lam Q(outside) with R the largest likelihood ratio, are negligible.
    """
    lam = float(order)
    if thp == thq:
        return -math.inf, -math.inf
    if thp < thq:  # relabel the types so that the ratio increases with a
        thp, thq, rho = 1 - thp, 1 - thq, 1 - rho
    if thq == 0:  # P(j + 1) = thp B(j) > 0 = Q(j + 1) (or P(1) = thp > 0 = Q(1) if rho = 0)
        return math.inf, -math.inf
    # 0 < thq < thp <= 1 here; thp = 1 (e.g. 1/(1 + e^-eps0) at eps0 = 50) puts no mass of X on 0
    lthp = math.log(thp)
    l1thp = math.log1p(-thp) if thp < 1 else -math.inf
    lthq = math.log(thq) if thq > 0 else -math.inf
    l1thq = math.log1p(-thq)
    log_rmax = lthp - lthq  # the largest of P/Q's two values thp/thq > 1 > (1-thp)/(1-thq)
    sd = math.sqrt(j * rho * (1 - rho)) + 1.0
    centre = j * rho
    width = 12.0 * sd
    lo = max(0, int(centre - width))
    hi = min(j + 1, int(centre + width) + 1)
    target = math.log(max(rtol, 1e-16)) - 5.0
    total = omit = -math.inf
    for _ in range(80):
        a = np.arange(lo, hi + 1, dtype=float)
        lb = binom_logpmf(a, j, rho)
        lbm1 = binom_logpmf(a - 1, j, rho)
        with np.errstate(divide="ignore", invalid="ignore"):
            lp = np.logaddexp(lthp + lbm1, l1thp + lb)
            lq = np.logaddexp(lthq + lbm1, l1thq + lb)
            if np.any(np.isneginf(lq) & np.isfinite(lp)):
                return math.inf, -math.inf  # P puts mass where Q has none
            ok = np.isfinite(lq)
            terms = np.full(a.shape, -np.inf)
            terms[ok] = lq[ok] + _log_phi(np.where(np.isfinite(lp[ok]), lp[ok] - lq[ok], -745.0), lam)
        total = float(logsumexp(terms))
        below = binom_logsf(j - lo + 1.0, j, 1 - rho) if lo > 0 else -math.inf  # B <= lo - 1
        above = binom_logsf(float(hi), j, rho) if hi <= j else -math.inf       # B >= hi
        bound = lambda mass: mass + max(0.0, (lam - 1) * log_rmax) + math.log1p(lam)
        omit = float(np.logaddexp(bound(below) if lo > 0 else -math.inf, bound(above) if hi <= j else -math.inf))
        if omit - total <= target or (lo == 0 and hi == j + 1):
            return total, omit
        step = int(max(width, 1))
        if lo > 0:
            lo = max(0, lo - step)
        if hi <= j:
            hi = min(j + 1, hi + step)
        width *= 2
    return total, omit


def _log_upper_tail_bound(hi, j, tp, tq, rho, lam, sd):
    """log of a bound on sum_{a > hi} Q(a) phi(u(a)) <= sum P(a) r(a)^(lam-1) + lam Q(a).

    The ratio r(a) = P(a)/Q(a) increases with a, so over blocks [e_{k-1}, e_k) of geometrically
    growing length it is at most r(e_k); the P-mass of a block is at most P[B >= e_{k-1} - 1]."""
    out = np.full(hi.shape, -np.inf)
    live = hi < j
    if not np.any(live):
        return out
    lam = np.broadcast_to(np.asarray(lam, dtype=float), hi.shape)[live]
    h, jj, a, b, r, w = hi[live], j[live], tp[live], tq[live], rho[live], np.maximum(sd[live], 1.0)
    start = h + 1.0
    total = np.full(h.shape, -np.inf)
    log_rmax = np.log(a) - np.log(b)
    for k in range(60):
        end = np.minimum(h + 1.0 + w * (2.0**(k + 1) - 1), jj + 2.0)
        last = end >= jj + 1.0
        x_end = np.where(last, np.inf, end * (1 - r) / np.maximum(jj - end + 1, 1.0) / r)
        with np.errstate(invalid="ignore", divide="ignore"):
            log_r = np.where(last, log_rmax, np.log(a * x_end + 1 - a) - np.log(b * x_end + 1 - b))
        mass = binom_logsf(np.maximum(start - 1.0, 0.0), jj, r)
        block = mass + np.logaddexp((lam - 1) * np.maximum(log_r, 0.0), np.log(lam))
        total = np.where(start <= jj + 1.0, np.logaddexp(total, block), total)
        start = end
        if np.all(start > jj + 1.0):
            break
    out[live] = total
    return out


def _window_tables(t_lo, t_hi, j, tp, tq, r):
    """The order-free parts of the window terms of columns (j, tp, tq, r) over counts
    t_lo..t_hi of each: (log B(a) + log q(a) relative, u(a) = log p(a)/q(a), start of each column
    in the flat arrays), where p, q are P(a)/B(a), Q(a)/B(a) (:func:`_log_renyi_conditionals`)."""
    sizes = (t_hi - t_lo + 1).astype(np.int64)
    _WORK["table_counts"] += int(sizes.sum())
    seg = np.repeat(np.arange(sizes.size), sizes)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    a = t_lo[seg] + (np.arange(seg.size) - starts[seg])
    jj, tpp, tqq, rrr = j[seg], tp[seg], tq[seg], r[seg]
    # log B(a) along each column: Loader's form at the first count, then exact pmf ratios
    with np.errstate(divide="ignore"):
        step = np.log((jj - a + 1) * rrr) - np.log(a * (1 - rrr))  # log B(a)/B(a-1) for a > t_lo
    step[starts] = binom_logpmf(t_lo, j, r)
    lb = np.cumsum(step)
    if sizes.size > 1:
        lb = lb - np.repeat(np.concatenate([[0.0], lb[starts[1:] - 1]]), sizes)
    x = a * (1 - rrr) / ((jj - a + 1) * rrr)  # B(a-1)/B(a); 0 at a = 0
    with np.errstate(divide="ignore", invalid="ignore"):
        lq_rel = np.log(tqq * x + 1 - tqq)
        u = np.log(tpp * x + 1 - tpp) - lq_rel
    return lb + lq_rel, u, starts


#: work counters (read by the tests: work, not time): counts of the order-free window tables,
#: counts summed over all (order, column) windows, orders computed by :func:`_renyi_curve_direct`
_WORK = {"table_counts": 0, "window_counts": 0, "direct_orders": 0}


def _log_renyi_conditionals(tps, tqs, js, rho, order, rtol):
    """:func:`_log_renyi_conditional` for many buckets at once.

    Every window (centred on the tilted mode, 12 standard deviations wide) is evaluated in one
    flat numpy pass with segment reductions; a window whose omitted part is not provably
    negligible is redone by the scalar routine, which grows it.
    """
    tps = np.asarray(tps, dtype=float)
    tqs = np.asarray(tqs, dtype=float)
    js = np.asarray(js, dtype=float)
    lams = np.broadcast_to(np.asarray(order, dtype=float), tps.shape)
    k = len(tps)
    out = np.full(k, -np.inf)
    err = np.full(k, -np.inf)
    flip = tps < tqs
    tp = np.where(flip, 1 - tps, tps)
    tq = np.where(flip, 1 - tqs, tqs)
    rr = np.where(flip, 1 - rho, rho)
    live = (tp != tq) & (js >= 1) & (tq > 0) & (tq < 1) & (tp > 0) & (tp < 1)
    # the scalar routine handles degenerate cases and any window that turns out too small
    redo = (~live) & (tp != tq)
    idx_all = np.nonzero(live)[0]
    centre_all = js * rr
    sd_all = np.sqrt(js * rr * (1 - rr)) + 1.0
    width_all = np.full(k, 8.0) * sd_all
    with np.errstate(divide="ignore", invalid="ignore"):
        x_c_lo = np.clip(centre_all - sd_all, 1.0, js) * (1 - rr) / np.maximum(js - np.clip(centre_all - sd_all, 1.0, js) + 1, 1.0) / rr
        x_c_hi = np.clip(centre_all + sd_all, 1.0, js) * (1 - rr) / np.maximum(js - np.clip(centre_all + sd_all, 1.0, js) + 1, 1.0) / rr
        slope = ((np.log(tp * x_c_hi + 1 - tp) - np.log(tq * x_c_hi + 1 - tq))
                 - (np.log(tp * x_c_lo + 1 - tp) - np.log(tq * x_c_lo + 1 - tq))) / np.maximum(2 * sd_all, 1.0)
    # first window: centred where the tilt e^{lam u(a)} moves the mass (first-order estimate)
    mid_all = np.clip(centre_all + np.minimum(lams * np.nan_to_num(slope) * sd_all * sd_all, js), 0, js)
    target = math.log(max(rtol, 1e-16)) - 5.0
    # problems of one column (the same tp, tq, j, rho at several orders) share their window tables
    _, column_all = np.unique(np.stack([js, tp, tq, rr]), axis=1, return_inverse=True)
    column_all = column_all.reshape(-1)

    def _window_pass(idx):
        """One pass of the windows of the problems ``idx``: stores the accepted sums, recentres and
        widens the others, and returns their indices."""
        j, a_tp, a_tq, a_r, lam = js[idx], tp[idx], tq[idx], rr[idx], lams[idx]
        lo = np.clip(np.floor(mid_all[idx] - width_all[idx]), 0, j)
        hi = np.clip(np.ceil(mid_all[idx] + width_all[idx]), 0, j)
        sizes = (hi - lo + 1).astype(np.int64)
        _WORK["window_counts"] += int(sizes.sum())
        seg = np.repeat(np.arange(idx.size), sizes)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        offset = np.arange(seg.size) - starts[seg]
        a = lo[seg] + offset
        # what does not depend on the order (log B(a) + log q(a), u(a)) once per column over the
        # union of its windows in this pass, then gathered for every (order, column) window
        key = column_all[idx]
        cols, inv = np.unique(key, return_inverse=True)
        t_lo = np.full(cols.size, np.inf)
        t_hi = np.full(cols.size, -np.inf)
        np.minimum.at(t_lo, inv, lo)
        np.maximum.at(t_hi, inv, hi)
        first = np.zeros(cols.size, dtype=np.int64)
        first[inv[::-1]] = np.arange(idx.size)[::-1]  # a problem of each column
        c_part, u_part, t_start = _window_tables(t_lo, t_hi, j[first], a_tp[first], a_tq[first], a_r[first])
        at = t_start[inv][seg] + (a - t_lo[inv][seg]).astype(np.int64)
        u = u_part[at]
        with np.errstate(invalid="ignore"):
            terms = c_part[at] + _log_phi(u, lam[seg])
        # the running sums of log B(a) start at the column's first count: its length bounds the rounding
        run_len = hi - t_lo[inv] + 1
        top = np.maximum.reduceat(terms, starts)
        # the first largest term of each window (its start where none compares equal, e.g. NaN)
        arg = np.minimum.reduceat(np.where(terms == top[seg], np.arange(seg.size), seg.size), starts)
        arg = np.where(arg < starts + sizes, arg, starts)
        safe_top = np.where(np.isfinite(top), top, 0.0)
        with np.errstate(divide="ignore"):
            total = safe_top + np.log(np.add.reduceat(np.exp(terms - safe_top[seg]), starts))
        total = np.where(np.isfinite(top), total, -np.inf)
        # the count j + 1 (B(j+1) = 0): P = thp B(j), Q = thq B(j)
        at_top = hi >= j
        if np.any(at_top):
            extra = np.log(a_tq) + binom_logpmf(j, j, a_r) + _log_phi(np.log(a_tp) - np.log(a_tq), lam)
            total = np.where(at_top, np.logaddexp(total, extra), total)
        # omitted counts: Q phi(u) <= P (P/Q)^(lam-1) + lam Q; the ratio increases with a, so below
        # the window it is at most its value at lo, above it at most max P/Q
        u_lo = u[starts]
        below = binom_logsf(j - lo + 1.0, j, 1 - a_r)   # P[B <= lo - 1] bounds both masses
        below = np.where(lo > 0, below, -np.inf)
        pen_below = np.logaddexp(np.maximum(0.0, (lam - 1) * u_lo), np.log(lam))
        omit = np.logaddexp(below + pen_below, _log_upper_tail_bound(hi, j, a_tp, a_tq, a_r, lam, sd_all[idx]))
        # rounding: the pmf ratios accumulate about sqrt(window) ulps of relative error
        total_err = total + np.log(1e-15 * (4 + np.sqrt(run_len)))
        good = (omit - total <= target) | ((lo == 0) & (hi >= j))
        out[idx[good]] = total[good]
        err[idx[good]] = np.logaddexp(omit, total_err)[good]
        # recentre the others on their largest term and widen
        bad = ~good
        mid_all[idx[bad]] = a[arg[bad]]
        width_all[idx[bad]] *= 2.0
        return idx[bad]

    idx = idx_all
    for _pass in range(8):
        if not idx.size:
            break
        # in chunks of at most _WINDOW_CHUNK counts (one window alone if it is wider)
        widths = (np.clip(np.ceil(mid_all[idx] + width_all[idx]), 0, js[idx])
                  - np.clip(np.floor(mid_all[idx] - width_all[idx]), 0, js[idx]) + 1)
        chunk_of = np.floor_divide(np.cumsum(widths) - widths, _WINDOW_CHUNK)
        remaining = []
        for chunk_id in np.unique(chunk_of):
            idx_chunk = idx[chunk_of == chunk_id]
            remaining.append(_window_pass(idx_chunk))
        idx = np.concatenate(remaining)
    redo[idx] = True
    for i in np.nonzero(redo)[0]:
        out[i], err[i] = _log_renyi_conditional(float(tps[i]), float(tqs[i]), int(js[i]), rho, float(lams[i]), rtol)
    return out, err


#: the largest number of other users N of a count pair whose Renyi divergence is summed here:
#: where the bucketed conditional sums cannot certify the B-mean of x_a (its error grows like
#: 4e-14 j relative, from the binomial tails' error bound), windows of O(sqrt(j)) counts are summed,
#: whose memory and time grow with sqrt(N) (at N = 1e13 a curve needed 2.7 GB). Beyond it the
#: Renyi sums refuse (DomainError naming the range) and the methods built on them are not applicable.
RENYI_N_MAX = 10**12

#: the largest number of counts summed in one numpy pass of the windows (memory: a few arrays of
#: this many float64, about 200 MB in all)
_WINDOW_CHUNK = 2**22


def _check_renyi_range(pair) -> None:
    if pair.others > RENYI_N_MAX:
        raise validate.DomainError(
            f"others = {float(pair.others):.6g} is above the supported range of the certified Renyi sums of "
            f"count pairs (others <= {RENYI_N_MAX:.0e}: beyond it their windows of counts grow like sqrt(others))")


#: bucketed conditional sums: buckets of ``step`` standard deviations of B at the point where
#: x_a = 1, widening away from it (:func:`_grid_offsets`). The chord and Jensen bounds are exact
#: to second order in the width: the relative width of the sum is about step^2 / 2, so the step
#: is 0.6 sqrt(rtol) up to ``_STEP`` (down to ``_MIN_STEP``; a finer rtol is met by windows of
#: counts; :func:`_bucket_step`)
_STEP, _MIN_STEP, _TAIL_RATIO = 0.025, 0.003, 1.5
#: the bucketed sum is used where B has at least this standard deviation (a window of counts is
#: cheaper below) and the tilt e^{(lam-1) u} moves the mass by at most ``_MAX_TILT`` of them
_MIN_SD, _MAX_TILT = 100.0, 0.5
#: relative error allowed for evaluating H and the chord's convex combination in float64
#: (a few dozen ulps; the weights' and pmfs' own errors are counted separately)
_H_RTOL = 1e-9


def _h_parts(xm1, tp, tq):
    """log q and u = log p/q, p = 1 + tp (x - 1), q = 1 + tq (x - 1), from x - 1 (vectorised): the
    conditional term per unit of B(a) at x = x_a is H(x) = q phi(u) (zero at x = 1, convex in x),
    and neither part depends on the order."""
    q = 1.0 + tq * xm1
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(q), np.log1p((tp - tq) * xm1 / q)


def _log_sum_segments(values, starts):
    """log of the sums of exp(values) over the segments of the last axis beginning at ``starts``."""
    top = np.maximum.reduceat(values, starts, axis=-1)
    safe = np.where(np.isfinite(top), top, 0.0)
    sizes = np.diff(np.append(starts, values.shape[-1]))
    with np.errstate(divide="ignore"):
        total = safe + np.log(np.add.reduceat(np.exp(values - np.repeat(safe, sizes, axis=-1)), starts, axis=-1))
    return np.where(np.isfinite(top), total, -np.inf)


def _grid_offsets(far: float, step: float) -> np.ndarray:
    """Bucket edges in standard deviations from the centre, 0 .. beyond ``far``: steps of
    ``step`` e^{t^2/6} (the chord error of a bucket is its mass times its width squared, and the
    mass falls as e^{-t^2/2}), widening by at most ``_TAIL_RATIO`` per bucket."""
    out = [0.0]
    t = 0.0
    while t < far:
        t = min(t + step * math.exp(min(t * t / 6, 50.0)), max(t * _TAIL_RATIO, t + step))
        out.append(t)
    return np.array(out)


def _log_edge_weights(edges, j: int, rho: float):
    """log P[e_k <= Bin(j, rho) < e_(k+1)] for consecutive integer edges (0 first, j + 1 last), and
    the log of an absolute error bound: one tail per edge (the upper tail above the median, the
    lower one below), the same tails and error bounds as :func:`dptheory.shuffle.binomial_sums.log_binom_range`."""
    median = j * rho
    tau = float(binom_tail_rtol(j))
    above = edges > median
    log_sf = np.full(edges.shape, -np.inf)   # log P[B >= e], edges above the median
    log_cdf = np.full(edges.shape, -np.inf)  # log P[B <= e - 1], edges at or below it
    inner = above & (edges <= j)
    if np.any(inner):
        log_sf[inner] = binom_logsf(edges[inner], j, rho)
    low = ~above & (edges >= 1)
    if np.any(low):
        log_cdf[low] = binom_logcdf(edges[low] - 1, j, rho)
    a_sf, b_sf = log_sf[:-1], log_sf[1:]
    a_cdf, b_cdf = log_cdf[1:], log_cdf[:-1]
    out = np.full(edges.size - 1, -np.inf)
    err = np.full(edges.size - 1, -np.inf)
    up = above[:-1]
    down = ~above[1:]
    mid = ~up & ~down
    with np.errstate(invalid="ignore", divide="ignore"):
        out[up] = np.where(b_sf[up] < a_sf[up], a_sf[up] + log1mexp(np.minimum(b_sf[up] - a_sf[up], 0.0)), -np.inf)
        err[up] = a_sf[up] + math.log(2 * tau)
        out[down] = np.where(b_cdf[down] < a_cdf[down],
                             a_cdf[down] + log1mexp(np.minimum(b_cdf[down] - a_cdf[down], 0.0)), -np.inf)
        err[down] = a_cdf[down] + math.log(2 * tau)
        out[mid] = np.log1p(-(np.exp(b_cdf[mid]) + np.exp(b_sf[mid])))
    err[mid] = math.log(2 * tau + 1e-16)
    return out, err


@functools.lru_cache(maxsize=512)
def _count_buckets(j: int, rho: float, step: float):
    """Buckets [a1, a2] covering 0..j for B ~ Bin(j, rho), with what the bucketed conditional sum
    needs of them, every quantity enclosed: log W (the mass, lower and upper), x_a - 1 at the
    edges a1 (outwards: the chord of bucket [a1, a2] is taken over [x_a1, x_(a2+1)], which
    contains [x_a1, x_a2]; its last edge is x_j), and the B-mean of x_a - 1 over the bucket,
    (B(a1-1) - B(a2)) / W (telescoping)."""
    mu = (j + 1) * rho  # x_a = 1 here
    sd = math.sqrt(j * rho * (1 - rho))
    offsets = _grid_offsets(max(mu, j + 1 - mu) / sd, step) * sd
    edges = np.unique(np.clip(np.round(np.concatenate([mu - offsets, mu + offsets, [0.0, j + 1.0]])), 0, j + 1))
    a1, a2 = edges[:-1], edges[1:] - 1.0
    lw, lw_err = _log_edge_weights(edges, j, rho)
    tau = 4.0 * float(binom_tail_rtol(j))
    with np.errstate(divide="ignore", invalid="ignore"):
        w_rel = np.exp(lw_err - lw)
        log_w_hi = lw + np.log1p(w_rel)
        log_w_lo = np.where(w_rel < 1, lw + np.log1p(-np.minimum(w_rel, 1.0)), -np.inf)
        r1 = np.exp(binom_logpmf(a1 - 1, j, rho) - lw)  # B(a1 - 1) / W
        r2 = np.exp(binom_logpmf(a2, j, rho) - lw)      # B(a2) / W
    d = r1 - r2
    d_err = (tau + 4 * rounding.EPS) * (r1 + r2) * (1 + w_rel) + np.abs(d) * w_rel
    # x_a - 1 = (a - (j + 1) rho) / ((j - a + 1) rho) at a1 (rounded down) and at j (rounded up)
    den = (j - a1 + 1.0) * rho
    v1 = (a1 - mu) / den
    e1 = 8 * rounding.EPS * ((np.abs(a1) + mu) / den + np.abs(v1))
    v_top = (j - mu) / rho
    x_edges = np.append(np.maximum(v1 - e1, -1.0), v_top + 8 * rounding.EPS * ((j + mu) / rho + abs(v_top)))
    x1, x2 = x_edges[:-1], x_edges[1:]
    xbar_lo = np.clip(d - d_err, x1, x2)
    xbar_hi = np.clip(d + d_err, x1, x2)
    with np.errstate(divide="ignore"):
        log_dx = np.log(x2 - x1)
    log_bj = float(binom_logpmf(j, j, rho))
    return log_w_lo, log_w_hi, x_edges, xbar_lo, xbar_hi, log_dx, log_bj, tau


def _bucket_step(rtol: float) -> float | None:
    """The bucket step (in standard deviations) for a sum of relative width rtol / 4:
    0.6 sqrt(rtol), at most ``_STEP``. The width is about 0.42 step^2, at most 0.56 step^2
    (measured over the clone, stronger-clone and randomized-response pairs, eps0 0.1 to 4, n 1e6
    to 1e12, orders 2 to 64: 0.2 rtol), and a sum found wider than rtol / 4 is redone by windows
    of counts; None where the step would be below ``_MIN_STEP``."""
    step = min(_STEP, 0.6 * math.sqrt(rtol))
    return step if step >= _MIN_STEP else None


def _log_renyi_conditionals_bucketed(tp, tq, js, rho: float, lams, step: float = _STEP):
    """Certified (log lower, log upper) of the conditional Renyi excess of X + B vs Y + B,
    X ~ Bern(tp), Y ~ Bern(tq), B ~ Bin(j, rho), for arrays tp, tq, j (the problems: columns) and
    every order of ``lams`` (rows): arrays of shape (orders, problems); 0 < tp, tq < 1.

    The excess is sum_{a=0}^{j} B(a) H(x_a) + B(j) tq phi(log tp/tq) (the count j + 1), with
    x_a = B(a-1)/B(a) increasing and H convex, zero at x = 1 (see the module docstring). On a
    bucket of mass W and B-mean xbar of x_a: W H(xbar) <= sum <= W times the chord of H at xbar.
    All problems are evaluated in one flat pass (segments of buckets, one per problem); what does
    not depend on the order (the buckets, log q and u at their edges) once for every order.
    """
    tp, tq, js = (np.atleast_1d(np.asarray(v, dtype=float)) for v in (tp, tq, js))
    lam = np.atleast_1d(np.asarray(lams, dtype=float))[:, None]
    grids = [_count_buckets(int(j), float(rho), float(step)) for j in js]
    sizes = np.array([g[0].size for g in grids])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    log_w_lo, log_w_hi, xbar_lo, xbar_hi, log_dx = (np.concatenate([g[k] for g in grids]) for k in (0, 1, 3, 4, 5))
    x_edges = np.concatenate([g[2] for g in grids])
    edge_seg = np.repeat(np.arange(js.size), sizes + 1)
    lq_e, u_e = _h_parts(x_edges, tp[edge_seg], tq[edge_seg])
    h_edges = lq_e + _log_phi(u_e, lam)
    # bucket i of problem k has edges i and i + 1 of that problem's edge list
    idx1 = np.arange(sizes.sum()) + np.repeat(np.arange(js.size), sizes)
    h1, h2 = h_edges[:, idx1], h_edges[:, idx1 + 1]
    x1, x2 = x_edges[idx1], x_edges[idx1 + 1]
    seg = np.repeat(np.arange(js.size), sizes)
    xbar = np.where(h2 >= h1, xbar_hi, xbar_lo)
    with np.errstate(divide="ignore"):
        chord = np.logaddexp(h1 + np.log(x2 - xbar), h2 + np.log(xbar - x1)) - log_dx
    lq_j, u_j = _h_parts(np.clip(0.0, xbar_lo, xbar_hi), tp[seg], tq[seg])
    jensen = lq_j + _log_phi(u_j, lam)
    tau = np.array([g[7] for g in grids])
    last = (np.log1p(tau) + np.array([g[6] for g in grids]) + np.log(tq)
            + _log_phi(np.log(tp) - np.log(tq), lam))
    upper = np.logaddexp(_log_sum_segments(log_mul(log_w_hi, chord), starts), last)
    lower = np.logaddexp(_log_sum_segments(log_mul(log_w_lo, jensen), starts), last - 2 * np.log1p(tau))
    return lower - _H_RTOL, upper + _H_RTOL


def _snap(js, rtol: float, upward: bool):
    """j moved to a grid of relative spacing below rtol / 64 (a power of 2), down or up: the
    conditional excess does not increase with j (one more clone is a post-processing), so the
    excess at the snapped j bounds it from the side wanted, and nearby buckets share one grid."""
    k = math.ceil(math.log2(64.0 / rtol))
    q = np.exp2(np.maximum(np.floor(np.log2(np.maximum(js, 1.0))) - k, 0.0))
    return (np.ceil(js / q) if upward else np.floor(js / q)) * q


def _conditional_excess(tps, tqs, js, rho, lams, rtol, side: str, wanted):
    """(log lower, log upper, log of an error to add to the upper end) of the conditional Renyi
    excesses of the problems (tps, tqs, js: columns) at the orders ``lams`` (rows), where
    ``wanted`` (orders x problems) is True: bucketed where B is wide and the tilt small, else by
    windows of counts. ``side`` ("upper" or "lower") is the end the caller uses: the bucketed
    path moves j to a shared grid in the direction that keeps that end a bound."""
    tps, tqs, js = (np.asarray(v, dtype=float) for v in (tps, tqs, js))
    lams = np.asarray(lams, dtype=float)
    shape = (lams.size, tps.size)
    lower = np.full(shape, -np.inf)
    upper = np.full(shape, -np.inf)
    err = np.full(shape, -np.inf)
    sd = np.sqrt(js * rho * (1 - rho))
    with np.errstate(divide="ignore", invalid="ignore"):
        tilt = (lams[:, None] - 1) * (np.abs(tps - tqs) / sd)[None, :]
    step = _bucket_step(rtol)
    valid = ((step is not None) & (sd >= _MIN_SD) & (tps >= 0) & (tps <= 1) & (tqs > 0) & (tqs < 1) & (tps != tqs)
             & (0 < rho < 1))
    fast = wanted & valid[None, :] & (tilt <= _MAX_TILT)
    slow = wanted & ~fast
    cols = np.nonzero(fast.any(axis=0))[0]
    if cols.size:
        snapped = _snap(js[cols], rtol, upward=(side == "lower"))
        lo, hi = _log_renyi_conditionals_bucketed(tps[cols], tqs[cols], snapped, rho, lams, step)
        ok = -np.expm1(lo - hi) <= rtol / 4
        use = fast[:, cols] & ok
        lower[:, cols] = np.where(use, lo, lower[:, cols])
        upper[:, cols] = np.where(use, hi, upper[:, cols])
        slow[:, cols] |= fast[:, cols] & ~ok
    if np.any(slow):
        rows, columns = np.nonzero(slow)
        value, e = _log_renyi_conditionals(tps[columns], tqs[columns], js[columns], rho, lams[rows], rtol)
        lower[rows, columns], upper[rows, columns], err[rows, columns] = value, value, e
    return lower, upper, err


def _log_max_ratio(thp: float, thq: float) -> float:
    """log of a bound >= 1 on the likelihood ratio P(a)/Q(a) of every conditional pair of a count
    pair: P(a)/Q(a) is a mediant of tp/tq and (1 - tp)/(1 - tq), and tp/tq (tp = pi thp + (1 - pi)
    rho) a mediant of thp/thq and 1, so the ratio is at most max(thp/thq, (1 - thp)/(1 - thq), 1)."""
    def log_ratio(num: float, den: float) -> float:
        if num == 0:
            return 0.0
        if den == 0:
            return math.inf
        # a few ulps of each log, outwards (1 - thp is exact above 1/2 and within half an ulp below)
        return math.log(num) - math.log(den) + 1e-15 * (1.0 + abs(math.log(num)) + abs(math.log(den)))
    return max(0.0, log_ratio(thp, thq), log_ratio(1.0 - thp, 1.0 - thq) if thp != 1 or thq != 1 else 0.0)


def _moved(tp, tq, err_p, err_q, *, apart: bool):
    """tp and tq moved by their error bounds: apart (within [0, 1]), or together (meeting where
    the errors overlap: the pair then has no excess). Monotone by joint convexity: (Bern(t) + B,
    Bern(tq) + B) is a mixture of the pair at t' farther from tq and of a pair with no excess."""
    sign = np.sign(tp - tq)
    if apart:
        return np.clip(tp + sign * err_p, 0.0, 1.0), np.clip(tq - sign * err_q, 0.0, 1.0)
    tp2, tq2 = np.clip(tp - sign * err_p, 0.0, 1.0), np.clip(tq + sign * err_q, 0.0, 1.0)
    crossed = sign * (tp2 - tq2) <= 0
    return np.where(crossed, tq2, tp2), tq2


def _bucket_data(pair: CountPair, ma, mb):
    """Per bucket [ma, mb]: its log weight and error, and the conditional thetas at its ends moved
    by their error bounds (apart at mb for the upper end, together at ma for the lower end: the
    float thetas are within _theta_err of the pair's, which near 1/2 at huge N matters, as
    tp - tq ~ 1/N is far below the ulp of tp; the conditional excess grows as they move apart).

    None of it depends on the order: a curve refines the same buckets for every order, so the
    values are kept on the pair (keyed by bucket) and computed once."""
    cache = pair.__dict__.setdefault("_bucket_cache", {})
    keys = list(zip(ma.tolist(), mb.tolist()))
    missing = [i for i, key in enumerate(keys) if key not in cache]
    if missing:
        a, b = ma[missing], mb[missing]
        lw, lw_err = pair._log_weights(a, b)
        hi = _moved(*pair._theta_given(b), *pair._theta_err(b), apart=True)
        lo = _moved(*pair._theta_given(a), *pair._theta_err(a), apart=False)
        for j, i in enumerate(missing):
            cache[keys[i]] = (lw[j], lw_err[j], hi[0][j], hi[1][j], lo[0][j], lo[1][j])
    return tuple(np.array(column, dtype=float) for column in zip(*(cache[key] for key in keys)))


def _excess_bounds(pair: CountPair, ma, mb, lams, rtol):
    """(log hi, log lo, log err) of each (order, bucket): arrays of shape (orders, buckets)."""
    lams = np.atleast_1d(np.asarray(lams, dtype=float))
    lw, lw_err, tp_hi, tq_hi, tp_lo, tq_lo = _bucket_data(pair, ma, mb)
    # buckets too light to matter get the trivial bound 0 <= excess <= R^lam (R the largest
    # likelihood ratio) instead of a windowed sum; they are refined like any other if they matter
    (thp,), (thq,) = _moved(np.array([pair.theta_p]), np.array([pair.theta_q]),
                            *(np.array([pair.theta_rtol * t]) for t in (pair.theta_p, pair.theta_q)), apart=True)
    log_r = _log_max_ratio(float(thp), float(thq))
    trivial = (lams * log_r if math.isfinite(log_r) else np.full(lams.shape, np.inf))[:, None]
    with np.errstate(invalid="ignore"):
        light = np.isneginf(lw)[None, :] | (lw[None, :] + trivial < float(np.max(lw)) + math.log(rtol) - 40.0)
    heavy = ~light
    l_hi = np.where(light, trivial, 0.0)
    e_hi = np.full(light.shape, -np.inf)
    l_lo = np.full(light.shape, -np.inf)
    if np.any(heavy):
        _, hi, e = _conditional_excess(tp_hi, tq_hi, ma - 1.0, pair.clone_bias, lams, rtol, "upper", heavy)
        lo, _, _ = _conditional_excess(tp_lo, tq_lo, mb - 1.0, pair.clone_bias, lams, rtol, "lower", heavy)
        l_hi, e_hi, l_lo = np.where(heavy, hi, l_hi), np.where(heavy, e, e_hi), np.where(heavy, lo, l_lo)
    # rounding of the sums (a few ulps per term), weight errors and omitted tails: upper side
    w, w_err = lw[None, :], lw_err[None, :]
    err = np.logaddexp(np.logaddexp(log_mul(w_err, l_hi), log_mul(w, l_hi + math.log(1e-13))), log_mul(w, e_hi))
    return log_mul(w, l_hi), log_mul(w, l_lo), err


def _refine_excess(pair: CountPair, lam: float, rtol: float, ma, mb, done=None):
    """Adaptive bucket refinement for one order; returns (Enclosure, ma, mb)."""
    return refine_buckets(lambda a, b: tuple(v[0] for v in _excess_bounds(pair, a, b, [lam], rtol)), ma, mb, rtol,
                          done=done)


def _initial_buckets(pair: CountPair):
    edges = pair._initial_edges(central=8)
    return edges[:-1].astype(float), (edges[1:] - 1).astype(float)


def renyi_log_excess(pair: CountPair, order, *, rtol: float = 1e-6) -> Enclosure:
    """Certified enclosure of log(sum P^lam Q^(1-lam) - 1), the log Renyi excess of a count pair
    (float64, any n); ``rtol`` is the relative width of the excess (hence, to first order, of
    the divergence)."""
    lam = validate.real("order", order, low=1.0, low_open=True)
    rtol = validate.real("rtol", rtol, low=0.0, low_open=True, high=1.0)
    _check_renyi_range(pair)
    enc, _, _ = _refine_excess(pair, lam, rtol, *_initial_buckets(pair))
    return enc


def excess_to_renyi(log_excess: float, lam: float) -> float:
    """log(1 + excess) / (lam - 1) from log excess, without overflow (to a few ulps: callers
    round outward with :func:`_renyi_ends`)."""
    if log_excess == -math.inf:
        return 0.0
    if log_excess < 700:
        return math.log1p(math.exp(log_excess)) / (lam - 1)
    return (log_excess + math.log1p(math.exp(-log_excess))) / (lam - 1)


def _renyi_ends(enc: Enclosure, lam: float) -> tuple[float, float]:
    """(lower, upper) of the divergence from an enclosure of the log excess, rounded outwards
    (exp, log1p and the division: 4 ulps)."""
    return (rounding.down_nonneg(excess_to_renyi(enc.log_lower, lam), rel_err=4 * rounding.EPS),
            rounding.up_nonneg(excess_to_renyi(enc.log_upper, lam), rel_err=4 * rounding.EPS))


def renyi(pair: CountPair, order, *, rtol: float = 1e-6) -> tuple[float, float]:
    """Certified (lower, upper) of D_lam(P||Q) = log(1 + excess) / (lam - 1) of a count pair
    (float64, any n), of relative width about ``rtol`` (at most, unless float64 rounding is the
    limit)."""
    lam = validate.real("order", order, low=1.0, low_open=True)
    rtol = validate.real("rtol", rtol, low=0.0, low_open=True, high=1.0)
    _check_renyi_range(pair)
    enc, _, _ = _refine_excess(pair, lam, rtol, *_initial_buckets(pair), done=renyi_width_rule(lam, rtol))
    return _renyi_ends(enc, lam)


#: a curve of more orders than this is computed at anchor orders and enclosed in between by
#: convexity (:func:`renyi_curve`); fewer are all computed directly
_DIRECT_ORDERS = 64
#: anchors are ``_ANCHOR_SPACING`` sqrt(rtol) apart relative to the order and computed at
#: ``_ANCHOR_RTOL`` rtol: the chord of the convex (lam - 1) D_lam between anchors is off by about
#: (spacing)^2 / 4 relative where D_lam grows like lam (0.6 and 0.4 measured on the clone and stronger-clone
#: pairs, eps0 = 1, n = 1e6, orders 2..1024 at rtol 1e-3: no order wider than rtol)
_ANCHOR_SPACING, _ANCHOR_RTOL = 0.6, 0.4


def renyi_curve(pair: CountPair, orders, *, rtol: float = 1e-4) -> tuple[np.ndarray, np.ndarray]:
    """Certified (lower, upper) arrays of D_lam(P||Q) of a count pair at many orders, each of
    relative width about ``rtol``.

    Up to ``_DIRECT_ORDERS`` orders are each computed (:func:`_renyi_curve_direct`). Of more, the
    anchors (orders 0.6 sqrt(rtol) apart relative to the order, every order where they are
    denser; at 0.4 rtol next to an order to enclose, else at rtol) are computed and every other order enclosed by convexity
    (:func:`_interpolated_orders`); an order whose enclosure is wider than ``rtol`` is computed
    directly. The work grows with the number of anchors, about log(max order / min order) /
    sqrt(rtol), not with the number of orders.
    """
    o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
    rtol = validate.real("rtol", rtol, low=0.0, low_open=True, high=1.0)
    _check_renyi_range(pair)
    grid = np.unique(o)
    if grid.size <= _DIRECT_ORDERS:
        return _renyi_curve_direct(pair, o, rtol)
    anchor = _anchor_mask(grid, 1.0 + _ANCHOR_SPACING * math.sqrt(rtol))
    lower, upper = np.empty(grid.shape), np.empty(grid.shape)
    # anchors next to an order to enclose are computed finer; where every order is an anchor, at rtol
    gap = np.zeros(grid.shape, dtype=bool)
    gap[:-1] |= ~anchor[1:]
    gap[1:] |= ~anchor[:-1]
    for fine, tol in ((anchor & gap, _ANCHOR_RTOL * rtol), (anchor & ~gap, rtol)):
        if np.any(fine):
            lower[fine], upper[fine] = _renyi_curve_direct(pair, grid[fine], tol)
    inner = ~anchor
    lower[inner], upper[inner] = _interpolated_orders(grid[anchor], lower[anchor], upper[anchor], grid[inner])
    wide = inner & ~((upper == 0) | (lower >= (1.0 - rtol) * upper))
    if np.any(wide):
        lower[wide], upper[wide] = _renyi_curve_direct(pair, grid[wide], rtol)
    at = np.searchsorted(grid, o)
    return lower[at], upper[at]


def _anchor_mask(grid, ratio: float):
    """The anchors among the sorted orders ``grid``: the first and the last, and from each anchor
    the largest order at most ``ratio`` times it (the next order where there is none)."""
    mask = np.zeros(grid.shape, dtype=bool)
    k = 0
    mask[0] = mask[-1] = True
    while k < grid.size - 1:
        nxt = int(np.searchsorted(grid, grid[k] * ratio, side="right")) - 1
        k = max(nxt, k + 1)
        mask[k] = True
    return mask


def _interpolated_orders(anchors, a_lo, a_hi, orders):
    """Certified (lower, upper) of D_lam at ``orders`` strictly between the sorted ``anchors``
    from the enclosures [a_lo, a_hi] of D at the anchors: K(lam) = (lam - 1) D_lam = log sum
    P^lam Q^(1-lam) is convex in lam (Girgis et al. 2021, Remark 2; van Erven and Harremoes 2014,
    Corollary 2) and D_lam is non-decreasing in lam (van Erven and Harremoes 2014, Theorem 3).
    Between anchors l1 < l2: K <= the chord of the upper ends; K >= (lam - 1) D_l1 and the
    extensions of the secants of the neighbouring anchors (l0, l1) and (l2, l3), whose slopes
    bound K' at l1 from below and at l2 from above. Every float step is rounded outwards."""
    eps = rounding.EPS
    k_lo = rounding.down((anchors - 1.0) * a_lo, rel_err=eps)
    k_hi = rounding.up((anchors - 1.0) * a_hi, rel_err=eps)
    i2 = np.searchsorted(anchors, orders)  # anchors[i2 - 1] < lam < anchors[i2]
    if np.any((i2 < 1) | (i2 >= anchors.size)):
        raise validate.DomainError("orders to interpolate must lie strictly between the first and the last anchor")
    i1 = i2 - 1
    l1, l2 = anchors[i1], anchors[i2]
    lam1 = orders - 1.0
    w = (l2 - orders) / (l2 - l1)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        up = w * k_hi[i1] + (1.0 - w) * k_hi[i2]
        # the weights carry a few ulps each: an absolute error of the size of the two ends
        upper = rounding.up_nonneg(np.nan_to_num(up / lam1, nan=np.inf),
                                   abs_err=8 * eps * (k_hi[i1] + k_hi[i2]) / lam1, rel_err=4 * eps)
        candidates = [a_lo[i1]]  # monotone: D_lam >= D_l1 >= its lower end
        i0, i3 = np.maximum(i1 - 1, 0), np.minimum(i2 + 1, anchors.size - 1)
        for has, base, r, far_hi, near_lo in (
                (i1 >= 1, k_lo[i1], (orders - l1) / (l1 - anchors[i0]), k_hi[i0], k_lo[i1]),
                (i2 + 1 < anchors.size, k_lo[i2], (l2 - orders) / (anchors[i3] - l2), k_hi[i3], k_lo[i2])):
            # base + r (near_lo - far_hi) (left: the secant slope from below; right: -(l2 - lam)
            # times the secant slope from above); its rounding: a few ulps of each magnitude
            value = base + r * (near_lo - far_hi)
            bound = 8 * eps * (np.abs(base) + r * (np.abs(near_lo) + np.abs(far_hi)))
            value = np.where(has & np.isfinite(value) & np.isfinite(bound), value, -np.inf)
            bound = np.where(np.isfinite(bound), bound, 0.0)
            candidates.append(rounding.down_nonneg(value / lam1, abs_err=bound / lam1, rel_err=4 * eps))
    return np.maximum.reduce(candidates), upper


def _renyi_curve_direct(pair: CountPair, orders, rtol: float) -> tuple[np.ndarray, np.ndarray]:
    """Certified (lower, upper) arrays of D_lam(P||Q) of a count pair at every one of ``orders``,
    each of relative width about ``rtol``.

    The orders are taken in increasing order, in batches bounded in one vectorised pass on the
    current buckets (the divergence of a count pair lives within a few standard deviations of
    the mean: the initial buckets usually suffice for every order). The first batch is the
    lowest order alone; the batch grows twofold after a pass that needed no refinement. The
    first order of a batch whose enclosure is too wide is refined as by :func:`renyi`, the next
    orders start from the buckets it needed, in a batch of the size that passed before."""
    o = np.atleast_1d(np.asarray(orders, dtype=float))
    _WORK["direct_orders"] += o.size
    ma, mb = _initial_buckets(pair)
    lower, upper = np.empty(o.shape), np.empty(o.shape)
    pending = list(np.argsort(o))
    size = 1
    while pending:
        batch = pending[:size]
        rows = _excess_bounds(pair, ma, mb, o[batch], rtol)  # (orders of the batch, buckets) each
        accepted = 0
        for i, k in enumerate(batch):
            lam = float(o[k])
            done = renyi_width_rule(lam, rtol)
            row = tuple(v[i] for v in rows)
            # the enclosure on these buckets (no refinement round), accepted as refine_buckets would
            enc, _, _ = refine_buckets(lambda a, b, row=row: row, ma, mb, rtol, max_rounds=0)
            refined = not (enc.log_upper == -math.inf or (enc.log_lower > -math.inf
                                                          and done(enc.log_lower, enc.log_upper)))
            if refined:
                enc, ma, mb = _refine_excess(pair, lam, rtol, ma, mb, done=done)
            lower[k], upper[k] = _renyi_ends(enc, lam)
            accepted += 1
            if refined:
                break
        pending = pending[accepted:]
        size = 2 * size if not refined else max(1, accepted - 1)
    return lower, upper


def mp_renyi_moment(pair: CountPair, order, digits: int = 50):
    """sum P^lam Q^(1-lam) of the pair with mpmath: every atom, for small N (an oracle)."""
    digits = validate.digits(digits)
    n = pair.others
    if n > 3000:
        raise validate.DomainError(f"others = {n} is too large for the mpmath atom sum (at most 3000)")
    with mpmath.workdps(digits + 20):
        lam = mpmath.mpf(order)
        S, V, R = mpmath.mpf(pair.clone_prob), mpmath.mpf(pair.victim_prob), mpmath.mpf(pair.clone_bias)
        TP, TQ = mpmath.mpf(pair.theta_p), mpmath.mpf(pair.theta_q)
        total = mpmath.mpf(0)
        for m in range(0, n + 2):
            wp = V * mp_binom_pmf(m - 1, n, S) if m >= 1 else mpmath.mpf(0)
            wa = (1 - V) * mp_binom_pmf(m, n, S) if m <= n else mpmath.mpf(0)
            w = wp + wa
            if w == 0:
                continue
            if m == 0:
                total += w
                continue
            pi = wp / w
            tp, tq = pi * TP + (1 - pi) * R, pi * TQ + (1 - pi) * R
            j = m - 1
            inner = mpmath.mpf(0)
            for a in range(0, j + 2):
                b0 = mp_binom_pmf(a, j, R)
                b1 = mp_binom_pmf(a - 1, j, R)
                pa = tp * b1 + (1 - tp) * b0
                qa = tq * b1 + (1 - tq) * b0
                if pa > 0:
                    inner += pa**lam * qa ** (1 - lam)
            total += w * inner
    with mpmath.workdps(digits):
        return +total
