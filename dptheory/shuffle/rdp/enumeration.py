"""The exact Renyi DP of a finite randomizer's shuffled histogram, by enumerating every dataset
(small n): the ground truth the shuffle model's RDP bounds are tested against."""

from __future__ import annotations

import numpy as np

from ... import validate
from ...divergences import renyi
from .. import exact


def exact_rdp(randomizer, n_value, orders, *, max_datasets: int = 3000):
    """Exact RDP of a finite randomizer's shuffled histogram: max over every dataset (multisets of
    the other users' inputs) and both directions; small n only."""
    nn = validate.integer("n", n_value, low=1)
    o = np.atleast_1d(validate.real_array("orders", orders, low=1.0, low_open=True))
    rows = randomizer.pmfs.shape[0]
    if exact.search_size(rows, nn) > max_datasets:
        raise validate.DomainError(f"n = {nn} is too large for exact enumeration of every dataset")
    best = np.full(o.shape, -np.inf)
    for a, b in exact.datasets(rows, nn, exhaustive=True):
        h0, h1 = exact.histogram(randomizer, a), exact.histogram(randomizer, b)
        keys = sorted(set(h0) | set(h1))
        p = np.array([h0.get(k, 0.0) for k in keys])
        q = np.array([h1.get(k, 0.0) for k in keys])
        p, q = p / p.sum(), q / q.sum()
        best = np.maximum(best, np.maximum(renyi(p, q, o), renyi(q, p, o)))
    return best

