"""Certified sums over binomial counts, in log space: the building blocks of every count-pair
divergence of shuffling (:mod:`dptheory.shuffle.pairs`, :mod:`dptheory.shuffle.pair_renyi`,
:mod:`dptheory.shuffle.rounds`, :mod:`dptheory.shuffle.fdp`, :mod:`dptheory.shuffle.rdp.girgis`).

* :func:`log_hockey_stick_binary_count`: log H_gamma(X + B || Y + B) of a binary message X / Y plus an
  independent binomial count B (the conditional pair "given the total count" of every reduction;
  a difference of two binomial tails, O(1) per point), with an absolute error bound;
* :func:`log_binom_range`: log P[lo <= Bin(n, s) <= hi], the weight of a bucket of counts, with an
  absolute error bound;
* :func:`log_mul`: log(a b) of two non-negative numbers given in logs, with 0 times anything = 0;
* :func:`refine_buckets`: the certified enclosure of a sum over integer buckets whose terms are
  monotone within each bucket, refined where the gap is (:func:`bucket_edges` gives the first
  buckets of a binomial count, :func:`log_monotone_binomial_sum` the whole sum for a monotone
  summand).

All are derived here (the monotonicity arguments are in :mod:`dptheory.shuffle.pairs`): every
rounding error of the tails (:func:`dptheory.precision.binom_tail_rtol`) and of the float
arithmetic is carried in the error bound, so the enclosures contain the exact sums.
"""

from __future__ import annotations

import math

import numpy as np

from ..precision import (binom_cdf, binom_log_mills, binom_logcdf, binom_logpmf, binom_logsf, binom_sf,
                         binom_tail_rtol, log1mexp, logsumexp)
from .. import validate
from ..results import Enclosure
from ..rounding import EPS

_NEG_INF = -np.inf

#: the largest number of trials of the binomial counts these sums run over (the other users N of
#: a count pair): the float64 binomial tails and pmfs have an error bound
#: (:func:`dptheory.precision.binom_tail_rtol`) validated against mpmath up to 1e15 trials, and
#: float64 holds every count up to 2^53 = 9.0e15 exactly. Beyond it the sums refuse
#: (:class:`dptheory.validate.DomainError` naming this range); the methods built on them are then
#: not applicable and say so.
N_MAX = 10**15


def supported_others(name: str, others) -> str | None:
    """Why ``others`` (a number of trials) is outside the range of the certified binomial sums
    (None inside it: ``others`` <= :data:`N_MAX`)."""
    if others > N_MAX:
        return (f"{name} = {float(others):.6g} is above the supported range of the certified binomial sums "
                f"({name} <= {N_MAX:.0e}: float64 binomial tails are validated up to {N_MAX:.0e} trials)")
    return None


def _check_trials(name: str, n) -> None:
    reason = supported_others(name, n)
    if reason:
        raise validate.DomainError(reason)
#: relative error allowed for the elementary float operations around a tail (A1, A0, gamma, ...)
_ARITH_RTOL = 1e-14


