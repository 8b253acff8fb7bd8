"""Exact delta(epsilon) of shuffled generalized randomized response, over the worst dataset.

Generalized randomized response on k options (GRR, Kairouz et al. 2016) reports the true value
with probability ``p = e^eps0 / (e^eps0 + k - 1)`` and each other value with probability
``r = 1 / (e^eps0 + k - 1)``. The shuffled output of n users is their histogram. Derived here
(docs/tightness.md#generalized-randomized-response):

* **Which pairs.** Relabelling the values maps any pair of neighbouring datasets onto one where the
  victim holds value 1 in the first dataset and 2 in the second; a dataset is then the count vector
  c of the m = n - 1 others. Exchanging values 1 and 2 maps H_gamma(P2 || P1) at c onto
  H_gamma(P1 || P2) at c with c_1, c_2 exchanged, so one direction over every c suffices.
* **Bounds over a family of datasets.** Every GRR row is ``k r`` times the uniform row plus
  ``p - r`` times the point mass at the user's value. Every dataset with c >= L (componentwise,
  w = m - |L| free users) is therefore the dataset L plus w users each of whom sends a uniform
  message with probability k r and its own value otherwise; given which of them send uniform
  messages, the pair is that of L plus N ~ Bin(w, k r) uniform users, shifted by the others'
  known values (a bijection of the histograms). Joint convexity and data processing (a further
  uniform user is independent of the victim) give ``H_gamma <= E_N H_gamma(L + N uniform users)``,
  bounded on a ladder of N (:meth:`GRR.bound`).
* **The search.** Best-first branch and bound over the triangle of (c_1, c_2, c_3): a family of
  side w is covered by its three corner families of side ceil(2w/3). A family whose bound is
  below the best dataset's certified value is excluded; single datasets get their exact law (a
  dense dynamic programme over the counts of the output classes, every entry a sum of
  non-negative products, its error bounded as in :mod:`dptheory.shuffle.exact`). The laws do not
  depend on epsilon: they are kept, and an epsilon(delta) inversion re-evaluates them.
* **k > 3: every dataset.** A dataset is (c_1, c_2) and a spread of the other M users over the
  values 3..k. The search runs over the triangle of (c_1, c_2, M). Its lower end is the largest
  delta over the concentrated datasets (the M others all on value 3; output classes 1, 2, 3 and the
  rest merged): real datasets, the worst one reported. Its upper end bounds every spread, by the
  *augmented experiment* of (c_1, c_2, M): of the J messages of the victim and the holders of 1
  and 2 that land in 3..k only min(J, M - I) are kept (I: the M others' messages there). A channel
  that does not depend on the victim turns it into any spread (data processing), it equals the
  concentrated dataset where c_1 = c_2 = 0 or M = 0, and a family's uniform users join its
  kept group, so the family bounds carry over (:meth:`GRR._augment`;
  docs/tightness.md#generalized-randomized-response, steps 1-7). Where the two ends meet the
  value is the exact worst case; at every setting measured they do (k = 4 to 8, n <= 100).
"""

from __future__ import annotations

import dataclasses
import functools
import heapq
import math

import numpy as np

from .. import rounding, validate
from ..precision import binom_cdf, binom_sf, binom_tail_rtol
from ..results import Enclosure, NotApplicable
from . import exact
from .exact_rr import search_epsilon_bracket

#: float64 unit roundoff
_U = rounding.EPS / 2

#: uniform users are dropped from a family's bound while P(N < j) stays below this fraction of the
#: best dataset's value (the rest of the family's slack)
TAIL_FRACTION = 1e-3

#: float64 entries of laws an engine keeps between searches (about 640 MB; an epsilon(delta)
#: inversion of GRR(3) at n = 300 keeps about 70 million: with 50 million it recomputed them, 4.1 s
#: instead of 2.8 s)
KEEP_ENTRIES = 80_000_000

#: histogram entries (summed over the dynamic programme's steps) one search may compute before it
#: gives up: about 60 s (4e8 took 4 s at n = 300 on a loaded 2-core machine)
MAX_SEARCH_ENTRIES = 6_000_000_000


