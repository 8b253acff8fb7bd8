"""The one epsilon(delta) inverter: certified brackets, theory limits, budgets, bad input."""

import math

import pytest
from hypothesis import given, settings, strategies as st

from dptheory import inverse
from dptheory.inverse import SearchParameters, epsilon_bracket
from dptheory.validate import DomainError


def exponential(err=1e-12):
    """delta(eps) = e^{-eps}, enclosed to +-err in log space: epsilon(delta) = log(1/delta)."""
    return lambda e, tol: (-e - err, -e + err)


@given(st.floats(1e-300, 0.9), st.floats(1e-12, 1e-3))
@settings(max_examples=60, deadline=None)
def test_bracket_contains_the_inverse_and_is_narrow(delta, rtol):
    b = epsilon_bracket(exponential(), delta, SearchParameters(rtol=rtol, atol=1e-15))
    truth = math.log(1 / delta)
    assert b.lower <= truth <= b.upper
    assert b.upper - b.lower <= rtol * b.upper + 1e-15 + 4e-12


def test_zero_when_the_profile_is_below_delta_everywhere():
    b = epsilon_bracket(lambda e, tol: (-10.0, -10.0), 0.5)
    assert (b.lower, b.upper) == (0.0, 0.0)


def test_a_profile_that_never_reaches_delta_gives_an_unbounded_bracket():
    b = epsilon_bracket(lambda e, tol: (-1.0, -1.0), 1e-3, SearchParameters(max_epsilon=100.0))
    assert b.lower == 100.0 and b.upper == math.inf


def test_theory_upper_limit_is_returned_when_the_profile_stays_above():
    # e.g. an eps0-LDP randomizer: epsilon(delta) <= eps0 by theory, though a loose bound's
    # profile is still above delta there
    b = epsilon_bracket(lambda e, tol: (-1.0, -1.0), 1e-3, SearchParameters(upper=2.0, rtol=1e-6))
    assert b.upper == 2.0 and b.at_theory_limit


def test_refinement_is_asked_for_when_an_enclosure_straddles_the_target():
    asked = []

    def profile(e, tol):
        asked.append(tol)
        width = max(tol, 1e-14)
        return -e - width, -e + width

    b = epsilon_bracket(profile, 1e-5, SearchParameters(rtol=1e-9, tol=1e-1))
    assert b.lower <= math.log(1e5) <= b.upper
    assert min(asked) < 1e-1


def test_budget_returns_the_certified_bracket_reached_so_far():
    b = epsilon_bracket(exponential(), 1e-5, SearchParameters(rtol=1e-15, atol=0, max_evaluations=8))
    assert b.lower <= math.log(1e5) <= b.upper and b.evaluations <= 8 and b.budget_exhausted


def test_bad_parameters_are_named():
    with pytest.raises(DomainError, match="rtol"):
        SearchParameters(rtol=-1.0)
    with pytest.raises(DomainError, match="delta"):
        epsilon_bracket(exponential(), 1.5)


def test_zero_is_tried_once_before_shrinking_towards_it():
    """Issue 9 (stalls): a profile below delta at the first guess and at 0 was shrunk towards 0 by
    factors of 4 (about 20 evaluations from a guess of 1e-3, each a costly divergence at large n);
    epsilon = 0 is now tried at once. The profile here is e^-eps - 20 (below 1/2 everywhere)."""
    calls = []

    def profile(e, tol):
        calls.append(e)
        return -e - 20.0, -e - 20.0

    b = epsilon_bracket(profile, 0.5, SearchParameters(initial_guess=1e-3, rtol=1e-3))
    assert (b.lower, b.upper) == (0.0, 0.0) and len(calls) <= 2, calls


def test_points_far_from_the_target_are_decided_by_a_coarse_enclosure():
    """Issue 9 (stalls): a refining profile (its cost grows as the asked log-width shrinks) was
    asked for the full tolerance at every point, even where delta is orders of magnitude from the
    target (Laplace, eps0 = 0.1, n = 1e12, delta = 0.5: 6.4 s in the labelled bound at eps = 0).
    A far point is now decided at COARSE_TOL; only points near the answer get the fine tolerance,
    and the bracket is as narrow as asked."""
    from dptheory.inverse import COARSE_TOL

    asked = []

    def profile(e, tol):  # delta = e^-eps, enclosed to exactly the asked width
        asked.append((e, tol))
        return -e - tol / 2, -e + tol / 2

    b = epsilon_bracket(profile, 1e-6, SearchParameters(rtol=1e-6))
    exact = math.log(1e6)
    assert b.lower <= exact <= b.upper and b.upper - b.lower <= 1e-6 * b.upper + 1e-12
    fine = [e for e, tol in asked if tol < COARSE_TOL]
    far = [e for e in fine if abs(e - exact) > 2 * COARSE_TOL]
    assert not far, far


