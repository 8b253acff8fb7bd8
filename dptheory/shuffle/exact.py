"""Exact ground truth for small n: the distribution of the shuffled output of a finite randomizer.

The shuffled output of n messages is equivalent to their histogram. For two neighbouring datasets
(the first user holds x0 or x1, the other n - 1 users a multiset of inputs) the hockey-stick
divergence between the two histogram distributions is summed exactly; the largest over every
dataset is the delta(epsilon) of the shuffled mechanism.

Three reductions make this fast, none of them approximate:

* **Sufficient statistic.** Outputs whose columns agree on every input the dataset uses are
  merged: given the merged histogram, the split among them does not depend on the inputs, so the
  likelihood ratio, hence the divergence, is a function of the merged histogram. GRR on d options
  with a dataset using j inputs has j + 1 classes instead of d.
* **Symmetry.** Two inputs are interchangeable when swapping their rows leaves the multiset of
  columns unchanged (an output relabelling then maps one dataset's histogram onto the other's).
  Interchangeable inputs form blocks; a dataset is enumerated once per orbit of the product of the
  blocks' permutation groups (and of the exchange of the two datasets, which leaves the
  two-sided divergence unchanged).
* **Vectorisation.** A histogram distribution is a numpy vector over the simplex of counts; adding
  a user is one scatter-add per output class, and the hockey-stick sum is a vector operation.

The float64 path returns a certified enclosure: every probability's relative error is bounded
from the number of users, of classes and the pmfs' own rounding (measured against the
randomizer's exact definition, ``Randomizer.pmfs_exact``, where one exists), and only the
histograms whose term can be positive contribute to the error. The mpmath path (``digits``) takes
the pmfs from the exact definition at the working precision and raises it until two precisions
agree (:func:`~dptheory.precision.mp_adaptive`).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections import Counter

import numpy as np

from .. import rounding, validate
from ..inverse import SearchParameters, epsilon_bracket
from ..lazy_import import mpmath
from ..precision import mp_adaptive
from ..results import Enclosure, Kind, Result, Status
from .randomizers import Randomizer

#: float64 unit roundoff
_U = rounding.EPS / 2

#: seconds per element operation of the dynamic programme (scatter-add) and per numpy call,
#: and per element of one hockey-stick evaluation (both directions); twice what was measured on
#: a loaded 2-core machine (benchmarks/bench_exact.py), used only to decide what to skip
SECONDS_PER_ELEMENT = 4e-8
SECONDS_PER_CALL = 2e-5
SECONDS_PER_EVALUATION_ELEMENT = 8e-8
#: fixed seconds of a build (symmetry blocks, the pmfs' error at 40 digits, simplex tables)
SECONDS_FIXED = 0.03

#: datasets beyond which the exhaustive search is not attempted at all
MAX_DATASETS = 200_000

#: datasets and users beyond which :func:`estimate_seconds` does not enumerate (infinite cost)
ESTIMATE_MAX_DATASETS = 20_000
ESTIMATE_MAX_N = 2_000

#: datasets (and directions) the mpmath refinement of :meth:`Engine.evaluate` recomputes at most
MP_REFINE_MAX = 8

#: entries of cached histogram distributions an :class:`Engine` keeps between evaluations
_KEEP_ENTRIES = 4_000_000


# ----------------------------------------------------------------------------- pmf tables


def _float_matrix(randomizer) -> np.ndarray:
    m = randomizer.pmfs if isinstance(randomizer, Randomizer) else randomizer
    if m is None:
        raise validate.DomainError(f"randomizer {getattr(randomizer, 'name', randomizer)!r} has no finite pmfs; "
                                   "exact computation needs a finite output space")
    m = np.asarray(m, dtype=float)
    if m.ndim != 2 or m.shape[0] < 2:
        raise validate.DomainError(f"pmfs must be a matrix with at least two rows (inputs), got shape {m.shape}")
    return m


def _mp_matrix(randomizer) -> np.ndarray:
    """The pmfs as mpmath numbers at the working precision: from the randomizer's exact definition
    where it has one, else the float matrix (then the definition) converted exactly."""
    exact_fn = getattr(randomizer, "pmfs_exact", None)
    if exact_fn is not None:
        return np.array([[mpmath.mpf(v) for v in row] for row in np.asarray(exact_fn()).tolist()], dtype=object)
    return np.array([[mpmath.mpf(v) for v in row] for row in _float_matrix(randomizer).tolist()], dtype=object)


def pmf_error(randomizer) -> float:
    """Largest relative error of the float64 pmfs against the randomizer's exact definition
    (computed at 40 digits, rounded up; 0 where the float matrix is the definition)."""
    exact_fn = getattr(randomizer, "pmfs_exact", None)
    if exact_fn is None:
        return 0.0
    m = _float_matrix(randomizer)
    return _pmf_error_cached(m.tobytes(), m.shape, exact_fn)


@functools.lru_cache(maxsize=32)
def _pmf_error_cached(_key, _shape, exact_fn) -> float:
    worst = mpmath.mpf(0)
    with mpmath.workdps(40):
        ex = np.asarray(exact_fn())
        flt = np.frombuffer(_key, dtype=float).reshape(_shape)
        for e, f in zip(ex.ravel().tolist(), flt.ravel().tolist()):
            if e == 0:
                if f != 0:
                    raise ArithmeticError("float pmfs have mass where the exact definition has none")
                continue
            worst = max(worst, abs(mpmath.mpf(f) - e) / e)
        return rounding.mp_up(worst * (1 + mpmath.mpf(10) ** -30))


# ----------------------------------------------------------------------------- symmetry and datasets


def symmetry_blocks(matrix) -> list[list[int]]:
    """Blocks of interchangeable inputs: i and j are in one block when swapping rows i and j leaves
    the multiset of columns unchanged (exact equality of the entries)."""
    m = np.asarray(matrix)
    k = m.shape[0]
    columns = Counter(map(tuple, m.T.tolist()))
    blocks: list[list[int]] = []
    for j in range(k):
        for block in blocks:
            i = block[0]
            perm = list(range(k))
            perm[i], perm[j] = j, i
            if Counter(map(tuple, m[perm].T.tolist())) == columns:
                block.append(j)
                break
        else:
            blocks.append([j])
    return blocks


def _partitions(total: int, parts: int, largest: int | None = None):
    """Non-increasing sequences of ``parts`` non-negative integers summing to ``total``."""
    if parts == 0:
        if total == 0:
            yield ()
        return
    largest = total if largest is None else min(largest, total)
    for first in range(largest, -1, -1):
        if first * parts < total:
            break
        for rest in _partitions(total - first, parts - 1, first):
            yield (first, *rest)


def _pairs(blocks):
    """Representative first-user pairs (x0, x1, same block) up to the blocks' symmetry and exchange."""
    for b0, block0 in enumerate(blocks):
        if len(block0) >= 2:
            yield block0[0], block0[1], True
        for block1 in blocks[b0 + 1:]:
            yield block0[0], block1[0], False


