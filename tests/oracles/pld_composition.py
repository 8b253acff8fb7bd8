"""Independent oracle for the T-fold composition of a discrete pair: delta(epsilon) =
H_{e^epsilon}(P^T||Q^T) by exact enumeration of the composed privacy loss distribution, and
epsilon(delta) by bisection on it. Certified intervals (mpmath.iv), written from the definitions
without reading dptheory's code.

The privacy loss distribution (Dwork and Rothblum 2016; Sommer, Meiser, Mohammadi 2019; Koskela,
Jalko, Honkela 2020). For a pair (P, Q) on a finite space, group the outcomes x with P(x) > 0 into
classes j of equal likelihood ratio; class j has P-mass pi_j, Q-mass kappa_j and privacy loss
l_j = log(pi_j/kappa_j) (+inf if kappa_j = 0). Outcomes with P(x) = 0 never count in
H_g(P^T||Q^T) = sum_x max(P^T(x) - g Q^T(x), 0) and are dropped. Merging outcomes of equal
likelihood ratio changes no divergence, and on the product space the loss is additive, so the
classes of P^T are the count vectors c = (c_1, ..., c_m), sum c_j = T, with

    P^T-mass  T!/(c_1! ... c_m!) prod pi_j^c_j,   Q^T-mass  T!/(c_1! ... c_m!) prod kappa_j^c_j,
    loss      sum_j c_j l_j,

a multinomial over the distinct losses: C(T + m - 1, m - 1) classes, not m^T outcomes. Then

    delta(epsilon) = sum over classes with loss > epsilon of (P-mass - e^epsilon Q-mass),

the optimal set of the hockey-stick divergence (Neyman-Pearson). Classes are merged only when the
inputs are exact numbers (int, float, Fraction, decimal str, mpf) and their ratios are exactly
equal; given as intervals they are kept apart, which is exact too (only slower).

Certification. Masses and losses are intervals. The classes are sorted by the lower end of their
loss; for a given epsilon, the classes whose loss is certainly above epsilon form a prefix of
that order, whose masses are summed once (prefix sums); the few classes whose loss interval
contains epsilon add between 0 and the upper end of max(P - g Q, 0). So

    delta in [lower end of (SP - g SQ), upper end of (SP - g SQ) + sum over ambiguous classes],

SP, SQ the prefix sums. epsilon(delta) is enclosed by :func:`tests.oracles.certified.invert_decreasing`
(bisection on the certified delta). Results are ``(lower, upper)`` at ``digits`` digits.
"""

from __future__ import annotations

import bisect
import math
from fractions import Fraction

import mpmath
from mpmath import iv, mp, mpf
from mpmath.libmp import fone, from_int, fzero, mpf_add, mpf_mul
from mpmath.libmp import round_ceiling as UP
from mpmath.libmp import round_floor as DN

from tests.oracles.certified import (bits_for, clip_nonnegative, enclose, hi, interval,
                                     invert_decreasing, lo, positive_part, to_fraction,
                                     working_precision)