def grr_size(randomizer) -> int | None:
    """k of a generalized randomized response randomizer (k >= 3: a k x k pmf matrix with one
    value on the diagonal and another off it, larger on the diagonal), else None."""
    m = getattr(randomizer, "pmfs", None)
    if m is None:
        return None
    m = np.asarray(m, dtype=float)
    k = m.shape[0]
    if m.ndim != 2 or m.shape[1] != k or k < 3:
        return None
    diag, off = m[0, 0], m[0, 1]
    mask = ~np.eye(k, dtype=bool)
    if not (np.all(np.diag(m) == diag) and np.all(m[mask] == off) and 1 > diag > off > 0):
        return None
    return k


def _add(dist: np.ndarray, row) -> np.ndarray:
    """The histogram law of one more user with class probabilities ``row`` (the last class
    implicit): ``dist`` is a dense (C-1)-dimensional array over the counts of the first C-1 classes.
    Every entry is a sum of at most C non-negative products (the error of exact._rel_error)."""
    out = np.zeros(tuple(s + 1 for s in dist.shape))
    inner = tuple(slice(0, s) for s in dist.shape)
    np.multiply(dist, row[-1], out=out[inner])
    tmp = np.empty_like(dist)
    for axis in range(dist.ndim):
        shifted = tuple(slice(1, None) if a == axis else slice(0, s) for a, s in enumerate(dist.shape))
        np.multiply(dist, row[axis], out=tmp)
        view = out[shifted]
        np.add(view, tmp, out=view)
    return out


@dataclasses.dataclass
class _Law:
    """The histogram law of the others (``others``, dense over the counts of the first C-1
    classes) of a pair whose two laws (victim on value 1 and on value 2) add one user to it, and
    the relative error per entry of those two laws."""

    others: np.ndarray
    eta: float


@dataclasses.dataclass
class _AugLaw:
    """The two laws (victim on value 1, on value 2) of the augmented experiment of a pair (k > 3),
    over the statistic (h1, h1 + h2, a3) restricted to the entries where either is positive, and
    the relative error per entry of both."""

    p0: np.ndarray
    p1: np.ndarray
    eta: float


