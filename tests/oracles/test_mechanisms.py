"""Checks of the mechanism oracles against published closed forms, direct quadrature of the
defining integrals and identities (never against dptheory's code)."""

from __future__ import annotations

import mpmath
import pytest
from mpmath import mpf

from tests.oracles import mechanisms as M
from tests.oracles.certified import inside


# ----------------------------------------------------------------------------- Gaussian


def balle_wang(sigma, sensitivity, epsilon):
    """Balle and Wang 2018, Theorem 8, as printed: the Gaussian mechanism is (eps, delta)-DP iff
    Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta) <= delta."""
    s, d, e = mpf(sigma), mpf(sensitivity), mpf(epsilon)
    return mpmath.ncdf(d / (2 * s) - e * s / d) - mpmath.exp(e) * mpmath.ncdf(-d / (2 * s) - e * s / d)


@pytest.mark.parametrize("sigma,sensitivity,epsilon", [(1, 1, 0.5), (2, 1, 1), (0.5, 2, 3), (1, 1, 40),
                                                        (3, 1, 0.01), (0.25, 1, 100)])
def test_gaussian_delta_balle_wang(sigma, sensitivity, epsilon):
    with mpmath.workdps(90):
        want = balle_wang(sigma, sensitivity, epsilon)
        mu = mpf(sensitivity) / mpf(sigma)
    lo, hi = M.gaussian_delta(mu, epsilon, digits=60)
    assert inside(want, (lo, hi))
    assert hi - lo <= mpf(10) ** -58 * want


def test_gaussian_delta_by_quadrature():
    """delta = integral of max(p - e^eps q, 0) for p = N(0,1), q = N(mu,1): the integrand is positive
    left of x* = mu/2 - eps/mu."""
    mu, eps = mpf("1.3"), mpf("0.7")
    with mpmath.workdps(40):
        g = mpmath.exp(eps)
        cut = mu / 2 - eps / mu
        want = mpmath.quad(lambda x: mpmath.npdf(x) - g * mpmath.npdf(x, mu), [-mpmath.inf, cut - 3, cut])
    lo, hi = M.gaussian_delta(mu, eps, digits=30)
    assert abs(want - lo) <= mpf(10) ** -28


def test_gaussian_zero_epsilon_is_total_variation():
    mu = mpf("0.8")
    with mpmath.workdps(80):
        tv = 2 * mpmath.ncdf(mu / 2) - 1
    assert inside(tv, M.gaussian_delta(mu, 0, digits=60))


def test_gaussian_epsilon_inverts_delta():
    mu = mpf(1)
    lo, hi = M.gaussian_epsilon(mu, "1e-6", digits=30)
    with mpmath.workdps(60):
        assert balle_wang(1, 1, lo) > mpf("1e-6") > balle_wang(1, 1, hi * (1 + mpf(10) ** -25))
    assert hi - lo <= mpf(10) ** -28 * hi


@pytest.mark.parametrize("mu,lam", [(1, 2), (0.3, 7.5), (2, 1.01)])
def test_gaussian_renyi(mu, lam):
    with mpmath.workdps(40):
        m, l = mpf(mu), mpf(lam)
        integral = mpmath.quad(lambda x: mpmath.npdf(x) ** l * mpmath.npdf(x, m) ** (1 - l), [-mpmath.inf, 0, mpmath.inf])
        want = mpmath.log(integral) / (l - 1)
    lo, hi = M.gaussian_renyi(mu, lam, digits=30)
    assert abs(want - lo) <= mpf(10) ** -25 * want


# ----------------------------------------------------------------------------- Laplace


@pytest.mark.parametrize("scale,sensitivity", [(1, 1), (2, 1), (0.5, 3)])
def test_laplace_delta_closed_form(scale, sensitivity):
    """With u = s/b: delta(eps) = 1 - e^((eps - u)/2) for |eps| <= u, 1 - e^eps below, 0 above (the
    simplified integral)."""
    u = mpf(sensitivity) / mpf(scale)
    for eps in (-2 * u, -u / 2, mpf(0), u / 3, u * mpf("0.999"), u, 2 * u):
        with mpmath.workdps(80):
            if eps >= u:
                want = mpf(0)
            elif eps >= -u:
                want = 1 - mpmath.exp((eps - u) / 2)
            else:
                want = 1 - mpmath.exp(eps)
        assert inside(want, M.laplace_delta(eps, scale, sensitivity, digits=60)), eps


