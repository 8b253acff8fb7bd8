"""Exhaustive soundness sweep (marked slow: python -m pytest -m slow): every proven upper bound
against exact enumeration over every dataset, for more randomizers, n up to 7 and a fine grid of
epsilon, including the proven cases of the stronger clones."""

import math

import numpy as np
import pytest

from dptheory.shuffle import exact, randomizers as R
from tests.oracles.soundness import check_methods, random_ldp

pytestmark = pytest.mark.slow

RANDOMIZERS = ([R.binary_rr(e) for e in (0.3, 1.0, 2.5)] + [R.grr(e, d) for e in (0.5, 1.5) for d in (3, 5)]
               + [R.subset_selection(1.0, 5, 2), R.subset_selection(2.0, 4, 2), R.unary_encoding(0.8, 3)]
               + [random_ldp(s, 3, 4, 1.5) for s in range(6)])


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
            assert check_methods(rz, n, e, worst, err) > 0