class GRR:
    """Exact worst-case delta(epsilon) of n shuffled users of GRR on k options.

    Every dataset is searched. For k > 3 the lower end is the worst dataset whose others' values
    outside the victim's two are all one value, and the upper end bounds every spread of them by
    the augmented experiment (docs/tightness.md#generalized-randomized-response): the enclosure
    is the exact worst case where the two meet.

    Parameters
    ----------
    randomizer : Randomizer
        Generalized randomized response (:func:`grr_size` not None).
    n : int
        Number of users (n >= 2).
    """

    def __init__(self, randomizer, n: int):
        k = grr_size(randomizer)
        if k is None:
            raise validate.DomainError(f"randomizer {getattr(randomizer, 'name', randomizer)!r} is not generalized "
                                       "randomized response on k >= 3 options")
        self.k = k
        self.n = validate.integer("n", n, low=2)
        self.m = self.n - 1
        self.eps0 = getattr(randomizer, "eps0", None)
        table = exact._float_matrix(randomizer)
        self.pmf_rel = max(exact.pmf_error(randomizer), _U)
        self.p, self.r = float(table[0, 0]), float(table[0, 1])
        #: output classes: values 1, 2, 3 and (k > 3) the values 4..k merged
        self.classes = 3 if k == 3 else 4
        rest = [float(sum(table[v, 3:])) for v in range(3)]
        self.rows = [np.array([table[v, 0], table[v, 1], table[v, 2]] + ([rest[v]] if k > 3 else [])) for v in range(3)]
        self.uniform_row = np.array([1 / k] * 3 + ([(k - 3) / k] if k > 3 else []))
        #: merged columns per class (the error bound of the float rows' sums)
        self.largest = max(k - 3, 1)
        # k r, the probability of a uniform message, rounded down (P(N < j) decreases in it)
        self.uniform = rounding.down(k * self.r, rel_err=self.pmf_rel + 2 * _U)
        #: k > 3: the upper end bounds every spread of the others' values 3..k by the augmented
        #: experiment (docs/tightness.md#generalized-randomized-response)
        self.spread = k > 3
        if self.spread:
            # a holder of 1 or 2 (and a uniform user) over the classes {1}, {2}, 3..k
            self.a_rows = [np.array([table[v, 0], table[v, 1], float(sum(table[v, 2:]))]) for v in range(2)]
            self.a_uniform = np.array([1 / k, 1 / k, (k - 2) / k])
            # a holder of 3 over the classes {1, 2}, {3}, 4..k
            self.b_row = np.array([table[2, 0] + table[2, 1], table[2, 2], float(sum(table[2, 3:]))])
            # one more uniform message of 3..k: on value 3 with probability 1/(k-2)
            self.third_row = ((k - 3) / (k - 2), 1 / (k - 2))
        self._laws: dict = {}
        self._kept = 0
        self._computed = 0
        self._memo: dict = {}

    @property
    def proven(self) -> bool:
        """True: the search's enclosure holds the worst case over every dataset, for every k (for
        k > 3 its width says whether the two ends met)."""
        return True

    # ------------------------------------------------------------------ laws
    def _add(self, dist, row):
        out = _add(dist, row)
        self._computed += out.size
        return out

    def _others(self, counts: tuple) -> np.ndarray:
        dist = np.ones((1,) * (self.classes - 1))
        for v, c in enumerate(counts):
            for _ in range(c):
                dist = self._add(dist, self.rows[v])
        return dist

    def _pair(self, others: np.ndarray, users: int) -> _Law:
        return _Law(others, exact._rel_error(users, self.classes, self.largest, self.pmf_rel))

    def _keep(self, key, value, entries):
        while self._kept > KEEP_ENTRIES and self._laws:
            self._kept -= self._laws.pop(next(iter(self._laws)))[1]
        self._laws[key] = (value, entries)
        self._kept += entries

    def law(self, counts: tuple) -> _Law:
        """The pair's laws of one dataset (``counts``: the others per value 1, 2, 3), kept."""
        key = ("single", tuple(counts))
        hit = self._laws.get(key)
        if hit is None:
            law = self._pair(self._others(counts), self.n)
            self._keep(key, law, law.others.size)
            return law
        return hit[0]

    # ------------------------------------------------------------------ the augmented experiment
    def _a_others(self, c1: int, c2: int) -> np.ndarray:
        """The law of (a1, a2) of c1 holders of 1 and c2 holders of 2 (dense, classes {1}, {2},
        3..k)."""
        dist = np.ones((1, 1))
        for v, c in ((0, c1), (1, c2)):
            for _ in range(c):
                dist = self._add(dist, self.a_rows[v])
        return dist

    def _b_part(self, M: int) -> np.ndarray:
        """The law of (u, a3) of M holders of 3: u of them on {1, 2}, a3 on 3 (dense)."""
        key = ("b", M)
        hit = self._laws.get(key)
        if hit is not None:
            return hit[0]
        dist = np.ones((1, 1))
        for _ in range(M):
            dist = self._add(dist, self.b_row)
        self._keep(key, dist, dist.size)
        return dist

    def _b_thirds(self, M: int) -> np.ndarray:
        """C[j, u, a3]: B's law of (u, a3) (:meth:`_b_part`) convolved in a3 with Bin(j, 1/(k-2)),
        j uniform messages on value 3, for j = 0..n - M (kept per M): one more uniform message
        at a time, every entry a sum of two non-negative products."""
        key = ("thirds", M)
        hit = self._laws.get(key)
        if hit is not None:
            return hit[0]
        b = self._b_part(M)
        top = self.n - M
        c = np.zeros((top + 1, M + 1, self.n + 1))
        c[0, :, :M + 1] = b
        stay, move = self.third_row
        for j in range(1, top + 1):
            np.multiply(c[j - 1], stay, out=c[j])
            c[j, :, 1:] += c[j - 1, :, :-1] * move
        self._computed += c.size
        self._keep(key, c, c.size)
        return c

    def _augment(self, a_law: np.ndarray, M: int, conc: bool = False) -> np.ndarray:
        """The law over (h1, h1 + h2, a3) of the augmented experiment: the group A (law ``a_law``
        of (a1, a2), s users, the victim included) and M holders of 3; of the J messages of A in
        3..k only J' = min(J, u) are kept (u: the holders of 3 on {1, 2}), uniform on 3..k. With
        ``conc`` every one is kept: the dataset itself, all of B on value 3.

        P(h1, h1 + h2, a3) = sum_u X_u(h1, t) Z_u(t, a3), t = a1 + a2 = h1 + h2 - u, J = s - t, with
        X_u = Bin(u, 1/2) * A over a1 (the split of u messages between 1 and 2, one more at a time)
        and Z_u = P_B(u, .) * Bin(J', 1/(k-2)) over a3 (:meth:`_b_thirds`); the sum over u is one
        matrix product per h1 + h2."""
        s = a_law.shape[0] - 1
        n = s + M
        # A over (a1, t = a1 + a2)
        a1, a2 = np.indices(a_law.shape)
        ok = a1 + a2 <= s
        at = np.zeros((s + 1, s + 1))
        at[a1[ok], (a1 + a2)[ok]] = a_law[ok]
        c = self._b_thirds(M)
        u = np.arange(M + 1)[:, None]
        t = np.arange(s + 1)[None, :]
        jp = np.broadcast_to(s - t, (M + 1, s + 1)) if conc else np.minimum(s - t, u)
        z = c[jp, u, :n + 1]                                   # (u, t, a3)
        # X_u(h1, t) for every u, one more message split between 1 and 2 at a time
        x = np.zeros((M + 1, n + 1, s + 1))                    # (u, h1, t)
        x[0, :s + 1] = at
        for v in range(1, M + 1):
            np.multiply(x[v - 1], 0.5, out=x[v])
            x[v, 1:] += x[v - 1, :-1] * 0.5
        out = np.zeros((n + 1, n + 1, n + 1))                  # (h1, tt = h1 + h2, a3)
        for tt in range(n + 1):
            # u + t = tt; h1 <= tt; a3 <= n - tt (the messages in 3..k)
            us = np.arange(max(0, tt - s), min(M, tt) + 1)
            ts = tt - us
            out[:tt + 1, tt, :n - tt + 1] = x[us, :tt + 1, ts].T @ z[us, ts, :n - tt + 1]
            self._computed += (tt + 1) * us.size * (n - tt + 1)
        return out

    def _aug_pair(self, a_others: np.ndarray, M: int) -> _AugLaw:
        """The augmented experiment's two laws, the victim added to ``a_others`` on value 1 or 2."""
        p0 = self._augment(self._add(a_others, self.a_rows[0]), M)
        p1 = self._augment(self._add(a_others, self.a_rows[1]), M)
        keep = (p0 > 0) | (p1 > 0)
        return _AugLaw(p0[keep], p1[keep], self._aug_eta(a_others.shape[0], M))

    def _aug_eta(self, s: int, M: int) -> float:
        """Relative error per entry of :meth:`_augment` (s users in A, the victim included):
        the dynamic programmes of A and of B's (u, a3), the splits of up to n messages between 1 and
        2 (exact halvings, one addition each) and up to n uniform messages on 3 (each as
        exact._rel_error, two classes), with three sums of products of at most n + 1 non-negative
        terms to spare (the product over u is one)."""
        n = s + M
        parts = (exact._rel_error(s, 3, self.k - 2, self.pmf_rel),
                 exact._rel_error(M, 3, max(2, self.k - 3), self.pmf_rel),
                 exact._rel_error(n, 2, 1, 0.0),
                 exact._rel_error(n, 2, 1, 2 * _U))
        total = sum(math.log1p(e) for e in parts) + 3 * (n + 2) * _U * (1 + 1e-6)
        eta = math.expm1(total)
        return rounding.up(eta / (1 - eta))

    def aug_law(self, counts: tuple) -> _AugLaw:
        """The augmented experiment's laws of one (c1, c2, M), kept: an upper bound of delta over
        every dataset whose others hold c1 times value 1, c2 times value 2 and M values in 3..k,
        spread in any way."""
        key = ("aug", tuple(counts))
        hit = self._laws.get(key)
        if hit is None:
            law = self._aug_pair(self._a_others(counts[0], counts[1]), counts[2])
            self._keep(key, law, 2 * law.p0.size)
            return law
        return hit[0]

    def ladder(self, L: tuple, free: int, floor: float) -> tuple[list, float]:
        """(rungs, tail) of the family c >= L: rungs[i] = (j, laws of L plus j uniform users) for
        j = j0..top, with P(N < j0) <= tail (N ~ Bin(free, k r))."""
        key = ("family", tuple(L), free, floor)
        hit = self._laws.get(key)
        if hit is not None:
            return hit[0]
        s = self.uniform
        mean, sd = free * s, math.sqrt(free * s * (1 - s))
        j0 = self.uniform_count(free, floor)
        top = min(free, int(math.ceil(mean + 3 * sd)))
        dist = self._a_others(L[0], L[1]) if self.spread else self._others(L)
        rungs = []
        entries = 0
        for j in range(top + 1):
            if j >= j0:
                if self.spread:
                    # the uniform users join group A (they land on 1 and on 2 with probability 1/k
                    # and are uniform on 3..k given they land there)
                    law = self._aug_pair(dist, L[2])
                    entries += 2 * law.p0.size
                else:
                    law = self._pair(dist, 1 + sum(L) + j)
                    entries += law.others.size
                rungs.append((j, law))
            if j < top:
                dist = self._add(dist, self.a_uniform if self.spread else self.uniform_row)
        value = (rungs, self.tail(free, j0))
        self._keep(key, value, entries)
        return value

    def hockey(self, law: _Law, epsilon: float) -> tuple[float, float]:
        """Certified (lower, upper) of H_gamma(P1 || P2) of one law (a dataset's, or the augmented
        experiment's)."""
        g = math.exp(epsilon)
        if isinstance(law, _AugLaw):
            p0, p1 = law.p0, law.p1
        else:
            p0, p1 = self._add(law.others, self.rows[0]).ravel(), self._add(law.others, self.rows[1]).ravel()
        lo, _, hi = exact._hockey(p0, p1, g, 2 * _U if epsilon != 0 else 0.0, law.eta)
        return lo, hi

    def tail(self, free: int, j: int) -> float:
        """Upper bound of P(N < j), N ~ Bin(free, k r)."""
        if j <= 0:
            return 0.0
        return rounding.up(float(binom_cdf(j - 1, free, self.uniform)) * (1 + 2 * float(binom_tail_rtol(free))),
                           abs_err=4 * _U)

    def survival_lower(self, free: int, j: int) -> float:
        """Lower bound of P(N >= j), N ~ Bin(free, k r) (k r rounded down: the survival function
        increases with it)."""
        if j <= 0:
            return 1.0
        return rounding.down_nonneg(float(binom_sf(j, free, self.uniform)) * (1 - 2 * float(binom_tail_rtol(free))),
                                    abs_err=4 * _U)

    def uniform_count(self, free: int, floor: float) -> int:
        """The largest j found with P(N < j) <= floor (N ~ Bin(free, k r))."""
        if free <= 0:
            return 0
        s = self.uniform
        sd = math.sqrt(free * s * (1 - s))
        j = int(free * s - math.sqrt(2 * max(math.log(1 / floor), 1.0)) * sd)
        while j > 0 and self.tail(free, j) > floor:
            j = int(j * 0.9)
        return max(j, 0)

    def bound(self, L: tuple, free: int, floor: float, epsilon: float) -> float:
        """Certified upper bound of H_gamma over every dataset c >= L:
        E_N H(L + N uniform users) <= P(N < j0) + sum over the rungs (H does not increase with N)."""
        rungs, tail = self.ladder(L, free, floor)
        his = []
        for j, law in rungs:
            hi = self.hockey(law, epsilon)[1]
            his.append(min(hi, his[-1]) if his else hi)
        total = his[0]
        for (j, _), prev, cur in zip(rungs[1:], his, his[1:]):
            total -= self.survival_lower(free, j) * (prev - cur) * (1 - 4 * _U)
        # each product carries at most 3 roundings (inside the factor 1 - 4u), each subtraction
        # one of at most u his[0]
        return rounding.up(max(total, 0.0) + tail, abs_err=(len(rungs) + 4) * _U * his[0])

    # ------------------------------------------------------------------ the search
    def search(self, epsilon: float, *, band: tuple[float, float] | None = None, floor: float | None = None,
               first: tuple = (), max_entries: int | None = None):
        """Branch and bound over the datasets (the others' counts on values 1, 2, 3).

        Returns (lower, upper, worst counts): the certified enclosure of the largest delta(epsilon)
        over every dataset and the dataset whose lower end is largest (for k > 3: counts[2] others
        all on value 3; the upper end from the augmented experiment). With
        ``band = (below, above)`` the search stops once a dataset is certified above ``above``
        (upper end 1) and drops families certified at most ``below``. ``floor`` fixes the tail
        allowance of the family bounds (shared laws between epsilons); ``first`` lists datasets
        to evaluate first.
        """
        e = validate.real("epsilon", epsilon, low=0.0)
        plain = band is None and floor is None and not first and max_entries is None
        if plain and e in self._memo:
            # a delta(epsilon) and the dataset that attains it ask the same search
            return self._memo[e]
        out = self._search(e, band=band, floor=floor, first=first, max_entries=max_entries)
        if plain:
            self._memo = {e: out}
        return out

    def _search(self, e, *, band, floor, first, max_entries):
        m = self.m
        self._computed = 0
        budget = MAX_SEARCH_ENTRIES if max_entries is None else max_entries
        if self.eps0 is not None and e >= self.eps0:
            # the likelihood ratio of the histogram never exceeds p / r = e^eps0
            return 0.0, 0.0, (m, 0, 0)
        below, above = band if band is not None else (-1.0, math.inf)
        best_lo, best = -1.0, None
        hi_max = 0.0

        def single(counts):
            nonlocal best_lo, best, hi_max
            lo, hi = self.hockey(self.law(counts), e)
            if self.spread:
                # the concentrated dataset gives the lower end; the augmented experiment bounds
                # every spread of its M others over 3..k (the concentrated one included)
                hi = self.hockey(self.aug_law(counts), e)[1]
            hi_max = max(hi_max, hi)
            if lo > best_lo:
                best_lo, best = lo, tuple(counts)

        for c in dict.fromkeys([*map(tuple, first), (m, 0, 0), (0, 0, m), (0, m, 0)]):
            single(c)
            if best_lo > above:
                return best_lo, 1.0, best
        if floor is None:
            floor = max(10.0 ** math.floor(math.log10(max(best_lo, 1e-300) * TAIL_FRACTION)), 1e-300)

        heap: list = []
        seen: set = set()
        dropped = 0.0

        def push(L, w):
            nonlocal dropped
            if (L, w) in seen:
                return
            seen.add((L, w))
            if w == 0:
                single(L)
                return
            val = self.bound(L, w, floor, e)
            if val <= best_lo:
                return
            if val <= below:
                dropped = max(dropped, val)
                return
            heapq.heappush(heap, (-val, len(seen), L, w))

        push((0, 0, 0), m)
        while heap and best_lo <= above:
            neg, _, L, w = heapq.heappop(heap)
            if -neg <= best_lo:
                break
            if self._computed > budget:
                raise NotApplicable(f"the certified search over the datasets of GRR on {self.k} options at n = {self.n} "
                                    f"needs more than {budget} histogram entries at epsilon = {e:.6g}")
            if w <= 3:
                # every dataset of the family
                for i in range(w + 1):
                    for j in range(w + 1 - i):
                        push((L[0] + i, L[1] + j, L[2] + w - i - j), 0)
                continue
            # three corner families of side ceil(2w/3) cover the family (the largest excess is >= w/3)
            side = -(-2 * w // 3)
            for axis in range(3):
                child = tuple(x + (w - side if a == axis else 0) for a, x in enumerate(L))
                push(child, side)
        if best_lo > above:
            return best_lo, 1.0, best
        return max(best_lo, 0.0), max(hi_max, dropped, best_lo), best

    def log_delta(self, epsilon: float) -> Enclosure:
        """Certified enclosure of log delta(epsilon), the largest over every dataset."""
        lo, hi, _ = self.search(epsilon)
        return Enclosure(rounding.log_down(lo), rounding.log_up(hi))

    def decide_log_delta(self, epsilon: float, band: tuple[float, float], state: dict) -> Enclosure:
        """An enclosure of log delta(epsilon) certain of its side of ``band`` (logs of delta), for
        one epsilon(delta) inversion: ``state`` carries the tail allowance and the last worst dataset,
        and records in ``state["above"]`` the largest epsilon at which a dataset was certified above
        the band, with that dataset (it attains the bracket's lower end)."""
        below, above = math.exp(band[0]), math.exp(band[1])
        floor = state.setdefault("floor", max(10.0 ** math.floor(math.log10(max(below, 1e-300) * TAIL_FRACTION)),
                                              1e-300))
        first = (state["c"],) if "c" in state else ()
        lo, hi, c = self.search(epsilon, floor=floor, band=(below, above), first=first)
        state["c"] = c
        if lo > above and epsilon >= state.get("above", (-1.0, 0))[0]:
            state["above"] = (epsilon, c)
        return Enclosure(rounding.log_down(lo), rounding.log_up(hi))

    def epsilon_bracket(self, delta: float, rtol: float = 1e-6):
        """Certified bracket of epsilon(delta) of the largest delta over every dataset
        (:func:`dptheory.shuffle.exact_rr.search_epsilon_bracket`)."""
        return search_epsilon_bracket(self, delta, rtol, math.log(self.p / self.r))


@functools.lru_cache(maxsize=4)
def _engine(key, shape, n, randomizer):
    return GRR(randomizer, n)


def engine(randomizer, n) -> GRR:
    """The :class:`GRR` engine of (randomizer, n), cached across calls (DomainError for a
    randomizer that is not generalized randomized response on k >= 3 options)."""
    nn = validate.integer("n", n, low=2)
    if grr_size(randomizer) is None:
        raise validate.DomainError(f"randomizer {getattr(randomizer, 'name', randomizer)!r} is not generalized "
                                   "randomized response on k >= 3 options")
    table = exact._float_matrix(randomizer)
    return _engine(table.tobytes(), table.shape, nn, randomizer)


def worst_dataset(counts: tuple, n: int, k: int) -> tuple[list[int], list[int]]:
    """The neighbouring datasets of a searched dataset: the victim holds value 1 (input 0) or 2
    (input 1); counts[v] of the others hold input v (v = 0, 1, 2)."""
    rest = [v for v, c in enumerate(counts) for _ in range(c)]
    return [0, *rest], [1, *rest]


def describe(counts: tuple, n: int, k: int) -> str:
    """The dataset in words (values numbered from 1)."""
    parts = [f"{c} {'holds' if c == 1 else 'hold'} value {v + 1}" + (" (one value outside the victim's two)"
                                                                     if v == 2 and k > 3 else "")
             for v, c in enumerate(counts) if c]
    others = ", ".join(parts) if parts else "no other user"
    return f"the victim holds value 1 or 2; of the other {n - 1} users, {others}"


#: users up to which the search is offered, per k (beyond: an epsilon(delta) inversion measured
#: at up to 10 s, k = 4 at n = 100)
MAX_N = {3: 300}
MAX_N_LARGE_K = 80


def supported(k: int, n: int) -> bool:
    """Whether the search is offered at (k, n): k = 3 up to n = 300, k > 3 up to n = 80."""
    return n <= (MAX_N.get(k, MAX_N_LARGE_K))


def estimate_seconds(k: int, n: int, evaluations: int = 1) -> float:
    """Estimated seconds of ``evaluations`` searches (an epsilon(delta) inversion reuses the laws
    and decides most points with one dataset): one search takes about 4 s at k = 3, n = 300, and
    for k > 3 up to 0.6 s at n = 40, 2.8 s at n = 60 and 1.5 s at n = 80 (the augmented experiment
    included; benchmarks/bench_exact_grr.py, CPU time on a loaded 2-core machine; an inversion
    1.0-1.7 times one search), scaled as n^3."""
    base = 4.0 * (n / 300) ** 3 if k == 3 else 0.6 * (n / 40) ** 3
    return base * (1 + 0.05 * max(evaluations - 1, 0))
