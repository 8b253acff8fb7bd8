"""Composition of T rounds of the shuffle model, by the privacy loss distribution of a clone pair.

Each round, n users apply an eps0-DP local randomizer (chosen adaptively from earlier outputs,
if wished) and a shuffler releases the multiset of reports. For neighbouring datasets (one user's
data replaced), one round's output is a post-processing of a clone pair (P, Q): the counts (a, b)
with

    P = (A + D, C - A + 1 - D),  Q = (A + 1 - D, C - A + D),
    C ~ Bin(n - 1, q),  A ~ Bin(C, 1/2),  D ~ Bern(e^eps0 / (e^eps0 + 1)),

the shuffle dominating pair of a reduction (``reduction``, :data:`REDUCTIONS`):

* ``"clones"`` (the default): q = e^-eps0, Feldman, McMillan, Talwar (2021, Theorem 3.1), proven
  for every eps0-LDP randomizer (:func:`dptheory.shuffle.clones.clone_pair`);
* ``"stronger-clones"``: q = 2/(e^eps0 + 1), Feldman, McMillan, Talwar (2023), the pair of Wang et
  al.'s f-DP of shuffling; its general proof was withdrawn, so it is **unproven** for a general
  eps0-LDP randomizer (:func:`dptheory.shuffle.clones.stronger_clone_status`, the one place
  that decides it).

So (P, Q) is a dominating pair of every round, and the T-fold product (P^T, Q^T) one of the
T-round protocol, adaptive composition included (Zhu, Dong, Wang 2022, Theorem 10). The pair is
symmetric (swapping the two coordinates maps P to Q, A to C - A), so one ordered pair covers
both neighbouring directions. The same pair, composed in RDP, is Chen, Cao, Ge (2024)'s route
(:func:`dptheory.shuffle.rdp.rdp_route_epsilon` with ``bound="chen-exact"``); Koskela,
Heikkila, Honkela ("Tight accounting in the shuffle model of differential privacy", 2023) compute
the PLD of the FMT21 pair with the FFT accountant (without certified error; docs/pld.md compares).

**The PLD of the pair** (derived here). The total count K = C + 1 is observed and has the same law
under P and Q; given K = m, a has P-pmf Bin(m, 1/2)(a) 2 (theta_p a + theta_q (m - a)) / m and
the loss depends on a/m only:

    L(a, m) = log((e^eps0 a + m - a) / (a + e^eps0 (m - a))) in [-eps0, eps0].

Given K = m the pair is "the victim's message plus m - 1 fair clones"; with fewer clones it is
more informative (adding a fresh fair clone is a post-processing). So replacing every m of a
bucket [m_a, m_b] by m_a gives a pair that dominates (P, Q) (post-process by adding m - m_a
clones): the PLD used is the mixture over buckets of K (:func:`_count_buckets`: buckets of
relative width ``bucket_rtol`` across the bulk of K, one below and one above) of the conditional
PLDs at the buckets' lower ends, each over the values of a within a Hoeffding window around m/2,
pessimistically discretised (mass-preserving split, :class:`dptheory.pld.PLD`).

**What is left out, and where it goes** (pessimistic; the optimistic PLD drops it, which only
lowers its delta, and counts its Q-mass in every cell's chord correction): a tail bucket of K
whose mass is below :data:`TAIL_CUT`, and the values of a
outside the window (mass below 2 e^{-2 w^2} per tail), go to loss +inf (their P-mass, bounded from
above, is added to the +inf atom's error: splitting an atom into (p, 0) and (0, q) is a
dominating pair). This keeps the support to O(sqrt(n)) losses around 0 however large n is, so
that the cost does not grow with n and the deltas of compositions far below the FFT floor stay
small. **Float error**: each bucket's weight carries a relative error (the binomial range, up to
about 4e-8 at n = 1e12, the float64 limit of the clone probability), held as a relative error of
its masses (it composes as (1 + r)^T - 1); only a weight known to worse than 1e-3 goes to the
absolute error, in the tilted norm of its own masses.

**The optimistic PLD** (a lower bound of the composed clone pair's delta; derived here:
docs/errata.md#derived-rounds-cell-sums) is not the losses rounded down (a loss of about
T * interval / 2 in epsilon) but the second-order construction of the subsampled Gaussian
(:func:`dptheory.pld.profile_lower_pld`), fed with lower bounds of the sums of P - e^{l_k} Q and Q
per grid cell (:func:`dptheory.pld.atom_cell_sums`, :func:`dptheory.pld.cell_share_sums`,
:func:`dptheory.pld.cell_sums_lower_pld`): each mass lowered by its error bound (a bucket weight's
too: it scales both P and Q), so the PLD carries no error of its own.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .. import rounding, validate
from ..pld import (PLD, add_cell_sums, atom_cell_sums, cell_share_sums, cell_sums_lower_pld, choose_tilt,
                   discretise_atoms, discretise_cells)
from ..precision import binom_logcdf, binom_logpmf, binom_logsf, binom_tail_rtol
from ..results import Result, Status
from . import clones
from .binomial_sums import N_MAX, log_binom_range

_U = 2.0**-53
_NEG_INF = -math.inf

#: exponential tilt of the FFT error model (see :class:`dptheory.pld.PLD`)
DEFAULT_TILT = 4.0

#: relative width of the buckets of the total count (their effect on delta is of this order / n)
BUCKET_RTOL = 3e-4

#: half-width of the window of a, in units of sqrt(m): Hoeffding's tails 2 e^{-2 w^2} = 2 e^-120
#: (about 2.6e-52; at most m = 240 the window holds every value of a). Up to m = 20000 it was
#: e^-745, which held 2.5 times the values at n = 1e4 (half of one round's construction) for
#: masses that move delta only below 1e-49 after 1000 rounds
WINDOW = math.sqrt(60.0)

#: the window of a is processed in chunks of this many values (bounded memory at any n)
CHUNK = 1 << 20

#: largest number of grid points of the composed PLD (memory); see :func:`rounds_pld`
MAX_GRID = 1 << 22

#: a window of a whose grid cell at loss 0 holds at least this many values of a is discretised
#: cell by cell (:func:`_window_cells`: binomial range sums), others value by value
CELL_MIN_ATOMS = 64

#: values of a on each side of a cell boundary's float threshold left to the value-by-value path
CELL_GUARD = 2

#: counts whose pmf is below e^COARSE_BELOW times the largest are bucketed coarsely (widths
#: doubling outwards, :func:`_bucket_starts`): any bucketing is sound, and these carry too little
#: mass for the coarser buckets to move delta (a bucket's pair is its lowest count's)
COARSE_BELOW = math.log(1e-30)

#: runs of a shorter than this take their pmfs from one vectorised call, not the recurrence
SHORT_RUN = 64

#: up to this many clone counts the bucket weights are sums of the pmf, above it binomial tails
RANGE_SUM_MAX = 1 << 20

#: a tail bucket of the total count with less mass than this goes to loss +inf (pessimistic)
TAIL_CUT = 1e-80

#: a bucket weight (or an atom's mass) known to this relative error or better is held as a relative
#: error of the masses (it composes as (1 + r)^T - 1), a worse one as absolute error
WEIGHT_REL_CAP = 1e-3

#: the reductions (clone probabilities) a round may be built with; the proven one is the default
REDUCTIONS = clones.REDUCTIONS
DEFAULT_REDUCTION = "clones"

SOURCE = ("clone pair of the shuffled eps0-LDP protocol, composed over T rounds by its privacy loss distribution "
          "(pessimistic discretisation; Zhu, Dong, Wang 2022, Theorem 10)")


#: the largest number of composed rounds: the T-fold eps0-DP cap (:func:`pure_composition_log_delta`)
#: sums T + 1 terms, and the composed grid's span grows with T (a coarser grid past MAX_GRID)
ROUNDS_MAX = 10**6


def _check(eps0, n, rounds):
    e0 = validate.eps0("eps0", eps0)
    nn = validate.integer("n", n, low=1, high=N_MAX)
    T = validate.integer("rounds", rounds, low=1, high=ROUNDS_MAX)
    return e0, nn, T


def status(reduction=DEFAULT_REDUCTION):
    """Proof status (and note) of the composed rounds on the pair of ``reduction`` for a general
    eps0-LDP randomizer (:func:`dptheory.shuffle.clones.reduction_status`)."""
    return clones.reduction_status(reduction)


def _binomial_logpmf_range(m: int, a_lo: int, a_hi: int, prob: float = 0.5, centre=None):
    """log Bin(m, prob)(a) for a = a_lo .. a_hi and a bound on each value's absolute error: the
    value at the mode by :func:`dptheory.precision.binom_logpmf`, the others by the ratio
    recurrence pmf(a + 1) / pmf(a) = (m - a) prob / ((a + 1)(1 - prob)), summed outwards (the
    partial sums are monotone, so a sum of j terms has error at most
    2 u j (1 + max |term| + |sum|) + j |log odds error|). ``centre``: (c, log pmf(c)) computed
    before (several ranges at once), used where c is the mode and in the range."""
    c = min(max(int(math.floor((m + 1) * prob)), a_lo), a_hi)
    if centre is not None and centre[0] == c:
        centre = float(centre[1])
    else:
        centre = float(binom_logpmf(c, m, prob))
    centre_err = float(binom_tail_rtol(m))
    log_odds = math.log(prob) - math.log1p(-prob)
    odds_err = 4 * _U * (abs(math.log(prob)) + abs(math.log1p(-prob)) + 1)
    out = np.empty(a_hi - a_lo + 1)
    errs = np.empty_like(out)
    up = np.arange(c, a_hi, dtype=float)  # terms log((m - i)/(i + 1)), i = c .. a_hi - 1
    t_up = np.log((m - up) / (up + 1)) + log_odds
    s_up = np.cumsum(t_up)
    down = np.arange(c - 1, a_lo - 1, -1, dtype=float)  # i = c-1 .. a_lo: pmf(i) = pmf(i+1) (i+1)/(m-i)
    t_down = np.log((down + 1) / (m - down)) - log_odds
    s_down = np.cumsum(t_down)
    out[c - a_lo] = centre
    errs[c - a_lo] = centre_err
    if up.size:
        j = np.arange(1, up.size + 1)
        out[c - a_lo + 1:] = centre + s_up
        errs[c - a_lo + 1:] = centre_err + 2.02 * _U * j * (1 + float(np.max(np.abs(t_up))) + np.abs(s_up) + abs(centre)) + j * odds_err
    if down.size:
        j = np.arange(1, down.size + 1)
        out[:c - a_lo][::-1] = centre + s_down
        errs[:c - a_lo][::-1] = centre_err + 2.02 * _U * j * (1 + float(np.max(np.abs(t_down))) + np.abs(s_down) + abs(centre)) + j * odds_err
    return out, errs


def _atom_losses(a, m, E):
    """The losses L(a, m) = log((E a + m - a) / (a + E (m - a))) of the values ``a`` (floats) of
    the count of a total m, and a bound on each one's absolute error (exactly 0 at a = m/2)."""
    num, den = E * a + (m - a), a + E * (m - a)
    with np.errstate(divide="ignore"):
        log_num, log_den = np.log(num), np.log(den)
    centre = num == den
    loss = np.where(centre, 0.0, log_num - log_den)
    loss_err = np.where(centre, 0.0, 8 * _U * (np.abs(log_num) + np.abs(log_den) + 4))
    return loss, loss_err