def log_hockey_stick_binary_count(thp, thq, j, rho, log_gamma, err_p=0.0, err_q=0.0, rho_rtol=0.0):
    """log H_gamma(X + B || Y + B) with X ~ Bern(thp), Y ~ Bern(thq), B ~ Bin(j, rho) (vectorised).

    Returns (log value, log of an absolute error bound). The likelihood ratio of the count a is
    monotone in a, so the divergence is the largest of the threshold sums
    ``L_k = A1 B(k-1) + (1 - gamma) S(k)`` over k, with A1 = thp - gamma thq, B the pmf and S the
    tail of B: the sum over a >= k of ``A1 B(a-1) + ((1-thp) - gamma (1-thq)) B(a)``. The threshold
    is located in closed form (the best of k-1, k, k+1 is kept, so rounding in its location cannot
    lose mass). Written ``B(k) [A1 x_k - (gamma - 1) R(k)]`` with x_k = B(k-1)/B(k) and R the
    binomial Mills ratio S(k)/B(k), the error of the tail is multiplied by (gamma - 1), not by the
    tail itself.

    **Condition.** ``err_p`` and ``err_q`` bound the absolute errors of thp and thq (against the pair they
    stand for: rounding of e^eps0 and of the pmfs), ``rho_rtol`` the relative error of rho and
    1 - rho. Only A1 depends on the thetas (A1 + A0 = 1 - gamma), and a maximum of functions that
    are linear in A1 with coefficients B(k-1) moves by at most |dA1| max B(k-1) over the
    thresholds the perturbed A1 can select. Near the largest likelihood ratio (epsilon just below
    eps0) A1 is a difference of nearly equal numbers; this term is then what sets the error. A
    relative error u of rho multiplies every atom of B by a factor within (1 +- u)^j and moves A1
    by about 2u A1, which the bound includes too.

    **Relabelling.** Where thp < thq the two message types are exchanged (a bijection of the
    outcomes): the thetas become 1 - theta (an absolute error of half an ulp, counted in dA1)
    and B becomes Bin(j, 1 - rho). Both rho and 1 - rho are carried (``rbar``), each to a relative
    half ulp, and the binomial functions get the one that is exact: 1 - rho rounded in floats
    would lose the digits of a small rho (at eps0 = 20 a clone of type 0 has rho = 2e-9, and
    fl(1 - rho) moves it by 5e-8 relative, each atom of B by j times that).
    """
    thp, thq, j, rho, err_p, err_q = np.broadcast_arrays(
        *(np.asarray(v, dtype=float) for v in (thp, thq, j, rho, err_p, err_q)))
    thp, thq, j, rho = (v.copy() for v in (thp, thq, j, rho))
    rbar = 1.0 - rho
    lg = float(log_gamma)
    gamma = math.exp(lg)
    gm1 = math.expm1(lg)
    u_rho = float(rho_rtol)
    flip = thp < thq
    thp[flip], thq[flip] = 1 - thp[flip], 1 - thq[flip]
    rho[flip], rbar[flip] = rbar[flip], rho[flip].copy()
    out = np.full(thp.shape, _NEG_INF)
    err = np.full(thp.shape, _NEG_INF)
    equal = thp == thq
    whole = max(0.0, -gm1)  # sum of (P - gamma Q) over all atoms
    log_whole = math.log(whole) if whole > 0 else _NEG_INF
    out[equal] = log_whole
    with np.errstate(divide="ignore", invalid="ignore"):
        a1_all = thp - gamma * thq
        # absolute error of A1: the inputs' error (thetas, and 1 - theta after relabelling), the
        # rounding of gamma = e^eps (one ulp) and of the product and difference, rho's share
        # (1 - theta is exact for theta >= 1/2, within half an ulp of 1 otherwise)
        da1 = (err_p + gamma * err_q + np.where(flip, EPS * (1 + gamma), 0.0) + 4 * EPS * (thp + gamma * thq)
               + 2 * EPS * gamma * thq
               + 3 * u_rho * np.abs(a1_all))
        # the largest pmf value of B (at its mode): bounds B(k-1) for every threshold; computed
        # only where an error bound uses it (not for the thresholds of gamma >= 1, the usual case)
        mode = np.clip(np.floor((j + 1) * rho), 0, j)

        def log_bmax(mask):
            return binom_logpmf(mode[mask], j[mask], rho[mask], rbar[mask])

        r_inf = np.where(thq > 0, thp / np.where(thq > 0, thq, 1.0), np.inf)
        r_zero = (1 - thp) / (1 - thq)
        # gamma at the largest ratio to within the error of A1: the divergence is at most
        # max_k A1' B(k-1) <= 2 dA1 max B, plus the positive part of A0 (at most 0 for gamma >= 1)
        boundary = ~equal & (np.abs(a1_all) <= da1)
        a0_pos = np.maximum((1 - thp) - gamma * (1 - thq), 0.0)
        if np.any(boundary):
            err[boundary] = np.logaddexp(np.log(2 * da1[boundary]) + log_bmax(boundary), np.log(a0_pos[boundary]))
    # B a point mass (rho = 0 or 1, or no clones): two atoms, H = A1+ + A0+ directly
    point = ~equal & ((rho == 0) | (rbar == 0) | (j == 0))
    if np.any(point):
        with np.errstate(divide="ignore"):
            a0p = (1 - thp[point]) - gamma * (1 - thq[point])
            out[point] = np.log(np.maximum(a1_all[point], 0.0) + np.maximum(a0p, 0.0))
            # A0 = (1 - gamma) - A1 moves with A1, and with the rounding of its three operations;
            # a positive part moves only where its argument is within its error of 0 or above
            d1 = da1[point]
            d0 = d1 + 4 * EPS * ((1 - thp[point]) + gamma * (1 - thq[point]))
            err[point] = np.log(np.where(a1_all[point] > -d1, d1, 0.0) + np.where(a0p > -d0, d0, 0.0))
    boundary &= ~point
    live = ~equal & ~boundary & ~point & (gamma < r_inf)
    everything = live & (gamma < r_zero)
    out[everything] = log_whole
    if np.any(everything):
        with np.errstate(divide="ignore"):
            err[everything] = np.log(da1[everything]) + log_bmax(everything)
    mid = live & ~everything
    if np.any(mid):
        tp, tq, jj, rr, rb, fl = thp[mid], thq[mid], j[mid], rho[mid], rbar[mid], flip[mid]
        a1 = a1_all[mid]
        a0 = a1 + gm1
        xs = a0 / a1
        a_star = xs * rr * (jj + 1) / (rb + xs * rr)
        k0 = np.floor(a_star) + 1
        la1 = np.log(a1)
        best = np.full(tp.shape, _NEG_INF)
        best_err = np.full(tp.shape, _NEG_INF)
        # B and R at the highest candidate, then downwards: R(k-1) = 1 + R(k) / x_k (stable)
        k_hi = np.clip(k0 + 1.0, 1.0, jj)
        lb = binom_logpmf(k_hi, jj, rr, rb)
        if gm1 == 0:
            # gamma = 1: the tail's coefficient (1 - gamma) is 0 and L_k = A1 B(k-1) (the sum
            # telescopes); the tail, whose float64 evaluation is slowest at the median where the
            # threshold then is (a millisecond per count at 1e12 trials), is not computed
            lr, rel = np.zeros(k_hi.shape), 0.0
        else:
            lr, rel = _log_mills(k_hi, jj, rr, rb, fl)
        for step in range(4):
            k = k_hi - step
            valid = k >= 1
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                lx = np.log(k * rb) - np.log((jj - k + 1) * rr)  # log x_k = log B(k-1)/B(k)
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
        # the inputs' error: |dA1| times the largest B(k-1) over the thresholds A1 +- dA1 select
        # (for gamma >= 1 a larger A1 lowers the threshold; B is unimodal); for gamma < 1 max B
        dd = da1[mid]
        with np.errstate(divide="ignore", invalid="ignore"):
            if gm1 >= 0:
                a1_hi = a1 + dd
                xs_hi = (a1_hi + gm1) / a1_hi
                k_lo = np.floor(xs_hi * rr * (jj + 1) / (rb + xs_hi * rr)) - 1
                idx = np.clip(np.maximum(k_lo - 1, mode[mid]), 0, jj)
                log_b = binom_logpmf(idx, jj, rr, rb)
            else:
                log_b = log_bmax(mid)
            cond = np.log(dd) + log_b
            if u_rho > 0:
                # rho moves by drho <= u min(rho, 1 - rho): atom a of B by the factor c_a,
                # |log c_a| <= 2 u |a - j rho|; so the positive parts move by at most
                # (e^{2 u (j+1)} - 1) H, or, splitting at |a - j rho| = T = sqrt(350 j) (Hoeffding:
                # mass beyond it below 2 e^-700), by (e^{2 u (T+1)} - 1) H + 2 e^-700 (e^{2 u (j+1)} - 1)
                crude = np.log(np.expm1(2 * u_rho * (jj + 2)))
                split = np.logaddexp(best + np.log(np.expm1(2 * u_rho * (np.sqrt(350 * jj) + 2))), math.log(2) - 700 + crude)
                cond = np.logaddexp(cond, np.minimum(best + crude, split))
        out[mid] = best
        err[mid] = np.logaddexp(best_err, cond)
    return out, err


