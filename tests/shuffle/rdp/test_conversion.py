"""dptheory.shuffle.rdp.conversion: each method's epsilon(delta) by Lemma 2.1 at the best order,
against the conversion of Girgis et al.'s Theorem 3.3 (corrected) written here in mpmath and
minimised over the orders (a grid, and a fine search over real orders)."""

import math

import mpmath
import numpy as np
import pytest

from dptheory.results import Inapplicable, Kind, Status
from dptheory.shuffle import rdp as shuffle_rdp
from dptheory.shuffle.rdp import conversion


def _mp_upper_2(eps0, n, lam):
    """Theorem 3.3 (corrected, digest seed-004 §3.4): log(e^{lam^2 (e^eps0 - 1)^2 / nbar} +
    e^{eps0 lam - (n - 1)/(8 e^eps0)}) / (lam - 1), nbar = floor((n - 1)/(2 e^eps0)) + 1."""
    E = mpmath.exp(mpmath.mpf(eps0))
    nbar = mpmath.floor((n - 1) / (2 * E)) + 1
    lam = mpmath.mpf(lam)
    return mpmath.log(mpmath.exp(lam**2 * (E - 1) ** 2 / nbar) + mpmath.exp(eps0 * lam - (n - 1) / (8 * E))) / (lam - 1)


def _mp_lemma_2_1(rho, lam, delta):
    """Girgis et al. Lemma 2.1 / Balle et al. Thm 21: rho + log((lam-1)/lam) - (log delta + log lam)/(lam-1)."""
    lam = mpmath.mpf(lam)
    return rho + mpmath.log((lam - 1) / lam) - (mpmath.log(delta) + mpmath.log(lam)) / (lam - 1)


@pytest.mark.parametrize("eps0,n,T,delta", [(1.0, 10**5, 1, 1e-6), (0.5, 10**7, 10, 1e-9), (2.0, 10**6, 100, 1e-5)])
def test_epsilon_at_given_orders_is_the_minimum_of_lemma_2_1(eps0, n, T, delta):
    orders = np.arange(2, 65, dtype=float)
    res = shuffle_rdp.epsilon("girgis-upper-2", eps0, n, delta, compositions=T, orders=orders)
    with mpmath.workdps(40):
        values = [_mp_lemma_2_1(T * _mp_upper_2(eps0, n, o), o, delta) for o in orders]
        ref = min(values)
        best = float(orders[values.index(ref)])
    assert res.upper >= ref and res.upper <= ref * (1 + 1e-9), (res.upper, ref)
    assert res.params["order"] == best and res.kind is Kind.UPPER and res.status is Status.PROVEN


def test_order_search_is_an_upper_bound_close_to_the_best_real_order():
    """Without orders the search over real orders up to 1e4 gives a valid bound (above the
    minimum over every real order, found here by a golden-section search in mpmath) within 1%."""
    eps0, n, delta = 1.0, 10**6, 1e-8
    res = shuffle_rdp.epsilon("girgis-upper-2", eps0, n, delta)
    with mpmath.workdps(30):
        f = lambda lam: _mp_lemma_2_1(_mp_upper_2(eps0, n, lam), lam, delta)  # noqa: E731
        lo, hi = mpmath.mpf(1.01), mpmath.mpf(1e4)
        grid = [lo * (hi / lo) ** (mpmath.mpf(i) / 400) for i in range(401)]
        i = min(range(401), key=lambda j: f(grid[j]))
        a, b = grid[max(i - 1, 0)], grid[min(i + 1, 400)]
        for _ in range(80):
            m1, m2 = a + (b - a) * 0.382, a + (b - a) * 0.618
            a, b = (a, m2) if f(m1) < f(m2) else (m1, b)
        true_min = f((a + b) / 2)
    assert true_min <= res.upper <= true_min * 1.01, (res.upper, true_min)


def test_a_lower_bound_on_rdp_converts_to_no_bound_on_epsilon():
    res = shuffle_rdp.epsilon("girgis-lower", 1.0, 10**4, 1e-6, orders=[2.0, 4.0, 8.0])
    assert res.kind is Kind.APPROXIMATION and res.status is Status.NOT_A_BOUND
    assert "not a lower bound" in res.note


def test_epsilons_reports_a_method_outside_its_domain_as_inapplicable():
    """Corollary 3.2 needs lambda^4 e^(5 eps0) < n / 9: at n = 100, eps0 = 1 no order qualifies."""
    out = shuffle_rdp.epsilons(1.0, 100, 1e-6, ["girgis-corollary-3.2", "girgis-upper-2"], orders=[2.0, 3.0])
    assert isinstance(out[0], Inapplicable) and "lambda" in out[0].reason
    assert out[1].method == "girgis-upper-2" and math.isfinite(out[1].upper)


def test_search_guess_is_a_real_order_above_one():
    guess = conversion.search_guess(1.0, 10**6, 1e-8)
    assert 1.0 < guess <= conversion.SEARCH_HIGH