def canonical_datasets(blocks, n: int):
    """One dataset per symmetry orbit: (x0, x1, counts), counts[i] = how many of the other n - 1
    users hold input i. Interchangeable inputs other than x0, x1 carry non-increasing counts; with
    x0, x1 in one block, count(x0) <= count(x1)."""
    k = sum(len(b) for b in blocks)
    for x0, x1, same in _pairs(blocks):
        free = [[v for v in b if v not in (x0, x1)] for b in blocks]
        free = [f for f in free if f]
        for c0 in range(n):
            for c1 in range(n - c0):
                if same and c0 > c1:
                    continue
                for spread in _spread(n - 1 - c0 - c1, free):
                    counts = [0] * k
                    counts[x0], counts[x1] = c0, c1
                    for members, seq in zip(free, spread):
                        for v, c in zip(members, seq):
                            counts[v] = c
                    yield x0, x1, tuple(counts)


def _spread(total: int, free):
    if not free:
        if total == 0:
            yield ()
        return
    if len(free) == 1:
        for seq in _partitions(total, len(free[0])):
            yield (seq,)
        return
    for t in range(total + 1):
        for seq in _partitions(t, len(free[0])):
            for rest in _spread(total - t, free[1:]):
                yield (seq, *rest)


def count_datasets(blocks, n: int) -> int:
    """Number of datasets :func:`canonical_datasets` yields (generating functions, no enumeration)."""
    top = n - 1

    def poly_mul(a, b):
        out = [0] * (top + 1)
        for i, ai in enumerate(a):
            if ai:
                for j in range(top + 1 - i):
                    out[i + j] += ai * b[j]
        return out

    def partitions_poly(parts):
        # prod_{i=1}^{parts} 1 / (1 - x^i), truncated
        poly = [1] + [0] * top
        for i in range(1, parts + 1):
            for s in range(i, top + 1):
                poly[s] += poly[s - i]
        return poly

    total = 0
    for x0, x1, same in _pairs(blocks):
        free = [sum(1 for v in b if v not in (x0, x1)) for b in blocks]
        poly = None
        for f in free:
            if f:
                poly = partitions_poly(f) if poly is None else poly_mul(poly, partitions_poly(f))
        if poly is None:
            poly = [1] + [0] * top
        for s in range(top + 1):
            ways = s // 2 + 1 if same else s + 1
            total += ways * poly[top - s]
    return total