def _log_mills(k, j, p, q, reflect):
    """log of the binomial Mills ratio R(k) = P[Bin(j, p) >= k] / P[Bin(j, p) = k] and its relative
    error bound (as :func:`dptheory.precision.binom_log_mills`), q = 1 - p. Where ``reflect``, q is
    the exact parameter and p its rounded complement: R is then computed from the reflected count,
    P[Bin(j, q) <= j - k] / P[Bin(j, q) = j - k], by functions of q alone (a quotient of a tail and a
    pmf, each within :func:`dptheory.precision.binom_tail_rtol`: twice that bound)."""
    k, j, p, q, reflect = np.broadcast_arrays(k, j, p, q, reflect)
    out, rel = binom_log_mills(k, j, np.where(reflect, 0.5, p))
    rel = np.broadcast_to(np.asarray(rel, dtype=float), out.shape).copy()
    if np.any(reflect):
        kr, jr, qr, pr = k[reflect], j[reflect], q[reflect], p[reflect]
        tail = binom_logcdf(jr - kr, jr, qr)
        out[reflect] = tail - binom_logpmf(jr - kr, jr, qr, pr)
        rel[reflect] = 2 * binom_tail_rtol(jr)
    return out, rel


def log_binom_range(lo, hi, n, s):
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
        a = binom_logsf(lo[upper], n, s)
        b = binom_logsf(hi[upper] + 1, n, s)
        with np.errstate(invalid="ignore"):
            out[upper] = np.where(b < a, a + log1mexp(np.minimum(b - a, 0.0)), _NEG_INF)
        err[upper] = a + math.log(2 * tau)
    lower = valid & ~single & ~upper & (hi < median)
    if np.any(lower):
        a = binom_logcdf(hi[lower], n, s)
        b = binom_logcdf(lo[lower] - 1, n, s)
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


