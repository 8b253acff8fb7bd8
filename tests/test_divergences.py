"""Divergences of discrete distributions: float64 against mpmath at 50 digits and against
other formulas of the same quantity."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dptheory import divergences as dv
from tests.conftest import pmf_pairs, raises_naming, random_pmf


def _mp_hockey(p, q, e):
    with mpmath.workdps(80):
        g = mpmath.exp(mpmath.mpf(e))
        return mpmath.fsum(max(mpmath.mpf(a) - g * mpmath.mpf(b), 0) for a, b in zip(p, q))


@pytest.mark.parametrize("seed", range(6))
def test_hockey_stick_float_and_mpmath_agree_with_independent_sum(seed):
    rng = np.random.default_rng(seed)
    p, q = random_pmf(rng, 9, zeros=seed % 3), random_pmf(rng, 9, zeros=(seed + 1) % 3)
    eps = np.array([-0.5, 0.0, 0.3, 1.0, 2.5])
    got = dv.hockey_stick(p, q, eps)
    for e, g in zip(eps, got):
        ref = _mp_hockey(p, q, e)
        assert abs(g - float(ref)) <= 1e-14 * max(float(ref), 1e-300) + 1e-300
        assert abs(dv.hockey_stick(p, q, e, digits=50) - ref) <= mpmath.mpf(10) ** -48 * max(ref, mpmath.mpf(10) ** -300)


def test_hockey_stick_far_below_float_range():
    # P and Q differ only by tiny masses: delta = 1e-320 * (1 - e^eps * 1e-2 ...) underflows in float64
    p = np.array([1e-320, 1.0 - 1e-320])
    q = np.array([1e-322, 1.0 - 1e-322])
    ref = _mp_hockey(p, q, 1.0)
    got = dv.log_hockey_stick(p, q, 1.0)
    assert abs(got - float(mpmath.log(ref))) < 1e-9


def test_tv_is_hockey_stick_at_zero_and_kl_is_renyi_limit():
    rng = np.random.default_rng(7)
    p, q = random_pmf(rng, 6), random_pmf(rng, 6)
    assert math.isclose(dv.total_variation(p, q), dv.hockey_stick(p, q, 0.0), rel_tol=1e-13)
    assert math.isclose(dv.renyi(p, q, 1 + 1e-7), dv.kl(p, q), rel_tol=1e-5)
    assert math.isclose(dv.total_variation(p, q, digits=50), dv.total_variation(p, q), rel_tol=1e-14)
    assert abs(dv.kl(p, q, digits=50) - mpmath.mpf(dv.kl(p, q))) < 1e-14


@pytest.mark.parametrize("order", [1.5, 2.0, 7.3, 64.0])
def test_renyi_float_against_mpmath(order):
    rng = np.random.default_rng(int(order * 10))
    p, q = random_pmf(rng, 8), random_pmf(rng, 8)
    ref = dv.renyi(p, q, order, digits=50)
    with mpmath.workdps(80):
        direct = mpmath.log(mpmath.fsum(mpmath.mpf(a) ** order * mpmath.mpf(b) ** (1 - order) for a, b in zip(p, q))) / (order - 1)
    assert abs(ref - direct) < mpmath.mpf(10) ** -45
    assert math.isclose(dv.renyi(p, q, order), float(ref), rel_tol=1e-13)


def test_renyi_infinite_cases():
    assert dv.renyi([0.5, 0.5], [1.0, 0.0], 2.0) == math.inf
    assert dv.renyi([0.5, 0.5], [1.0, 0.0], 2.0, digits=30) == mpmath.inf
    assert math.isclose(dv.renyi([0.2, 0.8], [0.4, 0.6], math.inf), math.log(0.8 / 0.6))
    assert dv.kl([0.5, 0.5], [1.0, 0.0]) == math.inf


@given(pmf_pairs())
@settings(max_examples=60, deadline=None)
def test_generators_reproduce_the_named_divergences(pair):
    p, q = pair
    assert math.isclose(dv.f_divergence(p, q, dv.GENERATORS["total-variation"]), dv.total_variation(p, q), abs_tol=1e-12)
    assert math.isclose(dv.f_divergence(p, q, dv.hockey_stick_generator(0.4)), dv.hockey_stick(p, q, 0.4), abs_tol=1e-12)
    kl = dv.kl(p, q)
    fk = dv.f_divergence(p, q, dv.GENERATORS["kl"])
    assert (math.isinf(kl) and math.isinf(fk)) or math.isclose(fk, kl, rel_tol=1e-9, abs_tol=1e-12)
    r = dv.renyi(p, q, 3.0)
    pw = dv.f_divergence(p, q, dv.power_generator(3))
    if math.isfinite(r):
        assert math.isclose(pw, (math.exp(2 * r) - 1) / 6, rel_tol=1e-9, abs_tol=1e-12)
    else:
        assert math.isinf(pw)


def test_generator_limits_use_the_corrected_F0():
    # F(y) = sqrt(1 + y^2): F(0) = lim F = 1 (the printed lim F(s)/s would be infinite)
    length = dv.GENERATORS["length"]
    assert length.at_zero == 1.0 and length.slope_at_infinity == 1.0
    # a distribution pair with disjoint parts: the F-divergence counts F(0) Q[p=0] and tau P[q=0]
    val = dv.f_divergence([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], length)
    assert math.isclose(val, 0.5 * 1.0 + 0.5 * math.sqrt(2) + 0.5 * 1.0)


def test_bad_inputs():
    with raises_naming("p", "sums to"):
        dv.hockey_stick([0.5, 0.4], [0.5, 0.5], 0.0)
    with raises_naming("p and q", "same support"):
        dv.renyi([1.0], [0.5, 0.5], 2.0)
    with raises_naming("order", "(1, inf)"):
        dv.renyi([0.5, 0.5], [0.5, 0.5], 1.0)
    with raises_naming("epsilon"):
        dv.hockey_stick([0.5, 0.5], [0.5, 0.5], float("nan"))
    with raises_naming("gen"):
        dv.f_divergence([0.5, 0.5], [0.5, 0.5], "kl")
    with raises_naming("q", "outside the valid range"):
        dv.kl([0.5, 0.5], [1.5, -0.5])


def _mp_log_hockey(p, q, e):
    with mpmath.workdps(60):
        gm1 = mpmath.expm1(mpmath.mpf(e))  # p - e^eps q = (p - q) - q expm1(eps), exact for tiny eps
        total = mpmath.fsum(max(mpmath.mpf(a) - mpmath.mpf(b) - mpmath.mpf(b) * gm1, 0) for a, b in zip(p, q))
        return mpmath.log(total) if total > 0 else -mpmath.inf


@given(pmf_pairs(), st.floats(-3.0, 3.0), st.floats(-14.0, -1.0), st.booleans())
@settings(max_examples=200, deadline=None)
def test_log_hockey_stick_enclosure_contains_the_60_digit_value(pair, e, log_offset, at_kink):
    """Near a kink (e^eps q_i close to p_i) a term cancels: the enclosure widens instead of
    missing the value."""
    p, q = pair
    if at_kink:
        i = int(np.argmax((p > 0) & (q > 0)))
        if p[i] > 0 and q[i] > 0:
            e = math.log(p[i] / q[i]) + (10.0 ** log_offset) * (1 if e > 0 else -1)
    lo, hi = dv.log_hockey_stick_enclosure(p, q, e)
    ref = _mp_log_hockey(p, q, e)
    assert lo <= ref <= hi, (p, q, e, lo, hi, ref)


def test_log_hockey_stick_enclosure_single_atom_near_its_ratio():
    # one positive term p (1 - e^{eps} q / p) with eps 1e-12 below log(p/q): relative cancellation 1e-12
    p, q = [0.6, 0.4], [0.3, 0.7]
    e = math.log(2.0) - 1e-12
    lo, hi = dv.log_hockey_stick_enclosure(p, q, e)
    assert lo <= _mp_log_hockey(p, q, e) <= hi and hi - lo < 1e-2