def test_laplace_delta_by_quadrature():
    b, s, eps = mpf(1), mpf("1.5"), mpf("0.4")
    with mpmath.workdps(40):
        g = mpmath.exp(eps)
        p = lambda x: mpmath.exp(-abs(x) / b) / (2 * b)
        q = lambda x: mpmath.exp(-abs(x - s) / b) / (2 * b)
        want = mpmath.quad(lambda x: max(p(x) - g * q(x), 0), [-mpmath.inf, 0, (s - eps * b) / 2, s, mpmath.inf])
    lo, hi = M.laplace_delta(eps, b, s, digits=30)
    assert abs(want - lo) <= mpf(10) ** -28


def test_laplace_zero_epsilon_is_total_variation():
    """TV(Lap(0,1), Lap(u,1)) = 1 - e^(-u/2)."""
    with mpmath.workdps(80):
        assert inside(1 - mpmath.exp(-mpf(2) / 2), M.laplace_delta(0, 1, 2, digits=60))


def test_laplace_epsilon():
    """epsilon(delta) = u + 2 log(1 - delta) from the closed form."""
    u = mpf(2)
    lo, hi = M.laplace_epsilon("0.1", 1, 2, digits=30)
    with mpmath.workdps(60):
        want = u + 2 * mpmath.log(1 - mpf("0.1"))
    assert lo <= want <= hi * (1 + mpf(10) ** -28)


@pytest.mark.parametrize("u,lam", [(1, 2), (0.5, 5.5), (3, 1.2), (2, 40)])
def test_laplace_renyi_mironov(u, lam):
    """Mironov 2017, Proposition 6: D_lambda = log(lambda/(2 lambda - 1) e^((lambda - 1) u) +
    (lambda - 1)/(2 lambda - 1) e^(-lambda u)) / (lambda - 1) (u = sensitivity/scale)."""
    with mpmath.workdps(90):
        l, e = mpf(lam), mpf(u)
        want = mpmath.log(l / (2 * l - 1) * mpmath.exp((l - 1) * e) + (l - 1) / (2 * l - 1) * mpmath.exp(-l * e)) / (l - 1)
    assert inside(want, M.laplace_renyi(lam, 1, u, digits=60))


def test_laplace_renyi_by_quadrature_both_directions():
    u, lam = mpf("1.3"), mpf("2.5")
    with mpmath.workdps(40):
        p = lambda x: mpmath.exp(-abs(x)) / 2
        q = lambda x: mpmath.exp(-abs(x - u)) / 2
        pts = [-mpmath.inf, 0, u, mpmath.inf]
        forward = mpmath.log(mpmath.quad(lambda x: p(x) ** lam * q(x) ** (1 - lam), pts)) / (lam - 1)
        backward = mpmath.log(mpmath.quad(lambda x: q(x) ** lam * p(x) ** (1 - lam), pts)) / (lam - 1)
    lo, hi = M.laplace_renyi(lam, 1, u, digits=30)
    assert abs(forward - lo) <= mpf(10) ** -25 and abs(backward - lo) <= mpf(10) ** -25


def test_laplace_renyi_tends_to_kl():
    """KL(Lap(0,1)||Lap(u,1)) = u + e^(-u) - 1 (the mean privacy loss)."""
    u = mpf(1)
    with mpmath.workdps(60):
        kl = u + mpmath.exp(-u) - 1
    lo, hi = M.laplace_renyi(mpf(1) + mpf(10) ** -20, 1, u, digits=40)
    assert kl <= hi and lo - kl <= mpf(10) ** -18


# ----------------------------------------------------------------------------- randomized response


@pytest.mark.parametrize("eps0,k", [(1, 2), (0.5, 4), (3, 10)])
def test_rr_delta_and_renyi_closed_forms(eps0, k):
    """Rows x and x' of k-RR: H = (E - g)/(E + k - 1) for 0 <= eps <= eps0 (only output x has p > g q);
    D_lambda = log((E^lam + E^(1-lam) + k - 2)/(E + k - 1)) / (lam - 1)."""
    with mpmath.workdps(80):
        E = mpmath.exp(mpf(eps0))
        for eps in (mpf(0), mpf(eps0) / 3, mpf(eps0)):
            want = (E - mpmath.exp(eps)) / (E + k - 1)
            assert inside(want, M.rr_delta(eps0, k, eps, digits=60)), eps
        for lam in (mpf("1.5"), mpf(4), mpf(25)):
            want = mpmath.log((E ** lam + E ** (1 - lam) + k - 2) / (E + k - 1)) / (lam - 1)
            assert inside(want, M.rr_renyi(eps0, k, lam, digits=60)), lam
        assert M.rr_delta(eps0, k, mpf(eps0) * 2, digits=60) == (0, 0)