def log_mul(log_a, log_b):
    """log(a b) for a, b >= 0 given in logs, with 0 times anything (even inf) = 0: a bucket of
    zero weight contributes nothing, whatever its conditional bound."""
    with np.errstate(invalid="ignore"):
        out = np.add(log_a, log_b)
    return np.where(np.isneginf(log_a) | np.isneginf(log_b), -np.inf, out)


def _totals(lhi, llo, lerr, base=_NEG_INF, base_err=_NEG_INF):
    """(log lower, log upper) of a bucketed sum: sum of the bucket bounds plus ``base`` (known to
    the absolute error ``base_err``, in logs), the errors added to the upper side and taken off
    the lower."""
    total_err = float(np.logaddexp(logsumexp(lerr), base_err))
    up = float(np.logaddexp(logsumexp(np.append(lhi, base)), total_err))
    core = float(logsumexp(np.append(llo, base)))
    low = core + float(log1mexp(min(total_err - core, 0.0))) if total_err < core else -math.inf
    return low, up


def _split(a, b, parts: int = 4):
    """Each bucket [a, b] of integers split in ``parts`` (in single counts where it has fewer):
    the pieces' first and last counts, bucket by bucket (they cover [a, b] exactly)."""
    width = b - a + 1
    pieces = np.minimum(width, float(parts))
    k = np.arange(float(parts))[None, :]
    first = np.floor(a[:, None] + width[:, None] * k / pieces[:, None])
    last = np.floor(a[:, None] + width[:, None] * (k + 1) / pieces[:, None]) - 1
    valid = k < pieces[:, None]
    return first[valid], last[valid]