def _atoms_per_cell(m: float, E: float, d: float) -> float:
    """How many values of a the grid cell at loss 0 holds: d m / L'(1/2) with L' = 4 (E - 1)/(E + 1)
    the slope of the loss in a/m at its centre (its smallest: each other cell holds fewer)."""
    return d * m * (E + 1) / (4 * (E - 1))


def _window_cells(m: int, a_lo: int, a_hi: int, E: float, dtheta: float, d: float):
    """The cells of the window [a_lo, a_hi] of a: runs of a whose losses all lie in one grid cell
    [k d, (k + 1) d], each summed at once (derived here):

        P-mass      = S - dtheta D / 2,
        P - e^l Q   = (1 - e^l) S - dtheta (1 + e^l) D / 2,    l = k d,

    with S = P[a1 <= Bin(m, 1/2) <= a2] (:func:`dptheory.shuffle.binomial_sums.log_binom_range`),
    D = Bin(m - 1, 1/2)(a2) - Bin(m - 1, 1/2)(a1 - 1) and dtheta = theta_p - theta_q, from the
    P-mass of a, Bin(m, 1/2)(a) (1 + 2 dtheta (a - m/2)/m), and the identity
    sum_{a <= k} (a - m/2) Bin(m, 1/2)(a) = -(m/4) Bin(m - 1, 1/2)(k). The share of the cell
    that the mass-preserving split sends up (:func:`dptheory.pld.split_fraction`, summed over
    the cell's atoms) is (P - e^l Q) / ((1 - e^-d) P); the errors of S cancel in it, and an upper
    bound is returned (a larger share up is the split of larger losses: pessimistic), and a lower
    bound (for the optimistic PLD's cell sums, :func:`dptheory.pld.cell_sums_lower_pld`).

    The float threshold of each cell boundary (the a where L(a, m) = l) is only a guess: the
    :data:`CELL_GUARD` values of a on each side of it, and every run whose end values' certified
    losses (:func:`_atom_losses`, the grid index taken as :func:`dptheory.pld.discretise_atoms`
    takes it) do not fall in one cell, are returned as runs for the atom-by-atom path. Returns
    ((k, log P-mass, its absolute log error, upper share, lower share) or None, runs of a left to the atoms).
    Derivation: docs/errata.md#derived-rounds-cell-sums."""
    ends = np.array([a_lo, a_hi], dtype=float)
    l_ends, _ = _atom_losses(ends, m, E)
    ks = np.arange(math.floor(l_ends[0] / d) + 1, math.floor(l_ends[1] / d) + 1, dtype=float)
    el = np.exp(ks * d)
    with np.errstate(invalid="ignore"):
        thr = np.ceil(m * ((E * el - 1) / ((E - 1) * (el + 1))))
    thr = np.clip(np.nan_to_num(thr, nan=a_lo), a_lo, a_hi + 1).astype(np.int64)
    edges = np.concatenate([[a_lo], thr, [a_hi + 1]])
    lo, hi = edges[:-1] + CELL_GUARD, edges[1:] - 1 - CELL_GUARD
    lo[0], hi[-1] = a_lo, a_hi
    live = hi - lo + 1 >= CELL_MIN_ATOMS
    lo, hi = lo[live], hi[live]
    if lo.size:
        # certify: both end values' losses within one cell (the loss increases with a)
        ends = np.concatenate([lo, hi]).astype(float)
        loss, loss_err = _atom_losses(ends, m, E)
        q = loss / d
        e_q = loss_err / d * (1 + 4 * _U)
        kk = np.floor(rounding.down(q, e_q, 4 * _U))
        top = np.ceil(rounding.up(q, e_q, 4 * _U))
        kk = np.where((loss == 0) & (loss_err == 0), 0.0, kk)
        top = np.where((loss == 0) & (loss_err == 0), 0.0, top)
        n_run = lo.size
        k_cell = kk[:n_run]
        ok = (kk[n_run:] == k_cell) & (top[:n_run] <= k_cell + 1) & (top[n_run:] <= k_cell + 1)
        lo, hi, k_cell = lo[ok], hi[ok], k_cell[ok]
    # what the cells leave: runs of a for the atom-by-atom path
    runs, start = [], a_lo
    for c_lo, c_hi in zip(lo.tolist(), hi.tolist()):
        if c_lo > start:
            runs.append((start, c_lo - 1))
        start = c_hi + 1
    if start <= a_hi:
        runs.append((start, a_hi))
    if not lo.size:
        return None, runs
    a1, a2 = lo.astype(float), hi.astype(float)
    log_s, log_s_err = log_binom_range(a1, a2, m, 0.5)
    tau = float(binom_tail_rtol(m - 1))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        r_s = np.exp(log_s_err - log_s)
        b2 = np.where(a2 <= m - 1, binom_logpmf(np.minimum(a2, m - 1.0), m - 1, 0.5), _NEG_INF)
        b1 = np.where(a1 >= 1, binom_logpmf(np.maximum(a1 - 1, 0.0), m - 1, 0.5), _NEG_INF)
        d2, d1 = np.exp(b2 - log_s), np.exp(b1 - log_s)
        # relative errors of the ratios pmf / S: the pmf's, S's, and the exp of the difference
        r_d = 1.01 * (math.expm1(tau) + r_s / (1 - r_s)) + 4 * _U * (
            2 + np.abs(np.where(np.isfinite(b1), b1 - log_s, 0.0)) + np.abs(np.where(np.isfinite(b2), b2 - log_s, 0.0)))
        spread = (d2 + d1) * r_d + 8 * _U * (d1 + d2)   # bounds the error of d2 - d1 (and dtheta's ulps)
        p_over_s = 1 - dtheta * (d2 - d1) / 2
        e_p = dtheta / 2 * spread + 4 * _U * (1 + dtheta * (d1 + d2))
        el = np.exp(k_cell * d)
        one_minus = -np.expm1(k_cell * d)
        num = one_minus - dtheta * (1 + el) * (d2 - d1) / 2
        e_num = (8 * _U * (np.abs(one_minus) + el * (1 + np.abs(k_cell * d)))
                 + dtheta * (1 + el) / 2 * spread + 8 * _U * dtheta * (1 + el) * (d1 + d2))
        den = -math.expm1(-d) * (1 - 4 * _U) * (p_over_s - e_p)
        r_p = r_s + e_p / p_over_s * (1 + r_s) + 8 * _U
        log_p = log_s + np.log(p_over_s)
    # a cell whose mass is not known to a factor 2, or is 0 in floats (not seen): value by value
    good = (r_p < 0.5) & (den > 0) & np.isfinite(log_p) & np.isfinite(num + e_num)
    frac = np.ones_like(log_p)
    frac[good] = np.clip(rounding.up((num[good] + e_num[good]) / den[good], rel_err=8 * _U), 0.0, 1.0)
    # the lower share (the optimistic PLD's P - e^l Q): the numerator's lower end over the
    # denominator's upper end
    den_hi = -math.expm1(-d) * (1 + 4 * _U) * (p_over_s + e_p)
    frac_lo = np.zeros_like(log_p)
    frac_lo[good] = np.clip(rounding.down((num[good] - e_num[good]) / den_hi[good], rel_err=8 * _U), 0.0, 1.0)
    log_p_err = -np.log1p(-np.minimum(np.where(good, r_p, 0.0), 0.5))
    if not np.all(good):
        runs = sorted(runs + list(zip(lo[~good].tolist(), hi[~good].tolist())))
        if not np.any(good):
            return None, runs
    return (k_cell[good].astype(np.int64), log_p[good], log_p_err[good], frac[good], frac_lo[good]), runs


