"""The Poisson-subsampled Gaussian mechanism (DP-SGD), composed, by privacy loss distributions.

One step releases ``sum_{i in batch} g(x_i) + N(0, sigma^2)`` with sensitivity 1, the batch
drawn by Poisson sampling with rate p. Under add/remove-one neighbours its two dominating pairs
(Mironov, Talwar, Zhang 2019; Koskela, Jalko, Honkela 2020; Zhu, Dong, Wang 2022, Proposition 30;
dp_accounting's ``GaussianPrivacyLoss`` with ``sampling_prob``) are

* ``"remove"``: P = (1 - p) N(0, sigma^2) + p N(1, sigma^2), Q = N(0, sigma^2)
  (the dataset with the extra record against the one without it);
* ``"add"``: P = N(0, sigma^2), Q = (1 - p) N(0, sigma^2) + p N(1, sigma^2).

The pairs are not symmetric for p < 1 (the trade-off function of one is the inverse of the
other's); a DP guarantee is the maximum over both (:meth:`SubsampledGaussian.delta`), the
f-DP guarantee min(f, f^-1)** (:meth:`SubsampledGaussian.tradeoff`).

**Pessimistic discretisation of the continuous loss.** Written in a variable y in which the loss
l(y) is increasing (y = x for "remove", y = -x for "add"), the set of y with loss in
((k-1) d, k d] is the interval (y_{k-1}, y_k] with y_k = l^{-1}(k d) in closed form; each y_k is
computed with a bound on its float error and rounded DOWN, so every y assigned to grid point k has
loss at most k d. The P-mass of
each cell is a difference of normal CDFs, taken in whichever tail avoids cancellation, with
scipy's ``ndtr`` error bound :func:`ndtr_rtol` (checked against mpmath in the tests); cells whose
relative error bound is above :data:`REL_TARGET` carry it as absolute error instead. The mass
beyond the top threshold (at most e^-50, as dp_accounting's default ``log_mass_truncation_bound``)
goes to +inf, the mass below the bottom threshold to the bottom grid point (its losses are below
it).

**Optimistic discretisation, second order** (:func:`dptheory.pld.profile_lower_pld`, shared with the
shuffle round). Rounding every loss down
to the grid gives a profile below the true one, but loses up to one interval of loss per step: N
d after N compositions, far too much for a useful upper bound of the trade-off function. Instead
the optimistic PLD is a set of non-negative masses m_k on the grid whose profile
delta'(eps) = sum_k m_k (1 - e^{eps - l_k})_+ is below the pair's at EVERY eps; then the
compositions are below too (delta of a composition is sum_a P_a delta_B(eps - l_a), monotone in
either factor's profile when the other's masses are non-negative; Zhu, Dong, Wang 2022, Theorem 10
for pairs). In y = e^eps the profile is convex, with slope -Q(L > log y); delta' is piecewise
linear with kinks at the grid points e^{l_k}. It is built as the convex minorant of the points
(e^{l_k}, delta_lo(l_k) - G_k): delta_lo a certified lower value of the profile at the grid
point (P(y > t) - e^{l} Q(y > t) is below the hockey-stick divergence for every threshold t,
so the threshold's rounding cannot hurt), G_k the lowering that keeps the chord between two
grid points below the convex profile: on an interval of length h over which the slope rises by
Q(cell), the chord is at most t (1 - t) h Q(cell) above the profile at the fraction t of the
interval (a kink at s leaves t (1 - s) h Q left of it and s (1 - t) h Q right of it, both at most
t (1 - t) h Q; a convex function is a mixture of kinks), so lowering both ends by h Q / 4 suffices:
G_k = max of the two neighbouring h Q, quartered. The error is second order in d, like the
pessimistic split's. Above the first grid point whose lowered value is negative (the top of the
support, where the chord bound exceeds the profile) the profile is bounded below by 0, and the
point before it by the tangent Q(L >= l_K) (e^{l_K} - y). The minorant's masses are exact floats;
their rounding is checked (derived here, docs/errata.md#derived-sgm-pld-tilt): the profile they define is computed at every grid point
in extended precision with an error bound and compared with the points of the minorant, and the
masses are scaled by the largest factor <= 1 that keeps it below (a relative correction, so that
the far tail, where the profile is below 1e-15, is kept for tilted compositions: an absolute margin
there cut the tails that tiny deltas read; an untilted PLD, whose compositions carry a uniform
absolute error, still drops the points below :data:`UNTILTED_FLOOR`). So the PLD carries no error
of its own.

**Tilts** (:meth:`SubsampledGaussian.tilt_for`). A composition's FFT error weighs at most
e^{-tilt epsilon} times its tilted bound in delta(epsilon); ``delta(epsilon)`` composes at the tilt
chosen for its epsilon, so that the error stays small relative to delta down to 1e-15 and below
(derived here: docs/errata.md#derived-sgm-pld-tilt).

**Renyi DP**: :meth:`SubsampledGaussian.rdp`, the exact divergence of Mironov, Talwar, Zhang (2019)
(:mod:`dptheory.subsampled_rdp`).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from scipy import special

from . import rounding, validate
from .pld import (DEFAULT_TAIL_MASS, PLD, UNTILTED_FLOOR, GridTooLarge, choose_tilt, max_delta, max_epsilon,  # noqa: F401
                  min_tradeoff_hull, profile_lower_pld, split_fraction)
from .results import Curve, Kind, Result, Status

_U = 2.0**-53
_NEG_INF = -math.inf

#: relative error per cell kept as relative (larger ones are carried as absolute error)
REL_TARGET = 1e-11

#: P-mass left beyond each end of the grid (dp_accounting's default log_mass_truncation_bound)
LOG_TAIL = -50.0

#: the most grid points of one step's PLD (its losses between the e^LOG_TAIL quantiles, on the
#: optimistic grid of a quarter of the interval too): a sigma so small that one step's losses span
#: more is not accounted by PLDs (sigma = 0.1, q = 0.01 spans 5.7e6 points of 2.5e-5 and took
#: 2.5 GB; sigma = 0.2 answers in 10 s within 1.1 GB; the RDP curve has no such limit)
MAX_STEP_POINTS = 1 << 22

#: the most work of one exact RDP curve: at an integer order lambda the binomial expansion has
#: lambda + 1 terms (a fractional order's series about as many), summed over the orders asked
#: (every order 2..1e4 is 5e7: minutes; 5e6 takes seconds)
RDP_TERMS_MAX = 5_000_000

DIRECTIONS = ("remove", "add")

#: exponential tilt of a single step's error model when none is given (compositions choose
#: theirs by :func:`dptheory.pld.choose_tilt`)
DEFAULT_TILT = 0.0

#: tilts :meth:`SubsampledGaussian.tilt_for` chooses from
EPSILON_TILTS = (0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)

#: largest log of the composed tilted moment used (the FFT inputs stay far from overflow)
MAX_LOG_MOMENT = 300.0

#: mass cut from each tail after an FFT convolution of the subsampled Gaussian's PLDs (the upper
#: tail goes to +inf, where it adds to delta at every epsilon: small enough for delta = 1e-12
#: after 1e5 steps)
TAIL_MASS = 1e-24

SOURCE = ("Poisson-subsampled Gaussian, add/remove dominating pairs (Zhu, Dong, Wang 2022, Proposition 30; Koskela, "
          "Jalko, Honkela 2020); PLD with pessimistic discretisation")


def ndtr_rtol(z):
    """Relative error bound of ``scipy.special.ndtr`` at z: 16 u (1 + z^2) (the computation of
    erfc(-z / sqrt 2) turns an ulp of z into z^2 ulps of the result); the largest error observed
    against mpmath on [-38, 8] is 3.3 u (1 + z^2) (tests/test_subsampled.py)."""
    z = np.asarray(z, dtype=float)
    return 16 * _U * (1 + z * z)


def _cdf_sf(z):
    """(Phi(z), Phi(-z)) and their absolute error bounds."""
    lo, hi = special.ndtr(z), special.ndtr(-z)
    rt = np.where(np.isfinite(z), ndtr_rtol(np.where(np.isfinite(z), z, 0.0)), 0.0)  # exact 0 and 1 at +-inf
    return lo, hi, lo * rt, hi * rt


def _interval_mass(a, b, mean, sigma):
    """P(a < X <= b) for X ~ N(mean, sigma^2), vectorised (a <= b, infinities allowed), and an
    absolute error bound: the difference is taken in the tail both ends lie in."""
    with np.errstate(invalid="ignore"):
        za = (a - mean) / sigma
        zb = (b - mean) / sigma
        # the float z is within dz of (a - mean) / sigma; Phi moves by at most phi(z) dz
        dza = np.where(np.isfinite(za), 4 * _U * (np.abs(za) + np.abs(mean) / sigma + 1), 0.0)
        dzb = np.where(np.isfinite(zb), 4 * _U * (np.abs(zb) + np.abs(mean) / sigma + 1), 0.0)
    fa, sa, efa, esa = _cdf_sf(za)
    fb, sb, efb, esb = _cdf_sf(zb)
    upper = za >= 0
    lower = ~upper & (zb <= 0)
    mid = ~upper & ~lower
    with np.errstate(invalid="ignore"):
        val = np.where(upper, sa - sb, np.where(lower, fb - fa, 1.0 - fa - sb))
        err = np.where(upper, esa + esb + 2 * _U * (sa + sb), np.where(lower, efa + efb + 2 * _U * (fa + fb),
                                                                          efa + esb + 4 * _U))
        fza, fzb = np.where(np.isfinite(za), za, 0.0), np.where(np.isfinite(zb), zb, 0.0)
        dens = np.exp(-0.5 * fza**2) * dza + np.exp(-0.5 * fzb**2) * dzb
    err = err + 0.4 * dens
    return np.maximum(val, 0.0), err


class _Direction:
    """One dominating pair, in the variable y where the loss is increasing.

    P (the law of y) is a mixture of N(mean_c, sigma^2) with weights w_c; the loss is
    ``sign * log(1 - p + p exp((2 x - 1) / (2 sigma^2)))`` with x = y ("remove", sign +1) or
    x = -y ("add", sign -1).
    """

    def __init__(self, sigma: float, p: float, direction: str):
        self.sigma, self.p, self.direction = sigma, p, direction
        mix = [(1.0 - p, 0.0), (p, 1.0)] if p < 1 else [(1.0, 1.0)]
        if direction == "remove":  # y = x: P the mixture, Q = N(0, sigma^2)
            self.components, self.q_components = mix, [(1.0, 0.0)]
        else:  # y = -x: P = N(0, sigma^2), Q the mixture reflected
            self.components, self.q_components = [(1.0, 0.0)], [(w, -m) for w, m in mix]

    def loss(self, y):
        """Float loss at y (used to place the grid only)."""
        s2 = self.sigma**2
        x = y if self.direction == "remove" else -y
        with np.errstate(over="ignore"):
            v = np.log1p(self.p * np.expm1((2 * x - 1) / (2 * s2)))
        return v if self.direction == "remove" else -v

    def threshold(self, loss_values):
        """l^{-1}(L) for grid losses L (given as the exact reals k d), with an absolute error
        bound; -inf below the loss's infimum, +inf above its supremum."""
        L = np.asarray(loss_values, dtype=float)
        p, s2 = self.p, self.sigma**2
        arg_l = L if self.direction == "remove" else -L
        # L itself is the rounded product k * d: |dL| <= u |L|
        dl = _U * np.abs(L)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            em = np.expm1(arg_l)
            A = em + p
            dA = 2 * _U * (np.abs(em) + p + np.abs(A)) + np.exp(arg_l) * dl * (1 + 2 * _U)
            ok = A > 2 * dA
            z = np.log(np.where(ok, A, 1.0)) - math.log(p)
            dz = dA / np.where(ok, A, 1.0) * 1.01 + 4 * _U * (np.abs(np.log(np.where(ok, A, 1.0))) + abs(math.log(p)) + np.abs(z))
            x = s2 * z + 0.5
            dx = s2 * dz + 4 * _U * (np.abs(s2 * z) + 0.5 + np.abs(x)) + 2 * _U * abs(s2) * np.abs(z)
        if self.direction == "remove":
            y, dy = x, dx
            # A <= 0: L at or below log(1 - p), the infimum: no y has a smaller loss
            y = np.where(ok, y, np.where(A <= 0, -np.inf, np.nan))
        else:
            y, dy = -x, dx
            y = np.where(ok, y, np.where(A <= 0, np.inf, np.nan))
        # undecided (A within its error of 0): marked nan, resolved by the caller's rounding
        return y, np.where(np.isfinite(dy), dy, 0.0)

    def mass(self, a, b, which="p"):
        """P(a < y <= b) (or Q's, ``which="q"``) and its absolute error."""
        val = np.zeros(np.broadcast(a, b).shape)
        err = np.zeros_like(val)
        for w, mean in (self.components if which == "p" else self.q_components):
            v, e = _interval_mass(a, b, mean, self.sigma)
            val = val + w * v
            err = err + w * e + 2 * _U * w * v
        return val, err

    def quantiles(self, log_tail: float):
        """y below which and above which P has mass at most e^log_tail each."""
        z = -special.ndtri(math.exp(log_tail)) if log_tail > -700 else math.sqrt(-2 * log_tail)
        means = [m for _, m in self.components]
        return min(means) - z * self.sigma - 1e-9, max(means) + z * self.sigma + 1e-9

    def pld(self, interval: float, pessimistic: bool, tilt: float) -> PLD:
        """The step's PLD; the discretisation does not depend on the tilt (only the error bound's
        weights do), so it is computed once per grid and kept."""
        d = interval
        cache = self.__dict__.setdefault("_kept", {})
        key = (d, bool(pessimistic))
        if not pessimistic:
            key = (d, False, tilt > 0)  # the untilted one drops the far tail (profile_lower_pld)
            if key not in cache:
                k_lo, grid, y, dy = self.grid(d)
                cache[key] = self._profile_lower_pld(d, k_lo, grid, y, dy, tilt)
            base = cache[key]
            return PLD(base.interval, base.offset, base.log_mass, base.log_inf_mass, pessimistic=False,
                       rel_error=0.0, abs_error=0.0, inf_error=0.0, tilt=tilt, note=base.note)
        if key not in cache:
            k_lo, grid, y, dy = self.grid(d)
            undecided = np.isnan(y)
            finite_y = np.nan_to_num(y, nan=0.0, posinf=np.inf, neginf=-np.inf)
            cache[key] = (k_lo, grid) + self._split_masses(d, grid, y, dy, undecided, finite_y)
        k_lo, grid, mass, cell_err, e_bottom, mi, inf_err = cache[key]
        # the split takes the float cell mass: its error twice (both shares), at tilted weights
        with np.errstate(over="ignore"):
            abs_err = float(np.sum(cell_err * np.exp(tilt * grid[1:])))
            abs_err += e_bottom * math.exp(tilt * grid[0])
        rel = 4 * _U
        with np.errstate(divide="ignore"):
            log_m = np.log(mass)
        note = (f"subsampled Gaussian ({self.direction}), sigma = {self.sigma:g}, p = {self.p:g}; "
                f"+inf holds the mass beyond the grid (at most e^{LOG_TAIL:g})")
        return PLD(d, k_lo, log_m, math.log(mi) if mi > 0 else _NEG_INF, pessimistic=True,
                   rel_error=rounding.up(rel), abs_error=rounding.up_nonneg(abs_err),
                   inf_error=rounding.up_nonneg(inf_err), tilt=tilt, note=note)

    def grid(self, d):
        """The grid indices and losses covering the loss between the e^-50 quantiles, and the
        thresholds y_k = l^{-1}(k d) with their error bounds."""
        y_lo, y_hi = self.quantiles(LOG_TAIL)
        with np.errstate(over="ignore"):
            l_lo, l_hi = float(self.loss(y_lo)), float(self.loss(y_hi))
        if not (l_hi - l_lo) / d <= MAX_STEP_POINTS:
            raise validate.DomainError(
                f"sigma = {self.sigma:g} is too small for the PLD accounting at q = {self.p:g}: one step's privacy "
                f"loss spans [{l_lo:.4g}, {l_hi:.4g}], more than {MAX_STEP_POINTS} points of the grid {d:g} (a larger "
                "sigma, or the exact RDP curve, which has no such limit)")
        k_lo, k_hi = math.floor(l_lo / d) - 1, math.ceil(l_hi / d) + 1
        k = np.arange(k_lo, k_hi + 1)
        grid = k * d
        y, dy = self.threshold(grid)
        return k_lo, grid, y, dy

    def _split_masses(self, d, grid, y, dy, undecided, finite_y):
        """The pessimistic split (module text): grid masses, each cell's absolute error (carried
        by both of its grid points), the bottom tail's error, the mass beyond the top and its error."""
        # an undecided threshold (nan) takes the one below it (thresholds increase, so that is
        # below the true one); its cell is not split but rounded up
        t = np.where(undecided, -np.inf, rounding.down(finite_y, dy))
        t = np.where(undecided, np.maximum.accumulate(t), t)
        t = np.minimum.accumulate(t[::-1])[::-1]
        a, b = t[:-1], t[1:]                        # cell (t_k, t_{k+1}] between grid k and k+1
        pm, pe = self.mass(a, b)
        qm, qe = self.mass(a, b, "q")
        # points of the cell below the true y_k have loss >= l_k - eta_k (the loss has slope
        # <= 1 / sigma^2 in y; t_k is within 2 dy + a few ulps below y_k)
        gap = np.where(np.isfinite(t[:-1]), 2 * dy[:-1] + 8 * _U * np.abs(finite_y[:-1]), 0.0)
        eta = gap / self.sigma**2
        p_up = pm + pe
        with np.errstate(over="ignore", invalid="ignore"):
            q_lo = np.maximum(qm - qe - p_up * np.exp(-grid[:-1]) * np.expm1(eta) * 1.01, 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            l_eff = np.log(p_up) - np.log(q_lo)  # the cell's loss log(P/Q), at its largest
            l_err = 4 * _U * (np.abs(np.log(p_up)) + np.abs(np.log(q_lo)) + np.abs(l_eff))
        ok = np.isfinite(l_eff) & np.isfinite(l_err) & (p_up > 0)
        frac = np.where(ok, split_fraction(np.where(ok, l_eff, 0.0), np.where(ok, l_err, 0.0), grid[:-1], d), 1.0)
        hi = p_up * frac * (1 + 2 * _U)
        no_split = undecided[:-1] | ~np.isfinite(hi)
        m_hi = np.where(no_split, pm, np.minimum(pm, np.nan_to_num(hi)))
        m_lo = pm - m_hi
        bottom, e_bottom = self.mass(np.array([-np.inf]), t[:1])
        top, e_top = self.mass(t[-1:], np.array([np.inf]))
        mass = np.zeros(len(grid))
        mass[0] += bottom[0]
        mass[:-1] += m_lo
        mass[1:] += m_hi
        cell_err = 2.02 * pe + 4 * _U * pm
        return mass, cell_err, float(e_bottom[0]), float(top[0]), float(e_top[0])

    def _profile_lower_pld(self, d, k_lo, grid, y, dy, tilt) -> PLD:
        """The second-order optimistic PLD (module text): delta_lo and the Q-masses of the loss
        cells from the thresholds, then :func:`profile_lower_pld`."""
        finite = np.isfinite(y)
        t = np.where(np.isnan(y), np.inf, y)  # an undecided threshold: any t gives a lower value
        # delta(l_k) >= P(y > t) - e^{l_k} Q(y > t), minus the masses' errors
        inf_arr = np.full(t.shape, np.inf)
        ps, pe = self.mass(t, inf_arr)
        qs, qe = self.mass(t, inf_arr, "q")
        with np.errstate(over="ignore", invalid="ignore"):
            el = np.exp(grid)
            delta_lo = ps - el * qs - (pe + el * qe * (1 + 2 * _U)) - 4 * _U * (ps + el * qs)
        delta_lo = np.where(np.isfinite(delta_lo), delta_lo, -np.inf)
        # Q(l_j < L <= l_{j+1}) <= Q(t_j^- < y <= t_{j+1}^+): the thresholds widened outwards
        t_dn = np.where(finite, rounding.down(np.where(finite, y, 0.0), dy), np.where(np.isnan(y), -np.inf, y))
        t_up = np.where(finite, rounding.up(np.where(finite, y, 0.0), dy), np.where(np.isnan(y), np.inf, y))
        qc, qce = self.mass(t_dn[:-1], t_up[1:], "q")
        q_cell = qc + qce
        q_below, qbe = self.mass(np.array([-np.inf]), t_up[:1], "q")
        # Q(L >= l_k) >= Q(y > t_k^+) (a lower bound, for the tangent at the top)
        q_tail, q_tail_e = self.mass(t_up, inf_arr, "q")
        q_tail_lo = np.maximum(q_tail - q_tail_e, 0.0)
        note = (f"subsampled Gaussian ({self.direction}), sigma = {self.sigma:g}, p = {self.p:g}; profile below the "
                "pair's at every epsilon (second-order optimistic discretisation)")
        return profile_lower_pld(d, k_lo, delta_lo, q_cell, float(q_below[0] + qbe[0]), q_tail_lo, 1.0, tilt, note)


def symmetrised_step_pld(sigma: float, p: float, interval: float, pessimistic: bool, tilt: float = 0.0) -> PLD:
    """One step of the per-step symmetrised subsampled Gaussian C_p(G_{1/sigma}) = min{f, f^-1}**
    (Dong, Roth, Su 2022, Appendix F; a symmetric per-step curve, as Kaissis et al. 2024 assume of every
    mechanism, more pessimistic than symmetrising after composition), with f
    the trade-off function of the "add" pair (N(0, s^2), mixture). Its Bayes error is
    R_C(pi) = R_f(max(pi, 1 - pi)) (R_f(pi) <= R_f(1 - pi) for pi >= 1/2: Dong et al.'s form of
    C_p, f on [0, x*], a slope -1 segment, then f^-1; checked numerically in the tests).

    * pessimistic: the construction D(g) from the pessimistic "add" PLD g (a pair below f): its
      atoms of negative loss (the segments of slope < -1), their mirror images (loss -l, P-mass
      m e^{-l}) and an atom of loss 0 with the remaining mass. R_D(pi) = R_g(max(pi, 1 - pi))
      (for pi >= 1/2 the mirror and zero atoms contribute (1 - pi) times their Q-mass, as the
      atoms of g with l >= 0 do), so D(g) <= C(f): a dominating pair. Errors: each cell's error
      counts for the atom, its mirror (times e^{-l}) and the zero atom.
    * optimistic: :func:`profile_lower_pld` on the profile of C(f): for eps >= 0 it is f's,
      H(mixture || N(0, s^2)), the "remove" direction's (thresholds of that direction); for
      eps < 0, 1 - e^eps + e^eps delta(-eps) (symmetry); the Q-mass of a loss cell is the remove
      pair's Q-mass there (l >= 0) or its P-mass on the mirrored cell (l < 0; the atom at 0 sits
      on a grid point and does not count inside a cell).
    """
    sg = validate.positive("sigma", sigma)
    pr = validate.probability("p", p, open_low=True, open_high=True)
    d = validate.positive("interval", interval)
    note = f"per-step symmetrised subsampled Gaussian C_p, sigma = {sg:g}, p = {pr:g}"
    if pessimistic:
        add = _Direction(sg, pr, "add")
        k_lo, grid, y, dy = add.grid(d)
        undecided = np.isnan(y)
        finite_y = np.nan_to_num(y, nan=0.0, posinf=np.inf, neginf=-np.inf)
        mass, cell_err, e_bottom, _, _ = add._split_masses(d, grid, y, dy, undecided, finite_y)
        k = np.arange(k_lo, k_lo + len(grid))
        neg = k < 0
        kn = k[neg]
        mn = mass[neg]
        mirror = mn * np.exp(-grid[neg])
        total = math.fsum(mn.tolist()) + math.fsum(mirror.tolist())
        zero = 1.0 - total
        if zero < -1e-12:
            raise ArithmeticError(f"{note}: the steep part and its mirror exceed mass 1 ({total!r})")
        k_max = int(-kn.min()) if len(kn) else 0
        out = np.zeros(2 * k_max + 1)  # grid indices -k_max .. k_max
        out[kn + k_max] += mn
        out[-kn + k_max] += mirror
        out[k_max] += max(zero, 0.0)
        # errors: cells with a negative end, weighted by 1 + e^{-l} at their lower end, twice (the
        # atom and its mirror, and the zero atom that takes the rest), the bottom tail likewise
        lower_neg = k[:-1] < 0
        with np.errstate(over="ignore"):
            w = 1.0 + np.exp(-grid[:-1][lower_neg])
            abs_err = 2.0 * float(np.sum(cell_err[lower_neg] * w)) + 2.0 * e_bottom * (1.0 + math.exp(-grid[0]))
        abs_err += 16 * _U * (total + 1.0) + max(-zero, 0.0)
        with np.errstate(divide="ignore"):
            log_m = np.log(out)
        return PLD(d, -k_max, log_m, _NEG_INF, pessimistic=True, rel_error=8 * _U,
                   abs_error=rounding.up_nonneg(abs_err), inf_error=0.0, tilt=tilt, note=note + " (pessimistic)")
    rem = _Direction(sg, pr, "remove")
    _, g_rem, _, _ = rem.grid(d)
    k_max = int(round(g_rem[-1] / d)) + 1
    k = np.arange(-k_max, k_max + 1)
    grid = k * d
    pos = k >= 0
    y, dy = rem.threshold(grid[pos])
    finite = np.isfinite(y)
    t = np.where(np.isnan(y), np.inf, y)
    t_dn = np.where(finite, rounding.down(np.where(finite, y, 0.0), dy), np.where(np.isnan(y), -np.inf, y))
    t_up = np.where(finite, rounding.up(np.where(finite, y, 0.0), dy), np.where(np.isnan(y), np.inf, y))
    inf_arr = np.full(t.shape, np.inf)
    ps, pe = rem.mass(t, inf_arr)
    qs, qe = rem.mass(t, inf_arr, "q")
    el = np.exp(grid[pos])
    d_pos = ps - el * qs - (pe + el * qe * (1 + 2 * _U)) - 4 * _U * (ps + el * qs)
    d_pos = np.where(np.isfinite(d_pos), d_pos, -np.inf)
    # eps < 0: 1 - e^eps + e^eps delta(-eps) (the grid is symmetric: -l_k is a grid point)
    e_neg = np.exp(grid[~pos])
    mirror_vals = d_pos[1:][::-1]                              # delta at -l for l = -k_max .. -1
    d_neg = (-np.expm1(grid[~pos])) * (1 - 2 * _U) + e_neg * np.where(mirror_vals > 0, mirror_vals * (1 - 2 * _U),
                                                                      mirror_vals * (1 + 2 * _U))
    delta_lo = np.concatenate([d_neg, d_pos])
    # Q-mass of the open loss cells (l_j, l_{j+1})
    qc, qce = rem.mass(t_dn[:-1], t_up[1:], "q")              # cells with l_j >= 0
    pc, pce = rem.mass(t_dn[:-1], t_up[1:])                   # their mirror images carry the P-mass
    q_cell = np.concatenate([(pc + pce)[::-1], qc + qce])
    q_below, qbe = rem.mass(t_dn[-1:], np.array([np.inf]))    # Q_C(L <= -k_max d) = P_r(L_r >= k_max d)
    q_tail_pos, q_tail_e = rem.mass(t_up, inf_arr, "q")       # Q_C(L >= l) >= Q_r(y > t_up(l)), l >= 0
    p_tail_neg, p_tail_e = rem.mass(t_dn, inf_arr)            # Q_C(L >= -l) >= 1 - P_r(y > t_dn(l))
    q_tail_lo = np.concatenate([np.maximum(1.0 - (p_tail_neg + p_tail_e)[1:][::-1], 0.0),
                                np.maximum(q_tail_pos - q_tail_e, 0.0)])
    return profile_lower_pld(d, -k_max, delta_lo, q_cell, float(q_below[0] + qbe[0]), q_tail_lo, 1.0, tilt,
                             note + " (profile below the pair's at every epsilon)")


def _two_sided_note(d, d_opt) -> str:
    return (f"lower end: optimistic PLDs (grid {d_opt:g}), upper end: pessimistic PLDs (grid {d:g}); "
            "an interval of the true value, both discretisations and all float error included")


class SubsampledGaussian:
    """The Poisson-subsampled Gaussian mechanism with noise ``sigma``, rate ``p``, sensitivity 1,
    composed over ``steps`` steps (DP-SGD), under add/remove-one neighbours.

    Parameters
    ----------
    sigma : float
        Noise standard deviation (in units of the sensitivity), > 0.
    p : float
        Poisson sampling rate, in (0, 1] (p = 1: the Gaussian mechanism).
    steps : int
        Number of composed steps, >= 1.
    """

    def __init__(self, sigma, p, steps=1):
        self.sigma = validate.positive("sigma", sigma)
        self.p = validate.probability("p", p, open_low=True)
        self.steps = validate.integer("steps", steps, low=1)
        self._cache: dict = {}

    def __repr__(self) -> str:
        return f"SubsampledGaussian(sigma={self.sigma!r}, p={self.p!r}, steps={self.steps})"

    @property
    def name(self) -> str:
        return f"sgm(sigma={self.sigma:g},p={self.p:g},steps={self.steps})"

    def step_pld(self, *, interval=None, pessimistic=True, direction="remove", tilt=None) -> PLD:
        """The PLD of one step for the pair ``direction`` ("remove" or "add", see the module
        docstring; "symmetrised": the per-step symmetrisation C_p of :func:`symmetrised_step_pld`,
        a symmetric pair), discretised on the grid ``k * interval`` (default 1e-4)."""
        d = 1e-4 if interval is None else validate.positive("interval", interval)
        if direction not in DIRECTIONS + ("symmetrised",):
            raise validate.DomainError(f"direction = {direction!r} is invalid: must be 'remove', 'add' or "
                                       "'symmetrised'")
        lam = DEFAULT_TILT if tilt is None else validate.real("tilt", tilt, low=0.0, high=50.0)
        if direction == "symmetrised":
            if self.p == 1:
                raise validate.DomainError("p = 1 is invalid for direction 'symmetrised': the Gaussian mechanism is "
                                           "symmetric already (use direction 'remove')")
            return symmetrised_step_pld(self.sigma, self.p, d, bool(pessimistic), lam)
        key = ("direction", direction)
        if key not in self._cache:
            self._cache[key] = _Direction(self.sigma, self.p, direction)
        return self._cache[key].pld(d, bool(pessimistic), lam)

    def _step0(self, interval, pessimistic, direction) -> PLD:
        key = ("step", interval, bool(pessimistic), direction)
        if key not in self._cache:
            self._cache[key] = self.step_pld(interval=interval, pessimistic=pessimistic, direction=direction, tilt=0.0)
        return self._cache[key]

    def tilt_for(self, epsilon, *, interval=None, direction="remove") -> float:
        """The tilt of :data:`EPSILON_TILTS` that certifies delta(epsilon) best: the FFT error of the
        tilted composition weighs at most e^{T log M(tilt) - tilt epsilon} in delta(epsilon)
        (M the step's tilted moment), a Chernoff bound on the tail that delta(epsilon) reads, so
        the tilt minimising it keeps the error small RELATIVE to delta (derived here); tilts whose
        composed moment would pass e^:data:`MAX_LOG_MOMENT` are not used."""
        e = validate.real("epsilon", epsilon)
        step = self._step0(interval, True, direction)
        best, best_val = 0.0, 0.0
        for lam in EPSILON_TILTS:
            mom = self.steps * step.log_moment(lam)
            if mom > MAX_LOG_MOMENT:
                break
            if mom - lam * e < best_val:
                best, best_val = lam, mom - lam * e
        return best

    def _composed(self, interval, pessimistic, direction, tilt, tail_mass) -> PLD:
        step = self._step0(interval, pessimistic, direction)
        lam = choose_tilt(step, self.steps) if tilt is None else validate.real("tilt", tilt, low=0.0, high=50.0)
        if lam != 0.0:
            step = self.step_pld(interval=interval, pessimistic=pessimistic, direction=direction, tilt=lam)
        # the small tail cut serves tilted compositions (errors relative to the tail's masses);
        # untilted ones have a uniform absolute error, which a longer support only raises
        if tail_mass is None:
            tail_mass = TAIL_MASS if lam > 0 else DEFAULT_TAIL_MASS
        try:
            return step.with_tail_mass(tail_mass).self_compose(self.steps)
        except GridTooLarge as exc:
            raise validate.DomainError(
                f"steps = {self.steps} is too many for the PLD accounting at sigma = {self.sigma:g}, q = {self.p:g}: "
                f"{exc} (fewer steps, or the exact RDP curve, which has no such limit)") from None

    def pld(self, *, interval=None, pessimistic=True, direction="remove", tilt=None, tail_mass=None) -> PLD:
        """The PLD of ``steps`` composed steps for the pair ``direction`` (default "remove": P the
        subsampled mixture, Q = N(0, sigma^2)). For a guarantee over both neighbouring
        directions use :meth:`plds`, :meth:`delta`, :meth:`epsilon` or :meth:`tradeoff`.
        ``tilt`` (default: :func:`dptheory.pld.choose_tilt`) sets where FFT round-off is smallest: a larger
        tilt certifies smaller deltas at large epsilon, tilt 0 gives a uniform error (used for
        the trade-off function, whose small-alpha end reads the low losses); :meth:`tilt_for`
        gives the best one for one epsilon. The tails cut after each FFT convolution of a tilted
        composition hold at most :data:`TAIL_MASS` each (the upper one goes to +inf), of an
        untilted one :data:`dptheory.pld.DEFAULT_TAIL_MASS` (``tail_mass`` sets another)."""
        tm = None if tail_mass is None else validate.real("tail_mass", tail_mass, low=0.0, high=1e-3)
        key = (interval, bool(pessimistic), direction, tilt, tm)
        if key not in self._cache:
            self._cache[key] = self._composed(interval, pessimistic, direction, tilt, tm)
        return self._cache[key]

    def plds(self, *, interval=None, pessimistic=True, tilt=None) -> tuple[PLD, PLD]:
        """The composed PLDs of both directions (remove, add)."""
        return tuple(self.pld(interval=interval, pessimistic=pessimistic, direction=d, tilt=tilt) for d in DIRECTIONS)

    def _plds_at(self, epsilon, interval, pessimistic) -> tuple[PLD, PLD]:
        """Both directions' PLDs, each with the tilt of :meth:`tilt_for` at ``epsilon``; where that
        leaves delta(epsilon)'s enclosure wider than 0.1 % (the Chernoff estimate ignores how
        the FFT error depends on the tilted masses' spread), also twice that tilt, keeping the
        smaller upper end (pessimistic) or the larger lower end (optimistic): each a valid bound."""
        out = []
        for d in DIRECTIONS:
            lam = self.tilt_for(epsilon, interval=interval, direction=d)
            best = self.pld(interval=interval, pessimistic=pessimistic, direction=d, tilt=lam)
            lo, hi = best.log_delta_enclosure(epsilon)
            step = self._step0(interval, True, d)
            if (not hi - lo <= 1e-3 and 0 < lam < EPSILON_TILTS[-1]
                    and self.steps * step.log_moment(2 * lam) <= MAX_LOG_MOMENT):
                other = self.pld(interval=interval, pessimistic=pessimistic, direction=d, tilt=2 * lam)
                lo2, hi2 = other.log_delta_enclosure(epsilon)
                if (hi2 < hi) if pessimistic else (lo2 > lo):
                    best = other
            out.append(best)
        return tuple(out)

    def delta(self, epsilon, *, interval=None, pessimistic=True) -> Result:
        """delta(epsilon) over add/remove neighbours: the larger of the two directions' deltas
        (upper bound when pessimistic, lower bound when optimistic), each direction composed with
        the tilt of :meth:`tilt_for` (its float error small relative to delta)."""
        e = validate.real("epsilon", epsilon)
        res = max_delta(self._plds_at(e, interval, pessimistic), e)
        return res.replace(method="sgm-pld", source=SOURCE, params={**res.params, **self._params()})

    def epsilon(self, delta, *, interval=None, pessimistic=True) -> Result:
        """epsilon(delta) over add/remove neighbours (the larger of the two directions'), with the
        default tilts (:func:`dptheory.pld.choose_tilt`); where that answer is wider than 1e-3
        relative, again with the tilts of :meth:`tilt_for` at it, keeping the tighter certified
        answer (each is a valid bound)."""
        d = validate.delta("delta", delta)
        plds = self.plds(interval=interval, pessimistic=pessimistic)
        res = max_epsilon(plds, d)
        if math.isfinite(res.upper) and not res.upper - res.lower <= 1e-3 * res.upper:
            at = self._plds_at(res.upper if pessimistic else res.lower, interval, pessimistic)
            if any(p is not q for p, q in zip(at, plds)):
                again = max_epsilon(at, d)
                if (again.upper < res.upper) if pessimistic else (again.lower > res.lower):
                    res = again
        return res.replace(method="sgm-pld", source=SOURCE, params={**res.params, **self._params()})

    def delta_interval(self, epsilon, *, interval=None, optimistic_interval=None) -> Result:
        """A certified interval of the TRUE delta(epsilon) (add/remove neighbours), kind exact: the
        lower end from the optimistic PLDs (profiles below the pairs' at every epsilon, so every
        composition is below too; grid ``optimistic_interval``, default a quarter of ``interval``:
        the optimistic construction loses a first-order term per step), the upper end from the
        pessimistic ones (dominating pairs), each the maximum over both directions."""
        e = validate.real("epsilon", epsilon)
        d = 1e-4 if interval is None else validate.positive("interval", interval)
        d_opt = d / 4 if optimistic_interval is None else validate.positive("optimistic_interval", optimistic_interval)
        up = self.delta(e, interval=d)
        lo = self.delta(e, interval=d_opt, pessimistic=False)
        low = min(lo.lower, up.upper)
        return Result.from_log("delta", min(lo.log_lower, up.log_upper), up.log_upper, kind=Kind.EXACT,
                               status=Status.PROVEN, method="sgm-pld-two-sided", source=SOURCE,
                               note=_two_sided_note(d, d_opt),
                               params={"epsilon": e, "interval": d, "optimistic_interval": d_opt,
                                       **self._params()}).replace(lower=low, upper=up.upper)

    def epsilon_interval(self, delta, *, interval=None, optimistic_interval=None) -> Result:
        """A certified interval of the TRUE epsilon(delta), kind exact: the optimistic PLDs' lower
        end and the pessimistic PLDs' upper end (see :meth:`delta_interval`)."""
        dl = validate.delta("delta", delta)
        d = 1e-4 if interval is None else validate.positive("interval", interval)
        d_opt = d / 4 if optimistic_interval is None else validate.positive("optimistic_interval", optimistic_interval)
        up = self.epsilon(dl, interval=d)
        lo = self.epsilon(dl, interval=d_opt, pessimistic=False)
        return Result("epsilon", min(lo.lower, up.upper), up.upper, Kind.EXACT, Status.PROVEN, "sgm-pld-two-sided",
                      SOURCE, _two_sided_note(d, d_opt),
                      params={"delta": dl, "interval": d, "optimistic_interval": d_opt, **self._params()})

    def tradeoff(self, *, interval=None):
        """A certified LOWER bound on the symmetrised trade-off function min(f, f^-1)** of the
        composed mechanism, f = T(remove pair): the convex minorant of the minimum of the two
        directions' certified lower bounds (:meth:`dptheory.pld.PLD.tradeoff`)."""
        remove, add = self.plds(interval=interval, pessimistic=True, tilt=0.0)
        return min_tradeoff_hull(remove.tradeoff(), add.tradeoff())

    def rdp(self, orders, *, bound: str = "exact") -> Curve:
        """The Renyi DP curve of the ``steps``-fold composition at ``orders`` (each > 1): ``steps``
        times the one-step divergence (Mironov 2017, Proposition 1; the worst pair of one step is
        the worst pair of every step).

        ``bound="exact"`` (default): the exact divergence of Mironov, Talwar, Zhang (2019),
        Section 3.3 (:func:`dptheory.subsampled_rdp.sgm_rdp`; integer orders by the binomial
        expansion, fractional orders by two series with a certified truncation), kind ``exact``.
        ``bound="zhu-wang"``: the general upper bound of Zhu and Wang (2019) for any
        Poisson-subsampled mechanism (integer orders only), kind ``upper``: looser from order 3.
        """
        from . import subsampled_rdp

        o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
        work = float(np.sum(np.ceil(np.minimum(o, 1e300)) + 1))
        if bound == "exact" and work > RDP_TERMS_MAX:
            raise validate.DomainError(
                f"orders: {o.size} orders up to {float(np.max(o)):g} are too many for the exact RDP curve, whose "
                f"sum at order lambda has about lambda terms: {work:.3g} terms in all (at most {RDP_TERMS_MAX:g}; "
                "e.g. every integer order up to 3000, or a range with a step, 2..1e4:50)")
        if bound == "exact":
            lo, hi = subsampled_rdp.sgm_rdp(self.sigma, self.p, o)
            kind, source, method = Kind.EXACT, subsampled_rdp.SOURCE, "sgm-rdp"
        elif bound == "zhu-wang":
            hi = subsampled_rdp.zhu_wang_rdp(self.sigma, self.p, o)
            lo = np.zeros_like(hi)
            kind, source, method = Kind.UPPER, subsampled_rdp.ZHU_WANG_SOURCE, "sgm-rdp-zhu-wang"
        else:
            raise validate.DomainError(f"bound = {bound!r} is invalid: must be 'exact' or 'zhu-wang'")
        t = self.steps
        lo = rounding.down_nonneg(t * lo, rel_err=2 * _U)
        hi = rounding.up(t * hi, rel_err=2 * _U)
        note = f"one step's divergence times {t} steps" if t > 1 else ""
        return Curve("rdp", "order", o, lo, hi, kind, Status.PROVEN, method, source, note, params=self._params())

    def epsilon_via_rdp(self, delta, orders=None, *, bound: str = "exact") -> Result:
        """epsilon(delta) from the RDP curve (:meth:`rdp`, default orders
        :func:`dptheory.rdp.default_orders`) by the one RDP -> (epsilon, delta) route
        (:func:`dptheory.rdp.epsilon_from_rdp`): an upper bound, looser than the PLD's."""
        from .rdp import default_orders, epsilon_from_rdp

        d = validate.delta("delta", delta)
        res = epsilon_from_rdp(self.rdp(default_orders() if orders is None else orders, bound=bound), d)
        return res.replace(params={**res.params, **self._params()})

    def delta_via_rdp(self, epsilon, orders=None, *, bound: str = "exact") -> Result:
        """delta(epsilon) from the RDP curve by :func:`dptheory.rdp.delta_from_rdp` (an upper bound)."""
        from .rdp import default_orders, delta_from_rdp

        e = validate.real("epsilon", epsilon)
        res = delta_from_rdp(self.rdp(default_orders() if orders is None else orders, bound=bound), e)
        return res.replace(params={**res.params, **self._params()})

    def _params(self) -> dict:
        return {"sigma": self.sigma, "p": self.p, "steps": self.steps}


@dataclasses.dataclass(frozen=True)
class SGMReport:
    """What ``dptheory mechanism sgm`` prints: the mechanism's parameters and, for one question,
    the certified answers (``results``: Results of epsilon or delta, or ``curves``: RDP Curves)."""

    params: dict
    question: str
    results: tuple = ()
    curves: tuple = ()

    def as_dict(self) -> dict:
        return {"mechanism": "sgm", "params": dict(self.params), "question": self.question,
                "results": [r.as_dict() for r in self.results], "curves": [c.as_dict() for c in self.curves]}


def sgm_report(sigma, q, steps, *, delta=None, epsilon=None, orders=None) -> SGMReport:
    """The DP-SGD accounting of ``steps`` Poisson-subsampled Gaussian steps (noise ``sigma``, rate
    ``q``) for exactly one question:

    * ``delta``: epsilon(delta) as a certified interval of the true value (optimistic and
      pessimistic PLDs, :meth:`SubsampledGaussian.epsilon_interval`) and the upper bound through
      the exact RDP curve (:meth:`SubsampledGaussian.epsilon_via_rdp`);
    * ``epsilon``: delta(epsilon), likewise (:meth:`SubsampledGaussian.delta_interval`,
      :meth:`SubsampledGaussian.delta_via_rdp`);
    * ``orders``: the exact RDP curve (Mironov, Talwar, Zhang 2019) and, at the integer orders, the
      Zhu-Wang general bound.
    """
    s = validate.positive("sigma", sigma)
    rate = validate.probability("q", q, open_low=True)
    t = validate.integer("steps", steps, low=1)
    asked = [name for name, v in (("delta", delta), ("epsilon", epsilon), ("orders", orders)) if v is not None]
    if len(asked) != 1:
        raise validate.DomainError(f"{' and '.join(asked) or 'no question'} given: give exactly one of delta, "
                                   "epsilon or orders")
    mech = SubsampledGaussian(s, rate, t)
    params = {"sigma": s, "q": rate, "steps": t}
    if delta is not None:
        d = validate.delta("delta", delta)
        return SGMReport({**params, "delta": d}, "epsilon", (mech.epsilon_interval(d), mech.epsilon_via_rdp(d)))
    if epsilon is not None:
        e = validate.real("epsilon", epsilon)
        return SGMReport({**params, "epsilon": e}, "delta", (mech.delta_interval(e), mech.delta_via_rdp(e)))
    o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
    curves = [mech.rdp(o)]
    ints = o[(o == np.floor(o)) & (o >= 2)]
    if ints.size and rate < 1:
        curves.append(mech.rdp(ints, bound="zhu-wang"))
    return SGMReport(params, "rdp", curves=tuple(curves))
