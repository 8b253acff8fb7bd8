"""The exact RDP of the Poisson-subsampled Gaussian (dptheory.subsampled_rdp; Mironov, Talwar, Zhang
2019, Section 3.3) against a certified quadrature of the defining integral at 50 digits in both
directions (tests/oracles/mechanisms.py, written without reading the code under test), against
dp_accounting's ``rdp_privacy_accountant`` at the integer orders 2..256, and the Zhu-Wang general
bound against the exact value."""

import math

import numpy as np
import pytest

from dptheory import subsampled_rdp
from dptheory.subsampled import SubsampledGaussian
from dptheory.validate import DomainError
from tests.oracles import mechanisms as oracle

dp_rdp = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
dp_accounting = pytest.importorskip("dp_accounting")

INTEGER_ORDERS = np.arange(2, 257)


@pytest.mark.parametrize("sigma, q", [(1.0, 0.01), (0.8, 0.001), (5.0, 0.3), (0.5, 0.05), (2.0, 0.1), (1.0, 0.9)])
def test_integer_orders_equal_dp_accounting(sigma, q):
    """At the integer orders 2..256 the exact value equals dp_accounting's to 1e-10 relative (where
    dp_accounting's own sum is accurate: its log A carries an absolute error of about 1e-16, large
    relative to log A only where the divergence is tiny; see the next test)."""
    lo, hi = subsampled_rdp.sgm_rdp(sigma, q, INTEGER_ORDERS)
    ref = dp_rdp._compute_rdp_poisson_subsampled_gaussian(q, sigma, INTEGER_ORDERS)
    assert np.all(lo <= hi)
    assert np.max(np.abs(0.5 * (lo + hi) - ref) / ref) <= 1e-10
    assert np.max((hi - lo) / hi) <= 1e-10


@pytest.mark.parametrize("sigma, q, order", [
    (1.0, 0.01, 2), (1.0, 0.01, 64), (0.8, 0.001, 3), (5.0, 0.3, 17), (30.0, 0.001, 7), (2.0, 0.2, 256),
])
def test_integer_orders_inside_the_quadrature_oracle(sigma, q, order):
    """Integer orders against the oracle's binomial sum in interval arithmetic and its quadrature
    of both directions (the remove direction is the larger: Mironov, Talwar, Zhang 2019)."""
    o_lo, o_hi = oracle.sgm_renyi(sigma, q, order, direction="both", method="quadrature", digits=50)
    lo, hi = subsampled_rdp.sgm_rdp(sigma, q, [order])
    assert lo[0] <= o_lo and hi[0] >= o_hi
    assert (hi[0] - lo[0]) <= 1e-10 * hi[0]


def test_tiny_divergence_is_relative_accurate():
    """sigma = 30, q = 0.001: rho(7) is about 3.9e-9. The sum of A - 1's positive terms keeps a
    relative error near 1e-12, where summing A itself (dp_accounting) is off by about 1e-9 relative."""
    o_lo, o_hi = oracle.sgm_renyi(30.0, 0.001, 7, direction="both", digits=50)
    lo, hi = subsampled_rdp.sgm_rdp(30.0, 0.001, [7])
    assert lo[0] <= o_lo <= o_hi <= hi[0]
    assert hi[0] - lo[0] <= 1e-11 * hi[0]


@pytest.mark.parametrize("sigma, q, order", [
    (1.0, 0.01, 1.25), (1.0, 0.01, 1.5), (0.8, 0.001, 2.5), (5.0, 0.3, 10.5), (0.5, 0.05, 1.5),
    (2.0, 0.2, 33.3), (1.0, 0.01, 3.0000001), (3.0, 0.5, 7.75),
])
def test_fractional_orders_enclose_the_quadrature_oracle(sigma, q, order):
    """Fractional orders: the certified series (alternating tails bounded by their first omitted
    term, the split point's sliver bounded) enclose the 50-digit quadrature of both directions:
    never below the exact value, and within 1e-6 relative of it."""
    o_lo, o_hi = oracle.sgm_renyi(sigma, q, order, direction="both", method="quadrature", digits=50)
    lo, hi = subsampled_rdp.sgm_rdp(sigma, q, [order])
    assert hi[0] >= o_hi
    assert lo[0] <= o_lo
    assert hi[0] - lo[0] <= 1e-6 * hi[0]


