"""Basic mechanisms: every closed form against the divergences of the output pmfs or against
quadrature of the densities."""

import math

import mpmath
import numpy as np
import pytest
from scipy import integrate

from dptheory import divergences as dv, mechanisms, tradeoff
from tests.conftest import raises_naming


@pytest.mark.parametrize("eps0,k", [(0.3, 2), (1.0, 3), (2.5, 8)])
def test_randomized_response_views_agree_with_its_pmfs(eps0, k):
    rr = mechanisms.RandomizedResponse(eps0, k)
    p, q = rr.pmfs()
    eps = np.array([0.0, 0.2, eps0 / 2, eps0, eps0 + 1])
    assert np.allclose(rr.delta(eps), dv.hockey_stick(p, q, eps), atol=1e-15)
    orders = np.array([1.5, 2.0, 10.0, 100.0])
    assert np.allclose(rr.rdp(orders), dv.renyi(p, q, orders), rtol=1e-12)
    pm, qm = rr.pmfs(digits=50)
    assert abs(dv.hockey_stick(pm, qm, 0.1, digits=50) - mpmath.mpf(rr.delta(0.1))) < 1e-15
    # every pair of distinct inputs is equally distinguishable (symmetry of RR)
    t = rr.tradeoff()
    assert t.symmetric


def test_gaussian_mechanism_is_mu_gdp():
    mech = mechanisms.GaussianMechanism(sigma=2.0, sensitivity=3.0)
    assert mech.mu == 1.5
    e = 0.7
    num = integrate.quad(
        lambda x: max(0.0, math.exp(-x * x / 8) - math.exp(e) * math.exp(-(x - 3) ** 2 / 8)) / math.sqrt(8 * math.pi),
        -40, 40, points=[1.5], limit=200)[0]
    assert math.isclose(mech.delta(e), num, rel_tol=1e-8)
    assert math.isclose(mech.rdp(4.0), 4 * 1.5**2 / 2)
    res = mech.epsilon(1e-6)
    assert mech.delta(res.lower) > 1e-6 >= mech.delta(res.upper)


def test_laplace_mechanism():
    mech = mechanisms.LaplaceMechanism(scale=0.5)
    assert mech.mu == 2.0
    assert mech.delta(2.0) == 0.0 and mech.delta(1.0) > 0
    res = mech.epsilon(0.1)
    assert math.isclose(res.upper, 2.0 + 2 * math.log(0.9), rel_tol=1e-8)
    assert isinstance(mech.tradeoff(), tradeoff.Laplace)


def test_bad_inputs():
    with raises_naming("k", "[2, inf]"):
        mechanisms.RandomizedResponse(1.0, 1)
    with raises_naming("eps0", "[0, inf)"):
        mechanisms.RandomizedResponse(-1.0, 2)
    with raises_naming("sigma"):
        mechanisms.GaussianMechanism(0.0)
    with raises_naming("scale"):
        mechanisms.LaplaceMechanism(-2.0)
    with raises_naming("orders"):
        mechanisms.RandomizedResponse(1.0).rdp([0.5])