def test_rr_epsilon_closed_form():
    """Inverting (E - e^eps)/(E + k - 1) = delta: eps = log(E - delta (E + k - 1))."""
    eps0, k, delta = mpf(2), 3, mpf("0.05")
    with mpmath.workdps(60):
        E = mpmath.exp(eps0)
        want = mpmath.log(E - delta * (E + k - 1))
    lo, hi = M.rr_epsilon(eps0, k, delta, digits=40)
    assert lo <= want <= hi * (1 + mpf(10) ** -38)


# ----------------------------------------------------------------------------- subsampled Gaussian


def sgm_density_moment(sigma, q, nu):
    """E_{N(0, sigma^2)}[(mixture/base)^nu] by mpmath.quad on a fine subdivision (an estimate)."""
    s, q = mpf(sigma), mpf(q)
    f = lambda z: mpmath.npdf(z, 0, s) * (1 - q + q * mpmath.exp((2 * z - 1) / (2 * s * s))) ** nu
    pts = [-mpmath.inf] + list(mpmath.linspace(-20 * s, 20 * s + abs(nu) * 2, 25)) + [mpmath.inf]
    return mpmath.quad(f, pts)


@pytest.mark.parametrize("sigma,q,lam", [(1, 0.1, 4), (0.7, 0.02, 12), (2, 0.5, 3), (1, 1, 5)])
def test_sgm_binomial_equals_quadrature(sigma, q, lam):
    a = M.sgm_renyi(sigma, q, lam, direction="remove", method="binomial", digits=40)
    b = M.sgm_renyi(sigma, q, lam, direction="remove", method="quadrature", digits=40)
    assert a[0] <= b[1] and b[0] <= a[1]


@pytest.mark.parametrize("sigma,q,lam", [(1, 0.1, 2.5), pytest.param(0.8, 0.05, 9.3, marks=pytest.mark.slow),
                                         pytest.param(3, 0.9, 1.5, marks=pytest.mark.slow)])
def test_sgm_quadrature_against_mpmath_quad(sigma, q, lam):
    with mpmath.workdps(25):
        l = mpf(lam)
        remove = mpmath.log(sgm_density_moment(sigma, q, l)) / (l - 1)
        add = mpmath.log(sgm_density_moment(sigma, q, 1 - l)) / (l - 1)
    r = M.sgm_renyi(sigma, q, lam, direction="remove", digits=20)
    a = M.sgm_renyi(sigma, q, lam, direction="add", digits=20)
    assert abs(r[0] - remove) <= mpf(10) ** -15 * remove
    assert abs(a[0] - add) <= mpf(10) ** -15 * add
    assert M.sgm_renyi(sigma, q, lam, direction="both", digits=20) == max(r, a)


def test_sgm_without_subsampling_is_gaussian():
    """q = 1: the mixture is N(1, sigma^2), D_lambda = lambda/(2 sigma^2) both ways; q = 0: 0."""
    for lam in (2, 3.5):
        for direction in ("remove", "add"):
            lo, hi = M.sgm_renyi(2, 1, lam, direction=direction, digits=40)
            assert inside(mpf(lam) / 8, (lo, hi * (1 + mpf(10) ** -38)))
        lo, hi = M.sgm_renyi(2, 0, lam, digits=40)
        assert hi <= mpf(10) ** -40


def test_sgm_steps_add_up():
    one = M.sgm_renyi(1.5, 0.05, 6, digits=30)
    many = M.sgm_renyi(1.5, 0.05, 6, steps=250, digits=30)
    assert many[0] <= 250 * one[1] and 250 * one[0] <= many[1]


def test_sgm_monotone_in_order():
    values = [M.sgm_renyi(1, 0.1, lam, digits=15) for lam in (1.5, 2, 3, 4.5, 10)]
    for (lo0, _), (_, hi1) in zip(values, values[1:]):
        assert lo0 <= hi1


