"""dptheory.composition against independent computations: the k-fold composition of randomized
response enumerated at 50 digits (KOV), the likelihood ratios of a subsampled pair (Li et al.), and
the exact Renyi divergence of Poisson-subsampled mechanisms (Zhu and Wang's bound)."""

import math

import mpmath
import pytest

from dptheory import composition


def _rr_composed_delta(eps, k, t):
    """H_{e^t} of k-fold randomized response (eps), by summing over the number of flipped answers
    (50 digits): the worst case of k-fold (eps, 0)-DP composition (Kairouz, Oh, Viswanath)."""
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(eps))
        p, q = e / (1 + e), 1 / (1 + e)
        total = mpmath.mpf(0)
        for j in range(k + 1):
            P = mpmath.binomial(k, j) * p**j * q ** (k - j)
            Q = mpmath.binomial(k, j) * q**j * p ** (k - j)
            total += max(mpmath.mpf(0), P - mpmath.exp(mpmath.mpf(t)) * Q)
        return total


def _kov_reference(eps, delta, k, total_delta):
    """The smallest (k - 2i) eps with 1 - (1 - delta)^k (1 - H_{e^{(k-2i) eps}}) <= total_delta."""
    with mpmath.workdps(50):
        for i in range(k // 2, -1, -1):
            t = (k - 2 * i) * eps
            if 1 - (1 - mpmath.mpf(delta)) ** k * (1 - _rr_composed_delta(eps, k, t)) <= total_delta:
                return t
    return None


@pytest.mark.parametrize("eps,delta,k,total", [(1.0, 0.0, 10, 1e-3), (0.5, 1e-6, 20, 1e-3), (0.2, 1e-5, 40, 1e-2),
                                               (1.0, 0.001, 30, 0.06), (2.0, 0.0, 5, 0.2), (0.1, 0.0, 50, 1e-8)])
def test_kov_optimal_epsilon_is_the_enumerated_optimum(eps, delta, k, total):
    got = composition.kov_optimal_epsilon(eps, delta, k, total)
    ref = _kov_reference(eps, delta, k, total)
    assert (got is None and ref is None) or math.isclose(got, ref, rel_tol=1e-12)


def test_kov_optimal_epsilon_none_when_delta_alone_exceeds_the_target():
    assert composition.kov_optimal_epsilon(1.0, 0.2, 1, 0.1) is None
    assert _kov_reference(1.0, 0.2, 1, 0.1) is None


@pytest.mark.parametrize("eps,delta,k,slack", [(0.1, 1e-6, 100, 1e-6), (0.5, 0.0, 30, 1e-3), (1.0, 1e-4, 10, 1e-2)])
def test_kov_closed_form_is_above_the_optimum_at_its_delta(eps, delta, k, slack):
    eps_total, delta_total = composition.kov_closed_form(eps, delta, k, slack)
    assert math.isclose(delta_total, 1 - (1 - delta) ** k * (1 - slack), rel_tol=1e-12)
    # the optimal composition at the same total delta (enumerated) is no larger
    ref = _kov_reference(eps, delta, k, delta_total)
    assert ref is not None and eps_total >= ref - 1e-12


@pytest.mark.parametrize("eps,rate", [(1.0, 0.01), (3.0, 0.5), (0.1, 0.9)])
def test_subsample_dp_is_the_largest_likelihood_ratio_of_the_subsampled_pair(eps, rate):
    """Randomized response on a Poisson sample of rate g: the neighbour's law is the mixture
    (1 - g) Q + g P, whose largest log likelihood ratio against Q is the returned epsilon."""
    got_eps, got_delta = composition.subsample_dp(eps, 1e-5, rate)
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(eps))
        p, q = [e / (1 + e), 1 / (1 + e)], [1 / (1 + e), e / (1 + e)]
        g = mpmath.mpf(rate)
        mix = [(1 - g) * qq + g * pp for pp, qq in zip(p, q)]
        ref = max(mpmath.log(m / qq) for m, qq in zip(mix, q))
    assert math.isclose(got_eps, float(ref), rel_tol=1e-13)
    assert math.isclose(got_delta, rate * 1e-5, rel_tol=1e-15)


