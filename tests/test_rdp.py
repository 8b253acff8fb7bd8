"""RDP conversions and composition: soundness against exact profiles, the two directions of
Lemma 2.1, and mpmath agreement."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dptheory import mechanisms, profile, rdp, validate
from tests.conftest import raises_naming

ORDERS = rdp.default_orders()


def _mp_epsilon(lam, rho, delta, conversion):
    """The printed conversion formulas at 60 digits, from the float inputs."""
    with mpmath.workdps(60):
        L, R, D = mpmath.mpf(lam), mpmath.mpf(rho), mpmath.mpf(delta)
        if conversion == "mironov":
            return R + mpmath.log(1 / D) / (L - 1)
        return R + mpmath.log((L - 1) / L) - (mpmath.log(D) + mpmath.log(L)) / (L - 1)


def _mp_log_delta(lam, rho, epsilon, conversion):
    with mpmath.workdps(60):
        L, R, E = mpmath.mpf(lam), mpmath.mpf(rho), mpmath.mpf(epsilon)
        if conversion == "mironov":
            return (L - 1) * (R - E)
        return mpmath.log(mpmath.exp((L - 1) * (R - E)) / (L - 1) * (1 - 1 / L) ** L)


@pytest.mark.parametrize("lam,rho,delta", [(4053.89066274822, 0.0, 1e-6), (471966.0, 0.0, 1e-6),
                                           (1 + 4e-9, 0.3, 1e-3), (2.5, 1.7, 1e-12), (1.25, 0.0, 0.5)])
def test_epsilon_from_rdp_is_never_below_the_exact_formula(lam, rho, delta):
    """The conversion at order 4053.89066274822, rho = 0, delta = 1e-6 was low by 3.4e-14, at order
    471966 by 1.1e-10."""
    ref = max(_mp_epsilon(lam, rho, delta, "balle"), 0)
    mironov = max(_mp_epsilon(lam, rho, delta, "mironov"), 0)
    assert rdp.epsilon_from_rdp([lam], [rho], delta, method="mironov").upper >= mironov
    res = rdp.epsilon_from_rdp([lam], [rho], delta)
    assert res.lower <= ref <= res.upper and res.upper - res.lower <= 1e-12 * max(ref, 1e-3)


@pytest.mark.parametrize("lam,rho,epsilon", [(1 + 4e-9, 0.0, 0.0), (1 + 4e-9, 0.5, 0.1), (1 + 1e-7, 2.0, 1.0),
                                             (3.0, 0.2, 0.5), (1e5, 1e-4, 1e-3)])
def test_delta_from_rdp_is_never_below_the_exact_formula(lam, rho, epsilon):
    """delta at order 1 + 4e-9 was low by 2.7e-9 relative (log1p(-1/lambda) there cancels)."""
    ref = mpmath.exp(min(_mp_log_delta(lam, rho, epsilon, "balle"), 0))
    res = rdp.delta_from_rdp([lam], [rho], epsilon)
    assert res.lower <= ref <= res.upper


@given(st.floats(-9.0, 7.0), st.one_of(st.just(0.0), st.floats(1e-9, 60.0)), st.floats(0.3, 300.0),
       st.floats(-2.0, 80.0), st.sampled_from(["balle", "mironov"]))
@settings(max_examples=400, deadline=None)
def test_conversions_enclose_the_60_digit_formula_on_random_cases(log_gap, rho, neg_log10_delta, epsilon, conversion):
    """1,579 of 12,000 random cases were below the exact formula; each float result now encloses it."""
    lam = 1.0 + 10.0 ** log_gap
    if lam == 1.0:
        return
    delta = 10.0 ** -neg_log10_delta
    res = rdp.epsilon_from_rdp([lam], [rho], delta, method=conversion)
    ref = max(_mp_epsilon(lam, rho, delta, conversion), 0)
    assert res.lower <= ref <= res.upper, (lam, rho, delta, res.lower, res.upper, ref)
    d = rdp.delta_from_rdp([lam], [rho], epsilon, method=conversion)
    log_ref = min(_mp_log_delta(lam, rho, epsilon, conversion), 0)
    assert d.log_lower <= log_ref <= d.log_upper, (lam, rho, epsilon, d.log_lower, d.log_upper, log_ref)
    assert d.upper > 0 and d.lower <= mpmath.exp(log_ref) <= d.upper


def test_one_route_takes_the_best_conversion_at_the_best_order():
    orders = np.array([1.5, 2.0, 8.0, 32.0, 128.0])
    values = rdp.gdp_to_rdp(0.5, orders)
    res = rdp.epsilon_from_rdp(orders, values, 1e-6)
    refs = [(_mp_epsilon(o, v, 1e-6, c), c, o) for o, v in zip(orders, values) for c in ("balle", "mironov")]
    best, conversion, order = min(refs)
    assert res.lower <= best <= res.upper and res.params["order"] == order and res.params["conversion"] == conversion
    assert res.kind is rdp.Kind.UPPER and res.status is rdp.Status.PROVEN and res.quantity == "epsilon"
    # a Curve goes through the same route; a lower-bound curve gives an approximation, not a bound
    curve = rdp.Curve("rdp", "order", orders, values, values, rdp.Kind.EXACT, rdp.Status.PROVEN, "gdp", "test")
    assert rdp.epsilon_from_rdp(curve, 1e-6).upper == res.upper
    low = curve.replace(kind=rdp.Kind.LOWER)
    assert rdp.epsilon_from_rdp(low, 1e-6).kind is rdp.Kind.APPROXIMATION
    d = rdp.delta_from_rdp(orders, values, 3.0)
    assert d.quantity == "delta" and d.params["order"] in orders


@pytest.mark.parametrize("mu,delta", [(0.3, 1e-5), (1.0, 1e-6), (2.0, 1e-10), (1.0, 1e-100)])
def test_gdp_rdp_conversion_is_an_upper_bound_on_the_exact_epsilon(mu, delta):
    exact = profile.gdp_epsilon(mu, delta)
    curve = rdp.gdp_to_rdp(mu, ORDERS)
    for method in ("balle", "mironov"):
        assert rdp.epsilon_from_rdp(ORDERS, curve, delta, method=method).upper >= exact.upper
    # the Balle et al. conversion is never worse than Mironov's
    assert (rdp.epsilon_from_rdp(ORDERS, curve, delta).upper
            <= rdp.epsilon_from_rdp(ORDERS, curve, delta, method="mironov").upper)


@pytest.mark.parametrize("eps0,k", [(0.5, 2), (1.0, 4), (3.0, 10)])
def test_rr_rdp_conversion_is_an_upper_bound(eps0, k):
    mech = mechanisms.RandomizedResponse(eps0, k)
    for delta in (1e-3, 1e-6):
        exact = mech.epsilon(delta)
        curve = mech.rdp(ORDERS)
        via = rdp.epsilon_from_rdp(ORDERS, curve.upper, delta).upper
        assert via >= exact.upper
        assert rdp.epsilon_from_rdp(curve, delta).upper == via
        d = rdp.delta_from_rdp(ORDERS, curve.upper, exact.upper).upper
        assert d >= delta * (1 - 1e-9)


@given(st.floats(0.01, 50.0), st.floats(1.01, 500.0), st.floats(1e-12, 0.5))
@settings(max_examples=100, deadline=None)
def test_lemma_2_1_directions_are_inverse_at_fixed_order(rho, lam, delta):
    """Girgis et al. Lemma 2.1: delta -> epsilon and epsilon -> delta are inverse maps."""
    e = rdp.epsilon_from_rdp([lam], [rho], delta).upper
    if e > 0:
        back = rdp.delta_from_rdp([lam], [rho], e)
        assert math.isclose(back.upper, delta, rel_tol=1e-8)
        assert back.upper <= delta * (1 + 1e-12)  # the upper end of epsilon gives at most delta back


def test_mpmath_conversion_agrees_and_composition_adds():
    curve = rdp.gdp_to_rdp(0.8, ORDERS)
    f = rdp.epsilon_from_rdp(ORDERS, curve, 1e-8)
    m = rdp.epsilon_from_rdp(ORDERS, curve, 1e-8, digits=50)
    assert m.upper - m.lower <= 1e-15 * m.upper and abs(f.upper - m.upper) <= 1e-12 * f.upper
    assert f.upper >= m.lower and f.lower <= m.upper  # both enclose the same minimum
    d = rdp.delta_from_rdp(ORDERS, curve, 2.0)
    dm = rdp.delta_from_rdp(ORDERS, curve, 2.0, digits=50)
    assert d.log_upper >= dm.log_lower and d.log_lower <= dm.log_upper
    # composing T Gaussian mechanisms equals the RDP of the composed GDP mu (sqrt(T) mu)
    T = 9
    assert np.allclose(rdp.compose(*[curve] * T), rdp.gdp_to_rdp(0.8 * 3, ORDERS))
    assert np.allclose(rdp.compose_identical(curve, T), rdp.compose(*[curve] * T))
    c = rdp.Curve("rdp", "order", ORDERS, curve, curve, rdp.Kind.UPPER, rdp.Status.PROVEN, "gdp", "test")
    four = rdp.compose_identical(c, 4)
    assert rdp.epsilon_from_rdp(four, 1e-6).upper >= rdp.epsilon_from_rdp(ORDERS, 4 * curve, 1e-6).upper
    both = rdp.compose(c, c.replace(kind=rdp.Kind.EXACT))
    assert both.kind is rdp.Kind.UPPER and np.all(both.upper >= 2 * curve)
    assert rdp.compose(c, c.replace(kind=rdp.Kind.LOWER)).kind is rdp.Kind.APPROXIMATION


def test_epsilon_from_rdp_clamps_negative_and_handles_infinite_orders():
    assert rdp.epsilon_from_rdp([1e9], [0.0], 0.5).upper == 0.0
    assert rdp.epsilon_from_rdp([2.0, 3.0], [math.inf, 0.1], 1e-3).upper < math.inf
    assert rdp.epsilon_from_rdp([2.0, 32.0], [0.01, 0.01], 1e-6).params["order"] == 32.0
    assert rdp.delta_from_rdp([2.0], [0.0], 0.0).upper <= 1.0


def test_bad_inputs():
    with raises_naming("orders", "(1, inf)"):
        rdp.epsilon_from_rdp([1.0, 2.0], [0.1, 0.2], 1e-5)
    with raises_naming("delta", "(0, 1)"):
        rdp.epsilon_from_rdp([2.0], [0.1], 1.0)
    with raises_naming("rdp", "[0, inf)"):
        rdp.epsilon_from_rdp([2.0], [-0.1], 1e-5)
    with raises_naming("orders and rdp", "same length"):
        rdp.epsilon_from_rdp([2.0, 3.0], [0.1], 1e-5)
    with raises_naming("method"):
        rdp.epsilon_from_rdp([2.0], [0.1], 1e-5, method="nope")
    with raises_naming("epsilon"):
        rdp.delta_from_rdp([2.0], [0.1], math.nan)
    with raises_naming("times"):
        rdp.compose_identical([0.1], 0)


def test_adaptive_order_grid_goes_past_a_capped_optimum():
    """mu-GDP with mu = 0.01 at delta = 1e-10 has its best order near sqrt(2 log(1/delta))/mu ~ 680:
    a grid capped at 256 misses it; the adaptive grid finds it and stays an upper bound."""
    curve = lambda o: rdp.gdp_to_rdp(0.01, o)
    capped = rdp.epsilon_from_rdp_grid(curve, 1e-10, start=256, cap=256)
    assert capped.params["order"] == 256 and capped.params["top"] == 256
    found = rdp.epsilon_from_rdp_grid(curve, 1e-10)
    order = found.params["order"]
    assert 256 < order < 2048 and found.upper < 0.95 * capped.upper
    dense = np.arange(2, 5001, dtype=float)
    assert found.upper <= rdp.epsilon_from_rdp(dense, curve(dense), 1e-10).upper * (1 + 1e-3)
    assert found.upper >= profile.gdp_epsilon(0.01, 1e-10).upper
    # the Result is the one route's at the order it reports (an independent 60-digit formula)
    assert found.lower <= _mp_epsilon(order, curve(np.array([order]))[0], 1e-10, "balle") <= found.upper
    assert np.array_equal(rdp.order_grid(10, consecutive=True), np.arange(2, 11))
    with raises_naming("cap"):
        rdp.epsilon_from_rdp_grid(curve, 1e-10, start=512, cap=256)


def test_order_search_matches_a_dense_grid_and_handles_partial_curves():
    curve = lambda o: (o, rdp.gdp_to_rdp(0.05, o))
    dense = np.geomspace(1.01, 1e4, 20000)
    best_dense = rdp.epsilon_from_rdp(dense, rdp.gdp_to_rdp(0.05, dense), 1e-9)
    for around in (None, 3.0, 5000.0):
        found = rdp.epsilon_from_rdp_search(curve, 1e-9, around=around)
        order = found.params["order"]
        assert best_dense.upper <= found.upper <= best_dense.upper * (1 + 1e-3)
        assert found.upper == rdp.epsilon_from_rdp([order], rdp.gdp_to_rdp(0.05, [order]), 1e-9).upper
        assert found.upper - found.lower <= 1e-12 * found.upper and 0 < found.params["evaluated"] < 200
    # a bound that applies only at orders <= 5 (as Corollary 3.2 does) is searched everywhere
    partial = lambda o: (o[o <= 5], rdp.gdp_to_rdp(0.05, o[o <= 5]))
    assert rdp.epsilon_from_rdp_search(partial, 1e-9, integer=True, around=300.0).params["order"] == 5.0
    with raises_naming("curve", "no value"):
        rdp.epsilon_from_rdp_search(lambda o: (o[:0], o[:0]), 1e-9)


def test_composition_and_gdp_curve_round_up():
    """A sum of upper bounds rounded to nearest can fall below the exact sum: rounded up."""
    a, b, c = [0.1, 1e-17], [0.2, 1.0], [0.3, 3.0]
    got = rdp.compose(a, b, c)
    with mpmath.workdps(60):
        for i in range(2):
            assert got[i] >= mpmath.mpf(a[i]) + mpmath.mpf(b[i]) + mpmath.mpf(c[i])
        assert rdp.compose_identical([0.1], 3)[0] >= 3 * mpmath.mpf(0.1)
        o = np.array([1.1, 3.0, 7.7])
        ref = [mpmath.mpf(x) * mpmath.mpf(0.3) ** 2 / 2 for x in o]
        assert all(g >= r for g, r in zip(rdp.gdp_to_rdp(0.3, o), ref))
    assert rdp.compose([math.inf], [1.0])[0] == math.inf


def test_parse_orders_grammar_and_errors():
    from dptheory.rdp import parse_orders

    assert parse_orders("2..4").tolist() == [2.0, 3.0, 4.0]
    assert parse_orders("2..3:0.5, 8,2").tolist() == [2.0, 2.5, 3.0, 8.0]
    for bad in ("x", "4..2", "2..4:0", "1", "0.5,2"):
        with pytest.raises(validate.DomainError, match="orders"):
            parse_orders(bad)


def test_lemma_2_1_is_implemented_here_and_the_shuffle_rdp_modules_point_here():
    """The theorem-to-code map: the first mention of Girgis et al.'s Lemma 2.1 in dptheory.rdp says
    it is implemented there (by the functions a user calls), and every module of
    dptheory.shuffle.rdp whose docstring uses the lemma names dptheory.rdp as where it lives."""
    import importlib
    import pkgutil

    import dptheory.shuffle.rdp as shuffle_rdp

    doc = rdp.__doc__
    first = doc[:doc.index("Lemma 2.1") + 200]
    assert "implemented here" in first and ":func:`epsilon_from_rdp`" in first
    modules = [shuffle_rdp] + [importlib.import_module(f"dptheory.shuffle.rdp.{info.name}")
                               for info in pkgutil.iter_modules(shuffle_rdp.__path__)]
    for module in modules:
        if module.__doc__ and "Lemma 2.1" in module.__doc__:
            assert "dptheory.rdp" in module.__doc__, module.__name__
