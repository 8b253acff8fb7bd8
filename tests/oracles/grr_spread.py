"""An independent oracle for shuffled generalized randomized response on k > 3 options: the exact
delta of every dataset (every count vector of the others, every output histogram over the k
values) and the delta of the augmented experiment, each written from its definition in mpmath.

Written from the definitions in docs/tightness.md#generalized-randomized-response without
reading ``dptheory/shuffle/exact_grr.py``. GRR on k options reports the true value with
probability p = e^eps0 / (e^eps0 + k - 1) and each other value with probability
r = 1 / (e^eps0 + k - 1). Values are numbered 0..k-1 here; the victim holds 0 (first dataset) or
1 (second); the others hold c1 times 0, c2 times 1 and M values in 2..k-1.

The augmented experiment of (c1, c2, M). Every user's message lands on 0, on 1 or in 2..k-1. Let
I be the number of the M holders of 2..k-1 whose message lands in 2..k-1 and J the number of the
others' (and the victim's) messages that land there. Its output is (h0, h1, R): h0, h1 the
counts on 0 and 1, and R the histogram over 2..k-1 of I messages each drawn from GRR's row of
value 2 restricted to 2..k-1 and of min(J, M - I) messages uniform on 2..k-1 (the other
max(I + J - M, 0) uniform messages are dropped). Here the law of (h0, h1, I, J) is enumerated user
by user and R's law by convolving the messages' laws over the k - 2 values, one by one.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import mpmath
from mpmath import mpf

from .exact_shuffle import GUARD, add_message, grr_pmfs, hockey_stick

#: the oracle's digits
DPS = 40


def _compositions(total: int, parts: int):
    """Every vector of ``parts`` non-negative integers summing to ``total``."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def _law_of_users(rows_and_counts, width: int):
    law = {(0,) * width: mpf(1)}
    for row, count in rows_and_counts:
        for _ in range(count):
            law = add_message(law, row)
    return law


class SpreadOracle:
    """Exact deltas of GRR on k options at n users (mpmath, :data:`DPS` digits plus guard)."""

    def __init__(self, eps0, k: int, n: int):
        self.k, self.n = k, n
        self.work = DPS + GUARD
        with mpmath.workdps(self.work):
            self.pmfs = [[mpf(v) for v in row] for row in grr_pmfs(eps0, k)]
            self.p, self.r = self.pmfs[0][0], self.pmfs[0][1]
            # each law's entries are sums of at most k^n products of n + 1 factors
            self.rel = mpf(10) ** -(self.work - 2) * 4 * (k ** n + n + 2)

    def datasets(self):
        """Every count vector of the n - 1 others over the k values."""
        return _compositions(self.n - 1, self.k)

    @lru_cache(maxsize=None)
    def dataset_delta(self, counts: tuple, epsilon) -> tuple:
        """(lo, hi) of the exact delta(epsilon) of the dataset ``counts`` (victim 0 against 1),
        over every output histogram of the k values."""
        with mpmath.workdps(self.work):
            others = _law_of_users([(self.pmfs[v], c) for v, c in enumerate(counts)], self.k)
            return hockey_stick(add_message(others, self.pmfs[0]), add_message(others, self.pmfs[1]),
                                mpmath.exp(mpf(epsilon)), self.rel)

    @lru_cache(maxsize=None)
    def _aug_laws(self, c1: int, c2: int, M: int):
        k, p, r = self.k, self.p, self.r
        # landing of one message: 0, 1 or "rest" (2..k-1)
        land_0 = [p, r, (k - 2) * r]          # a holder of 0
        land_1 = [r, p, (k - 2) * r]          # a holder of 1
        land_b = [r, r, 1 - 2 * r]            # a holder of 2..k-1
        rest = k - 2
        # GRR's row of value 2 restricted to 2..k-1, and the uniform row there
        rho = [p / (1 - 2 * r)] + [r / (1 - 2 * r)] * (rest - 1)
        uni = [mpf(1) / rest] * rest
        laws = []
        for victim in (land_0, land_1):
            # (h0, h1, I, J)
            state = {(0, 0, 0, 0): mpf(1)}
            users = [(victim, False)] + [(land_0, False)] * c1 + [(land_1, False)] * c2 + [(land_b, True)] * M
            for row, in_b in users:
                nxt: dict = {}
                for (h0, h1, i, j), pr in state.items():
                    for where, q in enumerate(row):
                        key = (h0 + (where == 0), h1 + (where == 1), i + (where == 2 and in_b),
                               j + (where == 2 and not in_b))
                        nxt[key] = nxt.get(key, 0) + pr * q
                state = nxt
            out: dict = {}
            for (h0, h1, i, j), pr in state.items():
                kept = min(j, M - i)
                hist = _law_of_users([(rho, i), (uni, kept)], rest)
                for h, q in hist.items():
                    key = (h0, h1, *h)
                    out[key] = out.get(key, 0) + pr * q
            laws.append(out)
        return laws

    @lru_cache(maxsize=None)
    def aug_delta(self, c1: int, c2: int, M: int, epsilon) -> tuple:
        """(lo, hi) of the augmented experiment's delta(epsilon) (victim 0 against 1)."""
        with mpmath.workdps(self.work):
            p0, p1 = self._aug_laws(c1, c2, M)
            return hockey_stick(p0, p1, mpmath.exp(mpf(epsilon)), self.rel)

    def worst(self, epsilon) -> tuple:
        """(lo, hi, counts): the largest delta(epsilon) over every dataset (and both directions:
        exchanging values 0 and 1 maps one onto the other, so victim 0 against 1 over every count
        vector covers them)."""
        best_lo, best_hi, where = mpf(-1), mpf(0), None
        for counts in self.datasets():
            lo, hi = self.dataset_delta(counts, epsilon)
            if lo > best_lo:
                best_lo, where = lo, counts
            best_hi = max(best_hi, hi)
        return best_lo, best_hi, where


def spreads(M: int, k: int):
    """Every count vector of M users over the k - 2 values 2..k-1."""
    return _compositions(M, k - 2)


def every_pair(k: int, n: int):
    """(c1, c2, M) of every split of the n - 1 others."""
    for c1, c2 in itertools.product(range(n), repeat=2):
        if c1 + c2 <= n - 1:
            yield c1, c2, n - 1 - c1 - c2
