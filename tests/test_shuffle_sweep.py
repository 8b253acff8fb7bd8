"""Exhaustive soundness sweep (marked slow: python -m pytest -m slow): every proven upper bound
against exact enumeration over every dataset, for more randomizers, n up to 7 and a fine grid of
epsilon, including the proven cases of the stronger clones."""

import math

import numpy as np
import pytest

from dptheory.results import Kind, Status
from dptheory.shuffle import METHODS, exact, randomizers as R
from dptheory.shuffle.methods import NotApplicable
from dptheory.validate import ConditionError

pytestmark = pytest.mark.slow


def _random_ldp(seed, inputs, outputs, eps0):
    rng = np.random.default_rng(seed)
    m = np.exp(eps0 * rng.uniform(size=(inputs, outputs)) / 2)
    return R.from_pmfs(m / m.sum(axis=1, keepdims=True), name=f"random{seed}")


RANDOMIZERS = ([R.binary_rr(e) for e in (0.3, 1.0, 2.5)] + [R.grr(e, d) for e in (0.5, 1.5) for d in (3, 5)]
               + [R.subset_selection(1.0, 5, 2), R.subset_selection(2.0, 4, 2), R.unary_encoding(0.8, 3)]
               + [_random_ldp(s, 3, 4, 1.5) for s in range(6)])


@pytest.mark.parametrize("rz", RANDOMIZERS, ids=lambda r: r.name)
def test_sweep(rz):
    rows = rz.pmfs.shape[0]
    for n in range(2, 8):
        if exact.search_size(rows, n) > 4000:
            break
        for e in np.linspace(0.0, 1.2 * math.log(rz.p), 9):
            worst, _, _, exhaustive = exact.worst_case(rz, n, e, max_datasets=4000)
            assert exhaustive
            err = exact.delta_error(n, e)
            for slug, m in METHODS.items():
                if m.log_delta is None or slug == "exact" or m.applies(rz, n):
                    continue
                try:
                    res = m.delta(rz, n, e)
                except (NotApplicable, ConditionError):
                    continue
                hi = res.upper if res.quantity == "delta" else math.exp(res.upper)
                lo = res.lower if res.quantity == "delta" else math.exp(res.lower)
                if m.kind is Kind.UPPER and res.status is Status.PROVEN:
                    assert hi >= worst - err, (rz.name, n, e, slug, hi, worst)
                if m.kind is Kind.LOWER:
                    assert lo <= worst + err, (rz.name, n, e, slug, lo, worst)