def _bucket_starts(c_lo: int, c_hi: int, f_lo: int, f_hi: int, width: int) -> np.ndarray:
    """First counts of the buckets of [c_lo, c_hi]: of ``width`` from f_lo to (at least) f_hi, of
    twice, four times, ... ``width`` outwards from there."""
    fine = np.arange(f_lo, f_hi + 1, width)
    below, end, w = [], f_lo - 1, 2 * width
    while end >= c_lo:
        start = max(c_lo, end - w + 1)
        below.append(start)
        end, w = start - 1, 2 * w
    above, start, w = [], int(fine[-1]) + width, 2 * width
    while start <= c_hi:
        above.append(start)
        start, w = start + w, 2 * w
    return np.concatenate([np.array(below[::-1], dtype=np.int64), fine, np.array(above, dtype=np.int64)])


def _count_buckets(others: int, s: float, bucket_rtol: float):
    """Buckets [ma, mb] of the total count K = 1 + C, C ~ Bin(others, s), with log weights and
    log absolute errors: C within K_SD standard deviations of its mean in buckets of width
    max(1, bucket_rtol mean) (weights summed from the pmf recurrence, relative error), one
    bucket below and one above (weights from the binomial tails)."""
    mean, sd = others * s, math.sqrt(others * s * (1 - s))
    k_sd = 38.0 if 76 * sd <= 4096 else 20.0
    c_lo = max(0, int(math.floor(mean - k_sd * sd - 1)))
    c_hi = min(others, int(math.ceil(mean + k_sd * sd + 1)))
    width = max(1, int(bucket_rtol * (mean + 1)))
    if c_hi - c_lo <= RANGE_SUM_MAX:
        lp, lp_err = _binomial_logpmf_range(others, c_lo, c_hi, s)
        # buckets of the given width where the pmf is within COARSE_BELOW of its largest value,
        # of doubling widths outside
        fine = np.flatnonzero(lp >= float(np.max(lp)) + COARSE_BELOW)
        starts = _bucket_starts(c_lo, c_hi, c_lo + int(fine[0]), c_lo + int(fine[-1]), width)
        ends = np.append(starts[1:] - 1, c_hi)
        idx = starts - c_lo
        gmax = np.maximum.reduceat(lp, idx)
        counts = np.diff(np.append(idx, len(lp)))
        sums = np.add.reduceat(np.exp(lp - np.repeat(gmax, counts)), idx)
        lw = gmax + np.log(sums)
        # relative error of each bucket: its worst term's error and the sum's rounding
        rel = np.expm1(np.maximum.reduceat(lp_err, idx)) + 4 * _U * (counts + 4)
        lw_err = lw + np.log(rel)
    else:  # a huge range: each bucket's weight from the binomial tails (no array of every count)
        starts = np.arange(c_lo, c_hi + 1, width)
        ends = np.minimum(starts + width - 1, c_hi)
        lw, lw_err = log_binom_range(starts.astype(float), ends.astype(float), others, s)
    ma = (starts + 1).astype(float)                    # K = C + 1
    mb = (ends + 1).astype(float)
    extra_a, extra_b, extra_w, extra_e = [], [], [], []
    if c_lo > 0:
        t = binom_logcdf(c_lo - 1, others, s)
        extra_a.append(1.0)
        extra_b.append(float(c_lo))
        extra_w.append(float(t))
        extra_e.append(float(t) + math.log(float(binom_tail_rtol(others))))
    if c_hi < others:
        t = binom_logsf(c_hi + 1, others, s)
        extra_a.append(float(c_hi + 2))
        extra_b.append(float(others + 1))
        extra_w.append(float(t))
        extra_e.append(float(t) + math.log(float(binom_tail_rtol(others))))
    return (np.concatenate([extra_a, ma]), np.concatenate([extra_b, mb]), np.concatenate([extra_w, lw]),
            np.concatenate([extra_e, lw_err]))