@pytest.mark.parametrize("direction", ["remove", "add"])
def test_sgm_delta_by_quadrature(direction):
    """delta(eps) = integral of max(P - g Q, 0) over the line: the likelihood ratio of the pair is
    monotone in z, so the integrand changes sign once, where mixture/base = g (remove) or 1/g (add)."""
    sigma, q = mpf(1), mpf("0.2")
    for eps in (mpf("0.05"), mpf("0.3"), mpf("1.2")):
        with mpmath.workdps(40):
            g = mpmath.exp(eps)
            base = lambda z: mpmath.npdf(z, 0, sigma)
            mix = lambda z: (1 - q) * mpmath.npdf(z, 0, sigma) + q * mpmath.npdf(z, 1, sigma)
            if direction == "remove":
                ratio = g
                P, Q = mix, base
            else:
                ratio = 1 / g
                P, Q = base, mix
            # mixture/base = 1 - q + q exp((2z - 1)/(2 sigma^2)) = ratio
            inner = (ratio - 1 + q) / q
            if inner > 0:
                cut = sigma ** 2 * mpmath.log(inner) + mpf(1) / 2
                pieces = [cut, mpmath.inf] if direction == "remove" else [-mpmath.inf, cut]
                want = mpmath.quad(lambda z: P(z) - g * Q(z), pieces)
            else:
                want = mpf(0) if direction == "add" else 1 - g
        lo, hi = M.sgm_delta(sigma, q, eps, direction=direction, digits=30)
        assert abs(want - lo) <= mpf(10) ** -25 * max(want, mpf(10) ** -10), (direction, eps)


def test_sgm_delta_zero_is_total_variation_and_both_directions_agree_there():
    """At eps = 0 both directions are TV = q TV(N(0,1), N(1/sigma,1)) = q (2 Phi(1/(2 sigma)) - 1)."""
    sigma, q = mpf(2), mpf("0.3")
    with mpmath.workdps(80):
        tv = q * (2 * mpmath.ncdf(1 / (2 * sigma)) - 1)
    for direction in ("remove", "add"):
        assert inside(tv, M.sgm_delta(sigma, q, 0, direction=direction, digits=60))


def test_sgm_epsilon_inverts_delta():
    lo, hi = M.sgm_epsilon(1, 0.1, "1e-5", digits=30)
    assert M.sgm_delta(1, 0.1, lo * (1 - mpf(10) ** -20), digits=30)[0] > mpf("1e-5")
    assert M.sgm_delta(1, 0.1, hi * (1 + mpf(10) ** -20), digits=30)[1] <= mpf("1e-5")


def test_bad_input():
    with pytest.raises(ValueError, match="order"):
        M.gaussian_renyi(1, 1)
    with pytest.raises(ValueError, match="scale"):
        M.laplace_delta(0.1, 0, 1)
    with pytest.raises(ValueError, match="direction"):
        M.sgm_renyi(1, 0.1, 2, direction="sideways")
    with pytest.raises(ValueError, match="integer"):
        M.sgm_renyi(1, 0.1, 2.5, direction="remove", method="binomial")
    with pytest.raises(ValueError, match="rate"):
        M.sgm_delta(1, 1.5, 0.1)
    with pytest.raises(ValueError, match="delta"):
        M.gaussian_epsilon(1, 2)


@pytest.mark.slow
def test_sweep_sgm_quadrature_integer_orders():
    for sigma in (0.5, 0.8, 1.5, 4):
        for q in (0.001, 0.03, 0.3, 0.95):
            for lam in (2, 3, 8, 32):
                a = M.sgm_renyi(sigma, q, lam, direction="remove", method="binomial", digits=25)
                b = M.sgm_renyi(sigma, q, lam, direction="remove", method="quadrature", digits=25)
                assert a[0] <= b[1] and b[0] <= a[1], (sigma, q, lam)


@pytest.mark.slow
def test_sweep_gaussian_delta_tiny():
    """delta far below the float range keeps its relative accuracy."""
    for mu in (0.1, 1, 5):
        for eps in (10, 50, 200):
            with mpmath.workdps(120):
                want = balle_wang(1, mu, eps)
            lo, hi = M.gaussian_delta(mu, eps, digits=50)
            assert lo <= want <= hi and hi - lo <= mpf(10) ** -48 * want
