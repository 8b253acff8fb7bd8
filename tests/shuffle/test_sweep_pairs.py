"""The library over the issue's sweep of valid inputs (issue 9, defects 5): every method through
:func:`compare`, in epsilon(delta) and delta(epsilon) mode, for the general eps0-LDP randomizer.
No exception other than a method's NotApplicable row, no NaN, lower <= upper. The default run
takes the corners the issue names (eps0 = 50, n = 1000, delta = 1e-6 ended in "bucketed sum gave
NaN"); the full product is behind ``slow``."""

import itertools
import math

import pytest

from dptheory.results import Inapplicable, Result
from dptheory.shuffle import compare, randomizers as R

EPS0 = [0.01, 0.1, 1.0, 5.0, 10.0, 20.0, 30.0, 50.0]
NS = [2, 3, 5, 10, 1000, 10**6, 10**12]
DELTAS = [1e-300, 1e-100, 1e-10, 1e-3, 0.5]


def _check(rows):
    for r in rows:
        assert isinstance(r, (Result, Inapplicable))
        if isinstance(r, Result):
            assert not math.isnan(r.lower) and not math.isnan(r.upper), r
            assert r.lower <= r.upper, r
            if r.log_lower is not None:
                assert not math.isnan(r.log_lower) and not math.isnan(r.log_upper), r
                assert r.log_lower <= r.log_upper, r


def _run(eps0, n, delta=None, epsilon=None):
    rz = R.general_ldp(eps0)
    if delta is not None:
        _check(compare(rz, n, delta=delta))
    else:
        _check(compare(rz, n, epsilon=epsilon))


@pytest.mark.parametrize("eps0,n,delta", [(50.0, 1000, 1e-6), (30.0, 100, 1e-6), (20.0, 3, 0.5)])
def test_issue_corners_epsilon_mode(eps0, n, delta):
    _run(eps0, n, delta=delta)


@pytest.mark.parametrize("eps0,n", [(50.0, 1000), (50.0, 5), (0.01, 2), (20.0, 10)])
def test_issue_corners_delta_mode(eps0, n):
    for e in (0.0, eps0 / 2, eps0 * (1 - 1e-9), eps0):
        _run(eps0, n, epsilon=e)


@pytest.mark.slow
@pytest.mark.parametrize("eps0,n", list(itertools.product(EPS0, NS)))
def test_full_sweep(eps0, n):
    for d in DELTAS:
        _run(eps0, n, delta=d)
    for e in (0.0, eps0 / 2, eps0 * (1 - 1e-9), eps0):
        _run(eps0, n, epsilon=e)
