"""dptheory.shuffle.rdp.orders against independent computations (the cross-method tests are in test_shuffle_rdp.py)."""


import numpy as np

from dptheory.shuffle import randomizers as R, rdp



def test_real_orders_by_interpolation_are_valid():
    e0, n = 1.0, 4
    real = np.array([1.3, 2.5, 3.7, 6.2])
    interp = rdp.interpolate(lambda k: rdp.upper_1(e0, n, k), real)
    exact = rdp.exact_rdp(R.binary_rr(e0), n, real)
    assert np.all(interp >= exact)
    ints = np.array([2.0, 3.0, 7.0])
    assert np.allclose(rdp.interpolate(lambda k: rdp.upper_1(e0, n, k), ints), rdp.upper_1(e0, n, ints))
