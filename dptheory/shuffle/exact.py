"""Exact ground truth for small n: the distribution of the shuffled output of a finite randomizer.

The shuffled output is equivalent to the histogram of the n messages. Its distribution is built by
dynamic programming over the users (one convolution per user), in float64 or with mpmath, and the
hockey-stick divergence between two datasets is summed over the union of the supports, positive
parts only. Shuffling makes only the multiset of the other users' inputs matter, so a search over
datasets enumerates multisets; :func:`worst_case` searches every multiset when there are few
(then the result is the exact epsilon of the shuffled mechanism) and simple families otherwise
(then it is a lower bound on it).
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import mpmath
import numpy as np

from .. import validate
from ..precision import mp_adaptive
from .. import rounding
from ..inverse import SearchParameters, epsilon_bracket
from ..results import Kind, Result, Status
from .randomizers import Randomizer

#: relative error of a float64 histogram probability (a product of n entries and a sum of terms),
#: per user
_FLOAT_RTOL = 1e-15


def delta_error(n_users: int, epsilon: float) -> float:
    """Absolute error bound of the float64 :func:`delta`: every probability carries a relative
    error of about n ulps, so the positive parts are off by at most that times sum(p0 + e^eps p1)."""
    return 4 * _FLOAT_RTOL * n_users * (1 + math.exp(epsilon))


def _matrix(randomizer) -> np.ndarray:
    m = randomizer.pmfs if isinstance(randomizer, Randomizer) else randomizer
    if m is None:
        raise validate.DomainError(f"randomizer {getattr(randomizer, 'name', randomizer)!r} has no finite pmfs; "
                                   "exact computation needs a finite output space")
    return np.asarray(m, dtype=object if isinstance(np.ravel(m)[0], mpmath.mpf) else float)


def histogram(randomizer, inputs, digits=None) -> dict:
    """Distribution of the histogram of n messages, {counts tuple: probability}."""
    m = _matrix(randomizer)
    rows, outs = m.shape
    xs = [validate.integer("inputs", x, low=0, high=rows - 1) for x in inputs]
    if not xs:
        raise validate.DomainError("inputs must name at least one user")
    digits = validate.digits(digits)
    if digits is not None:
        with mpmath.workdps(digits):
            table = [[mpmath.mpf(v) for v in row] for row in m.tolist()]
    else:
        table = [[float(v) for v in row] for row in m]
    dist = {tuple([0] * outs): (mpmath.mpf(1) if digits else 1.0)}
    ctx = mpmath.workdps(digits) if digits else _null()
    with ctx:
        for x in xs:
            row = table[x]
            new: dict = defaultdict(lambda: 0)
            for hist, prob in dist.items():
                for y, py in enumerate(row):
                    if py == 0:
                        continue
                    h = list(hist)
                    h[y] += 1
                    new[tuple(h)] += prob * py
            dist = dict(new)
    return dist


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _check_neighbours(inputs0, inputs1):
    a, b = list(inputs0), list(inputs1)
    if len(a) != len(b) or len(a) == 0:
        raise validate.DomainError("inputs0 and inputs1 must list the same number (>= 1) of users")
    if a[1:] != b[1:]:
        raise validate.DomainError("inputs0 and inputs1 must differ in the first user only")
    return a, b


def delta(randomizer, inputs0, inputs1, epsilon, digits=None):
    """max of the two hockey-stick divergences between the shuffled outputs of two datasets that
    differ in the first user (exact; mpmath with ``digits``)."""
    a, b = _check_neighbours(inputs0, inputs1)
    e = validate.real("epsilon", epsilon)
    digits = validate.digits(digits)
    if digits is None:
        p0, p1 = histogram(randomizer, a), histogram(randomizer, b)
        g = math.exp(e)
        keys = set(p0) | set(p1)
        d01 = math.fsum(max(p0.get(k, 0.0) - g * p1.get(k, 0.0), 0.0) for k in keys)
        d10 = math.fsum(max(p1.get(k, 0.0) - g * p0.get(k, 0.0), 0.0) for k in keys)
        return max(d01, d10)

    def fn():
        work = mpmath.mp.dps
        p0, p1 = histogram(randomizer, a, digits=work), histogram(randomizer, b, digits=work)
        g = mpmath.exp(mpmath.mpf(e))
        keys = set(p0) | set(p1)
        zero = mpmath.mpf(0)
        d01 = mpmath.fsum(max(p0.get(k, zero) - g * p1.get(k, zero), zero) for k in keys)
        d10 = mpmath.fsum(max(p1.get(k, zero) - g * p0.get(k, zero), zero) for k in keys)
        return max(d01, d10)

    return mp_adaptive(fn, digits)


def epsilon(randomizer, inputs0, inputs1, delta_value, digits=None) -> Result:
    """Certified bracket of the smallest epsilon >= 0 with delta(epsilon) <= delta for two datasets."""
    a, b = _check_neighbours(inputs0, inputs1)
    m = _matrix(randomizer)
    eps_max = math.log(float(np.max(m.astype(float)[:, None, :] / m.astype(float)[None, :, :]))) * 1.0000001 + 1e-12

    def bounds(e, _tol):
        v = float(delta(randomizer, a, b, e, digits=digits))
        err = delta_error(len(a), e) if digits is None else v * 1e-15
        return rounding.log_down(rounding.down_nonneg(v, err)), rounding.log_up(rounding.up(v, err))

    bracket = epsilon_bracket(bounds, delta_value, SearchParameters(upper=eps_max, rtol=1e-9, atol=1e-15))
    lo, hi = bracket.lower, bracket.upper
    return Result("epsilon", lo, hi, Kind.EXACT, Status.PROVEN, "exact", "exact enumeration of the shuffled histogram",
                  params={"inputs0": a, "inputs1": b})


def datasets(rows: int, n: int, *, exhaustive: bool):
    """Neighbouring datasets (inputs0, inputs1): the first user holds x0 or x1, the others a multiset.

    Exhaustive: every ordered pair x0 != x1 and every multiset of the other n - 1 inputs.
    Otherwise: the others all equal to one value, or split between two values.
    """
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
    """Number of datasets of the exhaustive search."""
    return rows * (rows - 1) * math.comb(n - 1 + rows - 1, rows - 1)


def worst_case(randomizer, n_value, epsilon_value, *, exhaustive: bool | None = None, max_datasets: int = 2000):
    """Largest exact delta(epsilon) over the searched datasets: (delta, inputs0, inputs1, exhaustive)."""
    nn = validate.integer("n", n_value, low=1)
    m = _matrix(randomizer)
    rows = m.shape[0]
    if exhaustive is None:
        exhaustive = search_size(rows, nn) <= max_datasets
    best = (-1.0, None, None)
    for a, b in datasets(rows, nn, exhaustive=exhaustive):
        v = delta(randomizer, a, b, epsilon_value)
        if v > best[0]:
            best = (v, a, b)
    return best[0], best[1], best[2], exhaustive