def test_decide_serves_every_point_and_gives_a_certified_bracket():
    """A profile may offer a cheaper ``decide(e, tol, band)`` that stops once it is certain of
    its side of the band (here: above, returning only the valid upper end 0). The inverter then
    uses it at every point, never the plain profile, and the bracket still contains the answer
    log(1/delta) of delta(eps) = e^-eps and is as narrow as asked."""
    plain_calls, bands = [], []

    def profile(e, tol):
        plain_calls.append(e)
        return -e - tol / 2, -e + tol / 2

    def decide(e, tol, band):
        bands.append(band)
        lo, hi = -e - tol / 2, -e + tol / 2
        return (lo, 0.0) if lo > band[1] else (lo, hi)

    params = SearchParameters(initial_guess=30.0, rtol=1e-6)
    b = epsilon_bracket(profile, 1e-6, params, decide=decide)
    exact = math.log(1e6)
    assert not plain_calls and bands and all(lo <= math.log(1e-6) <= hi for lo, hi in bands)
    assert b.lower <= exact <= b.upper and b.upper - b.lower <= 1e-6 * b.upper + 1e-12


def test_bisect_monotone_brackets_the_threshold_of_a_monotone_test():
    """The threshold of x^2 >= 2 (decided exactly with fractions) is sqrt(2): it stays inside the
    bracket, the bracket shrinks to the tolerance, to adjacent floats with tol = 0, or by half at
    each of a fixed number of steps; the two ends given are never tested."""
    from fractions import Fraction

    from dptheory.inverse import bisect_monotone

    calls = []

    def holds(x):
        calls.append(x)
        return Fraction(x) ** 2 >= 2

    lo, hi = bisect_monotone(holds, 0.0, 2.0, tol=1e-9)
    assert Fraction(lo) ** 2 < 2 <= Fraction(hi) ** 2 and 0 < hi - lo <= 1e-9
    assert 0.0 not in calls and 2.0 not in calls
    lo, hi = bisect_monotone(holds, 0.0, 2.0)
    assert math.nextafter(lo, math.inf) == hi and Fraction(lo) ** 2 < 2 <= Fraction(hi) ** 2
    calls.clear()
    lo, hi = bisect_monotone(holds, 0.0, 2.0, max_steps=3)
    assert len(calls) == 3 and (lo, hi) == (1.25, 1.5)


# ----------------------------------------------------------------------------- shape = "gaussian"


def _gdp_profile(mu):
    """The mu-GDP profile in log space to 50 digits (mpmath, Dong, Roth, Su 2022, Corollary 2.13),
    enclosed to +-1e-12, and the evaluations counted."""
    import mpmath

    calls = []

    def profile(e, tol):
        calls.append((e, tol))
        with mpmath.workdps(50):
            m, x = mpmath.mpf(mu), mpmath.mpf(e)
            d = mpmath.ncdf(-x / m + m / 2) - mpmath.exp(x) * mpmath.ncdf(-x / m - m / 2)
            v = float(mpmath.log(d))
        return v - 1e-12, v + 1e-12

    return profile, calls


def _gdp_epsilon(mu, delta):
    """epsilon(delta) of mu-GDP by bisection at 50 digits (mpmath; an independent inverse)."""
    import mpmath

    with mpmath.workdps(50):
        m = mpmath.mpf(mu)
        f = lambda x: mpmath.ncdf(-x / m + m / 2) - mpmath.exp(x) * mpmath.ncdf(-x / m - m / 2) - mpmath.mpf(delta)  # noqa: E731
        lo, hi = mpmath.mpf(0), 50 * m + 40
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
        return float(lo)


@pytest.mark.parametrize("mu, delta, guess, most", [(1e-4, 1e-8, 3e-4, 4), (1e-6, 1e-30, 1e-4, 6), (0.05, 1e-6, 0.2, 5),
                                                    (1e-3, 1e-100, 1e-3, 6), (2.0, 1e-5, 1.0, 10)])
def test_gaussian_shape_brackets_the_gdp_inverse_in_few_evaluations(mu, delta, guess, most):
    """The "gaussian" search on the mu-GDP profile (evaluated with mpmath; its inverse found by
    bisection at 50 digits): the bracket contains the inverse, is as narrow as asked, and takes
    at most ``most`` evaluations from a guess up to 20 times off, with a theory limit far above
    (more at mu = 2, where the small-mu profile the search fits is a poor model)."""
    profile, calls = _gdp_profile(mu)
    b = epsilon_bracket(profile, delta, SearchParameters(upper=50.0, initial_guess=guess, rtol=1e-3, shape="gaussian"))
    truth = _gdp_epsilon(mu, delta)
    assert b.lower <= truth <= b.upper and b.upper - b.lower <= 1e-3 * b.upper
    assert b.evaluations == len(calls) <= most, calls