def round_pld(eps0, n, *, interval=None, pessimistic=True, tilt=None, bucket_rtol: float = BUCKET_RTOL,
              reduction=DEFAULT_REDUCTION) -> PLD:
    """The PLD of ONE round: the clone pair of ``reduction`` for n users of an eps0-DP randomizer
    (see the module docstring), bucketed over the total count K (buckets of width at most
    ``bucket_rtol`` times K's mean, each K individually when there are few) and discretised on
    the grid ``k * interval`` (default 1e-4). Pessimistic: each bucket at its lowest count (a
    dominating pair), what is left out at loss +inf, so its delta and the delta of its
    compositions are upper bounds; optimistic: each bucket at its highest count (a dominated
    pair), a profile below its own at every epsilon (:func:`dptheory.pld.cell_sums_lower_pld`, no
    error of its own), what is left out dropped: lower bounds."""
    e0, nn, _ = _check(eps0, n, 1)
    red = clones.reduction(reduction)
    d = 1e-4 if interval is None else validate.positive("interval", interval)
    lam = DEFAULT_TILT if tilt is None else validate.real("tilt", tilt, low=0.0, high=50.0)
    bucket_rtol = validate.real("bucket_rtol", bucket_rtol, low=0.0, low_open=True, high=1.0)
    others = nn - 1
    s = clones.clone_probability(e0, red)
    E = math.exp(e0)
    th_p, th_q = 1.0 / (1.0 + math.exp(-e0)), math.exp(-e0) / (1.0 + math.exp(-e0))  # no cancellation
    if others == 0:
        ma = mb = np.array([1.0])
        log_w, log_w_err = np.array([0.0]), np.array([_NEG_INF])
    else:
        ma, mb, log_w, log_w_err = _count_buckets(others, s, bucket_rtol)
    reps = ma if pessimistic else mb
    # the log pmf of a at the mode of every bucket's count, in one call
    modes = np.floor((reps + 1) * 0.5)
    centres = dict(zip(reps.astype(np.int64).tolist(), zip(modes.astype(np.int64).tolist(),
                                                            binom_logpmf(modes, reps, 0.5).tolist())))
    total: np.ndarray | None = None
    k_first = 0
    merges = [0]

    def _merge(total, k_first, lm, k0):
        """Add the dense log masses ``lm`` (from grid index k0) to ``total`` (from k_first)."""
        merges[0] += 1
        if total is None:
            return lm, k0
        lo, hi = min(k_first, k0), max(k_first + len(total), k0 + len(lm))
        merged = np.full(hi - lo, _NEG_INF)
        merged[k_first - lo:k_first - lo + len(total)] = total
        merged[k0 - lo:k0 - lo + len(lm)] = np.logaddexp(merged[k0 - lo:k0 - lo + len(lm)], lm)
        return merged, lo

    rel = 0.0
    abs_err = 0.0
    inf_err = 0.0  # mass left out (bounded from above): at +inf (pessimistic), anywhere (optimistic)
    sums = None    # optimistic: the cell sums of dptheory.pld.cell_sums_lower_pld
    # atoms of many buckets are discretised together (one call and one merge per CHUNK atoms);
    # a bucket weight's relative error is folded into its atoms' log-mass errors, so that
    # discretise_atoms carries it as relative error where it is at most WEIGHT_REL_CAP and as
    # absolute error (tilted norm, at the atom's upper grid point) where it is larger
    pending: list[tuple] = []
    pending_size = 0
    cell_parts: list[tuple] = []

    def _flush():
        nonlocal total, k_first, rel, abs_err, pending, pending_size, sums
        if not pending:
            return
        log_p, log_p_err, loss, loss_err = (np.concatenate(parts) for parts in zip(*pending))
        if not pessimistic:
            sums = add_cell_sums(sums, atom_cell_sums(log_p, log_p_err, loss, loss_err, d))
            pending, pending_size = [], 0
            return
        k0, lm, r, ae = discretise_atoms(log_p, log_p_err, loss, loss_err, d, pessimistic, lam,
                                         rel_cap=WEIGHT_REL_CAP)
        rel = max(rel, r)
        abs_err += ae
        total, k_first = _merge(total, k_first, lm, k0)
        pending, pending_size = [], 0

    for m, lw, lwe in zip(reps, log_w, log_w_err):
        if lw == _NEG_INF:
            continue
        w_rel = math.exp(lwe - lw) if lwe > _NEG_INF else 0.0
        if lw + math.log1p(w_rel) < math.log(TAIL_CUT) and len(reps) > 1:
            inf_err += math.exp(lw) * (1 + w_rel)  # the bucket's mass (bounded from above)
            continue
        m_int = int(m)
        window = WINDOW
        half = window * math.sqrt(m)
        a_lo = max(0, int(math.floor(m / 2 - half)))
        a_hi = min(m_int, int(math.ceil(m / 2 + half)))
        w_log_err = math.log1p(w_rel) * (1 + 4 * _U)
        runs = [(a_lo, a_hi)]
        if _atoms_per_cell(m, E, d) >= CELL_MIN_ATOMS:
            # a wide window: each grid cell's interior at once (binomial range sums), the values
            # of a next to the cell boundaries one by one
            cells, runs = _window_cells(m_int, a_lo, a_hi, E, th_p - th_q, d)
            if cells is not None:
                cell_parts.append((cells[0], cells[1] + lw, cells[2] + w_log_err, cells[3], cells[4]))
        def _add_atoms(a, lb, lb_err):
            nonlocal pending_size
            mix = np.log(2 * (th_p * a + th_q * (m - a)) / m)
            log_p = lw + lb + mix
            log_p_err = lb_err + 8 * _U * (1 + np.abs(mix)) + w_log_err
            loss, loss_err = _atom_losses(a, m, E)
            pending.append((log_p, log_p_err, loss, loss_err))
            pending_size += len(a)
            if pending_size >= CHUNK:
                _flush()

        short = [r for r in runs if r[1] - r[0] < SHORT_RUN]
        if short:  # the values next to cell boundaries: their pmfs in one call
            a = np.concatenate([np.arange(r_lo, r_hi + 1, dtype=float) for r_lo, r_hi in short])
            _add_atoms(a, binom_logpmf(a, m_int, 0.5), float(binom_tail_rtol(m_int)))
        for r_lo, r_hi in runs:
            if r_hi - r_lo < SHORT_RUN:
                continue
            # each run in chunks of at most CHUNK values of a (memory stays bounded at any n)
            for c_lo in range(r_lo, r_hi + 1, CHUNK):
                c_hi = min(c_lo + CHUNK - 1, r_hi)
                lb, lb_err = _binomial_logpmf_range(m_int, c_lo, c_hi, centre=centres.get(m_int))
                _add_atoms(np.arange(c_lo, c_hi + 1, dtype=float), lb, lb_err)
        # the values of a outside the window: P-mass below 2 e^{-2 w^2} per tail (Hoeffding; the
        # mixture factor is at most 2, under P and under Q)
        if a_lo > 0 or a_hi < m_int:
            inf_err += 4 * math.exp(-2 * window**2 + lw) * (1 + w_rel)
    note = f"{red} pair of the shuffle, eps0 = {e0:g}, n = {nn}"
    if not pessimistic:
        _flush()
        if cell_parts:
            k_c, lp_c, lpe_c, f_c, fl_c = (np.concatenate(parts) for parts in zip(*cell_parts))
            sums = add_cell_sums(sums, cell_share_sums(k_c, lp_c, lpe_c, fl_c, f_c, d))
        k0, d_lo, q_lo, q_up, left = sums if sums is not None else (0, np.zeros(0), np.zeros(0), np.zeros(0), 0.0)
        return cell_sums_lower_pld(d, k0, d_lo, q_lo, q_up, q_left_out=rounding.up_nonneg(left + inf_err), tilt=lam,
                                   note=note + "; profile below the pair's at every epsilon (second-order "
                                   "optimistic discretisation)")
    if cell_parts:
        k_c, lp_c, lpe_c, f_c, _ = (np.concatenate(parts) for parts in zip(*cell_parts))
        k0, lm, r, ae = discretise_cells(k_c, lp_c, lpe_c, f_c, d, pessimistic, lam, rel_cap=WEIGHT_REL_CAP)
        rel = max(rel, r)
        abs_err += ae
        total, k_first = _merge(total, k_first, lm, k0)
    _flush()
    rel += 4 * _U * merges[0]  # the merges (logaddexp)
    return PLD(d, k_first, total, _NEG_INF, pessimistic=pessimistic, rel_error=rounding.up(rel),
               abs_error=rounding.up_nonneg(abs_err), inf_error=rounding.up_nonneg(inf_err) if inf_err else 0.0,
               tilt=lam, note=note)


