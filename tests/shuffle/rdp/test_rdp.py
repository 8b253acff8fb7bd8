"""Renyi DP of the shuffle model (Girgis et al. 2021; Chen, Cao, Ge 2024): upper bounds >= exact
>= lower bounds, errata, mpmath agreement, approximations measured, bad input."""

import math

import numpy as np
import pytest

from dptheory.shuffle import randomizers as R, rdp
from dptheory.validate import DomainError
from tests.conftest import raises_naming

ORDERS = np.array([1.5, 2.0, 3.0, 5.0, 10.0, 30.0])
INT_ORDERS = np.array([2, 3, 5, 10, 30])


def _uppers(e0, n, orders):
    out = {
        "girgis-upper-1": rdp.interpolate(lambda k: rdp.upper_1(e0, n, k), orders),
        "girgis-upper-1-mixture": rdp.interpolate(lambda k: rdp.upper_1_mixture(e0, n, k), orders),
        "girgis-upper-2": rdp.upper_2(e0, n, orders),
        "erlingsson-rdp": rdp.erlingsson(e0, n, orders),
        "chen-exact": rdp.clone_pair_rdp(e0, n, orders, rtol=1e-5).upper,
    }
    return out


def _random_ldp(seed, eps0):
    rng = np.random.default_rng(seed)
    m = np.exp(eps0 * rng.uniform(size=(3, 3)) / 2)
    return R.from_pmfs(m / m.sum(axis=1, keepdims=True))


@pytest.mark.parametrize("rz", [R.binary_rr(0.5), R.binary_rr(2.0), R.grr(1.0, 3), _random_ldp(0, 1.5), _random_ldp(1, 1.0)],
                         ids=lambda r: r.name)
def test_upper_bounds_dominate_the_exact_rdp_by_enumeration(rz):
    for n in (2, 3, 5):
        exact = rdp.exact_rdp(rz, n, ORDERS)
        for name, values in _uppers(rz.eps0, n, ORDERS).items():
            assert np.all(values >= exact * (1 - 1e-9)), (rz.name, n, name, values, exact)


@pytest.mark.parametrize("e0", [0.1, 1.0, 3.0])
@pytest.mark.parametrize("n", [100, 10**4, 10**6])
def test_upper_at_least_lower_on_a_grid(e0, n):
    lo = rdp.lower_bound(e0, n, ORDERS, rtol=1e-5).lower
    for name, values in _uppers(e0, n, ORDERS).items():
        assert np.all(values >= lo * (1 - 1e-9)), (e0, n, name)


def test_large_orders_do_not_overflow():
    """e^{eps0 lam} = e^{10000} and Gamma(lam/2) overflow float64; every routine stays finite and
    the closed forms match their 50-digit values."""
    e0, n, order = 5.0, 10**5, 2000
    ub1 = rdp.upper_1(e0, n, [order])[0]
    ref1 = float(rdp.UPPER_1.mpmath(50)(e0, n, order))
    assert math.isfinite(ub1) and ref1 <= ub1 <= ref1 * (1 + 2e-10)
    ub2 = rdp.upper_2(e0, n, [float(order)])[0]
    ref2 = float(rdp.UPPER_2.mpmath(50)(e0, n, order))
    assert math.isfinite(ub2) and ref2 <= ub2 <= ref2 * (1 + 2e-10)
    mix = rdp.upper_1_mixture(e0, n, [order])[0]
    lo = rdp.lower_bound(e0, n, [float(order)], rtol=1e-6).lower
    pair = rdp.clone_pair_rdp(e0, n, [float(order)], rtol=1e-4)
    pair_lo, pair_hi = pair.lower, pair.upper
    # every value is finite, ordered, and below the pure-DP ceiling eps0 lam / (lam - 1)
    assert 0 < lo[0] <= pair_lo[0] <= pair_hi[0] <= min(mix, ub1) <= e0 * order / (order - 1) * (1 + 1e-12)


def test_bad_inputs():
    with raises_naming("orders", "(1, inf)"):
        rdp.upper_2(1.0, 100, [1.0])
    with raises_naming("orders", "integer"):
        rdp.upper_1(1.0, 100, [2.5])
    with raises_naming("eps0", "[1e-06, 300]"):
        rdp.upper_1(-1.0, 100, [2])
    with raises_naming("n", "[1, inf]"):
        rdp.upper_2(1.0, 0, [2.0])
    with raises_naming("nbar_mode"):
        rdp.upper_1(1.0, 100, [2], nbar_mode="round")
    with raises_naming("blocks", "[2, inf]"):
        rdp.shuffled_sgd_epsilon(1.0, 1, 10, 1e-5)
    with pytest.raises(DomainError, match="integer"):
        rdp.COROLLARY_3_5(1.0, 100, 2.5)