@given(st.floats(1e-300, 0.9), st.floats(1e-9, 1e-3), st.floats(1e-3, 1e3))
@settings(max_examples=60, deadline=None)
def test_gaussian_shape_is_certified_on_a_profile_of_another_shape(delta, rtol, guess):
    """The shape only chooses the points: on delta(eps) = e^-eps (log delta linear, not a
    parabola) the bracket still contains log(1/delta) and is as narrow as asked."""
    b = epsilon_bracket(exponential(), delta, SearchParameters(rtol=rtol, atol=1e-15, initial_guess=guess,
                                                               shape="gaussian"))
    truth = math.log(1 / delta)
    assert b.lower <= truth <= b.upper
    assert b.upper - b.lower <= rtol * b.upper + 1e-15 + 4e-12


def test_gaussian_shape_limits_and_zero():
    """The ends of the "gaussian" search: a profile below delta at 0 gives [0, 0]; one that stays
    above gives the theory limit, or [max_epsilon, inf] without one; a budget returns the bracket
    reached so far; an unknown shape is refused."""
    b = epsilon_bracket(lambda e, tol: (-10.0 - e, -10.0 - e), 1e-3, SearchParameters(initial_guess=1.0, shape="gaussian"))
    assert (b.lower, b.upper) == (0.0, 0.0) and b.evaluations <= 3
    b = epsilon_bracket(lambda e, tol: (-1.0, -1.0), 1e-3, SearchParameters(upper=2.0, rtol=1e-6, shape="gaussian"))
    assert b.upper == 2.0 and b.at_theory_limit and b.lower < 2.0
    b = epsilon_bracket(lambda e, tol: (-1.0, -1.0), 1e-3, SearchParameters(max_epsilon=100.0, shape="gaussian"))
    assert b.lower == 100.0 and b.upper == math.inf
    b = epsilon_bracket(exponential(), 1e-5, SearchParameters(rtol=1e-15, atol=0, max_evaluations=3, shape="gaussian"))
    assert b.lower <= math.log(1e5) <= b.upper and b.evaluations <= 3 and b.budget_exhausted
    with pytest.raises(DomainError, match="shape"):
        SearchParameters(shape="parabola")


def test_gaussian_shape_steps_off_a_point_that_straddles_the_target():
    """A point whose enclosure straddles the target at the tolerance is within that width of the
    answer: its two neighbours AIM_OFF of the allowed width away are tried at the same tolerance
    before any tighter enclosure is asked for (the profile here decides them at once)."""
    from dptheory.inverse import COARSE_TOL

    asked = []
    truth = math.log(1e8) / 4.0  # delta(eps) = e^{-4 eps}... enclosed to +-tol/2

    def profile(e, tol):
        asked.append((e, tol))
        return -4 * e - tol / 2, -4 * e + tol / 2

    b = epsilon_bracket(profile, 1e-8, SearchParameters(initial_guess=truth, rtol=1e-3, tol=1e-3, shape="gaussian"))
    assert b.lower <= truth <= b.upper and b.upper - b.lower <= 1e-3 * b.upper
    assert min(t for _, t in asked) >= 1e-3 and len(asked) <= 4, asked
    assert all(t in (1e-3, COARSE_TOL) for _, t in asked)


def test_golden_minimum_finds_the_minimiser_within_xatol():
    """Against minimisers known in closed form: (x - 0.3)^2 and |x - 0.7| (not smooth) to
    within xatol; x log x + 1 (minimum 1 - 1/e at 1/e), where values within float resolution of
    the minimum cannot be told apart, to within the square root of the unit roundoff."""
    cases = [(lambda x: (x - 0.3) ** 2, 0.3, 0.0, 1e-10, 1e-20),
             (lambda x: abs(x - 0.7), 0.7, 0.0, 1e-10, 1e-10),
             (lambda x: x * math.log(x) + 1.0, 1 / math.e, 1 - 1 / math.e, 3e-8, 2e-16)]
    for f, x_star, f_star, x_tol, f_tol in cases:
        x, fx = inverse.golden_minimum(f, 1e-9, 1.0, xatol=1e-10)
        assert abs(x - x_star) <= x_tol
        assert fx == f(x) and f_star - 2e-16 <= fx <= f_star + f_tol


def test_golden_minimum_counts_its_evaluations():
    """Two evaluations to start, one per step: about log(width / xatol) / log(golden ratio)."""
    calls = []
    inverse.golden_minimum(lambda x: calls.append(x) or (x - 0.5) ** 2, 0.0, 1.0, xatol=1e-10)
    assert len(calls) <= 2 + math.ceil(math.log(1e10) / math.log((1 + math.sqrt(5)) / 2)) + 1


@pytest.mark.parametrize("lo, hi, xatol", [(1.0, 1.0, 1e-9), (2.0, 1.0, 1e-9), (0.0, math.inf, 1e-9),
                                           (0.0, 1.0, 0.0), (math.nan, 1.0, 1e-9)])
def test_golden_minimum_rejects_an_empty_interval_or_tolerance(lo, hi, xatol):
    with pytest.raises(DomainError):
        inverse.golden_minimum(lambda x: x * x, lo, hi, xatol=xatol)