def _composed_span(step: PLD, T: int, eps0: float) -> float:
    """An estimate of the loss range the T-fold composition keeps (it only sizes the grid: any
    interval gives a sound bound): Bernstein's inequality for a sum of T losses in [-eps0, eps0]
    with the round's variance v, P(|S - T mu| > t) <= 2 exp(-t^2 / (2 (T v + 2 eps0 t / 3))), at the
    tail mass the FFT convolutions cut (dptheory.pld.DEFAULT_TAIL_MASS), plus one round's support;
    never more than T times one round's support (the old estimate, exact for no truncation)."""
    worst = (len(step) + 2) * step.interval * T
    if len(step) == 0:
        return worst
    m = np.exp(step.log_mass)
    total = float(np.sum(m))
    if not total > 0:
        return worst
    loss = step.losses
    mu = float(np.sum(m * loss)) / total
    var = max(float(np.sum(m * (loss - mu) ** 2)) / total, 0.0)
    big_l = math.log(2.0 / step.tail_mass) + 1.0
    t = math.sqrt(2.0 * T * var * big_l) + (4.0 / 3.0) * eps0 * big_l
    return min(worst, 2.0 * t + (len(step) + 2) * step.interval)


def rounds_pld(eps0, n, rounds, *, interval=None, pessimistic=True, tilt=None, bucket_rtol: float = BUCKET_RTOL,
               reduction=DEFAULT_REDUCTION) -> PLD:
    """The PLD of ``rounds`` composed rounds of the shuffled eps0-LDP protocol with n users
    (:func:`round_pld` composed by FFT). Pessimistic: an upper bound on delta(epsilon) for
    replace-one neighbours, adaptive composition included; optimistic: a lower bound on the
    delta of the composed clone pair (not on the protocol's)."""
    e0, _, T = _check(eps0, n, rounds)
    step = round_pld(eps0, n, interval=interval, pessimistic=pessimistic, tilt=DEFAULT_TILT, bucket_rtol=bucket_rtol,
                     reduction=reduction)
    # the composed grid spans T times one round's losses: past MAX_GRID points (small n and large
    # eps0 T, e.g. randomized response composed 1000 times) the interval is raised so that it
    # fits (memory stays bounded; any interval gives a sound bound, a coarser one a looser one)
    span = _composed_span(step, T, e0)
    if span / step.interval > MAX_GRID:
        coarse = span / MAX_GRID
        step = round_pld(eps0, n, interval=coarse, pessimistic=pessimistic, tilt=DEFAULT_TILT,
                         bucket_rtol=bucket_rtol, reduction=reduction)
        step = PLD(step.interval, step.offset, step.log_mass, step.log_inf_mass, pessimistic=step.pessimistic,
                   rel_error=step.rel_error, abs_error=step.abs_error, inf_error=step.inf_error, tilt=step.tilt,
                   tail_mass=step.tail_mass, note=step.note + f"; interval raised to {coarse:.3g} so that the "
                   f"composed grid fits {MAX_GRID} points")
    lam = choose_tilt(step, T) if tilt is None else validate.real("tilt", tilt, low=0.0, high=50.0)
    if lam != step.tilt:
        # every error of one round sits at a grid point in [-eps0 - interval, eps0 + 2 interval]
        # (a split over a double cell reaches two points above the loss)
        d = step.interval
        step = step.with_tilt(lam, (-e0 - d, e0 + 2 * d))
    return step.self_compose(T)