def _exact(x):
    """A Fraction equal to ``x``, or None if ``x`` is not an exact number."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, bool):
        return None
    if isinstance(x, (int, float)):
        return Fraction(x)
    if isinstance(x, str):
        try:
            return Fraction(x)
        except ValueError:
            return None
    if isinstance(x, type(mpf(0))):
        return to_fraction(x) if mpmath.isfinite(x) else None
    return None


def loss_classes(p, q):
    """The classes of one step: a list of ``(pi_j, kappa_j)`` (numbers as given, or Fractions when
    merged), outcomes with P = 0 dropped, outcomes of exactly equal ratio merged when exact."""
    if len(p) != len(q):
        raise ValueError(f"p and q must have the same length, got {len(p)} and {len(q)}")
    exact = [(_exact(a), _exact(b)) for a, b in zip(p, q)]
    if all(a is not None and b is not None for a, b in exact):
        for a, b in exact:
            if a < 0 or b < 0:
                raise ValueError("probabilities must be >= 0")
        merged: dict[object, list[Fraction]] = {}
        for a, b in exact:
            if a == 0:
                continue
            key = "inf" if b == 0 else a / b
            masses = merged.setdefault(key, [Fraction(0), Fraction(0)])
            masses[0] += a
            masses[1] += b
        return [tuple(v) for v in merged.values()]
    return [(a, b) for a, b in zip(p, q) if not (_exact(a) is not None and _exact(a) == 0)]


class ComposedPLD:
    """The T-fold composition of the pair (p, q) (probability vectors on one finite space).

    Parameters
    ----------
    p, q : sequences of numbers (or a callable returning the pair, evaluated at the working
        precision, for masses such as e^eps0 / (e^eps0 + 1) that are not exact numbers)
    steps : int
        T >= 1.
    """

    def __init__(self, p, q=None, steps: int = 1):
        if steps < 1 or int(steps) != steps:
            raise ValueError(f"steps must be a positive integer, got {steps}")
        self._source = p if q is None else (lambda: (p, q))
        self.steps = int(steps)
        self._tables: dict[int, tuple] = {}

    # -- the table of classes at one precision

    def _classes(self):
        p, q = self._source() if callable(self._source) else self._source
        out = []
        for a, b in loss_classes(p, q):
            pa, qb = interval(a), interval(b)
            if hi(pa) == 0:
                continue
            if hi(qb) == 0:
                loss = iv.mpf(["inf", "inf"])
            elif lo(qb) > 0 and lo(pa) > 0:
                loss = iv.log(pa) - iv.log(qb)
            else:
                raise ValueError("a probability's enclosure touches 0: give exact zeros")
            out.append((pa, qb, loss))
        if not out:
            raise ValueError("P has no mass")
        return out

    def table(self):
        """At the current precision: the composed classes sorted by the lower end of their loss
        (descending), as raw ends (mpf tuples) of the losses, of the P- and Q-masses and of their
        prefix sums, plus the largest width of a finite loss.

        The masses are products of non-negative numbers and the losses sums of c_j l_j with c_j
        >= 0, so each end is computed with mpmath's directed rounding (floor for the lower end,
        ceiling for the upper end: the same primitives as ``mpmath.iv``, called directly, which is
        several times faster for this many classes)."""
        prec = iv.prec
        if prec in self._tables:
            return self._tables[prec]
        base = self._classes()
        m, T = len(base), self.steps
        p_lo = [a._mpi_[0] for a, _, _ in base]
        p_hi = [a._mpi_[1] for a, _, _ in base]
        q_lo = [b._mpi_[0] for _, b, _ in base]
        q_hi = [b._mpi_[1] for _, b, _ in base]
        l_lo = [x._mpi_[0] for _, _, x in base]
        l_hi = [x._mpi_[1] for _, _, x in base]

        def powers(x, rnd):
            out = [fone]
            for _ in range(T):
                out.append(mpf_mul(out[-1], x, prec, rnd))
            return out

        pw = [(powers(p_lo[j], DN), powers(p_hi[j], UP), powers(q_lo[j], DN), powers(q_hi[j], UP))
              for j in range(m)]
        rows = []   # (loss lo, loss hi, P lo, P hi, Q lo, Q hi)

        def rec(j, left, mult, a_lo, a_hi, b_lo, b_hi, s_lo, s_hi):
            pl, ph, ql, qh = pw[j]
            if j == m - 1:
                c = left
                if c:
                    s_lo = mpf_add(s_lo, mpf_mul(from_int(c), l_lo[j], prec, DN), prec, DN)
                    s_hi = mpf_add(s_hi, mpf_mul(from_int(c), l_hi[j], prec, UP), prec, UP)
                m_lo, m_hi = from_int(mult, prec, DN), from_int(mult, prec, UP)
                rows.append((s_lo, s_hi,
                             mpf_mul(mpf_mul(a_lo, pl[c], prec, DN), m_lo, prec, DN),
                             mpf_mul(mpf_mul(a_hi, ph[c], prec, UP), m_hi, prec, UP),
                             mpf_mul(mpf_mul(b_lo, ql[c], prec, DN), m_lo, prec, DN),
                             mpf_mul(mpf_mul(b_hi, qh[c], prec, UP), m_hi, prec, UP)))
                return
            for c in range(left + 1):
                if c:
                    n_lo = mpf_add(s_lo, mpf_mul(from_int(c), l_lo[j], prec, DN), prec, DN)
                    n_hi = mpf_add(s_hi, mpf_mul(from_int(c), l_hi[j], prec, UP), prec, UP)
                else:
                    n_lo, n_hi = s_lo, s_hi
                rec(j + 1, left - c, mult * math.comb(left, c),
                    mpf_mul(a_lo, pl[c], prec, DN), mpf_mul(a_hi, ph[c], prec, UP),
                    mpf_mul(b_lo, ql[c], prec, DN), mpf_mul(b_hi, qh[c], prec, UP), n_lo, n_hi)

        rec(0, T, 1, fone, fone, fone, fone, fzero, fzero)
        make = mp.make_mpf
        rows.sort(key=lambda r: make(r[0]), reverse=True)
        sp_lo, sp_hi, sq_lo, sq_hi = [fzero], [fzero], [fzero], [fzero]
        for r in rows:
            sp_lo.append(mpf_add(sp_lo[-1], r[2], prec, DN))
            sp_hi.append(mpf_add(sp_hi[-1], r[3], prec, UP))
            sq_lo.append(mpf_add(sq_lo[-1], r[4], prec, DN))
            sq_hi.append(mpf_add(sq_hi[-1], r[5], prec, UP))
        keys = [-make(r[0]) for r in rows]          # ascending, for bisect
        width = mpf(0)
        for r in rows:
            a, b = make(r[0]), make(r[1])
            if mpmath.isfinite(a):
                width = max(width, hi(iv.mpf(b) - iv.mpf(a)))     # rounded up
        out = dict(rows=rows, keys=keys, sp=(sp_lo, sp_hi), sq=(sq_lo, sq_hi), width=width)
        self._tables[prec] = out
        return out

    @property
    def classes(self) -> int:
        """Number of classes of the composition, C(T + m - 1, m - 1) for m classes of one step."""
        with working_precision(bits_for(15)):
            m = len(self._classes())
        return math.comb(self.steps + m - 1, m - 1)

    # -- delta and epsilon

    def delta_interval(self, epsilon):
        """Interval of delta(epsilon) at the current precision (see the module docstring)."""
        t = self.table()
        rows, keys = t["rows"], t["keys"]
        make = mp.make_mpf
        eps = interval(epsilon)
        gamma = iv.exp(eps)
        # certainly above: lower end of the loss > upper end of epsilon (a prefix)
        k1 = bisect.bisect_left(keys, -hi(eps))
        while k1 > 0 and not make(rows[k1 - 1][0]) > hi(eps):
            k1 -= 1
        while k1 < len(rows) and make(rows[k1][0]) > hi(eps):
            k1 += 1
        (sp_lo, sp_hi), (sq_lo, sq_hi) = t["sp"], t["sq"]
        sp = iv.mpf([make(sp_lo[k1]), make(sp_hi[k1])])
        sq = iv.mpf([make(sq_lo[k1]), make(sq_hi[k1])])
        base = sp - gamma * sq
        extra = iv.mpf(0)
        floor = lo(iv.mpf(lo(eps)) - t["width"])                  # rounded down
        k = k1
        while k < len(rows) and make(rows[k][0]) >= floor:
            r = rows[k]
            if make(r[1]) >= lo(eps):
                pm = iv.mpf([make(r[2]), make(r[3])])
                qm = iv.mpf([make(r[4]), make(r[5])])
                extra += iv.mpf(hi(positive_part(pm - gamma * qm)))
            k += 1
        return clip_nonnegative(iv.mpf([lo(base), hi(base + extra)]))

    def delta(self, epsilon, digits: int = 50):
        """H_{e^epsilon}(P^T||Q^T).

        Parameters
        ----------
        epsilon : number
            Any real epsilon.
        digits : int
            Decimal digits of the result.

        Returns
        -------
        (lower, upper) : mpmath numbers
            An enclosure (see the module docstring).
        """
        return enclose(lambda: self.delta_interval(epsilon), digits, nonnegative=True)

    def epsilon(self, delta, digits: int = 50):
        """epsilon(delta) = inf{eps >= 0 : delta(eps) <= delta}.

        Parameters
        ----------
        delta : number
            In [0, 1].
        digits : int
            Decimal digits of the result.

        Returns
        -------
        (lower, upper) : mpmath numbers
            An enclosure, by bisection on the certified delta; (+inf, +inf) when the P^T-mass at
            infinite loss certainly exceeds delta (no finite epsilon), an upper end +inf when that
            cannot be decided.
        """
        d = interval(delta)
        if not (lo(d) >= 0 and hi(d) <= 1):
            raise ValueError(f"delta must lie in [0, 1], got {delta}")

        def compute():
            rows = self.table()["rows"]
            finite = [mp.make_mpf(r[1]) for r in rows if mpmath.isfinite(mp.make_mpf(r[0]))]
            top = max(finite, default=mpf(0))
            limit = max(mpf(1), 2 * (top + 1))
            # beyond every finite loss delta is the mass at infinite loss, constant
            if lo(self.delta_interval(limit)) > hi(d):
                return iv.mpf(["inf", "inf"])
            return invert_decreasing(self.delta_interval, delta, start=1, limit=limit)

        return enclose(compute, digits, nonnegative=True)


def composed_delta(p, q, steps: int, epsilon, digits: int = 50):
    """Enclosure of H_{e^epsilon}(P^T||Q^T), T = ``steps`` (see :class:`ComposedPLD`)."""
    return ComposedPLD(p, q, steps).delta(epsilon, digits)


def composed_epsilon(p, q, steps: int, delta, digits: int = 50):
    """Enclosure of epsilon(delta) of the T-fold composition (see :class:`ComposedPLD`)."""
    return ComposedPLD(p, q, steps).epsilon(delta, digits)
