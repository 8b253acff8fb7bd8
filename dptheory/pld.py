"""Privacy loss distributions (PLDs) with pessimistic and optimistic discretisation.

The privacy loss distribution of an ordered pair (P, Q) is the law of L = log(P(X)/Q(X)) for
X ~ P, with an atom at +inf of mass P(Q = 0) (Koskela, Jalko, Honkela 2020; Meiser, Mohammadi
2018; Sommer, Meiser, Mohammadi 2019). Its hockey-stick divergence is

    delta(epsilon) = H_{e^epsilon}(P || Q) = E_P[(1 - e^{epsilon - L})_+] + P(L = inf),

and composition of mechanisms is convolution of their PLDs (the loss of a product pair is the
sum of the losses). Here a PLD is held on the grid ``k * interval`` (Meiser, Mohammadi 2018;
dp_accounting's ``pld_pmf``; the code is our own):

* **pessimistic** (:attr:`PLD.pessimistic` True): each atom is split between the two grid
  points around its loss so that its P-mass and its Q-mass are both kept (merging the two parts
  back is a post-processing, so the split pair dominates; for a continuous pair the same is done
  per cell of the loss, with the cell's P- and Q-mass; :func:`split_fraction`). This is the
  "connect-the-dots" discretisation of Doroshenko, Ghazi, Kamath, Kumar, Manurangsi (PETS 2022)
  in the form of a split, and it is tight to second order in the interval, where rounding every
  loss up (Meiser, Mohammadi 2018) loses a first-order term that grows with the number of
  compositions. Where a float loss cannot be placed within one cell the split is over two
  cells, or the atom is rounded up. Mass cut from the upper tail goes to +inf, mass cut from the
  lower tail moves up to the lowest kept point. The result is the PLD of a genuine pair
  (P~, Q~) with H_gamma(P~ || Q~) >= H_gamma(P || Q) for every gamma > 0: a dominating pair, so
  delta(epsilon) computed from it and from all its compositions is an upper bound (Zhu, Dong,
  Wang 2022, Theorem 10 for the composition of dominating pairs, adaptive composition
  included), and its trade-off function T(P~, Q~) is a lower bound on T(P, Q).
* **optimistic**: every loss is rounded DOWN, upper-tail mass moves down to the highest kept
  point, lower-tail mass is dropped (to loss -inf). delta(epsilon) = E_P[(1 - e^{epsilon - L})_+]
  is non-decreasing in every loss value, so the formula evaluated on it (and on its
  compositions) is a lower bound. It is not the PLD of a pair, so it has no trade-off function.

**Direction.** A PLD is of an ordered pair: its delta is H(P || Q). Where the mechanism is not
symmetric (the subsampled Gaussian under add/remove), each constructor says which pair it
represents, and the guarantee is the maximum over both (:func:`max_delta`, :func:`max_epsilon`,
:func:`min_tradeoff_hull`).

**Floating-point error** (the part dp_accounting does not account for). The masses are held as
logs, ``log_mass[i]`` at loss ``l_i = (offset + i) * interval``, with a certified error model:
the exact discretised masses m_i (at every grid point, held or not) satisfy

    |m_i - exp(log_mass[i])| <= rel_error * exp(log_mass[i]) + e_i,
    sum_i e_i exp(tilt * l_i) <= abs_error,   and inf_error at +inf.

Direct convolution (small supports) is carried out in log space: it keeps a relative error
only, so deltas far below 1e-300 stay certified. FFT convolution has an absolute error; its
2-norm is bounded by Higham's analysis of the Cooley-Tukey FFT (Accuracy and Stability of
Numerical Algorithms, 2nd ed., Theorem 24.2, with a safety factor, see :data:`FFT_ERROR_FACTOR`)
and added to ``abs_error``; outputs below that bound are set to 0 (their computed values join
the error). The FFT runs on exponentially tilted inputs (mass times e^{tilt l}), so its
round-off is small relative to the masses at large losses, which delta(epsilon) reads: the
error's weight in delta(epsilon) is at most abs_error e^{-tilt epsilon} (:func:`choose_tilt`
picks the tilt from the composed moment). The error of a composition is the errors of the parts
times the other part's tilted total, plus the FFT's: it grows linearly in the number of
compositions. ``delta`` returns a :class:`~dptheory.results.Result` whose interval contains the
delta of the exact discretised pair, every rounding included; delta below the FFT error floor
(about 1e-10 to 1e-20 after 1000 compositions, see ``note``) is not resolved.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import fft as sfft

from . import rounding, validate
from .hull import envelope_below, lower_hull
from .inverse import SearchParameters, epsilon_bracket
from .precision import logsumexp
from .results import Kind, Result, Status

_U = 2.0**-53  #: unit roundoff
_NEG_INF = -math.inf

#: direct (log-space) convolution when the product of the two supports is at most this
DIRECT_MAX_PRODUCTS = 200_000

#: Higham (2002, Theorem 24.2) bounds the relative 2-norm error of a radix-2 FFT by log2(N) eta with
#: eta = mu + gamma_4 (sqrt 2 + mu) ~ 7 u for accurately computed twiddle factors (mu ~ u); a
#: convolution takes two forward transforms, a pointwise product and an inverse transform. The
#: bound used, FFT_ERROR_FACTOR u (log2 N + 2) (||a||_2 ||b||_1 + ||a||_1 ||b||_2), is three
#: times what that analysis gives, to cover pocketfft's radix-3 and radix-5 passes; the test
#: ``test_fft_error_bound_holds`` checks it against exact convolutions.
FFT_ERROR_FACTOR = 60.0

#: from this many rounds on, a large PLD is composed by one FFT power (:meth:`PLD._fft_power`)
FFT_POWER_MIN_ROUNDS = 4

#: largest log of the composed tilted moment for which the FFT power is used (the budget of
#: :func:`choose_tilt`)
FFT_POWER_LOG_MOMENT = 8.0

#: the largest tilt for which the FFT power is used (the default tilts of :func:`choose_tilt`)
FFT_POWER_MAX_TILT = 4.0

#: the FFT power raises the 2^j-fold composition, 2^j about T^POWER_SPLIT (by squaring)
POWER_SPLIT = 0.5

#: and at most this power (its round-off bound grows with the power)
POWER_MAX = 64

#: before an FFT power, the squarings convolve directly (log space) up to this many products only:
#: a direct convolution of 385 points with itself took 2-6 ms, the FFT 0.05 ms (1000 rounds at n = 1e8:
#: the composition 3.6 -> 1.0 ms, epsilon(1e-6)'s upper end 3e-7 relative looser)
POWER_DIRECT_MAX = 1 << 16

#: default mass cut from each tail after an FFT convolution
DEFAULT_TAIL_MASS = 1e-16

#: the longest composition :meth:`PLD.compose` computes by FFT: about 15 arrays of this length are
#: alive during one convolution (8 bytes per point each), about a gigabyte in all (twice
#: :data:`dptheory.shuffle.rounds.MAX_GRID`, which the composed rounds fit)
MAX_POINTS = 1 << 23


class GridTooLarge(validate.DomainError):
    """A composition's support needs more than :data:`MAX_POINTS` grid points."""

SOURCE = ("privacy loss distribution with pessimistic discretisation (Meiser, Mohammadi 2018; Koskela, Jalko, "
          "Honkela 2020); composition of dominating pairs (Zhu, Dong, Wang 2022, Theorem 10)")


def _log(x):
    with np.errstate(divide="ignore"):
        return np.log(x)


def _up0(x) -> float:
    """An error bound rounded up; an exact 0 (no error at all) stays 0, an overflow (or 0 times
    an infinite bound) is inf (a vacuous bound)."""
    if x == 0:
        return 0.0
    if math.isnan(x) or math.isinf(x):
        return math.inf
    return float(rounding.up_nonneg(x))


def _times(a: float, b: float) -> float:
    """a b for non-negative error terms, with 0 times inf = 0 (no mass: no error)."""
    return 0.0 if a == 0 or b == 0 else a * b


def split_fraction(loss, loss_err, loss_lo, interval):
    """Upper bound on the share of an atom that the mass-preserving split sends UP.

    An atom of P-mass p whose loss L = log(p/q) lies in [l, l + interval] (``l = loss_lo``) is
    replaced by two atoms at l and l + interval with P-masses p (1 - f) and p f and Q-masses
    p (1 - f) e^-l + p f e^{-l-interval} = q, that is f = (1 - e^{l - L}) / (1 - e^-interval).
    Merging the two atoms back is a post-processing, so the split pair dominates the atom (the
    pessimistic "connect-the-dots" discretisation of Doroshenko, Ghazi, Kamath, Kumar, Manurangsi
    2022, in this form). f is increasing in L, so it is evaluated at L + ``loss_err`` and rounded
    up (moving extra mass up is pessimistic); the result is clipped to [0, 1]. Vectorised."""
    L = np.asarray(loss, dtype=float) + np.asarray(loss_err, dtype=float)
    l = np.asarray(loss_lo, dtype=float)
    num = -np.expm1(l - L)
    den = -math.expm1(-interval)
    # l - L: an ulp of each (l itself is the rounded k * interval); expm1 near 0 turns an absolute
    # error of its argument into the same absolute error; the division a few ulps
    arg_err = 4 * _U * (np.abs(l) + np.abs(L))
    f = rounding.up(num / den, (arg_err * np.exp(np.maximum(l - L, 0.0)) + 2 * _U * np.abs(num)) / den * 1.01, 4 * _U)
    return np.clip(f, 0.0, 1.0)