def refine_buckets(bounds, ma, mb, rtol: float, *, base: float = _NEG_INF, base_err: float = _NEG_INF,
                   max_rounds: int = 60, done=None, split_to_width: bool = False):
    """Certified enclosure of a sum over integer buckets [ma, mb] whose terms are monotone within
    each bucket: ``bounds(ma, mb)`` gives (log hi, log lo, log err) per bucket. The buckets holding
    90% of the gap are split in four until the relative width is at most ``rtol`` (or every bucket
    is a single point); ``done(log lower, log upper)``, if given, replaces that stopping rule (for
    sums whose final quantity is a function of the sum, see
    :func:`dptheory.shuffle.pair_renyi.renyi_width_rule`). With ``split_to_width`` a bucket is
    split in about twice as many pieces as the width is above ``rtol`` (4 to 32; in four where
    ``rtol`` is below 1e-4 or the gap less than 16 times the error bound, which grows with the
    number of buckets: at rtol = 1e-6, n = 1e8, 32 pieces left the width at 1.4e-6): the gap of a
    bucket of smooth terms shrinks about in proportion to its width, so one round usually reaches
    the width, where splits in four took three (each round is a vectorised call of ``bounds``,
    whose cost is mostly per call).
    Returns (Enclosure, ma, mb), the final buckets for reuse."""
    if done is None:
        done = lambda lower, upper: -math.expm1(lower - upper) <= rtol  # noqa: E731
    lhi, llo, lerr = bounds(ma, mb)
    for _ in range(max_rounds):
        lower, upper = _totals(lhi, llo, lerr, base, base_err)
        if upper == -math.inf or (lower > -math.inf and done(lower, upper)):
            break
        with np.errstate(invalid="ignore"):
            gap = np.where(lhi > llo, lhi + log1mexp(np.minimum(llo - lhi, 0.0)), -np.inf)
        gap = np.where(mb > ma, gap, -np.inf)
        if not np.any(np.isfinite(gap)):
            break
        # the float64 and input errors set the width: splitting buckets cannot narrow it much
        log_gap, log_err = float(logsumexp(gap)), float(np.logaddexp(logsumexp(lerr), base_err))
        if log_gap < log_err + math.log(0.25):
            break
        order_ = np.argsort(-gap)
        cum = np.logaddexp.accumulate(gap[order_])
        count = int(np.searchsorted(cum, cum[-1] + math.log(0.9))) + 1
        chosen = order_[:count]
        chosen = chosen[np.isfinite(gap[chosen])]
        keep = np.ones(len(ma), dtype=bool)
        keep[chosen] = False
        parts = 4
        # (only at tolerances far above the float64 error, which more buckets add to)
        if split_to_width and rtol >= 1e-4 and lower > -math.inf and log_gap > log_err + math.log(16.0):
            parts = int(min(32.0, max(4.0, math.ceil(-2.0 * math.expm1(lower - upper) / rtol))))
        na, nb = _split(ma[chosen], mb[chosen], parts)
        nhi, nlo, nerr = bounds(na, nb)
        ma, mb = np.concatenate([ma[keep], na]), np.concatenate([mb[keep], nb])
        lhi, llo, lerr = np.concatenate([lhi[keep], nhi]), np.concatenate([llo[keep], nlo]), np.concatenate([lerr[keep], nerr])
    lower, upper = _totals(lhi, llo, lerr, base, base_err)
    if math.isnan(lower) or math.isnan(upper):
        raise FloatingPointError("bucketed sum gave NaN: a bucket bound is undefined (please report)")
    return Enclosure(lower, upper), ma, mb


def bucket_edges(start: int, top: int, mean: float, sd: float, central: int = 32) -> np.ndarray:
    """Bucket edges over the integers start .. top (the last edge is top + 1) for a count with
    this mean and sd: doubling steps below the bulk (12 sd), ``central`` buckets across it, one
    bucket above (refinement splits whatever matters). ``top - 1`` is at most :data:`N_MAX`."""
    _check_trials("number of other users", top - 1)
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
        lw, lw_err = log_binom_range(ma, mb, n, s)
        f_hi, f_lo = log_f(ma), log_f(mb)
        slack = math.log(f_rtol)
        err = np.logaddexp(log_mul(lw_err, f_hi), log_mul(lw, f_hi + slack))
        return log_mul(lw, f_hi), log_mul(lw, f_lo), err

    edges = bucket_edges(0, n, n * s, math.sqrt(n * s * (1 - s)) + 1.0)
    enc, _, _ = refine_buckets(bounds, edges[:-1].astype(float), (edges[1:] - 1).astype(float), rtol, done=done)
    return enc
