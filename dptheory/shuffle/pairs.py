"""Dominating pairs of count distributions, and their hockey-stick divergence at any n.

Every reduction of shuffling used here (the clones of Feldman, McMillan, Talwar 2021 and 2023, the
variation-ratio pair of Wang et al. 2024, and the lower-bound pairs of Wang et al. Theorem 5.1) has the
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
difference of two binomial tails
(:func:`dptheory.shuffle.binomial_sums.log_hockey_stick_binary_count`, O(1) with the incomplete
beta function).

**Certified sums.** h(m) = Psi(pi_m, m - 1) where Psi is non-decreasing in pi (lowering pi mixes the
victim's message with a fresh clone: a post-processing) and non-increasing in the number of
clones (adding one is a post-processing), and pi_m is non-decreasing in m. So on a bucket
m in [m_a, m_b], ``Psi(pi_{m_a}, m_b - 1) <= h(m) <= Psi(pi_{m_b}, m_a - 1)``: a handful of
adaptively refined buckets gives rigorous lower and upper sums, whatever n is
(:func:`dptheory.shuffle.binomial_sums.refine_buckets`). Rounding errors of
the tails and bucket weights (:func:`dptheory.precision.binom_tail_rtol`) are added to the
enclosure, so the returned interval contains the exact divergence of the pair.
"""

from __future__ import annotations

import collections
import dataclasses
import math

import numpy as np

from .. import validate
from ..lazy_import import mpmath
from ..results import Enclosure
from ..rounding import EPS, mp_down, mp_up
from ..precision import binom_logpmf, logsumexp, mp_binom_cdf, mp_binom_pmf, mp_binom_sf
from .binomial_sums import N_MAX, supported_others, bucket_edges, log_binom_range, log_hockey_stick_binary_count, log_mul, refine_buckets

_NEG_INF = -np.inf

#: above this epsilon, e^epsilon overflows float64
_EPSILON_FLOAT_MAX = 700.0

#: below this log delta a float lower end of -inf (the sums' float error, absolute, swamps a value
#: whose logarithm is large: at n = 1e15, epsilon = 0.1 the clone pair's delta is e^-1.6e12) is
#: replaced by a certified positive one in log space (:meth:`CountPair._log_lower_one_atom`)
LOG_LOWER_BELOW = -700.0