#: per-atom relative errors up to this are carried as relative error, larger ones as absolute
ATOM_REL_CAP = 1e-10


def _grid_ends(q, e_q):
    """floor(rounding.down(q, e_q, 4 u)) and ceil(rounding.up(q, e_q, 4 u)) as int64 arrays, the
    same integers at a fraction of the cost: the plain float ends q -/+ (e_q + 4 u |q|) are
    within a few ulps of the rounded ones, so they have the same floor and ceiling unless they lie
    within 1e-9 (1 + |q| + e_q) of an integer (or are not finite); those few go through
    :mod:`dptheory.rounding`."""
    with np.errstate(invalid="ignore", over="ignore"):
        w = e_q + 4 * _U * np.abs(q)
        lo, hi = q - w, q + w
        k, top = np.floor(lo), np.ceil(hi)
        tol = 1e-9 * (1 + np.abs(q) + e_q)
        near = ~((lo - k > tol) & (k + 1 - lo > tol) & (top - hi > tol) & (hi - (top - 1) > tol))
    if np.any(near):
        k[near] = np.floor(rounding.down(q[near], e_q[near], 4 * _U))
        top[near] = np.ceil(rounding.up(q[near], e_q[near], 4 * _U))
    return k.astype(np.int64), top.astype(np.int64)


def discretise_atoms(log_p, log_p_err, loss, loss_err, interval, pessimistic, tilt, *, rel_cap=None):
    """Grid masses of atoms (log P-mass within ``log_p_err``, loss within ``loss_err``):
    split (pessimistic) or rounded down (optimistic), see :meth:`PLD.from_atoms`. Returns
    (first grid index, dense log masses, relative error, absolute error in the tilted norm).
    Per-atom relative errors up to ``rel_cap`` (default :data:`ATOM_REL_CAP`) are carried as the
    relative error, larger ones as absolute error. Fast when the atoms are sorted by loss
    (grouped sums by ``reduceat``)."""
    cap = ATOM_REL_CAP if rel_cap is None else float(rel_cap)
    dx = interval
    lp = np.asarray(log_p, dtype=float).ravel()
    loss = np.asarray(loss, dtype=float).ravel()
    err = np.broadcast_to(np.asarray(loss_err, dtype=float), loss.shape)
    lp_err = np.broadcast_to(np.asarray(log_p_err, dtype=float), loss.shape)
    keep = lp > _NEG_INF
    if not np.all(keep):
        lp, loss, err, lp_err = lp[keep], loss[keep], err[keep], lp_err[keep]
    if lp.size == 0:
        return 0, np.zeros(0), 4 * _U, 0.0
    # (loss - err) / dx and (loss + err) / dx, each rounded outwards in one step: the quotient
    # loss / dx is within u of its float, err / dx within 2 u
    q = loss / dx
    e_q = err / dx * (1 + 4 * _U)
    k, top = _grid_ends(q, e_q)
    k = np.where((loss == 0) & (err == 0), 0, k)
    # per-atom mass error: small ones relative, large ones absolute (tilted weight of the upper point)
    atom_rel = np.expm1(lp_err)
    small = atom_rel <= cap
    rel = float(np.max(atom_rel[small], initial=0.0)) + (8 + 4 * math.log2(len(lp) + 2)) * 4 * _U
    top = np.where((loss == 0) & (err == 0), 0, top)
    with np.errstate(over="ignore"):
        big = ~small
        # an atom's mass ends at grid points up to max(top, k + 1) (the split, or rounding up)
        where = np.maximum(top, k + 1)
        abs_err = float(np.sum(np.exp(lp[big]) * atom_rel[big] * np.exp(tilt * where[big] * dx))) * 1.01 if np.any(big) else 0.0
    if not pessimistic:
        k0 = int(k.min())
        return k0, _log_bincount(k - k0, lp), rel, abs_err
    single = top <= k         # on the grid
    # the float loss straddles a grid point (its error interval meets two cells): split over the
    # double cell [l_k, l_{k+2}] (still first-order exact); wider uncertainty: all to the top
    double = top == k + 2
    wide = top > k + 2
    frac = split_fraction(loss, err, k * dx, dx)
    if np.any(double):  # (elementwise: the few straddling atoms again, on the double cell)
        frac[double] = split_fraction(loss[double], err[double], k[double] * dx, 2 * dx)
    frac = np.where(single, 0.0, np.where(wide, 1.0, frac))
    up_k = np.where(wide, top, np.where(double, k + 2, k + 1))
    with np.errstate(divide="ignore"):
        lp_hi = lp + np.log(frac)
        lp_lo = lp + np.log1p(-frac)  # the object's lower share is p (1 - f) for the float f: relative
    k0 = int(k.min())
    size = int(up_k.max()) - k0 + 1
    lo_part = _log_bincount(k - k0, lp_lo, size)
    hi_part = _log_bincount(up_k - k0, lp_hi, size)
    return k0, np.logaddexp(lo_part, hi_part), rel + 8 * _U, abs_err


def discretise_cells(k, log_p, log_p_err, frac_up, interval, pessimistic, tilt, *, rel_cap=None):
    """Grid masses of cells: groups of atoms whose losses all lie in [k interval, (k + 1) interval],
    given by their total P-mass (log ``log_p`` within ``log_p_err``) and an upper bound
    ``frac_up`` on the share the mass-preserving split sends up (the P-weighted mean of
    :func:`split_fraction` over the cell's atoms, (P - e^{l} Q) / ((1 - e^-interval) P) for the
    cell's P- and Q-masses): split between k and k + 1 (pessimistic; the split of the atoms
    taken one by one, summed) or all at k (optimistic: losses rounded down). Returns what
    :func:`discretise_atoms` returns; errors are carried as there."""
    cap = ATOM_REL_CAP if rel_cap is None else float(rel_cap)
    dx = interval
    k = np.asarray(k, dtype=np.int64).ravel()
    lp = np.asarray(log_p, dtype=float).ravel()
    lp_err = np.broadcast_to(np.asarray(log_p_err, dtype=float), lp.shape)
    f = np.clip(np.broadcast_to(np.asarray(frac_up, dtype=float), lp.shape), 0.0, 1.0)
    keep = lp > _NEG_INF
    if not np.all(keep):
        k, lp, lp_err, f = k[keep], lp[keep], lp_err[keep], f[keep]
    if lp.size == 0:
        return 0, np.zeros(0), 4 * _U, 0.0
    cell_rel = np.expm1(lp_err)
    small = cell_rel <= cap
    rel = float(np.max(cell_rel[small], initial=0.0)) + (8 + 4 * math.log2(len(lp) + 2)) * 4 * _U
    big = ~small
    with np.errstate(over="ignore"):
        abs_err = float(np.sum(np.exp(lp[big]) * cell_rel[big] * np.exp(tilt * (k[big] + 1) * dx))) * 1.01 \
            if np.any(big) else 0.0
    k0 = int(k.min())
    if not pessimistic:
        return k0, _log_bincount(k - k0, lp, int(k.max()) - k0 + 1), rel, abs_err
    with np.errstate(divide="ignore"):
        lp_hi = lp + np.log(f)
        lp_lo = lp + np.log1p(-f)
    size = int(k.max()) - k0 + 2
    return k0, np.logaddexp(_log_bincount(k - k0, lp_lo, size), _log_bincount(k + 1 - k0, lp_hi, size)), \
        rel + 8 * _U, abs_err


#: candidate tilts, largest first (see :func:`choose_tilt`)
TILTS = (4.0, 2.0, 1.0, 0.5, 0.0)


def choose_tilt(step: "PLD", rounds: int, budget: float = 8.0) -> float:
    """The largest tilt of :data:`TILTS` whose moment, composed ``rounds`` times, stays below
    e^budget: the FFT error of a tilted composition grows with the composed moment
    E[e^{tilt L}]^rounds, while its weight in delta(epsilon) falls like e^{-tilt epsilon}."""
    for lam in TILTS:
        if lam == 0 or rounds * step.log_moment(lam) <= budget:
            return lam
    return 0.0