SOURCE_PURE_COMPOSITION = ("each round is eps0-DP (post-processing of the victim's eps0-LDP report), and T "
                           "eps0-DP mechanisms compose to at most the T-fold randomized response "
                           "(Kairouz, Oh, Viswanath 2015, Theorem 3.3)")


def pure_composition_log_delta(eps0: float, rounds: int, epsilon: float) -> tuple[float, float]:
    """(log lower, log upper) of the delta(epsilon) of T-fold composed eps0-randomized response,
    which bounds the delta of any T composed eps0-DP mechanisms (Kairouz, Oh, Viswanath 2015,
    Theorem 3.3):

        delta(eps) = sum over k with (T - 2k) eps0 > eps of C(T, k) p^(T-k) q^k (1 - e^(eps - (T-2k) eps0)),

    p = e^eps0/(1 + e^eps0), q = 1 - p; 0 for eps >= T eps0. Every term is positive and formed in
    log space (-log1p for log p and log q, -expm1 for the bracket); the bound on the error counts
    a few ulps of each logarithm's magnitude, and the rounding of the exponent
    eps - (T - 2k) eps0 moves the bracket's argument to the end that widens the interval."""
    e0, T, eps = float(eps0), int(rounds), float(epsilon)
    k = np.arange(0, T + 1, dtype=float)
    # x = eps - (T - 2k) eps0 in floats is within dx of the real number the float inputs define:
    # a term with x + dx < 0 is positive, one with x - dx >= 0 is 0, one in between is bounded by
    # its bracket at x - dx (upper end only)
    x = eps - (T - 2 * k) * e0
    dx = 2 * _U * (abs(eps) + np.abs(T - 2 * k) * e0)
    # where the rounding would widen a bracket by more than 1e-13 relative (the loss near eps: a
    # few terms, the losses are 2 eps0 apart; at most 64, the nearest) the exponent in exact
    # arithmetic, rounded once
    near = np.nonzero(np.abs(x) <= 1e13 * dx)[0]
    for i in near[np.argsort(np.abs(x[near]))][:64]:
        exact = Fraction(eps) - int(T - 2 * k[i]) * Fraction(e0)
        x[i], dx[i] = float(exact), abs(float(exact)) * _U
        if exact >= 0:
            x[i], dx[i] = 1.0, 0.0
    keep = x - dx < 0
    if not np.any(keep):
        return -math.inf, -math.inf
    from scipy.special import gammaln

    k, x, dx = k[keep], x[keep], dx[keep]
    log_p, log_q = -math.log1p(math.exp(-e0)), -math.log1p(math.exp(e0))
    lg = (gammaln(T + 1.0), gammaln(k + 1.0), gammaln(T - k + 1.0))
    base = lg[0] - lg[1] - lg[2] + (T - k) * log_p + k * log_q
    size = abs(lg[0]) + np.abs(lg[1]) + np.abs(lg[2]) + (T - k) * abs(log_p) + k * abs(log_q)
    sure = x + dx < 0
    with np.errstate(divide="ignore"):
        up_terms = base + np.log(-np.expm1(x - dx))
        lo_terms = np.where(sure, base + np.log(-np.expm1(np.minimum(x + dx, 0.0))), -np.inf)
    err = 8 * _U * (float(np.max(size + np.abs(up_terms - base))) + 1.0)

    def total(terms):
        top = float(np.max(terms))
        if top == -math.inf:
            return -math.inf
        return top + math.log(float(np.sum(np.exp(terms - top))))

    hi, lo = total(up_terms), total(lo_terms)
    err += 4 * _U * (abs(hi) + math.log(k.size) + 1.0)
    return (rounding.down(lo, abs_err=err) if lo > -math.inf else -math.inf), rounding.up(hi, abs_err=err)


