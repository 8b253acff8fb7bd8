"""dptheory.shuffle.rdp.composed: the composed comparisons of Girgis et al. Figures 3-5, against
Theorem 3.1 (corrected) and the composition theorems written here in mpmath."""

import math

import mpmath
import numpy as np
import pytest

from dptheory.results import Status
from dptheory.shuffle.rdp import composed


def _mp_upper_1(eps0, n, lam):
    """Girgis et al. Theorem 3.1, corrected (digest seed-004 §3.1): every term inside the log,
    binom(lam, 2), nbar = floor((n - 1)/(2 e^eps0)) + 1; integer lam >= 2."""
    E = mpmath.exp(mpmath.mpf(eps0))
    nbar = mpmath.floor((n - 1) / (2 * E)) + 1
    x = (E**2 - 1) ** 2 / (2 * E**2 * nbar)
    total = 1 + mpmath.binomial(lam, 2) * (E - 1) ** 2 / (nbar * E) + mpmath.exp(eps0 * lam - (n - 1) / (8 * E))
    total += mpmath.fsum(mpmath.binomial(lam, i) * i * mpmath.gamma(mpmath.mpf(i) / 2) * x ** (mpmath.mpf(i) / 2)
                         for i in range(3, lam + 1))
    return mpmath.log(total) / (lam - 1)


def _mp_lemma_2_1(rho, lam, delta):
    lam = mpmath.mpf(lam)
    return rho + mpmath.log((lam - 1) / lam) - (mpmath.log(delta) + mpmath.log(lam)) / (lam - 1)


@pytest.mark.parametrize("eps0,n,T,delta", [(1.0, 10**4, 10, 1e-6), (0.5, 10**6, 100, 1e-8)])
def test_rdp_route_is_theorem_3_1_composed_and_converted(eps0, n, T, delta):
    """T-fold composition adds the RDP (Mironov 2017, Prop. 1), Lemma 2.1 converts it at the best
    integer order: the result is that minimum over orders 2..64, rounded up, and no lower."""
    res = composed.rdp_route_epsilon(eps0, n, T, delta, max_order=64)
    with mpmath.workdps(40):
        values = {lam: _mp_lemma_2_1(T * _mp_upper_1(eps0, n, lam), lam, delta) for lam in range(2, 65)}
    best = min(values, key=values.get)
    assert values[best] <= res.upper <= values[best] * (1 + 1e-9), (res.upper, values[best])
    assert res.params["order"] == best and res.status is Status.PROVEN


def test_subsampled_route_is_labelled_unproven():
    res = composed.rdp_route_epsilon(1.0, 10**4, 10, 1e-6, rate=0.1, max_order=32)
    assert res.status is Status.UNPROVEN and "no theorem covers the combination" in res.note
    assert res.params["n_shuffle"] == 1000 and math.isfinite(res.upper)


def test_kov_baseline_splits_delta_exactly_and_composes_by_kov():
    """The first author's delta split: per round delta / (2 T), and KOV's slack making the total
    exactly delta; the composed epsilon is Kairouz-Oh-Viswanath's closed form (Theorem 3.5 of
    their paper, as in Girgis et al.'s code) at the per-round epsilon, written here."""
    eps0, n, T, delta = 1.0, 10**4, 50, 1e-6
    res = composed.fmt_kov_epsilon(eps0, n, T, delta)
    d_round, e = res.params["delta_round"], res.params["eps_round"]
    assert d_round == pytest.approx(delta / (2 * T), rel=1e-15)
    with mpmath.workdps(40):
        exact_slack = 1 - (1 - mpmath.mpf(delta)) / (1 - mpmath.mpf(delta) / (2 * T)) ** T
        # the total delta of the composition is at most the target (it was off by 2.5e-9 relative
        # where the slack was formed in float64 by a difference) and the slack within 1e-12 of exact
        slack = mpmath.mpf(res.params["slack"])
        total = 1 - (1 - mpmath.mpf(d_round)) ** T * (1 - slack)
        assert total <= delta and slack <= exact_slack <= slack * (1 + 1e-12)
        E = mpmath.mpf(e)
        base = T * E * mpmath.expm1(E) / (mpmath.exp(E) + 1)
        kov = min(T * E, base + E * mpmath.sqrt(2 * T * mpmath.log(mpmath.e + mpmath.sqrt(T * E * E) / exact_slack)),
                  base + E * mpmath.sqrt(2 * T * mpmath.log(1 / exact_slack)))
    assert kov <= res.upper <= kov * (1 + 1e-9)
    assert e < eps0 and e <= res.upper <= T * e  # amplified per round; composition adds at most T times


def test_kov_baseline_with_subsampling_splits_delta_over_the_subsampled_rounds():
    """With Poisson subsampling (Girgis et al. Figure 5), a round's delta after subsampling is
    rate * delta_round = delta / (2 T) (Li, Qardaji, Su 2012), and the slack makes the total
    1 - (1 - delta/(2T))^T (1 - slack) exactly delta (in mpmath at 40 digits, written here): a
    slack formed from the unsubsampled delta_round was negative at rate 1e-3 (a crash)."""
    T, delta, rate = 10**4, 1e-8, 1e-3
    for protocol in ("exact", "notebook"):
        res = composed.fmt_kov_epsilon(3.0, 10**6, T, delta, rate=rate, protocol=protocol)
        with mpmath.workdps(40):
            d_r = mpmath.mpf(delta) / (2 * T)
            exact_slack = 1 - (1 - mpmath.mpf(delta)) / (1 - d_r) ** T
            slack = mpmath.mpf(res.params["slack"])
            assert 0 < slack <= exact_slack <= slack * (1 + 1e-12)
        assert res.status is Status.UNPROVEN and math.isfinite(res.upper)


def test_bad_bound_and_protocol_are_named():
    from dptheory.validate import DomainError

    with pytest.raises(DomainError, match="bound = 'nope'"):
        composed.rdp_route_epsilon(1.0, 1000, 2, 1e-6, bound="nope")
    with pytest.raises(DomainError, match="protocol = 'nope'"):
        composed.fmt_kov_epsilon(1.0, 1000, 2, 1e-6, protocol="nope")
