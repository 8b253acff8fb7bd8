"""An independent exact oracle for the shuffle model at small n (mpmath, 50 digits by default).

Written for the contract test without reading ``dptheory/shuffle/exact.py``: the privacy
profile of n shuffled users of a finite randomizer, maximised over every pair of neighbouring
datasets, by enumeration of the shuffled output.

The model. A finite randomizer is a row-stochastic matrix ``R`` (inputs x outputs). Each of n
users applies it to their input; the analyst sees the messages in a uniformly random order,
which is the same as seeing their histogram (the multiset). Two datasets are neighbours when
they differ in one user's input; by symmetry that user is user 1, with input ``a`` in one
dataset and ``b`` in the other, and the n - 1 other users' inputs form a multiset ``c``. The
hockey-stick divergence

    delta(epsilon) = max over (a, b, c) of  sum_h max(0, P_{a,c}(h) - e^epsilon P_{b,c}(h))

is the exact delta of (epsilon, delta)-DP, and epsilon(delta) = inf{epsilon >= 0 :
delta(epsilon) <= delta}. Both directions of a pair are covered because (a, b) runs over ordered
pairs.

The histogram law of the other users is built as a convolution of multinomials, one input value
at a time (depth-first over the count vectors ``c``, so prefixes are shared); user 1's message is
added last. Everything is mpmath at ``dps`` digits plus guard digits; the probabilities are the
exact mathematical pmfs (see :func:`pmfs_of`), not the library's float64 matrices, except for a
randomizer given by its own matrix, whose float entries are taken exactly.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import mpmath
from mpmath import mpf

GUARD = 15
#: digits of the exact pmfs
PMF_DPS = 90


# ----------------------------------------------------------------------------- exact pmfs


def _precise(fn):
    """Run a pmf constructor at :data:`PMF_DPS` digits (mpf values keep their precision)."""
    def wrapped(*args, **kwargs):
        with mpmath.workdps(PMF_DPS):
            return fn(*args, **kwargs)
    wrapped.__name__, wrapped.__doc__ = fn.__name__, fn.__doc__
    return wrapped


@_precise
def grr_pmfs(eps0, d: int):
    """Generalised randomized response on d options: e^eps0/(e^eps0 + d - 1) on the diagonal."""
    big = mpmath.exp(mpf(eps0))
    z = big + (d - 1)
    return [[big / z if x == y else 1 / z for y in range(d)] for x in range(d)]


@_precise
def subset_pmfs(eps0, d: int, k: int):
    """k-subset selection: a size-k subset containing x has weight e^eps0, any other weight 1."""
    big = mpmath.exp(mpf(eps0))
    subsets = list(itertools.combinations(range(d), k))
    z = big * math.comb(d - 1, k - 1) + math.comb(d - 1, k)
    return [[(big if x in s else 1) / z for s in subsets] for x in range(d)]


@_precise
def unary_pmfs(eps0, d: int):
    """Unary encoding: each bit of the one-hot vector kept with probability e^{eps0/2}/(e^{eps0/2} + 1)."""
    half = mpmath.exp(mpf(eps0) / 2)
    keep, flip = half / (half + 1), 1 / (half + 1)
    rows = []
    for x in range(d):
        row = []
        for bits in itertools.product((0, 1), repeat=d):
            pr = mpf(1)
            for i, bit in enumerate(bits):
                pr *= keep if bit == (1 if i == x else 0) else flip
            row.append(pr)
        rows.append(row)
    return rows


@_precise
def local_hash_pmfs(eps0, l: int, d: int):
    """Local hashing over the family of all functions [d] -> [l], output (h, GRR_l(h(x)))."""
    big = mpmath.exp(mpf(eps0))
    z = (big + (l - 1)) * l**d
    funcs = list(itertools.product(range(l), repeat=d))
    return [[(big if h[x] == y else 1) / z for h in funcs for y in range(l)] for x in range(d)]


def matrix_pmfs(matrix):
    """A matrix of floats, each entry taken exactly."""
    return [[mpf(float(v)) for v in row] for row in matrix]


def pmfs_of(kind: str, eps0, **params):
    """The exact pmfs of a named finite randomizer (``kind`` as in the randomizer registry), at
    :data:`PMF_DPS` digits."""
    if kind == "binary-rr":
        return grr_pmfs(eps0, 2)
    if kind == "grr":
        return grr_pmfs(eps0, params["d"])
    if kind == "subset-selection":
        return subset_pmfs(eps0, params["d"], params["k"])
    if kind == "unary-encoding":
        return unary_pmfs(eps0, params["d"])
    if kind == "local-hash":
        return local_hash_pmfs(eps0, params["l"], params["d"])
    raise ValueError(f"no exact pmfs for {kind!r}")


# ----------------------------------------------------------------------------- shuffled laws


def _multinomial_law(row, count: int):
    """Histogram law of ``count`` users with the same output distribution ``row``."""
    law = {(0,) * len(row): mpf(1)}
    for _ in range(count):
        law = add_message(law, row)
    return law


def add_message(law, row):
    """The histogram law after one more user whose message has distribution ``row``."""
    out: dict[tuple, mpf] = {}
    for hist, pr in law.items():
        for y, py in enumerate(row):
            if py == 0:
                continue
            h = list(hist)
            h[y] += 1
            key = tuple(h)
            out[key] = out.get(key, 0) + pr * py
    return out


def _convolve(a, b):
    out: dict[tuple, mpf] = {}
    for ha, pa in a.items():
        for hb, pb in b.items():
            key = tuple(x + y for x, y in zip(ha, hb))
            out[key] = out.get(key, 0) + pa * pb
    return out


def other_laws(pmfs, others: int):
    """Yield ``(counts, law)`` for every multiset of ``others`` inputs: ``counts[x]`` users hold
    input x, ``law`` is the histogram law of their messages."""
    k = len(pmfs)
    cache = {}

    def block(x, c):
        if (x, c) not in cache:
            cache[(x, c)] = _multinomial_law(pmfs[x], c)
        return cache[(x, c)]

    def rec(x, left, prefix, law):
        if x == k - 1:
            yield (*prefix, left), _convolve(law, block(x, left))
            return
        for c in range(left + 1):
            yield from rec(x + 1, left - c, (*prefix, c), _convolve(law, block(x, c)))

    start = {(0,) * len(pmfs[0]): mpf(1)}
    yield from rec(0, others, (), start)


def hockey_stick(p_law, q_law, gamma, rel_err):
    """An enclosure ``(lo, hi)`` of sum_h max(0, P(h) - gamma Q(h)), given that every P(h) and
    gamma Q(h) is known to within ``rel_err`` relative: each term's error is at most
    ``rel_err (P(h) + gamma Q(h))``, so a term that cancels to within its error (epsilon = eps0
    exactly, for example) counts 0 at the lower end and its error at the upper end."""
    lo = hi = mpf(0)
    for h, ph in p_law.items():
        gq = gamma * q_law.get(h, 0)
        diff, err = ph - gq, rel_err * (ph + gq)
        if diff - err > 0:
            lo += diff - err
        if diff + err > 0:
            hi += diff + err
    return lo, hi


# ----------------------------------------------------------------------------- the oracle


class ShuffleOracle:
    """Exact privacy profile of n shuffled users of a finite randomizer, as a tight enclosure.

    Every histogram probability is a sum of at most (outputs)^n products of n pmf entries, all
    positive, computed at ``dps + GUARD`` digits: its relative error is below
    ``(outputs^n + n) 10^-(dps + GUARD)``, which :data:`REL_ERR` bounds for the sizes used here
    (asserted). The hockey-stick sum is then enclosed term by term (:func:`hockey_stick`):
    ``delta(epsilon)`` returns ``(lo, hi)`` with ``lo <= exact <= hi``, ``hi - lo`` about
    1e-55 of the mass that cancels, so a comparison that fails against it fails against the
    exact value.

    Parameters
    ----------
    pmfs : list of lists of mpf
        The randomizer's exact pmfs (see :func:`pmfs_of`, :func:`matrix_pmfs`).
    n : int
        Number of users (>= 1).
    dps : int
        Decimal digits of the result (the work is done with :data:`GUARD` more).
    """

    def __init__(self, pmfs, n: int, dps: int = 50):
        self.dps = dps
        with mpmath.workdps(dps + GUARD):
            self.pmfs = [[mpf(v) for v in row] for row in pmfs]
            self.n = n
            terms = len(self.pmfs[0]) ** n + n
            self.rel_err = mpf(10) ** -(dps + GUARD) * 4 * terms
            assert self.rel_err < mpf(10) ** -(dps - 5), "too many terms for the working precision"
            self._pairs = []   # (description, P law, Q law) per neighbouring pair of datasets
            k = len(self.pmfs)
            for counts, law in other_laws(self.pmfs, n - 1):
                with_input = [add_message(law, self.pmfs[x]) for x in range(k)]
                for a, b in itertools.permutations(range(k), 2):
                    self._pairs.append(((a, b, counts), with_input[a], with_input[b]))

    @property
    def datasets(self) -> int:
        return len(self._pairs)

    @lru_cache(maxsize=None)
    def delta(self, epsilon):
        """``(lo, hi)``: an enclosure of the exact delta(epsilon) maximised over every
        neighbouring pair of datasets (mpf ends)."""
        lo, hi, _ = self.worst(epsilon)
        return lo, hi

    def worst(self, epsilon):
        """``(lo, hi, (a, b, counts))``: the enclosure and the pair with the largest lower end."""
        with mpmath.workdps(self.dps + GUARD):
            # exp(epsilon) at the working precision has relative error 10^-(dps+GUARD)
            gamma = mpmath.exp(mpf(epsilon))
            rel = self.rel_err + mpf(10) ** -(self.dps + GUARD)
            best_lo, best_hi, where = mpf(0), mpf(0), None
            for desc, p_law, q_law in self._pairs:
                lo, hi = hockey_stick(p_law, q_law, gamma, rel)
                if where is None or lo > best_lo:
                    best_lo, where = lo, desc
                best_hi = max(best_hi, hi)
            return +best_lo, +best_hi, where

    def certainly_above(self, epsilon, delta) -> bool:
        """The exact delta(epsilon) > ``delta`` for sure (then the exact epsilon(delta) >
        ``epsilon``: an upper end of epsilon there is wrong)."""
        return self.delta(float(epsilon))[0] > mpf(delta)

    def certainly_below(self, epsilon, delta) -> bool:
        """The exact delta(epsilon) < ``delta`` for sure, at an ``epsilon`` > 0 (then the exact
        epsilon(delta) < ``epsilon``: a lower end of epsilon there is wrong)."""
        return float(epsilon) > 0 and self.delta(float(epsilon))[1] < mpf(delta)


def closed_form_binary_rr_n2(eps0, epsilon):
    """delta(epsilon) of binary randomized response with 2 users, by hand: E (E - g)/(E + 1)^2 for
    0 <= epsilon <= eps0 (E = e^eps0, g = e^epsilon).

    With r = 1/(E + 1), rows (E r, r) and (r, E r). Other user on 0, user 1 on 0 vs 1: the
    histogram (2 zeros, 1 zero, 0 zeros) has P = (E^2, 2E, 1) r^2 and Q = (E, E^2 + 1, E) r^2,
    so only "2 zeros" has P > g Q, giving E (E - g) r^2. Other user on 1: P = (E, E^2 + 1, E) r^2,
    Q = (1, 2E, E^2) r^2, giving (E - g) r^2 + max(0, E^2 + 1 - 2 g E) r^2, smaller by
    (g - 1)(E + 1) r^2 or more. An independent check of the enumeration."""
    with mpmath.workdps(PMF_DPS):
        big, g = mpmath.exp(mpf(eps0)), mpmath.exp(mpf(epsilon))
        return max(mpf(0), big * (big - g) / (big + 1) ** 2)