def _log_bincount(idx, log_w, size=None):
    """log of sum of exp(log_w) per index (indices from 0), -inf where empty: a grouped
    logsumexp (relative error a few ulps per term, the count of terms u)."""
    idx = np.asarray(idx, dtype=np.int64)
    log_w = np.asarray(log_w, dtype=float)
    if size is None:
        size = int(idx.max()) + 1 if idx.size else 0
    gmax = np.full(size, _NEG_INF)
    if idx.size > 1 and np.all(idx[1:] >= idx[:-1]):
        starts = np.flatnonzero(np.concatenate([[True], idx[1:] != idx[:-1]]))
        gmax[idx[starts]] = np.maximum.reduceat(log_w, starts)
    else:
        np.maximum.at(gmax, idx, log_w)
    with np.errstate(invalid="ignore", under="ignore"):
        s = np.bincount(idx, weights=np.exp(log_w - gmax[idx]), minlength=size)
    with np.errstate(divide="ignore"):
        return np.where(gmax > _NEG_INF, gmax + np.log(np.maximum(s, 1e-300)), _NEG_INF)


def _weight_bound(tilt: float, eps: float) -> float:
    """sup over real l of (1 - e^{eps - l})_+ e^{-tilt l} (the errors e_i may sit at any grid
    point, held or not): e^{-tilt eps} (1/(1+tilt)) (tilt/(1+tilt))^tilt, and 1 for tilt 0;
    rounded up."""
    if tilt == 0:
        return 1.0
    log_v = -tilt * eps - math.log1p(tilt) + tilt * (math.log(tilt) - math.log1p(tilt))
    return float(rounding.exp_up(min(log_v, 700.0) + 1e-12 * (1 + abs(log_v))))