def _subsampled_rr_renyi(eps, rate, order):
    """max over both directions of D_a of (1 - g) Q + g P against Q, randomized response, 50 digits."""
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(eps))
        p, q = [e / (1 + e), 1 / (1 + e)], [1 / (1 + e), e / (1 + e)]
        g = mpmath.mpf(rate)
        mix = [(1 - g) * qq + g * pp for pp, qq in zip(p, q)]
        d = lambda x, y: mpmath.log(mpmath.fsum(a**order * b ** (1 - order) for a, b in zip(x, y))) / (order - 1)
        return max(d(mix, q), d(q, mix))


def _rr_renyi(eps, order):
    e = math.exp(eps)
    p, q = e / (1 + e), 1 / (1 + e)
    return math.log(p**order * q ** (1 - order) + q**order * p ** (1 - order)) / (order - 1)


@pytest.mark.parametrize("eps,rate", [(0.5, 0.01), (1.0, 0.1), (2.0, 0.3)])
@pytest.mark.parametrize("order", [2, 3, 6, 12])
def test_poisson_subsampled_rdp_dominates_the_exact_subsampled_divergence(eps, rate, order):
    bound = composition.poisson_subsampled_rdp(lambda l: _rr_renyi(eps, l), order, rate)
    exact = float(_subsampled_rr_renyi(eps, rate, order))
    assert exact <= bound * (1 + 1e-12)
    assert bound <= _rr_renyi(eps, order) * (1 + 1e-12)  # subsampling never hurts here


def test_poisson_subsampled_rdp_at_rate_one_is_the_base_curve():
    assert composition.poisson_subsampled_rdp(lambda l: 0.25 * l, 7, 1.0) == 0.25 * 7


def test_poisson_subsampling_bound_dominates_the_exact_subsampled_gaussian():
    """Zhu and Wang's general bound, applied to the Gaussian mechanism's RDP a/(2 s^2), is above the
    exact Poisson-subsampled Gaussian RDP, sum_k C(a,k)(1-g)^(a-k) g^k e^{(k^2-k)/(2 s^2)}
    (Mironov, Talwar, Zhang 2019, integer orders; computed here at 50 digits)."""
    for sigma, g in [(1.0, 0.01), (2.0, 0.1), (0.8, 0.05)]:
        for a in (2, 3, 8, 20):
            bound = composition.poisson_subsampled_rdp(lambda l: l / (2 * sigma**2), a, g)
            with mpmath.workdps(50):
                s = mpmath.fsum(mpmath.binomial(a, k) * (1 - mpmath.mpf(g)) ** (a - k) * mpmath.mpf(g) ** k
                                * mpmath.exp((k * k - k) / (2 * mpmath.mpf(sigma) ** 2)) for k in range(a + 1))
                exact_v = float(mpmath.log(s) / (a - 1))
            assert exact_v <= bound + 1e-15
            assert bound <= a / (2 * sigma**2)


def test_kov_matches_dp_accounting_test_vectors():
    """KOV Theorem 3.3 as in dp_accounting's advanced_composition tests:
    (eps, delta, k, total_delta) -> 30, 22, 20, None, None."""
    cases = [((1, 0, 30, 0), 30), ((1, 0.001, 30, 0.06), 22), ((1, 0.001, 30, 0.1), 20), ((1, 0.2, 1, 0.1), None),
             ((1, 0.01, 30, 0.26), None)]
    for args, expected in cases:
        got = composition.kov_optimal_epsilon(*args)
        assert (got is None and expected is None) or math.isclose(got, expected)
    eps_closed, _ = composition.kov_closed_form(1.0, 0.001, 30, 0.05)
    assert eps_closed >= composition.kov_optimal_epsilon(1.0, 0.001, 30, 1 - (1 - 0.001) ** 30 * 0.95)
    assert composition.subsample_dp(1.0, 1e-5, 0.01) == pytest.approx((math.log1p(0.01 * math.expm1(1.0)), 1e-7))