def datasets(rows: int, n: int, *, exhaustive: bool):
    """Neighbouring datasets (inputs0, inputs1) without symmetry reduction: the first user holds x0
    or x1, the others a multiset (every ordered pair x0 != x1 and every multiset when
    ``exhaustive``; otherwise the others all equal to one value, or split between two values)."""
    pairs = list(itertools.permutations(range(rows), 2))
    if exhaustive:
        others = list(itertools.combinations_with_replacement(range(rows), n - 1))
    else:
        others = [tuple([v] * (n - 1)) for v in range(rows)]
        for v, w in itertools.combinations(range(rows), 2):
            for k in (1, (n - 1) // 2, n - 2):
                if 0 < k < n - 1:
                    others.append(tuple([v] * k + [w] * (n - 1 - k)))
    for x0, x1 in pairs:
        for rest in others:
            yield [x0, *rest], [x1, *rest]


def search_size(rows: int, n: int) -> int:
    """Number of datasets of the exhaustive search without symmetry reduction."""
    return rows * (rows - 1) * math.comb(n - 1 + rows - 1, rows - 1)


def _inputs(x0, x1, counts):
    rest = [v for v, c in enumerate(counts) for _ in range(c)]
    return [x0, *rest], [x1, *rest]


# ----------------------------------------------------------------------------- histograms


def _histograms(c: int, n: int) -> int:
    return math.comb(n + c - 1, c - 1)


@functools.lru_cache(maxsize=64)
def _simplex(c: int, n: int):
    """Histograms of s = 0..n items in c classes, as mixed-radix keys, and the successor maps:
    ``succ[s][:, y]`` is the index at level s + 1 of each level-s histogram plus one item in y."""
    base = n + 1
    if c * math.log2(base) > 62:
        raise validate.DomainError(f"{c} output classes with n = {n} are too many histograms to enumerate")
    weights = base ** np.arange(c, dtype=np.int64)
    keys = [np.zeros(1, dtype=np.int64)]
    succ = []
    for s in range(n):
        grown = keys[s][:, None] + weights[None, :]
        nxt = np.unique(grown)
        succ.append(np.searchsorted(nxt, grown))
        keys.append(nxt)
    return keys, succ


def _reduce(table: np.ndarray, used) -> tuple[dict, np.ndarray, int]:
    """Rows ``used`` of the pmf table with identical columns merged (summed) and zero columns
    dropped: ({input: row}, merged matrix, largest number of merged columns)."""
    sub = table[list(used)]
    groups: dict[tuple, list[int]] = {}
    for y, col in enumerate(map(tuple, sub.T.tolist())):
        if any(v != 0 for v in col):
            groups.setdefault(col, []).append(y)
    cols = list(groups.values())
    merged = np.empty((len(used), len(cols)), dtype=table.dtype)
    for j, ys in enumerate(cols):
        acc = sub[:, ys[0]].copy()
        for y in ys[1:]:
            acc = acc + sub[:, y]
        merged[:, j] = acc
    return {x: i for i, x in enumerate(used)}, merged, max((len(ys) for ys in cols), default=1)


def _zeros(size: int, zero):
    if isinstance(zero, float):
        return np.zeros(size)
    out = np.empty(size, dtype=object)
    out[:] = zero
    return out


def _add_user(dist, row, succ_s, size: int, zero):
    if succ_s.shape[1] == 2 and dist.dtype != object:
        # two classes: level-s histograms are ordered by the count of class 1, so adding a user is
        # new[j] = P[j] row[0] + P[j-1] row[1], the same products and sums as the scatter-add
        return np.convolve(dist, np.asarray(row, dtype=float))
    new = _zeros(size, zero)
    for y, py in enumerate(row):
        if py != 0:
            new[succ_s[:, y]] += py * dist
    return new


def _distribution(rows: list, n_total: int, zero):
    """Distribution over the level-len(rows) simplex (classes = len(rows[0])) of the histogram of
    users with the given pmf rows; ``n_total`` sizes the key radix."""
    keys, succ = _simplex(len(rows[0]), n_total)
    dist = _zeros(1, zero) + 1
    for s, row in enumerate(rows):
        dist = _add_user(dist, row, succ[s], keys[s + 1].size, zero)
    return dist


def _pair_distributions(table, x0, x1, counts, zero):
    """(P0, P1, classes, largest merge): histogram distributions of the two datasets over the
    merged classes of the inputs they use."""
    used = sorted({x0, x1} | {v for v, c in enumerate(counts) if c})
    where, merged, largest = _reduce(table, used)
    n = 1 + sum(counts)
    c = merged.shape[1]
    keys, succ = _simplex(c, n)
    base = _distribution([merged[where[v]] for v, k in enumerate(counts) for _ in range(k)] or [merged[where[x0]]],
                         n, zero) if n > 1 else _zeros(1, zero) + 1
    p0 = _add_user(base, merged[where[x0]], succ[n - 1], keys[n].size, zero)
    p1 = _add_user(base, merged[where[x1]], succ[n - 1], keys[n].size, zero)
    return p0, p1, c, largest


def histogram(randomizer, inputs, digits=None) -> dict:
    """Distribution of the histogram of n messages over every output, {counts tuple: probability}
    (mpmath at ``digits`` digits, pmfs from the randomizer's exact definition)."""
    digits = validate.digits(digits)
    table = _float_matrix(randomizer)
    rows, outs = table.shape
    xs = [validate.integer("inputs", x, low=0, high=rows - 1) for x in inputs]
    if not xs:
        raise validate.DomainError("inputs must name at least one user")
    n = len(xs)

    def run(tab, zero):
        dist = _distribution([tab[x] for x in xs], n, zero)
        keys, _ = _simplex(outs, n)
        out = {}
        for key, prob in zip(keys[n].tolist(), dist.tolist()):
            if prob != 0:
                out[tuple((key // (n + 1) ** i) % (n + 1) for i in range(outs))] = prob
        return out

    if digits is None:
        return run(table, 0.0)
    with mpmath.workdps(digits):
        return run(_mp_matrix(randomizer), mpmath.mpf(0))


# ----------------------------------------------------------------------------- hockey-stick sums


def _rel_error(n: int, classes: int, largest: int, pmf_rel: float) -> float:
    """Relative error bound of every float64 histogram probability: each of the n steps multiplies
    by a pmf entry (its own error, the merge's ``largest - 1`` additions, one product) and adds up
    to ``classes`` terms, all non-negative."""
    per_step = pmf_rel * (1 + largest * _U) + (largest + classes + 1) * _U
    eta = math.expm1(n * per_step * (1 + 1e-6))
    return rounding.up(eta / (1 - eta))


def _hockey(p0: np.ndarray, p1: np.ndarray, g: float, g_rel: float, eta: float) -> tuple[float, float, float]:
    """(lower, value, upper) of sum_h (P0 - g P1)_+ for float distributions with relative error
    ``eta`` and g with relative error ``g_rel``."""
    gp1 = g * p1
    t = p0 - gp1
    kappa = (eta + g_rel + 2 * _U) * (1 + 4 * _U) * (1 + eta)
    slack = kappa * (p0 + gp1)
    near = t > -slack
    value = float(np.sum(t, where=t > 0)) if np.any(t > 0) else 0.0
    size = t.size
    err = float(np.sum(slack, where=near)) * (1 + (size + 4) * _U * 1.01) + size * _U * 1.01 * value
    return rounding.down_nonneg(value, err), value, rounding.up(value, err)


@dataclasses.dataclass
class _Pair:
    x0: int
    x1: int
    counts: tuple
    eta: float = 0.0
    size: int = 0


class Engine:
    """Exact worst-case delta(epsilon) of n shuffled users of a finite randomizer, float64 with a
    certified enclosure, over one dataset per symmetry orbit (or the given datasets).

    The histogram distributions are built once and kept (concatenated, up to a memory budget), so
    an epsilon(delta) inversion costs one build and cheap vector evaluations.
    """

    def __init__(self, randomizer, n, *, pairs=None, pmf_rel: float | None = None, pmfs_exact=None):
        self.n = validate.integer("n", n, low=1)
        self.table = _float_matrix(randomizer)
        self._exact_fn = pmfs_exact if pmfs_exact is not None else getattr(randomizer, "pmfs_exact", None)
        if pmf_rel is None:
            pmf_rel = pmf_error(randomizer) if isinstance(randomizer, Randomizer) else 0.0
        self.pmf_rel = pmf_rel
        if pairs is None:
            blocks = symmetry_blocks(self.table)
            if count_datasets(blocks, self.n) > MAX_DATASETS:
                raise validate.DomainError(f"n = {self.n} is too large for exact enumeration of every dataset")
            pairs = canonical_datasets(blocks, self.n)
        self._pairs = [_Pair(x0, x1, tuple(c)) for x0, x1, c in pairs]
        if not self._pairs:
            raise validate.DomainError("no pair of distinct inputs to compare")
        p0s, p1s, kept = [], [], 0
        for pair in self._pairs:
            p0, p1, c, largest = _pair_distributions(self.table, pair.x0, pair.x1, pair.counts, 0.0)
            pair.eta, pair.size = _rel_error(self.n, c, largest, self.pmf_rel), p0.size
            kept += 2 * p0.size
            if kept <= _KEEP_ENTRIES:
                p0s.append(p0)
                p1s.append(p1)
        self._kept = kept <= _KEEP_ENTRIES
        if self._kept:
            self._p0, self._p1 = np.concatenate(p0s), np.concatenate(p1s)
            sizes = np.array([pair.size for pair in self._pairs])
            self._starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
            self._sizes = sizes
            self._eta = np.repeat([pair.eta for pair in self._pairs], sizes)

    def _segments(self, g: float, g_rel: float):
        """Per dataset and direction: (lower, value, upper) arrays of the hockey-stick sums."""
        if not self._kept:
            # the same layout as below: every dataset's first direction, then every second one
            forward, backward = [], []
            for pair in self._pairs:
                p0, p1, _, _ = _pair_distributions(self.table, pair.x0, pair.x1, pair.counts, 0.0)
                forward.append(_hockey(p0, p1, g, g_rel, pair.eta))
                backward.append(_hockey(p1, p0, g, g_rel, pair.eta))
            lo, v, hi = map(np.array, zip(*(forward + backward)))
            return lo, v, hi
        kappa = (self._eta + g_rel + 2 * _U) * (1 + 4 * _U) * (1 + self._eta)
        sizes = np.concatenate([self._sizes, self._sizes])
        values, errors = [], []
        for a, b in ((self._p0, self._p1), (self._p1, self._p0)):
            gb = g * b
            t = a - gb
            slack = kappa * (a + gb)
            values.append(np.add.reduceat(np.where(t > 0, t, 0.0), self._starts))
            errors.append(np.add.reduceat(np.where(t > -slack, slack, 0.0), self._starts))
        value, err = np.concatenate(values), np.concatenate(errors)
        err = err * (1 + (sizes + 4) * _U * 1.01) + sizes * _U * 1.01 * value
        return rounding.down_nonneg(value, err), value, rounding.up(value, err)

    def evaluate(self, epsilon: float, rtol: float | None = None):
        """(lower, value, upper, inputs0, inputs1): the certified enclosure of the worst-case
        delta(epsilon), the computed value and the dataset attaining it.

        With ``rtol``, where the float64 enclosure is wider than ``rtol`` times its upper end
        (near eps0 the terms cancel), the datasets that can attain the maximum are recomputed by
        mpmath from the randomizer's exact pmfs (at most :data:`MP_REFINE_MAX` of them).
        """
        e = validate.real("epsilon", epsilon)
        g = math.exp(e)
        g_rel = 2 * _U if e != 0 else 0.0
        lo, value, hi = self._segments(g, g_rel)
        lo_max = float(np.max(lo))
        if rtol is not None and float(np.max(hi)) - lo_max > rtol * float(np.max(hi)) > 0:
            lo, value, hi = self._refine(e, rtol, lo, value, hi)
        k = int(np.argmax(value))
        pair = self._pairs[k % len(self._pairs)]
        a, b = _inputs(pair.x0, pair.x1, pair.counts)
        if k >= len(self._pairs):
            a, b = b, a
        return float(np.max(lo)), float(value[k]), float(np.max(hi)), a, b

    def _refine(self, e, rtol, lo, value, hi):
        candidates = np.flatnonzero(hi >= np.max(lo))
        if candidates.size > MP_REFINE_MAX:
            return lo, value, hi
        lo, value, hi = lo.copy(), value.copy(), hi.copy()
        digits = max(20, int(-math.log10(rtol)) + 6)
        tiny = mpmath.mpf(10) ** (2 - digits)
        for k in candidates.tolist():
            pair = self._pairs[k % len(self._pairs)]
            x0, x1 = (pair.x0, pair.x1) if k < len(self._pairs) else (pair.x1, pair.x0)

            def fn(x0=x0, x1=x1, pair=pair):
                table = self._mp_table()
                zero = mpmath.mpf(0)
                p0, p1, _, _ = _pair_distributions(table, x0, x1, pair.counts, zero)
                g = mpmath.exp(mpmath.mpf(e))
                return mpmath.fsum(max(u - g * v, zero) for u, v in zip(p0.tolist(), p1.tolist()))

            try:
                v = mp_adaptive(fn, digits, max_guard=240)
            except ArithmeticError:
                # no agreement: the exact value is 0 (e.g. epsilon = eps0, where every term is
                # max(0, P - e^eps Q) of equal numbers) or below the guard; the float
                # enclosure of this dataset stays, certified but not refined
                continue
            with mpmath.workdps(digits + 5):
                lo[k] = max(lo[k], rounding.mp_down(v * (1 - tiny)))
                hi[k] = min(hi[k], rounding.mp_up(v * (1 + tiny)))
                value[k] = float(v)
        return lo, value, hi

    def _mp_table(self):
        if self._exact_fn is not None:
            return np.array([[mpmath.mpf(v) for v in row] for row in np.asarray(self._exact_fn()).tolist()],
                            dtype=object)
        return np.array([[mpmath.mpf(v) for v in row] for row in self.table.tolist()], dtype=object)

    def log_delta(self, epsilon: float, rtol: float | None = None) -> Enclosure:
        """Certified enclosure of log delta(epsilon), the worst case over the datasets (refined by
        mpmath to relative width ``rtol`` where the float enclosure is wider)."""
        lo, _, hi, _, _ = self.evaluate(epsilon, rtol)
        return Enclosure(rounding.log_down(lo), rounding.log_up(hi))

    @property
    def size(self) -> int:
        """Number of datasets searched."""
        return len(self._pairs)

def estimate_seconds(randomizer, n, evaluations: int = 1) -> float:
    """Estimated seconds of an exhaustive :class:`Engine` build plus ``evaluations`` delta
    evaluations, from the number of datasets, classes and histograms (``inf`` beyond
    :data:`MAX_DATASETS` datasets or where the histograms cannot be indexed)."""
    nn = validate.integer("n", n, low=1)
    table = _float_matrix(randomizer)
    if nn > ESTIMATE_MAX_N:
        return math.inf
    return _estimate(table.tobytes(), table.shape, nn, int(evaluations))


@functools.lru_cache(maxsize=256)
def _estimate(key, shape, n, evaluations) -> float:
    table = np.frombuffer(key, dtype=float).reshape(shape)
    blocks = symmetry_blocks(table)
    if count_datasets(blocks, n) > ESTIMATE_MAX_DATASETS:
        return math.inf
    classes: dict[tuple, int] = {}
    total = SECONDS_FIXED
    for x0, x1, counts in canonical_datasets(blocks, n):
        used = tuple(sorted({x0, x1} | {v for v, c in enumerate(counts) if c}))
        if used not in classes:
            classes[used] = _reduce(table, used)[1].shape[1]
        c = classes[used]
        if c * math.log2(n + 1) > 62:
            return math.inf
        size = _histograms(c, n)
        # sum_{s < n} C(s + c - 1, c - 1) histograms per class for the other users, two more steps
        build = c * math.comb(n + c - 1, c) + 2 * c * math.comb(n + c - 2, c - 1)
        total += (SECONDS_PER_ELEMENT * build + SECONDS_PER_CALL * (n + 1) * (1 if c == 2 else c)
                  + evaluations * SECONDS_PER_EVALUATION_ELEMENT * 2 * size)
    return total


@functools.lru_cache(maxsize=4)
def _engine_cached(key, shape, n, pmf_rel, pmfs_exact):
    return Engine(np.frombuffer(key, dtype=float).reshape(shape), n, pmf_rel=pmf_rel, pmfs_exact=pmfs_exact)


def engine(randomizer, n) -> Engine:
    """The exhaustive :class:`Engine` of (randomizer, n), cached across calls (an epsilon(delta)
    inversion evaluates it many times)."""
    nn = validate.integer("n", n, low=1)
    table = _float_matrix(randomizer)
    pmf_rel = pmf_error(randomizer) if isinstance(randomizer, Randomizer) else 0.0
    return _engine_cached(table.tobytes(), table.shape, nn, pmf_rel, getattr(randomizer, "pmfs_exact", None))


# ----------------------------------------------------------------------------- public functions


def delta_error(n_users: int, epsilon: float, outputs: int = 16) -> float:
    """A priori bound on the absolute error of the float64 :func:`delta` and :func:`worst_case`
    for a randomizer with at most ``outputs`` outputs whose pmfs are within 4 ulps of their
    definition: every probability is within :func:`_rel_error` of the truth, so the positive parts
    are off by at most that times sum(P0 + e^eps P1) = 1 + e^eps, plus the summation's rounding.
    (:class:`Engine` computes a tighter bound from the terms that can be positive.)"""
    nn = validate.integer("n_users", n_users, low=1)
    eta = _rel_error(nn, outputs, outputs, 4 * rounding.EPS)
    kappa = (eta + 4 * _U) * (1 + 4 * _U) * (1 + eta)
    size = _histograms(outputs, nn)
    return rounding.up(kappa * (1 + math.exp(epsilon)) * (1 + eta) + size * _U * 1.01)


def _check_neighbours(inputs0, inputs1):
    a, b = list(inputs0), list(inputs1)
    if len(a) != len(b) or len(a) == 0:
        raise validate.DomainError("inputs0 and inputs1 must list the same number (>= 1) of users")
    if a[1:] != b[1:]:
        raise validate.DomainError("inputs0 and inputs1 must differ in the first user only")
    return a, b


def _dataset(randomizer, a, b):
    rows = _float_matrix(randomizer).shape[0]
    xs = [validate.integer("inputs", x, low=0, high=rows - 1) for x in a + b[:1]]
    counts = [0] * rows
    for x in xs[1:len(a)]:
        counts[x] += 1
    return xs[0], xs[-1], tuple(counts)


def delta(randomizer, inputs0, inputs1, epsilon, digits=None):
    """max of the two hockey-stick divergences between the shuffled outputs of two datasets that
    differ in the first user: the computed float64 value (certified enclosure:
    :func:`delta_enclosure`), or with ``digits`` the mpmath value from the randomizer's exact pmfs."""
    a, b = _check_neighbours(inputs0, inputs1)
    e = validate.real("epsilon", epsilon)
    digits = validate.digits(digits)
    x0, x1, counts = _dataset(randomizer, a, b)
    if digits is None:
        return delta_enclosure(randomizer, a, b, e)[1]

    def fn():
        table = _mp_matrix(randomizer)
        zero = mpmath.mpf(0)
        p0, p1, _, _ = _pair_distributions(table, x0, x1, counts, zero)
        g = mpmath.exp(mpmath.mpf(e))
        d01 = mpmath.fsum(max(u - g * v, zero) for u, v in zip(p0.tolist(), p1.tolist()))
        d10 = mpmath.fsum(max(v - g * u, zero) for u, v in zip(p0.tolist(), p1.tolist()))
        return max(d01, d10)

    return mp_adaptive(fn, digits)


#: :func:`delta` under a name the parameter ``delta`` of :func:`epsilon` does not hide
_delta_at = delta


def delta_enclosure(randomizer, inputs0, inputs1, epsilon) -> tuple[float, float, float]:
    """(lower, value, upper): certified float64 enclosure of :func:`delta` for one dataset pair."""
    a, b = _check_neighbours(inputs0, inputs1)
    x0, x1, counts = _dataset(randomizer, a, b)
    eng = Engine(randomizer, len(a), pairs=[(x0, x1, counts)])
    lo, v, hi, _, _ = eng.evaluate(epsilon)
    return lo, v, hi


def epsilon(randomizer, inputs0, inputs1, delta, digits=None) -> Result:
    """Certified bracket of the smallest epsilon >= 0 with delta(epsilon) <= delta for two datasets."""
    a, b = _check_neighbours(inputs0, inputs1)
    m = _float_matrix(randomizer)
    eps_max = math.log(float(np.max(m[:, None, :] / m[None, :, :]))) * 1.0000001 + 1e-12
    if digits is None:
        x0, x1, counts = _dataset(randomizer, a, b)
        eng = Engine(randomizer, len(a), pairs=[(x0, x1, counts)])

        def bounds(e, _tol):
            enc = eng.log_delta(e)
            return enc.log_lower, enc.log_upper
    else:
        def bounds(e, _tol):
            v = _delta_at(randomizer, a, b, e, digits=digits)
            return (rounding.log_down(rounding.mp_down(v * (1 - mpmath.mpf(10) ** (2 - digits)))),
                    rounding.log_up(rounding.mp_up(v * (1 + mpmath.mpf(10) ** (2 - digits)))))

    bracket = epsilon_bracket(bounds, delta, SearchParameters(upper=eps_max, rtol=1e-9, atol=1e-15))
    return Result("epsilon", bracket.lower, bracket.upper, Kind.EXACT, Status.PROVEN, "exact",
                  "exact enumeration of the shuffled histogram", params={"inputs0": a, "inputs1": b})


def worst_case(randomizer, n, epsilon, *, exhaustive: bool | None = None, max_datasets: int = 2000):
    """Largest exact delta(epsilon) over the searched datasets: (delta, inputs0, inputs1, exhaustive).

    Exhaustive (one dataset per symmetry orbit) when ``exhaustive`` is True, or when it is None
    and there are at most ``max_datasets`` orbits; otherwise simple families (then the value is a
    lower bound on the shuffled mechanism's delta). The value is the computed float; it is within
    the enclosure :meth:`Engine.evaluate` certifies (and within :func:`delta_error`).
    """
    nn = validate.integer("n", n, low=1)
    table = _float_matrix(randomizer)
    if exhaustive is None:
        exhaustive = count_datasets(symmetry_blocks(table), nn) <= max_datasets
    if exhaustive:
        eng = engine(randomizer, nn)
    else:
        pairs = []
        for a, b in datasets(table.shape[0], nn, exhaustive=False):
            pairs.append(_dataset(randomizer, a, b))
        eng = Engine(randomizer, nn, pairs=pairs)
    _, value, _, a, b = eng.evaluate(epsilon)
    return value, a, b, exhaustive