def test_fractional_orders_at_most_dp_accounting():
    """dp_accounting sums the fractional series' absolute values (an upper bound): the exact value
    is below it, and the gap is real (the oracle separates them)."""
    orders = np.array([1.25, 1.5, 2.5])
    lo, hi = subsampled_rdp.sgm_rdp(1.0, 0.01, orders)
    ref = dp_rdp._compute_rdp_poisson_subsampled_gaussian(0.01, 1.0, orders)
    assert np.all(hi <= ref)
    o_lo, o_hi = oracle.sgm_renyi(1.0, 0.01, 1.25, direction="both", digits=30)
    assert ref[0] > o_hi


def test_gaussian_at_rate_one():
    lo, hi = subsampled_rdp.sgm_rdp(2.0, 1.0, [1.5, 4.0])
    exact = np.array([1.5, 4.0]) / 8
    assert np.all(lo <= exact) and np.all(hi >= exact) and np.all(hi - lo <= 1e-14 * hi)


def test_zhu_wang_bound_equal_at_two_and_looser_above():
    """The general bound of Zhu and Wang (2019) with the Gaussian base curve: an upper bound on
    the exact value, equal at order 2, strictly looser from order 3 (the issue's 2.31x at most)."""
    orders = np.arange(2, 65)
    zw = subsampled_rdp.zhu_wang_rdp(1.0, 0.01, orders)
    lo, hi = subsampled_rdp.sgm_rdp(1.0, 0.01, orders)
    assert np.all(zw >= lo)
    assert abs(zw[0] - hi[0]) <= 1e-10 * hi[0]
    assert np.all(zw[1:] > hi[1:] * (1 + 1e-6))
    with pytest.raises(DomainError, match="integer orders"):
        subsampled_rdp.zhu_wang_rdp(1.0, 0.01, [2.5])


def test_composed_curve_and_epsilon_match_dp_accounting():
    """sigma = 1, q = 0.01, T = 1000, delta = 1e-5: the exact curve T rho gives dp_accounting's
    RDP accountant's epsilon (the same orders; both convert by Balle et al. 2020, Theorem 21's
    form), while the Zhu-Wang bound gives a larger one."""
    orders = np.concatenate([np.arange(2, 257), [300, 512, 1024]]).astype(float)
    mech = SubsampledGaussian(1.0, 0.01, 1000)
    curve = mech.rdp(orders)
    assert str(curve.kind) == "exact"
    ours = mech.epsilon_via_rdp(1e-5, orders)
    acc = dp_accounting.rdp.RdpAccountant(list(orders))
    acc.compose(dp_accounting.PoissonSampledDpEvent(0.01, dp_accounting.GaussianDpEvent(1.0)), 1000)
    ref = acc.get_epsilon(1e-5)
    assert ours.upper >= ref * (1 - 1e-9)
    assert ours.upper <= ref * (1 + 1e-6)
    zw = mech.epsilon_via_rdp(1e-5, orders[orders == np.floor(orders)], bound="zhu-wang")
    assert zw.upper > ours.upper * 1.05


def test_bad_input_is_a_domain_error():
    with pytest.raises(DomainError, match="sigma"):
        subsampled_rdp.sgm_rdp(0.0, 0.1, [2])
    with pytest.raises(DomainError, match="orders"):
        subsampled_rdp.sgm_rdp(1.0, 0.1, [1.0])
    with pytest.raises(DomainError, match="bound"):
        SubsampledGaussian(1.0, 0.1).rdp([2], bound="tight")


def test_integer_path_counts_terms():
    """The integer expansion evaluates alpha - 1 terms per order (k = 0 and 1 cancel exactly in
    A - 1): 2 + 3 + ... + 256 terms over the integer orders 2..256, nothing more."""
    subsampled_rdp.TERMS_EVALUATED["integer"] = 0
    subsampled_rdp.sgm_rdp(1.0, 0.01, INTEGER_ORDERS)
    assert subsampled_rdp.TERMS_EVALUATED["integer"] == sum(a - 1 for a in range(2, 257))
    assert math.isfinite(subsampled_rdp.TERMS_EVALUATED["fractional"])