def _capped(res: Result, e0: float, T: int, eps: float) -> Result:
    """min(res, the T-fold eps0-DP bound of :func:`pure_composition_log_delta`) as one Result
    (both are upper bounds on the same delta; the smaller holds). Exactly 0 from T eps0 on,
    where the PLD's discretisation would leave a positive remainder."""
    lo, up = pure_composition_log_delta(e0, T, eps)
    res_lo = res.log_lower if res.log_lower is not None else rounding.log_down(res.lower)
    res_up = res.log_upper if res.log_upper is not None else rounding.log_up(res.upper)
    if up >= res_up:
        return res
    note = (f"min with the T-fold eps0-DP bound, the smaller here ({SOURCE_PURE_COMPOSITION})"
            + (f"; {res.note}" if res.note else ""))
    return Result.from_log("delta", min(lo, res_lo), up, kind=res.kind, status=Status.PROVEN,
                           method=res.method, source=res.source, note=note,
                           params={**res.params, "bound": "pure-composition"})


def _labelled(res: Result, e0, nn, T, red) -> Result:
    st, why = status(red)
    note = res.note + (f"; {why}" if st is not Status.PROVEN else "")
    return res.replace(method="shuffle-rounds-pld", status=st if res.status is Status.PROVEN else res.status,
                       source=SOURCE + "; " + clones.reduction_source(red), note=note,
                       params={**res.params, "eps0": e0, "n": nn, "rounds": T, "reduction": red})