#: largest number of other users for which :meth:`CountPair.log_delta` falls back to the mpmath sum
#: when the float64 error bound is not small against the value (the sum costs O(N) tails)
MP_FALLBACK_MAX_OTHERS = 400

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
    input_rtol : float
        How far the float parameters may be from the pair they stand for (0: the floats are the
        pair): u = input_rtol bounds the relative error of clone_prob, victim_prob and
        clone_bias. The values that constructors produce only where they are exact are taken as
        exact: a clone_prob of 0 or 1, a victim_prob of 0 or 1, a clone_bias of 0.5 (a fair clone).
    theta_rtol : float
        Bound on the relative error of theta_p and of theta_q against the pair they stand for
        (constructors compute both without cancellation: 1/(1 + e^eps0), not 1 - e^eps0/(1 + e^eps0)).
        Constructors that compute the parameters from
        e^eps0 or from pmfs set it; the enclosures of :meth:`log_delta` then contain the
        divergence of every pair within it (the rounding of e^eps0 moves delta(eps) for eps just
        below eps0 by orders of magnitude more than its own relative size).
    exact : callable or None
        ``exact()`` returns (clone_prob, theta_p, theta_q, victim_prob, clone_bias) as mpmath
        numbers at the working precision, for the mpmath fallback of :meth:`log_delta`
        (None: the float parameters, valid only when ``input_rtol`` is 0).
    """

    others: int
    clone_prob: float
    theta_p: float
    theta_q: float
    victim_prob: float = 1.0
    clone_bias: float = 0.5
    input_rtol: float = 0.0
    theta_rtol: float = 0.0
    exact: object = dataclasses.field(default=None, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "others", validate.integer("others", self.others, low=0))
        reason = supported_others("others", self.others)
        if reason:
            raise validate.DomainError(reason)
        for name in ("clone_prob", "theta_p", "theta_q", "victim_prob", "clone_bias"):
            object.__setattr__(self, name, validate.probability(name, getattr(self, name)))
        object.__setattr__(self, "input_rtol", validate.real("input_rtol", self.input_rtol, low=0.0, high=1e-3))
        object.__setattr__(self, "theta_rtol", validate.real("theta_rtol", self.theta_rtol, low=0.0, high=1e-3))

    # ------------------------------------------------------------------ structure
    def reversed(self) -> "CountPair":
        """The pair (Q, P)."""
        exact = None
        if self.exact is not None:
            spec = self.exact
            exact = lambda: (lambda s, tp, tq, v, r: (s, tq, tp, v, r))(*spec())  # noqa: E731
        return dataclasses.replace(self, theta_p=self.theta_q, theta_q=self.theta_p, exact=exact)

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

    def _presence(self, m):
        """(pi_m, 1 - pi_m) at counts m, pi_m = P[victim present | K = m], each from the log-odds
        without cancellation: 1/(1 + e^-lo) and 1/(1 + e^lo). (1 - pi_m as 1 - pi_m in floats
        loses every digit when pi_m is within an ulp of 1, and the conditional theta of type-1
        clones, (1 - pi_m) rho, with it: at eps0 = 20 that moved delta by 5e-7 relative.)"""
        lo = self._log_odds_present(m)
        with np.errstate(over="ignore", invalid="ignore"):
            pi = np.where(np.isposinf(lo), 1.0, np.where(np.isneginf(lo), 0.0, 1.0 / (1.0 + np.exp(-lo))))
            pibar = np.where(np.isposinf(lo), 0.0, np.where(np.isneginf(lo), 1.0, 1.0 / (1.0 + np.exp(lo))))
        return lo, pi, pibar

    def _theta_given(self, m):
        """The conditional thetas (under P, under Q) of the victim-or-clone message given K = m:
        pi_m theta + (1 - pi_m) rho."""
        _, pi, pibar = self._presence(m)
        rho = self.clone_bias
        return pi * self.theta_p + pibar * rho, pi * self.theta_q + pibar * rho

    def _theta_err(self, m):
        """Absolute error bounds (of tp, of tq) of the conditional thetas of :meth:`_theta_given`
        at counts m, against the pair the float parameters stand for.

        * Rounding: pi and 1 - pi are each within 2 EPS relative of the logistic function at the
          computed log-odds (exp within an ulp, scaled by the other one's share; one addition,
          one division); the two products and the sum add EPS relative of tp (all terms are
          non-negative). So 3 EPS tp, taken as 4 EPS tp.
        * The thetas' own error (``theta_rtol`` relative), and rho's (``input_rtol`` relative,
          unless rho = 1/2): the terms pi theta and (1 - pi) rho move by those fractions.
        * The error of the log-odds (rounding: a few ulps of the sum of the magnitudes of the
          five logarithms; inputs: s moves by u s, which moves log((1 - s)/s) by at most
          u/(1 - s) to first order, doubled) moves pi by pi (1 - pi) (e^d - 1) and 1 - pi by the
          opposite amount: tp by that times |theta - rho|.
        * victim_prob v moves by u v (1 - v may be 0 in the pair and u v in the floats):
          pi = 1/(1 + x c) with x = (1 - v)/v, c = w_absent/w_present, moves by at most
          pi^2 c u / v.
        """
        lo, pi, pibar = self._presence(m)
        rho = self.clone_bias
        tp, tq = pi * self.theta_p + pibar * rho, pi * self.theta_q + pibar * rho
        rho_rtol = 0.0 if rho == 0.5 else self.input_rtol
        err_p = (4 * EPS) * tp + self.theta_rtol * pi * self.theta_p + rho_rtol * pibar * rho
        err_q = (4 * EPS) * tq + self.theta_rtol * pi * self.theta_q + rho_rtol * pibar * rho
        n, s, v, u = self.others, self.clone_prob, self.victim_prob, self.input_rtol
        m = np.asarray(m, dtype=float)
        if (s in (0.0, 1.0) or v in (0.0, 1.0)) and u == 0:
            # pi_m is 0 or 1 exactly (or undefined: NaN, handled by the caller)
            return err_p, err_q
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # inf errors cap at 1
            # log(w_present / w_absent) without v: m (1-s) / ((n-m+1) s)
            if 0 < s < 1:
                log_m, log_rest = np.log(m), np.log(np.maximum(n - m + 1.0, 1.0))
                l_ratio = log_m + math.log1p(-s) - log_rest - math.log(s)
                size = np.abs(log_m) + np.abs(log_rest) + abs(math.log(s)) + abs(math.log1p(-s))
            else:
                l_ratio = np.zeros(m.shape)
                size = np.zeros(m.shape)
            l_ratio = np.where(m > n, np.inf, l_ratio)  # no count m without the victim
            base = abs(math.log(v)) + abs(math.log1p(-v)) if 0 < v < 1 else 0.0
            # absolute error of the log-odds: five logs and four additions (3.5 EPS of the sum of
            # the magnitudes), and the clone probability's input error
            lo_err = 4 * EPS * (size + base) + (2 * u / (1 - s) if 0 < s < 1 else 0.0)
            dpi = pi * pibar * np.expm1(np.minimum(lo_err, 1.0))
            if u > 0 and 0 < v < 1:
                dpi = dpi + np.minimum(pi * pi * np.exp(-l_ratio) * u / v, 1.0)
            err_p = np.nan_to_num(err_p + dpi * abs(self.theta_p - rho), nan=1.0, posinf=1.0)
            err_q = np.nan_to_num(err_q + dpi * abs(self.theta_q - rho), nan=1.0, posinf=1.0)
        return err_p, err_q

    def _log_weights(self, ma, mb):
        """log P(ma <= K <= mb) and its error, K = C + V. The error includes the effect of the
        inputs' error ``input_rtol`` = u: victim_prob v in (0, 1) moves by u v (the weight by at
        most u v (W1 + W0), W1 and W0 the two binomial ranges), clone_prob s in (0, 1) by u s, which moves
        log Bin(m; N, s) by u |m - N s| / (1 - s) (its derivative in s is (m - N s)/(s (1 - s)))
        and Bin(N, s) by at most N u s in total variation (a coupling)."""
        n, s, v, u = self.others, self.clone_prob, self.victim_prob, self.input_rtol
        terms, errs = [], []
        w1 = w0 = None
        if v > 0:
            w1, e1 = log_binom_range(ma - 1, mb - 1, n, s)
        if v < 1:
            w0, e0 = log_binom_range(ma, mb, n, s)
        if v > 0:
            terms.append(w1 + math.log(v))
            errs.append(e1 + math.log(v))
        if v < 1:
            terms.append(w0 + math.log1p(-v))
            errs.append(e0 + math.log1p(-v))
        lw, lerr = logsumexp(np.vstack(terms), axis=0), logsumexp(np.vstack(errs), axis=0)
        if u > 0:
            if 0 < v < 1:
                lerr = np.logaddexp(lerr, math.log(u * v) + np.logaddexp(w1, w0))
            tv = math.log(2 * n * u * s) if 0 < s < 1 and n > 0 else _NEG_INF
            if 0 < s < 1:
                far = np.maximum(np.abs(np.asarray(ma, dtype=float) - 1 - n * s), np.abs(np.asarray(mb, dtype=float) - n * s)) + 1
                with np.errstate(over="ignore", divide="ignore"):
                    rel = np.expm1(np.minimum(u * far / (1 - s), 700.0))
                    tv = np.minimum(tv, lw + np.log(rel))
            lerr = np.logaddexp(lerr, tv)
        return lw, lerr

    # ------------------------------------------------------------------ float64, certified
    def _epsilon_free(self, ma, mb):
        """What the bucket bounds need that does not depend on epsilon, per bucket [ma, mb]: the
        log weight and its error, the conditional thetas at both ends and their errors. Kept
        across the epsilon evaluations of an inversion (:func:`_bucket_cache`: keyed by the
        pair's parameters, as the pair is built anew at each epsilon), computed for new buckets only."""
        cache = _bucket_cache(self)
        # a whole set of buckets seen before (the first buckets of every evaluation) in one look-up
        whole = cache.setdefault(_WHOLE, {})
        whole_key = (np.ascontiguousarray(ma, dtype=float).tobytes(), np.ascontiguousarray(mb, dtype=float).tobytes())
        if whole_key in whole:
            return whole[whole_key]
        keys = list(zip(ma.tolist(), mb.tolist()))
        missing = [i for i, key in enumerate(keys) if key not in cache]
        if missing:
            a, b = ma[missing], mb[missing]
            lw, lw_err = self._log_weights(a, b)
            rows = np.column_stack(np.broadcast_arrays(
                lw, lw_err, *self._theta_given(b), *self._theta_given(a), *self._theta_err(b), *self._theta_err(a)))
            for k, i in enumerate(missing):
                cache[keys[i]] = rows[k]
        out = np.array([cache[key] for key in keys], dtype=float).reshape(len(keys), 10).T
        out.flags.writeable = False
        if len(whole) < _WHOLE_SETS:
            whole[whole_key] = out
        return out

    def _bucket_bounds(self, ma, mb, log_gamma):
        """(log weight, log hi, log lo, log err) of each bucket [ma, mb] (m >= 1)."""
        lw, lw_err, tp_hi, tq_hi, tp_lo, tq_lo, ep_hi, eq_hi, ep_lo, eq_lo = self._epsilon_free(ma, mb)
        rho = self.clone_bias
        rho_rtol = 0.0 if rho == 0.5 else self.input_rtol  # a fair clone is exact
        # both ends in one vectorised call (its cost is mostly per call, not per bucket); a bucket of
        # one count has one end (the same thetas, errors and clones at both): computed once
        wide = mb > ma
        both, both_err = log_hockey_stick_binary_count(
            np.concatenate([tp_hi, tp_lo[wide]]), np.concatenate([tq_hi, tq_lo[wide]]),
            np.concatenate([ma - 1.0, mb[wide] - 1.0]), rho,
            log_gamma, np.concatenate([ep_hi, ep_lo[wide]]), np.concatenate([eq_hi, eq_lo[wide]]), rho_rtol)
        k = len(ma)
        l_hi, e_hi = both[:k], both_err[:k]
        l_lo, e_lo = l_hi.copy(), e_hi.copy()
        l_lo[wide], e_lo[wide] = both[k:], both_err[k:]
        # counts the float parameters make impossible (s = 0 or 1, v = 0 or 1: pi_m is 0/0 there)
        # have no defined conditional pair; any pair's divergence is in [0, 1], so they get that
        # (they carry weight only through the inputs' error)
        undefined_hi = np.isnan(l_hi) | np.isnan(e_hi)
        undefined_lo = np.isnan(l_lo) | np.isnan(e_lo)
        l_hi, e_hi = np.where(undefined_hi, 0.0, l_hi), np.where(undefined_hi, _NEG_INF, e_hi)
        l_lo, e_lo = np.where(undefined_lo, _NEG_INF, l_lo), np.where(undefined_lo, _NEG_INF, e_lo)
        # error: weight error times the perturbed Psi (at most 1), plus weight times the Psi errors
        psi_top = np.minimum(np.logaddexp(l_hi, e_hi), 0.0)
        err = logsumexp(np.vstack([log_mul(lw_err, psi_top), log_mul(lw, e_hi), log_mul(lw, e_lo)]), axis=0)
        return lw, log_mul(lw, l_hi), log_mul(lw, l_lo), err

    def log_delta(self, epsilon, *, rtol: float = 1e-6, max_rounds: int = 60, start: dict | None = None) -> Enclosure:
        """Certified enclosure of log H_{e^epsilon}(P||Q) (float64, any n; mpmath where needed).

        The buckets are refined until the enclosure's relative width is at most ``rtol`` (or every
        bucket is a single count, when the float64 error itself sets the width). The enclosure
        contains the divergence of the pair the float parameters stand for (see ``input_rtol``).
        Where the float64 error bound is not small against the value (epsilon just below the
        largest likelihood ratio) and N is at most :data:`MP_FALLBACK_MAX_OTHERS`, the value is
        recomputed with mpmath (:meth:`mp_log_delta`) and that enclosure is returned alone: it is
        computed from the exact parameters, and is not intersected with the float one (two
        enclosures that should both hold can only be intersected when both are certified; a
        float bound that misses the truth would then make the result wrong or empty).

        ``start``: a dict kept by the caller over one epsilon(delta) inversion (never across
        computations, so that a result depends on its own arguments only): the buckets the
        previous evaluation of this pair ended with are refined from, and this one's are kept
        there (any buckets give a certified enclosure; near the previous epsilon, the refined
        ones need no further round).
        """
        eps = validate.real("epsilon", epsilon)
        rtol = validate.real("rtol", rtol, low=0.0, low_open=True, high=1.0)
        enc = self._float_log_delta(eps, rtol=rtol, max_rounds=max_rounds, start=start)
        n, u = self.others, self.input_rtol
        if enc.relative_width() > rtol and n <= MP_FALLBACK_MAX_OTHERS and (self.exact is not None or (u == 0 and self.theta_rtol == 0)):
            return self.mp_log_delta(eps, digits=max(20, int(-math.log10(rtol)) + 12))
        return enc

    def _float_log_delta(self, eps: float, *, rtol: float, max_rounds: int = 60, start: dict | None = None) -> Enclosure:
        """The float64 enclosure of :meth:`log_delta` (no mpmath fallback)."""
        if eps > _EPSILON_FLOAT_MAX:
            # e^eps overflows: delta is non-increasing in epsilon, so delta(_EPSILON_FLOAT_MAX) bounds it
            # from above, and 0 from below (a pair with an unbounded likelihood ratio keeps
            # positive mass there)
            return Enclosure(_NEG_INF, self._float_log_delta(_EPSILON_FLOAT_MAX, rtol=rtol, max_rounds=max_rounds).log_upper)
        n, s, v, u = self.others, self.clone_prob, self.victim_prob, self.input_rtol
        # m = 0: both laws are the point (0, 0)
        whole = -math.expm1(eps) if eps < 0 else 0.0
        log_zero_w = math.log1p(-v) + n * math.log1p(-s) if v < 1 and s < 1 else _NEG_INF
        if v == 1 and n == 0:
            log_zero_w = _NEG_INF
        base = log_zero_w + math.log(whole) if whole > 0 and log_zero_w > _NEG_INF else _NEG_INF
        # its error: rounding (a few ulps of n log1p(-s)), and the inputs' error: v moves by u v,
        # (1 - s)^n by n u s/(1 - s) relative
        base_err = _NEG_INF
        if whole > 0 and (base > _NEG_INF or u > 0):
            rel = 4 * EPS * (1 + abs(log_zero_w if log_zero_w > _NEG_INF else 0.0))
            rel += n * u * s / (1 - s) if s < 1 else 0.0
            with np.errstate(divide="ignore"):
                # v moves by u v: the weight (1 - v)(1 - s)^n by u v (1 - s)^n
                moved = math.log(u * v) + n * math.log1p(-s) + math.log(whole) if u > 0 and 0 < v < 1 and s < 1 else _NEG_INF
                base_err = float(np.logaddexp(base + math.log(math.expm1(min(rel, 700.0))) if base > _NEG_INF else _NEG_INF,
                                              moved))
        key = (self.others, self.clone_prob, self.theta_p, self.theta_q, self.victim_prob, self.clone_bias)
        if start is not None and start.get("pair") == key:
            ma, mb = start["buckets"]
        else:
            edges = self._initial_edges(self._central_count())
            ma, mb = edges[:-1].astype(float), (edges[1:] - 1).astype(float)

        def bounds(ma, mb):
            return self._bucket_bounds(ma, mb, eps)[1:]

        enc, ma, mb = refine_buckets(bounds, ma, mb, rtol, base=base, base_err=base_err, max_rounds=max_rounds,
                                     split_to_width=True)
        if start is not None:
            order = np.argsort(ma, kind="stable")
            start["pair"], start["buckets"] = key, (ma[order], mb[order])
        if enc.log_lower == _NEG_INF and _NEG_INF < enc.log_upper < LOG_LOWER_BELOW:
            low = self._log_lower_one_atom(eps, np.concatenate([ma, mb]))
            if low is not None and low <= enc.log_upper:
                return Enclosure(low, enc.log_upper)
        return enc

    def log_delta_floor(self, epsilon) -> float | None:
        """A certified lower bound on log H_{e^epsilon}(P||Q) in O(1) operations (a closed form;
        derived here), or None where it gives nothing (its value is not certainly positive, or the
        victim's message is not always present). docs/errata.md#derived-no-amplification-floor.

        **Derivation.** ``H_gamma(P||Q) = sum_x (P(x) - gamma Q(x))_+`` is at least
        ``sum_{x in S} (P(x) - gamma Q(x))`` for any set S of outcomes (every term left out is
        non-negative, every term kept is at most its positive part). Take for S the outcomes where
        every message is of type 0, (a, b) = (m, 0) for m >= 1. With the victim always present
        (``victim_prob`` = 1) the outcome (m, 0) is "the victim's message is of type 0 and so are
        the m - 1 clones": ``P(m, 0) = theta_p Bin(m - 1; N, s) rho^(m-1)``, Q(m, 0) the same with
        theta_q (rho = ``clone_bias``), and the binomial theorem sums them over m:

            H_gamma(P||Q) >= (theta_p - gamma theta_q) (1 - s (1 - rho))^N.

        The same with the two types exchanged (theta -> 1 - theta, rho -> 1 - rho); the larger
        is kept. For the clone pair of Feldman, McMillan, Talwar (2021, Theorem 3.1: s = e^-eps0,
        rho = 1/2, theta_p = e^eps0/(e^eps0 + 1) = e^eps0 theta_q) it reads
        ``(e^eps0 - e^epsilon)/(e^eps0 + 1) (1 - e^-eps0/2)^(n-1)``, and for the stronger clones
        of Feldman, McMillan, Talwar (2023, Theorem 3.2: s = 2/(e^eps0 + 1))
        ``(e^eps0 - e^epsilon)/(e^eps0 + 1) (e^eps0/(e^eps0 + 1))^(n-1)``. Just below eps0 it is
        close to the whole value while the expected number of clones is small against
        e^eps0/(eps0 - epsilon): an outcome with one message of type 1 among m has the likelihood
        ratio (e^eps0 (m - 1) + 1)/(m - 1 + e^eps0), far below e^epsilon there.

        **Rounding.** The float parameters stand for the pair's within ``theta_rtol`` (thetas) and
        ``input_rtol`` (s, and rho unless it is 1/2): theta_p - gamma theta_q is taken down by
        (theta_rtol + 8 EPS)(theta_p + gamma theta_q) (those errors, gamma's ulp and three
        roundings; with the types exchanged 4 EPS (1 + gamma) more for 1 - theta), N log1p(-x),
        x = s (1 - rho), by N x u_x/(1 - x (1 + u_x)) + 4 EPS |N log1p(-x)|
        (u_x the relative error of x, its derivative N/(1 - x)), and the sum of the logs by 4 EPS
        of its terms' magnitudes.
        """
        eps = validate.real("epsilon", epsilon)
        if self.victim_prob != 1.0 or eps > _EPSILON_FLOAT_MAX:
            return None
        gamma = math.exp(eps)
        tp, tq, rho, n = self.theta_p, self.theta_q, self.clone_bias, self.others
        u_s = 0.0 if self.clone_prob in (0.0, 1.0) else self.input_rtol
        u_rho = 0.0 if rho == 0.5 else self.input_rtol
        best = None
        for a, x, complement in ((tp - gamma * tq, self.clone_prob * (1.0 - rho), 0.0),
                                 ((1.0 - tp) - gamma * (1.0 - tq), self.clone_prob * rho, 4 * EPS * (1.0 + gamma))):
            a_low = a - (self.theta_rtol + 8 * EPS) * (tp + gamma * tq) - complement
            u_x = u_s + u_rho + 4 * EPS
            if not a_low > 0 or not x * (1 + u_x) < 1:
                continue
            log_r = n * math.log1p(-x)
            log_r_err = n * x * u_x / (1 - x * (1 + u_x)) + 4 * EPS * abs(log_r)
            log_a = math.log(a_low)
            value = log_a + log_r - log_r_err - 4 * EPS * (abs(log_a) + abs(log_r)) - 1e-300
            best = value if best is None else max(best, value)
        return best

    def _log_lower_one_atom(self, eps: float, counts) -> float | None:
        """A certified lower bound on log H_{e^eps}(P||Q) in log space, for a value far below the
        float range: the divergence is at least the contribution of one outcome (a, b) where P
        exceeds e^eps Q (every term of the sum is non-negative), P(K = m) [A1 B(a - 1) + A0 B(a)]
        with K = m total messages, a of type 0 (A1 = tp - gamma tq, A0 = (1 - tp) - gamma (1 - tq)
        from the conditional thetas, B the pmf of the m - 1 clones' type-0 count). The outcome
        is chosen by a float search over the total counts ``counts`` (and their neighbourhood) and
        the counts a just above the likelihood-ratio threshold; its value is computed with mpmath
        from the exact parameters (``exact``; the floats where the pair has no input error) at
        two precisions, their difference taken off (derived here). None where no outcome is
        found positive or the parameters have no exact form."""
        if self.exact is None and (self.input_rtol > 0 or self.theta_rtol > 0):
            return None
        n, rho = self.others, self.clone_bias
        gamma = math.exp(eps)
        m = np.unique(np.clip(np.asarray(counts, dtype=float), 2.0, n + 1.0))
        if m.size == 0 or not 0 < rho < 1:
            return None
        best = self._best_atoms(m, gamma)
        if best is None:
            return None
        # around the best total count: geometric steps both ways (the search is in floats; any
        # outcome gives a valid bound, a better one a tighter bound)
        m0 = best[1]
        steps = np.unique(np.round(np.concatenate([[0.0], np.geomspace(1.0, max(m0, 2.0), 48)])))
        near = np.unique(np.clip(np.concatenate([m0 - steps, m0 + steps]), 2.0, n + 1.0))
        best = max(best, self._best_atoms(near, gamma) or best)
        _, m_star, a_star = best
        return self._mp_log_atom(eps, int(m_star), int(a_star))

    def _best_atoms(self, m, gamma):
        """(float log value, m, a) of the largest single-outcome contribution over the total
        counts m, with a searched above the threshold of each; None where none is positive."""
        rho = self.clone_bias
        lw, _ = self._log_weights(m, m)
        tp, tq = self._theta_given(m)
        a1 = tp - gamma * tq
        a0 = (1 - tp) - gamma * (1 - tq)
        ok = (a1 > 0) & np.isfinite(lw)
        if not np.any(ok):
            return None
        m, lw, a1, a0 = m[ok], lw[ok], a1[ok], a0[ok]
        j = m - 1.0
        with np.errstate(divide="ignore", invalid="ignore"):
            x = np.maximum(-a0 / a1, 0.0)  # the outcome counts where x_a = B(a-1)/B(a) exceeds x
            threshold = x * rho * (j + 1) / ((1 - rho) + x * rho)
        offsets = np.concatenate([[0.0, 1.0, 2.0, 3.0], np.round(np.geomspace(4.0, 1e15, 40))])
        a = np.clip(np.floor(threshold)[:, None] + 1 + offsets[None, :], 1.0, (j + 1)[:, None])
        jj = np.broadcast_to(j[:, None], a.shape)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            log_b = binom_logpmf(a, jj, rho, 1 - rho)
            xa = np.where(a <= jj, a * (1 - rho) / ((jj - a + 1) * rho), np.inf)
            bracket = np.where(np.isinf(xa), a1[:, None], a1[:, None] * xa + a0[:, None])
            log_term = np.where(np.isinf(xa), binom_logpmf(a - 1, jj, rho, 1 - rho) + np.log(a1)[:, None],
                                log_b + np.log(np.where(bracket > 0, bracket, np.nan)))
            value = lw[:, None] + log_term
        value = np.where(np.isfinite(value), value, _NEG_INF)
        i, k = np.unravel_index(int(np.argmax(value)), value.shape)
        if value[i, k] == _NEG_INF:
            return None
        return float(value[i, k]), float(m[i]), float(a[i, k])

    def _mp_log_atom(self, eps: float, m: int, a: int, digits: int = 40) -> float | None:
        """Certified lower end of log P(K = m) [A1 B(a - 1) + A0 B(a)] (see
        :meth:`_log_lower_one_atom`), by mpmath at ``digits`` and ``digits + 20`` digits."""
        def value(dps):
            with mpmath.workdps(dps):
                if self.exact is not None:
                    S, TP, TQ, V, R = (mpmath.mpf(x) for x in self.exact())
                else:
                    S, TP, TQ, V, R = (mpmath.mpf(x) for x in (self.clone_prob, self.theta_p, self.theta_q,
                                                               self.victim_prob, self.clone_bias))
                n = self.others
                wp = V * mp_binom_pmf(m - 1, n, S)
                wa = (1 - V) * mp_binom_pmf(m, n, S) if m <= n else mpmath.mpf(0)
                w = wp + wa
                if w <= 0:
                    return None
                pi = wp / w
                tp, tq = pi * TP + (1 - pi) * R, pi * TQ + (1 - pi) * R
                g = mpmath.exp(mpmath.mpf(eps))
                b0, b1 = mp_binom_pmf(a - 1, m - 1, R), mp_binom_pmf(a, m - 1, R)
                return w * ((tp - g * tq) * b0 + ((1 - tp) - g * (1 - tq)) * b1)

        with mpmath.workdps(digits + 60):
            v1, v2 = value(digits), value(digits + 20)
            if v1 is None or v2 is None or not v2 > 0:
                return None
            low = v2 - abs(v2 - v1) - v2 * mpmath.mpf(10) ** (-digits)
            if not low > 0:
                return None
            return mp_down(mpmath.log(low))

    def _spread(self) -> tuple[float, float]:
        """(mean, sd + 1) of the total count K = C + V, what :func:`bucket_edges` spreads the
        first buckets by."""
        n, s, v = self.others, self.clone_prob, self.victim_prob
        return n * s + v, math.sqrt(n * s * (1 - s) + v * (1 - v)) + 1.0

    def _initial_edges(self, central: int = 32) -> np.ndarray:
        """Bucket edges over m = 1 .. N+1 (the total count K = C + V)."""
        return bucket_edges(1, self.others + 1, *self._spread(), central)

    def _central_count(self) -> int:
        """The number of buckets across the bulk that :meth:`log_delta` starts from: every count
        of the bulk on its own where it holds at most :data:`SINGLE_COUNTS_MAX` counts (a bucket
        of one count has no gap: one vectorised call per evaluation, where 128 buckets took three
        refinement rounds at N = 1e3), else :func:`_central_buckets`."""
        mean, sd = self._spread()
        lo, hi = max(1, int(mean - 12 * sd)), min(self.others + 1, int(mean + 12 * sd) + 1)
        if hi - lo <= SINGLE_COUNTS_MAX:
            return max(hi - lo, 1)
        return _central_buckets(self.others)

    def delta(self, epsilon, *, rtol: float = 1e-6) -> tuple[float, float]:
        """Certified (lower, upper) of H_{e^epsilon}(P||Q) as floats: the lower end rounded down,
        the upper end rounded up (0.0 or a subnormal where the value is that small; the upper end
        of a positive value is never 0). Below the float range use :meth:`log_delta` or
        :meth:`mp_delta`."""
        enc = self.log_delta(epsilon, rtol=rtol)
        return enc.lower, enc.upper

    # ------------------------------------------------------------------ mpmath
    def mp_delta(self, epsilon, digits: int = 50):
        """H_{e^epsilon}(P||Q) with mpmath (see :func:`mp_delta`): (value, omitted mass). The
        parameters are those of ``exact`` if given, else the floats taken as exact binary numbers."""
        if self.exact is None:
            return mp_delta(self.others, self.clone_prob, self.theta_p, self.theta_q, self.victim_prob,
                            self.clone_bias, epsilon, digits)
        with mpmath.workdps(validate.digits(digits) + 20):
            return mp_delta(self.others, *self.exact(), epsilon, digits)

    def mp_log_delta(self, epsilon, digits: int = 30) -> Enclosure:
        """Certified enclosure of log H_{e^epsilon} by the mpmath sum: evaluated at ``digits`` and
        at ``digits + 20`` digits; the enclosure is widened by their difference (which bounds the
        first one's error, as in :func:`dptheory.precision.mp_adaptive`) plus the omitted mass,
        and rounded outwards."""
        digits = validate.digits(digits)
        v1, _ = self.mp_delta(epsilon, digits)
        v2, om = self.mp_delta(epsilon, digits + 20)
        with mpmath.workdps(digits + 40):
            err = abs(v2 - v1) + v2 * mpmath.mpf(10) ** (-digits)
            lo, hi = v2 - err, v2 + err + om
            log_lo = mp_down(mpmath.log(lo)) if lo > 0 else -math.inf
            log_hi = mp_up(mpmath.log(hi)) if hi > 0 else -math.inf
        return Enclosure(log_lo, log_hi)


def _central_buckets(others: int) -> int:
    """Buckets across the bulk (12 sd either side of the mean) that :meth:`CountPair.log_delta`
    starts from: more at small N, where the conditional divergence changes faster from count to
    count and 32 buckets took three or four refinement rounds at N = 1e4 (each round costs a
    vectorised call, whatever its number of buckets), fewer at large N, where the float64 tails
    near the mean cost 10-300 microseconds a count (benchmarks/bench_shuffle_inversion.py)."""
    return 128 if others < 10**5 else 64 if others < 10**7 else 32


#: the most counts across the bulk (12 sd either side of the mean) that :meth:`CountPair.log_delta`
#: starts from one by one: a call of the bucket bounds costs 0.5 ms at 10 buckets and 1 ms at 400
#: (mostly per call), a refinement round is a call (eps0 = 1, N = 1e3: 5 calls of 30-190 buckets
#: per inversion with 128 buckets, 3 of 400 single counts)
SINGLE_COUNTS_MAX = 512


#: the key under which a pair's bucket cache keeps whole sets of buckets (their rows as one array),
#: and how many sets it keeps
_WHOLE, _WHOLE_SETS = "whole sets", 32

#: count pairs whose epsilon-free bucket data are kept (:meth:`CountPair._epsilon_free`), the
#: most recently used first out
_BUCKET_CACHE_PAIRS = 64
_BUCKET_CACHES: "collections.OrderedDict" = collections.OrderedDict()


def _bucket_cache(pair: CountPair) -> dict:
    """The bucket cache of the pair with these parameters (a value of the frozen dataclass: a pair
    rebuilt from the same parameters shares it)."""
    key = (pair.others, pair.clone_prob, pair.theta_p, pair.theta_q, pair.victim_prob, pair.clone_bias,
           pair.input_rtol, pair.theta_rtol)
    cache = _BUCKET_CACHES.get(key)
    if cache is None:
        cache = _BUCKET_CACHES[key] = {}
        while len(_BUCKET_CACHES) > _BUCKET_CACHE_PAIRS:
            _BUCKET_CACHES.popitem(last=False)
    else:
        _BUCKET_CACHES.move_to_end(key)
    return cache


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

        skipped = [mpmath.mpf(0)]
        cutoff = mpmath.mpf(10) ** (-(digits + 10))

        def term(m, total):
            wp = V * mp_binom_pmf(m - 1, n, S) if m >= 1 else mpmath.mpf(0)
            wa = (1 - V) * mp_binom_pmf(m, n, S) if m <= n else mpmath.mpf(0)
            w = wp + wa
            if w == 0:
                return w, w
            if m == 0:
                return w, w * max(mpmath.mpf(0), 1 - gamma)
            if total > 0 and w * (n + 2) < cutoff * total:
                skipped[0] += w  # the term is at most w: counted as omitted mass
                return w, mpmath.mpf(0)
            pi = wp / w
            return w, w * _mp_psi(pi * TP + (1 - pi) * R, pi * TQ + (1 - pi) * R, m - 1, R, gamma)

        def unvisited(left, right):
            """the mass of K <= left and K >= right (K = C + V), from the binomial tails"""
            out = mpmath.mpf(0)
            if left >= 0:
                out += V * mp_binom_cdf(left - 1, n, S) + (1 - V) * mp_binom_cdf(left, n, S)
            if right <= n + 1:
                out += V * mp_binom_sf(right - 1, n, S) + (1 - V) * mp_binom_sf(right, n, S)
            return out

        mean = int(round(float(n * S + V)))
        total = mpmath.mpf(0)
        seen = mpmath.mpf(0)
        cutoff = mpmath.mpf(10) ** (-(digits + 10))
        # walk outward from the mean; stop when the remaining mass (h <= 1) is negligible: 1 - seen
        # is a cheap estimate (it cancels to the working precision), confirmed by the tails
        left, right = mean, mean + 1
        steps = 0
        while left >= 0 or right <= n + 1:
            steps += 1
            for m in ([left] if left >= 0 else []) + ([right] if right <= n + 1 else []):
                w, t = term(m, total)
                seen += w
                total += t
            left -= 1
            right += 1
            remaining = max(mpmath.mpf(0), 1 - seen)
            small = remaining < mpmath.mpf(10) ** (-(mpmath.mp.dps - 5)) and steps % 64 == 0
            if (total > 0 and remaining < cutoff * total) or small:
                remaining = unvisited(left, right)
                if total > 0 and remaining < cutoff * total:
                    break
                if total == 0 and remaining < mpmath.mpf(10) ** (-(digits + 300)):
                    break
        omitted = unvisited(left, right) + skipped[0]
    with mpmath.workdps(digits):
        return +total, +omitted


def _mp_psi(tp, tq, j, rho, gamma):
    """mpmath version of :func:`log_hockey_stick_binary_count` (value, not log)."""
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
    if a1 <= 0:  # gamma at the largest ratio to the working precision
        return mpmath.mpf(0)
    xs = a0 / a1
    a_star = xs * rho * (j + 1) / ((1 - rho) + xs * rho)
    k = int(mpmath.floor(a_star)) + 1
    return a1 * mp_binom_sf(k - 1, j, rho) - a0 * mp_binom_sf(k, j, rho)
