"""Sweeps over the shuffle library.

* No valid input ends in an exception other than "not applicable": :func:`compare` over every
  method and every registered randomizer, n in {2, 3, 5, 10, 1e3, 1e12}, eps0 from 0.01 to 50,
  delta from 1e-300 to 0.5 and epsilon in {0, eps0/2, eps0}, returns only Results (never NaN,
  lower <= upper) and Inapplicable rows. A fixed spread of the product runs by default; the whole
  product is marked slow.
* Exhaustive soundness (slow): every proven upper bound against exact enumeration over every
  dataset, for more randomizers, n up to 7 and a fine grid of epsilon, including the proven cases
  of the stronger clones.

Run the slow ones with python -m pytest -m slow.
"""

import itertools
import math

import numpy as np
import pytest

from dptheory.results import Inapplicable, Result
from dptheory.shuffle import compare, exact, randomizers as R
from tests.oracles.soundness import check_methods, random_ldp

N_VALUES = (2, 3, 5, 10, 1000, 10**12)
EPS0_VALUES = (0.01, 0.5, 4.0, 20.0, 50.0)
#: ("delta", value) asks epsilon(delta); ("epsilon", fraction) asks delta(fraction * eps0)
QUERIES = (("delta", 1e-300), ("delta", 1e-6), ("delta", 0.5),
           ("epsilon", 0.0), ("epsilon", 0.5), ("epsilon", 1.0))
_EXTRA = {"d": 3, "k": 1, "l": 2}


def _randomizer(name, eps0):
    factory, params = R.REGISTRY[name]
    return factory(*[eps0 if p == "eps0" else _EXTRA[p] for p in params])


def check_compare(name, n, eps0, query):
    rz = _randomizer(name, eps0)
    kind, value = query
    if kind == "delta":
        rows = compare(rz, n, delta=value)
    else:
        rows = compare(rz, n, epsilon=value * eps0)
    assert rows
    for row in rows:
        assert isinstance(row, (Result, Inapplicable)), row
        if isinstance(row, Result):
            assert not (math.isnan(row.lower) or math.isnan(row.upper)), (name, n, eps0, query, row)
            assert row.lower <= row.upper, (name, n, eps0, query, row)
        else:
            assert row.reason, (name, n, eps0, query, row)


def _spread():
    """Every randomizer, n, eps0 and query at least once, in a fixed rotation (not the product)."""
    names = sorted(R.REGISTRY)
    cases = []
    for i in range(max(len(names), len(N_VALUES), len(EPS0_VALUES), len(QUERIES)) * 2):
        cases.append((names[i % len(names)], N_VALUES[(i * 5) % len(N_VALUES)],
                      EPS0_VALUES[(i * 3) % len(EPS0_VALUES)], QUERIES[(i * 7) % len(QUERIES)]))
    return cases


@pytest.mark.parametrize("name,n,eps0,query", _spread())
def test_compare_gives_results_or_inapplicable(name, n, eps0, query):
    check_compare(name, n, eps0, query)


@pytest.mark.slow
@pytest.mark.parametrize("name,n,eps0,query", list(itertools.product(sorted(R.REGISTRY), N_VALUES, EPS0_VALUES,
                                                                     QUERIES)))
def test_compare_gives_results_or_inapplicable_everywhere(name, n, eps0, query):
    check_compare(name, n, eps0, query)

RANDOMIZERS = ([R.binary_rr(e) for e in (0.3, 1.0, 2.5)] + [R.grr(e, d) for e in (0.5, 1.5) for d in (3, 5)]
               + [R.subset_selection(1.0, 5, 2), R.subset_selection(2.0, 4, 2), R.unary_encoding(0.8, 3)]
               + [random_ldp(s, 3, 4, 1.5) for s in range(6)])


@pytest.mark.slow
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
