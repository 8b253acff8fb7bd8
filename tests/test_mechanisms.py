"""Basic mechanisms: every closed form against the divergences of the output pmfs or against
quadrature of the densities."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import integrate, stats

from dptheory import divergences as dv, mechanisms, rdp
from tests.conftest import raises_naming
from tests.oracles.nearest import nearest


def _mp_rr_pmfs(eps0, k):
    E = mpmath.exp(mpmath.mpf(eps0))
    z = E + k - 1
    p = [1 / z] * k
    q = [1 / z] * k
    p[0] = q[1] = E / z
    return p, q


def _mp_rr_renyi(eps0, k, lam):
    """D_lambda of the output pmfs at 60 digits, summed atom by atom (not the closed form)."""
    with mpmath.workdps(60):
        p, q = _mp_rr_pmfs(eps0, k)
        L = mpmath.mpf(lam)
        return mpmath.log(mpmath.fsum(a**L * b ** (1 - L) for a, b in zip(p, q))) / (L - 1)


def _mp_rr_delta(eps0, k, e):
    with mpmath.workdps(60):
        p, q = _mp_rr_pmfs(eps0, k)
        g = mpmath.exp(mpmath.mpf(e))
        return mpmath.fsum(max(a - g * b, 0) for a, b in zip(p, q))


def _mp_laplace_renyi(mu, lam):
    """Mironov (2017), Table II, at 60 digits."""
    with mpmath.workdps(60):
        M, L = mpmath.mpf(mu), mpmath.mpf(lam)
        a = L / (2 * L - 1) * mpmath.exp((L - 1) * M) + (L - 1) / (2 * L - 1) * mpmath.exp(-L * M)
        return mpmath.log(a) / (L - 1)


@pytest.mark.parametrize("eps0,k", [(0.3, 2), (1.0, 3), (2.5, 8)])
def test_randomized_response_views_agree_with_its_pmfs(eps0, k):
    rr = mechanisms.RandomizedResponse(eps0, k)
    p, q = rr.pmfs()
    eps = np.array([0.0, 0.2, eps0 / 2, eps0, eps0 + 1])
    assert np.allclose(rr.delta(eps), dv.hockey_stick(p, q, eps), atol=1e-15)
    orders = np.array([1.5, 2.0, 10.0, 100.0])
    curve = rr.rdp(orders)
    assert np.all(curve.lower <= dv.renyi(p, q, orders) * (1 + 1e-12)) and np.allclose(curve.upper, dv.renyi(p, q, orders), rtol=1e-12)
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
    c = mech.rdp(4.0)
    assert c.lower[0] <= 4 * 1.5**2 / 2 <= c.upper[0]
    res = mech.epsilon(1e-6)
    assert mech.delta(res.lower) > 1e-6 >= mech.delta(res.upper)


def test_laplace_mechanism():
    mech = mechanisms.LaplaceMechanism(scale=0.5)
    assert mech.mu == 2.0
    assert mech.delta(2.0) == 0.0 and mech.delta(1.0) > 0
    res = mech.epsilon(0.1)
    with mpmath.workdps(60):
        ref = 2 + 2 * mpmath.log(1 - mpmath.mpf(0.1))
    assert res.lower <= ref <= res.upper
    # the trade-off function against Neyman-Pearson threshold tests on scipy's Laplace laws:
    # reject when x > t has type I error 1 - F(t) and type II error F(t - mu)
    t = np.linspace(-5.0, 7.0, 97)
    alpha, beta = stats.laplace.sf(t), stats.laplace.cdf(t - mech.mu)
    assert np.allclose(mech.tradeoff()(alpha), beta, atol=1e-14)
    # the profile at the pmf-free closed form: delta(eps) = 1 - e^{(eps - mu)/2} for eps <= mu
    assert math.isclose(mech.delta(1.0), -math.expm1(-0.5), rel_tol=1e-15)


def test_rr_rdp_is_a_certified_interval():
    """`dptheory mechanism rr --eps0 0.1 --k 4 --orders 2` was labelled exact and was 3.8e-14 below
    the truth (the log of a ratio near 1)."""
    curve = mechanisms.RandomizedResponse(0.1, 4).rdp([2.0])
    ref = _mp_rr_renyi(0.1, 4, 2.0)
    assert curve.kind is rdp.Kind.EXACT and curve.quantity == "rdp" and curve.axis == "order"
    assert curve.lower[0] <= ref <= curve.upper[0]
    assert curve.upper[0] - curve.lower[0] <= 1e-13 * ref


@given(st.floats(1e-6, 60.0), st.integers(2, 1000), st.floats(-8.0, 5.0))
@settings(max_examples=150, deadline=None)
def test_rr_rdp_encloses_the_60_digit_divergence(eps0, k, log_gap):
    lam = 1.0 + 10.0 ** log_gap
    if lam == 1.0:
        return
    curve = mechanisms.RandomizedResponse(eps0, k).rdp([lam])
    ref = _mp_rr_renyi(eps0, k, lam)
    assert curve.lower[0] <= ref <= curve.upper[0], (eps0, k, lam, curve.lower, curve.upper, ref)
    assert curve.upper[0] - curve.lower[0] <= 1e-12 * ref


@given(st.floats(1e-4, 50.0), st.floats(-6.0, 4.0))
@settings(max_examples=100, deadline=None)
def test_laplace_rdp_encloses_the_60_digit_value(scale, log_gap):
    lam = 1.0 + 10.0 ** log_gap
    if lam == 1.0:
        return
    mech = mechanisms.LaplaceMechanism(scale=scale)
    curve = mech.rdp([lam])
    with mpmath.workdps(60):
        mu = 1 / mpmath.mpf(scale)  # the exact quotient, not the rounded mu
    ref = _mp_laplace_renyi(mu, lam)
    assert curve.lower[0] <= ref <= curve.upper[0], (scale, lam, curve.lower, curve.upper, ref)


def test_laplace_rdp_against_quadrature():
    mech = mechanisms.LaplaceMechanism(scale=0.8)
    for lam in (1.5, 3.0, 20.0):
        with mpmath.workdps(30):
            m, L = mpmath.mpf(1) / mpmath.mpf(0.8), mpmath.mpf(lam)
            dens = lambda x, c: mpmath.exp(-abs(x - c)) / 2
            total = mpmath.quad(lambda x: dens(x, 0) ** L * dens(x, m) ** (1 - L), [-mpmath.inf, 0, m, mpmath.inf])
            ref = mpmath.log(total) / (L - 1)
        c = mech.rdp([lam])
        assert c.lower[0] - 1e-20 <= ref <= c.upper[0] + 1e-20


@given(st.floats(1e-3, 40.0), st.integers(2, 50), st.floats(1.0, 300.0))
@settings(max_examples=100, deadline=None)
def test_rr_epsilon_encloses_the_exact_inverse(eps0, k, neg_log10_delta):
    delta = 10.0 ** -neg_log10_delta
    res = mechanisms.RandomizedResponse(eps0, k).epsilon(delta)
    with mpmath.workdps(60):
        E = mpmath.exp(mpmath.mpf(eps0))
        inner = E - mpmath.mpf(delta) * (E + k - 1)
        ref = mpmath.log(inner) if inner > 1 else mpmath.mpf(0)
    assert res.lower <= ref <= res.upper, (eps0, k, delta, res.lower, res.upper, ref)


def test_rr_delta_float_near_eps0_and_for_large_eps0():
    for eps0, k, e in [(2.0, 3, 1.9999999999999), (0.5, 2, 0.49999), (8.0, 20, 7.999999999899), (800.0, 5, 799.5)]:
        got = mechanisms.RandomizedResponse(eps0, k).delta(e)
        ref = _mp_rr_delta(eps0, k, e)
        assert abs(got - ref) <= 1e-14 * ref, (eps0, k, e, got, ref)


@pytest.mark.parametrize("mech", [mechanisms.GaussianMechanism(1.3), mechanisms.LaplaceMechanism(0.7),
                                  mechanisms.RandomizedResponse(1.5, 6)])
def test_report_rdp_route_is_above_the_exact_epsilon(mech):
    rep = mechanisms.report(mech, 1e-6, [1.5, 2, 4, 8, 16, 32, 64])
    assert rep.epsilon.kind is rdp.Kind.EXACT and rep.epsilon_via_rdp.kind is rdp.Kind.UPPER
    assert rep.epsilon_via_rdp.upper >= rep.epsilon.upper
    d = rep.as_dict()
    assert d["rdp"]["order"][0] == 1.5 and len(d["epsilon"]) == 2
    assert isinstance(mechanisms.from_name("rr", eps0=1.0, k=3), mechanisms.RandomizedResponse)
    with raises_naming("mechanism"):
        mechanisms.from_name("nope")


def test_bad_inputs():
    with raises_naming("k", "[2, 10000000]"):
        mechanisms.RandomizedResponse(1.0, 1)
    with raises_naming("eps0", "[0, inf)"):
        mechanisms.RandomizedResponse(-1.0, 2)
    with raises_naming("sigma"):
        mechanisms.GaussianMechanism(0.0)
    with raises_naming("scale"):
        mechanisms.LaplaceMechanism(-2.0)
    with raises_naming("orders"):
        mechanisms.RandomizedResponse(1.0).rdp([0.5])


def test_delta_of_every_mechanism_is_correctly_rounded():
    """Each mechanism's float delta(epsilon) is the float nearest to the exact profile, against
    references written here at 100 digits: randomized response from its pmfs (hockey-stick sum),
    Laplace from the CDFs of the privacy loss event {x < (mu - eps)/2} (1 - e^eps below -mu),
    Gaussian from mpmath's ncdf at mu = sensitivity / sigma exactly (0.3 / 0.7 is not a float);
    near the edges where the profile cancels (eps just below eps0 and mu)."""
    with mpmath.workdps(100):
        def rr_ref(eps0, k, e):
            # the pmfs times their normaliser z = e^eps0 + k - 1: (e^eps0, 1, ..., 1), (1, e^eps0, 1, ..., 1)
            big = mpmath.exp(eps0)
            p = [big] + [1] * (k - 1)
            q = [1, big] + [1] * (k - 2)
            return mpmath.fsum(max(a - mpmath.exp(e) * b, 0) for a, b in zip(p, q)) / (big + k - 1)

        def laplace_ref(mu, e):
            if e >= mu:
                return mpmath.mpf(0)
            if e <= -mu:
                return -mpmath.expm1(e)
            t = (mu - e) / 2  # P[Lap(0) < t] - e^eps P[Lap(mu) < t], 0 < t < mu
            return (1 - mpmath.exp(-t) / 2) - mpmath.exp(e) * mpmath.exp(t - mu) / 2

        def gauss_ref(mu, e):
            return mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2)

        cases = []
        for eps0, k in ((0.3, 2), (2.0, 3), (8.0, 20)):
            es = [0.0, 0.1, eps0 / 2, eps0 - 1e-7, math.nextafter(eps0, 0), eps0, eps0 + 1]
            got = mechanisms.RandomizedResponse(eps0, k).delta(np.array(es))
            cases += [(g, rr_ref(mpmath.mpf(eps0), k, mpmath.mpf(e))) for g, e in zip(got, es)]
        for scale in (0.7, 1.0, 3.0):
            mech = mechanisms.LaplaceMechanism(scale, 0.3)
            mu = mpmath.mpf(0.3) / mpmath.mpf(scale)
            es = [-2.0, -0.2, 0.0, 0.05, float(mu) * (1 - 1e-9), float(mu), 1.0]
            got = mech.delta(np.array(es))
            cases += [(g, laplace_ref(mu, mpmath.mpf(e))) for g, e in zip(got, es)]
        for sigma in (0.7, 1.0, 0.05):
            mech = mechanisms.GaussianMechanism(sigma, 0.3)
            mu = mpmath.mpf(0.3) / mpmath.mpf(sigma)
            es = [-1.0, 0.0, 0.5, 3.0, 20.0, 150.0]
            got = mech.delta(np.array(es))
            cases += [(g, gauss_ref(mu, mpmath.mpf(e))) for g, e in zip(got, es)]
        wrong = [(g, mpmath.nstr(r, 20)) for g, r in cases if g != nearest(r)]
    assert not wrong, wrong
    assert mechanisms.RandomizedResponse(2.0, 3).delta(1.0) == float(mechanisms.RandomizedResponse(2.0, 3).delta(np.array([1.0]))[0])