class PLD:
    """A discretised privacy-loss distribution of an ordered pair (P, Q), with certified error.

    Build one with :meth:`from_pmfs` (a pair of discrete distributions) or with the
    constructors of :mod:`dptheory.subsampled` and :mod:`dptheory.shuffle.rounds`; combine with
    :meth:`compose` and :meth:`self_compose`; read it with :meth:`delta`, :meth:`epsilon`,
    :meth:`tradeoff`.

    Parameters
    ----------
    interval : float
        The grid spacing; losses are ``(offset + i) * interval``.
    offset : int
        Grid index of ``log_mass[0]``.
    log_mass : array_like
        log P-mass at each grid point (``-inf`` for none).
    log_inf_mass : float
        log P-mass at loss +inf.
    pessimistic : bool
        Losses rounded up (an upper bound on delta) or down (a lower bound).
    rel_error, abs_error, inf_error, tilt : float
        The error model: each held mass (the +inf atom included) is within ``rel_error`` of the
        exact discretised one, plus absolute errors e_i with ``sum_i e_i exp(tilt * l_i) <=
        abs_error`` over the finite atoms and ``inf_error`` at +inf. A positive ``tilt``
        (exponential tilting of the FFT inputs) makes FFT round-off small where the loss is
        large, which is where delta(epsilon) reads the masses.
    tail_mass : float
        Mass that FFT convolutions may cut from each tail.
    """

    __slots__ = ("interval", "offset", "log_mass", "log_inf_mass", "pessimistic", "rel_error", "abs_error",
                 "inf_error", "tilt", "tail_mass", "note", "_moments")

    def __init__(self, interval, offset, log_mass, log_inf_mass, *, pessimistic=True, rel_error=0.0,
                 abs_error=0.0, inf_error=0.0, tilt=0.0, tail_mass=DEFAULT_TAIL_MASS, note=""):
        self.interval = validate.positive("interval", interval)
        self.offset = int(offset)
        self._set_masses(log_mass)
        self.log_inf_mass = float(log_inf_mass)
        self.pessimistic = bool(pessimistic)
        self.rel_error = validate.real("rel_error", rel_error, low=0.0, high=0.5)
        # an error bound may overflow to inf (a vacuous bound: delta is then only <= 1)
        self.abs_error = validate.real("abs_error", abs_error, low=0.0, allow_inf=True)
        self.inf_error = validate.real("inf_error", inf_error, low=0.0, allow_inf=True)
        self.tilt = validate.real("tilt", tilt, low=0.0, high=50.0)
        self.tail_mass = validate.real("tail_mass", tail_mass, low=0.0, high=1e-3)
        self.note = note

    def _set_masses(self, log_mass) -> None:
        """Hold ``log_mass`` (from grid index ``self.offset``) without its empty ends, read-only;
        the log moments are computed on first use and kept (:meth:`log_moment`)."""
        lm = np.asarray(log_mass, dtype=float).ravel()
        if not np.all(lm < np.inf):  # one pass: a NaN or +inf fails it
            raise validate.DomainError("log_mass must hold finite logs or -inf")
        finite = np.flatnonzero(lm > _NEG_INF)
        if finite.size:  # drop empty ends
            self.offset += int(finite[0])
            lm = lm[finite[0]:finite[-1] + 1]
        else:
            lm = np.zeros(0)
        self.log_mass = lm
        self.log_mass.setflags(write=False)
        self._moments = {}

    def __repr__(self) -> str:
        kind = "pessimistic" if self.pessimistic else "optimistic"
        lo, hi = (self.losses[0], self.losses[-1]) if len(self) else (0.0, 0.0)
        return (f"PLD({kind}, interval={self.interval:g}, losses {lo:g}..{hi:g} ({len(self)} points), "
                f"inf mass {math.exp(self.log_inf_mass):.3g}, rel_error {self.rel_error:.2g}, "
                f"abs_error {self.abs_error:.2g} (tilt {self.tilt:g}), inf_error {self.inf_error:.2g})")

    def __len__(self) -> int:
        return len(self.log_mass)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_pmfs(cls, p, q, *, interval: float = 1e-4, pessimistic: bool = True, tilt: float = 0.0) -> "PLD":
        """The PLD of the pair (P, Q) of discrete distributions on the same support.

        Pessimistic: each atom with P-mass p_i > 0 and finite loss log(p_i / q_i) is split
        between the two grid points around its loss, preserving its P- and Q-mass
        (:func:`split_fraction`; a dominating pair), atoms with q_i = 0 go to +inf.
        Optimistic: each loss is rounded DOWN onto the grid (a lower bound on delta). The grid
        index is certified (the float loss is widened by its error before it is taken).
        The floats ``p``, ``q`` are the pair (each must sum to 1 within 1e-9). The PLD is of the
        ordered pair: its delta is H_{e^eps}(P || Q); for a guarantee over both neighbouring
        directions compute also ``from_pmfs(q, p)`` and take the larger delta
        (:func:`max_delta`).
        """
        pa, qa = validate.pmf_pair(p, q)
        dx = validate.positive("interval", interval)
        defect = abs(math.fsum(pa.tolist()) - 1.0) + abs(math.fsum(qa.tolist()) - 1.0)
        live = pa > 0
        pa, qa = pa[live], qa[live]
        inf = qa == 0
        log_inf = math.log(math.fsum(pa[inf].tolist())) if np.any(inf) else _NEG_INF
        pf, qf = pa[~inf], qa[~inf]
        loss = np.log(pf) - np.log(qf)
        err = 4 * _U * (np.abs(np.log(pf)) + np.abs(np.log(qf)) + np.abs(loss))
        exact_zero = pf == qf
        loss = np.where(exact_zero, 0.0, loss)
        err = np.where(exact_zero, 0.0, err)
        return cls.from_atoms(np.log(pf), loss, err, interval=dx, pessimistic=pessimistic, log_inf_mass=log_inf,
                              rel_error=(len(pf) + 4) * _U + 2 * defect, tilt=tilt, note="from pmfs")

    @classmethod
    def from_atoms(cls, log_p, loss, loss_err, *, interval: float, pessimistic: bool = True,
                   log_p_err=0.0, log_inf_mass: float = _NEG_INF, rel_error: float = 0.0, abs_error: float = 0.0,
                   inf_error: float = 0.0, tilt: float = 0.0, note: str = "") -> "PLD":
        """The PLD of a pair given by its atoms: log P-masses ``log_p`` (each within
        ``log_p_err`` of the true log) with finite losses ``loss`` known to within ``loss_err``
        (arrays), plus a P-mass at +inf.

        Pessimistic: mass-preserving split between the two grid points around each loss
        (:func:`split_fraction`); where the float loss cannot be placed within one grid cell,
        the atom goes to the higher point. Optimistic: each loss rounded down. ``rel_error``,
        ``abs_error`` (in the tilted norm), ``inf_error``: further error of the given masses.
        """
        dx = validate.positive("interval", interval)
        k0, lm, rel, abs_ = discretise_atoms(log_p, log_p_err, loss, loss_err, dx, pessimistic, tilt)
        rel = (1 + rel) * (1 + rel_error) - 1
        return cls(dx, k0, lm, log_inf_mass, pessimistic=pessimistic, rel_error=rounding.up(rel),
                   abs_error=_up0(abs_ + abs_error), inf_error=inf_error, tilt=tilt,
                   note=(note + "; " if note else "") + ("mass-preserving split" if pessimistic else "rounded down"))

    @classmethod
    def identity(cls, *, interval: float = 1e-4, pessimistic: bool = True) -> "PLD":
        """The PLD of a pair of equal distributions (the neutral element of composition)."""
        return cls(interval, 0, [0.0], _NEG_INF, pessimistic=pessimistic)

    # ------------------------------------------------------------------ views
    @property
    def losses(self) -> np.ndarray:
        """The grid losses ``(offset + i) * interval`` of the finite atoms."""
        return (self.offset + np.arange(len(self.log_mass))) * self.interval

    @property
    def masses(self) -> np.ndarray:
        """The P-masses of the finite atoms (floats; tiny ones may underflow: see ``log_mass``)."""
        return np.exp(self.log_mass)

    @property
    def inf_mass(self) -> float:
        return math.exp(self.log_inf_mass)

    def total_mass(self) -> float:
        """Sum of the held masses (1 up to the error model and the optimistic drops)."""
        return math.fsum(np.exp(self.log_mass).tolist()) + self.inf_mass

    def _like(self, offset, log_mass, log_inf, rel, abs_, inf_err, note=None) -> "PLD":
        rel = float(rounding.up(rel))
        if not rel <= 0.5:  # a relative error past 1/2 is not held: the bound becomes vacuous
            rel, abs_ = 0.5, math.inf
        # this PLD's fields were validated when it was built, and the error terms computed here
        # are non-negative (or inf): the new one is set up without validating them again
        out = object.__new__(PLD)
        out.interval, out.offset = self.interval, int(offset)
        out._set_masses(log_mass)
        out.log_inf_mass = float(log_inf)
        out.pessimistic, out.rel_error, out.abs_error, out.inf_error = self.pessimistic, rel, _up0(abs_), _up0(inf_err)
        out.tilt, out.tail_mass, out.note = self.tilt, self.tail_mass, self.note if note is None else note
        return out

    def _log_moment(self) -> float:
        """log sum_i m_i exp(tilt * l_i) over the finite atoms (held masses)."""
        return self.log_moment(self.tilt)

    def with_tilt(self, tilt: float, support: tuple[float, float]) -> "PLD":
        """The same PLD with its absolute error expressed in the norm of another tilt, valid when
        every position the errors may sit at lies in the loss interval ``support`` (constructors
        know it: the grid they discretised on): E' = E max over support of e^{(tilt' - tilt) l}."""
        lam = validate.real("tilt", tilt, low=0.0, high=50.0)
        lo, hi = float(support[0]), float(support[1])
        factor = max(math.exp(min((lam - self.tilt) * lo, 700.0)), math.exp(min((lam - self.tilt) * hi, 700.0)))
        return PLD(self.interval, self.offset, self.log_mass, self.log_inf_mass, pessimistic=self.pessimistic,
                   rel_error=self.rel_error, abs_error=_up0(self.abs_error * factor * (1 + 1e-12)),
                   inf_error=self.inf_error, tilt=lam, tail_mass=self.tail_mass, note=self.note)

    def with_tail_mass(self, tail_mass: float) -> "PLD":
        """The same PLD with another bound on the mass its FFT convolutions cut from each tail."""
        if tail_mass == self.tail_mass:
            return self
        return PLD(self.interval, self.offset, self.log_mass, self.log_inf_mass, pessimistic=self.pessimistic,
                   rel_error=self.rel_error, abs_error=self.abs_error, inf_error=self.inf_error, tilt=self.tilt,
                   tail_mass=tail_mass, note=self.note)

    def log_moment(self, tilt: float) -> float:
        """log sum_i m_i e^{tilt l_i} over the finite atoms (held masses); computed once per tilt
        (the masses are read-only)."""
        tilt = float(tilt)
        out = self._moments.get(tilt)
        if out is None:
            out = float(logsumexp(self.log_mass + tilt * self.losses)) if len(self) else _NEG_INF
            self._moments[tilt] = out
        return out

    # ------------------------------------------------------------------ composition
    def _check(self, other: "PLD") -> None:
        if not isinstance(other, PLD):
            raise validate.DomainError(f"other = {other!r} is invalid: must be a PLD")
        if other.interval != self.interval:
            raise validate.DomainError(f"interval = {other.interval!r} is invalid: composition needs the same interval "
                                       f"as this PLD ({self.interval!r})")
        if other.pessimistic != self.pessimistic:
            raise validate.DomainError("pessimistic is invalid: a pessimistic PLD composes only with a pessimistic one")
        if other.tilt != self.tilt:
            raise validate.DomainError(f"tilt = {other.tilt!r} is invalid: composition needs the same tilt as this PLD "
                                       f"({self.tilt!r})")

    def compose(self, other: "PLD") -> "PLD":
        """The PLD of the product pair (P1 x P2, Q1 x Q2): the convolution of the two.

        Direct log-space convolution when the supports are small (relative error only), FFT
        otherwise (on exponentially tilted inputs; absolute error bounded and added to
        ``abs_error``; tails of mass at most ``tail_mass`` are cut, to +inf for a pessimistic
        PLD, downwards for an optimistic one). The +inf atom is 1 - (1 - a)(1 - b), which uses
        that the exact discretised laws have total mass 1 (an optimistic PLD's dropped mass sits
        at loss -inf).
        """
        return self._compose(other, DIRECT_MAX_PRODUCTS)

    def _compose(self, other: "PLD", direct_max: int) -> "PLD":
        """:meth:`compose`, direct (log-space) convolution up to ``direct_max`` products."""
        self._check(other)
        a, b = self, other
        na, nb = len(a), len(b)
        ia_, ib_ = a.inf_mass, b.inf_mass
        inf_c = ia_ + ib_ - ia_ * ib_
        log_inf = math.log(inf_c) if inf_c > 0 else _NEG_INF
        ra, rb = a.rel_error, b.rel_error
        inf_err = (a.inf_error * (1 + ib_) + b.inf_error * (1 + ia_) + _times(a.inf_error, b.inf_error)
                   + 4 * _U * inf_c)
        mom_a, mom_b = a._log_moment(), b._log_moment()
        ma_ = math.exp(mom_a) if mom_a > _NEG_INF else 0.0
        mb_ = math.exp(mom_b) if mom_b > _NEG_INF else 0.0
        # finite atoms: products of finite atoms only; errors in the tilted norm are multiplicative
        abs_in = (_times((1 + ra) * ma_, b.abs_error) + _times((1 + rb) * mb_, a.abs_error)
                  + _times(a.abs_error, b.abs_error))
        if na == 0 or nb == 0:
            return self._like(a.offset + b.offset, [], log_inf, (1 + ra) * (1 + rb) - 1, abs_in, inf_err)
        ia, ib = np.flatnonzero(a.log_mass > _NEG_INF), np.flatnonzero(b.log_mass > _NEG_INF)
        if len(ia) * len(ib) <= direct_max:
            lc, rel_c = _direct_log_convolve(a.log_mass, b.log_mass, ia, ib)
            return self._like(a.offset + b.offset, lc, log_inf, (1 + ra) * (1 + rb) * (1 + rel_c) - 1, abs_in, inf_err)
        if na + nb - 1 > MAX_POINTS:
            raise GridTooLarge(f"the composed privacy loss distribution needs {na + nb - 1} grid points of "
                               f"{self.interval:g} (at most {MAX_POINTS})")
        ta = a.log_mass + a.tilt * a.losses
        tb = ta if a is b else b.log_mass + b.tilt * b.losses
        lc, fft_abs, rel_c = _fft_log_convolve(ta, tb, same=a is b)
        out_losses = (a.offset + b.offset + np.arange(len(lc))) * self.interval
        lc = lc - self.tilt * out_losses
        # untilting: the subtraction above has error u (|lc| + tilt |l|): relative
        rel_c += 4 * _U * (750.0 + self.tilt * float(np.max(np.abs(out_losses))))
        rel = (1 + ra) * (1 + rb) * (1 + rel_c) - 1
        out = self._like(a.offset + b.offset, lc, log_inf, rel, abs_in + (1 + ra) * (1 + rb) * fft_abs, inf_err)
        return out._truncated()

    def self_compose(self, rounds: int) -> "PLD":
        """The PLD of ``rounds`` independent copies: repeated squaring, or where the supports
        are past direct convolution, one FFT power (:meth:`_fft_power`: one transform, the
        pointwise power and one inverse on a window sized by Chernoff bounds of the tails), when
        the composed tilted moment is at most e^:data:`FFT_POWER_LOG_MOMENT` (the step's absolute
        error composes with the untruncated moment there, where repeated squaring cuts the tails
        at every step)."""
        t = validate.integer("rounds", rounds, low=1)
        if self._power_applies(t):
            # T = q 2^j + r: the power's round-off grows like q times the 2-norm of what it
            # raises, which the squarings spread out (2^j about T^POWER_SPLIT); r from the same chain
            j = max(0, round(math.log2(t) * POWER_SPLIT), math.ceil(math.log2(t / POWER_MAX)))
            q, rem = divmod(t, 1 << j)
            if q >= FFT_POWER_MIN_ROUNDS:
                # a small support taken to the power because its composition grows past direct
                # convolution: the power's result carries its absolute error, and the squarings
                # before it take the FFT from POWER_DIRECT_MAX products on (their errors are of
                # the power's order); a wide support squares as any composition does
                finite = int(np.count_nonzero(self.log_mass > _NEG_INF))
                direct = POWER_DIRECT_MAX if finite * finite <= DIRECT_MAX_PRODUCTS else DIRECT_MAX_PRODUCTS
                power, low = self, None
                for bit in range(j):
                    if rem >> bit & 1:
                        low = power if low is None else low._compose(power, direct)
                    power = power._compose(power, direct)
                out = power._fft_power(q)
                if out is not None:
                    return out if low is None else out.compose(low)
        result = None
        power = self
        while True:
            if t & 1:
                result = power if result is None else result.compose(power)
            t >>= 1
            if not t:
                break
            power = power.compose(power)
            if power._power_applies(t):  # grown past direct convolution: the rest by the power
                rest = power.self_compose(t)
                return rest if result is None else rest.compose(result)
        return result

    def _power_applies(self, rounds: int) -> bool:
        """Whether :meth:`self_compose` takes the FFT power for ``rounds`` copies: enough rounds,
        a support past direct convolution or a ``rounds``-fold support that grows past it (the
        squarings would reach FFT convolutions: the result carries an absolute error either
        way, and a few points composed a thousand times took a dozen convolutions), a tilt of
        at most :data:`FFT_POWER_MAX_TILT` (the larger tilts that certify tiny deltas keep the
        squarings, whose tail cuts keep their error small) and a composed tilted moment within
        e^FFT_POWER_LOG_MOMENT."""
        if rounds < FFT_POWER_MIN_ROUNDS:
            return False
        finite = int(np.count_nonzero(self.log_mass > _NEG_INF))
        # the squarings' last convolution has about half the composed support on each side
        composed = (len(self) - 1) * rounds + 1
        wide = finite * finite > DIRECT_MAX_PRODUCTS or composed * composed > 4 * DIRECT_MAX_PRODUCTS
        return (wide and self.tilt <= FFT_POWER_MAX_TILT
                and rounds * self.log_moment(self.tilt) <= FFT_POWER_LOG_MOMENT)

    def _tail_window(self, rounds: int, target: float) -> tuple[float, float, float, float, float]:
        """(L_lo, L_hi, log U_inf, log U_tilted, log L_tilted): a loss window of the ``rounds``-fold
        composition of the held masses c outside which the mass is small, by Chernoff bounds
        on their moments g(t) = log sum_i m_i e^{t l_i} (c's moment is g(t) T):
        sum_{l > L_hi} c_l <= e^{T g(t) - t L_hi} (t > 0, untilted), sum_{l > L_hi} c_l e^{tilt l}
        <= e^{T g(t) - (t - tilt) L_hi} (t > tilt), sum_{l < L_lo} c_l e^{tilt l} <= e^{T g(s) +
        (tilt - s) L_lo} (s < tilt). The window is the narrowest these bounds (on a grid of t)
        place within ``target`` (untilted) and ``target`` times the tilted total e^{T g(tilt)}."""
        T = rounds
        lam = self.tilt
        ls = self.losses
        lm = self.log_mass

        lo_sup, hi_sup = T * float(ls[0]), T * float(ls[-1])
        if not target > 0:  # nothing may be left out: the whole support
            return lo_sup, hi_sup, _NEG_INF, _NEG_INF, _NEG_INF
        steps = (1 / 16, 1 / 4, 1 / 2, 1.0, 2.0, 4.0, 8.0, 16.0, 64.0)
        # and steps on the scale of the composed losses' spread (any t gives a valid bound; the
        # fixed ones leave the whole support when the losses are 1e-4 apart, and the FFT's
        # round-off bound grows with the window)
        with np.errstate(under="ignore"):
            w = np.exp(lm - float(np.max(lm)))
        w_total = float(np.sum(w))
        mean = float(np.sum(w * ls)) / w_total
        sd = math.sqrt(T * max(float(np.sum(w * (ls - mean) ** 2)) / w_total, 0.0)) + self.interval
        if 1 / sd > 2 * steps[-1]:
            steps = steps + tuple(c / sd for c in (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0))
        # every moment the bounds use, at once (rows of at most 2^20 entries at a time)
        ts = sorted({lam, *steps, *(lam + t for t in steps), *(lam - t for t in steps)})
        rows = max(1, (1 << 20) // max(len(ls), 1))
        values = np.concatenate([logsumexp(lm[None, :] + np.asarray(ts[i:i + rows])[:, None] * ls[None, :], axis=1)
                                 for i in range(0, len(ts), rows)])
        moments = dict(zip(ts, values.tolist()))

        def g(t):
            return moments[t]

        log_tau = math.log(target)
        log_tilted = T * g(lam) + log_tau
        hi_inf = min((T * g(t) - log_tau) / t for t in steps)
        hi_til = min((T * g(lam + t) - log_tilted) / t for t in steps)
        lo_til = max((log_tilted - T * g(lam - t)) / t for t in steps)
        L_hi = min(max(hi_inf, hi_til), hi_sup)
        L_lo = max(lo_til, lo_sup)
        # the bounds at the chosen ends (-inf where the window holds the whole support)
        u_inf = min(T * g(t) - t * L_hi for t in steps) if L_hi < hi_sup else _NEG_INF
        u_til = min(T * g(lam + t) - t * L_hi for t in steps) if L_hi < hi_sup else _NEG_INF
        l_til = min(T * g(lam - t) + t * L_lo for t in steps) if L_lo > lo_sup else _NEG_INF
        return L_lo, L_hi, u_inf, u_til, l_til

    def _fft_power(self, rounds: int) -> "PLD | None":
        """The ``rounds``-fold composition by one FFT power: the tilted masses a (scaled to sum
        1) transformed once on a window of the composed losses (:meth:`_tail_window`), raised to
        the power T pointwise (binary exponentiation), transformed back; the cyclic wrap-around
        of the mass outside the window is bounded by the window's Chernoff bounds. None when
        the window is not smaller than the supports repeated squaring would reach.

        Error (derived here, docs/errata.md#derived-pld-fft-power; Higham 2002, Theorem 24.2 for
        each transform, with the margin of :data:`FFT_ERROR_FACTOR`): a transform is within
        eta ||.||_2 of the exact one, eta = (FFT_ERROR_FACTOR / 3) u (log2 N + 2); a spectral
        value z with |z| <= B moved by d moves z^T by at most T d B^(T-1); binary exponentiation
        multiplies relative errors of at most 3 u into at most 2T factors (6.2 u T of each
        computed value). In the 2-norm of the output: T B^(T-1) eta ||a||_2 + 6.2 u T ||z||_2 /
        sqrt(N) + eta ||y||_2; the L1 norm over N points is sqrt(N) times that. Entries at or
        below the 2-norm bound are set to 0 (their values join the error). The mass outside
        the window: its tilted total wraps into the window and is missing outside it (held as
        0), both absolute errors; the tail cut that follows (:meth:`_truncated`) is as after
        any FFT convolution. Errors of the step compose as in
        :meth:`compose`: relative (1 + r)^T - 1, absolute ((1 + r) M + E)^T - ((1 + r) M)^T in
        the tilted norm (M the tilted total)."""
        T = rounds
        n = len(self)
        lam, dx = self.tilt, self.interval
        L_lo, L_hi, _, u_til, l_til = self._tail_window(T, self.tail_mass)
        k_lo = math.floor(L_lo / dx) - 1
        k_hi = math.ceil(L_hi / dx) + 1
        width = k_hi - k_lo + 1
        size = sfft.next_fast_len(max(width, n), real=True)
        if size > 8 * max(n, 1) * max(1.0, math.sqrt(T)) and size > (1 << 24):
            return None
        # window ends moved to the grid: the bounds hold for any window containing [L_lo, L_hi]
        losses = self.losses
        tilted = self.log_mass + lam * losses
        shift = float(np.max(tilted))
        with np.errstate(under="ignore"):
            a = np.exp(tilted - shift)
        total = float(np.sum(a))
        log_scale = shift + math.log(total)
        a = a / total
        finite = np.isfinite(tilted)
        # the inputs' relative error: the tilt's product and sum, the exp, the division
        r_in = 4 * _U * (4 + float(np.max(np.abs(np.where(finite, tilted, 0.0)))) + abs(log_scale))
        tiny = int(np.count_nonzero(finite & (tilted - log_scale < -700)))
        a1 = 1 + (n + 4) * _U + r_in
        # position of a[0] in the window: grid offset*T is the composed position of index 0
        start = (self.offset * T - k_lo) % size
        fa = sfft.rfft(a, size)
        l2a = math.sqrt(float(np.sum(a * a))) * (1 + 1e-12)
        eta = FFT_ERROR_FACTOR / 3 * _U * (math.log2(size) + 2)
        spec_err = eta * math.sqrt(size) * l2a
        B = a1 + spec_err
        z = np.ones_like(fa)
        base = fa
        t = T
        while True:
            if t & 1:
                z = z * base
            t >>= 1
            if not t:
                break
            base = base * base
        y = sfft.irfft(z, size)
        y = np.roll(y, start)
        log_bt = (T - 1) * math.log(B)
        if log_bt > 700:
            return None
        # the power's rounding, relative to each computed spectral value (their 2-norm is
        # sqrt(size) times the output's, Parseval; the half spectrum counted twice)
        l2z = math.sqrt(2 * float(np.sum(np.abs(z) ** 2)) / size)
        err2 = (T * math.exp(log_bt) * eta * l2a + 6.2 * _U * T * l2z
                + eta * (math.sqrt(float(np.sum(y * y))) + 1e-300)) * 1.01
        err2 += T * math.exp(log_bt) * tiny * math.exp(-700)  # underflowed inputs (absolute, L1 >= 2-norm)
        err1 = math.sqrt(size) * err2
        noise = y <= err2
        err1 += float(np.sum(np.where(noise & (y > 0), y, 0.0)))
        y = np.where(noise, 0.0, y)
        grid = (k_lo + np.arange(size)) * dx
        with np.errstate(divide="ignore"):
            lc = np.where(y > 0, np.log(np.where(y > 0, y, 1.0)) + T * log_scale - lam * grid, _NEG_INF)
        keep = np.flatnonzero(lc > _NEG_INF)
        if keep.size == 0:
            return None
        lc = lc[keep[0]:keep[-1] + 1]
        out_offset = k_lo + int(keep[0])
        # error model: relative parts, absolute parts (tilted norm), the +inf atom
        r = self.rel_error
        rel_c = 4 * _U * (2 + 745.0 + abs(T * log_scale) + lam * float(np.max(np.abs(grid)))) + 4 * _U
        rel = math.exp(T * (math.log1p(r) + math.log1p(r_in))) * (1 + rel_c) - 1
        mom = self._log_moment()
        m_ = math.exp(mom) if mom > _NEG_INF else 0.0
        if self.abs_error > 0 and m_ > 0:
            base_m = (1 + r) * m_
            abs_step = base_m ** T * math.expm1(T * math.log1p(self.abs_error / base_m)) if T * math.log(
                base_m + self.abs_error) < 700 else math.inf
        else:
            abs_step = 0.0 if self.abs_error == 0 else math.inf
        scale = math.exp(T * log_scale) if T * log_scale < 700 else math.inf
        ut = math.exp(u_til) if u_til > _NEG_INF else 0.0
        lt = math.exp(l_til) if l_til > _NEG_INF else 0.0
        # outside the window: wrapped into it, and missing from it (held as 0), both errors
        fft_abs = _times(err1, scale) + 2 * (ut + lt)
        abs_total = abs_step + (1 + rel) * fft_abs
        p_inf = self.inf_mass
        inf_c = -math.expm1(T * math.log1p(-p_inf)) if p_inf < 1 else 1.0
        log_inf = math.log(inf_c) if inf_c > 0 else _NEG_INF
        inf_err = T * (self.inf_error + r * p_inf) + 8 * _U * (T + 1) * inf_c
        out = self._like(out_offset, lc, log_inf, rel, abs_total, inf_err)
        return out._truncated()

    def _truncated(self) -> "PLD":
        """Cut at most ``tail_mass`` from each tail. Pessimistic: the upper tail goes to +inf,
        the lower tail moves up to the first kept point (only without tilt: with a tilt the FFT
        noise floor removes it). Optimistic: the upper tail moves down to the last kept point, the
        lower tail is dropped (to loss -inf)."""
        if self.tail_mass == 0 or len(self) < 3:
            return self
        m = np.exp(self.log_mass)
        n = len(m)
        i0 = int(np.searchsorted(np.cumsum(m), self.tail_mass, side="right"))      # [0, i0) cut
        j0 = int(np.searchsorted(np.cumsum(m[::-1]), self.tail_mass, side="right"))  # last j0 cut
        if self.pessimistic and self.tilt > 0:
            i0 = 0
        if (i0 == 0 and j0 == 0) or i0 + j0 >= n:
            return self
        lm = np.array(self.log_mass[i0:n - j0])
        low_cut = float(logsumexp(self.log_mass[:i0])) if i0 else _NEG_INF
        high_cut = float(logsumexp(self.log_mass[n - j0:])) if j0 else _NEG_INF
        log_inf, inf_err, abs_err = self.log_inf_mass, self.inf_error, self.abs_error
        moved_rounding = 8 * (max(i0, j0) + 8) * _U * (1 + self.rel_error)
        if self.pessimistic:
            if i0:  # tilt 0: weights unchanged
                lm[0] = np.logaddexp(lm[0], low_cut)
                abs_err += math.exp(low_cut) * moved_rounding
            if j0:
                log_inf = float(np.logaddexp(log_inf, high_cut))
                # the moved atoms' errors now sit at +inf, untilted: sum e_i <= E exp(-tilt l_cut)
                l_cut = (self.offset + n - j0) * self.interval
                inf_err += self.abs_error * math.exp(-self.tilt * l_cut) + math.exp(high_cut) * (self.rel_error + moved_rounding)
        else:
            if j0:  # moved down: tilted weights decrease
                lm[-1] = np.logaddexp(lm[-1], high_cut)
                abs_err += math.exp(high_cut + self.tilt * (self.offset + n - j0 - 1) * self.interval) * moved_rounding
        return self._like(self.offset + i0, lm, log_inf, self.rel_error, abs_err, inf_err)

    # ------------------------------------------------------------------ delta
    def log_delta_enclosure(self, epsilon) -> tuple[float, float]:
        """Certified (log lower, log upper) of delta(epsilon) of the discretised pair."""
        eps = validate.real("epsilon", epsilon)
        n = len(self)
        terms_up = [self.log_inf_mass]
        terms_lo = [self.log_inf_mass]
        # atoms at losses below epsilon - interval have weight 0 (exactly -inf below): skipped
        start = 0
        if n and math.isfinite(eps) and abs(eps) < 1e12:
            start = min(max(0, math.floor(eps / self.interval) - self.offset - 2), n)
        if n - start > 0:
            k = self.offset + np.arange(start, n)
            loss = k * self.interval
            t = loss - eps  # loss minus epsilon
            dt = 4 * _U * (np.abs(loss) + abs(eps)) + 1e-300
            lm = self.log_mass[start:]
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                w_up = np.where(t + dt > 0, np.log(-np.expm1(-(t + dt))), _NEG_INF)
                w_lo = np.where(t - dt > 0, np.log(-np.expm1(-(t - dt))), _NEG_INF)
            terms_up.append(float(logsumexp(lm + w_up)))
            terms_lo.append(float(logsumexp(lm + w_lo)))
        s_up, s_lo = float(logsumexp(terms_up)), float(logsumexp(terms_lo))
        # logsumexp of n positive terms (exp, sum, log) and the weights' own rounding
        lse = 8 * _U * (n + 8) + 8 * _U * 750
        r = self.rel_error
        e = self.abs_error * _weight_bound(self.tilt, eps) + self.inf_error
        log_e = math.log(e) if e > 0 else _NEG_INF
        hi = float(np.logaddexp(s_up + math.log1p(r) + lse, log_e)) if s_up > _NEG_INF else log_e
        if s_lo > _NEG_INF:
            core = s_lo + math.log1p(-r) - lse
            lo = core + math.log(-math.expm1(log_e - core)) if log_e < core else _NEG_INF
        else:
            lo = _NEG_INF
        # delta = H_{e^eps}(P||Q) <= 1: a larger upper end (the error bound) says only that
        hi = min(hi, 0.0)
        lo = min(lo, hi)
        return (float(rounding.down(lo)) if lo > _NEG_INF else _NEG_INF,
                float(rounding.up(hi)) if hi > _NEG_INF else _NEG_INF)

    def delta(self, epsilon) -> Result:
        """delta(epsilon) = E_P[(1 - e^{epsilon - L})_+] + P(L = inf) of the discretised pair.

        A pessimistic PLD gives an upper bound on the delta of the pair it discretises (and of
        every composition it stands for), an optimistic one a lower bound. The interval
        encloses the discretised pair's delta with every floating-point error; ``log_lower`` and
        ``log_upper`` keep values below the float range.
        """
        lo, hi = self.log_delta_enclosure(epsilon)
        note = self._note()
        if hi >= 0.0:
            note += "; the error bound reaches 1 here: the certified statement is only delta <= 1"
        elif lo == _NEG_INF and self.pessimistic:
            note += "; the upper end is at the float error floor (the discretised delta is below it)"
        res = Result.from_log("delta", lo, hi, kind=self._kind(), status=Status.PROVEN,
                              method="pld-" + ("pessimistic" if self.pessimistic else "optimistic"),
                              source=SOURCE, note=note, params=self._params(epsilon=float(epsilon)))
        # delta <= 1 exactly (the rounding of e^0 upwards must not lift it above)
        return res if res.upper <= 1.0 else res.replace(upper=1.0, lower=min(res.lower, 1.0))

    def _kind(self) -> Kind:
        return Kind.UPPER if self.pessimistic else Kind.LOWER

    def _note(self) -> str:
        base = (f"grid interval {self.interval:g}, {'pessimistic (split/rounded up)' if self.pessimistic else 'losses rounded down'}; "
                f"float error: relative {self.rel_error:.2g}, absolute {self.abs_error:.2g} (tilt {self.tilt:g}) "
                f"+ {self.inf_error:.2g} at +inf")
        return f"{self.note}; {base}" if self.note else base

    def _params(self, **extra) -> dict:
        return {"interval": self.interval, "support": len(self), "rel_error": self.rel_error,
                "abs_error": self.abs_error, "inf_error": self.inf_error, "tilt": self.tilt, **extra}

    def max_finite_loss(self) -> float:
        return (self.offset + len(self) - 1) * self.interval if len(self) else 0.0

    def epsilon(self, delta) -> Result:
        """epsilon(delta) = inf{epsilon >= 0 : delta(epsilon) <= delta} of the discretised pair,
        as a certified bracket (the one inverter). ``inf`` when the +inf atom alone exceeds delta."""
        d = validate.delta("delta", delta)
        top = max(self.max_finite_loss(), 0.0)
        fields = dict(kind=self._kind(), status=Status.PROVEN,
                      method="pld-" + ("pessimistic" if self.pessimistic else "optimistic"), source=SOURCE)
        seen: dict[float, tuple[float, float]] = {}

        def enclosure(e):
            # the enclosure of one epsilon is fixed (no tolerance to tighten): computed once
            if e not in seen:
                seen[e] = self.log_delta_enclosure(e)
            return seen[e]

        below, above = rounding.log_down(d), rounding.log_up(d)
        guess, slope = self._epsilon_guess(d)
        if guess is not None and 0 < guess < top and slope < 0:
            # the enclosure's width is about constant near the answer, and log delta about linear:
            # from the enclosure at the guess and the profile's slope there, the points where its
            # upper end and its lower end cross log delta, moved outwards by a margin (2% of their
            # distance from the guess): when both are certified, the bracket is the narrowest the
            # enclosures allow, at three evaluations
            l0, h0 = enclosure(guess)
            if math.isfinite(h0) and math.isfinite(l0):
                log_d = math.log(d)
                e_hi, e_lo = guess + (h0 - log_d) / -slope, guess + (l0 - log_d) / -slope
                pad = 0.02 * max(abs(e_hi - guess), abs(e_lo - guess)) + 1e-9 * guess
                b, a = min(e_hi + pad, top), e_lo - pad
                if 0 < a < b and enclosure(b)[1] <= below and enclosure(a)[0] > above:
                    return Result("epsilon", a, b, note=self._note(),
                                  params=self._params(delta=d, evaluations=len(seen)), **fields)
        # else (near the float error floor, where the enclosure widens): a narrow bracket around
        # the guess, then the search
        lo_top, hi_top = enclosure(top)
        if hi_top > below:
            if lo_top > above:
                return Result("epsilon", top, math.inf, note=self._note() + "; the mass at +inf loss exceeds delta",
                              params=self._params(delta=d), **fields)
            return Result("epsilon", 0.0, math.inf, note=self._note() + "; undecided at the largest loss",
                          params=self._params(delta=d), **fields)
        lower, upper = 0.0, top
        rtol = 1e-9
        if guess is not None and 0 < guess < top:
            # the enclosure's own width limits the bracket: ask for no more than it allows
            # (a tighter target only makes the search straddle the target point after point)
            l0, h0 = enclosure(guess)
            l1, h1 = enclosure(min(guess * 1.001, top))
            slope = abs(0.5 * (l0 + h0) - 0.5 * (l1 + h1)) / (min(guess * 1.001, top) - guess)
            if slope > 0 and math.isfinite(h0 - l0):
                rtol = min(1e-3, max(rtol, 4 * (h0 - l0) / (slope * guess)))
            # certify a narrow bracket around the guess (each end by one enclosure), from the
            # narrowest the enclosures allow: the answer when it is certified at once, else the
            # search's starting bracket
            hi_ok = lo_ok = None
            for w in sorted({max(rtol / 32, 1e-9), max(rtol / 4, 1e-9), max(rtol, 1e-8), 1e-4, 1e-2}):
                a, b = guess * (1 - w), min(guess * (1 + w), top)
                if hi_ok is None and enclosure(b)[1] <= below:
                    hi_ok = b
                if lo_ok is None and enclosure(a)[0] > above:
                    lo_ok = a
                if hi_ok is not None and lo_ok is not None:
                    break
            lower = lo_ok if lo_ok is not None else 0.0
            upper = hi_ok if hi_ok is not None else top
        bracket = epsilon_bracket(lambda e, _tol: enclosure(e), d,
                                  SearchParameters(lower=lower, upper=upper, rtol=rtol, atol=1e-12,
                                                   max_evaluations=200))
        return Result("epsilon", bracket.lower, bracket.upper, note=self._note(),
                      params=self._params(delta=d, evaluations=len(seen)), **fields)

    def _epsilon_guess(self, delta: float) -> tuple[float | None, float]:
        """A float estimate of epsilon(delta) and of the slope of log delta there (not certified:
        they only place the search), from the profile at every grid loss at once: on
        [l_{j-1}, l_j] delta(eps) = A_j - e^eps B_j + P(inf) with A_j, B_j the sums of m_i and
        m_i e^{-l_i} over i >= j (scaled by the largest term to stay in range), so that
        d log delta / d eps = -e^eps B_j / delta = -(A_j - (delta - P(inf))) / delta.
        (None, nan) where there is no estimate."""
        none = (None, math.nan)
        n = len(self)
        if n == 0:
            return none
        loss = self.losses
        shift = float(np.max(self.log_mass))
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            m = np.exp(self.log_mass - shift)
            lq = self.log_mass - loss
            qshift = float(np.max(lq))
            mq = np.exp(lq - qshift)
            a = np.cumsum(m[::-1])[::-1]
            b = np.cumsum(mq[::-1])[::-1]
            target = (delta - self.inf_mass) / math.exp(shift)
            if not target > 0:
                return none
            # delta at l_{j-1} from the atoms at i >= j
            prof = a[1:] - np.exp(loss[:-1] + qshift - shift) * b[1:]
        below = np.flatnonzero(prof <= target)
        if len(below) == 0:
            return none
        j = int(below[0]) + 1           # delta(l_{j-1}) <= target: the answer is at most l_{j-1}
        if j <= 1:
            return none
        # on [l_{j-2}, l_{j-1}]: target = A_{j-1} - e^eps B_{j-1} (scaled)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            e = math.log(max(a[j - 1] - target, 1e-300)) - math.log(max(b[j - 1], 1e-300)) - qshift + shift
            slope = -float(a[j - 1] - target) * math.exp(shift) / delta
        return (e, slope) if math.isfinite(e) and e > 0 else none

    # ------------------------------------------------------------------ trade-off
    def tradeoff(self, *, max_lines: int = 20000):
        """A certified LOWER bound on the trade-off function T(P, Q) of the pair this PLD stands
        for (pessimistic PLDs only).

        The discretised pair (P~, Q~) has knots alpha_k = P~(L <= l_k), beta_k = Q~(L > l_k) =
        sum_{i > k} e^{-l_i} P~_i, and on segment k the slope -e^{-l_k}; each supporting line
        beta >= beta_k - e^{-l_k} (alpha - alpha_k) is moved down and left by the error model, and
        the upper envelope of (at most ``max_lines`` of) these lines, clipped at 0, is returned
        (:func:`dptheory.hull.envelope_below`: every segment under one of the lines, whatever the
        rounding of the vertices).
        Any subset of valid lines is a valid lower bound, and T(P~, Q~) <= T(P, Q).
        """
        from . import tradeoff as tradeoff_module

        if not self.pessimistic:
            raise validate.DomainError("pessimistic = False is invalid for tradeoff(): an optimistic PLD is not "
                                       "the PLD of a pair, so it has no trade-off function; use a pessimistic PLD")
        n = len(self)
        if n == 0:
            return tradeoff_module.from_knots([0.0, 1.0], [0.0, 0.0])
        m = np.exp(self.log_mass)
        loss = self.losses
        r, e, lam = self.rel_error, self.abs_error, self.tilt
        acc = 4 * (n + 4) * _U
        # alpha_k two ways: the sum from below, and 1 - (the sum from above + the +inf atom) (the
        # exact law has total mass 1); each with its error bound, the better lower end is kept
        alpha = np.cumsum(m)
        above = np.append(np.cumsum(m[::-1])[::-1][1:], 0.0)
        alpha2 = 1.0 - above - self.inf_mass
        with np.errstate(over="ignore"):
            next_loss = np.append(loss[1:], loss[-1] + self.interval)
            # errors may sit at any grid point, also below the held support: the sum from below is
            # bounded only without a tilt
            a1_lo = alpha * (1 - r - acc) - e if lam == 0 else np.full(n, -np.inf)
            a2_lo = alpha2 - above * (r + acc) - e * np.exp(np.minimum(-lam * next_loss, 700.0)) \
                - self.inf_error - self.inf_mass * r - 4 * _U
        alpha_lo = np.maximum(a1_lo, a2_lo)
        # beta_k = sum_{i > k} m_i e^{-l_i}, accumulated from the top in log space
        lq = self.log_mass - loss
        rev = np.logaddexp.accumulate(lq[::-1])[::-1]
        beta = np.exp(np.append(rev[1:], _NEG_INF))
        with np.errstate(over="ignore"):
            shift = np.exp(np.minimum(-(1 + lam) * next_loss, 700.0))
        beta_lo = beta * (1 - r - acc - 8 * _U * (1 + np.abs(loss).max())) - e * shift
        slope = np.exp(-loss)
        keep = np.flatnonzero(((beta_lo > 0) | (np.arange(n) == 0)) & np.isfinite(beta_lo))
        if len(keep) > max_lines:
            keep = keep[np.unique(np.linspace(0, len(keep) - 1, max_lines).round().astype(int))]
        # the line beta >= by - slope (alpha - ax) has intercept by + slope ax, rounded down
        ax, by = alpha_lo[keep], np.maximum(beta_lo[keep], 0.0)
        with np.errstate(over="ignore", invalid="ignore"):
            raw = by + slope[keep] * ax
            intercept = rounding.down(np.where(np.isnan(raw), -np.inf, raw), abs_err=4 * _U * (by + np.abs(slope[keep] * ax)))
        xs, ys = envelope_below(-slope[keep], intercept)
        return _lower_from_knots(xs, np.minimum(ys, 1.0 - xs))


# ---------------------------------------------------------------------- convolutions


def _direct_log_convolve(la, lb, ia, ib):
    """log of the convolution of exp(la) and exp(lb), term by term in log space, over the
    finite entries ``ia`` of la and ``ib`` of lb.

    Returns (log c, relative error bound): each term exp(la_i + lb_j - max_k) has relative error
    at most 2 u (1 + |exponent|), the sum of at most min(len) positive terms min(len) u, the log
    and the final addition a few ulps; terms more than 740 below the largest of their group
    underflow (at most min(len) e^-740 relative)."""
    n_out = len(la) + len(lb) - 1
    outer = np.add.outer(la[ia], lb[ib]).ravel()
    idx = np.add.outer(ia, ib).ravel()
    gmax = np.full(n_out, _NEG_INF)
    np.maximum.at(gmax, idx, outer)
    with np.errstate(invalid="ignore", under="ignore"):
        s = np.bincount(idx, weights=np.exp(outer - gmax[idx]), minlength=n_out)
    with np.errstate(divide="ignore"):
        lc = np.where(gmax > _NEG_INF, gmax + np.log(np.maximum(s, 1.0)), _NEG_INF)
    spread = float(np.max(np.abs(outer))) if outer.size else 0.0
    m = min(len(ia), len(ib))
    rel = 4 * _U * (m + 4) + 4 * _U * (2 + 2 * spread) + m * math.exp(-740)
    return lc, rel


def _fft_log_convolve(la, lb, same=False):
    """log of the convolution of exp(la) and exp(lb) by FFT.

    Returns (log c, absolute L1 error bound, relative error bound of the inputs' exponentials).
    Entries at or below 0 after the inverse transform are clipped to 0 (log -inf)."""
    ma, mb = float(np.max(la)), float(np.max(lb))
    with np.errstate(under="ignore"):
        a = np.exp(la - ma)
        b = np.exp(lb - mb)
    n_out = len(a) + len(b) - 1
    size = sfft.next_fast_len(n_out, real=True)
    fa = sfft.rfft(a, size)
    fb = fa if same else sfft.rfft(b, size)
    c = sfft.irfft(fa * fb, size)[:n_out]
    l1a, l1b = float(np.sum(a)) * (1 + 1e-12), float(np.sum(b)) * (1 + 1e-12)
    l2a = math.sqrt(float(np.sum(a * a))) * (1 + 1e-12)
    l2b = l2a if same else math.sqrt(float(np.sum(b * b))) * (1 + 1e-12)
    err2 = FFT_ERROR_FACTOR * _U * (math.log2(size) + 2) * (l2a * l1b + l1a * l2b)
    err1 = math.sqrt(n_out) * err2
    # the inputs' exponentials: exp(la - ma) has relative error u (2 + |la - ma|) (the subtraction
    # and exp), an absolute L1 error sum_i a_i u (2 + |la_i - ma|); underflowed ones at most e^-740
    with np.errstate(invalid="ignore"):
        in_a = _U * float(np.sum(np.where(np.isfinite(la), a * (2 + np.abs(la - ma)), 0.0))) * 1.01
        in_b = _U * float(np.sum(np.where(np.isfinite(lb), b * (2 + np.abs(lb - mb)), 0.0))) * 1.01
    small = int(np.count_nonzero(la - ma < -740)) * l1b + int(np.count_nonzero(lb - mb < -740)) * l1a
    err1 += small * math.exp(-740) + in_a * l1b + in_b * l1a + in_a * in_b
    # entries at or below the noise level (err2 bounds every entry's error) are set to 0: the exact
    # value is then within (computed value + its error) of 0, so their computed sum joins the
    # absolute error; without this, round-off noise would keep the tails from being truncated
    noise = (c <= err2)
    err1 += float(np.sum(np.where(noise & (c > 0), c, 0.0)))
    c = np.where(noise, 0.0, c)
    with np.errstate(divide="ignore"):
        lc = np.where(c > 0, np.log(np.where(c > 0, c, 1.0)) + (ma + mb), _NEG_INF)
    scale = math.exp(ma + mb) if ma + mb < 700 else math.inf
    # the log of the outputs (|log c| <= 745 for a positive float) and the shift back
    rel = 4 * _U * (2 + 745.0 + abs(ma + mb))
    return lc, err1 * scale, rel


# ---------------------------------------------------------------------- helpers for pairs of directions


def max_delta(plds, epsilon) -> Result:
    """delta(epsilon) of a mechanism whose neighbouring pairs are dominated by one of the given
    PLDs (e.g. the add and remove directions): the larger of their deltas, as one Result whose
    interval encloses the maximum of the discretised deltas."""
    results = [p.delta(epsilon) for p in plds]
    first = results[0]
    lo = max(r.log_lower for r in results)
    hi = max(r.log_upper for r in results)
    return Result.from_log("delta", lo, hi, kind=first.kind, status=first.status, method=first.method,
                           source=first.source, note=first.note + "; maximum over the neighbouring directions",
                           params={**first.params, "directions": len(results)})


def max_epsilon(plds, delta) -> Result:
    """epsilon(delta) for the maximum of several profiles: the largest of the epsilons (the
    inverse of a maximum of non-increasing functions is the maximum of the inverses)."""
    results = [p.epsilon(delta) for p in plds]
    first = results[0]
    return Result("epsilon", max(r.lower for r in results), max(r.upper for r in results), first.kind, first.status,
                  first.method, first.source, first.note + "; maximum over the neighbouring directions",
                  params={**first.params, "directions": len(results)})


def min_tradeoff_hull(f, g):
    """The largest convex function below min(f, g) of two piecewise-linear trade-off functions:
    a lower bound on every trade-off function that is >= f or >= g (used to combine the two
    neighbouring directions into one symmetric guarantee, min(f, f^-1)**)."""
    from . import tradeoff as tradeoff_module

    fa, fb = f.knots()
    ga, gb = g.knots()
    xs = np.unique(np.concatenate([np.asarray(fa, float), np.asarray(ga, float)]))
    fv, gv = f(xs), g(xs)
    d = fv - gv
    px, py = [xs[0]], [min(fv[0], gv[0])]
    for i in range(1, len(xs)):
        if d[i - 1] * d[i] < 0:
            t = d[i - 1] / (d[i - 1] - d[i])
            x = xs[i - 1] + t * (xs[i] - xs[i - 1])
            px.append(x)
            py.append(min(fv[i - 1] + t * (fv[i] - fv[i - 1]), gv[i - 1] + t * (gv[i] - gv[i - 1])))
        px.append(xs[i])
        py.append(min(fv[i], gv[i]))
    hx, hy = lower_hull(px, py)
    # the hull of points below a trade-off function: knots move down by rounding only
    hy = np.maximum(np.minimum(np.array(hy) - 4 * _U, 1.0 - np.array(hx)), 0.0)
    hy = np.minimum.accumulate(hy)
    return _lower_from_knots(hx, hy)


def _lower_from_knots(xs, ys):
    """The piecewise-linear trade-off function through knots (alpha non-decreasing from 0, beta
    non-increasing), as segments sorted steepest first (tradeoff.PiecewiseLinear's canonical
    form): where rounding left the knots a hair from convex, sorting the segments gives a curve
    below the knots' polyline, so a lower bound stays one."""
    from .tradeoff import PiecewiseLinear

    xs = np.maximum.accumulate(np.clip(np.asarray(xs, dtype=float), 0.0, 1.0))
    ys = np.minimum.accumulate(np.clip(np.asarray(ys, dtype=float), 0.0, 1.0))
    da, db = np.diff(xs), -np.diff(ys)
    p_mass = np.concatenate([[0.0], da, [1.0 - xs[-1]]])
    q_mass = np.concatenate([[1.0 - ys[0]], db, [ys[-1]]])
    return PiecewiseLinear(p_mass, q_mass)