def rounds_delta(eps0, n, rounds, epsilon, *, interval=None, reduction=DEFAULT_REDUCTION) -> Result:
    """Upper bound on delta(epsilon) of T composed rounds of the shuffled eps0-LDP protocol with
    n users (replace-one neighbours), certified (:func:`rounds_pld`); at most 1 (a bound above 1
    says only delta <= 1, and the note says so). Status: that of the reduction's pair
    (:func:`status`: "clones", the default, proven; "stronger-clones" unproven in general)."""
    e0, nn, T = _check(eps0, n, rounds)
    eps = validate.real("epsilon", epsilon)
    red = clones.reduction(reduction)
    res = rounds_pld(e0, nn, T, interval=interval, reduction=red).delta(eps)
    return _capped(_labelled(res, e0, nn, T, red), e0, T, eps)


def rounds_deltas(eps0, n, rounds, epsilons, *, interval=None, reduction=DEFAULT_REDUCTION) -> list[Result]:
    """:func:`rounds_delta` at several epsilons from one composed PLD (built once)."""
    e0, nn, T = _check(eps0, n, rounds)
    eps = [validate.real("epsilon", e) for e in epsilons]
    red = clones.reduction(reduction)
    pld = rounds_pld(e0, nn, T, interval=interval, reduction=red)
    return [_capped(_labelled(pld.delta(e), e0, nn, T, red), e0, T, e) for e in eps]


def rounds_epsilon(eps0, n, rounds, delta, *, interval=None, reduction=DEFAULT_REDUCTION) -> Result:
    """Upper bound on epsilon(delta) of T composed rounds of the shuffled eps0-LDP protocol with
    n users (replace-one neighbours), certified (:func:`rounds_pld` and the one inverter)."""
    e0, nn, T = _check(eps0, n, rounds)
    d = validate.delta("delta", delta)
    red = clones.reduction(reduction)
    res = rounds_pld(e0, nn, T, interval=interval, reduction=red).epsilon(d)
    return _labelled(res, e0, nn, T, red)
