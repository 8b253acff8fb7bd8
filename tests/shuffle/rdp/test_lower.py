"""dptheory.shuffle.rdp.lower against independent computations (the cross-method tests are in test_shuffle_rdp.py)."""


import numpy as np
import pytest

from dptheory.shuffle import randomizers as R, rdp

ORDERS = np.array([1.5, 2.0, 3.0, 5.0, 10.0, 30.0])
INT_ORDERS = np.array([2, 3, 5, 10, 30])


@pytest.mark.parametrize("n", [2, 4, 6])
def test_lower_bound_is_the_exact_rdp_of_binary_rr_on_its_datasets(n):
    e0 = 1.2
    lo = rdp.lower_bound(e0, n, ORDERS, both_directions=True, rtol=1e-10).lower
    exact = rdp.exact_rdp(R.binary_rr(e0), n, ORDERS)
    assert np.all(lo <= exact * (1 + 1e-9))  # a lower bound on the worst case over datasets
    cor35 = rdp.COROLLARY_3_5.numpy()(e0, n, INT_ORDERS)
    lb_int = rdp.lower_bound(e0, n, INT_ORDERS, both_directions=False, rtol=1e-10).lower
    assert np.all(cor35 <= lb_int * (1 + 1e-9))  # equal at order 2


@pytest.mark.parametrize("e0,n,order", [(0.1, 1000, 5), (3.0, 1000, 5), (1.0, 500, 20), (0.5, 3000, 12)])
def test_lower_bound_moment_formula_matches_the_exact_sum_at_50_digits(e0, n, order):
    """Theorem 3.4 with exact binomial central moments (cumulant recursion, mpmath 50 digits)
    equals the direct sum; the digest's independent values 0.043417 (eps0 3) and 0.021154 (eps0 1)."""
    c = rdp.lower_bound(e0, n, [order], both_directions=False, rtol=1e-12)
    lo, hi = c.lower, c.upper
    moments = rdp.lower_bound_moments(e0, n, order, digits=50)
    assert lo[0] * (1 - 1e-12) <= moments <= hi[0] * (1 + 1e-12)
    if (e0, n, order) == (3.0, 1000, 5):
        assert abs(float(moments) - 0.043417) < 5e-7
        assert abs(rdp.lower_bound(e0, n, [order], rtol=1e-8).upper[0] - 0.048593) < 5e-7  # the other direction
